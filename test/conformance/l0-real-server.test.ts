// Triton's qa/L0_model_config replayed on the real tritonserver 2.51.0 with Triton's own ONNX Runtime,
// OpenVINO and PyTorch backends (r24.10, CPU; scripts/real-triton/setup.sh), for every run of the
// replay that those backends decide: autofill_noplatform and autofill_noplatform_success's onnx,
// openvino and pytorch cases (with the exported model files of fixtures/models, as l0.ts stages them),
// and noautofill_platform's cases under platform onnxruntime_onnx and pytorch_libtorch (no model file,
// as test.sh copies none). Each run's repository is the one l0-model-config.test.ts lints, loaded
// through the repository API under test.sh's flags. Per run, three verdicts side by side:
// - Triton's expected* file (test.sh's claim: refused with that message, or loaded);
// - the real server's (loaded, or refused with its reason); for a loaded model its
//   GET /v2/models/<m>/config;
// - tritonc's: `lint` on the same repository with the same flags, for this host (--gpus 0) and the
//   server's backend directory, and for a loaded model `resolve --format json` beside the server's config.
// The server wins: where it disagrees with the expected file (SERVER_NOT_AS_EXPECTED) or tritonc
// disagrees with the server (TRITONC_DISAGREES), the entry is listed with why, and the test fails for
// a disagreement not listed or a listed one that is gone. The table is printed;
// TRITONC_WRITE_REAL_DOC=1 writes it into docs/conformance-real-backends.md, and the test fails when
// the doc's table is not the one this run makes. Without the venv or the backends it is skipped with
// one line; with CI=true it must run.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import type { JsonFileResult } from '../../src/report/json.js';
import { tritonConfigJson } from '../../src/triton/triton-json.js';
import { cli } from '../support/cli.js';
import { realBackendsRun, VENV } from '../support/real-triton.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { fromGrep } from './deploy.js';
import { buildRepository, EDITIONS, RULES_FOR, runsOf, stageSuites, type Run } from './l0.js';
import { loadVerdict, shmRegions, startServer, type ServerVerdict } from './live.js';

const runs = realBackendsRun('qa/L0_model_config on the real backends', ['onnxruntime', 'openvino', 'pytorch']);
const DOC = join(ROOT, 'docs', 'conformance-real-backends.md');
const BACKENDS = join(VENV, 'triton-backends');
/** The server is 2.51.0, release 24.10: its own branch's suites, expected files included. */
const R24_10 = EDITIONS.find((e) => e.release === '24.10')!;

/** The runs these backends decide. */
const REAL_GROUPS = /^autofill_noplatform(_success)?\/(onnx|openvino|pytorch)$/;
const REAL_TRIALS = new Set(['onnxruntime_onnx', 'pytorch_libtorch']);
const decidedByRealBackends = (r: Run): boolean => REAL_GROUPS.test(r.group) || (r.suite === 'noautofill_platform' && REAL_TRIALS.has(r.trial!));

/**
 * Runs where the real server does not do what Triton's expected* file says (the server wins: tritonc
 * is held to the server, not to the file), each with why.
 */
const NO_GPU_HERE =
  'this host has no GPU: core makes instance group 0 (gpus: [ 0 ], no kind) KIND_CPU (NormalizeInstanceGroup) and ValidateInstanceGroup refuses it ("has kind KIND_CPU but specifies one or more GPUs") before it reaches group 1\'s gpu id -1, which test.sh\'s GPU host reports; tritonc --gpus 0 says what this server says (instance-group), --gpus 1 what test.sh says (l0-model-config.test.ts)';
const SERVER_NOT_AS_EXPECTED: Record<string, string> = {
  'noautofill_platform/negative_gpu [onnxruntime_onnx, --strict-model-config=true]': NO_GPU_HERE,
  'noautofill_platform/negative_gpu [pytorch_libtorch, --strict-model-config=true]': NO_GPU_HERE,
  'noautofill_platform/negative_gpu [onnxruntime_onnx, --disable-auto-complete-config]': NO_GPU_HERE,
  'noautofill_platform/negative_gpu [pytorch_libtorch, --disable-auto-complete-config]': NO_GPU_HERE,
};

/** Runs where tritonc's verdict is not the server's, each with why. */
const TRITONC_DISAGREES: Record<string, string> = {};

