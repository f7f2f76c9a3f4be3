// Schema-driven parser for protobuf text format. It accepts what protobuf's TextFormat accepts for the
// schema, reports what TextFormat rejects as diagnostics with line:column, and keeps going after an
// error where it can, so one run reports several problems. It builds three things at once: the plain
// value, the syntax tree (ranges and comments), and an index from value paths to source ranges.
import type { Diagnostic, PathSegment, Position, Range } from '../diagnostics.js';
import type { FieldKind, SchemaField, SchemaMessage } from '../config/schema.js';
import type {
  Comment, DocumentNode, ElementNode, FieldNode, ListNode, MessageNode, ScalarNode, ScalarValue, Trivia, ValueNode,
} from './ast.js';
import { tokenize, type Token } from './lexer.js';
import {
  ENUM_RANGE, floatTokenValue, floatWordValue, integerRange, integerTokenValue, is64Bit, toInt64,
  unescapeStringLiteral,
} from './scalars.js';
import { didYouMean } from './suggest.js';
import { LocationIndex } from './locations.js';

export type PlainMessage = Record<string, unknown>;

export interface ParseResult {
  value: PlainMessage;
  tree: DocumentNode;
  diagnostics: Diagnostic[];
  locations: LocationIndex;
}

export interface ParseOptions {
  /** The file name diagnostics carry. */
  file?: string;
}

/** protobuf's own limit on message nesting in text format. */
const MAX_DEPTH = 100;
const STRUCTURAL = new Set(['{', '}', '<', '>', '[', ']', ':', ',', ';']);

export function parseText(text: string, message: SchemaMessage, options: ParseOptions = {}): ParseResult {
  return new Parser(text, message, options.file ?? '<input>').parseDocument();
}

class Parser {
  private readonly tokens: Token[];
  private readonly comments: Comment[];
  private pos = 0;
  private commentPos = 0;
  private depth = 0;
  private readonly diagnostics: Diagnostic[] = [];
  private locations = new LocationIndex();
  /** Where each singular field of each message object was first set, for duplicate reports. */
  private readonly firstSeen = new WeakMap<object, Map<string, Range>>();

  constructor(
    private readonly text: string,
    private readonly root: SchemaMessage,
    private readonly file: string,
  ) {
    const lexed = tokenize(text);
    this.tokens = lexed.tokens;
    this.comments = lexed.comments;
    for (const e of lexed.errors) this.report(e.message, e.range, [], 'syntax');
    if (text.charCodeAt(0) === 0xfeff) {
      const start: Position = { line: 1, column: 1, offset: 0 };
      this.report(
        'the file starts with a UTF-8 byte order mark, which protobuf\'s text parser (and so Triton) rejects; save the file as UTF-8 without a BOM',
        { start, end: { line: 1, column: 2, offset: 1 } }, [], 'syntax',
      );
      // Step over the BOM token so the rest of the file is still checked.
      if (this.peek().text === '\uFEFF') this.pos++;
    }
  }

  parseDocument(): ParseResult {
    const value: PlainMessage = {};
    const fields = this.parseFields(this.root, value, [], undefined);
    const eof = this.peek();
    const dangling = this.takeCommentsBefore(Number.POSITIVE_INFINITY);
    const start: Position = { line: 1, column: 1, offset: 0 };
    const tree: DocumentNode = { kind: 'document', range: { start, end: eof.range.end }, fields, dangling };
    this.diagnostics.sort((a, b) => a.range.start.offset - b.range.start.offset);
    return { value, tree, diagnostics: this.diagnostics, locations: this.locations };
  }

  // ---- token and comment cursor ----

  private peek(k = 0): Token {
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.pos++;
    return t;
  }

  private isSymbol(t: Token, s: string): boolean {
    return t.type === 'symbol' && t.text === s;
  }

  private trySymbol(s: string): Token | undefined {
    const t = this.peek();
    if (this.isSymbol(t, s)) return this.next();
    return undefined;
  }

