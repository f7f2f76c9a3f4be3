// renderChart with the real helm (v4.3.2, scripts/helm/setup.sh): the test chart in NVIDIA's on-prem
// shape rendered with the user's values, each document tied to its template, helm's own errors
// placed at the template's line, and nothing of a hostile value reaching a shell or a terminal.
// Without the built helm the suite is skipped with one line; with CI=true it must run.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { locateInChart } from '../../src/deployment/chart-locate.js';
import { DeploymentInputError } from '../../src/deployment/errors.js';
import { HELM_INSTALL_HINT, renderChart, type RenderedChart } from '../../src/deployment/helm.js';
import { helmBinary } from '../support/helm.js';
import { kubernetesSchemaErrors } from '../support/kubernetes-schema.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const helm = helmBinary('Helm chart rendering tests (test/deployment/helm.test.ts)');
const CHART = join(ROOT, 'test/fixtures/deployments/charts/triton-onprem');

/** The documents of a render: each source with the text from its `# Source:` line to the next one. */
function documents(rendered: RenderedChart): { source: string; file?: string; text: string }[] {
  return rendered.sources.map((s, i) => ({
    source: s.source,
    ...(s.file ? { file: s.file } : {}),
    text: rendered.text.slice(s.start, rendered.sources[i + 1]?.start ?? rendered.text.length),
  }));
}

