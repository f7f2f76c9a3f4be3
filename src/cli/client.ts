// `tritonc client MODEL_DIR|REPO --lang typescript|python [--protocol http|grpc] [--out FILE|DIR] [--check] [--force]`
// Compiles a typed client from each model's effective config. Without --out the module is printed
// (a repository's modules one after another, each under a `// ==> name <==` line, `#` in Python). Exit 0 written,
// printed or up to date; 1 a model no client can be made for, or (--check) a file that is missing or
// not what would be generated; 2 bad flags or unreadable input.
import { shellPath } from '../util/shell.js';
import { lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { clientRun, placeFiles, type ClientRun } from '../client/run.js';
import { readClientHeader } from '../client/header.js';
import { resolveOptionsOf } from '../lint/settings.js';
import { settingsNear } from './resolve.js';
import { applyServerFlags } from '../triton/server-options.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';
import { lineDiff } from '../util/line-diff.js';
import { plainText } from '../util/line-ends.js';
import { ownFileProblem } from '../util/own-file.js';
import { describeFsError, readText } from '../util/read-text.js';
import { Workspace } from '../workspace/workspace.js';
import { defineCommand, type FlagsOf } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { withRepositories } from './remote.js';
import { serverFlagsFromArgs, withServerFlags } from './server-flags.js';

const clientFlags = (y: Argv) =>
  withServerFlags(y)
    .positional('path', { type: 'string', demandOption: true, describe: 'A model directory or a model repository (or its URL: s3://, gs://, as://)' })
    .option('lang', {
      choices: ['typescript', 'python'] as const,
      demandOption: true,
      describe:
        "The client's language: typescript (fetch, or @grpc/grpc-js for gRPC) or python (on tritonclient[http] or tritonclient[grpc], typed for mypy --strict)",
    })
    .option('protocol', {
      choices: ['http', 'grpc'] as const,
      default: 'http' as const,
      describe: "KServe v2 over HTTP with binary tensor data, or over gRPC (@grpc/grpc-js, tritonclient.grpc), which streams a decoupled model's responses",
    })
    .option('out', {
      type: 'string',
      describe:
        'Where to write: a .ts or .py file (one model) or a directory (<model>.ts or .py each, and index.ts or __init__.py for a repository); default: print',
    })
    .option('check', {
      type: 'boolean',
      describe: "Exit 1 when the files at --out are not what would be generated (a model's config changed, or a file was edited)",
    })
    .option('force', { type: 'boolean', describe: 'Replace a file at --out that tritonc client did not write' })
    .conflicts('check', 'force');

export type ClientArgs = FlagsOf<typeof clientFlags>;

/** A module's file name, a repository's index and how a line is commented out, per language. */
const LANG_FILES = {
  typescript: { extension: /\.[cm]?ts$/, index: 'index.ts', comment: '//' },
  python: { extension: /\.py$/, index: '__init__.py', comment: '#' },
} as const;

export const clientCommand = defineCommand({
  command: 'client <path>',
  describe: "Generate a typed client (TypeScript or Python, over KServe v2 HTTP or gRPC) from each model's effective config",
  builder: clientFlags,
  run: runClient,
});

export async function runClient(a: ClientArgs, io: CliIO): Promise<number> {
  if (a.check && a.out === undefined) throw new UsageError('client: --check compares the files at --out with what would be generated: give --out');
  return withRepositories('client', [a.path], io, {}, async (remote) => {
    const dir = resolve(io.cwd, remote.paths[0]!);
    const settings = settingsNear(dir);
    const server = applyServerFlags(settings.server, serverFlagsFromArgs(a, io.cwd));
    const resolveOptions = resolveOptionsOf({ ...settings, server });
    const run = await remote.complete((files) =>
      clientRun(dir, { workspace: new Workspace({ files }), resolve: resolveOptions, lang: a.lang, protocol: a.protocol }),
    );
    if ('error' in run) throw new UsageError(`client: ${run.error.replace(dir, a.path)}`);
    return report(run, a, remote.io);
  });
}

function report(run: ClientRun, a: ClientArgs, io: CliIO): number {
  for (const w of run.warnings) io.stderr(`tritonc client: ${w}\n`);
  let exit: number = EXIT.ok;
  for (const p of run.problems) {
    io.stderr(`tritonc client: no client for model '${p.model}': ${p.message}\n`);
    exit = EXIT.problems;
  }
  if (a.out === undefined) {
    for (const f of run.files) {
      if (run.files.length > 1) io.stdout(`${LANG_FILES[a.lang].comment} ==> ${f.name} <==\n`);
      io.stdout(f.text);
    }
    return exit;
  }
  const out = resolve(io.cwd, a.out);
  const { extension, index } = LANG_FILES[a.lang];
  if (run.kind === 'repository' && extension.test(a.out))
    throw new UsageError(`client: a repository gives a module per model and an ${index}: --out takes a directory, not ${a.out}`);
  const outIsDir = run.kind === 'repository' || !extension.test(a.out);
  const placed = placeFiles(run, out, outIsDir);
  const shown = (p: string): string => displayPath(p, io.cwd);
  if (a.check) {
    for (const { path, file } of placed) {
      const problem = checkFile(path, file.text);
      if (problem) {
        io.stdout(`${shown(path)}: ${problem.message}\n`);
        for (const line of problem.diff.slice(0, 40)) io.stdout(`  ${line}\n`);
        exit = EXIT.problems;
      }
    }
    // A module tritonc wrote for a model the repository no longer has.
    if (outIsDir && run.kind === 'repository') {
      const expected = new Set(placed.map((p) => p.path));
      const failed = new Set(run.problems.map((p) => p.model));
      for (const { path: stale, model } of ownModulesIn(out, extension)) {
        // A model that is there but has no client now is reported above, not as gone.
        if (!expected.has(stale) && !(model !== undefined && failed.has(model))) {
          io.stdout(`${shown(stale)}: tritonc client wrote it for a model the repository no longer has; remove it\n`);
          exit = EXIT.problems;
        }
      }
    }
    if (exit !== EXIT.ok)
      io.stderr(
        `to update: tritonc client ${shellPath(a.path)} --lang ${a.lang}${a.protocol === 'grpc' ? ' --protocol grpc' : ''} --out ${shellPath(a.out)}\n`,
      );
    return exit;
  }
  if (outIsDir) {
    const problem = ownFileProblemOfDir(out);
    if (problem) throw new UsageError(`client: ${shown(out)} ${problem}`);
  }
  for (const { path, file } of placed) {
    const r = writeClient(path, file.text, a.force === true);
    if (r.kind === 'refused' || r.kind === 'error') {
      io.stderr(`tritonc client: not writing ${shown(path)}: ${r.message}\n`);
      exit = Math.max(exit, r.kind === 'error' ? EXIT.usage : EXIT.problems);
    } else {
      io.stdout(`${r.kind === 'unchanged' ? 'up to date' : r.kind === 'created' ? 'wrote' : 'updated'} ${shown(path)}\n`);
    }
  }
  return exit;
}

/** The output directory: made when missing; never a link or a non-directory. */
function ownFileProblemOfDir(dir: string): string | undefined {
  let st;
  try {
    st = lstatSync(dir, { throwIfNoEntry: false });
  } catch (e) {
    return `cannot be looked at: ${describeFsError(e)}`;
  }
  if (st === undefined) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      return `cannot be made: ${describeFsError(e)}`;
    }
    return undefined;
  }
  if (st.isSymbolicLink())
    return 'is a symbolic link: tritonc client writes its modules only into a directory itself, never through a link (give the real directory)';
  if (!st.isDirectory()) return 'is not a directory';
  return undefined;
}

