// A tritonserver run as a native sidecar (an init container with restartPolicy Always: KEP-753,
// https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/) runs for the pod's life and
// is a server; an init container without it runs to completion before the pod's containers start, and
// serves nothing. tune plan --kubernetes-jobs starts its servers so (test/tune/kubernetes-jobs.test.ts).
import { describe, expect, it } from 'vitest';
import { parseManifestText } from '../../src/deployment/manifest-text.js';
import { serversOf } from '../../src/deployment/read.js';

const job = (restartPolicy: string | undefined) => `apiVersion: batch/v1
kind: Job
metadata:
  name: sweep
spec:
  template:
    spec:
      restartPolicy: Never
      initContainers:
        - name: server
          image: nvcr.io/nvidia/tritonserver:24.10-py3
${restartPolicy ? `          restartPolicy: ${restartPolicy}\n` : ''}          args: [tritonserver, --model-repository=s3://bucket/plan, --model-control-mode=explicit, --load-model=m_i2]
          resources:
            limits:
              nvidia.com/gpu: 1
              memory: 4Gi
      containers:
        - name: upload
          image: amazon/aws-cli:2.17.0
          command: [aws, s3, cp, --recursive, /results, s3://bucket/results/]
`;

describe('Kubernetes init containers', () => {
  it('reads a native sidecar running tritonserver as a server, with its flags, GPUs, memory and where it is written', () => {
    const servers = serversOf(parseManifestText(job('Always'), 'jobs.yaml'));
    expect(servers.map((s) => s.name)).toEqual(['Job sweep, container server']);
    const [s] = servers;
    expect(s!.image?.value).toBe('nvcr.io/nvidia/tritonserver:24.10-py3');
    expect(s!.gpus?.count).toBe(1);
    expect(s!.memoryLimit?.value).toBe(4 * 2 ** 30);
    expect(s!.words.map((w) => w.value)).toEqual(['--model-repository=s3://bucket/plan', '--model-control-mode=explicit', '--load-model=m_i2']);
    expect(s!.at.range.start.line).toBe(10);
  });

  it('reads a regular init container (run to completion first) as no server', () => {
    expect(serversOf(parseManifestText(job(undefined), 'jobs.yaml'))).toEqual([]);
    expect(serversOf(parseManifestText(job('OnFailure'), 'jobs.yaml'))).toEqual([]);
  });
});
