// Whether a value read back from outside tritonc's own parse (lint's disk cache) is a config value:
// every field one of ModelConfig's, of its type, at every depth. A value that is not is never used.
import type { ModelConfig } from './model-config.js';
import { loadSchema } from './schema.js';
import { treeFromValue } from '../pbtxt/tree-from-value.js';

/** `value` when it has ModelConfig's shape, else undefined. */
export function asConfigValue(value: unknown): ModelConfig | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  try {
    // The tree is made to check the shape, and dropped: it throws ValueShapeError where a field does not fit.
    treeFromValue(value as Record<string, unknown>, loadSchema().modelConfig);
    return value;
  } catch {
    return undefined;
  }
}
