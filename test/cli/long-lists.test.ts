// Lists longer than V8 takes as call arguments (~120,000): a config with a 200,000-element dims list
// and a model with a 200,000-dim input print, format, lint and generate without a stack overflow.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { writeOnnx } from '../triton/helpers.js';
import { cli, tempDir } from '../support/cli.js';

const N = 200_000;

describe('200,000-element lists', () => {
  it('fmt --check and lint a config with a 200,000-element dims list', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'm'));
    writeFileSync(join(dir, 'm', 'config.pbtxt'), `name: "m"\ninput [ { name: "x" data_type: TYPE_FP32 dims: [${Array(N).fill(1).join(',')}] } ]\n`);
    const fmt = await cli(['fmt', '--check', 'm'], { cwd: dir });
    expect(fmt.stderr).toContain('1 file would be reformatted');
    expect(fmt.code).toBe(1);
    const lint = await cli(['lint', 'm', '--format', 'json'], { cwd: dir });
    expect(lint.stderr).toBe('');
    expect(JSON.parse(lint.stdout)[0].filePath).toBe(join(dir, 'm', 'config.pbtxt'));
  });

  it('generate for a model with a 200,000-dim input', async () => {
    const dir = tempDir();
    await writeOnnx(join(dir, 'm', '1', 'model.onnx'), {
      inputs: [{ name: 'x', type: 'TYPE_FP32', shape: [-1, ...Array<number>(N - 1).fill(1)] }],
      outputs: [{ name: 'y', type: 'TYPE_FP32', shape: [-1, 1] }],
    });
    const r = await cli(['generate', 'm'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(parseConfig(r.stdout).value.input![0]!.dims).toHaveLength(N - 1);
  });
});
