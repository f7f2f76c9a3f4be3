// The Kubernetes schema checker of the deployment tests (test/support/kubernetes-schema.ts) on KServe's
// kinds, against the openAPIV3Schema of KServe v0.20.0's CRDs that scripts/kserve-crds/setup.sh lays
// out (without them this file is skipped with one line; with CI=true it must run), and every KServe
// fixture held to it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kserveCrdsRun, kubernetesSchemaErrors, yamlDocuments } from '../support/kubernetes-schema.js';
import { ROOT } from '../support/snapshot.js';

const KSERVE_FIXTURES = join(ROOT, 'test', 'fixtures', 'deployments', 'kserve');

/** A valid InferenceService over an s3:// repository; each case below changes one thing of a fresh copy. */
function inferenceService(): Record<string, any> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'triton', namespace: 'models' },
    spec: {
      predictor: {
        model: {
          modelFormat: { name: 'triton' },
          runtime: 'kserve-tritonserver',
          storageUri: 's3://models/triton',
          resources: { limits: { 'nvidia.com/gpu': '1', memory: '16Gi' } },
        },
      },
    },
  };
}

describe.runIf(kserveCrdsRun("KServe's kinds against KServe's CRDs"))('kubernetesSchemaErrors on KServe kinds (KServe v0.20.0 CRDs)', () => {
  it('accepts a valid InferenceService', () => {
    expect(kubernetesSchemaErrors(inferenceService())).toEqual([]);
  });

  it('rejects a storageUri that is not a string', () => {
    const wrong = inferenceService();
    wrong.spec.predictor.model.storageUri = 5;
    expect(kubernetesSchemaErrors(wrong)).toEqual(['/spec/predictor/model/storageUri: Instance type "number" is invalid. Expected "string".']);
  });

  it('rejects an unknown field, in the spec and in the metadata', () => {
    const misspelled = inferenceService();
    misspelled.spec.predictor.model.storageURI = misspelled.spec.predictor.model.storageUri;
    delete misspelled.spec.predictor.model.storageUri;
    expect(kubernetesSchemaErrors(misspelled)).toEqual(['unknown field "spec.predictor.model.storageURI"']);
    const meta = inferenceService();
    meta.metadata.label = { app: 'triton' };
    expect(kubernetesSchemaErrors(meta)).toEqual(['unknown field "metadata.label"']);
  });

  it('rejects a missing required field: a model format without its name', () => {
    const nameless = inferenceService();
    delete nameless.spec.predictor.model.modelFormat.name;
    expect(kubernetesSchemaErrors(nameless)).toEqual(['/spec/predictor/model/modelFormat: Instance does not have required property "name".']);
  });

  it('takes an int-or-string as the API server does: a number or a string, nothing else', () => {
    const gpus = inferenceService();
    gpus.spec.predictor.model.resources.limits['nvidia.com/gpu'] = 1;
    expect(kubernetesSchemaErrors(gpus)).toEqual([]);
    gpus.spec.predictor.model.resources.limits['nvidia.com/gpu'] = true;
    expect(kubernetesSchemaErrors(gpus)).toEqual([
      '/spec/predictor/model/resources/limits/nvidia.com~1gpu: Instance type "boolean" is invalid. Expected "integer", "string".',
    ]);
  });

  it('holds a list of type map to unique keys', () => {
    const twice = inferenceService();
    twice.spec.predictor.model.ports = [
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 8080, protocol: 'TCP' },
    ];
    expect(kubernetesSchemaErrors(twice)).toEqual(['spec.predictor.model.ports[1]: Duplicate value: [8080,"TCP"]']);
  });

  it('checks ServingRuntime and ClusterServingRuntime too', () => {
    const runtime = {
      apiVersion: 'serving.kserve.io/v1alpha1',
      kind: 'ServingRuntime',
      metadata: { name: 'triton' },
      spec: {
        supportedModelFormats: [{ name: 'triton', version: '2' }],
        containers: [{ name: 'kserve-container', image: 'nvcr.io/nvidia/tritonserver:24.10-py3' }],
      },
    };
    expect(kubernetesSchemaErrors(runtime)).toEqual([]);
    expect(kubernetesSchemaErrors({ ...runtime, kind: 'ClusterServingRuntime' })).toEqual([]);
    expect(kubernetesSchemaErrors({ ...runtime, spec: { ...runtime.spec, containers: [{ image: 'i' }] } })).toEqual([
      '/spec/containers/0: Instance does not have required property "name".',
    ]);
    expect(kubernetesSchemaErrors({ ...runtime, apiVersion: 'serving.kserve.io/v1beta1' })).toEqual([
      'no matches for kind "ServingRuntime" in version "serving.kserve.io/v1beta1"',
    ]);
  });

  it('every document of the KServe fixtures is valid', () => {
    const kinds: string[] = [];
    for (const file of ['inferenceservice.yaml', 'servingruntime.yaml']) {
      for (const doc of yamlDocuments(join(KSERVE_FIXTURES, file))) {
        kinds.push(`${file}: ${(doc as { kind: string }).kind}`);
        expect([file, kubernetesSchemaErrors(doc)]).toEqual([file, []]);
      }
    }
    expect(kinds).toEqual([
      'inferenceservice.yaml: InferenceService',
      'inferenceservice.yaml: InferenceService',
      'servingruntime.yaml: ClusterServingRuntime',
      'servingruntime.yaml: ServingRuntime',
    ]);
  });
});
