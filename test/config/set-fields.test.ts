import { describe, expect, it } from 'vitest';
import { setFields } from '../../src/config/set-fields.js';

const CONFIG = `# The classifier: keep this comment
name: "classifier"
platform: "onnxruntime_onnx"
max_batch_size: 8 # from the export
dynamic_batching {
  preferred_batch_size: [ 4, 8 ]
}
`;

describe('setFields', () => {
  it('replaces a written value in place and adds a missing one inside its message, comments kept', () => {
    const r = setFields(CONFIG, 'config.pbtxt', [
      { path: ['dynamic_batching', 'max_queue_delay_microseconds'], text: '100', value: 100 },
      { path: ['dynamic_batching', 'preferred_batch_size'], text: '[ 8 ]', value: [8] },
      { path: ['name'], text: '"classifier_d100"', value: 'classifier_d100' },
    ]);
    expect(r).toEqual({
      ok: true,
      text: `# The classifier: keep this comment
name: "classifier_d100"
platform: "onnxruntime_onnx"
max_batch_size: 8 # from the export
dynamic_batching {
  preferred_batch_size: [ 8 ]
  max_queue_delay_microseconds: 100
}
`,
    });
  });

  it('creates the messages and list element a field needs, and removes a field', () => {
    const r = setFields('name: "m"\nmax_batch_size: 4\n', 'config.pbtxt', [
      { path: ['instance_group', 0, 'count'], text: '2', value: 2 },
      { path: ['dynamic_batching', 'max_queue_delay_microseconds'], text: '500', value: 500 },
      { path: ['max_batch_size'], text: undefined, value: undefined },
    ]);
    expect(r.ok).toBe(true);
    expect(r.ok && r.text).toBe('name: "m"\ninstance_group [ { count: 2 } ]\ndynamic_batching { max_queue_delay_microseconds: 500 }\n');
  });

  it('refuses a config that does not parse, and says why', () => {
    expect(setFields('max_batch_size: [', 'config.pbtxt', [{ path: ['name'], text: '"x"', value: 'x' }])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('does not parse'),
    });
  });
});
