// The parser, printer and formatter on the repository's own fixture configs (test/fixtures/configs).
// The same checks run on 686 real configs in test/conformance/pbtxt.test.ts when the corpus is there.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { printConfig } from '../../src/config/print.js';
import { valuesEqual } from '../../src/pbtxt/equal.js';
import { formatText } from '../../src/config/format.js';
import { tokenize } from '../../src/pbtxt/lexer.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';

const commentsOf = (text: string): string[] =>
  tokenize(text)
    .comments.map((c) => c.text.trimEnd())
    .sort();

describe.each(FIXTURE_CONFIGS)('fixture config $name', ({ name, file, text }) => {
  const doc = parseConfig(text, file);

  it('parses without a diagnostic, to a config named after its file', () => {
    expect(doc.diagnostics).toEqual([]);
    expect(doc.value.name).toBe(name);
  });

  it('print(parse(x)) parses to the same value', () => {
    const again = parseConfig(printConfig(doc.value), file);
    expect(again.diagnostics).toEqual([]);
    expect(valuesEqual(doc.value, again.value)).toBe(true);
  });

  it('fmt keeps every comment and the value, and is idempotent', () => {
    const once = formatText(text, file);
    expect(once.status).toBe('formatted');
    if (once.status !== 'formatted') return;
    expect(commentsOf(once.output)).toEqual(commentsOf(text));
    expect(valuesEqual(parseConfig(once.output, file).value, doc.value)).toBe(true);
    const twice = formatText(once.output, file);
    expect(twice.status === 'formatted' && !twice.changed).toBe(true);
  });
});

it('the fixtures have comments to keep, and use the older spellings', () => {
  expect(FIXTURE_CONFIGS.length).toBeGreaterThanOrEqual(10);
  expect(FIXTURE_CONFIGS.filter((c) => commentsOf(c.text).length > 0).length).toBeGreaterThanOrEqual(5);
  const legacy = FIXTURE_CONFIGS.find((c) => c.name === 'legacy-syntax')!.text;
  for (const spelling of ['input <', "'images'", ';', '0x10']) expect(legacy).toContain(spelling);
});
