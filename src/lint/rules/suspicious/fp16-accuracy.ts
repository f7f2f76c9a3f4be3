// A TensorRT precision_mode below FP32 changes the model's numbers: Triton loads it happily, and the
// outputs drift from the model that was validated. A reminder to re-run the accuracy suite.
import { defineModelRule } from '../../rule.js';
import { ORT_ACCELERATORS } from '../../../triton/backends/onnxruntime/accelerators.js';

const REDUCED = new Set(['FP16', 'BF16', 'INT8']);

export const fp16Accuracy = defineModelRule({
  meta: {
    id: 'fp16-accuracy',
    category: 'suspicious',
    defaultSeverity: 'info',
    requiresModel: false,
    description: 'A TensorRT FP16/BF16/INT8 precision_mode changes the outputs: re-run the accuracy suite',
    prevents: [],
    messages: {
      reducedPrecision:
        'precision_mode {{mode}} runs the model through TensorRT in reduced precision, so its outputs differ from the FP32 model you validated; re-run the accuracy suite against this config before shipping.',
      reducedPrecisionInt8:
        'precision_mode {{mode}} runs the model through TensorRT in reduced precision, so its outputs differ from the FP32 model you validated; re-run the accuracy suite against this config before shipping. INT8 also needs a calibration table (int8_calibration_table_name) built from representative data.',
    },
  },
  check(ctx) {
    const accelerators = ctx.config.optimization?.execution_accelerators?.gpu_execution_accelerator ?? [];
    accelerators.forEach((acc, i) => {
      const mode = acc.parameters?.precision_mode;
      if (acc.name !== ORT_ACCELERATORS.tensorrt || mode === undefined || !REDUCED.has(mode)) return;
      ctx.report({
        path: ['optimization', 'execution_accelerators', 'gpu_execution_accelerator', i, 'parameters', 'precision_mode'],
        messageId: mode === 'INT8' ? 'reducedPrecisionInt8' : 'reducedPrecision',
        data: { precisionMode: mode, mode },
      });
    });
  },
});
