// The TensorFlow SavedModel reader: the inputs and outputs Triton's TensorFlow backend serves, read
// from <model.savedmodel>/saved_model.pb without TensorFlow and without decoding the graph.
//
// What the backend loads (tensorflow_backend mirror/tensorflow_backend_tf.cc
// TRITONTF_ModelCreateFromSavedModel): tensorflow::LoadSavedModel with the tag set { "serve" }
// (tensorflow::kSavedModelTagServe; config parameter TF_GRAPH_TAG names another), which takes the
// meta graph whose tags are exactly that set (tensorflow/cc/saved_model/reader.cc FindMetaGraphDef:
// `graph_tags == tags`); then signature_def "serving_default" (parameter TF_SIGNATURE_DEF names
// another), or, without it, the first signature that is neither "__saved_model_init_op" nor
// "__saved_model_train_op" (protobuf map order; tritonc takes the file's order). Each signature
// input/output becomes a Triton tensor named by its signature KEY (TRITONTF_IOListNew(sin.first,
// sin.second.name(), ...): the graph tensor name "x:0" is the in-model name only), with the
// TensorInfo's dtype through the backend's ConvertDataType and the shape's dim sizes (-1 unknown;
// no dims at all, unknown_rank included, is rank 0, which the backend fills from the config).
//
// Field numbers (tensorflow/core/protobuf/saved_model.proto, meta_graph.proto,
// tensorflow/core/framework/tensor_shape.proto, types.proto):
//   SavedModel      { int64 saved_model_schema_version = 1; repeated MetaGraphDef meta_graphs = 2; }
//   MetaGraphDef    { MetaInfoDef meta_info_def = 1; GraphDef graph_def = 2; SaverDef saver_def = 3;
//                     map<string, CollectionDef> collection_def = 4; map<string, SignatureDef> signature_def = 5;
//                     repeated AssetFileDef asset_file_def = 6; SavedObjectGraph object_graph_def = 7; }
//   MetaInfoDef     { string meta_graph_version = 1; OpList stripped_op_list = 2; Any any_info = 3;
//                     repeated string tags = 4; string tensorflow_version = 5; string tensorflow_git_version = 6; ... }
//   SignatureDef    { map<string, TensorInfo> inputs = 1; map<string, TensorInfo> outputs = 2; string method_name = 3; ... }
//   TensorInfo      { oneof encoding { string name = 1; CooSparse coo_sparse = 4; CompositeTensor composite_tensor = 5; }
//                     DataType dtype = 2; TensorShapeProto tensor_shape = 3; }
//   TensorShapeProto { repeated Dim dim = 2; bool unknown_rank = 3; }   Dim { int64 size = 1; string name = 2; }
//   a map entry     { key = 1; value = 2; }
// Only meta_info_def's tags and the signature_def map are decoded; graph_def, saver_def, collections,
// assets and the object graph are skipped by their lengths.
//
// The weights are the files of <model.savedmodel>/variables/ (variables.index, variables.data-*):
// their sizes are taken with stat, never read. The directory need not exist (a model without variables).
import fs from 'node:fs';
import { join } from 'node:path';
import { ModelReadError } from '../model-file/errors.js';
import { ioError, withModelFileSync } from '../model-file/open.js';
import { LFS_POINTER_MAX_BYTES, lfsPointerError, lfsPointerOf } from '../model-file/lfs-pointer.js';
import type { Dim, MetadataEntry, ModelSignature, TensorInfo } from '../model-file/signature.js';
import { tfDataType } from './tf-data-types.js';
import { WIRE_LEN, WIRE_VARINT } from '../model-file/protobuf.js';
import { Cursor, SAVEDMODEL_FORMAT, type ByteSource } from './wire.js';

export { SAVEDMODEL_FORMAT };

/** The file in a SavedModel directory that holds its graphs and signatures. */
export const SAVED_MODEL_PB = 'saved_model.pb';
/** The text form TensorFlow also loads when there is no saved_model.pb (reader.cc ReadSavedModel). */
export const SAVED_MODEL_PBTXT = 'saved_model.pbtxt';
/** The directory of the variables' checkpoint (tensorflow/cc/saved_model/constants.h kSavedModelVariablesDirectory). */
export const VARIABLES_DIR = 'variables';

/** tensorflow::kSavedModelTagServe: the tag set the backend loads unless TF_GRAPH_TAG says otherwise. */
export const SERVE_TAG = 'serve';
/** The signature the backend takes unless TF_SIGNATURE_DEF says otherwise. */
export const DEFAULT_SIGNATURE = 'serving_default';
const NOT_SERVING = new Set(['__saved_model_init_op', '__saved_model_train_op']);

/**
 * The most saved_model.pb may hold: protobuf refuses a message of 2 GiB or more (TensorFlow cannot
 * write or read one either), so a larger file is not a SavedModel.
 */
