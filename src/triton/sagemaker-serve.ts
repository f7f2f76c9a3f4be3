// What NVIDIA's SageMaker image runs: server docker/sagemaker/serve (r24.10, e0f0734d; unchanged in
// what is used here through r26.08) starts tritonserver from the container's environment. The
// single-model endpoint serves /opt/ml/model/ (SageMaker unpacks ModelDataUrl there) in explicit mode
// and loads one model, SAGEMAKER_TRITON_DEFAULT_MODEL_NAME (an ensemble loads the models it runs);
// a multi-model endpoint (SAGEMAKER_MULTI_MODEL=true) serves an empty /tmp/sagemaker and loads each
// model through SageMaker's API. The script's own checks, with its messages, are `serveScriptChecks`.

export const SAGEMAKER_SINGLE_MODEL_REPO = '/opt/ml/model/';
export const SAGEMAKER_MULTI_MODEL_REPO = '/tmp/sagemaker';
export const DEFAULT_MODEL_VARIABLE = 'SAGEMAKER_TRITON_DEFAULT_MODEL_NAME';
export const ADDITIONAL_ARGS_VARIABLE = 'SAGEMAKER_TRITON_ADDITIONAL_ARGS';

/** Whether the script runs a multi-model endpoint (serve:49: `"$SAGEMAKER_MULTI_MODEL" == "true"`). */
export const isMultiModel = (env: (name: string) => string | undefined): boolean => env('SAGEMAKER_MULTI_MODEL') === 'true';

/**
 * The tritonserver arguments the script gives (serve:63-134, 169), in its order, without the
 * --load-model the default model adds (serve:145-166) and before SAGEMAKER_TRITON_ADDITIONAL_ARGS.
 */
export function serveScriptArgs(env: (name: string) => string | undefined): string[] {
  const args = ['--allow-sagemaker=true', '--allow-http=false', '--model-control-mode=explicit'];
  args.push(`--model-repository=${isMultiModel(env) ? SAGEMAKER_MULTI_MODEL_REPO : SAGEMAKER_SINGLE_MODEL_REPO}`);
  args.push(`--model-namespacing=${env('SAGEMAKER_TRITON_DISABLE_MODEL_NAMESPACING') ?? 'true'}`);
  args.push(`--allow-grpc=${env('SAGEMAKER_TRITON_ALLOW_GRPC') ?? 'false'}`);
  args.push(`--allow-metrics=${env('SAGEMAKER_TRITON_ALLOW_METRICS') ?? 'false'}`);
  args.push(`--backend-config=python,shm-default-byte-size=${env('SAGEMAKER_TRITON_SHM_DEFAULT_BYTE_SIZE') ?? '16777216'}`);
  args.push(`--backend-config=python,shm-growth-byte-size=${env('SAGEMAKER_TRITON_SHM_GROWTH_BYTE_SIZE') ?? '1048576'}`);
  const tf = env('SAGEMAKER_TRITON_TENSORFLOW_VERSION');
  if (tf) args.push(`--backend-config=tensorflow,version=${tf}`);
  return args;
}

/** The script's checks of the single-model repository before it starts the server, in its words. */
export const SERVE_SCRIPT_MESSAGES = {
  /** serve:137-140: a config.pbtxt at the top of /opt/ml/model. */
  modelAtTop: 'ERROR: Incorrect directory structure. Model directory needs to contain the top level folder',
  /** serve:146-148. */
  defaultMissing: 'ERROR: Directory with provided SAGEMAKER_TRITON_DEFAULT_MODEL_NAME <name> does not exist',
  /** serve:153. */
  noModel: 'ERROR: No model found in model repository',
  /** serve:156-157: one model directory and no name: that one is served. */
  onlyModel: 'WARNING: No SAGEMAKER_TRITON_DEFAULT_MODEL_NAME provided. Starting with the only existing model directory <name>',
  /** serve:160-162. */
  severalModels:
    'ERROR: More than 1 model directory found in model repository. Either provide a single directory or set SAGEMAKER_TRITON_DEFAULT_MODEL_NAME to run the ensemble backend.',
} as const;
