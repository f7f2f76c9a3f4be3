// tritonc verify: load a model for real (ONNX Runtime, a Triton container, or a running Triton) and
// check that it answers as its config.pbtxt says.
export { verifyModel, dryRunVerify, DEFAULT_TIMEOUT_MS, type VerifyOptions, type DryRun } from './verify.js';
export { reportText, dryRunText } from './report.js';
export type { VerifyReport, VerifyProblem, BatchRun, OutputCheck, TensorReport, TritonMessage, ConfigDifference, Runtime, Outcome } from './types.js';
export { KServeClient, KServeError, normalizeServerUrl, type KServeClientOptions, type KServeErrorKind, type RequestDescription } from './kserve-client.js';
export { dockerRunArgs, containerName, gpusArgument, parseGpus, DEFAULT_TRITON_IMAGE, TRITON_RELEASE, type DockerRunSpec } from './docker-args.js';
export { TRITON_MESSAGE_RULES, classifyTritonMessage, mapTritonLog, type TritonMessageRule } from './triton-messages.js';
export { diffConfigs } from './config-diff.js';
export { parseTimeout } from './duration.js';
export { CannotRun } from './errors.js';
export type { OrtLoader } from './ort-loader.js';
export type { ProcessRunner, RunningProcess, ProcessResult } from './process-runner.js';
