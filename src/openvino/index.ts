// The OpenVINO IR reader: public surface of src/openvino.
export { MAX_XML_BYTES, readOpenVinoOfBytes, readOpenVinoSync, weightsFile, type SizeOf } from './reader.js';
export { elementType, tritonTypeOf } from './elem-types.js';
export { anyName, dimBounds, hasBatch, splitNames } from './names.js';
