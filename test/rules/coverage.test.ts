// Every rule has its test file, written with the rule tester, and every message of the rule is
// asserted there by its id (issue 30: findings are data, and tests assert ids and data).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/lint/rules/index.js';

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
