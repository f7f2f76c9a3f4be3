import { testRule } from '../support/rule-tester.js';

const ORT = 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n';
const gpu = (entries: string, groups = ''): string => `${ORT}${groups}optimization { execution_accelerators { gpu_execution_accelerator [ ${entries} ] } }\n`;
const cpu = (entries: string): string => `${ORT}optimization { execution_accelerators { cpu_execution_accelerator [ ${entries} ] } }\n`;
const trt = (params: Record<string, string>): string =>
  `{ name: "tensorrt" ${Object.entries(params)
    .map(([k, v]) => `parameters { key: "${k}" value: "${v}" }`)
    .join(' ')} }`;
const cuda = (params: Record<string, string>): string =>
  `{ name: "cuda" ${Object.entries(params)
    .map(([k, v]) => `parameters { key: "${k}" value: "${v}" }`)
    .join(' ')} }`;
const params = (p: Record<string, string>, extra = ''): string =>
  `${ORT}${extra}${Object.entries(p)
    .map(([k, v]) => `parameters { key: "${k}" value: { string_value: "${v}" } }`)
    .join('\n')}\n`;

const CUDNN_CHOICES = '0 = EXHAUSTIVE, 1 = HEURISTIC, 2 = DEFAULT';
const ARENA_CHOICES = '0 = kNextPowerOfTwo, 1 = kSameAsRequested';

