// The words of a `sh -c` script as the shell splits them, for finding the tritonserver command a
// container runs through a shell (`command: ["/bin/sh", "-c"]`, one script in args). Quotes and
// backslashes as POSIX sh reads them; $NAME and ${NAME} replaced from the container's literal
// environment (what the shell would see), left as written when unknown; command separators (; & |
// and newlines) end a command. Nothing is run. Linear in the script.

/** The script's commands, each a list of words. */
export function shellCommands(script: string, env: (name: string) => string | undefined): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  const variable = (i: number): { text: string; next: number } | undefined => {
    // At script[i] === '$'.
    const braced = script[i + 1] === '{';
    const start = braced ? i + 2 : i + 1;
    let end = start;
    while (end < script.length && /[A-Za-z0-9_]/.test(script[end]!)) end++;
    if (end === start || (braced && script[end] !== '}')) return undefined;
    const name = script.slice(start, end);
    const value = env(name);
    const next = braced ? end + 1 : end;
    return { text: value ?? script.slice(i, next), next };
  };
  let i = 0;
  while (i < script.length) {
    const c = script[i]!;
    if (c === '\\') {
      if (script[i + 1] === '\n') i += 2;
      else {
        word += script[i + 1] ?? '';
        inWord = true;
        i += 2;
      }
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      const stop = end < 0 ? script.length : end;
      word += script.slice(i + 1, stop);
      inWord = true;
      i = stop + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      while (i < script.length && script[i] !== '"') {
        const d = script[i]!;
        if (d === '\\' && i + 1 < script.length && '$`"\\\n'.includes(script[i + 1]!)) {
          if (script[i + 1] !== '\n') word += script[i + 1];
          i += 2;
        } else if (d === '$') {
          const v = variable(i);
          word += v ? v.text : d;
          i = v ? v.next : i + 1;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === '$') {
      const v = variable(i);
      word += v ? v.text : c;
      inWord = true;
      i = v ? v.next : i + 1;
    } else if (c === ';' || c === '&' || c === '|' || c === '\n') {
      endCommand();
      i++;
    } else if (c === '#' && !inWord) {
      const end = script.indexOf('\n', i);
      i = end < 0 ? script.length : end;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endCommand();
  return commands;
}
