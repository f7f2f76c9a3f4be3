// writeFileAtomic on real files: every byte or nothing, the original kept on any failure (a disk
// that fills up), never through a link, owners and modes kept, leftovers of a killed run removed.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyToNewFile, LinkedPathError, writeFileAtomic, writeNewFile } from '../../src/util/atomic-write.js';
import { fillDiskAfter, realWrites, restoreDisk } from '../support/disk.js';
import { tempDir } from '../support/temp.js';

afterEach(restoreDisk);

const BIG = `${'# a comment line of a hand-edited config\n'.repeat(280)}name: "m"\n`;

describe('writeFileAtomic', () => {
  it('writes every byte when the system writes fewer than asked at a time', () => {
    const file = join(tempDir(), 'config.pbtxt');
    const calls: number[] = [];
    realWrites((write) => (fd, buffer, offset, length) => {
      calls.push(length);
      return write(fd, buffer, offset, Math.min(length, 1000));
    });
    writeFileAtomic(file, BIG);
    expect(readFileSync(file, 'utf8')).toBe(BIG);
    expect(calls.length).toBe(Math.ceil(Buffer.byteLength(BIG) / 1000));
  });

  it('on a full disk: throws ENOSPC, keeps the original byte for byte, leaves no temporary file', () => {
    const dir = tempDir();
    const file = join(dir, 'config.pbtxt');
    writeFileSync(file, 'name: "original"\n');
    fillDiskAfter(4096);
    expect(() => writeFileAtomic(file, BIG)).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(readFileSync(file, 'utf8')).toBe('name: "original"\n');
    expect(readdirSync(dir)).toEqual(['config.pbtxt']);
  });

  it('refuses a symlink at the path, live or dangling: the file it leads to is neither changed nor made', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'common-configs'));
    mkdirSync(join(dir, 'm'));
    writeFileSync(join(dir, 'common-configs', 'm.pbtxt'), 'old\n');
    symlinkSync('../common-configs/m.pbtxt', join(dir, 'm', 'config.pbtxt'));
    expect(() => writeFileAtomic(join(dir, 'm', 'config.pbtxt'), 'new\n')).toThrow(LinkedPathError);
    expect(() => writeFileAtomic(join(dir, 'm', 'config.pbtxt'), 'new\n')).toThrow(`it is a symbolic link to ${join(dir, 'common-configs', 'm.pbtxt')}`);
    expect(readFileSync(join(dir, 'common-configs', 'm.pbtxt'), 'utf8')).toBe('old\n');
    symlinkSync('../common-configs/absent.pbtxt', join(dir, 'm', 'dangling.pbtxt'));
    expect(() => writeFileAtomic(join(dir, 'm', 'dangling.pbtxt'), 'new\n')).toThrow(LinkedPathError);
    expect(readdirSync(join(dir, 'common-configs'))).toEqual(['m.pbtxt']);
    expect(readlinkSync(join(dir, 'm', 'config.pbtxt'))).toBe('../common-configs/m.pbtxt');
    expect(readdirSync(join(dir, 'm')).sort()).toEqual(['config.pbtxt', 'dangling.pbtxt']);
  });

  it('refuses a directory link below the directory named (within), and writes where the named directory is itself a link', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'repo'));
    mkdirSync(join(dir, 'away'));
    symlinkSync('../away', join(dir, 'repo', 'm'));
    const file = join(dir, 'repo', 'm', 'config.pbtxt');
    expect(() => writeFileAtomic(file, 'new\n', { within: [join(dir, 'repo')] })).toThrow(
      `${join(dir, 'repo', 'm')}, a directory on its path, is a symbolic link to ${join(dir, 'away')}`,
    );
    expect(readdirSync(join(dir, 'away'))).toEqual([]);
    writeFileAtomic(file, 'new\n', { within: [join(dir, 'repo'), join(dir, 'repo', 'm')] });
    expect(readFileSync(join(dir, 'away', 'config.pbtxt'), 'utf8')).toBe('new\n');
  });

  it('keeps the mode, and as root the owner and group', () => {
    const file = join(tempDir(), 'config.pbtxt');
    writeFileSync(file, 'old\n', { mode: 0o640 });
    if (process.getuid?.() === 0) chownSync(file, 65534, 65534);
    writeFileAtomic(file, 'new\n');
    const st = statSync(file);
    expect(st.mode & 0o777).toBe(0o640);
    if (process.getuid?.() === 0) expect([st.uid, st.gid]).toEqual([65534, 65534]);
  });

  it('removes the temporary files a killed run left beside the file, and no others', () => {
    const dir = tempDir();
    const file = join(dir, 'config.pbtxt');
    writeFileSync(file, 'old\n');
    // A pid that is not running (beyond Linux's pid_max), and the pid of this process (a write in flight).
    const stale = '.config.pbtxt.tritonc-99999999-0a1b2c3d.tmp';
    const live = `.config.pbtxt.tritonc-${process.pid}-0a1b2c3d.tmp`;
    const other = '.other.pbtxt.tritonc-99999999-0a1b2c3d.tmp';
    for (const f of [stale, live, other]) writeFileSync(join(dir, f), 'partial');
    writeFileAtomic(file, 'new\n');
    expect(readdirSync(dir).sort()).toEqual([live, other, 'config.pbtxt'].sort());
  });
});

