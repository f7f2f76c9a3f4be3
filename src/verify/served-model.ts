// The checks on a model a Triton server has loaded (shared by --runtime docker and --runtime server):
// it is ready; its effective config against config.pbtxt, field by field; then one KServe v2
// inference per batch size, shaped and typed from the effective config, with every output's name,
// datatype and shape checked against it.
import { diffConfigs } from './config-diff.js';
import { dataTypeOfKserve, dataTypeOfConfig } from './datatypes.js';
import { CannotRun } from './errors.js';
import type { InferRequest } from './infer-body.js';
import { KServeError, type KServeClient, type RequestDescription } from './kserve-client.js';
import type { EffectiveConfig } from './kserve-schemas.js';
import { checkOutputs, type ActualOutput } from './outputs.js';
import { batchSizes, type TensorSpec, type VerifyPlan } from './plan.js';
import { requestShape, shapeText } from './shapes.js';
import { classifyTritonMessage } from './triton-messages.js';
import { sizesMessage, type InputSize } from './input-sizes.js';
import type { VerifyReport } from './types.js';
import { compareOutput, errorText, referenceOutputs, toleranceText, undecidedMessage, valuesOf, type ReferenceOptions } from './reference.js';
import { referenceInputs } from './reference-inputs.js';
import { append } from '../util/arrays.js';

export interface ServedCheckOptions {
  /** --reference: compare the outputs with ONNX Runtime's on the same inputs (the user's, else seeded). */
  reference?: ReferenceOptions;
  client: KServeClient;
  plan: VerifyPlan;
  report: VerifyReport;
  dynamicDimSize?: number;
  /** Timeout of one inference request. */
  timeoutMs?: number;
  progress?: (line: string) => void;
}

const num = (v: number | string): number => Number(v);

/** The effective config's tensors in verify's form. */
export function specsOfEffective(config: EffectiveConfig): { inputs: TensorSpec[]; outputs: TensorSpec[] } {
  const spec = (t: EffectiveConfig['input'][number]): TensorSpec => {
    const dims = t.dims.map(num);
    return { name: t.name, dataType: t.data_type, dims, modelDims: t.reshape ? t.reshape.shape.map(num) : dims, optional: Boolean(t.optional) };
  };
  return { inputs: config.input.map(spec), outputs: config.output.map(spec) };
}

/** The inference request verify sends at one batch size (zeros of the right type and shape). */
export function inferRequestFor(
  inputs: readonly TensorSpec[],
  outputs: readonly TensorSpec[],
  batch: number | undefined,
  dynamicSize: number,
  sizes: ReadonlyMap<string, InputSize> = new Map(),
): InferRequest {
  return {
    inputs: inputs.map((t) => {
      const datatype = dataTypeOfConfig(t.dataType)?.kserve;
      if (!datatype) throw new CannotRun(`input '${t.name}' has data_type ${t.dataType}, which has no KServe v2 datatype to send`);
      return { name: t.name, datatype, shape: requestShape(t.dims, batch, dynamicSize, sizes.get(t.name)?.dims) };
    }),
    outputs: outputs.map((o) => o.name),
  };
}

/** The requests the checks send, for --dry-run (built from the local config: the effective one is not known yet). */
export function describeServedChecks(client: KServeClient, plan: VerifyPlan, dynamicSize: number): RequestDescription[] {
  const name = encodeURIComponent(plan.modelName);
  return [
    client.describe('GET', `/v2/models/${name}/ready`),
    client.describe('GET', `/v2/models/${name}/config`),
    client.describe('GET', `/v2/models/${name}`),
    ...batchSizes(plan.maxBatchSize).map((b) => client.describeInfer(plan.modelName, inferRequestFor(plan.inputs, plan.outputs, b, dynamicSize, plan.sizes))),
  ];
}

/** Turns a failure to talk to the server into "could not run"; HTTP refusals stay with the caller. */
export function cannotRunFrom(e: unknown, what: string): never {
  if (e instanceof KServeError && e.kind !== 'http') throw new CannotRun(`${what}: ${e.message}`);
  throw e;
}

