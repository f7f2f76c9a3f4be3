// The custom batching library a model names with the TRITON_BATCH_STRATEGY_PATH parameter (core
// src/backend_model.cc TritonModel::Create, without sequence batching: sequence-batching reports it
// with one). Core takes the value as the server process's path: a relative one is read from
// tritonserver's working directory, never the model directory. Before 26.06 core checks only that the
// file exists ("Batching library path not found: <path>", r24.10 backend_model.cc:193-203); from 26.06
// it first refuses a path that is not inside the model directory (IsChildPathEscapingParentPath over
// weakly_canonical paths, r26.06 backend_model.cc:195-213; triton/core-releases.ts). An absolute path
// is the server's: tritonc finds the model directory in it by its name, and where it does, looks for
// the library there.
import { basename, join, posix } from 'node:path';
import { holdsIn } from '../../../triton/releases/catalog.js';
import { BATCH_LIBRARY_INSIDE_MODEL } from '../../../triton/core-releases.js';
import { defineModelRule } from '../../rule.js';

const KEY = 'TRITON_BATCH_STRATEGY_PATH';
const ESCAPES = 'Batching library path escapes model repository.';
const THERE = '"<repository>/{{model}}/{{file}}"';
const PLACE = `give the absolute path of the library in the model directory as the server sees it, e.g. ${THERE}`;

const NO_PARAMETER = `remove the parameter to have core look for batchstrategy.so in the model's directories, or ${PLACE}`;

const messages = {
  emptyRefused: `${KEY} is empty, so Triton {{release}} refuses the model ("Parent path and child path must be non-empty"); ${NO_PARAMETER}`,
  emptyNotFound: `${KEY} is empty, so Triton {{release}} refuses the model ("Batching library path not found: "); ${NO_PARAMETER}`,
  relativeEscapes: `${KEY} "{{path}}" is relative, and core reads it from tritonserver's working directory, not from the model directory: Triton {{release}} refuses the model ("${ESCAPES}"); ${PLACE}`,
  relativeNotFound: `${KEY} "{{path}}" is relative, and core reads it from tritonserver's working directory, not from the model directory: Triton {{release}} refuses the model ("Batching library path not found: {{path}}") unless that directory holds it; ${PLACE}`,
  outsideModelDirectory: `${KEY} "{{path}}" is not in the directory of model '{{model}}', which Triton {{release}} refuses, as every release from 26.06 on does ("${ESCAPES}"); move the library into the model directory and name it there as the server sees it, e.g. ${THERE}`,
  missing: `${KEY} "{{path}}" names {{local}} in the model directory, which is not there, so Triton refuses the model ("Batching library path not found: {{path}}"); copy the library to {{local}}, or correct the path`,
} as const;

export const batchStrategyPath = defineModelRule({
  meta: {
    id: 'batch-strategy-path',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'A custom batching library (TRITON_BATCH_STRATEGY_PATH) must be an absolute path to a file in the model directory',
    prevents: ['Batching library path not found: <path>', ESCAPES, 'Parent path and child path must be non-empty'],
    messages,
  },
  check(ctx) {
    const entry = ctx.config.parameters?.[KEY];
    if (entry === undefined || ctx.config.sequence_batching) return;
    const path = entry.string_value ?? '';
    const at = { path: ['parameters', KEY] };
    const release = ctx.settings.server.target.release;
    const inside = holdsIn(BATCH_LIBRARY_INSIDE_MODEL.releases, release);
    const model = ctx.model.name;
    const data = { path, release: release.container, model, file: basename(path) || 'libbatching.so' };
    if (path === '') return ctx.report({ ...at, messageId: inside ? 'emptyRefused' : 'emptyNotFound', data });
    if (!path.startsWith('/')) return ctx.report({ ...at, messageId: inside ? 'relativeEscapes' : 'relativeNotFound', data });
    // The parts after each '/<model>/' the path goes through: where it would be in the model directory.
    const segments = posix.normalize(path).split('/');
    const tails = segments.flatMap((s, i) => (s === model && i < segments.length - 1 ? [segments.slice(i + 1).join('/')] : []));
    if (tails.length === 0) {
      // Before 26.06 the library may lie anywhere on the server: nothing here says where that is.
      if (inside) ctx.report({ ...at, messageId: 'outsideModelDirectory', data });
      return;
    }
    if (tails.some((t) => ctx.files.kind(join(ctx.model.dir, t)) === 'file')) return;
    ctx.report({ ...at, messageId: 'missing', data: { ...data, local: `${model}/${tails[tails.length - 1]}` } });
  },
});
