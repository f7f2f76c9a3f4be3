// A repository as teams keep it: ONNX, TensorRT, TorchScript, OpenVINO, Python and vLLM models beside
// each other, an ONNX model without a config, an ensemble over an ONNX and a Python model. Each model
// stands for what its backend does at load:
// - onnxruntime: reads model.onnx and completes a side the config leaves empty (onnxruntime_backend
//   src/onnxruntime.cc ModelState::AutoCompleteConfig, run only `if (auto_complete_config)`, line 158);
// - tensorrt: completes from the engine (tensorrt_backend src/model_state.cc:137, AutoCompleteConfig
//   when auto-complete is on and an instance is on a GPU);
// - python: calls the model's auto_complete_config (python_backend src/python_be.cc:2053-2055,
//   src/pb_stub.cc:522-524, only when TritonPythonModel defines it);
// - a server with --disable-auto-complete-config runs none of these, and core validates the I/O as
//   written (core model_repository_manager.cc InitializeModelInfo: `if (!autofill_) ValidateModelIOConfig`).
// Linted with the weights, with --disable-auto-complete-config, and as a configs-only checkout with
// the lock: what each model gets must be what Triton would do with it.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync, type LintOptions } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { buildLock } from '../../src/workspace/lock-build.js';
import { LOCK_FILE_NAME, serializeLock } from '../../src/workspace/lock.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { ROOT } from '../support/snapshot.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo, type RepoFiles } from './harness.js';

const PYTHON_MODEL = `import triton_python_backend_utils as pb_utils

class TritonPythonModel:
    @staticmethod
    def auto_complete_config(auto_complete_model_config):
        auto_complete_model_config.add_input({"name": "LOGITS", "data_type": "TYPE_FP32", "dims": [1000]})
        auto_complete_model_config.add_output({"name": "LABEL", "data_type": "TYPE_STRING", "dims": [1]})
        auto_complete_model_config.set_max_batch_size(8)
        return auto_complete_model_config

    def execute(self, requests):
        return []
`;

const FILES: RepoFiles = {
  'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG,
  'repo/classifier/1/model.onnx': CLASSIFIER,
  // An ONNX model without a config: Triton auto-completes it.
  'repo/embedder/1/model.onnx': CLASSIFIER,
  // TensorRT: dims left to the engine (qa autofill_noplatform_success/tensorrt).
  'repo/detector/config.pbtxt':
    'platform: "tensorrt_plan"\nmax_batch_size: 8\ninput [ { name: "images" data_type: TYPE_FP16 } ]\noutput [ { name: "boxes" data_type: TYPE_FP16 dims: [ 100, 4 ] } ]\ninstance_group [ { kind: KIND_GPU } ]\n',
  'repo/detector/1/model.plan': 'engine bytes',
  // TorchScript: Triton's qa AddSubNet (fixtures/models/pytorch), inputs by the <name>__<index> convention.
  'repo/torch/config.pbtxt':
    'platform: "pytorch_libtorch"\nmax_batch_size: 4\ninput [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 16 ] }, { name: "INPUT__1" data_type: TYPE_FP32 dims: [ 16 ] } ]\noutput [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n',
  'repo/torch/1/model.pt': readFileSync(join(ROOT, 'fixtures/models/pytorch/libtorch_float32_float32_float32/1/model.pt')),
  'repo/vino/config.pbtxt':
    'backend: "openvino"\nmax_batch_size: 1\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n',
  // OpenVINO: an IR whose batch of 1 the backend reshapes to max_batch_size (src/openvino reads it).
  'repo/vino/1/model.xml': `<?xml version="1.0"?>
<net name="vino" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,3" element_type="f32"/><output><port id="0" precision="FP32" names="x"><dim>1</dim><dim>3</dim></port></output></layer>
<layer id="1" name="relu" type="Relu" version="opset1"><input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim></port></input><output><port id="1" precision="FP32" names="y"><dim>1</dim><dim>3</dim></port></output></layer>
<layer id="2" name="y" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/><edge from-layer="1" from-port="1" to-layer="2" to-port="0"/></edges></net>
`,
  'repo/vino/1/model.bin': 'weights',
  'repo/llm/config.pbtxt': 'backend: "vllm"\ninstance_group [ { count: 1 kind: KIND_MODEL } ]\nmodel_transaction_policy { decoupled: true }\n',
  'repo/llm/1/model.json': '{ "model": "facebook/opt-125m", "gpu_memory_utilization": 0.5 }',
  // Python: no I/O in the config, model.py's auto_complete_config adds it.
  'repo/labeler/config.pbtxt': 'backend: "python"\n',
  'repo/labeler/1/model.py': PYTHON_MODEL,
  'repo/pipeline/config.pbtxt': `platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "LABEL" data_type: TYPE_STRING dims: [ 1 ] } ]
ensemble_scheduling { step [
  { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IMAGE" } output_map { key: "output" value: "logits" } },
  { model_name: "labeler" model_version: -1 input_map { key: "LOGITS" value: "logits" } output_map { key: "LABEL" value: "LABEL" } }
] }
`,
  'repo/pipeline/1/.keep': '',
};

