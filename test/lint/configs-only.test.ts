// --configs-only is one fact of the workspace: the model files are provisioned elsewhere. Every fact
// that needs a model file (version directories, the backend a model file selects, what it
// auto-completes) is then unknown, not missing: rules stay silent, and unchecked-model says once
// what could not be checked. The layouts are those of real repositories: the tutorials' Part_5
// ensemble (step models without version directories), TensorRT and Python models whose config names
// no backend, kept beside an empty 1/ with .gitkeep (Triton's own autofill_noplatform_success).
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { writeRepo } from './harness.js';

const tensor = (name: string, typed = true) => `{ name: "${name}"${typed ? ' data_type: TYPE_FP32 dims: [ 3 ]' : ''} }`;

const PART_5 = {
  'repo/ensemble_model/config.pbtxt': `name: "ensemble_model"\nplatform: "ensemble"\nmax_batch_size: 8\ninput [ ${tensor('IN')} ]\noutput [ ${tensor('OUT')} ]\nensemble_scheduling { step [\n  { model_name: "text_detection" model_version: -1 input_map { key: "x" value: "IN" } output_map { key: "y" value: "MID" } },\n  { model_name: "text_recognition" model_version: -1 input_map { key: "x" value: "MID" } output_map { key: "y" value: "OUT" } }\n] }\n`,
  'repo/ensemble_model/1/.gitkeep': '',
  'repo/text_detection/config.pbtxt': `name: "text_detection"\nbackend: "onnxruntime"\nmax_batch_size: 8\ninput [ ${tensor('x')} ]\noutput [ ${tensor('y')} ]\n`,
  'repo/text_recognition/config.pbtxt': `name: "text_recognition"\nbackend: "onnxruntime"\nmax_batch_size: 8\ninput [ ${tensor('x')} ]\noutput [ ${tensor('y')} ]\n`,
};
// Neither platform nor backend: the model file provisioned at deploy (model.plan, model.py) decides.
const NO_BACKEND = {
  'repo/engine/config.pbtxt': `name: "engine"\nmax_batch_size: 8\ninput [ ${tensor('x')} ]\noutput [ ${tensor('y')} ]\n`,
  'repo/engine/1/.gitkeep': '',
  'repo/pyfill/config.pbtxt': `name: "pyfill"\nmax_batch_size: 8\ninput [ ${tensor('x', false)} ]\noutput [ ${tensor('y', false)} ]\n`,
  'repo/pyfill/1/.gitkeep': '',
};

const lint = (dir: string, configsOnly: boolean): Diagnostic[] =>
  lintSync([join(dir, 'repo')], { cwd: dir, configsOnly }).results.flatMap((r) => r.diagnostics);
const errors = (ds: Diagnostic[]) => ds.filter((d) => d.severity === 'error').map((d) => `${d.file.split('/repo/')[1]} ${d.ruleId}:${d.messageId}`);

describe('--configs-only: the model files are provisioned elsewhere', () => {
  it("the tutorials' Part_5 ensemble, its steps' version directories elsewhere: no error; without the flag, Triton would load no version of them", async () => {
    const dir = await writeRepo(PART_5);
    expect(errors(lint(dir, true))).toEqual([]);
    expect(errors(lint(dir, false))).toEqual(expect.arrayContaining(['ensemble_model/config.pbtxt ensemble-models:stepModelNoVersion']));
  });

  it('no platform nor backend beside an empty 1/ kept by .gitkeep: no platform-backend or io-dims error, and unchecked-model says once what was not checked', async () => {
    const dir = await writeRepo(NO_BACKEND);
    const found = lint(dir, true);
    expect(errors(found)).toEqual([]);
    const said = found
      .filter((d) => d.ruleId === 'unchecked-model')
      .map((d) => `${d.file.split('/repo/')[1]} ${d.messageId}`)
      .sort();
    expect(said).toEqual(['engine/config.pbtxt backendElsewhere', 'pyfill/config.pbtxt backendElsewhere']);
    // Nothing else speaks of the left-out data types and dims: it is one unknown, said once.
    expect(found.filter((d) => d.ruleId === 'io-dims')).toEqual([]);
    // On a checkout that is the deployment, the same configs are refused, as Triton refuses them.
    const plain = errors(lint(dir, false));
    expect(plain).toEqual(
      expect.arrayContaining(['engine/config.pbtxt platform-backend:noModelFileRecognized', 'pyfill/config.pbtxt platform-backend:noModelFileRecognized']),
    );
  });

  it('a model file that is here still decides the backend, and what it says is still checked', async () => {
    const dir = await writeRepo({
      'repo/m/config.pbtxt': `name: "m"\nmax_batch_size: 8\ninput [ ${tensor('x', false)} ]\noutput [ ${tensor('y')} ]\n`,
      'repo/m/1/model.py': 'class TritonPythonModel:\n    pass\n',
    });
    const found = lint(dir, true);
    expect(found.filter((d) => d.ruleId === 'unchecked-model').map((d) => d.messageId)).not.toContain('backendElsewhere');
  });
});

