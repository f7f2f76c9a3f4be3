// The ONNX signature reader: public surface of src/onnx.
export { readSignature, readSignatureSync, type ReadStats } from './reader.js';
export { ModelReadError, ModelReadError as OnnxReadError } from '../model-file/errors.js';
export { ELEM_TYPES, elemBytes, elemTypeByCode, elemTypeByName } from './elem-types.js';
export type { Dim, ModelSignature, TensorInfo } from '../model-file/signature.js';