  private lastEnd(): Position {
    return this.pos > 0 ? this.tokens[this.pos - 1]!.range.end : { line: 1, column: 1, offset: 0 };
  }

  private takeCommentsBefore(offset: number): Comment[] {
    const out: Comment[] = [];
    while (this.commentPos < this.comments.length && this.comments[this.commentPos]!.range.start.offset < offset) {
      out.push(this.comments[this.commentPos++]!);
    }
    return out;
  }

  /** A comment that follows the last consumed token on the same line, before the next token. */
  private takeTrailingComment(): Comment | undefined {
    const c = this.comments[this.commentPos];
    const end = this.lastEnd();
    if (c && c.range.start.line === end.line && c.range.start.offset >= end.offset && c.range.start.offset < this.peek().range.start.offset) {
      this.commentPos++;
      return c;
    }
    return undefined;
  }

  private leadingTrivia(first: Token): Trivia {
    const leading = this.takeCommentsBefore(first.range.start.offset);
    const firstItem = leading[0] ?? first;
    return {
      leading,
      blankLineBefore: firstItem.newlinesBefore >= 2,
      blankLineAfterComments: leading.length > 0 && first.newlinesBefore >= 2,
    };
  }

  // ---- diagnostics ----

  private report(message: string, range: Range, path: PathSegment[], code: string, data: Record<string, unknown> = {}): void {
    this.diagnostics.push({ ruleId: 'syntax', severity: 'error', message, file: this.file, range, path, data: { code, ...data } });
  }

  private describe(t: Token): string {
    return t.type === 'eof' ? 'end of file' : `"${t.text}"`;
  }

  // ---- grammar ----

