// The TensorFlow SavedModel reader: public surface of src/savedmodel.
export { readSavedModelOfBytes, readSavedModelSync, SAVED_MODEL_PB } from './reader.js';
