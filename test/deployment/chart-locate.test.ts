// locateInChart on the test chart (test/fixtures/deployments/charts/triton-onprem): the template line
// that writes a rendered key, and the values file's range of the `.Values` key that gave its value
// (the user's files, the last first, then the chart's values.yaml; a --set wins over all).
// test/deployment/helm.test.ts checks against the real helm that the place is the value it rendered.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateInChart } from '../../src/deployment/chart-locate.js';
import { DeploymentInputError } from '../../src/deployment/errors.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const CHART = join(ROOT, 'test/fixtures/deployments/charts/triton-onprem');
const DEPLOYMENT = join(CHART, 'templates/deployment.yaml');
const SERVICE = join(CHART, 'templates/service.yaml');

/** The 1-based line and column where `text` is in `file` (it must be there once). */
function placeOf(file: string, text: string): { line: number; column: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = lines.flatMap((l, i) => (l.includes(text) ? [{ line: i + 1, column: l.indexOf(text) + 1 }] : []));
  expect(found, text).toHaveLength(1);
  return found[0]!;
}

function valuesFile(text: string): string {
  const file = join(tempDir('tritonc-locate-'), 'values.yaml');
  writeFileSync(file, text);
  return file;
}

describe('locateInChart', () => {
  it("a container's image: the template's line, and the chart's values.yaml where image.imageName is set", () => {
    const found = locateInChart(CHART, DEPLOYMENT, 'spec.template.spec.containers[0].image');
    const value = placeOf(join(CHART, 'values.yaml'), 'nvcr.io/nvidia/tritonserver:24.10-py3');
    expect(found).toEqual({
      template: {
        file: DEPLOYMENT,
        ...placeOf(DEPLOYMENT, 'image: {{ .Values.image.imageName }}'),
        path: ['spec', 'template', 'spec', 'containers', 0, 'image'],
        exact: true,
      },
      valuesKey: 'image.imageName',
      values: {
        file: join(CHART, 'values.yaml'),
        ...value,
        endLine: value.line,
        endColumn: value.column + 'nvcr.io/nvidia/tritonserver:24.10-py3'.length,
      },
    });
  });

  it("the user's values files, the last given first, then the chart's; a --set wins over them", () => {
    const first = valuesFile('image:\n  imageName: nvcr.io/nvidia/tritonserver:24.12-py3\n');
    const second = valuesFile('# no image here\nreplicaCount: 2\n');
    const key = 'spec.template.spec.containers[0].image';
    expect(locateInChart(CHART, DEPLOYMENT, key, { values: [first, second] })?.values).toEqual({ file: first, line: 2, column: 14, endLine: 2, endColumn: 51 });
    const last = valuesFile('image:\n  pullPolicy: Always\n  imageName: "nvcr.io/nvidia/tritonserver:25.01-py3"\n');
    expect(locateInChart(CHART, DEPLOYMENT, key, { values: [first, last] })?.values).toEqual({ file: last, line: 3, column: 14, endLine: 3, endColumn: 53 });
    expect(
      locateInChart(CHART, DEPLOYMENT, key, { values: [first], set: ['replicaCount=2,image.imageName=nvcr.io/nvidia/tritonserver:25.02-py3'] }),
    ).toMatchObject({
      valuesKey: 'image.imageName',
      set: 'replicaCount=2,image.imageName=nvcr.io/nvidia/tritonserver:25.02-py3',
    });
    expect(locateInChart(CHART, DEPLOYMENT, key, { values: [first] })?.set).toBeUndefined();
  });

  it('an argument written around a value, a quoted key, and a key with dots by its parts', () => {
    const args = locateInChart(CHART, DEPLOYMENT, 'spec.template.spec.containers[0].args[1]');
    // An item's place is its `-`.
    expect(args?.template).toMatchObject({ ...placeOf(DEPLOYMENT, '- --model-repository='), exact: true });
    expect(args?.valuesKey).toBe('image.modelRepositoryPath');
    const path = placeOf(join(CHART, 'values.yaml'), 'modelRepositoryPath: /models');
    expect(args?.values).toMatchObject({ line: path.line, column: path.column + 'modelRepositoryPath: '.length });
    // The literal flags have no values key.
    expect(locateInChart(CHART, DEPLOYMENT, 'spec.template.spec.containers[0].args[2]')).toEqual({
      template: {
        file: DEPLOYMENT,
        ...placeOf(DEPLOYMENT, '- --model-control-mode=poll'),
        path: ['spec', 'template', 'spec', 'containers', 0, 'args', 2],
        exact: true,
      },
    });
    for (const key of [
      'spec.template.spec.containers[0].resources.limits["nvidia.com/gpu"]',
      ['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'nvidia.com/gpu'],
    ]) {
      const gpus = locateInChart(CHART, DEPLOYMENT, key);
      expect(gpus?.template).toMatchObject(placeOf(DEPLOYMENT, 'nvidia.com/gpu: {{ .Values.image.numGpus }}'));
      const numGpus = placeOf(join(CHART, 'values.yaml'), 'numGpus: 1');
      expect(gpus?.values).toMatchObject({ line: numGpus.line, column: numGpus.column + 'numGpus: '.length });
    }
    // The probes after the ports: the sequence of ports ended where the next key at its parent's indent began.
    expect(locateInChart(CHART, DEPLOYMENT, 'spec.template.spec.containers[0].livenessProbe.httpGet.path')?.template).toMatchObject({
      ...placeOf(DEPLOYMENT, 'path: /v2/health/live'),
      exact: true,
    });
  });

  it('a key an action writes is not found: the nearest enclosing key is, not exact', () => {
    // metadata.labels are written by `include ... | nindent 4`.
    expect(locateInChart(CHART, DEPLOYMENT, 'metadata.labels.app')).toEqual({
      template: { file: DEPLOYMENT, line: placeOf(DEPLOYMENT, 'chart: {{').line - 2, column: 3, path: ['metadata', 'labels'], exact: false },
    });
    expect(locateInChart(CHART, DEPLOYMENT, 'no.such.key')).toBeUndefined();
    expect(locateInChart(CHART, DEPLOYMENT, 'spec..x')).toBeUndefined();
  });

  it("picks the template's document by kind and index, as helm keeps them", () => {
    const metrics = locateInChart(CHART, SERVICE, 'spec.ports[0].port', { kind: 'Service', index: 1 });
    expect(metrics?.template).toMatchObject({ ...placeOf(SERVICE, 'port: 8080'), exact: true });
    const first = locateInChart(CHART, SERVICE, 'spec.ports[2].port', { kind: 'Service' });
    expect(first?.template).toMatchObject(placeOf(SERVICE, 'port: 8002'));
    expect(locateInChart(CHART, SERVICE, 'spec.ports[0].port', { kind: 'Deployment' })).toBeUndefined();
    expect(locateInChart(CHART, SERVICE, 'spec.ports[0].port', { index: 2 })).toBeUndefined();
  });

  it('block scalars, quoted keys and forms of .Values', () => {
    const dir = tempDir('tritonc-locate-chart-');
    const template = join(dir, 'cm.yaml');
    writeFileSync(
      template,
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'data:',
        '  script: |',
        '    a: {{ .Values.a }}',
        '    b: 2',
        '  "quoted: key": {{ .Values.q | quote }}',
        '  other: {{ default "x" .Values.o.p }}',
        '  two: {{ .Values.a }}-{{ .Values.b }}',
        '  computed: {{ .Values.a | upper }}',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'values.yaml'), 'q: 1\no:\n  p: 2\n');
    expect(locateInChart(dir, template, 'data.script.a')?.template).toMatchObject({ path: ['data', 'script'], exact: false });
    expect(locateInChart(dir, template, 'data["quoted: key"]')).toMatchObject({
      template: { line: 7, column: 3 },
      valuesKey: 'q',
      values: { line: 1, column: 4 },
    });
    expect(locateInChart(dir, template, 'data.other')).toMatchObject({ template: { line: 8 }, valuesKey: 'o.p', values: { line: 3, column: 6 } });
    // Two actions, or a function that changes the value: the value is not the values file's.
    expect(locateInChart(dir, template, 'data.two')?.valuesKey).toBeUndefined();
    expect(locateInChart(dir, template, 'data.computed')?.valuesKey).toBeUndefined();
  });

  it('a values file over 8 MiB is refused before it is read', () => {
    const text = `image:\n  imageName: x\n#${'x'.repeat(8 * 1024 * 1024)}\n`;
    const big = valuesFile(text);
    expect(() => locateInChart(CHART, DEPLOYMENT, 'spec.template.spec.containers[0].image', { values: [big] })).toThrow(DeploymentInputError);
    expect(() => locateInChart(CHART, DEPLOYMENT, 'spec.template.spec.containers[0].image', { values: [big] })).toThrow(
      `"${big}" is ${text.length.toLocaleString('en-US')} bytes, more than the 8 MiB tritonc reads of a chart's file`,
    );
  });
});
