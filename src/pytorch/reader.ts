// The PyTorch reader: a TorchScript model.pt's forward signature and an AOTInductor model.pt2's
// weights, from the ZIP archive's central directory and a few small records; the tensors under
// data/ are never read (their sizes come from the central directory).
//
// TorchScript (torch.jit.save; torch/csrc/jit/serialization/export_module.cc): `<stem>/data.pkl`
// pickles the top module, whose first GLOBAL opcode names its class (`__torch__.Net`); the class's
// code is `<stem>/code/__torch__.py` (`__torch__.a.b.Net` in `code/__torch__/a/b.py`). Triton's
// pytorch_backend reads forward's schema at load (src/pt/model_instance_state.cc ValidateInputs):
// argument names and annotations, never element types or shapes, so every tensor here is untyped
// (typed: false, shape null).
//
// AOTInductor (torch._inductor.aoti_compile_and_package): `<stem>/data/aotinductor/<model>/` holds
// the compiled .so, its C++ source and a metadata JSON; its inputs and outputs are recorded only in
// generated code (the wrapper's in_spec string, dtype checks), which is no stable format, so they
// are not read (ioUnknown). A torch.export program (torch.export.save) is refused: Triton does not load it.
import { ModelReadError } from '../model-file/errors.js';
import type { ReadMessage } from '../model-file/messages.js';
import { withModelFileSync, type ModelFormat } from '../model-file/open.js';
import { LFS_POINTER_MAX_BYTES, lfsPointerError, lfsPointerOf } from '../model-file/lfs-pointer.js';
import type { ModelSignature, TensorInfo, ValueKind } from '../model-file/signature.js';
import { classesOf, classOffset, parseForward, tupleElements, type ForwardArgument, type ForwardProblem } from './torchscript.js';
import { isZipStart, readCentralDirectory, readEntry, readEntryPrefix, type ZipEntry, type ZipSource } from './zip.js';

/** The name Triton's convention gives output i (`<name>__<index>`), as the qa models' configs write it. */
export const torchOutputName = (i: number): string => `OUTPUT__${i}`;

/** The format as the messages name it. */
export const PYTORCH_FORMAT: ModelFormat = 'PyTorch';

/** Reads a PyTorch model file (TorchScript or AOTInductor package) without its weights. Throws ModelReadError. */
export function readTorchSignatureSync(file: string): ModelSignature {
  return withModelFileSync(file, PYTORCH_FORMAT, (f) =>
    readTorch({
      file,
      size: f.size,
      read(position, length) {
        const b = Buffer.allocUnsafe(length);
        return b.subarray(0, f.read(b, 0, length, position));
      },
    }),
  );
}

/** The same read over bytes in memory (a test's repository, an editor's buffer). */
export function readTorchSignatureOfBytes(file: string, bytes: Uint8Array): ModelSignature {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return readTorch({ file, size: buf.length, read: (p, l) => buf.subarray(p, p + l) });
}

/** Thrown by a sparse source for bytes not fetched yet: the async read fetches them and reads again. */
class NeedBytes {
  constructor(
    readonly position: number,
    readonly length: number,
  ) {}
}

