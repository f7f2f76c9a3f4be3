// The Triton target: the three ways to name a release, the facts' release ranges, ByRelease tables.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RELEASES, describeReleases, holdsIn, releaseBefore, releaseNamed, valueIn, type ByRelease } from '../../src/triton/releases/catalog.js';
import { changesBetween, type ReleaseChange } from '../../src/triton/releases/changes.js';
import { DEFAULT_TARGET, TargetError, parseTarget, parseTargets, targetJson, targetLabel } from '../../src/triton/releases/target.js';

// A bare clone of triton-inference-server/server, where one is at hand (TRITONC_SERVER_GIT=<git dir>).
const SERVER_MIRROR = process.env.TRITONC_SERVER_GIT ?? '';

describe('parseTarget', () => {
  it('reads a container release, a server version (with or without the patch) and an image reference', () => {
    expect(parseTarget('24.10').release).toEqual({ container: '24.10', server: '2.51.0' });
    expect(parseTarget('2.51.0').release.container).toBe('24.10');
    expect(parseTarget('2.51').release.container).toBe('24.10');
    // 25.07 shipped 2.59.1, a patch of 25.06's 2.59.0.
    expect(parseTarget('2.59.1').release.container).toBe('25.07');
    const image = parseTarget('nvcr.io/nvidia/tritonserver:24.11-py3');
    expect([image.release.container, image.flavour?.tag, image.named]).toEqual(['24.11', 'py3', 'nvcr.io/nvidia/tritonserver:24.11-py3']);
    expect(parseTarget('tritonserver:26.06').flavour).toBeUndefined();
    // A registry with a port is not a tag.
    expect(parseTarget('localhost:5000/tritonserver:24.10-py3').release.container).toBe('24.10');
  });

  it('refuses what it cannot read, naming what it knows', () => {
    const message = (text: string) => {
      try {
        parseTarget(text);
      } catch (e) {
        expect(e).toBeInstanceOf(TargetError);
        return (e as Error).message;
      }
      throw new Error(`parsed: ${text}`);
    };
    expect(message('22.12')).toBe('Triton 22.12 is not a release tritonc knows: it knows 24.05 to 26.08 (servers 2.46.0 to 2.72.0)');
    expect(message('2.40.0')).toContain('it knows 24.05 to 26.08');
    expect(message('latest')).toContain('is not a Triton version: give a container release (24.10)');
    expect(message('nvcr.io/nvidia/tritonserver:latest')).toContain('is not a Triton release');
    expect(message('24.10-nonsense-py3')).toContain('"nonsense-py3" in "24.10-nonsense-py3" is not a tritonserver image flavour tritonc knows');
    expect(message('')).toContain('an empty Triton version');
    expect(message('25.7')).toBe('"25.7" is not a Triton version; did you mean the container release 25.07?');
    expect(message('2.80.0')).toContain('Triton server "2.80.0" is not a release tritonc knows');
  });

  it('a list: each release once, oldest first', () => {
    expect(parseTargets('26.07,24.10,2.51.0').map(targetLabel)).toEqual(['24.10', '26.07']);
  });

  it('the default is the newest release tritonc knows, and machine output records it', () => {
    expect(DEFAULT_TARGET.release).toBe(RELEASES[RELEASES.length - 1]);
    expect(targetJson(DEFAULT_TARGET)).toEqual({ release: '26.08', server: '2.72.0' });
  });
});

describe('release ranges', () => {
  it('holdsIn: from since on, before until', () => {
    const r = { since: '24.11', until: '25.03' } as const;
    expect(holdsIn(r, releaseNamed('24.10'))).toBe(false);
    expect(holdsIn(r, releaseNamed('24.11'))).toBe(true);
    expect(holdsIn(r, releaseNamed('25.02'))).toBe(true);
    expect(holdsIn(r, releaseNamed('25.03'))).toBe(false);
    expect(holdsIn(undefined, releaseNamed('24.05'))).toBe(true);
    expect(describeReleases(r)).toBe('from 24.11 until before 25.03');
    expect(releaseBefore('25.03')?.container).toBe('25.02');
    expect(releaseBefore('24.05')).toBeUndefined();
  });

  it('valueIn: the entry that holds in a release, none before the first', () => {
    const table: ByRelease<string>[] = [
      { since: '24.06', value: 'a', source: 'x' },
      { since: '25.01', value: 'b', source: 'x' },
    ];
    expect(valueIn(table, releaseNamed('24.05'))).toBeUndefined();
    expect(valueIn(table, releaseNamed('24.12'))?.value).toBe('a');
    expect(valueIn(table, releaseNamed('25.01'))?.value).toBe('b');
  });

  it('changesBetween: what a move gains and loses, either way', () => {
    const gone: ReleaseChange = { area: 'tensorflow', what: 'the TensorFlow backend', releases: { until: '25.03' }, source: 'x' };
    const metrics: ReleaseChange = { area: 'model config', what: 'model_metrics', releases: { since: '24.11' }, source: 'x' };
    const up = changesBetween([gone, metrics], releaseNamed('24.10'), releaseNamed('26.07'));
    expect(up.map((c) => [c.change.what, c.direction])).toEqual([
      ['the TensorFlow backend', 'lost'],
      ['model_metrics', 'gained'],
    ]);
    expect(changesBetween([gone, metrics], releaseNamed('26.07'), releaseNamed('24.10')).map((c) => c.direction)).toEqual(['gained', 'lost']);
    expect(changesBetween([gone, metrics], releaseNamed('24.11'), releaseNamed('25.02'))).toEqual([]);
  });

  // The list is read from server's TRITON_VERSION on each release branch; given a clone of Triton's
  // server repository, it is checked against it.
  it.skipIf(!SERVER_MIRROR || !existsSync(SERVER_MIRROR))("matches TRITON_VERSION on each of the server's release branches", () => {
    for (const r of RELEASES) {
      const version = execFileSync('git', ['-C', SERVER_MIRROR, 'show', `r${r.container}:TRITON_VERSION`], { encoding: 'utf8' }).trim();
      expect(version, r.container).toBe(r.server);
    }
  });
});
