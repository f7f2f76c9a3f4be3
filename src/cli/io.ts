// The CLI's window on the world, passed in so commands run the same in tests and in a terminal.
import { isatty } from 'node:tty';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Standard input's text; past `maxBytes` (when given) it stops reading and rejects. */
  readStdin: (maxBytes?: number) => Promise<string>;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /** Whether stderr is a terminal: progress of long runs is shown there, and only there. */
  stderrIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: async (maxBytes) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const c of process.stdin) {
        size += (c as Buffer).length;
        if (maxBytes !== undefined && size > maxBytes) {
          process.stdin.destroy();
          throw new Error(`standard input holds more than the ${maxBytes} bytes it may have`);
        }
        chunks.push(c as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    // Asked of the descriptor: making process.stdin (a stream) costs milliseconds of every start.
    stdinIsTTY: isatty(0),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    env: process.env,
    cwd: process.cwd(),
  };
}
