// Findings are data: tools match on the message id and read the values from `data`, never parse the
// text. A few representative findings, on real files, asserted by id and data.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo, type RepoFiles } from './harness.js';

async function lintRepo(files: RepoFiles): Promise<Diagnostic[]> {
  const repo = await writeRepo(files);
  return lintSync([repo], { cwd: repo, rules: RULES }).results.flatMap((r) => r.diagnostics);
}
const byRule = (found: Diagnostic[], ruleId: string): Diagnostic[] => found.filter((d) => d.ruleId === ruleId);

describe('finding ids and data', () => {
  it('batch-dim-in-dims: the dims written, the dims expected, the model shape', async () => {
    const found = await lintRepo({
      'classifier/config.pbtxt': CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]'),
      'classifier/1/model.onnx': CLASSIFIER,
    });
    expect(byRule(found, 'batch-dim-in-dims')).toMatchObject([
      {
        messageId: 'includesBatchAxis',
        data: { field: 'dims', dims: [1, 3, 224, 224], expected: [3, 224, 224], mbs: 8, name: 'input', direction: 'input', modelDims: ['batch', 3, 224, 224] },
      },
    ]);
  });

  it("io-datatype: the written and the model's type", async () => {
    const found = await lintRepo({
      'classifier/config.pbtxt': CLASSIFIER_CONFIG.replace('data_type: TYPE_FP32 dims: [ 1000 ]', 'data_type: TYPE_FP16 dims: [ 1000 ]'),
      'classifier/1/model.onnx': CLASSIFIER,
    });
    expect(byRule(found, 'io-datatype')).toMatchObject([
      { messageId: 'dataTypeMismatch', data: { name: 'output', direction: 'output', configType: 'TYPE_FP16', modelType: 'TYPE_FP32', elemType: 'FLOAT' } },
    ]);
  });

  it('model-unreadable: the byte offset and the kind of failure', async () => {
    const found = await lintRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': 'name: "not a model"\n' });
    expect(byRule(found, 'model-unreadable')).toMatchObject([
      { messageId: 'onnxText', data: { byteOffset: 0, kind: 'format', failsAt: 0 }, file: expect.stringMatching(/model\.onnx$/) },
    ]);
  });

  it('instance-memory: bytes per GPU against the budget', async () => {
    const found = await lintRepo({
      'classifier/config.pbtxt': `${CLASSIFIER_CONFIG}instance_group [ { kind: KIND_GPU count: 2 } ]\n`,
      'classifier/1/model.onnx': { ...CLASSIFIER, externalBytes: 4 * 2 ** 30 },
      'tritonc.config.json': '{ "gpu": { "memory": "8GiB" } }',
    });
    const [d] = byRule(found, 'instance-memory');
    expect(d).toMatchObject({
      messageId: 'overBudget',
      severity: 'error',
      data: { gpus: [0], budgetBytes: 8 * 2 ** 30, placements: [{ model: 'classifier', instances: 2 }] },
    });
    expect(d!.data!.totalBytes).toBe(2 * (4 * 2 ** 30 + 256 * 2 ** 20));
  });

  it('queue-delay: the delay and the budget in microseconds', async () => {
    const found = await lintRepo({
      'classifier/config.pbtxt': CLASSIFIER_CONFIG.replace('dynamic_batching { }', 'dynamic_batching { max_queue_delay_microseconds: 50000 }'),
      'classifier/1/model.onnx': CLASSIFIER,
      'tritonc.config.json': '{ "latencyBudget": "100ms" }',
    });
    expect(byRule(found, 'queue-delay')).toMatchObject([{ messageId: 'delayOverBudget', data: { delayUs: 50000, budgetUs: 100000, percent: 50 } }]);
  });

  it('ensemble-models: the step, the model and the missing names', async () => {
    const ensemble =
      'platform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1000 ] } ]\nensemble_scheduling { step [ { model_name: "classifer" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUT" } } ] }\n';
    const found = await lintRepo({
      'classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'classifier/1/model.onnx': CLASSIFIER,
      'pipeline/config.pbtxt': ensemble,
      'pipeline/1/.keep': '',
    });
    expect(byRule(found, 'ensemble-models')).toMatchObject([
      { messageId: 'stepModelMissing', data: { step: 0, model: 'classifer', ensemble: 'pipeline', missing: 'classifer' } },
    ]);
    expect(byRule(found, 'ensemble-models')[0]!.file).toMatch(/\/pipeline\/config\.pbtxt$/);
  });
});
