// Where a cursor stands in a config's syntax tree: the message it is in (for completion of that
// message's fields only), and the field whose name or value it is on, with that value's path (for
// hover, and for going from an ensemble step's model_name to that model).
import type { PathSegment } from '../diagnostics.js';
import type { DocumentNode, FieldNode, MessageNode, ValueNode } from '../pbtxt/ast.js';
import type { SchemaField, SchemaMessage } from '../pbtxt/descriptor.js';

export interface CursorPlace {
  /** The innermost message whose braces hold the cursor (the document's ModelConfig at top level). */
  message: SchemaMessage | undefined;
  /** The value path of that message. */
  messagePath: PathSegment[];
  /** The field the cursor is on (its name or its value), if any. */
  field?: { node: FieldNode; schema: SchemaField | undefined; path: PathSegment[]; onName: boolean };
}

const inside = (r: { start: { offset: number }; end: { offset: number } }, offset: number): boolean => r.start.offset <= offset && offset <= r.end.offset;

/** The cursor's place; `root` is the document's message (ModelConfig). */
export function cursorPlace(tree: DocumentNode, root: SchemaMessage, offset: number): CursorPlace {
  let place: CursorPlace = { message: root, messagePath: [] };
  const visitFields = (fields: readonly FieldNode[], message: SchemaMessage | undefined, path: PathSegment[]): void => {
    // Repeated fields written field by field: the index of each occurrence in the value.
    const counts = new Map<string, number>();
    for (const f of fields) {
      const schema = f.field;
      const repeated = schema?.repeated ?? false;
      const index = counts.get(f.name) ?? 0;
      const elementCount = f.value.kind === 'list' ? f.value.elements.length : 1;
      counts.set(f.name, index + elementCount);
      if (!inside(f.range, offset)) continue;
      const fieldPath = repeated && f.value.kind !== 'list' && !schema?.mapEntry ? [...path, f.name, index] : [...path, f.name];
      place = { message, messagePath: path, field: { node: f, schema, path: fieldPath, onName: inside(f.nameRange, offset) } };
      visitValue(f.value, fieldPath, schema, repeated ? index : undefined);
      return;
    }
  };
  const visitValue = (v: ValueNode, path: PathSegment[], schema: SchemaField | undefined, firstIndex: number | undefined): void => {
    if (v.kind === 'message') return visitMessage(v, path);
    if (v.kind !== 'list') return;
    v.elements.forEach((e, i) => {
      if (!inside(e.value.range, offset)) return;
      const elementPath = schema?.mapEntry ? path : [...path, (firstIndex ?? 0) + i];
      if (e.value.kind === 'message') visitMessage(e.value, elementPath);
      else if (place.field) place.field.path = elementPath;
    });
  };
  const visitMessage = (m: MessageNode, path: PathSegment[]): void => {
    // Between the braces: the cursor is in this message, not on the field that holds it.
    if (m.range.start.offset < offset && offset < m.range.end.offset) place = { message: m.message, messagePath: path };
    visitFields(m.fields, m.message, path);
  };
  visitFields(tree.fields, root, []);
  return place;
}

/** How far before the cursor completion looks for `field: "value`: a field name and value are short. */
export const COMPLETION_WINDOW = 512;

const isWord = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace = (c: number): boolean => c === 32 || c === 9;

/**
 * The field whose value the cursor is typing (`name: "inp|`, `data_type: TY|`): its name, and whether
 * the value opened a quote. A scan from the cursor backwards over at most COMPLETION_WINDOW
 * characters, each looked at once: a long line cannot make it slow (a regular expression anchored at
 * the line's end backtracks from every start).
 */
export function valueBeforeCursor(line: string): { field: string; quoted: boolean } | undefined {
  const stop = Math.max(0, line.length - COMPLETION_WINDOW);
  let i = line.length;
  // The value typed so far: word characters, dots and dashes.
  while (i > stop && (isWord(line.charCodeAt(i - 1)) || line[i - 1] === '.' || line[i - 1] === '-')) i--;
  const quoted = i > stop && line[i - 1] === '"';
  if (quoted) i--;
  while (i > stop && isSpace(line.charCodeAt(i - 1))) i--;
  if (i <= stop || line[i - 1] !== ':') return undefined;
  i--;
  while (i > stop && isSpace(line.charCodeAt(i - 1))) i--;
  const end = i;
  while (i > stop && isWord(line.charCodeAt(i - 1))) i--;
  return end > i ? { field: line.slice(i, end), quoted } : undefined;
}
