// The live-server conformance's rows (live-server.test.ts, core-live.test.ts): every corpus row whose
// verdict Triton core decides before a backend runs, and each platform a noautofill test substitutes
// for it (its mutants), deployed as its Triton test deploys it (deploy.ts), staged as a repository of
// its own; tritonc's verdict on it (judge) and how it compares with a server's (outcomeOf).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseConfig } from '../../src/config/document.js';
import { lintSync } from '../../src/lint/engine.js';
import { CORE_RULES, RULES } from '../../src/lint/rules/index.js';
import { DEFAULT_SETTINGS } from '../../src/lint/settings.js';
import type { ServerOptions } from '../../src/triton/server-options.js';
import type { TritonTarget } from '../../src/triton/releases/target.js';
import { corpusRows, readCorpusFile, type CorpusRow } from '../support/corpus.js';
import { checkOf, COVERAGE, IN_SCOPE, invalidLayout, serverOf, validLayout } from './deploy.js';
import { STUB_MODEL_PY, type ServerVerdict } from './live.js';

/** What core checks: its rules for one config, and its ensemble checks (ensemble_utils.cc, the dependency graph). */
const LIVE_RULES = [...CORE_RULES, ...RULES.filter((r) => r.meta.id === 'ensemble-config' || r.meta.id === 'ensemble-models')];

const short = (file: string): string => file.replace('triton-inference-server__', '').replace('server/qa/L0_model_config/', '');

/**
 * A check=env row about which backend libraries are installed: loaded, with the backend directory the
 * server has given to tritonc too (--backend-directory), and no stub for the backend it names.
 */
