// How an unreadable model file is reported: at its byte offset (model files are binary, so the line
// is 1 and the offset says where), with what to do about it.
import type { Range } from '../diagnostics.js';
import type { OnnxReadError } from '../onnx/errors.js';

export function byteRange(offset: number | null): Range {
  const pos = { line: 1, column: 1, offset: offset ?? 0 };
  return { start: pos, end: pos };
}

export function modelReadMessage(error: OnnxReadError): string {
  if (error.kind === 'io') return `cannot read the model file: ${error.reason}; Triton cannot load this model either`;
  const where = error.offset === null ? '' : ` (at byte ${error.offset})`;
  return `not a readable ONNX model${where}: ${error.reason}; re-export the model, or restore the file (a truncated copy or a Git LFS pointer looks like this)`;
}
