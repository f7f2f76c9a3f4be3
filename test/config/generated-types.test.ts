// src/config/model-config.ts is generated from schemas/model_config.proto: it must not drift.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('the ModelConfig types match schemas/model_config.proto', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const r = spawnSync(process.execPath, ['scripts/gen-config-types.mjs', '--check'], { cwd: root, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});
