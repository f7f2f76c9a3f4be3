// The TensorRT-LLM backend (tensorrtllm_backend): built by Triton's build.py for its containers; tritonc
// knows the model-level parameters its config template reads (./parameters.ts), not its engine files.
import type { BackendRecord } from '../record.js';
import { TRTLLM_PARAMETERS, readIn } from './parameters.js';
import { trtllmVersionIn } from './bundled.js';

export const TENSORRTLLM: BackendRecord = {
  name: 'tensorrtllm',
  title: 'TensorRT-LLM',
  platforms: [],
  core: false,
  // Those the TensorRT-LLM of the release's trtllm image reads.
  parameterKeys: (release) => {
    const version = trtllmVersionIn(release);
    return Object.entries(TRTLLM_PARAMETERS)
      .filter(([, p]) => !p.unread && readIn(p, version))
      .map(([k]) => k);
  },
  source: 'triton-inference-server/tensorrtllm_backend',
};
