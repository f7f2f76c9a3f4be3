import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { toSarif } from '../../src/report/sarif.js';
import { CWD, sampleResult } from './fixtures.js';

type Json = Record<string, any>;

describe('sarif', () => {
  const log: Json = toSarif(sampleResult(), { cwd: CWD, version: '1.2.3' });
  const run = log.runs[0];

  it('is a SARIF 2.1.0 log with one run by tritonc and every rule described', () => {
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(run.tool.driver).toMatchObject({ name: 'tritonc', version: '1.2.3', informationUri: expect.stringMatching(/^https:/) });
    const rule = run.tool.driver.rules.find((r: Json) => r.id === 'batch-dim-in-dims');
    expect(rule).toMatchObject({
      name: 'BatchDimInDims',
      shortDescription: { text: expect.any(String) },
      fullDescription: { text: expect.stringContaining("Prevents Triton's: \"model '<model>', tensor '<name>'") },
      helpUri: expect.stringMatching(/docs\/rules\/batch-dim-in-dims\.md$/),
      defaultConfiguration: { level: 'error' },
      properties: { category: 'correctness', tags: ['tritonc', 'correctness'] },
    });
    expect(run.tool.driver.rules.find((r: Json) => r.id === 'unused-suppression').defaultConfiguration).toEqual({ enabled: false, level: 'warning' });
  });

  it('links every rule to its page in docs/rules/ of the repository package.json names', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const repo = /github\.com\/([\w.-]+\/[\w.-]+?)\.git$/.exec(pkg.repository.url)![1];
    expect(run.tool.driver.rules.length).toBeGreaterThan(20);
    for (const rule of run.tool.driver.rules) {
      expect(rule.helpUri).toBe(`https://github.com/${repo}/blob/main/docs/rules/${rule.id}.md`);
      expect(existsSync(new URL(`../../docs/rules/${rule.id}.md`, import.meta.url)), rule.id).toBe(true);
    }
  });

  it('has one result per problem with a repo-relative location, region and level', () => {
    expect(run.results).toHaveLength(3);
    const [first] = run.results;
    expect(first).toMatchObject({
      ruleId: 'batch-dim-in-dims',
      level: 'error',
      message: { text: expect.stringContaining('include the batch axis') },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'models/resnet/config.pbtxt', uriBaseId: '%SRCROOT%' },
            region: { startLine: 4, startColumn: 54, endLine: 4, endColumn: 55 },
          },
        },
      ],
    });
    expect(run.tool.driver.rules[first.ruleIndex].id).toBe('batch-dim-in-dims');
    // The message id, and the fix as SARIF replacements of the same artifact.
    expect(first.properties.messageId).toBe('includesBatchAxis');
    expect(first.fixes).toEqual([
      {
        description: { text: 'set dims: [3,224,224]' },
        artifactChanges: [
          {
            artifactLocation: { uri: 'models/resnet/config.pbtxt', uriBaseId: '%SRCROOT%' },
            replacements: [{ deletedRegion: { startLine: 4, startColumn: 48, endLine: 4, endColumn: 70 }, insertedContent: { text: 'dims: [ 3, 224, 224 ]' } }],
          },
        ],
      },
    ]);
    expect(run.results.map((r: Json) => r.level)).toEqual(['error', 'warning', 'note']);
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe('file:///work/repo/');
  });

  it('a suggestion is one of the fixes SARIF proposes, after the fix', () => {
    const result = sampleResult();
    const d = result.results[1]!.diagnostics[0]!;
    d.suggestions = [{ description: 'set dims: [1,3,224,224]', edits: [{ ...d.fix!.edits[0]!, text: 'dims: [ 1, 3, 224, 224 ]' }] }];
    const fixed: Json = toSarif(result, { cwd: CWD });
    const fixes = fixed.runs[0].results[0].fixes;
    expect(fixes.map((f: Json) => f.description.text)).toEqual(['set dims: [3,224,224]', 'set dims: [1,3,224,224]']);
    expect(fixes[1].artifactChanges[0].replacements[0].insertedContent.text).toBe('dims: [ 1, 3, 224, 224 ]');
  });

  it('fingerprints are stable across line moves and distinct per problem', () => {
    const moved = sampleResult();
    for (const d of moved.results[1]!.diagnostics) d.range.start.line += 10;
    const movedLog: Json = toSarif(moved, { cwd: CWD });
    const again = movedLog.runs[0].results;
    const fp = (r: Json) => r.partialFingerprints.primaryLocationLineHash;
    expect(again.map(fp)).toEqual(run.results.map(fp));
    expect(new Set(run.results.map(fp)).size).toBe(3);
    expect(run.results[0].partialFingerprints['tritonc/v1']).toMatch(/^[0-9a-f]{16}:1$/);
  });

  // The official schema, as @microsoft/jest-sarif ships it, checked with a draft-04 validator.
  it('validates against the SARIF 2.1.0 JSON schema', () => {
    const require = createRequire(import.meta.url);
    const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
    const result = new Validator(schema, '4', false).validate(JSON.parse(JSON.stringify(log)));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does reject a broken log.
    const broken = JSON.parse(JSON.stringify(log));
    broken.runs[0].results[0].level = 'fatal';
    expect(new Validator(schema, '4', false).validate(broken).valid).toBe(false);
  });
});
