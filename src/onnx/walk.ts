// The ModelProto walk: decodes the few fields a signature needs and seeks past everything else.
//
// Exporters write graph inputs/outputs after every initializer byte and opset_import after the graph
// (torch, tf2onnx), so the walk always runs to the end of the file; its cost is one skip per node,
// initializer or other field, never proportional to the bytes skipped. Field numbers are ONNX's
// (onnx/onnx.proto); only fields tritonc uses are named here.

import { WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT, type Tag } from '../model-file/protobuf.js';
import { ByteWindow, HEADER_BYTES, type Io } from '../model-file/window.js';
import type { Dim } from '../model-file/signature.js';

/** A TypeProto as read, before names and Triton types are attached. */
export type RawType =
  | { kind: 'tensor' | 'sparse_tensor'; elem: number | null; shape: Dim[] | null }
  | { kind: 'sequence' | 'optional'; elem: RawType | null }
  | { kind: 'map'; key: number | null; value: RawType | null }
  | { kind: 'opaque' };

export interface RawValueInfo {
  /** The name as UTF-8 text (a byte outside UTF-8 as U+FFFD). */
  name: string;
  /** Where the name's bytes are not UTF-8: them, shown by bytesText. */
  notUtf8?: string;
  /** null when the ValueInfoProto has no type. */
  type: RawType | null;
}

export interface RawExternal {
  /** The tensor's name, for a finding about its location. */
  tensor: string;
  location: string | null;
  offset: number;
  /** The 'length' key, or null when absent or not a number. */
  length: number | null;
  dataType: number | null;
  /** The product of the tensor's dims; null when a dim is negative. Only the count is kept, not the dims. */
  elements: number | null;
}

export interface RawModel {
  irVersion: number | null;
  producerName: string;
  producerVersion: string;
  opsets: { domain: string; version: number }[];
  metadata: { key: string; value: string }[];
  hasGraph: boolean;
  inputs: RawValueInfo[];
  outputs: RawValueInfo[];
  initializerNames: Set<string>;
  initializerCount: number;
  /** Weight bytes stored in the model file itself (raw_data and typed *_data fields). */
  inlineBytes: number;
  /** The part of inlineBytes (and externals) held in Constant nodes of the main graph. */
  constantBytes: number;
  /** Tensors whose data_location is EXTERNAL; sized after the walk. */
  externals: RawExternal[];
}

/** TypeProto nesting deeper than this is refused (real models nest two or three levels). */
export const MAX_TYPE_DEPTH = 64;

/** Upper bound on decoded items (I/O entries, dims, opsets, metadata) so a crafted file cannot exhaust memory. */
export const MAX_DECODED_ITEMS = 10_000_000;

interface Budget {
  items: number;
}

export function* walkModel(w: ByteWindow): Io<RawModel> {
  const model: RawModel = {
    irVersion: null,
    producerName: '',
    producerVersion: '',
    opsets: [],
    metadata: [],
    hasGraph: false,
    inputs: [],
    outputs: [],
    initializerNames: new Set(),
    initializerCount: 0,
    inlineBytes: 0,
    constantBytes: 0,
    externals: [],
  };
  const budget: Budget = { items: 0 };
  const end = w.size;
  while (w.pos < end) {
    if (!w.ready(HEADER_BYTES, end)) yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    switch (tag.field) {
      case 1:
        w.expect(tag, WIRE_VARINT, 'ModelProto.ir_version');
        model.irVersion = w.int64(end, 'ModelProto.ir_version');
        break;
      case 2:
        w.expect(tag, WIRE_LEN, 'ModelProto.producer_name');
        model.producerName = yield* w.string(end, 'ModelProto.producer_name');
        break;
      case 3:
        w.expect(tag, WIRE_LEN, 'ModelProto.producer_version');
        model.producerVersion = yield* w.string(end, 'ModelProto.producer_version');
        break;
      case 7: {
        w.expect(tag, WIRE_LEN, 'ModelProto.graph');
        const graphEnd = w.lengthDelimited(end, 'ModelProto.graph');
        model.hasGraph = true;
        yield* walkGraph(w, graphEnd, model, budget);
        break;
      }
      case 8: {
        w.expect(tag, WIRE_LEN, 'ModelProto.opset_import');
        count(w, budget, tag);
        model.opsets.push(yield* walkOpset(w, w.lengthDelimited(end, 'ModelProto.opset_import')));
        break;
      }
      case 14: {
        w.expect(tag, WIRE_LEN, 'ModelProto.metadata_props');
        count(w, budget, tag);
        const entryEnd = w.lengthDelimited(end, 'ModelProto.metadata_props');
        const [key, value] = yield* walkStringPair(w, entryEnd, 'metadata_props');
        model.metadata.push({ key, value });
        break;
      }
      default:
        // doc_string, functions, training_info, ... : skipped by seeking.
        w.skip(tag, end);
    }
  }
  return model;
}

