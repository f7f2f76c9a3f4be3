// `tritonc fill TEMPLATE "key:value,..." [--in-place | -o FILE]`: fill_template.py's substitution
// (its argument syntax, its defaults, Python's string.Template), made strict: a key the template
// has no placeholder for, or a placeholder left unfilled, is exit 1 naming them, and the result is
// linted where it will stand before it is written (an error there: exit 1, nothing written).
import { basename, dirname, resolve } from 'node:path';
import { lintSync, lintText } from '../lint/engine.js';
import { LintInputError } from '../lint/errors.js';
import { summarize, type LintResult } from '../lint/results.js';
import { formatStylish } from '../report/stylish.js';
import { fillTemplate } from '../fill/fill.js';
import { parseSubstitutions, SubstitutionsError } from '../fill/substitutions.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';
import { describeFsError, readText } from '../util/read-text.js';
import { Workspace } from '../workspace/workspace.js';
import type { CommandSpec } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';

export interface FillOptions {
  template: string;
  substitutions: string;
  inPlace: boolean;
  output?: string | undefined;
  lint: boolean;
  /** Leave placeholders the substitutions do not fill (as fill_template.py does), said as warnings. */
  allowUnfilled?: boolean;
}

export const fillCommand: CommandSpec = {
  command: 'fill <template> <substitutions>',
  describe: 'Fill a config template\'s ${...} placeholders as fill_template.py does ("key:value,key2:value2"), refusing unknown keys and unfilled placeholders; the result is linted before it is written',
  builder: (y) =>
    y
      .positional('template', { type: 'string', describe: 'The config template (config.pbtxt with ${...} placeholders)' })
      .positional('substitutions', { type: 'string', describe: 'key:value pairs, comma-separated; \\, and \\\\: escape (fill_template.py syntax)' })
      .option('in-place', { alias: ['i', 'in_place'], type: 'boolean', describe: 'Write the result over the template' })
      .option('output', { alias: 'o', type: 'string', describe: 'Write the result to this file (default: stdout)' })
      .option('lint', { type: 'boolean', default: true, describe: 'Lint the result where it will stand before writing it (--no-lint: do not)' })
      .option('allow-unfilled', { type: 'boolean', describe: 'Leave placeholders the substitutions do not fill, as fill_template.py does (warnings; the lint still refuses what Triton cannot parse)' })
      .conflicts('in-place', 'output'),
  run: (a, io) =>
    runFill({ template: a.template as string, substitutions: a.substitutions as string, inPlace: a['in-place'] === true, output: a.output as string | undefined, lint: a.lint !== false, allowUnfilled: a['allow-unfilled'] === true }, io),
};

export async function runFill(opts: FillOptions, io: CliIO): Promise<number> {
  const templatePath = resolve(io.cwd, opts.template);
  const shown = (p: string): string => displayPath(p, io.cwd);
  const read = readText(templatePath);
  if (read.kind !== 'text') throw new UsageError(`${opts.template}: ${read.kind === 'missing' ? 'no such file' : read.reason}`);
  let substitutions;
  try {
    substitutions = parseSubstitutions(opts.substitutions);
  } catch (e) {
    if (e instanceof SubstitutionsError) throw new UsageError(`${e.message}`);
    throw e;
  }

  const filled = fillTemplate(read.text, substitutions);
  let refused = false;
  for (const u of filled.unknownKeys) {
    refused = true;
    io.stderr(`${shown(templatePath)}: error: the template has no placeholder \${${u.key}}${u.suggestion ? `: did you mean ${u.suggestion}?` : '; drop it from the substitutions'}\n`);
  }
  for (const p of filled.unfilled) {
    if (!opts.allowUnfilled) refused = true;
    io.stderr(`${shown(templatePath)}:${p.line}:${p.column}: ${opts.allowUnfilled ? 'warning' : 'error'}: placeholder \${${p.name}} is not filled: add ${p.name}:<value> to the substitutions${opts.allowUnfilled ? '' : ' (or pass --allow-unfilled to leave it, as fill_template.py does)'}\n`);
  }
  if (refused) {
    io.stderr(`tritonc fill: nothing written\n`);
    return EXIT.problems;
  }
  for (const d of filled.defaulted) io.stderr(`tritonc fill: \${${d.name}} filled with ${d.value}, fill_template.py's default (give ${d.name}:<value> to choose)\n`);

  const destination = opts.inPlace ? templatePath : opts.output !== undefined ? resolve(io.cwd, opts.output) : templatePath;
  if (opts.lint) {
    // Linted where Triton will read it; a destination that is no config's path, where the template stands.
    const result = lintResultAt(isConfigPath(destination) ? destination : templatePath, filled.text, io.cwd);
    const report = formatStylish(result, { cwd: io.cwd });
    if (report) io.stderr(report);
    if (result.errorCount) {
      io.stderr(`tritonc fill: the filled config has errors where it would stand (${shown(destination)}): nothing written\n`);
      return EXIT.problems;
    }
  }
  if (!opts.inPlace && opts.output === undefined) {
    // As the script's print(): the text and a newline.
    io.stdout(`${filled.text}\n`);
    return EXIT.ok;
  }
  try {
    writeFileAtomic(destination, filled.text);
  } catch (e) {
    throw new UsageError(`cannot write ${shown(destination)}: ${describeFsError(e)}`);
  }
  io.stderr(`tritonc fill: wrote ${shown(destination)}\n`);
  return EXIT.ok;
}

const isConfigPath = (file: string): boolean => basename(file) === 'config.pbtxt' || (basename(dirname(file)) === 'configs' && file.endsWith('.pbtxt'));

/**
 * The findings of `text` as if saved at `file`, with the repository around it (the model file, the
 * settings file); only that file's. A destination that is not a config path is linted on its own.
 */
function lintResultAt(file: string, text: string, cwd: string): LintResult {
  const workspace = new Workspace();
  workspace.setText(file, text);
  try {
    const result = lintSync([file], { cwd, workspace });
    return summarize(result.results.filter((r) => r.filePath === file), result.rules, result.problems);
  } catch (e) {
    if (e instanceof LintInputError) return lintText(text, { file });
    throw e;
  }
}
