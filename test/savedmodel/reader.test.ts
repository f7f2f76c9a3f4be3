// The SavedModel reader on real exports (scripts/model-exports/tensorflow/export.py, committed under
// fixtures/models/tensorflow): the serving signature's keys, types and shapes, the weights sized from
// variables/ without reading them, and, where the exporters run, fresh exports read the same.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSignature } from '../../src/model-readers/readers.js';
import { readSavedModelOfBytes, readSavedModelSync } from '../../src/savedmodel/index.js';
import type { ModelSignature } from '../../src/model-file/signature.js';
import { EXPORTS_PYTHON, exportersRun } from '../support/model-exports.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { EXPECTED, SAVED_MODELS, TF_FIXTURES, savedModelDir, savedModelPb } from './helpers.js';

const seen = (s: ModelSignature) => ({
  inputs: s.inputs.map((t) => [t.name, t.elemType, t.tritonType, t.shape]).sort(),
  outputs: s.outputs.map((t) => [t.name, t.elemType, t.tritonType, t.shape]).sort(),
});

const variablesBytes = (dir: string): number => {
  const vars = path.join(dir, 'variables');
  return fs.existsSync(vars) ? fs.readdirSync(vars).reduce((n, f) => n + fs.statSync(path.join(vars, f)).size, 0) : 0;
};

describe('SavedModel reader: the committed exports', () => {
  for (const name of SAVED_MODELS) {
    it(name, () => {
      const dir = savedModelDir(name);
      const sig = readSavedModelSync(dir);
      const want = EXPECTED[name];
      expect(seen(sig)).toEqual({ inputs: [...want.inputs].sort(), outputs: [...want.outputs].sort() });
      expect(sig.format).toBe('savedmodel');
      expect(sig.path).toBe(dir);
      expect(sig.metadata.find((m) => m.key === 'signature_def')?.value).toBe('serving_default');
      expect(sig.metadata.find((m) => m.key === 'tags')?.value).toBe('serve');
      const weights = want.weightBytes >= 0 ? want.weightBytes : variablesBytes(dir);
      expect(sig.initializers.bytes).toBe(weights);
      // The same through the registry, by the tensorflow backend's format, and from bytes.
      expect(loadSignature(dir, 'tensorflow').signature).toEqual(sig);
      expect(seen(readSavedModelOfBytes(dir, savedModelPb(name)))).toEqual(seen(sig));
    });
  }

  it('the TF2 export holds weights in variables/, sized by stat and listed as the files it depends on', () => {
    const dir = savedModelDir('savedmodel_tf2_scale_float32');
    const sig = readSavedModelSync(dir);
    expect(sig.initializers.bytes).toBeGreaterThan(64); // 16 floats and the checkpoint's index
    expect(sig.initializers.count).toBe(2);
    expect(sig.externalDataFiles).toEqual(['saved_model.pb', 'variables', 'variables/variables.data-00000-of-00001', 'variables/variables.index']);
    expect(sig.batchable).toBe(true);
  });

  it('batchable as the backend decides it (ModelSupportsBatch): every tensor of rank > 0 has -1 first', () => {
    expect(readSavedModelSync(savedModelDir('savedmodel_int32_int8_int8')).batchable).toBe(true);
    expect(readSavedModelSync(savedModelDir('savedmodel_nobatch_images_float32')).batchable).toBe(false);
  });

  it('the committed exports keep no empty variables/ directory: the reader does not need one', () => {
    expect(fs.existsSync(path.join(savedModelDir('savedmodel_int32_int8_int8'), 'variables'))).toBe(false);
  });

  it('reads only saved_model.pb: GraphDef files are left alone (no reader for model.graphdef)', () => {
    expect(loadSignature(path.join(TF_FIXTURES, 'graphdef_int32_int8_int8', '1', 'model.graphdef'), 'other')).toEqual({});
  });
});

describe.runIf(exportersRun('SavedModel re-export'))('SavedModel reader: fresh exports read the same', () => {
  const out = tempDir('tritonc-tf-export-');
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  it('export.py writes models whose signatures equal the committed ones', () => {
    execFileSync(EXPORTS_PYTHON, [path.join(ROOT, 'scripts', 'model-exports', 'tensorflow', 'export.py'), out], {
      stdio: 'pipe',
      env: { ...process.env, TF_CPP_MIN_LOG_LEVEL: '3' },
    });
    for (const name of SAVED_MODELS) {
      const fresh = readSavedModelSync(savedModelDir(name, out));
      const committed = readSavedModelSync(savedModelDir(name));
      expect(seen(fresh), name).toEqual(seen(committed));
      expect(fresh.initializers.bytes, name).toBe(committed.initializers.bytes);
    }
  }, 120_000);
});
