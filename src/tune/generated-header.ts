// A config tritonc generate wrote carries a header: the options that made it and the body's checksum
// (src/generate/header.ts). Tuning changes the body, so the old header would make `generate --check`
// call the file edited by hand. Where the file is generate's own unedited output, the tuned settings
// are generate options (--max-queue-delay, --preferred-batch-size, --instances): the tuned file is then
// what generate writes with those options, header included, and generate --check accepts it. A file
// that was edited since, or whose model changed, keeps what it had (generate --check already reports it).
import { isDeepStrictEqual } from 'node:util';
import { parseConfig } from '../config/document.js';
import { readHeader } from '../generate/header.js';
import type { GenerateOptions } from '../generate/options.js';
import { generateForTarget } from '../generate/run.js';
import { findTargets } from '../generate/targets.js';
import { Workspace } from '../workspace/workspace.js';
import type { VariantSettings } from './pick.js';

export type Regenerated =
  /** The text generate writes with the tuned options: header and body agree. */
  | { kind: 'regenerated'; text: string; options: GenerateOptions }
  /** No tritonc generate header: nothing to keep in step. */
  | { kind: 'no-header' }
  /** A header generate --check already disagrees with (edited, other model): the edit is kept as made. */
  | { kind: 'kept'; why: string };

/** The options that reproduce `settings` on top of the recorded ones. */
export function tunedOptions(recorded: GenerateOptions, settings: VariantSettings, name?: string): GenerateOptions {
  const o: GenerateOptions = { ...recorded };
  if (name !== undefined) o.name = name;
  if (settings.delayUs !== undefined) o.maxQueueDelayMicroseconds = settings.delayUs;
  if (settings.preferred !== undefined) {
    if (settings.preferred.length) o.preferredBatchSize = settings.preferred;
    else delete o.preferredBatchSize;
  }
  if (settings.instances !== undefined) o.instances = settings.instances;
  return o;
}

/**
 * `original` is the config.pbtxt in `modelDir` before tuning, `edited` the same with the tuned fields
 * set (set-fields.ts). When `original` is generate's unedited output of the model as it is, returns
 * what generate writes with the tuned options, provided it says the same as `edited`. A plan passes
 * one workspace for all its variants, so the model file is read once.
 */
export function regenerate(
  modelDir: string,
  original: string,
  edited: string,
  settings: VariantSettings,
  cwd: string,
  name?: string,
  workspace = new Workspace(),
): Regenerated {
  const header = readHeader(original);
  if (!header) return { kind: 'no-header' };
  if (typeof header.options === 'string') return { kind: 'kept', why: `its header's options cannot be read back (${header.options})` };
  if (!header.unedited) return { kind: 'kept', why: 'it was edited by hand since tritonc generated it' };
  const found = findTargets(modelDir, workspace);
  const target = 'targets' in found ? found.targets.find((t) => t.modelDir === modelDir) : undefined;
  if (!target) return { kind: 'kept', why: 'tritonc generate finds no model file in it' };
  const now = generateForTarget(target, { options: undefined, cwd, workspace });
  if (now.kind !== 'generated' || now.decision !== 'unchanged') return { kind: 'kept', why: 'the model changed since tritonc generated it' };
  const options = tunedOptions(header.options, settings, name);
  // The options replace the recorded ones wholesale: a preferred list removed stays removed.
  const tuned = generateForTarget(target, {
    options: { ...options, ...(options.preferredBatchSize ? {} : { preferredBatchSize: undefined }) },
    cwd,
    workspace,
  });
  if (tuned.kind !== 'generated') return { kind: 'kept', why: 'tritonc generate refuses the tuned options' };
  const body = (text: string): unknown => parseConfig(text, 'config.pbtxt').value;
  if (!isDeepStrictEqual(body(tuned.text), body(edited))) return { kind: 'kept', why: 'tritonc generate writes other values for the tuned options' };
  return { kind: 'regenerated', text: tuned.text, options };
}
