// --run-python-autocomplete and --python: the runner of a Python model's auto_complete_config that
// resolve and lint hand the effective config (CompletionOptions.runScript). Without the flag nothing
// runs and no Python is needed; with it, a Python that does not run is a usage error (exit 2).
import type { ModelConfig } from '../config/model-config.js';
import { pythonVersion, runAutoCompleteConfig } from '../python-model/run.js';
import type { ScriptFacts } from '../python-model/auto-complete-config.js';
import { stringifyTritonJson, tritonConfigJson } from '../triton/triton-json.js';
import { UsageError } from './errors.js';

export function pythonAutoCompleteRunner(run: boolean, python: string | undefined): ((path: string, config: ModelConfig) => ScriptFacts) | undefined {
  if (!run) {
    if (python !== undefined) throw new UsageError('--python names the Python that --run-python-autocomplete runs: add --run-python-autocomplete');
    return undefined;
  }
  if (python === '') throw new UsageError('--python takes the path of a Python interpreter');
  if (!pythonVersion(python)) throw new UsageError(`--run-python-autocomplete: ${python ?? 'python3'} does not run here; name a Python with --python PATH`);
  // The config as core hands it to the stub: Triton's JSON with every primitive field printed.
  return (path, config) => runAutoCompleteConfig(path, stringifyTritonJson(tritonConfigJson(config), 0), python === undefined ? {} : { python });
}
