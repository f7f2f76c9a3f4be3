// Unsaved text laid over the disk (an editor's buffer) gives exactly the findings of the same text
// saved there: the workspace's overlay is the disk, as far as every rule can tell.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../src/config/schema.js';
import { printConfig } from '../../src/config/print.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { lintSync, lintText } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';
import { messageArb } from '../support/arbitrary-config.js';
import { diskAndOverlay, shown } from '../support/overlay.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';

describe('overlay == disk', () => {
  it('for generated configs, whatever the disk holds at that path', async () => {
    const repo = await writeRepo({
      'classifier/1/model.onnx': CLASSIFIER,
      'pipeline/config.pbtxt':
        'platform: "ensemble"\nmax_batch_size: 8\nensemble_scheduling { step [ { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUT" } } ] }\n',
      'pipeline/1/.keep': '',
    });
    const file = join(repo, 'classifier', 'config.pbtxt');
    const config = messageArb(loadSchema().modelConfig, 3).map((v) => printConfig(v as ModelConfig));
    const text = fc.oneof(config, fc.constantFrom(CLASSIFIER_CONFIG, ...FIXTURE_CONFIGS.map((c) => c.text)));
    let findings = 0;
    fc.assert(
      fc.property(text, fc.constantFrom(undefined, '', 'max_batch_size: 1\n', CLASSIFIER_CONFIG), (t, onDisk) => {
        const { disk, overlay } = diskAndOverlay(file, t, onDisk);
        expect(overlay).toEqual(disk);
        findings += disk.length;
      }),
      { numRuns: 60 },
    );
    // The property is about something: the generated configs draw findings.
    expect(findings).toBeGreaterThan(60);
  });

  it('in a directory that does not exist on disk: the overlay brings its directories with it', async () => {
    const repo = await writeRepo({ 'other/config.pbtxt': 'max_batch_size: 0\n' });
    const file = join(repo, 'fresh', 'config.pbtxt');
    const overlay = lintText(CLASSIFIER_CONFIG.replace('classifier', 'fresh'), { file, rules: RULES })
      .results.flatMap((r) => r.diagnostics)
      .map(shown);
    mkdirSync(join(repo, 'fresh'));
    writeFileSync(file, CLASSIFIER_CONFIG.replace('classifier', 'fresh'));
    const disk = lintSync([file], { rules: RULES })
      .results.flatMap((r) => r.diagnostics)
      .map(shown);
    expect(overlay).toEqual(disk);
    expect(disk.some((d) => d.includes('version-dirs'))).toBe(true);
  });
});

describe('workspace', () => {
  it('lists an overlay file and its directories, and forgets them when cleared', async () => {
    const repo = await writeRepo({ 'a/config.pbtxt': 'max_batch_size: 0\n' });
    const ws = new Workspace();
    ws.setText(join(repo, 'b', '1', 'note.txt'), 'hello');
    expect(ws.tree.kind(join(repo, 'b'))).toBe('dir');
    expect(
      ws.tree
        .entries(repo)
        .map((e) => `${e.name}:${e.kind}`)
        .sort(),
    ).toEqual(['a:dir', 'b:dir']);
    expect(ws.tree.entries(join(repo, 'b', '1'))).toEqual([{ name: 'note.txt', kind: 'file' }]);
    expect(ws.sources.text(join(repo, 'b', '1', 'note.txt'))).toEqual({ kind: 'text', text: 'hello' });
    ws.clearOverlay(join(repo, 'b', '1', 'note.txt'));
    expect(ws.tree.kind(join(repo, 'b'))).toBeUndefined();
    expect(ws.tree.entries(repo).map((e) => e.name)).toEqual(['a']);
  });

  it('keeps a parsed config across runs while its file is unchanged, and reads it again when it changes', async () => {
    // (A workspace for one run reads the file again each run; this one keeps it.)
    const repo = await writeRepo({ 'a/config.pbtxt': 'max_batch_size: 0\n' });
    const file = join(repo, 'a', 'config.pbtxt');
    const ws = new Workspace({ acrossRuns: true });
    const first = ws.config(file);
    ws.newRun();
    expect(ws.config(file)).toBe(first);
    writeFileSync(file, 'max_batch_size: 16\n');
    ws.newRun();
    const second = ws.config(file);
    expect(second).not.toBe(first);
    expect('value' in second && second.value.max_batch_size).toBe(16);
  });

  it('an overlay wins over the file on disk, and the disk is back when it is cleared', async () => {
    const repo = await writeRepo({ 'a/config.pbtxt': 'max_batch_size: 0\n' });
    const file = join(repo, 'a', 'config.pbtxt');
    const ws = new Workspace();
    ws.setText(file, 'max_batch_size: 16\n');
    const over = ws.config(file);
    expect('value' in over && over.value.max_batch_size).toBe(16);
    ws.clearOverlay(file);
    const disk = ws.config(file);
    expect('value' in disk && disk.value.max_batch_size).toBe(0);
  });
});

describe('workspace: repository facts', () => {
  it('the ensembles that run a model, and what each GPU holds', async () => {
    const repo = await writeRepo({
      'classifier/config.pbtxt': `${CLASSIFIER_CONFIG}instance_group [ { kind: KIND_GPU count: 2 gpus: [ 1 ] } ]\n`,
      'classifier/1/model.onnx': { ...CLASSIFIER, externalBytes: 1000 },
      'pipeline/config.pbtxt': 'platform: "ensemble"\nmax_batch_size: 8\nensemble_scheduling { step [ { model_name: "classifier" model_version: -1 } ] }\n',
      'pipeline/1/.keep': '',
      'notes/README': 'not a model',
    });
    const ws = new Workspace();
    const r = ws.repository(repo);
    expect(r.modelDirs()).toEqual([join(repo, 'classifier'), join(repo, 'pipeline')]);
    expect(r.ensemblesUsing(new Set(['classifier']))).toEqual([join(repo, 'pipeline')]);
    expect(r.ensemblesUsing(new Set(['other']))).toEqual([]);
    // Two instances on GPU 1 only; the ensemble holds no memory.
    expect(r.gpuLoads(2, 10)).toEqual([
      { gpus: [1], shares: [{ dir: join(repo, 'classifier'), group: 0, instances: 2, bytesPerInstance: 1010, weightBytes: 1000 }], totalBytes: 2020 },
    ]);
  });
});
