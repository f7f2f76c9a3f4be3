// A tritonserver command line as a deployment writes it (a Kubernetes container's command and args,
// a `sh -c` script, KServe's runtime args), read as tritonserver reads it: server
// src/command_line_parser.cc (r24.10) parses with getopt_long, every long option taking an argument
// (`--flag=value` or `--flag value`) except --help and --disable-auto-complete-config (Option::ArgNone),
// and words that are not options are left over. Only the options that change what tritonc judges are
// interpreted; each keeps the index of the word it came from, so a finding points at it. Pure data.
import { ServerFlagError, autoCompleteConfigOf, parseBackendConfig, parseTritonBool, type BackendSetting, type ServerOptions } from './server-options.js';

/** Options that take no argument (Option::ArgNone in command_line_parser.cc). */
const NO_ARGUMENT = new Set(['help', 'disable-auto-complete-config']);

/** An option as written: its name, its value, and the word (index) it starts at. */
export interface CommandLineOption {
  readonly name: string;
  readonly value: string;
  /** The word the option is written in (the value may be the next word). */
  readonly word: number;
  /** The word its value is in. */
  readonly valueWord: number;
}

export type ModelControlMode = 'none' | 'poll' | 'explicit';

/** What tritonserver's command line says that tritonc judges by. */
export interface TritonCommandLine {
  readonly options: readonly CommandLineOption[];
  /** --model-repository / --model-store, in order, as the server sees them (paths or URLs). */
  readonly modelStores: readonly CommandLineOption[];
  /** --model-control-mode (default none: command_line_parser.h control_mode_). */
  readonly controlMode: ModelControlMode;
  readonly controlModeOption?: CommandLineOption;
  /** --repository-poll-secs (default 15: command_line_parser.h repository_poll_secs_). */
  readonly pollSeconds: number;
  /** --load-model names (explicit mode's start-up models; "*" is every model). */
  readonly loadModels: readonly CommandLineOption[];
  /** --pinned-memory-pool-byte-size (default 1 << 28: command_line_parser.h). */
  readonly pinnedMemoryPoolBytes: number;
  readonly autoCompleteConfig?: boolean;
  readonly backendConfig: readonly BackendSetting[];
  readonly backendDirectory?: string;
  /** Options tritonserver refuses at start-up, with its message. */
  readonly problems: readonly { readonly option: CommandLineOption; readonly message: string }[];
}

export const DEFAULT_PINNED_MEMORY_POOL_BYTES = 1 << 28;
export const DEFAULT_POLL_SECONDS = 15;

/** The words after the tritonserver program, read as getopt_long reads them. */
export function parseTritonCommandLine(words: readonly string[]): TritonCommandLine {
  const options: CommandLineOption[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('--') || word === '--') continue;
    const eq = word.indexOf('=');
    const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
    if (eq >= 0) options.push({ name, value: word.slice(eq + 1), word: i, valueWord: i });
    else if (NO_ARGUMENT.has(name)) options.push({ name, value: '', word: i, valueWord: i });
    else if (i + 1 < words.length) {
      options.push({ name, value: words[i + 1]!, word: i, valueWord: i + 1 });
      i++;
    } else options.push({ name, value: '', word: i, valueWord: i });
  }
  const problems: { option: CommandLineOption; message: string }[] = [];
  const all = (...names: string[]) => options.filter((o) => names.includes(o.name));
  const last = (name: string) => all(name).at(-1);

  const mode = last('model-control-mode');
  let controlMode: ModelControlMode = 'none';
  if (mode) {
    const m = mode.value.toLowerCase();
    if (m === 'none' || m === 'poll' || m === 'explicit') controlMode = m;
    else problems.push({ option: mode, message: 'invalid argument for --model-control-mode' });
  }
  const poll = last('repository-poll-secs');
  const pollSeconds = poll && /^\d+$/.test(poll.value) ? Number(poll.value) : DEFAULT_POLL_SECONDS;
  const pinned = last('pinned-memory-pool-byte-size');
  const pinnedMemoryPoolBytes = pinned && /^\d+$/.test(pinned.value) ? Number(pinned.value) : DEFAULT_PINNED_MEMORY_POOL_BYTES;

  let autoCompleteConfig: boolean | undefined;
  const backendConfig: BackendSetting[] = [];
  const guard = (option: CommandLineOption, f: () => void) => {
    try {
      f();
    } catch (e) {
      if (e instanceof ServerFlagError) problems.push({ option, message: e.message });
      else throw e;
    }
  };
  const strict = last('strict-model-config');
  if (strict) guard(strict, () => (autoCompleteConfig = autoCompleteConfigOf({ strictModelConfig: parseTritonBool('strict-model-config', strict.value) })));
  if (all('disable-auto-complete-config').length) autoCompleteConfig = false;
  for (const o of all('backend-config')) guard(o, () => backendConfig.push(parseBackendConfig(o.value)));
  const backendDirectory = last('backend-directory')?.value;

  return {
    options,
    modelStores: all('model-repository', 'model-store'),
    controlMode,
    ...(mode ? { controlModeOption: mode } : {}),
    pollSeconds,
    loadModels: all('load-model'),
    pinnedMemoryPoolBytes,
    ...(autoCompleteConfig !== undefined ? { autoCompleteConfig } : {}),
    backendConfig,
    ...(backendDirectory ? { backendDirectory } : {}),
    problems,
  };
}

/** The server options a command line gives (the target and the repositories are the caller's). */
export function serverOptionsOf(line: TritonCommandLine): Partial<ServerOptions> {
  return {
    ...(line.autoCompleteConfig !== undefined ? { autoCompleteConfig: line.autoCompleteConfig } : {}),
    ...(line.backendConfig.length ? { backendConfig: line.backendConfig } : {}),
  };
}

/**
 * The models the server loads when it starts: every model of its repositories, except in explicit
 * mode, where only those --load-model names ("*" is every one: server src/command_line_parser.cc,
 * core model_repository_manager.cc LoadModelByName), each with the models its ensemble runs, as core
 * loads an ensemble's composing models with it.
 */
export function modelsLoadedAtStart(line: TritonCommandLine, names: readonly string[], stepsOf: (name: string) => readonly string[]): Set<string> {
  if (line.controlMode !== 'explicit' || line.loadModels.some((o) => o.value === '*')) return new Set(names);
  const known = new Set(names);
  const loaded = new Set<string>();
  const queue = line.loadModels.map((o) => o.value);
  while (queue.length) {
    const name = queue.pop()!;
    if (loaded.has(name) || !known.has(name)) continue;
    loaded.add(name);
    for (const step of stepsOf(name)) queue.push(step);
  }
  return loaded;
}
