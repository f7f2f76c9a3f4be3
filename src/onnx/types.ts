// The signature tritonc reads from a model.onnx: what `tritonc inspect` prints and what `generate`
// and the model-aware lint rules consume. Field names follow the CLI contract in docs/architecture.md.

/**
 * What kind of value a graph input/output carries (ONNX TypeProto's `value` oneof).
 * 'opaque' and 'unknown' (a ValueInfo without a type) go beyond the kinds docs/architecture.md lists;
 * Triton refuses both (ONNX_TYPE_OPAQUE / ONNX_TYPE_UNKNOWN), so they are reported rather than hidden.
 */
export type ValueKind = 'tensor' | 'sequence' | 'map' | 'optional' | 'sparse_tensor' | 'opaque' | 'unknown';

/** One dimension: the dim_value number, the dim_param string, or null when neither is set. */
export type Dim = number | string | null;

export interface TensorInfo {
  name: string;
  kind: ValueKind;
  /**
   * ONNX element type name ('FLOAT', ...). For sequence/optional it is the element type of the
   * innermost tensor, for map the value's; null when there is none or the number is not a known type.
   */
  elemType: string | null;
  /** Triton data type ('TYPE_FP32', ...) for a tensor whose element type Triton supports, else null. */
  tritonType: string | null;
  /**
   * Tensor (or sparse tensor) shape; `[]` is a scalar, null means the type has no shape (unknown rank).
   * Always null for sequence, map, optional, opaque and unknown.
   */
  shape: Dim[] | null;
}

export interface OpsetImport {
  domain: string;
  version: number;
}

export interface MetadataEntry {
  key: string;
  value: string;
}

export interface InitializerSummary {
  /** Dense plus sparse initializers of the main graph. */
  count: number;
  /** Bytes of weight data, inline and external together. */
  bytes: number;
  /** The part of `bytes` stored in external data files. */
  externalBytes: number;
  /** The part of `bytes` held in Constant nodes rather than initializers (inline data). */
  constantBytes: number;
}

export interface ModelSignature {
  /** The path the caller passed. */
  path: string;
  irVersion: number;
  producer: { name: string; version: string };
  opsets: OpsetImport[];
  /** Graph inputs that are not initializers (what ONNX Runtime and Triton call the model's inputs). */
  inputs: TensorInfo[];
  outputs: TensorInfo[];
  initializers: InitializerSummary;
  /** Triton's "can support batching": every input and output is a tensor of rank >= 1 with a dynamic first dim. */
  batchable: boolean;
  /** ModelProto.metadata_props in file order. */
  metadata: MetadataEntry[];
  /** Graph inputs that also have an initializer (old IR lists every weight as an input). */
  overridableInitializers: TensorInfo[];
  /** True when no initializer keeps its data in an external file. */
  weightsInline: boolean;
  /** Distinct external data locations, as written in the model (relative to the model's directory). */
  externalDataFiles: string[];
}
