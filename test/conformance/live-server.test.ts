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
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/triton/releases/target.js';
import { tempDir } from '../support/temp.js';
import { trialsOf } from './deploy.js';
import { haveBackend } from '../support/real-triton.js';
import { backendDirectory, haveCc, haveVenv, loadVerdict, shmRegions, startServer, VENV, type ServerVerdict } from './live.js';
import { aboutBackendLibrary, backendsOf, deploy, inScope, judge, outcomeOf, rounds, skipped, SKIPPED, type Deployment, type Outcome } from './live-rows.js';

const mustRun = process.env.CI === 'true';
const available = haveVenv && haveCc;
if (!available && !mustRun)
  console.log(
    `tritonc: live-server conformance skipped: ${haveVenv ? `no C compiler (${process.env.CC ?? 'cc'}) for the stub backends` : `no ${VENV} (bash scripts/real-triton/setup.sh makes it)`}`,
  );

/** The live server is tritonserver 2.51.0, release 24.10: tritonc judges against that release. */
const LIVE_TARGET = parseTarget('24.10');

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
    for (const d of deployments) judge(d, backendDir, LIVE_TARGET);
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