/** The modules tritonc client wrote in a directory, with the model each was made for (from its header's source). */
function ownModulesIn(dir: string, extension: RegExp): { path: string; model: string | undefined }[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => extension.test(n));
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const path = join(dir, n);
    const read = readText(path);
    const header = read.kind === 'text' ? readClientHeader(read.text) : undefined;
    if (!header) return [];
    let source = header.source;
    try {
      if (source.startsWith('"')) source = JSON.parse(source) as string;
    } catch {
      // as written
    }
    return [{ path, model: /^(.*)\/(config\.pbtxt)?$/.exec(source)?.[1] }];
  });
}

type Existing = { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'bad'; message: string };

function existing(path: string): Existing {
  const problem = ownFileProblem(path, 'client module');
  if (problem) return { kind: 'bad', message: problem };
  const read = readText(path);
  if (read.kind === 'missing') return { kind: 'missing' };
  if (read.kind !== 'text') return { kind: 'bad', message: `cannot read it: ${read.reason}` };
  return { kind: 'text', text: read.text };
}

function checkFile(path: string, text: string): { message: string; diff: string[] } | undefined {
  const e = existing(path);
  if (e.kind === 'missing') return { message: 'missing', diff: [] };
  if (e.kind === 'bad') return { message: e.message, diff: [] };
  const now = plainText(e.text).text;
  if (now === text) return undefined;
  const header = readClientHeader(now);
  const wanted = readClientHeader(text)!;
  const why = !header
    ? 'tritonc client did not write it (it has no tritonc-client header)'
    : !header.unedited
      ? 'it was edited by hand since tritonc client wrote it'
      : header.flags !== wanted.flags
        ? `it was generated with other flags (tritonc client ${header.flags})`
        : header.config !== wanted.config
          ? "the model's effective config changed since the client was generated"
          : 'another tritonc wrote it (the generated code differs; the config is the same)';
  return { message: `differs from what tritonc client would write: ${why}`, diff: lineDiff(now, text) };
}

type WriteResult = { kind: 'created' | 'updated' | 'unchanged' } | { kind: 'refused' | 'error'; message: string };

/** Writes one module atomically at the path itself (a temp file made with O_EXCL, renamed over it), never through a link. */
function writeClient(path: string, text: string, force: boolean): WriteResult {
  const e = existing(path);
  if (e.kind === 'bad') return { kind: 'refused', message: e.message };
  if (e.kind === 'text') {
    if (plainText(e.text).text === text) return { kind: 'unchanged' };
    if (!readClientHeader(e.text) && !force)
      return { kind: 'refused', message: 'tritonc client did not write it (no tritonc-client header); pass --force to replace it' };
  }
  try {
    writeFileAtomic(path, text);
  } catch (err) {
    return { kind: 'error', message: `cannot write it: ${describeFsError(err)}` };
  }
  return { kind: e.kind === 'missing' ? 'created' : 'updated' };
}
