// Schema-driven parser for protobuf text format. It accepts what protobuf's TextFormat accepts for the
// schema, reports what TextFormat rejects as diagnostics with line:column, and keeps going after an
// error where it can, so one run reports several problems. It builds the plain value and the syntax
// tree (ranges and comments) in one pass, or (a lean parse) the value alone, with where each
// top-level field is written, so that a field's tree can be made again when a location in it is asked
// for (`at`; see locations.ts). parseText is the one entry point; its options choose the mode.
import type { Diagnostic, PathSegment, Position, Range } from '../diagnostics.js';
import type { FieldKind, SchemaField, SchemaMessage } from './descriptor.js';
import type { Comment, DocumentNode, ElementNode, FieldNode, ListNode, MessageNode, ScalarNode, ScalarValue, Trivia, ValueNode } from './ast.js';
import { Lexer, tokenEnd, tokenRange, tokenStart, type Token } from './lexer.js';
import { ENUM_RANGE, floatTokenValue, floatWordValue, integerRange, integerTokenValue, is64Bit, toInt64, unescapeStringLiteral } from './scalars.js';
import { didYouMean } from './suggest.js';
import { syntaxDiagnostic, type ParseMessage } from './messages.js';
import { parseCleanText } from './clean-parse.js';
import { templateMarkers as candidateMarkers } from './template-markers.js';
import { FieldSpans, defaultScalar, newMessageValue, storeMapEntry, type PlainMessage } from './plain-value.js';

export interface ParseResult {
  value: PlainMessage;
  tree: DocumentNode;
  diagnostics: Diagnostic[];
}

/** The value and diagnostics of a parse that kept no syntax tree (`lean`). */
export interface LeanParseResult {
  value: PlainMessage;
  spans: FieldSpans;
  diagnostics: Diagnostic[];
  /** Whether the clean parse read the text (nothing to report; the value's map entries are in written order). */
  clean: boolean;
  /** The tree, where `keepTreeUpTo` kept it. */
  tree?: DocumentNode;
}

/** A parse that handed each top-level field on (`onField`): the comments after the last field come back as `dangling`. */
export interface StreamParseResult {
  value: PlainMessage;
  spans: FieldSpans;
  diagnostics: Diagnostic[];
  dangling: Comment[];
  /** Where the text ends; undefined when stopped at the first error. */
  end: Position | undefined;
}

export interface ParseOptions {
  /** The file name diagnostics carry. */
  file?: string;
  /**
   * A value of the enum `enumName` (its full name) that means what `written` was meant to say, for
   * names that are close in meaning but not in spelling (TYPE_FLOAT32 means TYPE_FP32).
   */
  enumMeaning?: (enumName: string, written: string) => string | undefined;
  /**
   * Stop at the first syntax error: for a caller that only uses a config that parses (the other
   * models of a repository), a broken 10 MB file then costs what its first error costs. The value
   * and tree are what was read up to there.
   */
  stopAtFirstError?: boolean;
  /**
   * Store map entries in the value (default true). The layout-only formatter, which proves its output
   * by the tokens and never reads the value, sets it false: a 50 MB config's 500,000 parameters are
   * then checked, but no map of them is built. Nothing the parser reports depends on a map's entries.
   */
  storeMapEntries?: boolean;
  /**
   * Give scalar nodes their source ranges (default true). The formatter, which prints the tree and
   * reads no range, sets it false: each scalar then shares one empty range at the file's start, and
   * a list element that is a plain scalar with no comment or blank line around it is shared with the
   * equal ones before it (read-only, as every node of that tree). A 3,000,000-element `dims` list
   * then holds an 8-byte slot per element where it held 264 bytes (two Positions, a Range, a scalar
   * and an element node).
   */
  ranges?: boolean;
  /**
   * Offsets of `#` read as sed-style template markers, not comments (template-markers.ts). parseText
   * sets it itself, on a second parse, when the first has errors.
   */
  templateMarkers?: ReadonlySet<number>;
}

/** The options that choose what a parse keeps (parseText's overloads): `lean` (with `keepTreeUpTo`), `onField` or `at`, one at most. */
interface ModeOptions {
  /**
   * The value without the syntax tree: each top-level field's nodes are dropped once it is parsed, so
   * a 50 MB config holds its value and no node per token (the tree's ranges, comments and positions
   * would outlive the parse). Where each top-level field is written is kept, for `at`. A clean text
   * (most configs) is read by the clean parse, without tokens or nodes; the tree parser says what is
   * wrong with the rest.
   */
  lean?: boolean;
  /**
   * With `lean`: a text the clean parse gives up on, of at most this many characters, is parsed with
   * its tree (the result's `tree`), where keeping the tree costs less than parsing fields again.
   */
  keepTreeUpTo?: number;
  /**
   * Each top-level field handed on as soon as it is parsed, and not kept: what streams through the
   * formatter.
   */
  onField?: (f: FieldNode) => void;
  /**
   * The syntax tree of the top-level fields that start at these positions (from a lean parse's spans
   * of the same text): the nodes the full parse would have made for them, ranges included; their
   * diagnostics are those the lean parse reported already.
   */
  at?: readonly Position[];
}

