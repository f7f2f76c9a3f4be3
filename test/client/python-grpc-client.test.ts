// `tritonc client --lang python --protocol grpc`: the generated modules (on tritonclient.grpc) pass
// mypy --strict, with a use that must pass (a decoupled model's stream() as a typed iterator, a
// sequence model's typed sequence) and a file that must not; and they run against a stand-in gRPC
// server (test/support/kserve-grpc-stub.ts, which reads back with protobufjs what tritonclient sent)
// for what the real server cannot be made to do on cue: a transient UNAVAILABLE retried, an
// INVALID_ARGUMENT not, a sequence step retried only where Triton took nothing, a stream that fails
// halfway or runs past its deadline. The real server: test/server/client-python-grpc-real-triton.test.ts.
// The Python side runs in the venv of scripts/real-triton/setup.sh; without it the suite is skipped with one line.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientRun } from '../../src/client/run.js';
import { CLIENT_MODELS, HOSTILE, HOSTILE_INPUT, HOSTILE_MODEL, HOSTILE_OUTPUT, writeModels, type TestModel } from '../support/client-models.js';
import { startGrpcStub, zeros, type GrpcStub, type StubModel } from '../support/kserve-grpc-stub.js';
import { CATCH, mypyStrict, pythonClientRuns, runPython } from '../support/python-client.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const runs = pythonClientRuns('generated Python gRPC clients (mypy --strict, tritonclient.grpc)');

/** Uses that must type-check; each wrong use carries the `type: ignore` of its error (an unused one fails under --strict). */
const USE = `from __future__ import annotations

from typing import Iterator, List

import numpy
import numpy.typing as npt

import classifier
from clients import MODELS, counter, streamer, upper


def use(address: str) -> None:
    c = classifier.connect(address, timeout_s=1.0)
    inputs: classifier.Inputs = {"input": numpy.zeros((1, 3, 224, 224), dtype=numpy.float32)}
    scores: npt.NDArray[numpy.float32] = c.infer(inputs, retries=1)["output"]
    doubles = numpy.zeros((1, 3, 224, 224), dtype=numpy.float64)
    c.infer({"input": doubles})  # type: ignore[typeddict-item]
    c.stream(inputs)  # type: ignore[attr-defined]
    s = streamer.connect(address)
    responses: Iterator[streamer.Outputs] = s.stream({"IN": numpy.array([3], dtype=numpy.int32)}, timeout_s=5.0)
    for r in responses:
        value: npt.NDArray[numpy.int32] = r["OUT"]
        print(value)
    s.infer({"IN": numpy.array([3], dtype=numpy.int32)})  # type: ignore[attr-defined]
    s.stream({"IN": numpy.array([3], dtype=numpy.int32)}, split=False)  # type: ignore[call-arg]
    floats = numpy.array([3], dtype=numpy.float32)
    s.stream({"IN": floats})  # type: ignore[typeddict-item]
    k = counter.connect(address)
    k.infer({"VALUE": numpy.array([[1]], dtype=numpy.int32)}, sequence=counter.SequenceOptions(2**63 + 5, start=True))
    k.infer({"VALUE": numpy.array([[1]], dtype=numpy.int32)})  # type: ignore[call-arg]
    u = upper.connect(address)
    strings: List[str] = upper.decode_strings(u.infer({"TEXT": numpy.array([[b"a", "b"]], dtype=numpy.object_)})["UPPER"])
    with MODELS["add_one"].connect(address) as a:
        print(a.url)
    print(scores, strings)
`;

/** A file that must not type-check: a decoupled model's responses are a stream, its Client has no infer(). */
const BAD = `import numpy

from clients import streamer

s = streamer.connect("127.0.0.1:1")
s.infer({"IN": numpy.array([3], dtype=numpy.int32)})
`;

let gen = '';
const files: string[] = [];

