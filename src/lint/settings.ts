// tritonc.config.json: rule severities and options, the GPU memory budget, the latency budget, the
// tritonserver flags the repository is served with, and whether model files live elsewhere.
// Found by walking up from the linted path (or given with --config), validated with zod; every error
// names the file and the bad key. The JSON Schema in schemas/tritonc.schema.json is generated from
// the same zod schemas (settingsJsonSchema) and a test keeps the two identical.
import { parseJsonText } from '../util/json-text.js';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { didYouMean } from '../pbtxt/suggest.js';
import { GPU_PRESETS, GPU_PRESET_NAMES, gpuPreset, type GpuPreset } from './gpu-presets.js';
import type { Rule } from './rule.js';
import { DEFAULT_SETTINGS, type LintSettings, type RuleLevel, type RuleSetting } from './settings-types.js';

export { DEFAULT_SETTINGS, type LintSettings, type RuleLevel };
import { parseMicroseconds, parseSize } from './units.js';
import { readTextOrThrow } from '../util/read-text.js';
import { pathKind, type PathKind } from '../util/path-kind.js';
import {
  DEFAULT_SERVER_OPTIONS,
  ServerFlagError,
  autoCompleteConfigOf,
  defaultMaxBatchSize,
  parseBackendConfig,
  type ServerOptions,
} from '../triton/server-options.js';
import type { ResolveOptions } from '../triton/effective-config.js';
import { append } from '../util/arrays.js';
import { DEFAULT_GPUS } from '../triton/gpu-count.js';
import { OPENVINO } from '../triton/backend-records.js';
import { DEFAULT_TARGET, TargetError, parseTarget } from '../triton/releases/target.js';

export const SETTINGS_FILE_NAME = 'tritonc.config.json';

/** How settings spell a level: "warn" is the usual short form of warning. */
const LEVEL_NAMES = ['off', 'info', 'warn', 'error'] as const;
type LevelName = (typeof LEVEL_NAMES)[number];

export function levelFromName(name: LevelName | 'warning'): RuleLevel {
  return name === 'warn' ? 'warning' : name;
}

/** A settings problem: exit 2 with `file: key: message`. */
export interface SettingsProblem {
  /** Where in the JSON, e.g. `rules.queue-delay[1].threshold` ('' for the file as a whole). */
  key: string;
  problem: string;
}

/** A settings file tritonc cannot use, with every problem found in it. */
export class SettingsError extends Error {
  readonly problems: SettingsProblem[];
  constructor(
    readonly file: string,
    key: string | SettingsProblem[],
    problem = '',
  ) {
    const problems = typeof key === 'string' ? [{ key, problem }] : key;
    const line = (p: SettingsProblem): string => `${p.key ? `${p.key}: ` : ''}${p.problem}`;
    super(
      problems.length === 1 ? `${file}: ${line(problems[0]!)}` : `${file}: ${problems.length} problems:\n${problems.map((p) => `  ${line(p)}`).join('\n')}`,
    );
    this.problems = problems;
  }

  get key(): string {
    return this.problems[0]?.key ?? '';
  }

  get problem(): string {
    return this.problems[0]?.problem ?? '';
  }
}

// ---- schemas -------------------------------------------------------------------------------------

export const durationSchema = z
  .union([z.string(), z.number().nonnegative()])
  .refine((v) => parseMicroseconds(v) !== undefined, { message: 'expected a duration such as "5ms", "500us" or a number of microseconds' })
  .describe('A duration: "5ms", "500us", "0.1s", or a number of microseconds.')
  .meta({ id: 'duration' });