/** Thrown inside the parser to stop at the first error (stopAtFirstError). */
const STOP = Symbol('stop parsing');

/** protobuf's own limit on message nesting in text format. */
const MAX_DEPTH = 100;
const STRUCTURAL = new Set(['{', '}', '<', '>', '[', ']', ':', ',', ';']);
const FILE_START: Position = { line: 1, column: 1, offset: 0 };
/** Most nodes have no comments: they share this array, so it must never be mutated. */
const NO_COMMENTS: Comment[] = Object.freeze([]) as unknown as Comment[];
/** The range of every scalar of a parse without ranges (ParseOptions.ranges). */
const NO_RANGE: Range = Object.freeze({ start: FILE_START, end: FILE_START });
/** Distinct plain elements shared per parse without ranges: enough for the repeated values of real lists, bounded for any input. */
const MAX_SHARED_ELEMENTS = 4096;
/** Stands in for a node's value until it is parsed. */
const PENDING: ScalarNode = Object.freeze({ kind: 'scalar', range: { start: FILE_START, end: FILE_START }, text: '', value: undefined });

/**
 * Parses `text` as a `message`. By default the value, the diagnostics and the syntax tree in one
 * pass; the options choose a leaner mode (ModeOptions).
 */
export function parseText(text: string, message: SchemaMessage, options: ParseOptions & { at: readonly Position[] }): FieldNode[];
export function parseText(text: string, message: SchemaMessage, options: ParseOptions & { onField: (f: FieldNode) => void }): StreamParseResult;
export function parseText(text: string, message: SchemaMessage, options: ParseOptions & { lean: true; keepTreeUpTo?: number }): LeanParseResult;
export function parseText(text: string, message: SchemaMessage, options?: ParseOptions): ParseResult;
export function parseText(
  text: string,
  message: SchemaMessage,
  options: ParseOptions & ModeOptions = {},
): FieldNode[] | StreamParseResult | LeanParseResult | ParseResult {
  if (options.at) return options.at.map((start) => new Parser(text, message, options, undefined, start).parseOneField());
  if (options.onField) return new Parser(text, message, options, options.onField).parseEach();
  const parse = (o: ParseOptions & ModeOptions): LeanParseResult | ParseResult => {
    if (o.lean) return leanParse(text, message, o);
    const { value, tree, diagnostics } = treeParse(text, message, o);
    return { value, tree, diagnostics };
  };
  const first = parse(options);
  if (options.templateMarkers || !first.diagnostics.some((d) => d.severity === 'error')) return first;
  // A template with sed-style markers (template-markers.ts): read the candidates as markers, and keep
  // that reading only when the markers are all that is wrong; a real comment never becomes one.
  const templateMarkers = candidateMarkers(text);
  if (!templateMarkers.size) return first;
  const second = parse({ ...options, templateMarkers });
  const errors = second.diagnostics.filter((d) => d.severity === 'error');
  return errors.some((d) => d.messageId === 'templateMarker') && errors.every((d) => d.messageId === 'templateMarker' || d.messageId === 'templatePlaceholder')
    ? second
    : first;
}

function treeParse(text: string, message: SchemaMessage, options: ParseOptions): ParseResult & { spans: FieldSpans } {
  const fields: FieldNode[] = [];
  const r = new Parser(text, message, options, (f) => fields.push(f)).parseEach();
  // Stopped at the first error: the value read so far, and no tree.
  const tree: DocumentNode = r.end
    ? { kind: 'document', range: { start: FILE_START, end: r.end }, fields, dangling: r.dangling }
    : { kind: 'document', range: { start: FILE_START, end: FILE_START }, fields: [], dangling: [] };
  return { value: r.value, spans: r.spans, tree, diagnostics: r.diagnostics };
}

function leanParse(text: string, message: SchemaMessage, options: ParseOptions & ModeOptions): LeanParseResult {
  // The clean parse stores map entries: a parse that stores none goes to the tree parser.
  const clean = options.storeMapEntries === false ? undefined : parseCleanText(text, message);
  if (clean) return { value: clean.value, spans: clean.spans, diagnostics: [], clean: true };
  if (text.length <= (options.keepTreeUpTo ?? -1)) {
    const { value, spans, tree, diagnostics } = treeParse(text, message, options);
    return { value, spans, diagnostics, clean: false, tree };
  }
  const { value, spans, diagnostics } = new Parser(text, message, options, () => undefined).parseEach();
  return { value, spans, diagnostics, clean: false };
}

type MessageKind = Extract<FieldKind, { kind: 'message' }>;

/** Syntax errors reported per file; the rest are counted in one more. */
export const MAX_SYNTAX_ERRORS = 100;

class Parser {
  private readonly lexer: Lexer;
  /** Comments in source order; the lexer appends as it scans. */
  private readonly comments: Comment[];
  /** Tokens looked at but not consumed yet. */
  private readonly lookahead: Token[] = [];
  private last: Token | undefined;
  /** How many tokens have been consumed: a cheap way to tell whether something made progress. */
  private consumed = 0;
  private commentPos = 0;
  private depth = 0;
  private readonly diagnostics: Diagnostic[] = [];
  /** The value path of what is being parsed; copied only into diagnostics. */
  private readonly path: PathSegment[] = [];
  /** The fields of each open message, innermost last, to name a duplicate's first occurrence. */
  private readonly openFields: (FieldSpans | FieldNode[])[] = [];
  /** Where each top-level field is written. */
  private readonly topSpans: FieldSpans;
  /** A parse without ranges: its plain list elements, shared by field and text (ParseOptions.ranges). */
  private readonly sharedElements: Map<SchemaField | undefined, Map<string, ElementNode>> | undefined;
  private sharedCount = 0;

