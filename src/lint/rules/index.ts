// Every rule tritonc runs, in the order listings show them. Adding a rule: import it here (see rule.ts).
import type { Rule } from '../rule.js';
import { batchDimInDims } from './correctness/batch-dim-in-dims.js';
import { ioDatatype } from './correctness/io-datatype.js';
import { ioName } from './correctness/io-name.js';
import { ioShape } from './correctness/io-shape.js';
import { missingDynamicAxis } from './correctness/missing-dynamic-axis.js';
import { modelUnreadable } from './correctness/model-unreadable.js';
import { syntax } from './correctness/syntax.js';
import { instanceMemory } from './performance/instance-memory.js';
import { queueDelay } from './performance/queue-delay.js';
import { fp16Accuracy } from './suspicious/fp16-accuracy.js';
import { invalidSuppression } from './suspicious/invalid-suppression.js';
import { unusedSuppression } from './style/unused-suppression.js';
import { repoRules } from './catalog-repo.js';
import { coreRules } from './catalog-core.js';

export const RULES: readonly Rule[] = [
  // correctness: Triton refuses to load it
  syntax,
  modelUnreadable,
  missingDynamicAxis,
  batchDimInDims,
  ioName,
  ioDatatype,
  ioShape,
  // suspicious: loads, but probably not what you meant
  fp16Accuracy,
  invalidSuppression,
  // performance
  queueDelay,
  instanceMemory,
  // style
  unusedSuppression,
  // ensembles, accelerators, version directories, auto-complete surprises
  ...repoRules,
  // Triton core's checks of one config: name, backend, batching, sequences, instances, I/O, warmup
  ...coreRules,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}
