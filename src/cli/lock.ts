// `tritonc lock [REPO] [--check] [--output FILE]`: write the repository's tritonc.lock.json from the
// model files of this checkout (run where the weights are: also a repository URL, whose lock goes to
// --output), or, with --check (CI), exit 1 when the lock on disk is not what would be written, with
// the difference. Exit 2 for a path that is not a repository, a model
// tritonc cannot read, or a lock file it cannot parse (--check).
import { shellPath } from '../util/shell.js';
import { join, resolve } from 'node:path';
import { looksLikeModelDir } from '../repo/model-dir.js';
import { displayPath } from '../util/display-path.js';
import { lineDiff } from '../util/line-diff.js';
import { OwnFileError, ownFileProblem, writeOwnFile } from '../util/own-file.js';
import { describeFsError } from '../util/read-text.js';
import { buildLock } from '../workspace/lock-build.js';
import { LOCK_FILE_NAME, serializeLock } from '../workspace/lock.js';
import { Workspace } from '../workspace/workspace.js';
import type { Argv } from 'yargs';
import { defineCommand, type FlagsOf } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import type { FileSource } from '../workspace/sources.js';
import { withRepositories } from './remote.js';

const lockFlags = (y: Argv) =>
  y
    .positional('repo', { type: 'string', describe: 'The model repository (default: .), or its URL (s3://, gs://, as://) with --output' })
    .option('output', {
      alias: 'o',
      type: 'string',
      describe: `Write (or --check) the lock here instead of <repo>/${LOCK_FILE_NAME}: the checkout's lock, from the repository the weights are in`,
    })
    .option('check', { type: 'boolean', describe: `Exit 1 when ${LOCK_FILE_NAME} is not what would be written (for CI)` });

export const lockCommand = defineCommand({
  command: 'lock [repo]',
  describe: `Record the model files (size, weights, ONNX signature) in ${LOCK_FILE_NAME}, so checkouts without the weights lint against it (--configs-only)`,
  builder: lockFlags,
  run: (a, io) => runLock({ repo: a.repo ?? '.', check: a.check, output: a.output }, io),
});

/** lock's flags, parsed, the repository given (default: the current directory). */
type LockOptions = Pick<FlagsOf<typeof lockFlags>, 'check' | 'output'> & { repo: string };

export async function runLock(opts: LockOptions, io: CliIO): Promise<number> {
  return withRepositories('lock', [opts.repo], io, {}, async (remote) => {
    if (remote.remote && opts.output === undefined) {
      throw new UsageError(
        `${opts.repo} is in object storage, and tritonc never writes there: give the lock file of the checkout, e.g. tritonc lock ${opts.repo} --output model_repository/${LOCK_FILE_NAME}`,
      );
    }
    const repo = resolve(io.cwd, remote.paths[0]!);
    const planned = await remote.complete((files) => planLock(repo, opts, files, remote.io.cwd));
    return writeLock(planned, opts, remote.io);
  });
}

interface PlannedLock {
  repo: string;
  file: string;
  text: string;
  before: string | undefined;
  summary: string;
  kept: string[];
  existingProblem: string | undefined;
}

/** What the lock would be, and what the file holds: computed only (it may run again, remote/repositories.ts). */
function planLock(repo: string, opts: LockOptions, files: FileSource, cwd: string): PlannedLock {
  const ws = new Workspace({ files });
  const shown = (p: string): string => displayPath(p, cwd);
  const kind = ws.tree.kind(repo);
  if (kind !== 'dir')
    throw new UsageError(
      `${opts.repo}: ${kind ? 'not a directory' : 'no such directory'}; give the model repository (the directory holding the model directories)`,
    );
  if (ws.tree.kind(join(repo, 'config.pbtxt')) === 'file' || (looksLikeModelDir(repo, ws.tree) && !ws.repository(repo).modelDirs().length)) {
    throw new UsageError(`${opts.repo} is a model directory; give the repository that holds it: tritonc lock ${shellPath(shown(resolve(repo, '..')))}`);
  }
  const file = opts.output !== undefined ? resolve(cwd, opts.output) : join(repo, LOCK_FILE_NAME);
  // Always a path on this machine (a remote repository's lock goes to --output): never a link.
  const own = ownFileProblem(file, 'lock');
  if (own) throw new UsageError(`${shown(file)} ${own}; tritonc lock then writes the file`);
  const existing = ws.lock(repo);
  if (existing.error && opts.check && opts.output === undefined) throw new UsageError(`${shown(existing.error.file)}: ${existing.error.problem}`);

  const built = buildLock(ws, repo);
  if (built.problems.length) throw new UsageError(`cannot lock ${shown(repo)}:\n${built.problems.map((p) => `  ${p}`).join('\n')}`);
  const text = serializeLock(built.lock);
  const versions = Object.values(built.lock.models).reduce((n, m) => n + Object.keys(m.versions).length, 0);
  const summary = `${Object.keys(built.lock.models).length} model${Object.keys(built.lock.models).length === 1 ? '' : 's'}, ${versions} version${versions === 1 ? '' : 's'}`;

  const onDisk = ws.sources.text(file);
  const before = onDisk.kind === 'text' ? onDisk.text : undefined;
  return { repo, file, text, before, summary, kept: built.kept, existingProblem: existing.error?.problem };
}

function writeLock({ repo, file, text, before, summary, kept, existingProblem }: PlannedLock, opts: LockOptions, io: CliIO): number {
  const shown = (p: string): string => displayPath(p, io.cwd);
  for (const k of kept) io.stderr(`tritonc lock: ${k}\n`);
  const refresh = `tritonc lock ${opts.output !== undefined ? `${opts.repo} --output ${opts.output}` : shown(repo)}`;
  if (opts.check) {
    if (before === text) {
      io.stdout(`${shown(file)} is up to date (${summary})\n`);
      return EXIT.ok;
    }
    io.stdout(
      before === undefined ? `${shown(file)} does not exist\n` : `${shown(file)} differs from the model files:\n${lineDiff(before, text).join('\n')}\n`,
    );
    io.stderr(`tritonc lock: refresh it with ${refresh}, and commit it\n`);
    return EXIT.problems;
  }
  if (existingProblem && opts.output === undefined) io.stderr(`tritonc lock: replacing ${shown(file)}, which could not be used: ${existingProblem}\n`);
  if (before === text) {
    io.stdout(`${shown(file)} is up to date (${summary})\n`);
    return EXIT.ok;
  }
  try {
    writeOwnFile(file, 'lock', text);
  } catch (e) {
    if (e instanceof OwnFileError) throw new UsageError(`${shown(file)} ${e.problem}`);
    throw new UsageError(`cannot write ${shown(file)}: ${describeFsError(e)}`);
  }
  io.stdout(`wrote ${shown(file)} (${summary})\n`);
  return EXIT.ok;
}
