// `verify --runtime ort`: load the model in ONNX Runtime on the CPU, check the config's tensors against
// the model's, then run it at batch 1 and at max_batch_size (or once at the fixed shape) with inputs
// shaped and typed from the config, and compare what comes back with the config. This finds what no
// static check can: a graph that declares a dynamic batch axis but hard-codes batch 1 inside.
import { sizesMessage } from './input-sizes.js';
import { performance } from 'node:perf_hooks';
import { dataTypeOfConfig, dataTypeOfOrt } from './datatypes.js';
import { CannotRun } from './errors.js';
import { checkIo, type ModelTensor } from './io-checks.js';
import { loadOrt, type OrtApi, type OrtLoader, type OrtSession, type OrtSessionOptions, type OrtTensor, type OrtValueMetadata } from './ort-loader.js';
import { checkOutputs, type ActualOutput } from './outputs.js';
import { batchSizes, type VerifyPlan } from './plan.js';
import { requestShape, shapeText } from './shapes.js';
import type { BatchRun, VerifyProblem, VerifyReport } from './types.js';
import { withPrivateTemp } from '../util/private-temp.js';
import { append } from '../util/arrays.js';
import { ONNX_MODEL_FILE } from '../triton/backend-records.js';
import { nameRecord } from '../util/name-record.js';

export interface OrtRunOptions {
  loader?: OrtLoader;
  /** The size sent for a -1 dim other than the batch dim (default 1). */
  dynamicDimSize?: number;
  progress?: (line: string) => void;
}

/** Triton's mapping of optimization.graph.level to ONNX Runtime's levels (ORT's ModelState::ModelState). */
export function graphOptimizationLevel(level: number | undefined): OrtSessionOptions['graphOptimizationLevel'] {
  if (level === -1) return 'basic';
  if (level === 1) return 'extended';
  if (level === 2) return 'disabled';
  return 'all';
}

/** Zero-filled data of onnxruntime-node's type for `count` elements. */
export function zeroData(ortType: string, count: number): unknown {
  switch (ortType) {
    case 'string':
      return new Array<string>(count).fill('');
    case 'bool':
    case 'uint8':
      return new Uint8Array(count);
    case 'int8':
      return new Int8Array(count);
    // FP16 travels as raw bits in a Uint16Array (Node 20 has no Float16Array); zero bits are 0.0.
    case 'uint16':
    case 'float16':
      return new Uint16Array(count);
    case 'int16':
      return new Int16Array(count);
    case 'uint32':
      return new Uint32Array(count);
    case 'int32':
      return new Int32Array(count);
    case 'uint64':
      return new BigUint64Array(count);
    case 'int64':
      return new BigInt64Array(count);
    case 'float32':
      return new Float32Array(count);
    case 'float64':
      return new Float64Array(count);
    default:
      throw new CannotRun(`onnxruntime-node cannot make a tensor of type ${ortType}`);
  }
}

const elements = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/**
 * ONNX Runtime's errors carry a C++ source path and function signature before the readable part,
 * e.g. "/onnxruntime_src/.../reshape_helper.h:91 onnxruntime::ReshapeHelper::ReshapeHelper(...) ".
 */
export function cleanOrtError(message: string): string {
  return message
    .replace(/\/onnxruntime_src\/\S+:\d+ [^\s(]+\([^)]*\)(?: const)? /g, '')
    .replace(/\s+$/g, '')
    .replace(/\n+/g, ' ');
}

/** Model inputs Triton feeds itself rather than the client: sequence controls/states, batch inputs. */
export function inputsFedByTriton(plan: VerifyPlan): Set<string> {
  const names = new Set<string>();
  const seq = plan.config.sequence_batching;
  for (const c of seq?.control_input ?? []) if (c.name) names.add(c.name);
  for (const s of seq?.state ?? []) if (s.input_name) names.add(s.input_name);
  for (const b of plan.config.batch_input ?? []) for (const t of b.target_name ?? []) names.add(t);
  return names;
}

function modelTensor(m: OrtValueMetadata): ModelTensor {
  const t: ModelTensor = { name: m.name };
  if (m.isTensor && m.type) t.dataType = dataTypeOfOrt(m.type)?.config ?? m.type;
  if (m.isTensor && m.shape) t.shape = m.shape;
  return t;
}

function engineName(ort: OrtApi): string {
  const v = ort.env?.versions?.common ?? ort.env?.versions?.node;
  return `ONNX Runtime${v ? ` ${v}` : ''} (CPU)`;
}

