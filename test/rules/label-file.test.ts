import { symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelFile, labelPath } from '../../src/lint/rules/correctness/label-file.js';
import { CLASSIFIER, findings, lintDir, writeRepo } from '../lint/harness.js';

const config = (label: string) => `name: "classifier"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] label_filename: ${JSON.stringify(label)} } ]\n`;
const lint = (dir: string) => findings(lintDir(dir, ['.'], { rules: [labelFile] }), 'label-file', dir);

describe('label-file', () => {
  it('joins the name to the model directory as core JoinPath does: an absolute name stays inside', () => {
    expect(labelPath('/r/m', 'labels.txt')).toBe('/r/m/labels.txt');
    expect(labelPath('/r/m', '/labels.txt')).toBe('/r/m/labels.txt');
    expect(labelPath('/r/m/', '/labels.txt')).toBe('/r/m/labels.txt');
    expect(labelPath('/r/m', '../x.txt')).toBe('/r/m/../x.txt');
  });

  describe('valid', () => {
    it('a labels file in the model directory, or in a sub-directory, or named with a leading /', async () => {
      for (const [name, file] of [['labels.txt', 'labels.txt'], ['meta/labels.txt', 'meta/labels.txt'], ['/labels.txt', 'labels.txt']] as const) {
        const dir = await writeRepo({ 'classifier/config.pbtxt': config(name), 'classifier/1/model.onnx': CLASSIFIER, [`classifier/${file}`]: 'cat\ndog\n' });
        expect(lint(dir), name).toEqual([]);
      }
    });
  });

  describe('invalid', () => {
    it('a missing labels file: Triton\'s read error, with the path core opens', async () => {
      const dir = await writeRepo({ 'classifier/config.pbtxt': config('labels.txt'), 'classifier/1/model.onnx': CLASSIFIER });
      const f = lint(dir);
      expect(f).toMatchObject([{ file: 'classifier/config.pbtxt', severity: 'error', line: 4 }]);
      expect(f[0]!.message).toContain(`("failed to open text file for read ${join(dir, 'classifier', 'labels.txt')}: No such file or directory")`);
    });

    it('.. out of the model directory: refused before any read, with the path as core spells it', async () => {
      const dir = await writeRepo({ 'classifier/config.pbtxt': config('../labels.txt'), 'classifier/1/model.onnx': CLASSIFIER, 'labels.txt': 'cat\n' });
      const [f, ...rest] = lint(dir);
      expect(rest).toEqual([]);
      expect(f!.message).toContain(`("label file path '${join(dir, 'classifier')}/../labels.txt' for output 'output' in model 'classifier' is outside model directory")`);
    });

    it('a symbolic link to a file elsewhere: core compares canonical paths, so it is refused too', async () => {
      const dir = await writeRepo({ 'classifier/config.pbtxt': config('labels.txt'), 'classifier/1/model.onnx': CLASSIFIER });
      mkdirSync(join(dir, 'shared'));
      writeFileSync(join(dir, 'shared', 'labels.txt'), 'cat\n');
      symlinkSync(join(dir, 'shared', 'labels.txt'), join(dir, 'classifier', 'labels.txt'));
      expect(lint(dir)[0]!.message).toMatch(/is outside model directory/);
    });

    it('a directory where the file should be', async () => {
      const dir = await writeRepo({ 'classifier/config.pbtxt': config('labels'), 'classifier/1/model.onnx': CLASSIFIER, 'classifier/labels/x': '' });
      expect(lint(dir)[0]!.message).toMatch(/is not a file in the model directory/);
    });
  });
});
