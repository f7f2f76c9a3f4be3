// The five fill_template.py commands of tensorrtllm_backend's README ("Prepare the model
// repository"), with `tritonc fill -i` in their place, on a template set of this project's own making
// in the shape of all_models/inflight_batcher_llm (test/fixtures/trtllm-templates: numbers and enums
// where Triton needs a value, required and optional string parameters, a backend name). NVIDIA's
// commands leave optional parameters unfilled on purpose: each command fills with exit 0, and the
// filled repository lints with no error; --strict refuses what they leave.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../support/cli.js';

const TEMPLATES = join(import.meta.dirname, '..', 'fixtures', 'trtllm-templates');

/** The README's commands, with its shell variables given values. */
const COMMANDS: [string, string][] = [
  ['preprocessing', 'tokenizer_dir:/models/llama,triton_max_batch_size:64,preprocessing_instance_count:1'],
  ['postprocessing', 'tokenizer_dir:/models/llama,triton_max_batch_size:64,postprocessing_instance_count:1'],
  ['tensorrt_llm_bls', 'triton_max_batch_size:64,decoupled_mode:False,bls_instance_count:1,accumulate_tokens:False,logits_datatype:TYPE_FP32'],
  ['ensemble', 'triton_max_batch_size:64,logits_datatype:TYPE_FP32'],
  [
    'tensorrt_llm',
    'triton_backend:tensorrtllm,triton_max_batch_size:64,decoupled_mode:False,max_beam_width:1,engine_dir:/engines/llama,max_tokens_in_paged_kv_cache:2560,max_attention_window_size:2560,kv_cache_free_gpu_mem_fraction:0.5,exclude_input_in_output:True,enable_kv_cache_reuse:False,batching_strategy:inflight_fused_batching,max_queue_delay_microseconds:0,encoder_input_features_data_type:TYPE_FP16,logits_datatype:TYPE_FP32',
  ],
];

function copy(): string {
  const repo = join(tempDir('tritonc-trtllm-'), 'model_repository');
  cpSync(TEMPLATES, repo, { recursive: true });
  return repo;
}

describe("tensorrtllm_backend's README commands, with tritonc fill", () => {
  it('fill each config with exit 0, writing it; the filled repository lints with no error', async () => {
    const repo = copy();
    for (const [model, subs] of COMMANDS) {
      const r = await cli(['fill', '-i', `${model}/config.pbtxt`, subs], { cwd: repo });
      expect(r.code, `${model}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toContain(`tritonc fill: wrote ${model}/config.pbtxt`);
      // Nothing is left where Triton needs a value.
      expect(readFileSync(join(repo, model, 'config.pbtxt'), 'utf8')).not.toMatch(/:\s*\$\{/);
    }
    const lint = await cli(['lint', '.', '-f', 'json'], { cwd: repo });
    const errors = (JSON.parse(lint.stdout) as { filePath: string; messages: { severity: number; ruleId: string; message: string }[] }[]).flatMap((f) =>
      f.messages.filter((m) => m.severity === 2).map((m) => `${f.filePath}: ${m.ruleId}: ${m.message}`),
    );
    expect(errors).toEqual([]);
    expect(lint.code).toBe(0);
  });

  it('with --strict, the commands that leave optional parameters unfilled are refused, naming them, and write nothing', async () => {
    const repo = copy();
    const refused: string[] = [];
    for (const [model, subs] of COMMANDS) {
      const before = readFileSync(join(repo, model, 'config.pbtxt'), 'utf8');
      const r = await cli(['fill', '-i', '--strict', `${model}/config.pbtxt`, subs], { cwd: repo });
      if (r.code !== 0) {
        refused.push(model);
        expect(r.stderr).toMatch(/error: placeholder \$\{\w+\} is not filled: add \w+:<value> to the substitutions \(--strict\)/);
        expect(readFileSync(join(repo, model, 'config.pbtxt'), 'utf8')).toBe(before);
      }
    }
    expect(refused).toEqual(['preprocessing', 'postprocessing', 'tensorrt_llm_bls', 'tensorrt_llm']);
  });

  it('a template kept in the repository (not filled) is a note to lint and fmt, not an error', async () => {
    const repo = copy();
    const lint = await cli(['lint', '.'], { cwd: repo });
    expect(lint.code, lint.stdout).toBe(0);
    expect(lint.stdout.match(/template: \d+ unfilled placeholders? .* where values go/g)).toHaveLength(5);
    const fmt = await cli(['fmt', '--check', '.'], { cwd: repo });
    expect(fmt.code, fmt.stderr).toBe(0);
    expect(fmt.stderr.match(/: template: fill it first \(tritonc fill\); not formatted/g)).toHaveLength(5);
  });
});
