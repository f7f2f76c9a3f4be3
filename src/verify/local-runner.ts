// `verify --runtime local`: a tritonserver started here, for users inside NVIDIA's container, on bare
// metal, and on clusters without Docker (a --launcher prefix such as `apptainer exec --nv triton.sif`
// or `srun`). It serves a read-only copy of the model (its directories made anew, its files linked,
// the config copied: Triton and the Python backend can write nothing into the user's repository), on
// free loopback ports, loading only the model under test; the same checks as --runtime docker run on
// it; it is always stopped (SIGTERM to its process group, then SIGKILL) and what it left in /dev/shm
// under the prefix given to the Python backend is removed: on success, failure, timeout and Ctrl-C.
import { accessSync, chmodSync, constants, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';
import { CannotRun } from './errors.js';
import { KServeClient, type RequestDescription } from './kserve-client.js';
import type { VerifyPlan } from './plan.js';
import { freePorts, type PortFinder } from './ports.js';
import { execaRunner, type ProcessRunner, type RunningProcess } from './process-runner.js';
import type { ReferenceOptions } from './reference.js';
import { checkServedModel, describeServedChecks } from './served-model.js';
import { failedStart, waitForModel } from './server-start.js';
import type { VerifyReport } from './types.js';
import { formatMs } from './timeout.js';
import { heldSignalLine, Interruption, type SignalSource } from './interruption.js';
import { randomHex } from '../util/random-hex.js';
import { append } from '../util/arrays.js';
import { copyToNewFile } from '../util/atomic-write.js';
import { DEFAULT_BACKEND_DIRECTORY } from '../triton/backend-library-search.js';

/** Where NVIDIA's container installs tritonserver: the last place looked. */
export const CONTAINER_TRITONSERVER = '/opt/tritonserver/bin/tritonserver';

export interface LocalRunOptions {
  /** --reference: the outputs compared with ONNX Runtime's (reference.ts). */
  reference?: ReferenceOptions;
  /** --tritonserver: the binary (with a launcher: its path as the launcher sees it). */
  tritonserver?: string;
  /** --launcher: the words run before tritonserver (`apptainer exec --nv triton.sif`). */
  launcher?: readonly string[];
  timeoutMs: number;
  dynamicDimSize?: number;
  progress?: (line: string) => void;
  /** tritonserver flags that change its verdict (--disable-auto-complete-config, --backend-config=...). */
  serverArgs?: readonly string[];
  runner?: ProcessRunner;
  ports?: PortFinder;
  signals?: SignalSource;
  fetch?: typeof fetch;
  pollMs?: number;
  /** PATH to search (default process.env.PATH). */
  path?: string;
  /** How long a stopped tritonserver may take to exit before it is killed (ms). */
  stopGraceMs?: number;
}

const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return lstatSync(file).isDirectory() === false;
  } catch {
    return false;
  }
};

/** The command that starts tritonserver: the launcher's words, then the binary. Throws CannotRun when none is found. */
export function tritonserverCommand(opts: Pick<LocalRunOptions, 'tritonserver' | 'launcher' | 'path'>, cwd: string): { command: string; args: string[] } {
  const launcher = opts.launcher ?? [];
  if (launcher.length) {
    // The binary is looked up where the launcher runs it (inside the container image), not here.
    return { command: launcher[0]!, args: [...launcher.slice(1), opts.tritonserver ?? 'tritonserver'] };
  }
  if (opts.tritonserver !== undefined) {
    const file = resolve(cwd, opts.tritonserver);
    if (!isExecutable(file)) throw new CannotRun(`--tritonserver ${opts.tritonserver}: not an executable file`);
    return { command: file, args: [] };
  }
  const onPath = (opts.path ?? process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d && isAbsolute(d))
    .map((d) => join(d, 'tritonserver'))
    .find(isExecutable);
  const found = onPath ?? (isExecutable(CONTAINER_TRITONSERVER) ? CONTAINER_TRITONSERVER : undefined);
  if (!found) {
    throw new CannotRun(
      `no tritonserver here: give --tritonserver PATH, put it on PATH, or run inside NVIDIA's Triton container (${CONTAINER_TRITONSERVER}); with Apptainer or a batch system, --launcher 'apptainer exec --nv triton.sif'; or verify with --runtime docker or --runtime ort`,
    );
  }
  return { command: found, args: [] };
}

