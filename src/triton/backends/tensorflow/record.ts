// The TensorFlow backend (deprecated, still first in core's auto-fill): a SavedModel directory or a
// GraphDef file. tritonc reads a SavedModel's serving signature (src/savedmodel), not a GraphDef
// (the backend does not auto-complete one either: ModelState::AutoCompleteConfig, "Nothing to be
// filled for graphdef").
import { autoCompleteTensorflow, tensorflowAutoCompleteSkipped, tensorflowSkippedNote } from './autocomplete.js';
import type { BackendRecord } from '../record.js';

export const TENSORFLOW: BackendRecord = {
  name: 'tensorflow',
  title: 'TensorFlow',
  platforms: [
    {
      name: 'tensorflow_savedmodel',
      defaultModelFile: 'model.savedmodel',
      format: 'tensorflow',
      modelIsDirectory: true,
      io: { addsMissingInputs: true, rankZeroTakesConfigShape: true, batchHintFromDims: true },
    },
    { name: 'tensorflow_graphdef', defaultModelFile: 'model.graphdef', format: 'other', formatTitle: 'GraphDefs' },
  ],
  core: true,
  backendType: 'tensorflow',
  fileExtensions: ['savedmodel', 'graphdef'],
  // core src/model_config_utils.cc SetDefaultInstanceCount: 2 for ONNX Runtime and TensorFlow on the CPU.
  defaultCpuInstances: 2,
  // server build.py: v2.55.0 (25.02) still has tensorflow_cmake_args and builds the backend; v2.56.0
  // (25.03) does not (commit 1f6aed23f "TPRD-1326: merge kmcgill-remove-tf (#8113)"; server PR #8068:
  // "As of 25.03 TensorFlow backend is deprecated").
  releases: { until: '25.03' },
  releasesSource: 'triton-inference-server/server build.py @ r25.02 (builds it), r25.03 (does not: 1f6aed23f)',
  autoComplete: {
    from: 'model',
    skipped: tensorflowAutoCompleteSkipped,
    skippedNote: tensorflowSkippedNote,
    complete: (config, signature, options) => autoCompleteTensorflow(config, signature, options),
  },
  source: 'triton-inference-server/tensorflow_backend src/tensorflow.cc',
};
