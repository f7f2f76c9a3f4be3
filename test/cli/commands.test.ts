// The command list (src/cli/commands.ts): each command's module is loaded when it runs, so one command
// does not pay at start for the code of the others.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.js';
import { runBin, tempDir } from '../support/cli.js';

describe('the command list', () => {
  it("names each command as its module's syntax does, once each", async () => {
    const specs = await Promise.all(commands.map((c) => c.load()));
    expect(specs.map((s) => s.command.split(' ')[0])).toEqual(commands.map((c) => c.name));
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
  });

  it("a real `tritonc lint` loads only lint's code: not node:http, node:https or node:crypto (the KServe client, tune, deploy)", () => {
    // Preloaded into the process: at exit, the built-in modules it loaded (process.moduleLoadList).
    const probe = join(tempDir('tritonc-modules-'), 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => require('fs').writeSync(2, '\\nMODULES ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));\n",
    );
    const r = runBin(['lint', 'model_repository/classifier'], { env: { NODE_OPTIONS: `--require ${probe}` } });
    expect(r.code, r.stderr).toBe(0);
    const loaded = /MODULES (.*)/.exec(r.stderr)![1]!.split(' ');
    expect(loaded).toContain('fs');
    expect(loaded.filter((m) => ['http', 'https', 'crypto', 'tls'].includes(m))).toEqual([]);
  });
});
