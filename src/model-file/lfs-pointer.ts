// A Git LFS pointer where a model file should be: what a clone without `git lfs pull` (or a CI
// checkout without `lfs: true`) leaves. Every reader asks here before it reads a format.
import { ModelReadError, type LfsPointer } from './errors.js';
import type { ReadMessage } from './messages.js';
import type { ModelFormat } from './open.js';

/**
 * A pointer starts with its version line (git-lfs docs/spec.md: "version
 * https://git-lfs.github.com/spec/v1", after the pre-release "https://hawser.github.com/spec/v1")
 * and is under 1024 bytes.
 */
export const LFS_POINTER_MAX_BYTES = 1024;
export const LFS_VERSION_PREFIX = 'version https://';

/** What the pointer in `text` (a whole file under LFS_POINTER_MAX_BYTES) points to; undefined when it is not one. */
export function lfsPointerOf(text: string): LfsPointer | undefined {
  if (!/^version https:\/\/(git-lfs|hawser)\.github\.com\/spec\/v1\n/.test(text)) return undefined;
  const oid = /^oid (\S+)$/m.exec(text)?.[1] ?? 'unknown';
  const sizeText = /^size (\d+)$/m.exec(text)?.[1];
  return { oid, size: sizeText === undefined ? null : Number(sizeText) };
}

/** The error a reader throws for a pointer in place of its model file (`format`: the reader's, which the message names). */
export function lfsPointerError(file: string, pointer: LfsPointer, format: ModelFormat): ModelReadError {
  const problem: ReadMessage =
    pointer.size === null
      ? { messageId: 'gitLfsPointerUnsized', data: { format, oid: pointer.oid } }
      : { messageId: 'gitLfsPointer', data: { format, oid: pointer.oid, objectBytes: pointer.size } };
  return new ModelReadError('format', file, 0, problem, pointer);
}
