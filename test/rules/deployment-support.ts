// Manifests the deployment rules' tests run: a Pod running tritonserver over /models, shaped by each
// case (image, args, resources), and a SageMaker CreateModel request.
export interface PodShape {
  image?: string | null;
  args?: string[];
  resources?: string;
}

/** A Pod at deploy/triton.yaml whose container runs tritonserver --model-repository=/models. */
export function pod({ image = 'nvcr.io/nvidia/tritonserver:24.10-py3', args = [], resources }: PodShape = {}): string {
  return [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: triton',
    'spec:',
    '  containers:',
    '    - name: server',
    ...(image === null ? [] : [`      image: ${image}`]),
    `      args: ${JSON.stringify(['tritonserver', '--model-repository=/models', ...args])}`,
    ...(resources ? ['      resources:', ...resources.split('\n').map((l) => `        ${l}`)] : []),
    '',
  ].join('\n');
}

/** A CreateModel request for NVIDIA's SageMaker image with `environment`. */
export function createModel(environment: Record<string, string>, modelDataUrl = 's3://bucket/model.tar.gz'): string {
  return JSON.stringify(
    {
      ModelName: 'm',
      PrimaryContainer: {
        Image: '123456789012.dkr.ecr.us-east-1.amazonaws.com/sagemaker-tritonserver:24.10-py3',
        ModelDataUrl: modelDataUrl,
        Environment: environment,
      },
    },
    null,
    2,
  );
}

export const ORT_MODEL = { 'classifier/config.pbtxt': 'backend: "onnxruntime"\n', 'classifier/1/model.onnx': '' };
