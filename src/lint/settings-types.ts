// What the settings are, as data: the shape a settings file is parsed into and the defaults. Kept
// apart from the parsing (settings.ts) so that the rule contract (rule.ts) can name them without a
// circle: settings.ts needs the rules to validate their options.
import type { Severity } from '../diagnostics.js';
import { DEFAULT_SERVER_OPTIONS, type ServerOptions } from '../triton/server-options.js';
import { DEFAULT_GPUS } from '../triton/gpu-count.js';

/** What a settings file or --rule may set a rule to. */
export type RuleLevel = Severity | 'off';

export interface RuleSetting {
  level: RuleLevel;
  /** Raw options as written; the engine parses them with the rule's schema (already validated here). */
  options?: unknown;
}

export interface LintSettings {
  /** The settings file these came from, if any. */
  file: string | undefined;
  rules: Record<string, RuleSetting>;
  gpu: {
    /** Memory per GPU in bytes, from gpu.memory, a preset or --gpu-memory; undefined = no budget. */
    memoryBytes: number | undefined;
    /** How the budget was given, for messages: "24GiB", "A10G". */
    memorySource: string | undefined;
    /** GPUs per server (default 1); 0 means a CPU-only server. */
    count: number;
    /** Where the count was given ("--gpus", "gpu.count"); undefined when it is the default. */
    countSource: string | undefined;
  };
  /** End-to-end latency budget per request, microseconds. */
  latencyBudgetUs: number | undefined;
  /** The tritonserver flags the repository is served with (settings `server`, the command line). */
  server: ServerOptions;
  /**
   * This checkout holds the configs; model files are provisioned separately (settings `configsOnly`,
   * --configs-only): missing versions and model files are not errors, the lock file stands in for them.
   */
  configsOnly: boolean;
  /** How `fmt` (and editor formatting) spells things: layout only (the default), or canonical. */
  fmt: { style: 'layout' | 'canonical' };
}

export const DEFAULT_SETTINGS: LintSettings = Object.freeze({
  file: undefined,
  rules: {},
  gpu: { memoryBytes: undefined, memorySource: undefined, count: DEFAULT_GPUS, countSource: undefined },
  latencyBudgetUs: undefined,
  server: DEFAULT_SERVER_OPTIONS,
  configsOnly: false,
  fmt: { style: 'layout' as const },
});
