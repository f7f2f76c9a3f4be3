// OpenVINO element types: the IR's spellings (a Parameter's `element_type="f32"`, a port's legacy
// `precision="FP32"`) and the Triton data type the OpenVINO backend gives each. The Triton side is the
// backend's own table (openvino_backend src/openvino_utils.cc ConvertFromOpenVINOElement and
// OpenVINOElementToModelConfigDataType, which agree): f32, f16, i8, i16, i32, i64, u8, u16, u32, u64
// and boolean; every other type (bf16, f64, u1, i4, u4, string, dynamic, the f8 and nf4 types) is
// TYPE_INVALID there, which tritonc writes as null.

/** element_type (ov::element::Type::get_type_name) -> Triton type; null where the backend has none. */
const TRITON_TYPES: Readonly<Record<string, string | null>> = {
  f32: 'TYPE_FP32',
  f16: 'TYPE_FP16',
  i8: 'TYPE_INT8',
  i16: 'TYPE_INT16',
  i32: 'TYPE_INT32',
  i64: 'TYPE_INT64',
  u8: 'TYPE_UINT8',
  u16: 'TYPE_UINT16',
  u32: 'TYPE_UINT32',
  u64: 'TYPE_UINT64',
  boolean: 'TYPE_BOOL',
  bf16: null,
  f64: null,
  i4: null,
  u1: null,
  u2: null,
  u3: null,
  u4: null,
  u6: null,
  nf4: null,
  f8e4m3: null,
  f8e5m2: null,
  f8e8m0: null,
  f4e2m1: null,
  string: null,
  dynamic: null,
  undefined: null,
};

/**
 * The legacy precision names of ports (OpenVINO's IR serializer, get_precision_name) -> element_type.
 * Both spellings are accepted in either case; 'BIN' is u1 and 'UNSPECIFIED' the dynamic type.
 */
const PRECISIONS: Readonly<Record<string, string>> = {
  fp32: 'f32',
  fp16: 'f16',
  bf16: 'bf16',
  fp64: 'f64',
  bool: 'boolean',
  bin: 'u1',
  unspecified: 'dynamic',
};

/** The element type an IR spells `written` as, in ov's names ('f32', 'boolean', ...); null when unknown. */
export function elementType(written: string): string | null {
  const lower = written.trim().toLowerCase();
  const name = PRECISIONS[lower] ?? lower;
  return Object.hasOwn(TRITON_TYPES, name) ? name : null;
}

/** The Triton data type the OpenVINO backend serves `element` as; null for TYPE_INVALID. */
export function tritonTypeOf(element: string | null): string | null {
  return element !== null && Object.hasOwn(TRITON_TYPES, element) ? TRITON_TYPES[element]! : null;
}

/** The element types the backend serves (the config data types it converts to: ModelConfigDataTypeToOpenVINOElement). */
export const SERVED_TRITON_TYPES: readonly string[] = Object.values(TRITON_TYPES).filter((t): t is string => t !== null);
