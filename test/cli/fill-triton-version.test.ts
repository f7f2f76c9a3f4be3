// fill judges the filled config against the Triton it is for: a TensorRT-LLM config in the shape of
// tensorrtllm_backend v0.15.0's all_models/inflight_batcher_llm/tensorrt_llm/config.pbtxt (no
// guided-decoding keys: the backend reads them from v0.19.0 on) is written for the 24.11 trtllm image
// (TensorRT-LLM 0.15.0, server docs/introduction/compatibility.md) and refused for 25.05's (0.19.0).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../support/cli.js';

const TEMPLATE = `backend: "\${triton_backend}"
max_batch_size: 64
model_transaction_policy { decoupled: false }
parameters { key: "gpt_model_type" value: { string_value: "inflight_fused_batching" } }
parameters { key: "gpt_model_path" value: { string_value: "\${engine_dir}" } }
`;
const SUBS = 'triton_backend:tensorrtllm,engine_dir:/engines/llama';

function repo(settings?: object): string {
  const dir = tempDir('tritonc-fill-target-');
  mkdirSync(join(dir, 'tensorrt_llm', '1'), { recursive: true });
  writeFileSync(join(dir, 'tensorrt_llm', 'config.pbtxt'), TEMPLATE);
  if (settings) writeFileSync(join(dir, 'tritonc.config.json'), JSON.stringify(settings));
  return dir;
}

describe('fill --triton-version', () => {
  it('a v0.15 TensorRT-LLM template for the 24.11 trtllm image: written', async () => {
    const dir = repo();
    const r = await cli(['fill', '-i', '--triton-version', 'nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3', 'tensorrt_llm/config.pbtxt', SUBS], {
      cwd: dir,
    });
    expect(r.stderr).not.toContain('guided_decoding_backend');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'tensorrt_llm', 'config.pbtxt'), 'utf8')).toContain('/engines/llama');
  });

  it('the same for 25.05 (TensorRT-LLM 0.19.0): refused, the version named, nothing written', async () => {
    const dir = repo();
    const r = await cli(['fill', '-i', '--triton-version', '25.05-trtllm-python-py3', 'tensorrt_llm/config.pbtxt', SUBS], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('parameters has no "guided_decoding_backend": the tensorrtllm backend of TensorRT-LLM 0.19.0 fails the load');
    expect(r.stderr).toContain('as every release from 0.19.0 on does');
    expect(readFileSync(join(dir, 'tensorrt_llm', 'config.pbtxt'), 'utf8')).toBe(TEMPLATE);
  });

  it('the repository pinned to 24.11-trtllm in tritonc.config.json: written; printed alone, judged the same', async () => {
    const dir = repo({ triton: '24.11-trtllm-python-py3' });
    const r = await cli(['fill', '-i', 'tensorrt_llm/config.pbtxt', SUBS], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const printed = await cli(['fill', '--triton-version', '24.11', 'tensorrt_llm/config.pbtxt', SUBS], { cwd: repo() });
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toContain('/engines/llama');
  });

  it('a Triton version tritonc does not know: a usage error naming the ones it knows', async () => {
    const r = await cli(['fill', '--triton-version', '19.01', 'tensorrt_llm/config.pbtxt', SUBS], { cwd: repo() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Triton 19.01 is not a release tritonc knows');
  });
});
