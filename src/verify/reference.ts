// `verify --reference ort`: is the served model still the model? The same inputs (the user's own,
// --input/--inputs, else seeded ones) go to the served model and to the ONNX model in ONNX Runtime on
// the CPU, and every output's largest absolute and relative error is reported, failing where an
// element is off by more than atol + rtol * |ref| (numpy's allclose, with polygraphy's defaults of
// 1e-5 for both). Model Navigator's correctness check is the anchor (model_navigator
// commands/correctness/correctness_script.py): per output the largest |served - ref| and
// |served - ref| / |ref|, and NaN or inf in an output is a failure of its own. A tolerance at least as
// large as the output itself (atol + rtol * |ref| >= |ref| for every element: an output of zeros
// would pass) decided nothing, and says so.
import { dataTypeOfConfig, dataTypeOfKserve } from './datatypes.js';
import { CannotRun } from './errors.js';
import { loadOrt, type OrtLoader } from './ort-loader.js';
import type { TensorSpec } from './plan.js';
import { requestShape } from './shapes.js';
import type { InputSize } from './input-sizes.js';
import type { OutputAccuracy } from './types.js';
import { withPrivateTemp } from '../util/private-temp.js';
import { seededRandom } from '../util/seeded-random.js';
import type { UserArray } from './user-inputs/user-arrays.js';

/** polygraphy's defaults (polygraphy run --atol/--rtol). */
export const DEFAULT_ATOL = 1e-5;
export const DEFAULT_RTOL = 1e-5;

export interface ReferenceOptions {
  /** The ONNX model ONNX Runtime runs: the model file Triton loads, or --reference-model. */
  modelFile: string;
  atol: number;
  rtol: number;
  /** The user's input tensors (--input, --inputs), read and bounded; the other inputs are seeded. */
  inputs?: UserArray[];
  loader?: OrtLoader;
}

/** One input as both sides get it: its protocol form and onnxruntime-node's. */
export interface SeededInput {
  name: string;
  datatype: string;
  shape: number[];
  /** Little-endian binary data, as the KServe binary extension carries it. */
  bytes: Buffer;
  ortType: string;
  ortData: ArrayLike<number | bigint>;
}

