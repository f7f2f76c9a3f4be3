// Fields that arrived after 24.10, against the real tritonserver 2.51.0 (24.10): its protobuf text
// parser refuses model_metrics (24.11) and ensemble_scheduling.max_inflight_requests (25.11) at poll,
// and `tritonc lint --triton-version 24.10` reports each (field-release) quoting the server's words
// exactly: the path, protobuf's line:column (a tab and a multi-byte character before the name), the
// message type. The same config without the field loads. One server start.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { PYTHON_CONFIG, realTritonRuns, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { tempDir } from '../support/temp.js';

const runs = realTritonRuns('real-Triton tests of fields a release lacks');

const MODEL_PY = `class TritonPythonModel:
    def execute(self, requests):
        return []
`;
// A parameter whose key is not ASCII, then a tab, on the line of model_metrics: protobuf counts bytes and tab stops.
const METRICS =
  'parameters { key: "é" value: { string_value: "x" } }\tmodel_metrics { metric_control [ { metric_identifier { family: "nv_inference_first_response_histogram_ms" } histogram_options { buckets: [ 1, 10, 100 ] } } ] }\n';
const ENSEMBLE = `name: "inflight"
platform: "ensemble"
max_batch_size: 8
input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]
ensemble_scheduling {
  step [ { model_name: "plain" model_version: -1 input_map { key: "INPUT0" value: "IN" } output_map { key: "OUTPUT0" value: "OUT" } } ]
  max_inflight_requests: 2
}
`;

describe.skipIf(!runs)('fields a release lacks, against the real tritonserver 2.51 (24.10)', () => {
  let dir = '';
  let server: RealTriton;
  beforeAll(async () => {
    dir = tempDir('tritonc-field-release-real-');
    const write = (m: string, config: string, py = true) => {
      mkdirSync(join(dir, 'repo', m, '1'), { recursive: true });
      writeFileSync(join(dir, 'repo', m, 'config.pbtxt'), config);
      if (py) writeFileSync(join(dir, 'repo', m, '1', 'model.py'), MODEL_PY);
    };
    write('plain', PYTHON_CONFIG('plain', METRICS.split('\t')[0]));
    write('metrics', PYTHON_CONFIG('metrics', METRICS));
    write('inflight', ENSEMBLE, false);
    server = await startRealTriton(join(dir, 'repo'));
  }, 120_000);
  afterAll(async () => server?.stop());

  /** The load's answer and what the server printed meanwhile (protobuf writes its error to stderr). */
  const load = async (m: string): Promise<{ status: number; said: string }> => {
    const from = server.log().length;
    const r = await fetch(`${server.url}/v2/repository/models/${m}/load`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(60_000) });
    const body = await r.text();
    await new Promise((res) => setTimeout(res, 100));
    return { status: r.status, said: `${body}\n${server.log().slice(from)}` };
  };

  /** field-release's findings on one model for 24.10: their data, and the Triton texts each message quotes. */
  const lint = async (m: string, version = '24.10') => {
    const r = await cli(['lint', join(dir, 'repo', m), '--triton-version', version, '--format', 'json'], { cwd: dir });
    const messages = (JSON.parse(r.stdout) as { messages: { ruleId: string; messageId: string; message: string; line: number }[] }[])
      .flatMap((f) => f.messages)
      .filter((x) => x.ruleId === 'field-release');
    return messages.map((x) => ({ ...x, quotes: /\("(.+?)"\)/.exec(x.message)![1]!.split('"; "') }));
  };

  it('2.51 loads the config without the late field; lint finds nothing for 24.10', async () => {
    expect((await load('plain')).status).toBe(200);
    expect(await lint('plain')).toEqual([]);
  }, 90_000);

  it("model_metrics: 2.51 refuses it at poll with protobuf's words, and lint for 24.10 quotes exactly those (for 24.11 it finds nothing)", async () => {
    const { status, said } = await load('metrics');
    expect(status).toBe(500); // Internal: "failed to poll from model repository"
    const config = join(dir, 'repo', 'metrics', 'config.pbtxt');
    expect(said).toContain(`failed to read text proto from ${config}`);
    // Line 7 ("parameters ... \tmodel_metrics {"): 52 characters, 53 bytes, the tab to 56, the name, a space: the brace at byte 70.
    expect(said).toContain('Error parsing text-format inference.ModelConfig: 7:71: Message type "inference.ModelConfig" has no field named "model_metrics".');
    const found = await lint('metrics');
    expect(found.map((f) => [f.messageId, f.line])).toEqual([['fieldNotInRelease', 7]]);
    for (const quote of found[0]!.quotes) expect(said).toContain(quote);
    expect(await lint('metrics', '24.11')).toEqual([]);
  }, 90_000);

  it('ensemble_scheduling.max_inflight_requests: 2.51 refuses it the same way, and lint for 24.10 quotes it', async () => {
    const { status, said } = await load('inflight');
    expect(status).toBe(500); // Internal: "failed to poll from model repository"
    expect(said).toContain('Message type "inference.ModelEnsembling" has no field named "max_inflight_requests".');
    const found = await lint('inflight');
    expect(found.map((f) => f.messageId)).toEqual(['fieldNotInRelease']);
    for (const quote of found[0]!.quotes) expect(said).toContain(quote);
  }, 90_000);
});
