// tritonserver's own flags on tritonc's commands, spelled as Triton spells them (server
// src/command_line_parser.cc), so a user can paste the server's command line: they change Triton's
// verdict on a repository (auto-complete, backend settings, the repositories served together).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { repeatable, type FlagsOf } from './command.js';
import { ServerFlagError, autoCompleteConfigOf, parseBackendConfig, parseTritonBool, type ServerOptions } from '../triton/server-options.js';
import { UsageError } from './errors.js';
import { isRemoteUrl } from '../remote/url.js';
import { quoted } from '../util/terminal-text.js';
import { DEFAULT_TARGET, TargetError, parseTargets, type TritonTarget } from '../triton/releases/target.js';

/** --triton-version: on every command that judges a repository, generate included. */
export function withTritonVersion<T>(y: Argv<T>) {
  return y.option('triton-version', {
    type: 'string',
    describe: `The Triton you run, whose release decides every verdict: a container release (24.10), a server version (2.51.0) or an image (nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3). Default: ${DEFAULT_TARGET.named}, the newest release tritonc knows`,
  });
}

/** tritonserver's flags that change its verdict on a model: on every command that judges one. */
export function withServerFlags<T>(y: Argv<T>) {
  return withTritonVersion(y)
    .option('disable-auto-complete-config', {
      type: 'boolean',
      describe: 'As tritonserver: configs must be complete as written, and a model without config.pbtxt is refused',
    })
    .option('strict-model-config', {
      type: 'string',
      describe: 'As tritonserver (deprecated there): =true is --disable-auto-complete-config, =false keeps auto-complete on',
    })
    .option('backend-config', {
      ...repeatable('As tritonserver: <backend>,<setting>=<value> or <setting>=<value> (repeatable), e.g. onnxruntime,default-max-batch-size=8'),
    })
    .option('backend-directory', {
      type: 'string',
      describe:
        "As tritonserver: the server's backend libraries (e.g. /opt/tritonserver/backends in NVIDIA's container); given, a backend without a library there or beside the model is an error",
    });
}

/** --model-repository (repeatable): lint only; the other commands take one model. */
export function withModelRepositories<T>(y: Argv<T>) {
  return y.option('model-repository', {
    alias: 'model-store',
    ...repeatable('As tritonserver (repeatable): the repositories one server serves together; ensembles may run models from any of them'),
  });
}

const isDirectory = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type is read: the flags' types come from the builders
const allServerFlags = (y: Argv) => withModelRepositories(withServerFlags(y));

/** Every server flag, parsed, as declared above: each command passes those it declares (generate: --backend-config alone). */
export type ServerFlags = Partial<
  Pick<
    FlagsOf<typeof allServerFlags>,
    'tritonVersion' | 'disableAutoCompleteConfig' | 'strictModelConfig' | 'backendConfig' | 'backendDirectory' | 'modelRepository'
  >
>;

/**
 * The flags given, as ServerOptions over the settings (repository paths resolved against `cwd`);
 * UsageError with Triton's message for a bad one.
 */
export function serverFlagsFromArgs(a: ServerFlags, cwd: string): Partial<ServerOptions> {
  const out: { -readonly [K in keyof ServerOptions]?: ServerOptions[K] } = {};
  const targets = targetsFromArgs(a);
  if (targets) {
    if (targets.length > 1)
      throw new UsageError(`--triton-version ${quoted(a.tritonVersion ?? '')}: this command judges against one release; tritonc lint takes several`);
    out.target = targets[0]!;
  }
  try {
    const strict =
      a.strictModelConfig === undefined ? undefined : a.strictModelConfig === '' ? true : parseTritonBool('strict-model-config', a.strictModelConfig);
    const autoComplete = autoCompleteConfigOf({
      disableAutoCompleteConfig: a.disableAutoCompleteConfig === true,
      ...(strict === undefined ? {} : { strictModelConfig: strict }),
    });
    if (autoComplete !== undefined) out.autoCompleteConfig = autoComplete;
    const backendConfig = (a.backendConfig ?? []).map(parseBackendConfig);
    if (backendConfig.length) out.backendConfig = backendConfig;
  } catch (e) {
    if (e instanceof ServerFlagError) throw new UsageError(e.message);
    throw e;
  }
  const repositories = (a.modelRepository ?? []).map((p) => {
    if (!p) throw new UsageError('--model-repository takes a path, e.g. --model-repository model_repository');
    // A repository URL stays as it is: the command mounts it (cli/remote.ts).
    return isRemoteUrl(p) ? p : resolve(cwd, p);
  });
  if (repositories.length) out.modelRepositories = repositories;
  if (a.backendDirectory !== undefined) {
    const dir = a.backendDirectory;
    if (!dir) throw new UsageError('--backend-directory takes a path, e.g. --backend-directory /opt/tritonserver/backends');
    out.backendDirectory = resolve(cwd, dir);
    // Every model would be refused for want of a library: a path mistyped, or the server's path given on another machine.
    if (!isDirectory(out.backendDirectory))
      throw new UsageError(
        `--backend-directory ${dir}: no such directory here; give the server's backend directory as this machine sees it (in NVIDIA's container, /opt/tritonserver/backends)`,
      );
  }
  return out;
}

/** --triton-version as the targets it names (several, comma-separated, on lint); undefined when not given. */
export function targetsFromArgs(a: Pick<ServerFlags, 'tritonVersion'>): TritonTarget[] | undefined {
  if (a.tritonVersion === undefined) return undefined;
  try {
    return parseTargets(a.tritonVersion);
  } catch (e) {
    if (e instanceof TargetError) throw new UsageError(`--triton-version ${quoted(a.tritonVersion)}: ${e.message}`);
    throw e;
  }
}
