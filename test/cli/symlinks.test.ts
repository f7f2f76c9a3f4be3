// Configs and directories that are symlinks, as repositories that share configs or models use them:
// walks follow them (each directory once, so a link back up the tree cannot loop); writes never go
// through a link (test/cli/write-links.test.ts has every writing command).
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../support/cli.js';

const UGLY = 'name:"m"\nmax_batch_size:4\n';

/** repo/m/config.pbtxt -> ../../common/m.pbtxt, repo/linked -> ../elsewhere (a directory), repo/m/loop -> .. */
function repository(): { root: string; repo: string } {
  const root = tempDir();
  const repo = join(root, 'repo');
  mkdirSync(join(repo, 'm'), { recursive: true });
  mkdirSync(join(root, 'common'));
  mkdirSync(join(root, 'elsewhere', 'other'), { recursive: true });
  writeFileSync(join(root, 'common', 'm.pbtxt'), UGLY);
  writeFileSync(join(root, 'elsewhere', 'other', 'config.pbtxt'), UGLY.replace('"m"', '"other"'));
  symlinkSync('../../common/m.pbtxt', join(repo, 'm', 'config.pbtxt'));
  symlinkSync('../elsewhere', join(repo, 'linked'));
  symlinkSync('..', join(repo, 'm', 'loop'));
  return { root, repo };
}

describe('symlinks', () => {
  it('fmt --check finds a symlinked config, without looping; a link out of the repository to no model directory is said, not searched', async () => {
    const { root, repo } = repository();
    const r = await cli(['fmt', '--check', '.'], { cwd: repo });
    expect(r.stdout).toBe('m/config.pbtxt\n');
    // Triton would take `linked` for a model directory whose `other` is no version: it reads no config there.
    expect(r.stderr).toContain(`linked: a link to ${join(root, 'elsewhere')}, outside the directory given and no model directory: not searched for models`);
    expect(r.code).toBe(1);
  });

  it('fmt --write refuses the link: the linked file is left as it was, the link stays a link (exit 2)', async () => {
    const { root, repo } = repository();
    const r = await cli(['fmt', '--write', 'm/config.pbtxt'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`m/config.pbtxt: cannot write: it is a symbolic link to ${join(root, 'common', 'm.pbtxt')}`);
    expect(lstatSync(join(repo, 'm', 'config.pbtxt')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(repo, 'm', 'config.pbtxt'))).toBe('../../common/m.pbtxt');
    expect(readFileSync(join(root, 'common', 'm.pbtxt'), 'utf8')).toBe(UGLY);
  });

  it('lint of the repository lints the symlinked config', async () => {
    const { repo } = repository();
    const r = await cli(['lint', '.', '--format', 'json', '--rule', 'version-dirs=off'], { cwd: repo });
    const files = (JSON.parse(r.stdout) as { filePath: string }[]).map((f) => f.filePath);
    expect(files).toContain(join(repo, 'm', 'config.pbtxt'));
  });
});