export const aboutBackendLibrary = (r: CorpusRow): boolean => checkOf(r) === 'env' && /check=env\(backend library/.test(r.note);

/**
 * Rows not loaded: their verdict is the backend's, the real model's or the machine's, not core's.
 * Each entry: a test of the row, and why.
 */
export const SKIPPED: { why: string; test: (row: CorpusRow) => boolean }[] = [
  {
    why: "check=model(...): the backend compares the config with the real model file (ONNX, TensorRT, OpenVINO, PyTorch, DALI pipeline, a model.py's auto_complete_config)",
    test: (r) => r.kind === 'invalid' && checkOf(r) === 'model',
  },
  { why: 'check=env(...): the machine decides (the GPUs)', test: (r) => r.kind === 'invalid' && checkOf(r) === 'env' && !aboutBackendLibrary(r) },
  {
    why: "check=backend(...): the backend's own check of its parameters (TensorRT's execution_context_allocation_strategy)",
    test: (r) => r.kind === 'invalid' && checkOf(r) === 'backend',
  },
  {
    why: "the DALI backend's check of default_model_filename (dali_backend, not core; it runs after core accepted)",
    test: (r) => r.kind === 'invalid' && r.file.includes('dali_backend') && /default_model_filename/.test(r.note),
  },
  {
    why: "a repository agent (model_repository_agents) decides: checksum checks the model files, relocation supplies them, and the wheel's tritonserver has no agent library (/opt/tritonserver/repoagents)",
    test: (r) => /model_repository_agents/.test(readCorpusFile(r)),
  },
  {
    why: 'valid rows whose test loads the real model with auto-complete on: the backend completes the config from the model (inputs, outputs, max_batch_size), which a stub cannot',
    test: (r) => r.kind === 'valid' && /needs-model:/.test(r.note) && serverOf(r).autoCompleteConfig !== false,
  },
];

export type Outcome =
  'agree-accept' | 'agree-refuse' | 'server accepts, tritonc refuses' | 'server refuses, tritonc accepts' | 'both refuse, for different reasons';

export interface Deployment {
  label: string;
  row: CorpusRow;
  /** The model directories, staged (the staging directory is a repository of this row alone). */
  stage: string;
  names: string[];
  /** The models its ensembles name. */
  refs: Set<string>;
  /** The model loaded. */
  load: string;
  args: string[];
  metrics: boolean;
  /** The server's flags as tritonc takes them. */
  options: Partial<ServerOptions>;
  /** tritonc's errors on the loaded model and what it runs (ensemble steps, transitively): judge() sets them. */
  errors: { ruleId: string; message: string; file: string }[];
  /** Auto-complete on and a config whose I/O the backend is left to complete: loaded, but not compared. */
  completedByBackend: boolean;
  server?: ServerVerdict;
}

const rows = corpusRows();
export const skipped = new Map<string, string>();
export const inScope = rows.filter((r) => {
  if (r.kind !== 'valid' && r.kind !== 'invalid') return false;
  const skip = SKIPPED.find((s) => s.test(r));
  if (skip) skipped.set(r.file, skip.why);
  else if (r.kind === 'invalid' && !IN_SCOPE.has(checkOf(r) ?? '') && !aboutBackendLibrary(r)) skipped.set(r.file, `check=${checkOf(r) ?? '(none)'}`);
  return !skipped.has(r.file);
});

const isVersion = (name: string): boolean => /^\d+$/.test(name);
const configOf = (modelDir: string) =>
  existsSync(join(modelDir, 'config.pbtxt')) ? parseConfig(readFileSync(join(modelDir, 'config.pbtxt'), 'utf8')).value : undefined;

/** The Triton test's layout of one row, staged as a repository of its own, with what the server needs to load it. */
export function deploy(row: CorpusRow, trial: string | undefined, index: number, root: string): Deployment {
  const layout = row.kind === 'invalid' ? invalidLayout(row, trial) : validLayout(row);
  const stage = join(root, String(index));
  mkdirSync(stage, { recursive: true });
  const isModelDir = (d: string): boolean => existsSync(join(d, 'config.pbtxt'));
  let load: string;
  if (!layout.tmp) {
    // A valid row linted where it lies: the model directory it is in.
    load = basename(dirname(layout.file));
    cpSync(dirname(layout.file), join(stage, load), { recursive: true });
  } else if (isModelDir(layout.target)) {
    load = basename(layout.target);
    cpSync(layout.target, join(stage, load), { recursive: true });
  } else {
    load = basename(dirname(layout.file));
    for (const e of readdirSync(layout.target))
      if (statSync(join(layout.target, e)).isDirectory()) cpSync(join(layout.target, e), join(stage, e), { recursive: true });
  }
  if (layout.tmp) rmSync(layout.tmp, { recursive: true, force: true });
  const names = readdirSync(stage);
  const refs = new Set<string>();
  for (const name of names) {
    const dir = join(stage, name);
    // Triton's tests give every model its version directories (those its version policy names, else 1);
    // the Python backend runs its model.py.
    const config = configOf(dir);
    if (!readdirSync(dir).some((e) => isVersion(e) && statSync(join(dir, e)).isDirectory())) {
      for (const v of config?.version_policy?.specific?.versions ?? [1]) mkdirSync(join(dir, String(v)), { recursive: true });
    }
    for (const step of config?.ensemble_scheduling?.step ?? []) if (step.model_name) refs.add(step.model_name);
    if (config?.backend === 'python' && !config.default_model_filename) {
      for (const v of readdirSync(dir).filter(isVersion)) {
        const py = join(dir, v, 'model.py');
        if (!existsSync(py) || readFileSync(py, 'utf8').trim() === '') writeFileSync(py, STUB_MODEL_PY);
      }
    }
  }
  const server: Partial<ServerOptions> = serverOf(row);
  const flags = /(?:^|; )flags=([^;]*)/.exec(row.note)?.[1] ?? '';
  const args = server.autoCompleteConfig === false ? ['--disable-auto-complete-config'] : [];
  const metrics = flags.includes('--metrics-config histogram_latencies=true');
  if (metrics) args.push('--metrics-config=histogram_latencies=true');
  const label = `${short(row.file)}${trial ? ` (platform: "${trial}")` : ''}`;
  return { label, row, stage, names, refs, load, args, metrics, options: server, errors: [], completedByBackend: false };
}

/** tritonc on the deployment's directories, for this host (no GPU), with the server's backend directory, told the server's release. */
export function judge(d: Deployment, backendDirectory: string, target: TritonTarget): void {
  const { stage, names, load } = d;
  const server = d.options;
  const result = lintSync(
    names.map((n) => join(stage, n)),
    { cwd: stage, rules: LIVE_RULES, settings: DEFAULT_SETTINGS, server: { ...server, backendDirectory, target }, gpuCount: 0 },
  );
  const reached = new Set<string>();
  const visit = (name: string): void => {
    if (reached.has(name) || !names.includes(name)) return;
    reached.add(name);
    for (const step of configOf(join(stage, name))?.ensemble_scheduling?.step ?? []) if (step.model_name) visit(step.model_name);
  };
  visit(load);
  const reachedResults = result.results.filter((r) => reached.has(basename(dirname(r.filePath))));
  // With auto-complete on, what tritonc leaves to the backend to complete (an input without dims or
  // data_type) is the backend's verdict: the stubs complete nothing.
  const completedByBackend =
    server.autoCompleteConfig !== false && reachedResults.some((r) => r.diagnostics.some((d) => /UnlessCompleted$/.test(d.messageId ?? '')));
  d.errors = reachedResults.flatMap((r) =>
    r.diagnostics.filter((f) => f.severity === 'error').map((f) => ({ ruleId: f.ruleId, message: f.message, file: basename(dirname(r.filePath)) })),
  );
  d.completedByBackend = completedByBackend;
}

export function outcomeOf(d: Deployment): { outcome: Outcome; covering?: string[] } {
  const server = d.server!;
  const tritonc = d.errors.length > 0;
  if (server.verdict === 'accept') return { outcome: tritonc ? 'server accepts, tritonc refuses' : 'agree-accept' };
  if (!tritonc) return { outcome: 'server refuses, tritonc accepts' };
  const covering = COVERAGE.find((c) => c.triton.test(server.reason))?.rules;
  if (covering && d.errors.some((e) => covering.includes(e.ruleId))) return { outcome: 'agree-refuse', covering };
  return { outcome: 'both refuse, for different reasons', ...(covering ? { covering } : {}) };
}

/** Rounds: one server each, for rows of one set of flags whose models and the models they name do not meet. */
export function rounds(deployments: Deployment[], size = 40): Deployment[][] {
  const out: { key: string; names: Set<string>; refs: Set<string>; members: Deployment[] }[] = [];
  for (const d of deployments) {
    const key = `${d.args.join(' ')}${d.metrics ? ' metrics' : ''}`;
    const fits = (r: (typeof out)[number]) =>
      r.key === key && r.members.length < size && d.names.every((n) => !r.names.has(n) && !r.refs.has(n)) && [...d.refs].every((n) => !r.names.has(n));
    let round = out.find(fits);
    if (!round) out.push((round = { key, names: new Set(), refs: new Set(), members: [] }));
    round.members.push(d);
    for (const n of d.names) round.names.add(n);
    for (const n of d.refs) round.refs.add(n);
  }
  return out.map((r) => r.members);
}

const PLATFORM_BACKEND: Record<string, string> = {
  tensorrt_plan: 'tensorrt',
  onnxruntime_onnx: 'onnxruntime',
  pytorch_libtorch: 'pytorch',
  tensorflow_graphdef: 'tensorflow',
  tensorflow_savedmodel: 'tensorflow',
};

/** The backends a deployment's configs name, or their platforms imply ('' for an ensemble, or none named). */
export function backendsOf(d: Deployment): Set<string> {
  const out = new Set<string>();
  for (const n of d.names) {
    const c = configOf(join(d.stage, n));
    if (c?.backend) out.add(c.backend);
    if (c?.platform && PLATFORM_BACKEND[c.platform]) out.add(PLATFORM_BACKEND[c.platform]!);
    // Without either, core takes the backend from a model named '<model>.<backend>'.
    if (!c?.backend && !c?.platform && n.includes('.')) out.add(n.slice(n.lastIndexOf('.') + 1));
    else if (!c?.backend && !(c?.platform && PLATFORM_BACKEND[c.platform])) out.add('');
  }
  return out;
}
