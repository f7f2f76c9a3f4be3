// Whether a value read back from outside tritonc's own parse (lint's disk cache) is a config value:
// every field one of ModelConfig's, of its type, at every depth. A value that is not is never used.
import type { ModelConfig } from './model-config.js';
import { loadSchema } from './schema.js';
import { valueShapeProblem } from '../pbtxt/tree-from-value.js';

/** `value` when it has ModelConfig's shape, else undefined. */
export function asConfigValue(value: unknown): ModelConfig | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return valueShapeProblem(value, loadSchema().modelConfig) === undefined ? value : undefined;
}
