// Conformance against the live server (issue 31.5): every corpus row whose verdict Triton core decides
// before a backend runs, and each platform a noautofill test substitutes for it (its mutants), is
// deployed as its Triton test deploys it (deploy.ts) and loaded into the real tritonserver 2.51.0
// through the repository API; tritonc's verdict on the same directories (the core rules and core's
// ensemble checks, under the same server flags, for this host without a GPU) must be the server's:
// accept, or refuse for the reason the server gives (the rule COVERAGE says covers its message).
//
// - The backends other than Python are stubs (live.ts): core finds a library and runs the checks it
//   makes after that (instance groups, Model::Init's I/O and label checks); a backend tritonc cannot
//   judge without is not there at all (a row naming one is refused "unable to find backend library",
//   after core accepted it). Python models get a model.py that completes nothing.
// - Rows whose check needs the real model or backend are skipped, and listed with why (SKIPPED).
// - Each server serves one round: rows with the same server flags whose model names (and the models
//   their ensembles name) do not meet; every model is unloaded after its verdict.
// - The disagreements must be the ones listed in DISAGREEMENTS, each with its reason; the table is
//   printed and docs/conformance-live.md keeps it.
// Runs with the corpus (as every conformance suite) and the venv of scripts/real-triton/setup.sh and a
// C compiler; skipped with one line otherwise, and with CI=true it must run.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { lintSync } from '../../src/lint/engine.js';
import { CORE_RULES, RULES } from '../../src/lint/rules/index.js';
import { DEFAULT_SETTINGS } from '../../src/lint/settings.js';
import type { ServerOptions } from '../../src/triton/server-options.js';
import { corpusRows, readCorpusFile, type CorpusRow } from '../support/corpus.js';
import { tempDir } from '../support/temp.js';
import { checkOf, COVERAGE, IN_SCOPE, invalidLayout, serverOf, trialsOf, validLayout } from './deploy.js';
import { haveBackend } from '../support/real-triton.js';
import { backendDirectory, haveCc, haveVenv, loadVerdict, shmRegions, startServer, STUB_MODEL_PY, VENV, type ServerVerdict } from './live.js';

const mustRun = process.env.CI === 'true';
const available = haveVenv && haveCc;
if (!available && !mustRun)
  console.log(
    `tritonc: live-server conformance skipped: ${haveVenv ? `no C compiler (${process.env.CC ?? 'cc'}) for the stub backends` : `no ${VENV} (bash scripts/real-triton/setup.sh makes it)`}`,
  );

/** What core checks: its rules for one config, and its ensemble checks (ensemble_utils.cc, the dependency graph). */
const LIVE_RULES = [...CORE_RULES, ...RULES.filter((r) => r.meta.id === 'ensemble-config' || r.meta.id === 'ensemble-models')];

const short = (file: string): string => file.replace('triton-inference-server__', '').replace('server/qa/L0_model_config/', '');

/**
 * A check=env row about which backend libraries are installed: loaded, with the backend directory the
 * server has given to tritonc too (--backend-directory), and no stub for the backend it names.
 */
