import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/snapshot.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, NOT_UTF8_INPUT, notUtf8Onnx, type OnnxSpec } from '../lint/harness.js';
import { testRule, type CaseFile } from '../support/rule-tester.js';
import { irFiles } from '../openvino/fixtures.js';
import { QA_MODEL, qaConfig } from './qa-model.js';
import { savedModelPb } from '../savedmodel/helpers.js';

const withModel = (config: string, spec: OnnxSpec = CLASSIFIER) => ({ 'm/config.pbtxt': config, 'm/1/model.onnx': spec });
const WITH_SCALE: OnnxSpec = { ...CLASSIFIER, initializers: [{ name: 'scale', floats: 1, overridable: true }] };
const SCALE_INPUT = ']\ninput [ { name: "scale" data_type: TYPE_FP32 dims: [1] } ]\noutput';
/** x and START (a sequence control) in, y out. */
const SEQUENCE_MODEL: OnnxSpec = {
  inputs: [
    ['x', 'FLOAT', ['b', 4]],
    ['START', 'INT32', ['b', 1]],
  ],
  outputs: [['y', 'FLOAT', ['b', 4]]],
};
const SEQUENCE_CONFIG = `max_batch_size: 4
input { name: "x" data_type: TYPE_FP32 dims: [4] }
output { name: "y" data_type: TYPE_FP32 dims: [4] }
sequence_batching { control_input { name: "START" control { kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] } } }
`;