testRule('accelerators', {
  valid: [
    {
      name: 'TensorRT with the documented keys, and the CUDA accelerator',
      config: gpu(
        `${trt({ precision_mode: 'FP16', max_workspace_size_bytes: '1073741824', trt_engine_cache_enable: 'True', trt_engine_cache_path: '/cache', trt_min_subgraph_size: '5' })}, ${cuda({ use_ep_level_unified_stream: '1' })}`,
      ),
    },
    {
      name: 'OpenVINO on CPU, and model-level parameters Triton parses',
      config: params(
        {
          execution_mode: '1',
          intra_op_thread_count: '4',
          enable_mem_arena: 'off',
          cudnn_conv_algo_search: '1',
          arena_extend_strategy: '0',
          custom_key: 'anything',
        },
        'optimization { execution_accelerators { cpu_execution_accelerator [ { name: "openvino" } ] } }\n',
      ),
    },
    {
      name: 'other backends are not checked (TensorRT plans have their own accelerator rules)',
      config: 'platform: "tensorrt_plan"\noptimization { execution_accelerators { gpu_execution_accelerator [ { name: "whatever" } ] } }\n',
    },
  ],
  invalid: [
    {
      name: 'an unknown GPU accelerator name: on the name, with the case hint',
      config: gpu('{ name: "TensorRT" }'),
      errors: [
        {
          messageId: 'gpuAcceleratorWrongCase',
          data: { name: 'TensorRT', expected: 'tensorrt' },
          severity: 'error',
          token: '"TensorRT"',
          path: ['optimization', 'execution_accelerators', 'gpu_execution_accelerator', 0, 'name'],
        },
      ],
      output: null,
    },
    {
      name: 'openvino among the GPU accelerators',
      config: gpu('{ name: "openvino" }'),
      errors: [{ messageId: 'cpuAcceleratorOnGpu', data: { name: 'openvino' }, severity: 'error', token: '"openvino"' }],
    },
    {
      name: 'an unknown TensorRT parameter: on the key',
      config: gpu(trt({ trt_fp16_enable: 'true', precision_mode: 'FP16' })),
      errors: [{ messageId: 'unknownTensorrtParameter', data: { key: 'trt_fp16_enable' }, severity: 'error', token: '"trt_fp16_enable"' }],
    },
    {
      name: 'a TensorRT parameter without its trt_ prefix: the suggestion',
      config: gpu(trt({ engine_cache_enable: '1' })),
      errors: [
        { messageId: 'misspeltTensorrtParameter', data: { key: 'engine_cache_enable', suggestion: 'trt_engine_cache_enable' }, token: '"engine_cache_enable"' },
      ],
    },
    {
      name: 'TensorRT values: precision mode, integers, sizes, booleans',
      config: gpu(trt({ precision_mode: 'fp16', trt_max_partition_iterations: 'many', max_workspace_size_bytes: 'big', trt_dla_enable: 'yes' })),
      errors: [
        { messageId: 'precisionModeWrongCase', data: { value: 'fp16', expected: 'FP16' }, severity: 'error', token: '"fp16"' },
        { messageId: 'tensorrtNotInteger', data: { key: 'trt_max_partition_iterations', value: 'many' }, severity: 'error', token: '"many"' },
        { messageId: 'tensorrtNotBytes', data: { key: 'max_workspace_size_bytes', value: 'big' }, severity: 'error', token: '"big"' },
        { messageId: 'tensorrtNotBoolean', data: { key: 'trt_dla_enable', value: 'yes' }, severity: 'error', token: '"yes"' },
      ],
    },
    {
      name: 'a precision TensorRT does not have',
      config: gpu(trt({ precision_mode: 'FP8' })),
      errors: [{ messageId: 'unknownPrecisionMode', data: { value: 'FP8', choices: '"FP32", "FP16", "BF16", "INT8"' }, token: '"FP8"' }],
    },
    {
      name: 'TensorRT numbers out of range, and an integer read by its prefix (warning)',
      config: gpu(trt({ trt_dla_core: '99999999999', trt_min_subgraph_size: '5x', max_workspace_size_bytes: '99999999999999999999' })),
      errors: [
        { messageId: 'tensorrtIntOutOfRange', data: { key: 'trt_dla_core', value: '99999999999' }, severity: 'error', token: '"99999999999"' },
        { messageId: 'tensorrtIntPrefixOnly', data: { key: 'trt_min_subgraph_size', value: '5x', readAs: 5 }, severity: 'warning', token: '"5x"' },
        {
          messageId: 'tensorrtBytesOutOfRange',
          data: { key: 'max_workspace_size_bytes', value: '99999999999999999999' },
          severity: 'error',
          token: '"99999999999999999999"',
        },
      ],
    },
    {
      name: 'a value Triton reads by its numeric prefix: warning',
      config: gpu(trt({ max_workspace_size_bytes: '4GB' })),
      errors: [{ messageId: 'tensorrtBytesPrefixOnly', data: { key: 'max_workspace_size_bytes', value: '4GB' }, severity: 'warning', token: '"4GB"' }],
    },
    {
      name: 'GPU accelerators on KIND_CPU instances are ignored: one warning, bad entries not blamed',
      config: gpu(
        `{ name: "tensorrt" parameters { key: "precision_mode" value: "fp16" } }, { name: "rocm" }`,
        'instance_group [ { kind: KIND_CPU count: 2 } ]\n',
      ),
      errors: [
        {
          messageId: 'gpuAcceleratorsIgnored',
          severity: 'warning',
          token: 'gpu_execution_accelerator',
          path: ['optimization', 'execution_accelerators', 'gpu_execution_accelerator'],
        },
      ],
    },
    {
      name: 'a mixed CPU and GPU model still fails on its GPU instances',
      config: gpu('{ name: "rocm" }', 'instance_group [ { kind: KIND_CPU }, { kind: KIND_GPU } ]\n'),
      errors: [{ messageId: 'unknownGpuAccelerator', data: { name: 'rocm' }, severity: 'error', token: '"rocm"' }],
    },
    {
      name: 'a CPU-only server (gpu.count 0) makes the default instance group CPU',
      config: gpu('{ name: "tensorrt" }'),
      settings: { gpu: { count: 0 } },
      errors: [{ messageId: 'gpuAcceleratorsIgnoredNoGpu', severity: 'warning', token: 'gpu_execution_accelerator' }],
    },
    {
      name: 'CUDA accelerator keys the model-level defaults overwrite: warning on the key, with the default and the model-level values',
      config: gpu(cuda({ cudnn_conv_algo_search: 'HEURISTIC' })),
      errors: [
        {
          messageId: 'cudaParameterOverwrittenChoice',
          data: { key: 'cudnn_conv_algo_search', default: 'EXHAUSTIVE', choices: '0 EXHAUSTIVE, 1 HEURISTIC, 2 DEFAULT' },
          severity: 'warning',
          token: '"cudnn_conv_algo_search"',
        },
      ],
    },
    {
      name: 'the other overwritten CUDA keys: gpu_mem_limit (no limit) and do_copy_in_default_stream, which must also be a boolean',
      config: gpu(cuda({ gpu_mem_limit: '1000000', do_copy_in_default_stream: 'maybe' })),
      errors: [
        { messageId: 'cudaMemLimitOverwritten', data: { key: 'gpu_mem_limit' }, severity: 'warning', token: '"gpu_mem_limit"' },
        {
          messageId: 'cudaParameterOverwritten',
          data: { key: 'do_copy_in_default_stream', default: '1' },
          severity: 'warning',
          token: '"do_copy_in_default_stream"',
        },
        { messageId: 'cudaParameterNotBoolean', data: { key: 'do_copy_in_default_stream', value: 'maybe' }, severity: 'error', token: '"maybe"' },
      ],
    },
    {
      name: 'a CPU accelerator other than openvino: a GPU one',
      config: cpu('{ name: "cuda" }'),
      errors: [{ messageId: 'gpuAcceleratorOnCpu', data: { name: 'cuda' }, severity: 'error', token: '"cuda"' }],
    },
    {
      name: 'a CPU accelerator nobody knows',
      config: cpu('{ name: "rocm" }'),
      errors: [{ messageId: 'unknownCpuAccelerator', data: { name: 'rocm' }, token: '"rocm"' }],
    },
    {
      name: 'openvino parameters are ignored: warning on the parameters',
      config: cpu('{ name: "openvino" parameters { key: "device_type" value: "GPU" } }'),
      errors: [
        {
          messageId: 'openvinoParametersIgnored',
          severity: 'warning',
          path: ['optimization', 'execution_accelerators', 'cpu_execution_accelerator', 0, 'parameters'],
        },
      ],
    },
    {
      name: 'model-level execution_mode, ints and booleans',
      config: params({ execution_mode: '2', inter_op_thread_count: 'auto', enable_mem_pattern: 'yes' }),
      errors: [
        { messageId: 'unknownExecutionMode', data: { mode: 2 }, token: '"2"' },
        { messageId: 'threadCountNotInteger', data: { key: 'inter_op_thread_count', value: 'auto', example: '1' }, token: '"auto"' },
        { messageId: 'parameterNotBoolean', data: { key: 'enable_mem_pattern', value: 'yes' }, token: '"yes"' },
      ],
    },
    {
      name: 'model-level integers out of range, not integers, or read by their prefix',
      config: params({ execution_mode: 'parallel', intra_op_thread_count: '99999999999', inter_op_thread_count: '2 threads' }),
      errors: [
        { messageId: 'executionModeNotInteger', data: { key: 'execution_mode', value: 'parallel' }, severity: 'error', token: '"parallel"' },
        {
          messageId: 'threadCountOutOfRange',
          data: { key: 'intra_op_thread_count', value: '99999999999', example: '4' },
          severity: 'error',
          token: '"99999999999"',
        },
        {
          messageId: 'parameterIntPrefixOnly',
          data: { key: 'inter_op_thread_count', value: '2 threads', readAs: 2 },
          severity: 'warning',
          token: '"2 threads"',
        },
      ],
    },
    {
      name: 'an execution_mode out of the int range',
      config: params({ execution_mode: '-99999999999' }),
      errors: [{ messageId: 'executionModeOutOfRange', data: { key: 'execution_mode', value: '-99999999999' }, token: '"-99999999999"' }],
    },
    {
      name: 'the deprecated CUDA parameters take numbers, not the names',
      config: params({ cudnn_conv_algo_search: 'HEURISTIC', arena_extend_strategy: '2' }),
      errors: [
        {
          messageId: 'parameterNotNumber',
          data: { key: 'cudnn_conv_algo_search', value: 'HEURISTIC', byName: 1, choices: CUDNN_CHOICES },
          token: '"HEURISTIC"',
        },
        { messageId: 'parameterNotAChoice', data: { key: 'arena_extend_strategy', value: 2, choices: ARENA_CHOICES }, token: '"2"' },
      ],
    },
    {
      name: 'the deprecated CUDA parameters: not an integer, out of range',
      config: params({ cudnn_conv_algo_search: 'fast', arena_extend_strategy: '99999999999' }),
      errors: [
        { messageId: 'choiceNotInteger', data: { key: 'cudnn_conv_algo_search', value: 'fast', choices: CUDNN_CHOICES }, token: '"fast"' },
        { messageId: 'choiceOutOfRange', data: { key: 'arena_extend_strategy', value: '99999999999', choices: ARENA_CHOICES }, token: '"99999999999"' },
      ],
    },
    {
      name: 'the deprecated CUDA parameters on a CPU-only model: info, they do nothing',
      config: params({ cudnn_conv_algo_search: '7' }, 'instance_group [ { kind: KIND_CPU } ]\n'),
      errors: [{ messageId: 'cudaOnlyParameterIgnored', data: { key: 'cudnn_conv_algo_search' }, severity: 'info', token: '"7"' }],
    },
  ],
});

