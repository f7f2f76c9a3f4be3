// `tritonc fmt [PATH...] [--check | --write] [--canonical] [--stdin-filepath P]`: layout only by
// default (indentation, spacing, line breaks; the author's spellings kept), canonical with --canonical
// or `"fmt": { "style": "canonical" }` in the nearest tritonc.config.json.
import { shellPath } from '../util/shell.js';
import { unfilledTemplate } from '../config/document.js';
import { resolve } from 'node:path';
import { formatFileText } from '../config/format.js';
import { formatDiagnosticLine } from '../report/plain.js';
import { diskTree } from '../repo/tree.js';
import { findConfigFiles, linkOutNote } from '../repo/find-configs.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { describeFsError, readText } from '../util/read-text.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import type { Argv } from 'yargs';
import { defineCommand, type FlagsOf } from './command.js';
import { displayPath } from '../util/display-path.js';
import { SettingsError, findSettingsFile, loadSettingsFile } from '../lint/settings.js';
import { RULES } from '../lint/rules/index.js';

const fmtFlags = (y: Argv) =>
  y
    .positional('paths', { type: 'string', array: true, describe: 'Config files or directories (default: stdin)' })
    .option('check', { type: 'boolean', describe: 'List files that are not formatted; exit 1 if any' })
    .option('write', { type: 'boolean', describe: 'Rewrite files in place (atomically)' })
    .option('canonical', {
      type: 'boolean',
      describe:
        "Also rewrite to the one canonical spelling (one list per repeated field, no colon before {, typed scalars); default: layout only, or the settings file's fmt.style",
    })
    .option('stdin-filepath', { type: 'string', describe: 'The file name to use in messages for stdin input' })
    .conflicts('check', 'write');

/** fmt's flags, parsed: --canonical / --no-canonical over the settings. */
export type FmtOptions = FlagsOf<typeof fmtFlags>;

export const fmtCommand = defineCommand({
  command: 'fmt [paths..]',
  describe: 'Format config.pbtxt files (layout only, or --canonical), keeping every comment',
  builder: fmtFlags,
  run: runFmt,
});

/** Whether `file` is formatted canonically: the flag, else the nearest settings file's fmt.style. */
function canonicalFor(file: string, opts: FmtOptions, cache: Map<string, boolean>): boolean {
  if (opts.canonical !== undefined) return opts.canonical;
  const settings = findSettingsFile(file);
  if (!settings) return false;
  let canonical = cache.get(settings);
  if (canonical === undefined) {
    try {
      canonical = loadSettingsFile(settings, RULES).fmt.style === 'canonical';
    } catch (e) {
      if (e instanceof SettingsError) throw new UsageError(`settings: ${e.message}`);
      throw e;
    }
    cache.set(settings, canonical);
  }
  return canonical;
}

export async function runFmt(opts: FmtOptions, io: CliIO): Promise<number> {
  const paths = opts.paths ?? [];
  if (opts.check && opts.write) throw new UsageError('--check and --write cannot be used together: --check only reports, --write rewrites');
  const fromStdin = paths.length === 0 || (paths.length === 1 && paths[0] === '-');
  if (fromStdin) {
    if (paths.length === 0 && io.stdinIsTTY)
      throw new UsageError('give the config files or directories to format, or pipe a config on stdin (e.g. tritonc fmt < config.pbtxt)');
    if (opts.write) throw new UsageError('--write needs file paths; with stdin the result goes to stdout');
    return formatStdin(await io.readStdin(), opts, io);
  }
  const { files, missing, unreadable, linksOut } = findConfigFiles(
    paths.map((p) => resolve(io.cwd, p)),
    diskTree,
  );
  for (const l of linksOut) io.stderr(`tritonc fmt: warning: ${displayPath(l.path, io.cwd)}: ${linkOutNote(l.target)}\n`);
  for (const m of missing) io.stderr(`tritonc fmt: ${displayPath(m, io.cwd)}: no such file or directory\n`);
  for (const u of unreadable) io.stderr(`tritonc fmt: ${displayPath(u.path, io.cwd)}: cannot read: ${u.reason}\n`);
  if (missing.length || unreadable.length) return EXIT.usage;
  if (!files.length) {
    io.stderr(`tritonc fmt: no config.pbtxt or configs/*.pbtxt found under ${paths.join(', ')}\n`);
    return EXIT.usage;
  }

  let failed = false;
  const unformatted: string[] = [];
  const styles = new Map<string, boolean>();
  for (const file of files) {
    const shown = displayPath(file, io.cwd);
    const read = readText(file);
    if (read.kind !== 'text') {
      io.stderr(`tritonc fmt: ${shown}: cannot read: ${read.kind === 'missing' ? 'no such file or directory' : read.reason}\n`);
      failed = true;
      continue;
    }
    const result = formatFileText(read.text, shown, { canonical: canonicalFor(file, opts, styles) });
    if (result.status === 'skipped') continue;
    if (result.status === 'syntax-error') {
      // A template to fill (placeholders where values go): said once, not an error.
      if (unfilledTemplate(result.diagnostics).length) {
        io.stderr(`tritonc fmt: ${shown}: template: fill it first (tritonc fill); not formatted\n`);
        continue;
      }
      for (const d of result.diagnostics) io.stderr(`${formatDiagnosticLine(d)}\n`);
      io.stderr(`tritonc fmt: ${shown} was not formatted: fix the syntax errors above first\n`);
      failed = true;
      continue;
    }
    if (result.status === 'unsafe') {
      io.stderr(`tritonc fmt: ${shown}: ${result.reason}\n`);
      failed = true;
      continue;
    }
    if (opts.check) {
      if (result.changed) {
        unformatted.push(shown);
        io.stdout(`${shown}\n`);
      }
    } else if (opts.write) {
      if (result.changed) {
        try {
          // Through no link below the paths given (a model directory linked out of the repository).
          writeFileAtomic(file, result.output, { within: paths.map((p) => resolve(io.cwd, p)) });
          io.stdout(`formatted ${shown}\n`);
        } catch (e) {
          io.stderr(`tritonc fmt: ${shown}: cannot write: ${describeFsError(e)}; the file is unchanged\n`);
          failed = true;
        }
      }
    } else {
      io.stdout(result.output);
    }
  }
  if (failed) return EXIT.usage;
  if (unformatted.length) {
    io.stderr(
      `${unformatted.length} file${unformatted.length === 1 ? '' : 's'} would be reformatted; run tritonc fmt --write ${paths.map(shellPath).join(' ')}\n`,
    );
    return EXIT.problems;
  }
  return EXIT.ok;
}

function formatStdin(text: string, opts: FmtOptions, io: CliIO): number {
  const name = opts.stdinFilepath ?? '<stdin>';
  // Stdin has no place of its own: the settings file nearest --stdin-filepath, or the working directory.
  const result = formatFileText(text, name, { canonical: canonicalFor(resolve(io.cwd, opts.stdinFilepath ?? 'config.pbtxt'), opts, new Map()) });
  switch (result.status) {
    case 'skipped':
      if (!opts.check) io.stdout(text);
      return EXIT.ok;
    case 'syntax-error':
      for (const d of result.diagnostics) io.stderr(`${formatDiagnosticLine(d)}\n`);
      return EXIT.usage;
    case 'unsafe':
      io.stderr(`tritonc fmt: ${name}: ${result.reason}\n`);
      return EXIT.usage;
    case 'formatted':
      if (opts.check) {
        if (result.changed) {
          io.stdout(`${name}\n`);
          return EXIT.problems;
        }
        return EXIT.ok;
      }
      io.stdout(result.output);
      return EXIT.ok;
  }
}
