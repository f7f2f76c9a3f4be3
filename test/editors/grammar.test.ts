// The VS Code extension's TextMate grammar, tokenized by vscode-textmate with the Oniguruma engine
// (the libraries VS Code itself highlights with) on real config text.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import vsctm from 'vscode-textmate';
import oniguruma from 'vscode-oniguruma';

const require = createRequire(import.meta.url);
const grammarPath = new URL('../../editors/vscode/syntaxes/pbtxt.tmLanguage.json', import.meta.url);

async function loadGrammar(): Promise<vsctm.IGrammar> {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => (scope === 'source.pbtxt.triton' ? vsctm.parseRawGrammar(readFileSync(grammarPath, 'utf8'), grammarPath.pathname) : null),
  });
  const grammar = await registry.loadGrammar('source.pbtxt.triton');
  if (!grammar) throw new Error('grammar did not load');
  return grammar;
}

/** Each token of each line as [text, its innermost scope]. */
function tokenize(grammar: vsctm.IGrammar, text: string): Array<[string, string]> {
  let state = vsctm.INITIAL;
  const out: Array<[string, string]> = [];
  for (const line of text.split('\n')) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const piece = line.slice(t.startIndex, t.endIndex);
      if (piece.trim()) out.push([piece.trim(), t.scopes[t.scopes.length - 1]!]);
    }
    state = r.ruleStack;
  }
  return out;
}

describe('the TextMate grammar of editors/vscode', async () => {
  const grammar = await loadGrammar();
  const scopeOf = (tokens: Array<[string, string]>, text: string) => tokens.filter(([t]) => t === text).map(([, s]) => s);

  it('scopes field names, enum values, numbers, strings, booleans and comments of a real config', () => {
    const text = [
      '# proto-message: inference.ModelConfig',
      'name: "dense_onnx"  # the model',
      "platform: 'onnxruntime_onnx'",
      'max_batch_size: 8',
      'input [ { name: "x" data_type: TYPE_FP32 dims: [ -1, 3 ] } ]',
      'instance_group { kind: KIND_GPU count: 2 }',
      'dynamic_batching { max_queue_delay_microseconds: 100 preserve_ordering: true }',
      'parameters: { key: "k" value: { string_value: "a\\"b" } }',
      'optimization < execution_accelerators { gpu_execution_accelerator: [ { name: "tensorrt" } ] } >',
      'default_model_filename: "m.onnx" version_policy: { latest { num_versions: 2 } } x: 1.5e-3 y: inf z: 0x1F',
    ].join('\n');
    const tokens = tokenize(grammar, text);
    for (const field of [
      'name',
      'platform',
      'max_batch_size',
      'input',
      'data_type',
      'dims',
      'kind',
      'count',
      'preserve_ordering',
      'parameters',
      'optimization',
      'gpu_execution_accelerator',
      'version_policy',
      'latest',
    ])
      expect(scopeOf(tokens, field), field).toContain('variable.other.property.pbtxt');
    expect(scopeOf(tokens, 'TYPE_FP32')).toEqual(['constant.other.enum.pbtxt']);
    expect(scopeOf(tokens, 'KIND_GPU')).toEqual(['constant.other.enum.pbtxt']);
    for (const n of ['8', '3', '2', '100', '1.5e-3', 'inf', '0x1F']) expect(new Set(scopeOf(tokens, n)), n).toEqual(new Set(['constant.numeric.pbtxt']));
    expect(tokens.some(([t, s]) => t === '-1' && s === 'constant.numeric.pbtxt')).toBe(true);
    expect(scopeOf(tokens, 'true')).toEqual(['constant.language.boolean.pbtxt']);
    expect(scopeOf(tokens, '\\"')).toEqual(['constant.character.escape.pbtxt']);
    expect(scopeOf(tokens, 'dense_onnx')).toEqual(['string.quoted.double.pbtxt']);
    expect(scopeOf(tokens, 'onnxruntime_onnx')).toEqual(['string.quoted.single.pbtxt']);
    expect(scopeOf(tokens, 'the model')).toEqual(['comment.line.number-sign.pbtxt']);
    expect(scopeOf(tokens, '<')).toEqual(['punctuation.section.angle.pbtxt']);
  });

  it('keeps a comment after an unterminated string from leaking into the next line', () => {
    const tokens = tokenize(grammar, 'name: "broken\nmax_batch_size: 4');
    expect(scopeOf(tokens, 'max_batch_size')).toEqual(['variable.other.property.pbtxt']);
    expect(scopeOf(tokens, '4')).toEqual(['constant.numeric.pbtxt']);
  });

  it('tokenizes every config of the example repository without a token left unscoped', async () => {
    const { readdirSync, statSync } = await import('node:fs');
    const path = await import('node:path');
    const root = new URL('../../model_repository/', import.meta.url).pathname;
    const configs = readdirSync(root)
      .map((m) => path.join(root, m, 'config.pbtxt'))
      .filter((p) => statSync(p, { throwIfNoEntry: false })?.isFile());
    expect(configs.length).toBeGreaterThan(0);
    for (const path of configs) {
      const unscoped = tokenize(grammar, readFileSync(path, 'utf8')).filter(([, s]) => s === 'source.pbtxt.triton');
      expect(unscoped, path).toEqual([]);
    }
  });
});