  constructor(
    private readonly text: string,
    private readonly root: SchemaMessage,
    private readonly options: ParseOptions,
    /**
     * Handed each top-level field once parsed (the full parse keeps it in the tree, a lean parse lets
     * it go, the formatter prints it); where each is written is kept (topSpans).
     */
    private readonly topField: ((f: FieldNode) => void) | undefined = undefined,
    /** Start at this position (one field parsed again). */
    from?: Position,
  ) {
    this.lexer = new Lexer(text, from, options.templateMarkers);
    this.topSpans = new FieldSpans(text);
    this.comments = this.lexer.comments;
    this.sharedElements = options.ranges === false ? new Map() : undefined;
  }

  /**
   * The value, diagnostics, the comments after the last field and where the text ends (undefined when
   * stopped at the first error); each top-level field went to `topField`.
   */
  parseEach(): StreamParseResult {
    const value = newMessageValue(this.root);
    try {
      this.byteOrderMark();
      this.parseFields(this.root, value, undefined);
    } catch (e) {
      if (e !== STOP) throw e;
      return { value, spans: new FieldSpans(this.text), diagnostics: this.finishDiagnostics(), dangling: [], end: undefined };
    }
    const end = tokenEnd(this.peek());
    return { value, spans: this.topSpans, diagnostics: this.finishDiagnostics(), dangling: this.takeCommentsBefore(Number.POSITIVE_INFINITY), end };
  }

  parseOneField(): FieldNode {
    return this.parseField(this.root, {});
  }

  private byteOrderMark(): void {
    if (this.text.charCodeAt(0) !== 0xfeff) return;
    this.report({ messageId: 'byteOrderMark', data: {} }, { start: FILE_START, end: { line: 1, column: 2, offset: 1 } });
    // Step over the BOM so the rest of the file is still checked.
    if (this.peek().text === '\uFEFF') this.next();
  }

  /**
   * In file order, one per position, at most MAX_SYNTAX_ERRORS. Where the lexer found a bad token the
   * parser trips over it too: the lexer's message says what is wrong, so it goes first and the
   * parser's at the same place is dropped. Beyond the cap one diagnostic counts the rest (protoc
   * stops at the first error; a file with thousands is better fixed from the top).
   */
  private finishDiagnostics(): Diagnostic[] {
    const parsed = this.diagnostics.splice(0);
    for (const e of this.lexer.errors) this.report(e, e.range);
    const all = [...this.diagnostics, ...parsed].sort((a, b) => a.range.start.offset - b.range.start.offset);
    const out: Diagnostic[] = [];
    for (const d of all) if (out.at(-1)?.range.start.offset !== d.range.start.offset) out.push(d);
    if (out.length <= MAX_SYNTAX_ERRORS) return out;
    const rest = out.splice(MAX_SYNTAX_ERRORS);
    const { file, range, path, severity } = rest[0]!;
    const more: ParseMessage = rest.length === 1 ? { messageId: 'oneMoreError', data: {} } : { messageId: 'moreErrors', data: { more: rest.length } };
    out.push(syntaxDiagnostic(more, file, range, path, severity === 'warning' ? 'warning' : 'error'));
    return out;
  }

  // ---- token and comment cursor ----

  private peek(k = 0): Token {
    const buf = this.lookahead;
    while (buf.length <= k) {
      const lastSeen = buf[buf.length - 1];
      if (lastSeen?.type === 'eof') return lastSeen;
      buf.push(this.lexer.next());
      if (this.options.stopAtFirstError && this.lexer.errors.length) throw STOP;
    }
    return buf[k]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') {
      this.lookahead.shift();
      this.last = t;
      this.consumed++;
    }
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

  private lastToken(): Token | undefined {
    return this.last;
  }

  private lastEnd(): Position {
    const t = this.lastToken();
    return t ? tokenEnd(t) : FILE_START;
  }

  /** Comments before `offset` not yet attached; a shared empty array when there are none (never mutate it). */
  private takeCommentsBefore(offset: number): Comment[] {
    if (this.commentPos >= this.comments.length || this.comments[this.commentPos]!.range.start.offset >= offset) return NO_COMMENTS;
    const out: Comment[] = [];
    while (this.commentPos < this.comments.length && this.comments[this.commentPos]!.range.start.offset < offset) {
      out.push(this.comments[this.commentPos++]!);
    }
    return out;
  }

  /** A comment that follows the last consumed token on the same line, before the next token. */
  private takeTrailingComment(): Comment | undefined {
    const nextStart = this.peek().start; // scans up to the next token, so its comments are known
    const c = this.comments[this.commentPos];
    const last = this.lastToken();
    if (c && last && c.range.start.line === last.endLine && c.range.start.offset >= last.end && c.range.start.offset < nextStart) {
      this.commentPos++;
      return c;
    }
    return undefined;
  }

