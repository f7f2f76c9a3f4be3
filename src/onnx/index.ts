// The ONNX signature reader: public surface of src/onnx.
export { readSignature, readSignatureFrom, readSignatureSync, type RandomAccess, type ReadOptions, type ReadStats } from './reader.js';
export { ModelReadError, ModelReadError as OnnxReadError, type ModelReadErrorKind } from '../model-file/errors.js';
export { ELEM_TYPES, elemBytes, elemTypeByCode, elemTypeByName, type ElemType } from './elem-types.js';
export { canBatch, isDynamicDim } from './signature.js';
export type {
  Dim,
  InitializerSummary,
  MetadataEntry,
  ModelSignature,
  OpsetImport,
  TensorInfo,
  ValueKind,
} from '../model-file/signature.js';
