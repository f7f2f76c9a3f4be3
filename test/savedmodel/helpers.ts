// Shared by the SavedModel tests: the committed exports (scripts/model-exports/tensorflow/export.py)
// and a writer for hand-made saved_model.pb files (only for the malformed cases).
import fs from 'node:fs';
import path from 'node:path';
import { bytesField, intField, stringField } from '../../fixtures/onnx/proto-writer.js';
import { ROOT } from '../support/snapshot.js';

export const TF_FIXTURES = path.join(ROOT, 'fixtures', 'models', 'tensorflow');

/** The SavedModel directories the exporter writes, by model name. */
export const SAVED_MODELS = [
  'savedmodel_int32_int8_int8',
  'savedmodel_zero_2_float32',
  'savedmodel_nobatch_images_float32',
  'savedmodel_tf2_scale_float32',
  'savedmodel_unknown_rank_float32',
  'savedmodel_scalar_float32',
  'savedmodel_complex64',
] as const;

export const savedModelDir = (name: string, root = TF_FIXTURES): string => path.join(root, name, '1', 'model.savedmodel');
export const savedModelPb = (name: string): Buffer => fs.readFileSync(path.join(savedModelDir(name), 'saved_model.pb'));

/** What the reader must see in each export: key -> [DT type, Triton type, shape]. */
export const EXPECTED: Record<
  (typeof SAVED_MODELS)[number],
  {
    inputs: [string, string, string | null, (number | null)[] | null][];
    outputs: [string, string, string | null, (number | null)[] | null][];
    weightBytes: number;
  }
> = {
  savedmodel_int32_int8_int8: {
    inputs: [
      ['INPUT0', 'DT_INT32', 'TYPE_INT32', [-1, 16]],
      ['INPUT1', 'DT_INT32', 'TYPE_INT32', [-1, 16]],
    ],
    outputs: [
      ['OUTPUT0', 'DT_INT8', 'TYPE_INT8', [-1, 16]],
      ['OUTPUT1', 'DT_INT8', 'TYPE_INT8', [-1, 16]],
    ],
    weightBytes: 0,
  },
  savedmodel_zero_2_float32: {
    inputs: [
      ['INPUT0', 'DT_FLOAT', 'TYPE_FP32', [-1]],
      ['INPUT1', 'DT_FLOAT', 'TYPE_FP32', [-1, 4, 1, 2]],
    ],
    outputs: [
      ['OUTPUT0', 'DT_FLOAT', 'TYPE_FP32', [-1]],
      ['OUTPUT1', 'DT_FLOAT', 'TYPE_FP32', [-1, 4, 1, 2]],
    ],
    weightBytes: 0,
  },
  savedmodel_nobatch_images_float32: {
    inputs: [['input', 'DT_FLOAT', 'TYPE_FP32', [1, 256, 256, 256, 1]]],
    outputs: [['output', 'DT_FLOAT', 'TYPE_FP32', [1, 256, 256, 256, 14]]],
    weightBytes: 0,
  },
  savedmodel_tf2_scale_float32: {
    inputs: [['x', 'DT_FLOAT', 'TYPE_FP32', [-1, 16]]],
    outputs: [['output_0', 'DT_FLOAT', 'TYPE_FP32', [-1, 16]]],
    weightBytes: -1, // the variables/ files' sizes, taken from the directory
  },
  savedmodel_unknown_rank_float32: {
    inputs: [['INPUT0', 'DT_FLOAT', 'TYPE_FP32', null]],
    outputs: [['OUTPUT0', 'DT_FLOAT', 'TYPE_FP32', null]],
    weightBytes: 0,
  },
  savedmodel_scalar_float32: {
    inputs: [['INPUT0', 'DT_FLOAT', 'TYPE_FP32', []]],
    outputs: [['OUTPUT0', 'DT_FLOAT', 'TYPE_FP32', []]],
    weightBytes: 0,
  },
  savedmodel_complex64: {
    inputs: [['INPUT0', 'DT_COMPLEX64', null, [-1, 4]]],
    outputs: [['OUTPUT0', 'DT_COMPLEX64', null, [-1, 4]]],
    weightBytes: 0,
  },
};

// Hand-made protobufs, for the malformed cases only (field numbers: src/savedmodel/reader.ts).
export const dim = (size: number): Buffer => bytesField(2, intField(1, BigInt.asUintN(64, BigInt(size))));
export const shapeProto = (dims: number[] | null): Buffer => (dims === null ? intField(3, 1) : Buffer.concat(dims.map(dim)));
export const tensorInfo = (name: string, dtype: number, dims: number[] | null): Buffer =>
  Buffer.concat([stringField(1, name), intField(2, dtype), bytesField(3, shapeProto(dims))]);
export const mapEntry = (k: string, value: Buffer): Buffer => Buffer.concat([stringField(1, k), bytesField(2, value)]);
export const signatureDef = (inputs: [string, Buffer][], outputs: [string, Buffer][]): Buffer =>
  Buffer.concat([
    ...inputs.map(([k, v]) => bytesField(1, mapEntry(k, v))),
    ...outputs.map(([k, v]) => bytesField(2, mapEntry(k, v))),
    stringField(3, 'tensorflow/serving/predict'),
  ]);
export const metaGraph = (tags: string[], signatures: [string, Buffer][], graphDef: Buffer = Buffer.alloc(0)): Buffer =>
  Buffer.concat([
    bytesField(1, Buffer.concat(tags.map((t) => stringField(4, t)))),
    bytesField(2, graphDef),
    ...signatures.map(([k, v]) => bytesField(5, mapEntry(k, v))),
  ]);
export const savedModel = (...graphs: Buffer[]): Buffer => Buffer.concat([intField(1, 1), ...graphs.map((g) => bytesField(2, g))]);
