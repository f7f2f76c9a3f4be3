// `tritonc lock [REPO] [--check]`: write the repository's tritonc.lock.json from the model files of
// this checkout (run where the weights are), or, with --check (CI), exit 1 when the lock on disk is
// not what would be written, with the difference. Exit 2 for a path that is not a repository, a model
// tritonc cannot read, or a lock file it cannot parse (--check).
import { join, resolve } from 'node:path';
import { looksLikeModelDir } from '../repo/model-dir.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';
import { lineDiff } from '../util/line-diff.js';
import { describeFsError } from '../util/read-text.js';
import { buildLock } from '../workspace/lock-build.js';
import { LOCK_FILE_NAME, serializeLock } from '../workspace/lock.js';
import { Workspace } from '../workspace/workspace.js';
import type { CommandSpec } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';

export const lockCommand: CommandSpec = {
  command: 'lock [repo]',
  describe: `Record the model files (size, weights, ONNX signature) in ${LOCK_FILE_NAME}, so checkouts without the weights lint against it (--configs-only)`,
  builder: (y) =>
    y
      .positional('repo', { type: 'string', describe: 'The model repository (default: .)' })
      .option('check', { type: 'boolean', describe: `Exit 1 when ${LOCK_FILE_NAME} is not what would be written (for CI)` }),
  run: (a, io) => runLock({ repo: (a.repo as string | undefined) ?? '.', check: a.check === true }, io),
};

export async function runLock(opts: { repo: string; check: boolean }, io: CliIO): Promise<number> {
  const repo = resolve(io.cwd, opts.repo);
  const ws = new Workspace();
  const shown = (p: string): string => displayPath(p, io.cwd);
  const kind = ws.tree.kind(repo);
  if (kind !== 'dir') throw new UsageError(`lock: ${opts.repo}: ${kind ? 'not a directory' : 'no such directory'}; give the model repository (the directory holding the model directories)`);
  if (ws.tree.kind(join(repo, 'config.pbtxt')) === 'file' || (looksLikeModelDir(repo, ws.tree) && !ws.repository(repo).modelDirs().length)) {
    throw new UsageError(`lock: ${opts.repo} is a model directory; give the repository that holds it: tritonc lock ${shown(resolve(repo, '..'))}`);
  }
  const file = join(repo, LOCK_FILE_NAME);
  const existing = ws.lock(repo);
  if (existing.error && opts.check) throw new UsageError(`lock: ${shown(existing.error.file)}: ${existing.error.problem}`);

  const built = buildLock(ws, repo);
  if (built.problems.length) throw new UsageError(`lock: cannot lock ${shown(repo)}:\n${built.problems.map((p) => `  ${p}`).join('\n')}`);
  for (const k of built.kept) io.stderr(`tritonc lock: ${k}\n`);
  const text = serializeLock(built.lock);
  const versions = Object.values(built.lock.models).reduce((n, m) => n + Object.keys(m.versions).length, 0);
  const summary = `${Object.keys(built.lock.models).length} model${Object.keys(built.lock.models).length === 1 ? '' : 's'}, ${versions} version${versions === 1 ? '' : 's'}`;

  const onDisk = ws.sources.text(file);
  const before = onDisk.kind === 'text' ? onDisk.text : undefined;
  if (opts.check) {
    if (before === text) {
      io.stdout(`${shown(file)} is up to date (${summary})\n`);
      return EXIT.ok;
    }
    io.stdout(before === undefined ? `${shown(file)} does not exist\n` : `${shown(file)} differs from the model files:\n${lineDiff(before, text).join('\n')}\n`);
    io.stderr(`tritonc lock: refresh it with tritonc lock ${shown(repo)}, and commit it\n`);
    return EXIT.problems;
  }
  if (existing.error) io.stderr(`tritonc lock: replacing ${shown(file)}, which could not be used: ${existing.error.problem}\n`);
  if (before === text) {
    io.stdout(`${shown(file)} is up to date (${summary})\n`);
    return EXIT.ok;
  }
  try {
    writeFileAtomic(file, text);
  } catch (e) {
    throw new UsageError(`lock: cannot write ${shown(file)}: ${describeFsError(e)}`);
  }
  io.stdout(`wrote ${shown(file)} (${summary})\n`);
  return EXIT.ok;
}
