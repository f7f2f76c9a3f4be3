// Runs Google's Python text_format (the reference implementation) over many texts in one process.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./reference.py', import.meta.url));
const PROTO = fileURLToPath(new URL('../../schemas/model_config.proto', import.meta.url));
/** Debian's python3, which has python3-protobuf (a pyenv python3 on PATH may not). */
const PYTHON = process.env.TRITONC_REFERENCE_PYTHON ?? '/usr/bin/python3';

export type ReferenceAnswer = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export function referenceAvailable(): { ok: true } | { ok: false; reason: string } {
  if (!existsSync(PYTHON)) return { ok: false, reason: `${PYTHON} not found (install python3-protobuf)` };
  const probe = spawnSync(PYTHON, ['-c', 'import google.protobuf'], { encoding: 'utf8' });
  if (probe.status !== 0) return { ok: false, reason: 'python3-protobuf is not installed' };
  const protoc = spawnSync('protoc', ['--version'], { encoding: 'utf8' });
  if (protoc.status !== 0) return { ok: false, reason: 'protoc is not installed (protobuf-compiler)' };
  return { ok: true };
}

export function parseWithReference(texts: string[]): ReferenceAnswer[] {
  const input = texts.map((text, id) => JSON.stringify({ id, text })).join('\n') + '\n';
  const r = spawnSync(PYTHON, [SCRIPT, PROTO], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`reference parser failed: ${r.stderr}`);
  const answers: ReferenceAnswer[] = [];
  for (const line of r.stdout.trim().split('\n')) {
    if (!line) continue;
    const a = JSON.parse(line) as { id: number } & ReferenceAnswer;
    answers[a.id] = a.ok ? { ok: true, value: a.value } : { ok: false, error: a.error };
  }
  return answers;
}
