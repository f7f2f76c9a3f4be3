// ONNX graph inputs/outputs -> Triton config input/output entries, exactly as Triton's ONNX Runtime
// backend auto-completes them (onnxruntime_backend AutoCompleteMaxBatch, AutoCompleteIO): names as
// written, the element-type table, the batch dim dropped when batching, symbolic dims as -1, scalars as
// dims [1] (+ an empty reshape when batching). Tensors Triton cannot serve are reported, not emitted.
import type { DataType, ModelInput, ModelOutput } from '../config/model-config.js';
import { canBatch } from '../onnx/signature.js';
import type { Dim, ModelSignature, TensorInfo } from '../model-file/signature.js';

export interface IoProblem {
  tensor: string;
  direction: 'input' | 'output';
  message: string;
}

export interface GeneratedIo {
  input: ModelInput[];
  output: ModelOutput[];
  problems: IoProblem[];
}

/** Triton's dims for one ONNX dim: symbolic, unknown and -1 are all "any size". */
export const tritonDim = (d: Dim): number => (typeof d === 'number' ? d : -1);

/** The model's shape in Triton's notation, e.g. [-1,3,224,224] (as Triton prints shapes: no spaces). */
export function shapeText(shape: readonly Dim[] | null): string {
  return shape === null ? '(unknown rank)' : `[${shape.map(tritonDim).join(',')}]`;
}

/** The model's shape as the ONNX file spells it, e.g. [batch,3,224,224]. */
export function onnxShapeText(shape: readonly Dim[] | null): string {
  return shape === null ? '(unknown rank)' : `[${shape.map((d) => (d === null ? '?' : String(d))).join(',')}]`;
}

function problemFor(t: TensorInfo, direction: 'input' | 'output'): IoProblem | undefined {
  if (t.notUtf8 !== undefined) return { tensor: t.name, direction, message: notUtf8Message(t.notUtf8, direction) };
  if (t.kind !== 'tensor') {
    const onnxKind = {
      sequence: 'ONNX_TYPE_SEQUENCE',
      map: 'ONNX_TYPE_MAP',
      optional: 'ONNX_TYPE_OPTIONAL',
      sparse_tensor: 'ONNX_TYPE_SPARSETENSOR',
      opaque: 'ONNX_TYPE_OPAQUE',
      unknown: 'ONNX_TYPE_UNKNOWN',
    }[t.kind];
    return {
      tensor: t.name,
      direction,
      message: `${direction} '${t.name}' is a ${t.kind.replace('_', ' ')}, not a tensor; Triton's ONNX Runtime backend serves tensors only ("Unsupported ONNX Type '${onnxKind}' for I/O '${t.name}', expected 'ONNX_TYPE_TENSOR'"). Re-export the model with tensor ${direction}s`,
    };
  }
  if (t.tritonType === null) {
    return {
      tensor: t.name,
      direction,
      message: `${direction} '${t.name}' has element type ${t.elemType ?? 'UNDEFINED'}, which Triton cannot serve from ONNX Runtime; cast it to a supported type (e.g. FLOAT, FLOAT16, INT64) in the exported graph`,
    };
  }
  return undefined;
}

/**
 * Why a tensor whose name is not UTF-8 cannot be served (tritonserver 2.51 with such an ONNX model,
 * test/server/not-utf8-real-triton.test.ts): with no config, the auto-completed config is refused
 * ("Encountered non UTF-8 code points."); a config cannot name it, as model_config.proto (proto3) holds
 * names as UTF-8 strings and the bad byte is lost ("unexpected inference input 'inut', allowed inputs
 * are: in\xffut").
 */
export function notUtf8Message(bytes: string, direction: 'input' | 'output'): string {
  return `${direction} "${bytes}" has a name that is not UTF-8 (a byte outside UTF-8 shown as \\xHH), which Triton cannot serve: auto-complete fails ("Encountered non UTF-8 code points.") and no config can name it (a config's names are UTF-8 text); rename the ${direction} to UTF-8 text in the export (e.g. torch.onnx.export's ${direction}_names) and export again`;
}

