// Reads what a Python model's `TritonPythonModel.auto_complete_config` does to the config it is given,
// without running Python: the straight-line code Triton's own model.py files use (literal dicts and
// lists, dict(k=v), local names, loops over a literal list, calls of the config's helpers, return).
// It evaluates that subset only; at the first statement it cannot follow (a call of another function,
// a computed value, a branch) it stops, and everything after is "not known" (`unknown`), never guessed.
// What the helpers then do to the config is src/triton's (python_backend's ModelConfig class).
import { tokenize, type Token } from './tokenizer.js';

/** A Python value the reader could evaluate, or `unknown` with why not. */
export type PyValue =
  | { t: 'int'; v: number }
  | { t: 'float'; v: number }
  | { t: 'str'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'none' }
  | { t: 'list'; items: PyValue[] }
  | { t: 'tuple'; items: PyValue[] }
  | { t: 'dict'; entries: [PyValue, PyValue][] }
  | { t: 'unknown'; why: string };

/** The helpers of python_backend's ModelConfig that change the config (triton_python_backend_utils.py). */
export const CONFIG_HELPERS = ['set_max_batch_size', 'set_dynamic_batching', 'add_input', 'add_output', 'set_model_transaction_policy'] as const;
export type ConfigHelper = (typeof CONFIG_HELPERS)[number];
/** Each helper's parameter names, for keyword arguments. */
const HELPER_PARAMS: Record<ConfigHelper, readonly string[]> = {
  set_max_batch_size: ['max_batch_size'],
  set_dynamic_batching: [],
  add_input: ['input'],
  add_output: ['output'],
  set_model_transaction_policy: ['transaction_policy_dict'],
};
/** Helpers that only read the config: calling them as a statement changes nothing. */
const READ_ONLY_HELPERS = new Set(['as_dict']);

/** One call of a helper on the config, with its argument evaluated. */
export interface ScriptCall {
  method: ConfigHelper;
  /** The argument (none for set_dynamic_batching). */
  arg?: PyValue;
  line: number;
  col: number;
}

export interface Where {
  line: number;
  col: number;
}

export interface ScriptFacts {
  /** Whether TritonPythonModel defines auto_complete_config (false: the stub returns the config as given). */
  defines: boolean;
  /** Where the function is defined. */
  at?: Where;
  /** The name of its parameter that holds the config. */
  parameter?: string;
  /** The helper calls it makes, in order, up to `unknown`. */
  calls: ScriptCall[];
  /** What it returns: the config it was given, or something else (no return, None, another value). */
  returns?: 'config' | 'other';
  /** The first thing the reader could not follow: nothing after it is known (more calls, the return). */
  unknown?: Where & { reason: string };
  /** Run only: the exception auto_complete_config raised other than a helper's ValueError ("TypeError: ..."). */
  raised?: string;
}

/**
 * How far the reader goes: helper calls, loop iterations, and the values the calls' arguments hold in
 * all (each call keeps a copy of its argument: one large dict handed in a loop would otherwise grow
 * with the calls times the dict), so a hostile file stays cheap.
 */
export const READ_LIMITS = { maxCalls: 10_000, maxSteps: 100_000, maxArgumentValues: 1_000_000 } as const;

class Stop extends Error {
  constructor(readonly where: Where & { reason: string }) {
    super(where.reason);
  }
}

const unknown = (why: string): PyValue => ({ t: 'unknown', why });
const TERMINATORS = new Set([',', ')', ']', '}', ':', '=', ';']);
const COMPOUND = new Set([
  'if',
  'elif',
  'else',
  'while',
  'with',
  'try',
  'except',
  'finally',
  'def',
  'class',
  'async',
  'match',
  'lambda',
  'global',
  'nonlocal',
  'del',
  'raise',
  'assert',
  'import',
  'from',
  'yield',
  'await',
  'break',
  'continue',
]);

/** Python equality of two evaluated values (1 == True, as Python compares them). */
export function pyEquals(a: PyValue, b: PyValue): boolean | undefined {
  if (a.t === 'unknown' || b.t === 'unknown') return undefined;
  const num = (x: PyValue): number | undefined => (x.t === 'int' || x.t === 'float' ? x.v : x.t === 'bool' ? (x.v ? 1 : 0) : undefined);
  const na = num(a);
  const nb = num(b);
  if (na !== undefined || nb !== undefined) return na === nb;
  if (a.t === 'str' && b.t === 'str') return a.v === b.v;
  if (a.t === 'none' || b.t === 'none') return a.t === b.t;
  if ((a.t === 'list' && b.t === 'list') || (a.t === 'tuple' && b.t === 'tuple')) {
    if (a.items.length !== b.items.length) return false;
    for (let i = 0; i < a.items.length; i++) {
      const e = pyEquals(a.items[i]!, b.items[i]!);
      if (e !== true) return e;
    }
    return true;
  }
  if (a.t === 'dict' && b.t === 'dict') {
    if (a.entries.length !== b.entries.length) return false;
    for (const [k, v] of a.entries) {
      const other = b.entries.find(([k2]) => pyEquals(k, k2) === true);
      if (!other) return false;
      const e = pyEquals(v, other[1]);
      if (e !== true) return e;
    }
    return true;
  }
  return false;
}

