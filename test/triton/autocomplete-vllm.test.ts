// The vLLM backend's auto-complete and python_backend's helpers it goes through. The helpers'
// messages are checked in the form the server's QA expects them (server qa/L0_model_config/
// autofill_noplatform/python/<case>/expected), on the same configs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoCompleteVllm, VLLM_INPUTS, VLLM_OUTPUTS } from '../../src/triton/backends/vllm/autocomplete.js';
import { addTensor, setMaxBatchSize, setModelTransactionPolicy } from '../../src/triton/backends/python/model-config-helpers.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { tempDir } from '../support/cli.js';

describe("python_backend's auto-complete helpers", () => {
  it("set_max_batch_size refuses to lower the config's value, and raises it freely", () => {
    // qa .../conflicting_max_batch_size/expected: the config says 6, the model's auto_complete_config 4.
    expect(setMaxBatchSize({ name: 'conflicting_max_batch_size', max_batch_size: 6 }, 4)).toEqual({
      ok: false,
      message:
        "configuration specified max_batch_size 6, but in auto-complete-config function for model 'conflicting_max_batch_size' specified max_batch_size 4",
    });
    expect(setMaxBatchSize({ name: 'm' }, 4)).toMatchObject({ ok: true, config: { max_batch_size: 4 } });
    expect(setMaxBatchSize({ name: 'm', max_batch_size: 4 }, 8)).toMatchObject({ ok: true, config: { max_batch_size: 8 } });
  });

  it('set_model_transaction_policy refuses to change a decoupled the config states (an empty block is false)', () => {
    // qa .../model_transaction_policy_mismatch/expected: the config says decoupled: false.
    expect(
      setModelTransactionPolicy({ name: 'model_transaction_policy_mismatch', model_transaction_policy: { decoupled: false } }, { decoupled: true }),
    ).toEqual({
      ok: false,
      message: "trying to change decoupled property in auto-complete-config for model 'model_transaction_policy_mismatch', which is already set to 'False'.",
    });
    expect(setModelTransactionPolicy({ name: 'm', model_transaction_policy: {} }, { decoupled: true }).ok).toBe(false);
    expect(setModelTransactionPolicy({ name: 'm' }, { decoupled: true })).toMatchObject({
      ok: true,
      changed: true,
      config: { model_transaction_policy: { decoupled: true } },
    });
  });

  it('add_input / add_output compare a tensor of the same name: data type, dims (as Python prints lists), optional', () => {
    const input = { name: 'INPUT0', data_type: 'TYPE_FP32', dims: [4] };
    // qa .../input_mismatch_datatype, input_mismatch_dims, ...: the messages' forms.
    expect(addTensor({ name: 'm', input: [{ name: 'INPUT0', data_type: 'TYPE_INT32', dims: [4] }] }, 'input', input)).toEqual({
      ok: false,
      message: "unable to load model 'm', configuration expects datatype TYPE_INT32 for input 'INPUT0', model provides TYPE_FP32",
    });
    expect(addTensor({ name: 'm', input: [{ name: 'INPUT0', data_type: 'TYPE_FP32', dims: [2, 2] }] }, 'input', input)).toEqual({
      ok: false,
      message: "model 'm', tensor 'INPUT0': the model expects dims [4] but the model configuration specifies dims [2, 2]",
    });
    expect(addTensor({ name: 'm', input: [{ name: 'INPUT0', data_type: 'TYPE_FP32', dims: [4] }] }, 'input', { ...input, optional: true })).toEqual({
      ok: false,
      message: "model 'm', tensor 'INPUT0': the model expects optional True but the model configuration specifies optional False",
    });
    expect(addTensor({ name: 'm', output: [{ name: 'OUT', dims: [] }] }, 'output', { name: 'OUT', data_type: 'TYPE_FP32', dims: [-1] })).toMatchObject({
      ok: true,
      config: { output: [{ name: 'OUT', data_type: 'TYPE_FP32', dims: [-1] }] },
    });
  });
});

describe("the vLLM backend's auto-complete", () => {
  it('adds the undeclared inputs and outputs by name, decoupled, max_batch_size 0', () => {
    const r = autoCompleteVllm({ name: 'vllm_model', backend: 'vllm', input: [{ name: 'text_input', data_type: 'TYPE_INT32', dims: [3] }] });
    expect(r.problems).toEqual([]);
    // A declared tensor is never compared (src/model.py adds by name), however wrong.
    expect(r.config.input![0]).toEqual({ name: 'text_input', data_type: 'TYPE_INT32', dims: [3] });
    expect(r.config.input!.map((i) => i.name)).toEqual(VLLM_INPUTS.map((i) => i.name));
    expect(r.config.output!.map((o) => o.name)).toEqual(VLLM_OUTPUTS.map((o) => o.name));
    expect(r.config.model_transaction_policy).toEqual({ decoupled: true });
    expect(r.config.max_batch_size).toBe(0);
  });

  it('the transaction policy is refused before max_batch_size', () => {
    const r = autoCompleteVllm({ name: 'v', max_batch_size: 4, model_transaction_policy: { decoupled: false } });
    expect(r.problems.map((p) => p.path)).toEqual([['model_transaction_policy', 'decoupled']]);
  });

  it('tritonc resolve serves what vLLM auto-complete makes, and refuses what it refuses', () => {
    const dir = join(tempDir('tritonc-vllm-'), 'vllm_model');
    mkdirSync(join(dir, '1'), { recursive: true });
    writeFileSync(join(dir, '1', 'model.json'), '{"model":"facebook/opt-125m"}');
    writeFileSync(join(dir, 'config.pbtxt'), 'backend: "vllm"\ninstance_group [ { count: 1 kind: KIND_MODEL } ]\n');
    const ok = resolveModelDir(dir);
    expect(ok.status).toBe('ok');
    expect(ok.config).toMatchObject({ max_batch_size: 0, model_transaction_policy: { decoupled: true } });
    expect(ok.config!.output!.find((o) => o.name === 'text_output')).toEqual({ name: 'text_output', data_type: 'TYPE_STRING', dims: [-1] });
    expect(ok.steps.some((s) => s.stage === 'autocomplete' && s.action === 'add')).toBe(true);
    writeFileSync(join(dir, 'config.pbtxt'), 'backend: "vllm"\nmax_batch_size: 16\n');
    const refused = resolveModelDir(dir);
    expect(refused.status).toBe('refused');
    expect(refused.problems[0]!.message).toBe(
      "configuration specified max_batch_size 16, but in auto-complete-config function for model 'vllm_model' specified max_batch_size 0",
    );
  });
});
