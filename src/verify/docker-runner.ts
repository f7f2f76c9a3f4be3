// `verify --runtime docker`: start a throwaway Triton container on the repository, wait until the
// model is ready (or Triton gives up on it), then run the same checks as --runtime server. The
// container runs attached (`docker run --rm` without -d) so its whole log is collected as it is
// written: with --rm a container that exits takes its `docker logs` with it. It is always removed with
// `docker rm -f`: on success, failure, timeout, and SIGINT/SIGTERM.
import { CannotRun } from './errors.js';
import { KServeClient, type RequestDescription } from './kserve-client.js';
import { wantsGpu, type VerifyPlan } from './plan.js';
import { freePorts, type PortFinder } from './ports.js';
import { execaRunner, type ProcessRunner, type RunningProcess } from './process-runner.js';
import { checkServedModel, describeServedChecks } from './served-model.js';
import { containerName, dockerRunArgs, type DockerRunSpec } from './docker-args.js';
import { mapErrorText, mapTritonLog } from './triton-messages.js';
import type { TritonMessage, VerifyReport } from './types.js';
import { formatMs } from './duration.js';
import { randomHex } from '../util/random-hex.js';
import { Interruption, type SignalSource } from './interruption.js';
import { append } from '../util/arrays.js';

export type { SignalSource };

export interface DockerRunOptions {
  image: string;
  /** --gpus as given: 'all', 'none', '0,1'; default: all for configs that use GPUs, none for CPU-only ones. */
  gpus?: string;
  timeoutMs: number;
  dynamicDimSize?: number;
  progress?: (line: string) => void;
  runner?: ProcessRunner;
  ports?: PortFinder;
  signals?: SignalSource;
  /** The random part of the container name (tests fix it). */
  nameSuffix?: string;
  fetch?: typeof fetch;
  /** How often readiness is polled (ms). */
  pollMs?: number;
  /** tritonserver flags to pass on (--disable-auto-complete-config, --backend-config=...). */
  serverArgs?: readonly string[];
}

export interface DockerDryRun {
  command: string[];
  requests: RequestDescription[];
  cleanup: string[];
}

/** The container spec for this plan: GPUs as asked (or as the config needs), free ports, a unique name. */
export async function containerSpec(plan: VerifyPlan, opts: DockerRunOptions): Promise<DockerRunSpec> {
  const [http, grpc, metrics] = await (opts.ports ?? freePorts)(3);
  const gpus = opts.gpus ?? (wantsGpu(plan.config) ? 'all' : undefined);
  return {
    image: opts.image,
    name: containerName(plan.modelName, opts.nameSuffix ?? `${process.pid}-${randomHex(6)}`),
    repoDir: plan.repoDir,
    modelName: plan.modelName,
    ports: { http: http!, grpc: grpc!, metrics: metrics! },
    gpus,
    ...(opts.serverArgs?.length ? { serverArgs: opts.serverArgs } : {}),
  };
}

export async function describeDockerRun(plan: VerifyPlan, opts: DockerRunOptions): Promise<DockerDryRun> {
  const spec = await containerSpec(plan, opts);
  const client = new KServeClient(`http://127.0.0.1:${spec.ports.http}`);
  return {
    command: ['docker', ...dockerRunArgs(spec)],
    requests: [client.describe('GET', '/v2/health/ready'), ...describeServedChecks(client, plan, opts.dynamicDimSize ?? 1)],
    cleanup: ['docker', 'rm', '-f', spec.name],
  };
}

const firstLine = (text: string): string => text.trim().split('\n').find((l) => l.trim()) ?? '';

/** docker on PATH and its daemon answering; exit 2 otherwise, with what to do. */
async function checkDocker(runner: ProcessRunner): Promise<string> {
  const r = await runner.run('docker', ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 20_000 });
  if (r.notFound) {
    throw new CannotRun('docker is not installed here (no `docker` on PATH). Install Docker with the NVIDIA Container Toolkit, or verify with --runtime ort (no Docker needed) or --runtime server --server URL');
  }
  if (r.exitCode !== 0 || !r.stdout.trim()) {
    throw new CannotRun(`docker is installed but cannot reach a Docker daemon (${firstLine(r.stderr) || `exit ${r.exitCode}`}). Start the daemon (e.g. sudo systemctl start docker) or check DOCKER_HOST; or verify with --runtime ort`);
  }
  return r.stdout.trim();
}

async function ensureImage(runner: ProcessRunner, image: string, progress: (l: string) => void, signal: AbortSignal): Promise<void> {
  const present = await runner.run('docker', ['image', 'inspect', '--format', '{{.Id}}', image], { timeoutMs: 30_000, signal });
  if (present.exitCode === 0) return;
  progress(`pulling ${image} (several GB the first time)`);
  const pulled = await runner.run('docker', ['pull', image], { signal });
  if (signal.aborted) return;
  if (pulled.exitCode !== 0) {
    throw new CannotRun(`docker cannot pull ${image}: ${firstLine(pulled.stderr) || `exit ${pulled.exitCode}`}. For nvcr.io images run docker login nvcr.io first, or pass --image with an image you have`);
  }
}

const GENERIC_FAILURE = /failed to load all models|^error: creating server/;

