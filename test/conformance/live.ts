// The real tritonserver 2.51.0 (the venv of scripts/real-triton/setup.sh) for the live-server
// conformance suite: stub backends so that core runs every check it owns, one server per round of
// models, and the server's verdict on one model read from the load answer and the server's log.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '../../src/verify/ports.js';
import { ROOT } from '../support/snapshot.js';
import { haveVenv, VENV } from '../support/real-triton.js';

export { haveVenv, VENV };

export const CC = process.env.CC ?? 'cc';
const PYTHON_BACKEND = join(VENV, 'triton-backends', 'python');
export const haveCc = spawnSync(CC, ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * A backend that loads any model and answers every request with an empty response: with it, core
 * finds a backend library and goes on to the checks it runs after that (backend_model.cc
 * TritonModel::Create: NormalizeInstanceGroup, ValidateInstanceGroup; model.cc Model::Init:
 * ValidateModelConfig, ValidateModelIOConfig, the label files; the warmup samples), which a missing
 * library ("unable to find backend library") would stop before. It completes nothing: the
 * backend's auto-complete is not core's. (An error response crashes 2.51's warmup, so it sends none.)
 */
const STUB_BACKEND_C = `#include <stdint.h>
#include <stddef.h>
typedef struct TRITONSERVER_Error TRITONSERVER_Error;
typedef struct TRITONBACKEND_Request TRITONBACKEND_Request;
typedef struct TRITONBACKEND_Response TRITONBACKEND_Response;
typedef struct TRITONBACKEND_ModelInstance TRITONBACKEND_ModelInstance;
extern TRITONSERVER_Error* TRITONBACKEND_ResponseNew(TRITONBACKEND_Response** response, TRITONBACKEND_Request* request);
extern TRITONSERVER_Error* TRITONBACKEND_ResponseSend(TRITONBACKEND_Response* response, uint32_t flags, TRITONSERVER_Error* error);
extern TRITONSERVER_Error* TRITONBACKEND_RequestRelease(TRITONBACKEND_Request* request, uint32_t mode);
TRITONSERVER_Error* TRITONBACKEND_ModelInstanceExecute(TRITONBACKEND_ModelInstance* instance, TRITONBACKEND_Request** requests, const uint32_t request_count) {
  for (uint32_t i = 0; i < request_count; i++) {
    TRITONBACKEND_Response* response = NULL;
    if (TRITONBACKEND_ResponseNew(&response, requests[i]) == NULL) TRITONBACKEND_ResponseSend(response, 1 /* COMPLETE_FINAL */, NULL);
    TRITONBACKEND_RequestRelease(requests[i], 1 /* RELEASE_ALL */);
  }
  return NULL;
}
`;

/** A model.py the Python backend loads (the corpus keeps configs only); it completes nothing, and answers each request with no outputs (a decoupled model through its response sender). */
export const STUB_MODEL_PY = `import json

import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        config = json.loads(args["model_config"])
        self.decoupled = config.get("model_transaction_policy", {}).get("decoupled", False)

    def execute(self, requests):
        if not self.decoupled:
            return [pb_utils.InferenceResponse(output_tensors=[]) for _ in requests]
        for request in requests:
            request.get_response_sender().send(pb_utils.InferenceResponse(output_tensors=[]), flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
        return None
`;

/** The stub backend library, built in `dir` (dir/libtriton_stub.so). */
export function buildStubBackend(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const source = join(dir, 'stub.c');
  writeFileSync(source, STUB_BACKEND_C);
  const built = join(dir, 'libtriton_stub.so');
  const cc = spawnSync(CC, ['-shared', '-fPIC', '-o', built, source], { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`${CC} could not build the stub backend: ${cc.stderr}`);
  return built;
}

/** A backend directory: the real Python backend, and the stub for every other backend named. */
export function backendDirectory(dir: string, backends: Iterable<string>): string {
  const built = buildStubBackend(dir);
  symlinkSync(PYTHON_BACKEND, join(dir, 'python'));
  for (const b of backends) {
    if (b === 'python' || !/^[A-Za-z0-9_]+$/.test(b)) continue;
    mkdirSync(join(dir, b), { recursive: true });
    copyFileSync(built, join(dir, b, `libtriton_${b}.so`));
  }
  return dir;
}

/** The Python backend's shared-memory regions (/dev/shm). */
export const shmRegions = (): string[] => (existsSync('/dev/shm') ? readdirSync('/dev/shm').filter((f) => f.startsWith('triton_test_')) : []);

export interface Server {
  url: string;
  log: () => string;
  stop: () => Promise<void>;
}

/**
 * tritonserver over `repo` (start.sh: loopback, explicit model control, CPU only), ready. stop() ends
 * its process group; the /dev/shm regions its Python stubs leave are the caller's to remove, after
 * every server it runs beside this one has stopped (the names do not say whose they are).
 */
export async function startServer(repo: string, backends: string, args: string[], metrics: boolean): Promise<Server> {
  // Ports found free can be taken by another test's server before this one binds them: a server that
  // is not this one answering (its repository holds other models), or this one exiting, means try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(repo, backends, args, metrics);
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

async function startOnce(repo: string, backends: string, args: string[], metrics: boolean): Promise<Server> {
  const [http, grpc, port] = await freePorts(3);
  let log = '';
  // ONNX Runtime (the real onnxruntime backend) leaves `.ses` and `mat-debug-<pid>.log` in $TMPDIR:
  // each server gets one of its own, removed at stop.
  const tmp = mkdtempSync(join(tmpdir(), 'tritonserver-'));
  const child: ChildProcess = spawn(
    'bash',
    [join(ROOT, 'scripts', 'real-triton', 'start.sh'), repo, String(http), String(grpc), metrics ? String(port) : 'off', '--log-verbose=0', ...args],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TRITON_VENV: VENV, TRITON_BACKENDS: backends, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
    },
  );
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
    rmSync(tmp, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${http}`;
  const until = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${url}/v2/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until || child.exitCode !== null) {
      await stop();
      throw new Error(`tritonserver did not get ready:\n${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const mine = readdirSync(repo, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const index = await fetch(`${url}/v2/repository/index`, { method: 'POST', body: '{}' }).then(
    (r) => r.json() as Promise<{ name: string }[]>,
    () => [],
  );
  const served = [...new Set(index.map((m) => m.name))].sort();
  if (child.exitCode !== null || served.join('\0') !== mine.join('\0')) {
    await stop();
    throw new Error(`the server at ${url} is not the one started on ${repo} (it serves ${served.slice(0, 5).join(', ')}):\n${log.slice(-2000)}`);
  }
  return { url, log: () => log, stop };
}

export interface ServerVerdict {
  verdict: 'accept' | 'refuse';
  /** loaded; no backend library (core found none where it looks: backend_model.cc); poll (refused when the repository was polled); load (refused while loading); crash (the server died loading it). */
  how: 'loaded' | 'no backend library' | 'poll' | 'load' | 'crash';
  /** The HTTP answer's error, or the server's log line for a poll failure, without the status code's prefix. */
  reason: string;
}

const STATUS_PREFIX = /^(Invalid argument|Internal|Not found|Unavailable|Unknown|Already exists|Unsupported): /;

/**
 * Loads one model, reads the verdict, unloads it (with the models it brought in). `loaded` runs
 * while a model that loaded is still served (to read its config).
 */
export async function loadVerdict(server: Server, name: string, loaded?: () => Promise<void>): Promise<ServerVerdict> {
  const post = async (path: string, body: unknown = {}) => {
    const r = await fetch(`${server.url}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(60_000),
    });
    return { status: r.status, text: await r.text() };
  };
  const at = encodeURIComponent(name);
  let answer: { status: number; text: string };
  try {
    answer = await post(`/v2/repository/models/${at}/load`);
  } catch (e) {
    const tail = server
      .log()
      .split('\n')
      .filter((l) => !/^\s*\d+# /.test(l))
      .slice(-6)
      .join('\n');
    return { verdict: 'refuse', how: 'crash', reason: `${(e as Error).message}; the server's log ends:\n${tail}` };
  }
  if (answer.status === 200 && loaded) await loaded();
  await post(`/v2/repository/models/${at}/unload`, { parameters: { unload_dependents: true } });
  if (answer.status === 200) return { verdict: 'accept', how: 'loaded', reason: '' };
  const error = (JSON.parse(answer.text) as { error: string }).error;
  if (/failed to poll from model repository/.test(error)) {
    // The reason is only in the log: "Poll failed for model directory '<name>': <reason>".
    const line = new RegExp(`Poll failed for model directory '${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}': (.*?)"?$`, 'm');
    // The log line may come a moment after the answer (a loaded machine): wait for it a while.
    for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      const m = line.exec(server.log());
      if (m) {
        const reason = m[1]!.replace(/\\"/g, '"').replace(/\\n/g, '\n');
        // A config the server's proto cannot read: protobuf says why just before (loads run one at a time).
        const parse = /failed to read text proto/.test(reason)
          ? [
              ...server
                .log()
                .slice(0, m.index)
                .matchAll(/Error parsing text-format [^\n]*/g),
            ].pop()?.[0]
          : undefined;
        return { verdict: 'refuse', how: 'poll', reason: parse ? `${reason} (${parse})` : reason };
      }
    }
    return { verdict: 'refuse', how: 'poll', reason: error };
  }
  const unavailable = /version \d+ is at UNAVAILABLE state: ([\s\S]*?);\n?$/.exec(error);
  const reason = (unavailable?.[1] ?? error.replace(/^load failed for model '[^']*': /, '')).replace(STATUS_PREFIX, '');
  // Core refused the model before any backend saw it (tritonc is given the same backend directory).
  if (/unable to find backend library/.test(reason)) return { verdict: 'refuse', how: 'no backend library', reason };
  return { verdict: 'refuse', how: 'load', reason };
}
