// The lean parse (parseTextLean, and the fields parsed again from their spans) against the full one:
// the same value and diagnostics, and every value path located at the same place, on the fixture
// configs, printed arbitrary configs, and broken ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printConfig } from '../../src/config/print.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { parseTextLean } from '../../src/pbtxt/parser.js';
import { messageArb } from '../support/arbitrary-config.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';
import { expectSameAsFull, schema } from '../support/lean-parse.js';

describe('parseTextLean', () => {
  for (const c of FIXTURE_CONFIGS) it(`matches the full parse: ${c.name}`, () => expectSameAsFull(c.text));

  it('matches the full parse on printed arbitrary configs', () => {
    fc.assert(fc.property(messageArb(schema, 3), (v) => expectSameAsFull(printConfig(v as ModelConfig))), { numRuns: 150, seed: 20261201 });
  });

  it('matches the full parse on broken configs: duplicates, unknown fields, unterminated blocks, a BOM', () => {
    for (const text of [
      'max_batch_size: 4\nmax_batch_size: 8\n',
      'name: "a"\nnme: "b"\ninput [ { name: "x" dims: [ 1 ] } ]\ninput { name: "y" }\n',
      'input [ { name: "x" dims: [ 1, 2 ] }\n',
      '\uFEFFname: "a"\nparameters { key: "k" value: { string_value: "v" } }\nparameters { key: "k" value: { string_value: "w" } }\n',
      'instance_group [ { count: 1 kind: KIND_GPU } ] dynamic_batching { max_queue_delay_microseconds: 100 } }\n',
      '  # leading comment\n\n  name: "a" ; backend: "python",\n',
    ]) expectSameAsFull(text);
  });

  it('keeps no node of the fields: only where each top-level field is written', () => {
    const lean = parseTextLean('name: "a"\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\n', schema);
    expect(lean.spans.toArray().map((s) => [s.name, s.start.line])).toEqual([['name', 1], ['input', 2]]);
  });
});
