// The vLLM backend, a Python-based backend: it reads model.json from the version directory itself (not
// through default_model_filename), and its auto_complete_config adds fixed inputs and outputs.
import { autoCompleteVllm } from './autocomplete.js';
import type { BackendRecord } from '../record.js';
import { vllmParameterKeys } from './parameters.js';

export const VLLM: BackendRecord = {
  name: 'vllm',
  title: 'vLLM',
  platforms: [],
  core: false,
  // src/model.py (_get_bool_config_param): the only two it reads, each from its release.
  parameterKeys: vllmParameterKeys,
  autoComplete: { from: 'config', complete: (config) => autoCompleteVllm(config) },
  // A Python-based backend: libtriton_vllm.so is not built, its model.py runs on the Python backend.
  pythonBased: true,
  source: 'triton-inference-server/vllm_backend src/model.py',
};