export const MAX_SAVED_MODEL_BYTES = 2 ** 31 - 1;

/** Guards against a corrupt file claiming millions of entries: far above any real model. */
const MAX_ENTRIES = 100_000;
const MAX_RANK = 1024;

/** Reads the serving signature of the SavedModel directory `dir`. Throws ModelReadError. */
export function readSavedModelSync(dir: string): ModelSignature {
  let dirStat: fs.Stats;
  try {
    dirStat = fs.statSync(dir);
  } catch (e) {
    // ENOTDIR: a file where a directory of the path should be.
    if ((e as NodeJS.ErrnoException | null)?.code === 'ENOTDIR') throw notDirectory(dir);
    throw ioError(dir, SAVEDMODEL_FORMAT, e);
  }
  if (!dirStat.isDirectory()) throw notDirectory(dir);
  const pb = join(dir, SAVED_MODEL_PB);
  try {
    return withModelFileSync(pb, SAVEDMODEL_FORMAT, (f) => signatureOf(dir, pb, f, variablesOnDisk(dir)));
  } catch (e) {
    if (e instanceof ModelReadError && e.file === pb && e.messageId === 'noSuchFile') throw missingPb(dir, fs.existsSync(join(dir, SAVED_MODEL_PBTXT)));
    throw e;
  }
}

const notDirectory = (dir: string): ModelReadError => new ModelReadError('io', dir, null, { messageId: 'savedModelNotDirectory', data: {} });

/**
 * The signature of a SavedModel held in memory (a test's repository): `pb` is saved_model.pb's bytes,
 * `variables` the sizes of the variables/ files by name.
 */
export function readSavedModelOfBytes(dir: string, pb: Uint8Array, variables: Readonly<Record<string, number>> = {}): ModelSignature {
  const source: ByteSource = {
    size: pb.length,
    read(buffer, offset, length, position) {
      const part = pb.subarray(position, position + length);
      buffer.set(part, offset);
      return part.length;
    },
  };
  return signatureOf(
    dir,
    join(dir, SAVED_MODEL_PB),
    source,
    Object.entries(variables).map(([name, size]) => ({ name, size })),
  );
}

function missingPb(dir: string, hasText: boolean): ModelReadError {
  return hasText
    ? new ModelReadError('format', dir, null, { messageId: 'savedModelPbtxt', data: { pbtxt: SAVED_MODEL_PBTXT, pb: SAVED_MODEL_PB } })
    : new ModelReadError('io', dir, null, { messageId: 'savedModelNoPb', data: { pb: SAVED_MODEL_PB } });
}

/** The regular files of <dir>/variables with their sizes (stat only); none when there is no such directory. */
function variablesOnDisk(dir: string): { name: string; size: number }[] {
  const vars = join(dir, VARIABLES_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(vars);
  } catch {
    return [];
  }
  const out: { name: string; size: number }[] = [];
  for (const name of names.sort()) {
    try {
      const s = fs.statSync(join(vars, name));
      if (s.isFile()) out.push({ name, size: s.size });
    } catch {
      // a file removed while listing: not counted
    }
  }
  return out;
}

interface SignatureSpan {
  key: string;
  start: number;
  end: number;
}

interface MetaGraph {
  tags: string[];
  signatures: SignatureSpan[];
}

function signatureOf(dir: string, pb: string, source: ByteSource, variables: { name: string; size: number }[]): ModelSignature {
  const c: Cursor = new Cursor(pb, source);
  if (source.size === 0) c.fail({ messageId: 'savedModelEmpty', data: {} }, 0);
  if (source.size > MAX_SAVED_MODEL_BYTES) c.fail({ messageId: 'savedModelTooLarge', data: { size: source.size } }, 0);
  if (source.size <= LFS_POINTER_MAX_BYTES) {
    const pointer = lfsPointerOf(c.head(source.size).toString('utf8'));
    if (pointer) throw lfsPointerError(pb, pointer, SAVEDMODEL_FORMAT);
  }
  const graphs = readSavedModel(c);
  if (!graphs.length) c.fail({ messageId: 'savedModelNoMetaGraph', data: {} }, 0);
  const serving = graphs.find((g) => sameSet(g.tags, [SERVE_TAG]));
  if (!serving) {
    const sets = graphs.map((g) => `{ ${g.tags.join(' ')} }`).join(', ');
    c.fail({ messageId: 'savedModelNoServeTag', data: { tag: SERVE_TAG, sets } }, 0);
  }
  const chosen = serving.signatures.find((s) => s.key === DEFAULT_SIGNATURE) ?? serving.signatures.find((s) => !NOT_SERVING.has(s.key));
  if (!chosen) {
    c.fail({ messageId: 'savedModelNoSignature', data: { tag: SERVE_TAG, signature: DEFAULT_SIGNATURE } }, 0);
  }
  const { inputs, outputs } = readSignatureDef(c, chosen);
  const weightBytes = variables.reduce((n, v) => n + v.size, 0);
  const metadata: MetadataEntry[] = [
    { key: 'tags', value: serving.tags.join(',') },
    { key: 'signature_def', value: chosen.key },
    { key: 'signature_defs', value: serving.signatures.map((s) => s.key).join(',') },
  ];
  return {
    path: dir,
    format: 'savedmodel',
    irVersion: 0,
    producer: { name: 'tensorflow', version: '' },
    opsets: [],
    inputs,
    outputs,
    initializers: { count: variables.length, bytes: weightBytes, externalBytes: weightBytes, constantBytes: 0 },
    batchable: supportsBatch([...inputs, ...outputs]),
    metadata,
    overridableInitializers: [],
    weightsInline: variables.length === 0,
    externalDataFiles: [SAVED_MODEL_PB, ...(variables.length ? [VARIABLES_DIR] : []), ...variables.map((v) => `${VARIABLES_DIR}/${v.name}`)],
  };
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
};

