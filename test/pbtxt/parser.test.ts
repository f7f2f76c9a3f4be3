import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { formatText } from '../../src/config/format.js';
import { loadSchema } from '../../src/config/schema.js';
import { parseText } from '../../src/pbtxt/parser.js';

const parse = (text: string) => parseConfig(text, 'config.pbtxt');

function ok(text: string) {
  const doc = parse(text);
  expect(doc.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.message}`)).toEqual([]);
  return doc.value as Record<string, unknown>;
}

/** The diagnostics as `line:column message`. */
function errors(text: string): string[] {
  return parse(text).diagnostics.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.message}`);
}

describe('parser: what TextFormat accepts', () => {
  it('reads scalar fields, comments, and an optional colon before messages', () => {
    expect(ok('# header\nname: "m"  # trailing\nmax_batch_size: 8\ndynamic_batching { }\nmodel_transaction_policy: { decoupled: true }\n')).toEqual({
      name: 'm',
      max_batch_size: 8,
      dynamic_batching: {},
      model_transaction_policy: { decoupled: true },
    });
  });

  it('accepts angle brackets as message delimiters', () => {
    expect(ok('version_policy < latest < num_versions: 2 > >')).toEqual({ version_policy: { latest: { num_versions: 2 } } });
  });

  it('accepts repeated scalars one by one, as lists, and mixed in one message', () => {
    expect(ok('input { dims: 1 dims: [2, 3] dims: 4 dims: [] }')).toEqual({ input: [{ dims: [1, 2, 3, 4] }] });
  });

  it('accepts repeated messages one by one and in list form, with or without a colon', () => {
    const v = ok('input { name: "a" } input [ { name: "b" }, { name: "c" } ] input: [ < name: "d" > ]');
    expect((v.input as { name: string }[]).map((i) => i.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reads maps as key/value entries and as lists, with message and scalar values', () => {
    const v = ok(`
      parameters { key: "a" value: { string_value: "1" } }
      parameters [ { key: "b", value { string_value: "2" } }, { key: "c" value: { } } ]
      optimization { execution_accelerators { gpu_execution_accelerator { name: "tensorrt" parameters { key: "precision_mode" value: "FP16" } } } }
      dynamic_batching { priority_levels: 2 priority_queue_policy { key: 1 value { timeout_action: DELAY } } }
    `);
    expect(v.parameters).toEqual({ a: { string_value: '1' }, b: { string_value: '2' }, c: {} });
    expect(v.optimization).toEqual({ execution_accelerators: { gpu_execution_accelerator: [{ name: 'tensorrt', parameters: { precision_mode: 'FP16' } }] } });
    expect((v.dynamic_batching as Record<string, unknown>).priority_queue_policy).toEqual({ 1: { timeout_action: 'DELAY' } });
  });

  it('stores a map entry written without its key or value under the default key or value, in both parses', () => {
    const text =
      'parameters { value { string_value: "x" } } parameters { key: "k" }\n' +
      'optimization { execution_accelerators { gpu_execution_accelerator { name: "tensorrt" parameters { key: "p" } } } }\n' +
      'dynamic_batching { priority_queue_policy { value { timeout_action: DELAY } } }\n';
    const expected = {
      parameters: { '': { string_value: 'x' }, k: {} },
      optimization: { execution_accelerators: { gpu_execution_accelerator: [{ name: 'tensorrt', parameters: { p: '' } }] } },
      dynamic_batching: { priority_queue_policy: { 0: { timeout_action: 'DELAY' } } },
    };
    expect(ok(text)).toEqual(expected); // the clean parse
    const tree = parseText(text, loadSchema().modelConfig);
    expect(tree.diagnostics).toEqual([]);
    expect(tree.value).toEqual(expected);
  });

  it('keeps a map key like __proto__ as an ordinary key', () => {
    const v = ok('parameters { key: "__proto__" value { string_value: "x" } }');
    expect(Object.keys(v.parameters as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(v.parameters)).toBe(Object.prototype);
  });

  it('reads enums by name and by number, keeping unknown numbers (proto3 enums are open)', () => {
    expect(ok('input { data_type: TYPE_FP32 } input { data_type: 11 } input { data_type: 99 } instance_group { kind: 2 }')).toEqual({
      input: [{ data_type: 'TYPE_FP32' }, { data_type: 'TYPE_FP32' }, { data_type: 99 }],
      instance_group: [{ kind: 'KIND_CPU' }],
    });
  });

  it('reads strings in both quotes, with C escapes and adjacent-literal concatenation', () => {
    const v = ok(String.raw`name: 'a\'b' "c\"d" 'e' platform: "\n\t\\\x41\101\u00e9\U0001F600\?" backend: "模型"`);
    expect(v.name).toBe(`a'bc"de`);
    expect(v.platform).toBe('\n\t\\AAé😀?');
    expect(v.backend).toBe('模型');
  });

  it('reads decimal, hex and octal integers and keeps 64-bit values exact beyond 2^53', () => {
    const v = ok('max_batch_size: 0x10 input { dims: 010 dims: -0x1 dims: 9007199254740993 } dynamic_batching { priority_levels: 18446744073709551615 }');
    expect(v.max_batch_size).toBe(16);
    expect((v.input as { dims: unknown[] }[])[0]!.dims).toEqual([8, -1, 9007199254740993n]);
    expect((v.dynamic_batching as Record<string, unknown>).priority_levels).toBe(18446744073709551615n);
  });

  it('reads floats with exponents, inf, nan, an f suffix, a leading dot, and integers in float fields', () => {
    const v = ok('model_metrics { metric_control { histogram_options { buckets: [1, 2.5, 1e3, .5, -inf, inf, nan, 3f, 0x10, -2] } } }');
    const buckets = (v.model_metrics as any).metric_control[0].histogram_options.buckets as number[];
    expect(buckets.slice(0, 4)).toEqual([1, 2.5, 1000, 0.5]);
    expect(buckets[4]).toBe(-Infinity);
    expect(buckets[5]).toBe(Infinity);
    expect(Number.isNaN(buckets[6])).toBe(true);
    expect(buckets.slice(7)).toEqual([3, 16, -2]);
  });

  it('reads every spelling of booleans', () => {
    const v = ok('sequence_batching { control_input { control { bool_false_true: [false, true, False, True, f, t, 0, 1] } } }');
    expect((v.sequence_batching as any).control_input[0].control[0].bool_false_true).toEqual([false, true, false, true, false, true, false, true]);
  });

  it('accepts "," or ";" after fields, CRLF, tabs, no final newline, and a negative sign apart from its number', () => {
    expect(ok('name: "m";\r\nmax_batch_size: 4,\r\n\tinput { dims: - 1 }')).toEqual({ name: 'm', max_batch_size: 4, input: [{ dims: [-1] }] });
  });

  it('accepts empty and comment-only files', () => {
    expect(ok('')).toEqual({});
    expect(ok('# nothing here\n\n# at all')).toEqual({});
  });

  it('lets a proto3 scalar at its default be set again, as protobuf does', () => {
    expect(ok('max_batch_size: 0 max_batch_size: 8')).toEqual({ max_batch_size: 8 });
  });

  it('keeps explicit zeros and empty lists in the value', () => {
    expect(ok('max_batch_size: 0 input { reshape { shape: [ ] } }')).toEqual({ max_batch_size: 0, input: [{ reshape: { shape: [] } }] });
  });
});

describe('parser: what TextFormat rejects', () => {
  it('reports an unknown field with its message type and a suggestion', () => {
    expect(errors('max_batch_sise: 8')).toEqual([
      '1:1 Message type "inference.ModelConfig" has no field named "max_batch_sise". Did you mean "max_batch_size"?',
    ]);
    expect(errors('input { data_typ: TYPE_FP32 }')[0]).toContain(
      'Message type "inference.ModelInput" has no field named "data_typ". Did you mean "data_type"?',
    );
    expect(errors('maxBatchSize: 8')[0]).toContain('Did you mean "max_batch_size"?');
  });

  it('reports an unknown enum name with a suggestion', () => {
    expect(errors('input { data_type: FP32 }')).toEqual(['1:20 Unknown enumeration value of "FP32" for field "data_type". Did you mean "TYPE_FP32"?']);
    expect(errors('instance_group { kind: GPU }')[0]).toContain('Did you mean "KIND_GPU"?');
  });

  it("suggests data types by meaning: the names of ONNX, NumPy and PyTorch, and Triton's own without TYPE_", () => {
    const hint = (t: string): string | undefined => /Did you mean "([A-Z0-9_]+)"/.exec(errors(`input { data_type: ${t} }`)[0] ?? '')?.[1];
    const meant = {
      TYPE_FLOAT32: 'TYPE_FP32',
      TYPE_FLOAT16: 'TYPE_FP16',
      TYPE_INT: 'TYPE_INT32',
      FLOAT: 'TYPE_FP32',
      INT64: 'TYPE_INT64',
      TYPE_DOUBLE: 'TYPE_FP64',
      fp16: 'TYPE_FP16',
      half: 'TYPE_FP16',
      TYPE_BOOLEAN: 'TYPE_BOOL',
      BFLOAT16: 'TYPE_BF16',
    };
    expect(Object.fromEntries(Object.keys(meant).map((t) => [t, hint(t)]))).toEqual(meant);
    // Other enums keep the spelling suggestions.
    expect(errors('instance_group { kind: KIND_GUP }')[0]).toContain('Did you mean "KIND_GPU"?');
  });

  it("reports one error per position, the lexer's where it found the bad token", () => {
    for (const text of ['name: "m"\n0x: 1\n', '"name: "m"\n', 'name: "m"\n{max_batch_size: 1.5e\n', 'input [ { name: "x" dims: [ 1, \\ ] } ]']) {
      const at = errors(text).map((e) => e.split(' ')[0]);
      expect(at, text).toEqual([...new Set(at)]);
    }
    expect(errors('name: "m"\n0x: 1\n')[0]).toBe('2:1 "0x" must be followed by hex digits');
  });

  it("refuses a NUL byte anywhere, as protobuf's C++ tokenizer does, and accepts other control bytes", () => {
    for (const text of ['name: "a\0b"', '# a\0\nname: "a"', 'name: "a"\0']) {
      expect(errors(text)[0], JSON.stringify(text)).toContain('("Invalid control characters encountered in text.")');
    }
    expect(errors('name: "a\x01\x7f"')).toEqual([]);
  });

  it('keeps escapes that are not UTF-8 (as C++ does), with a warning, and prints them as written', () => {
    const doc = parse('name: "\\xff"');
    expect(doc.diagnostics.map((d) => [d.severity, d.message.slice(0, 62)])).toEqual([
      ['warning', 'the escapes in this string make bytes that are not valid UTF-8'],
    ]);
    const formatted = formatText('name:  "\\xff"\n');
    expect(formatted.status === 'formatted' && formatted.output).toBe('name: "\\xff"\n');
  });

  it('stops at the first error when asked (how the other models of a repository are read)', () => {
    const broken = `name: "m"\n${'x: { [ "a\n'.repeat(50_000)}`;
    expect(parse(broken).diagnostics.length).toBe(101);
    const first = parseConfig(broken, 'config.pbtxt', { stopAtFirstError: true });
    expect(first.diagnostics.map((d) => d.message)).toEqual([parse(broken).diagnostics[0]!.message]);
    expect(first.value.name).toBe('m');
    expect(parseConfig('\uFEFFname: "m"', 'config.pbtxt', { stopAtFirstError: true }).diagnostics).toHaveLength(1);
  });

  it('reports at most 100 syntax errors, then how many more there are', () => {
    const found = errors(Array.from({ length: 250 }, (_, i) => `bad_${i}: 1`).join('\n'));
    expect(found).toHaveLength(101);
    expect(found[99]).toContain('has no field named "bad_99"');
    expect(found[100]).toBe('101:1 and 150 more syntax errors after this point; fix the ones above first');
  });

  it('reports the wrong kind of value', () => {
    expect(errors('max_batch_size: "8"')).toEqual(['1:17 Expected integer for field "max_batch_size" (int32), got: ""8""']);
    expect(errors('name: model')[0]).toBe('1:7 Expected string for field "name", got: "model"; quote it: "model"');
    expect(errors('max_batch_size: 1.5')[0]).toContain('Expected integer');
    expect(errors('response_cache { enable: yes }')[0]).toBe('1:26 Invalid value for boolean field "enable". Value: "yes". Use true or false');
    expect(errors('input { dims: [ 1, "2" ] }')[0]).toMatch(/^1:20 Expected integer/);
    expect(errors('input: "x"')[0]).toContain('Expected "{"');
  });

  it('reports integers out of range for the field type', () => {
    expect(errors('max_batch_size: 2147483648')[0]).toBe(
      '1:17 Integer out of range (2147483648): field "max_batch_size" is int32, from -2147483648 to 2147483647',
    );
    expect(errors('max_batch_size: -2147483648')).toEqual([]);
    expect(errors('dynamic_batching { max_queue_delay_microseconds: -1 }')[0]).toBe(
      '1:50 field "max_queue_delay_microseconds" is unsigned (uint64) and cannot be negative',
    );
    expect(errors('dynamic_batching { priority_levels: 18446744073709551616 }')[0]).toContain('Integer out of range');
    expect(errors('input { dims: 9223372036854775808 }')[0]).toContain('Integer out of range');
  });

  it('reports a singular field given twice, pointing at the second and naming the first', () => {
    expect(errors('name: "a"\nname: "b"')).toEqual(['2:1 Non-repeated field "name" is specified multiple times (first at 1:1); keep only one']);
    expect(errors('max_batch_size: 8 max_batch_size: 16')[0]).toContain('specified multiple times');
    expect(errors('optimization { } optimization { }')[0]).toContain('Non-repeated field "optimization"');
  });

  it('reports two members of one oneof', () => {
    expect(errors('dynamic_batching { }\nsequence_batching { }')).toEqual([
      '2:1 Field "sequence_batching" is specified along with field "dynamic_batching", another member of oneof "scheduling_choice" (at 1:1); keep only one of them',
    ]);
    expect(errors('model_warmup { inputs { key: "x" value { zero_data: true random_data: true } } }')[0]).toContain('oneof "input_data_type"');
    // A oneof scalar member at its default still counts as set.
    expect(errors('sequence_batching { state { initial_state { zero_data: false data_file: "f" } } }')[0]).toContain('oneof "state_data"');
  });

  it('reports unterminated strings and blocks', () => {
    expect(errors('name: "abc\nmax_batch_size: 1')[0]).toBe('1:7 unterminated string: a string cannot span lines; add the closing "');
    expect(errors('name: "abc')[0]).toBe('1:7 unterminated string: the file ends before the closing "');
    expect(errors('input {\n  name: "x"\n')).toEqual(['1:7 unterminated block: the "{" at 1:7 is never closed; add "}"']);
    expect(errors('input { dims: [1, 2').some((e) => e.includes('unterminated list'))).toBe(true);
  });

  it('reports syntax errors: a missing colon, a trailing comma, a bad number, stray symbols, a BOM', () => {
    expect(errors('name "x"')[0]).toBe('1:6 Expected ":", found ""x"": write name: <value>');
    expect(errors('input { dims: [1, 2,] }')[0]).toContain('a list cannot end with ","');
    expect(errors('max_batch_size: 08')[0]).toContain('octal');
    expect(errors('max_batch_size: 12abc')[0]).toContain('a number must be followed by a space');
    expect(errors('}')[0]).toBe('1:1 unexpected "}": there is no open block to close');
    expect(errors('input { name: "x" >')[0]).toContain('closed with the wrong bracket');
    expect(errors('\uFEFFname: "x"')[0]).toContain('byte order mark');
    expect(errors('name: "\\q"')[0]).toContain('invalid escape sequence');
  });

  it('refuses a list for a non-repeated field', () => {
    expect(errors('max_batch_size: [1, 2]')[0]).toContain('not repeated');
    expect(errors('optimization [ { } ]')[0]).toContain('not repeated');
  });

  it('reports a template placeholder once, not as a cascade', () => {
    expect(errors('max_batch_size: ${triton_max_batch_size}\ninstance_group [ { count: ${n} kind: KIND_GPU } ]')).toEqual([
      '1:17 template placeholder ${triton_max_batch_size} where field "max_batch_size" needs a value: it was never filled (fill_template.py leaves the names it is not given), so Triton cannot parse the file; fill it: tritonc fill CONFIG "triton_max_batch_size:<value>"',
      '2:27 template placeholder ${n} where field "count" needs a value: it was never filled (fill_template.py leaves the names it is not given), so Triton cannot parse the file; fill it: tritonc fill CONFIG "n:<value>"',
    ]);
  });

  it('goes on after an error, so one run reports several problems', () => {
    const found = errors(`
name: "m"
max_batch_sise: 8
input [
  { name: "x" data_type: FP32 dims: [ 3, 224, 224 ] },
  { name: "y" data_type: TYPE_FP32 dims: [ -1 ] format: NCHW }
]
output { name: "z" dims: "1" }
instance_group { kind: KIND_GPU count: 2 }
`);
    expect(found.map((f) => f.split(' ')[0])).toEqual(['3:1', '5:26', '6:57', '8:26']);
  });

  it('refuses nesting deeper than protobuf allows without overflowing the stack', () => {
    const deep = 'version_policy { '.repeat(5000) + '}'.repeat(5000);
    const found = errors(deep);
    expect(found.some((f) => f.includes('nested more than 100 levels'))).toBe(true);
  });
});

describe('parser: tree, ranges and comments', () => {
  it('gives the range of every field, value and list element', () => {
    const doc = parse('max_batch_size: 8\ninput [\n  { name: "x" dims: [ 3, 224, 224 ] }\n]\nparameters { key: "k" value { string_value: "v" } }\n');
    expect(doc.locate(['max_batch_size'])).toMatchObject({
      value: { start: { line: 1, column: 17 }, end: { line: 1, column: 18 } },
      name: { start: { line: 1, column: 1 } },
    });
    expect(doc.locate(['input', 0, 'dims', 1])?.value).toMatchObject({ start: { line: 3, column: 26 }, end: { line: 3, column: 29 } });
    expect(doc.locate(['input', 0])?.value).toMatchObject({ start: { line: 3, column: 3 }, end: { line: 3, column: 38 } });
    expect(doc.locate(['parameters', 'k', 'string_value'])?.value).toMatchObject({ start: { line: 5, column: 45 } });
    expect(doc.locate(['parameters', 'k'])?.name).toMatchObject({ start: { line: 5, column: 19 } });
    // A path that is not written falls back to the nearest written parent.
    expect(doc.locate(['input', 0, 'data_type'])?.value).toMatchObject({ start: { line: 3, column: 3 } });
  });

  it('attaches comments to the nodes they belong to', () => {
    const doc = parse(`# license

# about the model
name: "m"  # the name
input [  # inputs
  # first
  { name: "a" },  # after a
  { name: "b" }
  # closing the list
]
dynamic_batching {
  max_queue_delay_microseconds: 100
  # inside, at the end
}
# end of file
`);
    const [name, input, db] = doc.tree.fields;
    expect(name!.leading.map((c) => c.text)).toEqual(['# license', '# about the model']);
    expect(name!.leading[1]!.newlinesBefore).toBe(2);
    expect(name!.trailing?.text).toBe('# the name');
    const list = input!.value;
    if (list.kind !== 'list') throw new Error('expected a list');
    expect(list.openComment?.text).toBe('# inputs');
    expect(list.elements[0]!.leading.map((c) => c.text)).toEqual(['# first']);
    expect(list.elements[0]!.trailing?.text).toBe('# after a');
    expect(list.dangling.map((c) => c.text)).toEqual(['# closing the list']);
    if (db!.value.kind !== 'message') throw new Error('expected a message');
    expect(db!.value.dangling.map((c) => c.text)).toEqual(['# inside, at the end']);
    expect(doc.tree.dangling.map((c) => c.text)).toEqual(['# end of file']);
  });
});
