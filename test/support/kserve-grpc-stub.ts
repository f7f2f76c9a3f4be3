// A stand-in for Triton's gRPC endpoint (inference.GRPCInferenceService), made with @grpc/grpc-js and
// protobufjs, for what the real tritonserver cannot be made to do on cue (answer UNAVAILABLE, fail a
// stream halfway, never answer) and to read back exactly what a client sent. The messages are those of
// common protobuf/grpc_service.proto (r24.10), reduced to the fields used here, with its field numbers;
// the test against the real server (test/server/client-grpc-real-triton.test.ts) holds the client to
// the real thing. Each answer cites the server code it imitates.
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';

const PROTO = `
syntax = "proto3";
package inference;
message ServerLiveRequest {}
message ServerLiveResponse { bool live = 1; }
message ModelReadyRequest { string name = 1; string version = 2; }
message ModelReadyResponse { bool ready = 1; }
message ModelMetadataRequest { string name = 1; string version = 2; }
message ModelMetadataResponse {
  message TensorMetadata { string name = 1; string datatype = 2; repeated int64 shape = 3; }
  string name = 1; repeated string versions = 2; string platform = 3;
  repeated TensorMetadata inputs = 4; repeated TensorMetadata outputs = 5;
}
message InferParameter { oneof parameter_choice { bool bool_param = 1; int64 int64_param = 2; string string_param = 3; double double_param = 4; uint64 uint64_param = 5; } }
message ModelInferRequest {
  message InferInputTensor { string name = 1; string datatype = 2; repeated int64 shape = 3; map<string, InferParameter> parameters = 4; }
  message InferRequestedOutputTensor { string name = 1; map<string, InferParameter> parameters = 2; }
  string model_name = 1; string model_version = 2; string id = 3; map<string, InferParameter> parameters = 4;
  repeated InferInputTensor inputs = 5; repeated InferRequestedOutputTensor outputs = 6; repeated bytes raw_input_contents = 7;
}
message ModelInferResponse {
  message InferOutputTensor { string name = 1; string datatype = 2; repeated int64 shape = 3; map<string, InferParameter> parameters = 4; }
  string model_name = 1; string model_version = 2; string id = 3; map<string, InferParameter> parameters = 4;
  repeated InferOutputTensor outputs = 5; repeated bytes raw_output_contents = 6;
}
message ModelStreamInferResponse { string error_message = 1; ModelInferResponse infer_response = 2; }
message RepositoryIndexRequest { string repository_name = 1; bool ready = 2; }
message RepositoryIndexResponse {
  message ModelIndex { string name = 1; string version = 2; string state = 3; string reason = 4; }
  repeated ModelIndex models = 1;
}
`;

const root = protobuf.parse(PROTO, { keepCase: true }).root;
const type = (name: string) => root.lookupType(`inference.${name}`);

export interface StubTensor {
  name: string;
  datatype: string;
  shape: number[];
  bytes: Uint8Array;
}
/** A request as the stub read it: parameters with their oneof case and value as text (int64 as protobufjs reads it). */
export interface StubRequest {
  model: string;
  id: string;
  parameters: Record<string, { case: string; value: string }>;
  inputs: StubTensor[];
  outputs: string[];
  metadata: grpc.Metadata;
}
export interface StubModel {
  maxBatchSize: number;
  inputs: { name: string; datatype: string; dims: number[] }[];
  outputs: { name: string; datatype: string; dims: number[] }[];
  ready: boolean;
  state?: string;
  reason?: string;
}
/** What a call answers: outputs, or a gRPC status. */
export type StubAnswer = { outputs: StubTensor[] } | { code: grpc.status; details: string };
/** What a stream sends for one request: responses (outputs, a final flag or an error message), then the status. */
export type StubStreamPart = { outputs: StubTensor[]; final?: boolean } | { final: true; outputs?: undefined } | { error: string } | { hang: true };

