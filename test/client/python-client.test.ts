// `tritonc client --lang python`: the generated modules pass mypy --strict (and a wrong numpy dtype does
// not), and run against the protocol fixture (fixtures/verify/protocol-fixture.ts, a local server
// answering as Triton's HTTP endpoint does) through tritonclient.http: infer, a split batch, a shape
// refused before sending, a timeout and a cancel, retries of transient failures only, a model
// reloading, sequences, BYTES, a decoupled model refused, and hostile names that stay strings. The
// Python side runs in the venv of scripts/real-triton/setup.sh; without it the suite is skipped with one line.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientRun } from '../../src/client/run.js';
import { CLASSIFIER, protocolFixtures } from '../support/client-fixture.js';
import type { ProtocolFixture } from '../../fixtures/verify/protocol-fixture.js';
import { CLIENT_MODELS, HOSTILE, HOSTILE_INPUT, HOSTILE_MODEL, HOSTILE_OUTPUT, writeModels } from '../support/client-models.js';
import { CATCH, mypyStrict, pythonClientRuns, runPython } from '../support/python-client.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const runs = pythonClientRuns('generated Python clients (mypy --strict, tritonclient.http)');

/** Uses of the generated clients that must type-check; each wrong use carries the `type: ignore` of its error (an unused one fails under --strict). */
const USE = `from __future__ import annotations

from typing import List

import numpy
import numpy.typing as npt

import classifier
from clients import MODELS, counter, upper


def use(url: str) -> None:
    c = classifier.connect(url, timeout_s=1.0)
    inputs: classifier.Inputs = {"input": numpy.zeros((1, 3, 224, 224), dtype=numpy.float32)}
    out = c.infer(inputs, timeout_s=0.5, retries=1)
    scores: npt.NDArray[numpy.float32] = out["output"]
    doubles = numpy.zeros((1, 3, 224, 224), dtype=numpy.float64)
    c.infer({"input": doubles})  # type: ignore[typeddict-item]
    c.infer({"input": inputs["input"], "other": inputs["input"]})  # type: ignore[typeddict-unknown-key]
    c.infer({})  # type: ignore[typeddict-item]
    c.infer(inputs, sequence=counter.SequenceOptions(1))  # type: ignore[call-arg]
    u = upper.connect(url)
    text = u.infer({"TEXT": numpy.array([[b"a", "b"]], dtype=numpy.object_)})
    lengths: npt.NDArray[numpy.int64] = text["LENGTHS"]
    strings: List[str] = upper.decode_strings(text["UPPER"])
    ints = numpy.array([[1, 2]], dtype=numpy.int32)
    u.infer({"TEXT": ints})  # type: ignore[typeddict-item]
    s = counter.connect(url)
    s.infer({"VALUE": numpy.array([[1]], dtype=numpy.int32)}, sequence=counter.SequenceOptions(7, start=True))
    s.infer({"VALUE": numpy.array([[1]], dtype=numpy.int32)})  # type: ignore[call-arg]
    with MODELS["add_one"].connect(url) as a:
        print(a.url)
    print(scores, lengths, strings)
`;

/** A file that must not type-check: a float64 array where the config says TYPE_FP32. */
const BAD = `import numpy

from classifier import connect

c = connect("http://127.0.0.1:1")
doubles = numpy.zeros((1, 3, 224, 224), dtype=numpy.float64)
c.infer({"input": doubles})
`;

const TYPES = ['BOOL', 'UINT8', 'UINT16', 'UINT32', 'UINT64', 'INT8', 'INT16', 'INT32', 'INT64', 'FP16', 'FP32', 'FP64', 'STRING', 'BF16'];
/** One input and one output of every data type, dims [2], no batching. */
const EVERY_TYPE = {
  pbtxt: `backend: "python"\ninput [ ${TYPES.map((t) => `{ name: "in_${t}" data_type: TYPE_${t} dims: [ 2 ] }`).join(', ')} ]\noutput [ ${TYPES.map((t) => `{ name: "out_${t}" data_type: TYPE_${t} dims: [ 2 ] }`).join(', ')} ]\n`,
  json: {
    name: 'every_type',
    max_batch_size: 0,
    input: TYPES.map((t) => ({ name: `in_${t}`, data_type: `TYPE_${t}`, dims: ['2'] })),
    output: TYPES.map((t) => ({ name: `out_${t}`, data_type: `TYPE_${t}`, dims: ['2'] })),
  },
};