  /** Fills in the comments and blank lines before a node that starts with `first`. */
  private leadingTrivia<T extends Trivia>(first: Token, node: T): T {
    const leading = this.takeCommentsBefore(first.start);
    node.leading = leading;
    node.blankLineBefore = (leading[0] ?? first).newlinesBefore >= 2;
    node.blankLineAfterComments = leading.length > 0 && first.newlinesBefore >= 2;
    return node;
  }

  // ---- diagnostics ----

  /** A diagnostic: a message of messages.ts and its values, at `range`. */
  private report(m: ParseMessage, range: Range, extraPath?: PathSegment, severity: 'error' | 'warning' = 'error'): void {
    const path = extraPath === undefined ? [...this.path] : [...this.path, extraPath];
    this.diagnostics.push(syntaxDiagnostic(m, this.options.file ?? '<input>', range, path, severity));
    if (this.options.stopAtFirstError && severity === 'error') throw STOP;
  }

  // ---- grammar ----

  private parseFields(msg: SchemaMessage | undefined, obj: PlainMessage, open: Token | undefined): FieldNode[] {
    const closer = open ? (open.text === '<' ? '>' : '}') : undefined;
    const fields: FieldNode[] = [];
    // Top-level fields are handed on, and only where each is written kept (to name a duplicate's first).
    const emit = open ? undefined : this.topField;
    this.openFields.push(emit ? this.topSpans : fields);
    try {
      for (;;) {
        const t = this.peek();
        if (t.type === 'eof') {
          if (open)
            this.report({ messageId: 'unterminatedBlock', data: { open: open.text, line: open.line, column: open.column, close: closer! } }, tokenRange(open));
          return fields;
        }
        if (closer && this.isSymbol(t, closer)) return fields;
        if (t.type === 'ident') {
          const f = this.parseField(msg, obj);
          if (emit) {
            // Two small objects per field, the name shared with the schema: a 50 MB config has 500,000.
            this.topSpans.add(f.field?.name ?? f.name, f.nameRange.start.offset);
            emit(f);
          } else fields.push(f);
          continue;
        }
        if (t.type === 'symbol' && (t.text === '}' || t.text === '>')) {
          if (open) {
            // Take the wrong bracket as the close the author meant, so the error is reported once.
            this.report(
              { messageId: 'wrongClosingBracket', data: { close: closer!, found: t.text, open: open.text, line: open.line, column: open.column } },
              tokenRange(t),
            );
            return fields;
          }
          this.report({ messageId: 'unmatchedClosingBracket', data: { found: t.text } }, tokenRange(t));
        } else {
          // Not the end of the text: that ends the loop above.
          this.report({ messageId: 'expectedFieldName', data: { found: t.text } }, tokenRange(t));
        }
        this.next();
      }
    } finally {
      this.openFields.pop();
    }
  }

  private parseField(msg: SchemaMessage | undefined, obj: PlainMessage): FieldNode {
    const nameTok = this.next();
    const name = nameTok.text;
    const field = msg?.fields.get(name);
    const nameRange = tokenRange(nameTok);
    const node: FieldNode = this.leadingTrivia(nameTok, {
      kind: 'field',
      name,
      nameRange,
      field,
      colon: false,
      value: PENDING,
      range: nameRange,
      leading: NO_COMMENTS,
      blankLineBefore: false,
      blankLineAfterComments: false,
    });
    if (msg && !field) {
      const hint = didYouMean(name, msg.fields.keys());
      if (hint) this.report({ messageId: 'unknownFieldDidYouMean', data: { message: msg.fullName, field: name, suggestion: hint } }, nameRange, name);
      else this.report({ messageId: 'unknownField', data: { message: msg.fullName, field: name } }, nameRange, name);
    }
    node.colon = this.trySymbol(':') !== undefined;
    if (!field) node.value = this.skipValue(node.colon);
    else {
      this.path.push(name);
      if (field.type.kind === 'message') node.value = this.parseMessageFieldValue(field, field.type, obj, nameTok);
      else node.value = this.parseScalarFieldValue(field, obj, nameTok, node.colon);
      this.path.pop();
    }
    node.range = { start: nameRange.start, end: node.value.range.end };
    const separator = this.trySymbol(';') ?? this.trySymbol(',');
    if (separator) node.separator = separator.text as ',' | ';';
    const trailing = this.takeTrailingComment();
    if (trailing) node.trailing = trailing;
    // Comments inside the field that no inner node claimed (e.g. between the name and the value)
    // stay with the field rather than being lost.
    const last = this.lastToken();
    const stray = last ? this.takeCommentsBefore(last.end) : [];
    if (stray.length) node.leading = [...node.leading, ...stray];
    return node;
  }

  private emptyScalar(at: Position): ScalarNode {
    return { kind: 'scalar', range: { start: at, end: at }, text: '', value: undefined };
  }

  // -- message-typed fields --

