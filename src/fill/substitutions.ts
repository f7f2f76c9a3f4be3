// The substitutions argument of fill_template.py ("key:value,key2:value2"), read as that script
// reads it (tensorrtllm_backend tools/fill_template.py, now NVIDIA/TensorRT-LLM
// triton_backend/tools/fill_template.py, functions split and main): the argument is split at every
// `,` not preceded by a backslash, then each piece at every `:` not preceded by a backslash, and each
// split drops the backslash before the character it escapes. Two splits, so a `:` inside a value must
// be written `\\:` (the first split leaves `\:` for the second); a lone `\:` is already a plain `:`
// when the second split sees it.

/** fill_template.py's split: at unescaped `delimiter`, dropping the escaping backslashes. */
export function escapedSplit(text: string, delimiter: string): string[] {
  const parts: string[] = [];
  let current = '';
  let escape = false;
  for (const ch of text) {
    if (escape) {
      current += ch;
      escape = false;
    } else if (ch === delimiter) {
      parts.push(current);
      current = '';
    } else if (ch === '\\') escape = true;
    else current += ch;
  }
  parts.push(current);
  return parts;
}

export interface Substitution {
  key: string;
  value: string;
}

export class SubstitutionsError extends Error {}

/** The substitutions, in order; a later one of the same key wins, as in the script's dict. */
export function parseSubstitutions(argument: string): Substitution[] {
  return escapedSplit(argument, ',').map((piece, i) => {
    const kv = escapedSplit(piece, ':');
    if (kv.length !== 2) {
      const what = kv.length === 1 ? 'has no `:` between key and value' : `has ${kv.length - 1} \`:\` separators`;
      const hint =
        kv.length > 2
          ? ` (two pairs run together? put a comma between "${kv[0]}:${kv[1]}" and the next one; a \`:\` inside a value is written \\\\: , because the argument is split twice)`
          : '';
      throw new SubstitutionsError(`substitution ${i + 1}, "${piece}", ${what}: write key:value${hint}`);
    }
    return { key: kv[0]!, value: kv[1]! };
  });
}
