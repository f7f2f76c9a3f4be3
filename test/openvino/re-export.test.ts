// Where the exporters are installed (scripts/model-exports/setup.sh), the IRs are exported again into a
// temporary directory with OpenVINO itself and read: the fresh files give the committed fixtures'
// signatures (names, types, shapes, layouts, weight bytes).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readOpenVinoSync } from '../../src/openvino/index.js';
import { EXPORTS_PYTHON, exportersRun } from '../support/model-exports.js';
import { ROOT } from '../support/snapshot.js';
import { makeTempDir, removeDir } from '../onnx/helpers.js';
import { OPENVINO_FIXTURES, OPENVINO_MODELS } from './fixtures.js';

const runs = exportersRun('test/openvino/re-export.test.ts');
let dir: string | undefined;
afterAll(() => {
  if (dir) removeDir(dir);
});

describe.runIf(runs)('OpenVINO fixtures re-exported read the same', () => {
  it('export.py writes IRs whose signatures equal the committed ones', () => {
    dir = makeTempDir('openvino-export');
    execFileSync(EXPORTS_PYTHON, [join(ROOT, 'scripts', 'model-exports', 'openvino', 'export.py'), dir], { stdio: 'pipe', timeout: 120_000 });
    for (const model of OPENVINO_MODELS) {
      const fresh = readOpenVinoSync(join(dir, model, '1', 'model.xml'));
      const kept = readOpenVinoSync(join(OPENVINO_FIXTURES, model, '1', 'model.xml'));
      const facts = (s: typeof fresh) => ({ inputs: s.inputs, outputs: s.outputs, batchable: s.batchable, initializers: s.initializers });
      expect(facts(fresh), model).toEqual(facts(kept));
    }
  }, 180_000);
});
