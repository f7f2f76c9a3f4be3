import { readFileSync } from 'node:fs';
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { GITLAB_SEVERITIES, toGitlab, type GitlabIssue } from '../../src/report/gitlab.js';
import { CLASSIFIER, writeRepo } from '../lint/harness.js';
import { cli } from '../support/cli.js';
import { CWD, sampleResult } from './fixtures.js';
import type { LintResult } from '../../src/diagnostics.js';

// GitLab's own schema, which it checks each issue against before it keeps it (source and commit in
// test/fixtures/schemas/README.md).
const SCHEMA = JSON.parse(readFileSync(new URL('../fixtures/schemas/gitlab-codeclimate.json', import.meta.url), 'utf8'));

/** Each issue as GitLab's parser takes it: valid against codeclimate.json, or dropped with the rest. */
function gitlabKeeps(report: unknown): void {
  expect(Array.isArray(report)).toBe(true);
  for (const issue of report as unknown[]) {
    const result = new Validator(SCHEMA, '7', false).validate(issue);
    expect(result.errors).toEqual([]);
  }
}

/** What GitLab reads beyond its schema: a severity it ranks, a relative path, a line from 1, one issue per fingerprint. */
function gitlabReads(issues: GitlabIssue[]): void {
  for (const i of issues) {
    expect(GITLAB_SEVERITIES).toContain(i.severity);
    expect(i.location.path).not.toMatch(/^\//);
    expect(i.location.positions.begin.line).toBeGreaterThanOrEqual(1);
    expect(i.check_name).toMatch(/^[a-z0-9-]+$/);
  }
  expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length);
}

const withFindings = (r: LintResult) => r.results.find((f) => f.diagnostics.length)!;

describe('gitlab code quality', () => {
  const issues = toGitlab(sampleResult(), { cwd: CWD });

  it('one Code Climate issue per problem: rule, message, severity, a repository-relative position', () => {
    expect(issues).toHaveLength(3);
    expect(issues[0]).toEqual({
      type: 'issue',
      description: 'batch-dim-in-dims: dims [1,3,224,224] include the batch axis; with max_batch_size: 8 Triton expects dims [3,224,224]',
      check_name: 'batch-dim-in-dims',
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      severity: 'major',
      categories: ['Bug Risk'],
      content: { body: expect.stringMatching(/^.+\. \[Rule documentation\]\(https:\/\/github\.com\/.+\/docs\/rules\/batch-dim-in-dims\.md\)$/) },
      location: { path: 'models/resnet/config.pbtxt', positions: { begin: { line: 4, column: 54 }, end: { line: 4, column: 55 } } },
    });
    expect(issues.map((i) => i.severity)).toEqual(['major', 'minor', 'info']);
    // The body holds the rule's own words and link, never the finding's values (rendered as Markdown).
    expect(issues[1]!.categories).toEqual(['Performance']);
    for (const i of issues) expect(i.content!.body).not.toContain(i.description.slice(i.check_name.length + 2));
    gitlabReads(issues);
  });

  it("validates against GitLab's codeclimate.json, which rejects an issue without a fingerprint", () => {
    gitlabKeeps(JSON.parse(JSON.stringify(issues)));
    const broken = JSON.parse(JSON.stringify(issues[0])) as Record<string, unknown>;
    delete broken.fingerprint;
    expect(new Validator(SCHEMA, '7', false).validate(broken).valid).toBe(false);
    expect(new Validator(SCHEMA, '7', false).validate({ ...issues[0], location: { path: 'a', lines: { begin: 'four' } } }).valid).toBe(false);
  });

  it('fingerprints: the same across runs and line moves, apart for the same problem twice', () => {
    const moved = sampleResult();
    const movedFile = withFindings(moved);
    expect(movedFile.diagnostics).toHaveLength(3);
    for (const d of movedFile.diagnostics) d.range.start.line += 10;
    expect(toGitlab(moved, { cwd: CWD }).map((i) => i.fingerprint)).toEqual(issues.map((i) => i.fingerprint));
    expect(toGitlab(sampleResult(), { cwd: CWD }).map((i) => i.fingerprint)).toEqual(issues.map((i) => i.fingerprint));
    // The same finding twice in one file (a repeated field): two issues, both kept by GitLab.
    const twice = sampleResult();
    const file = withFindings(twice);
    file.diagnostics.push({ ...file.diagnostics[1]!, range: { ...file.diagnostics[1]!.range, start: { line: 20, column: 1, offset: 900 } } });
    const fps = toGitlab(twice, { cwd: CWD }).map((i) => i.fingerprint);
    expect(new Set(fps).size).toBe(4);
    expect(fps.slice(0, 3)).toEqual(issues.map((i) => i.fingerprint));
    // A problem in another file is another issue.
    const elsewhere = sampleResult();
    withFindings(elsewhere).filePath = `${CWD}/models/other/config.pbtxt`;
    expect(toGitlab(elsewhere, { cwd: CWD })[0]!.fingerprint).not.toBe(issues[0]!.fingerprint);
  });

  it('paths are relative to CI_PROJECT_DIR when given', () => {
    expect(toGitlab(sampleResult(), { cwd: '/elsewhere', projectDir: '/work' })[0]!.location.path).toBe('repo/models/resnet/config.pbtxt');
  });
});

describe('tritonc lint --format gitlab', () => {
  const CONFIG = `name: "classifier"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 1, 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching { max_queue_delay_microseconds: 50000 }
instance_group [ { count: 1 kind: KIND_GPU } ]
`;

  it('on a real repository: exit 1, a report GitLab keeps, paths from CI_PROJECT_DIR', async () => {
    const dir = await writeRepo({ 'models/classifier/config.pbtxt': CONFIG, 'models/classifier/1/model.onnx': CLASSIFIER });
    const r = await cli(['lint', 'classifier', '--format', 'gitlab', '--rule', 'instance-memory=off'], { cwd: `${dir}/models`, env: { CI_PROJECT_DIR: dir } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as GitlabIssue[];
    gitlabKeeps(report);
    gitlabReads(report);
    expect(report.map((i) => [i.check_name, i.severity, i.location.path, i.location.positions.begin.line])).toEqual([
      ['batch-dim-in-dims', 'major', 'models/classifier/config.pbtxt', 4],
      ['queue-delay', 'minor', 'models/classifier/config.pbtxt', 6],
    ]);
    // The same report again: GitLab compares fingerprints between pipelines.
    const again = await cli(['lint', 'classifier', '--format', 'gitlab', '--rule', 'instance-memory=off'], {
      cwd: `${dir}/models`,
      env: { CI_PROJECT_DIR: dir },
    });
    expect(again.stdout).toBe(r.stdout);
  });

  it('a clean repository is an empty array', async () => {
    const dir = await writeRepo({
      'models/classifier/config.pbtxt': CONFIG.replace('1, 3, 224, 224', '3, 224, 224').replace('50000', '2000'),
      'models/classifier/1/model.onnx': CLASSIFIER,
    });
    const r = await cli(['lint', '--format', 'gitlab', '--rule', 'instance-memory=off'], { cwd: dir });
    expect(r).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});
