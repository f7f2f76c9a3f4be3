// A Helm chart as the manifests it installs: the real `helm template` renders it with the user's
// values, and each document of its output is tied to the template file it came from by the
// `# Source:` comment helm writes before it. One job: render and split; the manifest reader parses.
//
// helm runs from an argument array (never a shell), on a chart directory and values files given as
// absolute local paths (so neither is taken for a flag, a chart repository or a URL helm would
// fetch), in its own process group that a timeout kills whole, with a bounded output.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { execa } from 'execa';
import { escapeControl, quoted } from '../util/terminal-text.js';
import { DeploymentInputError } from './errors.js';

export interface RenderOptions {
  /** Values files, in order (`--values`; the last wins). */
  values?: readonly string[];
  /** `--set` assignments, in order, as helm reads them (`a.b=c`). */
  set?: readonly string[];
  /** The release name (helm's rule: lowercase DNS labels, at most 53 characters); `release-name` as helm's own default. */
  releaseName?: string;
  /** The namespace (`--namespace`); helm's default (HELM_NAMESPACE, else `default`) when unset. */
  namespace?: string;
  /** The helm binary; default TRITONC_HELM, else `helm` on PATH. */
  helm?: string;
  /** How long helm may run (default 60 s); then its process group is killed. */
  timeoutMs?: number;
  /** The most bytes of manifests read from helm (default 32 MiB); past it the render is refused. */
  maxBytes?: number;
}

/** Where one rendered document came from. */
export interface ChartSource {
  /** Offset in `text` of the document's `# Source:` line (right after its `---`). */
  start: number;
  /** The template as helm names it: relative to the chart's parent, starting with the chart's name (`triton/templates/x.yaml`). */
  source: string;
  /** The template file's absolute path, when it is a file inside the chart directory. */
  file?: string;
}

export interface RenderedChart {
  /** helm's output: YAML documents, each after `---` and its `# Source:` line. */
  text: string;
  /** One entry per `# Source:` line, in order. */
  sources: ChartSource[];
}