testRule('io-name', {
  valid: [
    { name: 'names that match the model', files: withModel(CLASSIFIER_CONFIG) },
    {
      name: 'a config that lists no inputs: auto-complete generates them',
      files: withModel('max_batch_size: 8\noutput { name: "output" data_type: TYPE_FP32 dims: [1000] }\n'),
    },
    {
      name: 'outputs the config does not list are fine (Triton checks only listed outputs)',
      files: withModel(CLASSIFIER_CONFIG, { ...CLASSIFIER, outputs: [...CLASSIFIER.outputs, ['aux', 'FLOAT', ['batch', 3]]] }),
    },
    {
      name: 'an optional input that is an overridable initializer',
      files: withModel(
        CLASSIFIER_CONFIG.replace('max_batch_size: 8', 'max_batch_size: 0').replace(
          ']\noutput',
          ']\ninput [ { name: "scale" data_type: TYPE_FP32 dims: [1] optional: true } ]\noutput',
        ),
        WITH_SCALE,
      ),
    },
    {
      name: 'sequence controls and batch inputs count as provided inputs',
      files: withModel(`${SEQUENCE_CONFIG}batch_input { kind: BATCH_ELEMENT_COUNT target_name: "count" data_type: TYPE_INT32 source_input: "x" }\n`, {
        ...SEQUENCE_MODEL,
        inputs: [...SEQUENCE_MODEL.inputs, ['count', 'INT32', [-1]]],
      }),
    },
  ],
  invalid: [
    {
      // The count agrees (2 and 2), so the backend's refusal is the unknown name, not a count: one finding.
      name: 'unknown_input (Triton qa): "unexpected inference input \'INPUT_UNKNOWN\', allowed inputs are: INPUT0, INPUT1", and no count quoted',
      files: withModel(qaConfig('unknown_input'), QA_MODEL),
      errors: [
        {
          messageId: 'inputUnknown',
          data: { name: 'INPUT_UNKNOWN', modelInputs: "'INPUT0', 'INPUT1'", allowed: ['INPUT0', 'INPUT1'] },
          severity: 'error',
          token: '"INPUT_UNKNOWN"',
        },
      ],
      output: null,
    },
    {
      name: 'the count agrees through a batch_input whose target is no model input: the unlisted model input, no count quoted',
      files: withModel(
        'max_batch_size: 4\ninput { name: "x" data_type: TYPE_FP32 dims: [4] }\noutput { name: "y" data_type: TYPE_FP32 dims: [4] }\nbatch_input { kind: BATCH_ELEMENT_COUNT target_name: "count" data_type: TYPE_INT32 source_input: "x" }\n',
        {
          inputs: [
            ['x', 'FLOAT', ['b', 4]],
            ['mask', 'FLOAT', ['b', 4]],
          ],
          outputs: [['y', 'FLOAT', ['b', 4]]],
        },
      ),
      errors: [
        {
          messageId: 'modelInputUnlisted',
          data: { name: 'mask', inputEntry: 'input { name: "mask" data_type: TYPE_FP32 dims: [4] }' },
          token: 'input',
          line: 2,
        },
      ],
    },
    {
      name: 'a model input whose name is not UTF-8: no config can name it (tritonserver 2.51: "Encountered non UTF-8 code points.")',
      files: {
        'm/config.pbtxt': 'max_batch_size: 4\ninput { name: "x" data_type: TYPE_FP32 dims: [4] }\noutput { name: "out" data_type: TYPE_FP32 dims: [4] }\n',
        'm/1/model.onnx': notUtf8Onnx(),
      },
      errors: [
        { messageId: 'modelNameNotUtf8', data: { direction: 'input', bytes: NOT_UTF8_INPUT }, token: 'input', line: 2 },
        { messageId: 'inputUnknownNoModelInputs', data: { name: 'x' }, token: '"x"' },
      ],
    },
    {
      name: 'unknown_output (Triton qa)',
      files: withModel(qaConfig('unknown_output'), QA_MODEL),
      errors: [
        {
          messageId: 'outputUnknown',
          data: { name: 'OUTPUT_UNKNOWN', modelOutputs: "'OUTPUT0', 'OUTPUT1'", allowed: ['OUTPUT0', 'OUTPUT1'] },
          token: '"OUTPUT_UNKNOWN"',
        },
      ],
    },
    {
      name: 'too_few_inputs (Triton qa): "configuration expects 1 inputs, model provides 2", with the entry to add',
      files: withModel(qaConfig('too_few_inputs'), QA_MODEL),
      errors: [
        {
          messageId: 'modelInputMissing',
          data: { name: 'INPUT0', expected: 1, provided: 2, inputEntry: 'input { name: "INPUT0" data_type: TYPE_INT32 dims: [16] }' },
          token: 'input',
        },
      ],
    },
    {
      name: 'too_many_inputs (Triton qa): "configuration expects 3 inputs, model provides 2"',
      files: withModel(qaConfig('too_many_inputs'), QA_MODEL),
      errors: [{ messageId: 'inputUnknown', data: { name: 'INPUT_EXTRA' }, token: '"INPUT_EXTRA"' }],
    },
    {
      name: 'a near miss gets a suggestion that renames it, never applied by --fix (the count agrees: no count quoted)',
      files: withModel(CLASSIFIER_CONFIG.replace('name: "input"', 'name: "inputs"')),
      errors: [{ messageId: 'misspeltInput', data: { name: 'inputs', suggestion: 'input', modelInputs: "'input'" }, token: '"inputs"', line: 4 }],
      suggestions: [CLASSIFIER_CONFIG],
      output: null,
    },
    {
      name: 'a near miss of an output',
      files: withModel(CLASSIFIER_CONFIG.replace('name: "output"', 'name: "outptu"')),
      errors: [{ messageId: 'misspeltOutput', data: { name: 'outptu', suggestion: 'output', modelOutputs: "'output'" }, token: '"outptu"', line: 5 }],
      suggestions: [CLASSIFIER_CONFIG],
      output: null,
    },
    {
      name: 'optional: true on an input the model requires',
      files: withModel(
        CLASSIFIER_CONFIG.replace('max_batch_size: 8', 'max_batch_size: 0').replace('dims: [ 3, 224, 224 ] }', 'dims: [ -1, 3, 224, 224 ] optional: true }'),
      ),
      errors: [{ messageId: 'inputOptionalButRequired', data: { name: 'input', expected: 0, provided: 1 }, token: 'true', path: ['input', 0, 'optional'] }],
    },
    {
      name: 'a required config input that is only an initializer of the model (batching: optional needs max_batch_size 0)',
      files: withModel(CLASSIFIER_CONFIG.replace(']\noutput', SCALE_INPUT), WITH_SCALE),
      errors: [{ messageId: 'inputIsInitializerBatched', data: { name: 'scale', expected: 2, provided: 1 }, token: '"scale"' }],
    },
    {
      name: 'a required config input that is only an initializer of the model, without batching',
      files: withModel(
        CLASSIFIER_CONFIG.replace('max_batch_size: 8', 'max_batch_size: 0')
          .replace('dims: [ 3, 224, 224 ]', 'dims: [ -1, 3, 224, 224 ]')
          .replace(']\noutput', SCALE_INPUT),
        WITH_SCALE,
      ),
      errors: [{ messageId: 'inputIsInitializer', data: { name: 'scale', expected: 2, provided: 1 }, token: '"scale"' }],
    },
    {
      // The backend stops at the control before it counts (tritonserver 2.51, seq_control_absent in
      // test/server/quoted-messages-real-triton.test.ts): sequence-control-inputs reports it, io-name nothing.
      name: 'a sequence control that is not a model input: the count is not reached',
      files: withModel(SEQUENCE_CONFIG, { ...SEQUENCE_MODEL, inputs: [SEQUENCE_MODEL.inputs[0]!] }),
      errors: [],
    },
    {
      name: 'a sequence control also listed as an input: counted twice',
      files: withModel(SEQUENCE_CONFIG.replace('input {', 'input { name: "START" data_type: TYPE_INT32 dims: [1] }\ninput {'), SEQUENCE_MODEL),
      errors: [{ messageId: 'inputCountMismatch', data: { expected: 3, provided: 2, size: 2 }, token: 'input', path: ['input'] }],
    },
    {
      name: 'a model without inputs',
      files: withModel('input { name: "x" data_type: TYPE_FP32 dims: [4] }\noutput { name: "y" data_type: TYPE_FP32 dims: [4] }\n', {
        inputs: [],
        outputs: [['y', 'FLOAT', [4]]],
      }),
      errors: [{ messageId: 'inputUnknownNoModelInputs', data: { name: 'x', allowed: [] }, token: '"x"' }],
    },
    {
      name: 'a model without outputs',
      files: withModel('input { name: "x" data_type: TYPE_FP32 dims: [4] }\noutput { name: "y" data_type: TYPE_FP32 dims: [4] }\n', {
        inputs: [['x', 'FLOAT', [4]]],
        outputs: [],
      }),
      errors: [{ messageId: 'outputUnknownNoModelOutputs', data: { name: 'y', allowed: [] }, token: '"y"' }],
    },
  ],
});