/** The --backend-directory the server runs with: the last one given (as tritonserver takes it), else Triton's default. */
export function backendDirectoryOf(serverArgs: readonly string[]): string {
  const given = serverArgs.filter((a) => a.startsWith('--backend-directory=')).map((a) => a.slice('--backend-directory='.length));
  return given.at(-1) ?? DEFAULT_BACKEND_DIRECTORY;
}

/** The arguments after the binary: the copy served, explicit control of the one model, loopback ports. */
export function localServerArgs(
  repository: string,
  modelName: string,
  ports: { http: number; grpc: number },
  shmPrefix: string,
  serverArgs: readonly string[] = [],
): string[] {
  return [
    `--model-repository=${repository}`,
    '--model-control-mode=explicit',
    `--load-model=${modelName}`,
    '--http-address=127.0.0.1',
    `--http-port=${ports.http}`,
    '--grpc-address=127.0.0.1',
    `--grpc-port=${ports.grpc}`,
    '--allow-metrics=false',
    // Its shared-memory regions get a name tritonc can find and remove after a hard stop.
    `--backend-config=python,shm-region-prefix-name=${shmPrefix}`,
    ...serverArgs,
  ];
}

/**
 * A read-only copy of the model directory under a new temporary repository: directories made anew,
 * config files copied, every other file linked (weights are not copied), then every directory made
 * read-only. Returns the repository and how to remove it.
 */
