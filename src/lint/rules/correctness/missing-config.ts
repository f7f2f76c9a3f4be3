// A model directory without config.pbtxt (core model_repository_manager.cc InitializeModelInfo): with
// auto-complete on, Triton starts from an empty config and the backend fills it in, so the model is
// linted as that empty config; a server started with --disable-auto-complete-config reads the file
// regardless (ReadTextProto), and a missing one fails the load (filesystem/implementations/local.h
// ReadTextFile).
import { defineModelRule } from '../../rule.js';

const MISSING =
  'model \'{{model}}\' has no config.pbtxt, and the server runs with --disable-auto-complete-config, so Triton does not fill one in and fails to load the model ("failed to open text file for read {{file}}: No such file or directory")';

export const missingConfig = defineModelRule({
  meta: {
    id: 'missing-config',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    unreadableConfigs: true,
    description: 'Every model needs a config.pbtxt on a server that runs with --disable-auto-complete-config',
    prevents: ['failed to open text file for read <model>/config.pbtxt: No such file or directory'],
    messages: {
      missing: `${MISSING}; write the config (list its inputs, outputs and backend), or serve with auto-complete on`,
      missingOnnxModel: `${MISSING}; write the config (tritonc generate {{model}} --write writes it from the ONNX model), or serve with auto-complete on`,
    },
  },
  check(ctx) {
    if (ctx.settings.server.autoCompleteConfig || ctx.model.layout().configPath !== undefined) return;
    // Only the config Triton reads: a configs/<name>.pbtxt being linted is another file.
    if (ctx.file !== `${ctx.model.dir}/config.pbtxt`) return;
    // With an ONNX model, tritonc generate writes the config from it.
    ctx.report({
      messageId: ctx.modelFile !== undefined ? 'missingOnnxModel' : 'missing',
      data: { model: ctx.model.name, file: ctx.file },
    });
  },
});