export async function runOrt(plan: VerifyPlan, report: VerifyReport, opts: OrtRunOptions = {}): Promise<void> {
  const onnxFile = plan.onnxFile;
  if (!onnxFile) {
    throw new CannotRun(
      `${plan.shown(plan.modelDir)} has no ONNX model for Triton to load (looked for <version>/${plan.config.default_model_filename || ONNX_MODEL_FILE} in the latest version the version_policy selects). ` +
        '--runtime ort runs ONNX models only; for other backends use --runtime docker',
    );
  }
  if (!plan.inputs.length || !plan.outputs.length) {
    throw new CannotRun(
      `config.pbtxt lists no ${plan.inputs.length ? 'outputs' : 'inputs'}; Triton would auto-complete them from the model, which --runtime ort does not imitate. ` +
        `Write them with tritonc generate ${plan.shown(plan.modelDir)} --write, or verify with --runtime docker (a real Triton auto-completes)`,
    );
  }
  for (const t of [...plan.inputs, ...plan.outputs]) {
    const info = dataTypeOfConfig(t.dataType);
    if (info && !info.ort) throw new CannotRun(`'${t.name}' is ${t.dataType}, which onnxruntime-node cannot run; verify this model with --runtime docker`);
  }
  const ort = await loadOrt(opts.loader);
  report.modelFile = plan.shown(onnxFile);
  report.engine = engineName(ort);

  // ONNX Runtime writes files into the temp dir of every process that creates a session.
  await withPrivateTemp(() => runSession(ort, onnxFile, plan, report, opts), 'tritonc-ort-');
}

async function runSession(ort: OrtApi, onnxFile: string, plan: VerifyPlan, report: VerifyReport, opts: OrtRunOptions): Promise<void> {
  const progress = opts.progress ?? (() => {});
  const dynamicSize = opts.dynamicDimSize ?? 1;
  const level = graphOptimizationLevel(plan.config.optimization?.graph?.level);
  progress(`loading ${report.modelFile} in ONNX Runtime (CPU, graph optimization ${level})`);
  let session: OrtSession;
  const started = performance.now();
  try {
    session = await ort.InferenceSession.create(onnxFile, { executionProviders: ['cpu'], graphOptimizationLevel: level, logSeverityLevel: 3 });
  } catch (e) {
    const message = `ONNX Runtime cannot load ${report.modelFile}: ${cleanOrtError((e as Error).message)}`;
    report.load = { ok: false, detail: message };
    report.problems.push({ kind: 'load', message });
    return;
  }
  report.load = { ok: true, ms: round(performance.now() - started), detail: `graph optimization ${level}` };
  noteCpuOnly(plan, report);
  try {
    const fed = inputsFedByTriton(plan);
    const modelInputs = session.inputMetadata?.map(modelTensor) ?? session.inputNames.map((name) => ({ name }));
    const modelOutputs = session.outputMetadata?.map(modelTensor) ?? session.outputNames.map((name) => ({ name }));
    const ioProblems = checkIo({ inputs: plan.inputs, outputs: plan.outputs, maxBatchSize: plan.maxBatchSize, modelInputs, modelOutputs, fedByTriton: fed });
    append(report.problems, ioProblems);
    // Runs cannot start without the right input names, types and shapes; output findings still allow them.
    const inputNames = new Set([...plan.inputs.map((i) => i.name), ...modelInputs.map((m) => m.name)]);
    const blocking = ioProblems.some((p) => p.tensor !== undefined && inputNames.has(p.tensor));
    if (blocking) {
      report.notes.push('no inference was run: the inputs above do not match the model');
      return;
    }
    const metaByName = new Map((session.inputMetadata ?? []).map((m) => [m.name, m]));
    const fetches = plan.outputs.map((o) => o.name).filter((n) => session.outputNames.includes(n));
    let passedAt: number | undefined;
    for (const batch of batchSizes(plan.maxBatchSize)) {
      progress(`running at ${batch === undefined ? 'the fixed shape' : `batch ${batch}`}`);
      const run = await runOnce(ort, session, plan, batch, dynamicSize, fed, metaByName, fetches);
      report.runs.push(run.run);
      // Failing at batch 1 (or the fixed shape) is not the batch question verify asks: the sizes may be too small.
      if (run.run.error && (batch === undefined || batch === 1))
        throw new CannotRun(
          sizesMessage(batch === undefined ? 'at its fixed shape' : 'at batch 1', run.run.error, plan.inputs, plan.sizes, dynamicSize, batch !== undefined),
        );
      append(report.problems, run.problems);
      if (run.run.ok && batch !== undefined) passedAt ??= batch;
      if (run.run.error && batch !== undefined && batch > 1 && passedAt === 1) {
        report.problems.push({
          kind: 'run',
          batchSize: batch,
          message: `the model answers at batch 1 but fails at batch ${batch}: its graph likely hard-codes batch 1 behind the dynamic batch axis (a Reshape or Expand to a fixed shape). Re-export it with the batch dim kept dynamic (e.g. reshape to [-1, ...]), or set max_batch_size: 1`,
        });
      }
    }
  } finally {
    await session.release().catch(() => {});
  }
}

