// Shared by the ONNX tests: a temp dir per test file with every fixture built into it.

import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/temp.js';
import { FIXTURE_NAMES, buildFixture, type FixtureName } from '../../fixtures/onnx/index.js';

export function makeTempDir(prefix: string): string {
  return tempDir(`tritonc-${prefix}-`);
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Builds every fixture into `dir`; returns name -> model path. */
export async function buildAllFixtures(dir: string): Promise<Record<FixtureName, string>> {
  const entries = await Promise.all(FIXTURE_NAMES.map(async (name) => [name, await buildFixture(name, dir)] as const));
  return Object.fromEntries(entries) as Record<FixtureName, string>;
}

/** Writes bytes to `<dir>/<name>` and returns the path. */
export function writeBytes(dir: string, name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}
