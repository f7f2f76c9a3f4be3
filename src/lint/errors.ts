// Input the engine cannot lint at all (exit 2): paths that do not exist, files that are neither
// configs nor model files, nothing to lint.
export class LintInputError extends Error {
  override readonly name = 'LintInputError';
}
