// The generated Python gRPC clients (tritonc client --lang python --protocol grpc, on tritonclient.grpc)
// against the real tritonserver 2.51's gRPC endpoint (Python backend, CPU; scripts/real-triton/setup.sh
// makes its venv, with tritonclient[grpc] and mypy): infer, a split batch (counted by the server's own
// statistics), BYTES in and out, a sequence (an id from 2**63 too), a shape refused before sending and
// an INVALID_ARGUMENT not retried, a timeout as a gRPC deadline, not-ready while the model reloads, and
// a decoupled model's responses streamed in order to the final one (an empty stream, a model's error,
// an early stop). Without the venv the suite is skipped with one line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRun } from '../../src/client/run.js';
import { CLIENT_MODELS, writeModels, DRIFTED_MODELS } from '../support/client-models.js';
import { CATCH, pythonClientRuns, runPython } from '../support/python-client.js';
import { readOnceCounted, realTritonRuns, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { tempDir } from '../support/temp.js';

const runs =
  realTritonRuns('generated Python gRPC clients against the real Triton') && pythonClientRuns('generated Python gRPC clients against the real Triton');

let server: RealTriton | undefined;
let gen = '';

/** The server's request counts of a model (GET /v2/models/<m>/stats: inference_stats success and fail). */
async function counts(model: string): Promise<{ success: number; fail: number }> {
  const stats = (await (await fetch(`${server!.url}/v2/models/${model}/stats`)).json()) as {
    model_stats: { inference_stats: { success: { count: number }; fail: { count: number } } }[];
  };
  const s = stats.model_stats[0]!.inference_stats;
  return { success: s.success.count, fail: s.fail.count };
}

describe.skipIf(!runs)('generated Python gRPC clients against the real tritonserver 2.51', () => {
  beforeAll(async () => {
    const dir = tempDir('tritonc-client-pygrpc-real-');
    const repo = join(dir, 'models');
    writeModels(repo, CLIENT_MODELS);
    const drifted = join(dir, 'drifted');
    writeModels(drifted, DRIFTED_MODELS);
    gen = join(dir, 'gen');
    for (const [from, pkg] of [
      [repo, 'clients'],
      [drifted, 'drifted'],
    ] as const) {
      mkdirSync(join(gen, pkg), { recursive: true });
      const run = clientRun(from, { lang: 'python', protocol: 'grpc' });
      if ('error' in run) throw new Error(run.error);
      for (const f of run.files) writeFileSync(join(gen, pkg, f.name), f.text);
    }
    server = await startRealTriton(
      repo,
      Object.keys(CLIENT_MODELS).map((m) => `--load-model=${m}`),
    );
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('infers, and splits a batch of 20 into requests of at most max_batch_size 8, joining the outputs in order', async () => {
    const before = await counts('add_one');
    const out = await runPython(
      gen,
      `${CATCH}
from clients import add_one
c = add_one.connect(sys.argv[1])
one = c.infer({"INPUT0": numpy.array([[1, 2, 3, 4]], dtype=numpy.float32)})["OUTPUT0"]
data = numpy.arange(80, dtype=numpy.float32).reshape(20, 4)
big = c.infer({"INPUT0": data})["OUTPUT0"]
print(json.dumps({"url": c.url, "one": show(one), "bigShape": list(big.shape), "joined": bool((big == data + 1).all())}))
`,
      [server!.grpc],
    );
    expect(out.url).toBe(`grpc://${server!.grpc}`);
    expect(out.one).toEqual({ dtype: 'float32', shape: [1, 4], values: [2, 3, 4, 5] });
    expect([out.bigShape, out.joined]).toEqual([[20, 4], true]);
    // The server counted one request, then three (8, 8 and 4).
    const after = await readOnceCounted(
      () => counts('add_one'),
      (c) => c.success - before.success >= 4,
    );
    expect(after.success - before.success).toBe(4);
  });

  it('an ensemble is one model; BYTES in and out: str and bytes sent, byte strings back, INT64 as int64', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from clients import pipeline, upper
p = pipeline.connect(sys.argv[1])
piped = p.infer({"IN": numpy.arange(1, 5, dtype=numpy.float32).reshape(1, 4)})["OUT"]
c = upper.connect(sys.argv[1])
out = c.infer({"TEXT": numpy.array([["hello", "w\\u00f6rld".encode()]], dtype=numpy.object_)})
print(json.dumps({"piped": show(piped), "UPPER": upper.decode_strings(out["UPPER"]), "LENGTHS": show(out["LENGTHS"])}))
`,
      [server!.grpc],
    );
    expect(out).toEqual({
      piped: { dtype: 'float32', shape: [1, 4], values: [3, 4, 5, 6] },
      UPPER: ['HELLO', 'WöRLD'],
      LENGTHS: { dtype: 'int64', shape: [1, 2], values: [5, 6] },
    });
  });

  it('a sequence model: the correlation id (from 2**63 too) and start/end reach the model', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from clients import counter
c = counter.connect(sys.argv[1])
def step(id, value, start=False, end=False):
    return c.infer({"VALUE": numpy.array([[value]], dtype=numpy.int32)}, sequence=counter.SequenceOptions(id, start=start, end=end))["TOTAL"].flatten().tolist()
big = 2**63 + 5
print(json.dumps([step(42, 1, start=True), step(big, 10, start=True), step(42, 2), step(big, 5, end=True), step(42, 3, end=True)]))
`,
      [server!.grpc],
    );
    expect(out).toEqual([[1], [10], [3], [15], [6]]);
  });

  it('a wrong shape is refused before sending, naming the input; what the server refuses (INVALID_ARGUMENT) is not retried', async () => {
    const before = await counts('add_one');
    const out = await runPython(
      gen,
      `${CATCH}
from clients import add_one
from drifted import add_one as drifted
c = add_one.connect(sys.argv[1])
before = caught(lambda: c.infer({"INPUT0": numpy.zeros((1, 5), dtype=numpy.float32)}))
mismatch = caught(lambda: drifted.connect(sys.argv[1]))
d = drifted.connect(sys.argv[1], check_metadata=False)
refused = caught(lambda: d.infer({"INPUT0": numpy.zeros((1, 5), dtype=numpy.float32)}, retries=3))
print(json.dumps({"before": before, "mismatch": mismatch, "refused": refused}))
`,
      [server!.grpc],
    );
    expect([out.before.name, out.before.input]).toEqual(['InvalidInput', 'INPUT0']);
    expect(out.before.message).toBe('input "INPUT0": shape [1, 5] does not match the model\'s [batch, 4] (the batch axis first: max_batch_size is 8)');
    expect(out.mismatch.name).toBe('ModelMismatch');
    expect(out.mismatch.message).toContain('input "INPUT0" has shape [-1, 4] there, [batch, any] here');
    // grpc StatusCode.INVALID_ARGUMENT is 3.
    expect([out.refused.name, out.refused.status, out.refused.input, out.refused.attempts]).toEqual(['InvalidInput', 3, 'INPUT0', 1]);
    expect(out.refused.message).toContain("unexpected shape for input 'INPUT0' for model 'add_one'. Expected [-1,4], got [1,5]");
    // Neither ran: the server's statistics count no request refused at its input checks (seen with 2.51).
    expect(await counts('add_one')).toEqual(before);
  });

  it('a call past its timeout is a Timeout (the gRPC deadline), a cancelled one Aborted; a server that is not there is ServerNotLive', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from clients import slow
c = slow.connect(sys.argv[1])
started = time.monotonic()
e = caught(lambda: c.infer({"SECONDS": numpy.array([3], dtype=numpy.float32)}, timeout_s=0.5))
took = time.monotonic() - started
ok = c.infer({"SECONDS": numpy.array([0], dtype=numpy.float32)}, timeout_s=20)["DONE"]
import threading
cancel = threading.Event()
threading.Timer(0.3, cancel.set).start()
started = time.monotonic()
aborted = caught(lambda: c.infer({"SECONDS": numpy.array([3], dtype=numpy.float32)}, cancel=cancel, timeout_s=20))
abort_took = time.monotonic() - started
print(json.dumps({"e": e, "took": took, "ok": list(ok.shape), "gone": caught(lambda: slow.connect("127.0.0.1:1")), "aborted": aborted, "abortTook": abort_took}))
`,
      [server!.grpc],
      60_000,
    );
    // grpc StatusCode.DEADLINE_EXCEEDED is 4.
    expect([out.e.name, out.e.status, out.e.message]).toEqual(['Timeout', 4, 'ModelInfer "slow": no answer within 0.5 s']);
    expect(out.took).toBeLessThan(2.5);
    expect(out.ok).toEqual([1]);
    expect([out.gone.name, out.gone.message]).toEqual(['ServerNotLive', 'server at grpc://127.0.0.1:1 is not live: connection refused']);
    // The caller's cancel event cancels the waiting call.
    expect([out.aborted.name, out.aborted.message]).toEqual(['Aborted', 'ModelInfer "slow": aborted']);
    expect(out.abortTook).toBeLessThan(1.5);
  }, 60_000);

  it('not ready while the model reloads: ModelNotReady (NOT_FOUND), retried until the load is done; connect tells the state', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
import threading, urllib.request
from clients import add_one
url = sys.argv[2]
def control(action):
    urllib.request.urlopen(urllib.request.Request(url + "/v2/repository/models/add_one/" + action, data=b"{}", method="POST"), timeout=60).read()
c = add_one.connect(sys.argv[1])
control("unload")
while c.ready():
    time.sleep(0.1)
x = {"INPUT0": numpy.ones((1, 4), dtype=numpy.float32)}
once = caught(lambda: c.infer(x, retries=0))
connect_error = caught(lambda: add_one.connect(sys.argv[1]))
threading.Timer(0.3, control, ["load"]).start()
out = c.infer(x, retries=40, backoff_s=0.1, max_backoff_s=0.5, timeout_s=60)["OUTPUT0"]
print(json.dumps({"once": once, "connect": connect_error, "out": show(out)}))
`,
      [server!.grpc, server!.url],
      90_000,
    );
    // grpc StatusCode.NOT_FOUND is 5.
    expect([out.once.name, out.once.status, out.once.retryable]).toEqual(['ModelNotReady', 5, true]);
    expect(out.once.message).toBe('model "add_one" is not ready: Request for unknown model: \'add_one\' has no available versions');
    expect(out.connect.message).toMatch(/^model "add_one" is not ready: (UNLOADING|UNAVAILABLE: unloaded)$/);
    expect(out.out.values).toEqual([2, 2, 2, 2]);
  }, 90_000);

  it('a decoupled model: stream() yields its responses in order and ends after the final one; its error is typed; an early stop cancels', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from clients import streamer
c = streamer.connect(sys.argv[1])
def run(n, **options):
    return [r["OUT"].tolist() for r in c.stream({"IN": numpy.array([n], dtype=numpy.int32)}, **options)]
five = run(5)
empty = run(0)
shapes = [[str(r["OUT"].dtype), list(r["OUT"].shape)] for r in c.stream({"IN": numpy.array([1], dtype=numpy.int32)})]
failed = caught(lambda: run(-1))
first = []
started = time.monotonic()
for r in c.stream({"IN": numpy.array([2000], dtype=numpy.int32)}):
    first.append(r["OUT"].tolist())
    if len(first) == 2:
        break
stopped = time.monotonic() - started
again = run(3)
print(json.dumps({"five": five, "empty": empty, "shapes": shapes, "failed": failed, "first": first, "stopped": stopped, "again": again}))
`,
      [server!.grpc],
      90_000,
    );
    expect(out.five).toEqual([[1], [2], [3], [4], [5]]);
    // No response at all: the empty final response (enable_empty_final_response) ends the stream.
    expect(out.empty).toEqual([]);
    expect(out.shapes).toEqual([['int32', [1]]]);
    expect([out.failed.name, out.failed.message]).toEqual(['InferenceFailed', 'ModelStreamInfer "streamer": IN must be 0 or more, got -1']);
    // A consumer that stops early cancels the stream (not reading 2000 responses); the next one streams from the start.
    expect(out.first).toEqual([[1], [2]]);
    expect(out.stopped).toBeLessThan(10);
    expect(out.again).toEqual([[1], [2], [3]]);
  }, 90_000);
});
