// The Python backend: written by name, model.py, whose TritonPythonModel may define
// auto_complete_config (python_backend src/pb_stub.cc calls it at load), which tritonc does not run.
import type { BackendRecord } from './record.js';

export const PYTHON: BackendRecord = {
  name: 'python',
  title: 'Python',
  platforms: [],
  defaultModelFile: 'model.py',
  format: 'none',
  core: true,
  autoComplete: { from: 'script', defines: (text) => /\bdef\s+auto_complete_config\b/.test(text) },
  source: 'triton-inference-server/python_backend src/pb_stub.cc',
};
