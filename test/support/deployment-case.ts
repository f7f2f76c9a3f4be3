// A test's deployment run as `lint --deployment` makes it (src/lint/deployment-options.ts): the first
// tritonserver the manifest starts is the one linted, the others are its neighbours (an ensemble split
// between servers), and each repository a server names is read at the directory `dirOf` gives it.
import type { LintOptions } from '../../src/lint/engine.js';
import { parseManifestText } from '../../src/deployment/manifest-text.js';
import { serversOf } from '../../src/deployment/read.js';
import { serverStores } from '../../src/deployment/stores.js';
import type { DeployedServer } from '../../src/deployment/server.js';
import { deploymentLintOptions } from '../../src/lint/deployment-options.js';

export interface DeploymentRun {
  options: Partial<LintOptions>;
  /** The directories the linted server serves: what the run lints. */
  served: string[];
}

export function deploymentRunOptions(manifest: string, file: string, dirOf: (named: string) => string, cwd: string): DeploymentRun {
  const servers = serversOf(parseManifestText(manifest, file));
  if (!servers.length) throw new Error(`${file} starts no tritonserver`);
  const repositoriesOf = (server: DeployedServer) => serverStores(server).map((s) => ({ path: dirOf(s.named), named: s.named, at: s.at }));
  const [server, ...rest] = servers.map((s) => ({ server: s, repositories: repositoriesOf(s) }));
  return {
    options: deploymentLintOptions(server!.server, server!.repositories, { cwd, others: rest }),
    served: [...new Set(server!.repositories.map((r) => r.path))],
  };
}

/** `dir`, or `named=dir,named=dir` (each store named by the deployment at its own directory), as a function; paths under `root`. */
export function storeDirs(spec: string | Record<string, string> | undefined, root: string): (named: string) => string {
  const map = typeof spec === 'string' && spec.includes('=') ? Object.fromEntries(spec.split(',').map((p) => p.split('=') as [string, string])) : spec;
  return (named) => {
    const rel = typeof map === 'string' ? map : (map?.[named] ?? '');
    return rel && rel !== '.' ? `${root}/${rel}` : root;
  };
}
