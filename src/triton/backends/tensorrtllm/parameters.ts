// The `parameters` the TensorRT-LLM backends read from config.pbtxt, and how they read them.
//
// C++ backend (`backend: "tensorrtllm"`): triton-inference-server/tensorrtllm_backend
// inflight_batcher_llm/src/model_instance_state.cc @ c2e65b88 (the last commit before the source moved
// to NVIDIA/TensorRT-LLM triton_backend/inflight_batcher_llm/src/, where the parameter code is the
// same): getExecutorConfigFromParams and the ModelInstanceState constructor, and model_state.cc
// GetParameter<T> (lines 248-334). Every value is a string_value; a key that is not there throws
// "Cannot find parameter with name: <key>", which most call sites catch, log ("<key> is not specified,
// will use default value ...") and replace by the default. A value that does not parse takes the same
// path, with the same "not specified" warning: a typo in a key or a value silently becomes the default.
//
// Python runtime (`backend: "python"` with all_models/inflight_batcher_llm/tensorrt_llm/1/model.py):
// read_parameter_as_type (model.py lines 126-147) treats "" and any "${...}" as unset, reads a bool as
// value.lower() in ["1", "true"], and is stricter where noted on each entry.

export type TrtllmValueType =
  | 'int' // std::stoi: leading spaces, a sign, digits; the rest of the text is ignored ("2.5" is 2)
  | 'uint' // std::stoul / stoull: as int, but "-1" wraps around instead of failing
  | 'float' // std::stof: a leading number, the rest ignored
  | 'bool' // exactly True/true/TRUE/1 or False/false/FALSE/0, else "Cannot convert <v> to a boolean."
  | 'enum' // exact, case-sensitive string comparison
  | 'string'
  | 'int-list' // utils.cc csvStrToVecInt: comma-separated ints
  | 'int-groups' // utils::split on ';' (one group per model instance), each a comma-separated list
  | 'brace-groups'; // utils.cc csvStrToVecVecInt: "{0, 0, 0}, {0, 1}", every group closed by '}'

export interface TrtllmParameter {
  type: TrtllmValueType;
  /** Accepted values of an enum, as the C++ backend compares them. */
  values?: readonly string[];
  /**
   * What the backend uses when the key is missing or its value does not parse (as its log says): a
   * value, as the config would write it. Absent where the backend has none of its own (`unset`) or
   * where a missing or unreadable value fails the load.
   */
  default?: string;
  /** With `default`: what the backend uses when max_beam_width is above 1 (decoding_mode). */
  defaultWithBeams?: string;
  /**
   * The backend leaves the setting unset when the key is missing or unreadable (std::nullopt, or an
   * empty path), and TensorRT-LLM decides; the comment on the entry says what that does.
   */
  unset?: true;
  /** A value the backend cannot read fails the load (rather than falling back to the default). */
  badFails?: boolean;
  /** The load fails when the key is missing ("Cannot find parameter with name: <key>"). */
  required?: boolean;
  /** The first release whose backend reads the key (tensorrtllm_backend tags v0.9.0 to v0.19.0); absent: v0.9.0 or before. */
  since?: string;
  /** Range checks of TensorRT-LLM's executor: a value outside fails the load. */
  min?: number;
  minExclusive?: number;
  maxExclusive?: number;
  /** The backend never reads it (kept in templates for compatibility, or read by another component). */
  unread?: string;
  /** The source line of model_instance_state.cc (or model_state.cc) @ c2e65b88 that reads it. */
  source: string;
}

/**
 * A placeholder fill_template.py left unfilled (string.Template's braced form, which the templates use):
 * the backends see this literal text.
 */
export const UNFILLED_PLACEHOLDER = /\$\{([_a-zA-Z][_a-zA-Z0-9]*)\}/;

/** Which TensorRT-LLM runtime reads a config's parameters: the C++ backend, its Python runtime, or neither. */
export function trtllmRuntime(backend: string, params: Readonly<Record<string, unknown>>): 'cpp-backend' | 'python-runtime' | undefined {
  return backend === 'tensorrtllm' ? 'cpp-backend' : isTrtllmPythonRuntime(backend, params) ? 'python-runtime' : undefined;
}