function count(w: ByteWindow, budget: Budget, tag: Tag): void {
  if (++budget.items > MAX_DECODED_ITEMS) {
    w.fail({ messageId: 'onnxTooManyItems', data: { max: MAX_DECODED_ITEMS } }, tag.at);
  }
}

function* walkGraph(w: ByteWindow, end: number, model: RawModel, budget: Budget): Io<void> {
  while (w.pos < end) {
    if (!w.ready(HEADER_BYTES, end)) yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    switch (tag.field) {
      case 5: {
        w.expect(tag, WIRE_LEN, 'GraphProto.initializer');
        const t = yield* walkTensor(w, w.lengthDelimited(end, 'GraphProto.initializer'), budget);
        addInitializer(model, t);
        break;
      }
      case 15: {
        w.expect(tag, WIRE_LEN, 'GraphProto.sparse_initializer');
        const parts = yield* walkSparseTensor(w, w.lengthDelimited(end, 'GraphProto.sparse_initializer'), budget);
        model.initializerCount++;
        if (parts.values) model.initializerNames.add(parts.values.name);
        for (const t of [parts.values, parts.indices]) {
          if (!t) continue;
          model.inlineBytes += t.inlineBytes;
          if (t.external) model.externals.push(t.external);
        }
        break;
      }
      case 11:
      case 12: {
        const what = tag.field === 11 ? 'GraphProto.input' : 'GraphProto.output';
        w.expect(tag, WIRE_LEN, what);
        count(w, budget, tag);
        const info = yield* walkValueInfo(w, w.lengthDelimited(end, what), budget);
        (tag.field === 11 ? model.inputs : model.outputs).push(info);
        break;
      }
      case 1: {
        // A Constant node's tensor is a weight like an initializer (paddle2onnx and spox keep weights there).
        w.expect(tag, WIRE_LEN, 'GraphProto.node');
        const tensors = yield* walkNodeConstants(w, w.lengthDelimited(end, 'GraphProto.node'), budget);
        for (const t of tensors) {
          model.inlineBytes += t.inlineBytes;
          model.constantBytes += t.inlineBytes;
          if (t.external) model.externals.push(t.external);
        }
        break;
      }
      default:
        // value_info, doc_string, ...: skipped.
        w.skip(tag, end);
    }
  }
}

/**
 * The tensors of a Constant node (NodeProto { op_type = 4, attribute = 5 }; AttributeProto { t = 5,
 * tensors = 10 }), sized like initializers; [] for any other node. Subgraphs (`g`) are not entered.
 */
function* walkNodeConstants(w: ByteWindow, end: number, budget: Budget): Io<RawTensor[]> {
  let opType = '';
  const tensors: RawTensor[] = [];
  while (w.pos < end) {
    if (!w.ready(HEADER_BYTES, end)) yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    if (tag.field === 4 && tag.wire === WIRE_LEN) opType = yield* w.string(end, 'NodeProto.op_type');
    else if (tag.field === 5 && tag.wire === WIRE_LEN) {
      const attrEnd = w.lengthDelimited(end, 'NodeProto.attribute');
      while (w.pos < attrEnd) {
        if (!w.ready(HEADER_BYTES, attrEnd)) yield* w.fill(HEADER_BYTES, attrEnd);
        const a = w.tag(attrEnd);
        if ((a.field === 5 || a.field === 10) && a.wire === WIRE_LEN)
          tensors.push(yield* walkTensor(w, w.lengthDelimited(attrEnd, 'AttributeProto.t'), budget));
        else w.skip(a, attrEnd);
      }
    } else w.skip(tag, end);
  }
  return opType === 'Constant' ? tensors : [];
}

function addInitializer(model: RawModel, t: RawTensor): void {
  model.initializerCount++;
  model.initializerNames.add(t.name);
  model.inlineBytes += t.inlineBytes;
  if (t.external) model.externals.push(t.external);
}