/** A dict's value at a str key. */
export function dictGet(d: PyValue, key: string): PyValue | undefined {
  return d.t === 'dict' ? d.entries.find(([k]) => k.t === 'str' && k.v === key)?.[1] : undefined;
}

/** Whether a value holds an unknown part anywhere. */
export function hasUnknown(v: PyValue): boolean {
  if (v.t === 'unknown') return true;
  if (v.t === 'list' || v.t === 'tuple') return v.items.some(hasUnknown);
  if (v.t === 'dict') return v.entries.some(([k, x]) => hasUnknown(k) || hasUnknown(x));
  return false;
}

/** The first unknown part's reason. */
function unknownWhy(v: PyValue): string | undefined {
  if (v.t === 'unknown') return v.why;
  const parts = v.t === 'list' || v.t === 'tuple' ? v.items : v.t === 'dict' ? v.entries.flat() : [];
  for (const p of parts) {
    const w = unknownWhy(p);
    if (w) return w;
  }
  return undefined;
}

/** What the reader says where it has a bug: the fuzz tests hold that it never says it. */
export const READER_FAILED = 'the reader failed on this model.py (a bug in tritonc)';

/** What `TritonPythonModel.auto_complete_config` in `text` does, as far as it can be read without running it. */
export function readAutoCompleteConfig(text: string): ScriptFacts {
  try {
    return read(text);
  } catch {
    // Never a crash of the run for a file tritonc reads: this model's completion is not known.
    return { defines: true, calls: [], unknown: { line: 1, col: 1, reason: READER_FAILED } };
  }
}