/** `model rule/messageId severity` for every finding, by model directory. */
function verdicts(dir: string, options: LintOptions = {}): string[] {
  const repo = join(dir, 'repo');
  return lintSync([repo], { cwd: dir, rules: RULES, ...options })
    .results.flatMap((r) => r.diagnostics)
    .filter((d) => d.ruleId !== 'instance-memory' && d.ruleId !== 'preferred-batch-size')
    .map((d) => `${d.file.slice(repo.length + 1).split('/')[0]} ${d.ruleId}/${d.messageId} ${d.severity}`)
    .sort();
}

describe('a repository of every backend', () => {
  it("with auto-complete on (Triton's default): no errors; what tritonc cannot read is said, once per model", async () => {
    const dir = await writeRepo(FILES);
    expect(verdicts(dir)).toEqual([
      'detector io-dims/noDimsUnlessCompleted warning',
      'detector unchecked-model/notRead info',
      // labeler's model.py is read to its end (python-autocomplete checks it): no note.
      // A vLLM model: decoupled by its backend's auto-complete, so it answers over streaming only.
      'llm decoupled-clients/decoupled info',
      'llm unchecked-model/notRead info',
    ]);
  });

  it('with --disable-auto-complete-config: what the backends would have filled in is missing, and so is the config Triton needs', async () => {
    const dir = await writeRepo(FILES);
    const found = verdicts(dir, { server: { autoCompleteConfig: false } });
    expect(found).toContain('detector io-dims/noDims error');
    expect(found).toContain('embedder missing-config/missingOnnxModel error');
    // The Python model keeps the empty I/O it was written with, so the ensemble's step cannot feed it.
    expect(found).toContain('pipeline ensemble-models/inputMapModelHasNoInputs error');
    expect(found.filter((f) => f.startsWith('classifier ') && f.endsWith(' error'))).toEqual([]);
  });

  it('as a configs-only checkout with the lock, it is judged as with the weights', async () => {
    const dir = await writeRepo(FILES);
    const withWeights = verdicts(dir);
    const repo = join(dir, 'repo');
    await writeRepo({ [`repo/${LOCK_FILE_NAME}`]: serializeLock(buildLock(new Workspace(), repo).lock) }, dir);
    // The weights go; the configs, model.py and model.json are what git holds... except the ONNX model
    // without a config, which is then no model at all.
    for (const f of ['classifier/1/model.onnx', 'detector/1/model.plan', 'torch/1/model.pt', 'vino/1/model.bin', 'vino/1/model.xml']) rmSync(join(repo, f));
    expect(verdicts(dir, { configsOnly: true })).toEqual(withWeights);
    // Without the flag, Triton's view: the model files are missing.
    expect(verdicts(dir).filter((f) => f.endsWith(' error'))).toEqual(expect.arrayContaining(['classifier version-dirs/versionWithoutModelFile error']));
  });
});
