// docs/ci.md's examples, run: the workflow's use of the action (through the stand-in runner), the
// input table against action.yml, and the .gitlab-ci.yml job's script (npx answered by the built CLI),
// its report against GitLab's schema and the issue the page shows.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@cfworker/json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readAction, runComposite } from '../support/actions-runner.js';
import { tempDir } from '../support/temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
const ACTION = readAction(join(ROOT, 'action.yml'));
const BIN = join(ROOT, 'bin', 'tritonc.js');

type Json = Record<string, any>;

const blocks = (lang: string) => [...DOC.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** The example repository in a fresh checkout, a batch axis added to its input's dims. */
function checkout(broken: boolean): string {
  const dir = tempDir('tritonc-ci-doc-');
  cpSync(join(ROOT, 'model_repository'), join(dir, 'model_repository'), { recursive: true });
  const config = join(dir, 'model_repository', 'classifier', 'config.pbtxt');
  if (broken) writeFileSync(config, readFileSync(config, 'utf8').replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]'));
  return dir;
}

/**
 * A PATH whose npx answers `npx --yes tritonc ...` with the built CLI (no registry here): npx runs the
 * bin of the package named, with the arguments after it (npm's docs, "npx"); --yes only skips the
 * prompt to install.
 */
function npxStandIn(): string {
  const bin = tempDir('tritonc-npx-');
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\n[ "$1" = --yes ] && [ "$2" = tritonc ] || { echo "npx stand-in: only npx --yes tritonc" >&2; exit 127; }\nshift 2\nexec node ${JSON.stringify(BIN)} "$@"\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
  return `${bin}:${process.env.PATH}`;
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli.cjs'))) throw new Error('dist/cli.cjs is missing: run npm run build (npm ci does it)');
});

describe('docs/ci.md', () => {
  it("the input table is action.yml's inputs, with their defaults", () => {
    const rows = [...DOC.matchAll(/^\| `([a-z-]+)` \|([^|]*)\|/gm)].map((m): [string, string] => [m[1]!, m[2]!.trim()]);
    expect(rows.map((r) => r[0]).sort()).toEqual(Object.keys(ACTION.inputs).sort());
    for (const [name, shown] of rows) {
      const def = ACTION.inputs[name]!.default ?? '';
      // A default in backquotes is the value; none, or words ("the action's"), is an empty default.
      if (shown.startsWith('`')) expect(shown, name).toBe(`\`${def}\``);
      else expect(def, name).toBe('');
    }
  });

  it('the workflow: its `with:` are inputs of the action, and the action passes on the example repository with them', () => {
    const workflow = parse(blocks('yaml').find((b) => b.includes('uses: tritonc/tritonc@'))!) as Json;
    const steps = workflow.jobs.lint.steps as Json[];
    const use = steps.find((s) => String(s.uses).startsWith('tritonc/tritonc@'))!;
    expect(workflow.jobs.lint.permissions['security-events']).toBe('write');
    for (const key of Object.keys(use.with)) expect(ACTION.inputs).toHaveProperty(key);
    const r = runComposite(ACTION, { actionPath: ROOT, workspace: checkout(false), inputs: { ...use.with, tritonc: BIN } });
    expect(r.success, JSON.stringify(r.steps.map((s) => [s.step.name, s.code, s.stderr]))).toBe(true);
    expect(r.outputs).toMatchObject({ errors: '0', warnings: '0', infos: '2' });
    // A broken checkout fails the same workflow.
    expect(runComposite(ACTION, { actionPath: ROOT, workspace: checkout(true), inputs: { ...use.with, tritonc: BIN } }).success).toBe(false);
  });

  it('the plain step annotates under GitHub Actions', () => {
    const step = parse(blocks('yaml').find((b) => b.trim().startsWith('- run: npx'))!) as Json[];
    const dir = checkout(true);
    const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step[0]!.run], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: npxStandIn(), GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir },
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^::error file=model_repository\/classifier\/config\.pbtxt,line=10,.*title=tritonc\(batch-dim-in-dims\)::/m);
  });

  it(".gitlab-ci.yml: the job's report is the artifact it publishes, GitLab keeps every issue, and the page's issue is real", () => {
    const job = (parse(blocks('yaml').find((b) => b.includes('codequality:'))!) as Json).tritonc as Json;
    expect(job.artifacts.when).toBe('always');
    const report = job.artifacts.reports.codequality as string;
    expect(job.script).toHaveLength(1);
    expect(job.script[0]).toContain(`--output-file ${report}`);
    const dir = checkout(true);
    const r = spawnSync('bash', ['-e', '-c', job.script[0]], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: npxStandIn(), CI_PROJECT_DIR: dir, GITLAB_CI: 'true' },
    });
    expect(r.status, r.stderr).toBe(1);
    const issues = JSON.parse(readFileSync(join(dir, report), 'utf8')) as Json[];
    const schema = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'schemas', 'gitlab-codeclimate.json'), 'utf8'));
    for (const issue of issues) expect(new Validator(schema, '7', false).validate(issue).errors).toEqual([]);
    const shown = JSON.parse(blocks('json')[0]!) as Json;
    expect(issues.find((i) => i.check_name === shown.check_name)).toEqual(shown);
  });
});
