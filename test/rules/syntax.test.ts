import { describe, expect, it } from 'vitest';
import type { SchemaEnum, SchemaField, SchemaMessage } from '../../src/pbtxt/descriptor.js';
import { parseText } from '../../src/pbtxt/parser.js';
import { CLASSIFIER, lintModel, ruleIds } from '../lint/harness.js';
import { testRule } from '../support/rule-tester.js';

const BROKEN = 'name: "m"\nmax_batch_size: eight\ninput { name: "x" dims: [1, 3, 224, 224] }\n';
/** 101 top-level mistakes: the parser reports 100 and counts the rest in one more. */
const mistakes = (n: number): string => Array.from({ length: n }, (_, i) => `zz${i}: 1\n`).join('');

// The parser's diagnostics are the rule's findings: one message per wording (pbtxt/messages.ts),
// the token found, the names and the numbers as data.
testRule('syntax', {
  valid: [
    { name: 'a config that parses', config: 'name: "m"\nmax_batch_size: 8\n' },
    { name: 'a placeholder inside a string parses (unfilled-placeholder says what it does)', config: 'name: "m"\nbackend: "${triton_backend}"\n' },
    // Real comments where a marker could stand, in a config that parses: never read as markers.
    {
      name: 'comments after ":", "[" and "," and glued to a value, in a config that parses',
      config: 'name: "m" #name\nmax_batch_size: #mbs\n 8\ninput [ #first\n { name: "x" data_type: TYPE_FP32#fp32\n dims: [ 1, #one\n 2 ] } ]\n',
    },
  ],
  invalid: [
    {
      name: 'a template: one placeholder where a value goes is all that stops the parse',
      config: 'name: "m"\nmax_batch_size: ${max_batch_size}\n',
      errors: [
        {
          messageId: 'templateOne',
          severity: 'info',
          line: 2,
          token: '${max_batch_size}',
          data: { count: 1, names: '${max_batch_size}', file: 'm/config.pbtxt', placeholders: ['${max_batch_size}'] },
        },
      ],
    },
    {
      name: 'a template with several placeholders: named once each, the first three shown',
      config:
        'max_batch_size: ${a}\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ ${b} ] } ]\ndynamic_batching { max_queue_delay_microseconds: ${c} }\ninstance_group [ { count: ${d} } ]\nmodel_warmup [ { batch_size: ${a} } ]\n',
      errors: [
        {
          messageId: 'template',
          severity: 'info',
          line: 1,
          token: '${a}',
          data: { count: 5, names: '${a}, ${b}, ${c}, ...', placeholders: ['${a}', '${b}', '${c}', '${d}'] },
        },
      ],
    },
    {
      // wenet-e2e/wenet runtime/gpu/model_repo/encoder/config_template.pbtxt, filled by sed.
      name: 'a template with sed-style #name markers (wenet): one note, not a cascade of syntax errors',
      config:
        'name: "encoder"\nbackend: "onnxruntime"\nmax_batch_size: 64\ninput [\n  {\n    name: "speech"\n    data_type: TYPE_#DTYPE\n    dims: [-1, #num_mel_bins] # 80\n  }\n]\noutput [\n  {\n    name: "beam_log_probs"\n    data_type: TYPE_#DTYPE\n    dims: [-1, #beam_size]  # [-1, beam_size]\n  }\n]\n',
      errors: [
        {
          messageId: 'markerTemplate',
          severity: 'info',
          line: 7,
          token: 'TYPE_#DTYPE',
          data: { count: 4, names: 'TYPE_#DTYPE, #num_mel_bins, #beam_size', placeholders: ['TYPE_#DTYPE', '#num_mel_bins', '#beam_size'] },
        },
      ],
    },
    {
      name: 'one marker after ":"',
      config: 'name: "m"\nmax_batch_size: #MAX_BATCH\n',
      errors: [{ messageId: 'markerTemplateOne', severity: 'info', line: 2, token: '#MAX_BATCH', data: { count: 1, names: '#MAX_BATCH' } }],
    },
    {
      name: 'a marker beside another syntax error: the file is broken, and reported as the comment it is',
      config: 'name: m\nmax_batch_size: #MAX_BATCH\n',
      errors: [
        { messageId: 'expectedStringIdent', line: 1, token: 'm', data: { field: 'name', found: 'm' } },
        { messageId: 'expectedIntegerEof', line: 3 },
      ],
    },
    {
      name: 'a placeholder beside another syntax error: the file is broken, not a template',
      config: 'max_batch_size: ${mbs}\nname: m\n',
      errors: [
        {
          messageId: 'templatePlaceholder',
          severity: 'error',
          line: 1,
          token: '${mbs}',
          data: { placeholder: '${mbs}', field: 'max_batch_size', name: 'mbs' },
        },
        { messageId: 'expectedStringIdent', line: 2, token: 'm', data: { field: 'name', found: 'm' } },
      ],
    },

    // ---- the tokenizer ----
    { name: 'a NUL byte', config: 'name: "m\0"\n', errors: [{ messageId: 'nulByte', severity: 'error', line: 1, token: '\0' }] },
    {
      name: 'a string that runs into the line break, and one the file ends in',
      files: { 'm/config.pbtxt': 'name: "m\nmax_batch_size: 8\n', 'n/config.pbtxt': "name: 'n" },
      targets: ['m', 'n'],
      errors: [
        { messageId: 'unterminatedStringLine', line: 1, token: '"m', data: { quote: '"' } },
        { messageId: 'unterminatedStringEof', line: 1, token: "'n", data: { quote: "'" }, file: 'n/config.pbtxt' },
      ],
    },
    {
      name: 'numbers the tokenizer refuses',
      files: {
        'a/config.pbtxt': 'max_batch_size: 0x\n',
        'b/config.pbtxt': 'max_batch_size: 09\n',
        'c/config.pbtxt': 'max_batch_size: 1e\n',
        'd/config.pbtxt': 'max_batch_size: 8a\n',
        'e/config.pbtxt': 'max_batch_size: 1.2.3\n',
      },
      targets: ['a', 'b', 'c', 'd', 'e'],
      errors: [
        { messageId: 'hexWithoutDigits', token: '0x', file: 'a/config.pbtxt' },
        { messageId: 'octalDigit', token: '9', file: 'b/config.pbtxt' },
        { messageId: 'exponentWithoutDigits', token: '1e', file: 'c/config.pbtxt' },
        { messageId: 'letterAfterNumber', token: 'a', file: 'd/config.pbtxt' },
        { messageId: 'secondDecimalPoint', token: '.3', file: 'e/config.pbtxt' },
      ],
    },
    {
      name: 'escapes protobuf refuses, each at its backslash',
      files: {
        'a/config.pbtxt': 'name: "m\\',
        'b/config.pbtxt': 'name: "\\xg"\n',
        'c/config.pbtxt': 'name: "\\u12"\n',
        'd/config.pbtxt': 'name: "\\U12345678"\n',
        'e/config.pbtxt': 'name: "\\q"\n',
      },
      targets: ['a', 'b', 'c', 'd', 'e'],
      errors: [
        { messageId: 'unterminatedStringEof', token: '"m\\', data: { quote: '"' }, file: 'a/config.pbtxt' },
        { messageId: 'loneBackslash', token: '\\', file: 'a/config.pbtxt' },
        { messageId: 'hexEscapeWithoutDigits', token: '\\xg"', file: 'b/config.pbtxt' },
        { messageId: 'shortUnicodeEscape', token: '\\u12"', file: 'c/config.pbtxt' },
        { messageId: 'longUnicodeEscape', token: '\\U12345678"', file: 'd/config.pbtxt' },
        { messageId: 'invalidEscape', token: '\\q"', data: { char: 'q' }, file: 'e/config.pbtxt' },
      ],
    },
    {
      name: 'bytes that are not UTF-8: a warning, as the parser says (Triton loads the config)',
      config: 'name: "\\xff"\n',
      errors: [{ messageId: 'notUtf8String', severity: 'warning', line: 1, token: '"\\xff"' }],
    },

    // ---- the structure ----
    { name: 'a byte order mark', config: '\uFEFFname: "m"\n', errors: [{ messageId: 'byteOrderMark', line: 1, token: '\uFEFF' }] },
    {
      name: 'what is not a field name',
      config: 'name: "m"\n: 3\n',
      errors: [
        { messageId: 'expectedFieldName', line: 2, token: ':', data: { found: ':' } },
        { messageId: 'expectedFieldName', line: 2, token: '3', data: { found: '3' } },
      ],
    },
    {
      name: 'an unknown field, with a did-you-mean where one is near',
      config: 'input { data_tyep: TYPE_FP32 }\noutput { zzzzzz: TYPE_FP32 }\n',
      errors: [
        {
          messageId: 'unknownFieldDidYouMean',
          line: 1,
          token: 'data_tyep',
          path: ['input', 0, 'data_tyep'],
          data: { message: 'inference.ModelInput', field: 'data_tyep', suggestion: 'data_type' },
        },
        { messageId: 'unknownField', line: 2, token: 'zzzzzz', path: ['output', 0, 'zzzzzz'], data: { message: 'inference.ModelOutput', field: 'zzzzzz' } },
      ],
    },
    {
      name: 'a missing colon, before a value and at the end of the file',
      files: { 'm/config.pbtxt': 'max_batch_size 8\n', 'n/config.pbtxt': 'max_batch_size' },
      targets: ['m', 'n'],
      errors: [
        { messageId: 'expectedColon', token: '8', data: { found: '8', field: 'max_batch_size' } },
        { messageId: 'expectedColonEof', token: '', data: { field: 'max_batch_size' }, file: 'n/config.pbtxt' },
      ],
    },
    {
      name: 'a scalar where a message goes, and the end of the file',
      files: { 'm/config.pbtxt': 'dynamic_batching: 8\ninput [ { name: "x" }, 8 ]\n', 'n/config.pbtxt': 'input' },
      targets: ['m', 'n'],
      errors: [
        { messageId: 'expectedMessage', line: 1, token: '8', data: { found: '8', field: 'dynamic_batching', message: 'inference.ModelDynamicBatching' } },
        { messageId: 'expectedMessageElement', line: 2, token: '8', data: { found: '8', field: 'input' } },
        { messageId: 'expectedMessageEof', token: '', data: { field: 'input', message: 'inference.ModelInput' }, file: 'n/config.pbtxt' },
      ],
    },
    {
      name: 'blocks: never closed, closed with the wrong bracket, closed without being opened',
      files: { 'a/config.pbtxt': 'input { name: "x"\n', 'b/config.pbtxt': 'input < name: "x" }\n', 'c/config.pbtxt': 'max_batch_size: 8\n}\n' },
      targets: ['a', 'b', 'c'],
      errors: [
        { messageId: 'unterminatedBlock', token: '{', data: { open: '{', line: 1, column: 7, close: '}' }, file: 'a/config.pbtxt' },
        { messageId: 'wrongClosingBracket', token: '}', data: { close: '>', found: '}', open: '<', line: 1, column: 7 }, file: 'b/config.pbtxt' },
        { messageId: 'unmatchedClosingBracket', line: 2, token: '}', data: { found: '}' }, file: 'c/config.pbtxt' },
      ],
    },
    {
      name: "messages nested past protobuf's limit",
      config: `${'zz { '.repeat(101)}${'} '.repeat(101)}\n`,
      errors: [
        { messageId: 'unknownField', token: 'zz', data: { message: 'inference.ModelConfig', field: 'zz' } },
        { messageId: 'tooDeep', token: '{', data: { max: 100 } },
      ],
    },
    {
      name: 'a field given twice, and two members of a oneof, each naming where the first is',
      config: 'name: "a"\nname: "b"\ndynamic_batching { }\nsequence_batching { }\n',
      errors: [
        { messageId: 'duplicateField', line: 2, token: 'name', data: { field: 'name', line: 1, column: 1 } },
        {
          messageId: 'oneofConflict',
          line: 4,
          token: 'sequence_batching',
          data: { field: 'sequence_batching', other: 'dynamic_batching', oneof: 'scheduling_choice', line: 3, column: 1 },
        },
      ],
    },

    // ---- lists ----
    {
      name: 'a list where the field is not repeated',
      config: 'dynamic_batching [ { } ]\nmax_batch_size: [ 8 ]\n',
      errors: [
        { messageId: 'notRepeatedMessage', line: 1, token: '[', data: { field: 'dynamic_batching' } },
        { messageId: 'notRepeatedScalar', line: 2, token: '[', data: { field: 'max_batch_size' } },
      ],
    },
    {
      name: 'a list never closed',
      config: 'input [ { name: "x" }\n',
      errors: [{ messageId: 'unterminatedList', token: '[', data: { line: 1, column: 7 } }],
    },
    {
      name: 'a trailing comma, and elements without one',
      config: 'input [ { name: "x" dims: [ 1, ] } ]\noutput [ { name: "y" dims: [ 1 2 ] } ]\n',
      errors: [
        { messageId: 'trailingComma', line: 1, token: ',' },
        { messageId: 'expectedListSeparator', line: 2, token: '2', data: { found: '2' } },
      ],
    },

    // ---- values ----
    {
      name: 'what is not a string, and the end of the file where one goes',
      files: { 'm/config.pbtxt': 'name: m\nbackend: 8\n', 'n/config.pbtxt': 'name:' },
      targets: ['m', 'n'],
      errors: [
        { messageId: 'expectedStringIdent', line: 1, token: 'm', data: { field: 'name', found: 'm' } },
        { messageId: 'expectedString', line: 2, token: '8', data: { field: 'backend', found: '8' } },
        { messageId: 'expectedStringEof', token: '', data: { field: 'name' }, file: 'n/config.pbtxt' },
      ],
    },
    {
      name: 'a boolean protobuf does not read',
      config: 'input { is_shape_tensor: yes }\n',
      errors: [{ messageId: 'badBool', token: 'yes', data: { field: 'is_shape_tensor', value: 'yes' } }],
    },
    {
      name: "enum values: near a value, or the short enum's values listed",
      config: 'input { data_type: FP32 }\noutput { data_type: TYPE_FLOAT32 }\ninstance_group { kind: ZZZZ }\n',
      errors: [
        { messageId: 'unknownEnumDidYouMean', line: 1, token: 'FP32', data: { value: 'FP32', field: 'data_type', suggestion: 'TYPE_FP32' } },
        { messageId: 'unknownEnumDidYouMean', line: 2, token: 'TYPE_FLOAT32', data: { value: 'TYPE_FLOAT32', field: 'data_type', suggestion: 'TYPE_FP32' } },
        { messageId: 'unknownEnumValues', line: 3, token: 'ZZZZ', data: { value: 'ZZZZ', field: 'kind', values: 'KIND_AUTO, KIND_GPU, KIND_CPU, KIND_MODEL' } },
      ],
    },
    {
      name: "what is neither an enum name nor a number, and a number out of the enum's range",
      files: { 'm/config.pbtxt': 'input { data_type: "x" }\noutput { data_type: 99999999999 }\n', 'n/config.pbtxt': 'input { data_type:' },
      targets: ['m', 'n'],
      errors: [
        { messageId: 'expectedEnum', line: 1, token: '"x"', data: { field: 'data_type', enum: 'inference.DataType', found: '"x"' } },
        { messageId: 'enumOutOfRange', line: 2, token: '99999999999', data: { value: '99999999999', field: 'data_type' } },
        { messageId: 'unterminatedBlock', token: '{', data: { open: '{', line: 1, column: 7, close: '}' }, file: 'n/config.pbtxt' },
        { messageId: 'expectedEnumEof', token: '', data: { field: 'data_type', enum: 'inference.DataType' }, file: 'n/config.pbtxt' },
      ],
    },
    {
      name: 'what is not a float',
      files: {
        'm/config.pbtxt': 'sequence_batching { direct { minimum_slot_utilization: x } }\n',
        'n/config.pbtxt': 'sequence_batching { direct { minimum_slot_utilization:',
      },
      targets: ['m', 'n'],
      errors: [
        { messageId: 'expectedDouble', token: 'x', data: { field: 'minimum_slot_utilization', found: 'x' } },
        { messageId: 'unterminatedBlock', token: '{', data: { open: '{', line: 1, column: 19 }, file: 'n/config.pbtxt' },
        { messageId: 'unterminatedBlock', token: '{', data: { open: '{', line: 1, column: 28 }, file: 'n/config.pbtxt' },
        { messageId: 'expectedDoubleEof', token: '', data: { field: 'minimum_slot_utilization' }, file: 'n/config.pbtxt' },
      ],
    },
    {
      name: 'integers: not one, negative where unsigned, out of range',
      files: {
        'm/config.pbtxt': 'max_batch_size: 1.5\ndynamic_batching { max_queue_delay_microseconds: -5 }\n',
        'n/config.pbtxt': 'max_batch_size: 99999999999\n',
        'o/config.pbtxt': 'max_batch_size:',
      },
      targets: ['m', 'n', 'o'],
      errors: [
        { messageId: 'expectedInteger', line: 1, token: '1.5', data: { field: 'max_batch_size', type: 'int32', found: '1.5' } },
        { messageId: 'negativeUnsigned', line: 2, token: '-5', data: { field: 'max_queue_delay_microseconds', type: 'uint64' } },
        {
          messageId: 'integerOutOfRange',
          token: '99999999999',
          data: { value: '99999999999', field: 'max_batch_size', type: 'int32', min: '-2147483648', max: '2147483647' },
          file: 'n/config.pbtxt',
        },
        { messageId: 'expectedIntegerEof', token: '', data: { field: 'max_batch_size', type: 'int32' }, file: 'o/config.pbtxt' },
      ],
    },
    {
      name: 'past 100 mistakes, one more counted',
      config: mistakes(101),
      errors: [
        ...Array.from({ length: 100 }, (_, i) => ({ messageId: 'unknownField', line: i + 1, data: { field: `zz${i}` } })),
        { messageId: 'oneMoreError', line: 101, token: 'zz100' },
      ],
    },
    {
      name: 'past 100 mistakes, the rest counted',
      config: mistakes(103),
      errors: [
        ...Array.from({ length: 100 }, (_, i) => ({ messageId: 'unknownField', line: i + 1 })),
        { messageId: 'moreErrors', line: 101, token: 'zz100', data: { more: 3 } },
      ],
    },
    {
      name: 'cannot be turned off or suppressed',
      config: '# tritonc-disable syntax\nname: 1\n',
      settings: { rules: {} },
      errors: [{ messageId: 'expectedString', line: 2, token: '1', data: { field: 'name', found: '1' } }],
    },
  ],
});

