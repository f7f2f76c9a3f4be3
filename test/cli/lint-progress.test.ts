// Progress of a long lint on a terminal (stderr a TTY): a line rewritten in place and erased at the
// end; nothing in a pipe or a CI log, nothing with --quiet, nothing for a short run.
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { writeRepo } from '../lint/harness.js';

async function repoOf(n: number): Promise<string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    files[`m${i}/config.pbtxt`] =
      `backend: "python"\nmax_batch_size: 4\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n`;
  for (let i = 0; i < n; i++) files[`m${i}/1/model.py`] = '';
  return writeRepo(files);
}

describe('lint progress', () => {
  it('on a terminal: models done / total on stderr, the line erased before the report', async () => {
    const repo = await repoOf(60);
    const r = await cli(['lint', repo, '--format', 'json'], { cwd: repo, stderrIsTTY: true });
    expect(r.stderr).toContain('\r\x1b[Ktritonc lint: configs 60/60');
    expect(r.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
  });
  it('quiet in a pipe, with --quiet, and for a short run', async () => {
    const repo = await repoOf(60);
    expect((await cli(['lint', repo], { cwd: repo })).stderr).not.toContain('tritonc lint: configs');
    expect((await cli(['lint', repo, '--quiet'], { cwd: repo, stderrIsTTY: true })).stderr).not.toContain('tritonc lint: configs');
    const small = await repoOf(3);
    expect((await cli(['lint', small], { cwd: small, stderrIsTTY: true })).stderr).toBe('');
  });
});
