// `tritonc fill TEMPLATE "key:value,..." [--in-place | -o FILE] [--strict]`: fill_template.py's
// substitution (its argument syntax, its defaults, Python's string.Template). A key the template has
// no placeholder for is exit 1, naming it. A placeholder left unfilled is what NVIDIA's own commands
// do on purpose (optional parameters the backend then treats as unset): the result is linted where it
// will stand, and only what breaks the load (a placeholder where Triton needs a value, a parameter
// the backend fails on: unfilled-placeholder cites the backend's source) is exit 1, nothing written.
// --strict refuses every unfilled placeholder.
import { basename, dirname, resolve } from 'node:path';
import { lintSync, lintText } from '../lint/engine.js';
import { LintInputError } from '../lint/errors.js';
import { summarize, type LintResult } from '../lint/results.js';
import { parseConfig, unfilledTemplate } from '../config/document.js';
import { formatDiagnosticLine } from '../report/plain.js';
import { DEFAULT_SETTINGS } from '../lint/settings.js';
import { formatStylish } from '../report/stylish.js';
import { fillTemplate } from '../fill/fill.js';
import { parseSubstitutions, SubstitutionsError } from '../fill/substitutions.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';
import { describeFsError, readText } from '../util/read-text.js';
import { Workspace } from '../workspace/workspace.js';
import type { Argv } from 'yargs';
import { defineCommand, type FlagsOf } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { serverFlagsFromArgs, withTritonVersion } from './server-flags.js';
import type { ServerOptions } from '../triton/server-options.js';

const fillFlags = (y: Argv) =>
  withTritonVersion(y)
    // Required by the syntax (<template> <substitutions>): demandOption tells the type so (yargs' positional() drops it).
    .positional('template', { type: 'string', demandOption: true, describe: 'The config template (config.pbtxt with ${...} placeholders)' })
    .positional('substitutions', {
      type: 'string',
      demandOption: true,
      describe: 'key:value pairs, comma-separated; \\, and \\\\: escape (fill_template.py syntax)',
    })
    .option('in-place', { alias: ['i', 'in_place'], type: 'boolean', describe: 'Write the result over the template' })
    .option('output', { alias: 'o', type: 'string', describe: 'Write the result to this file (default: stdout)' })
    .option('lint', { type: 'boolean', default: true, describe: 'Lint the result where it will stand before writing it (--no-lint: do not)' })
    .option('strict', {
      type: 'boolean',
      describe:
        'Refuse any placeholder the substitutions leave unfilled (by default those the backend treats as unset are left, as fill_template.py leaves them, and the lint judges each)',
    })
    .option('allow-unfilled', { type: 'boolean', hidden: true, describe: 'The default now: leave placeholders as fill_template.py does' })
    .conflicts('in-place', 'output')
    .conflicts('strict', 'allow-unfilled');

/** fill's flags, parsed. --strict refuses every placeholder the substitutions do not fill (default: the lint judges each). */
export type FillOptions = FlagsOf<typeof fillFlags>;

export const fillCommand = defineCommand({
  command: 'fill <template> <substitutions>',
  describe:
    'Fill a config template\'s ${...} placeholders as fill_template.py does ("key:value,key2:value2"), refusing unknown keys and unfilled placeholders; the result is linted before it is written',
  builder: fillFlags,
  run: runFill,
});

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
    io.stderr(
      `${shown(templatePath)}: error: the template has no placeholder \${${u.key}}${u.suggestion ? `: did you mean ${u.suggestion}?` : '; drop it from the substitutions'}\n`,
    );
  }
  if (opts.strict) {
    for (const p of filled.unfilled) {
      refused = true;
      io.stderr(
        `${shown(templatePath)}:${p.line}:${p.column}: error: placeholder \${${p.name}} is not filled: add ${p.name}:<value> to the substitutions (--strict)\n`,
      );
    }
  } else if (filled.unfilled.length) {
    const names = [...new Set(filled.unfilled.map((p) => `\${${p.name}}`))];
    io.stderr(
      `tritonc fill: ${names.length} placeholder${names.length === 1 ? '' : 's'} left unfilled, as fill_template.py leaves them (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}); ${opts.lint ? 'the lint below says what each does' : 'not linted (--no-lint)'}; --strict refuses them\n`,
    );
  }
  if (refused) {
    io.stderr(`tritonc fill: nothing written\n`);
    return EXIT.problems;
  }
  for (const d of filled.defaulted)
    io.stderr(`tritonc fill: \${${d.name}} filled with ${d.value}, fill_template.py's default (give ${d.name}:<value> to choose)\n`);

  // A placeholder left where Triton needs a value (a number, an enum) leaves no config Triton can parse:
  // never written, whatever the lint of a template kept in a repository says of it.
  const stuck = unfilledTemplate(parseConfig(filled.text, templatePath).diagnostics);
  if (stuck.length) {
    for (const d of stuck) io.stderr(`${formatDiagnosticLine({ ...d, file: shown(templatePath) })}\n`);
    io.stderr(`tritonc fill: Triton cannot parse the result: nothing written\n`);
    return EXIT.problems;
  }

  const destination = opts.inPlace ? templatePath : opts.output !== undefined ? resolve(io.cwd, opts.output) : templatePath;
  if (opts.lint) {
    // Linted where Triton will read it: the destination when it is a config's path. Otherwise (a
    // template printed, or kept apart from any model directory) the config alone is judged, the
    // place it sits saying nothing about the model it will configure.
    // The Triton the result is for (--triton-version, over the settings file's `triton`): what its
    // backends require differs by release (a TensorRT-LLM template for 24.11 needs no guided-decoding key).
    const server = serverFlagsFromArgs({ ...(opts.tritonVersion !== undefined ? { tritonVersion: opts.tritonVersion } : {}) }, io.cwd);
    const result = isConfigPath(destination) ? lintResultAt(destination, filled.text, io.cwd, server) : lintAlone(templatePath, filled.text, server);
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

/**
 * The findings of a config judged on its own: its model files are provisioned elsewhere
 * (configs-only), so nothing about the directory it happens to sit in counts.
 */
function lintAlone(file: string, text: string, server: Partial<ServerOptions>): LintResult {
  // The directory's name is no model's name here either.
  const settings = { ...DEFAULT_SETTINGS, configsOnly: true, server: { ...DEFAULT_SETTINGS.server, ...server } };
  return lintText(text, { file, settings, ruleLevels: { 'name-matches-directory': 'off' } });
}

const isConfigPath = (file: string): boolean => basename(file) === 'config.pbtxt' || (basename(dirname(file)) === 'configs' && file.endsWith('.pbtxt'));

/**
 * The findings of `text` as if saved at `file`, with the repository around it (the model file, the
 * settings file); only that file's. A destination that is not a config path is linted on its own.
 */
function lintResultAt(file: string, text: string, cwd: string, server: Partial<ServerOptions>): LintResult {
  const workspace = new Workspace();
  workspace.setText(file, text);
  try {
    const result = lintSync([file], { cwd, workspace, server });
    return summarize(
      result.results.filter((r) => r.filePath === file),
      result.rules,
      result.problems,
      result.triton,
    );
  } catch (e) {
    if (e instanceof LintInputError) return lintText(text, { file, settings: { ...DEFAULT_SETTINGS, server: { ...DEFAULT_SETTINGS.server, ...server } } });
    throw e;
  }
}
