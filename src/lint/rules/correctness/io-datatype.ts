// Config data_type against the model's element type, through Triton's ONNX <-> TYPE_* table
// (onnxruntime_backend src/onnxruntime_utils.cc OnnxDataTypeToModelConfigDataType), and model I/O that
// is not a tensor at all (sequence, map, ...), which the ONNX Runtime backend cannot serve.
import { ioChecks, modelName, settledBackend } from '../../backend.js';
import { ONNXRUNTIME } from '../../../triton/backend-records.js';
import { holdsIn } from '../../../triton/releases/catalog.js';
import { ORT_BF16_TENSORS } from '../../../triton/backends/onnxruntime/releases.js';
import { ioSubject } from '../../../triton/core-releases.js';
import { defineModelRule } from '../../rule.js';
import { checkedConfig, configTensors, modelTensor } from '../../tensors.js';

// onnxruntime_backend src/onnxruntime_utils.cc before r26.03: ConvertFromOnnxDataType and
// ModelConfigDataTypeToOnnxDataType have no BF16, so ValidateInputs/ValidateOutputs refuse either
// way (tritonserver 2.51, test/server/onnx-runtime-version-real-triton.test.ts).
const BF16 =
  "{{direction}} '{{name}}' is BFLOAT16 in the model, and Triton's ONNX Runtime backend serves BFLOAT16 tensors only from 26.03 on: Triton {{release}} refuses the model";
const BF16_FIX = 'cast the tensor to FLOAT16 or FLOAT in the exported graph, or run Triton 26.03 or later';

const ONNX_KIND: Record<string, string> = {
  sequence: 'ONNX_TYPE_SEQUENCE',
  map: 'ONNX_TYPE_MAP',
  optional: 'ONNX_TYPE_OPTIONAL',
  sparse_tensor: 'ONNX_TYPE_SPARSETENSOR',
  opaque: 'ONNX_TYPE_OPAQUE',
  unknown: 'ONNX_TYPE_UNKNOWN',
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
      "unsupported datatype <TYPE_X> for input '<name>' for model '<model>'",
      "unable to process input '<name>' for '<model>', unsupported datatype '<DT_X>'",
      "unable to process output '<name>' for '<model>', unsupported datatype '<DT_X>'",
    ],
    messages: {
      dataTypeMismatch:
        "data_type {{configType}} does not match the model: {{direction}} '{{name}}' is {{elemType}} ({{modelType}}) in the model; set data_type: {{modelType}}",
      unservableElementType:
        "{{direction}} '{{name}}' has element type {{elemType}} in the model, which Triton cannot serve (it maps to TYPE_INVALID); cast it to a supported type (e.g. FLOAT, FLOAT16, INT64) in the exported graph",
      modelTensorNotTensor: `{{direction}} '{{name}}' is a {{kind}} in the model, not a tensor, and Triton's ONNX Runtime backend serves tensors only ({{ONNX_KIND}}); re-export the model with a tensor {{direction}} here`,
      unsupportedDataType:
        "Triton's {{backend}} backend has no element type for data_type {{configType}}, so it refuses the model (\"unsupported datatype {{configType}} for {{direction}} '{{name}}' for model '{{model}}'\"); use one of {{served}} ({{direction}} '{{name}}' is {{elemType}} in the model, which the backend converts to the type you give)",
      bf16BeforeRelease: `${BF16} ("unsupported datatype TYPE_BF16 for {{direction}} '{{name}}' for model '{{model}}'"); ${BF16_FIX}`,
      bf16BeforeReleaseAutoComplete: `${BF16}: its auto-complete writes data_type TYPE_INVALID for it ("{{subject}} must specify 'data_type' for {{model}}"); ${BF16_FIX}`,
      bf16BeforeReleaseMismatch: `${BF16} ("unable to load model '{{model}}', configuration expects datatype {{configType}} for {{direction}} '{{name}}', model provides TYPE_<invalid>"); ${BF16_FIX}`,
    },
  },
  check(ctx) {
    const sig = ctx.signature!;
    const { config, sides, checks: tfChecks, halted } = checkedConfig(ctx);
    if (halted) {
      // TensorFlow refuses a signature tensor of a type it cannot serve before anything else
      // (TRITONTF_ModelCreateFromSavedModel: "unable to process input '<key>' for '<model>', unsupported datatype '<DT_X>'").
      if (tfChecks.addsMissingInputs) reportUnservable(ctx);
      return;
    }
    const checks = ioChecks(ctx);
    if (!checks.dataTypes) {
      // The backend never compares data types at load (PyTorch: TorchScript records none), or converts
      // to the config's type (openvino_backend ValidateInputs: set_element_type), refusing only a type
      // it has no element for.
      const served = checks.servedDataTypes;
      if (!served) return;
      for (const direction of ['input', 'output'] as const) {
        if (direction === 'input' ? !sides.inputs : !sides.outputs) continue;
        for (const t of configTensors(config, direction)) {
          const written = t.entry.data_type;
          if (written === undefined || written === 'TYPE_INVALID' || typeof written === 'number' || served.includes(written)) continue;
          const model = modelTensor(sig, direction, t.name);
          if (!model) continue;
          ctx.report({
            path: [...t.path, 'data_type'],
            messageId: 'unsupportedDataType',
            data: {
              name: t.name,
              direction,
              configType: written,
              backend: checks.title,
              model: modelName(ctx),
              served: served.join(', '),
              elemType: model.elemType ?? 'unknown',
            },
          });
        }
      }
      return;
    }
    const bf16Served = settledBackend(ctx).backend !== ONNXRUNTIME.name || holdsIn(ORT_BF16_TENSORS, ctx.settings.server.target.release);
    if (!bf16Served) reportAutoCompletedBf16(ctx);
    for (const direction of ['input', 'output'] as const) {
      if (direction === 'input' ? !sides.inputs : !sides.outputs) continue;
      for (const t of configTensors(config, direction)) {
        const model = modelTensor(sig, direction, t.name);
        // The file records no element type (a TorchScript argument): nothing to compare.
        if (!model || model.typed === false) continue;
        if (model.kind !== 'tensor') {
          ctx.report({
            path: [...t.path, 'name'],
            messageId: 'modelTensorNotTensor',
            data: { name: t.name, kind: model.kind, direction, ONNX_KIND: ONNX_KIND[model.kind] ?? model.kind },
          });
          continue;
        }
        const written = t.entry.data_type;
        // Unset or TYPE_INVALID is core's "must specify 'data_type'"; an unknown number is another rule's.
        if (written === undefined || written === 'TYPE_INVALID' || typeof written === 'number') continue;
        if (model.elemType === 'BFLOAT16' && !bf16Served) {
          const data = { name: t.name, direction, configType: written, model: modelName(ctx), release: ctx.settings.server.target.release.container };
          ctx.report({ path: [...t.path, 'data_type'], messageId: written === 'TYPE_BF16' ? 'bf16BeforeRelease' : 'bf16BeforeReleaseMismatch', data });
          continue;
        }
        const wanted = model.tritonType;
        if (written === wanted) continue;
        ctx.report({
          path: [...t.path, 'data_type'],
          ...(wanted
            ? {
                messageId: 'dataTypeMismatch' as const,
                data: { name: t.name, direction, configType: written, modelType: wanted, elemType: model.elemType ?? 'UNDEFINED' },
                fix: { description: `set data_type: ${wanted}`, edits: [ctx.edits.replaceValue([...t.path, 'data_type'], wanted)] },
              }
            : {
                messageId: 'unservableElementType' as const,
                data: { name: t.name, direction, configType: written, modelType: null, elemType: model.elemType ?? 'UNDEFINED' },
              }),
        });
      }
    }
  },
});

