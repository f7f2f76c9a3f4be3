// tritonc's public library API: everything the CLI does is reachable from here.
export type { Diagnostic, Position, Range, Severity, PathSegment, Fix } from './diagnostics.js';
export type { ModelConfig } from './config/model-config.js';
export * as configTypes from './config/model-config.js';
export { parseConfig, hasErrors, type ConfigDocument } from './config/document.js';
export { printConfig } from './config/print.js';
export { loadSchema, type Schema, type SchemaMessage, type SchemaField } from './config/schema.js';
export { formatText, type FormatResult } from './pbtxt/format.js';
export { valuesEqual } from './pbtxt/equal.js';
export * from './onnx/index.js';
export * from './generate/index.js';
export { scanModelDir, selectVersions, listModelDirs, versionOfDirName, type ModelDir, type VersionDir } from './repo/model-dir.js';
export { toProtoJson } from './config/proto-json.js';
export * from './resolve/index.js';
export * as verify from './verify/index.js';
export { runCli } from './cli/main.js';
export { VERSION } from './version.js';
