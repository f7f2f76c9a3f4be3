// The VS Code extension (editors/vscode) without VS Code, which cannot run here: which tritonc it
// starts, that its manifest selects the files the language server serves and carries what the
// Marketplace and Open VSX read, the README's pictures, and the packaged .vsix.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findServer } from '../../editors/vscode/src/find-server.js';
import { CONFIG_HEADER, isConfigDocument } from '../../src/lsp/server.js';

const extensionDir = new URL('../../editors/vscode/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));

// A PNG's signature and the width and height of its IHDR chunk (PNG spec, 5.2 and 11.2.2).
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const pngSize = (bytes: Buffer): { width: number; height: number } | undefined =>
  bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString('latin1', 12, 16) === 'IHDR'
    ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
    : undefined;
// Markdown images, ![alt](target): the README's pictures.
const readmeImages = (markdown: string): { alt: string; target: string }[] =>
  [...markdown.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map((m) => ({ alt: m[1] ?? '', target: m[2] ?? '' }));
const MAX_PICTURE_BYTES = 100_000;

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
    expect(findServer({ workspaceFolders: [project], pathVariable: global, platform: 'linux' })).toEqual({
      command: join(project, 'node_modules', '.bin', 'tritonc'),
      args: ['lsp', '--stdio'],
      source: 'workspace',
    });
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
    expect(findServer({ configured: 'tools/tritonc', workspaceFolders: [project], pathVariable: '', platform: 'linux' })).toMatchObject({
      command: join(project, 'tools', 'tritonc'),
      source: 'setting',
    });
    const wrong = findServer({ configured: 'tools/missing', workspaceFolders: [project], pathVariable: '', platform: 'linux' });
    expect(wrong).toEqual({ error: expect.stringContaining(`${join(project, 'tools', 'missing')} is not an executable file`) });
  });

  it('finds the .cmd shim npm writes on Windows', () => {
    const project = tempDir();
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(project, 'node_modules', '.bin', 'tritonc.cmd'), '@echo off\n');
    expect(findServer({ workspaceFolders: [project], pathVariable: '', platform: 'win32' })).toMatchObject({
      command: join(project, 'node_modules', '.bin', 'tritonc.cmd'),
      source: 'workspace',
    });
  });

  it('tells how to install tritonc when there is none', () => {
    expect(findServer({ workspaceFolders: [tempDir()], pathVariable: tempDir(), platform: 'linux' })).toEqual({
      error: expect.stringContaining('npm install --save-dev tritonc'),
    });
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

// What the registries check of a manifest, from eclipse/openvsx at 9cf4058d (ovsx and the server's
// check of an upload) and from @vscode/vsce 3.9.2 (out/package.js, out/validation.js).
const OPENVSX_NAME = /^[\w\-+$~]+$/; // server ExtensionValidator.java:39 namePattern, for namespace and name
const isOpenVsxUrl = (value: string): boolean => {
  // ExtensionValidator.java isInvalidURL: "git+" is dropped, then java.net.URL must parse it and an
  // http(s) URL must have a host.
  try {
    const url = new URL(value.replace(/^git\+/, ''));
    return !/^https?:$/.test(url.protocol) || url.host !== '';
  } catch {
    return false;
  }
};
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

describe('the manifest for the Marketplace and Open VSX', () => {
  it('has the fields ovsx publish requires, valid as the Open VSX server validates them', () => {
    // cli/src/util.ts:117 validateManifest: publisher, name, version; the publisher is the namespace.
    expect(manifest.publisher).toMatch(OPENVSX_NAME);
    expect(manifest.name).toMatch(OPENVSX_NAME);
    expect(manifest.version).toMatch(SEMVER);
    // cli/src/check-license.ts isLicenseOk: a license id (open-vsx.org requires one), and vsce's
    // LicenseProcessor (out/package.js:741) looks for the LICENSE file the id names.
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(extensionDir, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    // ExtensionValidator.java:111 validateMetadata: the links are URLs, the banner's theme one of two,
    // its colour at most 16 characters, qna "marketplace", false or a URL.
    for (const url of [manifest.repository.url, manifest.homepage, manifest.bugs.url]) expect(isOpenVsxUrl(url), url).toBe(true);
    expect(['dark', 'light']).toContain(manifest.galleryBanner.theme);
    expect(manifest.galleryBanner.color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.qna === false || manifest.qna === 'marketplace' || isOpenVsxUrl(manifest.qna)).toBe(true);
    expect(manifest.keywords.length).toBeGreaterThan(0);
    expect(manifest.keywords.length).toBeLessThanOrEqual(30); // the Marketplace's bound on tags
    // vsce validateVSCodeTypesCompatibility: the API typed against is no newer than engines.vscode.
    expect(manifest.engines.vscode).toBe(`^${manifest.devDependencies['@types/vscode']}`);
  });

  it('has a 128x128 PNG icon (vsce refuses an SVG one) and a changelog entry for its version', () => {
    expect(manifest.icon).toMatch(/\.png$/);
    expect(pngSize(readFileSync(join(extensionDir, manifest.icon)))).toEqual({ width: 128, height: 128 });
    const changelog = readFileSync(join(extensionDir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(new RegExp(`^## ${manifest.version.replaceAll('.', '\\.')}\\b`, 'm'));
  });
});

describe("the README's pictures", () => {
  const readme = readFileSync(join(extensionDir, 'README.md'), 'utf8');
  const images = readmeImages(readme);

  it('shows the diagnostics, the hover and the quick fix, each a described PNG under 100 KB in the package directory', () => {
    expect(images.map((i) => i.target)).toEqual(expect.arrayContaining(['images/diagnostics.png', 'images/hover.png', 'images/quick-fix.png']));
    for (const { alt, target } of images) {
      // Relative, so vsce rewrites it to the repository's copy (--baseImagesUrl in the package script).
      expect(target).toMatch(/^images\/[\w.-]+\.png$/);
      expect(alt.trim(), target).not.toBe('');
      const bytes = readFileSync(join(extensionDir, target));
      expect(bytes.length, target).toBeLessThan(MAX_PICTURE_BYTES);
      const size = pngSize(bytes);
      expect(size, `${target} is not a PNG`).toBeDefined();
      expect(size!.width).toBeGreaterThan(200);
    }
  });

  it('says they come from Neovim and names the script that takes them, which exists', () => {
    expect(readme).toMatch(/not from VS Code/);
    expect(readme).toContain('scripts/screenshots.sh');
    expect(existsSync(join(extensionDir, 'scripts', 'screenshots.sh'))).toBe(true);
  });
});

// Packed by .ci/run (cd editors/vscode && npm ci && npm run package) before the tests run.
const vsix = join(extensionDir, 'tritonc-vscode.vsix');
if (!existsSync(vsix) && process.env.CI === 'true') throw new Error(`CI=true but ${vsix} was not packaged`);

describe.skipIf(!existsSync(vsix))('the packaged .vsix', () => {
  it('holds the manifest, the bundle and the grammar, and no sources or node_modules', () => {
    const names = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n');
    for (const name of [
      'extension.vsixmanifest',
      'extension/package.json',
      'extension/dist/extension.js',
      'extension/syntaxes/pbtxt.tmLanguage.json',
      'extension/language-configuration.json',
    ])
      expect(names).toContain(name);
    expect(names.filter((n) => n.startsWith('extension/src/') || n.includes('node_modules'))).toEqual([]);
    const packed = JSON.parse(execFileSync('unzip', ['-p', vsix, 'extension/package.json'], { encoding: 'utf8' }));
    expect(packed.contributes).toEqual(manifest.contributes);
    const bundle = execFileSync('unzip', ['-p', vsix, 'extension/dist/extension.js'], { encoding: 'utf8' });
    // The bundle carries the language client and asks the editor, not node_modules, for `vscode`.
    expect(bundle).toContain('require("vscode")');
    expect(bundle).toMatch(/\["lsp","--stdio"\]/);
  });

  it('holds the icon, the changelog, the licence and every README picture, and the manifest the registries read', () => {
    const names = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n');
    for (const name of [`extension/${manifest.icon}`, 'extension/changelog.md', 'extension/LICENSE.txt']) expect(names).toContain(name);
    expect(names.filter((n) => n.startsWith('extension/scripts/') || n.endsWith('.svg'))).toEqual([]);
    const packedIcon = execFileSync('unzip', ['-p', vsix, `extension/${manifest.icon}`]);
    expect(packedIcon.equals(readFileSync(join(extensionDir, manifest.icon)))).toBe(true);

    // The registries show the packed README, whose relative pictures vsce rewrote to absolute URLs:
    // each must be the repository's copy of a file in editors/vscode (repository.directory), not of
    // the repository's root, where vsce points them unless told.
    const repo = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    const base = `${repo}/raw/HEAD/${manifest.repository.directory}/`;
    const packedImages = readmeImages(execFileSync('unzip', ['-p', vsix, 'extension/readme.md'], { encoding: 'utf8' }));
    expect(packedImages.length).toBe(readmeImages(readFileSync(join(extensionDir, 'README.md'), 'utf8')).length);
    for (const { target } of packedImages) {
      expect(target.startsWith(base), target).toBe(true);
      const relative = target.slice(base.length);
      expect(existsSync(join(extensionDir, relative)), relative).toBe(true);
      expect(names).toContain(`extension/${relative}`);
    }

    // Open VSX reads these from extension.vsixmanifest (server ExtensionProcessor.java:176-200).
    const vsixManifest = execFileSync('unzip', ['-p', vsix, 'extension.vsixmanifest'], { encoding: 'utf8' });
    const property = (id: string): string | undefined => new RegExp(`<Property Id="${id.replaceAll('.', '\\.')}" Value="([^"]*)"`).exec(vsixManifest)?.[1];
    expect(vsixManifest).toContain(`<Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version}" Publisher="${manifest.publisher}" />`);
    expect(vsixManifest).toContain(`<Icon>extension/${manifest.icon}</Icon>`);
    expect(vsixManifest).toContain('Type="Microsoft.VisualStudio.Services.Content.Changelog" Path="extension/changelog.md"');
    expect(vsixManifest).toContain('<License>extension/LICENSE.txt</License>');
    for (const id of ['Links.Source', 'Links.Learn', 'Links.Support'])
      expect(isOpenVsxUrl(property(`Microsoft.VisualStudio.Services.${id}`) ?? ''), id).toBe(true);
    expect(property('Microsoft.VisualStudio.Services.Branding.Color')).toBe(manifest.galleryBanner.color);
    expect(property('Microsoft.VisualStudio.Services.Branding.Theme')).toBe(manifest.galleryBanner.theme);
    expect(property('Microsoft.VisualStudio.Code.Engine')).toBe(manifest.engines.vscode);
  });
});