const BOOL_TRUE = ['True', 'true', 'TRUE', '1'] as const;
const BOOL_FALSE = ['False', 'false', 'FALSE', '0'] as const;
/** model_state.cc GetParameter<bool>: the only spellings the C++ backend accepts. */
export const TRTLLM_BOOL_SPELLINGS: readonly string[] = [...BOOL_TRUE, ...BOOL_FALSE];

export const GPT_MODEL_TYPES = ['V1', 'v1', 'inflight_batching', 'inflight_fused_batching'] as const;
export const BATCH_SCHEDULER_POLICIES = ['max_utilization', 'guaranteed_no_evict'] as const;
export const DECODING_MODES = ['top_k', 'top_p', 'top_k_top_p', 'beam_search', 'medusa', 'redrafter', 'lookahead', 'eagle'] as const;

/**
 * The releases whose parameter reading is known (each checked at its tag: tensorrtllm_backend
 * inflight_batcher_llm/src/model_instance_state.cc, the source's home until v0.19.0; later releases
 * build it from NVIDIA/TensorRT-LLM triton_backend/, read the same way up to 1.2.0rc8), oldest first.
 * The table below is of the newest; `since` says from which release a key is read.
 */
export const TRTLLM_RELEASES = ['0.9.0', '0.10.0', '0.11.0', '0.12.0', '0.13.0', '0.14.0', '0.15.0', '0.16.0', '0.17.0', '0.18.0', '0.19.0', '1.2.0'] as const;

