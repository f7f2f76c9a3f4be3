// TensorFlow's DataType enum (tensorflow/core/framework/types.proto) and the Triton type the
// TensorFlow backend gives each: tensorflow_backend mirror/tensorflow_backend_tf.cc
// ConvertDataType(tensorflow::DataType) to TRITONTF_DataType, then src/tensorflow_utils.cc
// ConvertDataType(TRITONTF_DataType) to TRITONSERVER_DataType. Every other type (DT_BFLOAT16,
// DT_COMPLEX*, DT_Q*, DT_RESOURCE, DT_VARIANT, the *_REF types, ...) is TRITONTF_TYPE_INVALID, which
// the backend refuses at load: "unable to process input '<key>' for '<model>', unsupported datatype '<DT_X>'".

const NAMES: Readonly<Record<number, string>> = {
  0: 'DT_INVALID',
  1: 'DT_FLOAT',
  2: 'DT_DOUBLE',
  3: 'DT_INT32',
  4: 'DT_UINT8',
  5: 'DT_INT16',
  6: 'DT_INT8',
  7: 'DT_STRING',
  8: 'DT_COMPLEX64',
  9: 'DT_INT64',
  10: 'DT_BOOL',
  11: 'DT_QINT8',
  12: 'DT_QUINT8',
  13: 'DT_QINT32',
  14: 'DT_BFLOAT16',
  15: 'DT_QINT16',
  16: 'DT_QUINT16',
  17: 'DT_UINT16',
  18: 'DT_COMPLEX128',
  19: 'DT_HALF',
  20: 'DT_RESOURCE',
  21: 'DT_VARIANT',
  22: 'DT_UINT32',
  23: 'DT_UINT64',
  24: 'DT_FLOAT8_E5M2',
  25: 'DT_FLOAT8_E4M3FN',
  26: 'DT_FLOAT8_E4M3FNUZ',
  27: 'DT_FLOAT8_E4M3B11FNUZ',
  28: 'DT_FLOAT8_E5M2FNUZ',
  29: 'DT_INT4',
  30: 'DT_UINT4',
  31: 'DT_INT2',
  32: 'DT_UINT2',
};

/** The backend's table: DT_* to the model config's TYPE_*. */
export const TRITON_TYPE_OF_DT: Readonly<Record<string, string>> = {
  DT_BOOL: 'TYPE_BOOL',
  DT_UINT8: 'TYPE_UINT8',
  DT_UINT16: 'TYPE_UINT16',
  DT_UINT32: 'TYPE_UINT32',
  DT_UINT64: 'TYPE_UINT64',
  DT_INT8: 'TYPE_INT8',
  DT_INT16: 'TYPE_INT16',
  DT_INT32: 'TYPE_INT32',
  DT_INT64: 'TYPE_INT64',
  DT_HALF: 'TYPE_FP16',
  DT_FLOAT: 'TYPE_FP32',
  DT_DOUBLE: 'TYPE_FP64',
  DT_STRING: 'TYPE_STRING',
};

/** The DT_* name of an enum number (a reference type is its base name + _REF: number + 100), and its Triton type. */
export function tfDataType(code: number): { name: string; triton: string | null } {
  const name = NAMES[code] ?? (code > 100 && NAMES[code - 100] ? `${NAMES[code - 100]}_REF` : `DataType ${code}`);
  return { name, triton: TRITON_TYPE_OF_DT[name] ?? null };
}
