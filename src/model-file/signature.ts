// The signature tritonc reads from a model file, whatever its format (ONNX, OpenVINO IR, TorchScript,
// a SavedModel): what `tritonc inspect` prints and what `generate` and the model-aware lint rules
// consume. ONNX gave it its shape; other readers fill the ONNX-only parts (opsets, IR version,
// overridable initializers) empty. Field names follow the CLI contract in docs/architecture.md.

/** Which reader read it: the kind of file, finer than a backend's format (PyTorch has two). */
export type SignatureFormat = 'onnx' | 'openvino' | 'torchscript' | 'pt2' | 'savedmodel';

/**
 * What kind of value a graph input/output carries (ONNX TypeProto's `value` oneof).
 * 'opaque' and 'unknown' (a ValueInfo without a type) go beyond the kinds docs/architecture.md lists;
 * Triton refuses both (ONNX_TYPE_OPAQUE / ONNX_TYPE_UNKNOWN), so they are reported rather than hidden.
 */
export type ValueKind = 'tensor' | 'sequence' | 'map' | 'optional' | 'sparse_tensor' | 'opaque' | 'unknown';

/** One dimension: the dim_value number, the dim_param string, or null when neither is set. */
export type Dim = number | string | null;

export interface TensorInfo {
  /** The name as UTF-8 text (in an ONNX file whose name is not UTF-8, each bad byte as U+FFFD: see notUtf8). */
  name: string;
  /**
   * Set where the file's name is not UTF-8 (an ONNX name is bytes): the bytes as util/bytes-text.ts
   * shows them. model_config.proto is proto3, whose strings are UTF-8, so no config can name it.
   */
  notUtf8?: string;
  kind: ValueKind;
  /**
   * The element type as the model file names it (ONNX 'FLOAT', OpenVINO 'f32', ...). For an ONNX
   * sequence/optional it is the element type of the innermost tensor, for a map the value's; null
   * when there is none or the number is not a known type.
   */
  elemType: string | null;
  /** Triton data type ('TYPE_FP32', ...) for a tensor whose element type Triton supports, else null. */
  tritonType: string | null;
  /**
   * Tensor (or sparse tensor) shape; `[]` is a scalar, null means the type has no shape (unknown rank).
   * Always null for sequence, map, optional, opaque and unknown.
   */
  shape: Dim[] | null;
  /**
   * False when the file does not record the element type at all (a TorchScript argument is a
   * Tensor of any type): there is nothing to check the config's data_type against. Default true.
   */
  typed?: boolean;
  /** The tensor's layout where the file records one (an OpenVINO IR's rt_info, e.g. "[N,H]"). */
  layout?: string;
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
  /** The reader that read it (absent in signatures kept before there was more than one: ONNX). */
  format?: SignatureFormat;
  /** ONNX's IR version; 0 for other formats. */
  irVersion: number;
  producer: { name: string; version: string };
  opsets: OpsetImport[];
  /** Graph inputs that are not initializers (what ONNX Runtime and Triton call the model's inputs). */
  inputs: TensorInfo[];
  outputs: TensorInfo[];
  /** The weights (ONNX initializers; an OpenVINO IR's .bin; a TorchScript archive's data). */
  initializers: InitializerSummary;
  /** Triton's "can support batching": every input and output is a tensor of rank >= 1 with a dynamic first dim. */
  batchable: boolean;
  /** ModelProto.metadata_props in file order. */
  metadata: MetadataEntry[];
  /** Graph inputs that also have an initializer (old IR lists every weight as an input). */
  overridableInitializers: TensorInfo[];
  /** True when no initializer keeps its data in an external file. */
  weightsInline: boolean;
  /**
   * Distinct external data locations, as written in the model (relative to the model's directory):
   * the other files the signature depends on (an OpenVINO IR's .bin).
   */
  externalDataFiles: string[];
  /**
   * A TorchScript model's forward, as its code record writes it (TorchScript only): what Triton's
   * PyTorch backend reads at load in place of named, typed tensors.
   */
  forward?: ForwardSignature;
  /**
   * Why the file's inputs and outputs are not known although it was read (an AOTInductor package
   * records them in no stable form): the rules that compare them do not run, and say so once.
   */
  ioUnknown?: string;
}

/** A TorchScript forward's signature: `inputs` are its arguments after self, `outputs` its return's elements. */
export interface ForwardSignature {
  /** `forward(self, INPUT0: Tensor, INPUT1: Tensor) -> Tuple[Tensor, Tensor]`. */
  text: string;
  /** The return annotation (`Tuple[Tensor, Tensor]`). */
  returns: string;
  /** How many outputs the return annotation fixes (a Tuple's arity, 1 for a Tensor); null when it does not (a List, a Dict). */
  outputCount: number | null;
}