/** Whether `release`'s backend reads `p` (a release given as major.minor.patch). */
export function readIn(p: TrtllmParameter, release: string): boolean {
  if (!p.since) return true;
  const parts = (v: string) => v.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const [a, b] = [parts(release), parts(p.since)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

export const TRTLLM_PARAMETERS: Readonly<Record<string, TrtllmParameter>> = {
  gpt_model_type: { type: 'enum', values: GPT_MODEL_TYPES, required: true, badFails: true, source: 'model_instance_state.cc:59-79' },
  // Unset: no decoder engine (an encoder-only model), and no encoder engine.
  gpt_model_path: { type: 'string', unset: true, source: 'model_instance_state.cc:743-756' },
  encoder_model_path: { type: 'string', since: '0.11.0', unset: true, source: 'model_instance_state.cc:757-769' },
  max_beam_width: { type: 'int', default: '1', minExclusive: 0, source: 'model_instance_state.cc:459-468' },
  iter_stats_max_iterations: { type: 'int', since: '0.10.0', default: '1000', min: 0, source: 'model_instance_state.cc:470-480' },
  request_stats_max_iterations: { type: 'int', since: '0.10.0', default: '0', min: 0, source: 'model_instance_state.cc:482-492' },
  enable_trt_overlap: { type: 'bool', default: 'false', source: 'model_instance_state.cc:494-501' },
  normalize_log_probs: { type: 'bool', default: 'true', source: 'model_instance_state.cc:503-512' },
  enable_chunked_context: { type: 'bool', default: 'false', source: 'model_instance_state.cc:518-533' },
  exclude_input_in_output: { type: 'bool', default: 'false', source: 'model_instance_state.cc:797-807' },
  cancellation_check_period_ms: { type: 'int', since: '0.10.0', default: '100', source: 'model_instance_state.cc:809-819' },
  stats_check_period_ms: { type: 'int', since: '0.10.0', default: '100', source: 'model_instance_state.cc:821-831' },
  // 0: a busy loop.
  recv_poll_period_ms: { type: 'int', since: '0.13.0', default: '0', source: 'model_instance_state.cc:682-690' },
  gpu_weights_percent: { type: 'float', since: '0.10.0', default: '1.0', source: 'model_instance_state.cc:649-657' },
  batch_scheduler_policy: { type: 'enum', values: BATCH_SCHEDULER_POLICIES, default: 'guaranteed_no_evict', source: 'model_instance_state.cc:354-382' },
  // Unset: no limit (kv_cache_free_gpu_mem_fraction decides).
  max_tokens_in_paged_kv_cache: { type: 'int', unset: true, minExclusive: 0, source: 'model_instance_state.cc:83-94' },
  kv_cache_free_gpu_mem_fraction: { type: 'float', default: '0.9', minExclusive: 0, maxExclusive: 1, source: 'model_instance_state.cc:96-107' },
  // Unset: no fraction, which an encoder-decoder model needs.
  cross_kv_cache_fraction: { type: 'float', since: '0.14.0', unset: true, minExclusive: 0, maxExclusive: 1, source: 'model_instance_state.cc:109-118' },
  // 0: no offloading.
  kv_cache_host_memory_bytes: { type: 'uint', since: '0.10.0', default: '0', source: 'model_instance_state.cc:120-128' },
  kv_cache_onboard_blocks: { type: 'bool', since: '0.10.0', default: 'true', source: 'model_instance_state.cc:130-139' },
  max_attention_window_size: { type: 'int-list', default: 'max_sequence_length', minExclusive: 0, source: 'model_instance_state.cc:141-152' },
  // Unset: no sink tokens.
  sink_token_length: { type: 'int', since: '0.10.0', unset: true, minExclusive: 0, source: 'model_instance_state.cc:154-165' },
  enable_kv_cache_reuse: { type: 'bool', default: 'true', source: 'model_instance_state.cc:167-176' },
  multi_block_mode: { type: 'bool', since: '0.15.0', default: 'true', source: 'model_instance_state.cc:191-200' },
  enable_context_fmha_fp32_acc: { type: 'bool', since: '0.15.0', default: 'false', source: 'model_instance_state.cc:202-211' },
  cuda_graph_mode: { type: 'bool', since: '0.15.0', default: 'false', source: 'model_instance_state.cc:213-222' },
  cuda_graph_cache_size: { type: 'int', since: '0.15.0', default: '0', min: 0, source: 'model_instance_state.cc:224-233' },
  // Unset: every visible GPU (the rule's gpuDeviceIdsDefaults says so), and participant ids the
  // backend chooses itself (participantIdsDefaults).
  gpu_device_ids: { type: 'int-groups', unset: true, source: 'model_state.cc:95-120' },
  participant_ids: { type: 'int-groups', unset: true, source: 'model_state.cc:122-147' },
  num_nodes: { type: 'int', since: '0.19.0', default: '1', source: 'model_instance_state.cc:273-282' },
  executor_worker_path: {
    type: 'string',
    since: '0.10.0',
    default: '/opt/tritonserver/backends/tensorrtllm/trtllmExecutorWorker',
    source: 'model_state.cc:180-190',
  },
  lora_cache_max_adapter_size: { type: 'int', default: '64', source: 'model_instance_state.cc:302-310' },
  lora_cache_optimal_adapter_size: { type: 'int', default: '8', source: 'model_instance_state.cc:312-320' },
  lora_cache_gpu_memory_fraction: { type: 'float', default: '0.05', source: 'model_instance_state.cc:321-329' },
  lora_cache_host_memory_bytes: { type: 'uint', default: '1 GB', source: 'model_instance_state.cc:330-338' },
  // Unset: no prefetching.
  lora_prefetch_dir: { type: 'string', since: '0.19.0', unset: true, source: 'model_instance_state.cc:339-347' },
  speculative_decoding_fast_logits: { type: 'bool', since: '0.15.0', default: 'false', source: 'model_instance_state.cc:384-408' },
  decoding_mode: { type: 'enum', values: DECODING_MODES, default: 'top_k_top_p', defaultWithBeams: 'beam_search', source: 'model_instance_state.cc:545-594' },
  // The choices of the mc_sim_7b_63 Medusa model, by name.
  medusa_choices: { type: 'brace-groups', default: 'mc_sim_7b_63', source: 'model_instance_state.cc:596-609' },
  eagle_choices: { type: 'brace-groups', since: '0.16.0', default: 'mc_sim_7b_63', source: 'model_instance_state.cc:611-625' },
  lookahead_window_size: { type: 'uint', since: '0.19.0', badFails: true, source: 'model_instance_state.cc:627-647' },
  lookahead_ngram_size: { type: 'uint', since: '0.19.0', badFails: true, source: 'model_instance_state.cc:627-647' },
  lookahead_verification_set_size: { type: 'uint', since: '0.19.0', badFails: true, source: 'model_instance_state.cc:627-647' },
  // Guided decoding (from v0.19): read without a try, so the keys must be there, whatever their value.
  tokenizer_dir: { type: 'string', since: '0.19.0', required: true, source: 'model_instance_state.cc:410-453' },
  xgrammar_tokenizer_info_path: { type: 'string', since: '0.19.0', required: true, source: 'model_instance_state.cc:410-453' },
  guided_decoding_backend: { type: 'enum', since: '0.19.0', values: ['xgrammar'], required: true, source: 'model_instance_state.cc:410-453' },
  // In the templates, read by others: python_backend (when the model runs on the Python runtime).
  FORCE_CPU_ONLY_INPUT_TENSORS: {
    type: 'string',
    unread: 'python_backend reads it when the model runs on the Python runtime',
    source: 'python_backend src/python_be.cc ModelState',
  },
  // Obsolete: the C++ backend means to refuse it and swallows its own error (model_state.cc:168-178).
  worker_path: { type: 'string', unread: 'obsolete since v0.10, replaced by executor_worker_path', source: 'model_state.cc:168-178' },
};

/**
 * The value the backend uses for `key` when it is missing or unreadable in a config of these
 * parameters; undefined where it has none of its own (`unset`, or the load fails).
 */
export function trtllmDefault(key: string, params: Readonly<Record<string, { string_value?: string } | undefined>>): string | undefined {
  const p = TRTLLM_PARAMETERS[key];
  if (p?.defaultWithBeams === undefined) return p?.default;
  const beams = leadingNumber(params.max_beam_width?.string_value ?? '', 'int');
  return beams && beams.value > 1 ? p.defaultWithBeams : p.default;
}

/**
 * Guided decoding is off, silently, when either key is "" or exactly its own placeholder
 * (model_instance_state.cc:410-453): that is how an untouched template leaves them.
 */
export function guidedDecodingOff(text: (key: string) => string | undefined): boolean {
  const off = (k: string) => text(k) === undefined || text(k) === '' || text(k) === `\${${k}}`;
  return off('guided_decoding_backend') || off('xgrammar_tokenizer_info_path');
}

/** What std::stoi / stol / stof read from the front of a value: the number, and whether text followed. */
export function leadingNumber(value: string, kind: 'int' | 'float'): { value: number; rest: string } | undefined {
  const m = kind === 'int' ? /^\s*([+-]?\d+)/.exec(value) : /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf(?:inity)?|nan))/i.exec(value);
  if (!m) return undefined;
  return { value: Number(/^[+-]?inf/i.test(m[1]!) ? (m[1]!.startsWith('-') ? -Infinity : Infinity) : m[1]), rest: value.slice(m[0].length) };
}

