// The plain value a parse builds (a message as an object of its fields), where a top-level field is
// written, and how a map entry is stored: shared by the tree parser and the clean parse.
import type { FieldKind, SchemaMessage } from './descriptor.js';
import type { Position } from '../diagnostics.js';
import type { ScalarValue } from './ast.js';

export type PlainMessage = Record<string, unknown>;

const constructors = new WeakMap<SchemaMessage, new () => PlainMessage>();

/**
 * A new, empty value for a message of type `msg`: a plain object (its prototype is Object.prototype,
 * as `{}`'s is, and nothing tells the two apart), made by a constructor of its own for each message
 * type. V8 then learns how many fields the type's values hold and makes them that size (in-object
 * slack tracking), where every `{}` has room for four: 32 bytes instead of 56 for each of the 500,000
 * parameter values of a 50 MB config.
 */
export function newMessageValue(msg: SchemaMessage): PlainMessage {
  return new (messageConstructor(msg))();
}

/** The constructor newMessageValue uses for values of `msg` (one per message type, shared by every parse). */
export function messageConstructor(msg: SchemaMessage): new () => PlainMessage {
  let make = constructors.get(msg);
  if (!make) {
    const ctor = function () {};
    ctor.prototype = Object.prototype;
    make = ctor as unknown as new () => PlainMessage;
    constructors.set(msg, make);
  }
  return make;
}

/**
 * Where a top-level field is written: what a lean parse keeps instead of its syntax tree, enough to
 * parse that field again on its own (parseText's `at`) when a location in it is asked for.
 */
export interface FieldSpan {
  name: string;
  /** Where its name starts. */
  start: Position;
}

/**
 * The FieldSpan of every top-level field, packed: 6 bytes a field (where its name starts, and which
 * name), where a span object and its position took about 90; a 50 MB config has 500,000 top-level
 * fields. Lines and columns come from an index of where each line starts, made when a position is
 * first asked for.
 */
export class FieldSpans {
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private ids = new Uint16Array(16);
  private offsets = new Uint32Array(16);
  private count = 0;
  private lineStarts: Uint32Array | undefined;

  constructor(private readonly text: string) {}

  get length(): number {
    return this.count;
  }

  add(name: string, offset: number): void {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.push(name) - 1;
      this.nameIds.set(name, id);
    }
    if (this.count === this.offsets.length) {
      const ids = new Uint16Array(this.count * 2);
      ids.set(this.ids);
      this.ids = ids;
      const offsets = new Uint32Array(this.count * 2);
      offsets.set(this.offsets);
      this.offsets = offsets;
    }
    this.ids[this.count] = id;
    this.offsets[this.count++] = offset;
  }

  /** Where each top-level field named `name` starts, in file order. */
  startsOf(name: string): Position[] {
    return this.positions(this.offsetsOf(name));
  }

  /** The offsets where each top-level field named `name` starts, in file order (no lines counted). */
  offsetsOf(name: string): number[] {
    const id = this.nameIds.get(name);
    const wanted: number[] = [];
    for (let i = 0; i < this.count; i++) if (this.ids[i] === id) wanted.push(this.offsets[i]!);
    return wanted;
  }

  /** Where the first top-level field named `name` starts. */
  firstOf(name: string): Position | undefined {
    const id = this.nameIds.get(name);
    for (let i = 0; i < this.count; i++) if (this.ids[i] === id) return this.positions([this.offsets[i]!])[0];
    return undefined;
  }

  toArray(): FieldSpan[] {
    const starts = this.positions(Array.from(this.offsets.subarray(0, this.count)));
    return starts.map((start, i) => ({ name: this.names[this.ids[i]!]!, start }));
  }

  /** The positions of offsets: lines found in an index of where each line starts, made on first use. */
  positions(offsets: readonly number[]): Position[] {
    const starts = (this.lineStarts ??= lineStartsOf(this.text));
    return offsets.map((offset) => {
      // The last line that starts at or before the offset.
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo + 1, column: offset - starts[lo]! + 1, offset };
    });
  }
}

/** Where each line of `text` starts (line breaks are LF, as the lexer counts them). */
function lineStartsOf(text: string): Uint32Array {
  let lines = 1;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) lines++;
  const starts = new Uint32Array(lines);
  let i = 1;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) starts[i++] = nl + 1;
  return starts;
}

/** Adds a parsed map entry to the map field `name` of obj: the entry's value (its default when omitted) under its key's text. */
export function storeMapEntry(entryMsg: SchemaMessage, obj: PlainMessage, name: string, entry: PlainMessage): void {
  mapEntryWriter(entryMsg)((obj[name] ??= {}) as PlainMessage, entry);
}

/** Writes an entry into a map: made once per map type (its defaults worked out then), not per entry. */
export type MapEntryWriter = (map: PlainMessage, entry: PlainMessage) => void;

const entryWriters = new WeakMap<SchemaMessage, MapEntryWriter>();

/** How an entry of the map type `entryMsg` is stored (storeMapEntry's, for a parse that keeps it per field). */
export function mapEntryWriter(entryMsg: SchemaMessage): MapEntryWriter {
  let write = entryWriters.get(entryMsg);
  if (write) return write;
  const valueType = entryMsg.fields.get('value')!.type;
  const keyDefault = String(defaultScalar(entryMsg.fields.get('key')!.type));
  const valueDefault = valueType.kind === 'message' ? undefined : defaultScalar(valueType);
  write = (map, entry) => {
    const written = entry.key as ScalarValue | undefined;
    const key = written !== undefined ? String(written) : keyDefault;
    // A message value written nowhere is an empty message, one of its own.
    const value = entry.value !== undefined ? entry.value : (valueDefault ?? {});
    // Map keys come from the user: "__proto__" must be defined as an own property (an assignment would
    // set the prototype); every other key is assigned, which is much cheaper on a large map.
    if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
    else map[key] = value;
  };
  entryWriters.set(entryMsg, write);
  return write;
}

export function defaultScalar(type: FieldKind): ScalarValue {
  if (type.kind === 'enum') return type.enum.names[0]!;
  if (type.kind === 'message') throw new Error('not a scalar');
  switch (type.type) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    default:
      return 0;
  }
}
