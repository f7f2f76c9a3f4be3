// Lints one text twice: saved at a path, and laid over the disk there as unsaved text.
import { rmSync, writeFileSync } from 'node:fs';
import type { Diagnostic } from '../../src/diagnostics.js';
import { lintSync, lintText } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';

/** What a finding says and where, without the object identity of its data. */
export const shown = (d: Diagnostic): string =>
  JSON.stringify([d.file, d.ruleId, d.messageId, d.severity, d.range, d.message, d.fix ?? null], (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** The findings of `text` saved at `file`, and of `text` laid over `file` while the disk holds `onDisk` there (undefined: no file). */
export function diskAndOverlay(file: string, text: string, onDisk: string | undefined): { disk: string[]; overlay: string[] } {
  writeFileSync(file, text);
  const disk = lintSync([file], { rules: RULES })
    .results.flatMap((r) => r.diagnostics)
    .map(shown);
  if (onDisk === undefined) rmSync(file);
  else writeFileSync(file, onDisk);
  const overlay = lintText(text, { file, rules: RULES })
    .results.flatMap((r) => r.diagnostics)
    .map(shown);
  return { disk, overlay };
}