// What the target's ONNX Runtime backend has (onnxruntime_backend src/onnxruntime.cc ModelState::LoadModel):
// precision_mode BF16 from r26.02, the cuda accelerator from r24.06; each at the release before and after.
testRule('accelerators', {
  valid: [
    { name: 'precision_mode BF16 in 26.02', config: gpu(trt({ precision_mode: 'BF16' })), settings: { triton: '26.02' } },
    { name: 'the cuda accelerator in 24.06', config: gpu(cuda({})), settings: { triton: '24.06' } },
    {
      name: 'session.use_device_allocator_for_initializers in 25.02',
      config: params({ 'session.use_device_allocator_for_initializers': '1' }),
      settings: { triton: '25.02' },
    },
  ],
  invalid: [
    {
      name: 'precision_mode BF16 in 26.01: "unsupported precision mode", with the release it arrived in',
      config: gpu(trt({ precision_mode: 'BF16' })),
      settings: { triton: '26.01' },
      errors: [{ messageId: 'precisionModeNotYet', data: { value: 'BF16', since: '26.02', release: '26.01', choices: '"FP32", "FP16", "INT8"' } }],
    },
    {
      name: 'precision_mode BF16 for 2.51.0 (24.10)',
      config: gpu(trt({ precision_mode: 'BF16' })),
      settings: { triton: '2.51.0' },
      errors: [{ messageId: 'precisionModeNotYet', data: { release: '24.10' } }],
    },
    {
      name: 'session.use_device_allocator_for_initializers in 25.01: ignored (a warning)',
      config: params({ 'session.use_device_allocator_for_initializers': '1' }),
      settings: { triton: '25.01' },
      errors: [
        {
          messageId: 'parameterNotYet',
          data: { key: 'session.use_device_allocator_for_initializers', since: '25.02', release: '25.01' },
          severity: 'warning',
          path: ['parameters', 'session.use_device_allocator_for_initializers', 'string_value'],
        },
      ],
    },
    {
      name: 'the cuda accelerator in 24.05: "unknown Execution Accelerator"',
      config: gpu(cuda({})),
      settings: { triton: '24.05' },
      errors: [
        {
          messageId: 'cudaAcceleratorNotYet',
          data: { name: 'cuda', since: '24.06', release: '24.05' },
          path: ['optimization', 'execution_accelerators', 'gpu_execution_accelerator', 0, 'name'],
        },
      ],
    },
  ],
});
