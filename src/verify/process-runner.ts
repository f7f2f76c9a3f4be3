// How verify runs docker: through execa with argument arrays (never a shell string), behind a small
// interface so tests inject a fake runner and check the exact arguments and that cleanup runs.
import { createInterface } from 'node:readline';
import { execa } from 'execa';

export interface ProcessResult {
  /** undefined when the process did not start or was killed by a signal. */
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** The command is not installed (ENOENT). */
  notFound: boolean;
}

export interface RunningProcess {
  /** stdout and stderr lines so far, interleaved as they came (the last MAX_LINES kept). */
  readonly lines: string[];
  /** Resolves when the process ends (never rejects). */
  readonly exited: Promise<{ exitCode: number | undefined; notFound: boolean }>;
  hasExited(): boolean;
  /** Signals the process (its whole group when it was started as one). */
  kill(signal?: NodeJS.Signals): void;
}

export interface StartOptions {
  /** Variables added to the environment. */
  env?: Record<string, string>;
  /**
   * Start it as the leader of a process group, so a stop reaches whatever it started (a launcher's
   * children: apptainer, srun, the Python backend's stubs).
   */
  group?: boolean;
}

export interface ProcessRunner {
  run(command: string, args: readonly string[], options?: { timeoutMs?: number; signal?: AbortSignal; group?: boolean }): Promise<ProcessResult>;
  /** Starts a long-running process (the attached `docker run`) and collects its output lines. */
  start(command: string, args: readonly string[], options?: StartOptions): RunningProcess;
}

const MAX_LINES = 5000;

export const execaRunner: ProcessRunner = {
  async run(command, args, options = {}) {
    const r = await execa(command, [...args], {
      reject: false,
      stdin: 'ignore',
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
      ...(options.signal ? { cancelSignal: options.signal } : {}),
      // A group of its own: Ctrl-C at the terminal signals tritonc's group, and a clean-up that
      // tritonc holds that signal for must not be ended by it (docker rm).
      ...(options.group ? { detached: true } : {}),
    });
    return {
      exitCode: r.exitCode,
      stdout: String(r.stdout ?? ''),
      stderr: String(r.stderr ?? ''),
      notFound: (r as { code?: string }).code === 'ENOENT',
    };
  },
  start(command, args, options = {}) {
    const lines: string[] = [];
    let done = false;
    const child = execa(command, [...args], {
      reject: false,
      stdin: 'ignore',
      all: true,
      buffer: false,
      ...(options.env ? { env: options.env } : {}),
      ...(options.group ? { detached: true } : {}),
    });
    let drained: Promise<void> = Promise.resolve();
    if (child.all) {
      const rl = createInterface({ input: child.all, crlfDelay: Infinity });
      rl.on('line', (line) => {
        lines.push(line);
        if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
      });
      // The last lines (Triton's error before it exits) must be in `lines` when `exited` resolves.
      drained = new Promise((resolve) => rl.once('close', () => resolve()));
    }
    const result = child.then(
      (r) => ({ exitCode: r.exitCode, notFound: (r as { code?: string }).code === 'ENOENT' }),
      () => ({ exitCode: undefined, notFound: false }),
    );
    const exited = Promise.all([result, drained])
      .then(([r]) => r)
      .finally(() => {
        done = true;
      });
    return {
      lines,
      exited,
      hasExited: () => done,
      kill: (signal = 'SIGTERM') => {
        if (done) return;
        if (options.group && child.pid) {
          try {
            process.kill(-child.pid, signal);
            return;
          } catch {
            // The group is gone already; signal the child itself below.
          }
        }
        child.kill(signal);
      },
    };
  },
};
