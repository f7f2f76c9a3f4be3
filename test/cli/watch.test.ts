import { spawn } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildFixture } from '../../fixtures/onnx/index.js';
import { runWatch } from '../../src/cli/watch-run.js';
import type { CliIO } from '../../src/cli/io.js';
import { BIN, cli, tempDir } from '../support/cli.js';

describe('tritonc watch (CLI)', () => {
  it('--format json prints one JSON object per line per run, and stops cleanly', async () => {
    const models = tempDir();
    await buildFixture('classifier', models);
    const repo = tempDir();
    mkdirSync(join(repo, 'classifier', '1'), { recursive: true });
    cpSync(join(models, 'classifier/model.onnx'), join(repo, 'classifier/1/model.onnx'));
    await cli(['generate', 'classifier', '--write'], { cwd: repo });
    let out = '';
    const io: CliIO = {
      stdout: (t) => void (out += t),
      stderr: (t) => void (out += t),
      readStdin: async () => '',
      stdinIsTTY: true,
      stdoutIsTTY: false,
      env: {},
      cwd: repo,
    };
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const running = runWatch({ repo: '.', generate: false, format: 'json' }, io, stopped);
    const lines = async (n: number): Promise<Record<string, unknown>[]> => {
      // Waited for, not timed: the bound is on a hang.
      await vi.waitFor(() => expect(out.trim().split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(n), { timeout: 60_000, interval: 25 });
      return out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    };
    const [first] = await lines(1);
    expect(first).toMatchObject({ event: 'initial', changed: [] });
    expect((first!.results as { filePath: string; errorCount: number }[])[0]).toMatchObject({ errorCount: 0 });
    const config = join(repo, 'classifier/config.pbtxt');
    writeFileSync(config, readFileSync(config, 'utf8').replace('max_batch_size: 4', 'max_batch_size: -4'));
    const [, second] = await lines(2);
    expect(second).toMatchObject({ event: 'change', changed: ['classifier/config.pbtxt'] });
    const messages = (second!.results as { messages: { ruleId: string; severity: number; line: number }[] }[]).flatMap((r) => r.messages);
    expect(messages.some((m) => m.severity === 2)).toBe(true);
    stop();
    expect(await running).toBe(0);
  });

  it('its own output redirected into the repository is no change (it would report itself forever)', async () => {
    const models = tempDir();
    await buildFixture('classifier', models);
    const repo = tempDir();
    mkdirSync(join(repo, 'classifier', '1'), { recursive: true });
    cpSync(join(models, 'classifier/model.onnx'), join(repo, 'classifier/1/model.onnx'));
    await cli(['generate', 'classifier', '--write'], { cwd: repo });
    // `tritonc watch --format json > watch.log 2>&1` run in the repository.
    const log = join(repo, 'watch.log');
    const fd = openSync(log, 'w');
    const child = spawn(process.execPath, [BIN, 'watch', '.', '--format', 'json'], { cwd: repo, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const runs = (): Record<string, unknown>[] =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
    try {
      await vi.waitFor(() => expect(runs().length).toBeGreaterThanOrEqual(1), { timeout: 60_000, interval: 25 });
      const config = join(repo, 'classifier/config.pbtxt');
      writeFileSync(config, `${readFileSync(config, 'utf8')}# edited\n`);
      await vi.waitFor(() => expect(runs().length).toBeGreaterThanOrEqual(2), { timeout: 60_000, interval: 25 });
      // Time for the report about the edit, written to watch.log, to come back as a change if it does.
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      // A child that has exited already fires no 'exit' again: wait only for one still running.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
    expect(runs().map((r) => r.changed)).toEqual([[], ['classifier/config.pbtxt']]);
  });

  it('exits 2 for a path that is not a directory', async () => {
    expect(await cli(['watch', 'nope'], { cwd: tempDir() })).toMatchObject({ code: 2, stderr: expect.stringContaining('watch: nope: not a directory') });
  });
});