/** What goes wrong with a brace-groups value. */
export type BraceGroupsProblem = { kind: 'noGroup' } | { kind: 'textOutside'; text: string } | { kind: 'notIntegers'; group: string };

/** Where a brace-groups value goes wrong (csvStrToVecVecInt drops a group with no closing '}'). */
export function braceGroupsProblem(value: string): BraceGroupsProblem | undefined {
  const groups = value.match(/\{[^{}]*\}/g) ?? [];
  if (!groups.length) return { kind: 'noGroup' };
  const rest = value.replace(/\{[^{}]*\}/g, '').replace(/[\s,]/g, '');
  if (rest) return { kind: 'textOutside', text: JSON.stringify(rest) };
  for (const g of groups) if (!/^\{\s*-?\d+(\s*,\s*-?\d+)*\s*\}$/.test(g)) return { kind: 'notIntegers', group: g };
  return undefined;
}

// ---- the Python runtime --------------------------------------------------------------------------

/**
 * Where the Python-runtime model (tensorrt_llm/1/model.py @ c2e65b88) reads a key differently from the
 * C++ backend: enums compared case-insensitively and a bad value fails the load; decoding_mode also
 * takes `auto`; choices parsed as JSON lists (a bad one fails); gpu_device_ids one comma list.
 */
export const PYTHON_RUNTIME_ENUMS: Readonly<Record<string, readonly string[]>> = {
  gpt_model_type: ['v1', 'inflight_batching', 'inflight_fused_batching'], // model.py:809-819
  batch_scheduler_policy: BATCH_SCHEDULER_POLICIES, // model.py:799-806
  decoding_mode: [...DECODING_MODES, 'auto'], // model.py:822-844
};

/**
 * Whether a `backend: "python"` config is TensorRT-LLM's Python-runtime model: the same template as
 * the C++ one, so it carries the engine keys the Python model reads (model.py get_executor_config).
 */
function isTrtllmPythonRuntime(backend: string, params: Readonly<Record<string, unknown>>): boolean {
  return backend === 'python' && ('gpt_model_type' in params || 'gpt_model_path' in params) && 'batch_scheduler_policy' in params;
}