function entry(t: TensorInfo, maxBatchSize: number): { name: string; data_type: DataType; dims: number[]; reshape?: { shape: number[] } } {
  const shape = t.shape ?? [];
  const dims = (maxBatchSize > 0 ? shape.slice(1) : shape).map(tritonDim);
  const e: { name: string; data_type: DataType; dims: number[]; reshape?: { shape: number[] } } = {
    name: t.name,
    data_type: t.tritonType as DataType,
    dims: dims.length ? dims : [1],
  };
  if (!dims.length && maxBatchSize > 0) e.reshape = { shape: [] };
  return e;
}

export function ioFromSignature(sig: ModelSignature, maxBatchSize: number): GeneratedIo {
  const problems: IoProblem[] = [];
  const input: ModelInput[] = [];
  const output: ModelOutput[] = [];
  for (const t of sig.inputs) {
    const p = problemFor(t, 'input');
    if (p) problems.push(p);
    else input.push(entry(t, maxBatchSize));
  }
  for (const t of sig.outputs) {
    const p = problemFor(t, 'output');
    if (p) problems.push(p);
    else output.push(entry(t, maxBatchSize));
  }
  return { input, output, problems };
}

/**
 * A batch axis exported on part of the model's tensors only: some have a dynamic first dim, others a
 * fixed one (torch.onnx.export with dynamic_axes on the input only, or a forward that hard-codes the
 * example's batch). Such a model cannot batch, although its author meant it to; undefined otherwise
 * (a model that batches, or one with no dynamic first dim at all). Rank-0 tensors count for neither.
 */
export function partialBatchAxis(sig: ModelSignature): PartialBatchAxis | undefined {
  const all = batchAxisTensors(sig);
  const dynamic = all.filter((t) => canBatch(t.tensor));
  const fixed = all.filter((t) => !canBatch(t.tensor));
  return dynamic.length && fixed.length ? { dynamic, fixed, all } : undefined;
}

export interface PartialBatchAxis {
  dynamic: DirectedTensor[];
  fixed: DirectedTensor[];
  /** Every tensor of rank >= 1, inputs first, in the model's order. */
  all: DirectedTensor[];
}

/**
 * The tensors a batch axis goes on: every tensor of rank >= 1, inputs first, in the model's order (the
 * dynamic_axes a re-export needs names them all, not only the fixed ones: a batch axis on the inputs
 * alone is the tutorial's mistake).
 */
export function batchAxisTensors(sig: ModelSignature): DirectedTensor[] {
  return [
    ...sig.inputs.map((tensor) => ({ tensor, direction: 'input' as const })),
    ...sig.outputs.map((tensor) => ({ tensor, direction: 'output' as const })),
  ].filter((t) => t.tensor.kind === 'tensor' && (t.tensor.shape?.length ?? 0) > 0);
}

/** A tensor of the model with its side. */
export interface DirectedTensor {
  tensor: TensorInfo;
  direction: 'input' | 'output';
}

/** The torch.onnx.export dynamic_axes that give every listed tensor a batch axis: {'x': {0: 'batch'}, ...}. */
export const dynamicAxesText = (tensors: readonly DirectedTensor[]): string => `{${tensors.map((t) => `'${t.tensor.name}': {0: 'batch'}`).join(', ')}}`;

/** The tensors that stop a model from batching: a fixed first dim, or rank 0. */
export function unbatchableTensors(sig: ModelSignature): { tensor: TensorInfo; direction: 'input' | 'output' }[] {
  return [
    ...sig.inputs.filter((t) => !canBatch(t)).map((tensor) => ({ tensor, direction: 'input' as const })),
    ...sig.outputs.filter((t) => !canBatch(t)).map((tensor) => ({ tensor, direction: 'output' as const })),
  ];
}
