// One generate target end to end: read the model's signature, choose the options (given, or recorded
// in the existing file's header), generate, render with the header, and decide what writing would do.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { printConfig } from '../config/print.js';
import { OnnxReadError } from '../onnx/errors.js';
import { readSignatureSync } from '../onnx/reader.js';
import type { ModelSignature } from '../onnx/types.js';
import { generateConfig, type GenerateProblem } from './generate.js';
import { readHeader, withHeader } from './header.js';
import type { GenerateOptions } from './options.js';
import type { GenerateTarget } from './targets.js';

export type WriteDecision =
  | 'create' // no config.pbtxt yet
  | 'unchanged' // identical to what would be generated
  | 'update' // tritonc's own unedited output, now out of date
  | 'edited'; // differs and was edited by hand (or not written by tritonc): only --force replaces it

export type TargetOutcome =
  | { kind: 'unreadable-model'; target: GenerateTarget; message: string }
  | { kind: 'bad-header'; target: GenerateTarget; message: string }
  | { kind: 'problems'; target: GenerateTarget; problems: GenerateProblem[] }
  | { kind: 'generated'; target: GenerateTarget; text: string; existing: string | undefined; decision: WriteDecision; signature: ModelSignature };

export interface GenerateRunOptions {
  /** Options from the command line; when undefined, those recorded in the existing file are used. */
  options: GenerateOptions | undefined;
  /** Paths in messages and headers are shown relative to this directory. */
  cwd: string;
}

export function decideWrite(existing: string | undefined, text: string): WriteDecision {
  if (existing === undefined) return 'create';
  if (existing === text) return 'unchanged';
  return readHeader(existing)?.unedited ? 'update' : 'edited';
}

function readExisting(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export function generateForTarget(target: GenerateTarget, run: GenerateRunOptions): TargetOutcome {
  const shownModel = relative(run.cwd, target.modelFile) || target.modelFile;
  let signature: ModelSignature;
  try {
    signature = readSignatureSync(target.modelFile);
  } catch (e) {
    if (e instanceof OnnxReadError) return { kind: 'unreadable-model', target, message: e.message };
    const err = e as NodeJS.ErrnoException;
    return { kind: 'unreadable-model', target, message: `${shownModel}: cannot read: ${err.code ?? ''} ${err.message}`.trim() };
  }
  const existing = readExisting(target.configPath);
  let options = run.options;
  if (!options) {
    const header = existing === undefined ? undefined : readHeader(existing);
    if (typeof header?.options === 'string') {
      return { kind: 'bad-header', target, message: `${relative(run.cwd, target.configPath)}: the options recorded on line 1 cannot be read back (${header.options}); pass the options again` };
    }
    options = header?.options ?? {};
  }
  const result = generateConfig(
    { signature, modelName: target.modelName, modelFileName: target.modelFileName, shownPath: shownModel },
    options,
  );
  if (!result.config) return { kind: 'problems', target, problems: result.problems };
  // The header names the model file relative to the model directory, so it does not depend on cwd.
  const source = relative(target.modelDir, target.modelFile) || target.modelFile;
  const text = withHeader(printConfig(result.config), source, options);
  return { kind: 'generated', target, text, existing, decision: decideWrite(existing, text), signature };
}