/** A chart of its own in a temporary directory: Chart.yaml named `name`, and `templates`. */
function chart(name: string, templates: Record<string, string>, values = ''): string {
  const dir = join(tempDir('tritonc-helm-'), name);
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`);
  writeFileSync(join(dir, 'values.yaml'), values);
  for (const [file, text] of Object.entries(templates)) writeFileSync(join(dir, 'templates', file), text);
  return dir;
}

/** The error renderChart rejects with. */
async function failure(promise: Promise<unknown>): Promise<DeploymentInputError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeploymentInputError);
  return error as DeploymentInputError;
}

describe.runIf(helm)('renderChart with the real helm', () => {
  it('renders the on-prem chart: each document after its # Source: line, tied to the template file', async () => {
    const rendered = await renderChart(CHART, { helm, releaseName: 'prod', namespace: 'inference' });
    const docs = documents(rendered);
    // helm orders what it installs by kind (Services before Deployments: helm v4.3.2 pkg/release/v1/util/kind_sorter.go),
    // and writes a template of two documents as two, each with its own # Source: line.
    expect(docs.map((d) => [d.source, d.file])).toEqual([
      ['triton-onprem/templates/service.yaml', join(CHART, 'templates/service.yaml')],
      ['triton-onprem/templates/service.yaml', join(CHART, 'templates/service.yaml')],
      ['triton-onprem/templates/deployment.yaml', join(CHART, 'templates/deployment.yaml')],
    ]);
    for (const d of docs) expect(d.text.startsWith(`# Source: ${d.source}\n`)).toBe(true);
    expect(rendered.text.slice(rendered.sources[0]!.start - 4, rendered.sources[0]!.start)).toBe('---\n');
    const [service, metrics, deployment] = docs.map((d) => d.text);
    expect(service).toContain('name: prod-triton-onprem\n');
    expect(service).toMatch(/port: 8000\n[^]*port: 8001\n[^]*port: 8002\n/);
    expect(metrics).toContain('name: prod-triton-onprem-metrics\n');
    expect(deployment).toContain('kind: Deployment\n');
    expect(deployment).toContain('namespace: inference\n');
    expect(deployment).toContain('image: nvcr.io/nvidia/tritonserver:24.10-py3\n');
    expect(deployment).toContain(
      '- tritonserver\n            - --model-repository=/models\n            - --model-control-mode=poll\n            - --repository-poll-secs=30\n',
    );
    expect(deployment).toContain('nvidia.com/gpu: 1\n');
    expect(deployment).toMatch(/readinessProbe:\n\s+httpGet:\n\s+path: \/v2\/health\/ready\n/);
    expect(deployment).toMatch(/livenessProbe:\n\s+httpGet:\n\s+path: \/v2\/health\/live\n/);
    // Nothing of the template comments that name NVIDIA's files reaches the output.
    expect(rendered.text).not.toContain('Imitates');
  });

  it('every document the chart renders is one the Kubernetes API server accepts', async () => {
    const s3 = join(tempDir('tritonc-helm-schema-'), 's3.yaml');
    writeFileSync(s3, 'image:\n  modelRepositoryPath: s3://bucket/models\n  modelRepositoryServer: ""\nextraServerArgs: ["--strict-model-config=false"]\n');
    for (const values of [[], [s3]]) {
      const rendered = await renderChart(CHART, { helm, values });
      const docs = parseAllDocuments(rendered.text);
      expect(docs.map((d) => [d.errors, d.toJS()?.kind as unknown])).toEqual([
        [[], 'Service'],
        [[], 'Service'],
        [[], 'Deployment'],
      ]);
      for (const doc of docs) expect(kubernetesSchemaErrors(doc.toJS())).toEqual([]);
      // The parser's documents start where renderChart's sources say (each after its `# Source:` line).
      expect(docs.map((d) => rendered.text.lastIndexOf('# Source: ', d.contents!.range[0]))).toEqual(rendered.sources.map((s) => s.start));
    }
  });

  it("renders the user's values files in order (the last wins), then --set over them", async () => {
    const dir = tempDir('tritonc-helm-values-');
    const newer = join(dir, 'newer.yaml');
    writeFileSync(newer, 'image:\n  imageName: nvcr.io/nvidia/tritonserver:24.12-py3\n  numGpus: 2\n');
    const s3 = join(dir, 's3.yaml');
    writeFileSync(s3, 'image:\n  modelRepositoryPath: s3://bucket/models\n  modelRepositoryServer: ""\n');
    const rendered = await renderChart(CHART, { helm, values: [newer, s3] });
    expect(rendered.text).toContain('image: nvcr.io/nvidia/tritonserver:24.12-py3\n');
    expect(rendered.text).not.toContain('24.10-py3');
    expect(rendered.text).toContain('- --model-repository=s3://bucket/models\n');
    expect(rendered.text).toContain('nvidia.com/gpu: 2\n');
    // With no NFS server the chart mounts no volume.
    expect(rendered.text).not.toContain('nfs:');
    // helm's default release name, as `helm template CHART` uses (helm v4.3.2 pkg/cmd/template.go:105).
    expect(rendered.text).toContain('name: release-name-triton-onprem\n');

    const later = join(dir, 'later.yaml');
    writeFileSync(later, 'image:\n  imageName: nvcr.io/nvidia/tritonserver:25.01-py3\n');
    const both = await renderChart(CHART, { helm, values: [newer, later], set: ['image.numGpus=4'] });
    expect(both.text).toContain('image: nvcr.io/nvidia/tritonserver:25.01-py3\n');
    expect(both.text).toContain('nvidia.com/gpu: 4\n');
  });

  it('locateInChart points at the values file text that helm rendered into the manifest', async () => {
    const values = join(tempDir('tritonc-helm-locate-'), 'prod.yaml');
    writeFileSync(values, '# production\nimage:\n  imageName: "nvcr.io/nvidia/tritonserver:24.12-py3"\n');
    const options = { values: [values], set: ['image.numGpus=2'] };
    const rendered = await renderChart(CHART, { helm, ...options });
    const deployment = rendered.sources.find((s) => s.source === 'triton-onprem/templates/deployment.yaml')!;
    /** The text of a values range. */
    const textAt = (place: { file: string; line: number; column: number; endLine: number; endColumn: number }): string => {
      const lines = readFileSync(place.file, 'utf8').split('\n');
      expect(place.endLine).toBe(place.line);
      return lines[place.line - 1]!.slice(place.column - 1, place.endColumn - 1);
    };
    const image = locateInChart(CHART, deployment.file!, 'spec.template.spec.containers[0].image', options)!;
    expect(image.values!.file).toBe(values);
    // The range is the value as written (quoted here); helm rendered what it says.
    const written = textAt(image.values!);
    expect(written).toBe('"nvcr.io/nvidia/tritonserver:24.12-py3"');
    expect(rendered.text).toContain(`image: ${JSON.parse(written) as string}\n`);
    const repository = locateInChart(CHART, deployment.file!, 'spec.template.spec.containers[0].args[1]', options)!;
    expect(repository.values!.file).toBe(join(CHART, 'values.yaml'));
    expect(rendered.text).toContain(`- --model-repository=${textAt(repository.values!)}\n`);
    expect(locateInChart(CHART, deployment.file!, 'spec.template.spec.containers[0].resources.limits["nvidia.com/gpu"]', options)?.set).toBe('image.numGpus=2');
    expect(rendered.text).toContain('nvidia.com/gpu: 2\n');
  });

  it("a template that fails to render is helm's own message, at the template's line and column", async () => {
    const dir = chart('broken', { 'deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Values.server.name }}\n' });
    const error = await failure(renderChart(dir, { helm }));
    // helm's own lines (helm v4.3.2 pkg/engine/engine.go:366, TraceableError.String), joined into one.
    expect(error.message).toBe(
      `helm template could not render the chart "${dir}"; fix the chart or its values. helm said: Error: broken/templates/deployment.yaml:4:18 executing "broken/templates/deployment.yaml" at <.Values.server.name>: nil pointer evaluating interface {}.name`,
    );
    expect([error.file, error.line, error.column]).toEqual([join(dir, 'templates/deployment.yaml'), 4, 18]);

    // A template that does not parse (a misspelt function): Go's parser says `parse error at (NAME:LINE)`.
    const misspelt = chart('misspelt', { 'service.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n  labels:\n    a: {{ .Values.a | qoute }}\n' });
    const parse = await failure(renderChart(misspelt, { helm }));
    expect(parse.message).toContain('helm said: Error: parse error at (misspelt/templates/service.yaml:6): function "qoute" not defined');
    expect([parse.file, parse.line, parse.column]).toEqual([join(misspelt, 'templates/service.yaml'), 6, undefined]);

    // The chart's own words (required), as helm prints them.
    const required = chart('needs', {
      'cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ required "set modelRepository: the S3 URL of the repository" .Values.modelRepository }}\n',
    });
    const said = await failure(renderChart(required, { helm }));
    expect(said.message).toContain('set modelRepository: the S3 URL of the repository');
    expect([said.file, said.line]).toEqual([join(required, 'templates/cm.yaml'), 4]);
  });

  it('hostile values reach helm as they are, never a shell, and are escaped in errors', async () => {
    const dir = tempDir('tritonc-helm-hostile-');
    const marker = join(dir, 'pwned');
    const payload = `$(touch ${marker}); \`touch ${marker}\` | touch ${marker}\nsecond line\u001b[31m red`;
    const echo = chart('echo', { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: echo\ndata:\n  payload: {{ .Values.payload | quote }}\n' });
    const rendered = await renderChart(echo, { helm, set: [`payload=${payload}`] });
    expect(existsSync(marker)).toBe(false);
    // helm got the value byte for byte: its quote writes it as a Go string literal.
    expect(rendered.text).toContain(`payload: ${JSON.stringify(payload).replace('\\u001b', '\\x1b')}\n`);

    // The chart fails with the hostile value in helm's message: no escape character reaches the terminal.
    const fails = chart('fails', { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ fail .Values.payload }}\n' });
    const error = await failure(renderChart(fails, { helm, set: [`payload=${payload}`] }));
    expect(existsSync(marker)).toBe(false);
    // helm's line break inside the value cannot split the report's line; the escape is written out.
    expect(error.message).toContain(
      `Error: execution error at (fails/templates/cm.yaml:4:11): $(touch ${marker}); \`touch ${marker}\` | touch ${marker} second line\\x1b[31m red`,
    );
    expect(error.message).not.toMatch(/[\n\u001b]/);
    expect([error.file, error.line, error.column]).toEqual([join(fails, 'templates/cm.yaml'), 4, 11]);

    // A release name or namespace that would be read as a flag is refused before helm runs.
    const flag = await failure(renderChart(CHART, { helm, releaseName: '--post-renderer=/bin/sh' }));
    expect(flag.message).toContain('release name "--post-renderer=/bin/sh" is not one helm takes');
    const namespace = await failure(renderChart(CHART, { helm, namespace: 'a\u001b[2Jb' }));
    expect(namespace.message).toContain('namespace "a\\x1b[2Jb" is not a Kubernetes namespace');
  });

  it('helm that is not installed is said with how to install it or render without it', async () => {
    const missing = join(tempDir('tritonc-helm-missing-'), 'helm');
    const error = await failure(renderChart(CHART, { helm: missing }));
    expect(error.message).toBe(`helm was not found ("${missing}"); ${HELM_INSTALL_HINT}`);
    expect(HELM_INSTALL_HINT).toBe(
      'install helm (https://helm.sh/docs/intro/install/) or render it yourself: helm template NAME CHART | tritonc lint --deployment -',
    );
    // TRITONC_HELM names the binary when the caller does not.
    const before = process.env.TRITONC_HELM;
    process.env.TRITONC_HELM = missing;
    try {
      expect((await failure(renderChart(CHART))).message).toContain(`helm was not found ("${missing}")`);
      process.env.TRITONC_HELM = helm;
      expect((await renderChart(CHART)).sources).toHaveLength(3);
    } finally {
      if (before === undefined) delete process.env.TRITONC_HELM;
      else process.env.TRITONC_HELM = before;
    }
  });

  it('an output past maxBytes is refused, not read', async () => {
    const whole = await renderChart(CHART, { helm });
    const error = await failure(renderChart(CHART, { helm, maxBytes: Buffer.byteLength(whole.text) - 1 }));
    expect(error.message).toBe(
      `helm template rendered more than ${(Buffer.byteLength(whole.text) - 1).toLocaleString('en-US')} bytes of manifests from "${CHART}", more than tritonc reads; render fewer templates (helm template --show-only) and pipe them: helm template NAME CHART --show-only templates/FILE | tritonc lint --deployment -`,
    );
    // At its exact size it is read whole.
    expect((await renderChart(CHART, { helm, maxBytes: Buffer.byteLength(whole.text) })).text).toBe(whole.text);
  });

  it('a directory without Chart.yaml and a missing values file are said before helm runs', async () => {
    const empty = tempDir('tritonc-helm-empty-');
    expect((await failure(renderChart(empty, { helm }))).message).toContain('is not a Helm chart directory (no Chart.yaml in it)');
    const error = await failure(renderChart(CHART, { helm, values: [join(empty, 'absent.yaml')] }));
    expect([error.message, error.file]).toEqual([
      `values file "${join(empty, 'absent.yaml')}" is not a file; give a local YAML file`,
      join(empty, 'absent.yaml'),
    ]);
  });
});

