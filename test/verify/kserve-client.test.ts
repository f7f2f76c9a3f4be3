// The KServe v2 HTTP client against the protocol fixture (fixtures/verify/protocol-fixture.ts): a local
// HTTP server that answers as Triton's HTTP endpoint does, not Triton.
import { afterEach, describe, expect, it } from 'vitest';
import { KServeClient, KServeError, normalizeServerUrl } from '../../src/verify/kserve-client.js';
import { decodeInferResponse, encodeInferRequest } from '../../src/verify/infer-body.js';
import { startProtocolFixture, type ProtocolFixture } from '../../fixtures/verify/protocol-fixture.js';

const CONFIG = {
  name: 'classifier',
  platform: 'onnxruntime_onnx',
  max_batch_size: 8,
  input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 4, 4] }],
  output: [{ name: 'output', data_type: 'TYPE_FP32', dims: [10] }],
};

let fixture: ProtocolFixture | undefined;
afterEach(async () => {
  await fixture?.stop();
  fixture = undefined;
});

const serve = async (options: Partial<Parameters<typeof startProtocolFixture>[0]> = {}) =>
  (fixture = await startProtocolFixture({ models: { classifier: { config: structuredClone(CONFIG), ready: true } }, explicit: true, ...options }));

async function kserveError(p: Promise<unknown>): Promise<KServeError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof KServeError) return e;
    throw e;
  }
  throw new Error('expected a KServeError');
}

