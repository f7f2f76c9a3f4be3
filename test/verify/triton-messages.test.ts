// Triton's load errors (messages as core and the ONNX Runtime backend word them) mapped to tritonc rule ids.
import { describe, expect, it } from 'vitest';
import { classifyTritonMessage, cleanLogLine, isErrorLine, mapErrorText, mapTritonLog } from '../../src/verify/triton-messages.js';

describe('Triton message table', () => {
  const cases: [string, string | undefined][] = [
    [
      "model 'm', tensor 'input': the model expects 4 dimensions (shape [-1,3,224,224]) but the model configuration specifies 5 dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [-1,1,3,224,224])",
      'batch-dim-in-dims',
    ],
    [
      "model 'm', tensor 'input': the model expects 4 dimensions (shape [-1,3,224,224]) but the model configuration specifies 4 dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [-1,3,256,256])",
      'io-shape',
    ],
    ["model 'm', tensor 'x': the model expects 2 dimensions (shape [4,4]) but the model configuration specifies 2 dimensions (shape [4,5])", 'io-shape'],
    [
      "model 'm', tensor 'input': for the model to support batching the shape should have at least 1 dimension and the first dimension must be -1; but shape expected by the model is [1,3,32,32]",
      'missing-dynamic-axis',
    ],
    ["autofill failed for model 'm': model does not support batching while non-zero max_batch_size is specified", 'missing-dynamic-axis'],
    ["unable to load model 'm', configuration expects datatype TYPE_FP16 for input 'input', model provides TYPE_FP32", 'io-datatype'],
    ["unexpected inference input 'images', allowed inputs are: input", 'io-name'],
    ["unable to load model 'm', configuration expects 1 inputs, model provides 2", 'io-name'],
    ['Error parsing text-format inference.ModelConfig: 3:36: Unknown enumeration value of "FP32" for field "data_type".', 'syntax'],
    ['failed to read text proto from /models/m/config.pbtxt', 'syntax'],
    // 2.51 on a field its model_config.proto lacks (test/server/field-release-real-triton.test.ts).
    ['Error parsing text-format inference.ModelConfig: 5:15: Message type "inference.ModelConfig" has no field named "model_metrics".', 'field-release'],
    ["unexpected directory name 'a' for model 'b', directory name must equal model name", 'name-matches-directory'],
    ["model input 'x' must specify 'data_type' for m", 'io-dims'],
    // 24.05 and 24.06 name no tensor (core r24.06 src/model_config_utils.cc ValidateIOShape).
    ["model output must specify 'data_type' for m", 'io-dims'],
    ["model input must specify 'dims' for m", 'io-dims'],
    ["unknown Execution Accelerator 'tensorrtx' is requested", 'accelerators'],
    [
      'instance group m_0 of model m specifies invalid or unsupported gpu id 3. GPUs with at least the minimum required CUDA compute compatibility of 6.000000 are: 0',
      'instance-group',
    ],
    ['dynamic batching preferred size must be <= max batch size for m', 'preferred-batch-size'],
    ["model input 'x' has different size for dims and reshape", 'io-dims'],
    ['something Triton says that tritonc has no rule for', undefined],
    // Beyond the table: the words a rule quotes (meta.prevents), as tritonserver 2.51 printed them
    // (test/server/quoted-messages-real-triton.test.ts).
    ["failed to load 'm' version 1: Invalid argument: failed to stat file /models/m/1/model.onnx", 'version-dirs'],
    ["failed to load 'm' version 1: Internal: unable to find '/models/m/1/model.pt' for model instance 'm_0_0'", 'model-unreadable'],
    ['attempt to access JSON non-string as string', 'batch-io'],
    ["must specify 'step' for ensemble 'pipeline'", 'ensemble-config'],
    ["failed to load 'm' version 1: Invalid argument: Encountered non UTF-8 code points.", 'io-name'],
    ["unknown source input name 'nope' for m", 'batch-io'],
  ];
  it.each(cases)('%s -> %s', (text, ruleId) => {
    expect(classifyTritonMessage(text).ruleId).toBe(ruleId);
  });

  it('the words of a quote must come in its order, each once, on one line', () => {
    expect(classifyTritonMessage("for m unknown source input name 'nope'").ruleId).toBeUndefined();
    expect(classifyTritonMessage("unknown source input name 'nope'\nfor m").ruleId).toBeUndefined();
    // A hostile name cannot make the match slow: one pass over the line per quote.
    expect(classifyTritonMessage(`must specify 'step' for ensemble ${"'".repeat(200_000)}`).ruleId).toBe('ensemble-config');
  });

  it("a missing library is the machine's for a backend Triton ships, the config's for any other name", () => {
    // core src/backend_model.cc (r24.10), as tritonserver 2.51.0 logs it without the onnxruntime backend.
    const text = (b: string): string =>
      `failed to load 'm' version 1: Invalid argument: unable to find backend library for backend '${b}', try specifying runtime on the model configuration.`;
    expect(classifyTritonMessage(text('onnxruntime'))).toEqual({ environment: true, missingBackend: 'onnxruntime' });
    expect(classifyTritonMessage(text('openvino'))).toEqual({ environment: true, missingBackend: 'openvino' });
    expect(classifyTritonMessage(text('onnxruntme'))).toEqual({ ruleId: 'backend-library' });
  });

  it("marks the machine's problems as environment, never as a rule", () => {
    for (const text of [
      'instance group m_0 of model m has kind KIND_GPU but no GPUs are available',
      'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
      'instance group m_0 of model m specifies invalid or unsupported gpu id 0. GPUs with at least the minimum required CUDA compute compatibility of 6.000000 are: ',
      'docker: Error response from daemon: driver failed programming external connectivity: Bind for 127.0.0.1:8000 failed: port is already allocated.',
    ]) {
      expect(classifyTritonMessage(text)).toEqual({ environment: true });
    }
  });
});