export function stageModel(plan: VerifyPlan): { repository: string; tmp: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'tritonc-verify-'));
  const repository = join(root, 'models');
  // The server's own TMPDIR: ONNX Runtime 1.30 (under the onnxruntime backend) writes `.ses` and
  // `mat-debug-<pid>.log` there and never removes them; they go with the copy.
  const tmp = join(root, 'tmp');
  const made: string[] = [];
  const mirror = (from: string, to: string): void => {
    mkdirSync(to);
    made.push(to);
    for (const e of readdirSync(from, { withFileTypes: true })) {
      const source = join(from, e.name);
      const target = join(to, e.name);
      if (e.isDirectory()) mirror(source, target);
      else if (e.isFile() && source.endsWith('.pbtxt') && relative(plan.modelDir, source).split(/[\\/]/).length <= 2) copyToNewFile(source, target);
      else symlinkSync(source, target);
    }
  };
  const remove = (): void => {
    for (const dir of made) {
      try {
        chmodSync(dir, 0o755);
      } catch {
        // gone already
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    mkdirSync(tmp);
    mkdirSync(repository);
    made.push(repository);
    mirror(plan.modelDir, join(repository, plan.modelName));
    for (const dir of [...made].reverse()) chmodSync(dir, 0o555);
  } catch (e) {
    remove();
    throw new CannotRun(`cannot make a read-only copy of ${plan.shown(plan.modelDir)} in ${tmpdir()}: ${(e as Error).message}`);
  }
  return { repository, tmp, remove };
}

export interface LocalDryRun {
  command: string[];
  requests: RequestDescription[];
}

export async function describeLocalRun(plan: VerifyPlan, opts: LocalRunOptions, cwd: string): Promise<LocalDryRun> {
  const { command, args } = tritonserverCommand(opts, cwd);
  const [http, grpc] = await (opts.ports ?? freePorts)(2);
  const client = new KServeClient(`http://127.0.0.1:${http}`);
  return {
    command: [
      command,
      ...args,
      ...localServerArgs(
        `<a read-only copy of ${plan.shown(plan.repoDir)}>`,
        plan.modelName,
        { http: http!, grpc: grpc! },
        'tritonc_<random>_',
        opts.serverArgs,
      ),
    ],
    requests: [client.describe('GET', '/v2/health/ready'), ...describeServedChecks(client, plan, opts.dynamicDimSize ?? 1)],
  };
}

export async function runLocal(plan: VerifyPlan, report: VerifyReport, opts: LocalRunOptions, cwd: string): Promise<void> {
  const runner = opts.runner ?? execaRunner;
  const progress = opts.progress ?? (() => {});
  const { command, args } = tritonserverCommand(opts, cwd);
  const interruption = new Interruption(opts.signals ?? process);
  const shmPrefix = `tritonc_${randomHex(8)}_`;
  let staged: ReturnType<typeof stageModel> | undefined;
  let proc: RunningProcess | undefined;
  try {
    staged = stageModel(plan);
    const [http, grpc] = await (opts.ports ?? freePorts)(2);
    const argv = [...args, ...localServerArgs(staged.repository, plan.modelName, { http: http!, grpc: grpc! }, shmPrefix, opts.serverArgs)];
    progress(`starting ${command}; waiting up to ${formatMs(opts.timeoutMs)} for '${plan.modelName}' to load`);
    const started = Date.now();
    // No bytecode written beside a model.py: the copy is read-only, and the user's files are linked.
    proc = runner.start(command, argv, { env: { PYTHONDONTWRITEBYTECODE: '1', TMPDIR: staged.tmp, TMP: staged.tmp, TEMP: staged.tmp }, group: true });
    const client = new KServeClient(`http://127.0.0.1:${http}`, {
      signal: interruption.signal,
      timeoutMs: 30_000,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    const waited = await waitForModel(client, proc, plan.modelName, started + opts.timeoutMs, opts.pollMs ?? 250, interruption.signal);
    interruption.check();
    if (waited.kind === 'exited' && (await proc.exited).notFound) throw new CannotRun(`${command}: not found`);
    if (waited.kind !== 'ready') {
      failedStart(
        waited,
        proc,
        plan,
        report,
        opts.timeoutMs,
        'tritonserver',
        'Serve it on a machine with the GPUs its config asks for, make a CPU copy of the config (instance_group kind: KIND_CPU), or verify with --runtime ort',
        backendDirectoryOf(opts.serverArgs ?? []),
      );
      return;
    }
    const metadata = await client.serverMetadata().catch(() => undefined);
    report.engine = `${[command, ...args].join(' ')}${metadata ? ` (Triton ${metadata.version})` : ''}`;
    if (metadata) report.serverVersion = metadata.version;
    report.load = { ok: true, ms: Date.now() - started, detail: `loaded by tritonserver --load-model=${plan.modelName} from a read-only copy of the model` };
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
    interruption.cleaningUp((signal) => progress(heldSignalLine(signal, 'stopping tritonserver and removing its copy of the model')));
    try {
      if (proc) await stop(proc, opts.stopGraceMs ?? 15_000, progress, report);
      removeSharedMemory(shmPrefix, report);
      staged?.remove();
    } finally {
      interruption.dispose();
    }
  }
}

/** SIGTERM to the server's group, then SIGKILL after the grace period; said in the report when it would not go. */
export async function stop(proc: RunningProcess, graceMs: number, progress: (line: string) => void, report: Pick<VerifyReport, 'notes'>): Promise<void> {
  if (proc.hasExited()) return;
  progress('stopping tritonserver');
  const exited = (ms: number): Promise<boolean> =>
    Promise.race([proc.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  proc.kill('SIGTERM');
  if (await exited(graceMs)) return;
  proc.kill('SIGKILL');
  if (!(await exited(5_000)))
    report.notes.push('tritonserver did not exit after SIGKILL; it may still be running: look for it with ps -ef | grep tritonserver');
}

/** The Python backend's regions under this run's prefix (python_backend src/shm_manager.cc names them <prefix><n>). */
export function removeSharedMemory(prefix: string, report: Pick<VerifyReport, 'notes'>): void {
  let names: string[];
  try {
    names = readdirSync('/dev/shm').filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  const left: string[] = [];
  for (const n of names) {
    try {
      rmSync(join('/dev/shm', n), { force: true });
    } catch {
      left.push(n);
    }
  }
  if (left.length) append(report.notes, [`could not remove shared memory ${left.map((n) => `/dev/shm/${n}`).join(', ')}; remove it by hand`]);
}
