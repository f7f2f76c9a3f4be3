// Every rule page's examples are linted: each must produce exactly the findings the page shows
// (Biome's doc examples that run as tests). UPDATE_RULE_EXAMPLES=1 rewrites the findings blocks
// from what tritonc reports; review the diff before committing it.
import { readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { RULES } from '../../src/lint/rules/index.js';
import { writeRepo } from '../lint/harness.js';
import { lintExample, parseExamples, readPage } from '../support/rule-examples.js';

const DOCS = fileURLToPath(new URL('../../docs/rules/', import.meta.url));
const UPDATE = process.env.UPDATE_RULE_EXAMPLES === '1';

/** A finding as the page shows it: paths relative to the example's repository (the repository itself is `.`). */
const line = (repo: string, d: Diagnostic): string =>
  `${relative(repo, d.file)}:${d.range.start.line}:${d.range.start.column} ${d.severity} ${d.messageId} ${d.message.replaceAll(`${repo}/`, '').replaceAll(repo, '.')}`;

describe('rule pages: the examples produce the findings they show', () => {
  const pages = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort();
  it('every rule has a page with at least one example that finds something and one that does not', () => {
    for (const rule of RULES) expect(pages, rule.meta.id).toContain(`${rule.meta.id}.md`);
  });
  for (const page of pages) {
    const id = page.replace(/\.md$/, '');
    it(id, async () => {
      const path = join(DOCS, page);
      let text = readPage(path);
      const examples = parseExamples(text);
      expect(examples.length, `${page} has examples (### headings under ## Examples)`).toBeGreaterThan(0);
      const updates: { start: number; end: number; text: string }[] = [];
      const counts: number[] = [];
      for (const ex of examples) {
        const repo = await writeRepo(ex.files);
        const found = lintExample(ex, repo)
          .filter((d) => d.ruleId === id)
          .map((d) => line(repo, d));
        counts.push(found.length);
        if (UPDATE && ex.findings) updates.push({ start: ex.findings.start, end: ex.findings.end, text: `${found.length ? found.join('\n') : '(none)'}\n` });
        else {
          expect(ex.findings, `${page} "${ex.title}" has a findings block`).toBeDefined();
          expect(found, `${page} "${ex.title}"`).toEqual(ex.findings!.lines);
        }
      }
      if (updates.length) {
        for (const u of updates.sort((a, b) => b.start - a.start)) text = text.slice(0, u.start) + u.text + text.slice(u.end);
        writeFileSync(path, text);
      }
      expect(
        counts.some((n) => n > 0),
        `${page}: an example that finds something`,
      ).toBe(true);
      expect(
        counts.some((n) => n === 0),
        `${page}: an example that finds nothing`,
      ).toBe(true);
    });
  }
});
