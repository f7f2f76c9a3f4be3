// The ONNX Runtime backend (onnxruntime_backend src/onnxruntime.cc): platform onnxruntime_onnx, model.onnx
// (a file, or a directory holding one with external data), and an auto-complete that reads the
// model's inputs and outputs (ModelState::AutoCompleteConfig).
import { autoCompleteOnnx, onnxAutoCompleteSkipped, skippedStep } from './autocomplete.js';
import type { BackendRecord } from '../record.js';
import { holdsIn } from '../../releases/catalog.js';
import { ORT_DEVICE_ALLOCATOR_PARAMETER } from './releases.js';

export const ONNXRUNTIME: BackendRecord = {
  name: 'onnxruntime',
  title: 'ONNX Runtime',
  platforms: [{ name: 'onnxruntime_onnx', defaultModelFile: 'model.onnx', format: 'onnx', directoryHolds: 'model.onnx' }],
  core: true,
  backendType: 'onnxruntime',
  fileExtensions: ['onnx'],
  // core src/model_config_utils.cc SetDefaultInstanceCount: 2 for ONNX Runtime and TensorFlow on the CPU.
  defaultCpuInstances: 2,
  // ModelState::LoadModel and ModelInstanceState (the session and CUDA options), as the release reads them.
  parameterKeys: (release) => [
    'execution_mode',
    'intra_op_thread_count',
    'inter_op_thread_count',
    'enable_mem_arena',
    'enable_mem_pattern',
    ...(holdsIn(ORT_DEVICE_ALLOCATOR_PARAMETER, release) ? ['session.use_device_allocator_for_initializers'] : []),
    'cudnn_conv_algo_search',
    'arena_extend_strategy',
  ],
  autoComplete: {
    from: 'model',
    skipped: onnxAutoCompleteSkipped,
    skippedNote: (model) => skippedStep(model).reason,
    complete: (config, signature, options) => autoCompleteOnnx(config, signature, options),
    // It stats the file before it looks for it (tritonserver 2.51, test/server/quoted-messages-real-triton.test.ts).
    noModelFile: (path) => `failed to stat file ${path}`,
  },
  source: 'triton-inference-server/onnxruntime_backend src/onnxruntime.cc',
};
