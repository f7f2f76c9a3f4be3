// Where the tests find the real tritonserver (the venv of scripts/real-triton/setup.sh) and whether a
// suite that needs it runs: without the venv it is skipped with one line, as the corpus suites are;
// with CI=true it must run (and fails where the venv is missing).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '../../src/verify/ports.js';
import { ROOT } from './snapshot.js';

export const VENV = process.env.TRITON_VENV ?? join(ROOT, '.venv-triton');
export const haveVenv = existsSync(join(VENV, 'triton-backends', 'python', 'triton_python_backend_stub'));

/**
 * The tutorial's config for the example classifier (model_repository/classifier), adapted to a CPU
 * host: max_batch_size 32, preferred batches 8, 16 and 32, a 5 ms queue delay, two KIND_CPU instances.
 */
export const TUTORIAL_CPU_CONFIG = `name: "classifier"
backend: "onnxruntime"
max_batch_size: 32
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching { preferred_batch_size: [ 8, 16, 32 ] max_queue_delay_microseconds: 5000 }
instance_group [ { count: 2 kind: KIND_CPU } ]
`;

/** Triton's own backends (not Python's) that setup.sh lays out from ../shared/triton-backends. */
export type RealBackend = 'onnxruntime' | 'pytorch' | 'openvino';
export const haveBackend = (backend: RealBackend): boolean => existsSync(join(VENV, 'triton-backends', backend, `libtriton_${backend}.so`));

/** Whether `suite`, which needs the real tritonserver and `backends`, runs here; says why not in one line. */
export function realBackendsRun(suite: string, backends: readonly RealBackend[]): boolean {
  if (!realTritonRuns(suite)) return false;
  const missing = backends.filter((b) => !haveBackend(b));
  if (missing.length === 0 || process.env.CI === 'true') return true;
  console.log(
    `tritonc: ${suite} skipped: no ${missing.join(', ')} backend in ${join(VENV, 'triton-backends')} (bash scripts/real-triton/setup.sh lays them out from ../shared/triton-backends, or TRITON_REAL_BACKENDS)`,
  );
  return false;
}

/** A Python model's config on the CPU, one FP32 input and output of 4 (model.py's INPUT0 and OUTPUT0), and `extra` after. */
export const PYTHON_CONFIG = (name: string, extra = ''): string => `name: "${name}"
backend: "python"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
${extra}`;

/** Whether `suite` runs here; says so in one line when it does not. */
export function realTritonRuns(suite: string): boolean {
  const runs = haveVenv || process.env.CI === 'true';
  if (!runs) console.log(`tritonc: ${suite} skipped: no ${VENV} (bash scripts/real-triton/setup.sh makes it)`);
  return runs;
}

/** A tritonserver started by scripts/real-triton/start.sh for a test file. */
export interface RealTriton {
  /** Its HTTP endpoint, http://127.0.0.1:<port>. */
  url: string;
  /** Its gRPC endpoint, 127.0.0.1:<port>. */
  grpc: string;
  /** What it printed so far. */
  log(): string;
  /** SIGTERM to its process group, SIGKILL after 10 s, and its Python stubs' /dev/shm regions removed. */
  stop(): Promise<void>;
}

/**
 * Starts the real tritonserver on free loopback ports (explicit model control) over `repo`, with
 * `args` after start.sh's own, in its own process group, and waits until `readyPath` answers 200
 * (default /v2/health/ready). Its Python stubs' shared memory is named triton_test_<pid>_<n>
 * (start.sh), so stop() removes only this server's regions.
 */
export async function startRealTriton(repo: string, args: string[] = [], readyPath = '/v2/health/ready'): Promise<RealTriton> {
  const [http, grpc] = await freePorts(2);
  const url = `http://127.0.0.1:${http}`;
  let log = '';
  // ONNX Runtime (1.30, under the onnxruntime backend) writes `.ses` and `mat-debug-<pid>.log` into
  // $TMPDIR and never removes them: the server gets a temp directory of its own, removed at stop.
  const tmp = mkdtempSync(join(tmpdir(), 'tritonserver-'));
  const env = { ...process.env, TRITON_VENV: VENV, TMPDIR: tmp, TMP: tmp, TEMP: tmp };
  const child: ChildProcess = spawn('bash', [join(ROOT, 'scripts', 'real-triton', 'start.sh'), repo, String(http), String(grpc), 'off', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async (): Promise<void> => {
    if (!child.pid) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    if (existsSync('/dev/shm'))
      for (const f of readdirSync('/dev/shm')) if (f.startsWith(`triton_test_${child.pid}_`)) rmSync(join('/dev/shm', f), { force: true });
    rmSync(tmp, { recursive: true, force: true });
  };
  const until = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(url + readyPath).then(
        (r) => r.status === 200,
        () => false,
      )
    )
      break;
    if (Date.now() > until || child.exitCode !== null) {
      await stop();
      throw new Error(`tritonserver did not get ready (${readyPath}):\n${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, grpc: `127.0.0.1:${grpc}`, log: () => log, stop };
}

/**
 * What `read` gives once `counted` holds of it: read again every 50 ms, for at most 30 s (a bound on a
 * hang, after which the last reading is returned for the test's own assertion to judge). A backend sends
 * its responses before it reports their requests' statistics (onnxruntime_backend r24.10,
 * src/onnxruntime.cc, ModelInstanceState::ProcessRequests: TRITONBACKEND_ResponseSend, then
 * TRITONBACKEND_ModelInstanceReportStatistics for each request; python_backend r24.10 reports them in
 * PbMetricReporter's destructor, src/pb_metric_reporter.cc, when ProcessRequests returns): a client can
 * hold every answer while the server's counts still lack some of them.
 */
export async function readOnceCounted<T>(read: () => Promise<T>, counted: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (const until = Date.now() + 30_000; !counted(value) && Date.now() < until; value = await read()) await new Promise((done) => setTimeout(done, 50));
  return value;
}
