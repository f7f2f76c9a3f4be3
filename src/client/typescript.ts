// `tritonc client --lang typescript`: a model's effective config -> one TypeScript module, a typed
// KServe v2 client for that model over HTTP or gRPC (the model's contract, then the runtime,
// runtime/client-core.ts, and the protocol's transport, runtime/client-http.ts or
// runtime/client-grpc.ts: real files, see runtime-text.ts). Every name from the config reaches the
// module as a JSON string literal (an interface key, a SPEC field), never as an identifier or inside a comment, so a tensor named
// `"; process.exit()//` is a key like any other.
import type { ModelConfig, ModelInput, ModelOutput } from '../config/model-config.js';
import { protocolName, typeName } from '../triton/data-types.js';
import { GRPC_RUNTIME, HTTP_RUNTIME, RUNTIME_CORE } from './runtime-text.js';
import { bodyChecksum, clientHeader, configChecksum, type ClientProblem } from './header.js';

/** The import the gRPC module starts with (the user installs @grpc/grpc-js); runtime/client-grpc.ts uses it. */
const GRPC_IMPORT = "import * as grpc from '@grpc/grpc-js';";

/** The TypeScript array each protocol datatype travels in (inputs and outputs alike, BYTES aside). */
const ARRAY_TYPE: Record<string, string> = {
  BOOL: 'Uint8Array',
  UINT8: 'Uint8Array',
  INT8: 'Int8Array',
  UINT16: 'Uint16Array',
  INT16: 'Int16Array',
  FP16: 'Uint16Array',
  BF16: 'Uint16Array',
  UINT32: 'Uint32Array',
  INT32: 'Int32Array',
  FP32: 'Float32Array',
  UINT64: 'BigUint64Array',
  INT64: 'BigInt64Array',
  FP64: 'Float64Array',
};
const NOTE: Record<string, string> = {
  FP16: ' (FP16 as its raw 16 bits: IEEE half precision)',
  BF16: ' (BF16 as its raw 16 bits: the top half of an FP32)',
  BOOL: ' (BOOL as 0 or 1 per element)',
};

/** A string as a TypeScript string literal: JSON's escapes, with the line and paragraph separators escaped too. */
export function tsString(s: string): string {
  return JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
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
    if (datatype !== 'BYTES' && ARRAY_TYPE[datatype] === undefined)
      problems.push({ message: `${side} ${JSON.stringify(name)} has data_type ${type}, which no client can send` });
    const dims = (t.dims ?? []).map(Number);
    return { name, datatype, dims };
  };
  const inputs = (config.input ?? []).map((t) => ({ ...tensor('input', t), ...(t.optional ? { optional: true } : {}) }));
  const outputs = (config.output ?? []).map((t) => tensor('output', t));
  if (!inputs.length)
    problems.push({
      message: `model ${JSON.stringify(modelName)} has no inputs in its effective config: a client needs them (with a backend that fills them in at load, write them in config.pbtxt)`,
    });
  if (!outputs.length)
    problems.push({
      message: `model ${JSON.stringify(modelName)} has no outputs in its effective config: a client needs them (with a backend that fills them in at load, write them in config.pbtxt)`,
    });
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

/** A call's options type: the sequence required for a sequence model, refused otherwise. */
function optionsType(name: string, base: string, sequence: boolean): string {
  return sequence
    ? `/** A call's options: the sequence is required (the model batches sequences). */\nexport interface ${name} extends ${base} {\n  readonly sequence: SequenceOptions;\n}`
    : `/** A call's options. */\nexport interface ${name} extends ${base} {\n  /** Not for this model: it is not a sequence model. */\n  readonly sequence?: undefined;\n}`;
}

function shapeDoc(spec: ClientSpec, dims: number[]): string {
  const d = dims.map((x) => (x < 0 ? 'any' : String(x)));
  return `[${(spec.maxBatchSize > 0 ? [`batch 1..${spec.maxBatchSize}`, ...d] : d).join(', ')}]`;
}

export type ClientProtocol = 'http' | 'grpc';

