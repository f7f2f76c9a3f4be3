// Which tritonc the extension starts. Kept free of the `vscode` module so it is tested in plain Node.
// Order: the `tritonc.path` setting, then the project's own install (node_modules/.bin/tritonc in a
// workspace folder: the version the project pinned, as ESLint's extension prefers), then PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where it was found: said in the output channel, so a user knows which tritonc answers. */
  source: 'setting' | 'workspace' | 'PATH';
}

export interface FindServerInput {
  /** The `tritonc.path` setting; relative paths are read from the first workspace folder. */
  configured?: string | undefined;
  workspaceFolders: readonly string[];
  /** The PATH variable as the extension host sees it. */
  pathVariable?: string | undefined;
  platform?: NodeJS.Platform;
}

const LSP_ARGS = ['lsp', '--stdio'];

function isExecutable(path: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    // Windows has no execute bit: a file that exists under an executable name is enough.
    if (platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable names npm writes into node_modules/.bin and onto PATH, per platform. */
const executableNames = (platform: NodeJS.Platform): string[] => (platform === 'win32' ? ['tritonc.cmd', 'tritonc.exe', 'tritonc'] : ['tritonc']);

export function findServer(input: FindServerInput): ServerCommand | { error: string } {
  const platform = input.platform ?? process.platform;
  const names = executableNames(platform);
  const configured = input.configured?.trim();
  if (configured) {
    const base = input.workspaceFolders[0];
    const path = isAbsolute(configured) || !base ? configured : resolve(base, configured);
    if (isExecutable(path, platform)) return { command: path, args: LSP_ARGS, source: 'setting' };
    return {
      error: `tritonc.path is set to ${configured}, and ${path} is not an executable file: fix the setting, or clear it to use the project's node_modules/.bin/tritonc or tritonc on PATH.`,
    };
  }
  for (const folder of input.workspaceFolders) {
    for (const name of names) {
      const path = join(folder, 'node_modules', '.bin', name);
      if (isExecutable(path, platform)) return { command: path, args: LSP_ARGS, source: 'workspace' };
    }
  }
  for (const dir of (input.pathVariable ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const path = join(dir, name);
      if (isExecutable(path, platform)) return { command: path, args: LSP_ARGS, source: 'PATH' };
    }
  }
  return {
    error: 'tritonc was not found: install it in the project (npm install --save-dev tritonc) or globally (npm install -g tritonc), or set tritonc.path.',
  };
}