describe('resolve and watch take --configs-only too', () => {
  it('resolve: a model whose files are elsewhere resolves, and says what is not known here instead of refusing', async () => {
    const { cli } = await import('../support/cli.js');
    const dir = await writeRepo({ ...PART_5, ...NO_BACKEND });
    const refused = await cli(['resolve', 'repo/text_detection'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('at least one version must be available');
    const r = await cli(['resolve', '--configs-only', 'repo/text_detection'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('name: "text_detection"');
    expect(r.stderr).toContain('tritonc resolve: not known here: the version: the version directories are provisioned elsewhere');
    const engine = await cli(['resolve', '--configs-only', 'repo/pyfill'], { cwd: dir });
    expect(engine.code, engine.stderr).toBe(0);
    expect(engine.stderr).toContain(
      "not known here: the backend: the config names neither backend nor platform, so Triton chooses one from the model file at deploy, which is provisioned elsewhere; with it, whatever that backend's auto-complete fills in (input 'x' data_type and dims, output 'y' data_type and dims)",
    );
  });

  it('resolve says which fields a backend it does not read fills in at load (a TensorRT engine)', async () => {
    const { cli } = await import('../support/cli.js');
    const dir = await writeRepo({
      'repo/plan/config.pbtxt': 'name: "plan"\nplatform: "tensorrt_plan"\nmax_batch_size: 8\n',
      'repo/plan/1/model.plan': 'engine',
    });
    const r = await cli(['resolve', 'repo/plan'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "tritonc resolve: not known here: what the tensorrt backend's auto-complete fills in from its model at load, which tritonc does not read: input (none listed), output (none listed)\n",
    );
  });

  it('watch: the first report under --configs-only is the lint of the flag', async () => {
    const { runWatch } = await import('../../src/cli/watch-run.js');
    const dir = await writeRepo(PART_5);
    let out = '';
    const io = {
      stdout: (t: string) => void (out += t),
      stderr: (t: string) => void (out += t),
      readStdin: async () => '',
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env: {},
      cwd: dir,
    };
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const run = runWatch({ repo: 'repo', generate: false, format: 'json', configsOnly: true }, io, stopped);
    await vi.waitFor(() => expect(out).not.toBe(''), { timeout: 60_000, interval: 50 });
    stop();
    expect(await run).toBe(0);
    const first = JSON.parse(out.split('\n')[0]!) as { event: string; results: { messages: { severity: number; ruleId: string }[] }[] };
    expect(first.event).toBe('initial');
    expect(first.results.flatMap((r) => r.messages).filter((m) => m.severity === 2)).toEqual([]);
    // Without the flag the same repository has the ensemble's error.
    out = '';
    let stop2!: () => void;
    const run2 = runWatch({ repo: 'repo', generate: false, format: 'json' }, io, new Promise<void>((r) => (stop2 = r)));
    await vi.waitFor(() => expect(out).not.toBe(''), { timeout: 60_000, interval: 50 });
    stop2();
    await run2;
    expect((JSON.parse(out.split('\n')[0]!) as typeof first).results.flatMap((r) => r.messages).map((m) => m.ruleId)).toContain('ensemble-models');
  });
});
