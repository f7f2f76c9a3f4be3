// The OpenVINO IR reader: model.xml's Parameter and Result layers as the OpenVINO backend sees them
// (openvino_backend src/openvino.cc: ov_model_->inputs() / outputs(), get_any_name(),
// get_partial_shape(), get_element_type(), ov::layout::get_layout), and the weights' size from the
// length of the .bin beside it, which is never opened (a stat).
//
// What OpenVINO's IR frontend does and this follows (openvino src/frontends/ir/src/ir_deserializer.cpp):
// - inputs are the top-level Parameter layers and outputs the top-level Result layers, in the order
//   the XML lists them (layers inside a TensorIterator/Loop/If body are the body's, not the model's);
// - a tensor's names are its port's comma-separated `names` ('\,' is a comma inside a name); a
//   Result's tensor is the one on the port that feeds it (its edge), and OpenVINO 2025 and later
//   also write the names on the Result layer itself (`output_names`), read first;
// - get_any_name() is the smallest of the names (a std::unordered_set copied to a sorted std::set);
// - a layout is the port's rt_info attribute `layout="[N,H]"`; ov::layout::has_batch is a dimension named N;
// - the weights are <stem>.bin beside the .xml; a Const layer reads [offset, offset + size) of it:
//   with no .bin OpenVINO fails ("Empty weights data in bin file or bin file cannot be found!"), and
//   with one too short for a Const ("Incorrect weights in bin file!").
import fs from 'node:fs';
import path from 'node:path';
import { ModelReadError } from '../model-file/errors.js';
import type { PlacedMessage, ReadMessage } from '../model-file/messages.js';
import { readWhole, withModelFileSync, type ModelFormat } from '../model-file/open.js';
import { LFS_POINTER_MAX_BYTES, lfsPointerError, lfsPointerOf } from '../model-file/lfs-pointer.js';
import type { Dim, ModelSignature, TensorInfo } from '../model-file/signature.js';
import { elementType, tritonTypeOf } from './elem-types.js';
import { anyName, hasBatch, splitNames } from './names.js';
import { tokenize, XmlError } from './xml.js';

/**
 * The largest model.xml read (64 MiB). The XML holds the graph only, never the weights: a large
 * language model's is a few MiB, so a file over this is not an IR (or is one no tool should parse whole).
 */
export const MAX_XML_BYTES = 64 * 1024 * 1024;

/** The format as the messages name it. */
export const OPENVINO_FORMAT: ModelFormat = 'OpenVINO IR';

/** The size of the regular file at a path, null when there is none. */
export type SizeOf = (file: string) => number | null;

/** Reads the signature of the IR at `file` (its model.xml); throws ModelReadError. */
export function readOpenVinoSync(file: string): ModelSignature {
  const bytes = withModelFileSync(file, OPENVINO_FORMAT, (f) => {
    // Bounded before a byte is read: the file is read whole, so its size is checked first.
    tooLarge(file, f.size);
    return readWhole(f);
  });
  return readOpenVinoOfBytes(file, bytes, diskSizeOf);
}

