// KServe v2 inference requests with Triton's binary tensor data extension (server
// docs/protocol/extension_binary_data.md): a JSON header, then each input's bytes in order, with
// Inference-Header-Content-Length giving the JSON's length. Binary works for every type, FP16 and BF16
// included, which JSON tensors do not; verify asks for binary outputs too and reads only their shapes.
import { dataTypeOfKserve } from './datatypes.js';
import { describeIssues, inferResponse, type InferResponse } from './kserve-schemas.js';

export interface InferInput {
  name: string;
  /** The protocol's datatype: FP32, BYTES, ... */
  datatype: string;
  shape: number[];
  /** Its binary data (little-endian elements); zeros when absent. */
  data?: Buffer;
}

export interface InferRequest {
  inputs: InferInput[];
  /** Output names to ask for (all the config declares). */
  outputs: string[];
}

export interface EncodedRequest {
  header: Record<string, unknown>;
  /** The JSON header's byte length (the Inference-Header-Content-Length header). */
  headerLength: number;
  body: Buffer;
}

const elements = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** Bytes of zero-filled binary data: zeros of the element size, or an empty string (a 4-byte length 0) per BYTES element. */
export function zeroBytes(datatype: string, shape: readonly number[]): number {
  const info = dataTypeOfKserve(datatype);
  if (!info) throw new Error(`no binary form for datatype ${datatype}`);
  return (info.bytes || 4) * elements(shape);
}

export function encodeInferRequest(req: InferRequest): EncodedRequest {
  const sizes = req.inputs.map((i) => i.data?.length ?? zeroBytes(i.datatype, i.shape));
  const header = {
    inputs: req.inputs.map((i, k) => ({ name: i.name, shape: i.shape, datatype: i.datatype, parameters: { binary_data_size: sizes[k] } })),
    outputs: req.outputs.map((name) => ({ name, parameters: { binary_data: true } })),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  // Zeros are valid data for every type: 0, false, +0.0, and a zero length for each BYTES element.
  const body = Buffer.concat([json, ...req.inputs.map((i, k) => i.data ?? Buffer.alloc(sizes[k]!))]);
  return { header, headerLength: json.length, body };
}

export type DecodeResult = { ok: true; response: InferResponse; binary: Map<string, Buffer> } | { ok: false; reason: string };

/** Splits a response into its JSON header and binary tail and validates both. */
export function decodeInferResponse(body: Buffer, headerLength: number | undefined): DecodeResult {
  if (headerLength !== undefined && (!Number.isInteger(headerLength) || headerLength < 0 || headerLength > body.length)) {
    return { ok: false, reason: `Inference-Header-Content-Length is ${headerLength} but the body has ${body.length} bytes` };
  }
  const jsonPart = body.subarray(0, headerLength ?? body.length).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(jsonPart);
  } catch {
    return { ok: false, reason: `the answer is not JSON: ${JSON.stringify(jsonPart.slice(0, 80))}` };
  }
  const parsed = inferResponse.safeParse(json);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error) };
  const binary = body.length - (headerLength ?? body.length);
  const declared = parsed.data.outputs.reduce((a, o) => a + (o.parameters?.binary_data_size ?? 0), 0);
  if (declared !== binary) return { ok: false, reason: `the outputs declare ${declared} bytes of binary data but ${binary} follow the JSON` };
  // Each output's bytes follow the JSON in the order the outputs are listed.
  const data = new Map<string, Buffer>();
  let at = headerLength ?? body.length;
  for (const o of parsed.data.outputs) {
    const size = o.parameters?.binary_data_size ?? 0;
    if (size) data.set(o.name, body.subarray(at, at + size));
    at += size;
  }
  return { ok: true, response: parsed.data, binary: data };
}
