// A deployment that tritonc cannot read (a manifest, a chart, a values file): said with where it is
// and what to do, never a stack trace.

/** A deployment input tritonc cannot read; `file`, `line` and `column` (1-based) say where, when known. */
export class DeploymentInputError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;

  constructor(message: string, where: { file?: string; line?: number; column?: number } = {}) {
    super(message);
    this.name = 'DeploymentInputError';
    if (where.file !== undefined) this.file = where.file;
    if (where.line !== undefined) this.line = where.line;
    if (where.column !== undefined) this.column = where.column;
  }
}
