// --run-python-autocomplete's runner: auto_complete_config run in a subprocess of python3 with the
// stand-in triton_python_backend_utils, on a copy of the model directory, without the network, with a
// timeout. Its facts are judged by the same completion as the static reading, and agree with it on
// Triton's qa model.py files. Skipped (one line) where no python3 runs.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAutoCompleteConfig } from '../../src/python-model/auto-complete-config.js';
import { pythonVersion, runAutoCompleteConfig } from '../../src/python-model/run.js';
import { completeFromScript } from '../../src/triton/backends/python/autocomplete-script.js';
import { stringifyTritonJson, tritonConfigJson } from '../../src/triton/triton-json.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { tempDir } from '../support/temp.js';

const python = pythonVersion();
if (!python) console.log('tritonc: python-model run tests skipped: no python3 runs here');
const FIXTURES = join(import.meta.dirname, '../../fixtures/models/python/L0_model_config');

function modelDir(py: string): string {
  const dir = join(tempDir('tritonc-run-'), 'm');
  mkdirSync(join(dir, '1'), { recursive: true });
  writeFileSync(join(dir, '1', 'model.py'), py);
  return dir;
}
const json = (c: ModelConfig): string => stringifyTritonJson(tritonConfigJson(c), 0);
const fn = (body: string): string =>
  `class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n${body
    .split('\n')
    .map((l) => `        ${l}`)
    .join('\n')}\n`;

describe.skipIf(!python)('runAutoCompleteConfig', () => {
  it("gives the static reading's result on Triton's qa model.py files (those without imports)", () => {
    for (const suite of ['autofill_noplatform', 'autofill_noplatform_success']) {
      for (const name of readdirSync(join(FIXTURES, suite, 'python'))) {
        const file = join(FIXTURES, suite, 'python', name, 'model.py');
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue;
        }
        const dir = modelDir(text);
        const config: ModelConfig = { name, backend: 'python', max_batch_size: 6, sequence_batching: {} };
        const ran = completeFromScript(config, runAutoCompleteConfig(join(dir, '1', 'model.py'), json(config)), 'run');
        const read = completeFromScript(config, readAutoCompleteConfig(text));
        expect(ran.problems, name).toEqual(read.problems);
        expect(ran.config, name).toEqual(read.config);
      }
    }
    // 31 runs of python3 (each with its supervisor): the bound is only for a hang.
  }, 180_000);

  it('what the script reads from as_dict() follows the calls before it; a branch the reader cannot follow runs', () => {
    const dir = modelDir(
      fn(
        'if c.as_dict()["max_batch_size"] == 0:\n    c.set_max_batch_size(8)\nc.add_input({"name": "X", "data_type": "TYPE_FP32", "dims": [c.as_dict()["max_batch_size"]]})\nreturn c',
      ),
    );
    const facts = runAutoCompleteConfig(join(dir, '1', 'model.py'), json({ name: 'm', backend: 'python' }));
    expect(facts.unknown).toBeUndefined();
    expect(facts.calls.map((c) => [c.method, c.line])).toEqual([
      ['set_max_batch_size', 5],
      ['add_input', 6],
    ]);
    const done = completeFromScript({ name: 'm', backend: 'python' }, facts, 'run');
    expect(done.config).toMatchObject({ max_batch_size: 8, input: [{ name: 'X', data_type: 'TYPE_FP32', dims: [8] }] });
  });

  it('no network: socket creation and name lookups are refused inside auto_complete_config', () => {
    for (const body of [
      'import socket\nsocket.create_connection(("127.0.0.1", 9))',
      'import socket\nsocket.socket()',
      'import socket\nsocket.getaddrinfo("example.com", 80)',
      'import urllib.request\nurllib.request.urlopen("http://example.com")',
    ]) {
      const dir = modelDir(fn(`${body}\nreturn c`));
      const facts = runAutoCompleteConfig(join(dir, '1', 'model.py'), json({ name: 'm' }));
      expect(facts.raised, body).toMatch(/network access is refused while tritonc runs auto_complete_config/);
    }
  });

  it("a timeout, an import error and a copy of the model directory: never the user's files", () => {
    const slow = modelDir(fn('while True:\n    pass'));
    expect(runAutoCompleteConfig(join(slow, '1', 'model.py'), json({ name: 'm' }), { timeoutMs: 1000 }).unknown?.reason).toBe(
      'auto_complete_config did not finish within 1 s',
    );
    const missing = modelDir(`import no_such_module_here\n${fn('return c')}`);
    expect(runAutoCompleteConfig(join(missing, '1', 'model.py'), json({ name: 'm' })).unknown?.reason).toMatch(
      /^model.py could not be imported here \(ModuleNotFoundError: No module named 'no_such_module_here'\)$/,
    );
    const writer = modelDir(
      fn(
        'import os\ntry:\n    open(os.path.join(os.path.dirname(__file__) if "__file__" in globals() else ".", "written.txt"), "w").write("x")\nexcept OSError:\n    pass\nreturn c',
      ),
    );
    runAutoCompleteConfig(join(writer, '1', 'model.py'), json({ name: 'm' }));
    expect(readdirSync(join(writer, '1'))).toEqual(['model.py']);
  });
});
