// ONNX Runtime execution accelerators and model-level parameters (onnxruntime_backend src/onnxruntime.cc
// ModelState::ModelState and ModelState::LoadModel): what the
// ORT backend parses when it creates an instance, and what it silently ignores. GPU accelerators are
// read only for GPU instances, so their errors matter only when some instance runs on a GPU, and on
// a CPU-only model the whole list is dead configuration.
import { instanceKinds } from '../../../triton/normalize.js';
import type { PathSegment, Range } from '../../../diagnostics.js';
import type { ModelConfig } from '../../../config/model-config.js';
import { defineModelRule, type MessageOf, type ModelContext } from '../../rule.js';

const PRECISION_MODES = ['FP32', 'FP16', 'BF16', 'INT8'];
const TRT_INT_KEYS = new Set(['trt_max_partition_iterations', 'trt_min_subgraph_size', 'trt_dla_core', 'trt_builder_optimization_level', 'trt_auxiliary_streams', 'trt_ep_context_embed_mode']);
const TRT_UINT64_KEYS = new Set(['max_workspace_size_bytes']);
const TRT_BOOL_KEYS = new Set([
  'int8_use_native_calibration_table', 'trt_dla_enable', 'trt_engine_cache_enable', 'trt_dump_subgraphs', 'trt_force_sequential_engine_build',
  'trt_context_memory_sharing_enable', 'trt_layer_norm_fp32_fallback', 'trt_timing_cache_enable', 'trt_force_timing_cache', 'trt_detailed_build_log',
  'trt_build_heuristics_enable', 'trt_sparsity_enable', 'trt_cuda_graph_enable', 'trt_dump_ep_context_model',
]);
const TRT_STRING_KEYS = new Set([
  'int8_calibration_table_name', 'trt_engine_cache_path', 'trt_engine_cache_prefix', 'trt_timing_cache_path', 'trt_tactic_sources',
  'trt_extra_plugin_lib_paths', 'trt_profile_min_shapes', 'trt_profile_max_shapes', 'trt_profile_opt_shapes', 'trt_ep_context_file_path',
]);
const TRT_KEYS = ['precision_mode', ...TRT_INT_KEYS, ...TRT_UINT64_KEYS, ...TRT_BOOL_KEYS, ...TRT_STRING_KEYS];
/** Keys of the cuda accelerator that the deprecated model-level block always overwrites (ModelState::LoadModel). */
const CUDA_OVERWRITTEN: Record<string, string> = {
  cudnn_conv_algo_search: 'EXHAUSTIVE (model-level values: 0 EXHAUSTIVE, 1 HEURISTIC, 2 DEFAULT)',
  gpu_mem_limit: 'no limit (SIZE_MAX)',
  arena_extend_strategy: 'kNextPowerOfTwo (model-level values: 0 kNextPowerOfTwo, 1 kSameAsRequested)',
  do_copy_in_default_stream: '1',
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
  return ctx.model.autofill(ctx.config).config.backend === 'onnxruntime';
}

