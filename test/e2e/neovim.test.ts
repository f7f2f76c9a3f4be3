// A real editor: Debian's Neovim (0.7, headless) starts `tritonc lsp --stdio` with vim.lsp.start_client
// (test/e2e/neovim/drive.lua), receives the diagnostics of a config, applies a quick fix and formats.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFileText } from '../../src/config/format.js';
import { BIN } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const missing = nvim.status === 0 ? undefined : 'nvim is not installed (apt-get install neovim; .ci/run installs it)';
// With CI=true the editor test must run.
if (missing && process.env.CI === 'true') throw new Error(`CI=true but ${missing}`);

describe(`Neovim with tritonc lsp${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it.skipIf(missing !== undefined)('shows the diagnostics, applies the quick fix, formats, and writes the file', { timeout: 60_000 }, async () => {
    const broken = CLASSIFIER_CONFIG.replace('name: "input"', 'name: "inptu"').replace('max_batch_size: 8', 'max_batch_size:   8');
    const repo = await writeRepo({ 'classifier/config.pbtxt': broken, 'classifier/1/model.onnx': CLASSIFIER });
    const out = join(repo, 'nvim-result.json');
    const r = spawnSync('nvim', ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${join(import.meta.dirname, 'neovim', 'drive.lua')}`], {
      encoding: 'utf8',
      timeout: 50_000,
      env: { ...process.env, REPO: repo, TRITONC_BIN: BIN, OUT: out },
    });
    expect(r.status, r.stderr).toBe(0);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as { diagnostics: { code: string; message: string }[]; actions: number; applied?: string };
    expect(seen.diagnostics.map((d) => d.code)).toContain('io-name');
    expect(seen.actions).toBeGreaterThan(0);
    expect(seen.applied).toContain('io-name');
    // The quick fix and then the formatting (what tritonc fmt writes), saved by the editor.
    const formatted = formatFileText(CLASSIFIER_CONFIG);
    expect(formatted.status).toBe('formatted');
    expect(readFileSync(join(repo, 'classifier/config.pbtxt'), 'utf8')).toBe((formatted as { output: string }).output);
  });
});
