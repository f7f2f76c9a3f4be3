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

