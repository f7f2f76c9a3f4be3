// The process runner behind verify's docker runtime: a command run as a group of its own is outside
// tritonc's process group, so a Ctrl-C at the terminal (sent by the terminal to its foreground
// process group, POSIX termios) does not reach it while tritonc holds the signal for its clean-up.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { execaRunner } from '../../src/verify/process-runner.js';

const pgidOf = (pid: number): string => execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).trim();

describe('execaRunner.run', () => {
  it("group: true runs the command in a process group of its own; without it, in tritonc's", async () => {
    const ours = pgidOf(process.pid);
    const own = await execaRunner.run('sh', ['-c', 'ps -o pgid= -p $$'], { group: true });
    const shared = await execaRunner.run('sh', ['-c', 'ps -o pgid= -p $$'], {});
    expect(shared.stdout.trim()).toBe(ours);
    expect(own.stdout.trim()).not.toBe(ours);
    expect(own.exitCode).toBe(0);
  });
});
