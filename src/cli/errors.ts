// Errors the CLI turns into a message and an exit code, never a stack trace.

/** Bad flags, unreadable input, or a config tritonc cannot process: exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;
