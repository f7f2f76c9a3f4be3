// lint --triton-version: one release, several at once (each finding says the releases it holds for),
// the setting in tritonc.config.json, and what machine-readable output records.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const root = tempDir('tritonc-lint-releases-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A repository with two models whose verdicts depend on the release: `metrics` sets model_metrics
 * (from 24.11 on), `tf` is served by the TensorFlow backend (up to 25.02).
 */
function repository(): string {
  const repo = join(root, `r${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(repo, 'metrics'), { recursive: true });
  writeFileSync(
    join(repo, 'metrics', 'config.pbtxt'),
    'backend: "python"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 2 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 2 ] } ]\nmodel_metrics { metric_control [ { metric_identifier { family: "nv_inference_first_response_histogram_ms" } histogram_options { buckets: [ 1, 10 ] } } ] }\n',
  );
  mkdirSync(join(repo, 'metrics', '1'));
  writeFileSync(join(repo, 'metrics', '1', 'model.py'), 'class TritonPythonModel:\n    def execute(self, requests):\n        return []\n');
  mkdirSync(join(repo, 'tf', '1', 'model.graphdef'.replace('.graphdef', '')), { recursive: true });
  writeFileSync(join(repo, 'tf', '1', 'model.graphdef'), '');
  writeFileSync(
    join(repo, 'tf', 'config.pbtxt'),
    'platform: "tensorflow_graphdef"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 2 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 2 ] } ]\n',
  );
  return repo;
}

type Message = { ruleId: string; messageId?: string; severity: number; targets?: string[] };
const findings = (stdout: string): { file: string; messages: Message[]; triton: unknown }[] =>
  (JSON.parse(stdout) as { filePath: string; messages: Message[]; triton: unknown }[]).map((f) => ({
    file: f.filePath.split('/').slice(-2).join('/'),
    messages: f.messages,
    triton: f.triton,
  }));
const errorsIn = (stdout: string, file: string) =>
  findings(stdout)
    .find((f) => f.file === file)!
    .messages.filter((m) => m.severity === 2)
    .map((m) => ({ id: `${m.ruleId}/${m.messageId}`, targets: m.targets }));

describe('lint --triton-version', () => {
  it('one release: its verdicts, and the JSON report records it', async () => {
    const repo = repository();
    const old = await cli(['lint', repo, '--format', 'json', '--triton-version', '24.10']);
    expect(errorsIn(old.stdout, 'metrics/config.pbtxt')).toEqual([{ id: 'field-release/fieldNotInRelease', targets: undefined }]);
    expect(errorsIn(old.stdout, 'tf/config.pbtxt')).toEqual([]);
    expect(findings(old.stdout)[0]!.triton).toEqual([{ release: '24.10', server: '2.51.0' }]);

    const now = await cli(['lint', repo, '--format', 'json', '--triton-version', 'nvcr.io/nvidia/tritonserver:26.07-py3']);
    expect(errorsIn(now.stdout, 'metrics/config.pbtxt')).toEqual([]);
    expect(errorsIn(now.stdout, 'tf/config.pbtxt')).toEqual([{ id: 'platform-backend/backendDropped', targets: undefined }]);
    expect(findings(now.stdout)[0]!.triton).toEqual([{ release: '26.07', server: '2.71.0', flavour: 'py3' }]);
  });

  it('no flag: the newest release tritonc knows, recorded', async () => {
    const r = await cli(['lint', repository(), '--format', 'json']);
    expect(findings(r.stdout)[0]!.triton).toEqual([{ release: '26.08', server: '2.72.0' }]);
  });

  it('several releases: each finding names those it holds for, so an upgrade is one command', async () => {
    const repo = repository();
    const r = await cli(['lint', repo, '--format', 'json', '--triton-version', '26.07,24.10']);
    expect(r.code).toBe(1);
    expect(errorsIn(r.stdout, 'metrics/config.pbtxt')).toEqual([{ id: 'field-release/fieldNotInRelease', targets: ['24.10'] }]);
    expect(errorsIn(r.stdout, 'tf/config.pbtxt')).toEqual([{ id: 'platform-backend/backendDropped', targets: ['26.07'] }]);
    expect(findings(r.stdout)[0]!.triton).toEqual([
      { release: '24.10', server: '2.51.0' },
      { release: '26.07', server: '2.71.0' },
    ]);
    // A finding of both releases is reported once, for both.
    const both = findings(r.stdout).flatMap((f) => f.messages.filter((m) => m.targets?.length === 2));
    for (const m of both) expect(m.targets).toEqual(['24.10', '26.07']);

    const text = await cli(['lint', repo, '--triton-version', '24.10,26.07']);
    expect(text.stdout).toMatch(/model_metrics is a field of inference\.ModelConfig .* \[Triton 24\.10\]/);
    expect(text.stdout).toMatch(/judged against Triton 24\.10, 26\.07/);

    const github = await cli(['lint', repo, '--format', 'github', '--triton-version', '24.10,26.07']);
    expect(github.stdout).toMatch(/title=tritonc\(field-release\)::model_metrics is a field of .* \[Triton 24\.10\]/);
    const gitlab = JSON.parse((await cli(['lint', repo, '--format', 'gitlab', '--triton-version', '24.10,26.07'])).stdout) as { description: string }[];
    expect(gitlab.find((i) => i.description.startsWith('platform-backend:'))?.description).toMatch(/\[Triton 26\.07\]$/);

    const sarif = JSON.parse((await cli(['lint', repo, '--format', 'sarif', '--triton-version', '24.10,26.07'])).stdout);
    expect(sarif.runs[0].properties.triton.map((t: { release: string }) => t.release)).toEqual(['24.10', '26.07']);
    expect(sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'field-release').properties.targets).toEqual(['24.10']);
  });

  it('the triton setting, and the flag over it', async () => {
    const repo = repository();
    writeFileSync(join(repo, 'tritonc.config.json'), JSON.stringify({ triton: '24.10' }));
    const set = await cli(['lint', repo, '--format', 'json']);
    expect(errorsIn(set.stdout, 'metrics/config.pbtxt').map((e) => e.id)).toEqual(['field-release/fieldNotInRelease']);
    const over = await cli(['lint', repo, '--format', 'json', '--triton-version', '24.11']);
    expect(errorsIn(over.stdout, 'metrics/config.pbtxt')).toEqual([]);
    writeFileSync(join(repo, 'tritonc.config.json'), JSON.stringify({ triton: '22.12' }));
    const bad = await cli(['lint', repo]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Triton 22.12 is not a release tritonc knows: it knows 24.05 to 26.08');
  });

  it('resolve follows the target: the release without the field refuses the config, the one with it serves it', async () => {
    const repo = repository();
    const old = await cli(['resolve', join(repo, 'metrics'), '--triton-version', '24.10']);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('has no field named "model_metrics"');
    expect(old.stderr).toContain('Triton has it from 24.11 on');
    const now = await cli(['resolve', join(repo, 'metrics'), '--triton-version', '24.11']);
    expect([now.code, now.stdout]).toEqual([0, expect.stringContaining('model_metrics')]);
  });

  it('usage errors: an unknown release, several with --fix, several where one is judged', async () => {
    const repo = repository();
    const unknown = await cli(['lint', repo, '--triton-version', '23.01']);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('--triton-version "23.01": Triton 23.01 is not a release tritonc knows')]);
    const fix = await cli(['lint', repo, '--fix', '--triton-version', '24.10,26.07']);
    expect([fix.code, fix.stderr]).toEqual([2, expect.stringContaining('--fix judges against one Triton release')]);
    // A value with a line break or a right-to-left override is shown escaped, never printed raw.
    const hostile = await cli(['lint', repo, '--triton-version', '24.10\n\u202e26.07']);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).toContain('--triton-version "24.10\\n\\u202e26.07"');
    expect(hostile.stderr).not.toContain('\u202e');
    expect(hostile.stderr).not.toContain('24.10\n');
    const resolve = await cli(['resolve', join(repo, 'metrics'), '--triton-version', '24.10,26.07']);
    expect([resolve.code, resolve.stderr]).toEqual([2, expect.stringContaining('this command judges against one release')]);
  });
});
