// SHA-256 in hex, with node:crypto loaded on first use: loading it costs some 7 ms, and most runs
// hash nothing (a generated config's checksum, a SARIF fingerprint).
import { createRequire } from 'node:module';

let createHash: typeof import('node:crypto').createHash | undefined;

export function sha256Hex(text: string): string {
  createHash ??= (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash;
  return createHash('sha256').update(text).digest('hex');
}