beforeAll(() => {
  if (!runs) return;
  const dir = tempDir('tritonc-client-pygrpc-');
  writeModels(join(dir, 'models'), { ...CLIENT_MODELS, [HOSTILE_MODEL]: HOSTILE });
  gen = join(dir, 'gen');
  mkdirSync(join(gen, 'clients'), { recursive: true });
  const run = clientRun(join(dir, 'models'), { lang: 'python', protocol: 'grpc' });
  if ('error' in run) throw new Error(run.error);
  expect([run.problems, run.warnings]).toEqual([[], []]);
  for (const f of run.files) writeFileSync(join(gen, 'clients', f.name), f.text);
  files.push(...run.files.map((f) => `clients/${f.name}`));
  const single = clientRun(join(ROOT, 'model_repository', 'classifier'), { lang: 'python', protocol: 'grpc' });
  if ('error' in single) throw new Error(single.error);
  for (const f of single.files) writeFileSync(join(gen, f.name), f.text);
  files.push(...single.files.map((f) => f.name));
  writeFileSync(join(gen, 'use.py'), USE);
  writeFileSync(join(gen, 'bad.py'), BAD);
});

describe.skipIf(!runs)('the generated Python gRPC client type-checks', () => {
  it('every module, __init__.py and their uses pass mypy --strict; wrong uses are errors', async () => {
    const r = await mypyStrict(gen, [...files, 'use.py', 'bad.py']);
    const errors = r.stdout.split('\n').filter((l) => l.includes(': error:'));
    expect(errors, r.stdout + r.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(/^bad\.py:6: error: "Client" has no attribute "infer"/);
  }, 180_000);

  it('each module says its protocol in its header and loads tritonclient.grpc', () => {
    const text = readFileSync(join(gen, 'clients', 'streamer.py'), 'utf8');
    expect(text.split('\n')[0]).toBe('# Generated by tritonc from streamer/config.pbtxt with: tritonc client --lang python --protocol grpc');
    expect(text).toContain('_grpcclient: Any = importlib.import_module("tritonclient.grpc")');
    expect(text).not.toContain('tritonclient.http');
    expect(readFileSync(join(gen, 'clients', '__init__.py'), 'utf8').split('\n')[0]).toContain('--lang python --protocol grpc');
  });
});

const stubModel = (m: TestModel, ready = true): StubModel => {
  const j = m.json as {
    max_batch_size: number;
    input: { name: string; data_type: string; dims: string[] }[];
    output: { name: string; data_type: string; dims: string[] }[];
  };
  const t = (x: { name: string; data_type: string; dims: string[] }) => ({
    name: x.name,
    datatype: x.data_type.replace('TYPE_', '').replace('STRING', 'BYTES'),
    dims: x.dims.map(Number),
  });
  return { maxBatchSize: j.max_batch_size, inputs: j.input.map(t), outputs: j.output.map(t), ready };
};

let stub: GrpcStub | undefined;
afterEach(async () => {
  await stub?.stop();
  stub = undefined;
});

const infers = (s: GrpcStub): number => s.calls.filter((c) => c === 'ModelInfer').length;
const streams = (s: GrpcStub): number => s.calls.filter((c) => c === 'ModelStreamInfer').length;
const STEP = 'step = {"INPUT0": numpy.array([[1, 2, 3, 4]], dtype=numpy.float32)}\n';

describe.skipIf(!runs)('the generated Python gRPC client against a stand-in gRPC server', () => {
  it('connect calls ServerLive, ModelReady, ModelMetadata; infer sends the KServe ModelInferRequest protobufjs reads back', async () => {
    stub = await startGrpcStub({ upper: stubModel(CLIENT_MODELS.upper!) });
    const out = await runPython(
      gen,
      `${CATCH}
from clients import upper
c = upper.connect(sys.argv[1])
out = c.infer({"TEXT": numpy.array([["h\\u00e9", b"xyz"]], dtype=numpy.object_)}, request_id="r-1", headers={"X-Note": "n"})
print(json.dumps({"url": c.url, "UPPER": show(out["UPPER"]), "LENGTHS": show(out["LENGTHS"])}))
`,
      [stub.address],
    );
    expect(stub.calls).toEqual(['ServerLive', 'ModelReady', 'ModelMetadata', 'ModelInfer']);
    const r = stub.requests.at(-1)!;
    expect([r.model, r.id, r.outputs, r.parameters, r.metadata.get('x-note')]).toEqual(['upper', 'r-1', ['UPPER', 'LENGTHS'], {}, ['n']]);
    expect(r.inputs.map((t) => [t.name, t.datatype, t.shape])).toEqual([['TEXT', 'BYTES', [1, 2]]]);
    // Each BYTES element a 4-byte little-endian length and its UTF-8 bytes, in raw_input_contents.
    expect(Array.from(r.inputs[0]!.bytes)).toEqual([3, 0, 0, 0, 0x68, 0xc3, 0xa9, 3, 0, 0, 0, 0x78, 0x79, 0x7a]);
    expect(out.url).toBe(`grpc://${stub.address}`);
    expect(out.LENGTHS).toEqual({ dtype: 'int64', shape: [1, 1], values: [0] });
    expect(out.UPPER).toEqual({ dtype: 'object', shape: [1, 1], values: [''] });
  });

  it("a transient UNAVAILABLE (Triton's queue full) is retried with backoff; after the retries it is Unavailable", async () => {
    stub = await startGrpcStub({ add_one: stubModel(CLIENT_MODELS.add_one!) });
    let failures = 2;
    // core src/scheduler_utils.cc PriorityQueue::PolicyQueue::Enqueue: a full queue is UNAVAILABLE "Exceeds maximum queue size".
    stub.infer = () => (failures-- > 0 ? { code: grpc.status.UNAVAILABLE, details: 'Exceeds maximum queue size' } : undefined);
    const s = stub;
    const first = await runPython(
      gen,
      `${CATCH}${STEP}
from clients import add_one
c = add_one.connect(sys.argv[1], backoff_s=0.01)
print(json.dumps(list(c.infer(step)["OUTPUT0"].shape)))
`,
      [s.address],
    );
    expect([first, infers(s)]).toEqual([[1, 4], 3]);
    failures = 10;
    const gaveUp = await runPython(
      gen,
      `${CATCH}${STEP}
from clients import add_one
c = add_one.connect(sys.argv[1], backoff_s=0.01)
print(json.dumps(caught(lambda: c.infer(step, retries=2))))
`,
      [s.address],
    );
    expect([gaveUp.name, gaveUp.status, gaveUp.attempts, gaveUp.retryable, infers(s)]).toEqual(['Unavailable', grpc.status.UNAVAILABLE, 3, true, 6]);
    expect(gaveUp.message).toBe('ModelInfer "add_one": UNAVAILABLE: Exceeds maximum queue size (after 3 attempts)');
  });

  it('a refused input (INVALID_ARGUMENT) and a server error (INTERNAL) are never retried', async () => {
    stub = await startGrpcStub({ add_one: stubModel(CLIENT_MODELS.add_one!) });
    const s = stub;
    s.infer = (r) =>
      r.id === 'internal'
        ? { code: grpc.status.INTERNAL, details: 'boom' }
        : { code: grpc.status.INVALID_ARGUMENT, details: "unexpected shape for input 'INPUT0' for model 'add_one'" };
    const out = await runPython(
      gen,
      `${CATCH}${STEP}
from clients import add_one
c = add_one.connect(sys.argv[1], backoff_s=0.01)
print(json.dumps({"refused": caught(lambda: c.infer(step, retries=3)), "internal": caught(lambda: c.infer(step, retries=3, request_id="internal"))}))
`,
      [s.address],
    );
    expect([out.refused.name, out.refused.status, out.refused.input, out.refused.attempts, out.refused.retryable]).toEqual([
      'InvalidInput',
      grpc.status.INVALID_ARGUMENT,
      'INPUT0',
      1,
      false,
    ]);
    expect(out.refused.message).toBe("ModelInfer \"add_one\": INVALID_ARGUMENT: unexpected shape for input 'INPUT0' for model 'add_one'");
    expect([out.internal.name, out.internal.retryable, out.internal.attempts]).toEqual(['InferenceFailed', false, 1]);
    expect(infers(s)).toBe(2);
  });

  it('a sequence sends sequence_id (int64_param: an id from 2**63 as its 64 bits; string_param) and the flags; a step is retried only where Triton took nothing', async () => {
    stub = await startGrpcStub({ counter: stubModel(CLIENT_MODELS.counter!) });
    const s = stub;
    let answer: { code: grpc.status; details: string } | undefined;
    s.infer = () => {
      const a = answer;
      answer = undefined;
      return a;
    };
    await runPython(
      gen,
      `${CATCH}
from clients import counter
c = counter.connect(sys.argv[1], backoff_s=0.01)
value = {"VALUE": numpy.array([[1]], dtype=numpy.int32)}
c.infer(value, sequence=counter.SequenceOptions(2**63 + 5, start=True))
c.infer(value, sequence=counter.SequenceOptions("abc", end=True))
print(json.dumps(None))
`,
      [s.address],
    );
    expect(s.requests.map((r) => r.parameters)).toEqual([
      // client tritonclient/grpc/_utils.py _get_inference_request: a sequence request carries all three.
      {
        sequence_id: { case: 'int64_param', value: String(-(2n ** 63n) + 5n) },
        sequence_start: { case: 'bool_param', value: 'true' },
        sequence_end: { case: 'bool_param', value: 'false' },
      },
      {
        sequence_id: { case: 'string_param', value: 'abc' },
        sequence_start: { case: 'bool_param', value: 'false' },
        sequence_end: { case: 'bool_param', value: 'true' },
      },
    ]);
    // A full queue: Triton took nothing, the step is sent again. Another UNAVAILABLE may have run it: not retried.
    const retried = await (async () => {
      answer = { code: grpc.status.UNAVAILABLE, details: 'Exceeds maximum queue size' };
      const before = infers(s);
      const r = await runPython(
        gen,
        `${CATCH}
from clients import counter
c = counter.connect(sys.argv[1], backoff_s=0.01)
print(json.dumps(list(c.infer({"VALUE": numpy.array([[1]], dtype=numpy.int32)}, sequence=counter.SequenceOptions(5))["TOTAL"].shape)))
`,
        [s.address],
      );
      return [r, infers(s) - before];
    })();
    expect(retried).toEqual([[1, 1], 2]);
    answer = { code: grpc.status.UNAVAILABLE, details: 'Connection dropped' };
    const before = infers(s);
    const dropped = await runPython(
      gen,
      `${CATCH}
from clients import counter
c = counter.connect(sys.argv[1], backoff_s=0.01)
print(json.dumps(caught(lambda: c.infer({"VALUE": numpy.array([[1]], dtype=numpy.int32)}, sequence=counter.SequenceOptions(5)))))
`,
      [s.address],
    );
    expect([dropped.name, dropped.attempts, infers(s) - before]).toEqual(['Unavailable', 1, 1]);
  });

  it('a model not ready (NOT_FOUND) is ModelNotReady, retried until it is back; connect says its state; nothing there is ServerNotLive', async () => {
    stub = await startGrpcStub({ add_one: stubModel(CLIENT_MODELS.add_one!) });
    const s = stub;
    const pending = runPython(
      gen,
      `${CATCH}${STEP}
from clients import add_one
c = add_one.connect(sys.argv[1], backoff_s=0.02)
print("connected", flush=True)
while c.ready():
    time.sleep(0.02)
once = caught(lambda: c.infer(step, retries=0))
out = c.infer(step, retries=10)["OUTPUT0"]
print(json.dumps({"once": once, "shape": list(out.shape)}))
`,
      [s.address],
    );
    for (let i = 0; i < 200 && !s.calls.includes('ModelMetadata'); i++) await new Promise((r) => setTimeout(r, 50));
    // The stub answers NOT_FOUND while the model is away (core src/model_repository_manager/model_lifecycle.cc
    // GetModel: no ready version); it is back 800 ms later, while the client retries.
    s.models.add_one!.ready = false;
    setTimeout(() => void (s.models.add_one!.ready = true), 800);
    const out = await pending;
    expect([out.once.name, out.once.status, out.once.retryable]).toEqual(['ModelNotReady', grpc.status.NOT_FOUND, true]);
    expect(out.once.message).toBe('model "add_one" is not ready: Request for unknown model: \'add_one\' has no available versions');
    expect(out.shape).toEqual([1, 4]);
    Object.assign(s.models.add_one!, { ready: false, state: 'UNAVAILABLE', reason: 'unloaded' });
    const e = await runPython(
      gen,
      `${CATCH}
from clients import add_one
print(json.dumps({"notReady": caught(lambda: add_one.connect(sys.argv[1])), "gone": caught(lambda: add_one.connect("127.0.0.1:1")), "bad": caught(lambda: add_one.connect("http://127.0.0.1:8001/x"))}))
`,
      [s.address],
    );
    expect([e.notReady.name, e.notReady.message]).toEqual(['ModelNotReady', 'model "add_one" is not ready: UNAVAILABLE: unloaded']);
    expect([e.gone.name, e.gone.message]).toEqual(['ServerNotLive', 'server at grpc://127.0.0.1:1 is not live: connection refused']);
    expect(e.bad.message).toBe('not a gRPC address: "http://127.0.0.1:8001/x" (give host:port, grpc://host:port or grpcs://host:port, e.g. localhost:8001)');
  });

  it('a restricted protocol (UNAVAILABLE "This protocol is restricted") is not retried; the header goes as metadata; a header that cannot be is named', async () => {
    stub = await startGrpcStub({ add_one: stubModel(CLIENT_MODELS.add_one!) });
    const s = stub;
    s.restricted = { header: 'admin-key', value: 's3cret' };
    const out = await runPython(
      gen,
      `${CATCH}${STEP}
from clients import add_one
refused = caught(lambda: add_one.connect(sys.argv[1], retries=3))
c = add_one.connect(sys.argv[1], headers={"Triton-GRPC-Protocol-Admin-Key": "s3cret"})
print(json.dumps({"refused": refused, "shape": list(c.infer(step)["OUTPUT0"].shape), "bad": caught(lambda: c.infer(step, headers={"x-note": "two\\nlines"}))}))
`,
      [s.address],
    );
    expect([out.refused.name, out.refused.retryable]).toEqual(['TritonClientError', false]);
    expect(out.refused.message).toBe(
      "ServerLive: UNAVAILABLE: This protocol is restricted, expecting header 'triton-grpc-protocol-admin-key' (the server restricts this protocol: pass the header it expects in connect()'s headers)",
    );
    expect(s.calls.filter((c) => c === 'ServerLive').length).toBe(2);
    expect(out.shape).toEqual([1, 4]);
    expect([out.bad.name, out.bad.message]).toEqual([
      'TritonClientError',
      'header "x-note" cannot be gRPC metadata (a key is letters, digits, "-", "_" and "."; a value printable ASCII)',
    ]);
  });

  it('a stream asks for the empty final response, yields each response in order, ends at the final flag; an error_message after one response is typed, not retried', async () => {
    stub = await startGrpcStub({ streamer: stubModel(CLIENT_MODELS.streamer!) });
    const s = stub;
    const model = s.models.streamer!;
    const out = (v: number) => ({ ...zeros(model, 'OUT', 1), bytes: new Uint8Array(new Int32Array([v]).buffer) });
    s.stream = (r) =>
      r.id === 'fails'
        ? [{ outputs: [out(1)] }, { error: 'model failed' }]
        : [{ outputs: [out(1)] }, { outputs: [out(2)], final: true }, { outputs: [out(99)] }];
    const got = await runPython(
      gen,
      `${CATCH}
from clients import streamer
c = streamer.connect(sys.argv[1], backoff_s=0.01)
values = [r["OUT"].tolist() for r in c.stream({"IN": numpy.array([2], dtype=numpy.int32)})]
seen = []
def fails():
    for r in c.stream({"IN": numpy.array([2], dtype=numpy.int32)}, request_id="fails", retries=3):
        seen.append(r["OUT"].tolist())
print(json.dumps({"values": values, "error": caught(fails), "seen": seen}))
`,
      [s.address],
    );
    expect(got.values).toEqual([[1], [2]]);
    expect(s.requests[0]!.parameters).toEqual({ triton_enable_empty_final_response: { case: 'bool_param', value: 'true' } });
    expect([got.seen, got.error.name, got.error.message, got.error.attempts]).toEqual([
      [[1]],
      'InferenceFailed',
      'ModelStreamInfer "streamer": model failed',
      1,
    ]);
    expect(streams(s)).toBe(2);
  });

  it("a stream whose model is not ready before any response is retried; one that hangs ends at its deadline (Timeout), or at the caller's cancel (Aborted)", async () => {
    stub = await startGrpcStub({ streamer: stubModel(CLIENT_MODELS.streamer!) });
    const s = stub;
    let notReady = 1;
    // server src/grpc/stream_infer_handler.cc: a request that fails to start is one error_message, no final flag.
    s.stream = (r) =>
      r.id === 'hang' ? [{ hang: true }] : notReady-- > 0 ? [{ error: "Request for unknown model: 'streamer' has no available versions" }] : undefined;
    const got = await runPython(
      gen,
      `${CATCH}
from clients import streamer
c = streamer.connect(sys.argv[1], backoff_s=0.01)
values = [r["OUT"].tolist() for r in c.stream({"IN": numpy.array([1], dtype=numpy.int32)})]
started = time.monotonic()
e = caught(lambda: list(c.stream({"IN": numpy.array([1], dtype=numpy.int32)}, request_id="hang", timeout_s=0.5)))
took = time.monotonic() - started
import threading
cancel = threading.Event()
threading.Timer(0.2, cancel.set).start()
started = time.monotonic()
aborted = caught(lambda: list(c.stream({"IN": numpy.array([1], dtype=numpy.int32)}, request_id="hang", cancel=cancel, timeout_s=20)))
print(json.dumps({"values": values, "timeout": e, "took": took, "aborted": aborted, "abortTook": time.monotonic() - started}))
`,
      [s.address],
    );
    expect(got.values).toEqual([[0]]);
    expect(streams(s)).toBe(4);
    // The caller's cancel event ends a waiting stream (looked at every 50 ms).
    expect([got.aborted.name, got.aborted.message]).toEqual(['Aborted', 'ModelStreamInfer "streamer": aborted']);
    expect(got.abortTook).toBeLessThan(2);
    expect([got.timeout.name, got.timeout.status, got.timeout.message]).toEqual([
      'Timeout',
      grpc.status.DEADLINE_EXCEEDED,
      'ModelStreamInfer "streamer": the stream ran past its 0.5 s',
    ]);
    expect(got.took).toBeLessThan(2);
  });

  it('hostile tensor and model names stay strings over gRPC', async () => {
    stub = await startGrpcStub({ [HOSTILE_MODEL]: stubModel(HOSTILE) });
    const s = stub;
    const out = await runPython(
      gen,
      `${CATCH}
from clients import MODELS
c = MODELS[sys.argv[2]].connect(sys.argv[1])
out = c.infer({sys.argv[3]: numpy.zeros((1, 2), dtype=numpy.float32)})
print(json.dumps({name: list(a.shape) for name, a in out.items()}))
`,
      [s.address, HOSTILE_MODEL, HOSTILE_INPUT],
    );
    expect(Object.entries(out)).toEqual([
      [HOSTILE_OUTPUT, [1, 2]],
      ['__proto__', [1, 2]],
    ]);
    expect(s.requests.at(-1)!.model).toBe(HOSTILE_MODEL);
    expect(s.requests.at(-1)!.inputs[0]!.name).toBe(HOSTILE_INPUT);
  });
});
