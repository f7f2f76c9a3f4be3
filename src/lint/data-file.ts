// Data files a config names for Triton to read at load time (warmup inputs, initial sequence states):
// the file must exist in its folder of the model directory and hold at least the tensor's bytes.
import { join } from 'node:path';
import type { PathSegment } from '../diagnostics.js';
import { fileSize } from '../util/path-kind.js';
import type { ModelContext } from './rule.js';

export interface DataFileCheck {
  /** The folder of the model directory Triton reads the file from. */
  folder: 'warmup' | 'initial_state';
  file: string;
  /** The config field naming the file, for messages: `warmup input_data_file`. */
  field: string;
  /** Bytes the tensor needs, when known (not for strings or variable dims). */
  need: number | undefined;
  /** What needs the data and its type and shape: `warmup input 'x' (TYPE_FP32 [3])`. */
  subject: string;
  /** Triton's message for a short file. */
  tritonMessage: (need: number, size: number) => string;
  path: PathSegment[];
  data: Record<string, unknown>;
}

export function checkDataFile(ctx: ModelContext, c: DataFileCheck): void {
  const where = `${ctx.model.name}/${c.folder}/`;
  const size = fileSize(join(ctx.model.dir, c.folder, c.file));
  if (size === undefined) {
    ctx.report({
      path: c.path,
      severity: 'warning',
      message: `${c.field} ${JSON.stringify(c.file)} is not a file in ${where}, where Triton reads it, so the model would fail to load ("failed to open text file for read ..."); add the file there`,
      data: c.data,
    });
    return;
  }
  if (c.need !== undefined && c.need > size) {
    ctx.report({
      path: c.path,
      message: `${c.subject} needs ${c.need} bytes but ${c.file} has ${size}, so Triton refuses the model ("${c.tritonMessage(c.need, size)}"); write the full tensor to ${where}${c.file}`,
      data: { ...c.data, need: c.need, size },
    });
  }
}
