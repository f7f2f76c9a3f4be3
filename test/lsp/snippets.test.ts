// Snippets (issue 34): the language server's snippets, expanded as an editor expands them with every
// default taken, make configs that lint clean for the model beside them.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CompletionRequest,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializeRequest,
  InitializedNotification,
  ShutdownRequest,
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CompletionItem,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { BIN } from '../support/cli.js';
import { expandSnippet } from '../support/snippet-expand.js';
import { snippets } from '../../src/lsp/snippets.js';
import { parseConfig } from '../../src/config/document.js';
import { CLASSIFIER, writeRepo } from '../lint/harness.js';

describe('expandSnippet (LSP 3.17 snippet syntax, defaults taken)', () => {
  it('tab stops, placeholders, choices and escapes', () => {
    expect(expandSnippet('a $1 b ${2} c ${3:x${4:y}} d ${5|one,two|} e \\$ \\} \\\\ $0')).toBe('a  b  c xy d one e $ } \\ ');
    expect(expandSnippet('${1|a\\,b,c|}')).toBe('a,b');
    expect(() => expandSnippet('$TM_FILENAME')).toThrow(/variable/);
    expect(() => expandSnippet('${1:open')).toThrow(/unclosed/);
  });
});

describe('snippets() with hostile names', () => {
  it('a tensor named with quotes, backslashes, $, } and a line break stays that name in the key and the value', () => {
    const name = 'a"b\\c$d}e\nf,g|h';
    const m = { name: 'm$}"', maxBatchSize: 0, inputs: [{ name, dataType: 'TYPE_FP32', dims: [1] }], outputs: [{ name, dataType: 'TYPE_FP32', dims: [1] }] };
    const [ensemble] = snippets({ message: 'inference.ModelConfig', config: {}, modelName: 'e', models: [m] }).filter((sn) => sn.label.startsWith('ensemble'));
    const parsed = parseConfig(expandSnippet(ensemble!.body), 'e/config.pbtxt');
    expect(parsed.diagnostics).toEqual([]);
    const step = parsed.value.ensemble_scheduling!.step![0]!;
    expect([step.model_name, step.input_map, step.output_map, parsed.value.input![0]!.name]).toEqual([m.name, { [name]: name }, { [name]: name }, name]);
  });
});

let child: ChildProcess | undefined;
let connection: ProtocolConnection | undefined;
afterEach(async () => {
  await connection?.sendRequest(ShutdownRequest.type).catch(() => {});
  await connection?.sendNotification(ExitNotification.type).catch(() => {});
  connection?.dispose();
  child?.kill();
  connection = child = undefined;
});

async function start(root: string, snippetSupport: boolean): Promise<ProtocolConnection> {
  child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    capabilities: { textDocument: { completion: { completionItem: { snippetSupport } } } },
    workspaceFolders: null,
  });
  await connection.sendNotification(InitializedNotification.type, {});
  return connection;
}

/** The cursor in a test's text (else it is at the end). */
const CURSOR = '\u2038';

/** The snippets offered at the cursor in `text` in `file`, by label. */
async function snippetsAt(c: ProtocolConnection, file: string, marked: string): Promise<Map<string, CompletionItem>> {
  const uri = pathToFileURL(file).href;
  const at = marked.includes(CURSOR) ? marked.indexOf(CURSOR) : marked.length;
  const text = marked.replace(CURSOR, '');
  await c.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pbtxt', version: 1, text } });
  const lines = text.slice(0, at).split('\n');
  const items = ((await c.sendRequest(CompletionRequest.type, {
    textDocument: { uri },
    position: { line: lines.length - 1, character: lines.at(-1)!.length },
  })) ?? []) as CompletionItem[];
  return new Map(items.filter((i) => i.kind === 15 /* Snippet */).map((i) => [i.label, i]));
}

