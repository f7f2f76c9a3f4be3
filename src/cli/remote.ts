// The commands' door to repositories in object storage: URLs among their paths mounted (remote/),
// with a progress line on a terminal while objects are fetched, and the store's failures as exit 2
// with the URL and the reason.
import { CredentialError } from '../remote/credentials.js';
import { RemoteAccessError } from '../remote/mounted.js';
import { RemoteRepositories } from '../remote/repositories.js';
import { MissingClientError } from '../remote/store.js';
import { RemoteUrlError, isRemoteUrl } from '../remote/url.js';
import type { FileSource } from '../workspace/sources.js';
import { UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { terminalProgress } from './progress.js';

/** The repositories of a command's paths, with `paths` mapped (URLs mounted). Throws UsageError for a store's failure. */
export interface OpenedRepositories {
  repos: RemoteRepositories;
  /** The paths given, each URL replaced by its repository's stand-in path. */
  paths: string[];
  /** Erases the progress line, if one was shown (before the report is printed). */
  endProgress(): void;
}

export async function openRepositories(command: string, given: readonly string[], io: CliIO, options: { quiet?: boolean } = {}): Promise<OpenedRepositories> {
  const progress = given.some(isRemoteUrl) ? terminalProgress(io, `tritonc ${command}: objects`, { quiet: options.quiet === true, minItems: 1 }) : undefined;
  const repos = new RemoteRepositories(io.cwd, { env: io.env, ...(progress ? { onProgress: (done, total) => progress.update(done, total) } : {}) });
  try {
    return { repos, paths: await repos.paths(given), endProgress: () => progress?.end() };
  } catch (e) {
    progress?.end();
    throw remoteUsageError(command, e);
  }
}

/** `run` through repos.complete, a store's failure as a UsageError (exit 2). */
export async function completeRun<T>(command: string, opened: OpenedRepositories, run: (files: FileSource) => T): Promise<T> {
  try {
    return await opened.repos.complete(run);
  } catch (e) {
    throw remoteUsageError(command, e);
  } finally {
    opened.endProgress();
  }
}

/** A failure of a URL, a credential or a store, as the command's usage error; anything else as it is. */
export function remoteUsageError(command: string, e: unknown): unknown {
  if (e instanceof RemoteUrlError || e instanceof CredentialError || e instanceof RemoteAccessError || e instanceof MissingClientError) return new UsageError(`${command}: ${e.message}`);
  return e;
}
