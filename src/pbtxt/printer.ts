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
import type { Comment, DocumentNode, ElementNode, FieldNode, ListNode, MessageNode, ScalarNode, ValueNode } from './ast.js';
import { formatFloat, quoteString } from './scalars.js';
import { append } from '../util/arrays.js';

const INDENT = '  ';
/** Lines that would be longer than this print block-style instead of inline. */
const MAX_WIDTH = 100;

/** How the printer spells what the author had a choice about. */
export interface PrintStyle {
  /** Keep the author's spellings (layout-only formatting); default: the canonical ones. */
  preserve?: boolean;
}

let style: PrintStyle = {};

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
  const out: string[] = [];
  printFields(doc.fields, '', out);
  printDangling(doc.dangling, '', out, doc.fields.length > 0);
  return out.length ? `${out.join('\n')}\n` : '';
}

/**
 * printTree of a document whose top-level fields come one at a time (parser.ts parseText's `onField`): `parse`
 * hands each to `emit` as it is parsed and returns the comments after the last; no tree is held.
 */
export function printEach(parse: (emit: (f: FieldNode) => void) => Comment[], options: PrintStyle = {}): string {
  const previous = style;
  style = options;
  try {
    const out: string[] = [];
    let i = 0;
    const dangling = parse((f) => printField(f, i++, '', out));
    printDangling(dangling, '', out, i > 0);
    return out.length ? `${out.join('\n')}\n` : '';
  } finally {
    style = previous;
  }
}

function printFields(fields: FieldNode[], indent: string, out: string[]): void {
  fields.forEach((f, i) => printField(f, i, indent, out));
}

function printField(f: FieldNode, i: number, indent: string, out: string[]): void {
  if (i > 0 && f.blankLineBefore) out.push('');
  printLeading(f.leading, indent, out);
  if (f.leading.length && f.blankLineAfterComments) out.push('');
  const lines = fieldLines(f, indent);
  if (style.preserve && f.separator) lines[lines.length - 1] += f.separator;
  if (f.trailing) lines[lines.length - 1] += `  ${commentText(f.trailing)}`;
  append(out, lines);
}

function printLeading(comments: Comment[], indent: string, out: string[]): void {
  comments.forEach((c, i) => {
    if (i > 0 && c.newlinesBefore >= 2) out.push('');
    out.push(indent + commentText(c));
  });
}

function printDangling(comments: Comment[], indent: string, out: string[], afterContent: boolean): void {
  comments.forEach((c, i) => {
    if ((i > 0 || afterContent) && c.newlinesBefore >= 2) out.push('');
    out.push(indent + commentText(c));
  });
}

const commentText = (c: Comment): string => c.text.trimEnd();

/** A message-valued field's name: with its colon where the author wrote one (`reshape: { ... }`). */
const messageHead = (f: FieldNode): string => (style.preserve && f.colon ? `${f.name}:` : f.name);

const braces = (m: MessageNode): [string, string] => (style.preserve && m.angle ? ['<', '>'] : ['{', '}']);

function fieldLines(f: FieldNode, indent: string): string[] {
  const v = f.value;
  if (v.kind === 'scalar') return [`${indent}${f.name}: ${scalarText(v, f.field)}`];
  if (v.kind === 'message') {
    const inline = inlineMessage(v, f.field);
    const head = messageHead(f);
    if (inline !== undefined && indent.length + head.length + 1 + inline.length <= MAX_WIDTH) return [`${indent}${head} ${inline}`];
    return blockMessage(`${indent}${head} `, v, indent);
  }
  return listLines(f, v, indent);
}

function listLines(f: FieldNode, list: ListNode, indent: string): string[] {
  const scalars = list.elements.every((e) => e.value.kind === 'scalar');
  // Layout only: the colon as written (an empty list has no elements to tell scalar from message by).
  const head = style.preserve ? `${indent}${f.colon ? `${f.name}:` : f.name} ` : scalars ? `${indent}${f.name}: ` : `${indent}${f.name} `;
  if (scalars) {
    const inline = inlineList(list, f.field);
    if (inline !== undefined && head.length + inline.length <= MAX_WIDTH) return [head + inline];
  }
  const lines = [`${head}[${list.openComment ? `  ${commentText(list.openComment)}` : ''}`];
  const inner = indent + INDENT;
  list.elements.forEach((e, i) => {
    if (i > 0 && e.blankLineBefore) lines.push('');
    printLeading(e.leading, inner, lines);
    const comma = i < list.elements.length - 1 ? ',' : '';
    const elementLines = elementText(e, f.field, inner);
    elementLines[elementLines.length - 1] += comma + (e.trailing ? `  ${commentText(e.trailing)}` : '');
    append(lines, elementLines);
  });
  printDangling(list.dangling, inner, lines, list.elements.length > 0);
  lines.push(`${indent}]`);
  return lines;
}

function elementText(e: ElementNode, field: SchemaField | undefined, indent: string): string[] {
  if (e.value.kind === 'scalar') return [indent + scalarText(e.value, field)];
  // Elements of a message list print as blocks, as in Triton's docs, unless they are empty.
  const [open, close] = braces(e.value);
  if (e.value.fields.length === 0 && !e.value.openComment && !e.value.dangling.length) return [`${indent}${open} ${close}`];
  return blockMessage(indent, e.value, indent);
}

function blockMessage(head: string, m: MessageNode, indent: string): string[] {
  const [open, close] = braces(m);
  const lines = [`${head}${open}${m.openComment ? `  ${commentText(m.openComment)}` : ''}`];
  printFields(m.fields, indent + INDENT, lines);
  printDangling(m.dangling, indent + INDENT, lines, m.fields.length > 0);
  lines.push(`${indent}${close}`);
  return lines;
}

const hasComments = (t: { leading: Comment[]; trailing?: Comment }): boolean => t.leading.length > 0 || t.trailing !== undefined;

/** One-line form of a message, or undefined when it must print as a block. */
function inlineMessage(m: MessageNode, field: SchemaField | undefined): string | undefined {
  if (m.openComment || m.dangling.length) return undefined;
  const [open, close] = braces(m);
  if (m.fields.length === 0) return `${open} ${close}`;
  const isMapEntry = field?.mapEntry !== undefined;
  if (m.fields.length > 1 && !isMapEntry) return undefined;
  const parts: string[] = [];
  for (const f of m.fields) {
    if (hasComments(f)) return undefined;
    const v = f.value;
    const sep = style.preserve && f.separator ? f.separator : '';
    if (v.kind === 'scalar') parts.push(`${f.name}: ${scalarText(v, f.field)}${sep}`);
    else if (v.kind === 'list') {
      if (v.elements.some((e) => e.value.kind !== 'scalar')) return undefined;
      const list = inlineList(v, f.field);
      if (list === undefined) return undefined;
      parts.push(`${style.preserve && !f.colon ? f.name : `${f.name}:`} ${list}${sep}`);
    } else {
      const inner = inlineMessage(v, f.field);
      if (inner === undefined) return undefined;
      parts.push(`${messageHead(f)} ${inner}${sep}`);
    }
  }
  return `${open} ${parts.join(' ')} ${close}`;
}

function inlineList(list: ListNode, field: SchemaField | undefined): string | undefined {
  if (list.openComment || list.dangling.length || list.elements.some(hasComments)) return undefined;
  if (list.elements.length === 0) return '[ ]';
  return `[ ${list.elements.map((e) => scalarText(e.value as ScalarNode, field)).join(', ')} ]`;
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

export type { ValueNode };
