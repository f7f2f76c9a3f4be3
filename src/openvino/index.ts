// The OpenVINO IR reader: public surface of src/openvino.
export { MAX_XML_BYTES, readOpenVinoOfBytes, readOpenVinoSync } from './reader.js';
