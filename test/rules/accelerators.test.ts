import { describe, expect, it } from 'vitest';
import { accelerators } from '../../src/lint/rules/correctness/accelerators.js';
import { DEFAULT_SETTINGS } from '../../src/lint/settings.js';
import { check as checkWith, type Finding } from '../lint/harness.js';

const RULE = 'accelerators';
const check = (config: string, settings = DEFAULT_SETTINGS): Promise<Finding[]> => checkWith(RULE, config, undefined, { rules: [accelerators], settings });
const quoted = (f: Finding): string | undefined => f.message.match(/\("([^"]*)"\)/)?.[1];

const ORT = 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n';
const gpu = (entries: string, groups = ''): string => `${ORT}${groups}optimization { execution_accelerators { gpu_execution_accelerator [ ${entries} ] } }\n`;
const trt = (params: Record<string, string>): string =>
  `{ name: "tensorrt" ${Object.entries(params).map(([k, v]) => `parameters { key: "${k}" value: "${v}" }`).join(' ')} }`;
const params = (p: Record<string, string>, extra = ''): string =>
  `${ORT}${extra}${Object.entries(p).map(([k, v]) => `parameters { key: "${k}" value: { string_value: "${v}" } }`).join('\n')}\n`;

describe('accelerators', () => {
  describe('valid', () => {
    it('TensorRT with the documented keys, and the CUDA accelerator', async () => {
      const config = gpu(`${trt({ precision_mode: 'FP16', max_workspace_size_bytes: '1073741824', trt_engine_cache_enable: 'True', trt_engine_cache_path: '/cache', trt_min_subgraph_size: '5' })}, { name: "cuda" parameters { key: "use_ep_level_unified_stream" value: "1" } }`);
      expect(await check(config)).toEqual([]);
    });

    it('OpenVINO on CPU, and model-level parameters Triton parses', async () => {
      const config = params({ execution_mode: '1', intra_op_thread_count: '4', enable_mem_arena: 'off', cudnn_conv_algo_search: '1', arena_extend_strategy: '0', custom_key: 'anything' }, 'optimization { execution_accelerators { cpu_execution_accelerator [ { name: "openvino" } ] } }\n');
      expect(await check(config)).toEqual([]);
    });

    it('other backends are not checked (TensorRT plans have their own accelerator rules)', async () => {
      expect(await check('platform: "tensorrt_plan"\noptimization { execution_accelerators { gpu_execution_accelerator [ { name: "whatever" } ] } }\n')).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('an unknown GPU accelerator name: on the name, with the case hint', async () => {
      const [f, ...rest] = await check(gpu('{ name: "TensorRT" }'));
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', token: '"TensorRT"' });
      expect(quoted(f!)).toBe("unknown Execution Accelerator 'TensorRT' is requested");
      expect(f!.message).toContain('write "tensorrt"');
    });

    it('an unknown TensorRT parameter: on the key, with a suggestion', async () => {
      const [f] = await check(gpu(trt({ trt_fp16_enable: 'true', precision_mode: 'FP16' })));
      expect(f).toMatchObject({ token: '"trt_fp16_enable"' });
      expect(quoted(f!)).toBe("unknown parameter 'trt_fp16_enable' is provided for TensorRT Execution Accelerator");
      const [g] = await check(gpu(trt({ engine_cache_enable: '1' })));
      expect(g!.message).toContain('did you mean "trt_engine_cache_enable"?');
    });

    it('TensorRT values: precision mode, integers, sizes, booleans', async () => {
      const f = await check(gpu(trt({ precision_mode: 'fp16', trt_max_partition_iterations: 'many', max_workspace_size_bytes: 'big', trt_dla_enable: 'yes' })));
      expect(f.map((x) => [x.token, x.severity, quoted(x)])).toEqual([
        ['"fp16"', 'error', "unsupported precision mode 'fp16' is requested"],
        ['"many"', 'error', "failed to convert 'many' to integral number"],
        ['"big"', 'error', "failed to convert 'big' to unsigned long long integral number"],
        ['"yes"', 'error', "failed to convert 'yes' to boolean"],
      ]);
      expect(f[0]!.message).toContain('write "FP16"');
    });

    it('a value Triton reads by its numeric prefix: warning', async () => {
      const [f] = await check(gpu(trt({ max_workspace_size_bytes: '4GB' })));
      expect(f).toMatchObject({ severity: 'warning', token: '"4GB"' });
      expect(f!.message).toContain('units are not understood');
    });

    it('GPU accelerators on KIND_CPU instances are ignored: one warning, bad entries not blamed', async () => {
      const config = gpu(`{ name: "tensorrt" parameters { key: "precision_mode" value: "fp16" } }, { name: "rocm" }`, 'instance_group [ { kind: KIND_CPU count: 2 } ]\n');
      const [f, ...rest] = await check(config);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'warning', token: 'gpu_execution_accelerator' });
      expect(f!.message).toContain('every instance_group is KIND_CPU');
    });

    it('a mixed CPU and GPU model still fails on its GPU instances', async () => {
      const config = gpu('{ name: "rocm" }', 'instance_group [ { kind: KIND_CPU }, { kind: KIND_GPU } ]\n');
      expect((await check(config)).map(quoted)).toEqual(["unknown Execution Accelerator 'rocm' is requested"]);
    });

    it('a CPU-only server (gpu.count 0) makes the default instance group CPU', async () => {
      const settings = { ...DEFAULT_SETTINGS, gpu: { ...DEFAULT_SETTINGS.gpu, count: 0 } };
      const [f] = await check(gpu('{ name: "tensorrt" }'), settings);
      expect(f).toMatchObject({ severity: 'warning' });
      expect(f!.message).toContain('gpu.count: 0');
    });

    it('CUDA accelerator keys the model-level defaults overwrite: warning on the key', async () => {
      const [f, ...rest] = await check(gpu('{ name: "cuda" parameters { key: "cudnn_conv_algo_search" value: "HEURISTIC" } }'));
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'warning', token: '"cudnn_conv_algo_search"' });
      expect(f!.message).toContain('always overwrites cudnn_conv_algo_search');
    });

    it('a CPU accelerator other than openvino', async () => {
      const [f] = await check(`${ORT}optimization { execution_accelerators { cpu_execution_accelerator [ { name: "cuda" } ] } }\n`);
      expect(quoted(f!)).toBe("unknown Execution Accelerator 'cuda' is requested");
      expect(f!.message).toContain('move it to gpu_execution_accelerator');
    });

    it('model-level execution_mode, ints and booleans', async () => {
      const f = await check(params({ execution_mode: '2', inter_op_thread_count: 'auto', enable_mem_pattern: 'yes' }));
      expect(f.map((x) => [x.token, quoted(x)])).toEqual([
        ['"2"', 'Invalid configuration value provided. Expected values for  execution_mode are 0 or 1 but got 2 .'],
        ['"auto"', "failed to convert 'auto' to integral number"],
        ['"yes"', "failed to convert 'yes' to boolean"],
      ]);
    });

    it('the deprecated CUDA parameters take numbers, not the names', async () => {
      const f = await check(params({ cudnn_conv_algo_search: 'HEURISTIC', arena_extend_strategy: '2' }));
      expect(f.map(quoted)).toEqual(["failed to convert 'HEURISTIC' to integral number", "unsupported arena_extend_strategy value '2' is requested"]);
      expect(f[0]!.message).toContain('write "1"');
    });

    it('the deprecated CUDA parameters on a CPU-only model: info, they do nothing', async () => {
      const f = await check(params({ cudnn_conv_algo_search: '7' }, 'instance_group [ { kind: KIND_CPU } ]\n'));
      expect(f.map((x) => x.severity)).toEqual(['info']);
    });
  });
});
