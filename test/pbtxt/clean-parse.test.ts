// The clean parse (clean-parse.ts) against the tree parser: it reads every clean text the tree parser
// reads, to the same value, and gives up on every text the tree parser reports anything on.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printConfig } from '../../src/config/print.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { loadSchema } from '../../src/config/schema.js';
import { parseCleanText } from '../../src/pbtxt/clean-parse.js';
import type { SchemaEnum, SchemaField, SchemaMessage } from '../../src/pbtxt/descriptor.js';
import { parseText } from '../../src/pbtxt/parser.js';
import { messageArb } from '../support/arbitrary-config.js';
import { expectCleanAgreesWithTree } from '../support/clean-parse.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';
import { ROOT } from '../support/snapshot.js';

const schema = loadSchema().modelConfig;
const TOKENS = [
  '{',
  '}',
  '<',
  '>',
  '[',
  ']',
  ':',
  ',',
  ';',
  '-',
  '#',
  '"',
  "'",
  '\\',
  '\n',
  ' ',
  'input',
  'dims',
  'name',
  'max_batch_size',
  'TYPE_FP32',
  '0x',
  '1e',
  '08',
  '.5',
  'inf',
  'parameters',
  'key',
  'value',
  '${x}',
  '\uFEFF',
  '\r\n',
  '0',
  '7',
  'true',
  'f',
];