/** The first signature tensor whose type the TensorFlow backend cannot serve, on its config entry when listed. */
function reportUnservable(ctx: Parameters<typeof ioDatatype.check>[0]): void {
  const sig = ctx.signature!;
  for (const direction of ['input', 'output'] as const) {
    const bad = (direction === 'input' ? sig.inputs : sig.outputs).find((t) => t.tritonType === null);
    if (!bad) continue;
    const listed = configTensors(ctx.config, direction).find((t) => t.name === bad.name);
    ctx.report({
      path: listed ? [...listed.path, 'name'] : [],
      messageId: 'unservableElementType',
      data: { name: bad.name, direction, configType: listed?.entry.data_type ?? null, modelType: null, elemType: bad.elemType ?? 'UNDEFINED' },
    });
    return;
  }
}

/**
 * The ONNX Runtime backend's auto-complete writes the sides a config leaves out from the model; before
 * 26.03 it writes TYPE_INVALID for a BFLOAT16 tensor, and core refuses the config. Said for the first
 * such tensor (Triton names the first of its own map's order: another, where there are several).
 */
function reportAutoCompletedBf16(ctx: Parameters<typeof ioDatatype.check>[0]): void {
  const config = ctx.config;
  if (!ctx.settings.server.autoCompleteConfig) return;
  for (const direction of ['input', 'output'] as const) {
    const written = direction === 'input' ? (config.input?.length ?? 0) + (config.batch_input?.length ?? 0) : (config.output?.length ?? 0);
    if (written > 0) continue;
    const bad = (direction === 'input' ? ctx.signature!.inputs : ctx.signature!.outputs).find((t) => t.kind === 'tensor' && t.elemType === 'BFLOAT16');
    if (!bad) continue;
    const release = ctx.settings.server.target.release.container;
    const subject = ioSubject(direction, bad.name, ctx.settings.server.target.release, 'data_type');
    ctx.report({
      path: [],
      messageId: 'bf16BeforeReleaseAutoComplete',
      data: { name: bad.name, direction, subject, configType: null, model: modelName(ctx), release },
    });
    return;
  }
}
