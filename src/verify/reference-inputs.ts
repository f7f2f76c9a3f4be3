// The inputs of the compared inference (--reference ort): the user's arrays (--input, --inputs) where
// given, checked against the model's inputs (name, datatype, shape, batch), and seeded ones for the
// rest. With batching (max_batch_size > 0) an array may hold the batch dim ([B] + dims, 1 <= B <=
// max_batch_size) or be one item (dims; sent as a batch of 1); every given input must have the same
// B, and the seeded ones are made at it. Without batching an array has the config's dims.
import { dataTypeOfConfig } from './datatypes.js';
import { CannotRun } from './errors.js';
import type { InputSize } from './input-sizes.js';
import type { TensorSpec } from './plan.js';
import { halfBits, seededInputs, type SeededInput } from './reference.js';
import { shapeText } from './shapes.js';
import { INPUT_LIMITS, numpyNameOf, type UserArray } from './user-inputs/user-arrays.js';
import { escapeControl } from '../util/terminal-text.js';

export interface ReferenceInputs {
  /** The batch size sent (undefined: the fixed shape). */
  batch: number | undefined;
  inputs: SeededInput[];
  /** Where each input came from: the file as shown, or 'seeded'. */
  from: { name: string; from: string }[];
}

const RANGES: Record<string, [number, number]> = {
  BOOL: [0, 1],
  INT8: [-128, 127],
  UINT8: [0, 255],
  INT16: [-32768, 32767],
  UINT16: [0, 65535],
  INT32: [-(2 ** 31), 2 ** 31 - 1],
  UINT32: [0, 2 ** 32 - 1],
  // JSON numbers are doubles: past 2**53 an integer is already rounded when it is read.
  INT64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  UINT64: [0, Number.MAX_SAFE_INTEGER],
};

/** The array's data in the protocol's binary form (little-endian) for `datatype`, checked. */
function bytesOf(a: UserArray, name: string, datatype: string, configType: string): Buffer {
  if (a.data.kind === 'binary') {
    if (a.data.dtype.kserve !== datatype) {
      const want = numpyNameOf(datatype);
      throw new CannotRun(
        `input '${name}' is ${a.data.dtype.numpy} in ${a.source}, the model takes ${datatype} (${configType})${want ? `: save it as ${want}, e.g. np.save(path, a.astype(np.${want}))` : ''}`,
      );
    }
    return a.data.bytes;
  }
  const { values } = a.data;
  if (a.data.datatype !== undefined && a.data.datatype !== datatype)
    throw new CannotRun(
      `input '${name}' is ${escapeControl(a.data.datatype)} in ${a.source}, the model takes ${datatype} (${configType}): write "datatype": "${datatype}" with values of that type`,
    );
  const range = RANGES[datatype];
  if (range) {
    for (let k = 0; k < values.length; k++) {
      const v = values[k]!;
      if (!Number.isInteger(v) || v < range[0] || v > range[1]) {
        throw new CannotRun(
          `input '${name}' in ${a.source}: element ${k} is ${v}, not ${datatype === 'BOOL' ? 'true, false, 0 or 1' : `an integer ${datatype} holds (${range[0]} to ${range[1]})`}${datatype.endsWith('INT64') ? '; past 2**53 JSON cannot carry an integer exactly: save it with np.save' : ''}`,
        );
      }
    }
  }
  switch (datatype) {
    case 'FP32':
      return Buffer.from(Float32Array.from(values).buffer);
    case 'FP64':
      return Buffer.from(Float64Array.from(values).buffer);
    case 'FP16':
      return Buffer.from(Uint16Array.from(values, halfBits).buffer);
    case 'INT8':
      return Buffer.from(Int8Array.from(values).buffer);
    case 'INT16':
      return Buffer.from(Int16Array.from(values).buffer);
    case 'INT32':
      return Buffer.from(Int32Array.from(values).buffer);
    case 'INT64':
      return Buffer.from(BigInt64Array.from(values, BigInt).buffer);
    case 'UINT16':
      return Buffer.from(Uint16Array.from(values).buffer);
    case 'UINT32':
      return Buffer.from(Uint32Array.from(values).buffer);
    case 'UINT64':
      return Buffer.from(BigUint64Array.from(values, BigInt).buffer);
    default:
      return Buffer.from(Uint8Array.from(values).buffer);
  }
}

/** onnxruntime-node's data for little-endian bytes of `datatype` (copied: a typed array needs alignment). */
function ortDataOf(datatype: string, bytes: Buffer): ArrayLike<number | bigint> {
  const ab = new ArrayBuffer(bytes.length);
  new Uint8Array(ab).set(bytes);
  switch (datatype) {
    case 'FP32':
      return new Float32Array(ab);
    case 'FP64':
      return new Float64Array(ab);
    case 'FP16':
    case 'UINT16':
      return new Uint16Array(ab);
    case 'INT8':
      return new Int8Array(ab);
    case 'INT16':
      return new Int16Array(ab);
    case 'INT32':
      return new Int32Array(ab);
    case 'INT64':
      return new BigInt64Array(ab);
    case 'UINT32':
      return new Uint32Array(ab);
    case 'UINT64':
      return new BigUint64Array(ab);
    default:
      return new Uint8Array(ab);
  }
}