// TorchScript models, as Triton's PyTorch backend pairs names (pytorch_backend src/pt/model_instance_state.cc;
// the record's IoChecks): real exports from fixtures/models/pytorch.
const torchModel = (name: string): Uint8Array => readFileSync(join(ROOT, 'fixtures/models/pytorch', name, '1/model.pt'));
/** forward(self, INPUT0: Tensor, INPUT1: Tensor) -> Tuple[Tensor, Tensor]: Triton's qa AddSubNet. */
const ADDSUB = torchModel('libtorch_float32_float32_float32');
const withTorch = (config: string, model: Uint8Array = ADDSUB) => ({ 'm/config.pbtxt': `backend: "pytorch"\n${config}`, 'm/1/model.pt': model });
const tensors = (side: 'input' | 'output', names: string[]): string =>
  names.map((n) => `${side} { name: "${n}" data_type: TYPE_FP32 dims: [ 16 ] }\n`).join('');
const IO = (inputs: string[], outputs: string[] = ['OUTPUT__0', 'OUTPUT__1']): string =>
  `max_batch_size: 8\n${tensors('input', inputs)}${tensors('output', outputs)}`;

testRule('io-name', {
  valid: [
    {
      name: 'TorchScript: inputs by the <name>__<index> convention (Triton qa cpu_instance: TYPE_INT32 for a float model loads too)',
      files: withTorch(IO(['INPUT__0', 'INPUT__1']).replace(/TYPE_FP32/g, 'TYPE_INT32')),
    },
    { name: "TorchScript: inputs by forward's argument names, in any order", files: withTorch(IO(['INPUT1', 'INPUT0'])) },
    {
      name: 'TorchScript: outputs in config order under any names, up to the Tuple arity',
      files: withTorch(IO(['INPUT__0', 'INPUT__1'], ['sum', 'difference'])),
    },
    { name: 'TorchScript: a Dict argument takes any input names, uncounted', files: withTorch(IO(['a', 'b', 'c'], ['sum']), torchModel('libtorch_dict')) },
    { name: 'TorchScript: a List[Tensor] argument is an input', files: withTorch(IO(['image', 'scale']), torchModel('libtorch_named')) },
    {
      name: 'TorchScript: sequence state with every name <name>__<index>',
      files: withTorch(`${IO(['INPUT__0'])}sequence_batching { state { input_name: "INPUT__1" output_name: "OUTPUT__2" data_type: TYPE_FP32 dims: [ 1 ] } }\n`),
    },
  ],
  invalid: [
    {
      name: 'too_few_inputs (Triton qa autofill_noplatform/pytorch): "configuration expects 0 inputs, model provides 2", forward\'s arguments to add',
      files: withTorch(IO([])),
      errors: [
        {
          messageId: 'torchInputsMissing',
          data: { model: 'm', expected: 0, provided: 2, arguments: "'INPUT0', 'INPUT1'", missing: "'INPUT0', 'INPUT1'" },
          severity: 'error',
          path: [],
        },
      ],
    },
    {
      name: 'too_few_outputs (Triton qa autofill_noplatform/pytorch): no output, and nothing fills them in',
      files: withTorch(`max_batch_size: 1\n${tensors('input', ['INPUT__0', 'INPUT__1'])}`),
      errors: [{ messageId: 'torchNoOutputs', data: { returns: 'Tuple[Tensor, Tensor]', names: "'OUTPUT__0', 'OUTPUT__1'" } }],
    },
    {
      name: 'one input short, named by the convention: the missing index',
      files: withTorch(IO(['INPUT__1'])),
      errors: [
        {
          messageId: 'torchInputsMissing',
          data: { model: 'm', expected: 1, provided: 2, arguments: "'INPUT0', 'INPUT1'", missing: "'INPUT__0'" },
          token: 'input',
        },
      ],
    },
    {
      name: 'too many inputs',
      files: withTorch(IO(['INPUT__0', 'INPUT__1', 'INPUT__2'])),
      errors: [{ messageId: 'torchInputCount', data: { model: 'm', expected: 3, provided: 2, arguments: "'INPUT0', 'INPUT1'" } }],
    },
    {
      name: 'a Dict model with no input at all',
      files: withTorch(IO([], ['sum']), torchModel('libtorch_dict')),
      errors: [{ messageId: 'torchNoInputs', data: { arguments: "'inputs'" } }],
    },
    {
      name: 'two Dict arguments: the backend refuses the model',
      files: withTorch(IO(['a', 'b'], ['OUTPUT__0']), torchModel('libtorch_two_dicts')),
      errors: [{ messageId: 'torchMultipleDicts', data: { arguments: "'a', 'b'" } }],
    },
    {
      name: "an Optional argument: the backend refuses the model (c10 prints it 'Tensor?')",
      files: withTorch(IO(['x', 'mask'], ['OUTPUT__0']), torchModel('libtorch_optional')),
      errors: [{ messageId: 'torchInputType', data: { name: 'mask', type: 'Optional[Tensor]', c10Type: 'Tensor?', arguments: "'x', 'mask'" } }],
    },
    {
      name: "the commonest question: names neither forward's nor all <name>__<index>; config order, renamed to forward's names by the fix",
      files: withTorch(IO(['INPUT__0', 'second'])),
      errors: [
        {
          messageId: 'torchConfigOrder',
          severity: 'warning',
          data: {
            names: "'INPUT__0', 'second'",
            arguments: "'INPUT0', 'INPUT1'",
            mapping: "'INPUT__0' -> 'INPUT0', 'second' -> 'INPUT1'",
            renames: "'INPUT__0' -> 'INPUT0', 'second' -> 'INPUT1'",
          },
        },
      ],
      output: `backend: "pytorch"\n${IO(['INPUT0', 'INPUT1'])}`,
    },
    {
      name: 'a forward argument name in the wrong place under config order: crossed inputs (it loads, and computes with them swapped)',
      files: withTorch(IO(['INPUT1', 'other'])),
      errors: [
        {
          messageId: 'torchConfigOrderCrossed',
          severity: 'error',
          data: { name: 'INPUT1', argument: 'INPUT0', arguments: "'INPUT0', 'INPUT1'", mapping: "'INPUT1' -> 'INPUT0', 'other' -> 'INPUT1'" },
          token: 'input',
        },
      ],
      output: `backend: "pytorch"\n${IO(['INPUT1', 'INPUT0'])}`,
    },
    {
      name: "<name>__<index> past forward's arguments, and twice the same index",
      files: withTorch(IO(['INPUT__0', 'INPUT__2'])),
      errors: [
        { messageId: 'torchIndexOutOfRange', data: { name: 'INPUT__2', index: 2, provided: 2, arguments: "'INPUT0', 'INPUT1'", last: 1 }, token: '"INPUT__2"' },
      ],
    },
    {
      name: 'two inputs on one index',
      files: withTorch(IO(['INPUT__0', 'X__0'])),
      errors: [{ messageId: 'torchIndexRepeated', data: { name: 'X__0', other: 'INPUT__0', index: 0, last: 1 }, token: '"X__0"' }],
    },
    {
      name: 'an output index past the Tuple; more outputs in config order than forward returns',
      files: withTorch(IO(['INPUT__0', 'INPUT__1'], ['OUTPUT__0', 'OUTPUT__2'])),
      errors: [
        {
          messageId: 'torchOutputIndexOutOfRange',
          data: { name: 'OUTPUT__2', index: 2, count: 2, returns: 'Tuple[Tensor, Tensor]', last: 1 },
          token: '"OUTPUT__2"',
        },
      ],
    },
    {
      name: 'three outputs in config order for a pair',
      files: withTorch(IO(['INPUT__0', 'INPUT__1'], ['a', 'b', 'c'])),
      errors: [{ messageId: 'torchOutputCount', data: { configured: 3, count: 2, returns: 'Tuple[Tensor, Tensor]', last: 1 } }],
    },
    {
      name: 'sequence state with inputs by forward argument names',
      files: withTorch(`${IO(['INPUT0'])}sequence_batching { state { input_name: "INPUT__1" output_name: "OUTPUT__2" data_type: TYPE_FP32 dims: [ 1 ] } }\n`),
      errors: [{ messageId: 'torchStateNaming', data: { model: 'm', names: "'INPUT0'" } }],
    },
  ],
});

