// The PyTorch backend: LibTorch (TorchScript, model.pt) and AOTInductor (model.pt2) models; core's
// kPyTorchAotiBackend is "pytorch" too. It does not auto-complete the config (pytorch_backend
// src/libtorch.cc ModelState::AutoCompleteConfig only logs that TorchScript keeps too little
// metadata to do it).
import { libtorchUnlistedRefusal } from './libtorch-conventions.js';
import type { BackendRecord, IoChecks } from '../record.js';
import { TORCH_AOTI_PLATFORM } from '../../core-releases.js';

/**
 * pytorch_backend (commit 266fd38) src/pt/model_instance_state.cc, ModelInstanceState:
 * - the constructor (lines 96-145) sums expected_input_cnt: every `input`, every `batch_input`, the
 *   START/END/READY/CORRID controls it finds, every `state`;
 * - ValidateInputs (1311-1485): forward's schema arguments after a class-typed self; a single DictType
 *   argument is the dict mode (no count); a DictType after the first is "Multiple inputs of kind
 *   DictType were detected" (1341); any argument not TensorType or ListType is "An input of type '<t>'
 *   was detected in the model" (1353); the count must equal expected_input_cnt (1362-1369, "unable to
 *   load model '<m>', configuration expects N inputs, model provides M"); then "model configuration must
 *   contain at least one input, none were specified." (1379); data types are only checked to map to a
 *   torch type (ModelConfigDataTypeToTorchType, 1397), never against the model, and shapes not at all;
 * - GetNamingConvention (399-555): FORWARD_ARGUMENT when every config input is an argument name, else
 *   NAMED_INDEX when every name is <name>__<digits>, else STRICT_CONFIG_ORDERING (the warning at 474
 *   only for a "__" without digits); with sequence state everything must be NAMED_INDEX (506);
 * - ValidateOutputs (1487-1560): "... at least one output ..." (1497), then NAMED_INDEX or config order.
 * TorchScript records neither element types nor shapes, and src/pt/model_state.cc AutoCompleteConfig
 * (51) fills nothing in.
 */
const LIBTORCH_IO: IoChecks = {
  inputNames: 'forward-arguments',
  outputNames: 'name-index',
  inputCount: 'every-input',
  dataTypes: false,
  shapes: 'none',
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
    { name: 'torch_aoti', releases: TORCH_AOTI_PLATFORM.releases, defaultModelFile: 'model.pt2', format: 'pytorch', loads: ['pt2'] },
  ],
  core: true,
  backendType: 'pytorch',
  fileExtensions: ['pt', 'pt2'],
  autoComplete: {
    from: 'none',
    // src/pt/model_state.cc AutoCompleteConfig; the real r24.10 server logs exactly this line
    // (test/server/resolve-real-backends.test.ts).
    skippedLog: (model) => `skipping model configuration auto-complete for '${model}': not supported for pytorch backend`,
    refusesUnlisted: (model, config, signature) => (config.platform === 'torch_aoti' ? undefined : libtorchUnlistedRefusal(model, config, signature)),
  },
  source: 'triton-inference-server/pytorch_backend src/libtorch.cc',
};
