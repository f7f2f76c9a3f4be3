// tune pick --write: the winner's batching and instance settings applied to the model's config.pbtxt,
// comments and layout kept (set-fields.ts checks each edit changes only its field), written atomically.
import { join } from 'node:path';
import { hasErrors, parseConfig } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { setFields, type FieldChange } from '../config/set-fields.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { describeFsError, readText } from '../util/read-text.js';

/** Why the winner's settings could not be written (the command line's exit 2). */
export class TuneWriteError extends Error {}

export type WinnerWrite = { kind: 'unchanged'; file: string } | { kind: 'written'; file: string; before: string; after: string };

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

/** Applies the winner's settings to `modelDir`'s config.pbtxt. Throws TuneWriteError. */
export function writeWinner(modelDir: string, winner: ModelConfig, shown: (path: string) => string): WinnerWrite {
  const file = join(modelDir, 'config.pbtxt');
  const read = readText(file);
  if (read.kind !== 'text') throw new TuneWriteError(`${shown(file)}: ${read.kind === 'missing' ? 'no such file (tune writes into an existing config.pbtxt)' : read.reason}`);
  const current = parseConfig(read.text, file);
  if (hasErrors(current.diagnostics)) throw new TuneWriteError(`${shown(file)} does not parse; fix it first`);
  const edited = setFields(read.text, file, winnerChanges(current.value, winner));
  if (!edited.ok) throw new TuneWriteError(edited.problem);
  if (edited.text === read.text) return { kind: 'unchanged', file };
  try {
    writeFileAtomic(file, edited.text);
  } catch (e) {
    throw new TuneWriteError(`cannot write ${shown(file)}: ${describeFsError(e)}`);
  }
  return { kind: 'written', file, before: read.text, after: edited.text };
}