function read(text: string): ScriptFacts {
  const { tokens, error } = tokenize(text);
  const facts: ScriptFacts = { defines: false, calls: [] };
  const endAt = (t: Token | undefined): Where => (t ? { line: t.line, col: t.col } : { line: 1, col: 1 });
  if (error) {
    // Tokens up to the error are still read; a function that reaches it is not known from there.
    tokens.push({ kind: 'end', text: '', offset: error.offset, line: error.line, col: error.col });
  }
  const tokErr = error ? { line: error.line, col: error.col, reason: `model.py cannot be read past line ${error.line} (${error.reason})` } : undefined;
  // The last top-level class TritonPythonModel.
  let classAt = -1;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'indent') depth++;
    else if (t.kind === 'dedent') depth--;
    else if (
      depth === 0 &&
      t.kind === 'name' &&
      t.text === 'class' &&
      tokens[i + 1]?.text === 'TritonPythonModel' &&
      (i === 0 || tokens[i - 1]!.kind === 'newline' || tokens[i - 1]!.kind === 'dedent')
    )
      classAt = i;
  }
  if (classAt < 0) {
    if (tokErr) return { ...facts, unknown: tokErr };
    if (tokens.some((t) => t.kind === 'name' && t.text === 'TritonPythonModel'))
      return { ...facts, unknown: { line: 1, col: 1, reason: 'TritonPythonModel is not defined by a class statement at the top of model.py' } };
    return facts;
  }
  // The class header: bases, then ':' NEWLINE INDENT body DEDENT.
  let i = classAt + 2;
  let bases = false;
  if (tokens[i]?.text === '(') {
    const close = matching(tokens, i);
    const inner = tokens.slice(i + 1, close).filter((t) => t.text !== ',');
    bases = inner.length > 0 && !(inner.length === 1 && inner[0]!.text === 'object');
    i = close + 1;
  }
  // A body on the header's line (class TritonPythonModel: pass): simple statements, no def.
  if (tokens[i]?.text === ':' && tokens[i + 1]?.kind !== 'newline') {
    const end = lineEnd(tokens, i + 1);
    if (tokens.slice(i + 1, end).some((t) => t.text === 'auto_complete_config'))
      return { ...facts, unknown: { ...endAt(tokens[classAt]), reason: 'auto_complete_config is assigned, not defined with def' } };
    if (bases) return { ...facts, unknown: { ...endAt(tokens[classAt]), reason: 'TritonPythonModel has base classes, which may define auto_complete_config' } };
    return tokErr ? { ...facts, unknown: tokErr } : facts;
  }
  if (tokens[i]?.text !== ':' || tokens[i + 1]?.kind !== 'newline' || tokens[i + 2]?.kind !== 'indent') {
    return {
      ...facts,
      unknown: { ...endAt(tokens[classAt]), reason: tokErr?.reason ?? 'the class TritonPythonModel is not written as a block the reader follows' },
    };
  }
  i += 3;
  // Class body statements: find the last `def auto_complete_config` and its decorators.
  let def: { at: number; decorators: string[] } | undefined;
  let assigned: Token | undefined;
  let decorators: string[] = [];
  while (i < tokens.length && tokens[i]!.kind !== 'dedent' && tokens[i]!.kind !== 'end') {
    const t = tokens[i]!;
    if (t.text === '@') {
      const end = lineEnd(tokens, i);
      decorators.push(
        tokens
          .slice(i + 1, end)
          .map((x) => x.text)
          .join(''),
      );
      i = end + 1;
      continue;
    }
    if (t.text === 'def' && tokens[i + 1]?.text === 'auto_complete_config') {
      def = { at: i, decorators };
      assigned = undefined;
    } else if (t.kind === 'name' && t.text === 'auto_complete_config') {
      assigned = t;
      def = undefined;
    }
    decorators = [];
    i = statementEnd(tokens, i);
  }
  if (assigned)
    return { ...facts, defines: true, at: endAt(assigned), unknown: { ...endAt(assigned), reason: 'auto_complete_config is assigned, not defined with def' } };
  if (!def) {
    if (bases) return { ...facts, unknown: { ...endAt(tokens[classAt]), reason: 'TritonPythonModel has base classes, which may define auto_complete_config' } };
    if (tokErr) return { ...facts, unknown: tokErr };
    return facts;
  }
  facts.defines = true;
  facts.at = endAt(tokens[def.at]);
  const kind =
    def.decorators.length === 0
      ? 'plain'
      : def.decorators.length === 1 && def.decorators[0] === 'staticmethod'
        ? 'static'
        : def.decorators.length === 1 && def.decorators[0] === 'classmethod'
          ? 'class'
          : undefined;
  if (!kind) return { ...facts, unknown: { ...facts.at, reason: `auto_complete_config is decorated with @${def.decorators.join(', @')}` } };
  // Parameters.
  let p = def.at + 2;
  if (tokens[p]?.text !== '(') return { ...facts, unknown: { ...facts.at, reason: tokErr?.reason ?? 'the definition of auto_complete_config cannot be read' } };
  const close = matching(tokens, p);
  const params: string[] = [];
  for (let k = p + 1; k < close; k++) {
    const prev = tokens[k - 1]!.text;
    if (tokens[k]!.kind === 'name' && (prev === '(' || prev === ',')) params.push(tokens[k]!.text);
    else if ((prev === '(' || prev === ',') && (tokens[k]!.text === '*' || tokens[k]!.text === '**'))
      return { ...facts, unknown: { ...facts.at, reason: 'auto_complete_config takes *args or **kwargs' } };
  }
  const configName = params[kind === 'class' ? 1 : 0];
  if (configName === undefined) return { ...facts, unknown: { ...facts.at, reason: 'auto_complete_config takes no parameter for the config' } };
  facts.parameter = configName;
  p = close + 1;
  if (tokens[p]?.text === '->') p = skipTo(tokens, p + 1, (t) => t.text === ':');
  if (tokens[p]?.text !== ':') return { ...facts, unknown: { ...facts.at, reason: tokErr?.reason ?? 'the definition of auto_complete_config cannot be read' } };
  p++;
  const run = new Runner(tokens, configName, facts, tokErr);
  try {
    if (tokens[p]?.kind === 'newline' && tokens[p + 1]?.kind === 'indent') run.block(p + 2);
    else run.simpleLine(p);
    // Fell off the end: returns None.
    if (!facts.returns) facts.returns = 'other';
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    if (e.where.reason !== 'return') facts.unknown = e.where;
  }
  return facts;
}

/** The index of the bracket closing the one at `open`. */
function matching(tokens: Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const x = tokens[k]!.text;
    if (tokens[k]!.kind === 'end') return k;
    if (tokens[k]!.kind !== 'op') continue;
    if (x === '(' || x === '[' || x === '{') depth++;
    else if (x === ')' || x === ']' || x === '}') {
      depth--;
      if (depth === 0) return k;
    }
  }
  return tokens.length - 1;
}

