// The lint library: lint paths or text, the rules and how to write one, settings, results.
export { lint, lintSync, lintText, type LintOptions, type LintTextOptions, type SignatureResult } from './engine.js';
export { LintInputError } from './errors.js';
export type { FileResult, InputProblem, LintResult } from './results.js';
export { errorsOnly } from './results.js';
export {
  defineModelRule, defineRepositoryRule, ruleDocsPath,
  type ModelContext, type ModelInfo, type ModelRule, type Report, type RepositoryContext, type RepositoryModel,
  type RepositoryRule, type Rule, type RuleCategory, type RuleLevel, type RuleMeta,
} from './rule.js';
export { RULES, ruleById } from './rules/index.js';
export {
  DEFAULT_SETTINGS, SETTINGS_FILE_NAME, SettingsError, findSettingsFile, loadSettingsFile, parseGpuMemoryFlag, parseRuleFlag,
  parseSettings, settingsJsonSchema, type LintSettings, type RuleSetting,
} from './settings.js';
export { GPU_PRESETS, GPU_PRESET_NAMES, type GpuPreset } from './gpu-presets.js';
export { ruleDocsBaseUrl, ruleDocsUrl } from './docs-url.js';