/** Bytes of an object fetched so far, by range. */
class Sparse {
  private readonly parts: { at: number; bytes: Buffer }[] = [];
  add(at: number, bytes: Uint8Array): void {
    this.parts.push({ at, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  }
  get(position: number, length: number): Buffer | undefined {
    const part = this.parts.find((p) => p.at <= position && position + length <= p.at + p.bytes.length);
    return part?.bytes.subarray(position - part.at, position - part.at + length);
  }
}

/** At most this many fetches per model: the end record, the central directory, data.pkl's head, the code record, and slack. */
const MAX_FETCHES = 12;
const MIN_FETCH = 64 * 1024;

/**
 * The same read over an object fetched by ranges (a model in object storage): each read that needs
 * bytes not fetched yet fetches them (at least 64 KiB, the end of the file first) and reads again, so
 * a few small requests cover the end record, the central directory and the records read, never the weights.
 */
export async function readTorchSignatureFrom(
  file: string,
  size: number,
  fetch: (position: number, length: number) => Promise<Uint8Array>,
): Promise<ModelSignature> {
  const sparse = new Sparse();
  const src: ZipSource = {
    file,
    size,
    read(position, length) {
      const want = Math.max(0, Math.min(length, size - position));
      const got = sparse.get(position, want);
      if (!got) throw new NeedBytes(position, want);
      return got;
    },
  };
  // The end of central directory record (and usually the directory itself) is in the last 64 KiB.
  const tail = Math.min(size, MIN_FETCH + 22);
  if (tail > 0) sparse.add(size - tail, await fetch(size - tail, tail));
  for (let i = 0; ; i++) {
    try {
      return readTorch(src);
    } catch (e) {
      if (!(e instanceof NeedBytes)) throw e;
      if (i >= MAX_FETCHES) throw new ModelReadError('format', file, e.position, { messageId: 'torchTooManyFetches', data: { max: MAX_FETCHES } });
      const length = Math.min(size - e.position, Math.max(e.length, MIN_FETCH));
      const bytes = await fetch(e.position, length);
      if (bytes.length < Math.min(e.length, length)) throw new ModelReadError('io', file, e.position, { messageId: 'torchObjectEnded', data: {} });
      sparse.add(e.position, bytes);
    }
  }
}

function readTorch(src: ZipSource): ModelSignature {
  if (src.size === 0) throw new ModelReadError('format', src.file, 0, { messageId: 'torchEmpty', data: {} });
  const head = src.read(0, Math.min(src.size, LFS_POINTER_MAX_BYTES));
  if (src.size <= LFS_POINTER_MAX_BYTES) {
    const pointer = lfsPointerOf(head.toString('utf8'));
    if (pointer) throw lfsPointerError(src.file, pointer, PYTORCH_FORMAT);
  }
  if (!isZipStart(head)) {
    const pickle = head.length >= 2 && head[0] === 0x80 && head[1]! <= 5;
    throw new ModelReadError('format', src.file, 0, { messageId: pickle ? 'torchBarePickle' : 'torchNotZip', data: {} });
  }
  const entries = readCentralDirectory(src);
  if (entries.length === 0) throw new ModelReadError('format', src.file, 0, { messageId: 'torchEmptyZip', data: {} });
  const weights = entries.filter((e) => /^[^/]+\/data\//.test(e.name));
  const bytes = weights.reduce((n, e) => n + e.uncompressedSize, 0);

  if (entries.some((e) => /^[^/]+\/data\/aotinductor\//.test(e.name))) return aotiSignature(src.file, weights.length, bytes);
  const exported = entries.find((e) => /(^|\/)serialized_exported_program\.json$/.test(e.name) || /^[^/]+\/models\/[^/]+\.json$/.test(e.name));
  if (exported) {
    throw new ModelReadError('format', src.file, exported.recordOffset, { messageId: 'torchExportProgram', data: { entry: exported.name } });
  }
  const pkl = entries.find((e) => /^[^/]+\/data\.pkl$/.test(e.name));
  if (!pkl) throw new ModelReadError('format', src.file, 0, { messageId: 'torchNoDataPkl', data: {} });
  const root = pkl.name.slice(0, pkl.name.indexOf('/'));
  const code = entries.filter((e) => e.name.startsWith(`${root}/code/`) && e.name.endsWith('.py'));
  if (!code.length) {
    throw new ModelReadError('format', src.file, pkl.recordOffset, { messageId: 'torchCheckpoint', data: {} });
  }
  const { entry, className } = topModuleCode(src, root, pkl, code);
  const text = readEntry(src, entry).toString('utf8');
  const at = classOffset(text, className);
  if (at < 0) throw new ModelReadError('format', src.file, entry.recordOffset, { messageId: 'torchNoClass', data: { entry: entry.name, className } });
  const fwd = parseForward(text, at);
  if (fwd === undefined)
    throw new ModelReadError('format', src.file, entry.recordOffset, { messageId: 'torchNoForward', data: { entry: entry.name, className } });
  if ('problem' in fwd) throw new ModelReadError('format', src.file, entry.recordOffset, forwardProblem(entry.name, fwd));
  return torchscriptSignature(src.file, fwd.arguments, fwd.returns, weights.length, bytes);
}

/**
 * The code record of the archive's top module and its class name: by data.pkl's first GLOBAL
 * (`__torch__.a.b` `Net` -> code/__torch__/a/b.py); failing that, the first class of code/__torch__.py
 * with a forward.
 */
function topModuleCode(src: ZipSource, root: string, pkl: ZipEntry, code: ZipEntry[]): { entry: ZipEntry; className: string } {
  const global = pickleGlobal(readEntryPrefix(src, pkl, 1024));
  if (global && (global.module === '__torch__' || global.module.startsWith('__torch__.'))) {
    const path = `${root}/code/${global.module.replace(/\./g, '/')}.py`;
    const entry = code.find((e) => e.name === path);
    if (entry) return { entry, className: global.name };
    throw new ModelReadError('format', src.file, pkl.recordOffset, {
      messageId: 'torchTopModuleMissing',
      data: { module: global.module, className: global.name, path },
    });
  }
  const entry = code.find((e) => e.name === `${root}/code/__torch__.py`);
  if (!entry) throw new ModelReadError('format', src.file, pkl.recordOffset, { messageId: 'torchNoTorchPy', data: { path: `${root}/code/__torch__.py` } });
  const text = readEntry(src, entry).toString('utf8');
  const className = classesOf(text).find((c) => parseForward(text, c.at) !== undefined)?.name;
  if (!className) throw new ModelReadError('format', src.file, entry.recordOffset, { messageId: 'torchNoForwardClass', data: { entry: entry.name } });
  return { entry, className };
}

/** The module and name of a pickle's first GLOBAL (protocol 0-2 `c`) or STACK_GLOBAL (protocol 4) opcode. */
export function pickleGlobal(bytes: Buffer): { module: string; name: string } | undefined {
  let p = 0;
  if (bytes[p] === 0x80) p += 2; // PROTO n
  if (bytes[p] === 0x95) p += 9; // FRAME (protocol 4)
  if (bytes[p] === 0x63) {
    const end1 = bytes.indexOf(0x0a, p + 1);
    const end2 = end1 < 0 ? -1 : bytes.indexOf(0x0a, end1 + 1);
    if (end2 < 0) return undefined;
    return { module: bytes.toString('utf8', p + 1, end1), name: bytes.toString('utf8', end1 + 1, end2) };
  }
  // SHORT_BINUNICODE module, MEMOIZE?, SHORT_BINUNICODE name, MEMOIZE?, STACK_GLOBAL
  const strings: string[] = [];
  while (strings.length < 2 && p < bytes.length) {
    if (bytes[p] === 0x94) {
      p++;
      continue;
    }
    if (bytes[p] !== 0x8c || p + 1 >= bytes.length) return undefined;
    const len = bytes[p + 1]!;
    strings.push(bytes.toString('utf8', p + 2, p + 2 + len));
    p += 2 + len;
  }
  return strings.length === 2 ? { module: strings[0]!, name: strings[1]! } : undefined;
}

/** What kind of value a forward argument or result is, by its annotation. */
function kindOf(type: string): ValueKind {
  if (type === 'Tensor') return 'tensor';
  if (type.startsWith('List[')) return 'sequence';
  if (type.startsWith('Dict[')) return 'map';
  if (type.startsWith('Optional[')) return 'optional';
  return 'unknown';
}

/** An untyped, shapeless tensor slot: TorchScript records the annotation only. */
const slot = (name: string, type: string): TensorInfo => ({ name, kind: kindOf(type), elemType: type, tritonType: null, shape: null, typed: false });

function torchscriptSignature(file: string, args: ForwardArgument[], returns: string, count: number, bytes: number): ModelSignature {
  // pytorch_backend ValidateInputs: an argument 0 of class type is self.
  const inputs = (args[0] && (args[0].name === 'self' || args[0].type.startsWith('__torch__.')) ? args.slice(1) : args).map((a) => slot(a.name, a.type));
  const tuple = tupleElements(returns);
  const elements = tuple ?? (returns === 'Tensor' ? [returns] : null);
  const outputs = (elements ?? []).map((t, i) => slot(torchOutputName(i), t));
  const text = `forward(${args.map((a) => (a.type ? `${a.name}: ${a.type}` : a.name)).join(', ')}) -> ${returns}`;
  return {
    ...base(file, 'torchscript', count, bytes),
    inputs,
    outputs,
    forward: { text, returns, outputCount: elements ? elements.length : null },
  };
}

function aotiSignature(file: string, count: number, bytes: number): ModelSignature {
  return {
    ...base(file, 'pt2', count, bytes),
    inputs: [],
    outputs: [],
    ioUnknown: "an AOTInductor package records its inputs and outputs only in generated code (the wrapper's in_spec), in no stable form",
  };
}

function base(file: string, format: 'torchscript' | 'pt2', count: number, bytes: number): Omit<ModelSignature, 'inputs' | 'outputs'> {
  return {
    path: file,
    format,
    irVersion: 0,
    producer: { name: format === 'pt2' ? 'torch._inductor' : 'torch.jit', version: '' },
    opsets: [],
    initializers: { count, bytes, externalBytes: 0, constantBytes: 0 },
    batchable: false,
    metadata: [],
    overridableInitializers: [],
    weightsInline: true,
    externalDataFiles: [],
  };
}

/** Why the forward definition in `entry` cannot be read. */
function forwardProblem(entry: string, p: ForwardProblem): ReadMessage {
  switch (p.problem) {
    case 'string':
      return { messageId: 'torchForwardString', data: { entry } };
    case 'argumentsOpen':
      return { messageId: 'torchForwardArgsOpen', data: { entry } };
    case 'noReturn':
      return { messageId: 'torchForwardNoReturn', data: { entry } };
    case 'returnOpen':
      return { messageId: 'torchForwardReturnOpen', data: { entry } };
    case 'badArgument':
      return { messageId: 'torchForwardBadArgument', data: { entry, argument: p.argument } };
  }
}