// The OpenVINO backend counts every input entry against every model input, before any name
// (openvino_backend src/openvino.cc ValidateInputs); optional plays no part there.
const OV_IN = 'Func/PartitionedCall/input/_0:0';
const ovInput = (name: string, extra = ''): string => `input { name: "${name}" data_type: TYPE_INT32 dims: [1, 4]${extra} }\n`;
const ovRepo = (config: string): Record<string, CaseFile> => ({ 'm/config.pbtxt': `backend: "openvino"\n${config}`, ...irFiles('openvino_fixed_batch', 'm') });

testRule('io-name', {
  valid: [
    { name: 'OpenVINO: every model input listed (optional: true changes nothing there)', files: ovRepo(ovInput(OV_IN, ' optional: true') + ovInput('input1')) },
  ],
  invalid: [
    {
      name: 'OpenVINO: an input listed twice: the count the backend checks first',
      files: ovRepo(ovInput(OV_IN) + ovInput('input1') + ovInput('input1')),
      errors: [{ messageId: 'inputCountMismatchListed', data: { expected: 3, provided: 2, size: 2, backend: 'OpenVINO' } }],
    },
    {
      name: 'OpenVINO: too few inputs (autofill_noplatform/openvino/too_few_inputs)',
      files: ovRepo(ovInput('input1')),
      errors: [{ messageId: 'modelInputMissing', data: { name: OV_IN, expected: 1, provided: 2 } }],
    },
    {
      // The counts agree (2 and 2), so the backend refuses the unknown name, not the count: tritonserver
      // 2.51 with openvino_backend r24.10 says "unexpected inference input 'unknown_input', allowed inputs
      // are: Func/PartitionedCall/input/_0:0, input1" (autofill_noplatform/openvino/unknown_input,
      // test/conformance/l0-real-server.test.ts); no count is quoted.
      name: 'OpenVINO: an input renamed (autofill_noplatform/openvino/unknown_input)',
      files: ovRepo(ovInput('unknown_input') + ovInput('input1')),
      errors: [{ messageId: 'inputUnknown', path: ['input', 0, 'name'], data: { name: 'unknown_input', allowed: [OV_IN, 'input1'] } }],
    },
    {
      name: 'OpenVINO: an input renamed to a near miss: the suggestion, and no count',
      files: ovRepo(ovInput('input2') + ovInput(OV_IN)),
      errors: [{ messageId: 'misspeltInput', path: ['input', 0, 'name'], data: { name: 'input2', suggestion: 'input1' } }],
    },
  ],
});

