// The live-server conformance (live-server.test.ts) judged by a newer Triton: the same rows and
// mutants, staged the same way (live-rows.ts), loaded by Triton's own core of r26.06 (2.70.0, built
// from source: test/support/triton-core.ts) in-process, one driver process per round of models; tritonc
// is told --triton-version 26.06. The stub backend stands in for every backend (ONNX Runtime and
// Python included: the placeholders the corpus keeps are no models), so core runs every check it makes
// once it finds a backend library. No missed refusal and no false error, but for the disagreements
// listed with their reasons (CORE_DISAGREEMENTS).
// Runs with the corpus and the cores of scripts/triton-cores/setup.sh; skipped with one line
// otherwise, and with CI=true it must run.
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/triton/releases/target.js';
import { coreBackendDirectory, coresRun, coreVerdicts, reason, type CoreVerdict } from '../support/triton-core.js';
import { tempDir } from '../support/temp.js';
import { trialsOf } from './deploy.js';
import { buildStubBackend, haveCc, type ServerVerdict } from './live.js';
import { aboutBackendLibrary, backendsOf, deploy, inScope, judge, outcomeOf, rounds, type Deployment, type Outcome } from './live-rows.js';

const CORE = 'r26.06';
const TARGET = parseTarget('26.06');
const runs = coresRun('live-server conformance judged by the r26.06 core', [CORE]) && (haveCc || process.env.CI === 'true');
if (!haveCc && process.env.CI !== 'true')
  console.log(`tritonc: live-server conformance judged by the r26.06 core skipped: no C compiler (${process.env.CC ?? 'cc'}) for the stub backend`);

/** Where the r26.06 core and tritonc told 26.06 disagree, each with its reason. Keys as live-server.test.ts's. */
const CORE_DISAGREEMENTS: Record<string, [Outcome, string]> = {};

/** The driver's verdict as the live suite reads a server's (live.ts ServerVerdict). */
function asServerVerdict(v: CoreVerdict): ServerVerdict {
  if (v.loaded) return { verdict: 'accept', how: 'loaded', reason: '' };
  const why = reason(v);
  const how = /failed to poll from model repository/.test(v.error ?? '')
    ? 'poll'
    : /unable to find backend library|unable to find '.*libtriton_/.test(why)
      ? 'no backend library'
      : 'load';
  return { verdict: 'refuse', how, reason: why };
}

const deployments: Deployment[] = [];
let seconds = 0;
let processes = 0;

describe.runIf(runs)('the live-server conformance judged by the r26.06 core (2.70.0), tritonc told --triton-version 26.06', () => {
  beforeAll(async () => {
    const started = Date.now();
    const root = tempDir('tritonc-core-live-');
    let i = 0;
    for (const row of inScope)
      for (const trial of row.kind === 'invalid' ? trialsOf(row) : [undefined]) deployments.push(deploy(row, trial, i++, join(root, 'stage')));
    const backends = new Set<string>(['tensorrt', 'onnxruntime', 'pytorch', 'tensorflow', 'openvino', 'python']);
    for (const d of deployments) if (!aboutBackendLibrary(d.row)) for (const b of backendsOf(d)) backends.add(b);
    // The live suite's stub (live.ts), which answers every request with an empty response: the warmup
    // samples run through it, as on the live server.
    const stub = buildStubBackend(join(root, 'stub'));
    const backendDir = coreBackendDirectory(join(root, 'backends'), backends, { stubOnnxRuntime: true, stub });
    for (const d of deployments) judge(d, backendDir, TARGET);
    const all = rounds(deployments);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < all.length) {
        const round = all[next++]!;
        const repo = join(root, 'rounds', String(next));
        mkdirSync(repo, { recursive: true });
        for (const d of round) for (const n of d.names) cpSync(join(d.stage, n), join(repo, n), { recursive: true });
        processes++;
        const got = await coreVerdicts(CORE, repo, {
          models: round.map((d) => d.load),
          strict: round[0]!.args.includes('--disable-auto-complete-config'),
          backends: backendDir,
        });
        const byModel = new Map(got.map((v) => [v.model, v]));
        for (const d of round) d.server = asServerVerdict(byModel.get(d.load)!);
      }
    };
    await Promise.all([worker(), worker()]);
    seconds = (Date.now() - started) / 1000;
  }, 600_000);

  it('agrees with the r26.06 core, but for the disagreements listed (each explained)', () => {
    expect(deployments.length).toBeGreaterThan(500);
    expect(deployments.every((d) => d.server)).toBe(true);
    const compared = deployments.filter((d) => !d.completedByBackend);
    const count = new Map<Outcome, number>();
    const disagreements: Record<string, Outcome> = {};
    const lines: string[] = [];
    for (const d of compared) {
      const { outcome } = outcomeOf(d);
      count.set(outcome, (count.get(outcome) ?? 0) + 1);
      if (outcome === 'agree-accept' || outcome === 'agree-refuse') continue;
      disagreements[d.label] = outcome;
      lines.push(
        `  ${outcome}: ${d.label} [${d.row.kind}]\n    core: ${d.server!.verdict} (${d.server!.how}) ${d.server!.reason}\n    tritonc: ${d.errors.map((e) => `[${e.ruleId}] ${e.file}: ${e.message}`).join('\n             ') || '(no errors)'}`,
      );
    }
    console.log(
      [
        `r26.06 core: ${deployments.length} loads in ${processes} driver processes, ${seconds.toFixed(1)} s; ${deployments.length - compared.length} not compared (the backend is left to complete them)`,
        `  ${[...count].map(([o, n]) => `${o} ${n}`).join(', ')}`,
        ...lines,
      ].join('\n'),
    );
    expect(disagreements).toEqual(Object.fromEntries(Object.entries(CORE_DISAGREEMENTS).map(([k, [o]]) => [k, o])));
  });
});
