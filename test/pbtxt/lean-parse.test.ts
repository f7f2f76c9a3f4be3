// The lean parse (parseText's `lean`, and the fields parsed again from their spans) against the full one:
// the same value and diagnostics, and every value path located at the same place, on the fixture
// configs, printed arbitrary configs, and broken ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printConfig } from '../../src/config/print.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { parseText } from '../../src/pbtxt/parser.js';
import { messageArb } from '../support/arbitrary-config.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';
import { expectSameAsFull, schema } from '../support/lean-parse.js';

describe('the lean parse', () => {
  for (const c of FIXTURE_CONFIGS) it(`matches the full parse: ${c.name}`, () => expectSameAsFull(c.text));

  it('matches the full parse on printed arbitrary configs', () => {
    fc.assert(
      fc.property(messageArb(schema, 3), (v) => expectSameAsFull(printConfig(v as ModelConfig))),
      { numRuns: 150, seed: 20261201 },
    );
  });

  it('matches the full parse on broken configs: duplicates, unknown fields, unterminated blocks, a BOM', () => {
    for (const text of [
      'max_batch_size: 4\nmax_batch_size: 8\n',
      'name: "a"\nnme: "b"\ninput [ { name: "x" dims: [ 1 ] } ]\ninput { name: "y" }\n',
      'input [ { name: "x" dims: [ 1, 2 ] }\n',
      '\uFEFFname: "a"\nparameters { key: "k" value: { string_value: "v" } }\nparameters { key: "k" value: { string_value: "w" } }\n',
      'instance_group [ { count: 1 kind: KIND_GPU } ] dynamic_batching { max_queue_delay_microseconds: 100 } }\n',
      '  # leading comment\n\n  name: "a" ; backend: "python",\n',
    ])
      expectSameAsFull(text);
  });

  it('locates map keys key by key as the full tree does: block and list forms, a key written twice, an occurrence with an error', () => {
    for (const text of [
      'parameters { key: "a" value { string_value: "1" } }\nparameters [ { key: "b" value { string_value: "2" } }, { key: "a" value { string_value: "3" } } ]\nparameters { key: "c" value { string_value: "4" } }\n',
      'parameters { key: "a" value { string_value: "1" } }\nparameters { key: "b" value { string_vlue: "2" } }\nparameters { key: "b" value { string_value: "5" } }\n',
      'name: "m"\nparameters { value { string_value: "no key" } }\n',
      // numbered keys, which a map orders before the others whatever order they are written in
      'parameters { key: "x" value { string_value: "1" } }\nparameters { key: "2" value { string_value: "2" } }\nparameters { key: "1" value { string_value: "3" } }\n',
      // every block spelling: a colon, angle brackets, a comment between the name and the block
      'parameters: { key: "a" value { string_value: "1" } }\nparameters < key: "b" value { string_value: "2" } >\nparameters # why\n { key: "c" value: < string_value: "3" > }\n',
      // as many keys as occurrences, one occurrence a list of two and one an empty list
      'parameters { key: "a" value { string_value: "1" } }\nparameters [ ]\nparameters [ { key: "b" value { string_value: "2" } }, { key: "c" value { string_value: "3" } } ]\n',
      `${Array.from({ length: 2000 }, (_, i) => `parameters { key: "k${i % 1500}" value: { string_value: "v${i}" } }`).join('\n')}\n`,
    ])
      expectSameAsFull(text);
  });

  it('keeps no node of the fields: only where each top-level field is written', () => {
    const lean = parseText('name: "a"\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\n', schema, { lean: true });
    expect(lean.spans.toArray().map((s) => [s.name, s.start.line])).toEqual([
      ['name', 1],
      ['input', 2],
    ]);
    expect(lean.tree).toBeUndefined();
  });

  it('keepTreeUpTo: a text the clean parse gives up on keeps its tree up to that size; a clean one never does', () => {
    const broken = 'name: "a"\nnme: "b"\n';
    const kept = parseText(broken, schema, { lean: true, keepTreeUpTo: broken.length });
    expect(kept.clean).toBe(false);
    expect(kept.tree).toEqual(parseText(broken, schema).tree);
    expect(parseText(broken, schema, { lean: true, keepTreeUpTo: broken.length - 1 }).tree).toBeUndefined();
    const clean = parseText('name: "a"\n', schema, { lean: true, keepTreeUpTo: 1000 });
    expect([clean.clean, clean.tree]).toEqual([true, undefined]);
  });
});
