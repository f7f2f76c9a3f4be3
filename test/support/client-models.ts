// The models the generated clients are tested on (test/client/, test/server/client-real-triton.test.ts):
// Python-backend models the real tritonserver runs on the CPU, each config as config.pbtxt and as the
// protobuf JSON the protocol fixture serves.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestModel {
  pbtxt: string;
  /** The effective config as GET /v2/models/<m>/config answers it (what the protocol fixture serves). */
  json: Record<string, unknown>;
  py?: string;
}

const ADD_ONE_PY = `import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            x = pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", (x + 1).astype(np.float32))]))
        return responses
`;

/** Upper-cases each string and counts its bytes: a BYTES input and output, and an INT64 output. */
const UPPER_PY = `import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            text = pb_utils.get_input_tensor_by_name(request, "TEXT").as_numpy()
            upper = np.array([[s.upper() for s in row] for row in text], dtype=np.object_)
            lengths = np.array([[len(s) for s in row] for row in text], dtype=np.int64)
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("UPPER", upper), pb_utils.Tensor("LENGTHS", lengths)]))
        return responses
`;

/**
 * Sums VALUE over a sequence: START (the sequence batcher's control) resets the correlation id's total.
 * max_batch_size 2 gives the one instance two sequence slots (core sequence_batch_scheduler.cc): with
 * one, a second sequence waits in the backlog until the first ends.
 */
const COUNTER_PY = `import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        self.totals = {}

    def execute(self, requests):
        responses = []
        for request in requests:
            start = int(pb_utils.get_input_tensor_by_name(request, "START").as_numpy().flatten()[0])
            value = int(pb_utils.get_input_tensor_by_name(request, "VALUE").as_numpy().sum())
            cid = request.correlation_id()
            total = (0 if start else self.totals.get(cid, 0)) + value
            self.totals[cid] = total
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("TOTAL", np.array([[total]], dtype=np.int32))]))
        return responses
`;

/**
 * A decoupled model: for IN = n it sends n responses, OUT = 1..n, one by one, then the final flag with no
 * response (as python_backend examples/decoupled/square_model.py does for IN = n); IN < 0 is an error
 * response (pb_utils.TritonError) sent with the final flag.
 */
const STREAMER_PY = `import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        for request in requests:
            sender = request.get_response_sender()
            n = int(pb_utils.get_input_tensor_by_name(request, "IN").as_numpy().flatten()[0])
            if n < 0:
                error = pb_utils.TritonError("IN must be 0 or more, got " + str(n))
                sender.send(pb_utils.InferenceResponse(error=error), flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
                continue
            for i in range(n):
                sender.send(pb_utils.InferenceResponse([pb_utils.Tensor("OUT", np.array([i + 1], dtype=np.int32))]))
            sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
        return None
`;

/** Answers after SECONDS (its input) seconds: for the timeout. */
const SLOW_PY = `import time
import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            s = pb_utils.get_input_tensor_by_name(request, "SECONDS").as_numpy()
            time.sleep(float(s.flatten()[0]))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("DONE", s.astype(np.float32))]))
        return responses
`;

