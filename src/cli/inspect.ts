// `tritonc inspect MODEL.onnx|MODEL.xml|MODEL.pt|MODEL.savedmodel [--format text|json]`: the signature tritonc reads from a model.
import { join, resolve } from 'node:path';
import { ModelReadError } from '../model-file/errors.js';
import { readerOf } from '../model-readers/readers.js';
import { readSavedModelSync, SAVED_MODEL_PB } from '../savedmodel/index.js';
import type { ModelSignature, SignatureFormat, TensorInfo } from '../model-file/signature.js';
import { defineCommand } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { maxOf } from '../util/arrays.js';
import { isRemoteUrl } from '../remote/url.js';
import { withRepositories } from './remote.js';
import { backendOfFile, modelOf } from '../generate/targets.js';
import { displayPath } from '../util/display-path.js';
import { pathKind } from '../util/path-kind.js';
import { dynamicAxesText, partialBatchAxis, type DirectedTensor } from '../triton/io-mapping.js';

export const inspectCommand = defineCommand({
  command: 'inspect <model>',
  describe:
    "Show the inputs, outputs, types, shapes and weights of an ONNX model or an OpenVINO IR (a model.onnx or model.xml, or the model directory that holds one), or a PyTorch model's forward signature (model.pt)",
  builder: (y) =>
    y
      // Required by the syntax (<model>): demandOption tells the type so (yargs' positional() drops it).
      .positional('model', {
        type: 'string',
        demandOption: true,
        describe: 'Path to model.onnx (or an OpenVINO model.xml) or its model directory, or its URL (s3://, gs://, as://)',
      })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' }),
  run: async (a, io) => runInspect(a.model, a.format, io),
});

export async function runInspect(model: string, format: 'text' | 'json', io: CliIO): Promise<number> {
  let sig: ModelSignature;
  if (isRemoteUrl(model)) {
    // An object: its header by ranged reads, its external data sized from the listing of its directory.
    sig = await withRemoteSignature(model, io);
  } else if (isSavedModel(resolve(io.cwd, model))) {
    // A TensorFlow SavedModel is a directory: its serving signature, read from saved_model.pb.
    try {
      sig = { ...readSavedModelSync(resolve(io.cwd, model)), path: model };
    } catch (e) {
      if (e instanceof ModelReadError) throw new UsageError(e.message.replace(resolve(io.cwd, model), model));
      throw e;
    }
    io.stdout(format === 'json' ? `${JSON.stringify(signatureJson(sig), null, 2)}\n` : signatureText(sig));
    return EXIT.ok;
  } else {
    const { file, format } = localModelFile(resolve(io.cwd, model), model);
    try {
      sig = readerOf(format)!.readSync(file);
    } catch (e) {
      if (e instanceof ModelReadError) throw new UsageError(e.message.replace(file, displayPath(file, io.cwd)));
      const err = e as NodeJS.ErrnoException;
      throw new UsageError(err.code === 'ENOENT' ? `${model}: no such file` : `${model}: ${err.message}`);
    }
  }
  // The path as given; for a model directory, the file read in it.
  sig = {
    ...sig,
    path: isRemoteUrl(model) || pathKind(resolve(io.cwd, model)) !== 'dir' ? model : displayPath(localModelFile(resolve(io.cwd, model), model).file, io.cwd),
  };
  io.stdout(format === 'json' ? `${JSON.stringify(signatureJson(sig), null, 2)}\n` : signatureText(sig));
  return EXIT.ok;
}

/** A directory holding saved_model.pb: a TensorFlow SavedModel (model.savedmodel). */
const isSavedModel = (path: string): boolean => pathKind(path) === 'dir' && pathKind(join(path, SAVED_MODEL_PB)) === 'file';

/**
 * The model file to read for `path` and its format: the path itself (model.xml is an OpenVINO IR, any
 * other an ONNX model), or for a model directory the file Triton would load (the latest version's
 * default model file, as generate and lint find it).
 */
function localModelFile(path: string, given: string): { file: string; format: string } {
  if (pathKind(path) !== 'dir') return { file: path, format: backendOfFile(path).format };
  const found = modelOf(path);
  if (!found)
    throw new UsageError(
      `${given}: a directory with no ONNX model Triton would load (<version>/model.onnx); give the model file, or the model directory that holds it`,
    );
  return found;
}

