// The PyTorch reader on real exports (fixtures/models/pytorch, written by torch 2.5.1 with
// scripts/model-exports/pytorch/export.py): forward's arguments and return as torch reads them back
// (expected.json), untyped and shapeless; the weights' size from the central directory; what Triton
// does not load refused with the fix. Where the exporters run, a fresh export reads the same.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelReadError } from '../../src/model-file/errors.js';
import { loadSignature, readerOf } from '../../src/model-readers/readers.js';
import { readTorchSignatureOfBytes, readTorchSignatureSync } from '../../src/pytorch/reader.js';
import { EXPORTS_PYTHON, exportersRun } from '../support/model-exports.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const FIXTURES = join(ROOT, 'fixtures', 'models', 'pytorch');

interface Expected {
  torch: string;
  models: Record<string, { file: string; arguments: { name: string; type: string }[]; returns: string[] }>;
  refused: string[];
}
const expected = (dir: string): Expected => JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected;

/** What the reader sees of each model, in torch's terms: forward's arguments and return. */
function seen(dir: string): Record<string, { arguments: { name: string; type: string }[]; returns: string[] }> {
  const out: Record<string, { arguments: { name: string; type: string }[]; returns: string[] }> = {};
  for (const [name, m] of Object.entries(expected(dir).models)) {
    const sig = readTorchSignatureSync(join(dir, m.file));
    const self = m.arguments[0]!;
    out[name] = { arguments: [self, ...sig.inputs.map((t) => ({ name: t.name, type: t.elemType! }))], returns: [sig.forward!.returns] };
  }
  return out;
}

describe('TorchScript fixtures', () => {
  it("reads forward's arguments and return as torch does", () => {
    const want = expected(FIXTURES);
    const got = seen(FIXTURES);
    for (const [name, m] of Object.entries(want.models)) expect(got[name], name).toEqual({ arguments: m.arguments, returns: m.returns });
  });

  it("the qa AddSubNet: two untyped, shapeless inputs named as forward's arguments, two outputs from the Tuple", () => {
    const sig = readTorchSignatureSync(join(FIXTURES, 'libtorch_float32_float32_float32/1/model.pt'));
    expect(sig.format).toBe('torchscript');
    expect(sig.inputs).toEqual([
      { name: 'INPUT0', kind: 'tensor', elemType: 'Tensor', tritonType: null, shape: null, typed: false },
      { name: 'INPUT1', kind: 'tensor', elemType: 'Tensor', tritonType: null, shape: null, typed: false },
    ]);
    expect(sig.outputs.map((t) => [t.name, t.kind, t.typed, t.shape])).toEqual([
      ['OUTPUT__0', 'tensor', false, null],
      ['OUTPUT__1', 'tensor', false, null],
    ]);
    expect(sig.forward).toEqual({
      text: 'forward(self: __torch__.AddSubNet, INPUT0: Tensor, INPUT1: Tensor) -> Tuple[Tensor, Tensor]',
      returns: 'Tuple[Tensor, Tensor]',
      outputCount: 2,
    });
    expect(sig.initializers).toEqual({ count: 0, bytes: 0, externalBytes: 0, constantBytes: 0 });
  });

  it('named arguments, a List, an Optional, a Dict; the weights under data/ summed, never read', () => {
    const named = readTorchSignatureSync(join(FIXTURES, 'libtorch_named/1/model.pt'));
    expect(named.inputs.map((t) => [t.name, t.kind, t.elemType])).toEqual([
      ['image', 'tensor', 'Tensor'],
      ['scale', 'sequence', 'List[Tensor]'],
    ]);
    // Linear(4, 2): an 8-float weight and a 2-float bias.
    expect(named.initializers).toMatchObject({ count: 2, bytes: 40 });
    const optional = readTorchSignatureSync(join(FIXTURES, 'libtorch_optional/1/model.pt'));
    expect(optional.inputs.map((t) => [t.name, t.kind])).toEqual([
      ['x', 'tensor'],
      ['mask', 'optional'],
    ]);
    expect(optional.forward?.outputCount).toBe(1);
    const dict = readTorchSignatureSync(join(FIXTURES, 'libtorch_dict/1/model.pt'));
    expect(dict.inputs.map((t) => [t.name, t.kind, t.elemType])).toEqual([['inputs', 'map', 'Dict[str, Tensor]']]);
    expect(dict.outputs).toEqual([]);
    expect(dict.forward?.outputCount).toBeNull();
  });

  it('from bytes as from the file; through the readers by the format the backend record gives', () => {
    const file = join(FIXTURES, 'libtorch_named/1/model.pt');
    expect(readTorchSignatureOfBytes(file, readFileSync(file))).toEqual(readTorchSignatureSync(file));
    expect(readerOf('pytorch')?.yields).toEqual(['torchscript', 'pt2']);
    expect(loadSignature(file, 'pytorch').signature?.inputs.length).toBe(2);
  });

  it('refuses what Triton does not load, saying what it is and what to write instead', () => {
    const ckpt = loadSignature(join(FIXTURES, 'torch_save_checkpoint/1/model.pt'), 'pytorch').error!;
    expect(ckpt).toBeInstanceOf(ModelReadError);
    expect(ckpt.reason).toMatch(/torch\.save checkpoint .* no code\/; Triton loads what torch\.jit\.save/);
    const prog = loadSignature(join(FIXTURES, 'torch_export_program/1/model.pt2'), 'pytorch').error!;
    expect(prog.reason).toMatch(/a torch\.export program .*not a model Triton loads.*aoti_compile_and_package/);
    expect(prog.offset).toBeGreaterThan(0);
  });
});

describe('re-exported with the pinned torch', () => {
  const runs = exportersRun('the PyTorch re-export');
  it.runIf(runs)(
    'a fresh export reads the same (names, annotations, returns)',
    () => {
      const out = tempDir('tritonc-torch-export-');
      execFileSync(EXPORTS_PYTHON, [join(ROOT, 'scripts/model-exports/pytorch/export.py'), out], { stdio: 'pipe', timeout: 300_000 });
      expect(seen(out)).toEqual(seen(FIXTURES));
      expect(expected(out)).toEqual(expected(FIXTURES));
      for (const f of expected(out).refused) expect(loadSignature(join(out, f), 'pytorch').error?.kind).toBe('format');
    },
    300_000,
  );
});
