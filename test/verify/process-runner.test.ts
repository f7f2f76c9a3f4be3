// The real process runner (execa, argument arrays) on harmless commands: node itself.
import { describe, expect, it } from 'vitest';
import { execaRunner } from '../../src/verify/process-runner.js';

describe('execa process runner', () => {
  it('runs a command and reports its exit code and output; a missing command is notFound', async () => {
    const r = await execaRunner.run(process.execPath, ['-e', 'process.stdout.write("27.3.1"); process.stderr.write("warn"); process.exit(3)']);
    expect(r).toEqual({ exitCode: 3, stdout: '27.3.1', stderr: 'warn', notFound: false });
    const missing = await execaRunner.run('tritonc-no-such-command-xyz', ['version']);
    expect(missing.notFound).toBe(true);
  });

  it('passes arguments verbatim, with no shell in between', async () => {
    const r = await execaRunner.run(process.execPath, ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '"device=0,1"', '$HOME; rm -rf /']);
    expect(JSON.parse(r.stdout)).toEqual(['"device=0,1"', '$HOME; rm -rf /']);
  });

  it('collects the lines of a long-running process and can stop it', async () => {
    const p = execaRunner.start(process.execPath, ['-e', 'console.log("E1 first"); console.error("E2 second"); setInterval(() => {}, 1000)']);
    for (let i = 0; i < 100 && p.lines.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect([...p.lines].sort()).toEqual(['E1 first', 'E2 second']);
    expect(p.hasExited()).toBe(false);
    p.kill();
    await p.exited;
    expect(p.hasExited()).toBe(true);
  });
});