interface Outcome {
  run: Run;
  /** The model loaded (the case's directory). */
  name: string;
  /** Triton's expected* messages (none: test.sh expects it to load). */
  expected: string[];
  server: ServerVerdict;
  /** The server's effective config of a loaded model. */
  served?: unknown;
  /** How the served config differs from the expected* configs of a success case. */
  note?: string;
  /** The server did what the expected* file says (a success case: loaded, its config one of the expected*, instance groups aside). */
  serverAsExpected: boolean;
  /** tritonc's error findings. */
  errors: { ruleId: string; message: string }[];
  /** tritonc refuses (an error finding) where the server refuses, or is clean where it loads. */
  agrees: boolean;
  /** For a refusal: one of tritonc's errors is from a rule that covers the server's reason. */
  covered: boolean;
  /** For a refusal: one of tritonc's errors quotes the server's reason (its first line) word for word. */
  quotes: boolean;
  /** For a loaded model: resolve equals the server's config (undefined: not loaded). */
  resolveEqual?: boolean;
  resolveDiff?: string;
}
const outcomes: Outcome[] = [];
let seconds = 0;
let serversStarted = 0;

const FLAGS_OF = (r: Run): string[] => r.flags;

/**
 * A config as GET /v2/models/<m>/config answers it, but for its instance groups: test.sh's expected
 * configs were written on a host with a GPU (KIND_GPU, gpus: [0]), this one has none (KIND_CPU).
 */
