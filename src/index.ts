// tritonc's library API: the documented surface (docs/api.md), like ESLint's lib/api.js. Everything
// else is internal and may change; the command line is the subpath `tritonc/cli`.

// Findings and results: plain data, the same for every consumer.
export type { Diagnostic, Fix, TextEdit, Position, Range, Severity, PathSegment, FileResult, InputProblem, LintResult, RuleDescriptor } from './diagnostics.js';

// Lint: paths on disk, or text laid over the disk (an editor's buffer).
export { lint, lintSync, lintText, type LintOptions, type LintTextOptions } from './lint/engine.js';
export { LintInputError } from './lint/errors.js';
export { SettingsError, type LintSettings } from './lint/settings.js';
export { RULES } from './lint/rules/index.js';
export {
  defineModelRule,
  defineRepositoryRule,
  type Rule,
  type RuleMeta,
  type ModelRule,
  type RepositoryRule,
  type ModelContext,
  type RepositoryContext,
  type Report,
  type MessageOf,
} from './lint/rule.js';
export { applyEdits } from './config/text-edits.js';
export { formatReport, REPORT_FORMATS, type ReportFormat } from './report/index.js';

// The repository read once: overlays, caching across runs.
export { Workspace } from './workspace/workspace.js';

// Config files: parse, print, format.
export type { ModelConfig } from './config/model-config.js';
export { parseConfig, type ConfigDocument } from './config/document.js';
export { printConfig } from './config/print.js';
export { formatText, type FormatResult } from './config/format.js';

// ONNX models: the signature, read from the header without loading the weights.
export { readSignature, readSignatureSync, ModelReadError, OnnxReadError, type ModelSignature, type TensorInfo } from './onnx/index.js';
export { readOpenVinoSync } from './openvino/index.js';
export { readSavedModelSync } from './savedmodel/index.js';

// What Triton would do: generate a config, the effective config it loads.
export { generateConfig, type GenerateInput, type GenerateResult } from './generate/generate.js';
export type { GenerateOptions } from './generate/options.js';
export { resolveModelDir } from './workspace/index.js';
export { clientRun as generateClients, type ClientRun, type ClientFile } from './client/run.js';
export { tritonConfigJson, type ResolveOptions, type ResolveResult } from './triton/index.js';

// Load for real: ONNX Runtime, a Triton container, a running server.
export { verifyModel, type VerifyOptions, type VerifyReport } from './verify/index.js';

// Re-lint on change.
export { startWatch, type WatchHandle, type WatchOptions } from './watch/watch.js';
export { WatchSession, type RunReport, type WatchEvent } from './watch/session.js';

export { VERSION } from './version.js';
