// Findings are data: every rule's messages are templates keyed by id, rendered from the data a
// report carries. These tests hold the templates to that contract.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { placeholdersOf, renderMessage } from '../../src/lint/messages.js';
import { RULES } from '../../src/lint/rules/index.js';
import { MODEL_READ_MESSAGES } from '../../src/lint/model-read.js';

const LINT = fileURLToPath(new URL('../../src/lint/', import.meta.url));
// The syntax rule's messages are the parser's (pbtxt/messages.ts), reported by the parser.
const PBTXT = fileURLToPath(new URL('../../src/pbtxt/', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [readFileSync(join(dir, e.name), 'utf8')] : [],
  );
const lintSource = [...sources(LINT), ...sources(PBTXT)].join('\n');
// model-unreadable's messages are the readers' (model-file/messages.ts), each reported by the reader
// that throws it: test/model-file/messages.test.ts holds every one to a throw in the readers.
const READER_IDS = new Set(Object.keys(MODEL_READ_MESSAGES));

describe('rule messages', () => {
  it('every rule has messages, and every template is well formed', () => {
    for (const rule of RULES) {
      const entries = Object.entries(rule.meta.messages);
      expect(entries.length, rule.meta.id).toBeGreaterThan(0);
      for (const [id, template] of entries as [string, string][]) {
        expect(id, rule.meta.id).toMatch(/^[a-z][A-Za-z0-9]*$/);
        // Braces left after the placeholders are taken out would be a typo such as {{name} or {name}}.
        expect(template.replace(/\{\{\w+\}\}/g, '').match(/\{\{|\}\}/g), `${rule.meta.id}.${id}`).toBeNull();
      }
    }
  });

  it('every message is reported somewhere: no template is dead', () => {
    const dead = RULES.flatMap((rule) =>
      Object.keys(rule.meta.messages)
        .filter((id) => !(rule.meta.id === 'model-unreadable' && READER_IDS.has(id)))
        .filter((id) => !new RegExp(`messageId: '${id}'|'${id}' as const|messageId: '${id}' as const|\\? '${id}'|: '${id}'`).test(lintSource))
        .map((id) => `${rule.meta.id}.${id}`),
    );
    expect(dead).toEqual([]);
  });

  it('renders data into the template, as a template literal would', () => {
    expect(renderMessage('dims {{dims}} of {{name}}: {{n}} {{big}} {{ok}}', { dims: '[1,3]', name: 'x', n: 3, big: 2n ** 64n, ok: true })).toBe(
      `dims [1,3] of x: 3 ${2n ** 64n} true`,
    );
    expect(placeholdersOf("'{{id}}' is not {{what}}; {{id}}")).toEqual(['id', 'what', 'id']);
  });

  it('a template whose data lacks a placeholder is a bug, reported as such (never "undefined" in a message)', () => {
    expect(() => renderMessage('set {{field}}', {})).toThrow(/needs data\.field/);
  });
});
