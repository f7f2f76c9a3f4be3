// Core's facts by release (src/triton/core-releases.ts): the load request's model name check at the
// release before it came (26.02), the release it came (26.03) and the release that relaxed it (26.04),
// as core's ValidateModelName reads (model_repository_manager.cc, branches r26.03 and r26.04); and every
// fact listed once in RELEASE_CHANGES.
import { describe, expect, it } from 'vitest';
import { CORE_RELEASE_CHANGES, MODEL_NAME_REFUSALS, modelNameRefusal } from '../../src/triton/core-releases.js';
import { releaseNamed } from '../../src/triton/releases/catalog.js';
import { RELEASE_CHANGES } from '../../src/triton/releases/index.js';

describe('modelNameRefusal', () => {
  const names = ['', ' ', ' \t', '..', 'a..b', 'a/b', ' .. ', 'resnet'];
  const at = (release: '26.02' | '26.03' | '26.04' | '26.08') => names.map((n) => modelNameRefusal(n, releaseNamed(release)));

  it('26.02: no name is checked', () => {
    expect(at('26.02')).toEqual(names.map(() => undefined));
  });
  it("26.03: empty, only whitespace, '..' anywhere or a '/'", () => {
    expect(at('26.03')).toEqual(['empty', 'blank', 'blank', 'traversal', 'traversal', 'traversal', 'traversal', undefined]);
  });
  it("26.04 on: trimmed first; blank, exactly '..', or a '/'", () => {
    for (const r of ['26.04', '26.08'] as const)
      expect(at(r)).toEqual(['emptyTrimmed', 'emptyTrimmed', 'emptyTrimmed', 'traversal', undefined, 'traversal', 'traversal', undefined]);
  });
  it("core's words, the name untrimmed (r26.04 quotes the name as given)", () => {
    expect(MODEL_NAME_REFUSALS.traversal(' .. ')).toBe("invalid model name ' .. ', model name must not contain path traversal characters");
  });
});

describe('RELEASE_CHANGES', () => {
  it("lists every core fact once, each from a release tritonc knows, with its source in core's repository", () => {
    for (const c of CORE_RELEASE_CHANGES) {
      expect(RELEASE_CHANGES.filter((r) => r === c)).toHaveLength(1);
      expect(c.area).toBe('core');
      expect(c.source).toMatch(/^triton-inference-server\/core /);
      if (c.releases.since) expect(releaseNamed(c.releases.since)).toBeDefined();
    }
  });
});