/** The module's text: the header, the model's contract as types and SPEC, connect(), the runtime and the protocol's transport. */
export function typescriptClient(spec: ClientSpec, source: string, config: ModelConfig, protocol: ClientProtocol = 'http'): string {
  const grpc = protocol === 'grpc';
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
  const optionsArg = spec.sequence ? 'options: InferOptions' : 'options?: InferOptions';
  const streamArg = spec.sequence ? 'options: StreamOptions' : 'options?: StreamOptions';
  const calls =
    grpc && spec.decoupled
      ? [
          `  /** One request's responses as they come (ModelStreamInfer), in order, ending after the final one; inputs checked here, never split${spec.sequence ? '; options.sequence names the sequence' : ''}. */`,
          `  stream(inputs: Inputs, ${streamArg}): AsyncIterable<Outputs>;`,
        ]
      : [
          spec.sequence
            ? '  /** One inference of the sequence options.sequence names (required: the model is a sequence model). */'
            : '  /** One inference: inputs checked here, a batch above max_batch_size split and the outputs joined. */',
          `  infer(inputs: Inputs, ${optionsArg}): Promise<Outputs>;`,
        ];
  const about = grpc
    ? [
        '// A typed client of one Triton model (MODEL_NAME) over KServe v2 gRPC: needs @grpc/grpc-js (npm install',
        '// @grpc/grpc-js) and Node 18+; compile for ES2020 or later (BigInt64Array, 0n).',
        `// max_batch_size ${spec.maxBatchSize}${spec.sequence ? '; a sequence model (sequence_batching): every call names its sequence' : ''}${spec.decoupled ? '; DECOUPLED: its responses stream (stream())' : ''}.`,
        '// The API and the error classes: tritonc docs/client.md.',
        GRPC_IMPORT,
      ]
    : [
        '// A typed client of one Triton model (MODEL_NAME) over KServe v2 HTTP with binary tensor data: no dependency',
        '// beyond fetch (Node 18+ or a browser); compile for ES2020 or later (BigInt64Array, 0n).',
        `// max_batch_size ${spec.maxBatchSize}${spec.sequence ? '; a sequence model (sequence_batching): every infer names its sequence' : ''}${spec.decoupled ? "; DECOUPLED: Triton's HTTP endpoint cannot stream its responses, so connect() refuses it (Unsupported); use --protocol grpc" : ''}.`,
        '// The API and the error classes: tritonc docs/client.md.',
      ];
  const body = [
    ...about,
    '',
    "/** The model's contract, as the effective config gives it. */",
    `const SPEC: ModelSpec = ${specLiteral};`,
    '',
    "/** The model's name on the server. */",
    'export const MODEL_NAME: string = SPEC.name;',
    '/** The largest batch one request may carry (0: the model does not batch; a larger batch is split). */',
    'export const MAX_BATCH_SIZE: number = SPEC.maxBatchSize;',
    '',
    "/** What infer() takes: each input's data and shape. */",
    'export interface Inputs {',
    ...spec.inputs.map(inputField),
    '}',
    '',
    "/** What infer() resolves to: each output's data and shape. */",
    'export interface Outputs {',
    ...spec.outputs.map(outputField),
    '}',
    '',
    optionsType('InferOptions', 'CallOptions', spec.sequence),
    ...(grpc && spec.decoupled ? ['', optionsType('StreamOptions', 'StreamCallOptions', spec.sequence)] : []),
    '',
    '/** A connected client of the model. */',
    'export interface Client {',
    `  /** The server's ${grpc ? 'address (grpc://host:port)' : 'URL'}. */`,
    '  readonly url: string;',
    ...calls,
    `  /** Whether the model is ready now (${grpc ? 'ModelReady' : 'GET /v2/models/<m>/ready'}). */`,
    '  ready(options?: CallOptions): Promise<boolean>;',
    `  /** ${grpc ? 'Closes the channel (calls in flight end).' : 'Nothing to close over HTTP (there for the same API as the gRPC client).'} */`,
    '  close(): void;',
    '}',
    '',
    '/**',
    grpc
      ? ' * Checks that the server at url (host:port, grpc://host:port or grpcs://host:port) is live (ServerLive)'
      : ' * Checks that the server at url is live (GET /v2/health/live) and the model ready (GET',
    grpc
      ? ' * and the model ready (ModelReady), and that it serves the inputs and outputs this client was generated'
      : ' * /v2/models/<m>/ready), and that it serves the inputs and outputs this client was generated for;',
    grpc
      ? ' * for (ModelMetadata); throws ServerNotLive, ModelNotReady or ModelMismatch with the reason, else returns the client.'
      : ' * throws ServerNotLive, ModelNotReady or ModelMismatch with the reason, else returns the client.',
    ' */',
    'export async function connect(url: string, options: ConnectOptions = {}): Promise<Client> {',
    '  return (await open(SPEC, url, options)) as unknown as Client;',
    '}',
    RUNTIME_CORE,
    grpc ? GRPC_RUNTIME : HTTP_RUNTIME,
  ].join('\n');
  return clientHeader(source, configChecksum(config), bodyChecksum(body), `--lang typescript --protocol ${protocol}`) + body;
}
