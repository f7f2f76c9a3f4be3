// Maps value paths (['input', 0, 'dims', 1]) to where they are written, so a check on the value can
// point at the exact token. Built from the syntax tree, one top-level field at a time on first use
// (of a lean parse's top-level map, one key at a time), by walking it the way the parser built the
// value: repeated occurrences append, map entries are keyed by their key's text.
import type { PathSegment, Range } from '../diagnostics.js';
import type { SchemaMessage } from './descriptor.js';
import type { DocumentNode, FieldNode, MessageNode } from './ast.js';
import { parseCleanText, takesBlockAt } from './clean-parse.js';
import { parseText } from './parser.js';
import { defaultScalar, type FieldSpans, type PlainMessage } from './plain-value.js';

export interface Location {
  /** The value (or the element, block or map value) at the path. */
  value: Range;
  /** The field name (or map key) that introduces it, when there is one. */
  name?: Range;
  /** The whole field, name through value, when one occurrence writes all of it (a scalar, a block, a [list]). */
  field?: Range;
}

const keyOf = (path: readonly PathSegment[]): string => path.join('\u0000');

/**
 * A top-level map field of a lean parse, written `count` times: the nodes of its first occurrence,
 * and of the occurrences that may hold a key (the others' nodes are never made).
 */
interface LazyMap {
  count: number;
  first: () => FieldNode;
  holding: (key: string) => FieldNode[];
  entry: SchemaMessage;
}

export class LocationIndex {
  private readonly byPath = new Map<string, Location>();
  /** Top-level fields indexed so far: a check asks about a few, and a config may hold 500,000 parameters. */
  private readonly indexed = new Set<string>();
  /** Map keys indexed so far, of the top-level maps indexed key by key. */
  private readonly indexedKeys = new Set<string>();

  /**
   * `fieldsNamed`: the nodes of every top-level field of that name, in order; `lazyMap`: for a
   * top-level map field, the way to index it one key at a time (a lean parse).
   */
  private constructor(
    private readonly fieldsNamed: (name: string) => FieldNode[],
    private readonly lazyMap: (name: string) => LazyMap | undefined = () => undefined,
  ) {}

  static fromTree(doc: DocumentNode): LocationIndex {
    return new LocationIndex((name) => doc.fields.filter((f) => f.name === name));
  }

  /**
   * From a lean parse: the fields asked about are parsed again from where they are written. A map
   * field is parsed again only where it may hold the key asked about: each occurrence's value is read
   * first (the clean parse, no nodes), so one finding on one of 500,000 parameters makes the nodes
   * of one field, not of all of them. `clean`: the value, when the text had nothing to report (a
   * map's entries can then be found by their order).
   */
  static fromSpans(text: string, message: SchemaMessage, spans: FieldSpans, clean?: PlainMessage): LocationIndex {
    const maps = new Map<string, LazyMap | undefined>();
    return new LocationIndex(
      (name) => parseText(text, message, { at: spans.startsOf(name) }),
      (name) => {
        if (!maps.has(name)) maps.set(name, lazyMapOf(text, message, spans, name, clean));
        return maps.get(name);
      },
    );
  }

  /** Indexes what `path` needs: every occurrence of its top-level field, once; of a lazy map, its key. */
  private ensure(path: readonly PathSegment[]): void {
    const name = path[0];
    if (typeof name !== 'string') return;
    if (!this.indexed.has(name)) {
      this.indexed.add(name);
      const map = this.lazyMap(name);
      if (!map) this.indexFields(this.fieldsNamed(name), []);
      else if (map.count) {
        // The first occurrence stands for the field; a second one makes it written in more than one place.
        const first = map.first();
        this.setField([name], first);
        if (map.count > 1) this.setField([name], first);
      }
    }
    const key = path[1];
    if (typeof key !== 'string' || this.indexedKeys.has(`${name}\u0000${key}`)) return;
    const map = this.lazyMap(name);
    if (!map) return;
    this.indexedKeys.add(`${name}\u0000${key}`);
    for (const f of map.holding(key)) {
      const values = f.value.kind === 'list' ? f.value.elements.map((e) => e.value) : [f.value];
      for (const v of values) if (v.kind === 'message') this.indexMapEntry(v, map.entry, [name], key);
    }
  }

