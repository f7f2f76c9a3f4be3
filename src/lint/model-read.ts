// How an unreadable model file is reported: at its byte offset (model files are binary, so the line
// is 1 and the offset says where), by the reader's own message id and values (model-file/messages.ts),
// each wrapped in what the finding adds: what the file is not, and what to do about it.
import type { Range } from '../diagnostics.js';
import type { ModelReadError } from '../model-file/errors.js';
import {
  BUG_READ_MESSAGES,
  IO_READ_MESSAGES,
  ONNX_EXTERNAL_MESSAGES,
  ONNX_READ_MESSAGES,
  OPENVINO_READ_MESSAGES,
  PROTOBUF_READ_MESSAGES,
  PYTORCH_READ_MESSAGES,
  SAVEDMODEL_READ_MESSAGES,
} from '../model-file/messages.js';
import { PYTORCH, TENSORFLOW, type BackendRecord } from '../triton/backend-records.js';
import type { MessageOf } from './rule.js';
import { formatBytes } from './units.js';

export function byteRange(offset: number | null): Range {
  const pos = { line: 1, column: 1, offset: offset ?? 0 };
  return { start: pos, end: pos };
}

/** Each message of `table` between `before` and `after`, keeping the template's type (its placeholders). */
type Wrapped<T, Before extends string, After extends string> = { readonly [K in keyof T]: `${Before}${T[K] & string}${After}` };
function wrap<T extends Readonly<Record<string, string>>, Before extends string, After extends string>(
  table: T,
  before: Before,
  after: After,
): Wrapped<T, Before, After> {
  return Object.fromEntries(Object.entries(table).map(([id, template]) => [id, `${before}${template}${after}`])) as Wrapped<T, Before, After>;
}

const CANNOT_LOAD_BEFORE = "Triton's {{backend}} backend cannot load this file: ";

/** model-unreadable's messages (the rule and the engine report them): the readers' messages, wrapped, and the Git LFS pointer's. */
export const MODEL_READ_MESSAGES = {
  ...wrap(IO_READ_MESSAGES, 'cannot read the model file: ', '; Triton cannot load this model either'),
  ...wrap(
    ONNX_READ_MESSAGES,
    'not a readable ONNX model (at byte {{byteOffset}}): ',
    '; re-export the model, or restore the file (a truncated copy or a Git LFS pointer looks like this)',
  ),
  // The protobuf window's, the same for ONNX and SavedModel: the format is the error's.
  ...wrap(
    PROTOBUF_READ_MESSAGES,
    'not a readable {{format}} model (at byte {{byteOffset}}): ',
    '; re-export the model, or restore the file (a truncated copy or a Git LFS pointer looks like this)',
  ),
  ...wrap(ONNX_EXTERNAL_MESSAGES, 'Triton cannot load this ONNX model: ', ''),
  ...wrap(
    OPENVINO_READ_MESSAGES,
    'not a readable OpenVINO IR (at byte {{byteOffset}}): ',
    '; convert the model again (ovc, openvino.save_model), or restore the file and its .bin',
  ),
  // Another backend's file (a TorchScript model.pt): its reader's message says what the file is and what Triton loads instead.
  ...wrap(PYTORCH_READ_MESSAGES, CANNOT_LOAD_BEFORE, ''),
  ...wrap(SAVEDMODEL_READ_MESSAGES, CANNOT_LOAD_BEFORE, ''),
  ...BUG_READ_MESSAGES,
  lfsPointer:
    'the model file is a Git LFS pointer, not the model: the object it stands for ({{objectSize}}, {{oid}}) was never fetched, so Triton cannot load it (its parser fails on the pointer text); run git lfs pull in this repository (with actions/checkout, set lfs: true)',
  lfsPointerUnsized:
    'the model file is a Git LFS pointer, not the model: the object it stands for (size not given, {{oid}}) was never fetched, so Triton cannot load it (its parser fails on the pointer text); run git lfs pull in this repository (with actions/checkout, set lfs: true)',
  lfsPointerElsewhere:
    'the model file is a Git LFS pointer ({{objectSize}}, {{oid}}): with --configs-only the model is provisioned separately, so this is not an error here, but the checks against the model did not run; run tritonc lock where the weights are, and commit tritonc.lock.json',
  lfsPointerElsewhereUnsized:
    'the model file is a Git LFS pointer (size not given, {{oid}}): with --configs-only the model is provisioned separately, so this is not an error here, but the checks against the model did not run; run tritonc lock where the weights are, and commit tritonc.lock.json',
} as const;

/** The backend whose loader a reader's messages speak for, where they name it. */
const LOADER: Readonly<Record<string, BackendRecord>> = {
  ...Object.fromEntries(Object.keys(PYTORCH_READ_MESSAGES).map((id) => [id, PYTORCH])),
  ...Object.fromEntries(Object.keys(SAVEDMODEL_READ_MESSAGES).map((id) => [id, TENSORFLOW])),
};

/**
 * The finding for `error`: the reader's message id and values, with the byte offset and the kind.
 * `backend`: the record of the backend that loads the file, which the PyTorch and SavedModel messages
 * name (the reader's own backend when not known).
 */
export function modelReadReport(error: ModelReadError, backend?: BackendRecord): MessageOf<typeof MODEL_READ_MESSAGES> {
  const data = { byteOffset: error.offset, kind: error.kind, ...(error.format ? { format: error.format } : {}) };
  if (error.lfsPointer) {
    const { oid, size } = error.lfsPointer;
    // A pointer without a size line gets its own wording (placeholders hold values only).
    return size === null
      ? { messageId: 'lfsPointerUnsized', data: { ...data, oid, objectBytes: size } }
      : { messageId: 'lfsPointer', data: { ...data, oid, objectBytes: size, objectSize: formatBytes(size) } };
  }
  const loader = Object.hasOwn(LOADER, error.messageId) ? (backend ?? LOADER[error.messageId]!) : undefined;
  const named = loader ? { backend: loader.title ?? loader.name } : {};
  // The reader's message is one of MODEL_READ_MESSAGES under the same id, its values the reader's.
  return { messageId: error.messageId, data: { ...error.data, ...data, ...named } } as MessageOf<typeof MODEL_READ_MESSAGES>;
}