export interface GrpcStub {
  address: string;
  models: Record<string, StubModel>;
  /** The ModelInfer and ModelStreamInfer requests, in order. */
  requests: StubRequest[];
  /** The methods called, in order. */
  calls: string[];
  /** The answer of a ModelInfer (default: zeros of each output's shape). */
  infer: (r: StubRequest) => StubAnswer | undefined;
  /** The parts a ModelStreamInfer sends for a request (default: one response and the final flag). */
  stream: (r: StubRequest) => StubStreamPart[] | undefined;
  /** The key and value of --grpc-restricted-protocol: every call must carry the header triton-grpc-protocol-<key>, else UNAVAILABLE. */
  restricted?: { header: string; value: string };
  stop(): Promise<void>;
}

const ELEMENT: Record<string, number> = {
  BOOL: 1,
  UINT8: 1,
  INT8: 1,
  UINT16: 2,
  INT16: 2,
  FP16: 2,
  BF16: 2,
  UINT32: 4,
  INT32: 4,
  FP32: 4,
  UINT64: 8,
  INT64: 8,
  FP64: 8,
};

/** Zeros of an output for a batch (BYTES: that many empty strings, each a 4-byte length 0). */
export function zeros(model: StubModel, name: string, batch: number): StubTensor {
  const t = model.outputs.find((o) => o.name === name)!;
  const shape = (model.maxBatchSize > 0 ? [batch] : []).concat(t.dims.map((d) => (d < 0 ? 1 : d)));
  const count = shape.reduce((a, b) => a * b, 1);
  return { name, datatype: t.datatype, shape, bytes: new Uint8Array(count * (ELEMENT[t.datatype] ?? 4)) };
}

function readRequest(b: Buffer, metadata: grpc.Metadata): StubRequest {
  const T = type('ModelInferRequest');
  const m = T.toObject(T.decode(b), { longs: String, oneofs: true, defaults: true }) as {
    model_name: string;
    id: string;
    parameters: Record<string, Record<string, unknown> & { parameter_choice: string }>;
    inputs: { name: string; datatype: string; shape: string[] }[];
    outputs: { name: string }[];
    raw_input_contents: Uint8Array[];
  };
  return {
    model: m.model_name,
    id: m.id,
    parameters: Object.fromEntries(Object.entries(m.parameters).map(([k, v]) => [k, { case: v.parameter_choice, value: String(v[v.parameter_choice]) }])),
    inputs: m.inputs.map((t, i) => ({ name: t.name, datatype: t.datatype, shape: t.shape.map(Number), bytes: m.raw_input_contents[i] ?? new Uint8Array(0) })),
    outputs: m.outputs.map((o) => o.name),
    metadata,
  };
}

function response(r: StubRequest, outputs: StubTensor[], final?: boolean) {
  return {
    model_name: r.model,
    id: r.id,
    // server src/grpc/stream_infer_handler.cc StreamInferResponseComplete: triton_final_response on each stream response.
    parameters: final === undefined ? {} : { triton_final_response: { bool_param: final } },
    outputs: outputs.map((o) => ({ name: o.name, datatype: o.datatype, shape: o.shape })),
    // server src/grpc/infer_handler.cc: each output's bytes in raw_output_contents, in the order of outputs.
    raw_output_contents: outputs.map((o) => o.bytes),
  };
}