const errorsOf = (repo: string, model: string): string[] =>
  lintSync([join(repo, model)], { cwd: repo, rules: RULES }).results.flatMap((r) =>
    r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.ruleId}: ${d.message}`),
  );

/** A sequence model whose inputs name its controls, as Triton's sequence examples do. */
const SEQUENCE = {
  inputs: [
    ['INPUT', 'FLOAT', ['batch', 4]],
    ['START', 'INT32', ['batch', 1]],
    ['READY', 'INT32', ['batch', 1]],
  ],
  outputs: [['OUTPUT', 'FLOAT', ['batch', 4]]],
} as const;

describe('snippets', () => {
  it('each snippet, expanded with its defaults, makes a config that lints clean for the model beside it', { timeout: 60_000 }, async () => {
    const repo = await writeRepo({
      'classifier/1/model.onnx': CLASSIFIER,
      'counter/1/model.onnx': { inputs: SEQUENCE.inputs.map((t) => [...t]), outputs: SEQUENCE.outputs.map((t) => [...t]) } as never,
      'pipeline/1/.keep': '',
      'scripted/1/model.py': 'class TritonPythonModel:\n    def execute(self, requests):\n        return []\n',
    });
    const c = await start(repo, true);
    const apply = async (model: string, before: string, label: string): Promise<string> => {
      const file = join(repo, model, 'config.pbtxt');
      const offered = await snippetsAt(c, file, before);
      const item = offered.get(label);
      expect(item, `${model}: "${label}" among ${[...offered.keys()].join(', ')}`).toBeDefined();
      expect(item!.insertTextFormat).toBe(2 /* Snippet */);
      const text = before + expandSnippet(item!.insertText!);
      writeFileSync(file, text);
      expect(errorsOf(repo, model), `${model} after "${label}":\n${text}`).toEqual([]);
      return text;
    };

    // The ONNX model: generate's config, then batching and instances added to it.
    const model = await apply('classifier', '', 'model');
    expect(model).toContain('name: "input"');
    // generate writes dynamic_batching { }: without it, the snippet adds one with a queue delay.
    const unbatched = model.replace(/dynamic_batching \{[^}]*\}\n?/, '');
    expect((await snippetsAt(c, join(repo, 'classifier', 'config.pbtxt'), model)).has('dynamic_batching')).toBe(false);
    expect(await apply('classifier', unbatched, 'dynamic_batching')).toContain('max_queue_delay_microseconds: 100');
    const grouped = await apply('classifier', `${model}\n`, 'instance_group');
    expect(grouped).toContain('kind: KIND_GPU');
    // The sequence model's controls from its inputs the config does not list, with their data type.
    const counter =
      'name: "counter"\nbackend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "INPUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUTPUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\n';
    const offered = await snippetsAt(c, join(repo, 'counter', 'config.pbtxt'), counter);
    expect(offered.get('sequence_batching')!.detail).toContain('(START, READY)');
    expect(offered.has('model')).toBe(false);
    const sequence = await apply('counter', counter, 'sequence_batching');
    expect(sequence).toContain('control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ]');
    // An ensemble of the classifier, its one step's maps from the classifier's tensors.
    const ensemble = await apply('pipeline', '', 'ensemble: classifier');
    expect(ensemble).toContain('input_map { key: "input" value: "input" }');
    // A step added inside ensemble_scheduling.
    const head = ensemble.slice(0, ensemble.indexOf('ensemble_scheduling {') + 'ensemble_scheduling {'.length);
    const stepped = await snippetsAt(c, join(repo, 'pipeline', 'config.pbtxt'), `${head}\n  ${CURSOR}\n}\n`);
    expect([...stepped.keys()].sort()).toEqual(['step: classifier', 'step: counter', 'step: scripted']);
    writeFileSync(join(repo, 'pipeline', 'config.pbtxt'), `${head}\n  ${expandSnippet(stepped.get('step: classifier')!.insertText!)}\n}\n`);
    expect(errorsOf(repo, 'pipeline')).toEqual([]);
    // A Python model.
    await apply('scripted', '', 'python model');
  });

  it('an editor that does not expand snippets is offered none', async () => {
    const repo = await writeRepo({ 'classifier/1/model.onnx': CLASSIFIER });
    const c = await start(repo, false);
    expect((await snippetsAt(c, join(repo, 'classifier', 'config.pbtxt'), '')).size).toBe(0);
  });
});
