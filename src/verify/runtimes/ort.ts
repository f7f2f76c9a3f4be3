// ONNX Runtime on the CPU, in this process (onnxruntime-node): the ONNX model Triton would load, fed
// as Triton would feed it. Needs no server.
import { graphOptimizationLevel } from '../ort-runner.js';
import { batchSizes } from '../plan.js';
import { requestShape } from '../shapes.js';
import type { VerifyRuntime } from './runtime.js';

export const ORT_RUNTIME: VerifyRuntime = {
  name: 'ort',
  summary: 'ONNX Runtime on the CPU (default)',
  takes: [],
  afterInterrupt: 'nothing was left running',
  run: async (plan, report, options) =>
    (await import('../ort-runner.js')).runOrt(plan, report, {
      progress: options.progress,
      dynamicDimSize: options.dynamicDimSize,
      loader: options.deps?.ortLoader,
    }),
  dryRun: async (plan, options) => {
    const dynamicSize = options.dynamicDimSize ?? 1;
    return {
      requests: [],
      ort: {
        modelFile: plan.onnxFile && plan.shown(plan.onnxFile),
        sessionOptions: {
          executionProviders: ['cpu'],
          graphOptimizationLevel: graphOptimizationLevel(plan.config.optimization?.graph?.level),
          logSeverityLevel: 3,
        },
        runs: batchSizes(plan.maxBatchSize).map((b) => ({
          batchSize: b ?? null,
          inputs: plan.inputs.map((i) => ({
            name: i.name,
            dataType: i.dataType,
            shape: requestShape(i.modelDims, b, dynamicSize, i.modelDims === i.dims ? plan.sizes.get(i.name)?.dims : undefined),
          })),
        })),
      },
    };
  },
};
