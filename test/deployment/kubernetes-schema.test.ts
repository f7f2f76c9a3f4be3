// The Kubernetes schema checker of the deployment tests (test/support/kubernetes-schema.ts) on the
// built-in kinds: what it accepts, what it rejects, and that every Kubernetes fixture passes it.
// KServe's kinds, which need the CRDs of scripts/kserve-crds/setup.sh, are in kserve-schema.test.ts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubernetesSchemaErrors, yamlDocuments } from '../support/kubernetes-schema.js';
import { ROOT } from '../support/snapshot.js';

const KUBERNETES_FIXTURES = join(ROOT, 'test', 'fixtures', 'deployments', 'kubernetes');

/** A valid Deployment of tritonserver; each case below changes one thing of a fresh copy. */
function deployment(): Record<string, any> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'triton', labels: { app: 'triton' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'triton' } },
      template: {
        metadata: { labels: { app: 'triton' } },
        spec: {
          containers: [
            {
              name: 'tritonserver',
              image: 'nvcr.io/nvidia/tritonserver:24.10-py3',
              command: ['tritonserver'],
              args: ['--model-repository=s3://models/triton', '--model-control-mode=poll'],
              resources: { limits: { 'nvidia.com/gpu': 1, memory: '16Gi' } },
              ports: [{ containerPort: 8000, name: 'http' }],
              readinessProbe: { httpGet: { path: '/v2/health/ready', port: 'http' } },
            },
          ],
        },
      },
    },
  };
}

describe('kubernetesSchemaErrors on built-in kinds (kubernetes-models 5.1.0)', () => {
  it('accepts a valid Deployment, Service, Job and ConfigMap', () => {
    expect(kubernetesSchemaErrors(deployment())).toEqual([]);
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 't' },
      spec: { selector: { app: 't' }, ports: [{ port: 8000, targetPort: 'http' }] },
    };
    expect(kubernetesSchemaErrors(service)).toEqual([]);
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'perf' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'p', image: 'nvcr.io/nvidia/tritonserver:24.10-py3-sdk' }] } } },
    };
    expect(kubernetesSchemaErrors(job)).toEqual([]);
    expect(kubernetesSchemaErrors({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'config.pbtxt': 'name: "m"' } })).toEqual([]);
  });

  it('rejects a misspelled field: a required one as missing, an optional one as unknown', () => {
    const missing = deployment();
    const pod = missing.spec.template.spec;
    pod.containres = pod.containers;
    delete pod.containers;
    expect(kubernetesSchemaErrors(missing)).toEqual([
      '/spec/template/spec: must have required property containers',
      'unknown field "spec.template.spec.containres"',
    ]);

    const optional = deployment();
    const container = optional.spec.template.spec.containers[0];
    container.resouces = container.resources;
    delete container.resources;
    expect(kubernetesSchemaErrors(optional)).toEqual(['unknown field "spec.template.spec.containers[0].resouces"']);
  });

  it('rejects a value of the wrong type', () => {
    const wrong = deployment();
    wrong.spec.replicas = 'two';
    expect(kubernetesSchemaErrors(wrong)).toEqual(['/spec/replicas: must be integer']);
  });

  it('rejects a container without a name', () => {
    const nameless = deployment();
    delete nameless.spec.template.spec.containers[0].name;
    expect(kubernetesSchemaErrors(nameless)).toEqual(['/spec/template/spec/containers/0: must have required property name']);
  });

  it('rejects a resource quantity that is not one', () => {
    const wrong = deployment();
    wrong.spec.template.spec.containers[0].resources.limits.memory = '16 GB';
    // A quantity is a number or a string of quantity's format (oneOf): the schema says both branches fail.
    expect(kubernetesSchemaErrors(wrong)).toContain('/spec/template/spec/containers/0/resources/limits/memory: must match format "quantity"');
  });

  it('keeps maps and free values open: labels, annotations, ConfigMap data are any keys', () => {
    const labelled = deployment();
    labelled.metadata.annotations = { 'prometheus.io/scrape': 'true', 'any.example/key': 'v' };
    labelled.spec.template.metadata.labels['team.example/owner'] = 'ml';
    expect(kubernetesSchemaErrors(labelled)).toEqual([]);
  });

  it('rejects an unknown kind, an apiVersion that does not serve the kind, and a manifest without them', () => {
    expect(kubernetesSchemaErrors({ ...deployment(), kind: 'Deploymnet' })).toEqual(['no matches for kind "Deploymnet" in version "apps/v1"']);
    // Removed from Kubernetes in 1.16 and 1.26: a current cluster serves neither.
    expect(kubernetesSchemaErrors({ ...deployment(), apiVersion: 'extensions/v1beta1' })).toEqual([
      'no matches for kind "Deployment" in version "extensions/v1beta1"',
    ]);
    expect(kubernetesSchemaErrors({ apiVersion: 'autoscaling/v2beta2', kind: 'HorizontalPodAutoscaler' })).toEqual([
      'no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v2beta2"',
    ]);
    expect(kubernetesSchemaErrors({ kind: 'Deployment' })).toEqual(['apiVersion: required, a string']);
    expect(kubernetesSchemaErrors(['a list'])).toEqual(['a manifest is a mapping with apiVersion and kind']);
  });

  it('every document of the Kubernetes fixtures is valid', () => {
    const files = readdirSync(KUBERNETES_FIXTURES).filter((f) => f.endsWith('.yaml'));
    expect(files.sort()).toEqual(['triton-deployment.yaml', 'triton-job.yaml', 'triton-shell.yaml']);
    const kinds: string[] = [];
    for (const file of files) {
      for (const doc of yamlDocuments(join(KUBERNETES_FIXTURES, file))) {
        kinds.push(`${file}: ${(doc as { kind: string }).kind}`);
        expect([file, kubernetesSchemaErrors(doc)]).toEqual([file, []]);
      }
    }
    expect(kinds).toEqual(['triton-deployment.yaml: Deployment', 'triton-deployment.yaml: Service', 'triton-job.yaml: Job', 'triton-shell.yaml: StatefulSet']);
  });
});
