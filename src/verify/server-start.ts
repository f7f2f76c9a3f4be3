// What the runtimes that start a Triton of their own (docker, local) share: waiting until the model
// under test is ready (or Triton gives up on it, or the server exits, or time runs out), and turning
// a start that failed into the report's findings or a "could not run" with the log's last lines.
import { CannotRun } from './errors.js';
import type { KServeClient } from './kserve-client.js';
import type { VerifyPlan } from './plan.js';
import type { RunningProcess } from './process-runner.js';
import { mapErrorText, mapTritonLog } from './triton-messages.js';
import type { TritonMessage, VerifyReport } from './types.js';
import { formatMs } from './timeout.js';
import { append } from '../util/arrays.js';
import { backendLibraryName } from '../triton/backend-library-search.js';

const GENERIC_FAILURE = /failed to load all models|^error: creating server/;

export type WaitResult = { kind: 'ready' } | { kind: 'failed'; reason?: string } | { kind: 'exited'; exitCode: number | undefined } | { kind: 'timeout' };

export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Polls until the model is ready, Triton marks it UNAVAILABLE, the server exits, or time runs out. */
export async function waitForModel(
  client: KServeClient,
  proc: RunningProcess,
  name: string,
  deadline: number,
  pollMs: number,
  signal: AbortSignal,
): Promise<WaitResult> {
  let exit: { exitCode: number | undefined } | undefined;
  void proc.exited.then((r) => (exit = r));
  for (;;) {
    if (signal.aborted) return { kind: 'timeout' };
    if (exit || proc.hasExited()) return { kind: 'exited', exitCode: (exit ?? (await proc.exited)).exitCode };
    if (Date.now() > deadline) return { kind: 'timeout' };
    try {
      if (await client.serverLive()) {
        if ((await client.serverReady()) && (await client.modelReady(name))) return { kind: 'ready' };
        // With --exit-on-error Triton usually exits on a failed load; where it stays up, the index says why.
        const entry = (await client.repositoryIndex().catch(() => [])).find((m) => m.name === name);
        if (entry?.state === 'UNAVAILABLE' && entry.reason) return { kind: 'failed', reason: entry.reason };
      }
    } catch {
      // Not listening yet: the server is still starting.
    }
    await sleep(pollMs, signal);
  }
}

/**
 * A start that did not get the model ready: Triton's refusal becomes the report's findings (exit 1);
 * the machine's own limits, a timeout or an exit tritonc cannot explain throw CannotRun (exit 2).
 * `server` names what was started ("the container", "tritonserver"); `otherwise` says what else to try.
 */
export function failedStart(
  waited: Exclude<WaitResult, { kind: 'ready' }>,
  proc: RunningProcess,
  plan: VerifyPlan,
  report: VerifyReport,
  timeoutMs: number,
  server: string,
  otherwise: string,
  backendDirectory: string | undefined,
): void {
  const messages: TritonMessage[] = mapTritonLog(proc.lines);
  if (waited.kind === 'failed' && waited.reason && !messages.some((m) => waited.reason!.includes(m.text) || m.text.includes(waited.reason!))) {
    append(messages, mapErrorText(waited.reason));
  }
  const tail = proc.lines
    .slice(-15)
    .map((l) => `  ${l}`)
    .join('\n');
  const environmentLines = messages.filter((m) => m.environment);
  // Triton's closing summary ("error: creating server: ...") repeats the line before it.
  const environment = environmentLines.filter((m) => !GENERIC_FAILURE.test(m.text)).length
    ? environmentLines.filter((m) => !GENERIC_FAILURE.test(m.text))
    : environmentLines;
  if (environment.length) {
    const missing = environment.find((m) => m.missingBackend)?.missingBackend;
    const advice = missing ? missingBackendAdvice(missing, backendDirectory) : otherwise;
    throw new CannotRun(`${server} cannot run '${plan.modelName}' on this machine:\n${environment.map((m) => `  ${m.text}`).join('\n')}\n${advice}`);
  }
  if (waited.kind === 'timeout') {
    throw new CannotRun(
      `Triton did not get '${plan.modelName}' ready within ${formatMs(timeoutMs)} (a TensorRT engine build can take minutes); raise --timeout, e.g. --timeout 10m${tail ? `. Last lines:\n${tail}` : ''}`,
    );
  }
  const config = messages.filter((m) => !m.environment);
  if (!config.length) {
    const how =
      waited.kind === 'exited' ? `${server} exited${waited.exitCode === undefined ? '' : ` with code ${waited.exitCode}`}` : 'Triton did not load the model';
    throw new CannotRun(`${how} before '${plan.modelName}' was ready, without an error tritonc recognizes${tail ? `. Last lines:\n${tail}` : ''}`);
  }
  report.load = { ok: false, detail: config[0]!.text };
  report.tritonMessages = messages;
  // Triton's closing summary ("failed to load all models") repeats the lines before it: not a finding of its own.
  const findings = config.filter((m) => !GENERIC_FAILURE.test(m.text));
  for (const m of findings.length ? findings : config)
    report.problems.push({ kind: 'load', ...(m.ruleId ? { ruleId: m.ruleId } : {}), message: `Triton: ${m.text}` });
}

/**
 * Where core looked for a backend Triton ships that the server lacks (backend_model.cc: the version
 * directory, the model directory, then <backend directory>/<backend>), and what to do about it.
 */
export function missingBackendAdvice(backend: string, backendDirectory: string | undefined): string {
  // A running server's --backend-directory is not something its API tells.
  const dir = `${backendDirectory === undefined ? "<the server's --backend-directory>" : backendDirectory.replace(/\/+$/, '')}/${backend}`;
  return (
    `The server has no ${backend} backend: Triton looked for ${backendLibraryName(backend)} in the model's version directory, the model directory and ${dir}. ` +
    `Install Triton's ${backend} backend in ${dir} (NVIDIA's tritonserver container has it), or start the server with --backend-directory naming a directory that has it`
  );
}
