// Model directories for verify tests: an ONNX fixture as <repo>/<name>/1/model.onnx beside a config.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixture, type FixtureName } from '../../fixtures/onnx/index.js';
import { tempDir } from '../support/cli.js';

const built = new Map<FixtureName, string>();

/** Builds each ONNX fixture once per test file. */
export async function fixtureModel(name: FixtureName): Promise<string> {
  let file = built.get(name);
  if (!file) {
    file = await buildFixture(name, tempDir('tritonc-verify-onnx-'));
    built.set(name, file);
  }
  return file;
}

/** A repository holding one model directory `<repo>/<modelName>` with the fixture and the config text. */
export async function modelDir(fixture: FixtureName, config: string, modelName = fixture): Promise<{ repo: string; dir: string }> {
  const repo = tempDir('tritonc-verify-repo-');
  const dir = join(repo, modelName);
  mkdirSync(join(dir, '1'), { recursive: true });
  cpSync(await fixtureModel(fixture), join(dir, '1', 'model.onnx'));
  writeFileSync(join(dir, 'config.pbtxt'), config);
  return { repo, dir };
}

/** The classifier's config with the given I/O section and max_batch_size. */
export function classifierConfig(
  opts: { maxBatchSize?: number; inputDims?: string; outputDims?: string; inputType?: string; inputName?: string; extra?: string } = {},
): string {
  return [
    'name: "classifier"',
    'backend: "onnxruntime"',
    `max_batch_size: ${opts.maxBatchSize ?? 32}`,
    `input [ { name: "${opts.inputName ?? 'input'}" data_type: ${opts.inputType ?? 'TYPE_FP32'} dims: ${opts.inputDims ?? '[ 3, 224, 224 ]'} } ]`,
    `output [ { name: "output" data_type: TYPE_FP32 dims: ${opts.outputDims ?? '[ 1000 ]'} } ]`,
    opts.extra ?? '',
    '',
  ].join('\n');
}
