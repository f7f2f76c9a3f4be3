// `verify --runtime docker`: start a throwaway Triton container on the repository, wait until the
// model is ready (or Triton gives up on it), then run the same checks as --runtime server. The engine
// is docker or podman (--engine), driven with the same commands. The container runs attached
// (`docker run --rm` without -d) so its whole log is collected as it is written: with --rm a container
// that exits takes its `docker logs` with it. It is always removed with `docker rm -f`: on success,
// failure, timeout, and SIGINT/SIGTERM.
import { CannotRun } from './errors.js';
import { KServeClient, type RequestDescription } from './kserve-client.js';
import { wantsGpu, type VerifyPlan } from './plan.js';
import { freePorts, type PortFinder } from './ports.js';
import { execaRunner, type ProcessRunner, type RunningProcess } from './process-runner.js';
import type { ReferenceOptions } from './reference.js';
import { checkServedModel, describeServedChecks } from './served-model.js';
import { failedStart, waitForModel, type WaitResult } from './server-start.js';
import { cleanLogLine, isErrorLine, mapTritonLog } from './triton-messages.js';
import { containerName, dockerRunArgs, engineName, removeArgs, type DockerRunSpec, type Engine } from './docker-args.js';
import type { VerifyReport } from './types.js';
import { formatMs } from './timeout.js';
import { randomHex } from '../util/random-hex.js';
import { DEFAULT_BACKEND_DIRECTORY } from '../triton/backend-library-search.js';
import { heldSignalLine, Interruption, type SignalSource } from './interruption.js';

export type { SignalSource };

export interface DockerRunOptions {
  /** --reference: the outputs compared with ONNX Runtime's (reference.ts). */
  reference?: ReferenceOptions;
  /** The container engine (--engine); default docker. */
  engine?: Engine;
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
    engine: opts.engine ?? 'docker',
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
  const engine = spec.engine ?? 'docker';
  return {
    command: [engine, ...dockerRunArgs(spec)],
    requests: [client.describe('GET', '/v2/health/ready'), ...describeServedChecks(client, plan, opts.dynamicDimSize ?? 1)],
    cleanup: [engine, ...removeArgs(engine, spec.name)],
  };
}

const firstLine = (text: string): string =>
  text
    .trim()
    .split('\n')
    .find((l) => l.trim()) ?? '';
/** The error line of an engine's stderr: podman's pull prints "Trying to pull ..." before its "Error: ..." line. */
const errorLine = (text: string): string =>
  text
    .trim()
    .split('\n')
    .findLast((l) => /^\s*Error\b/i.test(l))
    ?.trim() ?? firstLine(text);

/** The engine on PATH and answering (docker: its daemon; podman: its storage); exit 2 otherwise, with what to do. */
async function checkEngine(runner: ProcessRunner, engine: Engine): Promise<string> {
  // podman 4.3 fills .Server from the local engine, so one template serves both.
  const r = await runner.run(engine, ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 20_000 });
  if (r.notFound) {
    throw new CannotRun(
      engine === 'docker'
        ? 'docker is not installed here (no `docker` on PATH). Install Docker with the NVIDIA Container Toolkit, use podman with --engine podman, or verify with --runtime ort (no Docker needed) or --runtime server --server URL'
        : "podman is not installed here (no `podman` on PATH). Install podman (and, for GPUs, the NVIDIA Container Toolkit's CDI spec), use Docker with --engine docker, or verify with --runtime ort or --runtime server --server URL",
    );
  }
  if (r.exitCode !== 0 || !r.stdout.trim()) {
    const why = firstLine(r.stderr) || `exit ${r.exitCode}`;
    throw new CannotRun(
      engine === 'docker'
        ? `docker is installed but cannot reach a Docker daemon (${why}). Start the daemon (e.g. sudo systemctl start docker) or check DOCKER_HOST; or use --engine podman, or verify with --runtime ort`
        : `podman is installed but does not run here (${why}). Check its configuration (podman info; CONTAINERS_CONF); or verify with --runtime ort`,
    );
  }
  return r.stdout.trim();
}

async function ensureImage(runner: ProcessRunner, engine: Engine, image: string, progress: (l: string) => void, signal: AbortSignal): Promise<void> {
  const present = await runner.run(engine, ['image', 'inspect', '--format', '{{.Id}}', image], { timeoutMs: 30_000, signal });
  if (present.exitCode === 0) return;
  progress(`pulling ${image} (several GB the first time)`);
  const pulled = await runner.run(engine, ['pull', image], { signal });
  if (signal.aborted) return;
  if (pulled.exitCode !== 0) {
    throw new CannotRun(
      `${engine} cannot pull ${image}: ${errorLine(pulled.stderr) || `exit ${pulled.exitCode}`}. For nvcr.io images run ${engine} login nvcr.io first, or pass --image with an image you have`,
    );
  }
}

