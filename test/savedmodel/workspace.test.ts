// A long-lived workspace (watch, the language server) and a SavedModel rewritten in place: the
// directory keeps its identity, so its signature is read again each run, not kept by that identity.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Workspace } from '../../src/workspace/workspace.js';
import { tempDir } from '../support/temp.js';
import { savedModelPb } from './helpers.js';

const root = tempDir('tritonc-tf-ws-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('SavedModel signatures across runs', () => {
  it('sees saved_model.pb rewritten in place', () => {
    const dir = path.join(root, 'model.savedmodel');
    fs.mkdirSync(dir);
    const pb = path.join(dir, 'saved_model.pb');
    fs.writeFileSync(pb, savedModelPb('savedmodel_int32_int8_int8'));
    const ws = new Workspace({ acrossRuns: true });
    expect(ws.sources.signature(dir, 'tensorflow').signature?.inputs.map((t) => t.name)).toEqual(['INPUT0', 'INPUT1']);
    // Same file, new bytes: the directory's entries (and so its identity) do not change.
    const fd = fs.openSync(pb, 'r+');
    const next = savedModelPb('savedmodel_zero_2_float32');
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, next, 0, next.length, 0);
    fs.closeSync(fd);
    ws.newRun();
    expect(ws.sources.signature(dir, 'tensorflow').signature?.inputs.map((t) => [t.name, t.elemType])).toEqual([
      ['INPUT0', 'DT_FLOAT'],
      ['INPUT1', 'DT_FLOAT'],
    ]);
  });
});
