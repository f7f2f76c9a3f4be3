// `tritonc verify MODEL_DIR [--runtime ort|docker|local|server] [--image IMAGE] [--server URL] [--gpus ...]
// [--tritonserver PATH] [--launcher 'CMD ARGS']
// [--timeout 120s] [--dry-run] [--format text|json]`, and for docker tritonserver's
// --disable-auto-complete-config, --strict-model-config, --backend-config (passed on to it): load the model for real and check it answers as
// configured. Exit 0 ok, 1 refused or wrong shapes/types, 2 could not run, 130/143 interrupted.
import type { VerifyOptions } from '../verify/verify.js';
import { defineCommand } from './command.js';
import { verifyFlags } from './verify-flags.js';

/** Replaceable parts for tests (onnxruntime-node loader, docker runner, fetch, ports, signals). */
export type VerifyDeps = NonNullable<VerifyOptions['deps']>;

let injected: VerifyDeps | undefined;
/** Tests: run the CLI with these parts instead of the real ones (undefined restores them). */
export function setVerifyDeps(deps: VerifyDeps | undefined): void {
  injected = deps;
}

export const verifyCommand = defineCommand({
  command: 'verify <model_dir>',
  describe: 'Load a model for real (ONNX Runtime, a Triton container, or a running Triton) and check it answers as config.pbtxt says',
  builder: verifyFlags,
  // The implementation (execa, the KServe client and its schemas) loads only when verify runs.
  run: async (a, io) => (await import('./verify-run.js')).runVerify(a, io, injected),
});
