import { symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelFile, labelPath } from '../../src/lint/rules/correctness/label-file.js';
import { CLASSIFIER, lintDir, writeRepo } from '../lint/harness.js';
import { MEMORY_ROOT, testRule, type CaseFile } from '../support/rule-tester.js';

const config = (label: string) =>
  `name: "classifier"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] label_filename: ${JSON.stringify(label)} } ]\n`;
const repo = (label: string, more: Record<string, CaseFile> = {}): Record<string, CaseFile> => ({
  'classifier/config.pbtxt': config(label),
  'classifier/1/model.onnx': CLASSIFIER,
  ...more,
});
const MODEL_DIR = `${MEMORY_ROOT}/classifier`;

describe('label-file', () => {
  it('joins the name to the model directory as core JoinPath does: an absolute name stays inside', () => {
    expect(labelPath('/r/m', 'labels.txt')).toBe('/r/m/labels.txt');
    expect(labelPath('/r/m', '/labels.txt')).toBe('/r/m/labels.txt');
    expect(labelPath('/r/m/', '/labels.txt')).toBe('/r/m/labels.txt');
    expect(labelPath('/r/m', '../x.txt')).toBe('/r/m/../x.txt');
  });

  // Symbolic links need the disk: core compares canonical paths, so a link to a file elsewhere is refused.
  it('a symbolic link to a file elsewhere is outside the model directory', async () => {
    const dir = await writeRepo({ 'classifier/config.pbtxt': config('labels.txt'), 'classifier/1/model.onnx': CLASSIFIER });
    mkdirSync(join(dir, 'shared'));
    writeFileSync(join(dir, 'shared', 'labels.txt'), 'cat\n');
    symlinkSync(join(dir, 'shared', 'labels.txt'), join(dir, 'classifier', 'labels.txt'));
    const found = lintDir(dir, ['.'], { rules: [labelFile] }).results.flatMap((r) => r.diagnostics);
    expect(found.map((d) => [d.messageId, d.data?.path])).toEqual([['outsideModelDirectory', join(dir, 'classifier', 'labels.txt')]]);
  });
});

testRule('label-file', {
  valid: [
    {
      name: '.. out of the model directory to a file that is there, for 26.01: core reads it where it lies (the refusal came in 26.02)',
      files: repo('../labels.txt', { 'labels.txt': 'cat\n' }),
      targets: ['classifier'],
      settings: { triton: '26.01' },
    },
    { name: 'a labels file in the model directory', files: repo('labels.txt', { 'classifier/labels.txt': 'cat\ndog\n' }), targets: ['classifier'] },
    { name: 'a labels file in a sub-directory', files: repo('meta/labels.txt', { 'classifier/meta/labels.txt': 'cat\ndog\n' }), targets: ['classifier'] },
    {
      name: 'a name with a leading / is inside the model directory',
      files: repo('/labels.txt', { 'classifier/labels.txt': 'cat\ndog\n' }),
      targets: ['classifier'],
    },
    {
      name: 'two outputs of one name, one with a labels file (what 2.51 loads: only the labels are kept by name)',
      files: {
        'classifier/config.pbtxt':
          'name: "classifier"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] label_filename: "a.txt" }, { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\n',
        'classifier/1/model.onnx': CLASSIFIER,
        'classifier/a.txt': 'cat\n',
      },
      targets: ['classifier'],
    },
  ],
  invalid: [
    // core src/label_provider.cc AddLabels (r24.10, r26.06); the real 2.51 answers "multiple label files for 'OUTPUT0'".
    {
      name: 'two outputs of one name, each with a labels file: the second fails the load',
      files: {
        'classifier/config.pbtxt':
          'name: "classifier"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] label_filename: "a.txt" }, { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] label_filename: "b.txt" } ]\n',
        'classifier/1/model.onnx': CLASSIFIER,
        'classifier/a.txt': 'cat\n',
        'classifier/b.txt': 'dog\n',
      },
      targets: ['classifier'],
      errors: [
        {
          messageId: 'multipleLabelFiles',
          severity: 'error',
          token: '"b.txt"',
          data: { output: 'output', labelFilename: 'b.txt', firstLabelFilename: 'a.txt' },
        },
      ],
    },
    {
      name: "a missing labels file: Triton's read error, with the path core opens",
      files: repo('labels.txt'),
      targets: ['classifier'],
      errors: [
        {
          messageId: 'missing',
          severity: 'error',
          line: 4,
          token: '"labels.txt"',
          data: { labelFilename: 'labels.txt', output: 'output', path: `${MODEL_DIR}/labels.txt`, model: 'classifier', modelDir: 'classifier/' },
        },
      ],
    },
    {
      name: '.. out of the model directory: refused before any read, with the path as core spells it',
      files: repo('../labels.txt', { 'labels.txt': 'cat\n' }),
      targets: ['classifier'],
      errors: [
        {
          messageId: 'outsideModelDirectory',
          data: {
            labelFilename: '../labels.txt',
            output: 'output',
            path: `${MODEL_DIR}/../labels.txt`,
            model: 'classifier',
            modelDir: 'classifier/',
            release: '26.08',
          },
        },
      ],
    },
    {
      name: '.. out of the model directory, for 26.02, the first release that refuses it',
      files: repo('../labels.txt', { 'labels.txt': 'cat\n' }),
      targets: ['classifier'],
      settings: { triton: '26.02' },
      errors: [{ messageId: 'outsideModelDirectory', data: { path: `${MODEL_DIR}/../labels.txt`, release: '26.02' } }],
    },
    {
      name: '.. out of the model directory to a file that is not there, for 26.01: the read fails',
      files: repo('../labels.txt'),
      targets: ['classifier'],
      settings: { triton: '26.01' },
      errors: [{ messageId: 'missing', data: { path: `${MODEL_DIR}/../labels.txt` } }],
    },
    {
      name: 'a directory where the file should be',
      files: repo('labels', { 'classifier/labels/x': '' }),
      targets: ['classifier'],
      errors: [{ messageId: 'missing', data: { labelFilename: 'labels', path: `${MODEL_DIR}/labels` } }],
    },
  ],
});
