// The registry of backend records: one file each beside this one. Core's backends first, in the
// order of its auto-fill (core src/model_config_utils.cc AutoCompleteBackendFields); order matters only
// for listings.
import { BUILD_BACKENDS } from './build-backends.js';
import { ONNXRUNTIME } from './onnxruntime/record.js';
import { OPENVINO } from './openvino/record.js';
import { PYTHON } from './python/record.js';
import { PYTORCH } from './pytorch/record.js';
import type { BackendRecord } from './record.js';
import { TENSORFLOW } from './tensorflow/record.js';
import { TENSORRT } from './tensorrt/record.js';
import { VLLM } from './vllm/record.js';

export const BACKENDS: readonly BackendRecord[] = [TENSORFLOW, TENSORRT, ONNXRUNTIME, OPENVINO, PYTORCH, PYTHON, VLLM, ...BUILD_BACKENDS];
