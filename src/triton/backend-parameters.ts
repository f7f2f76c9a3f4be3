// The model-level `parameters` keys each backend reads from config.pbtxt, for editor completion (the
// checks of their values are the rules': accelerators for ONNX Runtime, tensorrtllm-parameters): each
// backend's record says (./backends/<backend>/record.ts parameterKeys).
import { backendRecord } from './backend-records.js';

export function knownParameterKeys(backend: string): readonly string[] {
  return backendRecord(backend)?.parameterKeys?.() ?? [];
}
