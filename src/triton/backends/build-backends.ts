// Backends Triton's builds know by name only: the ones server build.py configures for its containers
// (backend_cmake_args) and the qa/example backends it builds. tritonc knows nothing of their files
// or auto-complete; the names tell a typo from a custom backend of the user's.
import type { BackendRecord } from './record.js';
import { TENSORRTLLM } from './tensorrtllm/record.js';

const byName = (name: string, source: string, more: Partial<BackendRecord> = {}): BackendRecord => ({ name, platforms: [], core: false, source, ...more });

/** DALI (dali_backend): its pipeline file is model.dali (default_model_filename, model-filename). */
export const DALI = byName('dali', 'triton-inference-server/dali_backend', { fileExtensions: ['dali'] });

export const BUILD_BACKENDS: readonly BackendRecord[] = [
  DALI,
  byName('fil', 'triton-inference-server/fil_backend'),
  byName('armnn_tflite', 'triton-inference-server/armnn_tflite_backend'),
  byName('fastertransformer', 'triton-inference-server/fastertransformer_backend'),
  TENSORRTLLM,
  byName('identity', 'triton-inference-server/identity_backend'),
  byName('repeat', 'triton-inference-server/repeat_backend'),
  byName('square', 'triton-inference-server/square_backend'),
];
