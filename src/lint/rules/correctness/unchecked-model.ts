// Which checks against the model did not run, said once per model: tritonc reads the formats
// src/model-readers/readers.ts has a reader for (a TensorRT engine is the backend's to read at load), and
// with --configs-only a model file that is neither in the checkout nor in tritonc.lock.json cannot be
// read at all. Silence would read as "checked".
import { basename, join } from 'node:path';
import { hasReader } from '../../../model-readers/readers.js';
import { modelFormat } from '../../../triton/model-file-location.js';
import { defineModelRule } from '../../rule.js';
import { formatTitleOf, isEnsemble, ioChecksOf, ONNX_MODEL_FILE, PYTHON } from '../../../triton/backend-records.js';
import { otherSignatureNamed } from '../../../triton/backends/tensorflow/autocomplete.js';

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
        '{{model}}: the config names no backend or platform, so Triton chooses one from the model file at deploy, and the model files are provisioned elsewhere (--configs-only): the backend, what its auto-complete fills in, and {{checks}} were not checked; set backend (or platform) to check them here, or run tritonc lock where the model files are',
      notRead:
        '{{model}}: tritonc does not read {{what}}, so {{checks}} did not run for it; at load the {{backend}} backend fills in what the config leaves out, and checks it against the model',
      notReadComplete:
        '{{model}}: tritonc does not read {{what}}, so {{checks}} did not run for it; the server runs with --disable-auto-complete-config, so the config must be complete as written (io-dims checks what core requires)',
      scriptNotFollowed:
        "{{model}}: tritonc reads model.py's auto_complete_config without running it only up to line {{line}} ({{source}}), so what the function does from there was not checked against the config; run tritonc lint --run-python-autocomplete to run it as the Python backend does",
      aotiNotRead:
        "{{model}}: tritonc read {{file}} for its weights' size, but an AOTInductor package records its inputs and outputs only in generated code (the wrapper's in_spec), in no stable form, so {{checks}} did not run for it; Triton's {{backend}} backend checks the config against the package at load",
      otherSignature:
        "{{model}}: the config's parameter {{parameter}} names another signature than the one tritonc reads (serving_default of the meta graph tagged serve), so {{checks}} did not run for it; the TensorFlow backend checks the config against that signature at load",
      notHere:
        '{{model}}: the model file ({{expected}}) is not in this checkout and tritonc.lock.json does not record it, so {{checks}} did not run (--configs-only); run tritonc lock where the weights are, and commit tritonc.lock.json',
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
      const other = ctx.signature && ioChecksOf(filled.config).addsMissingInputs ? otherSignatureNamed(filled.config) : undefined;
      if (other) {
        ctx.report({ path: ['parameters'], messageId: 'otherSignature', data: { model, parameter: other, checks } });
        return;
      }
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
      ctx.report({
        path: at,
        messageId: 'notHere',
        data: { model, checks, expected: `${model}/${version}/${ctx.model.modelFileName(config) ?? ONNX_MODEL_FILE}` },
      });
      return;
    }
    // A Python model: python-autocomplete checks what its auto_complete_config does, where tritonc can read it.
    if (backend === PYTHON.name && ctx.settings.server.autoCompleteConfig) {
      const version = ctx.model.versions(filled.config).at(-1);
      const file = version ? join(version.path, ctx.model.modelFileName(config) ?? PYTHON.defaultModelFile!) : undefined;
      const facts = file ? ctx.model.scriptFacts(file, { ...config, name: model }) : undefined;
      if (facts && !facts.unknown) return;
      if (facts?.unknown) {
        const source = (ctx.files.text(file!) ?? '').split('\n')[facts.unknown.line - 1]?.trim() ?? '';
        // The line as code, in backquotes (a value, not wording).
        const code = source.length > 80 ? `${source.slice(0, 77)}...` : source;
        ctx.report({ path: at, messageId: 'scriptNotFollowed', data: { model, line: facts.unknown.line, source: `\`${code.replace(/`/g, "'")}\`` } });
        return;
      }
    }
    const what = formatTitleOf(filled.config) ?? `${backend} models${filled.config.default_model_filename ? ` (${filled.config.default_model_filename})` : ''}`;
    ctx.report({ path: at, messageId: ctx.settings.server.autoCompleteConfig ? 'notRead' : 'notReadComplete', data: { model, what, checks, backend } });
  },
});
