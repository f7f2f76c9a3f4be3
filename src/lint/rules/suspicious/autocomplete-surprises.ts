// What Triton's auto-complete does behind a config's back (onnxruntime_backend src/onnxruntime.cc
// AutoCompleteConfig, AutoCompleteMaxBatch): the
// ONNX Runtime backend replaces an explicit max_batch_size: 0 on a batchable model, skips
// auto-complete entirely once inputs and outputs are both listed (so batching is never turned on),
// and refuses a non-zero max_batch_size on a model that cannot batch. Core adds two more: an empty
// version_policy means "all versions", and dynamic_batching does nothing without batching.
import type { PathSegment } from '../../../diagnostics.js';
import { onnxAutoCompleteSkipped } from '../../../triton/backends/onnxruntime/autocomplete.js';
import { defaultMaxBatchSize } from '../../../triton/server-options.js';
import { unbatchableTensors } from '../../../triton/io-mapping.js';
import { defineModelRule } from '../../rule.js';
import { modelShapeText, maxBatchSize } from '../../tensors.js';
import { isEnsemble, ONNXRUNTIME } from '../../../triton/backend-records.js';

export const autocompleteSurprises = defineModelRule({
  meta: {
    id: 'autocomplete-surprises',
    category: 'suspicious',
    defaultSeverity: 'warning',
    requiresModel: false,
    description: "Settings that Triton's auto-complete and normalization silently change or ignore",
    prevents: [
      "autofilled max_batch_size to <n> for model '<model>' since batching is supporrted but no max_batch_size is specified in model configuration. Must specify max_batch_size to utilize autofill with a larger max batch size",
      "skipping model configuration auto-complete for '<model>': inputs and outputs already specified",
      "autofill failed for model '<model>': model does not support batching while non-zero max_batch_size is specified",
    ],
    messages: {
      emptyVersionPolicy:
        'version_policy {} selects every version directory, not the latest one (Triton checks specific, then latest, else serves all); write version_policy: { all {} } to say so, or remove it to serve only the latest version',
      maxBatchSizeZeroReplaced: `max_batch_size: 0 is replaced by {{defaultMaxBatchSize}}: the model can batch (every input and output has a dynamic first dimension) and the config does not list both inputs and outputs, so Triton's ONNX Runtime backend treats 0 as "not set" and fills in its default-max-batch-size ({{defaultMaxBatchSize}}; --backend-config=onnxruntime,default-max-batch-size=N changes it) (proto3 cannot tell 0 from unset); to serve without batching, list every input and output in the config (auto-complete is then skipped), or set the max_batch_size you want`,
      maxBatchSizeUnbatchable: `max_batch_size: {{mbs}} on a model that cannot batch ({{direction}} '{{name}}' has the fixed first dimension {{dim}} (shape {{shape}})): Triton refuses it ("autofill failed for model '{{model}}': model does not support batching while non-zero max_batch_size is specified"); set max_batch_size: 0, or re-export the model with a dynamic first dimension`,
      maxBatchSizeUnbatchableScalar: `max_batch_size: {{mbs}} on a model that cannot batch ({{direction}} '{{name}}' is a scalar): Triton refuses it ("autofill failed for model '{{model}}': model does not support batching while non-zero max_batch_size is specified"); set max_batch_size: 0, or re-export the model with a dynamic first dimension`,
      batchableButNotBatching: `the model can batch (every input and output has a dynamic first dimension), but max_batch_size is not set and the config lists inputs and outputs, so Triton skips auto-complete ("skipping model configuration auto-complete for '{{model}}': inputs and outputs already specified"): max_batch_size stays 0 and no dynamic batching is added; set max_batch_size (e.g. 8), drop the batch axis from dims, and add dynamic_batching { }, or write max_batch_size: 0 to serve without batching on purpose`,
      dynamicBatchingWithoutBatching:
        'dynamic_batching has no effect with max_batch_size 0: Triton accepts it but every request runs alone (batch size 1); set max_batch_size to the largest batch the model takes, or remove dynamic_batching',
    },
  },
  check(ctx) {
    const config = ctx.config;
    const model = config.name || ctx.model.name;
    // proto3 cannot tell an explicit 0 from an omitted field, but the file can.
    const mbsWritten = config.max_batch_size !== undefined;

    // version_policy {} with no member falls through to "all" (core VersionsToLoad).
    const policy = config.version_policy;
    if (policy && !policy.latest && !policy.all && !policy.specific) {
      ctx.report({
        path: ['version_policy'],
        range: ctx.doc.locate(['version_policy'])?.name ?? ctx.doc.rangeOf(['version_policy']),
        messageId: 'emptyVersionPolicy',
      });
    }

    if (isEnsemble(config)) return;
    const backend = config.backend || (ctx.modelFile?.endsWith('.onnx') ? ONNXRUNTIME.name : ctx.model.autofill(config).config.backend);
    const ort = backend === ONNXRUNTIME.name;
    const mbs = maxBatchSize(config);
    // A server without auto-complete changes nothing: the config runs as written.
    const serverCompletes = ctx.settings.server.autoCompleteConfig;
    const skipped = onnxAutoCompleteSkipped(config);
    const sig = ctx.signature;
    const tensorsOnly = sig ? [...sig.inputs, ...sig.outputs].every((t) => t.kind === 'tensor') : false;
    const blockers = sig && tensorsOnly ? unbatchableTensors(sig) : [];
    const batchable = sig !== undefined && tensorsOnly && blockers.length === 0;

    if (serverCompletes && ort && sig && tensorsOnly && !skipped) {
      // AutoCompleteMaxBatch runs (onnxruntime_backend src/onnxruntime.cc).
      if (mbs === 0 && batchable && mbsWritten) {
        ctx.report({
          path: ['max_batch_size'],
          messageId: 'maxBatchSizeZeroReplaced',
          data: { defaultMaxBatchSize: defaultMaxBatchSize(ctx.settings.server) },
        });
      }
      if (mbs > 0 && blockers.length && !ctx.isEnabled('missing-dynamic-axis')) {
        const b = blockers[0]!;
        const base = { path: ['max_batch_size'], severity: 'error' as const };
        const data = { mbs, direction: b.direction, name: b.tensor.name, model };
        if (b.tensor.shape?.length) {
          ctx.report({ ...base, messageId: 'maxBatchSizeUnbatchable', data: { ...data, dim: String(b.tensor.shape[0]), shape: modelShapeText(b.tensor) } });
        } else {
          ctx.report({ ...base, messageId: 'maxBatchSizeUnbatchableScalar', data });
        }
      }
    }

    // An omitted max_batch_size with both sides listed: auto-complete is skipped, so it stays 0. An
    // explicit 0 says the user means it.
    if (serverCompletes && ort && skipped && !mbsWritten && batchable && !config.sequence_batching) {
      const path: PathSegment[] = ['input'];
      ctx.report({
        path,
        range: ctx.doc.locate(path)?.name ?? ctx.doc.rangeOf(path),
        messageId: 'batchableButNotBatching',
        data: { model },
      });
    }

    // dynamic_batching without batching does nothing (core ValidateModelConfig accepts it): only when
    // max_batch_size surely stays 0.
    if (config.dynamic_batching && mbs === 0) {
      const staysZero = ort && (!serverCompletes || skipped || (sig !== undefined && !batchable));
      if (staysZero) {
        const path: PathSegment[] = ['dynamic_batching'];
        ctx.report({
          path,
          range: ctx.doc.locate(path)?.name ?? ctx.doc.rangeOf(path),
          messageId: 'dynamicBatchingWithoutBatching',
        });
      }
    }
  },
});
