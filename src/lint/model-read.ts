// How an unreadable model file is reported: at its byte offset (model files are binary, so the line
// is 1 and the offset says where), with what to do about it.
import type { Range } from '../diagnostics.js';
import type { ModelReadError } from '../model-file/errors.js';
import { OPENVINO, ONNXRUNTIME, type BackendRecord } from '../triton/backend-records.js';
import type { MessageOf } from './rule.js';
import { formatBytes } from './units.js';

export function byteRange(offset: number | null): Range {
  const pos = { line: 1, column: 1, offset: offset ?? 0 };
  return { start: pos, end: pos };
}

/** model-unreadable's messages (the rule and the engine report them). */
export const MODEL_READ_MESSAGES = {
  cannotRead: 'cannot read the model file: {{reason}}; Triton cannot load this model either',
  lfsPointer:
    'the model file is a Git LFS pointer, not the model: the object it stands for ({{objectSize}}, {{oid}}) was never fetched, so Triton cannot load it (its parser fails on the pointer text); run git lfs pull in this repository (with actions/checkout, set lfs: true)',
  lfsPointerUnsized:
    'the model file is a Git LFS pointer, not the model: the object it stands for (size not given, {{oid}}) was never fetched, so Triton cannot load it (its parser fails on the pointer text); run git lfs pull in this repository (with actions/checkout, set lfs: true)',
  lfsPointerElsewhere:
    'the model file is a Git LFS pointer ({{objectSize}}, {{oid}}): with --configs-only the model is provisioned separately, so this is not an error here, but the checks against the model did not run; run tritonc lock where the weights are, and commit tritonc.lock.json',
  lfsPointerElsewhereUnsized:
    'the model file is a Git LFS pointer (size not given, {{oid}}): with --configs-only the model is provisioned separately, so this is not an error here, but the checks against the model did not run; run tritonc lock where the weights are, and commit tritonc.lock.json',
  notOnnxAt: 'not a readable ONNX model (at byte {{byteOffset}}): {{reason}}; re-export the model, or restore the file (a truncated copy or a Git LFS pointer looks like this)',
  notOnnx: 'not a readable ONNX model: {{reason}}; re-export the model, or restore the file (a truncated copy or a Git LFS pointer looks like this)',
  // Another backend's file (a TorchScript model.pt): its reader's reason says what the file is and what Triton loads instead.
  notLoadable: "Triton's {{backend}} backend cannot load this file: {{reason}}",
  notOpenVinoAt: 'not a readable OpenVINO IR (at byte {{byteOffset}}): {{reason}}; convert the model again (ovc, openvino.save_model), or restore the file and its .bin',
} as const;

/** `backend`: the record of the backend that loads the file (the messages name it); ONNX Runtime when not known. */
export function modelReadReport(error: ModelReadError, backend: BackendRecord = ONNXRUNTIME): MessageOf<typeof MODEL_READ_MESSAGES> {
  const data = { reason: error.reason, byteOffset: error.offset, kind: error.kind };
  if (error.kind === 'io') return { messageId: 'cannotRead', data };
  if (error.lfsPointer) {
    const { oid, size } = error.lfsPointer;
    // A pointer without a size line gets its own wording (placeholders hold values only).
    return size === null
      ? { messageId: 'lfsPointerUnsized', data: { ...data, oid, objectBytes: size } }
      : { messageId: 'lfsPointer', data: { ...data, oid, objectBytes: size, objectSize: formatBytes(size) } };
  }
  // An OpenVINO IR's reader (src/openvino) always gives an offset, and the fix is to convert again.
  if (backend === OPENVINO && error.offset !== null) return { messageId: 'notOpenVinoAt', data: { ...data, byteOffset: error.offset } };
  // The finding sits at the byte offset; the reader's reason says what the file is and what Triton loads instead.
  if (backend !== ONNXRUNTIME) return { messageId: 'notLoadable', data: { ...data, backend: backend.title ?? backend.name } };
  return error.offset === null ? { messageId: 'notOnnx', data } : { messageId: 'notOnnxAt', data: { ...data, byteOffset: error.offset } };
}
