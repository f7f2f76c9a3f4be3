// tune pick --write: the winner's batching and instance settings applied to the model's config.pbtxt,
// comments and layout kept (set-fields.ts checks each edit changes only its field), written atomically.
import { join } from 'node:path';
import { hasErrors, parseConfig } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { setFields, type FieldChange } from '../config/set-fields.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { describeFsError, readText } from '../util/read-text.js';
import { regenerate } from './generated-header.js';
import type { VariantSettings } from './pick.js';

/** Why the winner's settings could not be written (the command line's exit 2). */
export class TuneWriteError extends Error {}

export type WinnerWrite =
  | { kind: 'unchanged'; file: string }
  /** `header`: how tritonc generate's header was kept in step (or why not); absent without one. */
  | { kind: 'written'; file: string; before: string; after: string; header?: { regenerated: true } | { regenerated: false; why: string } };

/** The edits that give `current` the winner's max_queue_delay, preferred sizes and instance counts. */
export function winnerChanges(current: ModelConfig, winner: ModelConfig): FieldChange[] {
  const changes: FieldChange[] = [];
  if (winner.dynamic_batching) {
    const d = Number(winner.dynamic_batching.max_queue_delay_microseconds ?? 0);
    changes.push({ path: ['dynamic_batching', 'max_queue_delay_microseconds'], text: String(d), value: d });
    const p = (winner.dynamic_batching.preferred_batch_size ?? []).map(Number);
    const path = ['dynamic_batching', 'preferred_batch_size'];
    if (p.length) changes.push({ path, text: `[ ${p.join(', ')} ]`, value: p });
    else if (current.dynamic_batching?.preferred_batch_size?.length) changes.push({ path, text: undefined, value: undefined });
  }
  const count = winner.instance_group?.[0]?.count;
  if (count !== undefined) {
    const groups = Math.max(current.instance_group?.length ?? 0, 1);
    for (let g = 0; g < groups; g++) changes.push({ path: ['instance_group', g, 'count'], text: String(count), value: Number(count) });
  }
  return changes;
}

/** The tuned settings a variant's config carries. */
export function settingsOf(config: ModelConfig): VariantSettings {
  const delay = config.dynamic_batching?.max_queue_delay_microseconds;
  const preferred = config.dynamic_batching?.preferred_batch_size;
  const count = config.instance_group?.[0]?.count;
  return {
    ...(config.dynamic_batching ? { delayUs: Number(delay ?? 0), preferred: (preferred ?? []).map(Number) } : {}),
    ...(count !== undefined ? { instances: Number(count) } : {}),
  };
}

/**
 * Applies the winner's settings to `modelDir`'s config.pbtxt. A config tritonc generate wrote (and no
 * one edited since) is written as generate writes it with the tuned options, so its header stays
 * true. Throws TuneWriteError.
 */
export function writeWinner(modelDir: string, winner: ModelConfig, shown: (path: string) => string, cwd: string): WinnerWrite {
  const file = join(modelDir, 'config.pbtxt');
  const read = readText(file);
  if (read.kind !== 'text')
    throw new TuneWriteError(`${shown(file)}: ${read.kind === 'missing' ? 'no such file (tune writes into an existing config.pbtxt)' : read.reason}`);
  const current = parseConfig(read.text, file);
  if (hasErrors(current.diagnostics)) throw new TuneWriteError(`${shown(file)} does not parse; fix it first`);
  const edited = setFields(read.text, file, winnerChanges(current.value, winner));
  if (!edited.ok) throw new TuneWriteError(edited.problem);
  if (edited.text === read.text) return { kind: 'unchanged', file };
  const regenerated = regenerate(modelDir, read.text, edited.text, settingsOf(winner), cwd);
  const after = regenerated.kind === 'regenerated' ? regenerated.text : edited.text;
  try {
    writeFileAtomic(file, after, { within: [modelDir] });
  } catch (e) {
    throw new TuneWriteError(`cannot write ${shown(file)}: ${describeFsError(e)}`);
  }
  const header =
    regenerated.kind === 'regenerated'
      ? { regenerated: true as const }
      : regenerated.kind === 'kept'
        ? { regenerated: false as const, why: regenerated.why }
        : undefined;
  return { kind: 'written', file, before: read.text, after, ...(header ? { header } : {}) };
}