export const CLIENT_MODELS: Record<string, TestModel> = {
  add_one: {
    pbtxt: `name: "add_one"
backend: "python"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
`,
    json: {
      name: 'add_one',
      backend: 'python',
      max_batch_size: 8,
      input: [{ name: 'INPUT0', data_type: 'TYPE_FP32', dims: ['4'] }],
      output: [{ name: 'OUTPUT0', data_type: 'TYPE_FP32', dims: ['4'] }],
    },
    py: ADD_ONE_PY,
  },
  upper: {
    pbtxt: `name: "upper"
backend: "python"
max_batch_size: 4
input [ { name: "TEXT" data_type: TYPE_STRING dims: [ -1 ] } ]
output [ { name: "UPPER" data_type: TYPE_STRING dims: [ -1 ] }, { name: "LENGTHS" data_type: TYPE_INT64 dims: [ -1 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
`,
    json: {
      name: 'upper',
      backend: 'python',
      max_batch_size: 4,
      input: [{ name: 'TEXT', data_type: 'TYPE_STRING', dims: ['-1'] }],
      output: [
        { name: 'UPPER', data_type: 'TYPE_STRING', dims: ['-1'] },
        { name: 'LENGTHS', data_type: 'TYPE_INT64', dims: ['-1'] },
      ],
    },
    py: UPPER_PY,
  },
  counter: {
    pbtxt: `name: "counter"
backend: "python"
max_batch_size: 2
sequence_batching {
  max_sequence_idle_microseconds: 60000000
  control_input [ { name: "START" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] } ]
}
input [ { name: "VALUE" data_type: TYPE_INT32 dims: [ 1 ] } ]
output [ { name: "TOTAL" data_type: TYPE_INT32 dims: [ 1 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
`,
    json: {
      name: 'counter',
      backend: 'python',
      max_batch_size: 2,
      sequence_batching: {},
      input: [{ name: 'VALUE', data_type: 'TYPE_INT32', dims: ['1'] }],
      output: [{ name: 'TOTAL', data_type: 'TYPE_INT32', dims: ['1'] }],
    },
    py: COUNTER_PY,
  },
  slow: {
    pbtxt: `name: "slow"
backend: "python"
max_batch_size: 0
input [ { name: "SECONDS" data_type: TYPE_FP32 dims: [ 1 ] } ]
output [ { name: "DONE" data_type: TYPE_FP32 dims: [ 1 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
`,
    json: {
      name: 'slow',
      backend: 'python',
      max_batch_size: 0,
      input: [{ name: 'SECONDS', data_type: 'TYPE_FP32', dims: ['1'] }],
      output: [{ name: 'DONE', data_type: 'TYPE_FP32', dims: ['1'] }],
    },
    py: SLOW_PY,
  },
  // An ensemble is one model to its client: its own inputs and outputs (add_one twice).
  pipeline: {
    pbtxt: `name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]
ensemble_scheduling {
  step [
    { model_name: "add_one" model_version: -1 input_map { key: "INPUT0" value: "IN" } output_map { key: "OUTPUT0" value: "mid" } },
    { model_name: "add_one" model_version: -1 input_map { key: "INPUT0" value: "mid" } output_map { key: "OUTPUT0" value: "OUT" } }
  ]
}
`,
    json: {
      name: 'pipeline',
      platform: 'ensemble',
      max_batch_size: 8,
      input: [{ name: 'IN', data_type: 'TYPE_FP32', dims: ['4'] }],
      output: [{ name: 'OUT', data_type: 'TYPE_FP32', dims: ['4'] }],
    },
  },
  streamer: {
    pbtxt: `name: "streamer"
backend: "python"
max_batch_size: 0
model_transaction_policy { decoupled: true }
input [ { name: "IN" data_type: TYPE_INT32 dims: [ 1 ] } ]
output [ { name: "OUT" data_type: TYPE_INT32 dims: [ 1 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
`,
    json: {
      name: 'streamer',
      backend: 'python',
      max_batch_size: 0,
      model_transaction_policy: { decoupled: true },
      input: [{ name: 'IN', data_type: 'TYPE_INT32', dims: ['1'] }],
      output: [{ name: 'OUT', data_type: 'TYPE_INT32', dims: ['1'] }],
    },
    py: STREAMER_PY,
  },
};

/** Tensor names no generated module may turn into code: quotes, comment ends, line breaks, a template. */
export const HOSTILE_INPUT = '"; process.exit()//';
export const HOSTILE_OUTPUT = "*/ ${process.exit()} `\n\u2028'";
export const HOSTILE_MODEL = 'evil";name';

export const HOSTILE: TestModel = {
  pbtxt: `backend: "python"
max_batch_size: 2
input [ { name: ${JSON.stringify(HOSTILE_INPUT)} data_type: TYPE_FP32 dims: [ 2 ] } ]
output [ { name: ${JSON.stringify(HOSTILE_OUTPUT)} data_type: TYPE_FP32 dims: [ 2 ] }, { name: "__proto__" data_type: TYPE_FP32 dims: [ 2 ] } ]
`,
  json: {
    name: HOSTILE_MODEL,
    backend: 'python',
    max_batch_size: 2,
    input: [{ name: HOSTILE_INPUT, data_type: 'TYPE_FP32', dims: ['2'] }],
    output: [
      { name: HOSTILE_OUTPUT, data_type: 'TYPE_FP32', dims: ['2'] },
      { name: '__proto__', data_type: 'TYPE_FP32', dims: ['2'] },
    ],
  },
  py: ADD_ONE_PY,
};

