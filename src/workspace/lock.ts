// tritonc.lock.json: what a repository's model files are, for checkouts that hold only the configs
// (weights synced from object storage or kept in Git LFS). Per model and version: the file Triton
// opens, its size, its weight bytes, and for ONNX its signature (names, types, shapes): everything the
// model checks read, so lint against the lock equals lint against the weights. Written sorted and
// indented the same way every time, so a change of one model is a small diff.
import { parseJsonText } from '../util/json-text.js';
import { nameRecord } from '../util/name-record.js';
import { z } from 'zod';
import type { ModelSignature } from '../model-file/signature.js';
import { lockedSignatureSchema } from './signature-schema.js';

export const LOCK_FILE_NAME = 'tritonc.lock.json';
export const LOCK_VERSION = 1;

/** The signature as locked: the model's, less the path it was read from and its free-form metadata. */
export type LockedSignature = Omit<ModelSignature, 'path' | 'metadata' | 'producer'>;

export interface LockedVersion {
  /** The model file, relative to the model directory (`1/model.onnx`). */
  file: string;
  /** Its size in bytes (for ONNX, the .onnx file itself; external data counts in weightBytes). */
  size: number;
  /** What one instance loads: ONNX weight bytes, or the file's size for other formats. */
  weightBytes: number;
  /** ONNX models only. */
  signature?: LockedSignature;
}

export interface Lock {
  lockfileVersion: number;
  /** Model name -> version number (as a string) -> what is locked; records with no prototype (util/name-record.ts). */
  models: Record<string, { versions: Record<string, LockedVersion> }>;
}

/** A lock tritonc cannot use: exit 2 with the file, where, and what to do. */
export class LockError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

let lockSchema: z.ZodType | undefined;

/** The lock's schema, made on first use: most runs find no lock file. */
function schemaOfLock(): z.ZodType {
  if (lockSchema) return lockSchema;
  const signature = lockedSignatureSchema();

  const lock = z.strictObject({
    lockfileVersion: z.literal(LOCK_VERSION),
    models: namedRecord(
      z.string(),
      z.strictObject({
        versions: namedRecord(
          z.string().regex(/^-?\d+$/, 'a version number'),
          z.strictObject({ file: z.string().min(1), size: z.number().int().min(0), weightBytes: z.number().int().min(0), signature: signature.optional() }),
        ),
      }),
    ),
  });
  return (lockSchema = lock);
}

/**
 * z.record for keys that are names users choose: every key checked and kept, "__proto__" too (which
 * z.record skips unchecked), in a record with no prototype.
 */
function namedRecord<V extends z.ZodType>(key: z.ZodString, value: V) {
  return z
    .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'expected an object')
    .transform((v, ctx) => {
      const out = nameRecord<z.output<V>>();
      for (const k of Object.keys(v)) {
        const checkedKey = key.safeParse(k);
        if (!checkedKey.success) {
          ctx.addIssue({ code: 'custom', message: `${JSON.stringify(k)} is not ${checkedKey.error.issues[0]!.message}`, path: [k] });
          continue;
        }
        const checked = value.safeParse(v[k]);
        if (checked.success) out[k] = checked.data;
        else for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [k, ...issue.path] });
      }
      return out;
    });
}

/** Parses a lock file's text; throws LockError naming the key (or line and column) that is wrong. */
export function parseLock(text: string, file: string): Lock {
  const read = parseJsonText(text);
  if (!read.ok) throw new LockError(file, `not valid JSON at line ${read.at.line}, column ${read.at.column}: ${read.message}; regenerate it with tritonc lock`);
  const r = schemaOfLock().safeParse(read.value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const key = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    throw new LockError(file, `${key || '(top level)'}: ${issue.message}; regenerate it with tritonc lock where the model files are`);
  }
  return r.data as Lock;
}

/** The lock's text: keys sorted (versions by number), two-space indent, a final newline. */
export function serializeLock(lock: Lock): string {
  const models: Lock['models'] = nameRecord();
  for (const name of Object.keys(lock.models).sort()) {
    const versions = nameRecord<LockedVersion>();
    for (const v of Object.keys(lock.models[name]!.versions).sort((a, b) => Number(a) - Number(b))) versions[v] = lock.models[name]!.versions[v]!;
    models[name] = { versions };
  }
  const text = JSON.stringify({ lockfileVersion: lock.lockfileVersion, models }, null, 2);
  // A list of numbers or plain strings (a shape) on one line: a changed dim is a one-line diff.
  return `${text.replace(/\[\n\s+([^[\]{}]*?)\n\s*\]/g, (_, inner: string) => `[${inner.split(/,\n\s*/).join(', ')}]`)}\n`;
}

export function lockedSignature(sig: ModelSignature): LockedSignature {
  // ONNX, the first format locked, is the one a lock does not name: locks written before others stay as they were.
  const { path: _path, metadata: _metadata, producer: _producer, format, ...rest } = sig;
  return format && format !== 'onnx' ? { format, ...rest } : rest;
}

/** The locked signature as a signature read from `path` (producer and metadata are not locked). */
export function signatureFromLock(locked: LockedSignature, path: string): ModelSignature {
  return { format: 'onnx', ...locked, path, producer: { name: '', version: '' }, metadata: [] };
}

/** The first way a model version differs from its lock: its file, its inputs or outputs, its weights or opsets, its size. */
export type LockDifference =
  { kind: 'file'; file: string; lockedFile: string } | { kind: 'io' } | { kind: 'weights' } | { kind: 'size'; size: number; lockedSize: number };

/** Where two locks of one model version differ, as data for a message (undefined when they agree). */
export function lockDifference(locked: LockedVersion, actual: LockedVersion): LockDifference | undefined {
  if (locked.file !== actual.file) return { kind: 'file', file: actual.file, lockedFile: locked.file };
  if (JSON.stringify(locked.signature ?? null) !== JSON.stringify(actual.signature ?? null)) {
    const io = (s: LockedSignature | undefined): string => JSON.stringify(s ? [s.inputs, s.outputs, s.overridableInitializers] : null);
    return { kind: io(locked.signature) !== io(actual.signature) ? 'io' : 'weights' };
  }
  if (locked.size !== actual.size || locked.weightBytes !== actual.weightBytes) return { kind: 'size', size: actual.size, lockedSize: locked.size };
  return undefined;
}