/** Model directory names that would break out of a comment (a line break) or declare the file's encoding (PEP 263). */
const NEWLINE_MODEL = 'two\nlines \u2028 x';
const CODING_MODEL = 'x -*- coding: rot13 -*-';
/** A model named as a module the client imports: its module must not shadow numpy. */
const NUMPY_MODEL = 'numpy';

let gen = '';
const files: string[] = [];

beforeAll(() => {
  if (!runs) return;
  const dir = tempDir('tritonc-client-py-');
  const repo = join(dir, 'models');
  const noName = (m: typeof CLIENT_MODELS.add_one) => ({ ...m!, pbtxt: m!.pbtxt.replace(/^name: .*\n/, '') });
  writeModels(repo, {
    ...CLIENT_MODELS,
    [HOSTILE_MODEL]: HOSTILE,
    every_type: EVERY_TYPE,
    [NEWLINE_MODEL]: noName(CLIENT_MODELS.add_one),
    [CODING_MODEL]: noName(CLIENT_MODELS.add_one),
    [NUMPY_MODEL]: noName(CLIENT_MODELS.add_one),
  });
  gen = join(dir, 'gen');
  mkdirSync(join(gen, 'clients'), { recursive: true });
  const run = clientRun(repo, { lang: 'python' });
  if ('error' in run) throw new Error(run.error);
  expect(run.problems).toEqual([]);
  for (const f of run.files) writeFileSync(join(gen, 'clients', f.name), f.text);
  files.push(...run.files.map((f) => `clients/${f.name}`));
  const single = clientRun(join(ROOT, 'model_repository', 'classifier'), { lang: 'python' });
  if ('error' in single) throw new Error(single.error);
  for (const f of single.files) writeFileSync(join(gen, f.name), f.text);
  files.push(...single.files.map((f) => f.name));
  writeFileSync(join(gen, 'use.py'), USE);
  writeFileSync(join(gen, 'bad.py'), BAD);
});

describe.skipIf(!runs)('the generated Python client type-checks', () => {
  it('every module, __init__.py and their uses pass mypy --strict; wrong uses are errors', async () => {
    const r = await mypyStrict(gen, [...files, 'use.py', 'bad.py']);
    const errors = r.stdout.split('\n').filter((l) => l.includes(': error:'));
    // Only bad.py fails: the float64 array where TYPE_FP32 is a float32 array.
    expect(errors, r.stdout + r.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^bad\.py:7: error: Incompatible types \(expression has type "ndarray\[Any, dtype\[floating\[_64Bit\]\]\]", TypedDict item "input" has type "ndarray\[Any, dtype\[floating\[_32Bit\]\]\]"\)/,
    );
  }, 180_000);

  it('a repository gives one module per model and __init__.py; hostile names become identifiers and stay strings', async () => {
    expect(files.filter((f) => f.startsWith('clients/')).sort()).toEqual(
      [
        '__init__',
        'add_one',
        'counter',
        'evil__name',
        'every_type',
        'numpy_model',
        'pipeline',
        'slow',
        'streamer',
        'two_lines___x',
        'upper',
        'x_____coding__rot13____',
      ]
        .map((m) => `clients/${m}.py`)
        .sort(),
    );
    const out = await runPython(
      gen,
      `import json
from clients import MODELS
print(json.dumps({name: m.MODEL_NAME for name, m in MODELS.items()}))
`,
    );
    expect(out[HOSTILE_MODEL]).toBe(HOSTILE_MODEL);
    expect(out[NEWLINE_MODEL]).toBe(NEWLINE_MODEL);
    expect(out[CODING_MODEL]).toBe(CODING_MODEL);
    expect(out[NUMPY_MODEL]).toBe(NUMPY_MODEL);
    expect(Object.keys(out)).toHaveLength(11);
  });

  it('names reach the source only inside string literals: no identifier, comment or docstring holds them', async () => {
    const source = readFileSync(join(gen, 'clients', 'evil__name.py'), 'utf8');
    expect(/^[\x09\x0a\x20-\x7e]*$/.test(source)).toBe(true);
    // Python's own tokenizer: every NAME and COMMENT token, and the string constants.
    const out = await runPython(
      gen,
      `import ast, io, json, sys, tokenize
names, comments, strings = set(), [], []
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME:
            names.add(tok.string)
        elif tok.type == tokenize.COMMENT:
            comments.append(tok.string)
    strings += [n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
print(json.dumps({"names": sorted(names), "comments": comments, "strings": strings}))
`,
      [join(gen, 'clients', 'evil__name.py'), join(gen, 'clients', 'two_lines___x.py'), join(gen, 'clients', 'x_____coding__rot13____.py')],
    );
    expect(out.names).not.toContain('process');
    expect(out.names).not.toContain('exit');
    expect(out.comments.join('\n')).not.toMatch(/process|coding[:=]/);
    expect(out.strings).toEqual(expect.arrayContaining([HOSTILE_INPUT, HOSTILE_OUTPUT, '__proto__', CODING_MODEL]));
    // The header names the model directory quoted, and its ':' escaped (no "coding:" on line 1).
    expect(readFileSync(join(gen, 'clients', 'x_____coding__rot13____.py'), 'utf8').split('\n')[0]).toBe(
      '# Generated by tritonc from "x -*- coding\\u003a rot13 -*-/config.pbtxt" with: tritonc client --lang python --protocol http',
    );
  });
});

