// The backends Triton's own builds know: core's (src/constants.h: tensorflow, tensorrt, onnxruntime,
// openvino, pytorch, python), the ones server build.py configures for its containers
// (backend_cmake_args: dali, armnn_tflite, fil, fastertransformer, tensorrtllm; vllm, a Python-based
// backend) and the qa/example backends it builds (identity, repeat, square). Any other name can be
// a custom backend of the user's; a name one typo away from these is much more likely a typo.
export const KNOWN_BACKENDS: readonly string[] = [
  'onnxruntime', 'tensorrt', 'pytorch', 'tensorflow', 'openvino', 'python',
  'dali', 'fil', 'armnn_tflite', 'fastertransformer', 'tensorrtllm', 'vllm',
  'identity', 'repeat', 'square',
];