  private parseMessageFieldValue(field: SchemaField, type: MessageKind, obj: PlainMessage, nameTok: Token): ValueNode {
    const t = this.peek();
    if (this.isSymbol(t, '[')) {
      if (!field.repeated) {
        this.report({ messageId: 'notRepeatedMessage', data: { field: field.name } }, tokenRange(t));
        return this.parseList(() => this.parseMessageElement(field, type.message, undefined, nameTok));
      }
      // A list written empty still sets the field, as `dims: [ ]` does.
      if (field.mapEntry) obj[field.name] ??= {};
      else obj[field.name] ??= [];
      return this.parseList(() => this.parseMessageElement(field, type.message, obj, nameTok));
    }
    if (this.isSymbol(t, '{') || this.isSymbol(t, '<')) return this.parseMessageElement(field, type.message, obj, nameTok);
    if (t.type === 'eof') this.report({ messageId: 'expectedMessageEof', data: { field: field.name, message: type.message.fullName } }, tokenRange(t));
    else this.report({ messageId: 'expectedMessage', data: { found: t.text, field: field.name, message: type.message.fullName } }, tokenRange(t));
    if (t.type !== 'eof' && t.type !== 'ident' && !STRUCTURAL.has(t.text)) this.next();
    return this.emptyScalar(this.lastEnd());
  }

  /**
   * Parses one `{ ... }` of a message field and stores it in obj: pushed, set, or added to the map.
   * With obj undefined (after an error) the message is checked but stored nowhere.
   */
  private parseMessageElement(field: SchemaField, msg: SchemaMessage, obj: PlainMessage | undefined, nameTok: Token): MessageNode | ScalarNode {
    const open = this.peek();
    if (!this.isSymbol(open, '{') && !this.isSymbol(open, '<')) {
      // Not the end of the text: parseList stops there before an element.
      this.report({ messageId: 'expectedMessageElement', data: { found: open.text, field: field.name } }, tokenRange(open));
      if (open.type !== 'eof' && !STRUCTURAL.has(open.text)) this.next();
      return this.emptyScalar(this.lastEnd());
    }
    const child = newMessageValue(msg);
    if (!obj) return this.parseMessageBlock(msg, child);
    if (field.mapEntry) {
      const node = this.parseMessageBlock(msg, child);
      if (this.options.storeMapEntries !== false) storeMapEntry(field.mapEntry, obj, field.name, child);
      return node;
    }
    if (field.repeated) {
      const list = (obj[field.name] ??= []) as unknown[];
      this.path.push(list.length);
      list.push(child);
      const node = this.parseMessageBlock(msg, child);
      this.path.pop();
      return node;
    }
    const ok = this.claimSingular(field, obj, nameTok);
    const node = this.parseMessageBlock(msg, child);
    if (ok) obj[field.name] = child;
    return node;
  }

  private parseMessageBlock(msg: SchemaMessage | undefined, obj: PlainMessage): MessageNode {
    const open = this.next();
    const openRange = tokenRange(open);
    const node: MessageNode = { kind: 'message', range: openRange, message: msg, fields: [], dangling: NO_COMMENTS };
    if (open.text === '<') node.angle = true;
    const openComment = this.takeTrailingComment();
    if (openComment) node.openComment = openComment;
    if (this.depth >= MAX_DEPTH) {
      this.report({ messageId: 'tooDeep', data: { max: MAX_DEPTH } }, openRange);
      this.skipBalanced();
      node.range = { start: openRange.start, end: this.lastEnd() };
      return node;
    }
    this.depth++;
    node.fields = this.parseFields(msg, obj, open);
    this.depth--;
    const close = this.peek();
    node.dangling = this.takeCommentsBefore(close.start);
    if (close.type !== 'eof') this.next();
    node.range = { start: openRange.start, end: this.lastEnd() };
    return node;
  }

  // -- scalar fields --

  private parseScalarFieldValue(field: SchemaField, obj: PlainMessage, nameTok: Token, colon: boolean): ValueNode {
    if (!colon) {
      const t = this.peek();
      if (t.type === 'eof') this.report({ messageId: 'expectedColonEof', data: { field: field.name } }, tokenRange(t));
      else this.report({ messageId: 'expectedColon', data: { found: t.text, field: field.name } }, tokenRange(t));
      if (!this.looksLikeValue()) return this.emptyScalar(tokenEnd(nameTok));
    }
    if (this.isSymbol(this.peek(), '[')) {
      if (!field.repeated) {
        this.report({ messageId: 'notRepeatedScalar', data: { field: field.name } }, tokenRange(this.peek()));
        return this.parseList(() => this.parseScalar(field), field);
      }
      const list = (obj[field.name] ??= []) as unknown[];
      return this.parseList(() => this.parseRepeatedScalar(field, list), field);
    }
    if (field.repeated) return this.parseRepeatedScalar(field, (obj[field.name] ??= []) as unknown[]);
    const node = this.parseScalar(field);
    if (node.value !== undefined && this.claimSingular(field, obj, nameTok)) obj[field.name] = node.value;
    return node;
  }