/**
 * The backend's ModelSupportsBatch (tensorflow_backend src/tensorflow_utils.cc): every tensor of
 * rank > 0 has -1 as its first dimension (rank 0 does not count against it).
 */
function supportsBatch(tensors: readonly TensorInfo[]): boolean {
  return tensors.every((t) => t.shape === null || t.shape.length === 0 || t.shape[0] === -1);
}

function readSavedModel(c: Cursor): MetaGraph[] {
  const end = c.size;
  const graphs: MetaGraph[] = [];
  while (c.pos < end) {
    const tag = c.tag(end);
    if (tag.field === 2) {
      c.expect(tag, WIRE_LEN, 'SavedModel.meta_graphs');
      if (graphs.length >= MAX_ENTRIES) c.fail({ messageId: 'savedModelTooManyMetaGraphs', data: { max: MAX_ENTRIES } }, tag.at);
      graphs.push(readMetaGraph(c, c.lengthEnd(end, 'SavedModel.meta_graphs')));
    } else {
      c.skip(tag, end);
    }
  }
  return graphs;
}

function readMetaGraph(c: Cursor, end: number): MetaGraph {
  const g: MetaGraph = { tags: [], signatures: [] };
  // Where each signature key is in g.signatures: a search per entry grew with the square of them (100,000 allowed).
  const signatureAt = new Map<string, number>();
  while (c.pos < end) {
    const tag = c.tag(end);
    if (tag.field === 1) {
      c.expect(tag, WIRE_LEN, 'MetaGraphDef.meta_info_def');
      const infoEnd = c.lengthEnd(end, 'MetaGraphDef.meta_info_def');
      while (c.pos < infoEnd) {
        const t = c.tag(infoEnd);
        if (t.field === 4) {
          c.expect(t, WIRE_LEN, 'MetaInfoDef.tags');
          if (g.tags.length >= MAX_ENTRIES) c.fail({ messageId: 'savedModelTooManyTags', data: { max: MAX_ENTRIES } }, t.at);
          g.tags.push(c.string(infoEnd, 'MetaInfoDef.tags'));
        } else c.skip(t, infoEnd);
      }
    } else if (tag.field === 5) {
      c.expect(tag, WIRE_LEN, 'MetaGraphDef.signature_def');
      if (g.signatures.length >= MAX_ENTRIES) c.fail({ messageId: 'savedModelTooManySignatures', data: { max: MAX_ENTRIES } }, tag.at);
      const entryEnd = c.lengthEnd(end, 'MetaGraphDef.signature_def');
      let key = '';
      let span: { start: number; end: number } | undefined;
      while (c.pos < entryEnd) {
        const t = c.tag(entryEnd);
        if (t.field === 1) {
          c.expect(t, WIRE_LEN, 'MetaGraphDef.signature_def.key');
          key = c.string(entryEnd, 'MetaGraphDef.signature_def.key');
        } else if (t.field === 2) {
          c.expect(t, WIRE_LEN, 'MetaGraphDef.signature_def.value');
          const valueEnd = c.lengthEnd(entryEnd, 'MetaGraphDef.signature_def.value');
          span = { start: c.pos, end: valueEnd };
          c.pos = valueEnd;
        } else c.skip(t, entryEnd);
      }
      // A later entry with the same key replaces an earlier one, as protobuf's map parsing does.
      const at = signatureAt.get(key);
      const entry = { key, start: span?.start ?? entryEnd, end: span?.end ?? entryEnd };
      if (at !== undefined) g.signatures[at] = entry;
      else {
        signatureAt.set(key, g.signatures.length);
        g.signatures.push(entry);
      }
    } else {
      // graph_def (2) above all: node bodies and constants are skipped by length, never read.
      c.skip(tag, end);
    }
  }
  return g;
}

