// The OpenVINO IR reader on the exported fixtures (what the OpenVINO backend sees: names by
// get_any_name, element and Triton types, partial shapes, layouts, the .bin's size), on hand-written
// IRs for what the XML may hold (entities, comments, CDATA, either quote, escaped commas in names,
// output_names, bodies of TensorIterator/If layers), and on bad files: every failure a ModelReadError
// with the byte offset (and line:column) of the problem.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelReadError } from '../../src/model-file/errors.js';
import { loadSignature } from '../../src/model-readers/readers.js';
import { MAX_XML_BYTES, readOpenVinoOfBytes, readOpenVinoSync } from '../../src/openvino/index.js';
import { anyName, hasBatch, splitNames } from '../../src/openvino/names.js';
import { makeTempDir, removeDir } from '../onnx/helpers.js';
import { OPENVINO_FIXTURES } from './fixtures.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir('openvino-reader');
});
afterAll(() => removeDir(dir));

const fixture = (m: string): string => join(OPENVINO_FIXTURES, m, '1', 'model.xml');
const brief = (ts: { name: string; elemType: string | null; tritonType: string | null; shape: unknown; layout?: string }[]) =>
  ts.map((t) => [t.name, t.elemType, t.tritonType, t.shape, t.layout ?? null]);

describe('the exported fixtures', () => {
  it("fixed_batch: the smallest of each tensor's names, i32 [1,4], no layout, no weights", () => {
    const sig = readOpenVinoSync(fixture('openvino_fixed_batch'));
    expect(sig.format).toBe('openvino');
    expect(brief(sig.inputs)).toEqual([
      ['Func/PartitionedCall/input/_0:0', 'i32', 'TYPE_INT32', [1, 4], null],
      ['input1', 'i32', 'TYPE_INT32', [1, 4], null],
    ]);
    expect(brief(sig.outputs)).toEqual([
      ['Func/PartitionedCall/output/_2:0', 'i32', 'TYPE_INT32', [1, 4], null],
      ['Func/PartitionedCall/output/_3:0', 'i32', 'TYPE_INT32', [1, 4], null],
    ]);
    expect(sig.batchable).toBe(false);
    expect(sig.initializers).toEqual({ count: 0, bytes: 0, externalBytes: 0, constantBytes: 0 });
    expect(sig.externalDataFiles).toEqual(['model.bin']);
  });
  it('dynamic_batch: every tensor has the layout [N,H], so the backend batches', () => {
    const sig = readOpenVinoSync(fixture('openvino_dynamic_batch'));
    expect([...sig.inputs, ...sig.outputs].map((t) => t.layout)).toEqual(['[N,H]', '[N,H]', '[N,H]', '[N,H]']);
    expect(sig.batchable).toBe(true);
  });
  it('int8: names set on the outputs, 16 bytes of weights in two Const layers', () => {
    const sig = readOpenVinoSync(fixture('openvino_int8_int8_int8'));
    expect(brief([...sig.inputs, ...sig.outputs]).map((t) => t.slice(0, 4))).toEqual([
      ['INPUT0', 'i8', 'TYPE_INT8', [8, 16]],
      ['INPUT1', 'i8', 'TYPE_INT8', [8, 16]],
      ['OUTPUT0', 'i8', 'TYPE_INT8', [8, 16]],
      ['OUTPUT1', 'i8', 'TYPE_INT8', [8, 16]],
    ]);
    expect(sig.initializers).toMatchObject({ count: 2, bytes: 16 });
  });
  it("classifier: a dynamic batch (-1), a range (1..128) from the Parameter's shape, aliases resolved to the smallest name", () => {
    const sig = readOpenVinoSync(fixture('openvino_classifier'));
    expect(brief(sig.inputs)).toEqual([
      ['pixel_values', 'f32', 'TYPE_FP32', [-1, 3, 8, 8], '[N,C,H,W]'],
      ['input_ids', 'i64', 'TYPE_INT64', [-1, '1..128'], '[N,SEQ]'],
    ]);
    // {logits, output_0, classifier/add:0}: 'c' sorts first, so Triton calls it classifier/add:0.
    expect(sig.outputs.map((t) => t.name)).toEqual(['classifier/add:0', 'probabilities']);
    expect(sig.batchable).toBe(true);
    expect(sig.initializers.bytes).toBe(144);
  });
  it('the model-file registry reads format openvino with it', () => {
    expect(loadSignature(fixture('openvino_fixed_batch'), 'openvino').signature?.inputs).toHaveLength(2);
  });
});

