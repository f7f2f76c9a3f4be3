// Which checks against the model did not run, said once per model: tritonc reads the formats
// src/model-file/readers.ts has a reader for (a TensorRT engine is the backend's to read at load), and
// with --configs-only a model file that is neither in the checkout nor in tritonc.lock.json cannot be
// read at all. Silence would read as "checked".
import { basename } from 'node:path';
import { hasReader } from '../../../model-file/readers.js';
import { modelFormat } from '../../../triton/model-file.js';
import { defineModelRule } from '../../rule.js';
import { defaultModelFile, isEnsemble, ONNX_MODEL_FILE } from '../../../triton/backend-records.js';

const FORMATS: Record<string, string> = {
  tensorrt: 'TensorRT engines (model.plan)',
  python: 'Python models (model.py)',
};

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
      aotiNotRead:
        "{{model}}: tritonc read {{file}} for its weights' size, but an AOTInductor package records its inputs and outputs only in generated code (the wrapper's in_spec), in no stable form, so {{checks}} did not run for it; Triton's {{backend}} backend checks the config against the package at load",
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
      // Read, but without its inputs and outputs (an AOTInductor package): said once.
      if (ctx.signature?.ioUnknown !== undefined && ctx.signature.format === 'pt2') {
        ctx.report({ path: at, messageId: 'aotiNotRead', data: { model, file: basename(ctx.signature.path), checks, backend } });
        return;
      }
      // Read, or missing or unreadable where that is an error (version-dirs, model-unreadable say so).
      if (ctx.signature || !ctx.model.filesElsewhere()) return;
      // An LFS pointer under --configs-only: model-unreadable's note says it.
      if (ctx.modelError) return;
      const layout = ctx.model.layout();
      const version = layout.versionDirs.find((v) => v.version !== undefined)?.version ?? 1;
      ctx.report({ path: at, messageId: 'notHere', data: { model, checks, expected: `${model}/${version}/${filled.config.default_model_filename || defaultModelFile(filled.config) || ONNX_MODEL_FILE}` } });
      return;
    }
    const what = FORMATS[backend] ?? `${backend} models${filled.config.default_model_filename ? ` (${filled.config.default_model_filename})` : ''}`;
    ctx.report({ path: at, messageId: ctx.settings.server.autoCompleteConfig ? 'notRead' : 'notReadComplete', data: { model, what, checks, backend } });
  },
});
