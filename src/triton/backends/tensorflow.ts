// The TensorFlow backend (deprecated, still first in core's auto-fill): a SavedModel directory or a
// GraphDef file. tritonc reads a SavedModel's serving signature (src/savedmodel), not a GraphDef
// (the backend does not auto-complete one either: ModelState::AutoCompleteConfig, "Nothing to be
// filled for graphdef").
import { autoCompleteTensorflow, tensorflowAutoCompleteSkipped, tensorflowSkippedNote } from '../autocomplete-tensorflow.js';
import type { BackendRecord } from './record.js';

export const TENSORFLOW: BackendRecord = {
  name: 'tensorflow',
  title: 'TensorFlow',
  platforms: [
    {
      name: 'tensorflow_savedmodel',
      defaultModelFile: 'model.savedmodel',
      format: 'tensorflow',
      modelIsDirectory: true,
      checks: { addsMissingInputs: true, rankZeroTakesConfigShape: true, batchHintFromDims: true },
    },
    { name: 'tensorflow_graphdef', defaultModelFile: 'model.graphdef', format: 'other' },
  ],
  core: true,
  autoComplete: {
    from: 'model',
    skipped: tensorflowAutoCompleteSkipped,
    skippedNote: tensorflowSkippedNote,
    complete: (config, signature, options) => autoCompleteTensorflow(config, signature, options),
  },
  source: 'triton-inference-server/tensorflow_backend src/tensorflow.cc',
};