const withoutGroups = (config: unknown): unknown => {
  const { instance_group: _, ...rest } = config as Record<string, unknown>;
  return rest;
};
/** JSON with each object's keys in order, so that equal values are equal texts. */
const canon = (v: unknown): string =>
  JSON.stringify(v, (_, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );
const isDeepStrictEqual = (a: unknown, b: unknown): boolean => canon(a) === canon(b);

describe.runIf(runs)('qa/L0_model_config on the real tritonserver 2.51 with the real ONNX Runtime, OpenVINO and PyTorch backends', () => {
  beforeAll(async () => {
    const started = Date.now();
    const root = tempDir('tritonc-l0-real-');
    const staged = join(root, 'staged');
    mkdirSync(staged);
    stageSuites(staged, R24_10);
    const chosen = runsOf(staged, R24_10).filter(decidedByRealBackends);
    // Each run's repository as l0-model-config.test.ts builds it (one model: these cases all have a
    // config.pbtxt or are one of test.sh's no_config models).
    const built = chosen.map((run, i) => {
      const dir = join(root, 'runs', String(i));
      const { repo, expected } = buildRepository(run, dir);
      const names = readdirSync(repo);
      if (names.length !== 1) throw new Error(`${run.id}: ${names.length} models, one expected`);
      return { run, dir, repo, name: names[0]!, expected };
    });
    // Rounds: one server per set of flags and distinct model names.
    const rounds: (typeof built)[] = [];
    const keys: string[] = [];
    for (const b of built) {
      const key = FLAGS_OF(b.run).join(' ');
      let i = rounds.findIndex((r, k) => keys[k] === key && r.length < 60 && !r.some((o) => o.name === b.name));
      if (i < 0) {
        rounds.push([]);
        keys.push(key);
        i = rounds.length - 1;
      }
      rounds[i]!.push(b);
    }
    const shmBefore = new Set(shmRegions());
    const verdicts = new Map<string, { server: ServerVerdict; served?: unknown }>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < rounds.length) {
        const k = next++;
        const round = rounds[k]!;
        const repo = join(root, 'rounds', String(k));
        mkdirSync(repo, { recursive: true });
        for (const b of round) cpSync(join(b.repo, b.name), join(repo, b.name), { recursive: true });
        serversStarted++;
        let server = await startServer(repo, BACKENDS, FLAGS_OF(round[0]!.run), false);
        try {
          for (const b of round) {
            let served: unknown;
            const read = async () => {
              served = await (await fetch(`${server.url}/v2/models/${encodeURIComponent(b.name)}/config`)).json();
            };
            let v = await loadVerdict(server, b.name, read);
            if (v.how === 'crash') {
              await server.stop();
              serversStarted++;
              server = await startServer(repo, BACKENDS, FLAGS_OF(b.run), false);
              v = await loadVerdict(server, b.name, read);
            }
            verdicts.set(b.run.id, { server: v, ...(served === undefined ? {} : { served }) });
          }
        } finally {
          await server.stop();
        }
      }
    };
    try {
      await Promise.all([worker(), worker()]);
    } finally {
      for (const f of shmRegions()) if (!shmBefore.has(f)) rmSync(join('/dev/shm', f), { force: true });
    }
    for (const b of built) {
      const { server, served } = verdicts.get(b.run.id)!;
      // The real tritonserver is 2.51.0, release 24.10: tritonc judges against that release. Its ONNX
      // Runtime backend here runs the libonnxruntime.so.1 of npm onnxruntime-node 1.30 (the shared
      // backends' layout), not 24.10's 1.19.2, which refuses these opset-22 fixtures: what 24.10's ONNX
      // Runtime loads is checked against 1.19.2 itself (test/server/onnx-runtime-version-real.test.ts).
      const lint = await cli(
        [
          'lint',
          '--format',
          'json',
          '--triton-version',
          '24.10',
          '--rule',
          'onnx-runtime-version=off',
          '--model-repository=models',
          ...b.run.flags,
          '--gpus',
          '0',
          `--backend-directory=${BACKENDS}`,
        ],
        {
          cwd: b.dir,
        },
      );
      expect([0, 1], `${b.run.id}: tritonc lint exited ${lint.code}: ${lint.stderr}`).toContain(lint.code);
      const errors = (JSON.parse(lint.stdout) as JsonFileResult[]).flatMap((f) =>
        f.messages.filter((m) => m.level === 'error').map((m) => ({ ruleId: m.ruleId, message: m.message })),
      );
      const serverAsExpected =
        b.run.suite === 'autofill_noplatform_success'
          ? server.verdict === 'accept' &&
            b.expected.some((e) => isDeepStrictEqual(withoutGroups(tritonConfigJson(parseConfig(e).value)), withoutGroups(served)))
          : server.verdict === 'refuse' && b.expected.map(fromGrep).some((p) => p.test(server.reason));
      let outcomeNote: string | undefined;
      if (b.run.suite === 'autofill_noplatform_success' && !serverAsExpected && served) {
        const diffs = b.expected.map((e) => {
          const want = withoutGroups(tritonConfigJson(parseConfig(e).value)) as Record<string, unknown>;
          const got = withoutGroups(served) as Record<string, unknown>;
          return [...new Set([...Object.keys(want), ...Object.keys(got)])]
            .filter((k) => !isDeepStrictEqual(want[k], got[k]))
            .map((k) => `${k}: expected ${JSON.stringify(want[k])}, served ${JSON.stringify(got[k])}`)
            .join('; ');
        });
        outcomeNote = `the served config differs from each expected* in ${diffs.join(' | ')}`;
      }
      const covering = server.verdict === 'refuse' ? [...new Set(RULES_FOR.filter((c) => c.triton.test(server.reason)).flatMap((c) => c.rules))] : [];
      const agrees = server.verdict === 'accept' ? errors.length === 0 : errors.length > 0;
      const covered = errors.some((e) => covering.includes(e.ruleId));
      const quotes = server.verdict === 'refuse' && errors.some((e) => e.message.includes(server.reason.split('\n')[0]!));
      const outcome: Outcome = {
        run: b.run,
        name: b.name,
        expected: b.expected,
        server,
        served,
        serverAsExpected,
        errors,
        agrees,
        covered,
        quotes,
        ...(outcomeNote ? { note: outcomeNote } : {}),
      };
      if (server.verdict === 'accept') {
        const resolve = await cli(
          ['resolve', join(b.repo, b.name), '--format', 'json', '--triton-version', '24.10', '--gpus', '0', ...b.run.flags, `--backend-directory=${BACKENDS}`],
          {
            cwd: b.dir,
          },
        );
        const ours = resolve.code === 0 ? (JSON.parse(resolve.stdout) as unknown) : undefined;
        outcome.resolveEqual = JSON.stringify(ours) === JSON.stringify(served);
        if (!outcome.resolveEqual)
          outcome.resolveDiff = `resolve (exit ${resolve.code}): ${resolve.code === 0 ? JSON.stringify(ours) : resolve.stderr.trim()}\n      server: ${JSON.stringify(served)}`;
      }
      outcomes.push(outcome);
    }
    seconds = (Date.now() - started) / 1000;
  }, 600_000);

  it('replays every run the real backends decide', () => {
    const suites = new Map<string, number>();
    for (const o of outcomes) suites.set(o.run.suite, (suites.get(o.run.suite) ?? 0) + 1);
    expect(Object.fromEntries(suites)).toEqual({ autofill_noplatform: 15, autofill_noplatform_success: 10, noautofill_platform: 58 * 2 * 2 });
  });

  it("the server does what Triton's expected* files say, but for the runs listed (the server wins)", () => {
    const not = Object.fromEntries(
      outcomes.filter((o) => !o.serverAsExpected).map((o) => [o.run.id, `${o.server.verdict} (${o.server.how}) ${o.note ?? o.server.reason}`]),
    );
    expect(
      Object.keys(not).sort(),
      Object.entries(not)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    ).toEqual(Object.keys(SERVER_NOT_AS_EXPECTED).sort());
  });

  it("tritonc lint agrees with the server, refusing with a rule that covers the server's reason", () => {
    const not = outcomes.filter((o) => !o.agrees || (o.server.verdict === 'refuse' && !o.covered));
    const show = not
      .map(
        (o) =>
          `${o.run.id}\n    server: ${o.server.verdict} ${o.server.reason}\n    tritonc: ${o.errors.map((e) => `[${e.ruleId}] ${e.message}`).join(' | ') || '(no errors)'}`,
      )
      .join('\n');
    expect(not.map((o) => o.run.id).sort(), show).toEqual(Object.keys(TRITONC_DISAGREES).sort());
  });

  it('tritonc resolve equals the config the server loaded, field for field', () => {
    const not = outcomes.filter((o) => o.resolveEqual === false);
    expect(
      not.map((o) => o.run.id),
      not.map((o) => `${o.run.id}\n      ${o.resolveDiff}`).join('\n'),
    ).toEqual([]);
  });

  afterAll(() => {
    if (outcomes.length === 0) return;
    const table = agreementTable(outcomes);
    console.log(`${table}\n(${outcomes.length} loads in ${serversStarted} servers, ${seconds.toFixed(1)} s)`);
    if (process.env.TRITONC_WRITE_REAL_DOC === '1') writeDocTable(table);
    else
      expect(
        docTable(readFileSync(DOC, 'utf8')),
        "docs/conformance-real-backends.md: its table is not this run's; regenerate with TRITONC_WRITE_REAL_DOC=1",
      ).toBe(table);
  });
});

