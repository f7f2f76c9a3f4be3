// Triton's data types as its messages name them and as many bytes as core counts for each (core
// src/model_config_utils.cc GetDataTypeByteSize; the protocol names of the KServe v2 API).
import type { DataType } from '../config/model-config.js';

export const DATA_TYPES: readonly DataType[] = [
  'TYPE_INVALID',
  'TYPE_BOOL',
  'TYPE_UINT8',
  'TYPE_UINT16',
  'TYPE_UINT32',
  'TYPE_UINT64',
  'TYPE_INT8',
  'TYPE_INT16',
  'TYPE_INT32',
  'TYPE_INT64',
  'TYPE_FP16',
  'TYPE_FP32',
  'TYPE_FP64',
  'TYPE_STRING',
  'TYPE_BF16',
];
/** Bytes per element of each fixed-size type. */
export const BYTES: Record<string, number> = {
  TYPE_BOOL: 1,
  TYPE_UINT8: 1,
  TYPE_UINT16: 2,
  TYPE_UINT32: 4,
  TYPE_UINT64: 8,
  TYPE_INT8: 1,
  TYPE_INT16: 2,
  TYPE_INT32: 4,
  TYPE_INT64: 8,
  TYPE_FP16: 2,
  TYPE_FP32: 4,
  TYPE_FP64: 8,
  TYPE_BF16: 2,
};

/** A data_type as its enum name ('TYPE_INVALID' when unset; the number itself when the enum lacks it). */
export function typeName(v: DataType | number | undefined): string {
  if (v === undefined) return 'TYPE_INVALID';
  if (typeof v === 'number') return DATA_TYPES[v] ?? `${v}`;
  return v;
}

/** The protocol (KServe) name Triton's request errors use: FP32, BYTES, ... */
export const protocolName = (type: string): string => (type === 'TYPE_STRING' ? 'BYTES' : type.replace(/^TYPE_/, ''));

/** Bytes of a fixed-size tensor; undefined for TYPE_STRING, an unknown type or a variable dim. */
export function byteSizeOf(type: string, dims: readonly number[]): number | undefined {
  const size = BYTES[type];
  if (size === undefined || dims.some((d) => d < 0)) return undefined;
  return dims.reduce((a, b) => a * b, 1) * size;
}
