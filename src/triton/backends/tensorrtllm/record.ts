// The TensorRT-LLM backend (tensorrtllm_backend): built by Triton's build.py for its containers; tritonc
// knows the model-level parameters its config template reads (./parameters.ts), not its engine files.
import type { BackendRecord } from '../record.js';
import { TRTLLM_PARAMETERS } from './parameters.js';

export const TENSORRTLLM: BackendRecord = {
  name: 'tensorrtllm',
  title: 'TensorRT-LLM',
  platforms: [],
  core: false,
  parameterKeys: () =>
    Object.entries(TRTLLM_PARAMETERS)
      .filter(([, p]) => !p.unread)
      .map(([k]) => k),
  source: 'triton-inference-server/tensorrtllm_backend',
};