// A helm that hangs, standing in for a chart whose render never ends (a post-renderer plugin that waits:
// helm v4.3.2 pkg/postrenderer runs one as a child process): the timeout ends helm's whole process group.
describe('renderChart timeout', () => {
  it('kills the process group of a helm that does not finish and says so', async () => {
    const dir = tempDir('tritonc-helm-hang-');
    const pids = join(dir, 'pids');
    const hang = join(dir, 'helm');
    // The child holds none of helm's pipes: only a kill of the group, not of helm alone, ends it.
    writeFileSync(hang, `#!/bin/sh\nsleep 600 </dev/null >/dev/null 2>&1 &\necho $! > '${pids}'\nwait\n`);
    chmodSync(hang, 0o755);
    const error = await failure(renderChart(CHART, { helm: hang, timeoutMs: 1000 }));
    expect(error.message).toBe(
      `helm template did not finish rendering "${CHART}" in 1 s and was stopped; render it yourself to see why: helm template NAME CHART | tritonc lint --deployment -`,
    );
    const child = Number(readFileSync(pids, 'utf8'));
    try {
      // The child (sleep) was in helm's group and is gone with it.
      await expect.poll(() => alive(child), { timeout: 10_000 }).toBe(false);
    } finally {
      if (alive(child)) process.kill(child, 'SIGKILL');
    }
  });
});

/** Whether `pid` runs: a killed process not yet reaped by init (a zombie, state Z in /proc) does not. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
