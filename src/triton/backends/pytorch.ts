// The PyTorch backend: LibTorch (TorchScript, model.pt) and AOTInductor (model.pt2) models; core's
// kPyTorchAotiBackend is "pytorch" too. It does not auto-complete the config (pytorch_backend
// src/libtorch.cc ModelState::AutoCompleteConfig only logs that TorchScript keeps too little
// metadata to do it).
import type { BackendRecord, ModelIoChecks } from './record.js';

/**
 * pytorch_backend src/pt/model_instance_state.cc: ModelInstanceState::ValidateInputs (forward's
 * schema arguments after a class-typed self; a single DictType argument is the dict mode; otherwise
 * every argument must be a Tensor or a List, and their count must equal expected_input_cnt, which the
 * constructor sums from input, batch_input, the START/END/READY/CORRID controls found and the states;
 * then "model configuration must contain at least one input, none were specified."),
 * GetNamingConvention (FORWARD_ARGUMENT, NAMED_INDEX, STRICT_CONFIG_ORDERING, with its warning),
 * ValidateOutputs ("... at least one output ..."; NAMED_INDEX or STRICT_CONFIG_ORDERING). Data types are
 * only checked to map to a torch type (ModelConfigDataTypeToTorchType), never against the model, and
 * shapes not at all: TorchScript records neither.
 */
const LIBTORCH_IO: ModelIoChecks = {
  inputNames: 'forward-arguments',
  outputNames: 'name-index',
  inputCount: 'every-input',
  dataTypes: false,
  shapes: false,
  requiresInputsAndOutputs: true,
};

export const PYTORCH: BackendRecord = {
  name: 'pytorch',
  title: 'PyTorch',
  platforms: [
    { name: 'pytorch_libtorch', aliases: ['libtorch'], defaultModelFile: 'model.pt', format: 'pytorch', io: LIBTORCH_IO, loads: ['torchscript'] },
    // An AOTInductor package (src/pt2/model_state.cc): the same reader gives its weights' size; its
    // inputs and outputs are in no stable record (the signature says ioUnknown), so nothing is compared.
    // torch::jit::load (src/pt/model_state.cc LoadModel) reads TorchScript only; AOTIModelPackageLoader
    // (src/pt2/model_state.cc) an AOTInductor package only.
    { name: 'torch_aoti', defaultModelFile: 'model.pt2', format: 'pytorch', loads: ['pt2'] },
  ],
  core: true,
  autoComplete: { from: 'none' },
  source: 'triton-inference-server/pytorch_backend src/libtorch.cc',
};
