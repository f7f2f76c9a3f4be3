// What a new user meets first: an unknown command, paths shown as they were typed.
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

describe('the command line', () => {
  it('an unknown command says so and lists the commands, exit 2', async () => {
    const r = await cli(['bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "tritonc: unknown command 'bogus'; the commands are: inspect, generate, resolve, lint, lock, fill, fmt, watch, verify, tune, client, deploy, releases, lsp\nRun tritonc --help for usage.\n",
    );
    expect((await cli(['lnit', 'model_repository'])).stderr).toContain("unknown command 'lnit' (did you mean 'lint'?)");
  });

  it.each([
    ['lint', 'tritonc lint: /nonexistent: no such file or directory\n'],
    ['fmt', 'tritonc fmt: /nonexistent: no such file or directory\n'],
    ['generate', 'tritonc generate: /nonexistent: no such file or directory\n'],
    ['resolve', 'tritonc resolve: /nonexistent: no such directory\n'],
    ['inspect', 'tritonc inspect: /nonexistent: no such file or directory\n'],
  ])('%s shows a path outside the working directory as it was typed', async (command, stderr) => {
    const r = await cli([command, '/nonexistent'], { cwd: '/tmp' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(stderr);
  });

  it("after --, an argument that looks like a flag is a path (POSIX): lint's and fmt's lists take it; a command without a place for it says so; a proposed command quotes its paths", async () => {
    const dir = await writeRepo({
      '-odd/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      '-odd/classifier/1/model.onnx': CLASSIFIER,
      '$(touch x)/config.pbtxt': CLASSIFIER_CONFIG,
    });
    const lint = await cli(['lint', '--format', 'json', '--', '-odd'], { cwd: dir });
    expect(lint.code, lint.stderr).toBe(0);
    expect(JSON.parse(lint.stdout).map((f: { filePath: string }) => f.filePath)).toEqual([`${dir}/-odd/classifier/config.pbtxt`]);
    expect((await cli(['lint', '--', 'missing'], { cwd: dir })).stderr).toBe('tritonc lint: missing: no such file or directory\n');
    const fmt = await cli(['fmt', '--check', '--', '-odd'], { cwd: dir });
    // The command it proposes reads the path as a path when pasted into a shell.
    expect([fmt.code, fmt.stderr]).toEqual([1, '1 file would be reformatted; run tritonc fmt --write ./-odd\n']);
    const spaced = await cli(['fmt', '--check', '--', '-odd/classifier/config.pbtxt', '$(touch x)'], { cwd: dir });
    expect(spaced.stderr).toContain("run tritonc fmt --write ./-odd/classifier/config.pbtxt '$(touch x)'");
    // As typed (yargs would number 1e3), and a command named after its flags keeps working.
    expect((await cli(['lint', '--', '1e3'], { cwd: dir })).stderr).toBe('tritonc lint: 1e3: no such file or directory\n');
    const flagsFirst = await cli(['--format', 'json', 'lint', '-odd'], { cwd: dir });
    expect([flagsFirst.code, flagsFirst.stderr]).toEqual([2, expect.stringContaining('Unknown argument')]);
    const flagsFirstDashes = await cli(['--format', 'json', 'lint', '--', '-odd'], { cwd: dir });
    expect(flagsFirstDashes.code, flagsFirstDashes.stderr).toBe(0);
    expect(JSON.parse(flagsFirstDashes.stdout)).toHaveLength(1);
    const extra = await cli(['resolve', './-odd/classifier', '--', 'more'], { cwd: dir });
    expect([extra.code, extra.stderr]).toEqual([2, 'tritonc resolve: unexpected argument "more"\nRun tritonc --help for usage.\n']);
  });
});
