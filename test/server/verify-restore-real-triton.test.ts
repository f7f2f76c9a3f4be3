// verify --runtime server puts the real tritonserver 2.51 back on its own config after a timeout and
// after Ctrl-C (issue 31.3), with Python-backend models in explicit model control mode whose
// initialize or execute sleeps as long as the candidate config asks (its `parameters`): a load past
// --timeout, an inference past --timeout (on a model that was serving, and one that was not loaded),
// Ctrl-C (SIGINT to the tritonc process) and SIGTERM (a job scheduler's or a container's stop), each
// during the load and during an inference, and a model not
// loaded before checked without a hitch (unloaded afterwards). After each, GET
// /v2/models/<m>/config and POST /v2/repository/index say that the server serves the model's own
// config again, and the output (text and --format json) says what verify did. What the real server
// does here that the protocol fixture models (fixtures/verify/protocol-fixture.ts, each with the
// Triton source line it imitates): a load sent while another of the same model runs waits for it,
// a load goes on when its client has gone, a reload does not wait for an inference in flight, and an
// unload answers at once while the model stays UNLOADING until its inference is done. Without the
// venv (a fresh clone) the suite is skipped with one line; with CI=true it must run.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { PYTHON_CONFIG as CONFIG, realTritonRuns, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { startProtocolFixture } from '../../fixtures/verify/protocol-fixture.js';

const runs = realTritonRuns('verify --runtime server restore tests');

/** Sleeps in initialize and in execute as long as the config's parameters say (none in the server's own config). */
const MODEL_PY = `import json
import time

import numpy as np
import triton_python_backend_utils as pb_utils


def seconds(config, key):
    return float(config.get("parameters", {}).get(key, {}).get("string_value", "0"))


class TritonPythonModel:
    def initialize(self, args):
        config = json.loads(args["model_config"])
        time.sleep(seconds(config, "initialize_sleep_s"))
        self.execute_sleep_s = seconds(config, "execute_sleep_s")

    def execute(self, requests):
        time.sleep(self.execute_sleep_s)
        responses = []
        for request in requests:
            x = pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", (x + 1).astype(np.float32))]))
        return responses
`;

const MODELS = [
  'load_timeout',
  'infer_timeout',
  'infer_timeout_unloaded',
  'not_loaded',
  'sigint_load',
  'sigint_infer',
  'sigterm_load',
  'sigterm_infer',
  'plain_reload',
];
const NOT_LOADED = ['infer_timeout_unloaded', 'not_loaded'];

let server: RealTriton | undefined;
let url = '';

beforeAll(async () => {
  if (!runs) return;
  const repo = join(tempDir('tritonc-restore-real-'), 'models');
  for (const m of MODELS) {
    mkdirSync(join(repo, m, '1'), { recursive: true });
    writeFileSync(join(repo, m, 'config.pbtxt'), CONFIG(m));
    writeFileSync(join(repo, m, '1', 'model.py'), MODEL_PY);
  }
  // Every model but one is serving when verify starts.
  server = await startRealTriton(
    repo,
    MODELS.filter((m) => !NOT_LOADED.includes(m)).map((m) => `--load-model=${m}`),
  );
  url = server.url;
}, 90_000);

afterAll(() => server?.stop(), 30_000);

const post = async (path: string, body: unknown = {}): Promise<{ status: number; text: string }> => {
  const r = await fetch(url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.status, text: await r.text() };
};
const served = async (m: string): Promise<Record<string, unknown>> => (await fetch(`${url}/v2/models/${m}/config`)).json() as Promise<Record<string, unknown>>;
const index = async (m: string): Promise<unknown[]> =>
  (JSON.parse((await post('/v2/repository/index')).text) as { name: string }[]).filter((e) => e.name === m);

/** The candidate: the server's model with max_batch_size 4 and a sleep where the test wants one. */
function candidate(m: string, parameter: 'initialize_sleep_s' | 'execute_sleep_s', seconds: number): string {
  const dir = join(tempDir('tritonc-restore-local-'), m);
  mkdirSync(join(dir, '1'), { recursive: true });
  writeFileSync(
    join(dir, 'config.pbtxt'),
    CONFIG(m, `parameters { key: "${parameter}" value { string_value: "${seconds}" } }\n`).replace('max_batch_size: 8', 'max_batch_size: 4'),
  );
  writeFileSync(join(dir, '1', 'model.py'), MODEL_PY);
  return dir;
}

