// The PyTorch backend: LibTorch (TorchScript, model.pt) and AOTInductor (model.pt2) models; core's
// kPyTorchAotiBackend is "pytorch" too. It does not auto-complete the config (pytorch_backend
// src/libtorch.cc ModelState::AutoCompleteConfig only logs that TorchScript keeps too little
// metadata to do it).
import type { BackendRecord } from './record.js';

export const PYTORCH: BackendRecord = {
  name: 'pytorch',
  title: 'PyTorch',
  platforms: [
    { name: 'pytorch_libtorch', aliases: ['libtorch'], defaultModelFile: 'model.pt', format: 'pytorch' },
    // The AOTInductor package is not a TorchScript file.
    { name: 'torch_aoti', defaultModelFile: 'model.pt2', format: 'pytorch' },
  ],
  core: true,
  autoComplete: { from: 'none' },
  source: 'triton-inference-server/pytorch_backend src/libtorch.cc',
};