function readSignatureDef(c: Cursor, span: SignatureSpan): { inputs: TensorInfo[]; outputs: TensorInfo[] } {
  const inputs = new Map<string, TensorInfo>();
  const outputs = new Map<string, TensorInfo>();
  c.pos = span.start;
  while (c.pos < span.end) {
    const tag = c.tag(span.end);
    if (tag.field === 1 || tag.field === 2) {
      const side = tag.field === 1 ? inputs : outputs;
      c.expect(tag, WIRE_LEN, tag.field === 1 ? 'SignatureDef.inputs' : 'SignatureDef.outputs');
      if (side.size >= MAX_ENTRIES) c.fail({ messageId: 'savedModelTooManyTensors', data: { max: MAX_ENTRIES } }, tag.at);
      const entryEnd = c.lengthEnd(span.end, tag.field === 1 ? 'SignatureDef.inputs' : 'SignatureDef.outputs');
      let key = '';
      let info: TensorInfo | undefined;
      while (c.pos < entryEnd) {
        const t = c.tag(entryEnd);
        if (t.field === 1) {
          c.expect(t, WIRE_LEN, 'SignatureDef.inputs.key');
          key = c.string(entryEnd, 'SignatureDef.inputs.key');
        } else if (t.field === 2) {
          c.expect(t, WIRE_LEN, 'SignatureDef.inputs.value');
          info = readTensorInfo(c, c.lengthEnd(entryEnd, 'SignatureDef.inputs.value'));
        } else c.skip(t, entryEnd);
      }
      const t = info ?? emptyTensor();
      side.set(key, { ...t, name: key });
    } else c.skip(tag, span.end);
  }
  return { inputs: [...inputs.values()], outputs: [...outputs.values()] };
}

const emptyTensor = (): TensorInfo => ({ name: '', kind: 'tensor', elemType: 'DT_INVALID', tritonType: null, shape: [] });

function readTensorInfo(c: Cursor, end: number): TensorInfo {
  let dtype = 0;
  let shape: Dim[] = [];
  let unknownRank = false;
  let encoding: 'name' | 'coo_sparse' | 'composite_tensor' = 'name';
  while (c.pos < end) {
    const tag = c.tag(end);
    if (tag.field === 2) {
      c.expect(tag, WIRE_VARINT, 'TensorInfo.dtype');
      const v = c.uvarint(end, 'TensorInfo.dtype');
      dtype = v > 0xffffffff ? -1 : v;
    } else if (tag.field === 3) {
      c.expect(tag, WIRE_LEN, 'TensorInfo.tensor_shape');
      const shapeEnd = c.lengthEnd(end, 'TensorInfo.tensor_shape');
      shape = [];
      unknownRank = false;
      while (c.pos < shapeEnd) {
        const t = c.tag(shapeEnd);
        if (t.field === 2) {
          c.expect(t, WIRE_LEN, 'TensorShapeProto.dim');
          if (shape.length >= MAX_RANK) c.fail({ messageId: 'savedModelRankTooLarge', data: { max: MAX_RANK } }, t.at);
          const dimEnd = c.lengthEnd(shapeEnd, 'TensorShapeProto.dim');
          let size = 0;
          while (c.pos < dimEnd) {
            const d = c.tag(dimEnd);
            if (d.field === 1) {
              c.expect(d, WIRE_VARINT, 'Dim.size');
              size = c.int64(dimEnd, 'Dim.size');
            } else c.skip(d, dimEnd);
          }
          // As the backend reads it: -1 is an unknown size (TensorShapeProto.Dim), kept as written.
          shape.push(size);
        } else if (t.field === 3) {
          c.expect(t, WIRE_VARINT, 'TensorShapeProto.unknown_rank');
          unknownRank = c.uvarint(shapeEnd, 'TensorShapeProto.unknown_rank') !== 0;
        } else c.skip(t, shapeEnd);
      }
    } else if (tag.field === 4 || tag.field === 5) {
      encoding = tag.field === 4 ? 'coo_sparse' : 'composite_tensor';
      c.skip(tag, end);
    } else if (tag.field === 1) {
      encoding = 'name';
      c.skip(tag, end);
    } else c.skip(tag, end);
  }
  const type = tfDataType(dtype);
  return {
    name: '',
    kind: encoding === 'coo_sparse' ? 'sparse_tensor' : encoding === 'composite_tensor' ? 'opaque' : 'tensor',
    elemType: type.name,
    tritonType: type.triton,
    // The backend sees only the dim list: no dims (unknown_rank too) is rank 0, filled from the config.
    shape: unknownRank ? null : shape,
  };
}
