// The Python backend: written by name, model.py, whose TritonPythonModel may define
// auto_complete_config (python_backend src/pb_stub.cc Stub::AutoCompleteModelConfig calls it at load,
// with the config as JSON, through triton_python_backend_utils.ModelConfig). tritonc reads what it
// does without running it (src/python-model), or runs it where the user asks (--run-python-autocomplete).
import { readAutoCompleteConfig } from '../../../python-model/auto-complete-config.js';
import { completeFromScript } from './autocomplete-script.js';
import type { BackendRecord } from '../record.js';

export const PYTHON: BackendRecord = {
  name: 'python',
  title: 'Python',
  platforms: [],
  defaultModelFile: 'model.py',
  format: 'none',
  formatTitle: 'Python models',
  core: true,
  fileExtensions: ['py'],
  // src/python_be.cc, ModelState: the execution environment and where inputs live.
  parameterKeys: () => ['EXECUTION_ENV_PATH', 'FORCE_CPU_ONLY_INPUT_TENSORS'],
  autoComplete: {
    from: 'script',
    defines: (text) => /\bdef\s+auto_complete_config\b/.test(text),
    read: readAutoCompleteConfig,
    complete: (config, facts, how) => {
      const r = completeFromScript(config, facts, how);
      return {
        config: r.config,
        steps: r.steps,
        problems: r.problems,
        ...(r.unknown
          ? {
              unknown:
                how === 'run'
                  ? `what auto_complete_config does: the run could not tell (${r.unknown.reason})`
                  : `what auto_complete_config does from model.py line ${r.unknown.line} on (${r.unknown.reason}), which tritonc does not follow`,
            }
          : {}),
      };
    },
  },
  pythonBased: true,
  source: 'triton-inference-server/python_backend src/pb_stub.cc, src/resources/triton_python_backend_utils.py',
};