/** The shape sent for a given array, and its batch (undefined without batching). */
function shapeOf(a: UserArray, spec: TensorSpec, maxBatchSize: number): { shape: number[]; batch: number | undefined } {
  const fits = (item: readonly number[]): boolean => item.length === spec.dims.length && item.every((d, i) => spec.dims[i]! < 0 || spec.dims[i] === d);
  const name = escapeControl(spec.name);
  if (maxBatchSize <= 0) {
    if (!fits(a.shape))
      throw new CannotRun(
        `input '${name}' has shape ${shapeText(a.shape)} in ${a.source}; the model takes ${shapeText(spec.dims)} (max_batch_size 0: no batch dim; -1 is any size)`,
      );
    return { shape: [...a.shape], batch: undefined };
  }
  const expected = `${shapeText([-1, ...spec.dims])} (a batch of at most ${maxBatchSize}) or ${shapeText(spec.dims)} (one item); -1 is any size`;
  if (a.shape.length === spec.dims.length && fits(a.shape)) return { shape: [1, ...a.shape], batch: 1 };
  if (a.shape.length !== spec.dims.length + 1 || !fits(a.shape.slice(1)))
    throw new CannotRun(`input '${name}' has shape ${shapeText(a.shape)} in ${a.source}; the model takes ${expected}`);
  const b = a.shape[0]!;
  if (b < 1 || b > maxBatchSize)
    throw new CannotRun(
      `input '${name}' in ${a.source} is a batch of ${b}, and the model's max_batch_size is ${maxBatchSize}: send 1 to ${maxBatchSize} rows (e.g. a[:${maxBatchSize}])`,
    );
  return { shape: [...a.shape], batch: b };
}

/**
 * The compared inference's inputs for `specs` (the config's inputs): the given arrays, checked, and
 * seeded data for the inputs none gives. Throws CannotRun naming the file and the fix.
 */
export function referenceInputs(
  arrays: readonly UserArray[],
  specs: readonly TensorSpec[],
  maxBatchSize: number,
  dynamicSize: number,
  sizes: ReadonlyMap<string, InputSize>,
): ReferenceInputs {
  const given = new Map<string, { input: SeededInput; source: string }>();
  let batch: number | undefined;
  let batchFrom = '';
  let total = 0;
  for (const a of arrays) {
    const spec = specs.find((s) => s.name === a.name);
    if (!spec)
      throw new CannotRun(
        `${a.source}: '${escapeControl(a.name ?? '')}' is not an input of the model (its inputs: ${specs.map((s) => `'${escapeControl(s.name)}'`).join(', ') || 'none'})`,
      );
    const info = dataTypeOfConfig(spec.dataType);
    if (!info?.ort || info.kserve === 'BYTES' || info.kserve === 'BF16')
      throw new CannotRun(`input '${escapeControl(spec.name)}' is ${spec.dataType}: --reference ort compares numeric tensors`);
    const sent = shapeOf(a, spec, maxBatchSize);
    if (sent.batch !== undefined) {
      if (batch !== undefined && sent.batch !== batch)
        throw new CannotRun(`${a.source} is a batch of ${sent.batch}, ${batchFrom} a batch of ${batch}: every input of one inference has the same batch size`);
      batch = sent.batch;
      batchFrom = a.source;
    }
    const bytes = bytesOf(a, escapeControl(spec.name), info.kserve, spec.dataType);
    total += bytes.length;
    if (total > INPUT_LIMITS.tensorBytes)
      throw new CannotRun(
        `${a.source}: the inputs hold more than ${INPUT_LIMITS.tensorBytes} bytes in all, more than verify sends in one inference; send a smaller batch`,
      );
    given.set(spec.name, {
      input: { name: spec.name, datatype: info.kserve, shape: sent.shape, bytes, ortType: info.ort, ortData: ortDataOf(info.kserve, bytes) },
      source: a.source,
    });
  }
  if (maxBatchSize > 0) batch ??= 1;
  const seeded = seededInputs(
    specs.filter((s) => !given.has(s.name)),
    batch,
    dynamicSize,
    sizes,
  );
  return {
    batch,
    inputs: specs.map((s) => given.get(s.name)?.input ?? seeded.find((x) => x.name === s.name)!),
    from: specs.map((s) => ({ name: s.name, from: given.get(s.name)?.source ?? 'seeded' })),
  };
}
