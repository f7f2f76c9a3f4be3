// What came back from one inference against what the config declares: every config output present,
// with the declared data type and the declared shape ([-1] + dims when batching; -1 matches any size,
// the batch dim must be the batch size sent).
import type { TensorSpec } from './plan.js';
import { shapeMatches, shapeText } from './shapes.js';
import type { OutputCheck, VerifyProblem } from './types.js';

export interface ActualOutput {
  /** The config TYPE_* name of what came back (or the runtime's own name when it has no TYPE_*). */
  dataType: string;
  shape: number[];
}

const batchText = (b: number | undefined): string => (b === undefined ? 'at its fixed shape' : `at batch ${b}`);

/**
 * `side` picks the dims to expect: 'model' (reshape.shape where set: what ONNX Runtime itself returns)
 * or 'client' (dims: what Triton answers after reshaping back).
 */
export function checkOutputs(
  specs: readonly TensorSpec[],
  actual: ReadonlyMap<string, ActualOutput>,
  batchSize: number | undefined,
  side: 'model' | 'client',
): { outputs: OutputCheck[]; problems: VerifyProblem[] } {
  const outputs: OutputCheck[] = [];
  const problems: VerifyProblem[] = [];
  const batch = batchSize ?? null;
  for (const spec of specs) {
    const dims = side === 'model' ? spec.modelDims : spec.dims;
    const expectedShape = batchSize === undefined ? [...dims] : [-1, ...dims];
    const got = actual.get(spec.name);
    if (!got) {
      problems.push({
        kind: 'output',
        tensor: spec.name,
        batchSize: batch,
        message: `output '${spec.name}' ${batchText(batchSize)}: the answer has no output of that name`,
      });
      outputs.push({ name: spec.name, dataType: '', shape: [], expectedShape, expectedDataType: spec.dataType, ok: false });
      continue;
    }
    // The batch dim must be the batch size sent; the rest follow the config, -1 matching any size.
    const concrete = batchSize === undefined ? expectedShape : [batchSize, ...dims];
    const shapeOk = shapeMatches(concrete, got.shape);
    const typeOk = got.dataType === spec.dataType;
    outputs.push({ name: spec.name, dataType: got.dataType, shape: got.shape, expectedShape, expectedDataType: spec.dataType, ok: shapeOk && typeOk });
    if (!shapeOk) {
      const declared = batchSize === undefined ? shapeText(expectedShape) : `${shapeText(expectedShape)} ([-1] + dims ${shapeText(dims)})`;
      problems.push({
        kind: 'output',
        ruleId: 'io-shape',
        tensor: spec.name,
        batchSize: batch,
        message: `output '${spec.name}' ${batchText(batchSize)}: the model returned shape ${shapeText(got.shape)}, config.pbtxt declares ${declared}`,
      });
    }
    if (!typeOk) {
      problems.push({
        kind: 'output',
        ruleId: 'io-datatype',
        tensor: spec.name,
        batchSize: batch,
        message: `output '${spec.name}' ${batchText(batchSize)}: the model returned ${got.dataType}, config.pbtxt declares ${spec.dataType}; set data_type: ${got.dataType}`,
      });
    }
  }
  return { outputs, problems };
}
