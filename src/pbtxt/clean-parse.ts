// The value of a text that parses with nothing to report, read straight from its characters: no token,
// node, range or comment object is made. Most configs are clean, and for them this is what the
// tree parser (parser.ts) computes, several times faster and with no garbage left for the collector.
// It gives up (undefined) at the first thing the tree parser would report, or anything it does not
// handle itself (an unknown field, a duplicate, a template placeholder, a bad escape): the caller then
// runs the tree parser, whose diagnostics say what is wrong. So it never has to be right about an
// error, only about a clean text, and it uses the lexer's own number scan and the parser's own
// conversions for every value. test/pbtxt/clean-parse.test.ts holds it to the tree parser's values.
import type { SchemaField, SchemaMessage } from './descriptor.js';
import { isDigit, isLetter, scanNumber } from './lexer.js';
import { FieldSpans, mapEntryWriter, messageConstructor, type MapEntryWriter, type PlainMessage } from './plain-value.js';
import {
  ENUM_RANGE,
  floatTokenValue,
  floatWordValue,
  integerRange,
  integerTokenValue,
  is64Bit,
  SIMPLE_ESCAPE_BYTES,
  toInt64,
  unescapeStringLiteral,
  type IntegerRange,
} from './scalars.js';

/**
 * Things named by identifiers (a message's fields, an enum's values), found by a hash of the name
 * computed while the parse steps over it (nameHash), in an open-addressed table: the parse finds a
 * name in place and cuts no string out of the text.
 */
interface NameTable<T> {
  readonly mask: number;
  /** Per slot: 1 + the index of the name whose hash lands there (after linear probing), or 0. */
  readonly slots: Int32Array;
  readonly hashes: Int32Array;
  readonly names: readonly string[];
  readonly items: readonly T[];
}

/** The hash named() computes as it reads an identifier: one step per character. */
function nameHash(name: string): number {
  let h = 0;
  for (let k = 0; k < name.length; k++) h = (Math.imul(h, 31) + name.charCodeAt(k)) | 0;
  return h;
}

function nameTable<T>(list: Iterable<T>, nameOf: (item: T) => string): NameTable<T> {
  const items = [...list];
  const names = items.map(nameOf);
  // At most a quarter full: a probe rarely looks past its first slot.
  let size = 8;
  while (size < names.length * 4) size *= 2;
  const slots = new Int32Array(size);
  const hashes = new Int32Array(names.length);
  names.forEach((name, k) => {
    const h = (hashes[k] = nameHash(name));
    let slot = h & (size - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (size - 1);
    slots[slot] = k + 1;
  });
  return { mask: size - 1, slots, hashes, names, items };
}

/**
 * What the clean parse needs of a message type, made once per type and linked type to type, so a
 * field's lookup costs no WeakMap probe: the constructor of its values, and its fields' name table.
 */
interface Plan {
  readonly msg: SchemaMessage;
  readonly make: new () => PlainMessage;
  readonly fields: NameTable<PlanField>;
}

interface PlanField {
  readonly field: SchemaField;
  /** Reads and writes this field of a value: each made on its first call (see accessByName). */
  get: (obj: PlainMessage) => unknown;
  set: (obj: PlainMessage, value: unknown) => void;
  /** The plan of a message-typed field's type, made on first use. */
  plan: Plan | undefined;
  /** An enum field's value names, made on first use. */
  enumNames: NameTable<string> | undefined;
  /** A map field's entry writer, made on first use. */
  writeEntry: MapEntryWriter | undefined;
}

const PLANS = new WeakMap<SchemaMessage, Plan>();
function planOf(msg: SchemaMessage): Plan {
  let plan = PLANS.get(msg);
  if (!plan) {
    const fields = [...msg.fields.values()].map((field) => planField(field));
    plan = { msg, make: messageConstructor(msg), fields: nameTable(fields, (pf) => pf.field.name) };
    PLANS.set(msg, plan);
  }
  return plan;
}

/** A field's reader and writer. */
interface FieldAccess {
  readonly get: (obj: PlainMessage) => unknown;
  readonly set: (obj: PlainMessage, value: unknown) => void;
}

function planField(field: SchemaField): PlanField {
  // The accessors are made when first called: a cold lint of one small config meets a few fields of
  // the schema's hundreds, and making each costs a compile.
  const pf: PlanField = {
    field,
    get: (obj) => install().get(obj),
    set: (obj, value) => install().set(obj, value),
    plan: undefined,
    enumNames: undefined,
    writeEntry: undefined,
  };
  const install = (): FieldAccess => {
    const access = accessByName(field.name);
    pf.get = access.get;
    pf.set = access.set;
    return access;
  };
  return pf;
}

/**
 * The reader and writer of the field `name`, each a function of its own with the name written in it: a
 * store or load at one place in the code that sees every field of every message is megamorphic (V8
 * looks the name and shape up in a global cache); one per field sees only its own message's shapes.
 * Schema field names are identifiers (checked); anything else gets the generic access.
 */
function accessByName(name: string): FieldAccess {
  const generic: FieldAccess = { get: (o) => o[name], set: (o, v) => void (o[name] = v) };
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return generic;
  try {
    // The name is an identifier (checked above) from the schema, never from the text parsed.
    /* eslint-disable @typescript-eslint/no-implied-eval */
    return {
      get: new Function('o', `return o.${name};`) as FieldAccess['get'],
      set: new Function('o', 'v', `o.${name} = v;`) as FieldAccess['set'],
    };
    /* eslint-enable @typescript-eslint/no-implied-eval */
  } catch {
    // Node run with --disallow-code-generation-from-strings.
    return generic;
  }
}

function childPlan(pf: PlanField, msg: SchemaMessage): Plan {
  return (pf.plan ??= planOf(msg));
}

function enumNamesOf(pf: PlanField, names: readonly string[]): NameTable<string> {
  return (pf.enumNames ??= nameTable(names, (name) => name));
}

/** Thrown to give up: the tree parser takes over. */
const GIVE_UP = Symbol('not a clean text');

/** The parser's limit on message nesting (protobuf's own). */
const MAX_DEPTH = 100;

const enum Ch {
  Tab = 9,
  LF = 10,
  VT = 11,
  FF = 12,
  CR = 13,
  Space = 32,
  DQuote = 34,
  Hash = 35,
  SQuote = 39,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Zero = 48,
  Colon = 58,
  Semicolon = 59,
  Lt = 60,
  Gt = 62,
  LBracket = 91,
  Backslash = 92,
  RBracket = 93,
  LBrace = 123,
  RBrace = 125,
}

/** What `read` gives, or undefined where it gave up. */
function clean<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
}

