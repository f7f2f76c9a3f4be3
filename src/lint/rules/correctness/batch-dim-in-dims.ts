// With max_batch_size > 0, Triton prepends the batch axis itself: dims describe one item. Dims that
// copy the model's full shape ([1,3,224,224] for a [batch,3,224,224] model) make every request one
// axis too deep, and Triton refuses the config when it compares it with the model.
import { defineModelRule } from '../../rule.js';
import {
  comparedShape, configTensors, dimsText, includesBatchAxis, maxBatchSize, modelShapeText, modelTensor, requestShape,
  validatedSides,
} from '../../tensors.js';

export const batchDimInDims = defineModelRule({
  meta: {
    id: 'batch-dim-in-dims',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: true,
    description: 'With max_batch_size > 0, dims must not repeat the batch axis',
    prevents: [
      "model '<model>', tensor '<name>': the model expects <r> dimensions (shape <onnx>) but the model configuration specifies <r+1> dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape <full>)",
    ],
  },
  check(ctx) {
    const sig = ctx.signature!;
    const mbs = maxBatchSize(ctx.config);
    if (mbs <= 0) return;
    const sides = validatedSides(ctx.config);
    for (const direction of ['input', 'output'] as const) {
      if (direction === 'input' ? !sides.inputs : !sides.outputs) continue;
      for (const t of configTensors(ctx.config, direction)) {
        const model = modelTensor(sig, direction, t.name);
        const shape = comparedShape(t);
        if (!model || !includesBatchAxis(shape.dims, model, mbs)) continue;
        const expected = shape.dims.slice(1);
        ctx.report({
          path: [...shape.elementPath, 0],
          message:
            `${shape.field} ${dimsText(shape.dims)} include the batch axis; with max_batch_size: ${mbs} Triton expects ${shape.field} ${dimsText(expected.length ? expected : [1])} ` +
            `(the request shape would be ${dimsText(requestShape(shape.dims, mbs))}, but the model's ${direction} '${t.name}' is ${modelShapeText(model)}): ` +
            `remove the first dim${expected.length ? '' : ', and add reshape { shape: [ ] } for this per-item scalar'}`,
          fix: { description: `set ${shape.field}: ${dimsText(expected.length ? expected : [1])}` },
          data: { dims: shape.dims, expected, modelShape: model.shape },
        });
      }
    }
  },
});
