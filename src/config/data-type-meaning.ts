// What a mistyped data type meant: the names people write for Triton's DataType values come from
// other tools (ONNX's FLOAT and INT64, NumPy's float32, PyTorch's half) more often than from typos,
// and edit distance sends them the wrong way (TYPE_FLOAT32 is one letter from TYPE_UINT32).
import { ELEM_TYPES } from '../onnx/elem-types.js';

const DATA_TYPE_ENUM = 'inference.DataType';

/** Element names by what they mean, after TYPE_ and underscores are dropped and case is folded. */
const BY_MEANING: Record<string, string> = {
  FLOAT: 'TYPE_FP32',
  FLOAT32: 'TYPE_FP32',
  F32: 'TYPE_FP32',
  SINGLE: 'TYPE_FP32',
  FLOAT16: 'TYPE_FP16',
  HALF: 'TYPE_FP16',
  F16: 'TYPE_FP16',
  FLOAT64: 'TYPE_FP64',
  DOUBLE: 'TYPE_FP64',
  F64: 'TYPE_FP64',
  BFLOAT16: 'TYPE_BF16',
  BFLOAT: 'TYPE_BF16',
  INT: 'TYPE_INT32',
  INTEGER: 'TYPE_INT32',
  LONG: 'TYPE_INT64',
  SHORT: 'TYPE_INT16',
  CHAR: 'TYPE_INT8',
  UINT: 'TYPE_UINT32',
  BYTE: 'TYPE_UINT8',
  UCHAR: 'TYPE_UINT8',
  BOOLEAN: 'TYPE_BOOL',
  STR: 'TYPE_STRING',
  BYTES: 'TYPE_STRING',
  OBJECT: 'TYPE_STRING',
  TEXT: 'TYPE_STRING',
};
// Triton's own names without TYPE_ (fp32, INT8), and ONNX's (FLOAT, INT64, STRING, ...), which mean
// the Triton type the ONNX Runtime backend maps them to.
for (const e of ELEM_TYPES) {
  if (!e.tritonType) continue;
  BY_MEANING[e.tritonType.slice('TYPE_'.length)] ??= e.tritonType;
  BY_MEANING[e.name] ??= e.tritonType;
}

/** The Triton data type `written` means, when it is a name of another tool for one. */
export function dataTypeMeaning(enumName: string, written: string): string | undefined {
  if (enumName !== DATA_TYPE_ENUM) return undefined;
  const key = written
    .toUpperCase()
    .replace(/^TYPE_?/, '')
    .replace(/_/g, '');
  return BY_MEANING[key];
}
