// Triton's load-time error messages (as core and the ONNX Runtime backend word them) mapped to the
// tritonc lint rule that catches the same mistake before a load, so a failed
// `verify --runtime docker|server` can say "tritonc lint would have told you: <rule>". The table below
// holds what needs more than a rule's words (a condition, the machine's problems); any other message is
// matched against the Triton messages each rule quotes (meta.prevents, which
// test/server/quoted-messages-real-triton.test.ts holds to the real server's words).
import { RULES } from '../lint/rules/index.js';
import { backendRecord } from '../triton/backend-records.js';
import type { TritonMessage } from './types.js';

export interface TritonMessageRule {
  ruleId?: string;
  pattern: RegExp;
  /** Extra condition on the match (e.g. rank off by exactly one means a batch dim in dims). */
  when?: (m: RegExpExecArray) => boolean;
  /** The line is about the machine or the container, not the config: verify exits 2, not 1. */
  environment?: boolean | ((m: RegExpExecArray) => boolean);
  /** The backend whose library the server lacks (the match's first group), when `environment` holds. */
  missingBackend?: true;
}

/** First match wins, so the specific entries come before the general ones. */
export const TRITON_MESSAGE_RULES: readonly TritonMessageRule[] = [
  // protobuf's text-format parser (text_format.cc), and core's summary of it (ReadTextProto). A field the
  // server's release does not have (its model_config.proto is older) is field-release's.
  { ruleId: 'field-release', pattern: /Error parsing text-format inference\.ModelConfig: \d+:\d+: Message type "[^"]*" has no field named "[^"]*"\./ },
  { ruleId: 'syntax', pattern: /Error parsing text-format inference\.ModelConfig: \d+:\d+: / },
  { ruleId: 'syntax', pattern: /failed to read text proto from / },
  { ruleId: 'syntax', pattern: /Invalid config override: / },
  // ORT's CompareDimsSupported: the batch dim written into dims makes the config's rank one more than the model's.
  {
    ruleId: 'batch-dim-in-dims',
    pattern: /the model expects (\d+) dimensions \(shape [^)]*\) but the model configuration specifies (\d+) dimensions \(an initial batch dimension/,
    when: (m) => Number(m[2]) === Number(m[1]) + 1,
  },
  {
    ruleId: 'missing-dynamic-axis',
    pattern: /for the model to support batching the shape should have at least 1 dimension and the first dimension must be -1/,
  },
  { ruleId: 'missing-dynamic-axis', pattern: /model does not support batching while non-zero max_batch_size is specified/ },
  { ruleId: 'io-shape', pattern: /the model expects \d+ dimensions \(shape [^)]*\) but the model configuration specifies \d+ dimensions/ },
  { ruleId: 'io-shape', pattern: /scalar tensor '[^']*', should only provide 1 in the model configuration/ },
  { ruleId: 'io-shape', pattern: /for ragged input '[^']*'/ },
  {
    ruleId: 'io-dims',
    pattern:
      /model (?:input|output) (?:'[^']*' )?(?:has different (?:size|number of variable-size dimensions) for dims and reshape|must specify 'dims'|(?:reshape )?dimension(?:s)? must be integer >= 1|cannot have empty reshape)/,
  },
  // Before 24.07 core names no tensor here (core-releases.ts ioSubject).
  { ruleId: 'io-dims', pattern: /model (?:input|output) (?:'[^']*' )?must specify 'data_type'|model (?:input|output) must specify 'name'/ },
  { ruleId: 'io-datatype', pattern: /configuration expects datatype \S+ for (?:input|output) '[^']*', model provides \S+/ },
  { ruleId: 'io-name', pattern: /unexpected inference (?:input|output) '[^']*', allowed (?:inputs|outputs) are/ },
  { ruleId: 'io-name', pattern: /configuration expects \d+ inputs, model provides \d+/ },
  { ruleId: 'name-matches-directory', pattern: /unexpected directory name '[^']*' for model '[^']*', directory name must equal model name/ },
  { ruleId: 'preferred-batch-size', pattern: /dynamic batching preferred size must be (?:positive|<= max batch size)/ },
  { ruleId: 'max-batch-size', pattern: /'max_batch_size' must be non-negative value/ },
  { ruleId: 'platform-backend', pattern: /unexpected platform type '[^']*' for |unexpected 'platform' and 'backend' pair/ },
  {
    ruleId: 'accelerators',
    pattern:
      /unknown Execution Accelerator '[^']*' is requested|is provided for TensorRT Execution Accelerator|unsupported precision mode '[^']*' is requested/,
  },
  { ruleId: 'version-dirs', pattern: /at least one version must be available under the version policy of model/ },
  // The ONNX Runtime backend's words for a version without its model file (tritonserver 2.51): a
  // version directory's problem first (model-unreadable quotes the same words for a file it cannot read).
  { ruleId: 'version-dirs', pattern: /^(?:.*: )?failed to stat file / },
  // core src/backend_model.cc (r24.10 TritonModel::Create): no library for the config's backend where
  // core looks. For a backend Triton ships (one tritonc has a record of) it is the server's
  // installation that lacks it, the machine's; for any other name the config's (a typo, or a custom
  // backend whose library is not beside the model).
  {
    ruleId: 'backend-library',
    pattern: /unable to find backend library for backend '([^']*)', try specifying runtime on the model configuration/,
    environment: (m) => backendRecord(m[1]) !== undefined,
    missingBackend: true,
  },
  // A GPU id with no GPU at all in the list of supported ones: the machine (or the container) has none.
  {
    pattern: /specifies invalid or unsupported gpu id \d+\. GPUs with at least the minimum required CUDA compute compatibility of [\d.]+ are:\s*;?$/,
    environment: true,
  },
  { ruleId: 'instance-group', pattern: /has kind KIND_(?:CPU|MODEL) but specifies one or more GPUs|specifies invalid or unsupported gpu id/ },
  // The machine, not the config (core ValidateInstanceGroup): no GPU in the container, a CPU-only build,
  // Docker's GPU plumbing.
  { pattern: /has kind KIND_GPU but no GPUs are available/, environment: true },
  { pattern: /has kind KIND_GPU but server does not support GPUs/, environment: true },
  { pattern: /could not select device driver "[^"]*" with capabilities: \[\[gpu\]\]/, environment: true },
  { pattern: /nvidia-container-cli: |unknown or invalid runtime name: nvidia|failed to discover GPU vendor/, environment: true },
  { pattern: /CUDA driver version is insufficient|no CUDA-capable device is detected|unable to get number of CUDA devices/, environment: true },
  // Anything the Docker daemon itself refuses (a port taken, an image it cannot pull) is the machine's.
  { pattern: /^docker: Error response from daemon: /, environment: true },
];

