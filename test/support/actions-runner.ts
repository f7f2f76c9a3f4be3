// A stand-in for the GitHub Actions runner running a composite action's steps, as far as tritonc's
// action.yml uses it. What it imitates, from actions/runner (src/Runner.Worker/):
// - a `shell: bash` step runs as `bash --noprofile --norc -e -o pipefail {0}`, {0} a file holding the
//   script (Handlers/ScriptHandlerHelpers.cs `_defaultArguments["bash"]`), in GITHUB_WORKSPACE (the
//   default working directory);
// - each step gets fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files; after the step, GITHUB_OUTPUT's
//   `NAME=VALUE` and `NAME<<DELIMITER ... DELIMITER` lines become the step's outputs
//   (FileCommandManager.cs `SetOutputFileCommand`, `EnvFileKeyValuePairs`);
// - a composite step's env also holds GITHUB_ACTION_PATH, the action's directory, and the job's
//   GITHUB_WORKSPACE, RUNNER_TEMP, GITHUB_ACTIONS=true, CI=true, and the job's own `env:`;
// - a failed step ends the action: the steps after it are skipped (no `if:` with always() here);
// - `${{ }}` expressions: only `inputs.<name>` (the input given, else its default) and
//   `steps.<id>.outputs.<name>` (empty when unset) are evaluated; any other expression is refused,
//   so the action cannot come to rely on one this stand-in does not know.
// A `uses:` step (upload-sarif) cannot run here: it is recorded with its `with:` evaluated.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { tempDir } from './temp.js';

export interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface ActionDefinition {
  inputs: Record<string, { description?: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRun {
  step: ActionStep;
  /** Exit status; undefined for a `uses:` step, which is not run. */
  code?: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** A `uses:` step's `with:`, evaluated. */
  with?: Record<string, string>;
}

export interface ActionRun {
  steps: StepRun[];
  /** The action's outputs (its `outputs:` evaluated). */
  outputs: Record<string, string>;
  /** False when a step failed. */
  success: boolean;
}

export function readAction(file: string): ActionDefinition {
  return parse(readFileSync(file, 'utf8')) as ActionDefinition;
}

const EXPRESSION = /\$\{\{\s*(.*?)\s*\}\}/g;

/** The `${{ }}` expressions in a value. */
export const expressionsIn = (value: string): string[] => [...value.matchAll(EXPRESSION)].map((m) => m[1]!);

function evaluate(value: string, action: ActionDefinition, inputs: Record<string, string>, outputs: Map<string, Record<string, string>>): string {
  return value.replace(EXPRESSION, (_m, expr: string) => {
    let m = /^inputs\.([A-Za-z0-9_-]+)$/.exec(expr);
    if (m) {
      const name = m[1]!;
      if (!(name in action.inputs)) throw new Error(`action.yml: \${{ ${expr} }}: no input ${name}`);
      return inputs[name] ?? action.inputs[name]!.default ?? '';
    }
    m = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(expr);
    if (m) return outputs.get(m[1]!)?.[m[2]!] ?? '';
    throw new Error(`action.yml: \${{ ${expr} }}: the stand-in runner evaluates inputs.<name> and steps.<id>.outputs.<name> only`);
  });
}

/** GITHUB_OUTPUT's lines as the runner reads them on Linux (EnvFileKeyValuePairs). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const eq = line.indexOf('=');
    const here = line.indexOf('<<');
    if (eq >= 0 && (here < 0 || eq < here)) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
    } else if (here >= 0) {
      const [key, delimiter] = [line.slice(0, here), line.slice(here + 2)];
      const value: string[] = [];
      for (i++; lines[i] !== delimiter; i++) {
        if (i >= lines.length) throw new Error(`GITHUB_OUTPUT: no delimiter ${delimiter}`);
        value.push(lines[i]!);
      }
      out[key] = value.join('\n');
    } else {
      throw new Error(`GITHUB_OUTPUT: invalid line ${JSON.stringify(line)}`);
    }
  }
  return out;
}

export interface RunOptions {
  /** The action's directory (GITHUB_ACTION_PATH). */
  actionPath: string;
  /** The checkout (GITHUB_WORKSPACE). */
  workspace: string;
  /** The `with:` of the workflow step that uses the action. */
  inputs?: Record<string, string>;
  /** The job's `env:` (PATH among them, to put a stand-in for a tool first). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

export function runComposite(action: ActionDefinition, options: RunOptions): ActionRun {
  if (action.runs.using !== 'composite') throw new Error('not a composite action');
  const temp = tempDir('tritonc-runner-');
  const inputs = options.inputs ?? {};
  // The runner warns of an input the action does not declare ("Unexpected input(s)"); here it is a
  // mistake in the test.
  for (const name of Object.keys(inputs)) if (!(name in action.inputs)) throw new Error(`the action has no input ${name}`);
  const stepOutputs = new Map<string, Record<string, string>>();
  const runs: StepRun[] = [];
  let success = true;
  action.runs.steps.forEach((step, n) => {
    if (!success) return;
    if (step.uses !== undefined) {
      const withs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(String(v), action, inputs, stepOutputs)]));
      runs.push({ step, stdout: '', stderr: '', outputs: {}, summary: '', with: withs });
      return;
    }
    if (step.shell !== 'bash') throw new Error(`step ${n}: the stand-in runner runs shell: bash only`);
    if (step.if !== undefined) throw new Error(`step ${n}: the stand-in runner does not evaluate if: on a run step`);
    const script = join(temp, `step-${n}.sh`);
    const outputFile = join(temp, `step-${n}.output`);
    const summaryFile = join(temp, `step-${n}.summary`);
    writeFileSync(script, step.run ?? '');
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ENV: join(temp, `step-${n}.env`),
      GITHUB_PATH: join(temp, `step-${n}.path`),
      RUNNER_TEMP: temp,
      RUNNER_OS: 'Linux',
      ...options.env,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = evaluate(String(v), action, inputs, stepOutputs);
    const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', script], {
      cwd: options.workspace,
      env,
      encoding: 'utf8',
      timeout: options.timeoutMs ?? 60_000,
    });
    const outputs = parseOutputFile(readFileSync(outputFile, 'utf8'));
    if (step.id) stepOutputs.set(step.id, outputs);
    const code = r.status ?? 128;
    runs.push({ step, code, stdout: r.stdout, stderr: r.stderr, outputs, summary: readFileSync(summaryFile, 'utf8') });
    if (code !== 0) success = false;
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([k, o]) => [k, evaluate(o.value, action, inputs, stepOutputs)]));
  return { steps: runs, outputs, success };
}
