// Which checks against the model did not run, said once per model: tritonc reads the formats
// src/model-file/readers.ts has a reader for (a TensorRT engine is the backend's to read at load), and
// with --configs-only a model file that is neither in the checkout nor in tritonc.lock.json cannot be
// read at all. Silence would read as "checked".
import { hasReader } from '../../../model-file/readers.js';
import { modelFormat } from '../../../triton/model-file.js';
import { defineModelRule } from '../../rule.js';
import { isEnsemble, modelChecksOf, ONNX_MODEL_FILE, TENSORFLOW } from '../../../triton/backend-records.js';
import { otherSignatureNamed } from '../../../triton/autocomplete-tensorflow.js';

const FORMATS: Record<string, string> = {
  tensorrt: 'TensorRT engines (model.plan)',
  pytorch: 'TorchScript models (model.pt)',
  python: 'Python models (model.py)',
};
/** By platform: the TensorFlow backend's SavedModels are read, its GraphDefs are not. */
const PLATFORM_FORMATS: Record<string, string> = Object.fromEntries(
  TENSORFLOW.platforms.filter((p) => !hasReader(p.format)).map((p) => [p.name, `GraphDefs (${p.defaultModelFile})`]),
);

export const uncheckedModel = defineModelRule({
  meta: {
    id: 'unchecked-model',
    category: 'correctness',
    defaultSeverity: 'info',
    requiresModel: false,
    description: 'Says, once per model, which checks against the model file could not run, and why',
    prevents: [],
    messages: {
      backendElsewhere:
        "{{model}}: the config names no backend or platform, so Triton chooses one from the model file at deploy, and the model files are provisioned elsewhere (--configs-only): the backend, what its auto-complete fills in, and {{checks}} were not checked; set backend (or platform) to check them here, or run tritonc lock where the model files are",
      notRead: '{{model}}: tritonc does not read {{what}}, so {{checks}} did not run for it; at load the {{backend}} backend fills in what the config leaves out, and checks it against the model',
      notReadComplete:
        '{{model}}: tritonc does not read {{what}}, so {{checks}} did not run for it; the server runs with --disable-auto-complete-config, so the config must be complete as written (io-dims checks what core requires)',
      otherSignature:
        "{{model}}: the config's parameter {{parameter}} names another signature than the one tritonc reads (serving_default of the meta graph tagged serve), so {{checks}} did not run for it; the TensorFlow backend checks the config against that signature at load",
      notHere:
        "{{model}}: the model file ({{expected}}) is not in this checkout and tritonc.lock.json does not record it, so {{checks}} did not run (--configs-only); run tritonc lock where the weights are, and commit tritonc.lock.json",
    },
  },
  check(ctx) {
    if (!ctx.modelChecks.length) return;
    const config = ctx.config;
    if (isEnsemble(config)) return;
    const filled = ctx.model.autofill(config);
    const model = ctx.model.name;
    if (filled.unknownBackend) {
      ctx.report({ path: [], messageId: 'backendElsewhere', data: { model, checks: ctx.modelChecks.join(', ') } });
      return;
    }
    // No backend: platform-backend says why Triton refuses the model.
    const backend = filled.config.backend;
    if (filled.problem || !backend) return;
    const at = config.backend !== undefined ? ['backend'] : config.platform !== undefined ? ['platform'] : [];
    const checks = ctx.modelChecks.join(', ');
    if (hasReader(modelFormat(filled.config))) {
      const other = ctx.signature && modelChecksOf(filled.config).addsMissingInputs ? otherSignatureNamed(filled.config) : undefined;
      if (other) {
        ctx.report({ path: ['parameters'], messageId: 'otherSignature', data: { model, parameter: other, checks } });
        return;
      }
      // Read, or missing or unreadable where that is an error (version-dirs, model-unreadable say so).
      if (ctx.signature || !ctx.model.filesElsewhere()) return;
      // An LFS pointer under --configs-only: model-unreadable's note says it.
      if (ctx.modelError) return;
      const layout = ctx.model.layout();
      const version = layout.versionDirs.find((v) => v.version !== undefined)?.version ?? 1;
      ctx.report({ path: at, messageId: 'notHere', data: { model, checks, expected: `${model}/${version}/${filled.config.default_model_filename || ONNX_MODEL_FILE}` } });
      return;
    }
    const what = PLATFORM_FORMATS[filled.config.platform ?? ''] ?? FORMATS[backend] ?? `${backend} models${filled.config.default_model_filename ? ` (${filled.config.default_model_filename})` : ''}`;
    ctx.report({ path: at, messageId: ctx.settings.server.autoCompleteConfig ? 'notRead' : 'notReadComplete', data: { model, what, checks, backend } });
  },
});
