// "Adding a backend" (docs/architecture.md), checked: one record added to the registry, and lint,
// resolve and the editor use it with no other change. The registry is the only module replaced.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createConnection } from 'vscode-languageserver/node.js';
import {
  CompletionRequest,
  DidOpenTextDocumentNotification,
  InitializeRequest,
  InitializedNotification,
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node.js';
import type { BackendRecord } from '../../src/triton/backends/record.js';
import { findingsOf, MEMORY_ROOT } from '../support/rule-tester.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { memoryFiles } from '../support/memory-files.js';
import { pathToFileURL } from 'node:url';
import { writeRepo } from '../lint/harness.js';
import { join } from 'node:path';

// A backend written by name whose auto-complete adds one output, as a Python-based backend's would.
const TOY: BackendRecord = vi.hoisted(
  () =>
    ({
      name: 'toy',
      title: 'Toy',
      platforms: [],
      defaultModelFile: 'model.toy',
      core: false,
      autoComplete: {
        from: 'config',
        complete: (config) => ({
          config: config.output?.length ? config : { ...config, output: [{ name: 'toy_out', data_type: 'TYPE_FP32', dims: [1] }] },
          steps: [],
          problems: [],
        }),
      },
      source: 'the test',
    }) satisfies BackendRecord,
);

vi.mock('../../src/triton/backends/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/triton/backends/index.js')>();
  return { BACKENDS: [...original.BACKENDS, TOY] };
});

const TOY_MODEL = 'backend: "toy"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\n';
const ensembleOf = (output: string): string => `platform: "ensemble"
max_batch_size: 0
input [ { name: "IN" data_type: TYPE_FP32 dims: [ 1 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1 ] } ]
ensemble_scheduling { step [ { model_name: "toy_model" model_version: -1 input_map { key: "x" value: "IN" } output_map { key: "${output}" value: "OUT" } } ] }
`;
const REPOSITORY = { 'toy_model/config.pbtxt': TOY_MODEL, 'toy_model/1/model.toy': 'weights', 'pipeline/1/': '' };

describe('a toy backend record', () => {
  it('lint: an ensemble step is checked against the outputs its auto-complete adds', () => {
    const files = { ...REPOSITORY, 'pipeline/config.pbtxt': ensembleOf('nope') };
    const found = findingsOf('ensemble-models', { name: 'toy', files, targets: ['pipeline'] });
    expect(found.map((d) => [d.ruleId, d.data?.key, d.data?.outputs])).toEqual([['ensemble-models', 'nope', "'toy_out'"]]);
    expect(
      findingsOf('ensemble-models', { name: 'toy', files: { ...REPOSITORY, 'pipeline/config.pbtxt': ensembleOf('toy_out') }, targets: ['pipeline'] }),
    ).toEqual([]);
  });

  it('lint: a backend name one typo away is taken for the toy', () => {
    const found = findingsOf('platform-backend', { name: 'typo', config: 'backend: "tyo"\n' });
    expect(found.map((d) => d.data?.backend)).toEqual(['tyo']);
    expect(found[0]!.message).toContain('set backend: "toy"');
  });

  it('resolve: the effective config holds what its auto-complete fills in', () => {
    const workspace = new Workspace({ files: memoryFiles(MEMORY_ROOT, REPOSITORY) });
    const result = workspace.model(`${MEMORY_ROOT}/toy_model`).effective({ gpus: 0 });
    expect(result.status).toBe('ok');
    expect(result.config?.output).toEqual([{ name: 'toy_out', data_type: 'TYPE_FP32', dims: [1] }]);
    expect(result.pending).toEqual([]);
  });

  it('the editor offers it as a backend', async () => {
    const dir = await writeRepo({ 'm/config.pbtxt': 'backend: ""\n' });
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(fromServer));
    const { startLanguageServer } = await import('../../src/lsp/server.js');
    startLanguageServer(server);
    const client = createProtocolConnection(new StreamMessageReader(fromServer), new StreamMessageWriter(toServer));
    client.listen();
    await client.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {}, workspaceFolders: null });
    await client.sendNotification(InitializedNotification.type, {});
    const uri = pathToFileURL(join(dir, 'm', 'config.pbtxt')).href;
    await client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pbtxt', version: 1, text: 'backend: ""\n' } });
    const items = await client.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 10 } });
    const labels = (Array.isArray(items) ? items : (items?.items ?? [])).map((i) => i.label);
    expect(labels).toContain('toy');
    client.dispose();
    server.dispose();
  });
});