export const HELM_INSTALL_HINT =
  'install helm (https://helm.sh/docs/intro/install/) or render it yourself: helm template NAME CHART | tritonc lint --deployment -';

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** helm's errors and warnings kept (a template error is a few lines); past it helm is stopped. */
const MAX_STDERR_BYTES = 1024 * 1024;
/** The part of helm's stderr quoted in a message. */
const MAX_QUOTED_STDERR = 4000;
// helm's release name rule (helm v4.3.2 pkg/chart/v2/util/validate_name.go:35 and :78, at most 53 characters).
const RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// A Kubernetes namespace is a DNS label (RFC 1123), at most 63 characters.
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Renders `chartDir` with the real `helm template` and splits its output by the templates the documents came from. */
/** The signals that end a render, and tritonc with it. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function renderChart(chartDir: string, options: RenderOptions = {}): Promise<RenderedChart> {
  const chart = resolve(chartDir);
  if (!isDirectory(chart) || !isFile(join(chart, 'Chart.yaml')))
    throw new DeploymentInputError(`${quoted(chartDir, 200)} is not a Helm chart directory (no Chart.yaml in it); give the chart's directory`, chartDir);
  const releaseName = options.releaseName ?? 'release-name';
  if (releaseName.length > 53 || !RELEASE_NAME.test(releaseName))
    throw new DeploymentInputError(
      `release name ${quoted(releaseName)} is not one helm takes: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most 53 characters`,
    );
  if (options.namespace !== undefined && (options.namespace.length > 63 || !NAMESPACE.test(options.namespace)))
    throw new DeploymentInputError(
      `namespace ${quoted(options.namespace)} is not a Kubernetes namespace: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters`,
    );
  for (const f of options.values ?? [])
    if (!isFile(resolve(f))) throw new DeploymentInputError(`values file ${quoted(f, 200)} is not a file; give a local YAML file`, f);
  const values = (options.values ?? []).map((f) => resolve(f));

  const args = ['template', releaseName, chart, '--skip-tests'];
  for (const f of values) args.push(`--values=${f}`);
  for (const s of options.set ?? []) args.push(`--set=${s}`);
  if (options.namespace !== undefined) args.push(`--namespace=${options.namespace}`);
  const helm = options.helm ?? process.env.TRITONC_HELM ?? 'helm';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;

  // A detached child outlives tritonc unless tritonc ends it, and a Ctrl-C at the terminal reaches
  // tritonc's group, not helm's: an exit or a signal kills helm's group, then the signal has its
  // default effect on tritonc (the handlers are gone when it is raised again). The handlers are in
  // place before helm starts: a signal in between would end tritonc with helm left running.
  const helmProcess: { pid?: number | undefined } = {};
  const killGroup = (): void => {
    if (helmProcess.pid === undefined) return;
    try {
      process.kill(-helmProcess.pid, 'SIGKILL');
    } catch {
      // The group has ended already.
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    killGroup();
    stopListening();
    process.kill(process.pid, signal);
  };
  const stopListening = (): void => {
    process.off('exit', killGroup);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  process.once('exit', killGroup);
  for (const signal of SIGNALS) process.once(signal, onSignal);
  const spawned = execa(helm, args, {
    reject: false,
    stdin: 'ignore',
    encoding: 'buffer',
    // The text is helm's output exactly: offsets into it are offsets into what helm wrote.
    stripFinalNewline: false,
    maxBuffer: { stdout: maxBytes, stderr: MAX_STDERR_BYTES },
    env: helmEnvironment(process.env),
    extendEnv: false,
    // The leader of a group of its own, so the timeout reaches whatever helm started (a plugin).
    detached: true,
  });
  helmProcess.pid = spawned.pid;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, timeoutMs);
  const result = await spawned.finally(() => {
    clearTimeout(timer);
    stopListening();
  });
  const failure = result as { code?: string; isMaxBuffer?: boolean; originalMessage?: string };

  if (failure.code === 'ENOENT') throw new DeploymentInputError(`helm was not found (${quoted(helm, 200)}); ${HELM_INSTALL_HINT}`, chartDir);
  if (timedOut) {
    throw new DeploymentInputError(
      `helm template did not finish rendering ${quoted(chartDir, 200)} in ${seconds(timeoutMs)} and was stopped; render it yourself to see why: helm template NAME CHART | tritonc lint --deployment -`,
      chartDir,
    );
  }
  const stdout = Buffer.from(result.stdout ?? new Uint8Array());
  const stderr = Buffer.from(result.stderr ?? new Uint8Array());
  if (failure.isMaxBuffer) {
    killGroup();
    throw new DeploymentInputError(
      stdout.length >= maxBytes
        ? `helm template rendered more than ${size(maxBytes)} of manifests from ${quoted(chartDir, 200)}, more than tritonc reads; render fewer templates (helm template --show-only) and pipe them: helm template NAME CHART --show-only templates/FILE | tritonc lint --deployment -`
        : `helm wrote more than ${size(MAX_STDERR_BYTES)} of errors while rendering ${quoted(chartDir, 200)}; run helm template on it yourself to read them`,
      chartDir,
    );
  }
  if (result.exitCode !== 0) {
    const said = stderr.toString('utf8');
    const where = templatePosition(said, chart);
    const why = said.trim()
      ? `helm said: ${helmMessage(said)}`
      : `helm ${result.signal ? `was ended by ${result.signal}` : `exited with ${String(result.exitCode)}`} and said nothing${failure.originalMessage ? ` (${escapeControl(failure.originalMessage)})` : ''}`;
    throw new DeploymentInputError(
      `helm template could not render the chart ${quoted(chartDir, 200)}; fix the chart or its values. ${why}`,
      where?.file ?? chartDir,
      where?.line,
      where?.column,
    );
  }
  const text = stdout.toString('utf8');
  return { text, sources: splitSources(text, chart) };
}

/** The `# Source:` line helm writes after each document's `---` (helm v4.3.2 pkg/action/action.go:489, pkg/cmd/template.go:130). */
const SOURCE_LINE = /^# Source: (.+)$/;

