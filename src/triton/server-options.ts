// What a tritonserver command line changes in Triton's verdict on a repository, spelled as Triton
// spells it (server src/command_line_parser.cc):
// - --disable-auto-complete-config, or the deprecated --strict-model-config=true: core reads
//   config.pbtxt without falling back to an empty config (core model_repository_manager.cc
//   InitializeModelInfo: `if (autofill_ && !model_config_exists)`), runs ValidateModelIOConfig before
//   any backend sees the config, and no backend auto-completes it (TRITONBACKEND_ModelAutoCompleteConfig).
// - --backend-config=<backend>,<setting>=<value> (or <setting>=<value> for every backend): core
//   merges the backend-agnostic settings under the backend's own (backend_model.cc
//   ResolveBackendConfigs) and adds default-max-batch-size=4 when neither gives it
//   (SetBackendConfigDefaults).
// - --model-repository PATH, repeatable: one server over the union of the repositories; a model name
//   found in two of them is not loaded at all ("not unique across all model repositories").
// - --backend-directory PATH: where core looks for each backend's library (backend-library.ts); a
//   backend with no library there, nor beside the model, is refused.
// - which Triton it is (--triton-version, tritonc's own flag: triton/releases/target.ts): the release
//   and the container flavour whose facts every verdict reads.
// Pure data and parsing; nothing here reads the disk.
import { DEFAULT_TARGET, type TritonTarget } from './releases/target.js';

export interface BackendSetting {
  /** '' for the backend-agnostic form `<setting>=<value>`. */
  backend: string;
  setting: string;
  value: string;
}

export interface ServerOptions {
  /** The Triton release (and container flavour) the server runs; default the newest tritonc knows. */
  readonly target: TritonTarget;
  /** Triton's default; false under --disable-auto-complete-config or --strict-model-config=true. */
  readonly autoCompleteConfig: boolean;
  /** --backend-config settings in the order given (a later one wins, as in Triton's map). */
  readonly backendConfig: readonly BackendSetting[];
  /** --model-repository paths (absolute); empty: each linted model's own repository is the server's. */
  readonly modelRepositories: readonly string[];
  /**
   * --backend-directory (absolute): the backends the server has. Unset: not known here, and which
   * backend libraries exist is not checked (Triton's default is /opt/tritonserver/backends).
   */
  readonly backendDirectory?: string;
}

export const DEFAULT_SERVER_OPTIONS: ServerOptions = Object.freeze({
  target: DEFAULT_TARGET,
  autoCompleteConfig: true,
  backendConfig: [],
  modelRepositories: [],
});

/** core's backend_config_defaults (backend_model.cc). */
export const CORE_DEFAULT_MAX_BATCH_SIZE = 4;

/** A server flag Triton itself would refuse at start-up: the message is Triton's where it has one. */
export class ServerFlagError extends Error {}

const FORMAT = "--backend-config option format is '<backend name>,<setting>=<value>'";

/**
 * Flags over a base (the settings file's `server`): auto-complete as the flags say, backend settings
 * added after the base's (a later one wins), repositories replaced when the flags give any.
 */
export function applyServerFlags(base: ServerOptions, flags: Partial<ServerOptions>): ServerOptions {
  return {
    target: flags.target ?? base.target,
    autoCompleteConfig: flags.autoCompleteConfig ?? base.autoCompleteConfig,
    backendConfig: [...base.backendConfig, ...(flags.backendConfig ?? [])],
    modelRepositories: flags.modelRepositories?.length ? flags.modelRepositories : base.modelRepositories,
    ...((flags.backendDirectory ?? base.backendDirectory) !== undefined ? { backendDirectory: flags.backendDirectory ?? base.backendDirectory } : {}),
  };
}

/** `--backend-config` as ParseBackendConfigOption reads it. */
export function parseBackendConfig(arg: string): BackendSetting {
  const comma = arg.indexOf(',');
  if (comma === 0)
    throw new ServerFlagError(`No backend specified. --backend-config option format is <backend name>,<setting>=<value> or <setting>=<value>. Got ${arg}`);
  const eq = arg.indexOf('=', comma + 1);
  if (eq < 0) throw new ServerFlagError(`${FORMAT}. Got ${arg}: add =<value>, e.g. --backend-config=onnxruntime,default-max-batch-size=8`);
  const backend = comma > 0 ? arg.slice(0, comma) : '';
  const setting = arg.slice(comma + 1, eq);
  const value = arg.slice(eq + 1);
  if (!setting || !value) throw new ServerFlagError(`${FORMAT}. Got ${arg}`);
  const parsed = { backend, setting, value };
  if (setting === 'default-max-batch-size' && parseIntValue(value) === undefined) {
    // The backends parse it with ParseIntValue at start-up (onnxruntime_backend TRITONBACKEND_Initialize).
    throw new ServerFlagError(
      `--backend-config=${arg}: default-max-batch-size takes a whole number, e.g. ${backend ? `${backend},` : ''}default-max-batch-size=8; the backend fails to initialize on "${value}"`,
    );
  }
  return parsed;
}

/** Triton's ParseOption<bool>: true/on/1, false/off/0, any case. */
export function parseTritonBool(flag: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v === 'true' || v === 'on' || v === '1') return true;
  if (v === 'false' || v === 'off' || v === '0') return false;
  throw new ServerFlagError(`--${flag}=${value}: invalid value for bool option: ${value} (true, false, on, off, 1 or 0)`);
}

/** Whether auto-complete is on, from the two flags as tritonserver combines them. */
export function autoCompleteConfigOf(flags: { disableAutoCompleteConfig?: boolean; strictModelConfig?: boolean }): boolean | undefined {
  if (flags.disableAutoCompleteConfig) return false;
  if (flags.strictModelConfig !== undefined) return !flags.strictModelConfig;
  return undefined;
}

/** A setting as the backend sees it: its own over the backend-agnostic one (ResolveBackendConfigs). */
export function backendSetting(server: ServerOptions, backend: string, setting: string): string | undefined {
  let value: string | undefined;
  for (const s of server.backendConfig) if (s.backend === '' && s.setting === setting) value = s.value;
  for (const s of server.backendConfig) if (s.backend === backend && s.setting === setting) value = s.value;
  return value;
}

/** The default-max-batch-size the backend gets (core's default 4 when no flag gives one). */
export function defaultMaxBatchSize(server: ServerOptions, backend = 'onnxruntime'): number {
  const value = backendSetting(server, backend, 'default-max-batch-size');
  return value === undefined ? CORE_DEFAULT_MAX_BATCH_SIZE : (parseIntValue(value) ?? CORE_DEFAULT_MAX_BATCH_SIZE);
}

/**
 * The tritonserver arguments that give these options (for a server tritonc starts itself). The
 * backend directory is a path on this machine: only a server started here takes it (backendDirectoryArgs).
 */
export function tritonServerArgs(server: ServerOptions): string[] {
  return [
    ...(server.autoCompleteConfig ? [] : ['--disable-auto-complete-config']),
    ...server.backendConfig.map((s) => `--backend-config=${s.backend ? `${s.backend},` : ''}${s.setting}=${s.value}`),
  ];
}

/** --backend-directory for a tritonserver started on this machine, when one was given. */
export function backendDirectoryArgs(server: ServerOptions): string[] {
  return server.backendDirectory ? [`--backend-directory=${server.backendDirectory}`] : [];
}

/** backend common's ParseIntValue: std::stoi, the whole string. */
function parseIntValue(value: string): number | undefined {
  if (!/^\s*[+-]?\d+$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && Math.abs(n) <= 2 ** 31 - 1 ? n : undefined;
}
