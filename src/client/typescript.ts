// `tritonc client --lang typescript`: a model's effective config -> one TypeScript module, a typed
// KServe v2 HTTP client for that model (the runtime in typescript-runtime.ts, the model's contract
// above it). Every name from the config reaches the module as a JSON string literal (an interface
// key, a SPEC field), never as an identifier or inside a comment, so a tensor named
// `"; process.exit()//` is a key like any other.
import type { ModelConfig, ModelInput, ModelOutput } from '../config/model-config.js';
import { protocolName, typeName } from '../triton/data-types.js';
import { TYPESCRIPT_RUNTIME } from './typescript-runtime.js';
import { bodyChecksum, clientHeader, configChecksum, type ClientProblem } from './header.js';

/** The TypeScript array each protocol datatype travels in (inputs and outputs alike, BYTES aside). */
const ARRAY_TYPE: Record<string, string> = {
  BOOL: 'Uint8Array', UINT8: 'Uint8Array', INT8: 'Int8Array', UINT16: 'Uint16Array', INT16: 'Int16Array',
  FP16: 'Uint16Array', BF16: 'Uint16Array', UINT32: 'Uint32Array', INT32: 'Int32Array', FP32: 'Float32Array',
  UINT64: 'BigUint64Array', INT64: 'BigInt64Array', FP64: 'Float64Array',
};
const NOTE: Record<string, string> = {
  FP16: ' (FP16 as its raw 16 bits: IEEE half precision)',
  BF16: ' (BF16 as its raw 16 bits: the top half of an FP32)',
  BOOL: ' (BOOL as 0 or 1 per element)',
};

