// tritonc verify: load a model for real (ONNX Runtime, a Triton container, or a running Triton) and
// check that it answers as its config.pbtxt says. What the library (src/index.ts) exports of it.
export { verifyModel, type VerifyOptions } from './verify.js';
export type { VerifyReport } from './types.js';