const messages = {
  cudaParameterOverwritten: `cuda accelerator parameter '{{key}}' has no effect: Triton's ONNX Runtime backend always overwrites {{key}} afterwards with the model-level parameter of that name or its default ({{default}}); set it as a model-level parameter instead: parameters { key: "{{key}}" value: { string_value: "..." } }`,
  cudaParameterNotBoolean: `cuda accelerator parameter {{key}}: "{{value}}" is not a boolean: Triton refuses the model ("failed to convert '{{value}}' to boolean"); use "true", "false", "1" or "0"`,
  unknownGpuAccelerator: `unknown GPU execution accelerator "{{name}}": Triton refuses the model on GPU instances ("unknown Execution Accelerator '{{name}}' is requested"){{hint}}`,
  unknownCpuAccelerator: `unknown CPU execution accelerator "{{name}}": Triton refuses the model ("unknown Execution Accelerator '{{name}}' is requested"){{hint}}`,
  unknownPrecisionMode: `precision_mode "{{value}}" is not a TensorRT precision: Triton refuses the model ("unsupported precision mode '{{value}}' is requested"){{hint}}`,
  tensorrtIntOutOfRange: `TensorRT parameter {{key}}: "{{value}}" does not fit in an int, and Triton's std::stoi throws on it; use a smaller integer`,
  tensorrtNotInteger: `TensorRT parameter {{key}}: "{{value}}" is not an integer: Triton refuses the model ("failed to convert '{{value}}' to integral number"); write a whole number`,
  tensorrtIntPrefixOnly: 'TensorRT parameter {{key}}: "{{value}}" is read as {{readAs}} (Triton parses the leading integer and drops the rest); write "{{readAs}}"',
  tensorrtNotBytes: `TensorRT parameter {{key}}: "{{value}}" is not a number of bytes: Triton refuses the model ("failed to convert '{{value}}' to unsigned long long integral number"); write a whole number of bytes, e.g. "1073741824" for 1 GiB`,
  tensorrtBytesOutOfRange: `TensorRT parameter {{key}}: "{{value}}" does not fit in 64 bits, and Triton's std::stoull throws on it; use a smaller number of bytes`,
  tensorrtBytesPrefixOnly: 'TensorRT parameter {{key}}: "{{value}}" is read as its leading number only (units are not understood); write the size in bytes, e.g. "1073741824" for 1 GiB',
  tensorrtNotBoolean: `TensorRT parameter {{key}}: "{{value}}" is not a boolean: Triton refuses the model ("failed to convert '{{value}}' to boolean"); use "true", "false", "1" or "0"`,
  unknownTensorrtParameter: `"{{key}}" is not a TensorRT accelerator parameter: Triton refuses the model ("unknown parameter '{{key}}' is provided for TensorRT Execution Accelerator"){{hint}}`,
  parameterIntOutOfRange: `parameter {{key}}: "{{value}}" does not fit in an int, and Triton's std::stoi throws on it; {{what}}`,
  parameterNotInteger: `parameter {{key}}: "{{value}}" is not an integer: Triton refuses the model ("failed to convert '{{value}}' to integral number"); {{what}}`,
  parameterIntPrefixOnly: 'parameter {{key}}: "{{value}}" is read as {{readAs}} (Triton parses the leading integer and drops the rest); write "{{readAs}}"',
  unknownExecutionMode: 'parameter execution_mode: {{mode}} is neither 0 (sequential) nor 1 (parallel): Triton refuses the model ("Invalid configuration value provided. Expected values for  execution_mode are 0 or 1 but got {{mode}} ."); use "0" or "1"',
  parameterNotBoolean: `parameter {{key}}: "{{value}}" is not a boolean: Triton refuses the model ("failed to convert '{{value}}' to boolean"); use "true", "false", "1" or "0"`,
  cudaOnlyParameterIgnored: 'parameter {{key}} is ignored: it only configures the CUDA execution provider, and this model has no GPU instance; remove it',
  parameterNotNumber: `parameter {{key}}: "{{value}}" is not a number: Triton refuses the model ("failed to convert '{{value}}' to integral number"); the model-level parameter takes the number: write "{{byName}}" ({{choices}})`,
  parameterNotAChoice: `parameter {{key}}: {{value}} is not one of {{choices}}: Triton refuses the model ("{{triton}} '{{value}}' is requested"); use a listed number`,
  gpuAcceleratorsIgnored: `gpu_execution_accelerator is ignored: {{why}}, and Triton's ONNX Runtime backend reads GPU accelerators only for GPU instances (no error, no effect, even for bad entries); move them to a KIND_GPU instance group's model, or remove them`,
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
    if (config.platform === 'ensemble' || !isOnnxRuntime(ctx)) return;

    const kinds = instanceKinds(config, ctx.settings.gpu.count);
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
      const why = config.instance_group?.length
        ? 'every instance_group is KIND_CPU (or KIND_MODEL)'
        : 'the settings say the server has no GPU (gpu.count: 0), so the default instance group runs on CPU';
      ctx.report({
        path,
        range: keyRange(path) ?? ctx.doc.rangeOf(path),
        severity: 'warning',
        messageId: 'gpuAcceleratorsIgnored',
        data: { why },
      });
    }
    gpu.forEach((acc, i) => {
      const at: PathSegment[] = [...base, 'gpu_execution_accelerator', i];
      const name = acc.name ?? '';
      // On CPU-only models the list is never read (warned above).
      if (!kinds.gpu) return;
      if (name === 'tensorrt') {
        checkTensorRt(acc.parameters ?? {}, at, report);
        return;
      }
      if (name === 'cuda') {
        for (const [key, value] of Object.entries(acc.parameters ?? {})) {
          const p = [...at, 'parameters', key];
          if (key in CUDA_OVERWRITTEN) {
            report(p, { messageId: 'cudaParameterOverwritten', data: { key, default: CUDA_OVERWRITTEN[key]! } }, 'warning', true);
          }
          if (CUDA_BOOL_KEYS.has(key) && !isBool(value)) {
            report(p, { messageId: 'cudaParameterNotBoolean', data: { key, value } });
          }
        }
        return;
      }
      const hint = name.toLowerCase() === 'tensorrt' || name.toLowerCase() === 'cuda' ? `; names are case-sensitive: write "${name.toLowerCase()}"` : name === 'openvino' ? '; openvino is a CPU accelerator: move it to cpu_execution_accelerator' : '; the GPU accelerators are "tensorrt" and "cuda"';
      report([...at, 'name'], { messageId: 'unknownGpuAccelerator', data: { name, hint } });
    });

    // CPU accelerators: read for every instance kind.
    (eas?.cpu_execution_accelerator ?? []).forEach((acc, i) => {
      const at: PathSegment[] = [...base, 'cpu_execution_accelerator', i];
      const name = acc.name ?? '';
      if (name === 'openvino') {
        if (Object.keys(acc.parameters ?? {}).length) {
          const p = [...at, 'parameters'];
          ctx.report({ path: p, range: keyRange(p) ?? ctx.doc.rangeOf(p), severity: 'warning', messageId: 'openvinoParametersIgnored' });
        }
        return;
      }
      const hint = name === 'tensorrt' || name === 'cuda' ? `; ${name} is a GPU accelerator: move it to gpu_execution_accelerator` : '; the only CPU accelerator is "openvino"';
      report([...at, 'name'], { messageId: 'unknownCpuAccelerator', data: { name, hint } });
    });

    // Model-level parameters the ORT backend parses (ModelState::ModelState, ModelState::LoadModel).
    if (hasParams) checkParameters(config, kinds.gpu, report);
  },
});

