// Why a model file could not be read, by any reader (ONNX, OpenVINO IR, TorchScript, ...). Errors are
// data: a message id of one table (messages.ts) and its values, from which `reason` and `message` are
// rendered; the CLI prints `message` (file and byte offset included), never a stack trace.
import { renderReadMessage, type ReadMessage, type ReadMessageId } from './messages.js';

/** The format a reader reads, as its messages name it (a value of the `format` placeholder). */
export type ModelFormat = 'ONNX' | 'OpenVINO IR' | 'PyTorch' | 'TensorFlow SavedModel';

export type ModelReadErrorKind =
  /** The file could not be opened or read (missing, a directory, no permission). */
  | 'io'
  /** The bytes are not a well-formed model file of the reader's format. */
  | 'format';

/** What a Git LFS pointer file says (git-lfs docs/spec.md): the object's id and size in bytes. */
export interface LfsPointer {
  oid: string;
  size: number | null;
}

export class ModelReadError extends Error {
  override readonly name = 'ModelReadError';
  readonly kind: ModelReadErrorKind;
  readonly file: string;
  /** Byte offset in `file` where the problem was found; null for I/O errors. */
  readonly offset: number | null;
  /** The problem, by id (messages.ts), and the values its wording takes. */
  readonly messageId: ReadMessageId;
  readonly data: Readonly<Record<string, string | number | bigint | boolean>>;
  /** The problem alone, without file and offset, rendered from `messageId` and `data`. */
  readonly reason: string;
  /** Set when the file is a Git LFS pointer: the object it stands for, which was never fetched. */
  readonly lfsPointer?: LfsPointer;
  /** The format the file was read as, where the problem's wording is the same for every format (the protobuf window's). */
  readonly format?: ModelFormat;

  constructor(
    kind: ModelReadErrorKind,
    file: string,
    offset: number | null,
    problem: ReadMessage,
    lfsPointer?: LfsPointer,
    options?: { cause?: unknown; format?: ModelFormat },
  ) {
    const reason = renderReadMessage(problem);
    super(offset === null ? `${file}: ${reason}` : `${file}: byte ${offset}: ${reason}`, options);
    this.kind = kind;
    this.file = file;
    this.offset = offset;
    this.messageId = problem.messageId;
    this.data = { ...problem.data };
    this.reason = reason;
    if (lfsPointer) this.lfsPointer = lfsPointer;
    if (options?.format) this.format = options.format;
  }

  toJSON(): {
    kind: ModelReadErrorKind;
    file: string;
    offset: number | null;
    messageId: ReadMessageId;
    data: Readonly<Record<string, unknown>>;
    message: string;
  } {
    return { kind: this.kind, file: this.file, offset: this.offset, messageId: this.messageId, data: this.data, message: this.message };
  }
}