describe('Triton log lines', () => {
  const log = [
    'I1130 17:34:46.031062 1 server.cc:674] ',
    '+------------+---------+--------+',
    "E1130 17:34:46.100000 1 model_lifecycle.cc:654] \"failed to load 'classifier' version 1: Invalid argument: unable to load model 'classifier', configuration expects datatype TYPE_FP16 for input 'input', model provides TYPE_FP32\"",
    'W1130 17:34:46.100000 1 model_lifecycle.cc:111] "ignore version directory \'old\' which fails to convert to integral number"',
    '[libprotobuf ERROR /tmp/tritonbuild/text_format.cc:335] Error parsing text-format inference.ModelConfig: 3:36: Unknown enumeration value of "FP32" for field "data_type".',
    "E1130 17:34:46.100000 1 model_lifecycle.cc:654] \"failed to load 'classifier' version 1: Invalid argument: unable to load model 'classifier', configuration expects datatype TYPE_FP16 for input 'input', model provides TYPE_FP32\"",
    'error: creating server: Internal - failed to load all models',
  ];

  it('keeps error lines only, without the log prefix or quotes, once each', () => {
    expect(isErrorLine(log[0]!)).toBe(false);
    expect(isErrorLine(log[3]!)).toBe(false);
    expect(cleanLogLine(log[2]!)).toBe(
      "failed to load 'classifier' version 1: Invalid argument: unable to load model 'classifier', configuration expects datatype TYPE_FP16 for input 'input', model provides TYPE_FP32",
    );
    expect(mapTritonLog(log)).toEqual([
      {
        text: "failed to load 'classifier' version 1: Invalid argument: unable to load model 'classifier', configuration expects datatype TYPE_FP16 for input 'input', model provides TYPE_FP32",
        ruleId: 'io-datatype',
      },
      { text: 'Error parsing text-format inference.ModelConfig: 3:36: Unknown enumeration value of "FP32" for field "data_type".', ruleId: 'syntax' },
      { text: 'error: creating server: Internal - failed to load all models' },
    ]);
  });

  it('maps a load API error line by line', () => {
    const text =
      "load failed for model 'classifier': version 1 is at UNAVAILABLE state: Invalid argument: unexpected inference input 'images', allowed inputs are: input;\n";
    expect(mapErrorText(text)).toEqual([{ text: text.trim(), ruleId: 'io-name' }]);
  });
});

describe('log lines as Triton escapes them', () => {
  it('reads a quoted message as the JSON string it is (common logging.cc escapes messages by default)', () => {
    const line = String.raw`E1201 10:00:00.123456 1 model_lifecycle.cc:654] "failed to load 'tiny' version 1: Invalid argument: unexpected path C:\\models\\tiny\t(tab) \u00e9 \"quoted\"\nsecond line"`;
    expect(cleanLogLine(line)).toBe('failed to load \'tiny\' version 1: Invalid argument: unexpected path C:\\models\\tiny\t(tab) é "quoted"\nsecond line');
    // A message that is quoted but not a JSON string stays as it is.
    expect(cleanLogLine('E1201 10:00:00.123456 1 x.cc:1] "a \\q b"')).toBe('"a \\q b"');
  });
});
