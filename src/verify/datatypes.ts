// One table for the three names every tensor type has in verify: the config's TYPE_*, the KServe v2
// protocol's datatype (Triton's TRITONSERVER name), and onnxruntime-node's tensor type. Also the byte
// size of one element in the protocol's binary form (BYTES elements are length-prefixed instead).

export interface DataTypeInfo {
  config: string;
  kserve: string;
  /** onnxruntime-node's Tensor type, or undefined where onnxruntime-node cannot make one (BF16). */
  ort: string | undefined;
  /** Bytes per element in binary tensor data; 0 for BYTES (variable length). */
  bytes: number;
}

const TABLE: DataTypeInfo[] = [
  { config: 'TYPE_BOOL', kserve: 'BOOL', ort: 'bool', bytes: 1 },
  { config: 'TYPE_UINT8', kserve: 'UINT8', ort: 'uint8', bytes: 1 },
  { config: 'TYPE_UINT16', kserve: 'UINT16', ort: 'uint16', bytes: 2 },
  { config: 'TYPE_UINT32', kserve: 'UINT32', ort: 'uint32', bytes: 4 },
  { config: 'TYPE_UINT64', kserve: 'UINT64', ort: 'uint64', bytes: 8 },
  { config: 'TYPE_INT8', kserve: 'INT8', ort: 'int8', bytes: 1 },
  { config: 'TYPE_INT16', kserve: 'INT16', ort: 'int16', bytes: 2 },
  { config: 'TYPE_INT32', kserve: 'INT32', ort: 'int32', bytes: 4 },
  { config: 'TYPE_INT64', kserve: 'INT64', ort: 'int64', bytes: 8 },
  { config: 'TYPE_FP16', kserve: 'FP16', ort: 'float16', bytes: 2 },
  { config: 'TYPE_FP32', kserve: 'FP32', ort: 'float32', bytes: 4 },
  { config: 'TYPE_FP64', kserve: 'FP64', ort: 'float64', bytes: 8 },
  { config: 'TYPE_STRING', kserve: 'BYTES', ort: 'string', bytes: 0 },
  { config: 'TYPE_BF16', kserve: 'BF16', ort: undefined, bytes: 2 },
];

const byConfig = new Map(TABLE.map((t) => [t.config, t]));
const byKserve = new Map(TABLE.map((t) => [t.kserve, t]));
const byOrt = new Map(TABLE.filter((t) => t.ort).map((t) => [t.ort!, t]));

export const dataTypeOfConfig = (name: string): DataTypeInfo | undefined => byConfig.get(name);
export const dataTypeOfKserve = (name: string): DataTypeInfo | undefined => byKserve.get(name);
export const dataTypeOfOrt = (name: string): DataTypeInfo | undefined => byOrt.get(name);