export async function startGrpcStub(models: Record<string, StubModel>): Promise<GrpcStub> {
  const server = new grpc.Server();
  const id = (x: Buffer): Buffer => x;
  const unary = (name: string, handle: (req: Buffer, md: grpc.Metadata) => { reply?: Uint8Array; code?: grpc.status; details?: string }) =>
    [
      name,
      {
        path: `/inference.GRPCInferenceService/${name}`,
        requestStream: false,
        responseStream: false,
        requestSerialize: id,
        requestDeserialize: id,
        responseSerialize: id,
        responseDeserialize: id,
      },
      (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        stub.calls.push(name);
        // server src/grpc/grpc_server.cc CommonCallData::Execute: a restricted protocol without its header,
        // which is the key given to --grpc-restricted-protocol after "triton-grpc-protocol-" (src/grpc/grpc_server.h).
        const header = `triton-grpc-protocol-${stub.restricted?.header}`;
        if (stub.restricted && call.metadata.get(header)[0] !== stub.restricted.value) {
          callback({ code: grpc.status.UNAVAILABLE, details: `This protocol is restricted, expecting header '${header}'` });
          return;
        }
        const r = handle(call.request, call.metadata);
        if (r.code !== undefined) callback({ code: r.code, details: r.details ?? '' });
        else callback(null, Buffer.from(r.reply!));
      },
    ] as const;
  const encode = (name: string, value: object): Uint8Array => type(name).encode(type(name).fromObject(value)).finish();
  const named = (b: Buffer) => (type('ModelReadyRequest').decode(b) as unknown as { name: string }).name;
  const handlers = [
    // server src/grpc/grpc_server.cc: ServerLive, ModelReady, ModelMetadata, RepositoryIndex each answer their response message.
    unary('ServerLive', () => ({ reply: encode('ServerLiveResponse', { live: true }) })),
    unary('ModelReady', (b) => ({ reply: encode('ModelReadyResponse', { ready: stub.models[named(b)]?.ready === true }) })),
    unary('ModelMetadata', (b) => {
      const m = stub.models[named(b)];
      // core: an unknown model is NOT_FOUND "Request for unknown model: '<m>' is not found".
      if (!m) return { code: grpc.status.NOT_FOUND, details: `Request for unknown model: '${named(b)}' is not found` };
      const meta = (t: { name: string; datatype: string; dims: number[] }) => ({
        name: t.name,
        datatype: t.datatype,
        shape: (m.maxBatchSize > 0 ? [-1] : []).concat(t.dims),
      });
      return {
        reply: encode('ModelMetadataResponse', {
          name: named(b),
          versions: ['1'],
          platform: 'python',
          inputs: m.inputs.map(meta),
          outputs: m.outputs.map(meta),
        }),
      };
    }),
    unary('RepositoryIndex', () => ({
      reply: encode('RepositoryIndexResponse', {
        models: Object.entries(stub.models).map(([name, m]) => ({
          name,
          version: '1',
          state: m.state ?? (m.ready ? 'READY' : 'UNAVAILABLE'),
          reason: m.reason ?? '',
        })),
      }),
    })),
    unary('ModelInfer', (b, md) => {
      const r = readRequest(b, md);
      stub.requests.push(r);
      const m = stub.models[r.model];
      // core src/model_repository_manager/model_lifecycle.cc GetModel: no ready version is NOT_FOUND.
      if (!m?.ready) return { code: grpc.status.NOT_FOUND, details: `Request for unknown model: '${r.model}' has no available versions` };
      const answer = stub.infer(r) ?? { outputs: r.outputs.map((name) => zeros(m, name, r.inputs[0]?.shape[0] ?? 1)) };
      if ('code' in answer) return answer;
      return { reply: encode('ModelInferResponse', response(r, answer.outputs)) };
    }),
  ];
  const definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const [name, def, impl] of handlers) {
    definition[name] = def;
    implementation[name] = impl as grpc.handleUnaryCall<Buffer, Buffer>;
  }
  definition.ModelStreamInfer = {
    path: '/inference.GRPCInferenceService/ModelStreamInfer',
    requestStream: true,
    responseStream: true,
    requestSerialize: id,
    requestDeserialize: id,
    responseSerialize: id,
    responseDeserialize: id,
  };
  implementation.ModelStreamInfer = ((call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
    stub.calls.push('ModelStreamInfer');
    call.on('data', (b: Buffer) => {
      const r = readRequest(b, call.metadata);
      stub.requests.push(r);
      const m = stub.models[r.model];
      const parts = stub.stream(r) ?? [{ outputs: r.outputs.map((name) => zeros(m!, name, 1)) }, { final: true }];
      for (const p of parts) {
        if ('hang' in p) return;
        // server src/grpc/stream_infer_handler.cc: a failed request is a response with error_message only.
        if ('error' in p) call.write(Buffer.from(encode('ModelStreamInferResponse', { error_message: p.error, infer_response: { id: r.id } })));
        else call.write(Buffer.from(encode('ModelStreamInferResponse', { infer_response: response(r, p.outputs ?? [], p.final === true) })));
      }
      call.end();
    });
  }) as grpc.handleBidiStreamingCall<Buffer, Buffer>;
  server.addService(definition, implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const stub: GrpcStub = {
    address: `127.0.0.1:${port}`,
    models,
    requests: [],
    calls: [],
    infer: () => undefined,
    stream: () => undefined,
    // Streams left hanging end with the server.
    stop: async () => server.forceShutdown(),
  };
  return stub;
}
