// ONNX Runtime execution accelerators and model-level parameters (onnxruntime_backend src/onnxruntime.cc
// ModelState::ModelState and ModelState::LoadModel): what the
// ORT backend parses when it creates an instance, and what it silently ignores. GPU accelerators are
// read only for GPU instances, so their errors matter only when some instance runs on a GPU, and on
// a CPU-only model the whole list is dead configuration.
import { instanceKinds } from '../../../triton/normalize.js';
import type { PathSegment, Range } from '../../../diagnostics.js';
import type { ModelConfig } from '../../../config/model-config.js';
import { defineModelRule, type MessageOf, type ModelContext } from '../../rule.js';
import { isEnsemble, ONNXRUNTIME } from '../../../triton/backend-records.js';
import { ORT_ACCELERATORS } from '../../../triton/backends/onnxruntime/accelerators.js';
import { ORT_CUDA_ACCELERATOR, ORT_DEVICE_ALLOCATOR_PARAMETER, TRT_BF16_PRECISION, trtPrecisionModes } from '../../../triton/backends/onnxruntime/releases.js';
import { holdsIn, type TritonRelease } from '../../../triton/releases/catalog.js';

const TRT_INT_KEYS = new Set([
  'trt_max_partition_iterations',
  'trt_min_subgraph_size',
  'trt_dla_core',
  'trt_builder_optimization_level',
  'trt_auxiliary_streams',
  'trt_ep_context_embed_mode',
]);
const TRT_UINT64_KEYS = new Set(['max_workspace_size_bytes']);
const TRT_BOOL_KEYS = new Set([
  'int8_use_native_calibration_table',
  'trt_dla_enable',
  'trt_engine_cache_enable',
  'trt_dump_subgraphs',
  'trt_force_sequential_engine_build',
  'trt_context_memory_sharing_enable',
  'trt_layer_norm_fp32_fallback',
  'trt_timing_cache_enable',
  'trt_force_timing_cache',
  'trt_detailed_build_log',
  'trt_build_heuristics_enable',
  'trt_sparsity_enable',
  'trt_cuda_graph_enable',
  'trt_dump_ep_context_model',
]);
const TRT_STRING_KEYS = new Set([
  'int8_calibration_table_name',
  'trt_engine_cache_path',
  'trt_engine_cache_prefix',
  'trt_timing_cache_path',
  'trt_tactic_sources',
  'trt_extra_plugin_lib_paths',
  'trt_profile_min_shapes',
  'trt_profile_max_shapes',
  'trt_profile_opt_shapes',
  'trt_ep_context_file_path',
]);
const TRT_KEYS = ['precision_mode', ...TRT_INT_KEYS, ...TRT_UINT64_KEYS, ...TRT_BOOL_KEYS, ...TRT_STRING_KEYS];
/**
 * Keys of the cuda accelerator that the deprecated model-level block always overwrites (ModelState::LoadModel),
 * with the default it writes and the model-level values it takes; gpu_mem_limit's default is no limit.
 */
const CUDA_OVERWRITTEN: Record<string, { default: string; choices?: string } | null> = {
  cudnn_conv_algo_search: { default: 'EXHAUSTIVE', choices: '0 EXHAUSTIVE, 1 HEURISTIC, 2 DEFAULT' },
  gpu_mem_limit: null,
  arena_extend_strategy: { default: 'kNextPowerOfTwo', choices: '0 kNextPowerOfTwo, 1 kSameAsRequested' },
  do_copy_in_default_stream: { default: '1' },
};
const CUDA_BOOL_KEYS = new Set(['do_copy_in_default_stream', 'use_ep_level_unified_stream']);

const INT32_MAX = 2 ** 31 - 1;

/** std::stoi: optional whitespace and sign, then digits; a numeric prefix is enough. */
export function parseStoi(v: string): { value?: number; prefixOnly?: boolean; outOfRange?: boolean } {
  const m = /^[\s]*([+-]?\d+)/.exec(v);
  if (!m) return {};
  const n = Number(m[1]);
  if (n > INT32_MAX || n < -INT32_MAX - 1) return { outOfRange: true };
  return { value: n, prefixOnly: m[0].length !== v.length };
}

