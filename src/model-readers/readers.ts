// The readers of model files, by the format a backend's record gives its file (src/triton/backends):
// the one place that picks a reader. A reader reads the signature without loading the weights and
// throws ModelReadError for a file it cannot read. Adding a format is a reader here and the format in
// the backend's record.
import { ONNX_FORMAT, readSignatureOfBytes, readSignatureSync } from '../onnx/reader.js';
import { OPENVINO_FORMAT, readOpenVinoOfBytes, readOpenVinoSync } from '../openvino/reader.js';
import { PYTORCH_FORMAT, readTorchSignatureOfBytes, readTorchSignatureSync } from '../pytorch/reader.js';
import { readSavedModelSync, SAVEDMODEL_FORMAT } from '../savedmodel/reader.js';
import { ModelReadError } from '../model-file/errors.js';
import type { ModelFormat } from '../model-file/open.js';
import type { ModelSignature, SignatureFormat } from '../model-file/signature.js';

export interface ModelReader {
  /** The format as its messages name it (the `format` of isDirectory and the like). */
  readonly title: ModelFormat;
  /** The signature formats it yields (a signature kept from an earlier run must be one of them). */
  readonly yields: readonly SignatureFormat[];
  /** The model is a directory (a SavedModel), not a file. */
  readonly directory?: boolean;
  /**
   * How it reads a file in object storage by ranges of the object, where it can: 'window' (a protobuf
   * walk over one byte window, onnx/reader.ts readSignatureFrom), 'records' (a ZIP's end record,
   * directory and signature records, pytorch/reader.ts readTorchSignatureFrom). Unset: it is not read there.
   */
  readonly ranges?: 'window' | 'records';
  /** The signature of the file (or directory) at `path`; throws ModelReadError. */
  readSync(path: string): ModelSignature;
  /**
   * The signature of the file whose bytes are `bytes` (a repository held in memory, an editor's
   * buffer); `sizeOf` answers the size of another file beside it (null: none). Throws ModelReadError.
   * A directory's reader has none.
   */
  readBytes?(path: string, bytes: Uint8Array, sizeOf: (path: string) => number | null): ModelSignature;
}

const READERS: Readonly<Record<string, ModelReader>> = {
  onnx: { title: ONNX_FORMAT, yields: ['onnx'], readSync: readSignatureSync, readBytes: (path, bytes) => readSignatureOfBytes(path, bytes), ranges: 'window' },
  openvino: { title: OPENVINO_FORMAT, yields: ['openvino'], readSync: readOpenVinoSync, readBytes: readOpenVinoOfBytes },
  pytorch: {
    title: PYTORCH_FORMAT,
    yields: ['torchscript', 'pt2'],
    readSync: readTorchSignatureSync,
    readBytes: (path, bytes) => readTorchSignatureOfBytes(path, bytes),
    ranges: 'records',
  },
  tensorflow: { title: SAVEDMODEL_FORMAT, yields: ['savedmodel'], readSync: readSavedModelSync, directory: true },
};

/** The reader of a backend's model file format; undefined where tritonc has none (TensorRT plans). */
export function readerOf(format: string): ModelReader | undefined {
  return Object.hasOwn(READERS, format) ? READERS[format] : undefined;
}

/** Whether tritonc reads model files of `format`. */
export const hasReader = (format: string): boolean => readerOf(format) !== undefined;

/** Whether `signature` is what the reader of `format` yields (a kept or stood-in signature may not be). */
export function readBy(format: string, signature: ModelSignature): boolean {
  return readerOf(format)?.yields.includes(signature.format ?? 'onnx') ?? false;
}

/** The format whose reader yields `signature` (a locked one names the file it stands for). */
export function formatOfSignature(signature: ModelSignature): string | undefined {
  const yielded = signature.format ?? 'onnx';
  return Object.keys(READERS).find((f) => READERS[f]!.yields.includes(yielded));
}

/** Reads a model's signature from disk; a bad file is a result with the error, never an exception. */
export function loadSignature(path: string, format: string): { signature?: ModelSignature; error?: ModelReadError } {
  const reader = readerOf(format);
  if (!reader) return {};
  try {
    return { signature: reader.readSync(path) };
  } catch (e) {
    // A reader bug must not crash a run: it becomes a finding about the file.
    if (e instanceof ModelReadError) return { error: e };
    return {
      error: new ModelReadError('format', path, null, { messageId: 'readerFailed', data: { error: e instanceof Error ? e.name : typeof e } }, undefined, {
        cause: e,
      }),
    };
  }
}