// TensorFlow SavedModels (real exports): the backend's auto-complete adds the model inputs a config
// leaves out (qa autofill_noplatform_success/tensorflow_savedmodel/too_few_inputs loads), and the
// names are the signature keys, not the graph's tensor names.
const TF_ADDSUB = savedModelPb('savedmodel_int32_int8_int8');
const TF_OUTPUTS = 'output [ { name: "OUTPUT0" data_type: TYPE_INT8 dims: [16] }, { name: "OUTPUT1" data_type: TYPE_INT8 dims: [16] } ]\n';
testRule('io-name', {
  valid: [
    {
      name: 'TensorFlow: TF_SIGNATURE_DEF names another signature than the one read: not checked (unchecked-model says so)',
      files: {
        'm/config.pbtxt': `parameters { key: "TF_SIGNATURE_DEF" value: { string_value: "predict" } }\ninput [ { name: "x" data_type: TYPE_FP32 dims: [4] } ]\n${TF_OUTPUTS}`,
        'm/1/model.savedmodel/saved_model.pb': TF_ADDSUB,
      },
    },
    {
      name: 'TensorFlow: an input the config leaves out is added by auto-complete',
      files: {
        'm/config.pbtxt': `max_batch_size: 1\ninput [ { name: "INPUT1" data_type: TYPE_INT32 dims: [16] } ]\n${TF_OUTPUTS}`,
        'm/1/model.savedmodel/saved_model.pb': TF_ADDSUB,
      },
    },
  ],
  invalid: [
    {
      name: "TensorFlow: the graph's tensor name is not the input's name (the signature key is)",
      files: {
        'm/config.pbtxt': `max_batch_size: 1\ninput [ { name: "TENSOR_INPUT0" data_type: TYPE_INT32 dims: [16] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [16] } ]\n${TF_OUTPUTS}`,
        'm/1/model.savedmodel/saved_model.pb': TF_ADDSUB,
      },
      errors: [{ messageId: 'inputUnknown', path: ['input', 0, 'name'], data: { name: 'TENSOR_INPUT0', allowed: ['INPUT0', 'INPUT1'] } }],
    },
  ],
});
