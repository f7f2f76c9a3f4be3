// Streaming across an LLM pipeline: which model must be decoupled for another to stream through it.
// - An ensemble step that feeds the TensorRT-LLM model's `streaming` input: the backend refuses each
//   streaming request unless the model is decoupled (tensorrtllm_backend inflight_batcher_llm/src/utils.cc:
//   "Streaming is only supported if model is deployed using decoupled mode."; the Python runtime's
//   model.py: "Streaming is only supported in decoupled mode.").
// - TensorRT-LLM's BLS model (tensorrt_llm_bls/1/model.py) calls its target model (tensorrt_llm_model_name,
//   default "tensorrt_llm") with decoupled execution only when it is itself decoupled
//   (TritonDecoder(streaming=self.decoupled); lib/decode.py: a single request without streaming goes
//   through request.exec(decoupled=False)), and python_backend refuses a non-decoupled call to a
//   decoupled model (src/request_executor.cc, lines 401-409). A decoupled BLS forwards `stream` as the
//   target's `streaming`, which a target that is not decoupled refuses.
import type { PathSegment } from '../../../diagnostics.js';
import { trtllmRuntime } from '../../../triton/backends/tensorrtllm/parameters.js';
import { defineRepositoryRule, type ModelFacts } from '../../rule.js';
import { isEnsemble, PYTHON, VLLM } from '../../../triton/backend-records.js';

const PLACEHOLDER = /^\$\{/;

/** The BLS model's reading of a parameter (model.py get_valid_param_value): "" or "${...}" is the default. */
function blsParam(model: ModelFacts, key: string, fallback: string | undefined): string | undefined {
  const v = model.config?.parameters?.[key]?.string_value ?? '';
  return v === '' || PLACEHOLDER.test(v) ? fallback : v;
}

const isBls = (m: ModelFacts): boolean =>
  m.config?.backend === PYTHON.name &&
  !!m.config.parameters &&
  ('tensorrt_llm_model_name' in m.config.parameters || 'accumulate_tokens' in m.config.parameters);
const isTrtllm = (m: ModelFacts): boolean => !!m.config && trtllmRuntime(m.config.backend ?? '', m.config.parameters ?? {}) !== undefined;

export const llmStreaming = defineRepositoryRule({
  meta: {
    id: 'llm-streaming',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'Streaming through an LLM ensemble or BLS model needs the models it reaches to be decoupled',
    prevents: [
      'Streaming is only supported if model is deployed using decoupled mode.',
      "Model <name> is using the decoupled. The current BLS request call doesn't support models using the decoupled transaction policy. Please use 'decoupled=True' argument to the 'exec' or 'async_exec' calls for decoupled models.'",
    ],
    messages: {
      streamingNotDecoupled:
        'step {{step}} feeds {{tensor}} to the streaming input of {{model}}, which is not decoupled: the TensorRT-LLM backend refuses each request that asks to stream ("Streaming is only supported if model is deployed using decoupled mode."), and serves the others; to stream, set model_transaction_policy { decoupled: true } in {{model}}',
      blsNotDecoupled:
        'this BLS model is not decoupled, so it calls {{target}} without decoupled=True, and {{target}} is decoupled: python_backend refuses each such call ("Model {{name}} is using the decoupled. The current BLS request call doesn\'t support models using the decoupled transaction policy."); set model_transaction_policy { decoupled: true } here too, as in {{target}}',
      blsStreamsToNonDecoupled:
        'this BLS model is decoupled and passes the request\'s stream flag to {{target}} as its streaming input, and {{target}} is not decoupled: streaming requests fail ("Streaming is only supported if model is deployed using decoupled mode."); make {{target}} decoupled too',
      blsTargetMissing:
        "this BLS model calls {{target}} ({{parameter}}), and the repository has no model {{target}}: every request fails; set tensorrt_llm_model_name to the TensorRT-LLM model's name",
      blsDefaultTargetMissing:
        "this BLS model calls {{target}} (the default of tensorrt_llm_model_name), and the repository has no model {{target}}: every request fails; set tensorrt_llm_model_name to the TensorRT-LLM model's name",
    },
  },
  check(ctx) {
    const byName = new Map(ctx.models.map((m) => [m.name, m]));
    const autoComplete = ctx.settings.server.autoCompleteConfig;
    // vLLM's auto-complete makes it decoupled (vllm_backend src/model.py auto_complete_config).
    const decoupled = (m: ModelFacts): boolean =>
      m.config?.model_transaction_policy?.decoupled === true ||
      (autoComplete && m.config?.backend === VLLM.name && m.config.model_transaction_policy === undefined);

    for (const m of ctx.models) {
      // Findings go on the configs being linted only: the others are read only as their steps and targets.
      if (!ctx.isTarget(m)) continue;
      const config = m.config;
      if (!config) continue;
      if (isEnsemble(config)) {
        (config.ensemble_scheduling?.step ?? []).forEach((step, i) => {
          const dep = byName.get(step.model_name ?? '');
          const fed = step.input_map?.streaming;
          if (!dep || fed === undefined || !isTrtllm(dep) || decoupled(dep)) return;
          const path: PathSegment[] = ['ensemble_scheduling', 'step', i, 'input_map', 'streaming'];
          ctx.report(m, { path, severity: 'warning', messageId: 'streamingNotDecoupled', data: { step: i, tensor: `'${fed}'`, model: `'${dep.name}'` } });
        });
      }
      if (isBls(m)) {
        const policyPath: PathSegment[] = config.model_transaction_policy ? ['model_transaction_policy'] : [];
        // The parameter that names the target; undefined when the target is tensorrt_llm_model_name's default.
        const targets: [string | undefined, string | undefined][] = [
          [blsParam(m, 'tensorrt_llm_model_name', 'tensorrt_llm'), config.parameters?.tensorrt_llm_model_name ? 'tensorrt_llm_model_name' : undefined],
          [blsParam(m, 'tensorrt_llm_draft_model_name', undefined), 'tensorrt_llm_draft_model_name'],
        ];
        for (const [target, parameter] of targets) {
          if (!target) continue;
          const dep = byName.get(target);
          if (!dep) {
            ctx.report(
              m,
              parameter === undefined
                ? { path: [], severity: 'warning', messageId: 'blsDefaultTargetMissing', data: { target: `'${target}'` } }
                : {
                    path: ['parameters', parameter, 'string_value'],
                    severity: 'warning',
                    messageId: 'blsTargetMissing',
                    data: { target: `'${target}'`, parameter },
                  },
            );
            continue;
          }
          if (!decoupled(m) && decoupled(dep)) ctx.report(m, { path: policyPath, messageId: 'blsNotDecoupled', data: { target: `'${target}'`, name: target } });
          else if (decoupled(m) && !decoupled(dep) && isTrtllm(dep))
            ctx.report(m, { path: policyPath, severity: 'warning', messageId: 'blsStreamsToNonDecoupled', data: { target: `'${target}'` } });
        }
      }
    }
  },
});
