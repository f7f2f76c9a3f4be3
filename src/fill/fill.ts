// `tritonc fill`: fill_template.py's substitution, made strict. Same output where the script
// succeeds; but a key the template has no placeholder for, or a placeholder still unfilled, is an
// error naming it (the script asserts only that the key occurs somewhere in the text, and
// safe_substitute leaves an unfilled placeholder in place for Triton to fail on, or for the backend
// to replace with its default).
import { didYouMean } from '../pbtxt/suggest.js';
import { positionAt } from '../util/text-position.js';
import { placeholderNames, safeSubstitute } from './python-template.js';
import type { Substitution } from './substitutions.js';

/**
 * What fill_template.py fills in when the substitutions do not (its sub_dict starts with these two,
 * tools/fill_template.py main): the queue of dynamic batching, unlimited and without delay.
 */
export const FILL_TEMPLATE_DEFAULTS: ReadonlyMap<string, string> = new Map([
  ['max_queue_size', '0'],
  ['max_queue_delay_microseconds', '0'],
]);

export interface Placeholder {
  name: string;
  line: number;
  column: number;
}

export interface FillResult {
  text: string;
  /** Keys given that the template has no placeholder for, with the closest placeholder. */
  unknownKeys: { key: string; suggestion?: string }[];
  /** Placeholders no substitution fills, where each occurs. */
  unfilled: Placeholder[];
  /** Placeholders filled from fill_template.py's defaults, not from the substitutions. */
  defaulted: { name: string; value: string }[];
}

export function fillTemplate(template: string, substitutions: readonly Substitution[]): FillResult {
  const names = placeholderNames(template);
  const present = new Set(names);
  const mapping = new Map<string, string>();
  const defaulted: FillResult['defaulted'] = [];
  for (const [name, value] of FILL_TEMPLATE_DEFAULTS) mapping.set(name, value);
  for (const s of substitutions) mapping.set(s.key, s.value);
  for (const [name, value] of FILL_TEMPLATE_DEFAULTS) if (present.has(name) && !substitutions.some((s) => s.key === name)) defaulted.push({ name, value });
  const unknownKeys = [...new Set(substitutions.map((s) => s.key))]
    .filter((k) => !present.has(k))
    .map((key) => {
      const suggestion = didYouMean(key, names);
      return suggestion ? { key, suggestion } : { key };
    });
  const { text, left } = safeSubstitute(template, mapping);
  // A placeholder in a comment (a parameter the template ships commented out) is no value Triton reads.
  const comments = commentRanges(template);
  const unfilled = left
    .filter((t) => !comments.some(([a, b]) => t.start >= a && t.start < b))
    .map((t) => {
      const { line, column } = positionAt(template, t.start);
      return { name: t.name!, line, column };
    });
  return { text, unknownKeys, unfilled, defaulted };
}

/** Where the text format's `#` comments are: from `#` outside a string to the end of its line. */
export function commentRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote || c === '\n') quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') {
      const end = text.indexOf('\n', i);
      ranges.push([i, end === -1 ? text.length : end]);
      i = end === -1 ? text.length : end;
    }
  }
  return ranges;
}
