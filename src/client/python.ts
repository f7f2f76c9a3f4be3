// `tritonc client --lang python`: a model's contract (clientSpec, from its effective config) -> one
// Python module, a typed client of that model on tritonclient.http or tritonclient.grpc (the runtime,
// runtime/client_core.py, with its transport, runtime/client_http.py or runtime/client_grpc.py: real
// files, see runtime-text.ts; the model's contract below it),
// and a repository's package index. Every name
// from the config reaches the module as an escaped string literal (a TypedDict key, a _SPEC field),
// never as an identifier, a comment or a docstring, so a tensor named `"]); import os #` is a key
// like any other; the module's source is ASCII.
import type { ModelConfig } from '../config/model-config.js';
import { sha256Hex } from '../util/sha256.js';
import { bodyChecksum, clientHeader, configChecksum, readClientHeader } from './header.js';
import { PYTHON_GRPC_RUNTIME, PYTHON_HTTP_RUNTIME, PYTHON_RUNTIME_CORE } from './runtime-text.js';
import type { ClientProtocol, ClientSpec } from './typescript.js';

/** The numpy element type each protocol datatype travels in (tritonclient.utils triton_to_np_dtype; BF16 as float32). */
const NUMPY_TYPE: Record<string, string> = {
  BOOL: 'numpy.bool_',
  UINT8: 'numpy.uint8',
  UINT16: 'numpy.uint16',
  UINT32: 'numpy.uint32',
  UINT64: 'numpy.uint64',
  INT8: 'numpy.int8',
  INT16: 'numpy.int16',
  INT32: 'numpy.int32',
  INT64: 'numpy.int64',
  FP16: 'numpy.float16',
  BF16: 'numpy.float32',
  FP32: 'numpy.float32',
  FP64: 'numpy.float64',
};
const NOTE: Record<string, string> = {
  BF16: ' (BF16 travels as float32: its top 16 bits are sent)',
  BOOL: ' (numpy.bool_)',
};

/** A string as a Python string literal: printable ASCII as it is, everything else escaped (so no name ends the literal or a line). */
export function pyString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\' || ch === '"') out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c < 0x100) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += `\\U${c.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

const KEYWORDS = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally for from global if import in is ' +
    'lambda nonlocal not or pass raise return try while with yield'
  ).split(' '),
);
/** Modules the generated code imports (a client module of that name beside them on sys.path would shadow them), and the index's own name. */
const TAKEN_NAMES = new Set(
  (
    'numpy tritonclient gevent geventhttpclient rapidjson typing dataclasses http importlib json math random socket sys threading time urllib ' +
    'grpc google queue re packaging ' +
    // What a repository's __init__.py imports by name before its modules: `from . import Mapping`
    // would give typing's Mapping, not the model's module.
    'types __future__ MODELS Mapping ModuleType'
  ).split(' '),
);

/** A module name for a model's client: an identifier from its name, never a keyword, a module it imports, or __init__. */
export function pythonModuleName(model: string, taken: Set<string>): string {
  let stem = model.replace(/[^A-Za-z0-9_]/g, '_');
  if (!stem || /^\d/.test(stem)) stem = `_${stem}`;
  if (KEYWORDS.has(stem) || TAKEN_NAMES.has(stem) || stem.startsWith('__')) stem = `${stem}_model`;
  let name = stem;
  for (let n = 2; taken.has(`${name}.py`.toLowerCase()); n++) name = `${stem}_${n}`;
  taken.add(`${name}.py`.toLowerCase());
  return `${name}.py`;
}

function shapeDoc(spec: ClientSpec, dims: number[]): string {
  const d = dims.map((x) => (x < 0 ? 'any' : String(x)));
  return `[${(spec.maxBatchSize > 0 ? [`batch 1..${spec.maxBatchSize}`, ...d] : d).join(', ')}]`;
}

const inputType = (datatype: string): string =>
  datatype === 'BYTES' ? 'Union[npt.NDArray[numpy.object_], npt.NDArray[numpy.bytes_]]' : `npt.NDArray[${NUMPY_TYPE[datatype]!}]`;
const outputType = (datatype: string): string => (datatype === 'BYTES' ? 'npt.NDArray[numpy.object_]' : `npt.NDArray[${NUMPY_TYPE[datatype]!}]`);
const typeDoc = (datatype: string, side: 'input' | 'output'): string =>
  datatype === 'BYTES'
    ? side === 'input'
      ? 'TYPE_STRING: bytes or str elements (str sent as UTF-8)'
      : 'TYPE_STRING: bytes elements (decode_strings() reads them as UTF-8)'
    : `TYPE_${datatype}${NOTE[datatype] ?? ''}`;

/** The keyword options every call takes (the call's time, retries, headers; see docs/client.md). */
const CALL_OPTIONS = [
  'timeout_s: Optional[float] = None',
  'attempt_timeout_s: Optional[float] = None',
  'retries: Optional[int] = None',
  'backoff_s: Optional[float] = None',
  'max_backoff_s: Optional[float] = None',
  'headers: Optional[Mapping[str, str]] = None',
  'request_id: Optional[str] = None',
  'split: Optional[bool] = None',
  'cancel: Optional[threading.Event] = None',
];

