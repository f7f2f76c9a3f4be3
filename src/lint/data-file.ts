// Data files a config names for Triton to read at load time (warmup inputs, initial sequence states):
// the file must exist in its folder of the model directory and hold at least the tensor's bytes.
import { join } from 'node:path';
import type { PathSegment } from '../diagnostics.js';
import type { ModelFacts, Report, RuleFiles } from './rule.js';

/** The messages of a data-file finding: rules that check data files include them in theirs. */
export const DATA_FILE_MESSAGES = {
  dataFileMissing:
    '{{field}} {{quotedFile}} is not a file in {{where}}, where Triton reads it, so the model would fail to load ("failed to open text file for read ..."); add the file there',
  dataFileShort:
    '{{subject}} needs {{need}} bytes but {{file}} has {{size}}, so Triton refuses the model ("{{tritonMessage}}"); write the full tensor to {{where}}{{file}}',
} as const;

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

/** What is wrong with a data file, or undefined when it is there and large enough. */
export function dataFileProblem(files: RuleFiles, model: ModelFacts, c: DataFileCheck): Report<typeof DATA_FILE_MESSAGES> | undefined {
  const where = `${model.name}/${c.folder}/`;
  const size = files.size(join(model.dir, c.folder, c.file));
  if (size === undefined) {
    return {
      path: c.path,
      severity: 'warning',
      messageId: 'dataFileMissing',
      data: { ...c.data, field: c.field, file: c.file, quotedFile: JSON.stringify(c.file), where },
    };
  }
  if (c.need !== undefined && c.need > size) {
    return {
      path: c.path,
      messageId: 'dataFileShort',
      data: { ...c.data, subject: c.subject, need: c.need, file: c.file, size, tritonMessage: c.tritonMessage(c.need, size), where },
    };
  }
  return undefined;
}
