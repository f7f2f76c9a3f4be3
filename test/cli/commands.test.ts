// The command list (src/cli/commands.ts): each command's module is loaded when it runs, so one command
// does not pay at start for the code of the others (a real process's modules: test/cli/lint.test.ts).
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.js';

describe('the command list', () => {
  it("names each command as its module's syntax does, once each", async () => {
    const specs = await Promise.all(commands.map((c) => c.load()));
    expect(specs.map((s) => s.command.split(' ')[0])).toEqual(commands.map((c) => c.name));
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
  });
});
