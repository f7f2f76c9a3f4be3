// Maps value paths (['input', 0, 'dims', 1]) to where they are written, so a check on the value can
// point at the exact token. Built from the syntax tree, one top-level field at a time on first use,
// by walking it the way the parser built the value: repeated occurrences append, map entries are
// keyed by their key's text.
import type { PathSegment, Range } from '../diagnostics.js';
import type { SchemaMessage } from './descriptor.js';
import type { DocumentNode, FieldNode, MessageNode, ScalarNode } from './ast.js';
import { parseFieldsAt } from './parser.js';
import { defaultScalar, type FieldSpans } from './plain-value.js';

export interface Location {
  /** The value (or the element, block or map value) at the path. */
  value: Range;
  /** The field name (or map key) that introduces it, when there is one. */
  name?: Range;
  /** The whole field, name through value, when one occurrence writes all of it (a scalar, a block, a [list]). */
  field?: Range;
}

const keyOf = (path: readonly PathSegment[]): string => path.join('\u0000');

export class LocationIndex {
  private readonly byPath = new Map<string, Location>();
  /** Top-level fields indexed so far: a check asks about a few, and a config may hold 500,000 parameters. */
  private readonly indexed = new Set<string>();


  /** `fieldsNamed`: the nodes of every top-level field of that name, in order. */
  private constructor(private readonly fieldsNamed: (name: string) => FieldNode[]) {}

  static fromTree(doc: DocumentNode): LocationIndex {
    return new LocationIndex((name) => doc.fields.filter((f) => f.name === name));
  }

  /** From a lean parse: the fields asked about are parsed again from where they are written. */
  static fromSpans(text: string, message: SchemaMessage, spans: FieldSpans): LocationIndex {
    return new LocationIndex((name) => parseFieldsAt(text, message, spans.startsOf(name)));
  }

  /** Indexes every occurrence of the top-level field `name`, once. */
  private ensure(name: PathSegment | undefined): void {
    if (typeof name !== 'string' || this.indexed.has(name)) return;
    this.indexed.add(name);
    this.indexFields(this.fieldsNamed(name), []);
  }

  get(path: readonly PathSegment[]): Location | undefined {
    this.ensure(path[0]);
    return this.byPath.get(keyOf(path));
  }

  /** The most precise location at or above the path: a missing child falls back to its parent. */
  nearest(path: readonly PathSegment[]): Location | undefined {
    this.ensure(path[0]);
    for (let n = path.length; n > 0; n--) {
      const loc = this.byPath.get(keyOf(path.slice(0, n)));
      if (loc) return loc;
    }
    return undefined;
  }

  private set(path: readonly PathSegment[], loc: Location): void {
    this.byPath.set(keyOf(path), loc);
  }

  /**
   * The first place a repeated or map field is named stands for the whole field; it is written at
   * one place only while no second occurrence adds to it.
   */
  private setField(path: readonly PathSegment[], node: FieldNode): void {
    const key = keyOf(path);
    const known = this.byPath.get(key);
    if (!known) this.byPath.set(key, { value: node.nameRange, name: node.nameRange, ...(node.value.kind === 'list' ? { field: node.range } : {}) });
    else if (known.field) this.byPath.set(key, { value: known.value, name: known.name! });
  }

  private indexFields(fields: FieldNode[], path: PathSegment[]): void {
    const counts = new Map<string, number>();
    for (const f of fields) {
      const field = f.field;
      if (!field) continue;
      const fieldPath = [...path, f.name];
      const values = f.value.kind === 'list' ? f.value.elements.map((e) => e.value) : [f.value];
      if (field.mapEntry) {
        if (f.value.kind === 'list' && !field.repeated) continue;
        this.setField(fieldPath, f);
        for (const v of values) if (v.kind === 'message') this.indexMapEntry(v, field.mapEntry, fieldPath);
      } else if (field.repeated) {
        this.setField(fieldPath, f);
        for (const v of values) {
          // Invalid elements were not stored, so they take no index.
          if (v.kind === 'scalar' && v.value === undefined) continue;
          const i = counts.get(f.name) ?? 0;
          counts.set(f.name, i + 1);
          this.set([...fieldPath, i], { value: v.range });
          if (v.kind === 'message') this.indexFields(v.fields, [...fieldPath, i]);
        }
      } else if (f.value.kind === 'message') {
        // A second occurrence is an error and was not stored: the first one stands.
        if (!this.byPath.has(keyOf(fieldPath))) {
          this.set(fieldPath, { value: f.value.range, name: f.nameRange, field: f.range });
          this.indexFields(f.value.fields, fieldPath);
        }
      } else if (f.value.kind === 'scalar' && f.value.value !== undefined) {
        this.set(fieldPath, { value: f.value.range, name: f.nameRange, field: f.range });
      }
    }
  }

  private indexMapEntry(entry: MessageNode, entryMsg: SchemaMessage, fieldPath: PathSegment[]): void {
    const keyNode = entry.fields.find((f) => f.name === 'key');
    const valueNode = entry.fields.find((f) => f.name === 'value');
    const keyValue = keyNode?.value.kind === 'scalar' ? (keyNode.value as ScalarNode).value : undefined;
    const key = String(keyValue ?? defaultScalar(entryMsg.fields.get('key')!.type));
    const entryPath = [...fieldPath, key];
    this.set(entryPath, { value: valueNode?.value.range ?? entry.range, name: keyNode?.value.range ?? entry.range });
    if (valueNode?.value.kind === 'message') this.indexFields(valueNode.value.fields, entryPath);
  }
}
