// A test's deployment run as `lint --deployment` makes it (src/lint/deployment-options.ts): the first
// tritonserver the manifest starts, every repository it serves read at one directory of the test.
import type { LintOptions } from '../../src/lint/engine.js';
import { parseManifestText } from '../../src/deployment/manifest-text.js';
import { serversOf } from '../../src/deployment/read.js';
import { serverStores } from '../../src/deployment/stores.js';
import { deploymentLintOptions } from '../../src/lint/deployment-options.js';

export function deploymentRunOptions(manifest: string, file: string, repository: string, cwd: string): Partial<LintOptions> {
  const server = serversOf(parseManifestText(manifest, file))[0];
  if (!server) throw new Error(`${file} starts no tritonserver`);
  const repositories = serverStores(server).map((s) => ({ path: repository, named: s.named, at: s.at }));
  return deploymentLintOptions(server, repositories, { cwd });
}