function* walkOpset(w: ByteWindow, end: number): Io<{ domain: string; version: number }> {
  let domain = '';
  let version = 0;
  while (w.pos < end) {
    yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    if (tag.field === 1) {
      w.expect(tag, WIRE_LEN, 'OperatorSetIdProto.domain');
      domain = yield* w.string(end, 'OperatorSetIdProto.domain');
    } else if (tag.field === 2) {
      w.expect(tag, WIRE_VARINT, 'OperatorSetIdProto.version');
      version = w.int64(end, 'OperatorSetIdProto.version');
    } else {
      w.skip(tag, end);
    }
  }
  return { domain, version };
}

/** StringStringEntryProto: key = 1, value = 2. */
function* walkStringPair(w: ByteWindow, end: number, what: string): Io<[string, string]> {
  let key = '';
  let value = '';
  while (w.pos < end) {
    yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    if (tag.field === 1) {
      w.expect(tag, WIRE_LEN, `${what}.key`);
      key = yield* w.string(end, `${what}.key`);
    } else if (tag.field === 2) {
      w.expect(tag, WIRE_LEN, `${what}.value`);
      value = yield* w.string(end, `${what}.value`);
    } else {
      w.skip(tag, end);
    }
  }
  return [key, value];
}

function* walkValueInfo(w: ByteWindow, end: number, budget: Budget): Io<RawValueInfo> {
  let name: { text: string; notUtf8?: string } = { text: '' };
  let type: RawType | null = null;
  while (w.pos < end) {
    yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    if (tag.field === 1) {
      w.expect(tag, WIRE_LEN, 'ValueInfoProto.name');
      name = yield* w.text(end, 'ValueInfoProto.name');
    } else if (tag.field === 2) {
      w.expect(tag, WIRE_LEN, 'ValueInfoProto.type');
      type = yield* walkType(w, w.lengthDelimited(end, 'ValueInfoProto.type'), 1, budget);
    } else {
      w.skip(tag, end); // doc_string, metadata_props
    }
  }
  return name.notUtf8 === undefined ? { name: name.text, type } : { name: name.text, notUtf8: name.notUtf8, type };
}

/** TypeProto: the `value` oneof (last one wins, as in protobuf); denotation is skipped. */
function* walkType(w: ByteWindow, end: number, depth: number, budget: Budget): Io<RawType | null> {
  if (depth > MAX_TYPE_DEPTH) w.fail({ messageId: 'onnxTypeTooDeep', data: { max: MAX_TYPE_DEPTH } });
  let type: RawType | null = null;
  while (w.pos < end) {
    yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    switch (tag.field) {
      case 1: // tensor_type
      case 8: {
        // sparse_tensor_type: same layout (elem_type = 1, shape = 2)
        const kind = tag.field === 1 ? 'tensor' : 'sparse_tensor';
        const what = `TypeProto.${kind}_type`;
        w.expect(tag, WIRE_LEN, what);
        const t = yield* walkTensorType(w, w.lengthDelimited(end, what), what, budget);
        type = { kind, ...t };
        break;
      }
      case 4: // sequence_type { elem_type: TypeProto = 1 }
      case 9: {
        // optional_type { elem_type: TypeProto = 1 }
        const kind = tag.field === 4 ? 'sequence' : 'optional';
        const what = `TypeProto.${kind}_type`;
        w.expect(tag, WIRE_LEN, what);
        const innerEnd = w.lengthDelimited(end, what);
        let elem: RawType | null = null;
        while (w.pos < innerEnd) {
          yield* w.fill(HEADER_BYTES, innerEnd);
          const t = w.tag(innerEnd);
          if (t.field === 1) {
            w.expect(t, WIRE_LEN, `${what}.elem_type`);
            elem = yield* walkType(w, w.lengthDelimited(innerEnd, `${what}.elem_type`), depth + 1, budget);
          } else {
            w.skip(t, innerEnd);
          }
        }
        type = { kind, elem };
        break;
      }
      case 5: {
        // map_type { key_type: int32 = 1, value_type: TypeProto = 2 }
        w.expect(tag, WIRE_LEN, 'TypeProto.map_type');
        const innerEnd = w.lengthDelimited(end, 'TypeProto.map_type');
        let key: number | null = null;
        let value: RawType | null = null;
        while (w.pos < innerEnd) {
          yield* w.fill(HEADER_BYTES, innerEnd);
          const t = w.tag(innerEnd);
          if (t.field === 1) {
            w.expect(t, WIRE_VARINT, 'TypeProto.map_type.key_type');
            key = w.int32(innerEnd, 'TypeProto.map_type.key_type');
          } else if (t.field === 2) {
            w.expect(t, WIRE_LEN, 'TypeProto.map_type.value_type');
            value = yield* walkType(w, w.lengthDelimited(innerEnd, 'TypeProto.map_type.value_type'), depth + 1, budget);
          } else {
            w.skip(t, innerEnd);
          }
        }
        type = { kind: 'map', key, value };
        break;
      }
      case 7:
        w.expect(tag, WIRE_LEN, 'TypeProto.opaque_type');
        w.skip(tag, end);
        type = { kind: 'opaque' };
        break;
      default:
        w.skip(tag, end);
    }
  }
  return type;
}

