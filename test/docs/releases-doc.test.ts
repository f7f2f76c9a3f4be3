// docs/releases.md is generated from the facts the verdicts read; `tritonc releases` prints the same.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { releasesMarkdown } from '../../src/triton/releases/notes.js';
import { RELEASE_CHANGES } from '../../src/triton/releases/index.js';
import { NEWEST_RELEASE, RELEASES, releaseIndex } from '../../src/triton/releases/catalog.js';
import { cli } from '../support/cli.js';

const DOC = fileURLToPath(new URL('../../docs/releases.md', import.meta.url));

describe('docs/releases.md', () => {
  it('is generated from RELEASE_CHANGES (UPDATE_DOCS=1 rewrites it)', () => {
    const generated = releasesMarkdown(RELEASE_CHANGES, NEWEST_RELEASE);
    if (process.env.UPDATE_DOCS) writeFileSync(DOC, generated);
    expect(readFileSync(DOC, 'utf8'), 'docs/releases.md is stale: run UPDATE_DOCS=1 npx vitest run test/docs/releases-doc.test.ts').toBe(generated);
  });

  it('every change names a source and a range within the releases tritonc knows', () => {
    for (const c of RELEASE_CHANGES) {
      expect(c.source, c.what).not.toBe('');
      expect(c.releases.since ?? c.releases.until, c.what).toBeDefined();
      for (const r of [c.releases.since, c.releases.until]) if (r) expect(releaseIndex(r), c.what).toBeGreaterThanOrEqual(0);
      // A fact that holds from the oldest release on is no change in this range.
      expect(c.releases.since, c.what).not.toBe(RELEASES[0]!.container);
    }
  });
});

describe('tritonc releases', () => {
  it('lists the releases, the default marked', async () => {
    const r = await cli(['releases']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toContain('24.10  2.51.0');
    expect(r.stdout).toContain(`${NEWEST_RELEASE.container}  ${NEWEST_RELEASE.server}  (default)`);
  });

  it('what an upgrade brings and takes, and the reverse', async () => {
    const up = await cli(['releases', '24.10', '26.07']);
    expect(up.stdout).toContain('Triton 24.10 (2.51.0) -> 26.07 (2.71.0)');
    expect(up.stdout).toContain('+ ModelConfig has the field model_metrics (from 24.11)');
    expect(up.stdout).toContain('- the TensorFlow backend is built');
    const down = await cli(['releases', '2.71.0', '24.10']);
    expect(down.stdout).toContain('- ModelConfig has the field model_metrics (from 24.11)');
    // Each line says when the fact holds, true in either direction: the TensorFlow backend comes back.
    expect(down.stdout).toContain(
      '+ the TensorFlow backend is built (backend "tensorflow", platforms tensorflow_savedmodel, tensorflow_graphdef) (before 25.03)',
    );
    const none = await cli(['releases', '24.11', '24.12']);
    expect(none.stdout).toMatch(/24\.11 \(2\.52\.0\) -> 24\.12 \(2\.53\.0\)/);
    const bad = await cli(['releases', '21.01']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('Triton 21.01 is not a release tritonc knows')]);
    // Releases alone: no image is named, so no image section.
    expect(up.stdout).not.toContain('\nimage ');
  });

  it('between images: the backends one image has and the other lacks', async () => {
    const llm = await cli(['releases', '24.10', 'nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3']);
    expect(llm.code).toBe(0);
    expect(llm.stdout).toContain("image 24.10-py3 -> 24.11-trtllm-python-py3: NVIDIA's backends python, tensorrtllm\n");
    expect(llm.stdout).toContain('  + the tensorrtllm backend\n');
    expect(llm.stdout).toContain('  - the onnxruntime backend: models on it do not load in 24.11-trtllm-python-py3\n');
    expect(llm.stdout).not.toContain('- the python backend');
    // The full image over the release where TensorFlow left the builds.
    const tf = await cli(['releases', '25.02-py3', '25.03-py3']);
    expect(tf.stdout).toContain('  - the tensorflow backend: models on it do not load in 25.03-py3\n');
    const same = await cli(['releases', '24.10-py3', '24.11-py3']);
    expect(same.stdout).toContain('  the same backends\n');
  });
});
