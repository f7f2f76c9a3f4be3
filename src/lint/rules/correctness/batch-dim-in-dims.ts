// With max_batch_size > 0, Triton prepends the batch axis itself: dims describe one item. Dims that
// copy the model's full shape ([1,3,224,224] for a [batch,3,224,224] model) make every request one
// axis too deep, and Triton refuses the config when it compares it with the model.
import { defineModelRule } from '../../rule.js';
import {
  checkedConfig,
  comparedShape,
  configTensors,
  dimsText,
  includesBatchAxis,
  maxBatchSize,
  modelShapeText,
  modelTensor,
  requestShape,
} from '../../tensors.js';

export const batchDimInDims = defineModelRule({
  meta: {
    id: 'batch-dim-in-dims',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: true,
    description: 'With max_batch_size > 0, dims must not repeat the batch axis',
    messages: {
      includesBatchAxis:
        "{{field}} {{written}} include the batch axis; with max_batch_size: {{mbs}} Triton expects {{field}} {{wanted}} (the request shape would be {{requestShape}}, but the model's {{direction}} '{{name}}' is {{modelShape}}): remove the first dim",
      includesBatchAxisScalar:
        "{{field}} {{written}} include the batch axis; with max_batch_size: {{mbs}} Triton expects {{field}} {{wanted}} (the request shape would be {{requestShape}}, but the model's {{direction}} '{{name}}' is {{modelShape}}): remove the first dim, and add reshape { shape: [ ] } for this per-item scalar",
    },
    prevents: [
      "model '<model>', tensor '<name>': the model expects <r> dimensions (shape <onnx>) but the model configuration specifies <r+1> dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape <full>)",
    ],
  },
  check(ctx) {
    const sig = ctx.signature!;
    const { config, sides, halted } = checkedConfig(ctx);
    const mbs = maxBatchSize(config);
    if (mbs <= 0 || halted) return;
    for (const direction of ['input', 'output'] as const) {
      if (direction === 'input' ? !sides.inputs : !sides.outputs) continue;
      for (const t of configTensors(config, direction)) {
        const model = modelTensor(sig, direction, t.name);
        const shape = comparedShape(t);
        if (!model || !includesBatchAxis(shape.dims, model, mbs)) continue;
        const expected = shape.dims.slice(1);
        const wanted = dimsText(expected.length ? expected : [1]);
        const data = {
          field: shape.field,
          written: dimsText(shape.dims),
          wanted,
          mbs,
          requestShape: dimsText(requestShape(shape.dims, mbs)),
          direction,
          name: t.name,
          modelShape: modelShapeText(model),
          dims: shape.dims,
          expected,
          modelDims: model.shape,
        };
        // The fix rewrites the list when it is written as one [list] (and the scalar case also needs a reshape, so it is left to the user).
        const field = shape.field === 'dims' ? [...t.path, 'dims'] : [...t.path, 'reshape', 'shape'];
        const fix = expected.length
          ? { description: `set ${shape.field}: ${wanted}`, edits: [ctx.edits.replaceField(field, `${field.at(-1)}: [ ${expected.join(', ')} ]`)] }
          : undefined;
        ctx.report({
          path: [...shape.elementPath, 0],
          ...(expected.length ? { messageId: 'includesBatchAxis' as const, data } : { messageId: 'includesBatchAxisScalar' as const, data }),
          ...(fix ? { fix } : {}),
        });
      }
    }
  },
});
