// What `tritonc generate PATH` works on: a model file, a model directory, or a repository of them.
// Version directories follow Triton's rules (core VersionsToLoad): the latest version the policy selects, and its
// default_model_filename (model.onnx), which may be a directory holding model.onnx (ORT's ModelState::LoadModel).
import { basename, dirname, join } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import { selectVersions, versionOfDirName } from '../repo/model-dir.js';
import { Workspace } from '../workspace/workspace.js';
import { formatOfModelFileName, ONNX_MODEL_FILE, PYTHON } from '../triton/backend-records.js';

export interface GenerateTarget {
  modelDir: string;
  modelName: string;
  /** The model file to read. */
  modelFile: string;
  /** Its format (a backend record's), which picks the reader. */
  format: string;
  /** The artifact name inside the version directory (default_model_filename). */
  modelFileName: string;
  configPath: string;
}

export type TargetResult = { targets: GenerateTarget[] } | { error: string };


/**
 * The ONNX file Triton would load for this model directory, if there is one (the one locator,
 * src/triton/model-file.ts). The config on disk steers where it is when it parses; without one, or
 * when it names no backend, the directory is read as the ONNX Runtime model generate writes it for.
 */
export function onnxModelOf(modelDir: string, workspace = new Workspace()): { file: string; fileName: string; format: string } | undefined {
  const model = workspace.model(modelDir);
  const configPath = model.layout().configPath;
  const read = configPath ? workspace.config(configPath) : undefined;
  const written: ModelConfig = read && 'value' in read && !read.diagnostics.length ? read.value : {};
  const config = written.backend || written.platform ? written : { ...written, backend: 'onnxruntime' };
  const located = model.modelFile(config);
  if (located.format === 'onnx' && located.path) return { file: located.path, fileName: config.default_model_filename || ONNX_MODEL_FILE, format: 'onnx' };
  // A PyTorch model (model.pt, model.pt2) where core's auto-fill finds one: generate says what it cannot know.
  const filled = model.autofill(written).config;
  const torch = filled.backend ? model.modelFile(filled) : undefined;
  if (torch?.format === 'pytorch' && torch.path) return { file: torch.path, fileName: basename(torch.path), format: 'pytorch' };
  return undefined;
}

export function findTargets(path: string, workspace = new Workspace()): TargetResult {
  const kind = workspace.tree.kind(path);
  if (!kind) return { error: `${path}: no such file or directory` };
  if (kind !== 'dir') {
    // A model file: its model directory is the parent, or the grandparent when the parent is a version.
    let modelDir = dirname(path);
    if (versionOfDirName(basename(modelDir)).version !== undefined) modelDir = dirname(modelDir);
    return {
      targets: [{ modelDir, modelName: basename(modelDir), modelFile: path, format: formatOfModelFileName(basename(path)), modelFileName: basename(path), configPath: join(modelDir, 'config.pbtxt') }],
    };
  }
  const own = onnxModelOf(path, workspace) ?? pythonModelOf(path, workspace);
  if (own) return { targets: [targetOf(path, own)] };
  const targets: GenerateTarget[] = [];
  for (const dir of workspace.modelDirs(path)) {
    const model = onnxModelOf(dir, workspace) ?? pythonModelOf(dir, workspace);
    if (model) targets.push(targetOf(dir, model));
  }
  if (targets.length) return { targets };
  return {
    error: `${path}: no ONNX model found. tritonc generate looks for <model>/<version>/model.onnx (a model directory) or <repository>/<model>/<version>/model.onnx, or takes a model.onnx path`,
  };
}

function targetOf(modelDir: string, model: { file: string; fileName: string; format: string }): GenerateTarget {
  return { modelDir, modelName: basename(modelDir), modelFile: model.file, format: model.format, modelFileName: model.fileName, configPath: join(modelDir, 'config.pbtxt') };
}

/**
 * The model.py Triton's Python backend would run for this directory (format 'python-script'): where
 * the config on disk, or core's auto-fill without one, picks the Python backend.
 */
export function pythonModelOf(modelDir: string, workspace = new Workspace()): { file: string; fileName: string; format: string } | undefined {
  const model = workspace.model(modelDir);
  const configPath = model.layout().configPath;
  const read = configPath ? workspace.config(configPath) : undefined;
  const written: ModelConfig = read && 'value' in read && !read.diagnostics.length ? read.value : {};
  const config = model.autofill(written).config;
  if (config.backend !== PYTHON.name) return undefined;
  // The version Triton loads (python_backend src/stub_launcher.cc: <model>/<version>/<default_model_filename|model.py>).
  const version = selectVersions(config.version_policy, model.layout().versionDirs).at(-1);
  const fileName = config.default_model_filename || PYTHON.defaultModelFile!;
  const file = version ? join(version.path, fileName) : undefined;
  return file && workspace.tree.kind(file) === 'file' ? { file, fileName, format: 'python-script' } : undefined;
}
