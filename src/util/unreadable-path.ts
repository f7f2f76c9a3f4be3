// The error for a directory that exists but cannot be read: never silently skipped, because a model
// Triton can read but tritonc cannot would otherwise go unchecked, and a lint that checked nothing
// would pass. Listing itself is src/repo/tree.ts.
export class UnreadablePathError extends Error {
  override readonly name = 'UnreadablePathError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: cannot read: ${reason}`);
  }
}
