// `tritonc deploy REPO --target ...`: the run (deploy.ts declares the command, deploy-flags.ts its flags).
import { basename, resolve } from 'node:path';
import { DeployError, nameProblem, planDeployment, suggestName, type DeployPlan } from '../deploy/plan.js';
import { dockerText } from '../deploy/docker.js';
import { kubernetesText } from '../deploy/kubernetes.js';
import { KSERVE_STORAGE, kserveText } from '../deploy/kserve.js';
import { helmText } from '../deploy/helm.js';
import { writeDeployFiles } from '../deploy/write.js';
import { resolveOptionsOf } from '../lint/settings.js';
import { RemoteUrlError, isRemoteUrl, parseRemoteUrl } from '../remote/url.js';
import { applyServerFlags } from '../triton/server-options.js';
import { displayPath } from '../util/display-path.js';
import { escapeControl, quoted } from '../util/terminal-text.js';
import { shellPath } from '../util/shell.js';
import { Workspace } from '../workspace/workspace.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { withRepositories } from './remote.js';
import { settingsNear } from './resolve.js';
import { serverFlagsFromArgs } from './server-flags.js';
import { TARGET_FILE_NAMES, type DeployArgs, type Target } from './deploy-flags.js';

/** Each target's file, its name fixed by tritonc, and how it is made from the plan. */
const TARGET_FILES: Readonly<Record<Target, { file: string; text: (plan: DeployPlan, repoDir: string) => string }>> = {
  docker: { file: TARGET_FILE_NAMES.docker, text: dockerText },
  kubernetes: { file: TARGET_FILE_NAMES.kubernetes, text: kubernetesText },
  kserve: { file: TARGET_FILE_NAMES.kserve, text: kserveText },
  helm: { file: TARGET_FILE_NAMES.helm, text: helmText },
};

export async function runDeploy(a: DeployArgs, io: CliIO): Promise<number> {
  const target = a.target;
  if (a.backendDirectory !== undefined)
    throw new UsageError(
      "--backend-directory is a path on this machine; NVIDIA's image has its backends where tritonserver looks by default (/opt/tritonserver/backends)",
    );
  if (a.gpus !== undefined && (!Number.isSafeInteger(a.gpus) || a.gpus < 0)) throw new UsageError(`--gpus takes a whole number (0 or more); got "${a.gpus}"`);
  const storageUri = a.storageUri ?? (isRemoteUrl(a.repo) ? a.repo.replace(/\/+$/, '') : undefined);
  if (storageUri !== undefined) checkStorageUri(storageUri, target);
  if (target === 'kserve' && storageUri === undefined)
    throw new UsageError(
      `--target kserve: give --storage-uri s3://BUCKET/PATH (or gs://): KServe copies the repository from there into the pod; e.g. tritonc deploy ${escapeControl(shellPath(a.repo))} --target kserve --storage-uri s3://models/${suggestName(basename(a.repo))}`,
    );
  const name = a.name ?? suggestName(basename(a.repo.replace(/\/+$/, '')));
  const problem = nameProblem(name);
  if (problem) throw new UsageError(`--name ${problem}`);

  return withRepositories('deploy', [a.repo], io, {}, async (remote) => {
    const dir = resolve(io.cwd, remote.paths[0]!);
    const settings = settingsNear(dir);
    const server = applyServerFlags(settings.server, serverFlagsFromArgs(a, io.cwd));
    const outcome = await remote.complete((files) => {
      try {
        return planDeployment({
          repo: dir,
          named: a.repo,
          ...(storageUri !== undefined ? { storageUri } : {}),
          name,
          server,
          resolve: resolveOptionsOf({ ...settings, server }),
          ...(a.gpus !== undefined ? { gpus: a.gpus } : {}),
          workspace: new Workspace({ files }),
        });
      } catch (e) {
        if (e instanceof DeployError) throw new UsageError(e.message);
        throw e;
      }
    });
    const out = remote.io;
    if (outcome.kind === 'refused') {
      for (const p of outcome.problems)
        out.stderr(`tritonc deploy: Triton ${server.target.release.container} would not load model ${quoted(p.model)}: ${escapeControl(p.message)}\n`);
      out.stderr(
        `tritonc deploy: nothing written: a model that fails to load stops the server at start-up; fix ${outcome.problems.length === 1 ? 'it' : 'them'} first (tritonc lint ${escapeControl(shellPath(a.repo))} says where)\n`,
      );
      return EXIT.problems;
    }
    const { file, text } = TARGET_FILES[target];
    const body = text(outcome.plan, dir);
    if (a.out === undefined) {
      out.stdout(body);
      return EXIT.ok;
    }
    const shown = (p: string) => displayPath(p, io.cwd);
    try {
      for (const path of writeDeployFiles(resolve(io.cwd, a.out), [{ name: file, text: body }], shown)) out.stdout(`wrote ${shown(path)}\n`);
    } catch (e) {
      if (e instanceof DeployError) throw new UsageError(e.message);
      throw e;
    }
    return EXIT.ok;
  });
}

/** A storage URL the target's platform reads and tritonc can lint: Triton's forms, one word, nothing a manifest would misread. */
function checkStorageUri(uri: string, target: Target): void {
  if (/[\s\p{Cc}]/u.test(uri)) throw new UsageError(`--storage-uri ${quoted(uri)}: a URL has no spaces or control characters`);
  try {
    parseRemoteUrl(uri);
  } catch (e) {
    if (e instanceof RemoteUrlError) throw new UsageError(`--storage-uri ${e.message}`);
    throw e;
  }
  if (target === 'kserve' && !KSERVE_STORAGE.test(uri))
    throw new UsageError(
      `--storage-uri ${quoted(uri)}: KServe's storage initializer takes s3:// and gs:// (Azure as https://ACCOUNT.blob.core.windows.net/...), not Triton's as://`,
    );
}