const diskSizeOf: SizeOf = (p) => {
  try {
    const s = fs.statSync(p);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
};

/** The signature of an IR whose model.xml is `bytes`; `sizeOf` answers the .bin's length (never read). */
export function readOpenVinoOfBytes(file: string, bytes: Uint8Array, sizeOf: SizeOf): ModelSignature {
  tooLarge(file, bytes.length);
  if (bytes.length === 0) throw new ModelReadError('format', file, 0, { messageId: 'openvinoEmpty', data: {} });
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (bytes.length <= LFS_POINTER_MAX_BYTES) {
    const pointer = lfsPointerOf(buffer.toString('utf8'));
    if (pointer) throw lfsPointerError(file, pointer, OPENVINO_FORMAT);
  }
  const nul = buffer.indexOf(0);
  if (nul >= 0) throw new ModelReadError('format', file, nul, { messageId: looksLikeOnnx(buffer) ? 'openvinoBinaryOnnx' : 'openvinoBinary', data: {} });
  const text = buffer.toString('utf8');
  if (text.includes('\uFFFD')) {
    // Offsets are counted in the text's UTF-8 bytes, so the text must be exactly the file's bytes.
    const again = Buffer.from(text);
    if (!again.equals(buffer)) {
      let at = 0;
      while (at < buffer.length && again[at] === buffer[at]) at++;
      throw new ModelReadError('format', file, at, { messageId: 'openvinoNotUtf8', data: {} });
    }
  }
  const ir = parseIr(file, text);
  return signatureOf(file, text, ir, sizeOf);
}

function tooLarge(file: string, size: number): void {
  if (size > MAX_XML_BYTES) {
    throw new ModelReadError('format', file, MAX_XML_BYTES, { messageId: 'openvinoTooLarge', data: { size, maxMiB: MAX_XML_BYTES / 1024 / 1024 } });
  }
}

/** A protobuf starting with ModelProto's ir_version tag (0x08): what model.onnx begins with. */
const looksLikeOnnx = (b: Buffer): boolean => b[0] === 0x08 && b.length > 2;

// ------------------------------------------------------------------------------------------ parsing

interface Port {
  id: string;
  precision: string | undefined;
  names: string | undefined;
  dims: { text: string; at: number }[];
  layout: string | undefined;
  at: number;
}

interface Layer {
  id: string;
  name: string;
  type: string;
  at: number;
  outputNames: string | undefined;
  data: Map<string, string> | undefined;
  dataAt: number;
  inputs: Port[];
  outputs: Port[];
  /** The output ports by id (the first of an id, as a search in file order finds), made on first use. */
  outputById?: Map<string, Port>;
  layout: string | undefined;
}

interface Ir {
  name: string;
  version: string;
  /** Top-level layers by id. */
  layers: Map<string, Layer>;
  /** Top-level Parameter and Result layers, in file order. */
  parameters: Layer[];
  results: Layer[];
  /** to-layer:to-port -> from-layer:from-port, for top-level edges. */
  edges: Map<string, { layer: string; port: string }>;
  consts: { name: string; offset: number; size: number; at: number }[];
}

function parseIr(file: string, text: string): Ir {
  const ir: Ir = { name: '', version: '', layers: new Map(), parameters: [], results: [], edges: new Map(), consts: [] };
  const stack: string[] = [];
  /** The type of each open <layer>, at any depth (Const layers of bodies read the same .bin). */
  const layerTypes: string[] = [];
  let layer: Layer | undefined;
  let port: Port | undefined;
  let dim: { text: string; at: number } | undefined;
  const fail = (at: number, problem: PlacedMessage): never => {
    throw formatError(file, text, at, problem);
  };
  const is = (...path: string[]): boolean => stack.length === path.length && path.every((p, i) => stack[i] === p);

  try {
    tokenize(text, {
      open(tag, attrs, at) {
        if (stack.length === 0) {
          if (tag !== 'net') fail(at, { messageId: 'openvinoNotNet', data: { tag } });
          ir.name = attrs.get('name') ?? '';
          ir.version = attrs.get('version') ?? '';
          if (ir.version !== '10' && ir.version !== '11') {
            fail(at, ir.version === '' ? { messageId: 'openvinoNoVersion', data: {} } : { messageId: 'openvinoVersion', data: { version: ir.version } });
          }
        }
        if (tag === 'layer') layerTypes.push(attrs.get('type') ?? '');
        if (tag === 'layer' && is('net', 'layers')) {
          const id = attrs.get('id');
          if (id === undefined) fail(at, { messageId: 'openvinoLayerNoId', data: {} });
          if (ir.layers.has(id!)) fail(at, { messageId: 'openvinoLayerIdTwice', data: { id: id! } });
          layer = {
            id: id!,
            name: attrs.get('name') ?? '',
            type: attrs.get('type') ?? '',
            at,
            outputNames: attrs.get('output_names'),
            data: undefined,
            dataAt: at,
            inputs: [],
            outputs: [],
            layout: undefined,
          };
          ir.layers.set(layer.id, layer);
          if (layer.type === 'Parameter') ir.parameters.push(layer);
          else if (layer.type === 'Result') ir.results.push(layer);
        } else if (tag === 'data' && stack[stack.length - 1] === 'layer' && layerTypes[layerTypes.length - 1] === 'Const') {
          const size = attrs.get('size');
          const offset = attrs.get('offset');
          if (size !== undefined || offset !== undefined) {
            const s = nonNegative(size ?? '0');
            const o = nonNegative(offset ?? '0');
            if (s === null) fail(at, { messageId: 'openvinoConstSize', data: { size: size! } });
            if (o === null) fail(at, { messageId: 'openvinoConstOffset', data: { offset: offset! } });
            ir.consts.push({ name: layer && is('net', 'layers', 'layer') ? layer.name : '', offset: o!, size: s!, at });
          }
          if (layer && is('net', 'layers', 'layer')) {
            layer.data = attrs;
            layer.dataAt = at;
          }
        } else if (tag === 'data' && layer && layer.type === 'Parameter' && is('net', 'layers', 'layer')) {
          layer.data = attrs;
          layer.dataAt = at;
        } else if (tag === 'port' && layer && (is('net', 'layers', 'layer', 'input') || is('net', 'layers', 'layer', 'output'))) {
          port = { id: attrs.get('id') ?? '', precision: attrs.get('precision'), names: attrs.get('names'), dims: [], layout: undefined, at };
          // Only a Result's input ports are read (what feeds an output); every layer's output ports may be.
          if (stack[3] === 'output') layer.outputs.push(port);
          else if (layer.type === 'Result') layer.inputs.push(port);
        } else if (tag === 'dim' && port && stack.length === 5 && stack[4] === 'port') {
          dim = { text: '', at };
        } else if (tag === 'attribute' && attrs.get('name') === 'layout') {
          if (port && stack.length === 6 && stack[4] === 'port' && stack[5] === 'rt_info') port.layout = attrs.get('layout') ?? attrs.get('value');
          else if (layer && is('net', 'layers', 'layer', 'rt_info')) layer.layout = attrs.get('layout') ?? attrs.get('value');
        } else if (tag === 'edge' && is('net', 'edges')) {
          const from = attrs.get('from-layer');
          const fromPort = attrs.get('from-port');
          const to = attrs.get('to-layer');
          const toPort = attrs.get('to-port');
          if (from === undefined || fromPort === undefined || to === undefined || toPort === undefined) {
            fail(at, { messageId: 'openvinoEdgeAttributes', data: {} });
          }
          ir.edges.set(`${to}:${toPort}`, { layer: from!, port: fromPort! });
        }
        stack.push(tag);
      },
      close(tag) {
        stack.pop();
        if (tag === 'layer') {
          layerTypes.pop();
          if (is('net', 'layers')) layer = undefined;
        } else if (tag === 'port' && stack.length === 4) port = undefined;
        else if (tag === 'dim' && dim && port && stack.length === 5) {
          port.dims.push(dim);
          dim = undefined;
        }
      },
      text(t) {
        if (dim) dim.text += t;
      },
    });
  } catch (e) {
    if (e instanceof XmlError) fail(e.at, e.problem);
    throw e;
  }
  return ir;
}

const nonNegative = (s: string): number | null => (/^\s*\d+\s*$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : null);

// ------------------------------------------------------------------------------------------ the signature

function signatureOf(file: string, text: string, ir: Ir, sizeOf: SizeOf): ModelSignature {
  const fail = (at: number, problem: PlacedMessage): never => {
    throw formatError(file, text, at, problem);
  };
  const inputs: TensorInfo[] = [];
  let everyLayoutBatches = true;
  for (const p of ir.parameters) {
    const out = p.outputs[0];
    const names = splitNames(out?.names);
    const written = p.data?.get('element_type') ?? out?.precision;
    const shapeText = p.data?.get('shape');
    const shape =
      shapeText !== undefined
        ? shapeOfAttribute(shapeText, p.dataAt, fail)
        : out
          ? shapeOfDims(out.dims, fail)
          : fail(p.at, { messageId: 'openvinoParameterNoShape', data: { layer: p.name } });
    const layout = out?.layout ?? p.layout;
    inputs.push(tensor(names.length ? anyName(names) : p.name, written, shape, layout));
    everyLayoutBatches &&= hasBatch(layout);
  }
  const outputs: TensorInfo[] = [];
  for (const r of ir.results) {
    const own = r.inputs[0];
    const edge = ir.edges.get(`${r.id}:${own?.id ?? '0'}`);
    const producer = edge ? ir.layers.get(edge.layer) : undefined;
    const source = producer ? outputPort(producer, edge!.port) : undefined;
    if (!own && !source) fail(r.at, { messageId: 'openvinoResultNoInput', data: { layer: r.name } });
    const names = r.outputNames !== undefined ? splitNames(r.outputNames) : splitNames(source?.names);
    const fallback = producer ? (producer.outputs.length > 1 ? `${producer.name}.${edge!.port}` : producer.name) : r.name;
    const written = own?.precision ?? source?.precision;
    const shape = shapeOfDims((own ?? source)!.dims, fail);
    const layout = own?.layout ?? source?.layout ?? r.layout;
    outputs.push(tensor(names.length ? anyName(names) : fallback, written, shape, layout));
    everyLayoutBatches &&= hasBatch(layout);
  }

  const bin = weightsFile(file);
  const binSize = sizeOf(bin);
  const used = ir.consts.filter((c) => c.size > 0);
  if (used.length && binSize === null) {
    const c = used[0]!;
    fail(c.at, { messageId: 'openvinoBinMissing', data: { bin: path.basename(bin), layer: c.name } });
  }
  const beyond = binSize === null ? undefined : used.find((c) => c.offset + c.size > binSize);
  if (beyond) {
    fail(beyond.at, {
      messageId: 'openvinoBinShort',
      data: { layer: beyond.name, from: beyond.offset, to: beyond.offset + beyond.size, bin: path.basename(bin), binBytes: binSize! },
    });
  }
  const bytes = binSize ?? 0;
  return {
    path: file,
    format: 'openvino',
    irVersion: 0,
    producer: { name: 'OpenVINO IR', version: ir.version },
    opsets: [],
    inputs,
    outputs,
    initializers: { count: ir.consts.length, bytes, externalBytes: bytes, constantBytes: 0 },
    batchable: everyLayoutBatches,
    metadata: ir.name ? [{ key: 'name', value: ir.name }] : [],
    overridableInitializers: [],
    weightsInline: false,
    externalDataFiles: [path.basename(bin)],
  };
}

/**
 * A layer's output port by id, from a map made once per layer: every Result may read the same
 * producer (one layer with 60,000 outputs), so a search of its ports per Result grew with the square.
 */
function outputPort(layer: Layer, id: string): Port | undefined {
  if (!layer.outputById) {
    layer.outputById = new Map();
    for (const o of layer.outputs) if (!layer.outputById.has(o.id)) layer.outputById.set(o.id, o);
  }
  return layer.outputById.get(id);
}

/** Where OpenVINO looks for the weights of `file`: the same path with .bin for its extension. */
export function weightsFile(file: string): string {
  const p = path.parse(file);
  return path.join(p.dir, `${p.name}.bin`);
}

function tensor(name: string, written: string | undefined, shape: Dim[] | null, layout: string | undefined): TensorInfo {
  const element = written === undefined ? null : elementType(written);
  const t: TensorInfo = {
    name,
    kind: 'tensor',
    elemType: element ?? (written === undefined ? null : written.toLowerCase()),
    tritonType: tritonTypeOf(element),
    shape,
  };
  if (layout !== undefined) t.layout = layout;
  return t;
}

type Fail = (at: number, problem: PlacedMessage) => never;

/** A Parameter's `shape` attribute: "1,3,224,224", "?,3" or "-1,3", "1..10,3", "" (a scalar), "..." (any rank). */
function shapeOfAttribute(text: string, at: number, fail: Fail): Dim[] | null {
  const t = text.trim();
  if (t === '...' || t === '[...]') return null;
  const inner = t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : t;
  if (inner.trim() === '') return [];
  return inner.split(',').map((d) => dimOf(d, at, fail));
}

function shapeOfDims(dims: { text: string; at: number }[], fail: Fail): Dim[] {
  return dims.map((d) => dimOf(d.text, d.at, fail));
}

/**
 * One dimension: a size; -1 or '?' for a dynamic one (-1); a range "1..10" (also "..10", "1..") kept as
 * its text: dynamic to Triton (-1), and compared by the backend with its bounds.
 */
function dimOf(text: string, at: number, fail: Fail): Dim {
  const d = text.trim();
  if (/^\d+$/.test(d) && Number.isSafeInteger(Number(d))) return Number(d);
  if (d === '-1' || d === '?') return -1;
  const range = /^(\d*)\.\.(\d*)$/.exec(d);
  if (range) {
    const [, lo, hi] = range;
    if (lo === '' && hi === '') return -1;
    return `${lo ? Number(lo) : ''}..${hi ? Number(hi) : ''}`;
  }
  return fail(at, { messageId: 'openvinoDim', data: { dim: d } });
}

// ------------------------------------------------------------------------------------------ errors

function formatError(file: string, text: string, at: number, problem: PlacedMessage): ModelReadError {
  const before = text.slice(0, Math.max(0, Math.min(at, text.length)));
  const byte = Buffer.byteLength(before);
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  // The line and column complete the values of a placed message (messages.ts PlacedMessage).
  return new ModelReadError('format', file, byte, { messageId: problem.messageId, data: { ...problem.data, line, column } } as ReadMessage);
}
