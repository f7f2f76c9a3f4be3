// An ONNX model stamped with an IR version or an opset newer than the target release's ONNX Runtime
// knows, or importing no opset at all: ONNX Runtime refuses it when Triton creates the session (onnxruntime core/graph/model.cc
// Model::Model; model_load_utils.h ValidateOpsetForDomain), and Triton reports
// "onnx runtime error 1: Load model from <path> failed:<ONNX Runtime's words>" (tritonserver 2.51,
// test/server/onnx-runtime-version-real-triton.test.ts). The limits are the release's
// (triton/backends/onnxruntime/releases.ts).
import { byteRange } from '../../model-read.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';
import { ONNXRUNTIME } from '../../../triton/backend-records.js';
import { ortIn, ortRefusal } from '../../../triton/backends/onnxruntime/releases.js';

const ORT = 'Triton {{release}} bundles ONNX Runtime {{ort}}, which refuses the model';
const IR = `${ORT} ("Unsupported model IR version: {{irVersion}}, max supported IR version: {{maxIr}}")`;
const OPSET = `${ORT} ("Opset {{version}} is under development and support for this is limited. ... Current official support for domain {{domain}} is till opset {{max}}.")`;
const REEXPORT_IR =
  're-export it with an exporter that writes IR version {{maxIr}} or older (or set model.ir_version = {{maxIr}} with onnx and save it, where its opsets allow)';
const REEXPORT_OPSET = 're-export it with opset {{max}} or older (torch.onnx.export(..., opset_version={{max}}), or onnx.version_converter)';

export const onnxRuntimeVersion = defineModelRule({
  meta: {
    id: 'onnx-runtime-version',
    category: 'correctness',
    defaultSeverity: 'error',
    // It reads the signature when there is one, and is not listed among the checks a model without one
    // misses (unchecked-model): only ONNX models have an IR version.
    requiresModel: false,
    description: "An ONNX model's IR version and opsets must be ones the target release's ONNX Runtime loads",
    prevents: [
      "failed to load '<model>' version <v>: Internal: onnx runtime error 1: Load model from <path> failed:<source> Unsupported model IR version: <n>, max supported IR version: <m>",
      "failed to load '<model>' version <v>: Internal: onnx runtime error 1: Load model from <path> failed:<source> Missing opset in the model. All ModelProtos MUST have at least one entry that specifies which version of the ONNX OperatorSet is being imported.",
      "failed to load '<model>' version <v>: Internal: onnx runtime error 1: Load model from <path> failed:<source> ONNX Runtime only *guarantees* support for models stamped with official released onnx opset versions. Opset <n> is under development and support for this is limited. The operator schemas and or other functionality may change before next ONNX release and in this case ONNX Runtime will not guarantee backward compatibility. Current official support for domain <domain> is till opset <m>.",
    ],
    messages: {
      noOpset:
        'the model imports no opset (its opset_import is empty): every ONNX Runtime refuses it ("Missing opset in the model. All ModelProtos MUST have at least one entry that specifies which version of the ONNX OperatorSet is being imported."); re-export it, or add the opset its graph was written for with onnx (model.opset_import.append(onnx.helper.make_opsetid("", N))) and save it',
      irVersionTooNew: `the model has IR version {{irVersion}}: ${IR}; ${REEXPORT_IR}, or run Triton {{loadsFrom}} or later`,
      irVersionTooNewEverywhere: `the model has IR version {{irVersion}}: ${IR}, as does every release tritonc knows; ${REEXPORT_IR}`,
      opsetTooNew: `the model imports opset {{version}} of {{domain}}: ${OPSET}; ${REEXPORT_OPSET}, or run Triton {{loadsFrom}} or later`,
      opsetTooNewEverywhere: `the model imports opset {{version}} of {{domain}}: ${OPSET}, as does every release tritonc knows; ${REEXPORT_OPSET}`,
    },
  },
  check(ctx) {
    const sig = ctx.signature;
    if (!sig || sig.format !== 'onnx' || settledBackend(ctx).backend !== ONNXRUNTIME.name) return;
    const release = ctx.settings.server.target.release;
    const refusal = ortRefusal(sig, release);
    if (!refusal) return;
    const at = { file: sig.path, range: byteRange(0) };
    if (refusal.kind === 'noOpset') {
      ctx.report({ ...at, messageId: 'noOpset', data: {} });
      return;
    }
    const base = { release: release.container, ort: ortIn(release).version };
    const from = refusal.loadsFrom ? { loadsFrom: refusal.loadsFrom.container } : undefined;
    if (refusal.kind === 'ir') {
      const data = { ...base, irVersion: refusal.irVersion, maxIr: refusal.maxIr };
      if (from) ctx.report({ ...at, messageId: 'irVersionTooNew', data: { ...data, ...from } });
      else ctx.report({ ...at, messageId: 'irVersionTooNewEverywhere', data });
    } else {
      const data = { ...base, version: refusal.version, domain: refusal.domain, max: refusal.max };
      if (from) ctx.report({ ...at, messageId: 'opsetTooNew', data: { ...data, ...from } });
      else ctx.report({ ...at, messageId: 'opsetTooNewEverywhere', data });
    }
  },
});