  get(path: readonly PathSegment[]): Location | undefined {
    this.ensure(path);
    return this.byPath.get(keyOf(path));
  }

  /** The most precise location at or above the path: a missing child falls back to its parent. */
  nearest(path: readonly PathSegment[]): Location | undefined {
    this.ensure(path);
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

  /** Indexes one map entry (only when its key is `onlyKey`, where that is given). */
  private indexMapEntry(entry: MessageNode, entryMsg: SchemaMessage, fieldPath: PathSegment[], onlyKey?: string): void {
    const keyNode = entry.fields.find((f) => f.name === 'key');
    const valueNode = entry.fields.find((f) => f.name === 'value');
    const keyValue = keyNode?.value.kind === 'scalar' ? keyNode.value.value : undefined;
    const key = String(keyValue ?? defaultScalar(entryMsg.fields.get('key')!.type));
    if (onlyKey !== undefined && key !== onlyKey) return;
    const entryPath = [...fieldPath, key];
    this.set(entryPath, { value: valueNode?.value.range ?? entry.range, name: keyNode?.value.range ?? entry.range });
    if (valueNode?.value.kind === 'message') this.indexFields(valueNode.value.fields, entryPath);
  }
}

/**
 * A lean parse's top-level map field `name`, indexed key by key. The first key asked about is found
 * by its place where that is sure (below), else by one pass reading each occurrence's value (no
 * nodes); a second key makes, in one more pass, which occurrences hold each key, so a check that
 * reports on every one of 500,000 parameters stays linear.
 */
function lazyMapOf(text: string, message: SchemaMessage, spans: FieldSpans, name: string, clean: PlainMessage | undefined): LazyMap | undefined {
  const entry = message.fields.get(name)?.mapEntry;
  if (!entry) return undefined;
  const offsets = spans.offsetsOf(name);
  /** The keys each occurrence holds: undefined where it has something to report (parsed again whatever the key). */
  const keysAt = (offset: number): string[] | undefined => {
    const value = parseCleanText(text, message, { at: offset });
    return value && Object.keys(value[name] ?? {});
  };
  let asked = 0;
  let byKey: Map<string, number[]> | undefined;
  const broken: number[] = [];
  const holders = (key: string): number[] => {
    if (++asked === 1) {
      const placed = clean && holderByPlace(text, offsets, clean[name], key);
      if (placed !== undefined && (placed.length === 0 || keysAt(placed[0]!)?.includes(key))) return placed;
      return offsets.filter((offset) => keysAt(offset)?.includes(key) ?? true);
    }
    if (!byKey) {
      byKey = new Map();
      for (const offset of offsets) {
        const keys = keysAt(offset);
        if (!keys) broken.push(offset);
        else for (const k of keys) (byKey.get(k) ?? byKey.set(k, []).get(k)!).push(offset);
      }
    }
    return [...(byKey.get(key) ?? []), ...broken].sort((a, b) => a - b);
  };
  return {
    count: offsets.length,
    entry,
    first: () => parseText(text, message, { at: spans.positions(offsets.slice(0, 1)) })[0]!,
    holding: (key) => parseText(text, message, { at: spans.positions(holders(key)) }),
  };
}

/**
 * Where a clean text's map entry `key` is, from the order of the map's keys, when that order is sure
 * to be the order the entries are written in: every occurrence a block (one entry each; a list may
 * hold any number), as many keys as occurrences (so none is written twice), and no key a number
 * (those the map orders first). The occurrence found is checked by reading it. Undefined: not sure.
 */
function holderByPlace(text: string, offsets: readonly number[], map: unknown, key: string): number[] | undefined {
  if (!map || typeof map !== 'object') return undefined;
  if (!offsets.every((offset) => takesBlockAt(text, offset))) return undefined;
  const keys = Object.keys(map);
  if (keys.length !== offsets.length || /^(0|[1-9][0-9]*)$/.test(keys[0] ?? '')) return undefined;
  const i = keys.indexOf(key);
  return i < 0 ? [] : [offsets[i]!];
}