/** The index of the first token from `from` that `stop` accepts at bracket depth 0, or of the end token. */
function skipTo(tokens: Token[], from: number, stop: (t: Token) => boolean): number {
  const last = tokens.length - 1;
  let k = Math.min(from, last);
  while (k < last && !stop(tokens[k]!) && tokens[k]!.kind !== 'end')
    k = Math.min(
      last,
      tokens[k]!.kind === 'op' && (tokens[k]!.text === '(' || tokens[k]!.text === '[' || tokens[k]!.text === '{') ? matching(tokens, k) + 1 : k + 1,
    );
  return k;
}

/** The NEWLINE ending the logical line at `from`. */
function lineEnd(tokens: Token[], from: number): number {
  return skipTo(tokens, from, (t) => t.kind === 'newline');
}

/** The token after the statement at `from`, a compound statement's block included. */
function statementEnd(tokens: Token[], from: number): number {
  let k = lineEnd(tokens, from) + 1;
  while (tokens[k]?.kind === 'indent') {
    let depth = 0;
    for (; k < tokens.length; k++) {
      if (tokens[k]!.kind === 'indent') depth++;
      else if (tokens[k]!.kind === 'dedent' && --depth === 0) break;
      else if (tokens[k]!.kind === 'end') return k;
    }
    k++;
    // `else:`, `except:`, ... continue the statement at the same level.
    if (!['else', 'elif', 'except', 'finally'].includes(tokens[k]?.text ?? '')) break;
    k = lineEnd(tokens, k) + 1;
  }
  return k;
}

