// Input the engine cannot lint at all (exit 2): paths that do not exist, files that are neither
// configs nor model files, directories that cannot be read, a lock file or cache file that cannot be
// used, nothing to lint.
export type LintInputProblem = 'missing' | 'unrecognized' | 'unreadable' | 'lock' | 'cache' | 'nothing';

export class LintInputError extends Error {
  override readonly name = 'LintInputError';
  constructor(
    message: string,
    readonly problem: LintInputProblem = 'nothing',
  ) {
    super(message);
  }
}
