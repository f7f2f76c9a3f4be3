// verify --runtime server against servers that do not behave: one that streams its answer to GET /v2
// forever, one that sends headers and then nothing, one whose inference answer never ends. Each is
// exit 2 naming the real reason, within --timeout (which bounds every request), in bounded memory.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startProtocolFixture, type ProtocolFixture } from '../../fixtures/verify/protocol-fixture.js';
import { MAX_JSON_ANSWER_BYTES } from '../../src/verify/kserve-client.js';
import { verifyModel } from '../../src/verify/verify.js';
import { tempDir } from '../support/cli.js';

const LOCAL =
  'name: "tiny"\nbackend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 10 ] } ]\n';

function localModel(): string {
  const dir = join(tempDir('tritonc-verify-hostile-'), 'tiny');
  mkdirSync(join(dir, '1'), { recursive: true });
  writeFileSync(join(dir, 'config.pbtxt'), LOCAL);
  return dir;
}

let server: Server | undefined;
let fixture: ProtocolFixture | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  await fixture?.stop();
  server = undefined;
  fixture = undefined;
});

/** Writes megabytes of JSON-looking bytes until the client hangs up; returns how many were sent. */
function endless(res: ServerResponse, sent: { bytes: number }): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const pump = (): void => {
    while (!res.destroyed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  res.write('{"name":"');
  pump();
}

async function listen(handler: (path: string, res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    res.on('error', () => undefined);
    handler(req.url ?? '/', res);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('verify --runtime server: answers are bounded', () => {
  it('GET /v2 streamed forever: exit 2 saying the answer went on, long before --timeout, in bounded memory', async () => {
    const sent = { bytes: 0 };
    const url = await listen((_path, res) => endless(res, sent));
    const rss = process.memoryUsage().rss;
    // The error is the size bound's, not --timeout's: it stopped at the bound (untimed, whatever the machine's load).
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: url, timeoutMs: 20_000 });
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain(`GET /v2: the answer from ${url} went on past ${MAX_JSON_ANSWER_BYTES / 1024 / 1024} MiB`);
    expect(r.error).not.toContain('within 20 s');
    expect(process.memoryUsage().rss - rss).toBeLessThan(256 * 1024 * 1024);
  });

  it('headers and then nothing: --timeout bounds the first request too, and is named', async () => {
    const url = await listen((_path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
    });
    // Nothing else ends it: the error names --timeout (the test's timeout bounds a hang).
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: url, timeoutMs: 1500 });
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain('within 1.5 s');
  });

  it('an inference answer that never ends is stopped at a bound sized from the request, and the model put back', async () => {
    const sent = { bytes: 0 };
    // The protocol fixture for everything but /infer, whose answer streams on.
    fixture = await startProtocolFixture({
      models: {
        tiny: {
          config: {
            name: 'tiny',
            platform: 'onnxruntime_onnx',
            backend: 'onnxruntime',
            max_batch_size: 8,
            input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 4, 4] }],
            output: [{ name: 'output', data_type: 'TYPE_FP32', dims: [10] }],
          },
          ready: true,
        },
      },
      explicit: true,
      raw: (req, res) => req.path.endsWith('/infer') && (endless(res, sent), true),
    });
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: fixture.url, timeoutMs: 20_000 });
    expect(JSON.stringify(r)).toContain('went on past');
    expect(sent.bytes).toBeLessThan(1024 * 1024 * 1024);
    expect(fixture.paths().filter((p) => p.endsWith('/load')).length).toBe(2);
  });
});