/** Runs the function body's straight-line statements, recording the helper calls. */
class Runner {
  private env = new Map<string, PyValue>();
  /** Values handed to a helper: the config holds them, so changing them later changes it. */
  private handed = new Set<PyValue>();
  private steps = 0;
  /** The values the recorded calls' arguments hold (READ_LIMITS.maxArgumentValues). */
  private argumentValues = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly configName: string,
    private readonly facts: ScriptFacts,
    private readonly tokErr: (Where & { reason: string }) | undefined,
  ) {}

  private stop(t: Token, reason: string): never {
    if (t.kind === 'end' && this.tokErr) throw new Stop(this.tokErr);
    throw new Stop({ line: t.line, col: t.col, reason });
  }

  /** A block from `k` (after its INDENT) to its DEDENT; returns the index after the DEDENT. */
  block(k: number): number {
    while (this.tokens[k] && this.tokens[k]!.kind !== 'dedent') {
      if (this.tokens[k]!.kind === 'end') this.stop(this.tokens[k]!, 'the end of model.py');
      k = this.statement(k);
    }
    return k + 1;
  }

  /** Simple statements on one line, separated by ';'. Returns the index after the line's NEWLINE. */
  simpleLine(k: number): number {
    for (;;) {
      const end = skipTo(this.tokens, k, (t) => t.kind === 'newline' || t.text === ';');
      this.simple(k, end);
      const t = this.tokens[end]!;
      if (t.kind === 'end') this.stop(t, 'the end of model.py');
      if (t.text === ';' && this.tokens[end + 1]?.kind !== 'newline') {
        k = end + 1;
        continue;
      }
      return t.text === ';' ? end + 2 : end + 1;
    }
  }

  private tick(t: Token): void {
    if (++this.steps > READ_LIMITS.maxSteps) this.stop(t, `more than ${READ_LIMITS.maxSteps} statements run`);
  }

  private statement(k: number): number {
    const t = this.tokens[k]!;
    this.tick(t);
    if (t.kind === 'name' && t.text === 'for') return this.forLoop(k);
    if (t.kind === 'name' && COMPOUND.has(t.text) && !(t.text === 'match' && this.isNameUse(k))) this.stop(t, `'${t.text}' statement`);
    if (t.kind !== 'name' && t.kind !== 'string' && t.kind !== 'number' && t.kind !== 'op') this.stop(t, 'a statement the reader does not follow');
    return this.simpleLine(k);
  }

  /** `match` as a plain name (match = ...). */
  private isNameUse(k: number): boolean {
    const n = this.tokens[k + 1]?.text;
    return n === '=' || n === '.' || n === '(' || n === '[';
  }

  private forLoop(k: number): number {
    const t = this.tokens[k]!;
    const target = this.tokens[k + 1]!;
    if (target.kind !== 'name' || this.tokens[k + 2]?.text !== 'in') this.stop(t, "a 'for' loop whose target is not one name");
    const colon = skipTo(this.tokens, k + 3, (x) => x.text === ':' || x.kind === 'newline');
    if (this.tokens[colon]?.text !== ':') this.stop(t, "a 'for' loop the reader cannot read");
    const iter = this.expression(k + 3, colon);
    if (iter.t !== 'list' && iter.t !== 'tuple') this.stop(t, `a 'for' loop over ${iter.t === 'unknown' ? iter.why : 'a value that is not a literal list'}`);
    if (this.mentionsConfig(k + 3, colon)) this.stop(t, "a 'for' loop over the config");
    const body = colon + 1;
    const blockForm = this.tokens[body]?.kind === 'newline' && this.tokens[body + 1]?.kind === 'indent';
    const after = blockForm ? statementEnd(this.tokens, k) : lineEnd(this.tokens, body) + 1;
    if (this.tokens[after]?.text === 'else') this.stop(this.tokens[after], "a 'for' loop with 'else'");
    for (const item of iter.items) {
      this.env.set(target.text, item);
      if (blockForm) this.block(body + 2);
      else this.simpleLine(body);
    }
    return after;
  }

  /** Whether the config's name is used in [from, to) (an alias, an argument of another function). */
  private mentionsConfig(from: number, to: number): boolean {
    for (let k = from; k < to; k++) {
      const x = this.tokens[k]!;
      if (x.kind === 'name' && x.text === this.configName && this.tokens[k - 1]?.text !== '.') return true;
    }
    return false;
  }

  /** A simple statement in [k, end). */
  private simple(k: number, end: number): void {
    const t = this.tokens[k]!;
    if (t.kind === 'end') this.stop(t, 'the end of model.py');
    if (k === end) return;
    if (t.kind === 'name' && t.text === 'pass' && end === k + 1) return;
    if (t.kind === 'name' && t.text === 'return') {
      if (end === k + 1) this.facts.returns = 'other';
      else if (end === k + 2 && this.tokens[k + 1]!.text === this.configName) this.facts.returns = 'config';
      else if (this.mentionsConfig(k + 1, end)) this.stop(t, 'a return value computed from the config');
      else {
        const v = this.expression(k + 1, end);
        if (v.t === 'unknown') this.stop(t, `a return value that is ${v.why}`);
        this.facts.returns = 'other';
      }
      throw new Stop({ line: t.line, col: t.col, reason: 'return' });
    }
    if (t.kind === 'name' && COMPOUND.has(t.text) && !this.isNameUse(k)) this.stop(t, `'${t.text}' statement`);
    // The config's helpers: <config>.<helper>(args)
    if (t.text === this.configName && this.tokens[k + 1]?.text === '.' && this.tokens[k + 2]?.kind === 'name' && this.tokens[k + 3]?.text === '(') {
      const method = this.tokens[k + 2]!.text;
      const close = matching(this.tokens, k + 3);
      if (this.tokens[close]!.kind === 'end') this.stop(this.tokens[close]!, 'the end of model.py');
      if (close + 1 !== end) this.stop(t, `a use of ${method}'s result`);
      if (READ_ONLY_HELPERS.has(method)) return;
      if (!(CONFIG_HELPERS as readonly string[]).includes(method)) this.stop(t, `a call of ${this.configName}.${method}`);
      this.helperCall(method as ConfigHelper, t, k + 4, close);
      return;
    }
    // Assignments: NAME = ... [= ...], NAME: annotation = value, NAME[key] = value.
    const eqs: number[] = [];
    for (
      let x = k;
      x < end;
      x =
        this.tokens[x]!.kind === 'op' && (this.tokens[x]!.text === '(' || this.tokens[x]!.text === '[' || this.tokens[x]!.text === '{')
          ? matching(this.tokens, x) + 1
          : x + 1
    ) {
      if (this.tokens[x]!.text === '=') eqs.push(x);
    }
    if (eqs.length) {
      const valueFrom = eqs[eqs.length - 1]! + 1;
      if (this.mentionsConfig(valueFrom, end)) this.stop(t, 'a value computed from the config');
      const value = this.expression(valueFrom, end);
      let from = k;
      for (const eq of eqs) {
        this.assign(from, eq, value);
        from = eq + 1;
      }
      return;
    }
    if (/^[-+*/%@&|^<>]=$|^\*\*=$|^\/\/=$|^>>=$|^<<=$/.test(this.tokens[k + 1]?.text ?? '')) {
      if (t.kind === 'name' && this.tokens[k + 1]!.text !== '=') {
        if (t.text === this.configName) this.stop(t, 'an assignment to the config');
        this.env.set(t.text, unknown(`'${t.text}' as changed on line ${t.line}`));
        return;
      }
    }
    // An expression statement: a constant (a docstring) changes nothing; anything else may.
    if (end === k + 1 && (t.kind === 'string' || t.kind === 'number')) return;
    if (t.kind === 'string' && this.tokens.slice(k, end).every((x) => x.kind === 'string')) return;
    if (t.kind === 'name' && end > k + 1 && this.tokens[k + 1]!.text === '(') this.stop(t, `a call of ${t.text}()`);
    this.stop(t, 'a statement the reader does not follow');
  }

  private assign(from: number, eq: number, value: PyValue): void {
    const t = this.tokens[from]!;
    // NAME (: annotation)?
    if (t.kind === 'name' && (eq === from + 1 || this.tokens[from + 1]!.text === ':')) {
      if (t.text === this.configName) this.stop(t, 'an assignment to the config');
      this.env.set(t.text, value);
      return;
    }
    // NAME[key] = value on a local dict or list.
    if (t.kind === 'name' && this.tokens[from + 1]?.text === '[' && matching(this.tokens, from + 1) === eq - 1) {
      if (t.text === this.configName) this.stop(t, 'an assignment into the config');
      const target = this.env.get(t.text);
      const key = this.expression(from + 2, eq - 1);
      if (!target || target.t === 'unknown') return;
      if (this.handed.has(target)) this.stop(t, `a change to '${t.text}' after it was handed to the config`);
      if (target.t === 'dict' && key.t !== 'unknown' && key.t !== 'list' && key.t !== 'dict') {
        setEntry(target.entries, key, value);
        return;
      }
      this.env.set(t.text, unknown(`'${t.text}' as changed on line ${t.line}`));
      return;
    }
    // Tuple targets and attributes: whatever they bind is unknown.
    for (let x = from; x < eq; x++) {
      const n = this.tokens[x]!;
      if (n.kind !== 'name') continue;
      if (n.text === this.configName) this.stop(n, 'an assignment into the config');
      if (this.tokens[x - 1]?.text !== '.') this.env.set(n.text, unknown(`'${n.text}' as assigned on line ${n.line}`));
    }
  }

  private helperCall(method: ConfigHelper, t: Token, from: number, close: number): void {
    if (this.facts.calls.length >= READ_LIMITS.maxCalls) this.stop(t, `more than ${READ_LIMITS.maxCalls} helper calls`);
    const args: { name?: string; value: PyValue }[] = [];
    let k = from;
    while (k < close) {
      const end = skipTo(this.tokens, k, (x) => x.text === ',' || x === this.tokens[close]);
      let name: string | undefined;
      let s = k;
      if (this.tokens[k]!.kind === 'name' && this.tokens[k + 1]?.text === '=') {
        name = this.tokens[k]!.text;
        s = k + 2;
      }
      if (this.tokens[s]?.text === '*' || this.tokens[s]?.text === '**') this.stop(t, `an unpacked argument to ${method}`);
      if (this.mentionsConfig(s, end)) this.stop(t, `an argument to ${method} computed from the config`);
      if (s < end) args.push({ ...(name ? { name } : {}), value: this.expression(s, end) });
      k = end + 1;
    }
    const params = HELPER_PARAMS[method];
    const bound: PyValue[] = [];
    for (const [n, a] of args.entries()) {
      const at = a.name === undefined ? n : params.indexOf(a.name);
      if (at < 0 || at >= params.length || bound[at] !== undefined) this.stop(t, `arguments ${method} does not take (Python raises TypeError)`);
      bound[at] = a.value;
    }
    if (bound.length !== params.length || bound.some((b) => b === undefined)) this.stop(t, `${method} called without its argument (Python raises TypeError)`);
    const arg = bound[0];
    if (arg && hasUnknown(arg)) this.stop(t, `the argument of ${method}: ${unknownWhy(arg)}`);
    if (arg) {
      this.argumentValues += valueCount(arg, READ_LIMITS.maxArgumentValues - this.argumentValues + 1);
      if (this.argumentValues > READ_LIMITS.maxArgumentValues) this.stop(t, `arguments holding more than ${READ_LIMITS.maxArgumentValues} values in all`);
      this.hand(arg);
    }
    this.facts.calls.push({ method, ...(arg ? { arg: clone(arg) } : {}), line: t.line, col: t.col });
  }

  private hand(v: PyValue): void {
    this.handed.add(v);
    if (v.t === 'list' || v.t === 'tuple') v.items.forEach((x) => this.hand(x));
    if (v.t === 'dict') v.entries.forEach(([, x]) => this.hand(x));
  }

  /** Evaluates the expression in [from, to); a part it cannot evaluate is `unknown`. */
  expression(from: number, to: number): PyValue {
    const r = this.expr(from, to);
    if (r.next !== to) return unknown(`the expression on line ${this.tokens[from]?.line ?? 0}`);
    return r.value;
  }

  /** One expression from `k`, stopping at a terminator at depth 0 or `to`. */
  private expr(k: number, to: number): { value: PyValue; next: number } {
    const first = this.atom(k, to);
    if (first.next >= to || TERMINATORS.has(this.tokens[first.next]!.text) || this.tokens[first.next]!.kind === 'newline') return first;
    // Anything more (operators, attributes, subscripts, calls, comprehensions): not evaluated.
    const line = this.tokens[k]!.line;
    const next = skipTo(this.tokens, first.next, (x) => TERMINATORS.has(x.text) || x.kind === 'newline');
    return { value: unknown(`a computed value on line ${line}`), next: Math.min(next, to) };
  }

  private atom(k: number, to: number): { value: PyValue; next: number } {
    const t = this.tokens[k];
    if (!t || k >= to) return { value: unknown('a missing value'), next: k };
    if (t.kind === 'number') {
      const text = t.text.replace(/_/g, '');
      if (/^\d+$/.test(text) && !/^0\d/.test(text)) {
        const v = Number(text);
        return { value: Number.isSafeInteger(v) ? { t: 'int', v } : unknown(`the integer ${t.text}, too large to follow`), next: k + 1 };
      }
      if (/^0[xob]/i.test(text)) {
        const v = Number(text.toLowerCase());
        return { value: Number.isSafeInteger(v) ? { t: 'int', v } : unknown(`the integer ${t.text}, too large to follow`), next: k + 1 };
      }
      if (/[jJ]$/.test(text)) return { value: unknown('a complex number'), next: k + 1 };
      return { value: { t: 'float', v: Number(text) }, next: k + 1 };
    }
    if (t.kind === 'string') {
      let s = '';
      let ok = true;
      let n = k;
      while (n < to && this.tokens[n]!.kind === 'string') {
        const x = this.tokens[n]!;
        if (x.value === undefined || (x.prefix ?? '').includes('b')) ok = false;
        else s += x.value;
        n++;
      }
      return { value: ok ? { t: 'str', v: s } : unknown(`a string on line ${t.line} the reader does not evaluate (f-string, bytes or escape)`), next: n };
    }
    if (t.kind === 'op' && (t.text === '-' || t.text === '+')) {
      const inner = this.atom(k + 1, to);
      const v = inner.value;
      if (v.t === 'int' || v.t === 'float') return { value: { t: v.t, v: t.text === '-' ? -v.v : v.v }, next: inner.next };
      return { value: unknown(`a computed value on line ${t.line}`), next: inner.next };
    }
    if (t.kind === 'op' && (t.text === '[' || t.text === '(')) {
      const close = matching(this.tokens, k);
      if (this.tokens[close]!.kind === 'end') return { value: unknown(`an unclosed '${t.text}' on line ${t.line}`), next: close };
      const { items, ok, commas } = this.sequence(k + 1, close);
      const tuple = t.text === '(' && (commas || items.length === 0);
      if (!ok) return { value: unknown(`a computed value on line ${t.line}`), next: close + 1 };
      if (t.text === '(' && !tuple) return { value: items[0]!, next: close + 1 };
      return { value: tuple ? { t: 'tuple', items } : { t: 'list', items }, next: close + 1 };
    }
    if (t.kind === 'op' && t.text === '{') {
      const close = matching(this.tokens, k);
      if (this.tokens[close]!.kind === 'end') return { value: unknown(`an unclosed '{' on line ${t.line}`), next: close };
      return { value: this.dictLiteral(k + 1, close) ?? unknown(`a computed value on line ${t.line}`), next: close + 1 };
    }
    if (t.kind === 'name') {
      if (t.text === 'True' || t.text === 'False') return { value: { t: 'bool', v: t.text === 'True' }, next: k + 1 };
      if (t.text === 'None') return { value: { t: 'none' }, next: k + 1 };
      if (t.text === 'dict' && !this.env.has('dict') && this.tokens[k + 1]?.text === '(') {
        const close = matching(this.tokens, k + 1);
        if (this.tokens[close]!.kind === 'end') return { value: unknown(`an unclosed '(' on line ${t.line}`), next: close };
        return { value: this.dictCall(k + 2, close) ?? unknown(`a call of dict() on line ${t.line} the reader does not follow`), next: close + 1 };
      }
      if (this.tokens[k + 1]?.text === '(') {
        const close = matching(this.tokens, k + 1);
        return { value: unknown(`the result of ${t.text}() on line ${t.line}`), next: this.tokens[close]!.kind === 'end' ? close : close + 1 };
      }
      const bound = this.env.get(t.text);
      return { value: bound ?? unknown(`'${t.text}', which is not assigned in auto_complete_config`), next: k + 1 };
    }
    return { value: unknown(`a computed value on line ${t.line}`), next: k + 1 };
  }

  /** Comma-separated expressions in [k, close). */
  private sequence(k: number, close: number): { items: PyValue[]; ok: boolean; commas: boolean } {
    const items: PyValue[] = [];
    let commas = false;
    while (k < close) {
      if (this.tokens[k]!.text === '*') return { items, ok: false, commas };
      const r = this.expr(k, close);
      items.push(r.value);
      if (r.next < close && this.tokens[r.next]!.text !== ',') return { items, ok: false, commas };
      if (r.next < close) commas = true;
      k = r.next + 1;
    }
    return { items, ok: true, commas };
  }

  private dictLiteral(k: number, close: number): PyValue | undefined {
    const entries: [PyValue, PyValue][] = [];
    while (k < close) {
      if (this.tokens[k]!.text === '**') return undefined;
      const key = this.expr(k, close);
      if (this.tokens[key.next]?.text !== ':' || key.next >= close) return undefined;
      const value = this.expr(key.next + 1, close);
      if (value.next < close && this.tokens[value.next]!.text !== ',') return undefined;
      setEntry(entries, key.value, value.value);
      k = value.next + 1;
    }
    return { t: 'dict', entries };
  }

  private dictCall(k: number, close: number): PyValue | undefined {
    const entries: [PyValue, PyValue][] = [];
    while (k < close) {
      const n = this.tokens[k]!;
      if (n.kind !== 'name' || this.tokens[k + 1]?.text !== '=') return undefined;
      const value = this.expr(k + 2, close);
      if (value.next < close && this.tokens[value.next]!.text !== ',') return undefined;
      setEntry(entries, { t: 'str', v: n.text }, value.value);
      k = value.next + 1;
    }
    return { t: 'dict', entries };
  }
}