export async function checkServedModel(opts: ServedCheckOptions): Promise<void> {
  const { client, plan, report } = opts;
  const progress = opts.progress ?? (() => {});
  const dynamicSize = opts.dynamicDimSize ?? 1;
  const name = plan.modelName;
  const failedRequest = (e: unknown): never => {
    if (e instanceof KServeError && e.kind === 'http')
      throw new CannotRun(`${e.message} (the model loaded, so this is the server's answer, not a config problem)`);
    return cannotRunFrom(e, 'lost the server');
  };

  const ready = await client.modelReady(name).catch(failedRequest);
  if (!ready) {
    report.problems.push({ kind: 'load', message: `'${name}' is not ready on ${client.baseUrl} (GET /v2/models/${name}/ready did not answer 200)` });
    return;
  }
  const { config, raw } = await client.modelConfig(name).catch(failedRequest);
  report.configDiff = diffConfigs(plan.configJson, raw);
  const metadata = await client.modelMetadata(name).catch(failedRequest);
  report.load = {
    ...(report.load ?? { ok: true }),
    ok: true,
    detail: [report.load?.detail, `platform ${metadata.platform}${metadata.versions?.length ? `, version ${metadata.versions.join(', ')}` : ''}`]
      .filter(Boolean)
      .join('; '),
  };
  if (config.max_batch_size !== plan.maxBatchSize) {
    report.notes.push(
      `Triton runs ${name} with max_batch_size ${config.max_batch_size} (config.pbtxt: ${plan.maxBatchSize}); the inferences use Triton's value`,
    );
  }
  // Triton's HTTP /infer and gRPC ModelInfer refuse a decoupled model (server src/http_server.cc: "HTTP
  // end point doesn't support models with decoupled transaction policy"; src/grpc/infer_handler.cc: the
  // same for ModelInfer); it answers over gRPC ModelStreamInfer or HTTP generate_stream only.
  if ((raw as { model_transaction_policy?: { decoupled?: boolean } } | undefined)?.model_transaction_policy?.decoupled) {
    report.notes.push(
      `${name} is decoupled: Triton's HTTP /infer and gRPC ModelInfer do not serve decoupled models ("HTTP end point doesn't support models with decoupled transaction policy"), so verify checked that it loads and the config Triton runs, and sent no inference; clients reach it over gRPC streaming (ModelStreamInfer) or HTTP generate_stream`,
    );
    return;
  }
  // The effective config is what Triton checks requests against, so requests follow it.
  const { inputs, outputs } = specsOfEffective(config);
  let passedAt: number | undefined;
  for (const batch of batchSizes(config.max_batch_size)) {
    const batchSize = batch ?? null;
    progress(`inference at ${batch === undefined ? 'the fixed shape' : `batch ${batch}`}`);
    const request = inferRequestFor(inputs, outputs, batch, dynamicSize, plan.sizes);
    const sent = request.inputs.map((i) => ({ name: i.name, dataType: dataTypeOfKserve(i.datatype)?.config ?? i.datatype, shape: i.shape }));
    try {
      const { response, ms } = await client.infer(name, request, opts.timeoutMs);
      const actual = new Map<string, ActualOutput>(
        response.outputs.map((o) => [o.name, { dataType: dataTypeOfKserve(o.datatype)?.config ?? o.datatype, shape: o.shape }]),
      );
      const checked = checkOutputs(outputs, actual, batch, 'client');
      report.runs.push({ batchSize, ok: checked.problems.length === 0, ms, inputs: sent, outputs: checked.outputs });
      append(report.problems, checked.problems);
      if (checked.problems.length === 0 && batch !== undefined) passedAt ??= batch;
    } catch (e) {
      if (!(e instanceof KServeError) || e.kind !== 'http') cannotRunFrom(e, `inference at ${batch === undefined ? 'the fixed shape' : `batch ${batch}`}`);
      const error = e.serverMessage ?? (e as Error).message;
      report.runs.push({ batchSize, ok: false, inputs: sent, outputs: [], error });
      // Failing at batch 1 (or the fixed shape) is not the batch question verify asks: the sizes may be too small.
      if (batch === undefined || batch === 1)
        throw new CannotRun(
          sizesMessage(batch === undefined ? 'at its fixed shape' : 'at batch 1', `Triton: ${error}`, inputs, plan.sizes, dynamicSize, batch !== undefined),
        );
      const at = batch === undefined ? 'at its fixed shape' : `at batch ${batch}`;
      const { ruleId } = classifyTritonMessage(error);
      report.problems.push({
        kind: 'run',
        batchSize,
        ...(ruleId ? { ruleId } : {}),
        message: `the inference ${at} failed (inputs ${sent.map((i) => `'${i.name}' ${shapeText(i.shape)}`).join(', ')}): Triton: ${error}`,
      });
      if (batch !== undefined && batch > 1 && passedAt === 1) {
        report.problems.push({
          kind: 'run',
          batchSize,
          message: `the model answers at batch 1 but fails at batch ${batch}: its graph likely hard-codes batch 1 behind the dynamic batch axis. Re-export it with the batch dim kept dynamic, or set max_batch_size: 1`,
        });
      }
    }
  }
  if (opts.reference) await checkAgainstReference(opts, opts.reference, inputs, outputs, config.max_batch_size, dynamicSize, failedRequest);
}

