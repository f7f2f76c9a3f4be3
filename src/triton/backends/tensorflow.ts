// The TensorFlow backend (deprecated, still first in core's auto-fill): a SavedModel directory or a
// GraphDef file. Its auto-complete reads the model, which tritonc does not.
import type { BackendRecord } from './record.js';

export const TENSORFLOW: BackendRecord = {
  name: 'tensorflow',
  title: 'TensorFlow',
  platforms: [
    { name: 'tensorflow_savedmodel', defaultModelFile: 'model.savedmodel', format: 'other' },
    { name: 'tensorflow_graphdef', defaultModelFile: 'model.graphdef', format: 'other' },
  ],
  core: true,
  source: 'triton-inference-server/tensorflow_backend src/tensorflow.cc',
};
