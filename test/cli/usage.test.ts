// What a new user meets first: an unknown command, paths shown as they were typed.
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

describe('the command line', () => {
  it('an unknown command says so and lists the commands, exit 2', async () => {
    const r = await cli(['bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "tritonc: unknown command 'bogus'; the commands are: inspect, generate, resolve, lint, lock, fill, fmt, watch, verify, tune, client, lsp\nRun tritonc --help for usage.\n",
    );
    expect((await cli(['lnit', 'model_repository'])).stderr).toContain("unknown command 'lnit' (did you mean 'lint'?)");
  });

  it.each([
    ['lint', 'tritonc lint: /nonexistent: no such file or directory\n'],
    ['fmt', 'tritonc fmt: /nonexistent: no such file or directory\n'],
    ['generate', 'tritonc generate: /nonexistent: no such file or directory\n'],
    ['resolve', 'tritonc resolve: /nonexistent: no such directory\n'],
    ['inspect', 'tritonc inspect: /nonexistent: no such file\n'],
  ])('%s shows a path outside the working directory as it was typed', async (command, stderr) => {
    const r = await cli([command, '/nonexistent'], { cwd: '/tmp' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(stderr);
  });
});
