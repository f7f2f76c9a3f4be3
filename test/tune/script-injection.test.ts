// tune plan writes shell scripts (run.sh, each variant's perf_analyzer.sh) that the user runs with
// bash: no value given to it, nor a model's directory name, may run as a command. Every flag gets
// command substitutions, backticks, quotes and newlines; the scripts are then run by bash with stub
// curl and perf_analyzer on PATH that record their arguments, and nothing else may have happened.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { CLASSIFIER, writeRepo } from '../lint/harness.js';

const HOSTILE = ['$(touch PWNED)', '`touch PWNED`', `x'"; touch PWNED; echo "`, 'a\ntouch PWNED', '${IFS}touch${IFS}PWNED'];

const config = (name: string) => `name: ${JSON.stringify(name)}
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching { }
`;

/** A bin directory whose curl and perf_analyzer write their arguments, one per line, to calls.log. */
function stubTools(dir: string): string {
  const bin = join(dir, 'stub-bin');
  mkdirSync(bin, { recursive: true });
  for (const tool of ['curl', 'perf_analyzer']) {
    writeFileSync(
      join(bin, tool),
      `#!/usr/bin/env bash\nfor a in ${tool} "$@"; do printf '%s\\0' "$a"; done >> ${JSON.stringify(join(dir, 'calls.log'))}\nprintf '\\n\\0' >> ${JSON.stringify(join(dir, 'calls.log'))}\n`,
    );
    chmodSync(join(bin, tool), 0o755);
  }
  return bin;
}

/** The stubs' calls, each an argv. */
const calls = (dir: string): string[][] =>
  readFileSync(join(dir, 'calls.log'), 'utf8')
    .split('\n\0')
    .filter(Boolean)
    .map((c) => c.split('\0').filter((a, i, all) => i < all.length - 1 || a !== ''));

describe('tune plan: nothing given to it runs as a command', () => {
  it.each(['url', 'http-url'])('refuses a --%s that is not host:port, naming the flag, and writes nothing', async (flag) => {
    const repo = await writeRepo({ 'm/config.pbtxt': config('m'), 'm/1/model.onnx': CLASSIFIER });
    for (const bad of [...HOSTILE.map((h) => `localhost:8000${h}`), 'localhost', 'localhost:0', 'localhost:70000', 'http://localhost:8000', '-x:1']) {
      const r = await cli(['tune', 'plan', join(repo, 'm'), '--out', join(repo, 'plan'), `--${flag}=${bad}`], { cwd: repo });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(`--${flag}: ${JSON.stringify(bad)}`);
      expect(existsSync(join(repo, 'plan'))).toBe(false);
    }
    for (const good of ['localhost:8000', '10.0.0.7:8001', '[::1]:8000', 'triton.internal.example:443']) {
      const out = join(repo, `plan-${good.replace(/\W/g, '_')}`);
      expect((await cli(['tune', 'plan', join(repo, 'm'), '--out', out, `--${flag}`, good], { cwd: repo })).code, good).toBe(0);
    }
  });

  it.each(['delays', 'instances', 'preferred', 'concurrency-range', 'percentile', 'measurement-interval'])(
    'refuses hostile text in --%s (exit 2)',
    async (flag) => {
      const repo = await writeRepo({ 'm/config.pbtxt': config('m'), 'm/1/model.onnx': CLASSIFIER });
      for (const bad of HOSTILE) {
        const r = await cli(['tune', 'plan', join(repo, 'm'), '--out', join(repo, 'plan'), `--${flag}`, `1${bad}`], { cwd: repo });
        expect(r.code, `--${flag} ${bad}`).toBe(2);
        expect(r.stderr).toContain(`--${flag}`);
      }
      expect(existsSync(join(repo, 'PWNED'))).toBe(false);
    },
  );

  it('runs the scripts with hostile model names and TRITON_HTTP: every name reaches curl and perf_analyzer as it is, and nothing else runs', async () => {
    const names = ['m$(touch PWNED)', 'q`touch PWNED`', `s'"x`, 'n\ntouch PWNED', '-dash'];
    const files: Record<string, string | Buffer> = {};
    for (const n of names) Object.assign(files, { [`${n}/config.pbtxt`]: config(n), [`${n}/1/model.onnx`]: CLASSIFIER });
    const repo = await writeRepo(files);
    const bin = stubTools(repo);
    for (const [i, n] of names.entries()) {
      const out = join(repo, `plan${i}`);
      const r = await cli(
        ['tune', 'plan', join(repo, n), '--out', out, '--delays', '0', '--instances', '1', '--preferred', 'keep', '--http-url', 'localhost:8000'],
        { cwd: repo },
      );
      expect(r.code, `${JSON.stringify(n)}: ${r.stderr}`).toBe(0);
      const run = spawnSync('bash', [join(out, 'run.sh')], { cwd: repo, env: { PATH: `${bin}:/usr/bin:/bin` }, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      // With the server's address from the environment, as run.sh documents: taken as data too.
      const env = spawnSync('bash', [join(out, 'run.sh')], {
        cwd: repo,
        env: { PATH: `${bin}:/usr/bin:/bin`, TRITON_HTTP: 'h:1$(touch PWNED)' },
        encoding: 'utf8',
      });
      expect(env.status, env.stderr).toBe(0);
      const variant = `${n}_d0_i1`;
      expect(readdirSync(out)).toContain(variant);
      const got = calls(repo);
      const at = (c: string[]) => c[0] === 'perf_analyzer';
      expect(got.filter(at).map((c) => c[c.indexOf('-m') + 1])).toEqual([variant, variant]);
      const loads = got.filter((c) => c[0] === 'curl').map((c) => c.at(-1));
      expect(loads).toEqual([
        `http://localhost:8000/v2/repository/models/${encodeURIComponent(variant)}/load`,
        `http://localhost:8000/v2/repository/models/${encodeURIComponent(variant)}/unload`,
        `http://h:1$(touch PWNED)/v2/repository/models/${encodeURIComponent(variant)}/load`,
        `http://h:1$(touch PWNED)/v2/repository/models/${encodeURIComponent(variant)}/unload`,
      ]);
      writeFileSync(join(repo, 'calls.log'), '');
      // Each script says what it is in a comment that stays one line.
      const measure = readFileSync(join(out, variant, 'perf_analyzer.sh'), 'utf8');
      expect(measure.split('\n')[1]).toMatch(/^# Measures .*here\.$/);
    }
    // No file named PWNED anywhere the scripts ran (the model directories' names hold the word).
    expect((readdirSync(repo, { recursive: true }) as string[]).filter((f) => basename(f) === 'PWNED')).toEqual([]);
  });
});
