// --configs-only is one fact of the workspace: the model files are provisioned elsewhere. Every fact
// that needs a model file (version directories, the backend a model file selects, what it
// auto-completes) is then unknown, not missing: rules stay silent, and unchecked-model says once
// what could not be checked. The layouts are those of real repositories: the tutorials' Part_5
// ensemble (step models without version directories), TensorRT and Python models whose config names
// no backend, kept beside an empty 1/ with .gitkeep (Triton's own autofill_noplatform_success).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

const lint = (dir: string, configsOnly: boolean): Diagnostic[] => lintSync([join(dir, 'repo')], { cwd: dir, configsOnly }).results.flatMap((r) => r.diagnostics);
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
    const said = found.filter((d) => d.ruleId === 'unchecked-model').map((d) => `${d.file.split('/repo/')[1]} ${d.messageId}`).sort();
    expect(said).toEqual(['engine/config.pbtxt backendElsewhere', 'pyfill/config.pbtxt backendElsewhere']);
    // Nothing else speaks of the left-out data types and dims: it is one unknown, said once.
    expect(found.filter((d) => d.ruleId === 'io-dims')).toEqual([]);
    // On a checkout that is the deployment, the same configs are refused, as Triton refuses them.
    const plain = errors(lint(dir, false));
    expect(plain).toEqual(expect.arrayContaining(['engine/config.pbtxt platform-backend:noModelFileRecognized', 'pyfill/config.pbtxt platform-backend:noModelFileRecognized']));
  });

  it('a model file that is here still decides the backend, and what it says is still checked', async () => {
    const dir = await writeRepo({ 'repo/m/config.pbtxt': `name: "m"\nmax_batch_size: 8\ninput [ ${tensor('x', false)} ]\noutput [ ${tensor('y')} ]\n`, 'repo/m/1/model.py': 'class TritonPythonModel:\n    pass\n' });
    const found = lint(dir, true);
    expect(found.filter((d) => d.ruleId === 'unchecked-model').map((d) => d.messageId)).not.toContain('backendElsewhere');
  });
});
