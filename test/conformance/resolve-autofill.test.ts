// Conformance with Triton itself: server/qa/L0_model_config/autofill_noplatform_success/onnx holds, per
// case, the config.pbtxt Triton was started with (or none) and the effective configs Triton reported
// (`expected`, `expected.1`, ...: the same config with inputs/outputs in the different orders Triton's
// unordered map can produce). For each case we build a model directory with an ONNX model of the
// signature the expected config implies, resolve it for the GPU count it implies, and require the
// result to equal one of Triton's answers as a value (and as the JSON GET /config would return).
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import type { ModelConfig, ModelInput, ModelOutput } from '../../src/config/model-config.js';
import { printConfig } from '../../src/config/print.js';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { tritonConfigJson } from '../../src/triton/triton-json.js';
import { corpusRows, CORPUS_DIR } from '../support/corpus.js';
import { makeModelDir, type SignatureSpec, type TensorSpec } from '../triton/helpers.js';

const SUITE = 'triton-inference-server__server/qa/L0_model_config/autofill_noplatform_success/onnx/';
const SUITE_DIR = `${CORPUS_DIR}${SUITE}`;

interface Case {
  name: string;
  config?: string;
  expected: { file: string; value: ModelConfig }[];
}

function cases(): Case[] {
  const byCase = new Map<string, Case>();
  for (const row of corpusRows().filter((r) => r.file.startsWith(SUITE))) {
    const [name, file] = row.file.slice(SUITE.length).split('/') as [string, string];
    const c = byCase.get(name) ?? { name, expected: [] };
    byCase.set(name, c);
    if (file === 'config.pbtxt') c.config = row.path;
    else if (/^expected(\.\d+)?$/.test(file)) {
      const doc = parseConfig(readFileSync(row.path, 'utf8'), row.path);
      expect(doc.diagnostics, row.file).toEqual([]);
      c.expected.push({ file, value: doc.value });
    }
  }
  return [...byCase.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Proto3 value equality: a scalar at its default is the same as an absent one (`runtime: ""`). */
const canonical = (v: ModelConfig): unknown => toProtoJson(v as Record<string, unknown>, loadSchema().modelConfig);

/** The ONNX tensor behind a config entry: the batch dim (-1) in front when batching, the reshape if any. */
function tensorOf(io: ModelInput | ModelOutput, maxBatch: number): TensorSpec {
  const shape = (io.reshape ? (io.reshape.shape ?? []) : (io.dims ?? [])).map(Number);
  return { name: io.name!, type: io.data_type as string, shape: maxBatch > 0 ? [-1, ...shape] : shape };
}

function signatureOf(expected: ModelConfig): SignatureSpec {
  const maxBatch = expected.max_batch_size ?? 0;
  return { inputs: (expected.input ?? []).map((i) => tensorOf(i, maxBatch)), outputs: (expected.output ?? []).map((o) => tensorOf(o, maxBatch)) };
}

/** The host the QA run had, as far as the expected config shows it: enough GPUs for every id it lists. */
function gpusOf(expected: ModelConfig): number {
  const ids = (expected.instance_group ?? []).flatMap((g) => g.gpus ?? []);
  return ids.length ? Math.max(...ids) + 1 : 0;
}

const all = cases();

describe("resolve reproduces Triton's autofill_noplatform_success/onnx expectations", () => {
  it('covers every case directory in the corpus', () => {
    const onDisk = readdirSync(SUITE_DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(all.map((c) => c.name)).toEqual(onDisk);
    expect(onDisk).toEqual(['cpu_instance', 'empty_config', 'no_config', 'no_config_no_batch']);
    for (const c of all) expect(c.expected.length, c.name).toBeGreaterThan(0);
  });

  for (const c of all) {
    it(`${c.name}: equals one of Triton's ${c.expected.length} expected config${c.expected.length > 1 ? 's' : ''}`, async () => {
      const first = c.expected[0]!.value;
      const dir = await makeModelDir({ name: c.name, models: { '1/model.onnx': signatureOf(first) } });
      if (c.config) copyFileSync(c.config, join(dir, 'config.pbtxt'));

      const result = resolveModelDir(dir, { gpus: gpusOf(first) });
      expect(result.problems).toEqual([]);
      expect(result.status).toBe('ok');
      const got = result.config!;
      expect(c.expected.map((e) => canonical(e.value))).toContainEqual(canonical(got));
      // The same as the JSON Triton's GET /v2/models/<name>/config answers with.
      expect(c.expected.map((e) => tritonConfigJson(e.value))).toContainEqual(tritonConfigJson(got));
      // And the printed config reads back as the same value.
      expect(canonical(parseConfig(printConfig(got)).value)).toEqual(canonical(got));
    });
  }
});
