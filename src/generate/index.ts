// Public surface of src/generate.
export { generateConfig, TRITON_DEFAULT_MAX_BATCH_SIZE, type GenerateInput, type GenerateProblem, type GenerateResult } from './generate.js';
export { ioFromSignature, shapeText, onnxShapeText, tritonDim, unbatchableTensors, type GeneratedIo, type IoProblem } from '../triton/io-mapping.js';
export { readHeader, withHeader, type GeneratedHeader } from './header.js';
export {
  flagsToOptions, formatDuration, optionsToFlags, parseAccelerator, parseDuration, generateOptionsSchema,
  type Accelerator, type GenerateOptions, type Precision,
} from './options.js';
export { findTargets, onnxModelOf, type GenerateTarget } from './targets.js';
export { generateForTarget, decideWrite, type TargetOutcome, type WriteDecision } from './run.js';
