// Prints a syntax tree in tritonc's canonical layout, the one Triton's own docs use:
//
//   input [
//     {
//       name: "input"
//       dims: [ 3, 224, 224 ]
//       reshape { shape: [ ] }
//     }
//   ]
//
// Canonically, scalars print from their typed values (so `0x10` becomes `16` and `True` becomes
// `true`); with `preserve`, the layout-only style, every token prints as the author wrote it (scalar
// spellings, a colon before `{`, `<...>`, `,` and `;` after fields), and only indentation, spacing and
// line breaks change. Small messages print on one line, and every comment prints where it was
// attached. The formatter and the value printer both end here.
import type { SchemaField } from './descriptor.js';
import type { Comment, DocumentNode, ElementNode, FieldNode, ListNode, MessageNode, ScalarNode } from './ast.js';
import { formatFloat, quoteString } from './scalars.js';

const INDENT = '  ';
/** Lines that would be longer than this print block-style instead of inline. */
const MAX_WIDTH = 100;

/** How the printer spells what the author had a choice about. */
export interface PrintStyle {
  /** Keep the author's spellings (layout-only formatting); default: the canonical ones. */
  preserve?: boolean;
}

let style: PrintStyle = {};

/**
 * Where the printer writes: lines, the last of which may still grow (a `,`, a separator, a trailing
 * comment). Complete lines are joined into chunks as they come, so a 3,000,000-element list holds
 * its text, not a string and an array slot per line at each level of nesting.
 */
class Lines {
  private readonly chunks: string[] = [];
  private lines: string[] = [];
  /** Lines written so far. */
  count = 0;

  push(line: string): void {
    if (this.lines.length >= 4096) {
      // All but the last, which may still grow.
      const last = this.lines.pop()!;
      this.chunks.push(this.lines.join('\n'));
      this.lines = [last];
    }
    this.lines.push(line);
    this.count++;
  }

  /** Appends `text` to the last line written. */
  extend(text: string): void {
    this.lines[this.lines.length - 1] += text;
  }

  /** The text: every line ended by a line break; empty when there are none. */
  text(): string {
    if (!this.count) return '';
    this.chunks.push(this.lines.join('\n'));
    this.lines = [];
    const out = `${this.chunks.join('\n')}\n`;
    this.chunks.length = 0;
    return out;
  }
}

export function printTree(doc: DocumentNode, options: PrintStyle = {}): string {
  const previous = style;
  style = options;
  try {
    return printDocument(doc);
  } finally {
    style = previous;
  }
}

function printDocument(doc: DocumentNode): string {
  const out = new Lines();
  printFields(doc.fields, '', out);
  printDangling(doc.dangling, '', out, doc.fields.length > 0);
  return out.text();
}

/**
 * printTree of a document whose top-level fields come one at a time (parser.ts parseText's `onField`): `parse`
 * hands each to `emit` as it is parsed and returns the comments after the last; no tree is held.
 */
export function printEach(parse: (emit: (f: FieldNode) => void) => Comment[], options: PrintStyle = {}): string {
  const previous = style;
  style = options;
  try {
    const out = new Lines();
    let i = 0;
    const dangling = parse((f) => printField(f, i++, '', out));
    printDangling(dangling, '', out, i > 0);
    return out.text();
  } finally {
    style = previous;
  }
}

function printFields(fields: FieldNode[], indent: string, out: Lines): void {
  fields.forEach((f, i) => printField(f, i, indent, out));
}

function printField(f: FieldNode, i: number, indent: string, out: Lines): void {
  if (i > 0 && f.blankLineBefore) out.push('');
  printLeading(f.leading, indent, out);
  if (f.leading.length && f.blankLineAfterComments) out.push('');
  fieldLines(f, indent, out);
  if (style.preserve && f.separator) out.extend(f.separator);
  if (f.trailing) out.extend(`  ${commentText(f.trailing)}`);
}

function printLeading(comments: Comment[], indent: string, out: Lines): void {
  comments.forEach((c, i) => {
    if (i > 0 && c.newlinesBefore >= 2) out.push('');
    out.push(indent + commentText(c));
  });
}

function printDangling(comments: Comment[], indent: string, out: Lines, afterContent: boolean): void {
  comments.forEach((c, i) => {
    if ((i > 0 || afterContent) && c.newlinesBefore >= 2) out.push('');
    out.push(indent + commentText(c));
  });
}

const commentText = (c: Comment): string => c.text.trimEnd();

/** A message-valued field's name: with its colon where the author wrote one (`reshape: { ... }`). */
const messageHead = (f: FieldNode): string => (style.preserve && f.colon ? `${f.name}:` : f.name);

const braces = (m: MessageNode): [string, string] => (style.preserve && m.angle ? ['<', '>'] : ['{', '}']);

/** Writes a field's name and value (without its separator and trailing comment). */
function fieldLines(f: FieldNode, indent: string, out: Lines): void {
  const v = f.value;
  if (v.kind === 'scalar') return out.push(`${indent}${f.name}: ${scalarText(v, f.field)}`);
  if (v.kind === 'message') {
    const head = messageHead(f);
    const width = MAX_WIDTH - indent.length - head.length - 1;
    const inline = inlineMessage(v, f.field, width);
    if (inline !== undefined && inline.length <= width) return out.push(`${indent}${head} ${inline}`);
    return blockMessage(`${indent}${head} `, v, indent, out);
  }
  listLines(f, v, indent, out);
}