type WaitResult = { kind: 'ready' } | { kind: 'failed'; reason?: string } | { kind: 'exited'; exitCode: number | undefined } | { kind: 'timeout' };

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Polls until the model is ready, Triton marks it UNAVAILABLE, the container exits, or time runs out. */
async function waitForModel(client: KServeClient, proc: RunningProcess, name: string, deadline: number, pollMs: number, signal: AbortSignal): Promise<WaitResult> {
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
      // Not listening yet: the container is still starting.
    }
    await sleep(pollMs, signal);
  }
}

export async function runDocker(plan: VerifyPlan, report: VerifyReport, opts: DockerRunOptions): Promise<void> {
  const runner = opts.runner ?? execaRunner;
  const progress = opts.progress ?? (() => {});
  const interruption = new Interruption(opts.signals ?? process);
  let proc: RunningProcess | undefined;
  let spec: DockerRunSpec | undefined;
  try {
    const daemon = await checkDocker(runner);
    spec = await containerSpec(plan, opts);
    report.engine = `${opts.image} (Docker ${daemon})`;
    if (spec.gpus === undefined) report.notes.push('the config places no instance on a GPU, so the container gets no GPU');
    await ensureImage(runner, opts.image, progress, interruption.signal);
    interruption.check();

    progress(`starting ${spec.name} (${opts.image}); waiting up to ${formatMs(opts.timeoutMs)} for '${plan.modelName}' to load`);
    const started = Date.now();
    proc = runner.start('docker', dockerRunArgs(spec));
    const client = new KServeClient(`http://127.0.0.1:${spec.ports.http}`, { signal: interruption.signal, timeoutMs: 30_000, ...(opts.fetch ? { fetch: opts.fetch } : {}) });
    const waited = await waitForModel(client, proc, plan.modelName, started + opts.timeoutMs, opts.pollMs ?? 500, interruption.signal);
    interruption.check();

    if (waited.kind !== 'ready') {
      failedStart(waited, proc, plan, report, opts.timeoutMs);
      return;
    }
    report.load = { ok: true, ms: Date.now() - started, detail: `loaded by tritonserver --load-model=${plan.modelName} from the mounted repository` };
    await checkServedModel({ client, plan, report, timeoutMs: opts.timeoutMs, progress, dynamicDimSize: opts.dynamicDimSize ?? 1 });
    interruption.check();
  } catch (e) {
    interruption.check();
    throw e;
  } finally {
    interruption.dispose();
    if (spec && proc) await removeContainer(runner, proc, spec.name, progress, report);
  }
}

function failedStart(waited: Exclude<WaitResult, { kind: 'ready' }>, proc: RunningProcess, plan: VerifyPlan, report: VerifyReport, timeoutMs: number): void {
  const messages: TritonMessage[] = mapTritonLog(proc.lines);
  if (waited.kind === 'failed' && waited.reason && !messages.some((m) => waited.reason!.includes(m.text) || m.text.includes(waited.reason!))) {
    append(messages, mapErrorText(waited.reason));
  }
  const tail = proc.lines.slice(-15).map((l) => `  ${l}`).join('\n');
  const environment = messages.filter((m) => m.environment);
  if (environment.length) {
    throw new CannotRun(`the container cannot run '${plan.modelName}' on this machine:\n${environment.map((m) => `  ${m.text}`).join('\n')}\nOn a machine without a GPU: --gpus none for a config without instance_group (Triton falls back to the CPU), a CPU copy of the config (instance_group kind: KIND_CPU), or --runtime ort`);
  }
  if (waited.kind === 'timeout') {
    throw new CannotRun(`Triton did not get '${plan.modelName}' ready within ${formatMs(timeoutMs)} (a TensorRT engine build can take minutes); raise --timeout, e.g. --timeout 10m${tail ? `. Last lines:\n${tail}` : ''}`);
  }
  const config = messages.filter((m) => !m.environment);
  if (!config.length) {
    const how = waited.kind === 'exited' ? `the container exited${waited.exitCode === undefined ? '' : ` with code ${waited.exitCode}`}` : 'Triton did not load the model';
    throw new CannotRun(`${how} before '${plan.modelName}' was ready, without an error tritonc recognizes${tail ? `. Last lines:\n${tail}` : ''}`);
  }
  report.load = { ok: false, detail: config[0]!.text };
  report.tritonMessages = messages;
  // Triton's closing summary ("failed to load all models") repeats the lines before it: not a finding of its own.
  const findings = config.filter((m) => !GENERIC_FAILURE.test(m.text));
  for (const m of findings.length ? findings : config) report.problems.push({ kind: 'load', ...(m.ruleId ? { ruleId: m.ruleId } : {}), message: `Triton: ${m.text}` });
}

async function removeContainer(runner: ProcessRunner, proc: RunningProcess, name: string, progress: (l: string) => void, report: VerifyReport): Promise<void> {
  progress(`removing ${name}`);
  // No signal here: the container must go even after Ctrl-C.
  const r = await runner.run('docker', ['rm', '-f', name], { timeoutMs: 60_000 });
  if (r.exitCode !== 0 && !/No such container/i.test(r.stderr)) {
    report.notes.push(`could not remove container ${name} (${firstLine(r.stderr)}); remove it with: docker rm -f ${name}`);
  }
  proc.kill();
  await Promise.race([proc.exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
}
