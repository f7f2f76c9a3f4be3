// The ModelConfig fields that arrived after 24.05 (triton/schema-releases.ts) name fields of tritonc's
// schema (a misspelt proto path would silently hold for every release), each holds from its release
// on and not before, and RELEASE_CHANGES lists each with its source branch.
import { describe, expect, it } from 'vitest';
import { loadSchema, type SchemaMessage } from '../../src/config/schema.js';
import { releaseNamed } from '../../src/triton/releases/catalog.js';
import { RELEASE_CHANGES } from '../../src/triton/releases/index.js';
import { fieldMeaningIn, fieldReleases, releaseHasField } from '../../src/triton/schema-releases.js';

/** Every field of the schema with the releases it holds for, where it does not hold for all. */
function lateFields(): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (m: SchemaMessage): void => {
    if (seen.has(m.fullName)) return;
    seen.add(m.fullName);
    for (const f of m.fieldList) {
      const r = fieldReleases(f);
      if (r) out.set(`${m.fullName}.${f.name}`, r.since);
      if (f.type.kind === 'message') visit(f.type.message);
    }
  };
  visit(loadSchema().modelConfig);
  return out;
}

describe('ModelConfig fields by release (common protobuf/model_config.proto at r24.05 … r26.07)', () => {
  it('each arrival names a field of the schema', () => {
    expect(Object.fromEntries(lateFields())).toEqual({
      'inference.ModelInput.is_non_linear_format_io': '24.08',
      'inference.ModelOutput.is_non_linear_format_io': '24.08',
      'inference.ModelConfig.model_metrics': '24.11',
      'inference.ModelEnsembling.max_inflight_requests': '25.11',
    });
  });

  it('a field holds from the release it arrived in, not in the one before', () => {
    const schema = loadSchema();
    const metrics = schema.modelConfig.fields.get('model_metrics')!;
    expect([releaseHasField(metrics, releaseNamed('24.10')), releaseHasField(metrics, releaseNamed('24.11'))]).toEqual([false, true]);
    const limit = schema.message('inference.ModelEnsembling').fields.get('max_inflight_requests')!;
    expect([releaseHasField(limit, releaseNamed('25.10')), releaseHasField(limit, releaseNamed('25.11'))]).toEqual([false, true]);
    expect(releaseHasField(schema.modelConfig.fields.get('response_cache')!, releaseNamed('24.05'))).toBe(true);
  });

  it("max_inflight_requests' meaning: per ensemble request in 26.03, shared by all of them from 26.04 (core a02b0c0)", () => {
    const limit = loadSchema().message('inference.ModelEnsembling').fields.get('max_inflight_requests')!;
    expect(fieldMeaningIn(limit, releaseNamed('25.10'))).toBeUndefined();
    expect(fieldMeaningIn(limit, releaseNamed('26.03'))).toContain('within one ensemble request');
    expect(fieldMeaningIn(limit, releaseNamed('26.04'))).toContain("across all of the ensemble's requests");
  });

  it('RELEASE_CHANGES lists every one, in the model config area, with the branch it was read from', () => {
    const changes = RELEASE_CHANGES.filter((c) => c.area === 'model config');
    expect(changes.map((c) => [c.what, c.releases])).toEqual([
      ['ModelInput has the field is_non_linear_format_io', { since: '24.08' }],
      ['ModelOutput has the field is_non_linear_format_io', { since: '24.08' }],
      ['ModelConfig has the field model_metrics', { since: '24.11' }],
      ['ModelEnsembling has the field max_inflight_requests', { since: '25.11' }],
      [expect.stringContaining('max_inflight_requests limits each step across all'), { since: '26.04' }],
    ]);
    for (const c of changes) expect(c.source).toMatch(/@ r\d\d\.\d\d/);
  });
});