/** Sums the inputs given (any of the four) into "constructor": each name is one of Object.prototype's. */
const PROTO_PY = `import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            total = None
            for name in ["constructor", "__proto__", "toString", "hasOwnProperty"]:
                t = pb_utils.get_input_tensor_by_name(request, name)
                if t is not None:
                    total = t.as_numpy() if total is None else total + t.as_numpy()
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("constructor", total.astype(np.int32))]))
        return responses
`;

/**
 * Tensor names that are Object.prototype's keys: those a caller may leave out optional, so leaving
 * them out must mean "not given", never what the prototype lends.
 */
export const PROTO_MODEL = 'proto_names';
const PROTO_INPUTS = [
  ['constructor', true],
  ['__proto__', false],
  ['toString', true],
  ['hasOwnProperty', false],
] as const;
export const PROTO_NAMES: TestModel = {
  pbtxt: `backend: "python"
max_batch_size: 2
input [ ${PROTO_INPUTS.map(([n, opt]) => `{ name: ${JSON.stringify(n)} data_type: TYPE_INT32 dims: [ 1 ]${opt ? ' optional: true' : ''} }`).join(', ')} ]
output [ { name: "constructor" data_type: TYPE_INT32 dims: [ 1 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
`,
  json: {
    name: PROTO_MODEL,
    backend: 'python',
    max_batch_size: 2,
    input: PROTO_INPUTS.map(([name, optional]) => ({ name, data_type: 'TYPE_INT32', dims: ['1'], ...(optional ? { optional: true } : {}) })),
    output: [{ name: 'constructor', data_type: 'TYPE_INT32', dims: ['1'] }],
  },
  py: PROTO_PY,
};

/**
 * A sequence model (its requests carry sequence_id) with an input spelled like a placeholder a client
 * might substitute into its request text. For the protocol fixture only: Triton's C API takes tensor
 * names as C strings, so a real server never has a name with a NUL.
 */
export const PLACEHOLDER_MODEL = 'seq_placeholder';
export const PLACEHOLDER_INPUT = '\u0000SEQ\u0000';
export const PLACEHOLDER: TestModel = {
  pbtxt: `backend: "python"
max_batch_size: 2
sequence_batching { }
input [ { name: "VALUE" data_type: TYPE_INT32 dims: [ 1 ] }, { name: ${JSON.stringify(PLACEHOLDER_INPUT)} data_type: TYPE_INT32 dims: [ 1 ] } ]
output [ { name: "TOTAL" data_type: TYPE_INT32 dims: [ 1 ] } ]
`,
  json: {
    name: PLACEHOLDER_MODEL,
    backend: 'python',
    max_batch_size: 2,
    sequence_batching: {},
    input: [
      { name: 'VALUE', data_type: 'TYPE_INT32', dims: ['1'] },
      { name: PLACEHOLDER_INPUT, data_type: 'TYPE_INT32', dims: ['1'] },
    ],
    output: [{ name: 'TOTAL', data_type: 'TYPE_INT32', dims: ['1'] }],
  },
};

/** Writes the models into a repository directory (config.pbtxt and 1/model.py each). */
export function writeModels(repo: string, models: Record<string, TestModel>): void {
  for (const [name, m] of Object.entries(models)) {
    mkdirSync(join(repo, name, '1'), { recursive: true });
    writeFileSync(join(repo, name, 'config.pbtxt'), m.pbtxt);
    if (m.py) writeFileSync(join(repo, name, '1', 'model.py'), m.py);
  }
}

/**
 * add_one as a config that drifted from the one served (its input any length): a client compiled from
 * it sends what the server then refuses (400 / INVALID_ARGUMENT), which is never retried.
 */
export const DRIFTED_MODELS: Record<string, TestModel> = {
  add_one: { ...CLIENT_MODELS.add_one!, pbtxt: CLIENT_MODELS.add_one!.pbtxt.replace('dims: [ 4 ] } ]\noutput', 'dims: [ -1 ] } ]\noutput') },
};

/** The error a generated client's call rejects with (its class's fields included); fails when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}
