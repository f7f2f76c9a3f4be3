// What `tritonc generate PATH` works on: a model file, a model directory, or a repository of them.
// Version directories follow Triton's rules (core VersionsToLoad): the latest version the policy selects, and its
// default_model_filename (model.onnx, model.xml), which may be a directory holding model.onnx (ORT's ModelState::LoadModel).
// The backends generate writes for are those whose model file tritonc reads (their record's format has a reader).
import { basename, dirname, join } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import { hasReader } from '../model-readers/readers.js';
import { versionOfDirName } from '../repo/model-dir.js';
import { Workspace } from '../workspace/workspace.js';
import { BACKEND_RECORDS, formatOfModelFileName, ONNXRUNTIME, PYTHON, type BackendRecord } from '../triton/backend-records.js';

export interface GenerateTarget {
  modelDir: string;
  modelName: string;
  /** The model file to read. */
  modelFile: string;
  /** Its format (a backend record's), which picks the reader. */
  format: string;
  /** The backend that serves it (a record's name), which the generated config names. */
  backend: string;
  /** The artifact name inside the version directory (default_model_filename). */
  modelFileName: string;
  configPath: string;
}

export type TargetResult = { targets: GenerateTarget[] } | { error: string };

/** The backends whose model files tritonc reads, in core's order of looking (ONNX Runtime, then OpenVINO). */
export const READ_BACKENDS: readonly BackendRecord[] = BACKEND_RECORDS.filter((b) => hasReader(fileOf(b).format));

/** A backend's default model file and its format (its first platform's, or its own). */
function fileOf(b: BackendRecord): { name: string; format: string } {
  const p = b.platforms[0];
  return p ? { name: p.defaultModelFile, format: p.format } : { name: b.defaultModelFile ?? '', format: b.format ?? 'other' };
}

export interface ModelOf {
  file: string;
  fileName: string;
  format: string;
  backend: string;
}

/** The config on disk when it reads without a diagnostic; the empty config otherwise, or without one. */
function writtenConfig(configPath: string | undefined, workspace: Workspace): ModelConfig {
  const read = configPath ? workspace.config(configPath) : undefined;
  return read && 'value' in read && !read.diagnostics.length ? read.value : {};
}

/**
 * The model file Triton would load for this model directory, if tritonc reads it (the one locator,
 * src/triton/model-file-location.ts). The config on disk steers where it is when it parses; without one, or
 * when it names no backend, each backend tritonc reads is tried in turn (core's order: model.onnx
 * before model.xml), as the model generate writes its config for.
 */
export function modelOf(modelDir: string, workspace = new Workspace()): ModelOf | undefined {
  const model = workspace.model(modelDir);
  const written = writtenConfig(model.layout().configPath, workspace);
  // A default_model_filename alone says the backend as core's auto-fill reads it (model.xml: OpenVINO).
  const named = written.default_model_filename ? [{ ...written, backend: backendOfFile(written.default_model_filename).backend }] : [];
  const candidates = written.backend || written.platform ? [written] : [...named, ...READ_BACKENDS.map((b) => ({ ...written, backend: b.name }))];
  for (const config of candidates) {
    const located = model.modelFile(config);
    if (!located.path || !hasReader(located.format)) continue;
    const backend = READ_BACKENDS.find((b) => b.name === config.backend || b.platforms.some((p) => p.name === config.platform));
    if (!backend) continue;
    return { file: located.path, fileName: config.default_model_filename || fileOf(backend).name, format: located.format, backend: backend.name };
  }
  return undefined;
}

/** The read backend whose default model file has the extension of `file` (model.xml: OpenVINO); ONNX Runtime otherwise. */
export function backendOfFile(file: string): { backend: string; format: string } {
  const format = formatOfModelFileName(basename(file));
  const b = READ_BACKENDS.find((r) => fileOf(r).format === format) ?? ONNXRUNTIME;
  return { backend: b.name, format: fileOf(b).format };
}

export function findTargets(path: string, workspace = new Workspace()): TargetResult {
  const kind = workspace.tree.kind(path);
  if (!kind) return { error: `${path}: no such file or directory` };
  if (kind !== 'dir') {
    // A model file: its model directory is the parent, or the grandparent when the parent is a version.
    let modelDir = dirname(path);
    if (versionOfDirName(basename(modelDir)).version !== undefined) modelDir = dirname(modelDir);
    return {
      targets: [
        {
          modelDir,
          modelName: basename(modelDir),
          modelFile: path,
          ...backendOfFile(path),
          modelFileName: basename(path),
          configPath: join(modelDir, 'config.pbtxt'),
        },
      ],
    };
  }
  const own = modelOf(path, workspace) ?? pythonModelOf(path, workspace);
  if (own) return { targets: [targetOf(path, own)] };
  const targets: GenerateTarget[] = [];
  for (const dir of workspace.modelDirs(path)) {
    const model = modelOf(dir, workspace) ?? pythonModelOf(dir, workspace);
    if (model) targets.push(targetOf(dir, model));
  }
  if (targets.length) return { targets };
  const files = [...READ_BACKENDS.map((b) => fileOf(b).name), PYTHON.defaultModelFile].join(', ');
  return {
    error: `${path}: no model tritonc reads found. tritonc generate looks for <model>/<version>/<file> (a model directory) or <repository>/<model>/<version>/<file>, where <file> is one of ${files}, or takes a model file's path`,
  };
}

function targetOf(modelDir: string, model: ModelOf): GenerateTarget {
  return {
    modelDir,
    modelName: basename(modelDir),
    modelFile: model.file,
    format: model.format,
    backend: model.backend,
    modelFileName: model.fileName,
    configPath: join(modelDir, 'config.pbtxt'),
  };
}

/**
 * The model.py Triton's Python backend would run for this directory (format 'python-script'): where
 * the config on disk, or core's auto-fill without one, picks the Python backend.
 */
export function pythonModelOf(modelDir: string, workspace = new Workspace()): ModelOf | undefined {
  const model = workspace.model(modelDir);
  const written = writtenConfig(model.layout().configPath, workspace);
  const config = model.autofill(written).config;
  if (config.backend !== PYTHON.name) return undefined;
  // The version Triton loads (python_backend src/stub_launcher.cc: <model>/<version>/<default_model_filename|model.py>).
  const version = model.versions(config).at(-1);
  const fileName = model.modelFileName(written) ?? PYTHON.defaultModelFile!;
  const file = version ? join(version.path, fileName) : undefined;
  return file && workspace.tree.kind(file) === 'file' ? { file, fileName, format: 'python-script', backend: PYTHON.name } : undefined;
}