async function withRemoteSignature(url: string, io: CliIO): Promise<ModelSignature> {
  let sig: ModelSignature | undefined;
  await withRepositories('inspect', [url], io, { files: true }, async (remote) => {
    const format = backendOfFile(remote.paths[0]!).format;
    const read = await remote.complete((files) => files.signature(remote.paths[0]!, format));
    if (!read.signature) throw new UsageError(read.error ? `${url}: ${read.error.reason}` : `${url}: not an ONNX model`);
    sig = read.signature;
    return EXIT.ok;
  });
  return sig!;
}

/** The JSON contract of `tritonc inspect` (docs/architecture.md). */
export function signatureJson(sig: ModelSignature): object {
  const tensor = (t: TensorInfo) => ({
    name: t.name,
    ...(t.notUtf8 !== undefined ? { notUtf8: t.notUtf8 } : {}),
    kind: t.kind,
    elemType: t.elemType,
    tritonType: t.tritonType,
    shape: t.shape,
    ...(t.layout !== undefined ? { layout: t.layout } : {}),
  });
  const partial = onnxPartialBatchAxis(sig);
  return {
    path: sig.path,
    ...(sig.format && sig.format !== 'onnx' ? { format: sig.format, weightsFiles: sig.externalDataFiles } : {}),
    ...(sig.forward ? { forward: sig.forward } : {}),
    ...(sig.ioUnknown ? { ioUnknown: sig.ioUnknown } : {}),
    irVersion: sig.irVersion,
    producer: sig.producer,
    opsets: sig.opsets,
    inputs: sig.inputs.map(tensor),
    outputs: sig.outputs.map(tensor),
    initializers: sig.initializers,
    batchable: sig.batchable,
    ...(partial ? { partialBatchAxis: { dynamic: partial.dynamic.map(directed), fixed: partial.fixed.map(directed) } } : {}),
  };
}

/** A batch axis on part of an ONNX model's tensors (the re-export advice is torch.onnx.export's). */
const onnxPartialBatchAxis = (sig: ModelSignature): ReturnType<typeof partialBatchAxis> =>
  sig.format === undefined || sig.format === 'onnx' ? partialBatchAxis(sig) : undefined;

const directed = (t: DirectedTensor): { direction: string; name: string; shape: (number | string | null)[] | null } => ({
  direction: t.direction,
  name: t.tensor.name,
  shape: t.tensor.shape,
});

/** Why a model cannot batch; for a batch axis on part of the tensors, which and the re-export that fixes it. */
function notBatchableText(sig: ModelSignature): string {
  const partial = onnxPartialBatchAxis(sig);
  if (!partial) return 'no (an input or output has a fixed first dim, or no dims)';
  const side = (t: DirectedTensor): string => `${t.direction} '${t.tensor.name}'`;
  return `no: ${partial.dynamic.map(side).join(', ')} ${partial.dynamic.length > 1 ? 'have' : 'has'} a dynamic first dim, but ${partial.fixed.map((t) => `${side(t)} is fixed at [${t.tensor.shape!.map(dimText).join(', ')}]`).join(', ')} (the batch axis exported on part of the tensors; re-export with dynamic_axes=${dynamicAxesText(partial.all)})`;
}

const formatBytes = (n: number): string => {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} B` : `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
};

const dimText = (d: number | string | null): string => (d === null ? '?' : String(d));

