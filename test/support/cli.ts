// Runs the CLI in-process with captured output, or as a real process through bin/tritonc.js.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: string[], opts: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv; stderrIsTTY?: boolean } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => opts.stdin ?? '',
    stdinIsTTY: opts.stdin === undefined,
    stdoutIsTTY: false,
    stderrIsTTY: opts.stderrIsTTY ?? false,
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin', 'tritonc.js');

/**
 * The ids of an unprivileged user to run the CLI as, for permission tests: root reads a mode-000
 * file anyway. As root that is nobody (65534); as another user, that user.
 */
export const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

let installed: string | undefined;

/**
 * The CLI as an install the unprivileged user can read: the checkout may sit in a directory only its
 * owner can enter (mktemp -d). The bundle is self-contained, so the launcher, the bundle, the schema
 * and package.json are all it needs.
 */
function readableBin(): string {
  if (!installed) {
    const dir = tempDir('tritonc-install-');
    for (const part of ['bin', 'dist/cli.cjs', 'schemas', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    execFileSync('chmod', ['-R', 'a+rX', dir]);
    installed = join(dir, 'bin', 'tritonc.js');
  }
  return installed;
}

/** Runs the built CLI (dist/) as a user would. */
export function runBin(args: string[], opts: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv; unprivileged?: boolean } = {}): CliResult {
  if (!existsSync(join(ROOT, 'dist', 'cli.cjs'))) throw new Error('dist/cli.cjs is missing: run npm run build (npm ci does it)');
  const r = spawnSync(process.execPath, [opts.unprivileged ? readableBin() : BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    timeout: 60_000,
    ...(opts.unprivileged ? UNPRIVILEGED : {}),
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

import { tempDir } from './temp.js';

export { tempDir };
