// The ONNX Runtime backend (onnxruntime_backend src/onnxruntime.cc): platform onnxruntime_onnx, model.onnx
// (a file, or a directory holding one with external data), and an auto-complete that reads the
// model's inputs and outputs (ModelState::AutoCompleteConfig).
import { autoCompleteOnnx, onnxAutoCompleteSkipped, skippedStep } from './autocomplete.js';
import type { BackendRecord } from '../record.js';

export const ONNXRUNTIME: BackendRecord = {
  name: 'onnxruntime',
  title: 'ONNX Runtime',
  platforms: [{ name: 'onnxruntime_onnx', defaultModelFile: 'model.onnx', format: 'onnx', directoryHolds: 'model.onnx' }],
  core: true,
  autoComplete: {
    from: 'model',
    skipped: onnxAutoCompleteSkipped,
    skippedNote: (model) => skippedStep(model).reason,
    complete: (config, signature, options) => autoCompleteOnnx(config, signature, options),
    // It stats the file before it looks for it (tritonserver 2.51, test/server/quoted-messages-real-triton.test.ts).
    noModelFile: (path) => `failed to stat file ${path}`,
  },
  source: 'triton-inference-server/onnxruntime_backend src/onnxruntime.cc',
};
