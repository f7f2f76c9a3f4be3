// generate for a Python model: the config Triton completes from its model.py's auto_complete_config
// (python_backend runs it on the empty config core starts from), where the function is literal enough
// to read without running it (src/python-model). What it cannot read is a problem, never a guess.
import type { ModelConfig } from '../config/model-config.js';
import { completeFromScript } from '../triton/backends/python/autocomplete-script.js';
import { PYTHON } from '../triton/backend-records.js';
import type { GenerateProblem, GenerateResult } from './generate.js';
import type { GenerateOptions } from './options.js';

/** The options that apply to a Python model's config (the rest are the ONNX model's). */
const PYTHON_OPTIONS: readonly (keyof GenerateOptions)[] = ['name', 'instances', 'kind', 'gpus'];

export function generatePythonConfig(
  script: string,
  input: { modelName: string; modelFileName?: string; shownPath: string },
  opts: GenerateOptions = {},
): GenerateResult {
  const how = PYTHON.autoComplete;
  const problems: GenerateProblem[] = [];
  const other = (Object.keys(opts) as (keyof GenerateOptions)[]).filter((k) => !PYTHON_OPTIONS.includes(k) && opts[k] !== undefined);
  if (other.length)
    problems.push({
      code: 'conflicting-options',
      message: `${input.shownPath}: a Python model's batching, inputs and outputs come from its auto_complete_config; only --name, --instances, --kind and --gpus apply (not ${other.join(', ')})`,
    });
  if (opts.kind === 'cpu' && opts.gpus)
    problems.push({ code: 'conflicting-options', message: '--gpus places instances on GPUs, but --kind cpu asks for CPU instances' });
  if (how?.from !== 'script' || problems.length) return { config: undefined, problems };
  const name = opts.name ?? input.modelName;
  const facts = how.read(script);
  // The config core hands the stub when there is no config.pbtxt: the name, max_batch_size 0.
  const start: ModelConfig = {
    name,
    backend: PYTHON.name,
    ...(input.modelFileName && input.modelFileName !== PYTHON.defaultModelFile ? { default_model_filename: input.modelFileName } : {}),
  };
  const done = completeFromScript(start, facts);
  if (done.problems[0])
    return {
      config: undefined,
      problems: [{ code: 'unsupported-tensor', message: `${input.shownPath}: Triton would refuse the model: ${done.problems[0].message}` }],
    };
  if (done.unknown) {
    return {
      config: undefined,
      problems: [
        {
          code: 'unsupported-tensor',
          message: `${input.shownPath}: auto_complete_config cannot be read past line ${done.unknown.line} (${done.unknown.reason}), so the config Triton completes is not known here; write config.pbtxt by hand, or make the function's calls literal`,
        },
      ],
    };
  }
  const c = done.config;
  const config: ModelConfig = { name, backend: PYTHON.name };
  if (start.default_model_filename) config.default_model_filename = start.default_model_filename;
  config.max_batch_size = c.max_batch_size ?? 0;
  if (c.input?.length) config.input = c.input;
  if (c.output?.length) config.output = c.output;
  if (c.dynamic_batching) config.dynamic_batching = c.dynamic_batching;
  if (c.model_transaction_policy) config.model_transaction_policy = c.model_transaction_policy;
  const kind = opts.kind ?? (opts.gpus ? 'gpu' : undefined);
  if (opts.instances !== undefined || kind !== undefined)
    config.instance_group = [{ count: opts.instances ?? 1, kind: kind === 'cpu' ? 'KIND_CPU' : 'KIND_GPU', ...(opts.gpus ? { gpus: opts.gpus } : {}) }];
  return { config, problems: [] };
}