// A real full disk, where the machine lets the test mount one (root, or a user namespace).
const canMount = process.platform === 'linux' && spawnSync('unshare', ['-rm', 'true']).status === 0;
describe.skipIf(!canMount)(`on a real 16 KiB tmpfs${canMount ? '' : ' (skipped: cannot mount a tmpfs here)'}`, () => {
  it('fmt --write of an 11 KB config with 4 KiB free keeps the original and exits 2 "disk full"', () => {
    const dir = tempDir();
    // 11 KB that fmt spreads over more lines, so the formatted file is larger than the space left.
    const ugly = `name:"m"\n${Array.from({ length: 240 }, (_, i) => `parameters{key:"k${i}" value{string_value:"v${i}"}}`).join('\n')}\n`;
    expect(ugly.length).toBeGreaterThan(11_000);
    writeFileSync(join(dir, 'ugly.pbtxt'), ugly);
    // In a mount namespace of its own (gone when it exits): a 16 KiB tmpfs holding the config.
    const script = [
      `mkdir "${dir}/disk" && mount -t tmpfs -o size=16k tmpfs "${dir}/disk" || exit 9`,
      `mkdir "${dir}/disk/m" && cp "${dir}/ugly.pbtxt" "${dir}/disk/m/config.pbtxt" || exit 9`,
      `node "${join(process.cwd(), 'bin', 'tritonc.js')}" fmt --write "${dir}/disk/m/config.pbtxt"; echo "exit=$?"`,
      `cmp "${dir}/ugly.pbtxt" "${dir}/disk/m/config.pbtxt" && echo same`,
      `ls -A "${dir}/disk/m"`,
    ].join('\n');
    const r = spawnSync('unshare', ['-rm', 'sh', '-c', script], { encoding: 'utf8' });
    expect(r.stdout.split('\n')).toEqual(['exit=2', 'same', 'config.pbtxt', '']);
    expect(r.stderr).toBe(`tritonc fmt: ${dir}/disk/m/config.pbtxt: cannot write: disk full (ENOSPC); the file is unchanged\n`);
  });
});

describe('writeNewFile and copyToNewFile (a file new in a directory tritonc made)', () => {
  it('write and copy a new file, with the mode asked', () => {
    const dir = tempDir();
    writeNewFile(join(dir, 'run.sh'), 'echo hi\n', 0o755);
    expect(readFileSync(join(dir, 'run.sh'), 'utf8')).toBe('echo hi\n');
    expect(statSync(join(dir, 'run.sh')).mode & 0o777).toBe(0o755);
    copyToNewFile(join(dir, 'run.sh'), join(dir, 'copy.sh'));
    expect(readFileSync(join(dir, 'copy.sh'), 'utf8')).toBe('echo hi\n');
  });
  it('refuse a dangling link at the path (EEXIST): nothing is created where it leads', () => {
    const dir = tempDir();
    const target = join(dir, 'planted-target');
    symlinkSync(target, join(dir, 'config.pbtxt'));
    writeFileSync(join(dir, 'source'), 'x');
    expect(() => writeNewFile(join(dir, 'config.pbtxt'), 'name: "m"\n')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => copyToNewFile(join(dir, 'source'), join(dir, 'config.pbtxt'))).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(join(dir, 'config.pbtxt')).isSymbolicLink()).toBe(true);
  });
  it('refuse a live link and an existing file, leaving both as they were', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'real'), 'original');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(() => writeNewFile(join(dir, 'link'), 'new')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => writeNewFile(join(dir, 'real'), 'new')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(join(dir, 'real'), 'utf8')).toBe('original');
  });
});
