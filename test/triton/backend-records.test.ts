// The backend records (src/triton/backend-records.ts) against core's names (src/constants.h) and the
// default model files its AutoCompleteBackendFields writes.
import { describe, expect, it } from 'vitest';
import {
  PLATFORM_NAMES,
  backendOfPlatform,
  defaultModelFile,
  isTensorrtPlatform,
  platformOfBackend,
  platformRecord,
} from '../../src/triton/backend-records.js';
import { autofillBackendFields } from '../../src/triton/autofill.js';

describe('backend records', () => {
  it("name core's platforms, their backends and default model files", () => {
    expect(PLATFORM_NAMES).toEqual([
      'tensorflow_savedmodel',
      'tensorflow_graphdef',
      'tensorrt_plan',
      'onnxruntime_onnx',
      'pytorch_libtorch',
      'torch_aoti',
      'ensemble',
    ]);
    expect(backendOfPlatform('onnxruntime_onnx')).toBe('onnxruntime');
    expect(backendOfPlatform('libtorch')).toBe('pytorch');
    expect(platformRecord('libtorch')?.platform.name).toBe('pytorch_libtorch');
    expect(backendOfPlatform('ensemble')).toBeUndefined();
    expect(platformOfBackend('tensorrt')).toBe('tensorrt_plan');
    expect(platformOfBackend('python')).toBeUndefined();
    expect(isTensorrtPlatform('tensorrt_plan')).toBe(true);
    expect([
      defaultModelFile({ platform: 'torch_aoti' }),
      defaultModelFile({ backend: 'python' }),
      defaultModelFile({ backend: 'openvino' }),
      defaultModelFile({ platform: 'tensorflow_graphdef' }),
    ]).toEqual(['model.pt2', 'model.py', 'model.xml', 'model.graphdef']);
  });

  it('agree with what core auto-fill writes for each platform (the backend; the file where core writes one)', () => {
    const written: string[] = [];
    for (const platform of PLATFORM_NAMES.filter((p) => p !== 'ensemble')) {
      const filled = autofillBackendFields({ platform }, { modelName: 'm' }).config;
      expect([platform, filled.backend]).toEqual([platform, backendOfPlatform(platform)]);
      if (filled.default_model_filename === undefined) continue;
      written.push(platform);
      expect([platform, filled.default_model_filename]).toEqual([platform, defaultModelFile({ platform })]);
    }
    // The newest release's auto-fill (default): from 26.04 core names no file for pytorch_libtorch (triton/core-releases.ts).
    expect(written).toEqual(['tensorflow_savedmodel', 'tensorflow_graphdef', 'tensorrt_plan', 'onnxruntime_onnx', 'torch_aoti']);
  });
});