/** tritonc as a process of its own (the built bundle), for SIGINT and SIGTERM. */
function spawnVerify(args: string[]): {
  child: ReturnType<typeof spawn>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [BIN, 'verify', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}\n${server?.log().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!runs)('verify --runtime server puts the real tritonserver 2.51 back after a timeout, Ctrl-C and SIGTERM', () => {
  it('a plain reload keeps a config override; an unload and a load read the repository again (why verify restores by override); the protocol fixture does the same', async () => {
    const own = await served('plain_reload');
    const fixture = await startProtocolFixture({ explicit: true, models: { plain_reload: { config: structuredClone(own), ready: true } } });
    try {
      // The same sequence to both; the config each serves after each step.
      const step = async (base: string, path: string, body: unknown = {}) => {
        const r = await fetch(base + path, { method: 'POST', body: JSON.stringify(body) });
        if (path.endsWith('/unload'))
          await until(`${base} unloaded`, async () =>
            ((await (await fetch(`${base}/v2/repository/index`, { method: 'POST', body: '{}' })).json()) as { name: string; state?: string }[]).some(
              (e) => e.name === 'plain_reload' && e.state === 'UNAVAILABLE',
            ),
          );
        const config =
          (await fetch(`${base}/v2/models/plain_reload/config`)).status === 200
            ? ((await (await fetch(`${base}/v2/models/plain_reload/config`)).json()) as { max_batch_size: number }).max_batch_size
            : 'not served';
        return [r.status, config];
      };
      const sequence = async (base: string) => [
        await step(base, '/v2/repository/models/plain_reload/load', { parameters: { config: JSON.stringify({ ...own, max_batch_size: 2 }) } }),
        await step(base, '/v2/repository/models/plain_reload/load'),
        await step(base, '/v2/repository/models/plain_reload/unload'),
        await step(base, '/v2/repository/models/plain_reload/load'),
      ];
      const real = await sequence(url);
      expect(real).toEqual([
        [200, 2],
        [200, 2],
        [200, 'not served'],
        [200, 8],
      ]);
      expect(await sequence(fixture.url)).toEqual(real);
    } finally {
      await fixture.stop();
    }
    expect(await served('plain_reload')).toEqual(own);
  }, 60_000);

  it('a load past --timeout (initialize sleeps): exit 2; the restore Triton queues behind that load puts the model back, read back equal', async () => {
    const m = 'load_timeout';
    const own = await served(m);
    const started = Date.now();
    const r = await cli(['verify', candidate(m, 'initialize_sleep_s', 8), '--server', url, '--timeout', '3s']);
    expect(r.code, r.stderr).toBe(2);
    // The restore waited for the candidate's load (8 s of initialize) and then ran its own.
    expect(Date.now() - started).toBeGreaterThan(8000);
    expect(r.stderr).toContain(
      `tritonc verify: the load did not finish within the timeout (POST /v2/repository/models/${m}/load: no answer from ${url} within 3 s); Triton cannot cancel a load, so it goes on in the server; raise --timeout`,
    );
    expect(r.stderr).toContain(
      `'${m}' was put back with the config it served before (loaded as the override after the candidate's load had finished, read back from /v2/models/${m}/config and equal to it)`,
    );
    expect(r.stderr).not.toContain('could not put');
    expect(await served(m)).toEqual(own);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'READY' }]);
  }, 90_000);

  it('an inference past --timeout (execute sleeps), text and --format json: exit 2; the reload does not wait for the inference in flight', async () => {
    const m = 'infer_timeout';
    const own = await served(m);
    // The inference sleeps far longer than verify's --timeout and its restore take, so the bound below
    // only catches a reload that waited for it: a bound on a hang, not a measure of speed; the
    // --timeout leaves the load (a Python stub starting) room on a loaded machine.
    const dir = candidate(m, 'execute_sleep_s', 90);
    const text = await cli(['verify', dir, '--server', url, '--timeout', '20s']);
    expect(text.code, text.stderr).toBe(2);
    expect(text.stderr).toContain(
      `tritonc verify: inference at batch 1: POST /v2/models/${m}/infer: no answer from ${url} within 20 s; '${m}' was put back with the config it served before (loaded as the override, read back from /v2/models/${m}/config and equal to it)`,
    );
    expect(await served(m)).toEqual(own);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'READY' }]);

    const started = Date.now();
    const json = await cli(['verify', dir, '--server', url, '--timeout', '20s', '--format', 'json']);
    expect(json.code, json.stderr).toBe(2);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ runtime: 'server', outcome: 'cannot-run', exitCode: 2, load: { ok: true }, problems: [] });
    expect(report.error).toContain('no answer from');
    expect(report.notes).toContain(
      `'${m}' was put back with the config it served before (loaded as the override, read back from /v2/models/${m}/config and equal to it)`,
    );
    // The reload answered while the inference it left behind still ran (90 s of execute).
    expect(Date.now() - started).toBeLessThan(85_000);
    expect(await served(m)).toEqual(own);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'READY' }]);
  }, 240_000);

  it('an inference past --timeout on a model that was not loaded: the unload answers at once, the model is UNLOADING until its inference is done', async () => {
    const m = 'infer_timeout_unloaded';
    expect(await index(m)).toEqual([{ name: m }]);
    const r = await cli(['verify', candidate(m, 'execute_sleep_s', 10), '--server', url, '--timeout', '3s', '--format', 'json']);
    expect(r.code, r.stderr).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.notes).toContain(
      `'${m}' is being unloaded (it was not loaded before): Triton finishes an unload once the model has answered the requests it is still running`,
    );
    expect(report.error).toContain(`'${m}' is being unloaded (it was not loaded before)`);
    expect((await fetch(`${url}/v2/models/${m}/ready`)).status).toBe(400);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'UNLOADING' }]);
    await until(
      `${m} unloaded`,
      async () => JSON.stringify(await index(m)) === JSON.stringify([{ name: m, version: '1', state: 'UNAVAILABLE', reason: 'unloaded' }]),
    );
  }, 90_000);

  it('a model that was not loaded, checked without a hitch: unloaded afterwards once its stub has stopped, said so', async () => {
    const m = 'not_loaded';
    const r = await cli(['verify', candidate(m, 'execute_sleep_s', 0), '--server', url, '--timeout', '60s', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).notes).toContain(`'${m}' was unloaded afterwards (it was not loaded before)`);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'UNAVAILABLE', reason: 'unloaded' }]);
  }, 90_000);

  it('Ctrl-C during an inference (SIGINT to tritonc): exit 130, and the model is put back, said in the text output', async () => {
    const m = 'sigint_infer';
    const own = await served(m);
    const { child, done } = spawnVerify([candidate(m, 'execute_sleep_s', 8), '--server', url, '--timeout', '60s']);
    // The candidate is loaded (max_batch_size 4), then its inference at batch 1 runs for 8 s.
    await until(`${m} serves the candidate`, async () => (await served(m)).max_batch_size === 4);
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    const r = await done;
    expect([r.code, r.signal], r.stderr).toEqual([130, null]);
    expect(r.stderr).toContain(
      `tritonc verify: interrupted by SIGINT; '${m}' was put back with the config it served before (loaded as the override, read back from /v2/models/${m}/config and equal to it)`,
    );
    expect(await served(m)).toEqual(own);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'READY' }]);
  }, 90_000);

  it('Ctrl-C during the load (initialize sleeps), --format json: exit 130; the restore waits for that load, then puts the model back', async () => {
    const m = 'sigint_load';
    const own = await served(m);
    const started = Date.now();
    const { child, done } = spawnVerify([candidate(m, 'initialize_sleep_s', 8), '--server', url, '--timeout', '60s', '--format', 'json']);
    // The candidate's load has begun (the server logs it) and runs 8 s.
    await until(`${m}'s candidate load begun`, async () => (server!.log().match(new RegExp(`loading: ${m}:1`, 'g')) ?? []).length >= 2);
    child.kill('SIGINT');
    const r = await done;
    expect([r.code, r.signal], r.stderr).toEqual([130, null]);
    expect(Date.now() - started).toBeGreaterThan(8000);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ outcome: 'interrupted', exitCode: 130, problems: [] });
    expect(report.error).toBe(
      `interrupted by SIGINT; '${m}' was put back with the config it served before (loaded as the override after the candidate's load had finished, read back from /v2/models/${m}/config and equal to it)`,
    );
    expect(await served(m)).toEqual(own);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'READY' }]);
  }, 90_000);
  it('SIGTERM during an inference: exit 143, and the model is put back, said in the text output', async () => {
    const m = 'sigterm_infer';
    const own = await served(m);
    const { child, done } = spawnVerify([candidate(m, 'execute_sleep_s', 8), '--server', url, '--timeout', '60s']);
    await until(`${m} serves the candidate`, async () => (await served(m)).max_batch_size === 4);
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGTERM');
    const r = await done;
    expect([r.code, r.signal], r.stderr).toEqual([143, null]);
    expect(r.stderr).toContain(
      `tritonc verify: interrupted by SIGTERM; '${m}' was put back with the config it served before (loaded as the override, read back from /v2/models/${m}/config and equal to it)`,
    );
    expect(await served(m)).toEqual(own);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'READY' }]);
  }, 90_000);

  it('SIGTERM during the load, and again while tritonc waits to put the model back, --format json: exit 143; the second is held, the restore waits for that load, then puts the model back', async () => {
    const m = 'sigterm_load';
    const own = await served(m);
    const started = Date.now();
    const { child, done } = spawnVerify([candidate(m, 'initialize_sleep_s', 8), '--server', url, '--timeout', '60s', '--format', 'json']);
    await until(`${m}'s candidate load begun`, async () => (server!.log().match(new RegExp(`loading: ${m}:1`, 'g')) ?? []).length >= 2);
    child.kill('SIGTERM');
    // A scheduler's second SIGTERM, while the restore waits for the candidate's load (8 s).
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGTERM');
    const r = await done;
    expect([r.code, r.signal], r.stderr).toEqual([143, null]);
    expect(Date.now() - started).toBeGreaterThan(8000);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ outcome: 'interrupted', exitCode: 143, problems: [] });
    expect(report.error).toBe(
      `interrupted by SIGTERM; '${m}' was put back with the config it served before (loaded as the override after the candidate's load had finished, read back from /v2/models/${m}/config and equal to it)`,
    );
    expect(await served(m)).toEqual(own);
    expect(await index(m)).toEqual([{ name: m, version: '1', state: 'READY' }]);
  }, 90_000);
});
