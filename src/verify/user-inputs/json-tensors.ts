// Input tensors written as JSON: a nested array ([[0.1, 0.2], [0.3, 0.4]]: its nesting is its shape,
// the model's config its type), or the KServe v2 protocol's tensor object ({"shape": [2, 2],
// "datatype": "FP32", "data": [...]}, data flat in row-major order or nested). One file per input
// (--input NAME=FILE.json), or one object for all of them (--inputs FILE.json): keyed by input name,
// or a KServe v2 request body ({"inputs": [{"name": ..., "shape": ..., "datatype": ..., "data": ...}]}).
// The text is bounded before it is parsed, and the walk is linear, its depth bounded.
import { escapeControl, quoted } from '../../util/terminal-text.js';
import { elementCount, fileError, INPUT_LIMITS, type UserArray } from './user-arrays.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON text of a file's bytes: UTF-8, parsed. */
export function parseJsonText(bytes: Buffer, source: string): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fileError(source, 'not UTF-8 text, so not JSON');
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw fileError(source, `not JSON: ${(e as Error).message}`);
  }
}

/** A nested array's shape and its numbers in row-major order; refuses ragged nesting and non-numbers. */
function flatten(value: unknown, source: string): { shape: number[]; values: number[] } {
  const shape: number[] = [];
  for (let v = value; Array.isArray(v); v = v[0]) {
    if (shape.length >= INPUT_LIMITS.dims) throw fileError(source, `nested more than ${INPUT_LIMITS.dims} deep`);
    shape.push(v.length);
    if (!v.length) break;
  }
  // Every row must have the first elements' shape (walk checks), so this bounds what is read.
  if (elementCount(shape, INPUT_LIMITS.jsonValues) === undefined) {
    throw fileError(
      source,
      `holds more than ${INPUT_LIMITS.jsonValues} numbers (shape [${shape.join(',')}] from the first elements): JSON is for small inputs; save a large one with numpy.save and give the .npy`,
    );
  }
  const values: number[] = [];
  // The index path of the element being read, made into text only for an error.
  const at: number[] = [];
  const where = (): string => (at.length ? at.map((k) => `[${k}]`).join('') : 'the value');
  const walk = (v: unknown, depth: number): void => {
    if (depth === shape.length) {
      if (typeof v === 'number') values.push(v);
      else if (typeof v === 'boolean') values.push(v ? 1 : 0);
      else
        throw fileError(
          source,
          `${where()} is ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}, where a number belongs (the arrays are not all of the same shape, [${shape.join(',')}] from the first elements)`,
        );
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[depth]) {
      throw fileError(
        source,
        `${where()} is ${Array.isArray(v) ? `an array of ${v.length}` : 'not an array'}, where the first elements make an array of ${shape[depth]}: a tensor's rows must all be the same length`,
      );
    }
    at.push(0);
    for (let k = 0; k < v.length; k++) {
      at[depth] = k;
      walk(v[k], depth + 1);
    }
    at.pop();
  };
  walk(value, 0);
  return { shape, values };
}

/** One tensor: a nested array, or a KServe tensor object ({shape, datatype, data}). `name` is the input it is for, where known. */
export function tensorOfJson(value: unknown, source: string, name?: string): UserArray {
  if (Array.isArray(value)) {
    const { shape, values } = flatten(value, source);
    return { source, ...(name !== undefined ? { name } : {}), shape, data: { kind: 'numbers', values } };
  }
  if (!isObject(value)) throw fileError(source, 'expected a nested array of numbers, or {"shape": [...], "datatype": "FP32", "data": [...]}');
  for (const key of Object.keys(value))
    if (!['name', 'shape', 'datatype', 'data', 'parameters'].includes(key))
      throw fileError(source, `unexpected key ${quoted(key)} in a tensor object; it takes "shape", "datatype" and "data" (the KServe v2 form)`);
  if (value.name !== undefined && typeof value.name !== 'string') throw fileError(source, '"name" is not a string');
  if (name !== undefined && value.name !== undefined && value.name !== name)
    throw fileError(source, `the tensor is named ${quoted(value.name)}, but given for input '${escapeControl(name)}'`);
  const own = value.name ?? name;
  if (value.datatype !== undefined && typeof value.datatype !== 'string') throw fileError(source, '"datatype" is not a string such as "FP32"');
  if (!Array.isArray(value.data)) throw fileError(source, '"data" is not an array of numbers');
  const data = flatten(value.data, source);
  let shape = data.shape;
  if (value.shape !== undefined) {
    const s = value.shape;
    if (!Array.isArray(s) || s.length > INPUT_LIMITS.dims || !s.every((d) => Number.isSafeInteger(d) && (d as number) >= 0))
      throw fileError(source, '"shape" is not a list of sizes (integers of 0 or more)');
    const declared = s as number[];
    const count = elementCount(declared, data.values.length);
    if (count !== data.values.length) throw fileError(source, `"shape" [${declared.join(',')}] does not hold the ${data.values.length} numbers of "data"`);
    // Nested data must have the declared shape; flat data takes it.
    if (data.shape.length > 1 && data.shape.join(',') !== declared.join(','))
      throw fileError(source, `"data" is nested as [${data.shape.join(',')}], "shape" says [${declared.join(',')}]`);
    shape = declared;
  }
  return {
    source,
    ...(own !== undefined ? { name: own } : {}),
    shape,
    data: { kind: 'numbers', values: data.values, ...(value.datatype !== undefined ? { datatype: value.datatype } : {}) },
  };
}

/** All the tensors of one JSON object: keyed by input name, or a KServe v2 request body. */
export function tensorsOfJson(value: unknown, source: string): UserArray[] {
  if (!isObject(value))
    throw fileError(
      source,
      'expected an object keyed by input name ({"input": [[...]]}), or a KServe v2 request body ({"inputs": [{"name": ..., "shape": ..., "datatype": ..., "data": ...}]})',
    );
  const keys = Object.keys(value);
  if (keys.length === 1 && Array.isArray(value.inputs) && value.inputs.every(isObject)) {
    return value.inputs.map((t, k) => {
      if (typeof t.name !== 'string') throw fileError(`${source}[inputs][${k}]`, 'a tensor without a "name"');
      return tensorOfJson(t, `${source}[${escapeControl(t.name)}]`);
    });
  }
  if (!keys.length) throw fileError(source, 'an empty object: no input is given');
  return keys.map((k) => tensorOfJson(value[k], `${source}[${escapeControl(k)}]`, k));
}
