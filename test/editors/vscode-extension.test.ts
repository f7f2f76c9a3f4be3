// The VS Code extension (editors/vscode) without VS Code, which cannot run here: which tritonc it
// starts, that its manifest selects the files the language server serves, and the packaged .vsix.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findServer } from '../../editors/vscode/src/find-server.js';
import { CONFIG_HEADER, isConfigDocument } from '../../src/lsp/server.js';

const extensionDir = new URL('../../editors/vscode/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'tritonc-vscode-'));
  dirs.push(d);
  return d;
};
const executable = (path: string): string => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
};

describe('findServer', () => {
  it("prefers the project's node_modules/.bin/tritonc over PATH, as npm links it", () => {
    const project = tempDir();
    const pkg = join(project, 'node_modules', 'tritonc', 'bin', 'tritonc.js');
    executable(pkg);
    mkdirSync(join(project, 'node_modules', '.bin'));
    symlinkSync('../tritonc/bin/tritonc.js', join(project, 'node_modules', '.bin', 'tritonc'));
    const global = tempDir();
    executable(join(global, 'tritonc'));
    expect(findServer({ workspaceFolders: [project], pathVariable: global, platform: 'linux' })).toEqual({ command: join(project, 'node_modules', '.bin', 'tritonc'), args: ['lsp', '--stdio'], source: 'workspace' });
  });

  it('falls back to PATH, skipping entries that are not executable files', () => {
    const notExecutable = tempDir();
    writeFileSync(join(notExecutable, 'tritonc'), '');
    const aDirectory = tempDir();
    mkdirSync(join(aDirectory, 'tritonc'));
    const good = tempDir();
    executable(join(good, 'tritonc'));
    const found = findServer({ workspaceFolders: [tempDir()], pathVariable: [notExecutable, '', aDirectory, good].join(':'), platform: 'linux' });
    expect(found).toEqual({ command: join(good, 'tritonc'), args: ['lsp', '--stdio'], source: 'PATH' });
  });

  it('uses the setting first, read from the first workspace folder when relative, and says when it is wrong', () => {
    const project = tempDir();
    executable(join(project, 'tools', 'tritonc'));
    executable(join(project, 'node_modules', '.bin', 'tritonc'));
    expect(findServer({ configured: 'tools/tritonc', workspaceFolders: [project], pathVariable: '', platform: 'linux' })).toMatchObject({ command: join(project, 'tools', 'tritonc'), source: 'setting' });
    const wrong = findServer({ configured: 'tools/missing', workspaceFolders: [project], pathVariable: '', platform: 'linux' });
    expect(wrong).toEqual({ error: expect.stringContaining(`${join(project, 'tools', 'missing')} is not an executable file`) });
  });

  it('finds the .cmd shim npm writes on Windows', () => {
    const project = tempDir();
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(project, 'node_modules', '.bin', 'tritonc.cmd'), '@echo off\n');
    expect(findServer({ workspaceFolders: [project], pathVariable: '', platform: 'win32' })).toMatchObject({ command: join(project, 'node_modules', '.bin', 'tritonc.cmd'), source: 'workspace' });
  });

  it('tells how to install tritonc when there is none', () => {
    expect(findServer({ workspaceFolders: [tempDir()], pathVariable: tempDir(), platform: 'linux' })).toEqual({ error: expect.stringContaining('npm install --save-dev tritonc') });
  });
});

describe('the extension manifest', () => {
  const language = manifest.contributes.languages[0];

  it('selects by file name and header the files the language server serves', () => {
    expect(language.filenames).toEqual(['config.pbtxt']);
    expect(language.filenamePatterns).toEqual(['**/configs/*.pbtxt']);
    expect(isConfigDocument('/r/m/config.pbtxt', '')).toBe(true);
    expect(isConfigDocument('/r/m/configs/h100.pbtxt', '')).toBe(true);
    // VS Code tests firstLine against the first line only; the server's header is the same pattern.
    expect(new RegExp(language.firstLine).source).toBe(CONFIG_HEADER.source);
    expect(isConfigDocument('/r/other.pbtxt', '# proto-message: inference.ModelConfig\nname: "m"')).toBe(true);
    expect(isConfigDocument('/r/other.pbtxt', 'name: "m"')).toBe(false);
  });

  it('gives the grammar to that language and the language client the protocol version of the server', () => {
    expect(manifest.contributes.grammars).toEqual([{ language: language.id, scopeName: 'source.pbtxt.triton', path: './syntaxes/pbtxt.tmLanguage.json' }]);
    expect(JSON.parse(readFileSync(join(extensionDir, manifest.contributes.grammars[0].path), 'utf8')).scopeName).toBe('source.pbtxt.triton');
    const root = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const serverMajor = root.dependencies['vscode-languageserver'].replace(/^\D*/, '').split('.')[0];
    expect(manifest.devDependencies['vscode-languageclient'].split('.')[0]).toBe(serverMajor);
    expect(readFileSync(join(extensionDir, 'src', 'extension.ts'), 'utf8')).toContain(`language: '${language.id}'`);
  });
});

// Packed by .ci/run (cd editors/vscode && npm ci && npm run package) before the tests run.
const vsix = join(extensionDir, 'tritonc-vscode.vsix');
if (!existsSync(vsix) && process.env.CI === 'true') throw new Error(`CI=true but ${vsix} was not packaged`);

describe.skipIf(!existsSync(vsix))('the packaged .vsix', () => {
  it('holds the manifest, the bundle and the grammar, and no sources or node_modules', () => {
    const names = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n');
    for (const name of ['extension.vsixmanifest', 'extension/package.json', 'extension/dist/extension.js', 'extension/syntaxes/pbtxt.tmLanguage.json', 'extension/language-configuration.json'])
      expect(names).toContain(name);
    expect(names.filter((n) => n.startsWith('extension/src/') || n.includes('node_modules'))).toEqual([]);
    const packed = JSON.parse(execFileSync('unzip', ['-p', vsix, 'extension/package.json'], { encoding: 'utf8' }));
    expect(packed.contributes).toEqual(manifest.contributes);
    const bundle = execFileSync('unzip', ['-p', vsix, 'extension/dist/extension.js'], { encoding: 'utf8' });
    // The bundle carries the language client and asks the editor, not node_modules, for `vscode`.
    expect(bundle).toContain('require("vscode")');
    expect(bundle).toMatch(/\["lsp","--stdio"\]/);
  });
});
