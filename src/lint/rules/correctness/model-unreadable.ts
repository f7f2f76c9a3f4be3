// A model file that is not a readable ONNX model (truncated, a Git LFS pointer, another format):
// Triton fails to load it, and the model-aware rules cannot check the config against it.
import { byteRange, MODEL_READ_MESSAGES, modelReadReport } from '../../model-read.js';
import { backendRecord, loadedSignatureFormats, platformLoading } from '../../../triton/backend-records.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';

export const modelUnreadable = defineModelRule({
  meta: {
    id: 'model-unreadable',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'The ONNX model file Triton would load must be a readable ONNX model',
    prevents: [
      "failed to load '<model>' version <v>: Internal: onnx runtime error 7: Load model from <path> failed:Protobuf parsing failed.",
      // No model file (tritonserver 2.51, test/server/quoted-messages-real-triton.test.ts): the ONNX Runtime
      // backend's words, then the PyTorch backend's.
      'failed to stat file <path>',
      "unable to find '<path>' for model instance '<model>'",
    ],
    messages: {
      ...MODEL_READ_MESSAGES,
      // pytorch_backend: torch::jit::load for pytorch_libtorch, AOTIModelPackageLoader for torch_aoti.
      torchscriptForAoti:
        'this is a TorchScript model, but platform {{platform}} loads an AOTInductor package (torch._inductor.aoti_compile_and_package), so Triton cannot load it; set platform: "{{otherPlatform}}" and name the file {{otherFile}}, or compile the model with AOTInductor',
      aotiForTorchscript:
        'this is an AOTInductor package, but platform {{platform}} loads a TorchScript model (torch.jit.save), so Triton cannot load it; set platform: "{{otherPlatform}}" and name the file {{otherFile}}, or save the model with torch.jit.save',
    },
  },
  check(ctx) {
    const e = ctx.modelError;
    const sig = ctx.signature;
    if (!e && sig) {
      const settled = settledBackend(ctx);
      const loads = loadedSignatureFormats(settled.config);
      if (loads && sig.format && !loads.includes(sig.format)) {
        const at = { file: sig.path, range: byteRange(0) };
        const other = platformLoading(sig.format);
        const data = { platform: settled.platform, otherPlatform: other?.name ?? '', otherFile: other?.defaultModelFile ?? '' };
        if (sig.format === 'torchscript') ctx.report({ ...at, messageId: 'torchscriptForAoti', data });
        else if (sig.format === 'pt2') ctx.report({ ...at, messageId: 'aotiForTorchscript', data });
      }
    }
    if (!e) return;
    // Another backend's file is named by its backend (a TorchScript model.pt: PyTorch).
    const report = modelReadReport(e, backendRecord(settledBackend(ctx).backend));
    // An LFS pointer is expected where the weights are provisioned elsewhere (--configs-only).
    if ((report.messageId === 'lfsPointer' || report.messageId === 'lfsPointerUnsized') && ctx.model.filesElsewhere()) {
      const at = { file: e.file, range: byteRange(e.offset), severity: 'info' as const };
      if (report.messageId === 'lfsPointer') ctx.report({ ...at, messageId: 'lfsPointerElsewhere', data: report.data });
      else ctx.report({ ...at, messageId: 'lfsPointerElsewhereUnsized', data: report.data });
      return;
    }
    ctx.report({ file: e.file, range: byteRange(e.offset), ...report });
  },
});