/** TypeProto.Tensor / TypeProto.SparseTensor: elem_type = 1, shape = 2. */
function* walkTensorType(w: ByteWindow, end: number, what: string, budget: Budget): Io<{ elem: number | null; shape: Dim[] | null }> {
  let elem: number | null = null;
  let shape: Dim[] | null = null;
  while (w.pos < end) {
    yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    if (tag.field === 1) {
      w.expect(tag, WIRE_VARINT, `${what}.elem_type`);
      elem = w.int32(end, `${what}.elem_type`);
    } else if (tag.field === 2) {
      w.expect(tag, WIRE_LEN, `${what}.shape`);
      // A repeated occurrence of a message field merges into the first: dims concatenate.
      const dims = yield* walkShape(w, w.lengthDelimited(end, `${what}.shape`), budget);
      shape = shape === null ? dims : shape.concat(dims);
    } else {
      w.skip(tag, end);
    }
  }
  return { elem, shape };
}

/** TensorShapeProto { repeated Dimension dim = 1 }; Dimension { dim_value = 1 | dim_param = 2, denotation = 3 }. */
function* walkShape(w: ByteWindow, end: number, budget: Budget): Io<Dim[]> {
  const dims: Dim[] = [];
  while (w.pos < end) {
    yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    if (tag.field !== 1) {
      w.skip(tag, end);
      continue;
    }
    w.expect(tag, WIRE_LEN, 'TensorShapeProto.dim');
    count(w, budget, tag);
    const dimEnd = w.lengthDelimited(end, 'TensorShapeProto.dim');
    let dim: Dim = null;
    while (w.pos < dimEnd) {
      yield* w.fill(HEADER_BYTES, dimEnd);
      const t = w.tag(dimEnd);
      if (t.field === 1) {
        w.expect(t, WIRE_VARINT, 'Dimension.dim_value');
        dim = w.int64(dimEnd, 'Dimension.dim_value');
      } else if (t.field === 2) {
        w.expect(t, WIRE_LEN, 'Dimension.dim_param');
        dim = yield* w.string(dimEnd, 'Dimension.dim_param');
      } else {
        w.skip(t, dimEnd);
      }
    }
    dims.push(dim);
  }
  return dims;
}

interface RawTensor {
  name: string;
  inlineBytes: number;
  external: RawExternal | null;
}

/**
 * TensorProto header: dims = 1, data_type = 2, name = 8, external_data = 13, data_location = 14.
 * Data fields (float_data 4, int32_data 5, string_data 6, int64_data 7, raw_data 9, double_data 10,
 * uint64_data 11) are measured and skipped, packed or not.
 */