function listLines(f: FieldNode, list: ListNode, indent: string, out: Lines): void {
  const scalars = list.elements.every((e) => e.value.kind === 'scalar');
  // Layout only: the colon as written (an empty list has no elements to tell scalar from message by).
  const head = style.preserve ? `${indent}${f.colon ? `${f.name}:` : f.name} ` : scalars ? `${indent}${f.name}: ` : `${indent}${f.name} `;
  if (scalars) {
    const inline = inlineList(list, f.field, MAX_WIDTH - head.length);
    if (inline !== undefined && head.length + inline.length <= MAX_WIDTH) return out.push(head + inline);
  }
  out.push(`${head}[${list.openComment ? `  ${commentText(list.openComment)}` : ''}`);
  const inner = indent + INDENT;
  list.elements.forEach((e, i) => {
    if (i > 0 && e.blankLineBefore) out.push('');
    printLeading(e.leading, inner, out);
    elementText(e, f.field, inner, out);
    const comma = i < list.elements.length - 1 ? ',' : '';
    const after = comma + (e.trailing ? `  ${commentText(e.trailing)}` : '');
    if (after) out.extend(after);
  });
  printDangling(list.dangling, inner, out, list.elements.length > 0);
  out.push(`${indent}]`);
}

function elementText(e: ElementNode, field: SchemaField | undefined, indent: string, out: Lines): void {
  if (e.value.kind === 'scalar') return out.push(indent + scalarText(e.value, field));
  // Elements of a message list print as blocks, as in Triton's docs, unless they are empty.
  const [open, close] = braces(e.value);
  if (e.value.fields.length === 0 && !e.value.openComment && !e.value.dangling.length) return out.push(`${indent}${open} ${close}`);
  blockMessage(indent, e.value, indent, out);
}

function blockMessage(head: string, m: MessageNode, indent: string, out: Lines): void {
  const [open, close] = braces(m);
  out.push(`${head}${open}${m.openComment ? `  ${commentText(m.openComment)}` : ''}`);
  printFields(m.fields, indent + INDENT, out);
  printDangling(m.dangling, indent + INDENT, out, m.fields.length > 0);
  out.push(`${indent}${close}`);
}

const hasComments = (t: { leading: Comment[]; trailing?: Comment }): boolean => t.leading.length > 0 || t.trailing !== undefined;

/**
 * One-line form of a message, or undefined when it must print as a block or would be longer than
 * `width` (every caller prints it only within MAX_WIDTH: a longer one is never built whole).
 */
function inlineMessage(m: MessageNode, field: SchemaField | undefined, width: number): string | undefined {
  if (m.openComment || m.dangling.length) return undefined;
  const [open, close] = braces(m);
  if (m.fields.length === 0) return `${open} ${close}`;
  const isMapEntry = field?.mapEntry !== undefined;
  if (m.fields.length > 1 && !isMapEntry) return undefined;
  const parts: string[] = [];
  let length = open.length + close.length + 1;
  for (const f of m.fields) {
    if (hasComments(f)) return undefined;
    const v = f.value;
    const sep = style.preserve && f.separator ? f.separator : '';
    let part: string;
    if (v.kind === 'scalar') part = `${f.name}: ${scalarText(v, f.field)}${sep}`;
    else if (v.kind === 'list') {
      if (v.elements.some((e) => e.value.kind !== 'scalar')) return undefined;
      const name = style.preserve && !f.colon ? f.name : `${f.name}:`;
      const list = inlineList(v, f.field, width - length - name.length - 2);
      if (list === undefined) return undefined;
      part = `${name} ${list}${sep}`;
    } else {
      const head = messageHead(f);
      const inner = inlineMessage(v, f.field, width - length - head.length - 2);
      if (inner === undefined) return undefined;
      part = `${head} ${inner}${sep}`;
    }
    length += part.length + 1;
    if (length > width) return undefined;
    parts.push(part);
  }
  return `${open} ${parts.join(' ')} ${close}`;
}

/** One-line form of a scalar list, or undefined when it has comments or would be longer than `width`. */
function inlineList(list: ListNode, field: SchemaField | undefined, width: number): string | undefined {
  if (list.openComment || list.dangling.length) return undefined;
  if (list.elements.length === 0) return '[ ]';
  const parts: string[] = [];
  let length = 2;
  for (const e of list.elements) {
    if (hasComments(e)) return undefined;
    const part = scalarText(e.value as ScalarNode, field);
    length += part.length + 2;
    if (length > width) return undefined;
    parts.push(part);
  }
  return `[ ${parts.join(', ')} ]`;
}

export function scalarText(node: ScalarNode, field: SchemaField | undefined): string {
  const v = node.value;
  if (v === undefined || !field || node.verbatim || (style.preserve && node.text)) return node.text;
  return formatScalar(v, field);
}

export function formatScalar(v: ScalarNode['value'] & {}, field: SchemaField): string {
  const type = field.type;
  if (typeof v === 'string') return type.kind === 'enum' ? v : quoteString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (type.kind === 'scalar' && (type.type === 'float' || type.type === 'double')) return formatFloat(v);
  return String(v);
}
