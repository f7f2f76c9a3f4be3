// The auto-complete helpers a Python model's auto_complete_config calls (python_backend
// src/resources/triton_python_backend_utils.py, class ModelConfig @ f9088ff6), over the config as core
// hands it to the stub: JSON with every primitive field printed (core src/model_config_utils.cc
// ModelConfigToJson: always_print_primitive_fields), so an input's `optional: false` and, inside a
// model_transaction_policy block that is there at all, `decoupled: false` always exist. Each helper
// raises the ValueError quoted here, which fails the load; tritonc returns it as the problem.
import type { ModelConfig, ModelInput, ModelOutput } from '../../../config/model-config.js';

export interface PythonTensor {
  name: string;
  data_type: string;
  dims: number[];
  optional?: boolean;
}

/** What one helper did: the config after it, or the ValueError it raised. */
export type HelperResult = { ok: true; config: ModelConfig; changed: boolean } | { ok: false; message: string };

const pyBool = (b: boolean): string => (b ? 'True' : 'False');
/** str() of a Python list of ints: [1, -1]. */
const pyList = (dims: readonly (number | string | bigint)[]): string => `[${dims.map(String).join(', ')}]`;
const dataTypeOf = (t: ModelInput | ModelOutput): string => (typeof t.data_type === 'string' ? t.data_type : 'TYPE_INVALID');
const dimsOf = (t: ModelInput | ModelOutput): number[] => (t.dims ?? []).map(Number);

/** set_max_batch_size (lines 322-344): refuses to lower the config's value. */
export function setMaxBatchSize(config: ModelConfig, maxBatchSize: number): HelperResult {
  const current = config.max_batch_size ?? 0;
  if (current > maxBatchSize) {
    return {
      ok: false,
      message: `configuration specified max_batch_size ${current}, but in auto-complete-config function for model '${config.name ?? ''}' specified max_batch_size ${maxBatchSize}`,
    };
  }
  return { ok: true, config: { ...config, max_batch_size: maxBatchSize }, changed: current !== maxBatchSize };
}

/** set_model_transaction_policy (lines 558-603): refuses to change a decoupled the config states. */
export function setModelTransactionPolicy(config: ModelConfig, policy: { decoupled: boolean }): HelperResult {
  const present = config.model_transaction_policy;
  if (present !== undefined) {
    const current = present.decoupled ?? false;
    if (current !== policy.decoupled) {
      return {
        ok: false,
        message: `trying to change decoupled property in auto-complete-config for model '${config.name ?? ''}', which is already set to '${pyBool(current)}'.`,
      };
    }
    return { ok: true, config, changed: false };
  }
  return { ok: true, config: { ...config, model_transaction_policy: { decoupled: policy.decoupled } }, changed: true };
}

/** add_input / add_output (lines 375-556): a tensor of the same name must agree; else it is appended. */
export function addTensor(config: ModelConfig, side: 'input' | 'output', tensor: PythonTensor): HelperResult {
  const list = [...((config[side] ?? []) as (ModelInput | ModelOutput)[])];
  const name = config.name ?? '';
  const i = list.findIndex((t) => t.name === tensor.name);
  if (i === -1) {
    const entry =
      side === 'input'
        ? { name: tensor.name, data_type: tensor.data_type, dims: tensor.dims, ...(tensor.optional !== undefined ? { optional: tensor.optional } : {}) }
        : { name: tensor.name, data_type: tensor.data_type, dims: tensor.dims };
    return { ok: true, config: { ...config, [side]: [...list, entry] }, changed: true };
  }
  const current = list[i]!;
  const currentType = dataTypeOf(current);
  if (currentType !== 'TYPE_INVALID' && currentType !== tensor.data_type) {
    return {
      ok: false,
      message: `unable to load model '${name}', configuration expects datatype ${currentType} for ${side} '${tensor.name}', model provides ${tensor.data_type}`,
    };
  }
  const currentDims = dimsOf(current);
  if (currentDims.length && pyList(currentDims) !== pyList(tensor.dims)) {
    return {
      ok: false,
      message: `model '${name}', tensor '${tensor.name}': the model expects dims ${pyList(tensor.dims)} but the model configuration specifies dims ${pyList(currentDims)}`,
    };
  }
  if (side === 'input' && tensor.optional !== undefined) {
    const currentOptional = (current as ModelInput).optional ?? false;
    if (currentOptional !== tensor.optional) {
      return {
        ok: false,
        message: `model '${name}', tensor '${tensor.name}': the model expects optional ${pyBool(tensor.optional)} but the model configuration specifies optional ${pyBool(currentOptional)}`,
      };
    }
  }
  list[i] = {
    ...current,
    data_type: tensor.data_type,
    dims: tensor.dims,
    ...(side === 'input' && tensor.optional !== undefined ? { optional: tensor.optional } : {}),
  } as ModelInput;
  return { ok: true, config: { ...config, [side]: list }, changed: false };
}
