// tritonc lint --deployment on a Helm chart, rendered by the real helm (scripts/helm/setup.sh): the
// servers its templates start are linted as they run, and each finding is where the user changes it:
// at the key of the values file (or chart values.yaml) that gives the value, else at the template's line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';
import { cli } from '../support/cli.js';
import { helmBinary } from '../support/helm.js';
import { tempDir } from '../support/temp.js';
import type { JsonFileResult } from '../../src/report/json.js';

const CHART = join(__dirname, '..', 'fixtures', 'deployments', 'charts', 'triton-onprem');
const helm = helmBinary('lint --deployment on a Helm chart');

describe.skipIf(!helm)('lint --deployment CHART', () => {
  let repo: string;
  let work: string;
  beforeAll(async () => {
    repo = await writeRepo({ 'classifier/config.pbtxt': `${CLASSIFIER_CONFIG}instance_group [ { kind: KIND_GPU } ]\n`, 'classifier/1/model.onnx': CLASSIFIER });
    work = tempDir('tritonc-chart-');
  });
  const lint = async (args: string[]) => {
    const r = await cli(['lint', '--deployment', CHART, ...args, repo, '--format', 'json'], { cwd: work, env: { TRITONC_HELM: helm! } });
    return { ...r, found: r.code < 2 ? (JSON.parse(r.stdout) as JsonFileResult[]).flatMap((f) => f.messages.map((m) => ({ ...m, file: f.filePath }))) : [] };
  };

  it("the chart's values as they are: its image's release, a GPU, poll mode said at the template's line", async () => {
    const r = await lint([]);
    expect(r.code, r.stderr).toBe(0);
    const mine = r.found.filter((d) => d.ruleId.startsWith('deployment-')).map((d) => [d.ruleId, d.file.slice(CHART.length + 1), d.line]);
    expect(mine).toEqual([['deployment-poll', 'templates/deployment.yaml', 40]]);
  });

  it("a user's values file: the image and GPU findings at its keys, and --set wins over it", async () => {
    const values = join(work, 'cpu.yaml');
    writeFileSync(values, 'image:\n  imageName: nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3\n  numGpus: 0\n');
    const r = await lint(['--values', values]);
    expect(r.code, r.stderr).toBe(1);
    const at = (rule: string) => r.found.filter((d) => d.ruleId === rule).map((d) => [d.file, d.line, d.column]);
    expect(at('deployment-image')).toEqual([[values, 2, 14]]);
    expect(at('deployment-gpus')).toEqual([[values, 3, 12]]);
    const set = await lint(['--values', values, '--set', 'image.numGpus=1']);
    expect(set.found.filter((d) => d.ruleId === 'deployment-gpus')).toEqual([]);
  });

  it("a template helm cannot render: exit 2 with helm's message at the template's line", async () => {
    const r = await lint(['--set', 'image.numGpus={1,2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tritonc lint: .*/);
    expect(r.stderr).not.toContain('\u001b');
  });
});
