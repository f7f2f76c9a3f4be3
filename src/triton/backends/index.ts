// The registry of backend records: one file each beside this one. Core's backends first, in the
// order of its auto-fill (core src/model_config_utils.cc AutoCompleteBackendFields); order matters only
// for listings.
import { BUILD_BACKENDS } from './build-backends.js';
import { ONNXRUNTIME } from './onnxruntime.js';
import { OPENVINO } from './openvino.js';
import { PYTHON } from './python.js';
import { PYTORCH } from './pytorch.js';
import type { BackendRecord } from './record.js';
import { TENSORFLOW } from './tensorflow.js';
import { TENSORRT } from './tensorrt.js';
import { VLLM } from './vllm.js';

export const BACKENDS: readonly BackendRecord[] = [TENSORFLOW, TENSORRT, ONNXRUNTIME, OPENVINO, PYTORCH, PYTHON, VLLM, ...BUILD_BACKENDS];