function* walkTensor(w: ByteWindow, end: number, budget: Budget): Io<RawTensor> {
  let name = '';
  let dataType: number | null = null;
  // The dims matter only as their product (the size of external data without a length).
  let elements: number | null = 1;
  const dim = (d: number): void => {
    elements = elements === null || d < 0 ? null : elements * d;
  };
  let inlineBytes = 0;
  let location = 0;
  let extLocation: string | null = null;
  let extOffset = 0;
  let extLength: number | null = null;
  while (w.pos < end) {
    if (!w.ready(HEADER_BYTES, end)) yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    switch (tag.field) {
      case 1:
        if (tag.wire === WIRE_LEN) {
          const packedEnd = w.lengthDelimited(end, 'TensorProto.dims');
          // Every packed element counts against the budget: a corrupt length must not grow the list unbounded.
          while (w.pos < packedEnd) {
            if (!w.ready(HEADER_BYTES, packedEnd)) yield* w.fill(HEADER_BYTES, packedEnd);
            count(w, budget, tag);
            dim(w.int64(packedEnd, 'TensorProto.dims'));
          }
        } else {
          w.expect(tag, WIRE_VARINT, 'TensorProto.dims');
          count(w, budget, tag);
          dim(w.int64(end, 'TensorProto.dims'));
        }
        break;
      case 2:
        w.expect(tag, WIRE_VARINT, 'TensorProto.data_type');
        dataType = w.int32(end, 'TensorProto.data_type');
        break;
      case 8:
        w.expect(tag, WIRE_LEN, 'TensorProto.name');
        name = yield* w.string(end, 'TensorProto.name');
        break;
      case 13: {
        w.expect(tag, WIRE_LEN, 'TensorProto.external_data');
        const [key, value] = yield* walkStringPair(w, w.lengthDelimited(end, 'TensorProto.external_data'), 'external_data');
        if (key === 'location') extLocation = value;
        else if (key === 'offset') extOffset = parseDecimal(value) ?? 0;
        else if (key === 'length') extLength = parseDecimal(value);
        break;
      }
      case 14:
        w.expect(tag, WIRE_VARINT, 'TensorProto.data_location');
        location = w.int32(end, 'TensorProto.data_location');
        break;
      case 4: // float_data: packed, or unpacked fixed32
      case 5: // int32_data: packed, or unpacked varints
      case 6: // string_data: one length-delimited entry per element
      case 7: // int64_data: packed, or unpacked varints
      case 9: // raw_data
      case 10: // double_data: packed, or unpacked fixed64
      case 11: {
        // uint64_data: packed, or unpacked varints
        const what = `TensorProto.${DATA_FIELDS[tag.field]!.name}`;
        if (tag.wire !== WIRE_LEN) w.expect(tag, DATA_FIELDS[tag.field]!.wire, what);
        if (tag.wire === WIRE_LEN) {
          const dataEnd = w.lengthDelimited(end, what);
          inlineBytes += dataEnd - w.pos;
          w.pos = dataEnd;
        } else {
          const at = w.pos;
          w.skip(tag, end);
          inlineBytes += w.pos - at;
        }
        break;
      }
      default:
        w.skip(tag, end); // segment, doc_string, metadata_props
    }
  }
  const external = location === 1 ? { tensor: name, location: extLocation, offset: extOffset, length: extLength, dataType, elements } : null;
  return { name, inlineBytes, external };
}

/** SparseTensorProto { values: TensorProto = 1, indices: TensorProto = 2, dims = 3 }. */
function* walkSparseTensor(w: ByteWindow, end: number, budget: Budget): Io<{ values: RawTensor | null; indices: RawTensor | null }> {
  let values: RawTensor | null = null;
  let indices: RawTensor | null = null;
  while (w.pos < end) {
    yield* w.fill(HEADER_BYTES, end);
    const tag = w.tag(end);
    if (tag.field === 1 || tag.field === 2) {
      const what = tag.field === 1 ? 'SparseTensorProto.values' : 'SparseTensorProto.indices';
      w.expect(tag, WIRE_LEN, what);
      const t = yield* walkTensor(w, w.lengthDelimited(end, what), budget);
      if (tag.field === 1) values = t;
      else indices = t;
    } else {
      w.skip(tag, end);
    }
  }
  return { values, indices };
}

/** TensorProto data fields: name and the wire type of one unpacked element (LEN for bytes fields). */
const DATA_FIELDS: Record<number, { name: string; wire: number }> = {
  4: { name: 'float_data', wire: WIRE_I32 },
  5: { name: 'int32_data', wire: WIRE_VARINT },
  6: { name: 'string_data', wire: WIRE_LEN },
  7: { name: 'int64_data', wire: WIRE_VARINT },
  9: { name: 'raw_data', wire: WIRE_LEN },
  10: { name: 'double_data', wire: WIRE_I64 },
  11: { name: 'uint64_data', wire: WIRE_VARINT },
};

function parseDecimal(text: string): number | null {
  if (!/^\d{1,16}$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return Number.isSafeInteger(n) ? n : null;
}
