// The OpenVINO backend: written by name, model.xml (with its .bin beside it). Its auto-complete reads
// the model, which tritonc does not.
import type { BackendRecord } from './record.js';

export const OPENVINO: BackendRecord = {
  name: 'openvino',
  title: 'OpenVINO',
  platforms: [],
  defaultModelFile: 'model.xml',
  core: true,
  source: 'triton-inference-server/openvino_backend src/openvino.cc',
};
