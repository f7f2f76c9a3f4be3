// The generated Python clients (tritonc client --lang python, on tritonclient.http) against the real
// tritonserver 2.51 (Python backend, CPU; scripts/real-triton/setup.sh makes its venv, with
// tritonclient[http] and mypy): infer, a split batch (counted by the server's own statistics), BYTES in
// and out, a sequence, a shape refused before sending and a 400 not retried, a timeout, a transient
// failure the server itself answers (503 from the dynamic batcher's queue policy) retried, not-ready
// while the model reloads, and a decoupled model refused. Without the venv the suite is skipped with one line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRun } from '../../src/client/run.js';
import { CLIENT_MODELS, writeModels, type TestModel, DRIFTED_MODELS } from '../support/client-models.js';
import { CATCH, pythonClientRuns, runPython } from '../support/python-client.js';
import { readOnceCounted, realTritonRuns, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { tempDir } from '../support/temp.js';

const runs = realTritonRuns('generated Python clients against the real Triton') && pythonClientRuns('generated Python clients against the real Triton');

/**
 * Sleeps SECONDS, like slow, behind a dynamic batcher whose queue rejects a request that waited 200 ms
 * (core r24.10 src/dynamic_batch_scheduler.cc:71, UNAVAILABLE "Request timeout expired", answered 503 by
 * server src/http_server.cc:108-109 HttpCodeFromError): while one request runs, the next is refused, and
 * succeeds once it is done.
 */
const QUEUED: TestModel = {
  pbtxt: `name: "queued"
backend: "python"
max_batch_size: 4
dynamic_batching { default_queue_policy { timeout_action: REJECT default_timeout_microseconds: 200000 } }
input [ { name: "SECONDS" data_type: TYPE_FP32 dims: [ 1 ] } ]
output [ { name: "DONE" data_type: TYPE_FP32 dims: [ 1 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
`,
  json: {},
  py: CLIENT_MODELS.slow!.py!,
};

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

describe.skipIf(!runs)('generated Python clients against the real tritonserver 2.51', () => {
  beforeAll(async () => {
    const dir = tempDir('tritonc-client-py-real-');
    const repo = join(dir, 'models');
    const models = { ...CLIENT_MODELS, queued: QUEUED };
    writeModels(repo, models);
    const drifted = join(dir, 'drifted');
    writeModels(drifted, DRIFTED_MODELS);
    gen = join(dir, 'gen');
    for (const [from, pkg] of [
      [repo, 'clients'],
      [drifted, 'drifted'],
    ] as const) {
      mkdirSync(join(gen, pkg), { recursive: true });
      const run = clientRun(from, { lang: 'python' });
      if ('error' in run) throw new Error(run.error);
      for (const f of run.files) writeFileSync(join(gen, pkg, f.name), f.text);
    }
    server = await startRealTriton(
      repo,
      Object.keys(models).map((m) => `--load-model=${m}`),
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
print(json.dumps({"one": show(one), "bigShape": list(big.shape), "joined": bool((big == data + 1).all())}))
`,
      [server!.url],
    );
    expect(out.one).toEqual({ dtype: 'float32', shape: [1, 4], values: [2, 3, 4, 5] });
    expect([out.bigShape, out.joined]).toEqual([[20, 4], true]);
    // The server counted one request, then three (8, 8 and 4).
    const after = await readOnceCounted(
      () => counts('add_one'),
      (c) => c.success - before.success >= 4,
    );
    expect(after.success - before.success).toBe(4);
  });

  it("one client is shared by 8 threads (tritonclient.http's own client is not: each thread gets its own)", async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from concurrent.futures import ThreadPoolExecutor
from clients import add_one
c = add_one.connect(sys.argv[1])
def one(i):
    return c.infer({"INPUT0": numpy.full((1, 4), i, dtype=numpy.float32)})["OUTPUT0"].flatten().tolist()
with ThreadPoolExecutor(8) as pool:
    got = list(pool.map(one, range(32)))
# Threads one after another: Python reuses an ended thread's id, never its client.
import threading
seq = []
for i in range(6):
    t = threading.Thread(target=lambda i=i: seq.append(one(i)))
    t.start()
    t.join()
c.close()
print(json.dumps({"ok": got == [[i + 1.0] * 4 for i in range(32)], "seq": seq == [[i + 1.0] * 4 for i in range(6)]}))
`,
      [server!.url],
    );
    expect(out).toEqual({ ok: true, seq: true });
  });

  it('an ensemble is one model: its client sends IN and gets OUT (add_one twice)', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from clients import pipeline
c = pipeline.connect(sys.argv[1])
print(json.dumps(show(c.infer({"IN": numpy.arange(1, 9, dtype=numpy.float32).reshape(2, 4)})["OUT"])))
`,
      [server!.url],
    );
    expect(out).toEqual({ dtype: 'float32', shape: [2, 4], values: [3, 4, 5, 6, 7, 8, 9, 10] });
  });

  it('BYTES in and out: str and bytes sent, byte strings back, INT64 as int64', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from clients import upper
c = upper.connect(sys.argv[1])
out = c.infer({"TEXT": numpy.array([["hello", "w\\u00f6rld".encode()]], dtype=numpy.object_)})
print(json.dumps({"UPPER": upper.decode_strings(out["UPPER"]), "shape": list(out["UPPER"].shape), "LENGTHS": show(out["LENGTHS"])}))
`,
      [server!.url],
    );
    // Python's bytes.upper() changes ASCII letters only.
    expect(out).toEqual({ UPPER: ['HELLO', 'WöRLD'], shape: [1, 2], LENGTHS: { dtype: 'int64', shape: [1, 2], values: [5, 6] } });
  });

  it('a sequence model: the correlation id and start/end flags reach the model (START control, correlation_id())', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from clients import counter
c = counter.connect(sys.argv[1])
def step(id, value, start=False, end=False):
    return c.infer({"VALUE": numpy.array([[value]], dtype=numpy.int32)}, sequence=counter.SequenceOptions(id, start=start, end=end))["TOTAL"].flatten().tolist()
print(json.dumps([step(42, 1, start=True), step(42, 2), step(43, 10, start=True), step(42, 3, end=True), step(43, 5, end=True)]))
`,
      [server!.url],
    );
    expect(out).toEqual([[1], [3], [10], [6], [15]]);
  });

  it('a wrong shape is refused before sending, naming the input; what the server refuses (400) is not retried', async () => {
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
      [server!.url],
    );
    expect([out.before.name, out.before.input]).toEqual(['InvalidInput', 'INPUT0']);
    expect(out.before.message).toBe('input "INPUT0": shape [1, 5] does not match the model\'s [batch, 4] (the batch axis first: max_batch_size is 8)');
    expect(out.mismatch.name).toBe('ModelMismatch');
    expect(out.mismatch.message).toContain('input "INPUT0" has shape [-1, 4] there, [batch, any] here');
    expect([out.refused.name, out.refused.status, out.refused.input, out.refused.attempts]).toEqual(['InvalidInput', 400, 'INPUT0', 1]);
    expect(out.refused.message).toContain("unexpected shape for input 'INPUT0' for model 'add_one'. Expected [-1,4], got [1,5]");
    // Neither ran: the server's statistics count no request refused at its input checks (seen with 2.51).
    expect(await counts('add_one')).toEqual(before);
  });

  it('a call past its timeout is a Timeout', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
from clients import slow
c = slow.connect(sys.argv[1])
started = time.monotonic()
e = caught(lambda: c.infer({"SECONDS": numpy.array([3], dtype=numpy.float32)}, timeout_s=0.5))
took = time.monotonic() - started
ok = c.infer({"SECONDS": numpy.array([0], dtype=numpy.float32)}, timeout_s=20)["DONE"]
print(json.dumps({"e": e, "took": took, "ok": list(ok.shape)}))
`,
      [server!.url],
      60_000,
    );
    expect([out.e.name, out.e.message]).toEqual(['Timeout', 'POST /v2/models/slow/infer: no answer within 0.5 s']);
    expect(out.took).toBeLessThan(2.5);
    // The model itself answers in time when given it.
    expect(out.ok).toEqual([1]);
  }, 60_000);

  it('a transient failure the server answers (503 "Request timeout expired" from its queue) is retried with backoff, and the retry answers', async () => {
    const before = await counts('queued');
    // One request holds the model's one instance for 5 s; the client's wait in the queue runs out meanwhile.
    const holding = fetch(`${server!.url}/v2/models/queued/infer`, {
      method: 'POST',
      body: JSON.stringify({ inputs: [{ name: 'SECONDS', shape: [1, 1], datatype: 'FP32', data: [5] }] }),
    });
    const out = await runPython(
      gen,
      `${CATCH}
from clients import queued
c = queued.connect(sys.argv[1])
once = caught(lambda: c.infer({"SECONDS": numpy.array([[0]], dtype=numpy.float32)}, retries=0))
started = time.monotonic()
out = c.infer({"SECONDS": numpy.array([[0]], dtype=numpy.float32)}, retries=100, backoff_s=0.1, max_backoff_s=0.3, timeout_s=30)["DONE"]
print(json.dumps({"once": once, "shape": list(out.shape), "took": time.monotonic() - started}))
`,
      [server!.url],
      60_000,
    );
    expect((await holding).status).toBe(200);
    expect([out.once.name, out.once.status, out.once.retryable, out.once.attempts]).toEqual(['Unavailable', 503, true, 1]);
    expect(out.once.message).toBe('POST /v2/models/queued/infer: HTTP 503: Request timeout expired');
    expect(out.shape).toEqual([1, 1]);
    // The retried call was refused at least once more before the instance was free (the server's count).
    const after = await readOnceCounted(
      () => counts('queued'),
      (c) => c.success - before.success >= 2 && c.fail - before.fail >= 2,
    );
    expect(after.success - before.success).toBe(2);
    expect(after.fail - before.fail).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('not ready while the model reloads: ModelNotReady, retried until the load is done; connect tells the state', async () => {
    const out = await runPython(
      gen,
      `${CATCH}
import threading, urllib.request
from clients import add_one
url = sys.argv[1]
def control(action):
    urllib.request.urlopen(urllib.request.Request(url + "/v2/repository/models/add_one/" + action, data=b"{}", method="POST"), timeout=60).read()
c = add_one.connect(url)
control("unload")
while c.ready():
    time.sleep(0.1)
x = {"INPUT0": numpy.ones((1, 4), dtype=numpy.float32)}
once = caught(lambda: c.infer(x, retries=0))
connect_error = caught(lambda: add_one.connect(url))
threading.Timer(0.3, control, ["load"]).start()
out = c.infer(x, retries=40, backoff_s=0.1, max_backoff_s=0.5, timeout_s=60)["OUTPUT0"]
print(json.dumps({"once": once, "connect": connect_error, "out": show(out)}))
`,
      [server!.url],
      90_000,
    );
    expect([out.once.name, out.once.status, out.once.retryable]).toEqual(['ModelNotReady', 404, true]);
    expect(out.once.message).toBe('model "add_one" is not ready: Request for unknown model: \'add_one\' has no available versions');
    // The index says where the unload is: still UNLOADING, or UNAVAILABLE once done.
    expect(out.connect.message).toMatch(/^model "add_one" is not ready: (UNLOADING|UNAVAILABLE: unloaded)$/);
    expect(out.out.values).toEqual([2, 2, 2, 2]);
  }, 90_000);

  it("a decoupled model: Triton's HTTP infer answers 501, and the client refuses it at connect", async () => {
    const raw = await fetch(`${server!.url}/v2/models/streamer/infer`, {
      method: 'POST',
      body: JSON.stringify({ inputs: [{ name: 'IN', shape: [1], datatype: 'INT32', data: [1] }] }),
    });
    expect(raw.status).toBe(501);
    const e = await runPython(
      gen,
      `${CATCH}
from clients import streamer
print(json.dumps(caught(lambda: streamer.connect(sys.argv[1]))))
`,
      [server!.url],
    );
    expect(e.name).toBe('Unsupported');
  });
});
