// `tritonc verify MODEL_DIR [--runtime ort|docker|local|server] [--image IMAGE] [--server URL] [--gpus ...]
// [--tritonserver PATH] [--launcher 'CMD ARGS']
// [--timeout 120s] [--dry-run] [--format text|json]`, and for docker tritonserver's
// --disable-auto-complete-config, --strict-model-config, --backend-config (passed on to it): load the model for real and check it answers as
// configured. Exit 0 ok, 1 refused or wrong shapes/types, 2 could not run, 130/143 interrupted.
import type { VerifyOptions } from '../verify/verify.js';
import { repeatable, type CommandSpec } from './command.js';
import { withServerFlags } from './server-flags.js';
import { RUNTIMES } from '../verify/runtimes/index.js';

/** Replaceable parts for tests (onnxruntime-node loader, docker runner, fetch, ports, signals). */
export type VerifyDeps = NonNullable<VerifyOptions['deps']>;

let injected: VerifyDeps | undefined;
/** Tests: run the CLI with these parts instead of the real ones (undefined restores them). */
export function setVerifyDeps(deps: VerifyDeps | undefined): void {
  injected = deps;
}

export const verifyCommand: CommandSpec = {
  command: 'verify <model_dir>',
  describe: 'Load a model for real (ONNX Runtime, a Triton container, or a running Triton) and check it answers as config.pbtxt says',
  builder: (y) =>
    withServerFlags(y)
      .positional('model_dir', { type: 'string', describe: 'The model directory: <repository>/<model>, holding config.pbtxt' })
      .option('runtime', { choices: RUNTIMES.map((r) => r.name), describe: RUNTIMES.map((r) => `${r.name}: ${r.summary}`).join('; ') })
      .option('image', { type: 'string', describe: 'docker: the Triton image (default nvcr.io/nvidia/tritonserver:<release>-py3)' })
      .option('server', { type: 'string', describe: 'server: Triton\'s HTTP endpoint, e.g. http://localhost:8000' })
      .option('gpus', { type: 'string', describe: 'docker: all, none, or device ids such as 0,1 (default: all when the config uses GPUs)' })
      .option('shape', { ...repeatable('NAME:D1,D2,... the item shape (no batch dim) to send for an input with variable dims (repeatable; default: model_warmup\'s, else 1 per variable dim)') })
      .option('tritonserver', { type: 'string', describe: 'local: the tritonserver binary (default: tritonserver on PATH, else /opt/tritonserver/bin/tritonserver)' })
      .option('launcher', { type: 'string', describe: "local: the command that runs tritonserver, as words separated by spaces, e.g. 'apptainer exec --nv triton.sif' or 'srun --gpus=1'" })
      .option('reference', { choices: ['ort'] as const, describe: 'docker/local/server: send the same seeded inputs to ONNX Runtime on the CPU and compare every output (largest absolute and relative error)' })
      .option('reference-model', { type: 'string', describe: '--reference: the ONNX model to compare with (default: the one Triton loads; give it for a TensorRT engine or a Python model)' })
      .option('atol', { type: 'string', describe: '--reference: absolute tolerance (default 1e-5)' })
      .option('rtol', { type: 'string', describe: '--reference: relative tolerance (default 1e-5); an element fails when |served - ref| > atol + rtol * |ref|' })
      .option('header', { ...repeatable('server: NAME:VALUE sent with every request (repeatable), for a server started with --http-restricted-api') })
      .option('timeout', { type: 'string', default: '120s', describe: 'docker/server: how long the model may take to load, e.g. 120s, 10m' })
      .option('dry-run', { type: 'boolean', describe: 'Print the docker command and the requests verify would send, and run nothing' })
      .option('format', { choices: ['text', 'json'] as const, default: 'text', describe: 'Output format' }),
  // The implementation (execa, the KServe client and its schemas) loads only when verify runs.
  run: async (a, io) => (await import('./verify-run.js')).runVerify(a, io, injected),
};