/**
 * The served model against the reference on one inference: the user's inputs where given (their batch
 * size), seeded ones otherwise (batch 1, or the fixed shape). A tolerance that decided nothing is
 * exit 2 ("could not verify") when nothing else failed, and a note beside the problems otherwise.
 */
async function checkAgainstReference(
  opts: ServedCheckOptions,
  reference: ReferenceOptions,
  inputs: TensorSpec[],
  outputs: TensorSpec[],
  maxBatchSize: number,
  dynamicSize: number,
  failedRequest: (e: unknown) => never,
): Promise<void> {
  const { client, plan, report } = opts;
  (opts.progress ?? (() => {}))(`the outputs against ONNX Runtime on ${reference.modelFile}`);
  const sent = referenceInputs(reference.inputs ?? [], inputs, maxBatchSize, dynamicSize, plan.sizes);
  const batch = sent.batch;
  const request: InferRequest = {
    inputs: sent.inputs.map((i) => ({ name: i.name, datatype: i.datatype, shape: i.shape, data: i.bytes })),
    outputs: outputs.map((o) => o.name),
  };
  const served = await client.infer(plan.modelName, request, opts.timeoutMs).catch(failedRequest);
  const expected = await referenceOutputs(
    reference,
    sent.inputs,
    outputs.map((o) => o.name),
  );
  const byName = new Map(served.response.outputs.map((o) => [o.name, o]));
  const compared = outputs.map((o) => {
    const got = byName.get(o.name);
    const bytes = served.binary.get(o.name);
    return compareOutput(
      o.name,
      got && bytes ? { shape: got.shape, values: valuesOf(got.datatype, bytes) } : undefined,
      expected.get(o.name),
      reference.atol,
      reference.rtol,
    );
  });
  report.reference = {
    against: 'ONNX Runtime (CPU)',
    modelFile: plan.shown(reference.modelFile),
    atol: reference.atol,
    rtol: reference.rtol,
    batchSize: batch ?? null,
    inputs: sent.from,
    outputs: compared,
  };
  for (const c of compared.filter((x) => !x.ok && !x.undecided)) {
    report.problems.push({
      kind: 'accuracy',
      tensor: c.name,
      batchSize: batch ?? null,
      message: c.problem
        ? `output '${c.name}' cannot be compared with ONNX Runtime's: ${c.problem}`
        : `output '${c.name}' differs from ONNX Runtime's by up to ${errorText(c.maxAbsError)} (relative ${errorText(c.maxRelError)}) on ${c.mismatched} of ${c.elements} elements, past --atol ${toleranceText(reference.atol)} / --rtol ${toleranceText(reference.rtol)}: an FP16 or INT8 engine, or a changed model? Compare the precision settings (optimization.execution_accelerators), or widen the tolerance if the difference is expected`,
    });
  }
  const undecided = compared.filter((x) => x.undecided).map((x) => undecidedMessage(x, reference.atol, reference.rtol));
  if (!undecided.length) return;
  if (!report.problems.length) throw new CannotRun(`--reference ort: ${undecided.join('; ')}`);
  for (const u of undecided) report.notes.push(u);
}