async function runOnce(
  ort: OrtApi,
  session: OrtSession,
  plan: VerifyPlan,
  batch: number | undefined,
  dynamicSize: number,
  fed: ReadonlySet<string>,
  metaByName: ReadonlyMap<string, OrtValueMetadata>,
  fetches: string[],
): Promise<{ run: BatchRun; problems: VerifyProblem[] }> {
  const batchSize = batch ?? null;
  const feeds = nameRecord<OrtTensor>();
  const inputs: BatchRun['inputs'] = [];
  const add = (name: string, ortType: string, configType: string, shape: number[]): void => {
    feeds[name] = new ort.Tensor(ortType, zeroData(ortType, elements(shape)), shape);
    inputs.push({ name, dataType: configType, shape });
  };
  for (const spec of plan.inputs) {
    const info = dataTypeOfConfig(spec.dataType);
    if (!info?.ort) throw new CannotRun(`input '${spec.name}' has data_type ${spec.dataType}, which verify cannot send`);
    add(
      spec.name,
      info.ort,
      spec.dataType,
      requestShape(spec.modelDims, batch, dynamicSize, spec.modelDims === spec.dims ? plan.sizes.get(spec.name)?.dims : undefined),
    );
  }
  // Tensors Triton itself would feed (sequence controls, states, batch inputs): zeros in the model's shape.
  for (const name of fed) {
    const m = metaByName.get(name);
    if (!m?.type || !m.shape || feeds[name]) continue;
    const shape = m.shape.map((d, i) => (typeof d === 'number' && d >= 0 ? d : i === 0 && batch !== undefined ? batch : dynamicSize));
    add(name, m.type, dataTypeOfOrt(m.type)?.config ?? m.type, shape);
  }
  const started = performance.now();
  let results: Record<string, OrtTensor>;
  try {
    // The error comes back in the exception; level 4 keeps ONNX Runtime from also printing it to stderr.
    results = await session.run(feeds, fetches, { logSeverityLevel: 4 });
  } catch (e) {
    const error = cleanOrtError((e as Error).message);
    const at = batch === undefined ? 'at its fixed shape' : `at batch ${batch}`;
    const sent = inputs.map((i) => `'${i.name}' ${shapeText(i.shape)}`).join(', ');
    return {
      run: { batchSize, ok: false, ms: round(performance.now() - started), inputs, outputs: [], error },
      problems: [{ kind: 'run', batchSize, message: `the model fails ${at} (inputs ${sent}): ONNX Runtime: ${error}` }],
    };
  }
  const ms = round(performance.now() - started);
  const actual = new Map<string, ActualOutput>();
  for (const [name, t] of Object.entries(results)) actual.set(name, { dataType: dataTypeOfOrt(t.type)?.config ?? t.type, shape: [...t.dims] });
  const checked = checkOutputs(
    plan.outputs.filter((o) => fetches.includes(o.name)),
    actual,
    batch,
    'model',
  );
  return { run: { batchSize, ok: checked.problems.length === 0, ms, inputs, outputs: checked.outputs }, problems: checked.problems };
}

function noteCpuOnly(plan: VerifyPlan, report: VerifyReport): void {
  const gpuGroups = (plan.config.instance_group ?? []).some((g) => g.kind === 'KIND_GPU');
  const accelerators = (plan.config.optimization?.execution_accelerators?.gpu_execution_accelerator ?? []).map((a) => a.name).filter(Boolean);
  if (gpuGroups || accelerators.length) {
    const what = [
      gpuGroups ? 'KIND_GPU instances' : '',
      accelerators.length ? `the ${accelerators.join(', ')} accelerator${accelerators.length > 1 ? 's' : ''}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    report.notes.push(`ONNX Runtime ran on the CPU: ${what} were not exercised; tritonc verify --runtime docker runs them in Triton on a GPU`);
  }
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
