// Setting fields of a config in its text, as a person would: a value written once is replaced where it
// is; a field that is not written is added inside its message (and the messages it needs, created);
// comments, the author's spellings and the layout of the other lines stay; and the result is checked: it parses, every change holds, and nothing else of the value moved (the same check as
// `lint --fix`). `tune plan` writes its variants with it, `tune pick --write` the winner.
import type { PathSegment, TextEdit } from '../diagnostics.js';
import { applyEdits, removalOf } from './text-edits.js';
import { parseConfig, hasErrors } from './document.js';
import { onSameBranch, valueDifferences } from './value-diff.js';
import { valueAt } from './value-path.js';

export interface FieldChange {
  path: PathSegment[];
  /** The value as the text format writes it (`100`, `[ 4, 8 ]`, `"name"`); undefined removes the field. */
  text: string | undefined;
  /** The parsed value the change must leave at `path` (undefined: nothing there). */
  value: unknown;
}

export type SetFieldsResult = { ok: true; text: string } | { ok: false; problem: string };

/** The text of `path` (below an existing message) written from nothing: `a { b [ { c: 1 } ] }`. */
function nested(path: readonly PathSegment[], text: string): string {
  const [head, ...rest] = path;
  if (typeof head !== 'string') throw new Error(`cannot write a list element at ${path.join('.')}`);
  if (!rest.length) return `${head}: ${text}`;
  if (typeof rest[0] === 'number') {
    if (rest[0] !== 0) throw new Error(`cannot create element ${rest[0]} of ${head}`);
    return `${head} [ { ${nested(rest.slice(1), text)} } ]`;
  }
  return `${head} { ${nested(rest, text)} }`;
}

function editFor(source: string, file: string, change: FieldChange): TextEdit | undefined {
  const doc = parseConfig(source, file);
  const at = doc.locateExact(change.path);
  if (change.text === undefined) return at?.field ? removalOf(source, at.field) : undefined;
  if (at?.field && at.value !== at.name) return { range: at.value, text: change.text };
  // A repeated field written once (a [list]): the whole field.
  const last = change.path[change.path.length - 1];
  if (at?.field && typeof last === 'string') return { range: at.field, text: `${last}: ${change.text}` };
  // Not written: add it inside the deepest message on its path that is written as one block.
  for (let n = change.path.length - 1; n >= 0; n--) {
    const parent = change.path.slice(0, n);
    const rest = change.path.slice(n);
    if (typeof rest[0] === 'number') continue;
    if (n === 0) {
      const end = doc.rangeOf([]).end;
      const eof = { line: end.line, column: end.column, offset: source.length };
      return { range: { start: eof, end: eof }, text: `${source.endsWith('\n') || source === '' ? '' : '\n'}${nested(rest, change.text)}\n` };
    }
    const loc = doc.locateExact(parent);
    if (!loc) continue;
    const block = loc.value;
    const close = source[block.end.offset - 1];
    if (close !== '}' && close !== '>') continue;
    const closeAt = block.end.offset - 1;
    const lineStart = source.lastIndexOf('\n', closeAt - 1) + 1;
    const indent = source.slice(lineStart, closeAt);
    if (/^[ \t]*$/.test(indent)) {
      // The closing brace on its own line: the new field on the line before it, indented one step more.
      const pos = { line: block.end.line, column: 1, offset: lineStart };
      return { range: { start: pos, end: pos }, text: `${indent}  ${nested(rest, change.text)}\n` };
    }
    const pos = { ...block.end, offset: closeAt, column: block.end.column - 1 };
    return { range: { start: pos, end: pos }, text: `${source[closeAt - 1] === ' ' ? '' : ' '}${nested(rest, change.text)} ` };
  }
  return undefined;
}

export function setFields(source: string, file: string, changes: readonly FieldChange[]): SetFieldsResult {
  const before = parseConfig(source, file);
  if (hasErrors(before.diagnostics)) return { ok: false, problem: `${file} does not parse: ${before.diagnostics[0]!.message}` };
  let text = source;
  for (const change of changes) {
    let edit: TextEdit | undefined;
    try {
      edit = editFor(text, file, change);
    } catch (e) {
      return { ok: false, problem: (e as Error).message };
    }
    if (!edit) {
      if (change.text === undefined) continue;
      return { ok: false, problem: `cannot tell where to write ${change.path.join('.')} in ${file} (it is written in more than one place)` };
    }
    text = applyEdits(text, [edit]);
  }
  const after = parseConfig(text, file);
  if (hasErrors(after.diagnostics)) return { ok: false, problem: `the edited ${file} would not parse: ${after.diagnostics[0]!.message}` };
  for (const c of changes) {
    if (valueDifferences(valueAt(after.value, c.path), c.value).length)
      return { ok: false, problem: `${c.path.join('.')} did not come out as intended in ${file}` };
  }
  const stray = valueDifferences(before.value, after.value).filter((d) => !changes.some((c) => onSameBranch(d, c.path)));
  if (stray.length) return { ok: false, problem: `editing ${file} would also change ${stray.map((p) => p.join('.')).join(', ')}` };
  return { ok: true, text };
}
