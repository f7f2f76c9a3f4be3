import { describe, expect, it } from 'vitest';
import { formatText } from '../../src/config/format.js';

function fmt(text: string): string {
  const r = formatText(text, 'config.pbtxt', { canonical: true });
  if (r.status !== 'formatted') throw new Error(`not formatted: ${JSON.stringify(r)}`);
  return r.output;
}

describe('formatter', () => {
  it('rewrites into the canonical layout', () => {
    expect(fmt('name:"m" max_batch_size : 0x8 input{name:"x" data_type:11 dims:3 dims:224 dims:224 reshape:<shape:[]>} dynamic_batching:{}')).toBe(`name: "m"
max_batch_size: 8
input [
  {
    name: "x"
    data_type: TYPE_FP32
    dims: [ 3, 224, 224 ]
    reshape { shape: [ ] }
  }
]
dynamic_batching { }
`);
  });

  it('merges adjacent repeated occurrences into one list but never reorders fields', () => {
    expect(fmt('input { name: "a" }\ninput { name: "b" }\noutput { name: "c" }\ninput { name: "d" }\n')).toBe(`input [
  {
    name: "a"
  },
  {
    name: "b"
  }
]
output [
  {
    name: "c"
  }
]
input [
  {
    name: "d"
  }
]
`);
  });

  it('keeps every comment in place', () => {
    const input = `# Copyright header
# second line

# about the model
name: "m"  # the name

input [  # inputs
  # first input
  {
    name: "a"  # a's name
    dims: [ 1 ]
  },  # after a
  {
    name: "b"
    # closing b
  }
  # closing the list
]
# the second one
output { name: "y" }
output { name: "z" }  # z
parameters [
  # first parameter
  { key: "k" value { string_value: "v" } }  # k
]
# end of file
`;
    expect(fmt(input)).toBe(`# Copyright header
# second line

# about the model
name: "m"  # the name

input [  # inputs
  # first input
  {
    name: "a"  # a's name
    dims: [ 1 ]
  },  # after a
  {
    name: "b"
    # closing b
  }
  # closing the list
]
# the second one
output [
  {
    name: "y"
  },
  {
    name: "z"
  }  # z
]
# first parameter
parameters { key: "k" value { string_value: "v" } }  # k
# end of file
`);
  });

  it('moves comments between one-by-one repeated fields onto the list elements', () => {
    expect(fmt('input {\n  dims: 3  # channels\n  # height\n  dims: 224\n  dims: 224\n}\n')).toBe(`input [
  {
    dims: [
      3,  # channels
      # height
      224,
      224
    ]
  }
]
`);
  });

  it('is idempotent', () => {
    const once = fmt('input [ { name: "a" }, # x\n { name: "b" } ] # y\nparameters: [ { key: "a", value: { string_value: "1" } } ]\n');
    expect(fmt(once)).toBe(once);
  });

  it('refuses a file with syntax errors, with their positions, and changes nothing', () => {
    const r = formatText('name: "m"\nmax_batch_size: x\n', 'models/m/config.pbtxt');
    expect(r.status).toBe('syntax-error');
    if (r.status === 'syntax-error') expect(r.diagnostics[0]).toMatchObject({ file: 'models/m/config.pbtxt', range: { start: { line: 2, column: 17 } } });
  });

  it('leaves a file that starts with "# tritonc-fmt: off" alone', () => {
    expect(formatText('# tritonc-fmt: off\nname:"m"').status).toBe('skipped');
  });

  it('reports unchanged files as unchanged', () => {
    const r = formatText('name: "m"\n');
    expect(r).toEqual({ status: 'formatted', output: 'name: "m"\n', changed: false });
  });
});

describe('formatter, layout only (the default)', () => {
  const layout = (text: string): string => {
    const r = formatText(text);
    if (r.status !== 'formatted') throw new Error(`not formatted: ${JSON.stringify(r)}`);
    return r.output;
  };
  it('changes indentation, spacing and line breaks, and keeps every spelling the author chose', () => {
    const text = `name:'m'  max_batch_size : 0x8
input{name:"x" data_type:TYPE_FP32 dims:3 dims:224 reshape:<shape:[]>}
input [ { name: "y", data_type: TYPE_FP32; dims: [ 1 ] } ]
parameters: [ { key: "a" value: { string_value: "1" } } ]
dynamic_batching:{}
model_transaction_policy { decoupled: True }
`;
    expect(layout(text)).toBe(`name: 'm'
max_batch_size: 0x8
input {
  name: "x"
  data_type: TYPE_FP32
  dims: 3
  dims: 224
  reshape: < shape: [ ] >
}
input [
  {
    name: "y",
    data_type: TYPE_FP32;
    dims: [ 1 ]
  }
]
parameters: [
  {
    key: "a"
    value: { string_value: "1" }
  }
]
dynamic_batching: { }
model_transaction_policy { decoupled: True }
`);
    // The canonical style rewrites all of these.
    const canonical = formatText(text, 'config.pbtxt', { canonical: true });
    expect(canonical.status === 'formatted' && canonical.output).toContain('dims: [ 3, 224 ]');
  });
});