/** std::stoull: like stoi (a leading '-' wraps around rather than failing). */
function parseStoull(v: string): { ok: boolean; prefixOnly?: boolean; outOfRange?: boolean } {
  const m = /^[\s]*([+-]?\d+)/.exec(v);
  if (!m) return { ok: false };
  if (BigInt(m[1]!.replace('+', '')) > 18446744073709551615n) return { ok: true, outOfRange: true };
  return { ok: true, prefixOnly: m[0].length !== v.length };
}

/** The backend's ParseBoolValue. */
const isBool = (v: string): boolean => ['true', 'false', 'on', 'off', '1', '0'].includes(v.toLowerCase());

/** Whether Triton serves the model with the ONNX Runtime backend (core's AutoCompleteBackendFields). */
export function isOnnxRuntime(ctx: Ctx): boolean {
  if (ctx.modelFile?.endsWith('.onnx')) return true;
  return ctx.model.autofill(ctx.config).config.backend === ONNXRUNTIME.name;
}

const OVERWRITES = "Triton's ONNX Runtime backend always overwrites {{key}} afterwards with the model-level parameter of that name or its default";
const SET_MODEL_LEVEL = 'set it as a model-level parameter instead: parameters { key: "{{key}}" value: { string_value: "..." } }';
const UNKNOWN_GPU = `unknown GPU execution accelerator "{{name}}": Triton refuses the model on GPU instances ("unknown Execution Accelerator '{{name}}' is requested")`;
const UNKNOWN_CPU = `unknown CPU execution accelerator "{{name}}": Triton refuses the model ("unknown Execution Accelerator '{{name}}' is requested")`;
const UNKNOWN_PRECISION = `precision_mode "{{value}}" is not a TensorRT precision: Triton refuses the model ("unsupported precision mode '{{value}}' is requested")`;
const UNKNOWN_TRT_KEY = `"{{key}}" is not a TensorRT accelerator parameter: Triton refuses the model ("unknown parameter '{{key}}' is provided for TensorRT Execution Accelerator")`;
const INT_OUT_OF_RANGE = `parameter {{key}}: "{{value}}" does not fit in an int, and Triton's std::stoi throws on it`;
const NOT_INTEGER = `parameter {{key}}: "{{value}}" is not an integer: Triton refuses the model ("failed to convert '{{value}}' to integral number")`;
const THREADS = 'write a number of threads, e.g. "{{example}}" (0 lets ONNX Runtime choose)';
const GPU_IGNORED =
  "Triton's ONNX Runtime backend reads GPU accelerators only for GPU instances (no error, no effect, even for bad entries); move them to a KIND_GPU instance group's model, or remove them";

