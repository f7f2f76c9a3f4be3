// Whether to colour terminal output, following the conventions users expect (no-color.org, Node's
// own tty rules): --no-color wins, then --color / FORCE_COLOR turn it on, NO_COLOR turns it off, and
// otherwise colour only on a terminal that is not TERM=dumb.
export interface ColorInputs {
  /** --color (true) / --no-color (false); undefined when neither was given. */
  flag: boolean | undefined;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
}

export function shouldColor({ flag, env, isTTY }: ColorInputs): boolean {
  if (flag === false) return false;
  if (flag === true) return true;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

const codes = { bold: [1, 22], dim: [2, 22], underline: [4, 24], red: [31, 39], yellow: [33, 39], blue: [34, 39], green: [32, 39] } as const;

export type Style = keyof typeof codes;

export type Paint = (style: Style | Style[], text: string) => string;

export function painter(enabled: boolean): Paint {
  if (!enabled) return (_style, text) => text;
  return (style, text) => {
    const list = Array.isArray(style) ? style : [style];
    return list.reduce((t, s) => `\u001b[${codes[s][0]}m${t}\u001b[${codes[s][1]}m`, text);
  };
}
