// tritonc's own table of ONNX TensorProto.DataType values.
//
// onnx-proto (ONNX 1.10) stops at BFLOAT16 (16); ONNX has since added FP8, 4-bit and 2-bit types up
// to INT2 (26), so the reader never relies on a generated enum. Numbers and names follow onnx.proto;
// the Triton mapping follows the ONNX Runtime backend's OnnxDataTypeToModelConfigDataType
// (onnxruntime_backend src/onnxruntime_utils.cc): anything it does not map is `null` (Triton's TYPE_INVALID).

export interface ElemType {
  /** TensorProto.DataType number. */
  readonly code: number;
  /** ONNX enum name, e.g. 'FLOAT'. */
  readonly name: string;
  /** Bits per element; null where the size is not fixed (STRING) or meaningless (UNDEFINED). */
  readonly bits: number | null;
  /** Triton model-config data type, or null where Triton's ONNX Runtime backend has none. */
  readonly tritonType: string | null;
}

const TABLE: readonly ElemType[] = [
  { code: 0, name: 'UNDEFINED', bits: null, tritonType: null },
  { code: 1, name: 'FLOAT', bits: 32, tritonType: 'TYPE_FP32' },
  { code: 2, name: 'UINT8', bits: 8, tritonType: 'TYPE_UINT8' },
  { code: 3, name: 'INT8', bits: 8, tritonType: 'TYPE_INT8' },
  { code: 4, name: 'UINT16', bits: 16, tritonType: 'TYPE_UINT16' },
  { code: 5, name: 'INT16', bits: 16, tritonType: 'TYPE_INT16' },
  { code: 6, name: 'INT32', bits: 32, tritonType: 'TYPE_INT32' },
  { code: 7, name: 'INT64', bits: 64, tritonType: 'TYPE_INT64' },
  { code: 8, name: 'STRING', bits: null, tritonType: 'TYPE_STRING' },
  { code: 9, name: 'BOOL', bits: 8, tritonType: 'TYPE_BOOL' },
  { code: 10, name: 'FLOAT16', bits: 16, tritonType: 'TYPE_FP16' },
  { code: 11, name: 'DOUBLE', bits: 64, tritonType: 'TYPE_FP64' },
  { code: 12, name: 'UINT32', bits: 32, tritonType: 'TYPE_UINT32' },
  { code: 13, name: 'UINT64', bits: 64, tritonType: 'TYPE_UINT64' },
  { code: 14, name: 'COMPLEX64', bits: 64, tritonType: null },
  { code: 15, name: 'COMPLEX128', bits: 128, tritonType: null },
  { code: 16, name: 'BFLOAT16', bits: 16, tritonType: 'TYPE_BF16' },
  { code: 17, name: 'FLOAT8E4M3FN', bits: 8, tritonType: null },
  { code: 18, name: 'FLOAT8E4M3FNUZ', bits: 8, tritonType: null },
  { code: 19, name: 'FLOAT8E5M2', bits: 8, tritonType: null },
  { code: 20, name: 'FLOAT8E5M2FNUZ', bits: 8, tritonType: null },
  { code: 21, name: 'UINT4', bits: 4, tritonType: null },
  { code: 22, name: 'INT4', bits: 4, tritonType: null },
  { code: 23, name: 'FLOAT4E2M1', bits: 4, tritonType: null },
  { code: 24, name: 'FLOAT8E8M0', bits: 8, tritonType: null },
  { code: 25, name: 'UINT2', bits: 2, tritonType: null },
  { code: 26, name: 'INT2', bits: 2, tritonType: null },
];

/** Every known element type, indexed by its code (ELEM_TYPES[c].code === c). */
export const ELEM_TYPES: readonly ElemType[] = TABLE;

const BY_NAME = new Map(TABLE.map((t) => [t.name, t]));

/** The element type for a TensorProto.DataType number, or undefined for numbers ONNX has not defined. */
export function elemTypeByCode(code: number): ElemType | undefined {
  return Number.isInteger(code) && code >= 0 ? TABLE[code] : undefined;
}

/** The element type for an ONNX enum name ('FLOAT'), or undefined. */
export function elemTypeByName(name: string): ElemType | undefined {
  return BY_NAME.get(name);
}

/**
 * Bytes needed for `count` elements of this type as ONNX stores them in raw_data: sub-byte types are
 * packed (two 4-bit or four 2-bit values per byte, rounded up). Null when the size is not fixed.
 */
export function elemBytes(type: ElemType, count: number): number | null {
  if (type.bits === null) return null;
  return Math.ceil((count * type.bits) / 8);
}
