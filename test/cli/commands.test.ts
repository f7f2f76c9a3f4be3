// The command list (src/cli/commands.ts): each command's module is loaded when it runs, so one command
// does not pay at start for the code of the others (a real process's modules: test/cli/lint.test.ts).
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands } from '../../src/cli/commands.js';
import { cli } from '../support/cli.js';

describe('the command list', () => {
  afterEach(() => vi.restoreAllMocks());

  it("names each command as its module's syntax does, once each", async () => {
    const specs = await Promise.all(commands.map((c) => c.load()));
    expect(specs.map((s) => s.command.split(' ')[0])).toEqual(commands.map((c) => c.name));
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
  });

  it('loads the module of the command the arguments name, every one for help, none for --version or an unknown flag', async () => {
    const loads = commands.map((c) => vi.spyOn(c, 'load'));
    const loaded = (): string[] => commands.filter((_, i) => loads[i]!.mock.calls.length > 0).map((c) => c.name);
    const run = async (args: string[]): Promise<{ loaded: string[]; code: number; stderr: string }> => {
      loads.forEach((l) => l.mockClear());
      const r = await cli(args, { cwd: fileURLToPath(new URL('../../model_repository', import.meta.url)) });
      return { loaded: loaded(), code: r.code, stderr: r.stderr };
    };
    expect(await run(['lint', 'classifier'])).toMatchObject({ loaded: ['lint'], code: 0 });
    expect(await run(['--format', 'json', 'lint', 'classifier'])).toMatchObject({ loaded: ['lint'], code: 0 });
    expect(await run(['--version'])).toMatchObject({ loaded: [], code: 0 });
    expect(await run(['--bogus'])).toMatchObject({ loaded: [], code: 2, stderr: 'tritonc: Unknown argument: bogus\nRun tritonc --help for usage.\n' });
    expect((await run(['--help'])).loaded).toEqual(commands.map((c) => c.name));
    expect((await run([])).loaded).toEqual(commands.map((c) => c.name));
  });
});
