// Property tests of the OpenVINO IR reader: whatever the bytes, it returns a signature or throws
// ModelReadError with an offset inside the file (never another exception, never a hang), and random
// well-formed IRs read back exactly as written.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelReadError } from '../../src/model-file/errors.js';
import type { ModelSignature } from '../../src/model-file/signature.js';
import { readOpenVinoOfBytes } from '../../src/openvino/index.js';
import { OPENVINO_MODELS } from './fixtures.js';
import { OPENVINO_FIXTURES } from './fixtures.js';
import { join } from 'node:path';

const RUNS = { numRuns: Number(process.env.TRITONC_FUZZ_RUNS ?? 300) };
const texts = OPENVINO_MODELS.map((m) => readFileSync(join(OPENVINO_FIXTURES, m, '1', 'model.xml'), 'utf8'));

function outcome(bytes: Uint8Array, bin: number | null): ModelSignature | ModelReadError {
  try {
    return readOpenVinoOfBytes('/f/model.xml', bytes, () => bin);
  } catch (e) {
    if (e instanceof ModelReadError) {
      expect(e.kind).toBe('format');
      expect(e.offset).not.toBeNull();
      expect(e.offset!).toBeGreaterThanOrEqual(0);
      expect(e.offset!).toBeLessThanOrEqual(Math.max(bytes.length, 0));
      return e;
    }
    throw e;
  }
}

const TOKENS = [
  '<',
  '>',
  '/>',
  '</',
  '"',
  "'",
  '&',
  '&amp;',
  '&#0;',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<?',
  '?>',
  ',',
  '..',
  '?',
  '-1',
  '\0',
  'é',
  '<layer id="9" type="Result">',
  '<edge from-layer="0"/>',
  '<net version="11">',
];
const mutation = fc.record({ at: fc.nat(), kind: fc.integer({ min: 0, max: 3 }), token: fc.constantFrom(...TOKENS), len: fc.integer({ min: 1, max: 40 }) });

function mutate(text: string, edits: { at: number; kind: number; token: string; len: number }[]): string {
  let out = text;
  for (const e of edits) {
    const at = e.at % (out.length + 1);
    if (e.kind === 0) out = out.slice(0, at) + e.token + out.slice(at);
    else if (e.kind === 1) out = out.slice(0, at) + out.slice(at + e.len);
    else if (e.kind === 2) out = out.slice(0, at);
    else out = out.slice(0, at) + out.slice(Math.max(0, at - e.len), at) + out.slice(at);
  }
  return out;
}

describe('robustness', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.option(fc.nat(100)), (bytes, bin) => void outcome(bytes, bin)),
      RUNS,
    );
  });
  it('mutated fixtures', () => {
    fc.assert(
      fc.property(fc.nat(texts.length - 1), fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.option(fc.nat(200)), (i, edits, bin) => {
        void outcome(Buffer.from(mutate(texts[i]!, edits)), bin);
      }),
      RUNS,
    );
  });
});

const NAME = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_:./]{0,12}$/);
const DIM = fc.oneof(
  fc.nat(64).map(String),
  fc.constant('-1'),
  fc.constant('?'),
  fc.tuple(fc.nat(8), fc.integer({ min: 9, max: 99 })).map(([a, b]) => `${a}..${b}`),
);
const TYPES: [string, string | null][] = [
  ['f32', 'TYPE_FP32'],
  ['f16', 'TYPE_FP16'],
  ['i64', 'TYPE_INT64'],
  ['u8', 'TYPE_UINT8'],
  ['boolean', 'TYPE_BOOL'],
  ['bf16', null],
  ['f64', null],
];
const TENSOR = fc.record({
  names: fc.uniqueArray(NAME, { minLength: 1, maxLength: 3 }),
  dims: fc.array(DIM, { maxLength: 4 }),
  type: fc.constantFrom(...TYPES),
  layout: fc.option(fc.constantFrom('[N,C]', 'NCHW', '[?,C]', 'C')),
});
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

describe('random well-formed IRs read back as written', () => {
  it('names (the smallest), element and Triton types, shapes, layouts', () => {
    fc.assert(
      fc.property(fc.array(TENSOR, { minLength: 1, maxLength: 4 }), fc.array(TENSOR, { minLength: 1, maxLength: 4 }), (ins, outs) => {
        const rt = (l: string | null): string => (l ? `<rt_info><attribute name="layout" version="0" layout="${l}"/></rt_info>` : '');
        const dims = (d: string[]): string => d.map((x) => `<dim>${x === '?' || x.includes('..') ? '-1' : x}</dim>`).join('');
        const layers: string[] = [];
        const edges: string[] = [];
        ins.forEach((t, i) =>
          layers.push(
            `<layer id="${i}" name="p${i}" type="Parameter" version="opset1"><data shape="${t.dims.join(',')}" element_type="${t.type[0]}"/><output><port id="0" precision="X" names="${esc(t.names.join(','))}">${dims(t.dims)}${rt(t.layout)}</port></output></layer>`,
          ),
        );
        outs.forEach((t, j) => {
          const id = 100 + j;
          layers.push(
            `<layer id="${id}" name="n${j}" type="Relu" version="opset1"><input><port id="0"/></input><output><port id="1" precision="${t.type[0].toUpperCase()}" names="${esc(t.names.join(','))}">${dims(t.dims)}${rt(t.layout)}</port></output></layer>`,
          );
          layers.push(
            `<layer id="${200 + j}" name="r${j}" type="Result" version="opset1"><input><port id='0' precision='${t.type[0]}'>${dims(t.dims)}</port></input></layer>`,
          );
          edges.push(`<edge from-layer="${id}" from-port="1" to-layer="${200 + j}" to-port="0"/>`);
        });
        const xml = `<?xml version="1.0"?>\n<net name="fuzz" version="11"><layers>${layers.join('\n')}</layers><edges>${edges.join('')}</edges></net>`;
        const sig = readOpenVinoOfBytes('/f/model.xml', Buffer.from(xml), () => 0);
        const smallest = (n: string[]): string => [...n].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))[0]!;
        const dim = (d: string): number | string => (d === '?' || d === '-1' ? -1 : d.includes('..') ? d : Number(d));
        expect(sig.inputs.map((t) => [t.name, t.elemType, t.tritonType, t.shape, t.layout ?? null])).toEqual(
          ins.map((t) => [smallest(t.names), t.type[0], t.type[1], t.dims.map(dim), t.layout]),
        );
        const outDim = (d: string): number => (d === '?' || d.includes('..') ? -1 : Number(d));
        expect(sig.outputs.map((t) => [t.name, t.elemType, t.tritonType, t.shape, t.layout ?? null])).toEqual(
          outs.map((t) => [smallest(t.names), t.type[0], t.type[1], t.dims.map(outDim), t.layout]),
        );
        const everyN = [...ins, ...outs].every((t) => t.layout === '[N,C]' || t.layout === 'NCHW');
        expect(sig.batchable).toBe(everyN);
      }),
      RUNS,
    );
  });
});