/** The file's own parts, made on first use (most runs read no settings file). */
let parts: { level: z.ZodType; gpu: z.ZodType; server: z.ZodType } | undefined;
function settingsParts(): NonNullable<typeof parts> {
  if (parts) return parts;
  const sizeSchema = z
    .union([z.string(), z.number().nonnegative()])
    .refine((v) => parseSize(v) !== undefined, { message: 'expected a size such as "24GiB", "80GB" or a number of bytes' })
    .describe('A size: "24GiB", "16 GB", "512MiB", or a number of bytes.')
    .meta({ id: 'size' });

  const levelSchema = z.enum(LEVEL_NAMES).describe('off | info | warn | error').meta({ id: 'level' });

  const gpuSchema = z
    .strictObject({
      memory: sizeSchema.optional().describe('Memory of one GPU, e.g. "24GiB". Wins over preset.'),
      preset: z
        .enum(GPU_PRESET_NAMES as [GpuPreset, ...GpuPreset[]])
        .optional()
        .describe('A GPU whose memory is the budget.'),
      count: z.number().int().min(0).optional().describe('GPUs on each server (default 1; 0 = CPU only).'),
    })
    .describe('The GPUs the repository is served on.');

  const serverSchema = z
    .strictObject({
      disableAutoCompleteConfig: z.boolean().optional().describe('tritonserver --disable-auto-complete-config: configs must be complete as written.'),
      strictModelConfig: z.boolean().optional().describe('tritonserver --strict-model-config (deprecated): true is --disable-auto-complete-config.'),
      backendConfig: z
        .array(
          z.string().superRefine((v, ctx) => {
            try {
              parseBackendConfig(v);
            } catch (e) {
              if (!(e instanceof ServerFlagError)) throw e;
              ctx.addIssue({ code: 'custom', message: e.message });
            }
          }),
        )
        .optional()
        .describe('tritonserver --backend-config values, as Triton spells them: "onnxruntime,default-max-batch-size=8".'),
      modelRepository: z
        .array(z.string().min(1))
        .optional()
        .describe('tritonserver --model-repository paths (relative to this file): one server over all of them.'),
      backendDirectory: z
        .string()
        .min(1)
        .optional()
        .describe(
          "tritonserver --backend-directory (relative to this file): the server's backend libraries; given, a backend with no library there or beside the model is an error.",
        ),
    })
    .describe('The tritonserver command line the repository is served with.');
  return (parts = { level: levelSchema, gpu: gpuSchema, server: serverSchema });
}

function ruleEntrySchema(rule: Rule): z.ZodType {
  const { level } = settingsParts();
  const forms: z.ZodType[] = [level, z.tuple([level])];
  if (rule.meta.options) forms.push(z.tuple([level, rule.meta.options]));
  return z.union(forms as [z.ZodType, z.ZodType, ...z.ZodType[]]).describe(`${rule.meta.description} (docs/rules/${rule.meta.id}.md)`);
}

/** The whole file's schema, per-rule entries included: the source of the published JSON Schema. */
export function settingsSchema(rules: readonly Rule[]): z.ZodType {
  const ruleShape: Record<string, z.ZodType> = {};
  for (const r of [...rules].sort((a, b) => a.meta.id.localeCompare(b.meta.id))) {
    if (r.meta.configurable === false) continue;
    ruleShape[r.meta.id] = ruleEntrySchema(r).optional();
  }
  return z
    .strictObject({
      $schema: z.string().optional(),
      rules: z.strictObject(ruleShape).optional().describe('Rule levels, as "warn" or ["warn", { options }].'),
      gpu: settingsParts().gpu.optional(),
      latencyBudget: durationSchema.optional().describe('The latency budget of one request, e.g. "100ms".'),
      triton: z
        .string()
        .superRefine((v, ctx) => {
          try {
            parseTarget(v);
          } catch (e) {
            if (!(e instanceof TargetError)) throw e;
            ctx.addIssue({ code: 'custom', message: e.message });
          }
        })
        .optional()
        .describe(
          `The Triton the repository runs on, whose release decides every verdict: a container release ("24.10"), a server version ("2.51.0") or an image ("nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3"). Default: the newest release tritonc knows, ${DEFAULT_TARGET.named}.`,
        ),
      server: settingsParts().server.optional(),
      configsOnly: z
        .boolean()
        .optional()
        .describe('This checkout holds the configs; the model files are provisioned separately (tritonc.lock.json stands in for them).'),
      fmt: z
        .strictObject({
          style: z
            .enum(['layout', 'canonical'])
            .optional()
            .describe('layout (default): change indentation, spacing and line breaks only; canonical: also rewrite to the one canonical spelling.'),
        })
        .optional()
        .describe('How tritonc fmt and editor formatting write configs.'),
    })
    .describe('tritonc settings (tritonc.config.json)');
}

