// An ONNX tensor whose name is not UTF-8, as the real tritonserver 2.51 (ONNX Runtime backend) takes it:
// refused with no config (its auto-completed config is not UTF-8) and with a config that writes the
// name's bytes (the config's name is a proto3 string: the byte is lost). tritonc says so first:
// generate refuses the model, lint reports it (io-name/modelNameNotUtf8), each with the fix.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../fixtures/onnx/index.js';
import { cli } from '../support/cli.js';
import { realTritonRuns, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { tempDir } from '../support/temp.js';

const runs = realTritonRuns('real-Triton tests of names that are not UTF-8');

/** The dynamic-batch fixture (input -> Relu -> output) with its input named by the bytes "in", 0xff, "ut". */
async function notUtf8Model(dir: string): Promise<Buffer> {
  const bytes = readFileSync(await buildFixture('dynamic-batch', dir));
  // The name as its length-prefixed bytes, in the graph input and in the Relu node's input alike.
  const name = Buffer.from('\x05input', 'latin1');
  let n = 0;
  for (let at = bytes.indexOf(name); at >= 0; at = bytes.indexOf(name, at + 1), n++) bytes[at + 3] = 0xff;
  if (n !== 2) throw new Error(`expected the name twice, found it ${n} times`);
  return bytes;
}

const CONFIG =
  'platform: "onnxruntime_onnx"\nmax_batch_size: 4\ninput [ { name: "in\\377ut" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n';

describe.skipIf(!runs)('an ONNX tensor name that is not UTF-8, against the real tritonserver 2.51', () => {
  let dir = '';
  let server: RealTriton;
  beforeAll(async () => {
    dir = tempDir('tritonc-not-utf8-real-');
    const model = await notUtf8Model(join(dir, 'fixtures'));
    for (const m of ['nocfg', 'withcfg']) {
      mkdirSync(join(dir, 'repo', m, '1'), { recursive: true });
      writeFileSync(join(dir, 'repo', m, '1', 'model.onnx'), model);
    }
    writeFileSync(join(dir, 'repo', 'withcfg', 'config.pbtxt'), CONFIG);
    // The server's own TMPDIR: its ONNX Runtime backend leaves files there (.ses, mat-debug-<pid>.log).
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = join(dir, 'server-tmp');
    mkdirSync(process.env.TMPDIR);
    try {
      server = await startRealTriton(join(dir, 'repo'), [], '/v2/health/live');
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
  }, 120_000);
  afterAll(async () => server?.stop());

  const load = async (m: string): Promise<string> => {
    const r = await fetch(`${server.url}/v2/repository/models/${m}/load`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(60_000) });
    expect(r.status).toBe(400);
    return ((await r.json()) as { error: string }).error;
  };

  it('Triton refuses it with no config; tritonc generate refuses it first, with the fix', async () => {
    expect(await load('nocfg')).toContain('Encountered non UTF-8 code points.');
    const g = await cli(['generate', 'repo/nocfg'], { cwd: dir });
    expect(g.code).toBe(1);
    expect(g.stderr).toContain('input "in\\xffut" has a name that is not UTF-8');
    expect(g.stderr).toContain('("Encountered non UTF-8 code points.")');
  }, 90_000);

  it('Triton refuses a config that writes the bytes (it lost the byte); tritonc lint says why', async () => {
    expect(await load('withcfg')).toContain("unexpected inference input 'inut'");
    const r = await cli(['lint', 'repo/withcfg', '--format', 'json'], { cwd: dir });
    const ids = (JSON.parse(r.stdout) as { messages: { ruleId: string; messageId: string }[] }[])
      .flatMap((f) => f.messages)
      .map((m) => `${m.ruleId}/${m.messageId}`);
    expect(ids).toContain('io-name/modelNameNotUtf8');
  }, 90_000);
});
