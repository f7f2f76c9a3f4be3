// The auto-complete of TensorRT-LLM's LLM API model (tensorrtllm_backend all_models/llmapi/tensorrt_llm/1/
// model.py @ c2e65b88, auto_complete_config lines 81-103): it reads `triton_config` from model.yaml
// beside model.py (get_model_config, lines 52-75: the version directory, or $LLM_CONFIG_PATH) and calls
// set_model_transaction_policy(decoupled=bool(triton_config["decoupled"])), then
// set_max_batch_size(int(triton_config["max_batch_size"])), through python_backend's helpers.
import type { ModelConfig } from '../../../config/model-config.js';
import type { ResolveProblem } from '../../changes.js';
import { setMaxBatchSize, setModelTransactionPolicy } from '../python/model-config-helpers.js';

/** Whether a model.py is the LLM API model's: its auto_complete_config reads model.yaml's triton_config. */
export const isLlmApiModelPy = (text: string): boolean =>
  /def auto_complete_config\b/.test(text) && text.includes('triton_config') && text.includes('model.yaml');

export interface TritonConfigBlock {
  decoupled?: boolean;
  maxBatchSize?: number;
  /** Where each key's value stands in model.yaml (offsets of the value). */
  at: Partial<Record<'decoupled' | 'max_batch_size', { start: number; end: number }>>;
}

// YAML 1.1 scalars as yaml.safe_load reads them.
const YAML_TRUE = /^(y|Y|yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const YAML_FALSE = /^(n|N|no|No|NO|false|False|FALSE|off|Off|OFF)$/;

/**
 * The top-level `triton_config:` mapping of model.yaml, block style (the template's) or flow style
 * (`triton_config: {max_batch_size: 0, decoupled: false}`); undefined when there is none.
 */
export function readTritonConfig(yaml: string): TritonConfigBlock | undefined {
  const lines = yaml.split('\n');
  let offset = 0;
  const entries: { key: string; value: string; start: number }[] = [];
  let found = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const head = /^triton_config:\s*(\{.*\})?\s*(#.*)?$/.exec(line);
    if (head) {
      found = true;
      if (head[1]) {
        const body = head[1].slice(1, -1);
        const base = offset + line.indexOf('{') + 1;
        let at = 0;
        for (const part of body.split(',')) {
          const m = /^\s*(\w+)\s*:\s*(.*?)\s*$/.exec(part);
          if (m) entries.push({ key: m[1]!, value: m[2]!, start: base + at + part.indexOf(m[2]!, part.indexOf(':')) });
          at += part.length + 1;
        }
        break;
      }
      let j = i + 1;
      let childOffset = offset + line.length + 1;
      for (; j < lines.length; j++) {
        const child = lines[j]!;
        if (child.trim() === '' || /^\s*#/.test(child)) {
          childOffset += child.length + 1;
          continue;
        }
        if (!/^\s+/.test(child)) break;
        const m = /^(\s+)(\w+)\s*:\s*(.*?)\s*(#.*)?$/.exec(child);
        if (m) entries.push({ key: m[2]!, value: m[3]!, start: childOffset + child.indexOf(m[3]!, m[1]!.length + m[2]!.length) });
        childOffset += child.length + 1;
      }
      break;
    }
    offset += line.length + 1;
  }
  if (!found) return undefined;
  const block: TritonConfigBlock = { at: {} };
  for (const e of entries) {
    const value = e.value.replace(/^["']|["']$/g, '');
    if (e.key === 'decoupled') {
      // bool() of what safe_load gives: a YAML boolean, else a string, which is true unless empty.
      block.decoupled = YAML_TRUE.test(e.value) ? true : YAML_FALSE.test(e.value) ? false : value !== '' && e.value !== '0';
      block.at.decoupled = { start: e.start, end: e.start + e.value.length };
    } else if (e.key === 'max_batch_size' && /^[+-]?\d+$/.test(value)) {
      block.maxBatchSize = Number(value);
      block.at.max_batch_size = { start: e.start, end: e.start + e.value.length };
    }
  }
  return block;
}

/** The helpers' refusals, in the order auto_complete_config calls them (the first one fails the load). */
export function autoCompleteLlmApi(config: ModelConfig, block: TritonConfigBlock): ResolveProblem | undefined {
  if (block.decoupled !== undefined) {
    const r = setModelTransactionPolicy(config, { decoupled: block.decoupled });
    if (!r.ok)
      return {
        stage: 'autocomplete',
        path: ['model_transaction_policy', 'decoupled'],
        message: r.message,
        fix: `model.yaml's triton_config sets decoupled: ${block.decoupled}, and model.py applies it: make model_transaction_policy agree, or remove it from config.pbtxt`,
      };
  }
  if (block.maxBatchSize !== undefined) {
    const r = setMaxBatchSize(config, block.maxBatchSize);
    if (!r.ok)
      return {
        stage: 'autocomplete',
        path: ['max_batch_size'],
        message: r.message,
        fix: `model.yaml's triton_config sets max_batch_size: ${block.maxBatchSize}, and model.py applies it: remove max_batch_size from config.pbtxt, or raise it in model.yaml`,
      };
  }
  return undefined;
}
