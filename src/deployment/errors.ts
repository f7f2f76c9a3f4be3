// A deployment tritonc cannot read (a manifest that is not YAML, a chart helm cannot render, a file
// too large): the CLI says where and exits 2.
export class DeploymentInputError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}
