// The TensorRT-LLM templates of the corpus (triton_cli src/triton_cli/templates/trt_llm/*), filled as
// triton_cli fills them (src/triton_cli/trt_llm/engine_config_parser.py parse_and_substitute @ 7f448b2c:
// its config_dict through string.Template.safe_substitute), laid out as the repository it deploys, and
// linted: what triton_cli leaves unfilled is reported, placeholder by placeholder, and nothing else fails.
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { fillTemplate } from '../../src/fill/fill.js';
import { safeSubstitute } from '../../src/fill/python-template.js';
import { writeRepo } from '../lint/harness.js';
import { corpusRows, readCorpusFile } from '../support/corpus.js';

const TEMPLATES = corpusRows().filter((r) => r.file.includes('triton_cli/templates/trt_llm/'));

/** parse_and_substitute's config_dict, for an engine without config.json (triton_max_batch_size 256). */
const TRITON_CLI_FILL = new Map<string, string>(
  Object.entries({
    triton_max_batch_size: '256',
    logits_datatype: 'TYPE_FP32',
    triton_backend: 'tensorrtllm',
    decoupled_mode: 'True',
    max_queue_size: '0',
    batching_strategy: 'inflight_fused_batching',
    tensorrt_llm_model_name: 'tensorrt_llm',
    encoder_input_features_data_type: 'TYPE_FP16',
    tensorrt_llm_draft_model_name: '',
    engine_dir: '/engines/llama',
    tokenizer_dir: '/models/llama',
    tokenizer_type: 'llama',
    guided_decoding_backend: '',
    xgrammar_tokenizer_info_path: '',
    max_queue_delay_microseconds: '0',
    exclude_input_in_output: 'True',
    postprocessing_instance_count: '1',
    preprocessing_instance_count: '1',
    bls_instance_count: '1',
  }),
);

describe('the triton_cli TensorRT-LLM templates, filled as triton_cli fills them', () => {
  it('are all in the corpus', () => {
    expect(TEMPLATES.map((r) => r.file.split('/').at(-2)).sort()).toEqual(['postprocessing', 'preprocessing', 'tensorrt_llm', 'tensorrt_llm_bls']);
  });

  it('parse, load as far as tritonc can tell, and each placeholder triton_cli leaves is reported where it stands', async () => {
    const files: Record<string, string> = {};
    const left = new Map<string, string[]>();
    for (const row of TEMPLATES) {
      const model = row.file.split('/').at(-2)!;
      const filled = safeSubstitute(readCorpusFile(row), TRITON_CLI_FILL);
      files[`${model}/config.pbtxt`] = filled.text;
      files[`${model}/1/${model === 'tensorrt_llm' ? '.engine-elsewhere' : 'model.py'}`] = '';
      // What tritonc fill would call unfilled: the placeholders outside comments.
      left.set(model, [
        ...new Set(
          fillTemplate(
            readCorpusFile(row),
            [...TRITON_CLI_FILL].map(([key, value]) => ({ key, value })),
          ).unfilled.map((p) => p.name),
        ),
      ]);
    }
    const dir = await writeRepo(files);
    const result = lintSync([dir], { cwd: dir });
    const findings = result.results.flatMap((r) => r.diagnostics.map((d) => ({ model: r.filePath.slice(dir.length + 1).split('/')[0]!, ...d })));
    expect(findings.filter((f) => f.severity === 'error').map((f) => `${f.model} ${f.ruleId}: ${f.message}`)).toEqual([]);
    // triton_cli leaves most of the tensorrt_llm template's parameters unfilled: one finding each.
    for (const [model, names] of left) {
      const reported = findings.filter((f) => f.model === model && f.ruleId === 'unfilled-placeholder').map((f) => /\$\{(\w+)\}/.exec(f.message)![1]);
      expect(new Set(reported), model).toEqual(new Set(names));
    }
    expect(left.get('tensorrt_llm')!.length).toBeGreaterThan(20);
  });
});
