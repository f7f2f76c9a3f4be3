// The TensorFlow SavedModel reader: public surface of src/savedmodel.
export { readSavedModelOfBytes, readSavedModelSync, DEFAULT_SIGNATURE, MAX_SAVED_MODEL_BYTES, SAVED_MODEL_PB, SERVE_TAG, VARIABLES_DIR } from './reader.js';
export { TRITON_TYPE_OF_DT, tfDataType } from './data-types.js';