/**
 * The text that two keys pyEquals share exactly when they are equal: numbers and bools by value (1,
 * 1.0 and True are one key, as in Python), strings, None, and tuples of these. Undefined for a key
 * equal to nothing (an unknown part, NaN) or one Python cannot hash (a list or dict inside a tuple).
 */
function keyOf(v: PyValue): string | undefined {
  switch (v.t) {
    case 'int':
    case 'float':
    case 'bool': {
      const n = v.t === 'bool' ? (v.v ? 1 : 0) : v.v;
      return Number.isNaN(n) ? undefined : `n${n}`;
    }
    case 'str':
      return `s${JSON.stringify(v.v)}`;
    case 'none':
      return 'none';
    case 'tuple': {
      const parts: string[] = [];
      for (const item of v.items) {
        const k = keyOf(item);
        if (k === undefined) return undefined;
        parts.push(k);
      }
      return `(${parts.join(',')})`;
    }
    default:
      return undefined;
  }
}

/**
 * Each dict's entries by key, made on first use and kept by setEntry: a search of the entries for each
 * key set grew with the square of a dict's size (a literal of 300,000 keys in a 4 MB model.py).
 */
const dictIndex = new WeakMap<[PyValue, PyValue][], Map<string, number>>();

/** A list or dict, or a tuple holding one: Python raises TypeError for such a key. */
const unhashable = (v: PyValue): boolean => v.t === 'list' || v.t === 'dict' || (v.t === 'tuple' && v.items.some(unhashable));