/** The options of stream(): a call's but split and attempt_timeout_s (timeout_s is the whole stream's). */
const STREAM_OPTIONS = CALL_OPTIONS.filter((o) => !/^(split|attempt_timeout_s):/.test(o));

/** The module's text: the header, the runtime, the model's contract as types and _SPEC, Client and connect(). */
export function pythonClient(spec: ClientSpec, source: string, config: ModelConfig, protocol: ClientProtocol = 'http'): string {
  const grpc = protocol === 'grpc';
  const streams = grpc && spec.decoupled;
  const call = streams ? 'stream' : 'infer';
  const tensorLiteral = (t: { name: string; datatype: string; dims: number[]; optional?: boolean }): string =>
    `        _TensorSpec(${pyString(t.name)}, ${pyString(t.datatype)}, (${t.dims
      .map((d) => `${d}, `)
      .join('')
      .replace(/, $/, t.dims.length === 1 ? ',' : '')})${t.optional ? ', optional=True' : ''}),`;
  const typedDict = (name: string, entries: string[], total = true): string[] => [
    `${name} = TypedDict(${pyString(name)}, {`,
    ...entries,
    `}${total ? '' : ', total=False'})`,
  ];
  const inputEntry = (t: ClientSpec['inputs'][number]): string =>
    `    ${pyString(t.name)}: ${inputType(t.datatype)},  # ${typeDoc(t.datatype, 'input')}; shape ${shapeDoc(spec, t.dims)}`;
  const outputEntry = (t: ClientSpec['outputs'][number]): string =>
    `    ${pyString(t.name)}: ${outputType(t.datatype)},  # ${typeDoc(t.datatype, 'output')}; shape ${shapeDoc(spec, t.dims)}`;
  const seqOption = spec.sequence ? ['sequence: SequenceOptions'] : [];
  const options = [...seqOption, ...(streams ? STREAM_OPTIONS : CALL_OPTIONS)];
  const decoupledDoc = spec.decoupled
    ? grpc
      ? '; DECOUPLED: its responses stream (stream(), over ModelStreamInfer)'
      : "; DECOUPLED: Triton's HTTP endpoint cannot stream its responses, so connect() refuses it (Unsupported); use gRPC streaming"
    : '';
  const method = streams
    ? [
        '    def stream(',
        '        self,',
        '        inputs: Inputs,',
        '        *,',
        ...options.map((o) => `        ${o},`),
        '    ) -> Iterator[Outputs]:',
        '        """The responses to one request, one Outputs each, in the order the model sends them, until its final one (stopping early cancels the stream)."""',
        '        s = _settings_of(self._c.defaults, timeout_s, None, retries, backoff_s, max_backoff_s, None, headers, request_id, cancel)',
        `        return cast(Iterator[Outputs], _stream(self._c, inputs, s, ${spec.sequence ? 'sequence' : 'None'}))`,
      ]
    : [
        '    def infer(',
        '        self,',
        '        inputs: Inputs,',
        '        *,',
        ...options.map((o) => `        ${o},`),
        '    ) -> Outputs:',
        spec.sequence
          ? '        """One inference of the sequence `sequence` names (required: the model is a sequence model)."""'
          : '        """One inference: inputs checked here, a batch above max_batch_size split and the outputs joined."""',
        '        s = _settings_of(self._c.defaults, timeout_s, attempt_timeout_s, retries, backoff_s, max_backoff_s, split, headers, request_id, cancel)',
        `        return cast(Outputs, _infer(self._c, inputs, s, ${spec.sequence ? 'sequence' : 'None'}))`,
      ];
  const body = [
    '"""',
    ...(grpc
      ? [
          'A typed client of one Triton model (MODEL_NAME) over KServe v2 gRPC, on tritonclient.grpc',
          '(pip install "tritonclient[grpc]" numpy); it type-checks under mypy --strict.',
        ]
      : [
          'A typed client of one Triton model (MODEL_NAME) over KServe v2 HTTP with binary tensor data, on',
          'tritonclient.http (pip install "tritonclient[http]" numpy); it type-checks under mypy --strict.',
        ]),
    `max_batch_size ${spec.maxBatchSize}${spec.sequence ? `; a sequence model (sequence_batching): every ${streams ? 'stream' : 'infer'} names its sequence` : ''}${decoupledDoc}.`,
    'The API and the error classes: tritonc docs/client.md.',
    '"""',
    '',
    'from __future__ import annotations',
    PYTHON_RUNTIME_CORE,
    grpc ? PYTHON_GRPC_RUNTIME : PYTHON_HTTP_RUNTIME,
    '',
    "# The model's contract, as the effective config gives it.",
    '_SPEC = _ModelSpec(',
    `    name=${pyString(spec.name)},`,
    `    max_batch_size=${spec.maxBatchSize},`,
    '    inputs=(',
    ...spec.inputs.map(tensorLiteral),
    '    ),',
    '    outputs=(',
    ...spec.outputs.map(tensorLiteral),
    '    ),',
    `    sequence=${spec.sequence ? 'True' : 'False'},`,
    `    decoupled=${spec.decoupled ? 'True' : 'False'},`,
    ')',
    '',
    "#: The model's name on the server.",
    'MODEL_NAME: str = _SPEC.name',
    '#: The largest batch one request may carry (0: the model does not batch; a larger batch is split).',
    'MAX_BATCH_SIZE: int = _SPEC.max_batch_size',
    '',
    `# What ${call}() takes: each input's numpy array, whose shape is the request's (the batch axis first where max_batch_size > 0).`,
    ...typedDict('_RequiredInputs', spec.inputs.filter((t) => !t.optional).map(inputEntry)),
    ...typedDict('_OptionalInputs', spec.inputs.filter((t) => t.optional).map(inputEntry), false),
    '',
    '',
    'class Inputs(_RequiredInputs, _OptionalInputs):',
    `    """What ${call}() takes: each input's numpy array by input name (optional inputs may be left out)."""`,
    '',
    '',
    streams
      ? "# What each response of stream() holds: each output's numpy array by output name."
      : "# What infer() returns: each output's numpy array by output name.",
    ...typedDict('Outputs', spec.outputs.map(outputEntry)),
    '',
    '',
    'class Client(_Client):',
    '    """A connected client of the model (connect() makes it)."""',
    '',
    ...method,
    '',
    '',
    'def connect(',
    '    url: str,',
    '    *,',
    '    headers: Optional[Mapping[str, str]] = None,',
    '    version: Union[int, str, None] = None,',
    '    wait_s: float = 0.0,',
    '    check_metadata: bool = True,',
    '    timeout_s: float = 60.0,',
    '    attempt_timeout_s: Optional[float] = None,',
    '    retries: int = 3,',
    '    backoff_s: float = 0.1,',
    '    max_backoff_s: float = 2.0,',
    ') -> Client:',
    '    """',
    ...(grpc
      ? [
          '    Checks that the server at url (host:port, grpc://host:port, or grpcs://host:port for TLS) is live',
          '    (ServerLive) and the model ready (ModelReady), and that it serves the inputs and outputs this',
          '    client was generated for (ModelMetadata); raises ServerNotLive, ModelNotReady or ModelMismatch',
          '    with the reason, else returns the client. The call options given here are the defaults of every call.',
        ]
      : [
          '    Checks that the server at url is live (GET /v2/health/live) and the model ready (GET',
          '    /v2/models/<m>/ready), and that it serves the inputs and outputs this client was generated for;',
          '    raises ServerNotLive, ModelNotReady or ModelMismatch with the reason, else returns the client.',
          '    The call options given here are the defaults of every call.',
        ]),
    '    """',
    '    defaults = _settings_of(_Settings(), timeout_s, attempt_timeout_s, retries, backoff_s, max_backoff_s)',
    `    return Client(_connect(${grpc ? '_GrpcConnection' : '_Connection'}(_SPEC, url, headers, version, defaults), wait_s, check_metadata))`,
    '',
    '',
    '__all__ = [',
    '    "Aborted", "Client", "InferenceFailed", "Inputs", "InvalidInput", "MAX_BATCH_SIZE", "MODEL_NAME", "ModelMismatch",',
    '    "ModelNotReady", "Outputs", "SequenceOptions", "ServerNotLive", "Timeout", "TritonClientError", "Unavailable",',
    '    "Unsupported", "connect", "decode_strings",',
    ']',
    '',
  ].join('\n');
  return clientHeader(source, configChecksum(config), bodyChecksum(body), `--lang python --protocol ${protocol}`, '#') + body;
}