/** The JSON Schema published as schemas/tritonc.schema.json. */
export function settingsJsonSchema(rules: readonly Rule[]): Record<string, unknown> {
  const schema = z.toJSONSchema(settingsSchema(rules), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, $id: 'https://tritonc.dev/schemas/tritonc.schema.json', title: 'tritonc.config.json' };
}

// ---- loading -------------------------------------------------------------------------------------

/**
 * The nearest tritonc.config.json at or above `start` (a file or a directory). `kind` says what is at
 * a path: the disk by default; a lint asks its workspace, which answers from listings it already made.
 */
export function findSettingsFile(
  start: string,
  known: Map<string, string | undefined> = new Map(),
  kind: (path: string) => PathKind | undefined = pathKind,
): string | undefined {
  let dir = resolve(start);
  if (kind(dir) !== 'dir') dir = dirname(dir);
  // `known`: the answers for directories already walked (a thousand model directories share their
  // repository's ancestors): each directory is looked at once per run.
  const walked: string[] = [];
  let found: string | undefined;
  for (;;) {
    if (known.has(dir)) {
      found = known.get(dir);
      break;
    }
    walked.push(dir);
    const candidate = join(dir, SETTINGS_FILE_NAME);
    if (kind(candidate) !== undefined) {
      found = candidate;
      break;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const d of walked) known.set(d, found);
  return found;
}

/** Reads and validates a settings file; throws SettingsError. */
export function loadSettingsFile(file: string, rules: readonly Rule[]): LintSettings {
  let text: string;
  try {
    text = readTextOrThrow(file);
  } catch (e) {
    throw new SettingsError(file, '', `cannot read the settings file: ${(e as Error).message}`);
  }
  const read = parseJsonText(text);
  if (!read.ok) throw new SettingsError(file, '', `not valid JSON: line ${read.at.line}, column ${read.at.column}: ${read.message}`);
  return parseSettings(read.value, file, rules);
}

/** Validates a settings value (from a file or a library caller). */
export function parseSettings(json: unknown, file: string, rules: readonly Rule[]): LintSettings {
  const byId = new Map(rules.map((r) => [r.meta.id, r]));
  const result = settingsSchema(rules).safeParse(json);
  if (!result.success) throw settingsIssue(file, result.error.issues, json, byId);
  const value = result.data as {
    gpu?: { memory?: string | number; preset?: GpuPreset; count?: number };
    latencyBudget?: string | number;
    triton?: string;
    server?: ServerBlock;
    configsOnly?: boolean;
    fmt?: { style?: 'layout' | 'canonical' };
  };

  const ruleSettings: Record<string, RuleSetting> = {};
  // Options are kept as written (the engine applies the rule's defaults): take them from the input.
  const rawRules = (json as { rules?: Record<string, unknown> }).rules ?? {};
  for (const [id, entry] of Object.entries(rawRules)) {
    const [name, options] = Array.isArray(entry) ? entry : [entry];
    ruleSettings[id] = options === undefined ? { level: levelFromName(name as LevelName) } : { level: levelFromName(name as LevelName), options };
  }
  const gpu = value.gpu ?? {};
  const memoryBytes = gpu.memory !== undefined ? parseSize(gpu.memory) : gpu.preset ? GPU_PRESETS[gpu.preset] : undefined;
  return {
    file,
    rules: ruleSettings,
    gpu: {
      memoryBytes,
      memorySource: gpu.memory !== undefined ? String(gpu.memory) : gpu.preset,
      count: gpu.count ?? DEFAULT_GPUS,
      countSource: gpu.count !== undefined ? 'gpu.count' : undefined,
    },
    latencyBudgetUs: value.latencyBudget === undefined ? undefined : parseMicroseconds(value.latencyBudget),
    server: serverOptionsOf(value.server ?? {}, value.triton, dirname(resolve(file))),
    configsOnly: value.configsOnly ?? false,
    fmt: { style: value.fmt?.style ?? 'layout' },
  };
}

interface ServerBlock {
  disableAutoCompleteConfig?: boolean;
  strictModelConfig?: boolean;
  backendConfig?: string[];
  modelRepository?: string[];
  backendDirectory?: string;
}

/** The `server` block as ServerOptions: paths are relative to the settings file. */
function serverOptionsOf(server: ServerBlock, triton: string | undefined, base: string): ServerOptions {
  return {
    target: triton === undefined ? DEFAULT_TARGET : parseTarget(triton),
    autoCompleteConfig: autoCompleteConfigOf(server) ?? DEFAULT_SERVER_OPTIONS.autoCompleteConfig,
    backendConfig: (server.backendConfig ?? []).map(parseBackendConfig),
    modelRepositories: (server.modelRepository ?? []).map((p) => resolve(base, p)),
    ...(server.backendDirectory ? { backendDirectory: resolve(base, server.backendDirectory) } : {}),
  };
}

/** What the effective config of a model is computed with, under these settings: the server's flags and GPUs. */
export function resolveOptionsOf(settings: LintSettings): ResolveOptions {
  return {
    // Without a count given, the effective config assumes what lint assumes (triton/gpu-count.ts).
    ...(settings.gpu.countSource ? { gpus: settings.gpu.count } : {}),
    defaultMaxBatchSize: defaultMaxBatchSize(settings.server),
    defaultMaxBatchSizes: { [OPENVINO.name]: defaultMaxBatchSize(settings.server, OPENVINO.name) },
    autoCompleteConfig: settings.server.autoCompleteConfig,
    target: settings.server.target,
  };
}

/** --gpu-memory: a size ("24GiB") or a preset name ("A10G"). */
export function parseGpuMemoryFlag(value: string): { bytes: number; source: string } | undefined {
  const preset = gpuPreset(value);
  if (preset) return { bytes: GPU_PRESETS[preset], source: preset };
  const bytes = parseSize(value);
  return bytes === undefined || bytes === 0 ? undefined : { bytes, source: value };
}

/** --rule id=level, checked against the rules there are. */
export function parseRuleFlag(flag: string, rules: readonly Rule[]): { id: string; level: RuleLevel } {
  const m = /^\s*([^=\s]+)\s*=\s*(\S+)\s*$/.exec(flag);
  if (!m) throw new Error(`--rule ${flag}: expected id=level, e.g. --rule queue-delay=off`);
  const [, id, level] = m as unknown as [string, string, string];
  const rule = rules.find((r) => r.meta.id === id);
  if (!rule) {
    const hint = didYouMean(
      id,
      rules.map((r) => r.meta.id),
    );
    throw new Error(`--rule ${flag}: unknown rule '${id}'${hint ? ` (did you mean '${hint}'?)` : ''}`);
  }
  if (rule.meta.configurable === false) throw new Error(`--rule ${flag}: '${id}' cannot be configured`);
  const name = level === 'warning' ? 'warn' : level;
  if (!(LEVEL_NAMES as readonly string[]).includes(name)) throw new Error(`--rule ${flag}: level must be one of ${LEVEL_NAMES.join(', ')}`);
  return { id, level: levelFromName(name as LevelName) };
}

// ---- error messages ------------------------------------------------------------------------------

function keyText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** Every problem of the file, one per place: a rule entry is re-checked alone once, however many issues it has. */
function settingsIssue(file: string, issues: readonly z.core.$ZodIssue[], json: unknown, rules: Map<string, Rule>): SettingsError {
  const problems: SettingsProblem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const ruleId = issue.path[0] === 'rules' && typeof issue.path[1] === 'string' && rules.has(issue.path[1]) ? issue.path[1] : undefined;
    const place = ruleId ? `rules.${ruleId}` : `${keyText(issue.path)}\0${issue.code === 'unrecognized_keys' ? issue.keys.join() : ''}`;
    if (seen.has(place)) continue;
    seen.add(place);
    append(problems, issueProblems(file, issue, json, rules).problems);
  }
  return new SettingsError(file, problems);
}

