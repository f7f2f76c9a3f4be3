// Triton's own TensorFlow cases of qa/L0_model_config (fixtures/models/tensorflow/qa-cases, from the
// suite before TensorFlow left it at 25.03), replayed as test.sh ran them: each case directory is one
// model (named after it) with the model file test.sh copied in, linted with auto-complete on (the
// suite's --strict-model-config=false). Every refusal is caught with the finding that names Triton's
// message; every case Triton loaded has no error, and resolve gives one of Triton's expected configs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';
import { TF_FIXTURES } from './helpers.js';
import { parseTarget } from '../../src/triton/releases/target.js';

const CASES = path.join(TF_FIXTURES, 'qa-cases');
const MODELS: Record<string, string> = JSON.parse(fs.readFileSync(path.join(CASES, 'models.json'), 'utf8'));
const root = tempDir('tritonc-tf-qa-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A repository holding the case as test.sh copies it: <repo>/<case>/config.pbtxt and 1/<model file>. */
function caseRepo(id: string): { repo: string; dir: string; name: string } {
  const name = path.basename(id);
  const repo = path.join(root, id.replaceAll('/', '__'));
  const dir = path.join(repo, name);
  fs.mkdirSync(dir, { recursive: true });
  const config = path.join(CASES, id, 'config.pbtxt');
  if (fs.existsSync(config)) fs.copyFileSync(config, path.join(dir, 'config.pbtxt'));
  fs.cpSync(path.join(TF_FIXTURES, MODELS[id]!, '1'), path.join(dir, '1'), { recursive: true });
  return { repo, dir, name };
}

function errorsOf(repo: string): { ruleId: string; messageId?: string; data?: Record<string, unknown> }[] {
  // Triton's suite ran them on a release that still builds the TensorFlow backend (the last is 25.02).
  const result = lintSync([repo], { cwd: repo, rules: RULES, server: { target: parseTarget('25.02') } });
  return result.results
    .flatMap((r) => r.diagnostics)
    .filter((d) => d.severity === 'error')
    .map((d) => ({ ruleId: d.ruleId, messageId: d.messageId, data: d.data }));
}

/** Each refusal: the expected text (the grep pattern test.sh used) and the finding that names it. */
const REFUSALS: Record<string, { expected: string; ruleId: string; messageId: string; data: Record<string, unknown> }> = {
  bad_input_dims: {
    expected: 'model tensor configurations are contradicting each other in terms of whether batching is supported',
    ruleId: 'io-shape',
    messageId: 'batchHintContradictionBatched',
    data: { name: 'INPUT1', dims: [16], firstName: 'INPUT0', firstDims: [16, 1], backend: 'TensorFlow' },
  },
  bad_input_type: {
    expected: "configuration expects datatype TYPE_FP32 for input 'INPUT1', model provides TYPE_INT32",
    ruleId: 'io-datatype',
    messageId: 'dataTypeMismatch',
    data: { name: 'INPUT1', configType: 'TYPE_FP32', modelType: 'TYPE_INT32', elemType: 'DT_INT32' },
  },
  bad_output_dims: {
    expected: 'making complete shape \\[-1,1\\]',
    ruleId: 'io-shape',
    messageId: 'dimMismatch',
    data: { name: 'OUTPUT1', requestShape: [-1, 1], modelShape: [-1, 16] },
  },
  bad_output_type: {
    expected: "configuration expects datatype TYPE_INT16 for output 'OUTPUT0', model provides TYPE_INT8",
    ruleId: 'io-datatype',
    messageId: 'dataTypeMismatch',
    data: { name: 'OUTPUT0', configType: 'TYPE_INT16', modelType: 'TYPE_INT8' },
  },
  too_many_inputs: {
    expected: 'configuration expects 3 inputs, model provides 2',
    ruleId: 'io-name',
    messageId: 'inputCountMismatch',
    data: { expected: 3, provided: 2 },
  },
  unknown_input: {
    expected: "unexpected inference input 'INPUT_UNKNOWN', allowed inputs are: INPUT0, INPUT1",
    ruleId: 'io-name',
    messageId: 'inputUnknown',
    data: { name: 'INPUT_UNKNOWN', allowed: ['INPUT0', 'INPUT1'] },
  },
  unknown_output: {
    expected: "unexpected inference output 'OUTPUT_UNKNOWN', allowed outputs are: OUTPUT0, OUTPUT1",
    ruleId: 'io-name',
    messageId: 'outputUnknown',
    data: { name: 'OUTPUT_UNKNOWN', allowed: ['OUTPUT0', 'OUTPUT1'] },
  },
};

const ids = Object.keys(MODELS).sort();
const refusals = ids.filter((id) => id.startsWith('autofill_noplatform/'));
const loads = ids.filter((id) => id.startsWith('autofill_noplatform_success/'));

const canonical = (v: ModelConfig): unknown => toProtoJson(v as Record<string, unknown>, loadSchema().modelConfig);
const expectedConfigs = (id: string): ModelConfig[] =>
  fs
    .readdirSync(path.join(CASES, id))
    .filter((f) => /^expected(\.\d+)?$/.test(f))
    .map((f) => parseConfig(fs.readFileSync(path.join(CASES, id, f), 'utf8')).value);

describe("Triton's TensorFlow cases (qa/L0_model_config before 25.03)", () => {
  it('holds the 7 refusals and 15 loads', () => {
    expect(refusals.map((id) => path.basename(id)).sort()).toEqual(Object.keys(REFUSALS).sort());
    expect(loads.length).toBe(15);
  });

  for (const id of refusals) {
    const name = path.basename(id);
    it(`refused: ${name}`, () => {
      const want = REFUSALS[name]!;
      expect(fs.readFileSync(path.join(CASES, id, 'expected'), 'utf8')).toContain(want.expected);
      const errors = errorsOf(caseRepo(id).repo);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ ruleId: want.ruleId, messageId: want.messageId, data: want.data });
    });
  }

  for (const id of loads) {
    it(`loads: ${id.split('/').slice(1).join('/')}`, () => {
      const { repo, dir } = caseRepo(id);
      expect(errorsOf(repo)).toEqual([]);
      // A SavedModel's effective config is one of Triton's answers (a GraphDef's is not auto-completed: nothing to compare).
      if (!id.includes('tensorflow_savedmodel')) return;
      const expected = expectedConfigs(id);
      const gpus = Math.max(0, ...(expected[0]!.instance_group?.flatMap((g) => (g.gpus ?? []).map((n) => n + 1)) ?? []));
      const result = resolveModelDir(dir, { gpus });
      expect(result.problems).toEqual([]);
      expect(expected.map(canonical)).toContainEqual(canonical(result.config!));
    });
  }
});
