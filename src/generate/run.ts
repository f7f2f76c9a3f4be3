// One generate target end to end: read the model's signature, choose the options (given, or recorded
// in the existing file's header), generate, render with the header, and decide what writing would do.
import { relative } from 'node:path';
import { printConfig } from '../config/print.js';
import type { ModelSignature } from '../model-file/signature.js';
import { generateConfig, type GenerateProblem } from './generate.js';
import { generatePythonConfig } from './python.js';
import { readHeader, sameGenerated, withHeader } from './header.js';
import type { GenerateOptions } from './options.js';
import type { GenerateTarget } from './targets.js';
import { displayPath } from '../util/display-path.js';
import { Workspace } from '../workspace/workspace.js';

export type WriteDecision =
  | 'create' // no config.pbtxt yet
  | 'unchanged' // the same as what would be generated (a BOM, CRLF line ends or suppression comments aside)
  | 'options' // tritonc's own unedited output, generated with other options than these
  | 'model' // tritonc's own unedited output, with these options, of a model that has changed since
  | 'edited'; // differs and was edited by hand (or not written by tritonc): only --force replaces it

export type TargetOutcome =
  | { kind: 'unreadable-model'; target: GenerateTarget; message: string }
  | { kind: 'unreadable-config'; target: GenerateTarget; message: string }
  | { kind: 'bad-header'; target: GenerateTarget; message: string }
  | { kind: 'problems'; target: GenerateTarget; problems: GenerateProblem[]; recorded?: GenerateOptions }
  | {
      kind: 'generated';
      target: GenerateTarget;
      text: string;
      existing: string | undefined;
      decision: WriteDecision;
      /** The model's signature (none for a Python model, whose auto_complete_config stands for it). */
      signature?: ModelSignature;
      /** The options the text was generated with: the recorded ones, with those given now on top. */
      options: GenerateOptions;
      /** The options recorded in the existing file's header, when it has one that reads back. */
      recorded?: GenerateOptions;
      /** What the generated config is right for but the user likely did not mean. */
      warnings: GenerateProblem[];
    };

export interface GenerateRunOptions {
  /** Options given on the command line: they replace the same options recorded in the existing file; the others are kept. */
  options: GenerateOptions | undefined;
  /** Paths in messages and headers are shown relative to this directory. */
  cwd: string;
  /** Where the model and the existing config are read (default: the disk, read now). */
  workspace?: Workspace;
}

/**
 * What writing `text` over `existing` would do. `recordedText` is what the recorded options give for
 * the model as it is now: when the existing file equals it, only the options differ.
 */
export function decideWrite(existing: string | undefined, text: string, recordedText?: string): WriteDecision {
  if (existing === undefined) return 'create';
  if (sameGenerated(existing, text)) return 'unchanged';
  if (!readHeader(existing)?.unedited) return 'edited';
  return recordedText !== undefined && recordedText !== text && sameGenerated(existing, recordedText) ? 'options' : 'model';
}

export function generateForTarget(target: GenerateTarget, run: GenerateRunOptions): TargetOutcome {
  const shownModel = displayPath(target.modelFile, run.cwd);
  const shownConfig = displayPath(target.configPath, run.cwd);
  const workspace = run.workspace ?? new Workspace();
  // A Python model: its model.py's auto_complete_config stands where a signature would (./python.ts).
  const script = target.format === 'python-script' ? workspace.sources.text(target.modelFile) : undefined;
  if (script && script.kind !== 'text') return { kind: 'unreadable-model', target, message: `${shownModel}: cannot read` };
  const model = script ? {} : workspace.signature(target.modelFile, target.format);
  if (model.error) {
    const e = model.error;
    return { kind: 'unreadable-model', target, message: `${shownModel}: ${e.offset === null ? '' : `byte ${e.offset}: `}${e.reason}` };
  }
  const signature = model.signature;
  // Only a config that does not exist is missing: one that cannot be read is never replaced.
  const read = workspace.sources.text(target.configPath);
  if (read.kind === 'unreadable') return { kind: 'unreadable-config', target, message: `${shownConfig}: cannot read: ${read.reason}` };
  const existing = read.kind === 'text' ? read.text : undefined;
  const header = existing === undefined ? undefined : readHeader(existing);
  if (typeof header?.options === 'string' && !run.options) {
    return {
      kind: 'bad-header',
      target,
      message: `${shownConfig}: the options recorded on line 1 cannot be read back (${header.options}); pass the options again`,
    };
  }
  const recorded = typeof header?.options === 'object' ? header.options : undefined;
  const options: GenerateOptions = { ...recorded, ...run.options };
  const render = (o: GenerateOptions): { text: string; warnings: GenerateProblem[] } | { problems: GenerateProblem[] } => {
    const result =
      script?.kind === 'text'
        ? generatePythonConfig(script.text, { modelName: target.modelName, modelFileName: target.modelFileName, shownPath: shownModel }, o)
        : generateConfig(
            { signature: signature!, modelName: target.modelName, modelFileName: target.modelFileName, shownPath: shownModel, backend: target.backend },
            o,
          );
    if (!result.config) return { problems: result.problems };
    // The header names the model file relative to the model directory, so it does not depend on cwd.
    const source = relative(target.modelDir, target.modelFile) || target.modelFile;
    return { text: withHeader(printConfig(result.config), source, o), warnings: result.warnings ?? [] };
  };
  const rendered = render(options);
  if ('problems' in rendered) return { kind: 'problems', target, problems: rendered.problems, ...(recorded ? { recorded } : {}) };
  const { text, warnings } = rendered;
  let recordedText: string | undefined;
  if (recorded && run.options && existing !== undefined && !sameGenerated(existing, text)) {
    const r = render(recorded);
    if ('text' in r) recordedText = r.text;
  }
  return {
    kind: 'generated',
    target,
    text,
    existing,
    decision: decideWrite(existing, text, recordedText),
    ...(signature ? { signature } : {}),
    options,
    ...(recorded ? { recorded } : {}),
    warnings,
  };
}