describe('parseCleanText', () => {
  for (const c of FIXTURE_CONFIGS) {
    it(`reads the clean fixture ${c.name} as the tree parser does`, () => {
      // A fixture with nothing to report must not be sent to the tree parser.
      expect(expectCleanAgreesWithTree(c.text)).toBe(parseText(c.text, schema).diagnostics.length === 0);
    });
  }

  it("reads every printed arbitrary config, to the tree parser's value", () => {
    fc.assert(
      fc.property(messageArb(schema, 4), (v) => {
        expect(expectCleanAgreesWithTree(printConfig(v as ModelConfig))).toBe(true);
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });

  it('gives up on every text the tree parser reports anything on: arbitrary token soup and cut configs', () => {
    const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((t) => t.join(''));
    fc.assert(
      fc.property(soup, (text) => void expectCleanAgreesWithTree(text)),
      { numRuns: 3000, seed: 7 },
    );
    const real = FIXTURE_CONFIGS.map((c) => c.text);
    fc.assert(
      fc.property(fc.constantFrom(...real), fc.nat(), fc.nat(), fc.string({ maxLength: 3 }), (text, a, b, insert) => {
        const i = a % (text.length + 1);
        const j = Math.min(text.length, i + (b % 20));
        expectCleanAgreesWithTree(text.slice(0, i) + insert + text.slice(j));
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  it('reads string literals with escapes as the tree parser does: one-character escapes in place, any other decoded', () => {
    // The clean parse keeps the text between one-character escapes as written and decodes the rest
    // (hex, octal, \u, \U) through bytes, as the tree parser decodes every literal.
    const piece = fc.constantFrom(
      'a',
      ' ',
      '\u00e9',
      '\u{1F600}',
      '\uD83D',
      '\uDE00',
      ...['"', "'", 'n', 't', '\\', '?', 'a', 'v', 'x41', '101', 'u00e9', 'U0001F600', 'z', 'xff'].map((e) => `\\${e}`),
    );
    let clean = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        if (expectCleanAgreesWithTree(`name: "${pieces.join('')}"\n`)) clean++;
      }),
      { numRuns: 2000, seed: 3 },
    );
    // Most of them are clean: the comparison above is not all give-ups.
    expect(clean).toBeGreaterThan(500);
    expect(parseCleanText('name: "a\\"b\\\\c\\n"\n', schema)?.value.name).toBe('a"b\\c\n');
  });

  it("reads the text format's corners as the tree parser does", () => {
    for (const text of [
      // numbers: -0 (the tree parser's bigint makes it +0), hex, octal, beyond 2^53, float words and suffixes
      'max_batch_size: -0\n',
      // a short decimal at int32's bounds and in uint64's (checked against them as numbers)
      'max_batch_size: 2147483647\n',
      'max_batch_size: -2147483648\n',
      'dynamic_batching { priority_levels: 999999999999999 }\n',
      'max_batch_size: 0x10 dynamic_batching { max_queue_delay_microseconds: 017 }\n',
      'dynamic_batching { max_queue_delay_microseconds: 18446744073709551615 }\n',
      'dynamic_batching { max_queue_delay_microseconds: 9007199254740993 }\n',
      'input [ { name: "x" dims: [ -1, - 3, 0x7fffffff ] } ]\n',
      'model_warmup [ { name: "w" batch_size: 1 } ]\ninstance_group { count: 2 kind: KIND_GPU gpus: [ 0, 1 ] }\n',
      'optimization { graph { level: -1 } priority: 2 }\n',
      // strings: escapes, single quotes, adjacent literals, comments between them
      'name: "a\\"b\\n\\x41\\101\\u00e9" backend: \'py\' "thon"\n',
      'name: "a" # between\n "b"\nparameters { key: "k" value: { string_value: "\\U0001F600" } }\n',
      // layout: angle brackets, separators, list forms, empty lists, comments everywhere
      'input < name: "x"; data_type: TYPE_FP32, dims: [ 1 ] > ;\n',
      'input: [ ] output [ { name: "y" }, { name: "z" } ] # end\n',
      'parameters [ { key: "a" value { string_value: "1" } }, { key: "b" value: < string_value: "2" > } ]\n',
      'parameters { key: "a" value { string_value: "1" } } parameters { key: "a" value { string_value: "2" } }\n',
      'parameters { value { string_value: "no key" } } parameters { key: "k" }\n',
      '\r\n# only a comment\r\n\tname:"x"\r\n',
      'sequence_batching { direct { } max_sequence_idle_microseconds: 5 }\n',
      'dynamic_batching { preserve_ordering: t preferred_batch_size: [ 4, 8 ] }\n',
      // an enum by number (proto3 enums are open) and a bool written as 1
      'input [ { name: "x" data_type: 11 format: 99 allow_ragged_batch: 1 } ]\n',
    ])
      expect(expectCleanAgreesWithTree(text), text).toBe(true);
  });

  it('leaves to the tree parser what it reports, and what it may allow', () => {
    for (const text of [
      'nme: "a"\n', // unknown field
      'max_batch_size: ${MAX}\n', // template placeholder
      'name: "\\xff"\n', // bytes that are not UTF-8 (a warning)
      'name: "a" # \u0000\n', // a NUL in a comment
      '\uFEFFname: "a"\n', // a byte order mark
      'input [ { name: "x" }, ]\n', // a trailing comma
      'max_batch_size: 4 max_batch_size: 8\n', // a duplicate
      'max_batch_size: 0 max_batch_size: 8\n', // allowed (the first is the default), the tree parser's call
      'sequence_batching { direct { } oldest { } }\n', // two members of a oneof
      'sequence_batching { } dynamic_batching { }\n', // two members of another
      'max_batch_size: -1\n'.replace('-1', '4294967296'), // out of int32's range
      'max_batch_size: 2147483648\n', // one past int32's bounds, each way
      'max_batch_size: -2147483649\n',
      'dynamic_batching { priority_levels: -1 }\n', // a negative unsigned
      'input [ { name: "x" dims: [ 1 ] }\n', // unterminated
      'optimization { cuda { graph_spec { input { key: "a" value { dim: [ 1 ] oops: 1 } } } } }\n', // unknown, deep inside
    ])
      expect(parseCleanText(text, schema), text).toBeUndefined();
  });

  it("gives up past protobuf's nesting limit, where the tree parser reports it", () => {
    // Triton's schema nests no message in itself: a recursive one, made for the test.
    const fields = new Map<string, SchemaField>();
    const node: SchemaMessage = { fullName: 'test.Node', fields, fieldList: [], isMapEntry: false };
    const child: SchemaField = { name: 'child', number: 1, type: { kind: 'message', message: node }, repeated: false, parent: node };
    fields.set('child', child);
    (node.fieldList as SchemaField[]).push(child);
    const nested = (n: number): string => `${'child { '.repeat(n)}${'} '.repeat(n)}`;
    expect(expectCleanAgreesWithTree(nested(100), node)).toBe(true);
    expect(parseText(nested(101), node).diagnostics.map((d) => d.messageId)).toEqual(['tooDeep']);
    expect(parseCleanText(nested(101), node)).toBeUndefined();
  });

  it('tells apart field and enum names whose hashes are equal, and gives up on a name of the same hash that names nothing', () => {
    // "Aa" and "BB" hash alike (31 * 65 + 97 = 31 * 66 + 66), so "AaAa", "AaBB", "BBAa" and "BBBB" do too:
    // named() must compare the characters, not trust the hash. Twelve fields fill more than one probe run.
    const names = ['AaAa', 'AaBB', 'BBBB', 'Aa', 'BB', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'kind'];
    const kinds: SchemaEnum = {
      fullName: 'test.Kind',
      names: ['Aa', 'BB', 'AaBB'],
      byName: new Map([
        ['Aa', 0],
        ['BB', 1],
        ['AaBB', 2],
      ]),
      byNumber: new Map([
        [0, 'Aa'],
        [1, 'BB'],
        [2, 'AaBB'],
      ]),
    };
    const fields = new Map<string, SchemaField>();
    const msg: SchemaMessage = { fullName: 'test.Hashes', fields, fieldList: [], isMapEntry: false };
    names.forEach((name, i) => {
      const type: SchemaField['type'] = name === 'kind' ? { kind: 'enum', enum: kinds } : { kind: 'scalar', type: 'int32' };
      const field: SchemaField = { name, number: i + 1, type, repeated: name === 'kind', parent: msg };
      fields.set(name, field);
      (msg.fieldList as SchemaField[]).push(field);
    });
    const text = 'BBBB: 1 AaAa: 2 AaBB: 3 BB: 4 Aa: 5 f6: 6 kind: BB kind: AaBB kind: Aa\n';
    expect(expectCleanAgreesWithTree(text, msg)).toBe(true);
    expect(parseCleanText(text, msg)?.value).toEqual({ BBBB: 1, AaAa: 2, AaBB: 3, BB: 4, Aa: 5, f6: 6, kind: ['BB', 'AaBB', 'Aa'] });
    // Same hash as AaAa, no such field; same hash as Aa, no such enum value.
    expect(parseCleanText('BBAa: 1\n', msg)).toBeUndefined();
    expect(parseText('BBAa: 1\n', msg).diagnostics.length).toBeGreaterThan(0);
    expect(parseCleanText('kind: BBAa\n', msg)).toBeUndefined();
  });

  it('reads the same values where Node may not compile code from strings (the accessors fall back)', () => {
    // The field accessors are compiled with new Function; under this flag that throws, and the
    // generic accessors must take over. The built library, in a process of its own.
    const text = FIXTURE_CONFIGS.map((c) => c.text).find((t) => t.includes('parameters') && t.includes('input'))!;
    const script = `import { parseConfig } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)};
      const doc = parseConfig(${JSON.stringify(text)});
      process.stdout.write(JSON.stringify({ value: doc.value, diagnostics: doc.diagnostics.length }));`;
    const run = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ value: JSON.parse(JSON.stringify(parseCleanText(text, schema)!.value)), diagnostics: 0 });
  });
});