/** IEEE 754 half-precision bits of a float (round to nearest even). */
export function halfBits(value: number): number {
  const f32 = new Float32Array([value]);
  const x = new Uint32Array(f32.buffer)[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  let mant = x & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - exp;
    const half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  if (exp >= 31) return sign | 0x7c00 | (((x >>> 23) & 0xff) === 0xff && mant ? 0x200 : 0);
  const rounded = (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  return sign | (rounded + (rest > 0x1000 || (rest === 0x1000 && rounded & 1) ? 1 : 0));
}

/** The float a half-precision bit pattern holds. */
export function halfValue(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

const NUMERIC = new Set(['FP16', 'FP32', 'FP64', 'INT8', 'INT16', 'INT32', 'INT64', 'UINT8', 'UINT16', 'UINT32', 'UINT64', 'BOOL']);

/**
 * Inputs of the shapes verify sends at `batch`, filled from a seeded generator: floats in [-1, 1),
 * integers in [0, 8) (small enough to be valid indices and ids), booleans either way.
 */
export function seededInputs(
  inputs: readonly TensorSpec[],
  batch: number | undefined,
  dynamicSize: number,
  sizes: ReadonlyMap<string, InputSize>,
  seed = 20261203,
): SeededInput[] {
  const next = seededRandom(seed);
  return inputs.map((t) => {
    const info = dataTypeOfConfig(t.dataType);
    if (!info || !NUMERIC.has(info.kserve) || !info.ort) throw new CannotRun(`--reference ort compares numeric tensors; input '${t.name}' is ${t.dataType}`);
    const shape = requestShape(t.dims, batch, dynamicSize, sizes.get(t.name)?.dims);
    const count = shape.reduce((a, b) => a * b, 1);
    const bytes = Buffer.alloc(count * info.bytes);
    let ortData: ArrayLike<number | bigint>;
    const float = (): number => next() * 2 - 1;
    const int = (): number => Math.floor(next() * 8);
    switch (info.kserve) {
      case 'FP32': {
        const a = new Float32Array(count).map(float);
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'FP64': {
        const a = new Float64Array(count).map(float);
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'FP16': {
        const a = new Uint16Array(count).map(() => halfBits(float()));
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'INT8': {
        const a = new Int8Array(count).map(int);
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'INT16': {
        const a = new Int16Array(count).map(int);
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'INT32': {
        const a = new Int32Array(count).map(int);
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'INT64': {
        const a = new BigInt64Array(count).map(() => BigInt(int()));
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'UINT8': {
        const a = new Uint8Array(count).map(int);
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'UINT16': {
        const a = new Uint16Array(count).map(int);
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'UINT32': {
        const a = new Uint32Array(count).map(int);
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      case 'UINT64': {
        const a = new BigUint64Array(count).map(() => BigInt(int()));
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
        break;
      }
      default: {
        const a = new Uint8Array(count).map(() => (next() < 0.5 ? 0 : 1));
        Buffer.from(a.buffer).copy(bytes);
        ortData = a;
      }
    }
    return { name: t.name, datatype: info.kserve, shape, bytes, ortType: info.ort, ortData };
  });
}

/** The numbers of an output in the protocol's binary form. */
export function valuesOf(datatype: string, bytes: Buffer): Float64Array {
  const info = dataTypeOfKserve(datatype);
  if (!info || !NUMERIC.has(datatype)) throw new CannotRun(`--reference ort compares numeric tensors; an output is ${datatype}`);
  const copy = Buffer.from(bytes);
  const view = (() => {
    switch (datatype) {
      case 'FP32':
        return new Float32Array(copy.buffer, copy.byteOffset, copy.length / 4);
      case 'FP64':
        return new Float64Array(copy.buffer, copy.byteOffset, copy.length / 8);
      case 'FP16':
        return Array.from(new Uint16Array(copy.buffer, copy.byteOffset, copy.length / 2), halfValue);
      case 'INT8':
        return new Int8Array(copy.buffer, copy.byteOffset, copy.length);
      case 'INT16':
        return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
      case 'INT32':
        return new Int32Array(copy.buffer, copy.byteOffset, copy.length / 4);
      case 'INT64':
        return Array.from(new BigInt64Array(copy.buffer, copy.byteOffset, copy.length / 8), Number);
      case 'UINT16':
        return new Uint16Array(copy.buffer, copy.byteOffset, copy.length / 2);
      case 'UINT32':
        return new Uint32Array(copy.buffer, copy.byteOffset, copy.length / 4);
      case 'UINT64':
        return Array.from(new BigUint64Array(copy.buffer, copy.byteOffset, copy.length / 8), Number);
      default:
        return new Uint8Array(copy.buffer, copy.byteOffset, copy.length);
    }
  })();
  return Float64Array.from(view as ArrayLike<number>);
}

/** What ONNX Runtime answers for the inputs: each output's dims and numbers. */
export async function referenceOutputs(
  options: ReferenceOptions,
  inputs: readonly SeededInput[],
  outputs: readonly string[],
): Promise<Map<string, { dims: number[]; values: Float64Array }>> {
  const ort = await loadOrt(options.loader);
  return withPrivateTemp(async () => {
    let session;
    try {
      session = await ort.InferenceSession.create(options.modelFile, { executionProviders: ['cpu'], graphOptimizationLevel: 'all', logSeverityLevel: 3 });
    } catch (e) {
      throw new CannotRun(`--reference ort: ONNX Runtime cannot load ${options.modelFile}: ${(e as Error).message}`);
    }
    try {
      const feeds = Object.fromEntries(inputs.map((i) => [i.name, new ort.Tensor(i.ortType, i.ortData, i.shape)]));
      let result;
      try {
        result = await session.run(
          feeds,
          outputs.filter((o) => session.outputNames.includes(o)),
        );
      } catch (e) {
        throw new CannotRun(`--reference ort: ONNX Runtime cannot run ${options.modelFile} on the inputs sent to the server: ${(e as Error).message}`);
      }
      const out = new Map<string, { dims: number[]; values: Float64Array }>();
      for (const [name, tensor] of Object.entries(result)) {
        const data = (tensor as unknown as { data: ArrayLike<number | bigint> }).data;
        const values = tensor.type === 'float16' ? Float64Array.from(data as ArrayLike<number>, halfValue) : Float64Array.from(Array.from(data, Number));
        out.set(name, { dims: [...tensor.dims], values });
      }
      return out;
    } finally {
      await session.release();
    }
  }, 'tritonc-ort-');
}

export function compareOutput(
  name: string,
  served: { shape: readonly number[]; values: Float64Array } | undefined,
  reference: { dims: readonly number[]; values: Float64Array } | undefined,
  atol: number,
  rtol: number,
): OutputAccuracy {
  const base = { name, maxAbsError: 0, maxRelError: 0, largestReference: 0, mismatched: 0, elements: 0 };
  if (!served) return { ...base, ok: false, problem: 'the server did not send it' };
  if (!reference) return { ...base, ok: false, problem: 'the ONNX model has no output of that name' };
  if (served.shape.join(',') !== reference.dims.join(','))
    return { ...base, ok: false, problem: `the server sent shape [${served.shape.join(',')}], ONNX Runtime [${reference.dims.join(',')}]` };
  let maxAbs = 0;
  let maxRel = 0;
  let largest = 0;
  let mismatched = 0;
  let notFinite = 0;
  for (let i = 0; i < served.values.length; i++) {
    const a = served.values[i]!;
    const b = reference.values[i]!;
    if (Math.abs(b) > largest) largest = Math.abs(b);
    if (!Number.isFinite(a)) {
      notFinite++;
      continue;
    }
    const abs = Math.abs(a - b);
    if (abs > maxAbs) maxAbs = abs;
    if (b !== 0 && abs / Math.abs(b) > maxRel) maxRel = abs / Math.abs(b);
    if (abs > atol + rtol * Math.abs(b)) mismatched++;
  }
  const result = { name, maxAbsError: maxAbs, maxRelError: maxRel, largestReference: largest, mismatched, elements: served.values.length };
  if (notFinite) return { ...result, ok: false, problem: `${notFinite} of its elements are NaN or infinite` };
  // |b| <= atol + rtol * |b| at every element: an output of zeros would pass as well as this one did.
  if (mismatched === 0 && decidedNothing(largest, atol, rtol)) return { ...result, ok: false, undecided: true };
  return { ...result, ok: mismatched === 0 };
}

/** A measured error or magnitude for a person: 3 significant digits, in exponent form below 1e-3 ("6.80e-6"). */
export const errorText = (n: number): string => (n === 0 ? '0' : Math.abs(n) < 1e-3 ? n.toExponential(2) : n.toPrecision(3));

/** A tolerance as a flag would take it: "1e-5", "0.02". */
export const toleranceText = (n: number): string => (n !== 0 && Math.abs(n) < 1e-3 ? n.toExponential() : String(n));

/** Whether atol + rtol * |ref| reaches |ref| at every element of an output whose largest |ref| is `largest` (and not all 0). */
export const decidedNothing = (largest: number, atol: number, rtol: number): boolean => largest > 0 && atol + rtol * largest >= largest;

/** A power of ten at most a thousandth of `largest`: an atol that lets an output differ by 0.1% of its largest value. */
export function suggestedAtol(largest: number): number {
  const exp = Math.floor(Math.log10(largest / 1000));
  return Number(`1e${exp}`);
}

/** Why the tolerance decided nothing on an output, with the numbers and the flags that would decide. */
export function undecidedMessage(o: OutputAccuracy, atol: number, rtol: number): string {
  const numbers = `max abs error ${errorText(o.maxAbsError)}, max rel error ${errorText(o.maxRelError)}, largest |reference| ${errorText(o.largestReference)}`;
  const fixes = [
    rtol < 1 || atol >= o.largestReference
      ? `--atol ${toleranceText(suggestedAtol(o.largestReference))} (a thousandth of the largest |reference|, to a power of ten)`
      : '',
    rtol >= 1 ? '--rtol below 1 (e.g. 1e-3)' : '',
  ].filter(Boolean);
  const why =
    rtol >= 1
      ? `--rtol ${toleranceText(rtol)} is 1 or more`
      : `--atol ${toleranceText(atol)}${rtol ? ` (with --rtol ${toleranceText(rtol)})` : ''} reaches every |reference| value (largest ${errorText(o.largestReference)})`;
  return `output '${o.name}': ${why}, so an output of zeros would pass as well: the comparison decided nothing (${numbers}); pass ${fixes.join(' and ')}`;
}