// ---- the table ------------------------------------------------------------------------------------

const groupOf = (r: Run): string => (r.suite === 'noautofill_platform' ? `noautofill_platform [${r.trial}] ${r.flags.join(' ')}` : r.group);

function agreementTable(all: Outcome[]): string {
  const lines = [
    '| suite / backend | runs | server loads | server refuses | server as expected* | tritonc agrees | refusal covered by the rule | quoting the server | resolve = served config |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const row = (label: string, os: Outcome[]) => {
    const loads = os.filter((o) => o.server.verdict === 'accept');
    const refuses = os.filter((o) => o.server.verdict === 'refuse');
    lines.push(
      `| ${label} | ${os.length} | ${loads.length} | ${refuses.length} | ${os.filter((o) => o.serverAsExpected).length} | ${os.filter((o) => o.agrees).length} | ${refuses.filter((o) => o.covered).length} of ${refuses.length} | ${refuses.filter((o) => o.quotes).length} of ${refuses.length} | ${loads.filter((o) => o.resolveEqual).length} of ${loads.length} |`,
    );
  };
  const groups = [...new Set(all.map((o) => groupOf(o.run)))];
  for (const g of groups)
    row(
      g,
      all.filter((o) => groupOf(o.run) === g),
    );
  row('**all**', all);
  const listed = (title: string, entries: Record<string, string>) => {
    if (Object.keys(entries).length === 0) return;
    lines.push('', title, '');
    for (const [k, why] of Object.entries(entries)) lines.push(`- \`${k}\`: ${why}`);
  };
  listed('The server does not do what the expected* file says (the server wins):', SERVER_NOT_AS_EXPECTED);
  listed('tritonc does not agree with the server:', TRITONC_DISAGREES);
  // The server's reasons for the autofill cases, as it words them.
  lines.push('', "The server's reason for each autofill_noplatform case:", '');
  // The run's temp directory is not part of what either says.
  const cell = (t: string): string =>
    t
      .split('\n')[0]!
      .replace(/\/[^'"\s]*\/runs\/\d+\/models\//g, '<repository>/')
      .replace(/\|/g, '\\|');
  for (const o of all.filter((x) => x.run.suite === 'autofill_noplatform'))
    lines.push(`- \`${o.run.id.replace(/^autofill_noplatform\//, '')}\`: ${cell(o.server.reason)}`);
  // Where no error of tritonc's has the server's words, what it says instead.
  const unquoted = all.filter((o) => o.server.verdict === 'refuse' && !o.quotes);
  if (unquoted.length) lines.push('', "Refusals where no error of tritonc quotes the server's reason word for word (what tritonc says):", '');
  for (const o of unquoted) lines.push(`- \`${o.run.id}\`: ${o.errors.map((e) => `[${e.ruleId}] ${cell(e.message)}`).join('; ')}`);
  return lines.join('\n');
}

const BEGIN = '<!-- real-l0-table: begin (TRITONC_WRITE_REAL_DOC=1 npx vitest run test/conformance/l0-real-server.test.ts) -->';
const END = '<!-- real-l0-table: end -->';

function docTable(doc: string): string | undefined {
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  return a < 0 || b < a ? undefined : doc.slice(a + BEGIN.length, b).trim();
}

function writeDocTable(table: string): void {
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : `${BEGIN}\n${END}\n`;
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC}: no ${BEGIN} ... ${END} block`);
  writeFileSync(DOC, `${doc.slice(0, a + BEGIN.length)}\n${table}\n${doc.slice(b)}`);
}