function splitSources(text: string, chart: string): ChartSource[] {
  const sources: ChartSource[] = [];
  const realChart = realpathOrSelf(chart);
  let previous: string | undefined;
  let offset = 0;
  // One pass over the lines: linear in the output.
  while (offset <= text.length) {
    const newline = text.indexOf('\n', offset);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(offset, end).replace(/\r$/, '');
    const match = previous === '---' ? SOURCE_LINE.exec(line) : null;
    if (match) {
      const source = match[1]!;
      const file = templateFile(source, chart, realChart);
      sources.push(file ? { start: offset, source, file } : { start: offset, source });
    }
    previous = line;
    if (newline < 0) break;
    offset = newline + 1;
  }
  return sources;
}

/** The chart's file that helm names `<chart name>/<path>` (its path under the chart directory), when it is a file inside it. */
function templateFile(source: string, chart: string, realChart: string): string | undefined {
  const parts = source.split('/').slice(1);
  if (parts.length === 0 || parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  const file = join(chart, parts.join('/'));
  if (!isFile(file)) return undefined;
  try {
    const inside = relative(realChart, realpathSync(file));
    return inside && !inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside) ? file : undefined;
  } catch {
    return undefined;
  }
}

// Where helm places a template error: `NAME:LINE:COL` (an execution error: helm v4.3.2
// pkg/engine/engine.go:366 and reformatExecErrorMsg), `execution error at (NAME:LINE:COL)` (fail,
// required) or `parse error at (NAME:LINE)` (Go's text/template parser), NAME being the template as
// `# Source:` names it. The first such name that is a file of the chart is the place.
const TEMPLATE_PLACE = /([^\s:()"<>]+\/[^\s:()"<>]+):(\d+)(?::(\d+))?/g;

function templatePosition(said: string, chart: string): { file: string; line: number; column?: number } | undefined {
  const realChart = realpathOrSelf(chart);
  // Only the part quoted in the message is searched: bounded, whatever helm printed.
  for (const match of said.slice(0, MAX_QUOTED_STDERR).matchAll(TEMPLATE_PLACE)) {
    const file = templateFile(match[1]!, chart, realChart);
    if (file) return match[3] ? { file, line: Number(match[2]), column: Number(match[3]) } : { file, line: Number(match[2]) };
  }
  return undefined;
}

/**
 * helm's error as one line of a report: its lines trimmed and joined (a newline in a value cannot
 * split the report), control characters escaped, its advice to use --debug left out (the user runs
 * tritonc, not helm), and cut past MAX_QUOTED_STDERR characters.
 */
function helmMessage(said: string): string {
  const text = said
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'Use --debug flag to render out invalid YAML')
    .join(' ');
  const shown = text.length > MAX_QUOTED_STDERR ? `${text.slice(0, MAX_QUOTED_STDERR)}... (${text.length.toLocaleString('en-US')} characters)` : text;
  return escapeControl(shown);
}

/**
 * The environment helm runs in: what it needs to find its own directories (HOME, the XDG ones,
 * TMPDIR), PATH and the locale, and the user's HELM_* settings; nothing else of tritonc's.
 */
function helmEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (
      value !== undefined &&
      (/^HELM_/.test(name) || /^XDG_(CACHE|CONFIG|DATA)_HOME$/.test(name) || ['HOME', 'PATH', 'TMPDIR', 'LANG', 'LC_ALL'].includes(name))
    )
      kept[name] = value;
  return kept;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} s`;
const size = (bytes: number): string =>
  bytes < 1024 * 1024 ? `${bytes.toLocaleString('en-US')} bytes` : `${(bytes / (1024 * 1024)).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB`;