/**
 * The value of `text` and where each top-level field is written, as the tree parser gives them for a
 * text with no diagnostics; undefined where the text has something to report (or might). With `at`
 * (where a FieldSpan says a field starts): the value of that one top-level field, as it would be
 * added to an empty message.
 */
export function parseCleanText(text: string, message: SchemaMessage): { value: PlainMessage; spans: FieldSpans } | undefined;
export function parseCleanText(text: string, message: SchemaMessage, options: { at: number }): PlainMessage | undefined;
export function parseCleanText(
  text: string,
  message: SchemaMessage,
  options?: { at: number },
): { value: PlainMessage; spans: FieldSpans } | PlainMessage | undefined {
  if (options) return clean(() => new CleanParser(text, options.at).oneField(message));
  return clean(() => new CleanParser(text).document(message));
}

/** Whether the field whose name starts at `offset` takes a block (`name {`, `name: <`), not a list. */
export function takesBlockAt(text: string, offset: number): boolean {
  return clean(() => new CleanParser(text, offset).takesBlock()) ?? false;
}

class CleanParser {
  private i = 0;
  private depth = 0;
  private readonly n: number;

  constructor(
    private readonly text: string,
    from = 0,
  ) {
    this.n = text.length;
    this.i = from;
  }

  /** One top-level field, at the cursor, into an empty message. */
  oneField(root: SchemaMessage): PlainMessage {
    const plan = planOf(root);
    const value = new plan.make();
    this.field(plan, value);
    return value;
  }

  /** Whether the field named at the cursor is written with a block (`{` or `<`) after its name. */
  takesBlock(): boolean {
    this.ident();
    this.take(Ch.Colon);
    this.skip();
    const c = this.char();
    return c === Ch.LBrace || c === Ch.Lt;
  }

  document(root: SchemaMessage): { value: PlainMessage; spans: FieldSpans } {
    const plan = planOf(root);
    const value = new plan.make();
    const spans = new FieldSpans(this.text);
    for (;;) {
      this.skip();
      if (this.i >= this.n) return { value, spans };
      const offset = this.i;
      spans.add(this.field(plan, value).name, offset);
    }
  }

