// What Triton's load-time rewrites did to a config, and why Triton would refuse a model, as data:
// `tritonc resolve --explain` prints the steps, the CLI prints the problems, tests assert on both.
import type { PathSegment } from '../diagnostics.js';

/**
 * Which part of Triton's load pipeline (core ModelRepositoryManager::InitializeModelInfo, then
 * ModelLifeCycle::CreateModel, in src/model_repository_manager/) made a change or found a problem.
 * The core functions named below are in core src/model_config_utils.cc unless another file is named.
 */
export type ResolveStage =
  /** Core's AutoCompleteBackendFields: name, platform, backend, default_model_filename. */
  | 'autofill'
  /** Core's NormalizeModelConfig, first pass and the pass after the backend's auto-complete (UpdateModelConfig). */
  | 'normalize'
  /** Core's NormalizeInstanceGroup / ValidateInstanceGroup (run from TritonModel::Create). */
  | 'instance_group'
  /**
   * Which config file and which model version Triton reads (GetModelConfigFullPath, VersionsToLoad;
   * onnxruntime_backend ModelState::LoadModel).
   */
  | 'repository'
  /** The ONNX Runtime backend's AutoCompleteConfig (onnxruntime_backend src/onnxruntime.cc). */
  | 'autocomplete'
  /**
   * Core's checks of the finished config that refuse the model (ValidateModelConfig, ValidateModelIOConfig,
   * InitializeModelInfo's name check).
   */
  | 'validate';

export interface ResolveStep {
  stage: ResolveStage;
  /** 'set' fills an empty field, 'add' creates a message or list entry, 'replace' swaps a whole list, 'note' changes nothing. */
  action: 'set' | 'add' | 'replace' | 'note';
  /** The config field changed, e.g. ['instance_group', 0, 'count']; [] for a note about the whole config. */
  path: PathSegment[];
  /** The value written (absent for notes). */
  value?: unknown;
  /** Why Triton does it, in a sentence. */
  reason: string;
}

export interface ResolveProblem {
  stage: ResolveStage;
  /** Triton's own message (what its log and load API say), so users can search for it. */
  message: string;
  /** What to change so Triton loads the model. */
  fix: string;
  /** The config field at fault, when there is one. */
  path?: PathSegment[];
}

export function step(stage: ResolveStage, action: ResolveStep['action'], path: PathSegment[], reason: string, value?: unknown): ResolveStep {
  return value === undefined ? { stage, action, path, reason } : { stage, action, path, value, reason };
}