/** __init__.py: each model's module, and MODELS by model name. */
export function pythonIndex(modules: readonly { file: string; model: string; header: string }[], repo: string, protocol: ClientProtocol = 'http'): string {
  const ids = modules.map((m) => ({ ...m, id: m.file.replace(/\.py$/, '') }));
  const body = [
    '"""',
    "The clients of the repository's models, one module each (see each module for its API; tritonc docs/client.md).",
    'Each module is self-contained: its error classes are its own (compare type(err).__name__ across modules).',
    '"""',
    '',
    'from types import ModuleType',
    'from typing import Mapping',
    '',
    ...ids.map((m) => `from . import ${m.id} as ${m.id}`),
    '',
    "#: Each model's client module, by the model's name.",
    'MODELS: Mapping[str, ModuleType] = {',
    ...ids.map((m) => `    ${pyString(m.model)}: ${m.id},`),
    '}',
    '',
    `__all__ = [${['MODELS', ...ids.map((m) => m.id)].map((x) => pyString(x)).join(', ')}]`,
    '',
  ].join('\n');
  // The index's "config" checksum covers the models' own: a model added, removed or changed changes it.
  const sum = sha256Hex(modules.map((m) => readClientHeader(m.header)?.config ?? '').join('\n')).slice(0, 16);
  return clientHeader(`${repo}/`, sum, bodyChecksum(body), `--lang python --protocol ${protocol}`, '#') + body;
}