export function classifyTritonMessage(text: string): { ruleId?: string; environment?: boolean; missingBackend?: string } {
  for (const rule of TRITON_MESSAGE_RULES) {
    const m = rule.pattern.exec(text);
    if (!m || (rule.when && !rule.when(m))) continue;
    const environment = typeof rule.environment === 'function' ? rule.environment(m) : rule.environment === true;
    if (environment) return { environment: true, ...(rule.missingBackend ? { missingBackend: m[1]! } : {}) };
    return rule.ruleId ? { ruleId: rule.ruleId } : {};
  }
  const lines = text.split('\n');
  const quoted = quotedMessages().find((q) => lines.some((line) => containsInOrder(line, q.parts)));
  return quoted ? { ruleId: quoted.ruleId } : {};
}

/** Fewer fixed characters than this say too little to name a rule ("<name>: <reason>"). */
const MIN_QUOTED_TEXT = 16;
let quotedCache: { ruleId: string; parts: string[] }[] | undefined;

/**
 * Each rule's quoted Triton messages as their fixed texts, in order: a `<placeholder>` stands for any
 * text. Built once, on the first message the table does not know.
 */
function quotedMessages(): { ruleId: string; parts: string[] }[] {
  quotedCache ??= RULES.flatMap((rule) =>
    rule.meta.prevents.flatMap((quote) => {
      const parts = quote
        .trim()
        .split(/<[^<>]*>/)
        .filter(Boolean);
      return parts.join('').length < MIN_QUOTED_TEXT ? [] : [{ ruleId: rule.meta.id, parts }];
    }),
  );
  return quotedCache;
}

/**
 * Whether `line` holds `parts` in this order (each found after the one before; what lies between is
 * the placeholders' text). The leftmost match of each is the one to take, so one pass decides it,
 * linear in the line, where a regular expression with several open gaps can backtrack on a long line.
 */
function containsInOrder(line: string, parts: readonly string[]): boolean {
  let from = 0;
  for (const part of parts) {
    const at = line.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

// Triton (glog / absl) log prefix: severity letter, MMDD, time, thread id, file:line].
const LOG_PREFIX = /^([EWIF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+\s+[^\s\]]+:\d+\]\s?/;

/**
 * A log line without its prefix and without the quotes recent Triton versions put around messages:
 * the message is then a JSON string (common src/logging.cc Logger::Logger escapes messages unless
 * TRITON_SERVER_ESCAPE_LOG_MESSAGES=0; include/triton/common/logging.h LogMessage), so it is read as one.
 */
export function cleanLogLine(line: string): string {
  const text = line
    .replace(LOG_PREFIX, '')
    .replace(/^\[libprotobuf ERROR [^\]]*\]\s*/, '')
    .trim();
  if (text.length > 1 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'string') return value;
    } catch {
      // Not a JSON string after all (an unescaped message that happens to be quoted): keep it as it is.
    }
  }
  return text;
}

/** Whether a container output line reports an error: Triton's E/F lines, protobuf errors, Docker's own. */
export function isErrorLine(line: string): boolean {
  const m = LOG_PREFIX.exec(line);
  if (m) return m[1] === 'E' || m[1] === 'F';
  return /^\[libprotobuf ERROR/.test(line) || /^docker: Error response from daemon:/.test(line) || /^error: /i.test(line);
}

/**
 * Error lines a server logs that say nothing about the model: core src/server.cc (InferenceServer::Init)
 * logs "CudaDriverHelper has not been initialized." at start on a machine without a CUDA driver, and
 * goes on to serve CPU models (seen from tritonserver 2.51.0 on such a machine). With metrics on (a
 * container's default), DCGM prints "Error: Failed to initialize NVML" on such a machine (a string of
 * libdcgm 3.2.6, which the 2.51.0 wheel ships), and core src/metrics.cc then warns "DCGM unable to start".
 */
const NOT_ABOUT_THE_MODEL = [/^CudaDriverHelper has not been initialized\.$/, /^Error: Failed to initialize NVML$/];

/** The error lines of a container's output (or a server's answer), cleaned and mapped to rule ids. */
export function mapTritonLog(lines: readonly string[]): TritonMessage[] {
  const out: TritonMessage[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    if (!isErrorLine(line)) continue;
    const text = cleanLogLine(line);
    if (!text || seen.has(text) || NOT_ABOUT_THE_MODEL.some((p) => p.test(text))) continue;
    seen.add(text);
    out.push({ text, ...classifyTritonMessage(text) });
  }
  return out;
}

/** A load error answered by a server (one message, possibly several lines), mapped line by line. */
export function mapErrorText(text: string): TritonMessage[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => ({ text: l, ...classifyTritonMessage(l) }));
}
