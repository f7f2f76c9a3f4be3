// --run-python-autocomplete and --python: the runner of a Python model's auto_complete_config that
// resolve and lint hand the effective config (CompletionOptions.runScript). Without the flag nothing
// runs and no Python is needed; with it, a Python that does not run is a usage error (exit 2), and
// where no namespace can be made (src/python-model/contain.ts) the run goes on with less held in, said
// on stderr.
import type { ModelConfig } from '../config/model-config.js';
import type { ScriptFacts } from '../python-model/auto-complete-config.js';
import { stringifyTritonJson, tritonConfigJson } from '../triton/triton-json.js';
import { UsageError } from './errors.js';

/** --run-python-autocomplete's help, the same on resolve and lint: exactly what holds the run in. */
export const RUN_PYTHON_AUTOCOMPLETE_HELP =
  "Run Python models' auto_complete_config instead of reading it: in a subprocess on a read-only copy of the model directory, with a stand-in triton_python_backend_utils, Python's socket functions refused and a 10 s timeout; every process it starts (elsewhere than on Linux: its process group) is killed at its end, on the timeout, on Ctrl-C/SIGTERM/SIGHUP and when tritonc dies, and the copy removed. Where unshare and setpriv (util-linux) can make Linux namespaces, also without network (Unix sockets in files outside /run stay reachable), with every mount read-only but a scratch HOME/TMPDIR and /dev only null/zero/random/urandom; elsewhere (said on stderr) with this user's network and files";

export async function pythonAutoCompleteRunner(
  run: boolean,
  python: string | undefined,
  stderr: (text: string) => void = () => {},
): Promise<((path: string, config: ModelConfig) => ScriptFacts) | undefined> {
  if (!run) {
    if (python !== undefined) throw new UsageError('--python names the Python that --run-python-autocomplete runs: add --run-python-autocomplete');
    return undefined;
  }
  if (python === '') throw new UsageError('--python takes the path of a Python interpreter');
  // The runner (and node:child_process) loads only with the flag.
  const [{ pythonVersion, runAutoCompleteConfig }, { boundary, noBoundaryNote }] = await Promise.all([
    import('../python-model/run.js'),
    import('../python-model/contain.js'),
  ]);
  if (!pythonVersion(python)) throw new UsageError(`--run-python-autocomplete: ${python ?? 'python3'} does not run here; name a Python with --python PATH`);
  const held = boundary();
  if (held.kind === 'none') stderr(`tritonc: --run-python-autocomplete: no namespace can be made here (${held.why}): ${noBoundaryNote()}\n`);
  // The config as core hands it to the stub: Triton's JSON with every primitive field printed.
  return (path, config) => runAutoCompleteConfig(path, stringifyTritonJson(tritonConfigJson(config), 0), python === undefined ? {} : { python });
}
