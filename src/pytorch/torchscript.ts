// The forward signature of a TorchScript module, from the Python-like code torch.jit.save writes for
// it (torch/csrc/jit/serialization/python_print.cc): `class Net(Module):` ... `def forward(self:
// __torch__.Net,\n    INPUT0: Tensor,\n    INPUT1: Tensor) -> Tuple[Tensor, Tensor]:`. Every argument
// and the return carry a type annotation there; element types and shapes never do.

export interface ForwardArgument {
  name: string;
  /** The annotation as written: Tensor, List[Tensor], Dict[str, Tensor], Optional[Tensor], int, __torch__.Net. */
  type: string;
}

export interface ParsedForward {
  /** Every argument, self included. */
  arguments: ForwardArgument[];
  returns: string;
  /** Offset of `def forward` in the code text. */
  at: number;
}

/** Why a forward definition cannot be read (the reader words each by its message id). */
export type ForwardProblem = { problem: 'string' | 'argumentsOpen' | 'noReturn' | 'returnOpen' } | { problem: 'badArgument'; argument: string };

/** Where the class named `className` starts in `code` (`class Name(`), or -1. */
export function classOffset(code: string, className: string): number {
  const re = new RegExp(`^class ${escapeRegExp(className)}\\(`, 'm');
  return re.exec(code)?.index ?? -1;
}

/**
 * The classes defined in `code`, in order, each with the offset of its `class` line; a name defined
 * twice only at its first definition (where classOffset finds it). One pass over the code: a search
 * per class from the start grew with the square of the classes (40,000 of them in 100 KB).
 */
export function classesOf(code: string): { name: string; at: number }[] {
  const seen = new Set<string>();
  const out: { name: string; at: number }[] = [];
  for (const m of code.matchAll(/^class ([A-Za-z_][A-Za-z0-9_]*)\(/gm)) {
    if (seen.has(m[1]!)) continue;
    seen.add(m[1]!);
    out.push({ name: m[1]!, at: m.index });
  }
  return out;
}

/**
 * The forward method of the class starting at `classAt` (up to the next top-level class): its
 * arguments and return annotation; undefined when the class has no forward, the problem when the
 * definition cannot be parsed.
 */
export function parseForward(code: string, classAt: number): ParsedForward | ForwardProblem | undefined {
  const next = code.slice(classAt + 1).search(/^class /m);
  const body = code.slice(classAt, next < 0 ? code.length : classAt + 1 + next);
  const m = /^[ \t]+def forward\(/m.exec(body);
  if (!m) return undefined;
  const at = classAt + m.index;
  let i = at + m[0].length;
  // The argument list: up to the parenthesis that closes it, brackets and strings balanced.
  const open = i;
  let depth = 0;
  for (; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'") {
      const end = code.indexOf(c, i + 1);
      if (end < 0) return { problem: 'string' };
      i = end;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  if (i >= code.length) return { problem: 'argumentsOpen' };
  const args = splitTopLevel(code.slice(open, i));
  const arrow = /^\s*->\s*/.exec(code.slice(i + 1));
  if (!arrow) return { problem: 'noReturn' };
  const retStart = i + 1 + arrow[0].length;
  const retEnd = topLevelColon(code, retStart);
  if (retEnd < 0) return { problem: 'returnOpen' };
  const returns = code.slice(retStart, retEnd).trim();
  const parsed: ForwardArgument[] = [];
  for (const a of args) {
    const text = a.trim();
    if (!text) continue;
    const colon = topLevelColon(text, 0);
    const name = (colon < 0 ? text : text.slice(0, colon)).trim();
    if (!/^\*{0,2}[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return { problem: 'badArgument', argument: name };
    let type = colon < 0 ? '' : text.slice(colon + 1);
    // A default value (`x: int=1`) follows the annotation.
    const eq = topLevelIndex(type, '=');
    if (eq >= 0) type = type.slice(0, eq);
    parsed.push({ name, type: type.replace(/\s+/g, ' ').trim() });
  }
  return { arguments: parsed, returns: returns.replace(/\s+/g, ' '), at };
}

/** A Tuple[...]'s element annotations; undefined for any other annotation. */
export function tupleElements(annotation: string): string[] | undefined {
  const m = /^Tuple\[(.*)\]$/s.exec(annotation.trim());
  if (!m) return undefined;
  if (m[1]!.trim() === '()') return [];
  return splitTopLevel(m[1]!)
    .map((s) => s.trim())
    .filter(Boolean);
}

function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      i = end < 0 ? text.length : end;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

function topLevelIndex(text: string, ch: string, from = 0): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ch && depth === 0) return i;
  }
  return -1;
}

const topLevelColon = (text: string, from: number): number => topLevelIndex(text, ':', from);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
