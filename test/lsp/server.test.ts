// tritonc lsp --stdio, driven as an editor drives it: the built CLI started as a child process, spoken to
// over stdio with vscode-languageserver-protocol's client side, on a real repository (an ONNX model, an
// ensemble).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentFormattingRequest,
  HoverRequest,
  InlayHintRequest,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  ExitNotification,
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node.js';
import { BIN } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

interface Session {
  connection: ProtocolConnection;
  child: ChildProcess;
  diagnostics: (uri: string, predicate?: (d: Diagnostic[]) => boolean) => Promise<Diagnostic[]>;
}

let session: Session | undefined;
afterEach(async () => {
  if (!session) return;
  await session.connection.sendRequest(ShutdownRequest.type).catch(() => {});
  await session.connection.sendNotification(ExitNotification.type).catch(() => {});
  session.connection.dispose();
  session.child.kill();
  session = undefined;
});

async function start(root: string): Promise<Session> {
  const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published = new Map<string, Diagnostic[][]>();
  const waiters: { uri: string; predicate: (d: Diagnostic[]) => boolean; resolve: (d: Diagnostic[]) => void }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (p: PublishDiagnosticsParams) => {
    published.set(p.uri, [...(published.get(p.uri) ?? []), p.diagnostics]);
    for (const w of [...waiters])
      if (w.uri === p.uri && w.predicate(p.diagnostics)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p.diagnostics);
      }
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification(InitializedNotification.type, {});
  const diagnostics = (uri: string, predicate: (d: Diagnostic[]) => boolean = () => true): Promise<Diagnostic[]> =>
    new Promise((resolve) => {
      const last = published.get(uri)?.at(-1);
      if (last && predicate(last)) return resolve(last);
      waiters.push({ uri, predicate, resolve });
    });
  return (session = { connection, child, diagnostics });
}

const open = (s: Session, file: string, text: string) =>
  s.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: pathToFileURL(file).href, languageId: 'pbtxt', version: 1, text },
  });

const ENSEMBLE = `name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "SCORES" data_type: TYPE_FP32 dims: [ 1000 ] } ]
ensemble_scheduling { step [ { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IMAGE" } output_map { key: "output" value: "SCORES" } } ] }
`;