  /** Steps over white space and comments (the lexer's set: a NUL anywhere is an error). */
  private skip(): void {
    const text = this.text;
    const n = this.n;
    let i = this.i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === Ch.LF || c === Ch.Space || c === Ch.Tab || c === Ch.CR || c === Ch.VT || c === Ch.FF) i++;
      else if (c === Ch.Hash) {
        while (i < n) {
          const d = text.charCodeAt(i);
          if (d === Ch.LF) break;
          if (d === 0) throw GIVE_UP;
          i++;
        }
      } else break;
    }
    this.i = i;
  }

  private char(): number {
    return this.i < this.n ? this.text.charCodeAt(this.i) : -1;
  }

  /** The identifier at the cursor, consumed; gives up where there is none. */
  private ident(): string {
    const start = this.i;
    return this.text.slice(start, this.skipIdent());
  }

  /** Moves the cursor past the identifier at it and returns where it ends; gives up where there is none. */
  private skipIdent(): number {
    const text = this.text;
    if (!isLetter(this.char())) throw GIVE_UP;
    let j = this.i + 1;
    while (j < this.n) {
      const d = text.charCodeAt(j);
      if (!isLetter(d) && !isDigit(d)) break;
      j++;
    }
    return (this.i = j);
  }

  /** What `table` names by the identifier at the cursor, consumed; gives up where it names nothing. */
  private named<T>(table: NameTable<T>): T {
    const text = this.text;
    const start = this.i;
    if (!isLetter(this.char())) throw GIVE_UP;
    let h = text.charCodeAt(start);
    let j = start + 1;
    for (; j < this.n; j++) {
      const d = text.charCodeAt(j);
      if (!isLetter(d) && !isDigit(d)) break;
      h = (Math.imul(h, 31) + d) | 0;
    }
    this.i = j;
    for (let slot = h & table.mask; ; slot = (slot + 1) & table.mask) {
      const k = table.slots[slot]! - 1;
      if (k < 0) throw GIVE_UP;
      if (table.hashes[k] === h && this.spells(table.names[k]!, start, j)) return table.items[k]!;
    }
  }

  /** The number token at the cursor, consumed: its text and whether it is a float. */
  private number(): { text: string; isFloat: boolean } {
    const c = this.char();
    if (!isDigit(c) && !(c === Ch.Dot && isDigit(this.i + 1 < this.n ? this.text.charCodeAt(this.i + 1) : -1))) throw GIVE_UP;
    const start = this.i;
    const scanned = scanNumber(this.text, start);
    if (scanned.error) throw GIVE_UP;
    this.i = scanned.end;
    return { text: this.text.slice(start, scanned.end), isFloat: scanned.isFloat };
  }

  /** Consumes the one-character symbol `c` (after white space) when it is next. */
  private take(c: number): boolean {
    this.skip();
    if (this.char() !== c) return false;
    this.i++;
    return true;
  }

  private field(plan: Plan, obj: PlainMessage): SchemaField {
    const pf = this.named(plan.fields);
    const field = pf.field;
    const colon = this.take(Ch.Colon);
    this.skip();
    const type = field.type;
    if (type.kind === 'message') {
      if (this.char() === Ch.LBracket) {
        if (!field.repeated) throw GIVE_UP;
        // A list written empty still sets the field.
        this.collectionOf(pf, obj);
        this.list(() => this.messageElement(pf, childPlan(pf, type.message), obj));
      } else this.messageElement(pf, childPlan(pf, type.message), obj);
    } else {
      if (!colon) throw GIVE_UP;
      if (this.char() === Ch.LBracket) {
        if (!field.repeated) throw GIVE_UP;
        const list = this.collectionOf(pf, obj) as unknown[];
        this.list(() => list.push(this.scalar(pf)));
      } else if (field.repeated) {
        const value = this.scalar(pf);
        (this.collectionOf(pf, obj) as unknown[]).push(value);
      } else {
        const value = this.scalar(pf);
        this.claimSingular(pf, obj);
        pf.set(obj, value);
      }
    }
    if (!this.take(Ch.Semicolon)) this.take(Ch.Comma);
    return field;
  }

  /**
   * A singular field set a second time, or beside another member of its oneof, is the tree parser's
   * to judge (a proto3 scalar may be set again while it holds its default).
   */
  private claimSingular(pf: PlanField, obj: PlainMessage): void {
    // A value is never undefined: a field that reads undefined is not set.
    if (pf.get(obj) !== undefined) throw GIVE_UP;
    const field = pf.field;
    if (field.oneof === undefined) return;
    for (const other of field.parent.fieldList) if (other.oneof === field.oneof && other.name in obj) throw GIVE_UP;
  }

  /** The list (or, of a map field, the object) of repeated field `pf` in obj, made empty where it is not set yet. */
  private collectionOf(pf: PlanField, obj: PlainMessage): unknown[] | PlainMessage {
    let held = pf.get(obj) as unknown[] | PlainMessage | undefined;
    if (held === undefined) pf.set(obj, (held = pf.field.mapEntry ? {} : []));
    return held;
  }

  /** `[ element, element ]` with the cursor on the `[`; a trailing comma is an error. */
  private list(element: () => void): void {
    this.i++;
    if (this.take(Ch.RBracket)) return;
    for (;;) {
      this.skip();
      element();
      if (this.take(Ch.RBracket)) return;
      if (!this.take(Ch.Comma)) throw GIVE_UP;
    }
  }

  /** One `{ ... }` (or `< ... >`) of a message field, stored as the tree parser stores it. */
  private messageElement(pf: PlanField, plan: Plan, obj: PlainMessage): void {
    const field = pf.field;
    this.skip();
    const open = this.char();
    if (open !== Ch.LBrace && open !== Ch.Lt) throw GIVE_UP;
    if (this.depth >= MAX_DEPTH) throw GIVE_UP;
    this.i++;
    const child = new plan.make();
    this.depth++;
    if (field.mapEntry) {
      this.fields(plan, child, open === Ch.Lt ? Ch.Gt : Ch.RBrace);
      (pf.writeEntry ??= mapEntryWriter(field.mapEntry))(this.collectionOf(pf, obj) as PlainMessage, child);
    } else if (field.repeated) {
      (this.collectionOf(pf, obj) as unknown[]).push(child);
      this.fields(plan, child, open === Ch.Lt ? Ch.Gt : Ch.RBrace);
    } else {
      this.claimSingular(pf, obj);
      this.fields(plan, child, open === Ch.Lt ? Ch.Gt : Ch.RBrace);
      pf.set(obj, child);
    }
    this.depth--;
  }

  private fields(plan: Plan, obj: PlainMessage, closer: number): void {
    for (;;) {
      this.skip();
      const c = this.char();
      if (c === closer) {
        this.i++;
        return;
      }
      if (!isLetter(c)) throw GIVE_UP;
      this.field(plan, obj);
    }
  }

  /** The value of a scalar or enum field at the cursor, consumed. */
  private scalar(pf: PlanField): unknown {
    const type = pf.field.type;
    if (type.kind === 'enum') {
      // The schema's own string for the value: none is cut out of the text and kept per value.
      if (isLetter(this.char())) return this.named(enumNamesOf(pf, type.enum.names));
      const num = Number(this.integer(ENUM_RANGE, true));
      // proto3 enums are open: an unknown number is kept as a number.
      return type.enum.byNumber.get(num) ?? num;
    }
    if (type.kind !== 'scalar') throw GIVE_UP;
    switch (type.type) {
      case 'string':
      case 'bytes':
        return this.string();
      case 'bool': {
        if (isLetter(this.char())) {
          const word = this.ident();
          if (word === 'true' || word === 'True' || word === 't') return true;
          if (word === 'false' || word === 'False' || word === 'f') return false;
          throw GIVE_UP;
        }
        const { text } = this.number();
        if (text === '1' || text === '0') return text === '1';
        throw GIVE_UP;
      }
      case 'float':
      case 'double': {
        const neg = this.char() === Ch.Minus;
        if (neg) {
          this.i++;
          this.skip();
        }
        let v: number | undefined;
        if (isLetter(this.char())) v = floatWordValue(this.ident());
        else {
          const t = this.number();
          v = floatTokenValue(t.text, !t.isFloat);
        }
        if (v === undefined) throw GIVE_UP;
        return neg ? -v : v;
      }
      default: {
        const range = integerRange(type.type)!;
        const v = this.integer(range, range.min !== 0n);
        return is64Bit(type.type) ? (typeof v === 'bigint' ? toInt64(v) : v) : Number(v);
      }
    }
  }

  /** Whether the text from `start` to `end` is `name`. */
  private spells(name: string, start: number, end: number): boolean {
    if (name.length !== end - start) return false;
    const text = this.text;
    for (let k = 0; k < name.length; k++) if (text.charCodeAt(start + k) !== name.charCodeAt(k)) return false;
    return true;
  }

  /**
   * `[-] int` within `range`. A short decimal is read as a number (exact below 2^53); hex, octal and
   * long ones as the tree parser reads them, through bigint.
   */
  private integer(range: IntegerRange, allowMinus: boolean): number | bigint {
    const neg = this.char() === Ch.Minus;
    if (neg) {
      if (!allowMinus) throw GIVE_UP;
      this.i++;
      this.skip();
    }
    const short = this.shortDecimal();
    if (short !== undefined) {
      const v = neg ? 0 - short : short;
      if (v < range.lo || v > range.hi) throw GIVE_UP;
      return v;
    }
    const t = this.number();
    if (t.isFloat) throw GIVE_UP;
    let v: number | bigint;
    if (t.text.length <= 15 && (t.text.length === 1 || t.text.charCodeAt(0) !== Ch.Zero)) {
      const magnitude = Number(t.text);
      // 0 - 0 is +0, as the bigint -0n the tree parser computes becomes.
      v = neg ? 0 - magnitude : magnitude;
    } else {
      const magnitude = integerTokenValue(t.text);
      v = neg ? -magnitude : magnitude;
    }
    if (typeof v === 'number' ? v < range.lo || v > range.hi : v < range.min || v > range.max) throw GIVE_UP;
    return v;
  }

  /**
   * A decimal of 1 to 15 digits without a leading zero (or a lone 0) that scanNumber would end where
   * its digits end (no '.', exponent, suffix, letter or digit after), read digit by digit (exact below
   * 2^53, as Number() of its text) and consumed; undefined, the cursor unmoved, for any other number.
   */
  private shortDecimal(): number | undefined {
    const text = this.text;
    const start = this.i;
    let j = start;
    let v = 0;
    while (j < this.n) {
      const d = text.charCodeAt(j);
      if (!isDigit(d)) break;
      v = v * 10 + (d - Ch.Zero);
      j++;
    }
    const length = j - start;
    if (length === 0 || length > 15 || (length > 1 && text.charCodeAt(start) === Ch.Zero)) return undefined;
    const after = j < this.n ? text.charCodeAt(j) : -1;
    if (after === Ch.Dot || isLetter(after)) return undefined;
    this.i = j;
    return v;
  }

  /**
   * The value of a literal's body (`from` to `to`) whose escapes are all one-character C escapes
   * (\n, \", ...): each stands for one ASCII byte, so the text between them is kept as written, as
   * unescapeStringLiteral's UTF-8 round trip gives it. Undefined for any other escape or a surrogate
   * (where that round trip can change the text): the caller decodes those the general way.
   */
  private simplyEscaped(from: number, to: number): string | undefined {
    const text = this.text;
    let s = '';
    let run = from;
    for (let j = from; j < to; j++) {
      const c = text.charCodeAt(j);
      if (c >= 0xd800 && c <= 0xdfff) return undefined;
      if (c !== Ch.Backslash) continue;
      const byte = SIMPLE_ESCAPE_BYTES[text.charCodeAt(j + 1)];
      if (byte === undefined) return undefined;
      s += text.slice(run, j) + String.fromCharCode(byte);
      run = ++j + 1;
    }
    return s + text.slice(run, to);
  }

  /** One or more adjacent string literals, concatenated, as the tree parser reads them. */
  private string(): string {
    let s = '';
    let q = this.char();
    if (q !== Ch.DQuote && q !== Ch.SQuote) throw GIVE_UP;
    const text = this.text;
    do {
      const start = this.i;
      let j = start + 1;
      let escaped = false;
      for (;;) {
        if (j >= this.n) throw GIVE_UP;
        const d = text.charCodeAt(j);
        if (d === q) break;
        if (d === Ch.LF || d === 0) throw GIVE_UP;
        if (d === Ch.Backslash) {
          escaped = true;
          if (j + 1 < this.n && text.charCodeAt(j + 1) !== Ch.LF) j += 2;
          else j++;
        } else j++;
      }
      this.i = j + 1;
      if (escaped) {
        const simple = this.simplyEscaped(start + 1, j);
        if (simple !== undefined) s += simple;
        else {
          const decoded = unescapeStringLiteral(text.slice(start, j + 1));
          if (decoded.error || decoded.notUtf8) throw GIVE_UP;
          s += decoded.value;
        }
      } else s += text.slice(start + 1, j);
      this.skip();
      q = this.char();
    } while (q === Ch.DQuote || q === Ch.SQuote);
    return s;
  }
}
