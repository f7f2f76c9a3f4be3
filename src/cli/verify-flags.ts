// verify's flags, declared once: the command (verify.ts) and its implementation (verify-run.ts),
// which loads only when verify runs, both read them from here.
import type { Argv } from 'yargs';
import { repeatable, type FlagsOf } from './command.js';
import { withServerFlags } from './server-flags.js';
import { RUNTIMES } from '../verify/runtimes/index.js';
import { ENGINES } from '../verify/docker-args.js';

export const verifyFlags = (y: Argv) =>
  withServerFlags(y)
    .positional('model_dir', { type: 'string', demandOption: true, describe: 'The model directory: <repository>/<model>, holding config.pbtxt' })
    .option('runtime', { choices: RUNTIMES.map((r) => r.name), describe: RUNTIMES.map((r) => `${r.name}: ${r.summary}`).join('; ') })
    .option('engine', { choices: ENGINES, describe: 'docker: the container engine that runs the image: docker (default) or podman' })
    .option('image', { type: 'string', describe: 'docker: the Triton image (default nvcr.io/nvidia/tritonserver:<release>-py3)' })
    .option('server', { type: 'string', describe: "server: Triton's HTTP endpoint, e.g. http://localhost:8000" })
    .option('gpus', { type: 'string', describe: 'docker: all, none, or device ids such as 0,1 (default: all when the config uses GPUs)' })
    .option('shape', {
      ...repeatable(
        "NAME:D1,D2,... the item shape (no batch dim) to send for an input with variable dims (repeatable; default: model_warmup's, else 1 per variable dim)",
      ),
    })
    .option('tritonserver', {
      type: 'string',
      describe: 'local: the tritonserver binary (default: tritonserver on PATH, else /opt/tritonserver/bin/tritonserver)',
    })
    .option('launcher', {
      type: 'string',
      describe: "local: the command that runs tritonserver, as words separated by spaces, e.g. 'apptainer exec --nv triton.sif' or 'srun --gpus=1'",
    })
    .option('reference', {
      choices: ['ort'] as const,
      describe:
        'docker/local/server: send the same inputs (--input/--inputs, else seeded) to ONNX Runtime on the CPU and compare every output (largest absolute and relative error)',
    })
    .option('input', {
      ...repeatable(
        '--reference: NAME=FILE, the data for input NAME: an .npy (np.save) or a .json (nested arrays, or {"shape", "datatype", "data"}); repeatable; inputs not given are seeded',
      ),
    })
    .option('inputs', {
      type: 'string',
      describe: '--reference: one file holding inputs by name: an .npz (np.savez(path, NAME=array, ...)) or a JSON object keyed by input name',
    })
    .option('reference-model', {
      type: 'string',
      describe: '--reference: the ONNX model to compare with (default: the one Triton loads; give it for a TensorRT engine or a Python model)',
    })
    .option('atol', {
      type: 'string',
      describe: '--reference: absolute tolerance (default 1e-5); a tolerance that reaches every |reference| value decided nothing: exit 2',
    })
    .option('rtol', { type: 'string', describe: '--reference: relative tolerance (default 1e-5); an element fails when |served - ref| > atol + rtol * |ref|' })
    .option('header', { ...repeatable('server: NAME:VALUE sent with every request (repeatable), for a server started with --http-restricted-api') })
    .option('timeout', {
      type: 'string',
      default: '120s',
      describe: 'docker/local/server: how long the model may take to load, e.g. 120s, 10m; a bare number is seconds',
    })
    .option('dry-run', { type: 'boolean', describe: 'Print the docker command and the requests verify would send, and run nothing' })
    .option('format', { choices: ['text', 'json'] as const, default: 'text', describe: 'Output format' });

/** verify's flags, parsed. */
export type VerifyArgs = FlagsOf<typeof verifyFlags>;