const aboutBackendLibrary = (r: CorpusRow): boolean => checkOf(r) === 'env' && /check=env\(backend library/.test(r.note);

/**
 * Rows not loaded: their verdict is the backend's, the real model's or the machine's, not core's.
 * Each entry: a test of the row, and why.
 */
const SKIPPED: { why: string; test: (row: CorpusRow) => boolean }[] = [
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

type Outcome = 'agree-accept' | 'agree-refuse' | 'server accepts, tritonc refuses' | 'server refuses, tritonc accepts' | 'both refuse, for different reasons';

/**
 * model_metrics came into model_config.proto in r24.11 (Triton 2.52; triton-inference-server/common
 * 3948525 "feat: Per-model metric customization", `ModelMetrics model_metrics = 26;`), after 2.51
 * (r24.10), whose parser refuses the unknown field ("failed to read text proto"), valid or not.
 * tritonc follows the newer proto and core's ValidateModelMetrics, as Triton's own test does
 * (L0_model_config model_metrics runs against the newer server).
 */
const METRICS_AFTER_251 = 'model_metrics is newer than 2.51 (r24.11): 2.51 cannot read the config';

/**
 * Where the live server and tritonc disagree, each with its reason. Keys: the row (short name) and,
 * for a noautofill mutant, ` (platform: "...")`.
 */
const DISAGREEMENTS: Record<string, [Outcome, string]> = {
  ...Object.fromEntries(
    ['empty_buckets', 'empty_metric_family', 'no_buckets', 'no_histogram_options', 'no_metric_family', 'no_metric_identifier'].map((n) => [
      `model_metrics/invalid_config/${n}/partial.pbtxt`,
      ['both refuse, for different reasons', METRICS_AFTER_251] as [Outcome, string],
    ]),
  ),
  'model_metrics/valid_config/valid_model_metrics/partial.pbtxt': ['server refuses, tritonc accepts', METRICS_AFTER_251],
  'model_metrics/valid_config_with_warn/unknown_metric_family/partial.pbtxt': ['server refuses, tritonc accepts', METRICS_AFTER_251],
};

interface Deployment {
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
const skipped = new Map<string, string>();
const inScope = rows.filter((r) => {
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
function deploy(row: CorpusRow, trial: string | undefined, index: number, root: string): Deployment {
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

/** tritonc on the deployment's directories, for this host (no GPU), with the server's backend directory. */
function judge(d: Deployment, backendDirectory: string): void {
  const { stage, names, load } = d;
  const server = d.options;
  const result = lintSync(
    names.map((n) => join(stage, n)),
    { cwd: stage, rules: LIVE_RULES, settings: DEFAULT_SETTINGS, server: { ...server, backendDirectory }, gpuCount: 0 },
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

function outcomeOf(d: Deployment): { outcome: Outcome; covering?: string[] } {
  const server = d.server!;
  const tritonc = d.errors.length > 0;
  if (server.verdict === 'accept') return { outcome: tritonc ? 'server accepts, tritonc refuses' : 'agree-accept' };
  if (!tritonc) return { outcome: 'server refuses, tritonc accepts' };
  const covering = COVERAGE.find((c) => c.triton.test(server.reason))?.rules;
  if (covering && d.errors.some((e) => covering.includes(e.ruleId))) return { outcome: 'agree-refuse', covering };
  return { outcome: 'both refuse, for different reasons', ...(covering ? { covering } : {}) };
}

/** Rounds: one server each, for rows of one set of flags whose models and the models they name do not meet. */
function rounds(deployments: Deployment[], size = 40): Deployment[][] {
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
function backendsOf(d: Deployment): Set<string> {
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

const deployments: Deployment[] = [];
let seconds = 0;
let serversStarted = 0;

describe.skipIf(!available && !mustRun)('conformance against the live tritonserver 2.51 (core verdicts, stub backends, CPU)', () => {
  beforeAll(async () => {
    const started = Date.now();
    const root = tempDir('tritonc-live-');
    let i = 0;
    for (const row of inScope)
      for (const trial of row.kind === 'invalid' ? trialsOf(row) : [undefined]) deployments.push(deploy(row, trial, i++, join(root, 'stage')));
    // Every backend the deployed configs name (or their platforms imply) gets the stub.
    const backends = new Set<string>(['tensorrt', 'onnxruntime', 'pytorch', 'tensorflow', 'openvino']);
    // A row about a backend that is not installed keeps it uninstalled.
    for (const d of deployments) if (!aboutBackendLibrary(d.row)) for (const b of backendsOf(d)) backends.add(b);
    const backendDir = backendDirectory(join(root, 'backends'), backends);
    for (const d of deployments) judge(d, backendDir);
    const all = rounds(deployments);
    const shmBefore = new Set(shmRegions());
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < all.length) {
        const round = all[next++]!;
        const repo = join(root, 'rounds', String(next));
        mkdirSync(repo, { recursive: true });
        for (const d of round) for (const n of d.names) cpSync(join(d.stage, n), join(repo, n), { recursive: true });
        const start = async () => {
          serversStarted++;
          return startServer(repo, backendDir, round[0]!.args, round[0]!.metrics);
        };
        let server = await start();
        try {
          for (const d of round) {
            d.server = await loadVerdict(server, d.load);
            // A load that kills the server: the rest of the round gets a new one. 2.51's Python
            // backend sometimes crashes loading a model right after unloading another ("Signal (11)
            // received", the stubs' "Non-graceful termination detected"), so the load is tried once
            // more on the fresh server; a crash then is the verdict.
            if (d.server.how === 'crash') {
              await server.stop();
              server = await start();
              d.server = await loadVerdict(server, d.load);
              if (d.server.how === 'crash') {
                await server.stop();
                server = await start();
              }
            }
          }
        } finally {
          await server.stop();
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: 4 }, worker));
    } finally {
      // Every server has stopped: what their Python stubs left in /dev/shm goes.
      for (const f of shmRegions()) if (!shmBefore.has(f)) rmSync(join('/dev/shm', f), { force: true });
    }
    seconds = (Date.now() - started) / 1000;
  }, 300_000);

  const compared = () => deployments.filter((d) => !d.completedByBackend);
  const tally = () => {
    const byOutcome = new Map<Outcome, Deployment[]>();
    for (const d of compared()) {
      const { outcome } = outcomeOf(d);
      byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), d]);
    }
    return byOutcome;
  };

  it('loads every row in scope, and lists what it skips with why', () => {
    expect(deployments.length).toBeGreaterThan(500);
    expect(deployments.every((d) => d.server)).toBe(true);
    const whys = new Map<string, number>();
    for (const why of skipped.values()) whys.set(why, (whys.get(why) ?? 0) + 1);
    console.log([`live server: ${skipped.size} rows skipped:`, ...[...whys].map(([why, n]) => `  ${n} ${why}`)].join('\n'));
    // Every check=model / env / backend row is skipped, and nothing else but the listed kinds.
    expect([...skipped.values()].every((w) => SKIPPED.some((s) => s.why === w))).toBe(true);
  });

  it('agrees with the server, but for the disagreements listed (each explained)', () => {
    const byOutcome = tally();
    const count = (o: Outcome) => byOutcome.get(o)?.length ?? 0;
    const hows = new Map<string, number>();
    for (const d of deployments) hows.set(`${d.server!.verdict} (${d.server!.how})`, (hows.get(`${d.server!.verdict} (${d.server!.how})`) ?? 0) + 1);
    const left = deployments.filter((d) => d.completedByBackend);
    const lines = [
      `live server: ${deployments.length} loads (${new Set(deployments.map((d) => d.row.file)).size} rows and their platform mutants) in ${serversStarted} servers, ${seconds.toFixed(1)} s`,
      `  server verdicts: ${[...hows].map(([h, n]) => `${h} ${n}`).join(', ')}`,
      `  not compared: ${left.length} loads with auto-complete on whose inputs or outputs the backend is left to complete (the stub completes nothing): ${left.map((d) => d.label).join(', ')}`,
      `  agree-accept ${count('agree-accept')}, agree-refuse ${count('agree-refuse')}, server accepts/tritonc refuses ${count('server accepts, tritonc refuses')}, server refuses/tritonc accepts ${count('server refuses, tritonc accepts')}, both refuse for different reasons ${count('both refuse, for different reasons')}`,
    ];
    // Per kind of row, and for the refusals both agree on, the rule that covers the server's reason.
    for (const kind of ['valid', 'invalid'] as const) {
      const mine = compared().filter((d) => d.row.kind === kind);
      const by = new Map<string, number>();
      for (const d of mine) by.set(outcomeOf(d).outcome, (by.get(outcomeOf(d).outcome) ?? 0) + 1);
      lines.push(`  ${kind} rows (${mine.length} loads): ${[...by].map(([o, n]) => `${o} ${n}`).join(', ')}`);
      const rules = new Map<string, number>();
      for (const d of mine) {
        const o = outcomeOf(d);
        if (o.outcome === 'agree-refuse') rules.set(o.covering!.join('/'), (rules.get(o.covering!.join('/')) ?? 0) + 1);
      }
      if (rules.size) lines.push(`    agree-refuse by covering rule: ${[...rules].map(([r, n]) => `${r} ${n}`).join(', ')}`);
      if (kind === 'valid') {
        const gpu = mine.filter((d) => outcomeOf(d).outcome === 'agree-refuse' && /no GPUs are available|unsupported gpu id/.test(d.server!.reason)).length;
        lines.push(`    of which refused because this host has no GPU (KIND_GPU groups; tritonc told --gpus 0): ${gpu}`);
        for (const d of mine.filter((x) => outcomeOf(x).outcome === 'agree-refuse' && !/no GPUs are available|unsupported gpu id/.test(x.server!.reason)))
          lines.push(`    valid row refused by both: ${d.label}: ${d.server!.reason.split('\n')[0]}`);
      }
    }
    const disagreements: Record<string, Outcome> = {};
    for (const [outcome, list] of byOutcome) {
      if (outcome === 'agree-accept' || outcome === 'agree-refuse') continue;
      for (const d of list) {
        disagreements[d.label] = outcome;
        lines.push(
          `  ${outcome}: ${d.label} [${d.row.kind}]\n    server: ${d.server!.verdict} (${d.server!.how}) ${d.server!.reason}\n    tritonc: ${d.errors.map((e) => `[${e.ruleId}] ${e.file}: ${e.message}`).join('\n             ') || '(no errors)'}`,
        );
      }
    }
    console.log(lines.join('\n'));
    // The evidence for the model_metrics rows: 2.51's proto has no such field.
    for (const d of deployments.filter((x) => DISAGREEMENTS[x.label]?.[1] === METRICS_AFTER_251))
      expect(d.server!.reason).toContain('has no field named "model_metrics"');
    expect(disagreements).toEqual(Object.fromEntries(Object.entries(DISAGREEMENTS).map(([k, [o]]) => [k, o])));
  });

  afterAll(() => {
    // The staged copies and rounds are under tempDir (removed after the file).
  });
});

// ---- the same loads with Triton's real backends in place of the stubs ------------------------------

/**
 * Triton's own backends (scripts/real-triton/setup.sh), which take the stubs' place for every load
 * whose models are all theirs (or Python's, or ensembles of them): the ONNX, LibTorch and OpenVINO
 * rows and the onnxruntime_onnx and pytorch_libtorch mutants of the noautofill rows.
 */
const REAL_BACKENDS = ['onnxruntime', 'pytorch', 'openvino'] as const;
const realAvailable = available && REAL_BACKENDS.every(haveBackend);
if (available && !realAvailable && !mustRun)
  console.log(
    `tritonc: live-server conformance with the real backends skipped: no ${REAL_BACKENDS.filter((b) => !haveBackend(b)).join(', ')} backend in ${join(VENV, 'triton-backends')} (bash scripts/real-triton/setup.sh lays them out from ../shared/triton-backends)`,
  );
const servedByRealBackends = (d: Deployment): boolean => {
  const bs = [...backendsOf(d)];
  return (
    !aboutBackendLibrary(d.row) &&
    bs.some((b) => (REAL_BACKENDS as readonly string[]).includes(b)) &&
    bs.every((b) => b === '' || b === 'python' || (REAL_BACKENDS as readonly string[]).includes(b))
  );
};

/**
 * What the real backend says where the stub loaded the model: the corpus holds configs only, so the
 * model file there is the row's placeholder (an empty model.onnx directory, an empty model.xml, a
 * LibTorch model of two INT32 inputs for any model.pt), and the real backend judges that placeholder,
 * not the config. Each pattern: the backend's words for it.
 */
const PLACEHOLDER_VERDICTS: { why: string; test: RegExp }[] = [
  {
    why: "no ONNX model: the row's model.onnx is an empty directory, or there is none",
    test: /^failed to stat file .*\/model\.onnx$|^unable to find '.*model\.onnx' for model instance|Load model from .* failed|Protobuf parsing failed/,
  },
  // r24.10's OpenVINO backend throws out of TRITONBACKEND_ModelInitialize on an empty model.xml and
  // the server aborts ("terminate called after throwing an instance of
  // 'triton::backend::BackendModelInstanceException'", Signal (6)): the whole server, not just the model.
  {
    why: "no OpenVINO model: the row's model.xml is empty (the OpenVINO backend aborts the server)",
    test: /openvino\.cc:\d+\] "TRITONBACKEND_ModelInitialize: [\s\S]*terminate called after throwing an instance of 'triton::backend::BackendModelInstanceException'/,
  },
  {
    why: "the LibTorch stand-in model (two INT32 inputs, two outputs) is not the row's model",
    test: /configuration expects \d+ inputs, model provides \d+|model configuration must contain at least one (input|output)|naming convention|PyTorch|unable to find '.*model\.pt'/,
  },
];

/** Loads the real backends refuse for a reason other than the stubs', and no placeholder explains: each with why. */
const REAL_DISAGREEMENTS: Record<string, string> = {};

const real = new Map<Deployment, ServerVerdict>();
let realSeconds = 0;
let realServers = 0;

describe.runIf(realAvailable || mustRun)('the live-server loads again with the real ONNX Runtime, PyTorch and OpenVINO backends in place of the stubs', () => {
  beforeAll(async () => {
    const started = Date.now();
    const root = tempDir('tritonc-live-real-');
    const subset = deployments.filter(servedByRealBackends);
    const all = rounds(subset);
    const shmBefore = new Set(shmRegions());
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < all.length) {
        const round = all[next++]!;
        const repo = join(root, String(next));
        mkdirSync(repo, { recursive: true });
        for (const d of round) for (const n of d.names) cpSync(join(d.stage, n), join(repo, n), { recursive: true });
        realServers++;
        let server = await startServer(repo, join(VENV, 'triton-backends'), round[0]!.args, round[0]!.metrics);
        try {
          for (const d of round) {
            // A load that kills the server is tried once more on a fresh one (as above); the rest of
            // the round gets a fresh one either way.
            let v = await loadVerdict(server, d.load);
            for (let attempt = 0; attempt < 2 && v.how === 'crash'; attempt++) {
              await server.stop();
              realServers++;
              server = await startServer(repo, join(VENV, 'triton-backends'), round[0]!.args, round[0]!.metrics);
              if (attempt === 0) v = await loadVerdict(server, d.load);
            }
            real.set(d, v);
          }
        } finally {
          await server.stop();
        }
      }
    };
    try {
      await Promise.all([worker(), worker(), worker()]);
    } finally {
      for (const f of shmRegions()) if (!shmBefore.has(f)) rmSync(join('/dev/shm', f), { force: true });
    }
    realSeconds = (Date.now() - started) / 1000;
  }, 300_000);

  it("every refusal the stubs let core make is the real server's too, word for word; where the stubs load, the real backend judges the placeholder model file", () => {
    const loads = [...real.keys()];
    expect(loads.length).toBeGreaterThan(150);
    const same: Deployment[] = [];
    const placeholder = new Map<string, number>();
    const other: Record<string, string> = {};
    for (const d of loads) {
      const stub = d.server!;
      const r = real.get(d)!;
      if (stub.verdict === 'refuse' && r.verdict === 'refuse' && r.reason === stub.reason) same.push(d);
      else if (stub.verdict === 'accept' && r.verdict === 'accept') same.push(d);
      else if (stub.verdict === 'accept' && r.verdict === 'refuse' && PLACEHOLDER_VERDICTS.some((p) => p.test.test(r.reason))) {
        const why = PLACEHOLDER_VERDICTS.find((p) => p.test.test(r.reason))!.why;
        placeholder.set(why, (placeholder.get(why) ?? 0) + 1);
      } else other[d.label] = `stub: ${stub.verdict} (${stub.how}) ${stub.reason.split('\n')[0]}; real: ${r.verdict} (${r.how}) ${r.reason.split('\n')[0]}`;
    }
    console.log(
      [
        `live server with the real backends: ${loads.length} loads in ${realServers} servers, ${realSeconds.toFixed(1)} s`,
        `  the same verdict as with the stubs (a refusal in the same words): ${same.length} (${same.filter((d) => d.server!.verdict === 'refuse').length} refusals, ${same.filter((d) => d.server!.verdict === 'accept').length} loads)`,
        ...[...placeholder].map(([why, n]) => `  loaded with the stub, refused by the real backend because ${why}: ${n}`),
        ...Object.entries(other).map(([k, v]) => `  otherwise: ${k}: ${v}`),
      ].join('\n'),
    );
    expect(other).toEqual(Object.fromEntries(Object.keys(REAL_DISAGREEMENTS).map((k) => [k, expect.any(String)])));
  });
});