const serve = protocolFixtures();

const infers = (f: ProtocolFixture): number => f.paths().filter((p) => p.endsWith('/infer')).length;
/** Python: the classifier's image batch of n. */
const IMAGE = 'def image(n):\n    return {"input": numpy.zeros((n, 3, 224, 224), dtype=numpy.float32)}\n';

describe.skipIf(!runs)('the generated Python client against the protocol fixture', () => {
  it('connect checks live, ready and the metadata; infer sends binary tensors and decodes binary outputs', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } });
    const out = await runPython(
      gen,
      `${CATCH}${IMAGE}
import classifier
c = classifier.connect(sys.argv[1])
out = c.infer(image(2))["output"]
print(json.dumps({"shape": list(out.shape), "dtype": str(out.dtype)}))
`,
      [f.url],
    );
    expect(out).toEqual({ shape: [2, 1000], dtype: 'float32' });
    expect(f.paths()).toEqual(['GET /v2/health/live', 'GET /v2/models/classifier/ready', 'GET /v2/models/classifier', 'POST /v2/models/classifier/infer']);
    const request = f.requests.at(-1)!;
    // server docs/protocol/extension_binary_data.md: the JSON header, its length in the header, binary_data_size and binary_data.
    expect(request.headers['inference-header-content-length']).toBeDefined();
    expect(request.json).toEqual({
      inputs: [{ name: 'input', shape: [2, 3, 224, 224], datatype: 'FP32', parameters: { binary_data_size: 2 * 3 * 224 * 224 * 4 } }],
      outputs: [{ name: 'output', parameters: { binary_data: true } }],
    });
    expect(request.binaryBytes).toBe(2 * 3 * 224 * 224 * 4);
  });

  it('a batch above max_batch_size is split into requests of at most 32 and the outputs joined; split=False refuses it', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } });
    const out = await runPython(
      gen,
      `${CATCH}${IMAGE}
import classifier
c = classifier.connect(sys.argv[1])
out = c.infer(image(70))["output"]
print(json.dumps({"shape": list(out.shape), "refused": caught(lambda: c.infer(image(33), split=False))}))
`,
      [f.url],
    );
    expect(out.shape).toEqual([70, 1000]);
    expect(f.requests.filter((r) => r.path.endsWith('/infer')).map((r) => (r.json as { inputs: { shape: number[] }[] }).inputs[0]!.shape[0])).toEqual([
      32, 32, 6,
    ]);
    expect([out.refused.name, out.refused.message]).toEqual([
      'InvalidInput',
      'input "input": batch 33 is larger than the model\'s max_batch_size 32 (split is off)',
    ]);
  });

  it('a wrong shape, dtype or input is refused before anything is sent, naming the input', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } });
    const out = await runPython(
      gen,
      `${CATCH}
import classifier
c = classifier.connect(sys.argv[1])
print(json.dumps({
    "shape": caught(lambda: c.infer({"input": numpy.zeros((1, 3, 224, 223), dtype=numpy.float32)})),
    "dtype": caught(lambda: c.infer({"input": numpy.zeros((1, 3, 224, 224))})),
    "list": caught(lambda: c.infer({"input": [1.0, 2.0]})),
    "missing": caught(lambda: c.infer({})),
    "unknown": caught(lambda: c.infer({"input": numpy.zeros((1, 3, 224, 224), dtype=numpy.float32), "other": numpy.zeros(1)})),
    "empty": caught(lambda: c.infer({"input": numpy.zeros((0, 3, 224, 224), dtype=numpy.float32)})),
}))
`,
      [f.url],
    );
    expect([out.shape.name, out.shape.input, out.shape.message]).toEqual([
      'InvalidInput',
      'input',
      'input "input": shape [1, 3, 224, 223] does not match the model\'s [batch, 3, 224, 224] (the batch axis first: max_batch_size is 32)',
    ]);
    expect(out.dtype.message).toBe('input "input" takes a numpy array of float32 (FP32); got float64');
    expect(out.list.message).toBe('input "input" takes a numpy array of float32 (FP32); got list');
    expect(out.missing.message).toBe('input "input" is missing (model "classifier" requires it)');
    expect([out.unknown.message, out.unknown.input]).toEqual(['model "classifier" has no input "other"; its inputs: "input"', 'other']);
    expect(out.empty.message).toBe('input "input": the batch (the first dim) must be 1 or more; got 0');
    expect(infers(f)).toBe(0);
  });

  it("a call past its timeout is a Timeout; the caller's cancel event ends a waiting call (Aborted)", async () => {
    // A server that takes the request and never answers.
    const f = await serve({ classifier: { config: CLASSIFIER } }, { raw: (req) => req.path.endsWith('/infer') });
    const out = await runPython(
      gen,
      `${CATCH}${IMAGE}
import threading
import classifier
c = classifier.connect(sys.argv[1])
started = time.monotonic()
timeout = caught(lambda: c.infer(image(1), timeout_s=0.3))
took = time.monotonic() - started
cancel = threading.Event()
threading.Timer(0.2, cancel.set).start()
started = time.monotonic()
aborted = caught(lambda: c.infer(image(1), cancel=cancel, timeout_s=20))
print(json.dumps({"timeout": timeout, "took": took, "aborted": aborted, "abortTook": time.monotonic() - started}))
`,
      [f.url],
    );
    expect([out.timeout.name, out.timeout.message]).toEqual(['Timeout', 'POST /v2/models/classifier/infer: no answer within 0.3 s']);
    expect(out.took).toBeGreaterThanOrEqual(0.3);
    expect(out.took).toBeLessThan(1.5);
    expect([out.aborted.name, out.aborted.message]).toEqual(['Aborted', 'POST /v2/models/classifier/infer: aborted']);
    expect(out.abortTook).toBeLessThan(1.5);
  });

  it('a transient failure (503, a refused connection) is retried with backoff; a refused input (400) never is', async () => {
    let failures = 2;
    const f = await serve(
      { classifier: { config: CLASSIFIER } },
      {
        // core r24.10 src/server.cc:541 InferenceServer::InferAsync: UNAVAILABLE "Server not ready", which
        // server src/http_server.cc:108-109 HttpCodeFromError answers as 503.
        override: (req) => (req.path.endsWith('/infer') && failures-- > 0 ? [503, { error: 'Server not ready' }] : undefined),
        inferError: (_name, batch) => (batch === 3 ? "unexpected shape for input 'input' for model 'classifier'" : undefined),
      },
    );
    const first = await runPython(
      gen,
      `${CATCH}${IMAGE}
import classifier
c = classifier.connect(sys.argv[1], backoff_s=0.01)
out = c.infer(image(1))["output"]
refused = caught(lambda: c.infer(image(3)))
print(json.dumps({"shape": list(out.shape), "refused": refused}))
`,
      [f.url],
    );
    expect(first.shape).toEqual([1, 1000]);
    const refused = first.refused;
    expect([refused.name, refused.status, refused.input, refused.attempts]).toEqual(['InvalidInput', 400, 'input', 1]);
    expect(refused.message).toBe("POST /v2/models/classifier/infer: HTTP 400: unexpected shape for input 'input' for model 'classifier'");
    expect(infers(f)).toBe(4);
    failures = 10;
    const gaveUp = await runPython(
      gen,
      `${CATCH}${IMAGE}
import classifier
c = classifier.connect(sys.argv[1], backoff_s=0.01)
print(json.dumps(caught(lambda: c.infer(image(1), retries=2))))
`,
      [f.url],
    );
    expect([gaveUp.name, gaveUp.status, gaveUp.attempts, gaveUp.retryable, gaveUp.message]).toEqual([
      'Unavailable',
      503,
      3,
      true,
      'POST /v2/models/classifier/infer: HTTP 503: Server not ready (after 3 attempts)',
    ]);
  });

  it('a server that stopped after connect: the refused connection is retried, then Unavailable', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } });
    const url = f.url;
    // The script connects, then waits for the fixture to stop (it polls the port) and infers.
    const pending = runPython(
      gen,
      `${CATCH}${IMAGE}
import socket
import classifier
c = classifier.connect(sys.argv[1], backoff_s=0.01)
host, port = sys.argv[1].rsplit(":", 1)
for _ in range(200):
    try:
        socket.create_connection(("127.0.0.1", int(port)), timeout=1).close()
        time.sleep(0.05)
    except OSError:
        break
print(json.dumps(caught(lambda: c.infer(image(1), retries=1))))
`,
      [url],
    );
    // Stopped once the script has connected (its metadata request came).
    for (let i = 0; i < 200 && !f.paths().includes('GET /v2/models/classifier'); i++) await new Promise((r) => setTimeout(r, 50));
    await f.stop();
    const gone = await pending;
    expect([gone.name, gone.attempts]).toEqual(['Unavailable', 2]);
    expect(gone.message).toBe(`cannot reach ${url} (connection refused) (after 2 attempts)`);
  });

  it('a model reloading is ModelNotReady (retryable): retried until it is back; connect says why it is not ready', async () => {
    let notReady = 0;
    const f = await serve(
      { classifier: { config: CLASSIFIER } },
      {
        // The model comes back at the third request that finds it away (its reload done).
        override: (req) => {
          const m = f.options.models.classifier!;
          if (req.path.endsWith('/infer') && !m.ready && ++notReady === 3) m.ready = true;
          return undefined;
        },
      },
    );
    const models = f.options.models;
    const pending = runPython(
      gen,
      `${CATCH}${IMAGE}
import classifier
c = classifier.connect(sys.argv[1], backoff_s=0.05)
print("connected", flush=True)
while c.ready():
    time.sleep(0.02)
once = caught(lambda: c.infer(image(1), retries=0))
out = c.infer(image(1), retries=10)["output"]
print(json.dumps({"once": once, "shape": list(out.shape)}))
`,
      [f.url],
    );
    for (let i = 0; i < 200 && !f.paths().includes('GET /v2/models/classifier'); i++) await new Promise((r) => setTimeout(r, 50));
    models.classifier!.ready = false;
    const out = await pending;
    expect([out.once.name, out.once.status, out.once.retryable]).toEqual(['ModelNotReady', 404, true]);
    expect(out.once.message).toBe('model "classifier" is not ready: Request for unknown model: \'classifier\' has no available versions');
    expect(out.shape).toEqual([1, 1000]);
    expect(notReady).toBe(3);
    models.classifier!.ready = false;
    models.classifier!.state = 'UNAVAILABLE';
    models.classifier!.reason = 'unloaded';
    const e = await runPython(
      gen,
      `${CATCH}
import classifier
print(json.dumps(caught(lambda: classifier.connect(sys.argv[1]))))
`,
      [f.url],
    );
    expect([e.name, e.message]).toEqual(['ModelNotReady', 'model "classifier" is not ready: UNAVAILABLE: unloaded']);
  });

  it('a server that is not there is ServerNotLive; connect can wait for the model (wait_s)', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    let readyAsks = 0;
    const f = await serve(
      { classifier: { config: CLASSIFIER, ready: false } },
      // Ready from the third look on: connect(wait_s=...) must have polled.
      {
        override: (req) =>
          req.path === '/v2/models/classifier/ready' && ++readyAsks === 3 ? ((f.options.models.classifier!.ready = true), undefined) : undefined,
      },
    );
    const out = await runPython(
      gen,
      `${CATCH}
import classifier
gone = caught(lambda: classifier.connect(sys.argv[1]))
c = classifier.connect(sys.argv[2], wait_s=10)
print(json.dumps({"gone": gone, "ready": c.ready()}))
`,
      [`http://127.0.0.1:${port}`, f.url],
    );
    expect([out.gone.name, out.gone.message]).toEqual(['ServerNotLive', `server at http://127.0.0.1:${port} is not live: connection refused`]);
    expect(out.ready).toBe(true);
    expect(readyAsks).toBe(4);
    const notLive = await serve({ classifier: { config: CLASSIFIER } }, { override: (req) => (req.path === '/v2/health/live' ? [503, undefined] : undefined) });
    const e = await runPython(
      gen,
      `${CATCH}
import classifier
print(json.dumps(caught(lambda: classifier.connect(sys.argv[1]))))
`,
      [notLive.url],
    );
    expect(e.message).toBe(`server at ${notLive.url} is not live: GET /v2/health/live did not answer 200`);
  });

  it("a restricted API (tritonserver --http-restricted-api): the header it expects goes in connect's headers", async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } }, { restricted: { header: 'admin-key', value: 's3cret' } });
    const out = await runPython(
      gen,
      `${CATCH}${IMAGE}
import classifier
refused = caught(lambda: classifier.connect(sys.argv[1]))
c = classifier.connect(sys.argv[1], headers={"admin-key": "s3cret"})
print(json.dumps({"refused": refused, "shape": list(c.infer(image(1))["output"].shape)}))
`,
      [f.url],
    );
    expect(out.refused.name).toBe('ServerNotLive');
    expect(out.shape).toEqual([1, 1000]);
    expect(f.requests.at(-1)!.headers['admin-key']).toBe('s3cret');
  });

  it('a served model whose inputs differ from the config the client came from is ModelMismatch', async () => {
    const f = await serve({ classifier: { config: { ...CLASSIFIER, input: [{ name: 'input', data_type: 'TYPE_FP16', dims: ['3', '224', '224'] }] } } });
    const out = await runPython(
      gen,
      `${CATCH}
import classifier
e = caught(lambda: classifier.connect(sys.argv[1]))
classifier.connect(sys.argv[1], check_metadata=False)
print(json.dumps(e))
`,
      [f.url],
    );
    expect(out.name).toBe('ModelMismatch');
    expect(out.message).toContain('input "input" is FP16 there, FP32 here');
  });

  it('a sequence model sends sequence_id, sequence_start and sequence_end; ids are checked before sending', async () => {
    const f = await serve({ counter: { config: CLIENT_MODELS.counter!.json } });
    const out = await runPython(
      gen,
      `${CATCH}
from clients import counter
c = counter.connect(sys.argv[1])
step = {"VALUE": numpy.array([[1]], dtype=numpy.int32)}
c.infer(step, sequence=counter.SequenceOptions(5, start=True))
c.infer(step, sequence=counter.SequenceOptions("abc", end=True))
print(json.dumps({
    "missing": caught(lambda: c.infer(step)),
    "zero": caught(lambda: c.infer(step, sequence=counter.SequenceOptions(0))),
    "huge": caught(lambda: c.infer(step, sequence=counter.SequenceOptions(2**64))),
    "tooBig": caught(lambda: c.infer({"VALUE": numpy.array([[1], [2], [3]], dtype=numpy.int32)}, sequence=counter.SequenceOptions(1))),
}))
`,
      [f.url],
    );
    const sent = f.requests.filter((r) => r.path.endsWith('/infer')).map((r) => (r.json as { parameters: unknown }).parameters);
    // client tritonclient/http/_utils.py _get_inference_request: a sequence request carries all three.
    expect(sent).toEqual([
      { sequence_id: 5, sequence_start: true, sequence_end: false },
      { sequence_id: 'abc', sequence_start: false, sequence_end: true },
    ]);
    // The keyword is required by the signature itself (mypy says so before it runs).
    expect([out.missing.name, out.missing.message]).toEqual(['TypeError', "Client.infer() missing 1 required keyword-only argument: 'sequence'"]);
    expect(out.zero.message).toBe('sequence.id must be a whole number from 1 to 2**64 - 1 or a non-empty string; got 0');
    expect(out.huge.message).toBe('sequence.id must be a whole number from 1 to 2**64 - 1 or a non-empty string; got 18446744073709551616');
    expect(out.tooBig.message).toBe('input "VALUE": batch 3 is larger than the model\'s max_batch_size 2 (a sequence\'s request is never split)');
  });

  it('a sequence step is retried only where it surely did not run: a refused connection yes, a reset no', async () => {
    let seen = 0;
    const f = await serve(
      { counter: { config: CLIENT_MODELS.counter!.json } },
      // The second step's connection is cut after the whole request arrived (a TCP reset): it may have run.
      { raw: (req, res) => (req.path.endsWith('/infer') && ++seen === 2 ? (res.socket!.resetAndDestroy(), true) : false) },
    );
    const out = await runPython(
      gen,
      `${CATCH}
import http.client
from clients import counter
c = counter.connect(sys.argv[1], backoff_s=0.01)
step = {"VALUE": numpy.array([[1]], dtype=numpy.int32)}
# A sequence step goes out on a connection of its own: the next one is refused, as the OS answers a
# port nobody listens on (the request never left).
real = http.client.HTTPConnection.connect
refusals = [ConnectionRefusedError(111, "Connection refused")]
def connect(self):
    if refusals:
        raise refusals.pop()
    real(self)
http.client.HTTPConnection.connect = connect
c.infer(step, sequence=counter.SequenceOptions(5, start=True))
print(json.dumps({"refusalsLeft": len(refusals), "reset": caught(lambda: c.infer(step, sequence=counter.SequenceOptions(5)))}))
`,
      [f.url],
    );
    // The refused first step was retried and reached the server once; the reset second one was not retried.
    expect(out.refusalsLeft).toBe(0);
    expect([out.reset.name, out.reset.attempts, out.reset.message]).toEqual(['Unavailable', 1, `cannot reach ${f.url} (connection reset)`]);
    expect(infers(f)).toBe(2);
  });

  it('BYTES inputs go length-prefixed; BYTES outputs come back as byte strings', async () => {
    const f = await serve({ upper: { config: CLIENT_MODELS.upper!.json } });
    const out = await runPython(
      gen,
      `${CATCH}
from clients import upper
c = upper.connect(sys.argv[1])
out = c.infer({"TEXT": numpy.array([["h\\u00e9", b"xyz"]], dtype=numpy.object_)})
print(json.dumps({"UPPER": show(out["UPPER"]), "LENGTHS": show(out["LENGTHS"]), "bad": caught(lambda: c.infer({"TEXT": numpy.array([[1, 2]], dtype=numpy.object_)}))}))
`,
      [f.url],
    );
    const request = f.requests.at(-1)!;
    expect(request.binaryBytes).toBe(4 + 3 + 4 + 3);
    expect((request.json as { inputs: unknown[] }).inputs).toEqual([{ name: 'TEXT', shape: [1, 2], datatype: 'BYTES', parameters: { binary_data_size: 14 } }]);
    // The fixture answers zeros: each BYTES element an empty string.
    expect(out.UPPER).toEqual({ dtype: 'object', shape: [1, 1], values: [''] });
    expect(out.LENGTHS.dtype).toBe('int64');
    expect(out.bad.message).toBe('input "TEXT" takes bytes or str elements (TYPE_STRING); got int');
  });

  it('a decoupled model is refused by connect: HTTP cannot stream it', async () => {
    const f = await serve({ streamer: { config: CLIENT_MODELS.streamer!.json } });
    const e = await runPython(
      gen,
      `${CATCH}
from clients import streamer
print(json.dumps(caught(lambda: streamer.connect(sys.argv[1]))))
`,
      [f.url],
    );
    expect(e.name).toBe('Unsupported');
    expect(e.message).toContain('is decoupled');
    expect(f.requests).toEqual([]);
  });

  it('every data type: its numpy dtype in, the right dtype out (BF16 as float32, BOOL as bool)', async () => {
    const f = await serve({ every_type: { config: EVERY_TYPE.json } });
    const out = await runPython(
      gen,
      `${CATCH}
from clients import every_type
DTYPES = {"BOOL": numpy.bool_, "UINT8": numpy.uint8, "UINT16": numpy.uint16, "UINT32": numpy.uint32, "UINT64": numpy.uint64,
          "INT8": numpy.int8, "INT16": numpy.int16, "INT32": numpy.int32, "INT64": numpy.int64, "FP16": numpy.float16,
          "FP32": numpy.float32, "FP64": numpy.float64, "BF16": numpy.float32, "STRING": numpy.object_}
c = every_type.connect(sys.argv[1])
inputs = {"in_" + t: (numpy.array([b"x", b"y"], dtype=numpy.object_) if t == "STRING" else numpy.zeros(2, dtype=d)) for t, d in DTYPES.items()}
out = c.infer(inputs)
print(json.dumps({name: [str(a.dtype), list(a.shape)] for name, a in out.items()}))
`,
      [f.url],
    );
    expect(out).toEqual({
      out_BOOL: ['bool', [2]],
      out_UINT8: ['uint8', [2]],
      out_UINT16: ['uint16', [2]],
      out_UINT32: ['uint32', [2]],
      out_UINT64: ['uint64', [2]],
      out_INT8: ['int8', [2]],
      out_INT16: ['int16', [2]],
      out_INT32: ['int32', [2]],
      out_INT64: ['int64', [2]],
      out_FP16: ['float16', [2]],
      out_FP32: ['float32', [2]],
      out_FP64: ['float64', [2]],
      out_STRING: ['object', [2]],
      out_BF16: ['float32', [2]],
    });
    const sizes = (f.requests.at(-1)!.json as { inputs: { parameters: { binary_data_size: number } }[] }).inputs.map((i) => i.parameters.binary_data_size);
    expect(sizes).toEqual([2, 2, 4, 8, 16, 2, 4, 8, 16, 4, 8, 16, 10, 4]);
  });

  it('hostile tensor and model names are strings in requests and results: nothing of them runs', async () => {
    const f = await serve({ [HOSTILE_MODEL]: { config: HOSTILE.json } });
    const out = await runPython(
      gen,
      `${CATCH}
from clients import MODELS
m = MODELS[sys.argv[2]]
c = m.connect(sys.argv[1])
out = c.infer({sys.argv[3]: numpy.zeros((1, 2), dtype=numpy.float32)})
print(json.dumps({name: list(a.shape) for name, a in out.items()}))
`,
      [f.url, HOSTILE_MODEL, HOSTILE_INPUT],
    );
    expect(Object.entries(out)).toEqual([
      [HOSTILE_OUTPUT, [1, 2]],
      ['__proto__', [1, 2]],
    ]);
    expect(f.requests.at(-1)!.path).toBe(`/v2/models/${encodeURIComponent(HOSTILE_MODEL)}/infer`);
  });
});

describe('module names in a repository package', () => {
  it("a model named after what __init__.py imports (typing's Mapping, types' ModuleType) gets a module of its own name, not the import", () => {
    const repo = tempDir('tritonc-client-names-');
    const unnamed = { ...CLIENT_MODELS.add_one!, pbtxt: CLIENT_MODELS.add_one!.pbtxt.replace(/^name: .*\n/m, '') };
    writeModels(repo, { Mapping: unnamed, ModuleType: unnamed });
    const run = clientRun(repo, { lang: 'python' });
    if ('error' in run) throw new Error(run.error);
    expect(run.files.map((f) => f.name)).toEqual(['Mapping_model.py', 'ModuleType_model.py', '__init__.py']);
    const init = run.files.at(-1)!.text;
    expect(init).toContain('from . import Mapping_model as Mapping_model');
    expect(init).toContain('"Mapping": Mapping_model');
  });
});
