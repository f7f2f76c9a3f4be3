// generate for a PyTorch model: TorchScript records forward's argument names and annotations, never
// element types or shapes, and Triton's PyTorch backend fills nothing in (pytorch_backend
// src/libtorch.cc ModelState::AutoCompleteConfig); an AOTInductor package records its tensors in no
// stable form. So generate refuses, and its message is the fix: the config with what the model gives
// (backend, names by the backend's pairing rules, the output count) and the fields the user must fill.
import type { ModelSignature } from '../model-file/signature.js';
import { c10TypeString, isDictMode, isLibtorchInputType } from '../triton/backends/pytorch/libtorch-conventions.js';
import { platformLoading, PYTORCH } from '../triton/backend-records.js';
import type { GenerateOptions } from './options.js';

const FILL = 'data_type: <TYPE> dims: [ <dims> ]';

/** What generate reports (its GenerateProblem). */
interface Problem {
  code: 'untyped-model' | 'unsupported-tensor';
  message: string;
  tensor?: string;
}

export function pytorchProblems(sig: ModelSignature, shown: string, modelName: string, opts: GenerateOptions): Problem[] {
  if (sig.format === 'pt2') {
    return [
      {
        code: 'untyped-model',
        message: `${shown}: an AOTInductor package records its inputs and outputs only in generated code (the wrapper's in_spec), in no stable form, and Triton's PyTorch backend fills nothing in, so tritonc cannot generate its config; write config.pbtxt with platform: "${platformLoading('pt2')?.name ?? ''}" and one input and output per tensor the compiled model takes and returns (name, data_type, dims), then check it with tritonc lint`,
      },
    ];
  }
  const types = sig.inputs.map((t) => t.elemType ?? '');
  const dict = isDictMode(types);
  const refused = dict ? undefined : sig.inputs.find((t) => !isLibtorchInputType(t.elemType ?? ''));
  if (refused) {
    return [
      {
        code: 'unsupported-tensor',
        tensor: refused.name,
        message: `${shown}: forward's argument '${refused.name}' is ${refused.elemType}, and Triton's PyTorch backend refuses such a model ("An input of type '${c10TypeString(refused.elemType ?? '')}' was detected in the model. Only a single input of type Dict(str, Tensor) or input(s) of type Tensor are supported."); make it a Tensor (or a List[Tensor]), script the model again, and generate again`,
      },
    ];
  }
  const mbs = opts.maxBatchSize ?? 0;
  const inputs = dict
    ? [`    { name: "<key>" ${FILL} }  # one per key forward reads from '${sig.inputs[0]!.name}'`]
    : sig.inputs.map((t) => `    { name: "${t.name}" ${FILL} }`);
  const count = sig.forward?.outputCount;
  const outputs = count
    ? Array.from({ length: count }, (_, i) => `    { name: "OUTPUT__${i}" ${FILL} }`)
    : [`    { name: "OUTPUT__0" ${FILL} }  # one per value forward returns (${sig.forward?.returns ?? 'unknown'}), OUTPUT__<index>`];
  const skeleton = [
    `name: "${opts.name ?? modelName}"`,
    `backend: "${PYTORCH.name}"`,
    `max_batch_size: ${mbs}${opts.maxBatchSize === undefined ? "  # N > 0 when every tensor's first dim is the batch (dims then leave it out)" : ''}`,
    'input [',
    inputs.join(',\n'),
    ']',
    'output [',
    outputs.join(',\n'),
    ']',
  ].join('\n');
  const naming = dict
    ? 'its Dict argument takes the inputs by name (the keys forward reads)'
    : "the inputs are named after forward's arguments, which Triton's PyTorch backend pairs by name (or name them INPUT__0, INPUT__1, ... to pair by position)";
  return [
    {
      code: 'untyped-model',
      message: `${shown}: a TorchScript model records no data types or shapes (${sig.forward?.text ?? 'forward'}), and Triton's PyTorch backend fills nothing in, so tritonc cannot generate its config. Write config.pbtxt from this, filling in each <TYPE> (TYPE_FP32, TYPE_INT64, ...) and <dims> (the shape, without the batch axis when max_batch_size > 0); ${naming}; outputs are taken by OUTPUT__<index>. Then check it with tritonc lint:\n${skeleton}`,
    },
  ];
}
