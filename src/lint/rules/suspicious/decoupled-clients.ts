// A decoupled model is served over streaming endpoints only: Triton's HTTP /infer refuses it (server
// src/http_server.cc, the decoupled check before HandleInfer: "HTTP end point doesn't support models with
// decoupled transaction policy") and so does gRPC ModelInfer (src/grpc/infer_handler.cc). A note, so the
// first client that calls /infer is not a surprise. vLLM models are decoupled by their auto-complete.
import { settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';
import { VLLM } from '../../../triton/backend-records.js';

export const decoupledClients = defineModelRule({
  meta: {
    id: 'decoupled-clients',
    category: 'suspicious',
    defaultSeverity: 'info',
    requiresModel: false,
    description: 'Decoupled models answer over gRPC streaming and HTTP generate_stream only, not /infer',
    prevents: [
      "HTTP end point doesn't support models with decoupled transaction policy",
      "ModelInfer RPC doesn't support models with decoupled transaction policy",
    ],
    messages: {
      decoupled:
        '{{name}} is decoupled: Triton\'s HTTP /v2/models/{{name}}/infer and gRPC ModelInfer refuse it ("HTTP end point doesn\'t support models with decoupled transaction policy"; "ModelInfer RPC doesn\'t support models with decoupled transaction policy"); clients use gRPC streaming (ModelStreamInfer) or HTTP /v2/models/{{name}}/generate_stream',
      decoupledByVllm:
        '{{name}} is decoupled (the vLLM backend\'s auto-complete makes it so): Triton\'s HTTP /v2/models/{{name}}/infer and gRPC ModelInfer refuse it ("HTTP end point doesn\'t support models with decoupled transaction policy"; "ModelInfer RPC doesn\'t support models with decoupled transaction policy"); clients use gRPC streaming (ModelStreamInfer) or HTTP /v2/models/{{name}}/generate_stream',
    },
  },
  check(ctx) {
    const name = ctx.config.name || ctx.model.name;
    if (ctx.config.model_transaction_policy?.decoupled) {
      ctx.report({ path: ['model_transaction_policy', 'decoupled'], messageId: 'decoupled', data: { name } });
    } else if (ctx.config.model_transaction_policy === undefined && ctx.settings.server.autoCompleteConfig && settledBackend(ctx).backend === VLLM.name) {
      ctx.report({ path: ['backend'], messageId: 'decoupledByVllm', data: { name } });
    }
  },
});
