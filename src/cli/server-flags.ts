// tritonserver's own flags on tritonc's commands, spelled as Triton spells them (server
// src/command_line_parser.cc), so a user can paste the server's command line: they change Triton's
// verdict on a repository (auto-complete, backend settings, the repositories served together).
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { repeatable } from './command.js';
import { ServerFlagError, autoCompleteConfigOf, parseBackendConfig, parseTritonBool, type ServerOptions } from '../triton/server-options.js';
import { UsageError } from './errors.js';
import { isRemoteUrl } from '../remote/url.js';

/** tritonserver's flags that change its verdict on a model: on every command that judges one. */
export function withServerFlags<T>(y: Argv<T>) {
  return y
    .option('disable-auto-complete-config', { type: 'boolean', describe: 'As tritonserver: configs must be complete as written, and a model without config.pbtxt is refused' })
    .option('strict-model-config', { type: 'string', describe: 'As tritonserver (deprecated there): =true is --disable-auto-complete-config, =false keeps auto-complete on' })
    .option('backend-config', { ...repeatable('As tritonserver: <backend>,<setting>=<value> or <setting>=<value> (repeatable), e.g. onnxruntime,default-max-batch-size=8') });
}

/** --model-repository (repeatable): lint only; the other commands take one model. */
export function withModelRepositories<T>(y: Argv<T>) {
  return y.option('model-repository', { alias: 'model-store', ...repeatable('As tritonserver (repeatable): the repositories one server serves together; ensembles may run models from any of them') });
}

/** A repeatable flag's values: a list already when typed (repeatable's coerce), any value when not. */
const strings = (v: unknown): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String));

/**
 * The flags given, as ServerOptions over the settings (repository paths resolved against `cwd`);
 * UsageError with Triton's message for a bad one. Any command's parsed flags (typed ones too: yargs'
 * arguments are a record of unknowns besides their declared flags).
 */
export function serverFlagsFromArgs(a: Record<string, unknown>, cwd: string): Partial<ServerOptions> {
  const out: { -readonly [K in keyof ServerOptions]?: ServerOptions[K] } = {};
  try {
    const strict = a.strictModelConfig === undefined ? undefined : a.strictModelConfig === '' ? true : parseTritonBool('strict-model-config', String(a.strictModelConfig));
    const autoComplete = autoCompleteConfigOf({ disableAutoCompleteConfig: a.disableAutoCompleteConfig === true, ...(strict === undefined ? {} : { strictModelConfig: strict }) });
    if (autoComplete !== undefined) out.autoCompleteConfig = autoComplete;
    const backendConfig = strings(a.backendConfig).map(parseBackendConfig);
    if (backendConfig.length) out.backendConfig = backendConfig;
  } catch (e) {
    if (e instanceof ServerFlagError) throw new UsageError(e.message);
    throw e;
  }
  const repositories = strings(a.modelRepository).map((p) => {
    if (!p) throw new UsageError('--model-repository takes a path, e.g. --model-repository model_repository');
    // A repository URL stays as it is: the command mounts it (cli/remote.ts).
    return isRemoteUrl(p) ? p : resolve(cwd, p);
  });
  if (repositories.length) out.modelRepositories = repositories;
  return out;
}
