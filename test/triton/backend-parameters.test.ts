// The model-level parameter keys each backend reads, by release (the editor completes these).
import { describe, expect, it } from 'vitest';
import { knownParameterKeys } from '../../src/triton/backend-parameters.js';
import { releaseNamed } from '../../src/triton/releases/catalog.js';

describe('knownParameterKeys follows the release', () => {
  it("tensorrtllm: the keys of the TensorRT-LLM the release's trtllm image bundles", () => {
    // num_nodes is read from v0.19.0 (model_instance_state.cc:273-282); 24.11's image bundles v0.15.0, 25.05's v0.19.0.
    expect(knownParameterKeys('tensorrtllm', releaseNamed('24.11'))).not.toContain('num_nodes');
    expect(knownParameterKeys('tensorrtllm', releaseNamed('25.05'))).toContain('num_nodes');
    // A key every version reads, and none the backend never reads.
    expect(knownParameterKeys('tensorrtllm', releaseNamed('24.05'))).toContain('gpt_model_type');
    expect(knownParameterKeys('tensorrtllm', releaseNamed('26.08'))).not.toContain('worker_path');
  });

  it('vllm: REPORT_CUSTOM_METRICS from 24.08, ENABLE_VLLM_HEALTH_CHECK from 24.12', () => {
    expect(knownParameterKeys('vllm', releaseNamed('24.07'))).toEqual([]);
    expect(knownParameterKeys('vllm', releaseNamed('24.11'))).toEqual(['REPORT_CUSTOM_METRICS']);
    expect(knownParameterKeys('vllm', releaseNamed('24.12'))).toEqual(['REPORT_CUSTOM_METRICS', 'ENABLE_VLLM_HEALTH_CHECK']);
  });

  it('onnxruntime: session.use_device_allocator_for_initializers from 25.02; a backend with no record: none', () => {
    expect(knownParameterKeys('onnxruntime', releaseNamed('25.01'))).not.toContain('session.use_device_allocator_for_initializers');
    expect(knownParameterKeys('onnxruntime', releaseNamed('25.02'))).toContain('session.use_device_allocator_for_initializers');
    expect(knownParameterKeys('my_custom', releaseNamed('25.02'))).toEqual([]);
  });
});
