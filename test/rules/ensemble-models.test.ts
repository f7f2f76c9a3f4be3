import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintText } from '../../src/lint/engine.js';
import { ensembleModels } from '../../src/lint/rules/correctness/ensemble-models.js';
import { DEFAULT_SETTINGS, type LintSettings } from '../../src/lint/settings.js';
import { findings, lintDir, writeRepo, type Finding, type RepoFiles } from '../lint/harness.js';

const RULE = 'ensemble-models';

interface Io {
  name: string;
  type?: string;
  dims: number[];
  optional?: boolean;
}

const io = (list: Io[]): string =>
  list.map((t) => `{ name: "${t.name}" data_type: ${t.type ?? 'TYPE_FP32'} dims: [${t.dims.join(', ')}]${t.optional ? ' optional: true' : ''} }`).join(', ');

/** An ONNX Runtime model config with its inputs and outputs listed. */
function model(name: string, mbs: number, inputs: Io[], outputs: Io[], extra = ''): string {
  return `name: "${name}"\nplatform: "onnxruntime_onnx"\nmax_batch_size: ${mbs}\ninput [ ${io(inputs)} ]\noutput [ ${io(outputs)} ]\n${extra}`;
}

interface Step {
  model: string;
  version?: number;
  inputs: Record<string, string>;
  outputs: Record<string, string>;
}

function ensemble(name: string, mbs: number, inputs: Io[], outputs: Io[], steps: Step[], extra = ''): string {
  const step = (s: Step): string => {
    const version = s.version === undefined ? '' : ` model_version: ${s.version}`;
    const maps = [
      ...Object.entries(s.inputs).map(([k, v]) => `input_map { key: "${k}" value: "${v}" }`),
      ...Object.entries(s.outputs).map(([k, v]) => `output_map { key: "${k}" value: "${v}" }`),
    ];
    return `    { model_name: "${s.model}"${version}\n      ${maps.join('\n      ')} }`;
  };
  return `name: "${name}"\nplatform: "ensemble"\nmax_batch_size: ${mbs}\ninput [ ${io(inputs)} ]\noutput [ ${io(outputs)} ]\nensemble_scheduling {\n  step [\n${steps.map(step).join(',\n')}\n  ]\n}\n${extra}`;
}

const PRE = model('pre', 8, [{ name: 'RAW', type: 'TYPE_UINT8', dims: [-1] }], [{ name: 'IMAGE', dims: [3, 224, 224] }]);
const CLS = model('cls', 8, [{ name: 'input', dims: [3, 224, 224] }], [{ name: 'output', dims: [1000] }]);
const STEPS: Step[] = [
  { model: 'pre', version: -1, inputs: { RAW: 'data' }, outputs: { IMAGE: 'pixels' } },
  { model: 'cls', version: -1, inputs: { input: 'pixels' }, outputs: { output: 'prob' } },
];
const ENS_IN: Io[] = [{ name: 'data', type: 'TYPE_UINT8', dims: [-1] }];
const ENS_OUT: Io[] = [{ name: 'prob', dims: [1000] }];

/** A repository: each model's config plus an empty (or given) version directory 1. */
async function repo(configs: Record<string, string>, extra: RepoFiles = {}, versionDirs = true): Promise<string> {
  const files: RepoFiles = { ...extra };
  for (const [name, config] of Object.entries(configs)) {
    files[`${name}/config.pbtxt`] = config;
    if (versionDirs && !Object.keys(extra).some((f) => f.startsWith(`${name}/`))) files[`${name}/1/.keep`] = '';
  }
  return writeRepo(files);
}

async function lintEnsemble(configs: Record<string, string>, extra: RepoFiles = {}, versionDirs = true, settings?: LintSettings): Promise<Finding[]> {
  const dir = await repo(configs, extra, versionDirs);
  const result = lintDir(dir, ['.'], { rules: [ensembleModels], ...(settings ? { settings } : {}) });
  const texts = Object.fromEntries(Object.keys(configs).map((n) => [`${n}/config.pbtxt`, readFileSync(join(dir, n, 'config.pbtxt'), 'utf8')]));
  return findings(result, RULE, dir, texts);
}

const quoted = (f: Finding): string | undefined => f.message.match(/\("([^"]*)"\)/)?.[1];

