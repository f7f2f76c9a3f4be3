// Triton core's own load-time checks of one config (triton-rules.md §2.5-§3.10), one rule each, in
// the order core runs them: name and backend, batching and scheduling, instances, I/O, the rest.
import type { Rule } from '../rule.js';
import { batchIo } from './correctness/batch-io.js';
import { instanceGroup } from './correctness/instance-group.js';
import { ioDims } from './correctness/io-dims.js';
import { maxBatchSize } from './correctness/max-batch-size.js';
import { modelFilename } from './correctness/model-filename.js';
import { modelMetrics } from './correctness/model-metrics.js';
import { modelWarmup } from './correctness/model-warmup.js';
import { nameMatchesDirectory } from './correctness/name-matches-directory.js';
import { platformBackend } from './correctness/platform-backend.js';
import { preferredBatchSize } from './correctness/preferred-batch-size.js';
import { priorityQueue } from './correctness/priority-queue.js';
import { responseCache } from './correctness/response-cache.js';
import { sequenceBatching } from './correctness/sequence-batching.js';

export const coreRules: Rule[] = [
  nameMatchesDirectory,
  platformBackend,
  modelFilename,
  maxBatchSize,
  preferredBatchSize,
  priorityQueue,
  sequenceBatching,
  responseCache,
  modelMetrics,
  instanceGroup,
  ioDims,
  batchIo,
  modelWarmup,
];