function issueProblems(file: string, issue: z.core.$ZodIssue, json: unknown, rules: Map<string, Rule>): SettingsError {
  // A rule entry fails as a union: re-check it alone to say what is wrong with it.
  const path = issue.path;
  if (path[0] === 'rules' && typeof path[1] === 'string' && rules.has(path[1])) {
    const entry = (json as { rules: Record<string, unknown> }).rules[path[1]];
    return ruleEntryIssue(file, path[1], entry, rules.get(path[1])!);
  }
  if (issue.code === 'unrecognized_keys') {
    const where = keyText(path);
    const known = path.length === 1 && path[0] === 'rules' ? [...rules.keys()] : knownKeys(path);
    const what = path[0] === 'rules' && path.length === 1 ? 'unknown rule' : 'unknown key';
    return new SettingsError(
      file,
      issue.keys.map((key) => {
        const hint = didYouMean(key, known);
        return { key: where ? `${where}.${key}` : key, problem: `${what} '${key}'${hint ? ` (did you mean '${hint}'?)` : ''}` };
      }),
    );
  }
  return new SettingsError(file, keyText(path), issue.message);
}

function knownKeys(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return ['$schema', 'rules', 'gpu', 'latencyBudget', 'server', 'configsOnly', 'fmt'];
  if (path[0] === 'fmt') return ['style'];
  if (path[0] === 'gpu') return ['memory', 'preset', 'count'];
  if (path[0] === 'server') return ['disableAutoCompleteConfig', 'strictModelConfig', 'backendConfig', 'modelRepository', 'backendDirectory'];
  return [];
}

