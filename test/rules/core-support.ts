// Test support for the core rules (CORE_RULES) (Triton core's own checks).
import type { Rule } from '../../src/lint/rule.js';
import { CORE_RULES as coreRules } from '../../src/lint/rules/index.js';

export const ruleOf = (id: string): Rule => {
  const rule = coreRules.find((r) => r.meta.id === id);
  if (!rule) throw new Error(`no core rule ${id}`);
  return rule;
};

/** The platforms a `test-rewrites-platform` row is tried with (L0_model_config/test.sh). */
export const PLATFORM_TRIALS = ['tensorrt_plan', 'onnxruntime_onnx', 'pytorch_libtorch'] as const;
