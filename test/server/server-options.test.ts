// Triton's command line as tritonc reads it (server src/command_line_parser.cc ParseBackendConfigOption,
// ParseOption<bool>, the --disable-auto-complete-config / --strict-model-config combination; core
// backend_model.cc ResolveBackendConfigs / SetBackendConfigDefaults).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVER_OPTIONS,
  ServerFlagError,
  autoCompleteConfigOf,
  backendSetting,
  defaultMaxBatchSize,
  parseBackendConfig,
  parseTritonBool,
  tritonServerArgs,
} from '../../src/triton/server-options.js';

describe('--backend-config', () => {
  it('reads <backend>,<setting>=<value> and the backend-agnostic <setting>=<value>', () => {
    expect(parseBackendConfig('onnxruntime,default-max-batch-size=8')).toEqual({ backend: 'onnxruntime', setting: 'default-max-batch-size', value: '8' });
    expect(parseBackendConfig('default-max-batch-size=16')).toEqual({ backend: '', setting: 'default-max-batch-size', value: '16' });
    // The value may hold '=' and ',' (only the first '=' after the name splits).
    expect(parseBackendConfig('python,shm-region-prefix-name=a=b,c')).toEqual({ backend: 'python', setting: 'shm-region-prefix-name', value: 'a=b,c' });
  });
  it('refuses what Triton refuses, with its message', () => {
    expect(() => parseBackendConfig('onnxruntime,default-max-batch-size')).toThrow(
      /--backend-config option format is '<backend name>,<setting>=<value>'. Got onnxruntime,default-max-batch-size/,
    );
    expect(() => parseBackendConfig(',x=1')).toThrow(/^No backend specified/);
    expect(() => parseBackendConfig('onnxruntime,=1')).toThrow(ServerFlagError);
    expect(() => parseBackendConfig('onnxruntime,x=')).toThrow(ServerFlagError);
    expect(() => parseBackendConfig('default-max-batch-size=lots')).toThrow(/takes a whole number/);
  });
  it("a backend's own setting wins over the backend-agnostic one, whatever the order; core's default is 4", () => {
    const server = {
      ...DEFAULT_SERVER_OPTIONS,
      backendConfig: [parseBackendConfig('onnxruntime,default-max-batch-size=8'), parseBackendConfig('default-max-batch-size=2')],
    };
    expect(backendSetting(server, 'onnxruntime', 'default-max-batch-size')).toBe('8');
    expect(defaultMaxBatchSize(server)).toBe(8);
    expect(defaultMaxBatchSize(server, 'tensorrt')).toBe(2);
    expect(defaultMaxBatchSize(DEFAULT_SERVER_OPTIONS)).toBe(4);
  });
});

describe('auto-complete', () => {
  it("Triton's bool spellings", () => {
    for (const v of ['true', 'On', '1']) expect(parseTritonBool('strict-model-config', v)).toBe(true);
    for (const v of ['false', 'OFF', '0']) expect(parseTritonBool('strict-model-config', v)).toBe(false);
    expect(() => parseTritonBool('strict-model-config', 'yes')).toThrow(/invalid value for bool option: yes/);
  });
  it('--disable-auto-complete-config wins over --strict-model-config=false', () => {
    expect(autoCompleteConfigOf({})).toBeUndefined();
    expect(autoCompleteConfigOf({ strictModelConfig: true })).toBe(false);
    expect(autoCompleteConfigOf({ strictModelConfig: false })).toBe(true);
    expect(autoCompleteConfigOf({ disableAutoCompleteConfig: true, strictModelConfig: false })).toBe(false);
  });
  it('gives tritonserver the same flags back', () => {
    expect(tritonServerArgs(DEFAULT_SERVER_OPTIONS)).toEqual([]);
    expect(
      tritonServerArgs({
        ...DEFAULT_SERVER_OPTIONS,
        autoCompleteConfig: false,
        backendConfig: [parseBackendConfig('default-max-batch-size=2'), parseBackendConfig('onnxruntime,x=y')],
      }),
    ).toEqual(['--disable-auto-complete-config', '--backend-config=default-max-batch-size=2', '--backend-config=onnxruntime,x=y']);
  });
});
