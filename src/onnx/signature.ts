// RawModel (numbers as read) -> ModelSignature (names, Triton types, batchability, weight sizes).

import path from 'node:path';
import { elemBytes, elemTypeByCode } from './elem-types.js';
import type { RawExternal, RawModel, RawType, RawValueInfo } from './walk.js';
import { OUTSIDE, type Io } from '../model-file/window.js';
import { ModelReadError } from '../model-file/errors.js';
import type { Dim, ModelSignature, TensorInfo } from '../model-file/signature.js';

export function* buildSignature(file: string, raw: RawModel): Io<ModelSignature> {
  const inputs: TensorInfo[] = [];
  const overridableInitializers: TensorInfo[] = [];
  for (const v of raw.inputs) {
    (raw.initializerNames.has(v.name) ? overridableInitializers : inputs).push(tensorInfo(v));
  }
  const outputs = raw.outputs.map(tensorInfo);
  const externalBytes = yield* sizeExternalData(file, raw.externals);
  const externalDataFiles = [...new Set(raw.externals.flatMap((e) => (e.location === null ? [] : [e.location])))];
  return {
    path: file,
    format: 'onnx',
    irVersion: raw.irVersion ?? 0,
    producer: { name: raw.producerName, version: raw.producerVersion },
    opsets: raw.opsets,
    inputs,
    outputs,
    initializers: {
      count: raw.initializerCount,
      bytes: raw.inlineBytes + externalBytes,
      externalBytes,
      constantBytes: raw.constantBytes,
    },
    batchable: [...inputs, ...outputs].every(canBatch),
    metadata: raw.metadata,
    overridableInitializers,
    weightsInline: raw.externals.length === 0,
    externalDataFiles,
  };
}

/** Triton's AutoCompleteMaxBatch test for one tensor: rank >= 1 and a dynamic (-1) first dim. */
export function canBatch(t: TensorInfo): boolean {
  if (t.kind !== 'tensor' || t.shape === null || t.shape.length === 0) return false;
  return isDynamicDim(t.shape[0]!);
}

/** ONNX Runtime reports dim_param, an unset dim and dim_value -1 alike as -1 ("any size"). */
export function isDynamicDim(d: Dim): boolean {
  return d === null || typeof d === 'string' || d === -1;
}

export function tensorInfo(v: RawValueInfo): TensorInfo {
  const info = typedInfo(v);
  return v.notUtf8 === undefined ? info : { ...info, notUtf8: v.notUtf8 };
}

function typedInfo(v: RawValueInfo): TensorInfo {
  const t = v.type;
  if (t === null) return { name: v.name, kind: 'unknown', elemType: null, tritonType: null, shape: null };
  switch (t.kind) {
    case 'tensor': {
      const elem = t.elem === null ? undefined : elemTypeByCode(t.elem);
      return { name: v.name, kind: 'tensor', elemType: elem?.name ?? null, tritonType: elem?.tritonType ?? null, shape: t.shape };
    }
    case 'sparse_tensor':
      // Triton serves dense tensors only, so a sparse one has no Triton type.
      return { name: v.name, kind: 'sparse_tensor', elemType: elemName(t.elem), tritonType: null, shape: t.shape };
    case 'opaque':
      return { name: v.name, kind: 'opaque', elemType: null, tritonType: null, shape: null };
    default:
      return { name: v.name, kind: t.kind, elemType: innermostElem(t), tritonType: null, shape: null };
  }
}

function elemName(code: number | null): string | null {
  return code === null ? null : (elemTypeByCode(code)?.name ?? null);
}

/** The element type of the tensor a sequence/optional/map finally holds (a map's value side). */
function innermostElem(t: RawType | null): string | null {
  while (t !== null) {
    switch (t.kind) {
      case 'tensor':
      case 'sparse_tensor':
        return elemName(t.elem);
      case 'sequence':
      case 'optional':
        t = t.elem;
        break;
      case 'map':
        t = t.value;
        break;
      default:
        return null;
    }
  }
  return null;
}

/**
 * Bytes of each external tensor: its 'length' key; else what ONNX would read (the referenced file from
 * 'offset' to its end, the file resolved against the model's directory); else, when that file is
 * missing, the size its dims and element type imply. A location outside the model's directory makes
 * the model unreadable, as it is to ONNX Runtime, and that file is never looked at (its size would
 * otherwise show in inspect, the lock and the memory estimate).
 */
function* sizeExternalData(file: string, externals: RawExternal[]): Io<number> {
  const dir = path.dirname(file);
  const fileSizes = new Map<string, number | null>();
  let total = 0;
  for (const e of externals) {
    if (e.location !== null) refuseOutside(file, e.tensor, e.location);
    if (e.length !== null) {
      total += e.length;
      continue;
    }
    if (e.location !== null) {
      let size = fileSizes.get(e.location);
      if (size === undefined) {
        const answer = yield { op: 'size', path: path.resolve(dir, e.location), dir: path.resolve(dir) };
        if (answer === OUTSIDE) outside(file, 'onnxExternalLink', e.tensor, e.location);
        size = answer ?? null;
        fileSizes.set(e.location, size);
      }
      if (size !== null) {
        total += Math.max(0, size - e.offset);
        continue;
      }
    }
    total += impliedBytes(e) ?? 0;
  }
  return total;
}

/**
 * The rules of onnx/checker.cc resolve_external_data_location (onnx 1.21): a location is relative
 * ("should be a relative path, but it is an absolute path"), and once lexically normalized it does
 * not go up ("should be file inside '<dir>', but '<location>' points outside the directory"). ONNX
 * Runtime refuses the same (tensorprotoutils.cc: an absolute path, and a path whose canonical form
 * escapes the model's directory). Links are the driver's to follow (the 'size' request's OUTSIDE).
 * Where onnx refuses ".." anywhere in the normalized path ("a..b.bin" too), this refuses a ".."
 * component only: ONNX Runtime, which Triton runs, loads such a file.
 */
function refuseOutside(file: string, tensor: string, location: string): void {
  if (path.posix.isAbsolute(location)) outside(file, 'onnxExternalAbsolute', tensor, location);
  const normal = path.posix.normalize(location);
  if (normal === '..' || normal.startsWith('../')) outside(file, 'onnxExternalParent', tensor, location);
}

function outside(file: string, messageId: 'onnxExternalAbsolute' | 'onnxExternalParent' | 'onnxExternalLink', tensor: string, location: string): never {
  throw new ModelReadError('format', file, null, { messageId, data: { tensor, location } });
}

function impliedBytes(e: RawExternal): number | null {
  const type = e.dataType === null ? undefined : elemTypeByCode(e.dataType);
  if (!type || e.elements === null) return null;
  const n = e.elements;
  const bytes = Number.isSafeInteger(n) ? elemBytes(type, n) : null;
  return bytes !== null && Number.isSafeInteger(bytes) ? bytes : null;
}
