// The vLLM models of the corpus, each with the model.json that sits beside it in its repository
// (copied here: the corpus holds the configs only), linted as a repository: the vLLM backend loads them
// (their upstream CI and tutorials run them), so tritonc finds no error. The tutorials' speculative-
// decoding models use engine arguments vLLM dropped in 0.8.4: a warning, and an error once the
// vllm-model rule is told the container's vLLM is newer.
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { writeRepo } from '../lint/harness.js';
import { corpusRows, readCorpusFile } from '../support/corpus.js';

/** model.json by corpus config path (tutorials @ e8489525, vllm_backend @ 8de0c148, server @ e1db8a60: <model>/1/model.json). */
const MODEL_JSON: Record<string, string> = {
  'triton-inference-server__tutorials/Popular_Models_Guide/Llama2/llama2vllm/config.pbtxt':
    '{"model":"meta-llama/Llama-2-7b-hf","trust_remote_code":true,"download_dir":"/opt/tritonserver/model_repository/llama2vllm/hf-cache","gpu_memory_utilization": 0.5}',
  'triton-inference-server__tutorials/Feature_Guide/Speculative_Decoding/vLLM/model_repository/opt_model/config.pbtxt':
    '{"model": "facebook/opt-6.7b","speculative_model": "facebook/opt-125m","tensor_parallel_size": 1,"num_speculative_tokens": 5}',
  'triton-inference-server__tutorials/Feature_Guide/Speculative_Decoding/vLLM/model_repository/eagle_model/config.pbtxt':
    '{"model": "/hf-models/Meta-Llama-3-8B-Instruct","speculative_model": "/hf-models/EAGLE-LLaMA3-Instruct-8B","speculative_draft_tensor_parallel_size": 1,"num_speculative_tokens": 5}',
  'triton-inference-server__tutorials/Feature_Guide/Speculative_Decoding/vLLM/model_repository/base_model/config.pbtxt':
    '{"model": "/hf-models/Meta-Llama-3-8B-Instruct"}',
  'triton-inference-server__vllm_backend/samples/model_repository/vllm_model/config.pbtxt':
    '{"model":"facebook/opt-125m","gpu_memory_utilization": 0.1,"enforce_eager": true}',
  'triton-inference-server__server/python/openai/tests/vllm_mistral_models/mistral-nemo-instruct-2407/config.pbtxt':
    '{"model": "mistralai/Mistral-Nemo-Instruct-2407", "gpu_memory_utilization": 0.9}',
  'triton-inference-server__server/python/openai/tests/vllm_models/llama-3.1-8b-instruct/config.pbtxt':
    '{"model": "meta-llama/Meta-Llama-3.1-8B-Instruct", "gpu_memory_utilization": 0.9}',
  'triton-inference-server__server/python/openai/tests/vllm_embedding_models/all-MiniLM-L6-v2/config.pbtxt':
    '{"model": "sentence-transformers/all-MiniLM-L6-v2", "gpu_memory_utilization": 0.5}',
};
const SPECULATIVE = ['opt_model', 'eagle_model'];

describe('the vLLM models of the corpus, with their model.json', () => {
  const rows = corpusRows().filter((r) => r.file in MODEL_JSON);

  it('are all there', () => {
    expect(rows.length).toBe(Object.keys(MODEL_JSON).length);
  });

  it.each(rows.map((r) => [r.file, r] as const))('%s: no error; retired engine arguments are warnings', async (_, row) => {
    const model = basename(dirname(row.file));
    const dir = await writeRepo({ [`${model}/config.pbtxt`]: readCorpusFile(row), [`${model}/1/model.json`]: MODEL_JSON[row.file]! });
    const found = lintSync([dir], { cwd: dir }).results.flatMap((r) => r.diagnostics);
    expect(found.filter((d) => d.severity === 'error').map((d) => `${d.ruleId}: ${d.message}`)).toEqual([]);
    const retired = found.filter((d) => d.ruleId === 'vllm-model').map((d) => `${d.severity} ${d.messageId}`);
    expect(retired.every((r) => r === 'warning retiredArg')).toBe(true);
    expect(retired.length > 0).toBe(SPECULATIVE.includes(model));

    // Told the container's vLLM is 0.11.0 (Triton 25.11), the speculative ones would not load.
    const settings = JSON.stringify({ rules: { 'vllm-model': ['error', { version: '0.11.0' }] } });
    await writeRepo({ 'tritonc.config.json': settings }, dir);
    const errors = lintSync([dir], { cwd: dir })
      .results.flatMap((r) => r.diagnostics)
      .filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.messageId)).toEqual(
      SPECULATIVE.includes(model) ? expect.arrayContaining([expect.stringMatching(/^unknownArgSinceVersion/)]) : [],
    );
  });
});
