// A temporary directory for native code that litters the temp dir: onnxruntime-node 1.30 writes
// `.ses` and an empty `mat-debug-<pid>.log` into $TMPDIR whenever a session is created, and never
// removes them. While entered, TMPDIR (and TMP, TEMP) point at a private directory that is
// removed, with whatever was written there, on leaving.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const VARS = ['TMPDIR', 'TMP', 'TEMP'] as const;

/** Points the temp-dir variables at a new private directory; the function returned undoes it. */
export function enterPrivateTemp(prefix = 'tritonc-'): () => void {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const saved = VARS.map((v) => [v, process.env[v]] as const);
  for (const v of VARS) process.env[v] = dir;
  return () => {
    for (const [v, value] of saved) {
      if (value === undefined) delete process.env[v];
      else process.env[v] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

export async function withPrivateTemp<T>(fn: () => Promise<T>, prefix?: string): Promise<T> {
  const leave = enterPrivateTemp(prefix);
  try {
    return await fn();
  } finally {
    leave();
  }
}