function ruleEntryIssue(file: string, id: string, entry: unknown, rule: Rule): SettingsError {
  const key = `rules.${id}`;
  const levelText = `one of ${LEVEL_NAMES.map((l) => `"${l}"`).join(', ')}`;
  const level = Array.isArray(entry) ? entry[0] : entry;
  if (typeof level !== 'string' || !(LEVEL_NAMES as readonly string[]).includes(level)) {
    return new SettingsError(file, Array.isArray(entry) ? `${key}[0]` : key, `expected ${levelText}, or [level, { options }]; got ${JSON.stringify(level)}`);
  }
  if (Array.isArray(entry) && entry.length > 1) {
    if (!rule.meta.options) return new SettingsError(file, `${key}[1]`, `rule '${id}' has no options`);
    if (entry.length > 2) return new SettingsError(file, key, 'expected [level, { options }]');
    const r = rule.meta.options.safeParse(entry[1]);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      if (issue.code === 'unrecognized_keys') {
        const known = Object.keys((rule.meta.options as unknown as { shape?: object }).shape ?? {});
        const hint = didYouMean(issue.keys[0]!, known);
        return new SettingsError(
          file,
          `${key}[1].${issue.keys[0]}`,
          `unknown option '${issue.keys[0]}'${hint ? ` (did you mean '${hint}'?)` : known.length ? ` (options: ${known.join(', ')})` : ''}`,
        );
      }
      return new SettingsError(file, `${key}[1]${issue.path.length ? `.${keyText(issue.path)}` : ''}`, issue.message);
    }
  }
  return new SettingsError(file, key, 'invalid rule entry');
}
