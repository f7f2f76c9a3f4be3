// The lock's promise: on generated repositories (ONNX models of random signatures and weights, configs
// that agree or disagree with them, TensorRT engines beside them), lint with the weights present
// equals lint under --configs-only with the weights gone and only tritonc.lock.json left.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { buildLock } from '../../src/workspace/lock-build.js';
import { LOCK_FILE_NAME, serializeLock } from '../../src/workspace/lock.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { writeRepo, type OnnxSpec, type RepoFiles, type TensorSpec } from '../lint/harness.js';

const ELEMS = ['FLOAT', 'FLOAT16', 'INT64', 'INT32'] as const;
const TRITON: Record<string, string> = { FLOAT: 'TYPE_FP32', FLOAT16: 'TYPE_FP16', INT64: 'TYPE_INT64', INT32: 'TYPE_INT32' };

const tensorArb = (prefix: string): fc.Arbitrary<TensorSpec> =>
  fc
    .record({
      n: fc.integer({ min: 0, max: 2 }),
      elem: fc.constantFrom(...ELEMS),
      batch: fc.constantFrom<string | number>('batch', 1, 4),
      rest: fc.array(fc.constantFrom<string | number>(3, 8, 224, 'seq'), { maxLength: 2 }),
    })
    .map(({ n, elem, batch, rest }) => [`${prefix}${n}`, elem, [batch, ...rest]]);

interface ModelCase {
  onnx: OnnxSpec;
  /** What the config lists: the model's own tensors, with some mistakes. */
  listInputs: boolean;
  wrongType: boolean;
  maxBatchSize: number;
  weights: number;
}

const modelArb: fc.Arbitrary<ModelCase> = fc
  .record({
    inputs: fc.uniqueArray(tensorArb('in'), { minLength: 1, maxLength: 2, selector: (t) => t[0] }),
    outputs: fc.uniqueArray(tensorArb('out'), { minLength: 1, maxLength: 2, selector: (t) => t[0] }),
    listInputs: fc.boolean(),
    wrongType: fc.boolean(),
    maxBatchSize: fc.constantFrom(0, 4, 8),
    weights: fc.constantFrom(0, 16, 1000),
    external: fc.constantFrom(0, 0, 64 * 1024 * 1024),
  })
  .map((r) => ({
    onnx: {
      inputs: r.inputs,
      outputs: r.outputs,
      initializers: r.weights ? [{ name: 'w', floats: r.weights }] : [],
      ...(r.external ? { externalBytes: r.external } : {}),
    },
    listInputs: r.listInputs,
    wrongType: r.wrongType,
    maxBatchSize: r.maxBatchSize,
    weights: r.weights,
  }));

function configOf(name: string, m: ModelCase): string {
  const io = (t: TensorSpec, wrong: boolean): string => {
    const dims = (t[2] ?? []).slice(m.maxBatchSize > 0 ? 1 : 0).map((d) => (typeof d === 'number' ? d : -1));
    return `{ name: "${t[0]}" data_type: ${wrong ? 'TYPE_BOOL' : TRITON[t[1]]} dims: [ ${dims.join(', ') || '1'} ] }`;
  };
  const lines = [`name: "${name}"`, 'backend: "onnxruntime"', `max_batch_size: ${m.maxBatchSize}`];
  if (m.listInputs) lines.push(`input [ ${m.onnx.inputs.map((t, i) => io(t, m.wrongType && i === 0)).join(', ')} ]`);
  lines.push(`output [ ${m.onnx.outputs.map((t) => io(t, false)).join(', ')} ]`, 'instance_group [ { count: 2 kind: KIND_GPU } ]');
  return `${lines.join('\n')}\n`;
}

/** What a finding says, where: the same in both runs when the lock stands in faithfully. */
const key = (repo: string, d: Diagnostic): string =>
  `${d.file.slice(repo.length)}:${d.range.start.line}:${d.range.start.column} ${d.ruleId}/${d.messageId} ${d.message}`;

describe('lint against the lock equals lint against the weights', () => {
  it('on generated repositories', async () => {
    let withFindings = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(modelArb, { minLength: 1, maxLength: 3 }), fc.boolean(), async (models, engine) => {
        const files: RepoFiles = {};
        models.forEach((m, i) => {
          files[`repo/m${i}/config.pbtxt`] = configOf(`m${i}`, m);
          files[`repo/m${i}/1/model.onnx`] = m.onnx;
        });
        if (engine) {
          files['repo/trt/config.pbtxt'] =
            'platform: "tensorrt_plan"\nmax_batch_size: 8\ninput [ { name: "x" data_type: TYPE_FP16 dims: [ 3 ] } ]\noutput [ { name: "y" data_type: TYPE_FP16 dims: [ 3 ] } ]\n';
          files['repo/trt/1/model.plan'] = 'x'.repeat(4096);
        }
        const dir = await writeRepo(files);
        const repo = join(dir, 'repo');
        const settings = { gpuMemory: { bytes: 2 ** 30, source: '1GiB' } };
        const withWeights = lintSync([repo], { cwd: dir, rules: RULES, ...settings })
          .results.flatMap((r) => r.diagnostics)
          .map((d) => key(dir, d))
          .sort();

        const built = buildLock(new Workspace(), repo);
        expect(built.problems).toEqual([]);
        await writeRepo({ [`repo/${LOCK_FILE_NAME}`]: serializeLock(built.lock) }, dir);
        // Only the configs and the lock remain.
        for (const f of Object.keys(files)) if (!f.endsWith('config.pbtxt')) rmSync(join(dir, f), { recursive: true });
        const fromLock = lintSync([repo], { cwd: dir, rules: RULES, configsOnly: true, ...settings })
          .results.flatMap((r) => r.diagnostics)
          .map((d) => key(dir, d))
          .sort();
        expect(fromLock).toEqual(withWeights);
        if (withWeights.some((k) => !k.includes('unchecked-model'))) withFindings++;
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 40 },
    );
    // The repositories exercise the model checks: most of them have findings to agree on.
    expect(withFindings).toBeGreaterThan(20);
  });
});