describe('ensemble-models', () => {
  describe('valid', () => {
    it('a pipeline whose steps match the composing configs', async () => {
      expect(await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls: CLS })).toEqual([]);
    });

    it('a composing ONNX model with no I/O in its config is completed from the model file', async () => {
      const cls = 'platform: "onnxruntime_onnx"\n';
      const onnx = { inputs: [['input', 'FLOAT', ['batch', 3, 224, 224]]], outputs: [['output', 'FLOAT', ['batch', 1000]]] } as const;
      const files: RepoFiles = { 'cls/1/model.onnx': { inputs: [...onnx.inputs], outputs: [...onnx.outputs] } as never };
      expect(await lintEnsemble({ ens: ensemble('ens', 4, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls }, files)).toEqual([]);
      // The same model, mapped with a name it does not have: known only because it was completed.
      const wrong = STEPS.map((s) => (s.model === 'cls' ? { ...s, inputs: { images: 'pixels' } } : s));
      const f = await lintEnsemble({ ens: ensemble('ens', 4, ENS_IN, ENS_OUT, wrong), pre: PRE, cls }, files);
      expect(f.map(quoted)).toEqual(['in ensemble ens, input input in model cls is not mapped to any ensemble tensors', 'in ensemble ens, ensemble tensor pixels is mapping to non-existing input images in model cls']);
      // Auto-complete raised cls to max_batch_size 4, Triton's default: an ensemble asking for 8 is refused.
      const big = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls }, files);
      expect(big.map(quoted)).toEqual(['ensemble ens allows maximum batch size 8, but it contains model cls which only allows maximum batch size to be 4']);
    });

    it('nothing is blamed on a composing model whose I/O tritonc cannot know', async () => {
      // ONNX Runtime without a model file to complete from, and a Python model that auto-completes.
      const cls = 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n';
      const pre = 'backend: "python"\nmax_batch_size: 8\n';
      const files: RepoFiles = { 'pre/1/model.py': 'class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n        return c\n' };
      expect(await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre, cls }, files)).toEqual([]);
    });

    it('a config linted from memory is laid over the repository on disk: its steps resolve there', async () => {
      const dir = await writeRepo({ 'pre/config.pbtxt': PRE, 'cls/config.pbtxt': CLS });
      const result = lintText(ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), { file: join(dir, 'ens', 'config.pbtxt'), rules: [ensembleModels] });
      expect(result.results.flatMap((r) => r.diagnostics)).toEqual([]);
      const alone = lintText(ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), { file: '/nowhere/ens/config.pbtxt', rules: [ensembleModels] });
      expect(alone.results.flatMap((r) => r.diagnostics).map((d) => d.path[0])).toContain('ensemble_scheduling');
    });

    it('an optional composing input may stay unmapped', async () => {
      const cls = model('cls', 8, [{ name: 'input', dims: [3, 224, 224] }, { name: 'mask', dims: [1], optional: true }], [{ name: 'output', dims: [1000] }]);
      expect(await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls })).toEqual([]);
    });

    it('shapes agree through -1 wildcards and between batching and non-batching models', async () => {
      // pre batches ([-1] + [3,-1,-1]); cls does not batch but takes the full shape [-1,3,224,224].
      const pre = model('pre', 8, [{ name: 'RAW', type: 'TYPE_UINT8', dims: [-1] }], [{ name: 'IMAGE', dims: [3, -1, -1] }]);
      const cls = model('cls', 0, [{ name: 'input', dims: [-1, 3, 224, 224] }], [{ name: 'output', dims: [-1, 1000] }]);
      expect(await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre, cls })).toEqual([]);
    });

    it('the ensemble compares its own I/O by reshape.shape when a reshape is given', async () => {
      const out: Io[] = [{ name: 'prob', dims: [1, 1000] }];
      const config = ensemble('ens', 8, ENS_IN, out, STEPS).replace('dims: [1, 1000] }', 'dims: [1, 1000] reshape { shape: [1000] } }');
      expect(await lintEnsemble({ ens: config, pre: PRE, cls: CLS })).toEqual([]);
    });

    it('model_version -1, or one the model loads', async () => {
      const steps = STEPS.map((s) => ({ ...s, version: s.model === 'cls' ? 1 : -1 }));
      expect(await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, steps), pre: PRE, cls: CLS })).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('step models missing from the repository: every name in Triton\'s sorted list, on each step', async () => {
      const steps: Step[] = [
        { model: 'tokenizer', version: -1, inputs: { RAW: 'data' }, outputs: { IMAGE: 'pixels' } },
        { model: 'Cls', version: -1, inputs: { input: 'pixels' }, outputs: { output: 'prob' } },
      ];
      const f = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, steps), cls: CLS });
      expect(f.map((x) => x.token)).toEqual(['"tokenizer"', '"Cls"']);
      expect(f.map(quoted)).toEqual([
        'ensemble ens contains models that are not available or ambiguous: Cls, tokenizer',
        'ensemble ens contains models that are not available or ambiguous: Cls, tokenizer',
      ]);
      expect(f[1]!.message).toContain("(did you mean 'cls'?)");
    });

    it('externalModels: models from another repository are not reported, the present ones still checked', async () => {
      const settings: LintSettings = { ...DEFAULT_SETTINGS, rules: { 'ensemble-models': { level: 'error', options: { externalModels: true } } } };
      const steps = STEPS.map((s) => (s.model === 'cls' ? { ...s, outputs: { logits: 'prob' } } : s));
      const f = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, steps), cls: CLS }, {}, true, settings);
      expect(f.map(quoted)).toEqual(['in ensemble ens, ensemble tensor prob is mapped from non-existing output logits in model cls']);
    });

    it('ensembles that run each other: each gets Triton\'s cycle message', async () => {
      const a = ensemble('a', 8, ENS_IN, ENS_OUT, [{ model: 'b', version: -1, inputs: { data: 'data' }, outputs: { prob: 'prob' } }]);
      const b = ensemble('b', 8, ENS_IN, ENS_OUT, [{ model: 'a', version: -1, inputs: { data: 'data' }, outputs: { prob: 'prob' } }]);
      const f = await lintEnsemble({ a, b });
      expect(f.map((x) => [x.file, quoted(x)])).toEqual([
        ['a/config.pbtxt', 'circular dependency between ensembles: a -> ... -> b -> a'],
        ['b/config.pbtxt', 'circular dependency between ensembles: b -> ... -> a -> b'],
      ]);
      const self = ensemble('self', 8, ENS_IN, ENS_OUT, [{ model: 'self', version: -1, inputs: { data: 'data' }, outputs: { prob: 'prob' } }]);
      expect((await lintEnsemble({ self })).map(quoted)).toEqual(['circular dependency between ensembles: self -> ... -> self -> self']);
    });

    it('a pinned model_version the model does not load: on the model_version value', async () => {
      const steps = STEPS.map((s) => ({ ...s, version: s.model === 'cls' ? 2 : -1 }));
      const [f, ...rest] = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, steps), pre: PRE, cls: CLS });
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', token: '2' });
      expect(quoted(f!)).toBe("ensemble 'ens' depends on 'cls' whose required version 2 is not loaded.");
    });

    it('an omitted model_version is 0 (proto3), not the latest', async () => {
      const steps = STEPS.map(({ version: _v, ...s }) => s);
      const f = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, steps), pre: PRE, cls: CLS });
      expect(f.map((x) => [x.token, quoted(x)])).toEqual([
        ['"pre"', "ensemble 'ens' depends on 'pre' whose required version 0 is not loaded."],
        ['"cls"', "ensemble 'ens' depends on 'cls' whose required version 0 is not loaded."],
      ]);
      expect(f[0]!.message).toContain('set model_version: -1');
      // Without version directories in the checkout it is still worth a warning.
      const w = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, steps), pre: PRE, cls: CLS }, {}, false);
      expect(w.map((x) => x.severity)).toEqual(['warning', 'warning']);
      expect(w[0]!.message).toContain('proto3 reads as 0, not -1');
    });

    it('a composing model without a version directory, when the ensemble has one', async () => {
      const f = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls: CLS }, { 'ens/1/.keep': '', 'pre/1/.keep': '', 'cls/config.pbtxt': CLS });
      expect(f.map(quoted)).toEqual(["ensemble 'ens' depends on 'cls' which has no loaded version."]);
    });

    it('a composing max_batch_size below the ensemble\'s: on the ensemble\'s max_batch_size', async () => {
      const cls = model('cls', 4, [{ name: 'input', dims: [3, 224, 224] }], [{ name: 'output', dims: [1000] }]);
      const [f, ...rest] = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls });
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ line: 3, token: '8' });
      expect(quoted(f!)).toBe('ensemble ens allows maximum batch size 8, but it contains model cls which only allows maximum batch size to be 4');
    });

    it('input_map and output_map keys that are not I/O of the model: on the key', async () => {
      const steps: Step[] = [
        { model: 'pre', version: -1, inputs: { raw: 'data' }, outputs: { IMAGE: 'pixels' } },
        { model: 'cls', version: -1, inputs: { input: 'pixels' }, outputs: { logits: 'prob' } },
      ];
      const f = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, steps), pre: PRE, cls: CLS });
      expect(f.map((x) => [x.token, quoted(x)])).toEqual([
        ['"pre"', 'in ensemble ens, input RAW in model pre is not mapped to any ensemble tensors'],
        ['"raw"', 'in ensemble ens, ensemble tensor data is mapping to non-existing input raw in model pre'],
        ['"logits"', 'in ensemble ens, ensemble tensor prob is mapped from non-existing output logits in model cls'],
      ]);
      expect(f[1]!.message).toContain("(its inputs: 'RAW')");
    });

    it('inconsistent data types: first against the ensemble input, then between steps', async () => {
      const pre = model('pre', 8, [{ name: 'RAW', type: 'TYPE_INT32', dims: [-1] }], [{ name: 'IMAGE', type: 'TYPE_FP16', dims: [3, 224, 224] }]);
      const f = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre, cls: CLS });
      expect(f.map((x) => [x.token, quoted(x)])).toEqual([
        ['"data"', 'in ensemble ens, ensemble tensor data: inconsistent data type: TYPE_UINT8 is inferred from model ens while TYPE_INT32 is inferred from model pre'],
        ['"pixels"', 'in ensemble ens, ensemble tensor pixels: inconsistent data type: TYPE_FP16 is inferred from model pre while TYPE_FP32 is inferred from model cls'],
      ]);
    });

    it('inconsistent shapes, as full shapes with the batch axis', async () => {
      const cls = model('cls', 8, [{ name: 'input', dims: [3, 256, 256] }], [{ name: 'output', dims: [1000] }]);
      const [f, ...rest] = await lintEnsemble({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls });
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ token: '"pixels"' });
      expect(quoted(f!)).toBe('in ensemble ens, ensemble tensor pixels: inconsistent shape: [-1,3,224,224] is inferred from model pre while [-1,3,256,256] is inferred from model cls');
    });

    it('decoupled branching: a step fed from two decoupled models', async () => {
      const gen = (name: string): string => model(name, 0, [{ name: 'IN', dims: [1] }], [{ name: 'OUT', dims: [1] }], 'model_transaction_policy { decoupled: true }\n');
      const join2 = model('join', 0, [{ name: 'A', dims: [1] }, { name: 'B', dims: [1] }], [{ name: 'OUT', dims: [1] }]);
      const steps: Step[] = [
        { model: 'gen1', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'a' } },
        { model: 'gen2', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'b' } },
        { model: 'join', version: -1, inputs: { A: 'a', B: 'b' }, outputs: { OUT: 'y' } },
      ];
      const ens = ensemble('ens', 0, [{ name: 'x', dims: [1] }], [{ name: 'y', dims: [1] }], steps);
      const f = await lintEnsemble({ ens, gen1: gen('gen1'), gen2: gen('gen2'), join: join2 });
      expect(f.map((x) => [x.token, quoted(x)])).toEqual([
        ['"y"', "in ensemble ens, step of model 'ens' receives inputs originated from different decoupled models"],
      ]);
    });

    it('warns when the ensemble\'s decoupled setting is overwritten by its steps', async () => {
      const gen = model('gen', 0, [{ name: 'IN', dims: [1] }], [{ name: 'OUT', dims: [1] }], 'model_transaction_policy { decoupled: true }\n');
      const ens = ensemble('ens', 0, [{ name: 'x', dims: [1] }], [{ name: 'y', dims: [1] }], [{ model: 'gen', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'y' } }], 'model_transaction_policy { decoupled: false }\n');
      const [f, ...rest] = await lintEnsemble({ ens, gen });
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'warning', token: 'false' });
      expect(f!.message).toContain("step model 'gen' is decoupled");
    });
  });
});