describe("syntax: the parser's messages of schemas other than model_config.proto", () => {
  // model_config.proto has no bytes field and no enum of more than 16 values; the parser is the
  // same for any schema, and says these of one that has them.
  const values = Array.from({ length: 17 }, (_, i) => `V${i}`);
  const fields = new Map<string, SchemaField>();
  const message: SchemaMessage = { fullName: 'test.M', fields, fieldList: [], isMapEntry: false };
  const big: SchemaEnum = {
    fullName: 'test.Big',
    byName: new Map(values.map((v, i) => [v, i])),
    byNumber: new Map(values.map((v, i) => [i, v])),
    names: values,
  };
  fields.set('b', { name: 'b', number: 1, type: { kind: 'scalar', type: 'bytes' }, repeated: false, parent: message });
  fields.set('e', { name: 'e', number: 2, type: { kind: 'enum', enum: big }, repeated: false, parent: message });

  it('bytes that are not UTF-8 in a bytes field', () => {
    expect(parseText('b: "\\xff"\n', message).diagnostics).toMatchObject([{ messageId: 'notUtf8Bytes', severity: 'warning', data: {} }]);
  });
  it('an unknown value of a long enum, nothing near it: its values are not listed', () => {
    expect(parseText('e: ZZZZZZZZ\n', message).diagnostics).toMatchObject([{ messageId: 'unknownEnum', data: { value: 'ZZZZZZZZ', field: 'e' } }]);
  });
});

describe('syntax: with every rule', () => {
  it('no other rule runs on the file', async () => {
    const { result } = await lintModel(BROKEN, CLASSIFIER);
    expect(ruleIds(result)).toEqual(['syntax']);
  });
});

describe('sed-style template markers in the parser', () => {
  it('each marker is a templateMarker diagnostic with the text as written and its name; a file that parses keeps its comments', async () => {
    const { parseConfig } = await import('../../src/config/document.js');
    const doc = parseConfig('max_batch_size: 8\ninput [ { name: "x" data_type: TYPE_#DTYPE dims: [ -1, #mel ] } ]\n');
    expect(doc.diagnostics.map((d) => ({ messageId: d.messageId, data: d.data }))).toEqual([
      { messageId: 'templateMarker', data: { placeholder: 'TYPE_#DTYPE', field: 'data_type', name: 'DTYPE' } },
      { messageId: 'templateMarker', data: { placeholder: '#mel', field: 'dims', name: 'mel' } },
    ]);
    const clean = parseConfig('max_batch_size: 8 #mbs\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1, #one\n 2 ] } ]\n');
    expect(clean.diagnostics).toEqual([]);
    expect(clean.value.input?.[0]?.dims).toEqual([1, 2]);
  });
});