  private parseRepeatedScalar(field: SchemaField, list: unknown[]): ScalarNode {
    this.path.push(list.length);
    const node = this.parseScalar(field);
    this.path.pop();
    if (node.value !== undefined) list.push(node.value);
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
  private claimSingular(field: SchemaField, obj: PlainMessage, nameTok: Token): boolean {
    if (field.oneof) {
      for (const other of field.parent.fieldList) {
        if (other.oneof !== field.oneof || other === field || !(other.name in obj)) continue;
        const first = this.firstOccurrence(other.name, nameTok);
        this.report(
          { messageId: 'oneofConflict', data: { field: field.name, other: other.name, oneof: field.oneof, line: first.line, column: first.column } },
          tokenRange(nameTok),
        );
        return false;
      }
    }
    if (field.name in obj) {
      const present = field.type.kind === 'message' || field.oneof !== undefined || obj[field.name] !== defaultScalar(field.type);
      if (present) {
        const first = this.firstOccurrence(field.name, nameTok);
        this.report({ messageId: 'duplicateField', data: { field: field.name, line: first.line, column: first.column } }, tokenRange(nameTok));
        return false;
      }
    }
    return true;
  }

  /**
   * Where the first field named `name` in the message being parsed is. A field is in `obj` only once
   * parsed in this message, so it is always found; `here` stands in should it not be.
   */
  private firstOccurrence(name: string, here: Token): { line: number; column: number } {
    const open = this.openFields.at(-1);
    const at = open instanceof FieldSpans ? open.firstOf(name) : open?.find((n) => n.name === name)?.nameRange.start;
    return at ?? here;
  }

  /**
   * In a parse without ranges, the element at `index` of `list`, once complete, replaced by an equal
   * one made before where it is a plain scalar (no comment, no blank line, its value as written).
   */
  private shareElement(list: ListNode, index: number, field: SchemaField | undefined): void {
    const e = list.elements[index]!;
    const v = e.value;
    if (!this.sharedElements || v.kind !== 'scalar' || !v.text || v.verbatim || e.leading.length || e.trailing || e.blankLineBefore || e.blankLineAfterComments)
      return;
    let byText = this.sharedElements.get(field);
    const shared = byText?.get(v.text);
    if (shared) {
      list.elements[index] = shared;
      return;
    }
    if (this.sharedCount >= MAX_SHARED_ELEMENTS) return;
    if (!byText) this.sharedElements.set(field, (byText = new Map<string, ElementNode>()));
    byText.set(v.text, e);
    this.sharedCount++;
  }

  private parseList<N extends ScalarNode | MessageNode>(parseElement: () => N, field?: SchemaField): ListNode {
    const open = this.next();
    const openRange = tokenRange(open);
    const node: ListNode = { kind: 'list', range: openRange, elements: [], dangling: NO_COMMENTS };
    const openComment = this.takeTrailingComment();
    if (openComment) node.openComment = openComment;
    const unterminated = (): void => this.report({ messageId: 'unterminatedList', data: { line: open.line, column: open.column } }, openRange);
    if (!this.trySymbol(']')) {
      for (;;) {
        const first = this.peek();
        if (first.type === 'eof') {
          unterminated();
          break;
        }
        const startCount = this.consumed;
        const element: ElementNode = this.leadingTrivia(first, { value: PENDING, leading: NO_COMMENTS, blankLineBefore: false, blankLineAfterComments: false });
        element.value = parseElement();
        node.elements.push(element);
        // A comment right after the element (before "," or "]") or right after its "," trails it; one
        // after the closing "]" trails the whole field.
        const trailing = this.takeTrailingComment();
        if (trailing) element.trailing = trailing;
        if (this.trySymbol(']')) {
          this.shareElement(node, node.elements.length - 1, field);
          break;
        }
        const sep = this.peek();
        if (this.isSymbol(sep, ',')) {
          this.next();
          const afterComma = element.trailing ? undefined : this.takeTrailingComment();
          if (afterComma) element.trailing = afterComma;
          this.shareElement(node, node.elements.length - 1, field);
          if (this.isSymbol(this.peek(), ']')) {
            this.report({ messageId: 'trailingComma', data: {} }, tokenRange(sep));
            node.dangling = this.takeCommentsBefore(this.peek().start);
            this.next();
            break;
          }
          continue;
        }
        if (sep.type === 'eof') {
          unterminated();
          break;
        }
        // Not the end of the text: that is unterminated, above.
        this.report({ messageId: 'expectedListSeparator', data: { found: sep.text } }, tokenRange(sep));
        // Recover: a closing brace ends the list (the enclosing block will consume it); the start of a
        // field ends it too; an element-like token means a missing comma; anything else is skipped.
        if (this.isSymbol(sep, '}') || this.isSymbol(sep, '>')) break;
        if (sep.type === 'ident' && (this.isSymbol(this.peek(1), ':') || this.isSymbol(this.peek(1), '{'))) break;
        const elementStart =
          sep.type === 'int' || sep.type === 'float' || sep.type === 'string' || this.isSymbol(sep, '{') || this.isSymbol(sep, '<') || this.isSymbol(sep, '-');
        // Always make progress: a token no element could start with is skipped.
        if (!elementStart || this.consumed === startCount) this.next();
      }
    }
    if (!node.dangling.length) {
      const last = this.lastToken();
      if (last) node.dangling = this.takeCommentsBefore(last.end);
    }
    node.range = { start: openRange.start, end: this.lastEnd() };
    return node;
  }

  /** Parses one scalar value for the field; the node's value is undefined when it is invalid. */
  private parseScalar(field: SchemaField): ScalarNode {
    const first = this.peek();
    const type = field.type;
    let value: ScalarValue | undefined;
    let verbatim = false;
    const fail = (m: ParseMessage, range: Range = tokenRange(first)): void => this.report(m, range);
    // Consume a bad token unless it is structure the enclosing grammar needs to see.
    const skipBad = (): void => {
      if (first.type !== 'eof' && !STRUCTURAL.has(first.text)) this.next();
    };
    if (first.type === 'invalid') {
      // A malformed number, already reported by the tokenizer: skip it quietly.
      this.next();
      return { kind: 'scalar', range: tokenRange(first), text: first.text, value: undefined };
    }
    const placeholder = this.templatePlaceholder();
    if (placeholder?.marker) {
      const name = placeholder.text.slice(placeholder.text.indexOf('#') + 1);
      this.report({ messageId: 'templateMarker', data: { placeholder: placeholder.text, field: field.name, name } }, placeholder.range);
      return { kind: 'scalar', range: placeholder.range, text: placeholder.text, value: undefined };
    }
    if (placeholder) {
      const name = placeholder.text.replace(/^\$\{?|\}$/g, '');
      this.report({ messageId: 'templatePlaceholder', data: { placeholder: placeholder.text, field: field.name, name } }, placeholder.range);
      return { kind: 'scalar', range: placeholder.range, text: placeholder.text, value: undefined };
    }

    if (type.kind === 'scalar' && (type.type === 'string' || type.type === 'bytes')) {
      if (first.type !== 'string') {
        if (first.type === 'eof') fail({ messageId: 'expectedStringEof', data: { field: field.name } });
        else if (first.type === 'ident') fail({ messageId: 'expectedStringIdent', data: { field: field.name, found: first.text } });
        else fail({ messageId: 'expectedString', data: { field: field.name, found: first.text } });
        skipBad();
      } else {
        let s = '';
        while (this.peek().type === 'string') {
          const lit = this.next();
          const decoded = unescapeStringLiteral(lit.text);
          if (decoded.error) {
            const at: Position = { line: lit.line, column: lit.column + decoded.error.index, offset: lit.start + decoded.error.index };
            this.report(decoded.error, { start: at, end: tokenEnd(lit) });
          } else if (decoded.notUtf8) {
            verbatim = true;
            // protobuf's C++ parser keeps the bytes (Triton loads the config); serializing the field
            // later logs "String field '...' contains invalid UTF-8 data" (wire_format_lite.cc).
            this.report({ messageId: type.type === 'string' ? 'notUtf8String' : 'notUtf8Bytes', data: {} }, tokenRange(lit), undefined, 'warning');
          }
          s += decoded.value;
        }
        value = s;
      }
    } else if (type.kind === 'scalar' && type.type === 'bool') {
      if (first.type === 'ident' && (first.text === 'true' || first.text === 'True' || first.text === 't')) value = true;
      else if (first.type === 'ident' && (first.text === 'false' || first.text === 'False' || first.text === 'f')) value = false;
      else if (first.type === 'int' && (first.text === '1' || first.text === '0')) value = first.text === '1';
      if (value === undefined) {
        fail({ messageId: 'badBool', data: { field: field.name, value: first.text } });
        skipBad();
      } else this.next();
    } else if (type.kind === 'enum') {
      if (first.type === 'ident') {
        this.next();
        if (type.enum.byName.has(first.text)) value = first.text;
        else {
          const hint = this.options.enumMeaning?.(type.enum.fullName, first.text) ?? didYouMean(first.text, type.enum.names);
          const data = { value: first.text, field: field.name };
          if (hint) fail({ messageId: 'unknownEnumDidYouMean', data: { ...data, suggestion: hint } });
          // A short enum's values are listed; a long one's (data types) would crowd the message.
          else if (type.enum.names.length <= 16) fail({ messageId: 'unknownEnumValues', data: { ...data, values: type.enum.names.join(', ') } });
          else fail({ messageId: 'unknownEnum', data });
        }
      } else {
        const int = this.parseSignedIntegerTokens(true);
        if (int.value === undefined) {
          if (first.type === 'eof') fail({ messageId: 'expectedEnumEof', data: { field: field.name, enum: type.enum.fullName } });
          else fail({ messageId: 'expectedEnum', data: { field: field.name, enum: type.enum.fullName, found: first.text } });
          skipBad();
        } else if (int.value < ENUM_RANGE.min || int.value > ENUM_RANGE.max) {
          fail({ messageId: 'enumOutOfRange', data: { value: int.text, field: field.name } }, { start: tokenStart(first), end: this.lastEnd() });
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
        if (tok.type === 'eof') fail({ messageId: 'expectedDoubleEof', data: { field: field.name } }, tokenRange(tok));
        else fail({ messageId: 'expectedDouble', data: { field: field.name, found: tok.text } }, tokenRange(tok));
        if (neg) this.next();
        if (tok.type !== 'eof' && !STRUCTURAL.has(tok.text)) this.next();
      } else {
        if (neg) this.next();
        this.next();
        value = neg ? -v : v;
      }
    } else if (type.kind === 'scalar') {
      const range = integerRange(type.type)!;
      const unsigned = range.min === 0n;
      if (unsigned && this.isSymbol(first, '-')) {
        const after = this.peek(1);
        this.next();
        if (after.type === 'int' || after.type === 'float') this.next();
        fail({ messageId: 'negativeUnsigned', data: { field: field.name, type: type.type } }, { start: tokenStart(first), end: this.lastEnd() });
      } else {
        const int = this.parseSignedIntegerTokens(!unsigned);
        if (int.value === undefined) {
          const tok = this.isSymbol(first, '-') ? this.peek(1) : first;
          if (tok.type === 'eof') fail({ messageId: 'expectedIntegerEof', data: { field: field.name, type: type.type } }, tokenRange(tok));
          else fail({ messageId: 'expectedInteger', data: { field: field.name, type: type.type, found: tok.text } }, tokenRange(tok));
          skipBad();
        } else if (int.value < range.min || int.value > range.max) {
          // The bounds as text: a 64-bit bound is a bigint, which a finding's data (JSON) cannot hold.
          fail(
            { messageId: 'integerOutOfRange', data: { value: int.text, field: field.name, type: type.type, min: String(range.min), max: String(range.max) } },
            { start: tokenStart(first), end: this.lastEnd() },
          );
        } else {
          value = is64Bit(type.type) ? toInt64(int.value) : Number(int.value);
        }
      }
    }
    const consumed = this.last !== undefined && this.last.start >= first.start;
    const endOffset = consumed ? this.last!.end : first.start;
    const text = this.last === first ? first.text : this.text.slice(first.start, endOffset);
    const range = this.sharedElements ? NO_RANGE : { start: tokenStart(first), end: consumed ? this.lastEnd() : tokenStart(first) };
    const node: ScalarNode = { kind: 'scalar', range, text, value };
    if (verbatim) node.verbatim = true;
    return node;
  }

  /**
   * Consumes a `${name}` template placeholder (as in Triton's fill_template.py templates), or a sed-style
   * `#name` marker the lexer was told of (an identifier holding `#`: template-markers.ts), if one is next.
   */
  private templatePlaceholder(): { text: string; range: Range; marker?: true } | undefined {
    const dollar = this.peek();
    if (dollar.type === 'ident' && dollar.text.includes('#')) {
      this.next();
      return { text: dollar.text, range: tokenRange(dollar), marker: true };
    }
    if (!this.isSymbol(dollar, '$')) return undefined;
    const open = this.peek(1);
    if (!this.isSymbol(open, '{') || open.start !== dollar.end) return undefined;
    let k = 2;
    while (this.peek(k).type === 'ident' && k < 4) k++;
    const close = this.peek(k);
    if (!this.isSymbol(close, '}') || close.line !== dollar.line) return undefined;
    for (let i = 0; i <= k; i++) this.next();
    return { text: this.text.slice(dollar.start, close.end), range: { start: tokenStart(dollar), end: tokenEnd(close) } };
  }

  /** `[-] int`; consumes only when it is an integer. */
  private parseSignedIntegerTokens(allowMinus: boolean): { value: bigint | undefined; text: string } {
    const first = this.peek();
    const neg = allowMinus && this.isSymbol(first, '-');
    const tok = neg ? this.peek(1) : first;
    if (tok.type !== 'int') return { value: undefined, text: tok.text };
    if (neg) this.next();
    this.next();
    const magnitude = integerTokenValue(tok.text);
    return { value: neg ? -magnitude : magnitude, text: `${neg ? '-' : ''}${tok.text}` };
  }

  // -- unknown fields: skip their value so parsing can go on --

  private skipValue(colon: boolean): ValueNode {
    const t = this.peek();
    if (this.isSymbol(t, '{') || this.isSymbol(t, '<')) return this.parseMessageBlock(undefined, {});
    if (this.isSymbol(t, '[')) {
      return this.parseList(() => {
        const e = this.peek();
        if (this.isSymbol(e, '{') || this.isSymbol(e, '<')) return this.parseMessageBlock(undefined, {});
        return this.skipScalar();
      });
    }
    if (!colon) return this.emptyScalar(this.lastEnd());
    return this.skipScalar();
  }

  private skipScalar(): ScalarNode {
    const first = this.peek();
    const before = this.consumed;
    if (this.isSymbol(first, '-')) this.next();
    const t = this.peek();
    if (t.type === 'string') while (this.peek().type === 'string') this.next();
    else if (t.type === 'int' || t.type === 'float' || t.type === 'ident' || t.type === 'invalid') this.next();
    const end = this.consumed > before ? this.lastEnd() : tokenStart(first);
    return { kind: 'scalar', range: { start: tokenStart(first), end }, text: '', value: undefined };
  }

  private skipBalanced(): void {
    let depth = 1;
    while (depth > 0) {
      const t = this.next();
      if (t.type === 'eof') return;
      if (t.type === 'symbol' && (t.text === '{' || t.text === '<')) depth++;
      else if (t.type === 'symbol' && (t.text === '}' || t.text === '>')) depth--;
    }
  }
}