describe('KServe v2 client against the protocol fixture', () => {
  it('reads health, server metadata, model metadata, config and the repository index', async () => {
    const f = await serve();
    const c = new KServeClient(f.url);
    expect(await c.serverLive()).toBe(true);
    expect(await c.serverReady()).toBe(true);
    expect(await c.modelReady('classifier')).toBe(true);
    expect(await c.modelReady('other')).toBe(false);
    expect(await c.serverMetadata()).toEqual({
      name: 'protocol-fixture',
      version: '2.0.0',
      extensions: ['model_repository', 'model_configuration', 'binary_tensor_data'],
    });
    expect(await c.modelMetadata('classifier')).toEqual({
      name: 'classifier',
      versions: ['1'],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [-1, 3, 4, 4] }],
      outputs: [{ name: 'output', datatype: 'FP32', shape: [-1, 10] }],
    });
    const { config, raw } = await c.modelConfig('classifier');
    expect(config.max_batch_size).toBe(8);
    expect(config.input[0]).toMatchObject({ name: 'input', data_type: 'TYPE_FP32', dims: [3, 4, 4] });
    expect(raw).toEqual(CONFIG);
    // One entry per version, and no reason on a READY one (core tritonserver.cc TRITONSERVER_ServerModelIndex).
    expect(await c.repositoryIndex()).toEqual([{ name: 'classifier', version: '1', state: 'READY' }]);
    expect(f.paths()).toContain('POST /v2/repository/index');
  });

  it('sends inference with binary tensor data and reads binary outputs', async () => {
    const f = await serve();
    const c = new KServeClient(f.url);
    const { response, ms } = await c.infer('classifier', { inputs: [{ name: 'input', datatype: 'FP32', shape: [2, 3, 4, 4] }], outputs: ['output'] });
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(response.outputs).toEqual([{ name: 'output', datatype: 'FP32', shape: [2, 10], parameters: { binary_data_size: 80 } }]);
    const sent = f.requests.at(-1)!;
    expect(sent.headers['content-type']).toBe('application/octet-stream');
    expect(sent.json).toEqual({
      inputs: [{ name: 'input', shape: [2, 3, 4, 4], datatype: 'FP32', parameters: { binary_data_size: 384 } }],
      outputs: [{ name: 'output', parameters: { binary_data: true } }],
    });
    expect(sent.binaryBytes).toBe(384);
  });

  it('loads with a config override as the `config` string parameter, and unloads', async () => {
    const f = await serve({ completes: { platform: 'onnxruntime_onnx' } });
    const c = new KServeClient(f.url);
    await c.loadModel('classifier', { name: 'classifier', max_batch_size: 4 });
    expect(f.requests.at(-1)!.json).toEqual({ parameters: { config: '{"name":"classifier","max_batch_size":4}' } });
    expect((await c.modelConfig('classifier')).raw).toEqual({ name: 'classifier', max_batch_size: 4, platform: 'onnxruntime_onnx' });
    await c.loadModel('classifier');
    expect(f.requests.at(-1)!.json).toEqual({});
    await c.unloadModel('classifier');
    expect(await c.modelReady('classifier')).toBe(false);
  });

  it('turns {"error": ...} bodies into http errors with the server\'s message', async () => {
    const f = await serve({ explicit: false });
    const c = new KServeClient(f.url);
    const e = await kserveError(c.loadModel('classifier', {}));
    expect(e.kind).toBe('http');
    expect(e.status).toBe(503);
    expect(e.serverMessage).toBe('explicit model load / unload is not allowed if polling is enabled');
    expect(e.message).toBe('POST /v2/repository/models/classifier/load: HTTP 503: explicit model load / unload is not allowed if polling is enabled');
    const missing = await kserveError(c.modelConfig('nope'));
    expect(missing).toMatchObject({ kind: 'http', status: 404, serverMessage: "Request for unknown model: 'nope' is not found" });
  });

  it.each([
    ['GET /v2', { name: 'x' }, 'GET /v2: the answer is not what the KServe v2 protocol documents: version: Invalid input: expected string, received undefined'],
    [
      'GET /v2/models/classifier',
      { name: 'classifier', platform: 'p', inputs: [{ name: 'input', datatype: 'FP32', shape: '[1,2]' }], outputs: [] },
      'GET /v2/models/classifier: the answer is not what the KServe v2 protocol documents: inputs.0.shape: Invalid input: expected array, received string',
    ],
    [
      'GET /v2/models/classifier/config',
      { name: 'classifier', input: [{ name: 'input', dims: [3] }] },
      'GET /v2/models/classifier/config: the answer is not what the KServe v2 protocol documents: input.0.data_type: Invalid input: expected string, received undefined',
    ],
    [
      'POST /v2/repository/index',
      { models: [] },
      'POST /v2/repository/index: the answer is not what the KServe v2 protocol documents: Invalid input: expected array, received object',
    ],
  ])('rejects a malformed answer to %s with a clear message', async (route, body, message) => {
    const f = await serve({ override: (r) => (`${r.method} ${r.path}` === route ? [200, body] : undefined) });
    const c = new KServeClient(f.url);
    const call = {
      'GET /v2': () => c.serverMetadata(),
      'GET /v2/models/classifier': () => c.modelMetadata('classifier'),
      'GET /v2/models/classifier/config': () => c.modelConfig('classifier'),
      'POST /v2/repository/index': () => c.repositoryIndex(),
    }[route]!;
    const e = await kserveError(call());
    expect(e.kind).toBe('protocol');
    expect(e.message).toBe(message);
  });

  it('rejects answers that are not JSON, and infer answers whose binary part does not add up', async () => {
    const f = await serve({
      override: (r) =>
        r.path === '/v2'
          ? [200, '<html>proxy login</html>']
          : r.path.endsWith('/infer')
            ? [200, { model_name: 'classifier', outputs: [{ name: 'output', datatype: 'FP32', shape: [1, 10], parameters: { binary_data_size: 40 } }] }]
            : undefined,
    });
    const c = new KServeClient(f.url);
    const notJson = await kserveError(c.serverMetadata());
    expect(notJson.message).toBe('GET /v2: the answer is not JSON ("<html>proxy login</html>"); is ' + f.url + ' a KServe v2 / Triton HTTP endpoint?');
    const infer = await kserveError(c.infer('classifier', { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 3, 4, 4] }], outputs: ['output'] }));
    expect(infer.message).toContain('the outputs declare 40 bytes of binary data but 0 follow the JSON');
  });

  it('says when nothing answers, and when the answer takes too long', async () => {
    const f = await serve();
    const closed = f.url;
    await f.stop();
    fixture = undefined;
    const e = await kserveError(new KServeClient(closed).serverMetadata());
    expect(e.kind).toBe('unreachable');
    expect(e.message).toBe(`cannot reach ${closed} (ECONNREFUSED)`);

    const slow = await serve({ override: () => undefined });
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const t = await kserveError(new KServeClient(slow.url, { timeoutMs: 50, fetch: hanging }).serverMetadata());
    expect(t.kind).toBe('timeout');
    expect(t.message).toBe(`GET /v2: no answer from ${slow.url} within 0.1 s`);
  });

  it('follows an outer abort signal (Ctrl-C)', async () => {
    const f = await serve();
    const controller = new AbortController();
    controller.abort();
    const e = await kserveError(new KServeClient(f.url, { signal: controller.signal }).serverLive());
    expect(e.kind).toBe('aborted');
  });

  it('normalizes --server URLs', () => {
    expect(normalizeServerUrl('localhost:8000')).toBe('http://localhost:8000');
    expect(normalizeServerUrl('http://triton.internal:8000/')).toBe('http://triton.internal:8000');
    expect(normalizeServerUrl('https://gw.example.com/triton/')).toBe('https://gw.example.com/triton');
    expect(normalizeServerUrl('ftp://x')).toBeUndefined();
    expect(normalizeServerUrl('http://')).toBeUndefined();
  });
});

