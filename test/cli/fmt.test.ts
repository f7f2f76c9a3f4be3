import { mkdirSync, readFileSync, statSync, writeFileSync, chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, runBin, tempDir } from '../support/cli.js';
import { fillDiskAfter, restoreDisk } from '../support/disk.js';

const UGLY = 'name:"m"\ninput{name:"x" dims:3 dims:4} # the input\n';
/** UGLY formatted as fmt does by default: layout only, the spellings kept. */
const PRETTY = 'name: "m"\ninput {\n  name: "x"\n  dims: 3\n  dims: 4\n}  # the input\n';
/** UGLY in the canonical style (--canonical, or "fmt": { "style": "canonical" }). */
const CANONICAL = 'name: "m"\ninput [\n  {\n    name: "x"\n    dims: [ 3, 4 ]\n  }  # the input\n]\n';

function repo(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('tritonc fmt', () => {
  it('prints the formatted file to stdout by default', async () => {
    const dir = repo({ 'm/config.pbtxt': UGLY });
    const r = await cli(['fmt', 'm/config.pbtxt'], { cwd: dir });
    expect(r).toEqual({ code: 0, stdout: PRETTY, stderr: '' });
    expect(readFileSync(join(dir, 'm/config.pbtxt'), 'utf8')).toBe(UGLY);
  });

  it("--canonical, or the settings file's fmt.style, rewrites to the canonical spelling", async () => {
    const dir = repo({ 'm/config.pbtxt': UGLY, 'team/tritonc.config.json': '{ "fmt": { "style": "canonical" } }', 'team/m/config.pbtxt': UGLY });
    expect((await cli(['fmt', '--canonical', 'm/config.pbtxt'], { cwd: dir })).stdout).toBe(CANONICAL);
    expect((await cli(['fmt', 'team/m/config.pbtxt'], { cwd: dir })).stdout).toBe(CANONICAL);
    expect((await cli(['fmt', '--no-canonical', 'team/m/config.pbtxt'], { cwd: dir })).stdout).toBe(PRETTY);
  });

  it('--check lists the files that would change and exits 1; exits 0 when all are formatted', async () => {
    const dir = repo({ 'a/config.pbtxt': UGLY, 'b/config.pbtxt': PRETTY, 'b/configs/h100.pbtxt': UGLY, 'b/1/notes.pbtxt': UGLY });
    const r = await cli(['fmt', '--check', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('a/config.pbtxt\nb/configs/h100.pbtxt\n');
    expect(r.stderr).toContain('2 files would be reformatted; run tritonc fmt --write .');
    expect((await cli(['fmt', '--check', 'b/config.pbtxt'], { cwd: dir })).code).toBe(0);
  });

  it('--write rewrites changed files in place, keeps their mode, leaves no temp files', async () => {
    const dir = repo({ 'a/config.pbtxt': UGLY, 'b/config.pbtxt': PRETTY });
    chmodSync(join(dir, 'a/config.pbtxt'), 0o600);
    const r = await cli(['fmt', '--write', '.'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stdout: 'formatted a/config.pbtxt\n' });
    expect(readFileSync(join(dir, 'a/config.pbtxt'), 'utf8')).toBe(PRETTY);
    expect(statSync(join(dir, 'a/config.pbtxt')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'a'))).toEqual(['config.pbtxt']);
    expect((await cli(['fmt', '--check', '.'], { cwd: dir })).code).toBe(0);
  });

  it('reports syntax errors with file:line:column, exits 2, and never rewrites the file', async () => {
    const bad = 'name: "m"\nmax_batch_size: eight\n';
    const dir = repo({ 'm/config.pbtxt': bad });
    const r = await cli(['fmt', '--write', 'm'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('m/config.pbtxt:2:17: error: Expected integer for field "max_batch_size" (int32), got: "eight" [syntax]');
    expect(readFileSync(join(dir, 'm/config.pbtxt'), 'utf8')).toBe(bad);
  });

  it("drops a UTF-8 BOM (Triton's parser refuses it) and keeps CRLF line ends", async () => {
    const dir = repo({ 'a/config.pbtxt': `\uFEFF${PRETTY}`, 'b/config.pbtxt': UGLY.replace(/\n/g, '\r\n'), 'c/config.pbtxt': PRETTY.replace(/\n/g, '\r\n') });
    expect(await cli(['fmt', '--check', '.'], { cwd: dir })).toMatchObject({ code: 1, stdout: 'a/config.pbtxt\nb/config.pbtxt\n' });
    expect(await cli(['fmt', '--write', '.'], { cwd: dir })).toMatchObject({ code: 0, stdout: 'formatted a/config.pbtxt\nformatted b/config.pbtxt\n' });
    expect(readFileSync(join(dir, 'a/config.pbtxt'), 'utf8')).toBe(PRETTY);
    expect(readFileSync(join(dir, 'b/config.pbtxt'), 'utf8')).toBe(PRETTY.replace(/\n/g, '\r\n'));
    expect(readFileSync(join(dir, 'c/config.pbtxt'), 'utf8')).toBe(PRETTY.replace(/\n/g, '\r\n'));
  });

  it('--write on a full disk: exit 2 "disk full", the file unchanged, no temporary file left', async () => {
    const ugly = `name:"m"\n${Array.from({ length: 240 }, (_, i) => `parameters{key:"k${i}" value{string_value:"v${i}"}}`).join('\n')}\n`;
    const dir = repo({ 'm/config.pbtxt': ugly });
    fillDiskAfter(4096);
    try {
      const r = await cli(['fmt', '--write', 'm/config.pbtxt'], { cwd: dir });
      expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'tritonc fmt: m/config.pbtxt: cannot write: disk full (ENOSPC); the file is unchanged\n' });
    } finally {
      restoreDisk();
    }
    expect(readFileSync(join(dir, 'm/config.pbtxt'), 'utf8')).toBe(ugly);
    expect(readdirSync(join(dir, 'm'))).toEqual(['config.pbtxt']);
  });

  it('leaves "# tritonc-fmt: off" files alone', async () => {
    const off = '# tritonc-fmt: off\nname:"m"\n';
    const dir = repo({ 'm/config.pbtxt': off });
    expect((await cli(['fmt', '--check', 'm'], { cwd: dir })).code).toBe(0);
    await cli(['fmt', '--write', 'm'], { cwd: dir });
    expect(readFileSync(join(dir, 'm/config.pbtxt'), 'utf8')).toBe(off);
  });

  it('formats stdin, naming it with --stdin-filepath in messages', async () => {
    expect(await cli(['fmt'], { stdin: UGLY })).toEqual({ code: 0, stdout: PRETTY, stderr: '' });
    const r = await cli(['fmt', '--stdin-filepath', 'models/x/config.pbtxt'], { stdin: 'name: 1' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^models\/x\/config.pbtxt:1:7: error: Expected string/);
    expect((await cli(['fmt', '--check', '-'], { stdin: UGLY })).code).toBe(1);
  });

  it('exits 2 with a plain message for a missing path, a wrong flag, or --check with --write', async () => {
    const dir = repo({});
    expect(await cli(['fmt', 'nope'], { cwd: dir })).toMatchObject({ code: 2, stderr: 'tritonc fmt: nope: no such file or directory\n' });
    expect((await cli(['fmt', '--chek', '.'], { cwd: dir })).stderr).toContain('Unknown argument: chek');
    expect((await cli(['fmt', '--check', '--write', '.'], { cwd: dir })).code).toBe(2);
    expect((await cli(['fmt', '.'], { cwd: dir })).stderr).toContain('no config.pbtxt or configs/*.pbtxt found');
  });

  it('works as a real process from bin/tritonc.js', () => {
    const dir = repo({ 'm/config.pbtxt': UGLY });
    const r = runBin(['fmt', '--check', 'm'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('m/config.pbtxt\n');
    expect(runBin(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const bad = runBin(['fmt', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
