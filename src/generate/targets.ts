// What `tritonc generate PATH` works on: a model file, a model directory, or a repository of them.
// Version directories follow Triton's rules (core VersionsToLoad): the latest version the policy selects, and its
// default_model_filename (model.onnx), which may be a directory holding model.onnx (ORT's ModelState::LoadModel).
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseConfig } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { listModelDirs, scanModelDir, selectVersions, versionOfDirName, type ModelDir } from '../repo/model-dir.js';
import { isDirectory } from '../util/path-kind.js';
import { readTextOrThrow } from '../util/read-text.js';

export interface GenerateTarget {
  modelDir: string;
  modelName: string;
  /** The ONNX file to read. */
  modelFile: string;
  /** The artifact name inside the version directory (default_model_filename). */
  modelFileName: string;
  configPath: string;
}

export type TargetResult = { targets: GenerateTarget[] } | { error: string };


/** The config on disk as a value, when it exists and parses (it only steers where the model is). */
function existingConfig(md: ModelDir): ModelConfig | undefined {
  if (!md.configPath) return undefined;
  try {
    const doc = parseConfig(readTextOrThrow(md.configPath), md.configPath);
    return doc.diagnostics.length ? undefined : doc.value;
  } catch {
    return undefined;
  }
}

/** The ONNX file Triton would load for this model directory, if there is one. */
export function onnxModelOf(md: ModelDir): { file: string; fileName: string } | undefined {
  const config = existingConfig(md);
  const fileName = config?.default_model_filename || 'model.onnx';
  const versions = selectVersions(config?.version_policy, md.versionDirs);
  const latest = versions.at(-1);
  if (!latest) return undefined;
  let file = join(latest.path, fileName);
  if (isDirectory(file)) file = join(file, 'model.onnx');
  return existsSync(file) ? { file, fileName } : undefined;
}

export function findTargets(path: string): TargetResult {
  if (!existsSync(path)) return { error: `${path}: no such file or directory` };
  if (!isDirectory(path)) {
    // A model file: its model directory is the parent, or the grandparent when the parent is a version.
    let modelDir = dirname(path);
    if (versionOfDirName(basename(modelDir)).version !== undefined) modelDir = dirname(modelDir);
    return {
      targets: [{ modelDir, modelName: basename(modelDir), modelFile: path, modelFileName: basename(path), configPath: join(modelDir, 'config.pbtxt') }],
    };
  }
  const md = scanModelDir(path);
  const own = onnxModelOf(md);
  if (own) return { targets: [targetOf(md, own)] };
  const targets: GenerateTarget[] = [];
  for (const dir of listModelDirs(path)) {
    const child = scanModelDir(dir);
    const model = onnxModelOf(child);
    if (model) targets.push(targetOf(child, model));
  }
  if (targets.length) return { targets };
  return {
    error: `${path}: no ONNX model found. tritonc generate looks for <model>/<version>/model.onnx (a model directory) or <repository>/<model>/<version>/model.onnx, or takes a model.onnx path`,
  };
}

function targetOf(md: ModelDir, model: { file: string; fileName: string }): GenerateTarget {
  return { modelDir: md.path, modelName: md.name, modelFile: model.file, modelFileName: model.fileName, configPath: join(md.path, 'config.pbtxt') };
}
