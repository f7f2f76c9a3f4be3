import { describe, expect, it } from 'vitest';
import { formatStylish } from '../../src/report/stylish.js';
import { shouldColor } from '../../src/report/color.js';
import { CWD, emptyResult, sampleResult } from './fixtures.js';

describe('stylish', () => {
  it('prints each file with aligned problems and a summary, paths relative to cwd', () => {
    expect(formatStylish(sampleResult(), { cwd: CWD })).toBe(
      [
        '',
        'models/resnet/config.pbtxt',
        '  4:54  error    dims [1,3,224,224] include the batch axis; with max_batch_size: 8 Triton expects dims [3,224,224]  batch-dim-in-dims',
        '  6:50  warning  max_queue_delay_microseconds: 50000 (50 ms) lets a request wait up to 50 ms, 100% sure  queue-delay',
        '  9:40  info     precision_mode FP16 runs the model in reduced precision  fp16-accuracy',
        '',
        '\u2716 2 problems (1 error, 1 warning) and 1 info',
        '',
      ].join('\n'),
    );
  });
  it('counts infos apart from problems', () => {
    const infosOnly = sampleResult();
    infosOnly.results[0]!.diagnostics = infosOnly.results[0]!.diagnostics.filter((d) => d.severity === 'info');
    Object.assign(infosOnly, { errorCount: 0, warningCount: 0 });
    expect(formatStylish(infosOnly, { cwd: CWD }).trimEnd().split('\n').at(-1)).toBe('\u2139 1 info (no errors or warnings)');
  });
  it('prints nothing for a clean run', () => {
    expect(formatStylish(emptyResult(), { cwd: CWD })).toBe('');
  });
  it('colours with ANSI codes only when asked', () => {
    const colored = formatStylish(sampleResult(), { cwd: CWD, color: true });
    expect(colored).toContain('\u001b[31merror');
    expect(colored).toContain('\u001b[4mmodels/resnet/config.pbtxt\u001b[24m');
    expect(formatStylish(sampleResult(), { cwd: CWD })).not.toContain('\u001b[');
  });
  it('decides colour like other CLIs: --no-color, --color, FORCE_COLOR, NO_COLOR, then the terminal', () => {
    expect(shouldColor({ flag: false, env: { FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(shouldColor({ flag: true, env: { NO_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(shouldColor({ flag: undefined, env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(shouldColor({ flag: undefined, env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(shouldColor({ flag: undefined, env: { NO_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(shouldColor({ flag: undefined, env: { NO_COLOR: '' }, isTTY: true })).toBe(true);
    expect(shouldColor({ flag: undefined, env: { TERM: 'dumb' }, isTTY: true })).toBe(false);
    expect(shouldColor({ flag: undefined, env: {}, isTTY: false })).toBe(false);
  });
});