describe('binary inference bodies', () => {
  it("encodes zeros of each datatype's size, 4-byte lengths for BYTES", () => {
    const e = encodeInferRequest({
      inputs: [
        { name: 'a', datatype: 'FP16', shape: [2, 3] },
        { name: 's', datatype: 'BYTES', shape: [2] },
        { name: 'b', datatype: 'BOOL', shape: [5] },
      ],
      outputs: ['y'],
    });
    expect(e.body.length - e.headerLength).toBe(12 + 8 + 5);
    expect(JSON.parse(e.body.subarray(0, e.headerLength).toString())).toEqual(e.header);
  });

  it("gives each output's binary data, in the order the outputs are listed (binary tensor data extension)", () => {
    const header = Buffer.from(
      JSON.stringify({
        model_name: 'm',
        outputs: [
          { name: 'a', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } },
          { name: 'j', datatype: 'INT64', shape: [1], data: [7] },
          { name: 'b', datatype: 'INT8', shape: [3], parameters: { binary_data_size: 3 } },
        ],
      }),
    );
    const body = Buffer.concat([header, Buffer.from(new Float32Array([1.5, -2]).buffer), Buffer.from([1, 2, 3])]);
    const decoded = decodeInferResponse(body, header.length);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect([...decoded.binary.keys()]).toEqual(['a', 'b']);
    expect([...new Float32Array(new Uint8Array(decoded.binary.get('a')!).buffer)]).toEqual([1.5, -2]);
    expect([...decoded.binary.get('b')!]).toEqual([1, 2, 3]);
  });

  it('decodes a JSON-only answer too (no Inference-Header-Content-Length)', () => {
    const body = Buffer.from(JSON.stringify({ model_name: 'm', outputs: [{ name: 'y', datatype: 'INT64', shape: [1, 2], data: [0, 0] }] }));
    expect(decodeInferResponse(body, undefined)).toEqual({
      ok: true,
      response: { model_name: 'm', outputs: [{ name: 'y', datatype: 'INT64', shape: [1, 2], data: [0, 0] }] },
      binary: new Map(),
    });
    expect(decodeInferResponse(body, 10_000)).toEqual({ ok: false, reason: `Inference-Header-Content-Length is 10000 but the body has ${body.length} bytes` });
  });
});

describe('the transport', () => {
  it('decodes an infer response Triton compressed because the request accepted gzip (http_server.cc GetResponseCompressionType)', async () => {
    const f = await serve();
    const c = new KServeClient(f.url, { headers: { 'accept-encoding': 'gzip' } });
    const { response } = await c.infer('classifier', { inputs: [{ name: 'input', datatype: 'FP32', shape: [2, 3, 4, 4] }], outputs: ['output'] });
    expect(response.outputs.map((o) => [o.name, o.shape])).toEqual([['output', [2, 10]]]);
    expect(f.requests.at(-1)!.headers['accept-encoding']).toBe('gzip');
  });

  it('Ctrl-C aborts a request in flight', async () => {
    const f = await serve({ loadDelayMs: 2000 });
    const abort = new AbortController();
    const c = new KServeClient(f.url, { signal: abort.signal });
    const pending = kserveError(c.loadModel('classifier', undefined, 10_000));
    setTimeout(() => abort.abort(), 100);
    expect((await pending).kind).toBe('aborted');
  });
});
