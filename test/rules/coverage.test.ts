// Every rule has its test file, written with the rule tester, and every message of the rule is
// asserted there by its id (issue 30: findings are data, and tests assert ids and data). And no
// placeholder holds English: measured on every finding of every rule over the rule pages' examples
// and over the fixture configs corrupted at seeded places (the parser's messages); the corpus of
// real configs adds its findings in test/conformance/prose-in-placeholders.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { RULES } from '../../src/lint/rules/index.js';
import { PARSE_MESSAGES } from '../../src/pbtxt/messages.js';
import { seededRandom } from '../../src/util/seeded-random.js';
import { writeRepo } from '../lint/harness.js';
import { lintExample, parseExamples, readPage } from '../support/rule-examples.js';
import { proseInPlaceholders, proseOfAllRules } from '../support/rule-tester.js';

describe('every rule is tested by message id', () => {
  for (const rule of RULES) {
    it(rule.meta.id, () => {
      const file = `test/rules/${rule.meta.id}.test.ts`;
      expect(existsSync(file), `${file} is missing`).toBe(true);
      const text = readFileSync(file, 'utf8');
      expect(text, `${file} does not use the rule tester (testRule)`).toMatch(/\btestRule\(/);
      const untested = Object.keys(rule.meta.messages).filter((id) => !text.includes(`messageId: '${id}'`));
      expect(untested, `${file} asserts no finding with these message ids`).toEqual([]);
    });
  }
});

const DOCS = fileURLToPath(new URL('../../docs/rules/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/configs/', import.meta.url));

/** What is typed into a config by mistake: tokens the parser refuses where they land, and cuts. */
const SLIPS = [
  ':',
  '{',
  '}',
  '[',
  ']',
  ',',
  ';',
  '<',
  '>',
  '"',
  "'",
  '-',
  'x',
  '0x',
  '09',
  '1e',
  '8a',
  '1.2.3',
  '"\\q"',
  '"\\xff"',
  '${p}',
  '\uFEFF',
  '\0',
  'zz: 1 ',
  'name: "n" ',
  'max_batch_size: 1 ',
];

describe('no placeholder carries English prose (placeholders hold values, issue 30)', () => {
  it("every finding of every rule on the rule pages' examples", async () => {
    const findings: Diagnostic[] = [];
    const prose: string[] = [];
    for (const page of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
      for (const ex of parseExamples(readPage(join(DOCS, page)))) {
        const repo = await writeRepo(ex.files);
        const found = lintExample(ex, repo);
        const text = (file: string): string | undefined => (existsSync(file) && !file.endsWith('.onnx') ? readFileSync(file, 'utf8') : undefined);
        findings.push(...found);
        prose.push(...found.flatMap((d) => proseInPlaceholders(d, text(d.file))));
      }
    }
    expect(prose).toEqual([]);
    // Every rule's findings were measured: each page shows its rule finding something.
    expect(RULES.map((r) => r.meta.id).filter((id) => !findings.some((d) => d.ruleId === id))).toEqual([]);
  });

  it("every finding on the fixture configs corrupted at seeded places: the parser's messages, as values", () => {
    const random = seededRandom(30);
    const prose: string[] = [];
    const ids = new Set<string>();
    for (const name of readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.pbtxt'))
      .sort()) {
      const text = readFileSync(join(FIXTURES, name), 'utf8');
      for (let i = 0; i < 60; i++) {
        const at = Math.floor(random() * text.length);
        const op = random();
        const slip = SLIPS[Math.floor(random() * SLIPS.length)]!;
        const broken = op < 0.15 ? text.slice(0, at) : op < 0.3 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + slip + text.slice(at);
        const r = proseOfAllRules({ 'm/config.pbtxt': broken });
        prose.push(...r.prose.map((p) => `${name} #${i}: ${p}`));
        for (const d of r.findings) if (d.ruleId === 'syntax') ids.add(d.messageId!);
      }
    }
    expect(prose).toEqual([]);
    // The corruptions reach most of the parser's messages (the rest are asserted one by one in syntax.test.ts).
    expect(ids.size, [...ids].join(', ')).toBeGreaterThanOrEqual(Object.keys(PARSE_MESSAGES).length / 2);
  });
});
