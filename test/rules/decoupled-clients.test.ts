import { describe, expect, it } from 'vitest';
import { lintConfigData, lintFilesData } from './rule-data.js';

const ID = 'decoupled-clients';

describe(ID, () => {
  it('notes a decoupled model on its decoupled field', async () => {
    const [f, ...rest] = await lintConfigData(ID, 'backend: "python"\nmodel_transaction_policy { decoupled: true }\n', 'llm');
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'info', token: 'true' });
    expect(f!.message).toContain('/v2/models/llm/generate_stream');
  });
  it('notes a vLLM model, decoupled by auto-complete; not with auto-complete off, and not a model that is not decoupled', async () => {
    const files = { 'v/config.pbtxt': 'backend: "vllm"\n', 'v/1/model.json': '{"model":"x"}' };
    expect((await lintFilesData(ID, files, ['v'])).map((f) => f.token)).toEqual(['"vllm"']);
    expect(await lintFilesData(ID, { ...files, 'tritonc.config.json': '{"server":{"disableAutoCompleteConfig":true}}' }, ['v'])).toEqual([]);
    expect(await lintConfigData(ID, 'backend: "python"\nmodel_transaction_policy { decoupled: false }\n')).toEqual([]);
  });
});
