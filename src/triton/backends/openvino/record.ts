// The OpenVINO backend (openvino_backend src/openvino.cc): written by name, model.xml with its .bin
// beside it, read by src/openvino. Its auto-complete reads the IR (ModelState::AutoCompleteConfig:
// triton/backends/openvino/autocomplete.ts), and its load-time checks (ValidateInputs / ValidateOutputs,
// openvino_utils.cc CompareDimsSupported) differ from ONNX Runtime's as `io` says.
import { autoCompleteOpenVino } from './autocomplete.js';
import { SERVED_TRITON_TYPES } from '../../../openvino/elem-types.js';
import type { BackendRecord } from '../record.js';

export const OPENVINO: BackendRecord = {
  name: 'openvino',
  title: 'OpenVINO',
  platforms: [],
  defaultModelFile: 'model.xml',
  format: 'openvino',
  core: true,
  fileExtensions: ['xml'],
  autoComplete: {
    from: 'model',
    // AutoCompleteConfig runs whenever auto-complete is on; each side is filled only when absent.
    skipped: () => false,
    skippedNote: (model) => `the OpenVINO backend always auto-completes '${model}'`,
    complete: (config, signature, options) => autoCompleteOpenVino(config, signature, options),
  },
  io: {
    // ValidateInputs / ValidateOutputs set the config's type as the tensor's precision (a conversion,
    // ppp.input(name).tensor().set_element_type): no comparison, only types it has an element for
    // (ModelConfigDataTypeToOpenVINOElement: "unsupported datatype <T> for input '<n>' for model '<m>'").
    dataTypes: false,
    servedDataTypes: SERVED_TRITON_TYPES,
    // ValidateInputs: "configuration expects <N> inputs, model provides <M>", N = the config's input entries.
    inputCount: 'listed',
    // CompareDimsSupported (openvino_utils.cc) and ov::set_batch(max_batch_size) before the outputs' check.
    shapes: 'batch-reshaped',
    batchDimMustBeDynamic: false,
  },
  // TRITONBACKEND_GetBackendAttribute: AddPreferredInstanceGroup(KIND_CPU, count 0), so a config
  // without instance_group runs on the CPU even on a GPU host (the qa expected configs: KIND_CPU).
  preferredInstanceGroups: [{ kind: 'KIND_CPU', count: 0 }],
  source: 'triton-inference-server/openvino_backend src/openvino.cc, src/openvino_utils.cc',
};
