// The Python backend's auto_complete_config, tritonc's against the real one: Triton's own
// L0_model_config Python cases (17 refusals, 12 that load; model.py files in fixtures/models/python),
// deployed as test.sh deploys them into one repository and loaded one by one into the real
// tritonserver 2.51 (CPU, auto-complete on). For each model the server loads, the config it reports
// (GET /v2/models/<m>/config) equals resolve's, read statically and run (--run-python-autocomplete
// with the venv's Python); for each it refuses, its error names the message resolve and lint give.
// Needs the venv (test/support/real-triton.ts) and the corpus; skipped with one line without them.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../../src/verify/ports.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { realTritonRuns, VENV } from '../support/real-triton.js';
import { deployCase, L0 } from '../support/python-cases.js';

const runs =
  realTritonRuns('real-Triton Python auto-complete tests') &&
  (L0 !== '' && existsSync(L0) ? true : (console.log('tritonc: real-Triton Python auto-complete tests skipped: no corpus (TRITONC_CORPUS)'), false));
const PYTHON = join(VENV, 'bin', 'python');

let server: ChildProcess | undefined;
let url = '';
let repo = '';
let log = '';
const shm = (): string[] => (existsSync('/dev/shm') ? readdirSync('/dev/shm').filter((f) => f.startsWith('triton_pyac_')) : []);

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  for (const f of shm()) rmSync(join('/dev/shm', f), { force: true });
}

const suiteCases = (suite: string): string[] => (existsSync(join(L0, suite, 'python')) ? readdirSync(join(L0, suite, 'python')).sort() : []);

describe.skipIf(!runs)("the real Python backend's auto_complete_config (tritonserver 2.51, L0_model_config cases)", () => {
  const models: { name: string; dir: string; refused: boolean }[] = [];
  beforeAll(async () => {
    repo = join(tempDir('tritonc-pyac-'), 'models');
    for (const suite of ['autofill_noplatform', 'autofill_noplatform_success']) {
      for (const name of suiteCases(suite)) {
        for (const dir of deployCase(suite, name, repo)) models.push({ name: dir.split('/').at(-1)!, dir, refused: suite === 'autofill_noplatform' });
      }
    }
    const [http, grpc] = await freePorts(2);
    url = `http://127.0.0.1:${http}`;
    server = spawn('bash', [join(ROOT, 'scripts', 'real-triton', 'start.sh'), repo, String(http), String(grpc), 'off'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TRITON_VENV: VENV, TRITON_SHM_PREFIX: 'triton_pyac_' },
    });
    server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const until = Date.now() + 60_000;
    for (;;) {
      if (
        await fetch(`${url}/v2/health/ready`).then(
          (r) => r.status === 200,
          () => false,
        )
      )
        break;
      if (Date.now() > until) throw new Error(`tritonserver did not get ready:\n${log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 90_000);
  afterAll(() => stop(server), 30_000);

  it('every model: the server loads it with the config resolve gives and lint finds nothing, or refuses it with the message resolve and lint give (read and run)', async () => {
    const { cli } = await import('../support/cli.js');
    expect(models.length).toBe(17 + 14);
    const mismatches: string[] = [];
    for (const m of models) {
      const load = await fetch(`${url}/v2/repository/models/${m.name}/load`, { method: 'POST', body: '{}' });
      const text = await load.text();
      const read = await cli(['resolve', m.dir, '--format', 'json', '--gpus', '0']);
      const ran = await cli(['resolve', m.dir, '--format', 'json', '--gpus', '0', '--run-python-autocomplete', '--python', PYTHON]);
      if (m.refused) {
        if (load.status === 200) mismatches.push(`${m.name}: the server loads it`);
        for (const [how, r] of [
          ['read', read],
          ['run', ran],
        ] as const) {
          const message = /\n {2}(.*)\n {2}fix:/.exec(r.stderr)?.[1];
          if (r.code !== 1 || !message || !text.includes(message))
            mismatches.push(`${m.name} (${how}): resolve says ${JSON.stringify(r.stderr)}; the server ${text}`);
        }
        for (const how of ['read', 'run'] as const) {
          const lint = await cli(['lint', m.dir, '--format', 'json', ...(how === 'run' ? ['--run-python-autocomplete', '--python', PYTHON] : [])]);
          const found = (JSON.parse(lint.stdout) as { messages: { ruleId: string; message: string }[] }[])
            .flatMap((f) => f.messages)
            .filter((d) => d.ruleId === 'python-autocomplete');
          if (!found.some((d) => [...d.message.matchAll(/\("([^"]+)"\)/g)].some((q) => text.includes(q[1]!))))
            mismatches.push(`${m.name} (lint, ${how}): ${JSON.stringify(found.map((d) => d.message))}; the server ${text}`);
        }
      } else {
        if (load.status !== 200) {
          mismatches.push(`${m.name}: the server refuses it: ${text}`);
          continue;
        }
        const served = await (await fetch(`${url}/v2/models/${m.name}/config`)).json();
        for (const how of ['read', 'run'] as const) {
          const lint = await cli(['lint', m.dir, '--format', 'json', ...(how === 'run' ? ['--run-python-autocomplete', '--python', PYTHON] : [])]);
          const found = (JSON.parse(lint.stdout) as { messages: { ruleId: string; message: string }[] }[])
            .flatMap((f) => f.messages)
            .filter((d) => d.ruleId === 'python-autocomplete');
          if (found.length) mismatches.push(`${m.name} (lint, ${how}): ${JSON.stringify(found.map((d) => d.message))}`);
        }
        for (const [how, r] of [
          ['read', read],
          ['run', ran],
        ] as const) {
          if (r.code !== 0) {
            mismatches.push(`${m.name} (${how}): resolve exits ${r.code}: ${r.stderr}`);
            continue;
          }
          const resolved = JSON.parse(r.stdout);
          delete resolved.ensemble_scheduling?.max_inflight_requests;
          try {
            expect(resolved).toEqual(served);
          } catch {
            mismatches.push(`${m.name} (${how}): resolve ${JSON.stringify(resolved)}\n  server ${JSON.stringify(served)}`);
          }
          if (r.stderr.includes('not known here')) mismatches.push(`${m.name} (${how}): ${r.stderr}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 600_000);
});
