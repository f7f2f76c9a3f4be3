// Test support for the core rules (CORE_RULES) (Triton core's own checks): lint a config as a model
// directory of a one-model repository.
import { join } from 'node:path';
import { lintSync } from '../../src/lint/engine.js';
import type { Rule } from '../../src/lint/rule.js';
import { CORE_RULES as coreRules } from '../../src/lint/rules/index.js';
import { findings, type Finding, type RepoFiles, writeRepo } from '../lint/harness.js';

export const ruleOf = (id: string): Rule => {
  const rule = coreRules.find((r) => r.meta.id === id);
  if (!rule) throw new Error(`no core rule ${id}`);
  return rule;
};

/** Lints `files` (paths under the repository) with one rule; returns its findings with their tokens. */
export async function lintFiles(ruleId: string, files: RepoFiles, model = 'm'): Promise<Finding[]> {
  const dir = await writeRepo(files);
  const result = lintSync([join(dir, model)], { cwd: dir, rules: [ruleOf(ruleId)] });
  const texts = Object.fromEntries(Object.entries(files).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  return findings(result, ruleId, dir, texts);
}

/** Lints one config as `<model>/config.pbtxt` (no version directory) with one rule. */
export async function lintConfig(ruleId: string, config: string, model = 'm'): Promise<Finding[]> {
  return lintFiles(ruleId, { [`${model}/config.pbtxt`]: config }, model);
}

export const errors = <T extends { severity: string }>(list: T[]): T[] => list.filter((f) => f.severity === 'error');

/** The platforms a `test-rewrites-platform` row is tried with (L0_model_config/test.sh). */
export const PLATFORM_TRIALS = ['tensorrt_plan', 'onnxruntime_onnx', 'pytorch_libtorch'] as const;
