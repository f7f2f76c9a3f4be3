// Conformance with Triton's Python backend: server/qa/L0_model_config/autofill_noplatform{,_success}/python,
// each case deployed as test.sh deploys it (the case's config.pbtxt, its model.py in 1/: the in-tree one
// or qa/python_models/auto_complete/model.py, kept in fixtures/models/python). resolve reads each
// model.py's auto_complete_config without running it: the 17 refusals give Triton's message (the
// expected text is a grep pattern: `\[` is `[`), the 13 models that load equal one of Triton's expected
// configs, and lint's python-autocomplete reports each refusal and stays quiet on the rest.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { lintSync } from '../../src/lint/engine.js';
import { deployCase, L0 } from '../support/python-cases.js';
import { tempDir } from '../support/temp.js';

const caseNames = (suite: string): string[] => readdirSync(join(L0, suite, 'python')).sort();
const expectedOf = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => /^expected(\.\d+)?$/.test(f))
    .map((f) => readFileSync(join(dir, f), 'utf8').trim());
const canonical = (v: ModelConfig): unknown => toProtoJson(v as Record<string, unknown>, loadSchema().modelConfig);

describe("resolve and lint reproduce the Python backend's auto_complete_config (L0_model_config)", () => {
  it('covers the 17 refusals and 12 success cases of the corpus', () => {
    expect(caseNames('autofill_noplatform')).toHaveLength(17);
    expect(caseNames('autofill_noplatform_success')).toHaveLength(12);
  });

  for (const name of caseNames('autofill_noplatform')) {
    it(`refused: ${name}`, () => {
      const repo = tempDir('tritonc-py-');
      const [dir] = deployCase('autofill_noplatform', name, repo);
      const expected = expectedOf(join(L0, 'autofill_noplatform', 'python', name)).map((e) => e.replace(/\\([[\]])/g, '$1'));
      const result = resolveModelDir(dir!, {});
      expect(result.status, JSON.stringify(result.pending)).toBe('refused');
      const message = result.problems[0]!.message;
      expect(
        expected.some((e) => message.includes(e)),
        `${message}\n  expected one of ${expected.join(' | ')}`,
      ).toBe(true);
      const found = lintSync([dir!], { cwd: repo })
        .results.flatMap((r) => r.diagnostics)
        .filter((d) => d.ruleId === 'python-autocomplete');
      expect(
        found.map((d) => d.message).some((m) => expected.some((e) => m.includes(e))),
        JSON.stringify(found),
      ).toBe(true);
    });
  }

  for (const name of caseNames('autofill_noplatform_success')) {
    it(`loads: ${name}`, () => {
      const repo = tempDir('tritonc-py-');
      const dirs = deployCase('autofill_noplatform_success', name, repo);
      for (const dir of dirs) {
        const src = existsSync(join(L0, 'autofill_noplatform_success', 'python', name, 'config.pbtxt'))
          ? join(L0, 'autofill_noplatform_success', 'python', name)
          : join(L0, 'autofill_noplatform_success', 'python', name, dir.split('/').at(-1)!);
        const result = resolveModelDir(dir, {});
        expect(result.problems, dir).toEqual([]);
        expect(result.status).toBe('ok');
        expect(result.pending, dir).toEqual([]);
        const expected = expectedOf(src);
        if (expected.length) expect(expected.map((e) => canonical(parseConfig(e).value))).toContainEqual(canonical(result.config!));
      }
      const found = lintSync(dirs, { cwd: repo })
        .results.flatMap((r) => r.diagnostics)
        .filter((d) => d.ruleId === 'python-autocomplete');
      expect(found).toEqual([]);
    });
  }
});
