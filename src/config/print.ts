// ModelConfig value -> canonical config.pbtxt text.
import { printTree } from '../pbtxt/printer.js';
import { treeFromValue } from '../pbtxt/tree-from-value.js';
import type { ModelConfig } from './model-config.js';
import { loadSchema } from './schema.js';

/**
 * Prints a config in canonical layout. Every field present in the value is printed, zeros included
 * (`max_batch_size: 0` says "no batching" on purpose; proto3's own printers drop it).
 */
export function printConfig(value: ModelConfig): string {
  return printTree(treeFromValue(value as Record<string, unknown>, loadSchema().modelConfig));
}