const messages = {
  cudaParameterOverwritten: `cuda accelerator parameter '{{key}}' has no effect: ${OVERWRITES} ({{default}}); ${SET_MODEL_LEVEL}`,
  cudaParameterOverwrittenChoice: `cuda accelerator parameter '{{key}}' has no effect: ${OVERWRITES} ({{default}} (model-level values: {{choices}})); ${SET_MODEL_LEVEL}`,
  cudaMemLimitOverwritten: `cuda accelerator parameter '{{key}}' has no effect: ${OVERWRITES} (no limit (SIZE_MAX)); ${SET_MODEL_LEVEL}`,
  cudaParameterNotBoolean: `cuda accelerator parameter {{key}}: "{{value}}" is not a boolean: Triton refuses the model ("failed to convert '{{value}}' to boolean"); use "true", "false", "1" or "0"`,
  unknownGpuAccelerator: `${UNKNOWN_GPU}; the GPU accelerators are "tensorrt" and "cuda"`,
  gpuAcceleratorWrongCase: `${UNKNOWN_GPU}; names are case-sensitive: write "{{expected}}"`,
  cpuAcceleratorOnGpu: `${UNKNOWN_GPU}; openvino is a CPU accelerator: move it to cpu_execution_accelerator`,
  unknownCpuAccelerator: `${UNKNOWN_CPU}; the only CPU accelerator is "openvino"`,
  gpuAcceleratorOnCpu: `${UNKNOWN_CPU}; {{name}} is a GPU accelerator: move it to gpu_execution_accelerator`,
  unknownPrecisionMode: `${UNKNOWN_PRECISION}; use one of {{choices}}`,
  precisionModeWrongCase: `${UNKNOWN_PRECISION}; values are case-sensitive: write "{{expected}}"`,
  precisionModeNotYet: `${UNKNOWN_PRECISION}: precision_mode {{value}} arrived in {{since}}, and this is Triton {{release}}; use one of {{choices}}, or run Triton {{since}} or later`,
  cudaAcceleratorNotYet: `${UNKNOWN_GPU}: the cuda accelerator arrived in {{since}}, and this is Triton {{release}}; remove it (the CUDA execution provider is the default for GPU instances), or run Triton {{since}} or later`,
  tensorrtIntOutOfRange: `TensorRT parameter {{key}}: "{{value}}" does not fit in an int, and Triton's std::stoi throws on it; use a smaller integer`,
  tensorrtNotInteger: `TensorRT parameter {{key}}: "{{value}}" is not an integer: Triton refuses the model ("failed to convert '{{value}}' to integral number"); write a whole number`,
  tensorrtIntPrefixOnly:
    'TensorRT parameter {{key}}: "{{value}}" is read as {{readAs}} (Triton parses the leading integer and drops the rest); write "{{readAs}}"',
  tensorrtNotBytes: `TensorRT parameter {{key}}: "{{value}}" is not a number of bytes: Triton refuses the model ("failed to convert '{{value}}' to unsigned long long integral number"); write a whole number of bytes, e.g. "1073741824" for 1 GiB`,
  tensorrtBytesOutOfRange: `TensorRT parameter {{key}}: "{{value}}" does not fit in 64 bits, and Triton's std::stoull throws on it; use a smaller number of bytes`,
  tensorrtBytesPrefixOnly:
    'TensorRT parameter {{key}}: "{{value}}" is read as its leading number only (units are not understood); write the size in bytes, e.g. "1073741824" for 1 GiB',
  tensorrtNotBoolean: `TensorRT parameter {{key}}: "{{value}}" is not a boolean: Triton refuses the model ("failed to convert '{{value}}' to boolean"); use "true", "false", "1" or "0"`,
  unknownTensorrtParameter: `${UNKNOWN_TRT_KEY}; see the ONNX Runtime backend README for the supported keys`,
  misspeltTensorrtParameter: `${UNKNOWN_TRT_KEY}; did you mean "{{suggestion}}"?`,
  executionModeOutOfRange: `${INT_OUT_OF_RANGE}; use "0" (sequential) or "1" (parallel)`,
  executionModeNotInteger: `${NOT_INTEGER}; use "0" (sequential) or "1" (parallel)`,
  threadCountOutOfRange: `${INT_OUT_OF_RANGE}; ${THREADS}`,
  threadCountNotInteger: `${NOT_INTEGER}; ${THREADS}`,
  choiceOutOfRange: `${INT_OUT_OF_RANGE}; use one of {{choices}}`,
  choiceNotInteger: `${NOT_INTEGER}; use one of {{choices}}`,
  parameterIntPrefixOnly: 'parameter {{key}}: "{{value}}" is read as {{readAs}} (Triton parses the leading integer and drops the rest); write "{{readAs}}"',
  unknownExecutionMode:
    'parameter execution_mode: {{mode}} is neither 0 (sequential) nor 1 (parallel): Triton refuses the model ("Invalid configuration value provided. Expected values for  execution_mode are 0 or 1 but got {{mode}} ."); use "0" or "1"',
  parameterNotBoolean: `parameter {{key}}: "{{value}}" is not a boolean: Triton refuses the model ("failed to convert '{{value}}' to boolean"); use "true", "false", "1" or "0"`,
  parameterNotYet:
    'parameter {{key}} is ignored: the ONNX Runtime backend reads it from {{since}} on, and this is Triton {{release}}; remove it, or run Triton {{since}} or later',
  cudaOnlyParameterIgnored: 'parameter {{key}} is ignored: it only configures the CUDA execution provider, and this model has no GPU instance; remove it',
  parameterNotNumber: `parameter {{key}}: "{{value}}" is not a number: Triton refuses the model ("failed to convert '{{value}}' to integral number"); the model-level parameter takes the number: write "{{byName}}" ({{choices}})`,
  parameterNotAChoice: `parameter {{key}}: {{value}} is not one of {{choices}}: Triton refuses the model ("unsupported {{key}} value '{{value}}' is requested"); use a listed number`,
  gpuAcceleratorsIgnored: `gpu_execution_accelerator is ignored: every instance_group is KIND_CPU (or KIND_MODEL), and ${GPU_IGNORED}`,
  gpuAcceleratorsIgnoredNoGpu: `gpu_execution_accelerator is ignored: the settings say the server has no GPU (gpu.count: 0), so the default instance group runs on CPU, and ${GPU_IGNORED}`,
  openvinoParametersIgnored: `openvino accelerator parameters are ignored: Triton's ONNX Runtime backend always runs the OpenVINO execution provider with device_type CPU and reads no parameters; remove them`,
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const accelerators = defineModelRule({
  meta: {
    id: 'accelerators',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'ONNX Runtime execution accelerators and parameters: names, TensorRT keys and values, ignored and overwritten settings',
    prevents: [
      "unknown Execution Accelerator '<name>' is requested",
      "unknown parameter '<key>' is provided for TensorRT Execution Accelerator",
      "unsupported precision mode '<v>' is requested",
      "failed to convert '<v>' to integral number",
      "failed to convert '<v>' to unsigned long long integral number",
      "failed to convert '<v>' to boolean",
      'Invalid configuration value provided. Expected values for  execution_mode are 0 or 1 but got <n> .',
      "unsupported cudnn_conv_algo_search value '<n>' is requested",
      "unsupported arena_extend_strategy value '<n>' is requested",
    ],
    messages,
  },
  check(ctx) {
    const config = ctx.config;
    const eas = config.optimization?.execution_accelerators;
    // Written at all, not counted: Object.keys of a map of 500,000 parameters costs a fifth of a second,
    // and the checks below look parameters up by key.
    const hasParams = config.parameters !== undefined;
    if (!eas && !hasParams) return;
    if (isEnsemble(config) || !isOnnxRuntime(ctx)) return;

    const kinds = instanceKinds(config, ctx.settings.gpu.count);
    const release = ctx.settings.server.target.release;
    const base: PathSegment[] = ['optimization', 'execution_accelerators'];
    const keyRange = (path: PathSegment[]): Range | undefined => ctx.doc.locate(path)?.name;
    const report = (path: PathSegment[], message: MessageOf<typeof messages>, severity?: 'warning' | 'info', onKey = false): void => {
      const range = onKey ? keyRange(path) : undefined;
      ctx.report({ path, ...(range ? { range } : {}), ...message, ...(severity ? { severity } : {}) });
    };

    // GPU accelerators.
    const gpu = eas?.gpu_execution_accelerator ?? [];
    if (gpu.length && !kinds.gpu) {
      const path = [...base, 'gpu_execution_accelerator'];
      ctx.report({
        path,
        range: keyRange(path) ?? ctx.doc.rangeOf(path),
        severity: 'warning',
        messageId: config.instance_group?.length ? 'gpuAcceleratorsIgnored' : 'gpuAcceleratorsIgnoredNoGpu',
      });
    }
    gpu.forEach((acc, i) => {
      const at: PathSegment[] = [...base, 'gpu_execution_accelerator', i];
      const name = acc.name ?? '';
      // On CPU-only models the list is never read (warned above).
      if (!kinds.gpu) return;
      if (name === ORT_ACCELERATORS.tensorrt) {
        checkTensorRt(acc.parameters ?? {}, at, report, release);
        return;
      }
      if (name === ORT_ACCELERATORS.cuda && !holdsIn(ORT_CUDA_ACCELERATOR, release)) {
        report([...at, 'name'], { messageId: 'cudaAcceleratorNotYet', data: { name, since: ORT_CUDA_ACCELERATOR.since!, release: release.container } });
        return;
      }
      if (name === ORT_ACCELERATORS.cuda) {
        for (const [key, value] of Object.entries(acc.parameters ?? {})) {
          const p = [...at, 'parameters', key];
          if (key in CUDA_OVERWRITTEN) {
            const overwritten = CUDA_OVERWRITTEN[key];
            const message: MessageOf<typeof messages> = !overwritten
              ? { messageId: 'cudaMemLimitOverwritten', data: { key } }
              : overwritten.choices
                ? { messageId: 'cudaParameterOverwrittenChoice', data: { key, default: overwritten.default, choices: overwritten.choices } }
                : { messageId: 'cudaParameterOverwritten', data: { key, default: overwritten.default } };
            report(p, message, 'warning', true);
          }
          if (CUDA_BOOL_KEYS.has(key) && !isBool(value)) {
            report(p, { messageId: 'cudaParameterNotBoolean', data: { key, value } });
          }
        }
        return;
      }
      const lower = name.toLowerCase();
      if (lower === ORT_ACCELERATORS.tensorrt || lower === ORT_ACCELERATORS.cuda)
        report([...at, 'name'], { messageId: 'gpuAcceleratorWrongCase', data: { name, expected: lower } });
      else report([...at, 'name'], { messageId: name === ORT_ACCELERATORS.openvino ? 'cpuAcceleratorOnGpu' : 'unknownGpuAccelerator', data: { name } });
    });

    // CPU accelerators: read for every instance kind.
    (eas?.cpu_execution_accelerator ?? []).forEach((acc, i) => {
      const at: PathSegment[] = [...base, 'cpu_execution_accelerator', i];
      const name = acc.name ?? '';
      if (name === ORT_ACCELERATORS.openvino) {
        if (Object.keys(acc.parameters ?? {}).length) {
          const p = [...at, 'parameters'];
          ctx.report({ path: p, range: keyRange(p) ?? ctx.doc.rangeOf(p), severity: 'warning', messageId: 'openvinoParametersIgnored' });
        }
        return;
      }
      report([...at, 'name'], {
        messageId: name === ORT_ACCELERATORS.tensorrt || name === ORT_ACCELERATORS.cuda ? 'gpuAcceleratorOnCpu' : 'unknownCpuAccelerator',
        data: { name },
      });
    });

    // Model-level parameters the ORT backend parses (ModelState::ModelState, ModelState::LoadModel).
    if (hasParams) checkParameters(config, kinds.gpu, report, release);
  },
});

type Reporter = (path: PathSegment[], message: MessageOf<typeof messages>, severity?: 'warning' | 'info', onKey?: boolean) => void;

function checkTensorRt(parameters: Record<string, string>, at: PathSegment[], report: Reporter, release: TritonRelease): void {
  // The modes of the target's backend (BF16 from 26.02: onnxruntime_backend src/onnxruntime.cc trt_bf16_enable).
  const modes = trtPrecisionModes(release);
  const choices = modes.map((m) => `"${m}"`).join(', ');
  for (const [key, value] of Object.entries(parameters)) {
    const p = [...at, 'parameters', key];
    if (key === 'precision_mode') {
      if (!modes.includes(value)) {
        const upper = value.toUpperCase();
        if (value === 'BF16' && !holdsIn(TRT_BF16_PRECISION, release))
          report(p, { messageId: 'precisionModeNotYet', data: { value, since: TRT_BF16_PRECISION.since!, release: release.container, choices } });
        else if (modes.includes(upper)) report(p, { messageId: 'precisionModeWrongCase', data: { value, expected: upper } });
        else report(p, { messageId: 'unknownPrecisionMode', data: { value, choices } });
      }
    } else if (TRT_INT_KEYS.has(key)) {
      const r = parseStoi(value);
      if (r.outOfRange) report(p, { messageId: 'tensorrtIntOutOfRange', data: { key, value } });
      else if (r.value === undefined) report(p, { messageId: 'tensorrtNotInteger', data: { key, value } });
      else if (r.prefixOnly) report(p, { messageId: 'tensorrtIntPrefixOnly', data: { key, value, readAs: r.value } }, 'warning');
    } else if (TRT_UINT64_KEYS.has(key)) {
      const r = parseStoull(value);
      if (!r.ok) report(p, { messageId: 'tensorrtNotBytes', data: { key, value } });
      else if (r.outOfRange) report(p, { messageId: 'tensorrtBytesOutOfRange', data: { key, value } });
      else if (r.prefixOnly) report(p, { messageId: 'tensorrtBytesPrefixOnly', data: { key, value } }, 'warning');
    } else if (TRT_BOOL_KEYS.has(key)) {
      if (!isBool(value)) report(p, { messageId: 'tensorrtNotBoolean', data: { key, value } });
    } else if (!TRT_STRING_KEYS.has(key)) {
      const close = TRT_KEYS.find(
        (k) => k.toLowerCase() === key.toLowerCase() || k === `trt_${key}` || `trt_${k}` === key || k.replace(/^trt_/, '') === key.replace(/^trt_/, ''),
      );
      report(
        p,
        close ? { messageId: 'misspeltTensorrtParameter', data: { key, suggestion: close } } : { messageId: 'unknownTensorrtParameter', data: { key } },
        undefined,
        true,
      );
    }
  }
}

function checkParameters(config: ModelConfig, gpu: boolean, report: Reporter, release: TritonRelease): void {
  const params = config.parameters ?? {};
  const allocator = 'session.use_device_allocator_for_initializers';
  if (Object.hasOwn(params, allocator) && !holdsIn(ORT_DEVICE_ALLOCATOR_PARAMETER, release))
    report(
      params[allocator]?.string_value !== undefined ? ['parameters', allocator, 'string_value'] : ['parameters', allocator],
      { messageId: 'parameterNotYet', data: { key: allocator, since: ORT_DEVICE_ALLOCATOR_PARAMETER.since!, release: release.container } },
      'warning',
    );
  const str = (key: string): string | undefined => params[key]?.string_value ?? (params[key] ? '' : undefined);
  const path = (key: string): PathSegment[] => (params[key]?.string_value !== undefined ? ['parameters', key, 'string_value'] : ['parameters', key]);

  // What the parameter takes, for the message when its value is no int: one message pair per kind.
  type IntKind = { kind: 'executionMode' } | { kind: 'threadCount'; example: string } | { kind: 'choice'; choices: string };
  const notInt = (key: string, value: string, want: IntKind, outOfRange: boolean): MessageOf<typeof messages> => {
    if (want.kind === 'executionMode') return { messageId: outOfRange ? 'executionModeOutOfRange' : 'executionModeNotInteger', data: { key, value } };
    if (want.kind === 'threadCount')
      return { messageId: outOfRange ? 'threadCountOutOfRange' : 'threadCountNotInteger', data: { key, value, example: want.example } };
    return { messageId: outOfRange ? 'choiceOutOfRange' : 'choiceNotInteger', data: { key, value, choices: want.choices } };
  };
  const intParam = (key: string, want: IntKind): number | undefined => {
    const v = str(key);
    if (v === undefined) return undefined;
    const r = parseStoi(v);
    if (r.outOfRange || r.value === undefined) {
      report(path(key), notInt(key, v, want, r.outOfRange === true));
      return undefined;
    }
    if (r.prefixOnly) report(path(key), { messageId: 'parameterIntPrefixOnly', data: { key, value: v, readAs: r.value } }, 'warning');
    return r.value;
  };

  const mode = intParam('execution_mode', { kind: 'executionMode' });
  if (mode !== undefined && mode !== 0 && mode !== 1) {
    report(path('execution_mode'), { messageId: 'unknownExecutionMode', data: { mode } });
  }
  intParam('intra_op_thread_count', { kind: 'threadCount', example: '4' });
  intParam('inter_op_thread_count', { kind: 'threadCount', example: '1' });
  for (const key of ['enable_mem_arena', 'enable_mem_pattern']) {
    const v = str(key);
    if (v !== undefined && !isBool(v)) report(path(key), { messageId: 'parameterNotBoolean', data: { key, value: v } });
  }

  // The deprecated CUDA keys are read only when a GPU instance is created.
  const deprecated: [string, string[]][] = [
    ['cudnn_conv_algo_search', ['EXHAUSTIVE', 'HEURISTIC', 'DEFAULT']],
    ['arena_extend_strategy', ['kNextPowerOfTwo', 'kSameAsRequested']],
  ];
  for (const [key, names] of deprecated) {
    const v = str(key);
    if (v === undefined) continue;
    if (!gpu) {
      report(path(key), { messageId: 'cudaOnlyParameterIgnored', data: { key } }, 'info');
      continue;
    }
    const choices = names.map((n, i) => `${i} = ${n}`).join(', ');
    const byName = names.indexOf(v);
    if (byName >= 0) {
      report(path(key), { messageId: 'parameterNotNumber', data: { key, value: v, byName, choices } });
      continue;
    }
    const n = intParam(key, { kind: 'choice', choices });
    if (n !== undefined && (n < 0 || n >= names.length)) {
      report(path(key), { messageId: 'parameterNotAChoice', data: { key, value: n, choices } });
    }
  }
}