type Reporter = (path: PathSegment[], message: MessageOf<typeof messages>, severity?: 'warning' | 'info', onKey?: boolean) => void;

function checkTensorRt(parameters: Record<string, string>, at: PathSegment[], report: Reporter): void {
  for (const [key, value] of Object.entries(parameters)) {
    const p = [...at, 'parameters', key];
    if (key === 'precision_mode') {
      if (!PRECISION_MODES.includes(value)) {
        const upper = value.toUpperCase();
        const hint = PRECISION_MODES.includes(upper) ? `; values are case-sensitive: write "${upper}"` : `; use one of ${PRECISION_MODES.map((m) => `"${m}"`).join(', ')}`;
        report(p, { messageId: 'unknownPrecisionMode', data: { value, hint } });
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
      const close = TRT_KEYS.find((k) => k.toLowerCase() === key.toLowerCase() || k === `trt_${key}` || `trt_${k}` === key || k.replace(/^trt_/, '') === key.replace(/^trt_/, ''));
      report(p, { messageId: 'unknownTensorrtParameter', data: { key, hint: close ? `; did you mean "${close}"?` : '; see the ONNX Runtime backend README for the supported keys' } }, undefined, true);
    }
  }
}

function checkParameters(config: ModelConfig, gpu: boolean, report: Reporter): void {
  const params = config.parameters ?? {};
  const str = (key: string): string | undefined => params[key]?.string_value ?? (params[key] ? '' : undefined);
  const path = (key: string): PathSegment[] => (params[key]?.string_value !== undefined ? ['parameters', key, 'string_value'] : ['parameters', key]);

  const intParam = (key: string, what: string): number | undefined => {
    const v = str(key);
    if (v === undefined) return undefined;
    const r = parseStoi(v);
    if (r.outOfRange) {
      report(path(key), { messageId: 'parameterIntOutOfRange', data: { key, value: v, what } });
      return undefined;
    }
    if (r.value === undefined) {
      report(path(key), { messageId: 'parameterNotInteger', data: { key, value: v, what } });
      return undefined;
    }
    if (r.prefixOnly) report(path(key), { messageId: 'parameterIntPrefixOnly', data: { key, value: v, readAs: r.value } }, 'warning');
    return r.value;
  };

  const mode = intParam('execution_mode', 'use "0" (sequential) or "1" (parallel)');
  if (mode !== undefined && mode !== 0 && mode !== 1) {
    report(path('execution_mode'), { messageId: 'unknownExecutionMode', data: { mode } });
  }
  intParam('intra_op_thread_count', 'write a number of threads, e.g. "4" (0 lets ONNX Runtime choose)');
  intParam('inter_op_thread_count', 'write a number of threads, e.g. "1" (0 lets ONNX Runtime choose)');
  for (const key of ['enable_mem_arena', 'enable_mem_pattern']) {
    const v = str(key);
    if (v !== undefined && !isBool(v)) report(path(key), { messageId: 'parameterNotBoolean', data: { key, value: v } });
  }

  // The deprecated CUDA keys are read only when a GPU instance is created.
  const deprecated: [string, string[], string][] = [
    ['cudnn_conv_algo_search', ['EXHAUSTIVE', 'HEURISTIC', 'DEFAULT'], 'unsupported cudnn_conv_algo_search value'],
    ['arena_extend_strategy', ['kNextPowerOfTwo', 'kSameAsRequested'], 'unsupported arena_extend_strategy value'],
  ];
  for (const [key, names, triton] of deprecated) {
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
    const n = intParam(key, `use one of ${choices}`);
    if (n !== undefined && (n < 0 || n >= names.length)) {
      report(path(key), { messageId: 'parameterNotAChoice', data: { key, value: n, choices, triton } });
    }
  }
}