/** A minimal IR around `layers` (and `edges`), version 11. */
const ir = (layers: string, edges = '', head = '<?xml version="1.0"?>\n'): string =>
  `${head}<net name="t" version="11">\n<layers>\n${layers}\n</layers>\n<edges>\n${edges}\n</edges>\n</net>\n`;
const param = (id: number, name: string, attrs: string, port = ''): string =>
  `<layer id="${id}" name="${name}" type="Parameter" version="opset1"><data shape="1,4" element_type="f32"/><output><port id="0" precision="FP32" ${attrs}><dim>1</dim><dim>4</dim>${port}</port></output></layer>`;
const result = (id: number, attrs = ''): string =>
  `<layer id="${id}" name="r${id}" type="Result" version="opset1" ${attrs}><input><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port></input></layer>`;
const edge = (from: number, to: number): string => `<edge from-layer="${from}" from-port="0" to-layer="${to}" to-port="0"/>`;
const read = (xml: string, bin: number | null = 0) => readOpenVinoOfBytes('/m/1/model.xml', Buffer.from(xml), (p) => (p === '/m/1/model.bin' ? bin : null));

function failure(xml: string | Buffer, bin: number | null = 0): ModelReadError {
  try {
    readOpenVinoOfBytes('/m/1/model.xml', typeof xml === 'string' ? Buffer.from(xml) : xml, (p) => (p === '/m/1/model.bin' ? bin : null));
  } catch (e) {
    expect(e).toBeInstanceOf(ModelReadError);
    const err = e as ModelReadError;
    expect(err.kind).toBe('format');
    expect(err.message.startsWith('/m/1/model.xml: byte ')).toBe(true);
    return err;
  }
  throw new Error('read without an error');
}

