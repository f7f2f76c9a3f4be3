// The model-level `parameters` keys each backend reads from config.pbtxt, for editor completion (the
// checks of their values are the rules': accelerators for ONNX Runtime, tensorrtllm-parameters): each
// backend's record says (./backends/<backend>/record.ts parameterKeys), for the target release.
import { backendRecord } from './backend-records.js';
import type { TritonRelease } from './releases/catalog.js';

export function knownParameterKeys(backend: string, release: TritonRelease): readonly string[] {
  return backendRecord(backend)?.parameterKeys?.(release) ?? [];
}