/** Columns are padded to at most this width: a longer cell (an 8 MiB tensor name) just overflows its column. */
const MAX_COLUMN = 48;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.min(MAX_COLUMN, maxOf(rows.map((r) => r[c]!.length))));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The signatures shown their own way (the rest as ONNX's: names, types, shapes). */
const TEXT_BY_FORMAT: Partial<Record<SignatureFormat, (sig: ModelSignature) => string>> = {
  torchscript: (sig) => torchText(sig),
  pt2: (sig) => torchText(sig),
  openvino: (sig) => openVinoText(sig),
};

export function signatureText(sig: ModelSignature): string {
  const own = sig.format === undefined ? undefined : TEXT_BY_FORMAT[sig.format];
  if (own) return own(sig);
  const tensorRows = (dir: string, list: TensorInfo[]): string[][] =>
    list.map((t) => [
      dir,
      // A name that is not UTF-8 as its bytes: the text would show another name.
      t.notUtf8 === undefined ? t.name : `${t.notUtf8} (not UTF-8)`,
      t.kind === 'tensor' ? (t.elemType ?? '?') : `${t.kind}${t.elemType ? `<${t.elemType}>` : ''}`,
      t.tritonType ?? '(none)',
      t.shape === null ? '(unknown rank)' : `[${t.shape.map(dimText).join(', ')}]`,
    ]);
  const rows = [
    ['', 'name', sig.format === 'savedmodel' ? 'tf type' : 'onnx type', 'triton type', 'shape'],
    ...tensorRows('input', sig.inputs),
    ...tensorRows('output', sig.outputs),
  ];
  const opsets = sig.opsets.map((o) => `${o.domain || 'ai.onnx'} ${o.version}`).join(', ');
  const lines = [
    `${sig.path}`,
    `  ir_version ${sig.irVersion}, producer ${[sig.producer.name, sig.producer.version].filter(Boolean).join(' ') || '(none)'}, opsets ${opsets || '(none)'}`,
    sig.format === 'savedmodel'
      ? `  weights: ${sig.initializers.count} files in variables/, ${formatBytes(sig.initializers.bytes)}; signature ${sig.metadata.find((m) => m.key === 'signature_def')?.value ?? '?'} of the meta graph tagged ${sig.metadata.find((m) => m.key === 'tags')?.value ?? '?'}`
      : `  weights: ${sig.initializers.count} initializers, ${formatBytes(sig.initializers.bytes)}${weightNotes(sig.initializers)}`,
    `  batchable: ${sig.batchable ? 'yes (every input and output has a dynamic first dim)' : notBatchableText(sig)}`,
    '',
    table(rows)
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
    '',
  ];
  return lines.join('\n');
}

/** An OpenVINO IR: the tensors as the OpenVINO backend names and types them, their layouts, the .bin's size. */
function openVinoText(sig: ModelSignature): string {
  const rows = [
    ['', 'name', 'element type', 'triton type', 'shape', 'layout'],
    ...(['input', 'output'] as const).flatMap((dir) =>
      (dir === 'input' ? sig.inputs : sig.outputs).map((t) => [
        dir,
        t.name,
        t.elemType ?? '?',
        t.tritonType ?? '(none)',
        t.shape === null ? '(any rank)' : `[${t.shape.map(dimText).join(', ')}]`,
        t.layout ?? '',
      ]),
    ),
  ];
  const bin = sig.externalDataFiles[0] ?? '';
  return [
    `${sig.path}`,
    `  OpenVINO IR version ${sig.producer.version}${sig.metadata.find((m) => m.key === 'name') ? `, model '${sig.metadata.find((m) => m.key === 'name')!.value}'` : ''}; names are each tensor's smallest name (what Triton's OpenVINO backend calls it)`,
    `  weights: ${sig.initializers.count} Const layers, ${formatBytes(sig.initializers.bytes)} (${bin})`,
    `  batchable: ${sig.batchable ? 'yes (every input and output has a layout with N)' : 'no (an input or output has no layout with N: the OpenVINO backend does not batch it unless max_batch_size is set)'}`,
    '',
    table(rows)
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
    '',
  ].join('\n');
}

/** Where the weights are, when not all in initializers inline: external data, Constant nodes. */
function weightNotes(w: ModelSignature['initializers']): string {
  const notes = [
    ...(w.externalBytes ? [`${formatBytes(w.externalBytes)} in external data`] : []),
    ...(w.constantBytes ? [`${formatBytes(w.constantBytes)} in Constant nodes`] : []),
  ];
  return notes.length ? ` (${notes.join(', ')})` : '';
}

/** A PyTorch model: forward's signature (TorchScript), or why its tensors are not read (AOTInductor), and the weights. */
function torchText(sig: ModelSignature): string {
  const row = (dir: string, t: TensorInfo): string[] => [dir, t.name, t.elemType ?? '?', '(not recorded)', '(not recorded)'];
  const rows = [
    ['', 'name', 'torchscript type', 'triton type', 'shape'],
    ...sig.inputs.map((t) => row('input', t)),
    ...sig.outputs.map((t) => row('output', t)),
  ];
  const lines = [
    sig.path,
    sig.format === 'pt2' ? '  an AOTInductor package (torch_aoti)' : `  TorchScript ${sig.forward?.text ?? ''}`,
    `  weights: ${sig.initializers.count} tensors under data/, ${formatBytes(sig.initializers.bytes)}`,
    ...(sig.ioUnknown
      ? [`  inputs and outputs: not read: ${sig.ioUnknown}`, '']
      : [
          "  TorchScript records no data types or shapes; outputs are named by Triton's <name>__<index> convention",
          '',
          table(rows)
            .split('\n')
            .map((l) => `  ${l}`)
            .join('\n'),
        ]),
    '',
  ];
  return lines.join('\n');
}
