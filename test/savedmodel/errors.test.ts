// Bad SavedModels: every failure is a ModelReadError naming the file and, for the bytes, the offset;
// the graph is skipped by its length, never decoded; a file over the protobuf bound is refused.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesField, intField, key, stringField } from '../../fixtures/onnx/proto-writer.js';
import { ModelReadError } from '../../src/model-file/errors.js';
import { readSavedModelSync } from '../../src/savedmodel/index.js';
import { tempDir } from '../support/temp.js';
import { metaGraph, savedModel, signatureDef, tensorInfo } from './helpers.js';

let root: string;
beforeAll(() => {
  root = tempDir('tritonc-savedmodel-errors-');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A SavedModel directory holding `pb` as saved_model.pb. */
function dirWith(pb: Uint8Array | null, extra: Record<string, Uint8Array | string> = {}): string {
  const dir = path.join(root, `m${counter++}`, 'model.savedmodel');
  fs.mkdirSync(dir, { recursive: true });
  if (pb) fs.writeFileSync(path.join(dir, 'saved_model.pb'), pb);
  for (const [name, content] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

function failure(dir: string): ModelReadError {
  try {
    readSavedModelSync(dir);
  } catch (e) {
    expect(e).toBeInstanceOf(ModelReadError);
    return e as ModelReadError;
  }
  throw new Error(`read ${dir} without an error`);
}

const DT_FLOAT = 1;
const sig = signatureDef([['x', tensorInfo('x:0', DT_FLOAT, [-1, 3])]], [['y', tensorInfo('y:0', DT_FLOAT, [-1, 3])]]);
const good = savedModel(metaGraph(['serve'], [['serving_default', sig]]));

describe('SavedModel reader: what is not a SavedModel', () => {
  it('reads the hand-made good one', () => {
    const s = readSavedModelSync(dirWith(good));
    expect(s.inputs).toEqual([{ name: 'x', kind: 'tensor', elemType: 'DT_FLOAT', tritonType: 'TYPE_FP32', shape: [-1, 3] }]);
    expect(s.outputs.map((t) => t.name)).toEqual(['y']);
  });

  it('a path that is a file, not a directory', () => {
    const file = path.join(root, 'file.savedmodel');
    fs.writeFileSync(file, good);
    const e = failure(file);
    expect([e.kind, e.file, e.offset]).toEqual(['io', file, null]);
    expect(e.reason).toMatch(/is not a directory/);
  });

  it('a directory without saved_model.pb', () => {
    const dir = dirWith(null);
    const e = failure(dir);
    expect([e.kind, e.file]).toEqual(['io', dir]);
    expect(e.reason).toMatch(/has no saved_model\.pb/);
  });

  it('the text form only: said, not misread', () => {
    const e = failure(dirWith(null, { 'saved_model.pbtxt': 'saved_model_schema_version: 1\n' }));
    expect(e.kind).toBe('format');
    expect(e.reason).toMatch(/saved_model\.pbtxt, the text form/);
  });

  it('an empty file', () => {
    const e = failure(dirWith(Buffer.alloc(0)));
    expect([e.kind, e.offset]).toEqual(['format', 0]);
    expect(e.file).toMatch(/saved_model\.pb$/);
  });

  it('a Git LFS pointer', () => {
    const e = failure(dirWith(Buffer.from('version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 123456\n')));
    expect(e.lfsPointer).toEqual({ oid: 'sha256:abc', size: 123456 });
    expect(e).toMatchObject({ messageId: 'gitLfsPointer', data: { format: 'TensorFlow SavedModel', oid: 'sha256:abc', objectBytes: 123456 } });
    expect(e.reason).toMatch(/^not the TensorFlow SavedModel model: this is a Git LFS pointer/);
  });

  it('no meta graph', () => {
    expect(failure(dirWith(intField(1, 1))).reason).toMatch(/no meta graph/);
  });

  it('no meta graph tagged exactly { serve }: TensorFlow matches the whole tag set', () => {
    const e = failure(dirWith(savedModel(metaGraph(['train'], [['serving_default', sig]]), metaGraph(['serve', 'gpu'], [['serving_default', sig]]))));
    expect(e.reason).toMatch(/no meta graph is tagged exactly \{ serve \} \(the tag sets are \{ train \}, \{ serve gpu \}\)/);
    expect(e.reason).toMatch(/TF_GRAPH_TAG/);
  });

  it('no signature to serve', () => {
    const e = failure(dirWith(savedModel(metaGraph(['serve'], [['__saved_model_init_op', signatureDef([], [])]]))));
    expect(e.reason).toMatch(/no signature to serve \(no 'serving_default'\)/);
  });

  it('without serving_default, the first signature that is not the init or train op (tensorflow_backend TRITONTF_ModelCreateFromSavedModel)', () => {
    const other = signatureDef([['a', tensorInfo('a:0', 3, [4])]], []);
    const s = readSavedModelSync(
      dirWith(
        savedModel(
          metaGraph(
            ['serve'],
            [
              ['__saved_model_init_op', signatureDef([], [])],
              ['predict', other],
            ],
          ),
        ),
      ),
    );
    expect(s.inputs.map((t) => t.name)).toEqual(['a']);
    expect(s.metadata.find((m) => m.key === 'signature_def')?.value).toBe('predict');
  });

  // A hang bound, not a speed target: a search of the signatures for each entry's key grew with the
  // square of them (100,000 entries: 5e9 comparisons).
  it('100,000 signatures: a repeated key replaces the earlier entry, as protobuf map parsing does (issue 42)', { timeout: 60_000 }, () => {
    const other = signatureDef([['a', tensorInfo('a:0', 3, [4])]], []);
    const many: [string, Buffer][] = Array.from({ length: 99_998 }, (_, i) => [`s${i}`, signatureDef([], [])]);
    const s = readSavedModelSync(
      dirWith(savedModel(metaGraph(['serve'], [['serving_default', signatureDef([], [])], ...many, ['serving_default', sig], ['predict', other]]))),
    );
    expect(s.inputs.map((t) => t.name)).toEqual(['x']);
    expect(s.metadata.find((m) => m.key === 'signature_def')?.value).toBe('serving_default');
  });

  it('the serve graph among others, whatever their order', () => {
    const s = readSavedModelSync(dirWith(savedModel(metaGraph(['train'], []), metaGraph(['serve'], [['serving_default', sig]]))));
    expect(s.inputs.map((t) => t.name)).toEqual(['x']);
  });

  it('a length past the end: the byte offset of the length', () => {
    const bad = Buffer.concat([intField(1, 1), key(2, 2), Buffer.from([0x7f])]);
    const e = failure(dirWith(bad));
    expect([e.kind, e.offset]).toEqual(['format', 3]);
    expect(e.reason).toMatch(/claims 127 bytes but only 0 bytes remain/);
  });

  it('a truncated file', () => {
    const e = failure(dirWith(good.subarray(0, good.length - 5)));
    expect(e.kind).toBe('format');
    expect(e.offset).not.toBeNull();
  });

  it('a group (wire type 3), which TensorFlow never writes', () => {
    const e = failure(dirWith(Buffer.concat([key(5, 3)])));
    expect(e.reason).toMatch(/protobuf group/);
  });

  it('a wrong wire type for a field the walk reads', () => {
    const e = failure(dirWith(Buffer.concat([intField(2, 7)])));
    expect(e.reason).toMatch(/SavedModel\.meta_graphs \(field 2\) has wire type 0/);
  });

  it('the graph_def is skipped by its length, never decoded: garbage inside it reads fine', () => {
    const garbage = Buffer.alloc(200_000, 0xff);
    const s = readSavedModelSync(dirWith(savedModel(metaGraph(['serve'], [['serving_default', sig]], garbage))));
    expect(s.inputs.map((t) => t.name)).toEqual(['x']);
  });

  it('unknown rank, scalars, unsupported and reference types', () => {
    const s = readSavedModelSync(
      dirWith(
        savedModel(
          metaGraph(
            ['serve'],
            [
              [
                'serving_default',
                signatureDef(
                  [
                    ['u', tensorInfo('u:0', 7, null)],
                    ['s', tensorInfo('s:0', 9, [])],
                    ['c', tensorInfo('c:0', 8, [2])],
                    ['r', tensorInfo('r:0', 101, [2])],
                  ],
                  [['b', tensorInfo('b:0', 14, [-1])]],
                ),
              ],
            ],
          ),
        ),
      ),
    );
    expect(s.inputs.map((t) => [t.name, t.elemType, t.tritonType, t.shape])).toEqual([
      ['u', 'DT_STRING', 'TYPE_STRING', null],
      ['s', 'DT_INT64', 'TYPE_INT64', []],
      ['c', 'DT_COMPLEX64', null, [2]],
      ['r', 'DT_FLOAT_REF', null, [2]],
    ]);
    expect(s.outputs.map((t) => [t.name, t.elemType, t.tritonType])).toEqual([['b', 'DT_BFLOAT16', null]]);
  });

  it('a sparse signature tensor is not a dense one', () => {
    const sparse = Buffer.concat([bytesField(4, stringField(1, 'idx:0')), intField(2, 1)]);
    const s = readSavedModelSync(dirWith(savedModel(metaGraph(['serve'], [['serving_default', signatureDef([['sp', sparse]], [])]]))));
    expect(s.inputs[0]!.kind).toBe('sparse_tensor');
  });

  it('a file over the 2 GiB a protobuf may be is refused before any read (a sparse file)', () => {
    const dir = dirWith(null);
    const fd = fs.openSync(path.join(dir, 'saved_model.pb'), 'w');
    fs.ftruncateSync(fd, 2 ** 31);
    fs.closeSync(fd);
    const e = failure(dir);
    expect([e.kind, e.offset]).toEqual(['format', 0]);
    expect(e.reason).toMatch(/more than the 2 GiB a protobuf message may be/);
  });

  it('variables/ sized by stat, a missing one is no weights', () => {
    const s = readSavedModelSync(dirWith(good, { 'variables/variables.index': Buffer.alloc(10), 'variables/variables.data-00000-of-00001': Buffer.alloc(90) }));
    expect(s.initializers).toEqual({ count: 2, bytes: 100, externalBytes: 100, constantBytes: 0 });
    expect(readSavedModelSync(dirWith(good)).initializers.bytes).toBe(0);
  });
});