describe('what the XML may hold', () => {
  it('entities, numeric references, comments, CDATA and either quote', () => {
    const xml = ir(`<!-- a comment with <layer> inside -->${param(0, 'a', "names='x&amp;y,&#x41;b'")}\n<![CDATA[ <not a tag> ]]>${result(1)}`, edge(0, 1));
    const sig = read(xml);
    expect(sig.inputs.map((t) => t.name)).toEqual(['Ab']);
    expect(splitNames('x&y,Ab')).toEqual(['x&y', 'Ab']);
  });
  it("a comma inside a name is written '\\,'", () => {
    expect(read(ir(param(0, 'a', 'names="b\\,c,z"') + result(1), edge(0, 1))).inputs[0]!.name).toBe('b,c');
  });
  it('OpenVINO 2025 output_names on the Result layer come first', () => {
    const sig = read(ir(param(0, 'a', 'names="in"') + result(1, 'output_names="zeta,omega"'), edge(0, 1)));
    expect(sig.outputs[0]!.name).toBe('omega');
  });
  it("no names: the Parameter's layer name, the producer's for a Result", () => {
    const sig = read(ir(param(0, 'the_input', '') + result(1), edge(0, 1)));
    expect(sig.inputs[0]!.name).toBe('the_input');
    expect(sig.outputs[0]!.name).toBe('the_input');
  });
  it("layers of a body (TensorIterator, Loop, If) are not the model's", () => {
    const body = `<layer id="2" name="loop" type="TensorIterator" version="opset1"><body><layers>${param(0, 'inner', 'names="inner"')}${result(1)}</layers><edges>${edge(0, 1)}</edges></body></layer>`;
    const sig = read(ir(param(0, 'a', 'names="outer"') + body + result(1), edge(0, 1)));
    expect(sig.inputs.map((t) => t.name)).toEqual(['outer']);
    expect(sig.outputs).toHaveLength(1);
  });
  it('get_any_name is the byte-wise smallest; has_batch finds N in either layout spelling', () => {
    expect(anyName(['b', 'B', 'a:0'])).toBe('B');
    expect([hasBatch('[N,C,H,W]'), hasBatch('NCHW'), hasBatch('nc'), hasBatch('[SEQ,C]'), hasBatch('CHW'), hasBatch(undefined)]).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
  it('element types the backend cannot serve have no Triton type; the legacy precision names are read', () => {
    const bf16 = ir(
      `<layer id="0" name="a" type="Parameter" version="opset1"><data shape="?,..8" element_type="bf16"/><output><port id="0" precision="BF16" names="a"><dim>-1</dim><dim>-1</dim></port></output></layer>` +
        result(1).replace('FP32', 'BOOL'),
      edge(0, 1),
    );
    const sig = read(bf16);
    expect(brief(sig.inputs)).toEqual([['a', 'bf16', null, [-1, '..8'], null]]);
    expect(brief(sig.outputs)).toEqual([['a', 'boolean', 'TYPE_BOOL', [1, 4], null]]);
  });
});

describe('many Results on one producer (issue 42: the reader is linear in the layers)', () => {
  it("each Result reads its producer's port by id: the first port of an id, names or '<layer>.<port>'", () => {
    const producer = `<layer id="0" name="split" type="Parameter" version="opset1"><data shape="1" element_type="f32"/><output><port id="0" precision="FP32" names="a"/><port id="1" precision="FP16"/><port id="1" precision="I8" names="shadowed"/><port id="2" precision="I32" names="c"/></output></layer>`;
    const bare = (id: number): string => `<layer id="${id}" name="r${id}" type="Result" version="opset1"><input><port id="0"/></input></layer>`;
    const to = (port: number, layer: number): string => `<edge from-layer="0" from-port="${port}" to-layer="${layer}" to-port="0"/>`;
    const sig = read(ir(producer + bare(1) + bare(2) + bare(3), to(2, 1) + to(1, 2) + to(0, 3)));
    expect(sig.outputs.map((t) => [t.name, t.elemType])).toEqual([
      ['c', 'i32'],
      ['split.1', 'f16'],
      ['a', 'f32'],
    ]);
  });
  // A hang bound, not a speed target (bench/readers-scale.mjs measures): a search of the producer's
  // ports per Result took 33 s for 60,000 Results on this machine, and grew with the square.
  it('120,000 Results fed by one layer with 120,000 outputs are read', { timeout: 60_000 }, () => {
    const n = 120_000;
    const parts = [
      '<?xml version="1.0"?>\n<net name="t" version="11"><layers><layer id="p" name="p" type="Parameter" version="opset1"><data shape="1" element_type="f32"/><output>',
    ];
    for (let i = 0; i < n; i++) parts.push(`<port id="${i}" precision="FP32" names="o${i}"/>`);
    parts.push('</output></layer>');
    for (let i = 0; i < n; i++) parts.push(`<layer id="${i}" name="r" type="Result" version="opset1"><input><port id="0"/></input></layer>`);
    parts.push('</layers><edges>');
    for (let i = 0; i < n; i++) parts.push(`<edge from-layer="p" from-port="${i}" to-layer="${i}" to-port="0"/>`);
    parts.push('</edges></net>\n');
    const sig = read(parts.join(''));
    expect(sig.outputs).toHaveLength(n);
    expect(sig.outputs[n - 1]!.name).toBe(`o${n - 1}`);
  });
});

describe('bad files: ModelReadError with the byte offset and line:column', () => {
  it('not XML, not well-formed, the wrong root, an unsupported IR version', () => {
    expect(failure('').reason).toContain('empty');
    expect(failure(Buffer.from([0x08, 0x07, 0x12, 0x00])).reason).toContain('an ONNX model?');
    const broken = failure(ir(param(0, 'a', 'names="x"').replace('</output>', '')));
    expect(broken.reason).toMatch(/^line 4:\d+: not well-formed XML: the end tag <\/layer> does not match <output>/);
    expect(broken.offset).toBe(
      Buffer.byteLength(ir(param(0, 'a', 'names="x"')).slice(0, ir(param(0, 'a', 'names="x"').replace('</output>', '')).indexOf('</layer>'))),
    );
    expect(failure('<?xml version="1.0"?>\n<model/>').reason).toBe('line 2:1: not an OpenVINO IR model.xml: the root element is <model>, not <net>');
    expect(failure('<net version="7"><layers/></net>').reason).toContain('IR version 7: OpenVINO reads IR versions 10 and 11');
    expect(failure('<net version="11"><layers/></net>&bogus;').reason).toContain('text outside the root element');
    expect(failure(ir(param(0, 'a', 'names="x&nbsp;"'))).reason).toContain('the entity &nbsp; is not one XML predefines');
    // Only the five XML predefines: names Object.prototype holds are no entities either.
    for (const name of ['constructor', '__proto__', 'toString', 'valueOf']) {
      expect(failure(ir(param(0, 'a', `names="x&${name};"`))).reason).toContain(`the entity &${name}; is not one XML predefines`);
    }
    expect(failure('<!DOCTYPE net [<!ENTITY a "b">]><net version="11"/>').reason).toContain('internal subset');
    expect(failure(ir(param(0, 'a', 'names="x" names="y"'))).reason).toContain('twice');
  });
  it('a dimension that is no size', () => {
    const e = failure(ir(param(0, 'a', 'names="x"').replace('shape="1,4"', 'shape="1,four"')));
    expect(e.reason).toContain('the dimension "four" is not a size');
  });
  it('weights: a missing .bin fails a model with Const layers as OpenVINO does, a short one too', () => {
    const withConst = ir(
      param(0, 'a', 'names="x"') +
        '<layer id="2" name="w" type="Const" version="opset1"><data element_type="f32" shape="4" offset="0" size="16"/><output><port id="0" precision="FP32"><dim>4</dim></port></output></layer>' +
        result(1),
      edge(0, 1),
    );
    expect(failure(withConst, null).reason).toContain(
      'the weights file model.bin beside it is missing, and OpenVINO fails reading the Const layer \'w\' ("Empty weights data in bin file or bin file cannot be found!")',
    );
    expect(failure(withConst, 8).reason).toContain('("Incorrect weights in bin file!")');
    expect(read(withConst, 16).initializers).toMatchObject({ count: 1, bytes: 16 });
    // Without Const layers a missing .bin is no problem for OpenVINO.
    expect(read(ir(param(0, 'a', 'names="x"') + result(1), edge(0, 1)), null).initializers.bytes).toBe(0);
  });
  it('a file over the size limit is refused without being read', () => {
    const e = failure(Buffer.alloc(MAX_XML_BYTES + 1, 0x20));
    expect(e.offset).toBe(MAX_XML_BYTES);
    expect(e.reason).toContain('more than the 64 MiB');
  });
  it('a Git LFS pointer', () => {
    const e = failure('version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 1234\n');
    expect(e.lfsPointer).toEqual({ oid: 'sha256:abc', size: 1234 });
  });
  it('on disk: a directory, a missing file', () => {
    const sub = join(dir, 'd.xml');
    mkdirSync(sub);
    expect(() => readOpenVinoSync(sub)).toThrow(/is a directory/);
    expect(() => readOpenVinoSync(join(dir, 'none.xml'))).toThrow(/no such file/);
    writeFileSync(join(dir, 'ok.xml'), ir(param(0, 'a', 'names="x"') + result(1), edge(0, 1)));
    expect(readOpenVinoSync(join(dir, 'ok.xml')).externalDataFiles).toEqual(['ok.bin']);
  });
});
