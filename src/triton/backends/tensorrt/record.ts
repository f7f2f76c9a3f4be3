// The TensorRT backend (tensorrt_backend): platform tensorrt_plan, model.plan. Its auto-complete reads
// the engine, which tritonc does not.
import type { BackendRecord } from '../record.js';

export const TENSORRT: BackendRecord = {
  name: 'tensorrt',
  title: 'TensorRT',
  platforms: [{ name: 'tensorrt_plan', defaultModelFile: 'model.plan', format: 'tensorrt', formatTitle: 'TensorRT engines' }],
  core: true,
  backendType: 'tensorrt',
  fileExtensions: ['plan', 'engine', 'trt'],
  source: 'triton-inference-server/tensorrt_backend src/tensorrt.cc',
};
