// The commands' door to repositories in object storage: URLs among their paths mounted (remote/),
// a progress line on a terminal while objects are fetched, everything the command prints with the
// stand-in paths turned back into object URLs, and the store's failures as exit 2 with the URL and
// the reason.
import { CredentialError } from '../remote/credentials.js';
import { RemoteAccessError } from '../remote/mounted.js';
import { RemoteRepositories } from '../remote/repositories.js';
import { MissingClientError } from '../remote/store.js';
import { RemoteUrlError, isRemoteUrl } from '../remote/url.js';
import type { FileSource } from '../workspace/sources.js';
import { UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { terminalProgress } from './progress.js';

export interface RepositoriesRun {
  /** The paths given, each URL replaced by its repository's stand-in path. */
  paths: string[];
  /** The command's io, with stand-in paths shown as URLs. */
  io: CliIO;
  /** True when a path was a URL. */
  remote: boolean;
  repos: RemoteRepositories;
  /** Runs `run` (synchronous work over the files) until everything it asked for is fetched. */
  complete<T>(run: (files: FileSource) => T): Promise<T>;
}

export interface RepositoriesOptions {
  quiet?: boolean;
  /** The URLs name files (inspect's model): each is mounted at its directory. */
  files?: boolean;
}

/** Runs a command's `body` over its paths with the URLs among them mounted. */
export async function withRepositories(
  command: string,
  given: readonly string[],
  io: CliIO,
  options: RepositoriesOptions,
  body: (run: RepositoriesRun) => Promise<number>,
): Promise<number> {
  const progress = given.some(isRemoteUrl) ? terminalProgress(io, `tritonc ${command}: objects`, { quiet: options.quiet === true, minItems: 1 }) : undefined;
  const repos = new RemoteRepositories(io.cwd, { env: io.env, ...(progress ? { onProgress: (done, total) => progress.update(done, total) } : {}) });
  const asUsage = (e: unknown): unknown => {
    if (e instanceof RemoteUrlError || e instanceof CredentialError || e instanceof RemoteAccessError || e instanceof MissingClientError)
      return new UsageError(e.message);
    if (e instanceof UsageError && repos.remote) return new UsageError(repos.rename(e.message), e.exitCode);
    return e;
  };
  try {
    const paths = await repos.paths(given, { files: options.files === true });
    progress?.end();
    const renamed: CliIO = repos.remote ? { ...io, stdout: (t) => io.stdout(repos.rename(t)), stderr: (t) => io.stderr(repos.rename(t)) } : io;
    return await body({
      paths,
      io: renamed,
      remote: repos.remote,
      repos,
      complete: async (run) => {
        try {
          return await repos.complete(run);
        } finally {
          progress?.end();
        }
      },
    });
  } catch (e) {
    progress?.end();
    throw asUsage(e);
  }
}