/** A string as a TypeScript string literal: JSON's escapes, with the line and paragraph separators escaped too. */
export function tsString(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export interface ClientSpec {
  name: string;
  maxBatchSize: number;
  inputs: { name: string; datatype: string; dims: number[]; optional?: boolean }[];
  outputs: { name: string; datatype: string; dims: number[] }[];
  sequence: boolean;
  decoupled: boolean;
}

/** The contract a client is made from, read off the effective config; problems where it cannot be. */
export function clientSpec(config: ModelConfig, modelName: string): { spec?: ClientSpec; problems: ClientProblem[] } {
  const problems: ClientProblem[] = [];
  const tensor = (side: 'input' | 'output', t: ModelInput | ModelOutput) => {
    const name = t.name ?? '';
    const type = typeName(t.data_type);
    const datatype = protocolName(type);
    if (datatype !== 'BYTES' && ARRAY_TYPE[datatype] === undefined) problems.push({ message: `${side} ${JSON.stringify(name)} has data_type ${type}, which no client can send` });
    const dims = (t.dims ?? []).map(Number);
    return { name, datatype, dims };
  };
  const inputs = (config.input ?? []).map((t) => ({ ...tensor('input', t), ...(t.optional ? { optional: true } : {}) }));
  const outputs = (config.output ?? []).map((t) => tensor('output', t));
  if (!inputs.length) problems.push({ message: `model ${JSON.stringify(modelName)} has no inputs in its effective config: a client needs them (with a backend that fills them in at load, write them in config.pbtxt)` });
  if (!outputs.length) problems.push({ message: `model ${JSON.stringify(modelName)} has no outputs in its effective config: a client needs them (with a backend that fills them in at load, write them in config.pbtxt)` });
  if (problems.length) return { problems };
  return {
    spec: {
      name: modelName,
      maxBatchSize: Number(config.max_batch_size ?? 0),
      inputs,
      outputs,
      sequence: config.sequence_batching !== undefined,
      decoupled: config.model_transaction_policy?.decoupled === true,
    },
    problems,
  };
}

function shapeDoc(spec: ClientSpec, dims: number[]): string {
  const d = dims.map((x) => (x < 0 ? 'any' : String(x)));
  return `[${(spec.maxBatchSize > 0 ? [`batch 1..${spec.maxBatchSize}`, ...d] : d).join(', ')}]`;
}

/** The module's text: the header, the model's contract as types and SPEC, the runtime, connect(). */
export function typescriptClient(spec: ClientSpec, source: string, config: ModelConfig): string {
  const inputField = (t: ClientSpec['inputs'][number]): string => {
    const data = t.datatype === 'BYTES' ? 'readonly string[] | readonly Uint8Array[]' : ARRAY_TYPE[t.datatype]!;
    // The shape may be left out only where it is fixed: no batch axis and no variable dim.
    const fixed = spec.maxBatchSize === 0 && t.dims.every((d) => d >= 0);
    return [
      `  /** ${t.datatype === 'BYTES' ? 'TYPE_STRING: strings (sent as UTF-8) or byte strings' : `TYPE_${t.datatype}${NOTE[t.datatype] ?? ''}`}; shape ${shapeDoc(spec, t.dims)}${t.optional ? '; optional' : ''}. */`,
      `  readonly ${tsString(t.name)}${t.optional ? '?' : ''}: { readonly data: ${data}; readonly shape${fixed ? '?' : ''}: readonly number[]${fixed ? ' | undefined' : ''} }${t.optional ? ' | undefined' : ''};`,
    ].join('\n');
  };
  const outputField = (t: ClientSpec['outputs'][number]): string => {
    const data = t.datatype === 'BYTES' ? 'Uint8Array[]' : ARRAY_TYPE[t.datatype]!;
    return [
      `  /** ${t.datatype === 'BYTES' ? 'TYPE_STRING: byte strings (decodeStrings() reads them as UTF-8)' : `TYPE_${t.datatype}${NOTE[t.datatype] ?? ''}`}; shape ${shapeDoc(spec, t.dims)}. */`,
      `  ${tsString(t.name)}: { data: ${data}; shape: number[] };`,
    ].join('\n');
  };
  // Names as string literals (tsString), everything else numbers and booleans.
  const tensorLiteral = (t: { name: string; datatype: string; dims: number[]; optional?: boolean }): string =>
    `    { name: ${tsString(t.name)}, datatype: ${tsString(t.datatype)}, dims: [${t.dims.join(', ')}]${t.optional ? ', optional: true' : ''} },`;
  const specLiteral = [
    '{',
    `  name: ${tsString(spec.name)},`,
    `  maxBatchSize: ${spec.maxBatchSize},`,
    '  inputs: [',
    ...spec.inputs.map(tensorLiteral),
    '  ],',
    '  outputs: [',
    ...spec.outputs.map(tensorLiteral),
    '  ],',
    `  sequence: ${spec.sequence},`,
    `  decoupled: ${spec.decoupled},`,
    '}',
  ].join('\n');
  const inferSignature = spec.sequence
    ? '  /** One inference of the sequence options.sequence names (required: the model is a sequence model). */\n  infer(inputs: Inputs, options: InferOptions): Promise<Outputs>;'
    : '  /** One inference: inputs checked here, a batch above max_batch_size split and the outputs joined. */\n  infer(inputs: Inputs, options?: InferOptions): Promise<Outputs>;';
  const about = [
    '// A typed client of one Triton model (MODEL_NAME) over KServe v2 HTTP with binary tensor data: no dependency',
    '// beyond fetch (Node 18+ or a browser); compile for ES2020 or later (BigInt64Array, 0n).',
    `// max_batch_size ${spec.maxBatchSize}${spec.sequence ? '; a sequence model (sequence_batching): every infer names its sequence' : ''}${spec.decoupled ? '; DECOUPLED: Triton\'s HTTP endpoint cannot stream its responses, so connect() refuses it (Unsupported); use gRPC streaming' : ''}.`,
    '// The API and the error classes: tritonc docs/client.md.',
  ];
  const body = [
    ...about,
    '',
    '/** The model\'s contract, as the effective config gives it. */',
    `const SPEC: ModelSpec = ${specLiteral};`,
    '',
    '/** The model\'s name on the server. */',
    'export const MODEL_NAME: string = SPEC.name;',
    '/** The largest batch one request may carry (0: the model does not batch; a larger batch is split). */',
    'export const MAX_BATCH_SIZE: number = SPEC.maxBatchSize;',
    '',
    '/** What infer() takes: each input\'s data and shape. */',
    'export interface Inputs {',
    ...spec.inputs.map(inputField),
    '}',
    '',
    '/** What infer() resolves to: each output\'s data and shape. */',
    'export interface Outputs {',
    ...spec.outputs.map(outputField),
    '}',
    '',
    spec.sequence ? '/** A call\'s options: the sequence is required (the model batches sequences). */\nexport interface InferOptions extends CallOptions {\n  readonly sequence: SequenceOptions;\n}' : '/** A call\'s options. */\nexport interface InferOptions extends CallOptions {\n  /** Not for this model: it is not a sequence model. */\n  readonly sequence?: undefined;\n}',
    '',
    '/** A connected client of the model. */',
    'export interface Client {',
    '  /** The server\'s URL. */',
    '  readonly url: string;',
    inferSignature,
    '  /** Whether the model is ready now (GET /v2/models/<m>/ready). */',
    '  ready(options?: CallOptions): Promise<boolean>;',
    '}',
    '',
    '/**',
    ' * Checks that the server at url is live (GET /v2/health/live) and the model ready (GET',
    ' * /v2/models/<m>/ready), and that it serves the inputs and outputs this client was generated for;',
    ' * throws ServerNotLive, ModelNotReady or ModelMismatch with the reason, else returns the client.',
    ' */',
    'export async function connect(url: string, options: ConnectOptions = {}): Promise<Client> {',
    '  const c = await connectTo(SPEC, url, options);',
    '  return {',
    '    url: c.base,',
    '    infer: (inputs: Inputs, o?: InferOptions) => inferWith(c, SPEC, inputs as unknown as Readonly<Record<string, Tensor | undefined>>, o ?? {}) as Promise<unknown> as Promise<Outputs>,',
    '    ready: async (o: CallOptions = {}) => {',
    '      const s = settingsOf(c.defaults, o);',
    '      const a = await withRetries(s, false, (signal, timedOut, aborted) => c.send(\'GET\', c.modelPath + \'/ready\', signal, timedOut, aborted));',
    '      return a.status === 200;',
    '    },',
    '  };',
    '}',
    TYPESCRIPT_RUNTIME,
  ].join('\n');
  return clientHeader(source, configChecksum(config), bodyChecksum(body)) + body;
}