export async function runDocker(plan: VerifyPlan, report: VerifyReport, opts: DockerRunOptions): Promise<void> {
  const runner = opts.runner ?? execaRunner;
  const progress = opts.progress ?? (() => {});
  const interruption = new Interruption(opts.signals ?? process);
  let proc: RunningProcess | undefined;
  let spec: DockerRunSpec | undefined;
  try {
    const engine = opts.engine ?? 'docker';
    const version = await checkEngine(runner, engine);
    spec = await containerSpec(plan, opts);
    report.engine = `${opts.image} (${engineName(engine)} ${version})`;
    if (spec.gpus === undefined) report.notes.push('the config places no instance on a GPU, so the container gets no GPU');
    await ensureImage(runner, engine, opts.image, progress, interruption.signal);
    interruption.check();

    progress(`starting ${spec.name} (${opts.image}); waiting up to ${formatMs(opts.timeoutMs)} for '${plan.modelName}' to load`);
    const started = Date.now();
    proc = runner.start(engine, dockerRunArgs(spec));
    const client = new KServeClient(`http://127.0.0.1:${spec.ports.http}`, {
      signal: interruption.signal,
      timeoutMs: 30_000,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    const waited = await waitForModel(client, proc, plan.modelName, started + opts.timeoutMs, opts.pollMs ?? 500, interruption.signal);
    interruption.check();

    if (waited.kind !== 'ready') {
      engineFailure(waited, proc, engine, plan.modelName);
      failedStart(
        waited,
        proc,
        plan,
        report,
        opts.timeoutMs,
        'the container',
        'On a machine without a GPU: --gpus none for a config without instance_group (Triton falls back to the CPU), a CPU copy of the config (instance_group kind: KIND_CPU), or --runtime ort',
        DEFAULT_BACKEND_DIRECTORY,
      );
      return;
    }
    report.load = { ok: true, ms: Date.now() - started, detail: `loaded by tritonserver --load-model=${plan.modelName} from the mounted repository` };
    await checkServedModel({
      client,
      plan,
      report,
      timeoutMs: opts.timeoutMs,
      progress,
      dynamicDimSize: opts.dynamicDimSize ?? 1,
      ...(opts.reference ? { reference: opts.reference } : {}),
    });
    interruption.check();
  } catch (e) {
    interruption.check();
    throw e;
  } finally {
    interruption.cleaningUp((signal) => progress(heldSignalLine(signal, 'removing the container')));
    try {
      if (spec && proc) await removeContainer(runner, spec.engine ?? 'docker', proc, spec.name, progress, report);
    } finally {
      interruption.dispose();
    }
  }
}

/**
 * `docker run` and `podman run` exit 125 when the engine itself fails, 126 when the command cannot be
 * invoked and 127 when it is not found (docker's run reference and podman-run(1), "Exit Status");
 * Triton exits 1. A failure of the engine that no line explains as the machine's (Docker's "Error
 * response from daemon", a missing GPU) is still not the config's: podman's "Error: cannot listen on
 * the TCP port: ... address already in use" (exit 126) would otherwise read as a load error.
 */
const ENGINE_EXIT_CODES = new Set([125, 126, 127]);

function engineFailure(waited: WaitResult, proc: RunningProcess, engine: Engine, modelName: string): void {
  if (waited.kind !== 'exited' || waited.exitCode === undefined || !ENGINE_EXIT_CODES.has(waited.exitCode)) return;
  if (mapTritonLog(proc.lines).some((m) => m.environment)) return; // failedStart says what the machine lacks
  const errors = proc.lines.filter(isErrorLine).map(cleanLogLine);
  const shown = (errors.length ? errors : proc.lines.slice(-15)).map((l) => `  ${l}`).join('\n');
  throw new CannotRun(
    `${engine} could not start the container for '${modelName}' (exit ${waited.exitCode}, the engine's own failure, not Triton's)${shown ? `:\n${shown}` : ''}\nFix what ${engine} says, then run verify again; or verify with --runtime local or --runtime ort`,
  );
}

async function removeContainer(
  runner: ProcessRunner,
  engine: Engine,
  proc: RunningProcess,
  name: string,
  progress: (l: string) => void,
  report: VerifyReport,
): Promise<void> {
  progress(`removing ${name}`);
  // No signal here: the container must go even after Ctrl-C. And in a process group of its own: Ctrl-C
  // pressed again during the clean-up reaches the terminal's whole group, which would end docker rm.
  // docker: "No such container: NAME"; podman: `no container with name or ID "NAME" found: no such container`.
  const r = await runner.run(engine, removeArgs(engine, name), { timeoutMs: 60_000, group: true });
  if (r.exitCode !== 0 && !/No such container/i.test(r.stderr)) {
    report.notes.push(`could not remove container ${name} (${firstLine(r.stderr)}); remove it with: ${[engine, ...removeArgs(engine, name)].join(' ')}`);
  }
  proc.kill();
  await Promise.race([proc.exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
}
