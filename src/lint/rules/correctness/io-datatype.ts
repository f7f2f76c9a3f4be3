// Config data_type against the model's element type, through Triton's ONNX <-> TYPE_* table
// (onnxruntime_backend src/onnxruntime_utils.cc OnnxDataTypeToModelConfigDataType), and model I/O that
// is not a tensor at all (sequence, map, ...), which the ONNX Runtime backend cannot serve.
import { defineModelRule } from '../../rule.js';
import { configTensors, modelTensor, validatedSides } from '../../tensors.js';

const ONNX_KIND: Record<string, string> = {
  sequence: 'ONNX_TYPE_SEQUENCE', map: 'ONNX_TYPE_MAP', optional: 'ONNX_TYPE_OPTIONAL',
  sparse_tensor: 'ONNX_TYPE_SPARSETENSOR', opaque: 'ONNX_TYPE_OPAQUE', unknown: 'ONNX_TYPE_UNKNOWN',
};

export const ioDatatype = defineModelRule({
  meta: {
    id: 'io-datatype',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: true,
    description: "Config data_type must be the Triton type of the model's element type",
    prevents: [
      "unable to load model '<model>', configuration expects datatype <TYPE_X> for input '<name>', model provides TYPE_<Y>",
      "unable to load model '<model>', configuration expects datatype <TYPE_X> for output '<name>', model provides TYPE_<Y>",
      "Unsupported ONNX Type '<ONNX_TYPE_SEQUENCE|...>' for I/O '<name>', expected 'ONNX_TYPE_TENSOR'.",
    ],
  },
  check(ctx) {
    const sig = ctx.signature!;
    const sides = validatedSides(ctx.config);
    for (const direction of ['input', 'output'] as const) {
      if (direction === 'input' ? !sides.inputs : !sides.outputs) continue;
      for (const t of configTensors(ctx.config, direction)) {
        const model = modelTensor(sig, direction, t.name);
        if (!model) continue;
        if (model.kind !== 'tensor') {
          ctx.report({
            path: [...t.path, 'name'],
            message: `${direction} '${t.name}' is a ${model.kind.replace('_', ' ')} in the model, not a tensor, and Triton's ONNX Runtime backend serves tensors only (${ONNX_KIND[model.kind]}); re-export the model with a tensor ${direction} here`,
            data: { name: t.name, kind: model.kind },
          });
          continue;
        }
        const written = t.entry.data_type;
        // Unset or TYPE_INVALID is core's "must specify 'data_type'"; an unknown number is another rule's.
        if (written === undefined || written === 'TYPE_INVALID' || typeof written === 'number') continue;
        const wanted = model.tritonType;
        if (written === wanted) continue;
        ctx.report({
          path: [...t.path, 'data_type'],
          message: wanted
            ? `data_type ${written} does not match the model: ${direction} '${t.name}' is ${model.elemType} (${wanted}) in the model; set data_type: ${wanted}`
            : `${direction} '${t.name}' has element type ${model.elemType ?? 'UNDEFINED'} in the model, which Triton cannot serve (it maps to TYPE_INVALID); cast it to a supported type (e.g. FLOAT, FLOAT16, INT64) in the exported graph`,
          data: { name: t.name, configType: written, modelType: wanted, elemType: model.elemType },
        });
      }
    }
  },
});