describe('tritonc lsp --stdio', () => {
  it('diagnostics of the unsaved buffer against the model on disk, with rule ids and docs links; quick fixes; formatting as fmt writes', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const file = join(repo, 'classifier/config.pbtxt');
    const uri = pathToFileURL(file).href;
    const s = await start(repo);
    // Unsaved: an input name one letter off the model's.
    const text = CLASSIFIER_CONFIG.replace('name: "input"', 'name: "inptu"').replace('max_batch_size: 8', 'max_batch_size:    8');
    await open(s, file, text);
    const found = await s.diagnostics(uri, (d) => d.some((x) => x.code === 'io-name'));
    const ioName = found.find((d) => d.code === 'io-name' && d.message.includes("'inptu'"))!;
    expect(ioName.source).toBe('tritonc');
    expect(ioName.codeDescription?.href).toMatch(/docs\/rules\/io-name\.md$/);
    expect(ioName.message).toContain("input 'inptu' is not an input of the model");
    expect(ioName.range.start.line).toBe(3);
    // The file on disk was not touched.
    expect(readFileSync(file, 'utf8')).toBe(CLASSIFIER_CONFIG);

    const actions = await s.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: ioName.range,
      context: { diagnostics: [ioName] },
    });
    const action = (actions ?? []).find((a) => 'edit' in a && a.edit)! as {
      title: string;
      isPreferred?: boolean;
      edit: { changes: Record<string, { newText: string }[]> };
    };
    expect(action.title).toContain('io-name');
    // A did-you-mean is a suggestion: offered, never the preferred (auto-applied) action.
    expect(action.isPreferred).toBe(false);
    expect(action.edit.changes[uri]![0]!.newText).toBe('"input"');

    const edits = await s.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(edits).toHaveLength(1);
    expect(edits![0]!.newText).toContain('max_batch_size: 8\n');
  });

  it('a broken document gets its syntax error and the server keeps serving; a change brings the findings up to date', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const file = join(repo, 'classifier/config.pbtxt');
    const uri = pathToFileURL(file).href;
    const s = await start(repo);
    await open(s, file, 'name: "classifier"\ninput [ { name: ');
    const broken = await s.diagnostics(uri, (d) => d.some((x) => x.code === 'syntax'));
    expect(broken[0]!.severity).toBe(1);
    await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: CLASSIFIER_CONFIG }],
    });
    const clean = await s.diagnostics(uri, (d) => !d.some((x) => x.code === 'syntax'));
    expect(clean.filter((d) => d.severity === 1)).toEqual([]);
    // Requests on a position past the end still answer.
    const hover = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 99, character: 0 } });
    expect(hover).toBeNull();
  });

  it("completion knows where the cursor is; hover gives type and what Triton will use; model_name goes to that model's config", async () => {
    const repo = await writeRepo({
      'classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'classifier/1/model.onnx': CLASSIFIER,
      'pipeline/config.pbtxt': ENSEMBLE,
      'pipeline/1/.keep': '',
    });
    const s = await start(repo);
    const classifier = join(repo, 'classifier/config.pbtxt');
    const text = `${CLASSIFIER_CONFIG}instance_group [ { kind:  } ]\n`;
    await open(s, classifier, text);
    const curi = pathToFileURL(classifier).href;
    const lines = text.split('\n');
    const igLine = lines.findIndex((l) => l.startsWith('instance_group'));
    const afterKind = lines[igLine]!.indexOf('kind: ') + 'kind: '.length;
    const kinds = await s.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: curi }, position: { line: igLine, character: afterKind } });
    expect((Array.isArray(kinds) ? kinds : kinds!.items).map((i) => i.label)).toEqual(['KIND_AUTO', 'KIND_GPU', 'KIND_CPU', 'KIND_MODEL']);
    expect(String((Array.isArray(kinds) ? kinds : kinds!.items).find((i) => i.label === 'KIND_CPU')!.documentation)).toMatch(/CPU/);
    // Inside instance_group { }: its fields only.
    const inGroup = await s.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: curi },
      position: { line: igLine, character: lines[igLine]!.indexOf('{') + 2 },
    });
    const labels = (Array.isArray(inGroup) ? inGroup : inGroup!.items).map((i) => i.label);
    expect(labels).toContain('count');
    expect(String((Array.isArray(inGroup) ? inGroup : inGroup!.items).find((i) => i.label === 'count')!.documentation)).toMatch(/instances/i);
    expect(labels).not.toContain('max_batch_size');

    // Hover on the config once it parses again.
    await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: curi, version: 2 },
      contentChanges: [{ text: CLASSIFIER_CONFIG }],
    });
    await s.diagnostics(curi, (d) => !d.some((x) => x.code === 'syntax'));
    const mbsLine = lines.findIndex((l) => l.startsWith('max_batch_size'));
    const hover = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: curi }, position: { line: mbsLine, character: 2 } });
    const value = (hover!.contents as { value: string }).value;
    expect(value).toContain('**max_batch_size**: int32');
    // The field's documentation, from the schema's comment above it.
    expect(value).toContain('0 means the model does not batch');
    expect(value).toContain('Triton will use: `8`');

    const pipeline = join(repo, 'pipeline/config.pbtxt');
    await open(s, pipeline, ENSEMBLE);
    const pl = ENSEMBLE.split('\n');
    const stepLine = pl.findIndex((l) => l.includes('model_name'));
    const def = await s.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: pathToFileURL(pipeline).href },
      position: { line: stepLine, character: pl[stepLine]!.indexOf('"classifier"') + 3 },
    });
    expect(def).toMatchObject({ uri: pathToFileURL(classifier).href });
  });

  it('inlay hints say what auto-complete fills in; tensor names complete from the ONNX model and the step model; a map key goes to its declaration', async () => {
    const repo = await writeRepo({
      'classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'classifier/1/model.onnx': CLASSIFIER,
      'pipeline/config.pbtxt': ENSEMBLE,
      'pipeline/1/.keep': '',
      'bare/1/model.onnx': CLASSIFIER,
      'bare/config.pbtxt': 'backend: "onnxruntime"\n',
    });
    const s = await start(repo);
    // A config with nothing but the backend: auto-complete fills in max_batch_size, the I/O, batching.
    const bare = join(repo, 'bare/config.pbtxt');
    await open(s, bare, 'backend: "onnxruntime"\n');
    await s.diagnostics(pathToFileURL(bare).href);
    const hints = await s.connection.sendRequest(InlayHintRequest.type, {
      textDocument: { uri: pathToFileURL(bare).href },
      range: { start: { line: 0, character: 0 }, end: { line: 10, character: 0 } },
    });
    const labels = (hints ?? []).map((h) => String(h.label));
    expect(labels.some((l) => l.includes('max_batch_size = 4'))).toBe(true);
    expect(labels.some((l) => l.includes('input'))).toBe(true);

    // input { name: "" }: the ONNX model's input names.
    const classifier = join(repo, 'classifier/config.pbtxt');
    const partial = CLASSIFIER_CONFIG.replace('name: "input"', 'name: ""');
    await open(s, classifier, partial);
    const pl = partial.split('\n');
    const line = pl.findIndex((l) => l.startsWith('input'));
    const names = await s.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: pathToFileURL(classifier).href },
      position: { line, character: pl[line]!.indexOf('name: "') + 7 },
    });
    expect((Array.isArray(names) ? names : names!.items).map((i) => i.label)).toEqual(['input']);

    // The classifier's buffer back as on disk (an open buffer is what the other models see).
    await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: pathToFileURL(classifier).href, version: 2 },
      contentChanges: [{ text: CLASSIFIER_CONFIG }],
    });
    // In an ensemble step: the step model's inputs as input_map keys, the ensemble's tensors as values.
    const pipeline = join(repo, 'pipeline/config.pbtxt');
    await open(s, pipeline, ENSEMBLE);
    const el = ENSEMBLE.split('\n');
    const stepLine = el.findIndex((l) => l.includes('input_map'));
    const keyAt = el[stepLine]!.indexOf('key: "input"') + 'key: "'.length;
    const keys = await s.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: pathToFileURL(pipeline).href },
      position: { line: stepLine, character: keyAt },
    });
    expect((Array.isArray(keys) ? keys : keys!.items).map((i) => i.label)).toEqual(['input']);
    const valueAt = el[stepLine]!.indexOf('value: "IMAGE"') + 'value: "'.length;
    const values = await s.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: pathToFileURL(pipeline).href },
      position: { line: stepLine, character: valueAt },
    });
    expect((Array.isArray(values) ? values : values!.items).map((i) => i.label)).toEqual(['IMAGE', 'SCORES']);
    const def = await s.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: pathToFileURL(pipeline).href },
      position: { line: stepLine, character: keyAt + 1 },
    });
    expect(def).toMatchObject({ uri: pathToFileURL(classifier).href, range: { start: { line: 3 } } });
  });

  it('an ensemble with a Python step: its tensors complete from its config, a map key goes to it, a type mismatch across the step is found', async () => {
    const PRE = `name: "preprocess"
backend: "python"
max_batch_size: 8
input [ { name: "RAW" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP16 dims: [ 3, 224, 224 ] } ]
`;
    const PIPE = `name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "BYTES" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [ { name: "SCORES" data_type: TYPE_FP32 dims: [ 1000 ] } ]
ensemble_scheduling { step [
  { model_name: "preprocess" model_version: -1 input_map { key: "RAW" value: "BYTES" } output_map { key: "PIXELS" value: "pixels" } },
  { model_name: "classifier" model_version: -1 input_map { key: "input" value: "pixels" } output_map { key: "output" value: "SCORES" } }
] }
`;
    const repo = await writeRepo({
      'classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'classifier/1/model.onnx': CLASSIFIER,
      'preprocess/config.pbtxt': PRE,
      'preprocess/1/model.py': 'import triton_python_backend_utils as pb_utils\nclass TritonPythonModel:\n    pass\n',
      'pipeline/config.pbtxt': PIPE,
      'pipeline/1/.keep': '',
    });
    const s = await start(repo);
    const pipeline = join(repo, 'pipeline/config.pbtxt');
    const uri = pathToFileURL(pipeline).href;
    await open(s, pipeline, PIPE);
    // The Python step writes FP16 into a tensor the ONNX step reads as FP32: Triton refuses the ensemble.
    const found = await s.diagnostics(uri, (d) => d.some((x) => x.severity === 1));
    const mismatch = found.filter((d) => d.severity === 1 && /pixels/.test(d.message));
    expect(mismatch.length, JSON.stringify(found.map((d) => d.message))).toBeGreaterThan(0);
    expect(mismatch[0]!.message).toMatch(/TYPE_FP16|FP16/);
    const pl = PIPE.split('\n');
    const step = pl.findIndex((l) => l.includes('"preprocess"'));
    const keyAt = pl[step]!.indexOf('key: "RAW"') + 'key: "'.length;
    const keys = await s.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: step, character: keyAt } });
    expect((Array.isArray(keys) ? keys : keys!.items).map((i) => i.label)).toEqual(['RAW']);
    const outAt = pl[step]!.indexOf('key: "PIXELS"') + 'key: "'.length;
    const outs = await s.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: step, character: outAt } });
    expect((Array.isArray(outs) ? outs : outs!.items).map((i) => i.label)).toEqual(['PIXELS']);
    const def = await s.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: step, character: outAt + 1 } });
    expect(def).toMatchObject({ uri: pathToFileURL(join(repo, 'preprocess/config.pbtxt')).href, range: { start: { line: 4 } } });
    // The Python model's own config: hover and inlay hints answer with no model file tritonc can read.
    const pre = join(repo, 'preprocess/config.pbtxt');
    await open(s, pre, PRE);
    await s.diagnostics(pathToFileURL(pre).href);
    const hover = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: pathToFileURL(pre).href }, position: { line: 2, character: 2 } });
    expect(JSON.stringify(hover)).toContain('max_batch_size');
    const hints = await s.connection.sendRequest(InlayHintRequest.type, {
      textDocument: { uri: pathToFileURL(pre).href },
      range: { start: { line: 0, character: 0 }, end: { line: 6, character: 0 } },
    });
    expect(Array.isArray(hints)).toBe(true);
  });

  it('completes the parameters keys the backend reads (TensorRT-LLM, ONNX Runtime)', async () => {
    const TRT = 'backend: "tensorrtllm"\nparameters { key: "" value: { string_value: "x" } }\n';
    const repo = await writeRepo({
      'tensorrt_llm/config.pbtxt': TRT,
      'tensorrt_llm/1/.keep': '',
      'classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'classifier/1/model.onnx': CLASSIFIER,
    });
    const s = await start(repo);
    const file = join(repo, 'tensorrt_llm/config.pbtxt');
    await open(s, file, TRT);
    const at = TRT.split('\n')[1]!.indexOf('key: "') + 'key: "'.length;
    const items = await s.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: pathToFileURL(file).href },
      position: { line: 1, character: at },
    });
    const labels = (Array.isArray(items) ? items : items!.items).map((i) => i.label);
    expect(labels).toContain('gpt_model_type');
    expect(labels).toContain('kv_cache_free_gpu_mem_fraction');
    expect(labels).not.toContain('worker_path');
    const ort = `${CLASSIFIER_CONFIG}parameters { key: "" value: { string_value: "1" } }\n`;
    const cfile = join(repo, 'classifier/config.pbtxt');
    await open(s, cfile, ort);
    const lines = ort.split('\n');
    const line = lines.findIndex((l) => l.startsWith('parameters'));
    const ortItems = await s.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: pathToFileURL(cfile).href },
      position: { line, character: lines[line]!.indexOf('key: "') + 6 },
    });
    expect((Array.isArray(ortItems) ? ortItems : ortItems!.items).map((i) => i.label)).toContain('intra_op_thread_count');
  });

  it('a file the editor does not hold changes on disk (the client reports it): the open documents are linted again', async () => {
    const repo = await writeRepo({ 'pipeline/config.pbtxt': ENSEMBLE, 'pipeline/1/.keep': '' });
    const s = await start(repo);
    const pipeline = join(repo, 'pipeline/config.pbtxt');
    const uri = pathToFileURL(pipeline).href;
    await open(s, pipeline, ENSEMBLE);
    const before = await s.diagnostics(uri, (d) => d.some((x) => x.code === 'ensemble-models'));
    expect(before.find((d) => d.code === 'ensemble-models')!.message).toContain("runs model 'classifier', which is not in the repository");
    await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER }, repo);
    await s.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: pathToFileURL(join(repo, 'classifier/config.pbtxt')).href, type: FileChangeType.Created }],
    });
    const after = await s.diagnostics(uri, (d) => !d.some((x) => x.code === 'ensemble-models'));
    expect(after.filter((d) => d.severity === 1)).toEqual([]);
  });

  it(
    "completion and hover follow the target release (tritonc.config.json's triton): no field it lacks, the release a field arrived in",
    { timeout: 30_000 },
    async () => {
      const config = `${ENSEMBLE}\n`;
      const repo = await writeRepo({ 'tritonc.config.json': '{ "triton": "24.10" }', 'pipeline/config.pbtxt': config, 'pipeline/1/.keep': '' });
      const s = await start(repo);
      const pipeline = join(repo, 'pipeline/config.pbtxt');
      const uri = pathToFileURL(pipeline).href;
      await open(s, pipeline, config);
      const lines = config.split('\n');
      const labelsAt = async (line: number, character: number) => {
        const items = await s.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character } });
        return (Array.isArray(items) ? items : items!.items).map((i) => i.label);
      };
      const hoverAt = async (line: number, character: number) =>
        ((await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } }))!.contents as { value: string }).value;
      // The empty last line is ModelConfig's top level; inside ensemble_scheduling { }, ModelEnsembling's fields.
      const top = lines.length - 1;
      const ens = lines.findIndex((l) => l.startsWith('ensemble_scheduling'));
      const inEns = lines[ens]!.indexOf('{') + 1;
      // 24.10 (2.51.0): model_metrics arrived in 24.11, max_inflight_requests in 25.11.
      expect(await labelsAt(top, 0)).toContain('response_cache');
      expect(await labelsAt(top, 0)).not.toContain('model_metrics');
      expect(await labelsAt(ens, inEns)).toEqual(['step']);
      // 24.11: model_metrics is there; max_inflight_requests is not yet.
      await writeRepo({ 'tritonc.config.json': '{ "triton": "24.11" }' }, repo);
      expect(await labelsAt(top, 0)).toContain('model_metrics');
      expect(await labelsAt(ens, inEns)).toEqual(['step']);
      // 25.11: both.
      await writeRepo({ 'tritonc.config.json': '{ "triton": "25.11" }' }, repo);
      expect(await labelsAt(ens, inEns)).toEqual(['step', 'max_inflight_requests']);

      // Hover names the release a field arrived in, and what it means in the target (26.04 shared the limit).
      const withLimit = config.replace('ensemble_scheduling {', 'ensemble_scheduling { max_inflight_requests: 4');
      await s.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: withLimit }] });
      const at = withLimit.split('\n')[ens]!.indexOf('max_inflight_requests') + 2;
      await writeRepo({ 'tritonc.config.json': '{ "triton": "25.10" }' }, repo);
      expect(await hoverAt(ens, at)).toContain('Triton has it from 25.11 on; not in 25.10');
      await writeRepo({ 'tritonc.config.json': '{ "triton": "26.03" }' }, repo);
      const h2603 = await hoverAt(ens, at);
      expect(h2603).toContain('Triton has it from 25.11 on; in 26.03');
      expect(h2603).toContain('within one ensemble request');
      await writeRepo({ 'tritonc.config.json': '{ "triton": "26.04" }' }, repo);
      expect(await hoverAt(ens, at)).toContain("across all of the ensemble's requests");
    },
  );

  it("parameter keys follow the target release: the keys that release's backend reads", { timeout: 30_000 }, async () => {
    const VLLM_CONFIG = 'backend: "vllm"\nparameters { key: "" value: { string_value: "true" } }\n';
    const ORT_CONFIG = `${CLASSIFIER_CONFIG}parameters { key: "" value: { string_value: "1" } }\n`;
    const repo = await writeRepo({
      'tritonc.config.json': '{ "triton": "24.07" }',
      'llm/config.pbtxt': VLLM_CONFIG,
      'llm/1/model.json': '{ "model": "facebook/opt-125m" }',
      'classifier/config.pbtxt': ORT_CONFIG,
      'classifier/1/model.onnx': CLASSIFIER,
    });
    const s = await start(repo);
    const keysIn = async (file: string, text: string) => {
      const path = join(repo, file);
      await open(s, path, text);
      const lines = text.split('\n');
      const line = lines.findIndex((l) => l.startsWith('parameters'));
      const items = await s.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri: pathToFileURL(path).href },
        position: { line, character: lines[line]!.indexOf('key: "') + 6 },
      });
      return (Array.isArray(items) ? items : items!.items).map((i) => i.label);
    };
    // vllm_backend src/model.py reads REPORT_CUSTOM_METRICS from r24.08, ENABLE_VLLM_HEALTH_CHECK from r24.12.
    expect(await keysIn('llm/config.pbtxt', VLLM_CONFIG)).toEqual([]);
    await writeRepo({ 'tritonc.config.json': '{ "triton": "24.08" }' }, repo);
    expect(await keysIn('llm/config.pbtxt', VLLM_CONFIG)).toEqual(['REPORT_CUSTOM_METRICS']);
    await writeRepo({ 'tritonc.config.json': '{ "triton": "24.12" }' }, repo);
    expect(await keysIn('llm/config.pbtxt', VLLM_CONFIG)).toEqual(['REPORT_CUSTOM_METRICS', 'ENABLE_VLLM_HEALTH_CHECK']);
    // onnxruntime_backend reads session.use_device_allocator_for_initializers from r25.02.
    await writeRepo({ 'tritonc.config.json': '{ "triton": "25.01" }' }, repo);
    const before = await keysIn('classifier/config.pbtxt', ORT_CONFIG);
    expect(before).toContain('intra_op_thread_count');
    expect(before).not.toContain('session.use_device_allocator_for_initializers');
    await writeRepo({ 'tritonc.config.json': '{ "triton": "25.02" }' }, repo);
    expect(await keysIn('classifier/config.pbtxt', ORT_CONFIG)).toContain('session.use_device_allocator_for_initializers');
  });
});