  private parseFields(msg: SchemaMessage | undefined, obj: PlainMessage, path: PathSegment[], open: Token | undefined): FieldNode[] {
    const closer = open ? (open.text === '<' ? '>' : '}') : undefined;
    const fields: FieldNode[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === 'eof') {
        if (open) {
          this.report(
            `unterminated block: the "${open.text}" at ${open.range.start.line}:${open.range.start.column} is never closed; add "${closer}"`,
            open.range, path, 'unterminated-block',
          );
        }
        return fields;
      }
      if (closer && this.isSymbol(t, closer)) return fields;
      if (t.type === 'ident') {
        fields.push(this.parseField(msg, obj, path));
        continue;
      }
      if (t.type === 'symbol' && (t.text === '}' || t.text === '>')) {
        if (open) {
          // Take the wrong bracket as the close the author meant, so the error is reported once.
          this.report(
            `Expected "${closer}", found "${t.text}": the "${open.text}" at ${open.range.start.line}:${open.range.start.column} is closed with the wrong bracket`,
            t.range, path, 'unexpected-token',
          );
          return fields;
        }
        this.report(`unexpected "${t.text}": there is no open block to close`, t.range, path, 'unexpected-token');
      } else {
        this.report(`Expected a field name, got: ${this.describe(t)}`, t.range, path, 'unexpected-token');
      }
      this.next();
    }
  }

  private parseField(msg: SchemaMessage | undefined, obj: PlainMessage, path: PathSegment[]): FieldNode {
    const nameTok = this.next();
    const trivia = this.leadingTrivia(nameTok);
    const name = nameTok.text;
    const field = msg?.fields.get(name);
    const node: FieldNode = {
      kind: 'field', name, nameRange: nameTok.range, field, colon: false,
      value: this.emptyScalar(nameTok.range.end), range: nameTok.range, ...trivia,
    };
    if (msg && !field) {
      const hint = didYouMean(name, [...msg.fields.keys()]);
      this.report(
        `Message type "${msg.fullName}" has no field named "${name}".${hint ? ` Did you mean "${hint}"?` : ''}`,
        nameTok.range, [...path, name], 'unknown-field', hint ? { suggestion: hint } : {},
      );
    }
    node.colon = this.trySymbol(':') !== undefined;
    if (!field) node.value = this.skipValue(node.colon);
    else if (field.type.kind === 'message') node.value = this.parseMessageFieldValue(field, obj, path, nameTok);
    else node.value = this.parseScalarFieldValue(field, obj, path, nameTok, node.colon);
    node.range = { start: nameTok.range.start, end: node.value.range.end };
    this.trySymbol(';') ?? this.trySymbol(',');
    const trailing = this.takeTrailingComment();
    if (trailing) node.trailing = trailing;
    // Comments inside the field that no inner node claimed (e.g. between the name and the value)
    // stay with the field rather than being lost.
    const stray = this.takeCommentsBefore(this.lastEnd().offset);
    if (stray.length) node.leading.push(...stray);
    return node;
  }

  private emptyScalar(at: Position): ScalarNode {
    return { kind: 'scalar', range: { start: at, end: at }, text: '', value: undefined };
  }

  // -- message-typed fields --

  private parseMessageFieldValue(field: SchemaField, obj: PlainMessage, path: PathSegment[], nameTok: Token): ValueNode {
    const msg = (field.type as Extract<FieldKind, { kind: 'message' }>).message;
    const t = this.peek();
    if (this.isSymbol(t, '[')) {
      if (!field.repeated) {
        this.report(`field "${field.name}" is not repeated, so it cannot take a list; write ${field.name} { ... }`, t.range, [...path, field.name], 'not-repeated');
        return this.parseList(() => this.parseDetachedMessage(msg, [...path, field.name]));
      }
      // A list written empty still sets the field, as `dims: [ ]` does.
      if (field.mapEntry) obj[field.name] ??= {};
      else obj[field.name] ??= [];
      return this.parseList(() => this.parseMessageElement(field, msg, obj, path, nameTok));
    }
    if (this.isSymbol(t, '{') || this.isSymbol(t, '<')) {
      return this.parseMessageElement(field, msg, obj, path, nameTok);
    }
    this.report(`Expected "{", found ${this.describe(t)}: field "${field.name}" is a message (${msg.fullName})`, t.range, [...path, field.name], 'expected-message');
    if (t.type !== 'eof' && !STRUCTURAL.has(t.text) && t.type !== 'ident') this.next();
    return this.emptyScalar(this.lastEnd());
  }

  /** Parses one `{ ... }` for a message field and stores it in obj (pushing, setting or mapping). */
  private parseMessageElement(field: SchemaField, msg: SchemaMessage, obj: PlainMessage, path: PathSegment[], nameTok: Token): MessageNode | ScalarNode {
    const open = this.peek();
    if (!this.isSymbol(open, '{') && !this.isSymbol(open, '<')) {
      this.report(`Expected "{", found ${this.describe(open)}: each element of "${field.name}" is a message`, open.range, [...path, field.name], 'expected-message');
      if (open.type !== 'eof' && !STRUCTURAL.has(open.text)) this.next();
      return this.emptyScalar(this.lastEnd());
    }
    if (field.mapEntry) {
      // The entry's path depends on its key, known only once the block is parsed: collect the entry's
      // locations apart and move them under the key afterwards.
      const entry: PlainMessage = {};
      const outer = this.locations;
      this.locations = new LocationIndex();
      const node = this.parseMessageBlock(msg, entry, [...path, field.name, '<entry>']);
      const inner = this.locations;
      this.locations = outer;
      this.storeMapEntry(field, obj, path, entry, node, inner);
      return node;
    }
    if (field.repeated) {
      const list = (obj[field.name] ??= []) as unknown[];
      const child: PlainMessage = {};
      const childPath = [...path, field.name, list.length];
      list.push(child);
      const node = this.parseMessageBlock(msg, child, childPath);
      this.locations.add(childPath, node.range, undefined);
      this.locations.addField([...path, field.name], nameTok.range);
      return node;
    }
    const child: PlainMessage = {};
    const ok = this.claimSingular(field, obj, path, nameTok.range);
    const childPath = [...path, field.name];
    const node = this.parseMessageBlock(msg, child, childPath);
    if (ok) {
      obj[field.name] = child;
      this.locations.add(childPath, node.range, nameTok.range);
    }
    return node;
  }

  /** A message that is parsed for its diagnostics but stored nowhere (after an error). */
  private parseDetachedMessage(msg: SchemaMessage, path: PathSegment[]): MessageNode | ScalarNode {
    const open = this.peek();
    if (!this.isSymbol(open, '{') && !this.isSymbol(open, '<')) {
      this.report(`Expected "{", found ${this.describe(open)}`, open.range, path, 'expected-message');
      if (open.type !== 'eof' && !STRUCTURAL.has(open.text)) this.next();
      return this.emptyScalar(this.lastEnd());
    }
    return this.parseMessageBlock(msg, {}, path);
  }

  private parseMessageBlock(msg: SchemaMessage | undefined, obj: PlainMessage, path: PathSegment[]): MessageNode {
    const open = this.next();
    const node: MessageNode = { kind: 'message', range: open.range, message: msg, fields: [], dangling: [] };
    const openComment = this.takeTrailingComment();
    if (openComment) node.openComment = openComment;
    if (this.depth >= MAX_DEPTH) {
      this.report(`messages are nested more than ${MAX_DEPTH} levels deep, which protobuf's text parser refuses`, open.range, path, 'too-deep');
      this.skipBalanced(open);
      node.range = { start: open.range.start, end: this.lastEnd() };
      return node;
    }
    this.depth++;
    node.fields = this.parseFields(msg, obj, path, open);
    this.depth--;
    const close = this.peek();
    node.dangling = this.takeCommentsBefore(close.range.start.offset);
    if (close.type !== 'eof') this.next();
    node.range = { start: open.range.start, end: this.lastEnd() };
    return node;
  }

  private storeMapEntry(field: SchemaField, obj: PlainMessage, path: PathSegment[], entry: PlainMessage, node: MessageNode, inner: LocationIndex): void {
    const entryMsg = field.mapEntry!;
    const keyField = entryMsg.fields.get('key')!;
    const valueField = entryMsg.fields.get('value')!;
    const key = 'key' in entry ? String(entry.key) : String(defaultScalar(keyField.type));
    const value = 'value' in entry ? entry.value : valueField.type.kind === 'message' ? {} : defaultScalar(valueField.type);
    const map = (obj[field.name] ??= {}) as PlainMessage;
    // Map keys come from the user: define them as own properties so a key like "__proto__" is just a key.
    Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
    const entryPath = [...path, field.name, key];
    const keyNode = node.fields.find((f) => f.name === 'key');
    const valueNode = node.fields.find((f) => f.name === 'value');
    inner.rehome([...path, field.name, '<entry>', 'value'], entryPath);
    inner.drop([...path, field.name, '<entry>']);
    this.locations.merge(inner);
    this.locations.add(entryPath, valueNode?.value.range ?? node.range, keyNode?.value.range ?? node.range);
    this.locations.addField([...path, field.name], node.range);
  }

  // -- scalar fields --

  private parseScalarFieldValue(field: SchemaField, obj: PlainMessage, path: PathSegment[], nameTok: Token, colon: boolean): ValueNode {
    const fieldPath = [...path, field.name];
    if (!colon) {
      const t = this.peek();
      this.report(`Expected ":", found ${this.describe(t)}: write ${field.name}: <value>`, t.range, fieldPath, 'expected-colon');
      if (!this.looksLikeValue()) return this.emptyScalar(nameTok.range.end);
    }
    if (this.isSymbol(this.peek(), '[')) {
      if (!field.repeated) {
        this.report(`field "${field.name}" is not repeated, so it cannot take a list`, this.peek().range, fieldPath, 'not-repeated');
        return this.parseList(() => this.parseScalar(field, fieldPath));
      }
      const list = (obj[field.name] ??= []) as unknown[];
      this.locations.addField(fieldPath, nameTok.range);
      return this.parseList(() => {
        const node = this.parseScalar(field, [...fieldPath, list.length]);
        if (node.value !== undefined) {
          this.locations.add([...fieldPath, list.length], node.range, undefined);
          list.push(node.value);
        }
        return node;
      });
    }
    if (field.repeated) {
      const list = (obj[field.name] ??= []) as unknown[];
      const node = this.parseScalar(field, [...fieldPath, list.length]);
      if (node.value !== undefined) {
        this.locations.add([...fieldPath, list.length], node.range, undefined);
        this.locations.addField(fieldPath, nameTok.range);
        list.push(node.value);
      }
      return node;
    }
    const node = this.parseScalar(field, fieldPath);
    if (node.value !== undefined && this.claimSingular(field, obj, path, nameTok.range)) {
      obj[field.name] = node.value;
      this.locations.add(fieldPath, node.range, nameTok.range);
    }
    return node;
  }

  /** After a missing colon: is the next token the field's value rather than the next field? */
  private looksLikeValue(): boolean {
    const t = this.peek();
    if (t.type === 'string' || t.type === 'int' || t.type === 'float' || t.type === 'invalid' || this.isSymbol(t, '-') || this.isSymbol(t, '[')) return true;
    if (t.type !== 'ident') return false;
    const after = this.peek(1);
    return !(this.isSymbol(after, ':') || this.isSymbol(after, '{') || this.isSymbol(after, '<'));
  }

  /**
   * Checks that a singular field may be set now. proto3 scalars have no presence, so like protobuf we
   * treat a scalar as "already specified" only while it holds a non-default value; messages and
   * oneof members are present once set.
   */
  private claimSingular(field: SchemaField, obj: PlainMessage, path: PathSegment[], at: Range): boolean {
    const seen = this.firstSeen.get(obj) ?? new Map<string, Range>();
    this.firstSeen.set(obj, seen);
    if (field.oneof) {
      for (const other of field.parent.fieldList) {
        if (other.oneof !== field.oneof || other === field || !(other.name in obj)) continue;
        const first = seen.get(other.name);
        this.report(
          `Field "${field.name}" is specified along with field "${other.name}", another member of oneof "${field.oneof}"${first ? ` (at ${first.start.line}:${first.start.column})` : ''}; keep only one of them`,
          at, [...path, field.name], 'oneof-conflict', { other: other.name, oneof: field.oneof },
        );
        return false;
      }
    }
    if (field.name in obj) {
      const present = field.type.kind === 'message' || field.oneof !== undefined || obj[field.name] !== defaultScalar(field.type);
      if (present) {
        const first = seen.get(field.name);
        this.report(
          `Non-repeated field "${field.name}" is specified multiple times${first ? ` (first at ${first.start.line}:${first.start.column})` : ''}; keep only one`,
          at, [...path, field.name], 'duplicate-field',
        );
        return false;
      }
    }
    seen.set(field.name, at);
    return true;
  }

  private parseList<N extends ScalarNode | MessageNode>(parseElement: () => N): ListNode {
    const open = this.next();
    const node: ListNode = { kind: 'list', range: open.range, elements: [], dangling: [] };
    const openComment = this.takeTrailingComment();
    if (openComment) node.openComment = openComment;
    if (!this.trySymbol(']')) {
      for (;;) {
        const first = this.peek();
        if (first.type === 'eof') {
          this.report(`unterminated list: the "[" at ${open.range.start.line}:${open.range.start.column} is never closed; add "]"`, open.range, [], 'unterminated-list');
          break;
        }
        const startPos = this.pos;
        const trivia = this.leadingTrivia(first);
        const value = parseElement();
        const element: ElementNode = { value, ...trivia };
        node.elements.push(element);
        // A comment right after the element (before "," or "]") or right after its "," trails it; one
        // after the closing "]" trails the whole field.
        const trailing = this.takeTrailingComment();
        if (trailing) element.trailing = trailing;
        if (this.trySymbol(']')) break;
        const sep = this.peek();
        if (this.isSymbol(sep, ',')) {
          this.next();
          const afterComma = element.trailing ? undefined : this.takeTrailingComment();
          if (afterComma) element.trailing = afterComma;
          if (this.isSymbol(this.peek(), ']')) {
            this.report('a list cannot end with ","; protobuf\'s text format requires an element after every ","', sep.range, [], 'trailing-comma');
            node.dangling = this.takeCommentsBefore(this.peek().range.start.offset);
            this.next();
            break;
          }
          continue;
        }
        if (sep.type === 'eof') {
          this.report(`unterminated list: the "[" at ${open.range.start.line}:${open.range.start.column} is never closed; add "]"`, open.range, [], 'unterminated-list');
          break;
        }
        this.report(`Expected "," or "]" in the list, found ${this.describe(sep)}`, sep.range, [], 'expected-list-separator');
        // Recover: a closing brace ends the list (the enclosing block will consume it); an element-like
        // token means a missing comma; anything else is skipped.
        if (sep.type === 'eof' || this.isSymbol(sep, '}') || this.isSymbol(sep, '>')) break;
        if (sep.type === 'ident' && (this.isSymbol(this.peek(1), ':') || this.isSymbol(this.peek(1), '{'))) break;
        const elementStart = sep.type === 'int' || sep.type === 'float' || sep.type === 'string' || this.isSymbol(sep, '{') || this.isSymbol(sep, '<') || this.isSymbol(sep, '-');
        // Always make progress: a token no element could start with is skipped.
        if (!elementStart || this.pos === startPos) this.next();
      }
    }
    if (!node.dangling.length) node.dangling = this.takeCommentsBefore(this.lastEnd().offset);
    node.range = { start: open.range.start, end: this.lastEnd() };
    return node;
  }

  /** Parses one scalar value for the field; the node's value is undefined when it is invalid. */
  private parseScalar(field: SchemaField, path: PathSegment[]): ScalarNode {
    const first = this.peek();
    const type = field.type;
    let value: ScalarValue | undefined;
    let last = first;
    const fail = (message: string, code: string, range: Range = first.range): void => {
      this.report(message, range, path, code);
    };
    if (first.type === 'invalid') {
      // A malformed number, already reported by the tokenizer: skip it quietly.
      this.next();
      return { kind: 'scalar', range: first.range, text: first.text, value: undefined };
    }
    const placeholder = this.templatePlaceholder();
    if (placeholder) {
      this.report(
        `template placeholder ${placeholder.text} where field "${field.name}" needs a value; fill in the template (e.g. with fill_template.py or sed) before Triton reads it`,
        placeholder.range, path, 'template-placeholder',
      );
      return { kind: 'scalar', range: placeholder.range, text: placeholder.text, value: undefined };
    }
    // Consume a bad token unless it is structure the enclosing grammar needs to see.
    const skipBad = (): void => {
      if (first.type !== 'eof' && !STRUCTURAL.has(first.text)) last = this.next();
    };

    if (type.kind === 'scalar' && (type.type === 'string' || type.type === 'bytes')) {
      if (first.type !== 'string') {
        fail(`Expected string for field "${field.name}", got: ${this.describe(first)}${first.type === 'ident' ? `; quote it: "${first.text}"` : ''}`, 'expected-string');
        skipBad();
      } else {
        let s = '';
        while (this.peek().type === 'string') {
          last = this.next();
          const decoded = unescapeStringLiteral(last.text);
          if (decoded.error) {
            const at = { ...last.range.start, column: last.range.start.column + decoded.error.index, offset: last.range.start.offset + decoded.error.index };
            this.report(decoded.error.message, { start: at, end: last.range.end }, path, 'bad-escape');
          }
          s += decoded.value;
        }
        value = s;
      }
    } else if (type.kind === 'scalar' && type.type === 'bool') {
      if (first.type === 'ident' && /^(true|True|t)$/.test(first.text)) value = true;
      else if (first.type === 'ident' && /^(false|False|f)$/.test(first.text)) value = false;
      else if (first.type === 'int' && (first.text === '1' || first.text === '0')) value = first.text === '1';
      if (value === undefined) {
        fail(`Invalid value for boolean field "${field.name}". Value: "${first.text}". Use true or false`, 'bad-bool');
        skipBad();
      } else last = this.next();
    } else if (type.kind === 'enum') {
      if (first.type === 'ident') {
        last = this.next();
        if (type.enum.byName.has(first.text)) value = first.text;
        else {
          const hint = didYouMean(first.text, type.enum.names);
          const valid = type.enum.names.length <= 16 ? ` Valid values: ${type.enum.names.join(', ')}.` : '';
          fail(`Unknown enumeration value of "${first.text}" for field "${field.name}".${hint ? ` Did you mean "${hint}"?` : valid}`, 'unknown-enum');
        }
      } else {
        const int = this.parseSignedIntegerTokens(true);
        last = int.last;
        if (int.value === undefined) {
          fail(`Expected integer or identifier for enum field "${field.name}" (${type.enum.fullName}), got: ${this.describe(first)}`, 'expected-enum');
          skipBad();
        } else if (int.value < ENUM_RANGE.min || int.value > ENUM_RANGE.max) {
          fail(`Integer out of range (${int.text}) for enum field "${field.name}"`, 'out-of-range', { start: first.range.start, end: last.range.end });
        } else {
          const num = Number(int.value);
          // proto3 enums are open: an unknown number is kept as a number.
          value = type.enum.byNumber.get(num) ?? num;
        }
      }
    } else if (type.kind === 'scalar' && (type.type === 'float' || type.type === 'double')) {
      const neg = this.isSymbol(first, '-');
      const tok = neg ? this.peek(1) : first;
      let v: number | undefined;
      if (tok.type === 'float' || tok.type === 'int') v = floatTokenValue(tok.text, tok.type === 'int');
      else if (tok.type === 'ident') v = floatWordValue(tok.text);
      if (v === undefined) {
        fail(`Expected double for field "${field.name}", got: ${this.describe(tok)}`, 'expected-number', tok.range);
        if (neg) this.next();
        if (tok.type !== 'eof' && !STRUCTURAL.has(tok.text)) last = this.next();
      } else {
        if (neg) this.next();
        last = this.next();
        value = neg ? -v : v;
      }
    } else if (type.kind === 'scalar') {
      const range = integerRange(type.type)!;
      const unsigned = range.min === 0n;
      if (unsigned && this.isSymbol(first, '-')) {
        const after = this.peek(1);
        last = this.next();
        if (after.type === 'int' || after.type === 'float') last = this.next();
        fail(`field "${field.name}" is unsigned (${type.type}) and cannot be negative`, 'out-of-range', { start: first.range.start, end: last.range.end });
      } else {
        const int = this.parseSignedIntegerTokens(!unsigned);
        last = int.last;
        if (int.value === undefined) {
          const tok = this.isSymbol(first, '-') ? this.peek(1) : first;
          fail(`Expected integer for field "${field.name}" (${type.type}), got: ${this.describe(tok)}`, 'expected-integer', tok.range);
          skipBad();
        } else if (int.value < range.min || int.value > range.max) {
          fail(`Integer out of range (${int.text}): field "${field.name}" is ${type.type}, from ${range.min} to ${range.max}`, 'out-of-range', { start: first.range.start, end: last.range.end });
        } else {
          value = is64Bit(type.type) ? toInt64(int.value) : Number(int.value);
        }
      }
    }
    const end = this.consumedSince(first) ? this.lastEnd() : first.range.start;
    return { kind: 'scalar', range: { start: first.range.start, end }, text: this.text.slice(first.range.start.offset, Math.max(first.range.start.offset, end.offset)), value };
  }

  /** Consumes a `${name}` template placeholder (as in Triton's fill_template.py templates), if one is next. */
  private templatePlaceholder(): { text: string; range: Range } | undefined {
    const dollar = this.peek();
    const open = this.peek(1);
    if (!this.isSymbol(dollar, '$') || !this.isSymbol(open, '{') || open.range.start.offset !== dollar.range.end.offset) return undefined;
    let k = 2;
    while (this.peek(k).type === 'ident' && k < 4) k++;
    const close = this.peek(k);
    if (!this.isSymbol(close, '}') || close.range.start.line !== dollar.range.start.line) return undefined;
    this.pos += k + 1;
    return { text: this.text.slice(dollar.range.start.offset, close.range.end.offset), range: { start: dollar.range.start, end: close.range.end } };
  }

  private consumedSince(t: Token): boolean {
    return this.pos > 0 && this.tokens[this.pos - 1]!.range.start.offset >= t.range.start.offset;
  }


  /** `[-] int`; consumes only when it is an integer. */
  private parseSignedIntegerTokens(allowMinus: boolean): { value: bigint | undefined; text: string; last: Token } {
    const first = this.peek();
    const neg = allowMinus && this.isSymbol(first, '-');
    const tok = neg ? this.peek(1) : first;
    if (tok.type !== 'int') return { value: undefined, text: tok.text, last: first };
    if (neg) this.next();
    this.next();
    const magnitude = integerTokenValue(tok.text);
    return { value: neg ? -magnitude : magnitude, text: `${neg ? '-' : ''}${tok.text}`, last: tok };
  }

  // -- unknown fields: skip their value so parsing can go on --

  private skipValue(colon: boolean): ValueNode {
    const t = this.peek();
    if (this.isSymbol(t, '{') || this.isSymbol(t, '<')) return this.parseMessageBlock(undefined, {}, []);
    if (this.isSymbol(t, '[')) {
      return this.parseList(() => {
        const e = this.peek();
        if (this.isSymbol(e, '{') || this.isSymbol(e, '<')) return this.parseMessageBlock(undefined, {}, []);
        return this.skipScalar();
      });
    }
    if (!colon) return this.emptyScalar(this.lastEnd());
    return this.skipScalar();
  }

  private skipScalar(): ScalarNode {
    const first = this.peek();
    if (this.isSymbol(first, '-')) this.next();
    const t = this.peek();
    if (t.type === 'string') while (this.peek().type === 'string') this.next();
    else if (t.type === 'int' || t.type === 'float' || t.type === 'ident' || t.type === 'invalid') this.next();
    const end = this.consumedSince(first) ? this.lastEnd() : first.range.start;
    return { kind: 'scalar', range: { start: first.range.start, end }, text: '', value: undefined };
  }

  private skipBalanced(open: Token): void {
    let depth = 1;
    while (depth > 0) {
      const t = this.next();
      if (t.type === 'eof') return;
      if (t.type === 'symbol' && (t.text === '{' || t.text === '<')) depth++;
      else if (t.type === 'symbol' && (t.text === '}' || t.text === '>')) depth--;
    }
    void open;
  }
}

export function defaultScalar(type: FieldKind): ScalarValue {
  if (type.kind === 'enum') return type.enum.names[0]!;
  if (type.kind === 'message') throw new Error('not a scalar');
  switch (type.type) {
    case 'string': case 'bytes': return '';
    case 'bool': return false;
    default: return 0;
  }
}