/** d[key] = value, keeping the first position of a repeated key (as a Python dict does). */
function setEntry(entries: [PyValue, PyValue][], key: PyValue, value: PyValue): void {
  const k = keyOf(key);
  if (k === undefined) {
    // A key equal to no other (one with an unknown part) is kept as it is; one Python cannot hash (a
    // list or dict, or a tuple holding one) is not followed.
    entries.push([key.t === 'unknown' || unhashable(key) ? unknown('a key the reader does not evaluate') : key, value]);
    return;
  }
  let index = dictIndex.get(entries);
  if (!index) {
    index = new Map();
    for (let i = 0; i < entries.length; i++) {
      const ek = keyOf(entries[i]![0]);
      if (ek !== undefined && !index.has(ek)) index.set(ek, i);
    }
    dictIndex.set(entries, index);
  }
  const at = index.get(k);
  if (at !== undefined) entries[at] = [entries[at]![0], value];
  else {
    index.set(k, entries.length);
    entries.push([key, value]);
  }
}

/** The values `v` holds, itself included, counted up to `max` (no further). */
function valueCount(v: PyValue, max: number): number {
  let n = 0;
  const todo: PyValue[] = [v];
  while (todo.length && n < max) {
    const x = todo.pop()!;
    n++;
    if (x.t === 'list' || x.t === 'tuple') for (const y of x.items) todo.push(y);
    else if (x.t === 'dict') for (const [k, y] of x.entries) todo.push(k, y);
  }
  return n;
}

function clone(v: PyValue): PyValue {
  if (v.t === 'list' || v.t === 'tuple') return { t: v.t, items: v.items.map(clone) };
  if (v.t === 'dict') return { t: 'dict', entries: v.entries.map(([k, x]) => [clone(k), clone(x)]) };
  return v;
}
