// Differential test against protobuf's C++ text-format parser, the family Triton links (protoc from
// Debian's protobuf-compiler, libprotobuf 3.21): tritonc accepts exactly what it accepts, on the
// fixture configs, on where the two parsers are known to be strict in different ways, and on
// seeded mutations of the fixtures; and where both accept, they read the same message.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';
import { cppAvailable, cppMessageJson, parseWithCpp } from '../differential/cpp-reference.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';
import { normalizeReferenceJson } from '../support/proto-json-compare.js';

const available = cppAvailable();
// CI installs protobuf-compiler (.ci/run), so there the test always runs.
const mustRun = Boolean(process.env.CI);
const accepts = (text: string): boolean => !parseConfig(text).diagnostics.some((d) => d.severity === 'error');

/** Mutations that hit what the two parsers could disagree on: control bytes, escapes, structure. */
const TOKENS = [
  '\0',
  '\\xff',
  '\\U00110000',
  '\\U00200000',
  '\\u12',
  '\\uD800',
  '\\uDBFF\\uDFFF',
  '"',
  "'",
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  ';',
  '<',
  '>',
  '-',
  '0x',
  '1e',
  '.5',
  'inf',
  'nan',
  '#',
  '\n',
  '\\',
  'é',
  '\x01',
  '\t',
  '\x7f',
  '08',
  '1f',
  'True',
  't',
];

function mutations(count: number, seed: number): string[] {
  let s = seed;
  const random = (): number => (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    let t = FIXTURE_CONFIGS[Math.floor(random() * FIXTURE_CONFIGS.length)]!.text;
    for (let e = 0, edits = 1 + Math.floor(random() * 3); e < edits; e++) {
      const at = Math.floor(random() * t.length);
      t =
        random() < 0.6
          ? t.slice(0, at) + TOKENS[Math.floor(random() * TOKENS.length)] + t.slice(at)
          : t.slice(0, at) + t.slice(at + 1 + Math.floor(random() * 6));
    }
    out.push(t);
  }
  return out;
}

describe.skipIf(!available.ok && !mustRun)(
  `differential vs protobuf's C++ parser${available.ok ? ` (${available.version})` : ` (skipped: ${available.reason})`}`,
  () => {
    it('reads every fixture config into the same message', () => {
      for (const { name, text } of FIXTURE_CONFIGS) {
        const cpp = parseWithCpp(text);
        expect(cpp.ok, name).toBe(true);
        if (!cpp.ok) continue;
        const ours = toProtoJson(parseConfig(text).value as Record<string, unknown>, loadSchema().modelConfig);
        expect(ours, name).toEqual(normalizeReferenceJson(cppMessageJson(cpp.bytes), loadSchema().modelConfig));
      }
    });

    it.each([
      ['a NUL byte in a string', 'name: "a\0b"', false],
      ['a NUL byte in a comment', '# a\0 comment\nname: "a"', false],
      ['a NUL byte between fields', 'name: "a"\0\nmax_batch_size: 1', false],
      ['an escaped NUL', 'name: "a\\000b"', true],
      ['other control bytes', 'name: "a\x01\x7fb"\t', true],
      ['an escape that is not UTF-8', 'name: "\\xff"', true],
      ['a lone surrogate', 'name: "\\uD800"', true],
      ['a surrogate pair', 'name: "\\uDBFF\\uDFFF"', true],
      ["\\U above 0x10ffff, within the tokenizer's 001fffff", 'name: "\\U00110000"', true],
      ['\\U above 0x1fffff', 'name: "\\U00200000"', false],
      ['\\u with too few digits', 'name: "\\u12"', false],
    ])('%s: the same verdict', (_, text, cppAccepts) => {
      expect(parseWithCpp(text).ok).toBe(cppAccepts);
      expect(accepts(text)).toBe(cppAccepts);
    });

    it('a \\U escape above 0x10ffff is kept as written, backslash included, as in C++', () => {
      const cpp = parseWithCpp('name: "\\U00110000"');
      expect(cpp.ok && cppMessageJson(cpp.bytes).name).toBe('\\U00110000');
      expect(parseConfig('name: "\\U00110000"').value.name).toBe('\\U00110000');
    });

    it('agrees on 1,500 seeded mutations of the fixture configs', () => {
      const differ: string[] = [];
      for (const text of mutations(1500, 20261201)) {
        const cpp = parseWithCpp(text);
        if (cpp.ok !== accepts(text))
          differ.push(
            `${cpp.ok ? 'C++ accepts, tritonc refuses' : `C++ refuses (${cpp.error.split('\n')[0]}), tritonc accepts`}: ${JSON.stringify(text).slice(0, 300)}`,
          );
      }
      expect(differ.slice(0, 5)).toEqual([]);
    }, 120_000);
  },
);
