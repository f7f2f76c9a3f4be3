// The model Triton's qa/L0_model_config autofill_noplatform/onnx tests load (onnx_int32_int8_int8):
// INPUT0, INPUT1 [-1,16] INT32 -> OUTPUT0, OUTPUT1 [-1,16] INT8. The corpus configs of those tests
// are linted against a fixture with this signature, and must get the finding for Triton's message.
import { readFileSync } from 'node:fs';
import { CORPUS_DIR } from '../support/corpus.js';
import type { OnnxSpec } from '../lint/harness.js';

export const QA_MODEL: OnnxSpec = {
  inputs: [['INPUT0', 'INT32', ['batch', 16]], ['INPUT1', 'INT32', ['batch', 16]]],
  outputs: [['OUTPUT0', 'INT8', ['batch', 16]], ['OUTPUT1', 'INT8', ['batch', 16]]],
};

/** The same model exported without a batch axis: [16]. */
export const QA_MODEL_NOBATCH: OnnxSpec = {
  inputs: [['INPUT0', 'INT32', [16]], ['INPUT1', 'INT32', [16]]],
  outputs: [['OUTPUT0', 'INT8', [16]], ['OUTPUT1', 'INT8', [16]]],
};

export function qaConfig(test: string): string {
  return readFileSync(`${CORPUS_DIR}triton-inference-server__server/qa/L0_model_config/autofill_noplatform/onnx/${test}/config.pbtxt`, 'utf8');
}
