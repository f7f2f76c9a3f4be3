// The model-level `parameters` keys each backend reads from config.pbtxt, for editor completion (the
// checks of their values are the rules': accelerators for ONNX Runtime, tensorrtllm-parameters).
import { TRTLLM_PARAMETERS } from './backends/tensorrtllm/parameters.js';

/** onnxruntime_backend src/onnxruntime.cc, ModelState::LoadModel and ModelInstanceState (the session and CUDA options). */
const ONNXRUNTIME = [
  'execution_mode', 'intra_op_thread_count', 'inter_op_thread_count', 'enable_mem_arena', 'enable_mem_pattern',
  'session.use_device_allocator_for_initializers', 'cudnn_conv_algo_search', 'arena_extend_strategy',
];
/** python_backend src/python_be.cc, ModelState: the execution environment and where inputs live. */
const PYTHON = ['EXECUTION_ENV_PATH', 'FORCE_CPU_ONLY_INPUT_TENSORS'];
/** vllm_backend src/model.py (_get_bool_config_param): the only two it reads. */
const VLLM = ['REPORT_CUSTOM_METRICS', 'ENABLE_VLLM_HEALTH_CHECK'];

export function knownParameterKeys(backend: string): readonly string[] {
  switch (backend) {
    case 'onnxruntime':
      return ONNXRUNTIME;
    case 'python':
      return PYTHON;
    case 'vllm':
      return VLLM;
    case 'tensorrtllm':
      return Object.entries(TRTLLM_PARAMETERS).filter(([, p]) => !p.unread).map(([k]) => k);
    default:
      return [];
  }
}
