// Every Triton message a lint rule quotes (`meta.prevents`) against the real tritonserver 2.51.0 with
// Triton's own ONNX Runtime, PyTorch, OpenVINO and Python backends (r24.10, CPU): for each quoted message
// whose case runs here, a minimal model repository for that case is loaded and the server's words (the
// load API's answer, what it logged meanwhile, an inference's answer where the case is one) must contain
// the quoted text, each <placeholder> standing for whatever the server put there (a model, tensor or file
// name). `tritonc lint` runs on the same repositories, and the Triton text each of its findings quotes,
// filled in for the case, must be in the server's words too. A quoted message whose case cannot run here
// (TensorRT, a GPU, TensorFlow, vLLM, TensorRT-LLM, DALI, a release after r24.10) is listed with why, and
// the test checks that the reason holds here (a listed one that becomes runnable fails the list); one
// that runs here but is not checked is listed with why too. Prints: N quoted, M checked, K corrected.
// The suite skips with one line without the venv or the backends; under CI=true it runs.
// TRITONC_QUOTES_DUMP=<file> writes the server's words per case (and <file>.lint, lint's quotes) there.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/lint/rules/index.js';
import { cleanLogLine } from '../../src/verify/triton-messages.js';
import { buildFixture } from '../../fixtures/onnx/index.js';
import { model as onnxModel, node, T, tensorInfo, writeModel } from '../../fixtures/onnx/model-builder.js';
import { cli } from '../support/cli.js';
import { EXPORTS_PYTHON } from '../support/model-exports.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { VENV, realBackendsRun, startRealTriton, type RealTriton } from '../support/real-triton.js';

const runs = realBackendsRun("rules' quoted Triton messages against the real server", ['onnxruntime', 'pytorch', 'openvino']);

/**
 * TorchScript models no fixture holds, scripted here by torch 2.5.1 of .venv-exports (the venv the
 * PyTorch backend takes libtorch from): forward() with no argument, and with a Tuple[Tensor, Tensor] argument (a List is allowed).
 */
function exportTorchScript(dir: string): { 'pt-noargs': string; 'pt-tuple': string } {
  const out = { 'pt-noargs': join(dir, 'noargs.pt'), 'pt-tuple': join(dir, 'tuple.pt') };
  const script = `import sys, torch
from typing import Tuple
class NoArgs(torch.nn.Module):
    def forward(self):
        return torch.zeros(4)
class TupleArg(torch.nn.Module):
    def forward(self, xs: Tuple[torch.Tensor, torch.Tensor]):
        return xs[0]
torch.jit.save(torch.jit.script(NoArgs()), sys.argv[1])
torch.jit.save(torch.jit.script(TupleArg()), sys.argv[2])
`;
  // torch.jit.script reads the classes' source, so the script is a file.
  const file = join(dir, 'export_torchscript.py');
  writeFileSync(file, script);
  execFileSync(EXPORTS_PYTHON, [file, out['pt-noargs'], out['pt-tuple']], { stdio: 'pipe', timeout: 120_000 });
  return out;
}

/** The one quoted message of `rule` that contains `part` (so a quote edited in the rule is edited here too). */
function q(rule: string, part: string): string {
  const r = RULES.find((x) => x.meta.id === rule);
  if (!r) throw new Error(`no rule ${rule}`);
  const hits = r.meta.prevents.includes(part) ? [part] : r.meta.prevents.filter((p) => p.includes(part));
  if (hits.length !== 1) throw new Error(`${rule}: ${hits.length} quoted messages contain ${JSON.stringify(part)}`);
  return hits[0]!;
}

/**
 * A quoted message as a pattern: its text verbatim, each <placeholder> (and a list of them written
 * "<a>, <b>, ...") any text on the same line.
 */
export function quotePattern(quote: string): RegExp {
  const parts = quote.split(/(?:<[^<>]*>|\.\.\.)(?:, (?:<[^<>]*>|\.\.\.))*/);
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?'));
}

/** The model files a case's repository holds. */
type Model =
  | 'onnx'
  | 'onnx-fixed'
  | 'onnx-scalar'
  | 'onnx-sequence'
  | 'onnx-multi'
  | 'onnx-init'
  | 'onnx-ctl'
  | 'onnx-garbage'
  | 'pt-two'
  | 'pt-dicts'
  | 'pt-noargs'
  | 'pt-tuple'
  | 'openvino'
  | 'python'
  | 'none';

interface Case {
  /** The model's directory name. */
  name: string;
  model: Model;
  /** config.pbtxt; absent: none. */
  config?: string;
  /** Other files under the model's directory, by relative path. */
  files?: Record<string, string>;
  /** Version directories other than 1 (their model file the same). */
  versions?: string[];
  /** After the load, an HTTP inference with this body; its answer is part of the server's words. */
  infer?: unknown;
  /** After the load, a gRPC ModelInfer naming the model; its status details are part of the server's words. */
  grpcInfer?: true;
  /** Every finding lint reports on the case (of any rule) quotes only what the server says. */
  lintAll?: true;
  /** Load on the server started with --disable-auto-complete-config. */
  noAutoComplete?: true;
  /** What 2.51 says for a case whose quoted message it does not print (a later release's check, listed in NOT_RUNNABLE). */
  says?: RegExp;
  /** The quoted messages this case must show, as q(rule, part) gives them. */
  quotes: [rule: string, quote: string][];
}

/** The dynamic-batch ONNX fixture (input [batch,3,32,32] -> Relu -> output), served as Triton's examples are. */
const IO = 'input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n';
const ORT = (extra = '', io = IO, mbs = 8): string =>
  `backend: "onnxruntime"\nmax_batch_size: ${mbs}\n${io}instance_group [ { count: 1 kind: KIND_CPU } ]\n${extra}`;
/** The ONNX config with one input entry's fields replaced. */
const ORT_IN = (input: string, extra = '', mbs = 8): string =>
  ORT(extra, `input [ { ${input} } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n`, mbs);
const PT_TWO = (io: string, extra = ''): string =>
  `platform: "pytorch_libtorch"\nmax_batch_size: 0\n${io}instance_group [ { count: 1 kind: KIND_CPU } ]\n${extra}`;
const PT_IO_OUT = 'output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "OUTPUT__1" data_type: TYPE_FP32 dims: [ 4 ] } ]\n';
const ENSEMBLE = (
  steps: string,
  extra = '',
  io = 'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n',
  mbs = 8,
): string => `platform: "ensemble"\nmax_batch_size: ${mbs}\n${io}${steps === '' ? '' : `ensemble_scheduling { ${steps} }\n`}${extra}`;
const STEP = (
  model = 'ok_base',
  inMap = 'input_map { key: "input" value: "IN" }',
  outMap = 'output_map { key: "output" value: "OUT" }',
  version = -1,
): string => `step [ { model_name: "${model}" model_version: ${version} ${inMap} ${outMap} } ]`;
const SEQ = (controls: string, extra = ''): string => ORT(`sequence_batching { ${controls} }\n${extra}`);
const WARMUP = (inputs: string, batch = 1): string => ORT(`model_warmup [ { name: "w" batch_size: ${batch} ${inputs} } ]\n`);
const MODEL_PY = `import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        return [pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", pb_utils.get_input_tensor_by_name(r, "INPUT0").as_numpy())]) for r in requests]
`;

/** A Python model whose auto_complete_config runs `body` (c is the config) and returns `ret`. */
const AUTO_PY = (body: string, ret = 'c'): string => `${MODEL_PY.split('\n\n\nclass')[0]}


class TritonPythonModel:
    @staticmethod
    def auto_complete_config(c):
        ${body}
        return ${ret}

    def execute(self, requests):
        return []
`;
const PY_AC = (name: string, body: string, quote: string, config = 'backend: "python"\nmax_batch_size: 8\n', ret?: string): Case => ({
  name,
  model: 'python',
  config,
  files: { '1/model.py': AUTO_PY(body, ret) },
  quotes: [['python-autocomplete', q('python-autocomplete', quote)]],
});
/** The Python model's I/O as its auto_complete_config adds it: INPUT0 and OUTPUT0, FP32 [4]. */
const PY_IO =
  'c.add_input({"name": "INPUT0", "data_type": "TYPE_FP32", "dims": [4]}); c.add_output({"name": "OUTPUT0", "data_type": "TYPE_FP32", "dims": [4]})';
const DECOUPLED_PY = (name: string): Case => ({ name, model: 'python', config: pythonConfig('model_transaction_policy { decoupled: true }\n', 0), quotes: [] });

const CASES: Case[] = [
  { name: 'ok_base', model: 'onnx', config: ORT(), quotes: [] },
  // core src/model_config_utils.cc, protobuf's text format
  {
    name: 'syntax',
    model: 'onnx',
    config: 'backend: "onnxruntime"\nmax_batch_size: 8 8\n',
    quotes: [
      ['syntax', q('syntax', 'Error parsing')],
      ['syntax', q('syntax', 'failed to read text proto')],
    ],
  },
  // a field 2.51's model_config.proto lacks (model_metrics arrived in 24.11): protobuf's text parser stops at it
  {
    name: 'field_release',
    model: 'onnx',
    config: ORT(
      'model_metrics { metric_control [ { metric_identifier { family: "nv_inference_first_response_histogram_ms" } histogram_options { buckets: [ 1, 10 ] } } ] }\n',
    ),
    quotes: [
      ['field-release', q('field-release', 'Error parsing')],
      ['field-release', q('field-release', 'failed to read text proto')],
    ],
  },
  { name: 'no_config', model: 'python', noAutoComplete: true, quotes: [['missing-config', q('missing-config', 'failed to open')]] },
  // the model file
  { name: 'garbage', model: 'onnx-garbage', config: ORT(), quotes: [['model-unreadable', q('model-unreadable', 'Protobuf parsing failed')]] },
  {
    name: 'pt_no_model_file',
    model: 'none',
    config: PT_TWO(`input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "INPUT1" data_type: TYPE_FP32 dims: [ 4 ] } ]\n${PT_IO_OUT}`),
    quotes: [['model-unreadable', q('model-unreadable', 'unable to find')]],
  },
  // resolve's refusal of an auto-completed ONNX model without its file (src/triton/effective-config.ts) says the same.
  {
    name: 'no_model_file_auto',
    model: 'none',
    config: 'backend: "onnxruntime"\nmax_batch_size: 8\n',
    quotes: [],
    says: /failed to stat file .*no_model_file_auto\/1\/model\.onnx/,
  },
  {
    name: 'no_model_file',
    model: 'none',
    config: ORT(),
    quotes: [
      ['model-unreadable', q('model-unreadable', 'failed to stat file')],
      ['version-dirs', q('version-dirs', 'failed to stat file')],
    ],
  },
  // the ONNX Runtime backend's checks of the config against the model
  {
    name: 'fixed_listed',
    model: 'onnx-fixed',
    config: ORT(
      '',
      'input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "features" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n',
    ),
    quotes: [['missing-dynamic-axis', q('missing-dynamic-axis', 'first dimension must be -1')]],
  },
  {
    name: 'fixed_auto',
    model: 'onnx-fixed',
    config: 'max_batch_size: 8\n',
    quotes: [
      ['missing-dynamic-axis', q('missing-dynamic-axis', 'autofill failed')],
      ['autocomplete-surprises', q('autocomplete-surprises', 'autofill failed')],
    ],
  },
  {
    name: 'batch_in_dims',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ -1, 3, 32, 32 ]'),
    quotes: [
      ['batch-dim-in-dims', q('batch-dim-in-dims', 'initial batch')],
      ['io-shape', q('io-shape', 'initial batch')],
    ],
  },
  { name: 'nobatch_dims', model: 'onnx', config: ORT('', IO, 0), quotes: [['io-shape', q('io-shape', '(shape <cfg>)')]] },
  {
    name: 'renamed_in',
    model: 'onnx',
    config: ORT_IN('name: "images" data_type: TYPE_FP32 dims: [ 3, 32, 32 ]'),
    quotes: [['io-name', q('io-name', 'unexpected inference input')]],
  },
  {
    name: 'renamed_out',
    model: 'onnx',
    config: ORT(
      '',
      'input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "out" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n',
    ),
    quotes: [['io-name', q('io-name', 'unexpected inference output')]],
  },
  {
    name: 'dtype_in',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_INT32 dims: [ 3, 32, 32 ]'),
    quotes: [['io-datatype', q('io-datatype', "datatype <TYPE_X> for input '<name>', model")]],
  },
  {
    name: 'dtype_out',
    model: 'onnx',
    config: ORT(
      '',
      'input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "output" data_type: TYPE_FP16 dims: [ 3, 32, 32 ] } ]\n',
    ),
    quotes: [['io-datatype', q('io-datatype', "datatype <TYPE_X> for output '<name>', model")]],
  },
  { name: 'sequence_io', model: 'onnx-sequence', quotes: [['io-datatype', q('io-datatype', 'Unsupported ONNX Type')]] },
  {
    name: 'scalar_dims',
    model: 'onnx-scalar',
    config: ORT(
      '',
      'input [ { name: "x" data_type: TYPE_FP32 dims: [ -1 ] }, { name: "threshold" data_type: TYPE_FP32 dims: [ 2 ] } ]\noutput [ { name: "mask" data_type: TYPE_BOOL dims: [ -1 ] }, { name: "threshold_out" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
      0,
    ),
    quotes: [['io-shape', q('io-shape', 'scalar tensor')]],
  },
  {
    name: 'scalar_auto',
    model: 'onnx-scalar',
    config: 'max_batch_size: 8\n',
    quotes: [],
    says: /autofill failed for model 'scalar_auto': model does not support batching/,
  },
  {
    name: 'scalar_batch',
    model: 'onnx-scalar',
    config: ORT(
      '',
      'input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] } }, { name: "threshold" data_type: TYPE_FP32 dims: [ 1 ] } ]\noutput [ { name: "mask" data_type: TYPE_BOOL dims: [ 1 ] reshape { shape: [ ] } }, { name: "threshold_out" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    ),
    quotes: [],
    says: /successfully loaded 'scalar_batch'/,
  },
  {
    name: 'optional_batch',
    model: 'onnx-init',
    config: ORT(
      '',
      'input [ { name: "X" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "W" data_type: TYPE_FP32 dims: [ 4, 4 ] optional: true } ]\noutput [ { name: "Y" data_type: TYPE_FP32 dims: [ 4 ] } ]\n',
    ),
    quotes: [['io-shape', q('io-shape', "optional input '<name>' is not supported")]],
  },
  {
    name: 'ragged',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] allow_ragged_batch: true'),
    quotes: [['io-shape', q('io-shape', "ragged input '<name>', model provides")]],
  },
  {
    name: 'ragged_optional',
    model: 'onnx-init',
    config: ORT(
      '',
      'input [ { name: "X" data_type: TYPE_FP32 dims: [ -1, 4 ] }, { name: "W" data_type: TYPE_FP32 dims: [ 4, 4 ] optional: true allow_ragged_batch: true } ]\noutput [ { name: "Y" data_type: TYPE_FP32 dims: [ -1, 4 ] } ]\n',
      0,
    ),
    quotes: [],
    says: /unexpected inference input 'W', allowed inputs are: X/,
  },
  {
    name: 'seq_control_absent',
    model: 'onnx',
    config: SEQ('control_input [ { name: "START" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] } ]'),
    lintAll: true,
    quotes: [['sequence-control-inputs', q('sequence-control-inputs', 'does not provide that input')]],
  },
  {
    name: 'seq_control_dims',
    model: 'onnx-multi',
    config: ORT(
      'sequence_batching { control_input [ { name: "ids" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] } ] }\n',
      'input [ { name: "image" data_type: TYPE_FP32 dims: [ 3, 8, 8 ] }, { name: "scale" data_type: TYPE_FP32 dims: [ 1, 1, 1 ] } ]\noutput [ { name: "scaled" data_type: TYPE_FP32 dims: [ 3, 8, 8 ] }, { name: "ids_out" data_type: TYPE_INT64 dims: [ 5 ] }, { name: "pooled" data_type: TYPE_FP32 dims: [ 3, 1, 1 ] } ]\n',
    ),
    quotes: [['sequence-control-inputs', q('sequence-control-inputs', 'but dims [1] is expected')]],
  },
  // the PyTorch backend
  {
    name: 'pt_count',
    model: 'pt-two',
    config: PT_TWO(`input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n${PT_IO_OUT}`),
    quotes: [['io-name', q('io-name', 'configuration expects <E> inputs')]],
  },
  {
    name: 'pt_no_output',
    model: 'pt-two',
    config: PT_TWO('input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "INPUT1" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'),
    noAutoComplete: true,
    quotes: [['io-name', q('io-name', 'at least one output')]],
  },
  {
    name: 'pt_dicts',
    model: 'pt-dicts',
    config: PT_TWO(`input [ { name: "a" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "b" data_type: TYPE_FP32 dims: [ 4 ] } ]\n${PT_IO_OUT}`),
    quotes: [['io-name', q('io-name', 'Multiple inputs of kind DictType')]],
  },
  {
    name: 'pt_badname',
    model: 'pt-two',
    config: PT_TWO(`input [ { name: "in__x" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "INPUT1" data_type: TYPE_FP32 dims: [ 4 ] } ]\n${PT_IO_OUT}`),
    quotes: [['io-name', q('io-name', 'Falling back to enforcing strict ordering')]],
  },
  {
    name: 'pt_state',
    model: 'pt-two',
    config: PT_TWO(
      `input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n`,
      'sequence_batching { state [ { input_name: "INPUT1" output_name: "OUTPUT__1" data_type: TYPE_FP32 dims: [ 4 ] } ] }\n',
    ),
    quotes: [['io-name', q('io-name', 'is using sequence batching with state')]],
  },
  // ORT parameters and accelerators (onnxruntime_backend src/onnxruntime.cc)
  {
    name: 'acc_unknown',
    model: 'onnx',
    config: ORT('optimization { execution_accelerators { cpu_execution_accelerator [ { name: "nosuch" } ] } }\n'),
    quotes: [['accelerators', q('accelerators', 'unknown Execution Accelerator')]],
  },
  {
    name: 'param_int',
    model: 'onnx',
    config: ORT('parameters { key: "intra_op_thread_count" value { string_value: "four" } }\n'),
    quotes: [['accelerators', q('accelerators', 'to integral number')]],
  },
  {
    name: 'param_bool',
    model: 'onnx',
    config: ORT('parameters { key: "enable_mem_arena" value { string_value: "maybe" } }\n'),
    quotes: [['accelerators', q('accelerators', 'to boolean')]],
  },
  {
    name: 'param_mode',
    model: 'onnx',
    config: ORT('parameters { key: "execution_mode" value { string_value: "2" } }\n'),
    quotes: [['accelerators', q('accelerators', 'execution_mode are 0 or 1')]],
  },
  // version directories (core src/model_repository_manager.cc, model_lifecycle.cc)
  {
    name: 'vp_absent',
    model: 'onnx',
    config: ORT('version_policy { specific { versions: [ 3 ] } }\n'),
    quotes: [
      ['version-dirs', q('version-dirs', 'at least one version')],
      ['version-dirs', q('version-dirs', 'version directory is not present')],
    ],
  },
  { name: 'vd_zeros', model: 'onnx', config: ORT(), versions: ['01'], quotes: [['version-dirs', q('version-dirs', 'leading zeros')]] },
  { name: 'vd_word', model: 'onnx', config: ORT(), versions: ['latest'], quotes: [['version-dirs', q('version-dirs', 'fails to convert')]] },
  {
    name: 'no_backend',
    model: 'none',
    config: `max_batch_size: 8\n${IO}`,
    quotes: [
      ['version-dirs', q('version-dirs', 'Could not determine backend')],
      ['platform-backend', q('platform-backend', 'Could not determine backend')],
    ],
  },
  // auto-complete (verbose log)
  { name: 'auto_mbs', model: 'onnx', quotes: [['autocomplete-surprises', q('autocomplete-surprises', 'autofilled max_batch_size')]] },
  {
    name: 'auto_skip',
    model: 'onnx',
    config: ORT(),
    quotes: [['autocomplete-surprises', q('autocomplete-surprises', 'inputs and outputs already specified')]],
  },
  // core: names, platform, backend
  {
    name: 'named_wrong',
    model: 'onnx',
    config: `name: "other"\n${ORT()}`,
    quotes: [['name-matches-directory', q('name-matches-directory', 'unexpected directory name')]],
  },
  { name: 'named..dots', model: 'onnx', config: `name: "named..dots"\n${ORT()}`, quotes: [], says: /successfully loaded 'named\.\.dots'/ },
  {
    name: 'platform_unknown',
    model: 'onnx',
    config: ORT().replace('backend: "onnxruntime"', 'platform: "onnxruntime_onnx2"'),
    quotes: [['platform-backend', q('platform-backend', 'unexpected platform type')]],
  },
  {
    name: 'platform_pair',
    model: 'onnx',
    config: ORT().replace('backend: "onnxruntime"', 'platform: "onnxruntime_onnx"\nbackend: "pytorch"'),
    quotes: [['platform-backend', q('platform-backend', "'platform' and 'backend' pair")]],
  },
  {
    name: 'ens_backend',
    model: 'none',
    config: ENSEMBLE(STEP(), 'backend: "onnxruntime"\n'),
    quotes: [['platform-backend', q('platform-backend', 'Ensemble model')]],
  },
  {
    name: 'runtime_escapes',
    model: 'onnx',
    config: ORT('runtime: "../python/libtriton_python.so"\n'),
    quotes: [
      ['platform-backend', q('platform-backend', 'escapes backend directory')],
      ['backend-library', q('backend-library', 'escapes backend directory')],
    ],
  },
  {
    name: 'backend_unknown',
    model: 'onnx',
    config: ORT().replace('"onnxruntime"', '"nosuch"'),
    quotes: [
      ['platform-backend', q('platform-backend', 'unable to find backend library for backend')],
      ['backend-library', q('backend-library', 'unable to find backend library for backend')],
      // The same refusal where an image lacks the backend (lint --deployment).
      ['deployment-image', q('deployment-image', 'unable to find backend library for backend')],
    ],
  },
  {
    name: 'runtime_absent',
    model: 'onnx',
    config: ORT('runtime: "libnosuch.so"\n'),
    quotes: [['backend-library', q('backend-library', "unable to find backend library '<library>'")]],
  },
  // core ValidateModelConfig
  { name: 'mbs_negative', model: 'onnx', config: ORT('', IO, -1), quotes: [['max-batch-size', q('max-batch-size', 'non-negative')]] },
  {
    name: 'pbs_zero',
    model: 'onnx',
    config: ORT('dynamic_batching { preferred_batch_size: [ 0 ] }\n'),
    quotes: [['preferred-batch-size', q('preferred-batch-size', 'dynamic batching preferred size must be positive')]],
  },
  {
    name: 'pbs_big',
    model: 'onnx',
    config: ORT('dynamic_batching { preferred_batch_size: [ 16 ] }\n'),
    quotes: [['preferred-batch-size', q('preferred-batch-size', 'dynamic batching preferred size must be <=')]],
  },
  {
    name: 'seq_pbs_zero',
    model: 'onnx',
    config: SEQ('oldest { preferred_batch_size: [ 0 ] }'),
    quotes: [['preferred-batch-size', q('preferred-batch-size', 'sequence batching preferred batch size must be positive')]],
  },
  {
    name: 'seq_pbs_big',
    model: 'onnx',
    config: SEQ('oldest { preferred_batch_size: [ 16 ] }'),
    quotes: [['preferred-batch-size', q('preferred-batch-size', 'sequence batching preferred batch size must be <=')]],
  },
  {
    name: 'prio_default',
    model: 'onnx',
    config: ORT('dynamic_batching { priority_levels: 2 default_priority_level: 3 }\n'),
    quotes: [['priority-queue', q('priority-queue', 'default priority level')]],
  },
  {
    name: 'prio_policy',
    model: 'onnx',
    config: ORT('dynamic_batching { priority_levels: 2 default_priority_level: 1 priority_queue_policy { key: 5 value { max_queue_size: 4 } } }\n'),
    quotes: [['priority-queue', q('priority-queue', 'priority queue policy')]],
  },
  {
    name: 'prio_ordering',
    model: 'onnx',
    config: ORT('dynamic_batching { preserve_ordering: true priority_levels: 2 default_priority_level: 1 }\n'),
    quotes: [['priority-queue', q('priority-queue', 'Only one priority level')]],
  },
  {
    name: 'prio_delay',
    model: 'onnx',
    config: ORT(
      'dynamic_batching { preserve_ordering: true default_queue_policy { timeout_action: DELAY default_timeout_microseconds: 1000 allow_timeout_override: true } }\n',
    ),
    quotes: [['priority-queue', q('priority-queue', 'DELAY')]],
  },
  {
    name: 'seq_noname',
    model: 'onnx',
    config: SEQ('control_input [ { control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] } ]'),
    quotes: [['sequence-batching', q('sequence-batching', 'must have a name')]],
  },
  {
    name: 'seq_twokinds',
    model: 'onnx',
    config: SEQ(
      'control_input [ { name: "C" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] }, { name: "C" control [ { kind: CONTROL_SEQUENCE_READY int32_false_true: [ 0, 1 ] } ] } ]',
    ),
    quotes: [['sequence-batching', q('sequence-batching', 'multiple control kinds')]],
  },
  {
    name: 'seq_twostarts',
    model: 'onnx',
    config: SEQ(
      'control_input [ { name: "A" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] }, { name: "B" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] } ]',
    ),
    quotes: [['sequence-batching', q('sequence-batching', 'specifies multiple <KIND> tensors')]],
  },
  {
    name: 'seq_novalues',
    model: 'onnx',
    config: SEQ('control_input [ { name: "A" control [ { kind: CONTROL_SEQUENCE_START } ] } ]'),
    quotes: [['sequence-batching', q('sequence-batching', 'must specify either')]],
  },
  {
    name: 'seq_twovalues',
    model: 'onnx',
    config: SEQ('control_input [ { name: "A" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] fp32_false_true: [ 0, 1 ] } ] } ]'),
    quotes: [['sequence-batching', q('sequence-batching', 'specifies more than one')]],
  },
  {
    name: 'seq_int32_one',
    model: 'onnx',
    config: SEQ('control_input [ { name: "A" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 1 ] } ] } ]'),
    quotes: [['sequence-batching', q('sequence-batching', "control 'int32_false_true' must have")]],
  },
  {
    name: 'seq_fp32_one',
    model: 'onnx',
    config: SEQ('control_input [ { name: "A" control [ { kind: CONTROL_SEQUENCE_START fp32_false_true: [ 1 ] } ] } ]'),
    quotes: [['sequence-batching', q('sequence-batching', "control 'fp32_false_true' must have")]],
  },
  {
    name: 'seq_bool_one',
    model: 'onnx',
    config: SEQ('control_input [ { name: "A" control [ { kind: CONTROL_SEQUENCE_START bool_false_true: [ true ] } ] } ]'),
    quotes: [['sequence-batching', q('sequence-batching', "control 'bool_false_true' must have")]],
  },
  {
    name: 'seq_corrid_values',
    model: 'onnx',
    config: SEQ('control_input [ { name: "A" control [ { kind: CONTROL_SEQUENCE_CORRID int32_false_true: [ 0, 1 ] data_type: TYPE_UINT64 } ] } ]'),
    quotes: [['sequence-batching', q('sequence-batching', 'must not specify either')]],
  },
  {
    name: 'seq_corrid_type',
    model: 'onnx',
    config: SEQ('control_input [ { name: "A" control [ { kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_FP32 } ] } ]'),
    quotes: [['sequence-batching', q('sequence-batching', 'unexpected data type for control')]],
  },
  {
    name: 'seq_slots',
    model: 'onnx',
    config: SEQ('direct { minimum_slot_utilization: 2 }'),
    quotes: [['sequence-batching', q('sequence-batching', 'minimum slot utilization')]],
  },
  {
    name: 'seq_strategy',
    model: 'onnx',
    config: SEQ('', 'parameters { key: "TRITON_BATCH_STRATEGY_PATH" value { string_value: "/nonexistent/strategy.so" } }\n'),
    quotes: [['sequence-batching', q('sequence-batching', 'TRITON_BATCH_STRATEGY_PATH')]],
  },
  ...stateCases(),
  {
    name: 'cache_decoupled',
    model: 'python',
    config: pythonConfig('response_cache { enable: true }\nmodel_transaction_policy { decoupled: true }\n'),
    quotes: [['response-cache', q('response-cache', "'decoupled' transaction policy")]],
  },
  {
    name: 'cache_sequence',
    model: 'onnx',
    config: SEQ('', 'response_cache { enable: true }\n'),
    quotes: [['response-cache', q('response-cache', 'sequence batching scheduler')]],
  },
  // r24.10's ModelConfig has no model_metrics (a later release's field): 2.51 refuses the config as text.
  { name: 'metric_field', model: 'onnx', config: ORT('model_metrics { metric_control [ { } ] }\n'), quotes: [], says: /has no field named "model_metrics"/ },
  {
    name: 'ig_model_gpus',
    model: 'onnx',
    config: ORT().replace('kind: KIND_CPU', 'kind: KIND_MODEL gpus: [ 0 ]'),
    quotes: [['instance-group', q('instance-group', 'kind KIND_MODEL')]],
  },
  {
    name: 'ig_cpu_gpus',
    model: 'onnx',
    config: ORT().replace('kind: KIND_CPU', 'kind: KIND_CPU gpus: [ 0 ]'),
    quotes: [['instance-group', q('instance-group', 'kind KIND_CPU')]],
  },
  {
    name: 'ig_gpu_id',
    model: 'onnx',
    config: ORT().replace('kind: KIND_CPU', 'kind: KIND_GPU gpus: [ 3 ]'),
    quotes: [
      ['instance-group', q('instance-group', 'invalid or unsupported gpu id')],
      // The same refusal where a deployment's container gets fewer GPUs than the group lists.
      ['deployment-gpus', q('deployment-gpus', 'invalid or unsupported gpu id')],
    ],
  },
  {
    name: 'ig_gpu',
    model: 'onnx',
    config: ORT().replace('kind: KIND_CPU', 'kind: KIND_GPU'),
    quotes: [
      ['instance-group', q('instance-group', 'no GPUs are available')],
      ['deployment-gpus', q('deployment-gpus', 'no GPUs are available')],
    ],
  },
  {
    name: 'ig_profile',
    model: 'onnx',
    config: ORT().replace('kind: KIND_CPU', 'kind: KIND_CPU profile: [ "0" ]'),
    quotes: [['instance-group', q('instance-group', 'only supported for TensorRT')]],
  },
  // core ValidateIOShape and friends
  { name: 'io_noname', model: 'onnx', config: ORT_IN('data_type: TYPE_FP32 dims: [ 3, 32, 32 ]'), quotes: [['io-dims', q('io-dims', "must specify 'name'")]] },
  { name: 'io_notype', model: 'onnx', config: ORT_IN('name: "input" dims: [ 3, 32, 32 ]'), quotes: [['io-dims', q('io-dims', "must specify 'data_type'")]] },
  { name: 'io_nodims', model: 'onnx', config: ORT_IN('name: "input" data_type: TYPE_FP32'), quotes: [['io-dims', q('io-dims', "must specify 'dims'")]] },
  {
    name: 'io_empty_reshape',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] }', '', 0),
    quotes: [['io-dims', q('io-dims', 'cannot have empty reshape')]],
  },
  {
    name: 'io_zero_dim',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ 0, 32, 32 ]'),
    quotes: [['io-dims', q('io-dims', "'<n>' dimension must be integer")]],
  },
  {
    name: 'io_zero_reshape',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] reshape { shape: [ 0, 32, 32 ] }'),
    quotes: [['io-dims', q('io-dims', 'reshape dimensions must be')]],
  },
  {
    name: 'io_reshape_size',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] reshape { shape: [ 3, 32, 16 ] }'),
    quotes: [['io-dims', q('io-dims', 'different size for dims')]],
  },
  {
    name: 'io_reshape_vars',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ 3, -1, 32 ] reshape { shape: [ 3, -1, -1 ] }'),
    quotes: [['io-dims', q('io-dims', 'different number of variable-size')]],
  },
  {
    name: 'io_huge',
    model: 'python',
    config: pythonConfig().replace('dims: [ 4 ] } ]\noutput', 'dims: [ 9223372036854775807, 2 ] } ]\noutput'),
    quotes: [],
    says: /successfully loaded 'io_huge'/,
  },
  {
    name: 'io_nhwc',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 format: FORMAT_NHWC dims: [ 3072 ]'),
    quotes: [['io-dims', q('io-dims', 'NHWC/NCHW require 3 dims')]],
  },
  {
    name: 'io_shape_tensor',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] is_shape_tensor: true'),
    quotes: [['io-dims', q('io-dims', 'shape tensors are only supported')]],
  },
  {
    name: 'io_nonlinear',
    model: 'onnx',
    config: ORT_IN('name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] is_non_linear_format_io: true'),
    quotes: [['io-dims', q('io-dims', 'Non-linear IO format is only')]],
  },
  // batch_input / batch_output (core ValidateBatchIO)
  {
    name: 'bi_sources',
    model: 'onnx',
    config: ORT('batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "count" data_type: TYPE_FP32 } ]\n'),
    quotes: [['batch-io', q('batch-io', "batch input kind '<KIND>' expects")]],
  },
  {
    name: 'bi_type',
    model: 'onnx',
    config: ORT('batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "count" data_type: TYPE_INT64 source_input: "input" } ]\n'),
    quotes: [['batch-io', q('batch-io', 'batch input data type')]],
  },
  {
    name: 'bi_source',
    model: 'onnx',
    config: ORT('batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "count" data_type: TYPE_FP32 source_input: "nosuch" } ]\n'),
    quotes: [['batch-io', q('batch-io', 'unknown source input')]],
  },
  {
    name: 'bo_sources',
    model: 'onnx',
    config: ORT('batch_output [ { target_name: "output" kind: BATCH_SCATTER_WITH_INPUT_SHAPE } ]\n'),
    quotes: [['batch-io', q('batch-io', "batch output kind 'BATCH_SCATTER_WITH_INPUT_SHAPE'")]],
  },
  {
    name: 'bo_target',
    model: 'onnx',
    config: ORT('batch_output [ { target_name: "nosuch" kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "input" } ]\n'),
    quotes: [['batch-io', q('batch-io', 'unknown target output')]],
  },
  {
    name: 'bo_twice',
    model: 'onnx',
    config: ORT('batch_output [ { target_name: [ "output", "output" ] kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "input" } ]\n'),
    quotes: [['batch-io', q('batch-io', 'can only be specified once')]],
  },
  {
    name: 'bi_kind',
    model: 'onnx',
    config: ORT('batch_input [ { kind: 99 target_name: "count" data_type: TYPE_FP32 source_input: "input" } ]\n'),
    quotes: [['batch-io', q('batch-io', 'JSON non-string')]],
  },
  // label files
  {
    name: 'label_outside',
    model: 'onnx',
    config: ORT(
      '',
      'input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] label_filename: "../labels.txt" } ]\n',
    ),
    quotes: [],
    says: /successfully loaded 'label_outside'/,
  },
  {
    name: 'batch_relative',
    model: 'onnx',
    config: ORT('dynamic_batching { }\nparameters { key: "TRITON_BATCH_STRATEGY_PATH" value { string_value: "libbatch.so" } }\n'),
    // Beside the config: core reads the path from tritonserver's working directory all the same.
    files: { 'libbatch.so': 'not a library' },
    quotes: [['batch-strategy-path', q('batch-strategy-path', 'Batching library path not found')]],
    says: /Batching library path not found: libbatch\.so/,
  },
  {
    name: 'batch_empty',
    model: 'onnx',
    config: ORT('dynamic_batching { }\nparameters { key: "TRITON_BATCH_STRATEGY_PATH" value { string_value: "" } }\n'),
    quotes: [['batch-strategy-path', q('batch-strategy-path', 'Batching library path not found')]],
    says: /Batching library path not found: $/m,
  },
  {
    name: 'label_absent',
    model: 'onnx',
    config: ORT(
      '',
      'input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] label_filename: "labels.txt" } ]\n',
    ),
    quotes: [['label-file', q('label-file', 'failed to open text file')]],
  },
  // core src/label_provider.cc AddLabels: labels kept by output name (issue 45).
  {
    name: 'label_twice',
    model: 'python',
    config:
      'backend: "python"\nmax_batch_size: 8\ninput [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] label_filename: "a.txt" }, { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] label_filename: "b.txt" } ]\ninstance_group [ { kind: KIND_CPU count: 1 } ]\n',
    files: { 'a.txt': 'cat\n', 'b.txt': 'dog\n' },
    quotes: [['label-file', q('label-file', 'multiple label files')]],
  },
  // python_backend src/python_be.cc ModelState: FORCE_CPU_ONLY_INPUT_TENSORS "yes" or "no" (issue 45).
  {
    name: 'py_force_novalue',
    model: 'python',
    config: pythonConfig('parameters { key: "FORCE_CPU_ONLY_INPUT_TENSORS" }\n'),
    quotes: [['python-parameters', q('python-parameters', 'Incorrect value for FORCE_CPU_ONLY_INPUT_TENSORS')]],
  },
  {
    name: 'py_force_true',
    model: 'python',
    config: pythonConfig('parameters { key: "FORCE_CPU_ONLY_INPUT_TENSORS" value: { string_value: "true" } }\n'),
    quotes: [['python-parameters', q('python-parameters', 'Incorrect value for FORCE_CPU_ONLY_INPUT_TENSORS')]],
  },
  // model_warmup (core src/model.cc, infer_request.cc)
  {
    name: 'wu_vardims',
    model: 'onnx',
    config: ORT(
      'model_warmup [ { name: "w" batch_size: 1 inputs { key: "input" value { data_type: TYPE_FP32 dims: [ -1, 3, 32, 32 ] zero_data: true } } } ]\n',
      IO.replace(/dims: \[ 3/g, 'dims: [ -1, 3'),
      0,
    ),
    quotes: [['model-warmup', q('model-warmup', 'all variable-size dimensions')]],
  },
  {
    name: 'wu_notype',
    model: 'onnx',
    config: WARMUP('inputs { key: "input" value { dims: [ 3, 32, 32 ] zero_data: true } }'),
    quotes: [['model-warmup', q('model-warmup', 'data-type is')]],
  },
  {
    name: 'wu_nodata',
    model: 'onnx',
    config: WARMUP('inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } }'),
    quotes: [['model-warmup', q('model-warmup', 'input_data_type set')]],
  },
  {
    name: 'wu_file',
    model: 'onnx',
    config: WARMUP('inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 3, 32, 32 ] input_data_file: "raw" } }'),
    files: { 'warmup/raw': 'too short' },
    quotes: [['model-warmup', q('model-warmup', 'warmup setting expects <N> bytes')]],
  },
  {
    name: 'wu_dtype',
    model: 'onnx',
    config: WARMUP('inputs { key: "input" value { data_type: TYPE_INT32 dims: [ 3, 32, 32 ] zero_data: true } }'),
    quotes: [['model-warmup', q('model-warmup', 'data-type is')]],
  },
  {
    name: 'wu_shape',
    model: 'onnx',
    config: WARMUP('inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 3, 32, 16 ] zero_data: true } }'),
    quotes: [['model-warmup', q('model-warmup', 'unexpected shape for input')]],
  },
  { name: 'wu_missing', model: 'onnx', config: WARMUP(''), quotes: [['model-warmup', q('model-warmup', 'missing required input(s)')]] },
  {
    name: 'wu_batch',
    model: 'python',
    config: pythonConfig('model_warmup [ { name: "w" batch_size: 16 inputs { key: "INPUT0" value { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } } } ]\n'),
    quotes: [['model-warmup', q('model-warmup', 'failed to run warmup sample')]],
  },
  // ensembles (core src/ensemble_utils.cc, ensemble_scheduler)
  {
    name: 'ens_sched_on_model',
    model: 'onnx',
    config: ORT(`ensemble_scheduling { ${STEP()} }\n`),
    quotes: [['ensemble-config', q('ensemble-config', 'whose platform is not ensemble')]],
  },
  { name: 'ens_nosched', model: 'none', config: ENSEMBLE(''), quotes: [['ensemble-config', q('ensemble-config', 'must be set for ensemble')]] },
  {
    name: 'ens_instances',
    model: 'none',
    config: ENSEMBLE(STEP(), 'instance_group [ { count: 1 kind: KIND_CPU } ]\n'),
    quotes: [['ensemble-config', q('ensemble-config', 'instance group should not')]],
  },
  {
    name: 'ens_optimization',
    model: 'none',
    config: ENSEMBLE(STEP(), 'optimization { priority: PRIORITY_MAX }\n'),
    quotes: [['ensemble-config', q('ensemble-config', 'optimization should not')]],
  },
  {
    name: 'ens_warmup',
    model: 'none',
    config: ENSEMBLE(
      STEP(),
      'model_warmup [ { name: "w" batch_size: 1 inputs { key: "IN" value { data_type: TYPE_FP32 dims: [ 3, 32, 32 ] zero_data: true } } } ]\n',
    ),
    quotes: [['ensemble-config', q('ensemble-config', 'model_warmup can not')]],
  },
  {
    name: 'ens_nostep',
    model: 'none',
    config:
      'platform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\nensemble_scheduling { }\n',
    quotes: [['ensemble-config', q('ensemble-config', "must specify 'step'")]],
  },
  { name: 'ens_nomodel', model: 'none', config: ENSEMBLE(STEP('')), quotes: [['ensemble-config', q('ensemble-config', "'model_name' in step")]] },
  { name: 'ens_noinmap', model: 'none', config: ENSEMBLE(STEP('ok_base', '')), quotes: [['ensemble-config', q('ensemble-config', "'input_map' in step")]] },
  {
    name: 'ens_nooutmap',
    model: 'none',
    config: ENSEMBLE(STEP('ok_base', undefined, '')),
    quotes: [['ensemble-config', q('ensemble-config', "'output_map' in step")]],
  },
  {
    name: 'ens_outtwice',
    model: 'none',
    config: ENSEMBLE(
      `${STEP()} step [ { model_name: "ok_base" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUT" } } ]`,
    ),
    quotes: [['ensemble-config', q('ensemble-config', 'output map only once')]],
  },
  {
    name: 'ens_in_unused',
    model: 'none',
    config: ENSEMBLE(
      STEP(),
      '',
      'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] }, { name: "EXTRA" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n',
    ),
    quotes: [['ensemble-config', q('ensemble-config', "ensemble input '<in>'")]],
  },
  {
    name: 'ens_out_unwritten',
    model: 'none',
    config: ENSEMBLE(STEP('ok_base', undefined, 'output_map { key: "output" value: "MID" }')),
    quotes: [['ensemble-config', q('ensemble-config', "ensemble output '<out>'")]],
  },
  {
    name: 'ens_tensor_unused',
    model: 'none',
    config: ENSEMBLE(
      `${STEP()} step [ { model_name: "ok_base" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "SPARE" } } ]`,
    ),
    quotes: [['ensemble-config', q('ensemble-config', 'is unused in ensemble')]],
  },
  {
    name: 'ens_absent',
    model: 'none',
    config: ENSEMBLE(STEP('nosuch_model')),
    quotes: [
      ['ensemble-models', q('ensemble-models', 'not available or ambiguous')],
      // The same refusal where the step is served by another server of the deployment.
      ['deployment-ensemble-split', q('deployment-ensemble-split', 'not available or ambiguous')],
    ],
  },
  {
    // A deployment's storage pointed at a model's directory: its version directory is read as a model
    // with no config, and the model file at its top is in no version directory (deployment-storage).
    name: 'version_as_model',
    model: 'none',
    files: { 'model.onnx': 'not a model\n' },
    quotes: [['deployment-storage', q('deployment-storage', 'Poll failed for model directory')]],
  },
  {
    name: 'ens_failing',
    model: 'none',
    config: ENSEMBLE(STEP('renamed_in')),
    quotes: [['ensemble-models', q('ensemble-models', 'which has no loaded version')]],
  },
  {
    name: 'ens_version',
    model: 'none',
    config: ENSEMBLE(STEP('ok_base', undefined, undefined, 3)),
    quotes: [['ensemble-models', q('ensemble-models', 'whose required version')]],
  },
  {
    name: 'ens_cycle_a',
    model: 'none',
    config: ENSEMBLE(STEP('ens_cycle_b', 'input_map { key: "IN" value: "IN" }', 'output_map { key: "OUT" value: "OUT" }')),
    quotes: [['ensemble-models', q('ensemble-models', 'circular dependency')]],
  },
  {
    name: 'ens_cycle_b',
    model: 'none',
    config: ENSEMBLE(STEP('ens_cycle_a', 'input_map { key: "IN" value: "IN" }', 'output_map { key: "OUT" value: "OUT" }')),
    quotes: [],
  },
  {
    name: 'ens_mbs',
    model: 'none',
    config: ENSEMBLE(STEP(), '', undefined, 16),
    quotes: [['ensemble-models', q('ensemble-models', 'allows maximum batch size')]],
  },
  {
    name: 'ens_in_key',
    model: 'none',
    config: ENSEMBLE(STEP('ok_base', 'input_map { key: "nosuch" value: "IN" } input_map { key: "input" value: "IN" }')),
    quotes: [['ensemble-models', q('ensemble-models', 'mapping to non-existing input')]],
  },
  {
    name: 'ens_out_key',
    model: 'none',
    config: ENSEMBLE(STEP('ok_base', undefined, 'output_map { key: "nosuch" value: "OUT" }')),
    quotes: [['ensemble-models', q('ensemble-models', 'mapped from non-existing output')]],
  },
  {
    name: 'ok_two',
    model: 'pt-two',
    config: PT_TWO(`input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "INPUT1" data_type: TYPE_FP32 dims: [ 4 ] } ]\n${PT_IO_OUT}`),
    quotes: [],
  },
  {
    name: 'ens_in_unmapped',
    model: 'none',
    config: ENSEMBLE(
      'step [ { model_name: "ok_two" model_version: -1 input_map { key: "INPUT0" value: "IN" } output_map { key: "OUTPUT__0" value: "OUT" } } ]',
      '',
      'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\n',
      0,
    ),
    quotes: [['ensemble-models', q('ensemble-models', 'is not mapped to any ensemble tensors')]],
  },
  {
    name: 'ens_dtype',
    model: 'none',
    config: ENSEMBLE(
      STEP(),
      '',
      'input [ { name: "IN" data_type: TYPE_INT32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n',
    ),
    quotes: [['ensemble-models', q('ensemble-models', 'inconsistent data type')]],
  },
  {
    name: 'ens_shape',
    model: 'none',
    config: ENSEMBLE(
      STEP(),
      '',
      'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 16, 16 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n',
    ),
    quotes: [['ensemble-models', q('ensemble-models', 'inconsistent shape')]],
  },
  {
    name: 'ens_unconnected',
    model: 'none',
    config: ENSEMBLE(
      `${STEP('ok_base', undefined, 'output_map { key: "output" value: "X" }')} ${STEP('ok_base', 'input_map { key: "input" value: "MID" }')}`,
      '',
      'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\n',
    ),
    quotes: [['ensemble-config', q('ensemble-config', 'is not connected')]],
  },
  DECOUPLED_PY('dec_a'),
  DECOUPLED_PY('dec_b'),
  {
    name: 'ens_decoupled',
    model: 'none',
    config: ENSEMBLE(
      'step [ { model_name: "dec_a" model_version: -1 input_map { key: "INPUT0" value: "IN" } output_map { key: "OUTPUT0" value: "A" } }, { model_name: "dec_b" model_version: -1 input_map { key: "INPUT0" value: "IN" } output_map { key: "OUTPUT0" value: "B" } }, { model_name: "ok_two" model_version: -1 input_map [ { key: "INPUT0" value: "A" }, { key: "INPUT1" value: "B" } ] output_map { key: "OUTPUT__0" value: "OUT" } } ]',
      '',
      'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\n',
      0,
    ),
    quotes: [['ensemble-models', q('ensemble-models', 'different decoupled models')]],
  },
  // A decoupled model over HTTP's infer endpoint and gRPC's ModelInfer (the server's frontends)
  {
    name: 'dec_grpc',
    model: 'python',
    config: pythonConfig('model_transaction_policy { decoupled: true }\n', 0),
    infer: { inputs: [{ name: 'INPUT0', datatype: 'FP32', shape: [4], data: [1, 2, 3, 4] }] },
    grpcInfer: true,
    quotes: [
      ['decoupled-clients', q('decoupled-clients', 'ModelInfer RPC')],
      ['decoupled-clients', q('decoupled-clients', 'HTTP end point')],
    ],
  },
  // The OpenVINO backend (openvino_backend src/openvino_utils.cc ModelConfigDataTypeToOpenVINOElement)
  {
    name: 'ov_string',
    model: 'openvino',
    config:
      'backend: "openvino"\nmax_batch_size: 0\ninput [ { name: "Func/PartitionedCall/input/_0:0" data_type: TYPE_STRING dims: [ 1, 4 ] }, { name: "input1" data_type: TYPE_INT32 dims: [ 1, 4 ] } ]\noutput [ { name: "Func/PartitionedCall/output/_2:0" data_type: TYPE_INT32 dims: [ 1, 4 ] }, { name: "Func/PartitionedCall/output/_3:0" data_type: TYPE_INT32 dims: [ 1, 4 ] } ]\ninstance_group [ { count: 1 kind: KIND_CPU } ]\n',
    quotes: [['io-datatype', q('io-datatype', 'unsupported datatype <TYPE_X> for input')]],
  },
  // A sequence control on a model input of another type (onnxruntime_backend ValidateTypedSequenceControl)
  {
    name: 'seq_control_type',
    model: 'onnx-ctl',
    config: ORT(
      'sequence_batching { control_input [ { name: "ctl" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] } ] }\n',
      'input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] }, { name: "ctl_out" data_type: TYPE_FP16 dims: [ 1 ] } ]\n',
    ),
    quotes: [['sequence-control-inputs', q('sequence-control-inputs', 'the model expects data-type')]],
  },
  // TorchScript models exported here (forward() with no argument, and with a Tuple argument)
  {
    name: 'pt_no_input',
    model: 'pt-noargs',
    config: PT_TWO('output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'),
    noAutoComplete: true,
    quotes: [['io-name', q('io-name', 'at least one input')]],
  },
  {
    name: 'pt_tuple',
    model: 'pt-tuple',
    config: PT_TWO('input [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'),
    quotes: [['io-name', q('io-name', 'An input of type')]],
  },
  // The Python backend's checks of what auto_complete_config sets (python_backend src/resources/triton_python_backend_utils.py, src/pb_stub.cc)
  PY_AC('ac_mbs', `${PY_IO}; c.set_max_batch_size(4)`, 'specified max_batch_size <m>'),
  PY_AC(
    'ac_decoupled',
    `${PY_IO}; c.set_model_transaction_policy({"decoupled": True})`,
    'trying to change decoupled property',
    'backend: "python"\nmax_batch_size: 8\nmodel_transaction_policy { decoupled: false }\n',
  ),
  PY_AC('ac_scheduling', `${PY_IO}; c.set_dynamic_batching()`, 'scheduling_choice', 'backend: "python"\nmax_batch_size: 8\nsequence_batching { }\n'),
  PY_AC(
    'ac_input_prop',
    'c.add_input({"name": "INPUT0", "data_type": "TYPE_FP32", "dims": [4], "format": "FORMAT_NONE"})',
    "contains property other than 'name', 'data_type', 'dims' and 'optional'",
  ),
  PY_AC(
    'ac_output_prop',
    'c.add_output({"name": "OUTPUT0", "data_type": "TYPE_FP32", "dims": [4], "optional": True})',
    "contains property other than 'name', 'data_type' and 'dims'",
  ),
  PY_AC('ac_noname', 'c.add_input({"data_type": "TYPE_FP32", "dims": [4]})', "is missing 'name' property"),
  PY_AC('ac_notype', 'c.add_input({"name": "INPUT0", "dims": [4]})', "is missing '<data_type|dims>' property"),
  PY_AC('ac_dtype', 'c.add_input({"name": "INPUT0", "data_type": "TYPE_INT32", "dims": [4]})', 'configuration expects datatype', pythonConfig()),
  PY_AC('ac_dims', 'c.add_input({"name": "INPUT0", "data_type": "TYPE_FP32", "dims": [5]})', 'the model expects dims', pythonConfig()),
  PY_AC(
    'ac_optional',
    'c.add_input({"name": "INPUT0", "data_type": "TYPE_FP32", "dims": [4], "optional": True})',
    'the model expects optional',
    pythonConfig(),
  ),
  PY_AC('ac_policy', `${PY_IO}; c.set_model_transaction_policy({"decoupled": False, "streaming": True})`, "contains property other than 'decoupled'"),
  PY_AC('ac_return', PY_IO, 'must return a valid pb.ModelConfig', undefined, 'None'),
];

/** sequence_batching state entries (core src/model_config_utils.cc ValidateSequenceBatchingState / sequence_state.cc). */
function stateCases(): Case[] {
  // The model's one input and output as a state pair, the config listing neither (auto-complete off,
  // or the backend would add them): the ONNX Runtime backend then counts the state as the input.
  const state = (more: string, dims = '3, 32, 32', twice = false): string => {
    const entry = `{ input_name: "input" output_name: "output" data_type: TYPE_FP32 dims: [ ${dims} ] ${more} }`;
    return `backend: "onnxruntime"\nmax_batch_size: 8\ninstance_group [ { count: 1 kind: KIND_CPU } ]\nsequence_batching { state [ ${twice ? `${entry}, ${entry}` : entry} ] }\n`;
  };
  const init = (fields: string): string => `initial_state [ { data_type: TYPE_FP32 ${fields} } ]`;
  const cases: Omit<Case, 'model' | 'noAutoComplete'>[] = [
    { name: 'st_ok', config: state(init('dims: [ 3, 32, 32 ] zero_data: true name: "a"')), quotes: [] },
    {
      name: 'st_two',
      config: state(
        'initial_state [ { data_type: TYPE_FP32 dims: [ 3, 32, 32 ] zero_data: true name: "a" }, { data_type: TYPE_FP32 dims: [ 3, 32, 32 ] zero_data: true name: "b" } ]',
      ),
      quotes: [['sequence-batching', q('sequence-batching', 'exactly one or zero element')]],
    },
    {
      name: 'st_type',
      config: state('initial_state [ { data_type: TYPE_INT32 dims: [ 3, 32, 32 ] zero_data: true name: "a" } ]'),
      quotes: [['sequence-batching', q('sequence-batching', 'does not match the state data type')]],
    },
    {
      name: 'st_noname',
      config: state(init('dims: [ 3, 32, 32 ] zero_data: true')),
      quotes: [['sequence-batching', q('sequence-batching', "Field 'name' must be set")]],
    },
    {
      name: 'st_vardims',
      config: state(init('dims: [ 3, -1, 32 ] zero_data: true name: "a"'), '3, -1, 32'),
      quotes: [['sequence-batching', q('sequence-batching', 'contains variable dimensions')]],
    },
    {
      name: 'st_rank',
      config: state(init('dims: [ 3, 32 ] zero_data: true name: "a"')),
      quotes: [['sequence-batching', q('sequence-batching', 'Number of dimensions')]],
    },
    {
      name: 'st_dim',
      config: state(init('dims: [ 3, 32, 16 ] zero_data: true name: "a"')),
      quotes: [['sequence-batching', q('sequence-batching', "doesn't match 'state' dim")]],
    },
    {
      name: 'st_file',
      config: state(init('dims: [ 3, 32, 32 ] data_file: "raw" name: "a"')),
      files: { 'initial_state/raw': 'short' },
      quotes: [['sequence-batching', q('sequence-batching', 'initial_state setting expects <N> bytes')]],
    },
    {
      name: 'st_nodata',
      config: state(init('dims: [ 3, 32, 32 ] name: "a"')),
      quotes: [['sequence-batching', q('sequence-batching', 'to have state_data set')]],
    },
  ];
  // The Python backend counts no inputs, so the batcher's own check of a state named twice is reached.
  const twice = pythonConfig(
    'sequence_batching { state [ { input_name: "INPUT_STATE" output_name: "OUTPUT_STATE" data_type: TYPE_FP32 dims: [ 4 ] }, { input_name: "INPUT_STATE" output_name: "OUTPUT_STATE" data_type: TYPE_FP32 dims: [ 4 ] } ] }\n',
  );
  return [
    ...cases.map((c): Case => ({ ...c, model: 'onnx', noAutoComplete: true })),
    { name: 'st_twice', model: 'python', config: twice, quotes: [], says: /successfully loaded 'st_twice'/ },
  ];
}

function pythonConfig(extra = '', mbs = 8): string {
  return `backend: "python"\nmax_batch_size: ${mbs}\ninput [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\ninstance_group [ { kind: KIND_CPU count: 1 } ]\n${extra}`;
}

/**
 * A gRPC ModelInfer (inference.GRPCInferenceService, grpc_service.proto) whose request names only the
 * model (ModelInferRequest field 1, model_name); the answer's status details, or 'OK'.
 */
function grpcModelInfer(address: string, model: string): Promise<string> {
  const name = Buffer.from(model);
  const request = Buffer.concat([Buffer.from([0x0a, name.length]), name]);
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/inference.GRPCInferenceService/ModelInfer',
      (b: Buffer) => b,
      (b: Buffer) => b,
      request,
      { deadline: Date.now() + 30_000 },
      (err) => {
        client.close();
        resolve(err ? err.details : 'OK');
      },
    );
  });
}

/** What a listed quote needs that this machine lacks, and how the test sees that it lacks it. */
const NEEDS = {
  later: { why: 'a Triton release after r24.10: 2.51 says something else for the case (the case named beside it shows what)', absent: () => true },
  tensorrt: { why: "Triton's TensorRT backend (a GPU)", absent: () => !existsSync(join(VENV, 'triton-backends', 'tensorrt')) },
  gpu: { why: 'a GPU with CUDA (the CUDA execution provider is not built in here)', absent: () => !existsSync('/dev/nvidia0') },
  tensorflow: {
    why: "Triton's TensorFlow backend (not released after r23.xx as a CPU build; none here)",
    absent: () => !existsSync(join(VENV, 'triton-backends', 'tensorflow')),
  },
  vllm: { why: "Triton's vLLM backend (a GPU, and vllm)", absent: () => !existsSync(join(VENV, 'triton-backends', 'vllm')) },
  trtllm: { why: "Triton's TensorRT-LLM backend (a GPU)", absent: () => !existsSync(join(VENV, 'triton-backends', 'tensorrtllm')) },
  dali: { why: "Triton's DALI backend", absent: () => !existsSync(join(VENV, 'triton-backends', 'dali')) },
  sagemaker: {
    why: "NVIDIA's SageMaker image, whose serve script (server docker/sagemaker/serve) prints it before tritonserver starts, over the repository SageMaker unpacks at /opt/ml/model",
    absent: () => !existsSync('/opt/ml/model'),
  },
} as const;

/** Quoted messages whose case cannot run here: [rule, part, need, where the text is cited from]. */
const NOT_RUNNABLE: [rule: string, part: string, need: keyof typeof NEEDS, witness?: string][] = [
  // The SageMaker serve script's own checks, quoted from server docker/sagemaker/serve (r24.10, lines 137-162).
  ['deployment-storage', 'Incorrect directory structure', 'sagemaker'],
  ['sagemaker-default-model', 'does not exist', 'sagemaker'],
  ['sagemaker-default-model', 'No model found', 'sagemaker'],
  ['sagemaker-default-model', 'More than 1 model directory', 'sagemaker'],
  ...[
    "metric control must specify 'metric_identifier'",
    "non-empty 'family'",
    "must specify 'histogram_options'",
    "non-empty 'buckets'",
    'not a customizable metric',
  ].map<[string, string, 'later', string]>((p) => ['model-metrics', p, 'later', 'metric_field']),
  // core src/model.cc (Model::Init, IsChildPathEscapingParentPath) from r26.02; 2.51 reads a label file anywhere.
  ['label-file', 'is outside model directory', 'later', 'label_outside'],
  // core src/backend_model.cc (TritonModel::Create, IsChildPathEscapingParentPath) from r26.06; 2.51 only looks for the file.
  ['batch-strategy-path', 'escapes model repository', 'later', 'batch_relative'],
  ['batch-strategy-path', 'Parent path and child path must be non-empty', 'later', 'batch_empty'],
  ['missing-dynamic-axis', 'configuration specified max-batch', 'tensorflow'],
  ['io-datatype', "unable to process input '<name>'", 'tensorflow'],
  ['io-datatype', "unable to process output '<name>'", 'tensorflow'],
  ['io-shape', 'contradicting each other', 'tensorflow'],
  ['accelerators', 'provided for TensorRT Execution Accelerator', 'gpu'],
  ['accelerators', 'unsupported precision mode', 'gpu'],
  ['accelerators', 'unsigned long long', 'gpu'],
  ['accelerators', 'cudnn_conv_algo_search', 'gpu'],
  ['accelerators', 'arena_extend_strategy', 'gpu'],
  ['instance-group', 'profile name must not be empty', 'tensorrt'],
  ['instance-group', 'stoi', 'tensorrt'],
  ['instance-group', 'specifies invalid profile', 'tensorrt'],
  ['instance-memory', 'Failed to allocate memory', 'gpu'],
  ['io-dims', 'Non-linear IO format input requires 3 dims', 'tensorrt'],
  ['model-filename', 'contains an invalid character', 'dali'],
  ...[
    'Cannot find parameter',
    'Invalid gpt_model_type',
    'Both encoder and decoder',
    'lookahead',
    'will use default value',
    'Cannot convert',
    'is not supported.',
  ].map<[string, string, 'trtllm']>((p) => ['tensorrtllm-parameters', p, 'trtllm']),
  ...['Invalid gpt_model_type', 'Both encoder and decoder', 'will use default value'].map<[string, string, 'trtllm']>((p) => [
    'unfilled-placeholder',
    p,
    'trtllm',
  ]),
  ...[
    "'model.json'",
    '__init__()',
    'must be configured to use decoupled',
    'specified max_batch_size 0',
    'trying to change decoupled',
    'KIND_GPU is currently',
    'multi_lora.json',
  ].map<[string, string, 'vllm']>((p) => ['vllm-model', p, 'vllm']),
  ['llm-streaming', 'Streaming is only supported', 'vllm'],
  // TensorRT-LLM's LLM API model.py (tensorrtllm_backend all_models/llmapi/tensorrt_llm/1/model.py)
  ['python-autocomplete', "'model.yaml' containing TRT-LLM", 'trtllm'],
];

/** Quoted messages that run here but this file does not check yet: [rule, part, why]. */
const NOT_CHECKED: [rule: string, part: string, why: string][] = [
  // 2.51 here runs ONNX Runtime 1.30, not 24.10's 1.19.2: the limits differ, the words do not.
  ['onnx-runtime-version', 'Unsupported model IR version', 'checked by test/server/onnx-runtime-version-real.test.ts, against ONNX Runtime 1.19.2 and 2.51'],
  ['onnx-runtime-version', 'is under development', 'checked by test/server/onnx-runtime-version-real.test.ts, against ONNX Runtime 1.19.2 and 2.51'],
  ['onnx-runtime-version', 'Missing opset in the model', 'checked by test/server/onnx-runtime-version-real.test.ts, against ONNX Runtime 1.19.2 and 2.51'],
  ['io-name', 'Encountered non UTF-8', 'checked against 2.51 by test/server/not-utf8-real-triton.test.ts (a model whose tensor name is not UTF-8)'],
  [
    'io-shape',
    'should have at least 1 dimension',
    'not reached on 2.51: it loads a scalar ONNX tensor listed as dims [1] with max_batch_size 8 (scalar_batch) and answers auto-complete otherwise (scalar_auto)',
  ],
  [
    'io-shape',
    'not supported for optional input',
    'not reached on 2.51: an overridable initializer is refused as batching (optional_batch) or, with max_batch_size 0, as no input (ragged_optional)',
  ],
  [
    'backend-library',
    'Python backend based',
    "not reached here: this venv's python backend directory is a link, so core says 'escapes backend directory' first",
  ],
  [
    'sequence-batching',
    'specified more than once',
    "2.51 loads a Python model with a state named twice (st_twice); the sequence batcher's check is not reached at load",
  ],
  [
    'io-dims',
    "dims' exceeds maximum size",
    '2.51 loads dims whose element count passes int64 (io_huge, a Python model): the check came in 26.03 (test/conformance/core-releases.test.ts, the r26.06 core)',
  ],
  [
    'io-dims',
    "'<n>' exceeds maximum size",
    "2.51 loads dims whose element count passes int64: the scheduler's count came in 26.03 (test/conformance/core-releases.test.ts, the r26.06 core)",
  ],
  [
    'name-matches-directory',
    'path traversal',
    "2.51 loads a model named 'named..dots' in a directory of that name (named..dots), as lint does: the load request's name check came in 26.03 (test/conformance/core-releases.test.ts, the r26.06 core)",
  ],
  ['name-matches-directory', 'Model name cannot be empty', "the load request's name check of 26.04 on (src/triton/core-releases.ts)"],
  ['name-matches-directory', 'only whitespace characters', "the load request's name check of 26.03 (src/triton/core-releases.ts)"],
  ['io-dims', '(and each of the model input messages', 'a note, not a message'],
  [
    'ensemble-config',
    "output '<out>' for ensemble '<name>' is not written",
    "not reached: an output no step writes gets 'ensemble output ... is not used' (ens_out_unwritten)",
  ],
  ['llm-streaming', 'current BLS request call', "a BLS call from a model's execute, not a load: not written yet"],
];

/**
 * Quoted messages the server corrected (issue 43): [rule, the quote now, what it quoted before]. Each
 * must be checked above, so the correction stays true.
 */
const CORRECTED: [rule: string, part: string, was: string][] = [
  [
    'io-name',
    'unexpected inference input',
    'configuration expects 1 inputs, model provides 1 (for a renamed input; the count is now quoted only where it differs)',
  ],
  [
    'version-dirs',
    'failed to stat file',
    "unable to find '<path>' for model instance '<model>' (the PyTorch backend's words; the ONNX Runtime backend stats the file first)",
  ],
  ['model-unreadable', 'failed to stat file', "unable to find '<path>' for model instance '<model>' alone (kept for the PyTorch backend)"],
  ['batch-io', 'JSON non-string', "unknown batch input kind '<KIND>' for <name> (a kind past the enum reaches the backend as a number)"],
  ['decoupled-clients', 'ModelInfer RPC', 'only the HTTP text, for HTTP and gRPC alike (the message now quotes both)'],
  [
    'model-warmup',
    'data-type is',
    "warmup setting expects all variable-size dimensions are specified for input '<in>' (in the messages for a warmup input without data_type: 2.51 sizes it as int32 and the request check refuses it)",
  ],
];

const runnable = (rule: string, quote: string): boolean => CASES.some((c) => c.quotes.some(([r, t]) => r === rule && t === quote));

let server: RealTriton | undefined;
let noAuto: RealTriton | undefined;
/** Per case: the server's words for it (the load answer and the log lines written while it loaded). */
const words = new Map<string, string>();
/** Per case: the Triton texts quoted by the messages `tritonc lint` reports on it, filled in for the case. */
const lintQuotes = new Map<string, { rule: string; messageId: string; quote: string }[]>();

describe.runIf(runs)("the rules' quoted Triton messages, against tritonserver 2.51 with its real backends", () => {
  beforeAll(async () => {
    const dir = tempDir('tritonc-quoted-');
    const fixtures = join(dir, 'fixtures');
    const onnx = {
      onnx: await buildFixture('dynamic-batch', fixtures),
      'onnx-fixed': await buildFixture('fixed-batch', fixtures),
      'onnx-scalar': await buildFixture('scalar', fixtures),
      'onnx-sequence': await buildFixture('sequence-io', fixtures),
      'onnx-multi': await buildFixture('multi-io', fixtures),
      'onnx-init': await buildFixture('initializers-as-inputs', fixtures),
      // input [batch,3,32,32] -> Relu -> output, and ctl [batch,1] FLOAT16 -> Identity -> ctl_out.
      'onnx-ctl': await writeModel(
        join(fixtures, 'ctl', 'model.onnx'),
        onnxModel({
          name: 'ctl',
          node: [node('Relu', ['input'], ['output']), node('Identity', ['ctl'], ['ctl_out'])],
          input: [tensorInfo('input', T.FLOAT, ['batch', 3, 32, 32]), tensorInfo('ctl', T.FLOAT16, ['batch', 1])],
          output: [tensorInfo('output', T.FLOAT, ['batch', 3, 32, 32]), tensorInfo('ctl_out', T.FLOAT16, ['batch', 1])],
        }),
      ),
    };
    const torch = exportTorchScript(fixtures);
    for (const repoName of ['repo', 'repo-noauto']) mkdirSync(join(dir, repoName));
    for (const c of CASES) {
      const m = join(dir, c.noAutoComplete ? 'repo-noauto' : 'repo', c.name);
      for (const v of ['1', ...(c.versions ?? [])]) {
        const vdir = join(m, v);
        mkdirSync(vdir, { recursive: true });
        if (c.model in onnx) cpSync(onnx[c.model as keyof typeof onnx], join(vdir, 'model.onnx'));
        else if (c.model === 'onnx-garbage') writeFileSync(join(vdir, 'model.onnx'), 'not a model\n');
        else if (c.model === 'pt-two')
          cpSync(join(ROOT, 'fixtures', 'models', 'pytorch', 'libtorch_float32_float32_float32', '1', 'model.pt'), join(vdir, 'model.pt'));
        else if (c.model === 'pt-dicts') cpSync(join(ROOT, 'fixtures', 'models', 'pytorch', 'libtorch_two_dicts', '1', 'model.pt'), join(vdir, 'model.pt'));
        else if (c.model === 'pt-noargs' || c.model === 'pt-tuple') cpSync(torch[c.model], join(vdir, 'model.pt'));
        else if (c.model === 'openvino')
          for (const f of ['model.xml', 'model.bin']) cpSync(join(ROOT, 'fixtures', 'models', 'openvino', 'openvino_fixed_batch', '1', f), join(vdir, f));
        else if (c.model === 'python') writeFileSync(join(vdir, 'model.py'), MODEL_PY);
      }
      if (c.config !== undefined) writeFileSync(join(m, 'config.pbtxt'), c.config);
      for (const [rel, text] of Object.entries(c.files ?? {})) {
        mkdirSync(join(m, rel, '..'), { recursive: true });
        writeFileSync(join(m, rel), text);
      }
    }
    writeFileSync(join(dir, 'repo', 'labels.txt'), 'a\n');
    const start = {
      default: () => startRealTriton(join(dir, 'repo'), ['--log-verbose=1', '--cache-config=local,size=1048576']),
      noAuto: () => startRealTriton(join(dir, 'repo-noauto'), ['--log-verbose=1', '--disable-auto-complete-config']),
    };
    server = await start.default();
    noAuto = await start.noAuto();
    /** The server's words for one load of `c`; undefined when the server died meanwhile (then a new one is started). */
    let lastCrash = '';
    const loadOnce = async (c: Case): Promise<string | undefined> => {
      const s = c.noAutoComplete ? noAuto! : server!;
      const from = s.log().length;
      let answer: string | undefined;
      try {
        const r = await fetch(`${s.url}/v2/repository/models/${c.name}/load`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(60_000) });
        answer = r.status === 200 ? '' : (((await r.json()) as { error?: string }).error ?? '');
        if (c.infer !== undefined) {
          const i = await fetch(`${s.url}/v2/models/${c.name}/infer`, {
            method: 'POST',
            body: JSON.stringify(c.infer),
            headers: { 'content-type': 'application/json' },
            signal: AbortSignal.timeout(60_000),
          });
          answer += `\n${await i.text()}`;
        }
        if (c.grpcInfer) answer += `\n${await grpcModelInfer(s.grpc, c.name)}`;
      } catch {
        lastCrash = s.log().slice(from);
        await s.stop();
        if (c.noAutoComplete) noAuto = await start.noAuto();
        else server = await start.default();
        return undefined;
      }
      // Give the log a moment to catch up with what was written during the load.
      await new Promise((res) => setTimeout(res, 50));
      return `${answer}\n${s.log().slice(from).split('\n').map(cleanLogLine).join('\n')}`;
    };
    for (const c of CASES) {
      // r24.10 sometimes dies (Signal (11)) while it unloads a sequence model whose load failed, seen
      // with initial_state cases: such a case is tried again on a new server, up to five times.
      let said: string | undefined;
      for (let i = 0; i < 5 && said === undefined; i++) said = await loadOnce(c);
      words.set(c.name, said ?? `(the server exited each time)\n${lastCrash}`);
    }
    // What lint says about the same repositories: each message's quoted Triton text, as lint fills it in.
    for (const repoName of ['repo', 'repo-noauto']) {
      // The server is 2.51.0, release 24.10: lint judges against that release.
      const r = await cli(['lint', join(dir, repoName), '--format', 'json', '--triton-version', '24.10']);
      for (const file of JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; messageId: string; message: string; severity: number }[] }[]) {
        const name = file.filePath.slice(join(dir, repoName).length + 1).split('/')[0]!;
        for (const m of file.messages) {
          // ("<text>") or, for several, ("<text>"; "<text>")
          for (const group of m.message.matchAll(/\("(.+?)"\)/g)) {
            for (const quote of group[1]!.split('"; "'))
              lintQuotes.set(name, [...(lintQuotes.get(name) ?? []), { rule: m.ruleId, messageId: m.messageId, quote }]);
          }
        }
      }
    }
    if (process.env.TRITONC_QUOTES_DUMP) writeFileSync(`${process.env.TRITONC_QUOTES_DUMP}.lint`, JSON.stringify(Object.fromEntries(lintQuotes), null, 1));
    if (process.env.TRITONC_QUOTES_DUMP) writeFileSync(process.env.TRITONC_QUOTES_DUMP, JSON.stringify(Object.fromEntries(words), null, 1));
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await noAuto?.stop();
  });

  it('ok_base, the case every other varies, loads', () => {
    expect(words.get('ok_base')).not.toMatch(/load failed|UNAVAILABLE/);
  });

  for (const c of CASES.filter((x) => x.says)) {
    it(`2.51 says ${c.says} for ${c.name}`, () => {
      expect(words.get(c.name)).toMatch(c.says!);
    });
  }

  for (const c of CASES) {
    for (const [rule, quote] of c.quotes) {
      it(`${rule}: "${quote}" is what the server says for ${c.name}`, () => {
        const said = words.get(c.name)!;
        expect(said).toMatch(quotePattern(quote));
      });
    }
  }

  // The same texts as lint fills them in for the case (names, counts, types), in the messages of the
  // rules the case is about; a finding of another rule on the case is not the server's first word.
  const LINT_EXTRA: [name: string, messageId: string, why: string][] = [
    [
      'ens_failing',
      'stepInputUnmapped',
      "renamed_in does not load, so the server stops at 'no loaded version'; lint also checks the step against renamed_in's config",
    ],
    ['ens_out_unwritten', 'tensorUnused', "the server names the first of the ensemble's problems (its output is not written), lint each of them"],
    [
      'ens_unconnected',
      'tensorUnused',
      "the server names the first of the ensemble's problems (its output waits for an unconnected tensor), lint each of them",
    ],
    [
      'ens_failing',
      'inputMapUnknownInput',
      "renamed_in does not load, so the server stops at 'no loaded version'; lint also checks the step against renamed_in's config",
    ],
  ];
  for (const c of CASES.filter((x) => x.quotes.length)) {
    it(`${c.name}: the Triton text each finding of ${c.lintAll ? 'every rule' : [...new Set(c.quotes.map(([r]) => r))].join(', ')} quotes is the server's`, () => {
      const subject = new Set(c.quotes.map(([r]) => r));
      const quoted = (lintQuotes.get(c.name) ?? []).filter(
        (f) => (c.lintAll || subject.has(f.rule)) && !LINT_EXTRA.some(([n, id]) => n === c.name && id === f.messageId),
      );
      for (const f of quoted) expect(words.get(c.name), `${f.rule}/${f.messageId}`).toMatch(quotePattern(f.quote));
    });
  }

  it('every quoted message is checked here or listed with why it cannot be, and each reason holds on this machine', () => {
    const listed = new Set(NOT_RUNNABLE.map(([rule, part]) => `${rule}\u0000${q(rule, part)}`));
    const unchecked = new Set(NOT_CHECKED.map(([rule, part]) => `${rule}\u0000${q(rule, part)}`));
    for (const [rule, part, need] of NOT_RUNNABLE) {
      expect(runnable(rule, q(rule, part)), `${rule}: "${part}" is listed as not runnable but a case checks it`).toBe(false);
      expect(NEEDS[need].absent(), `${rule}: "${part}" needs ${NEEDS[need].why}, which this machine now has: check it`).toBe(true);
      if (need === 'later') {
        const witness = CASES.find((c) => c.name === NOT_RUNNABLE.find((e) => e[0] === rule && e[1] === part)![3]);
        expect(witness?.says, `${rule}: "${part}" names no case that shows what 2.51 says`).toBeDefined();
        expect(words.get(witness!.name)).not.toMatch(quotePattern(q(rule, part)));
      }
    }
    let quoted = 0;
    let checked = 0;
    const missing: string[] = [];
    for (const r of RULES) {
      for (const quote of r.meta.prevents) {
        quoted++;
        if (runnable(r.meta.id, quote)) checked++;
        else if (!listed.has(`${r.meta.id}\u0000${quote}`) && !unchecked.has(`${r.meta.id}\u0000${quote}`)) missing.push(`${r.meta.id}: ${quote}`);
      }
    }
    for (const [rule, part] of CORRECTED) expect(runnable(rule, q(rule, part)), `${rule}: the corrected "${part}" is checked here`).toBe(true);
    console.log(
      `tritonc: ${quoted} quoted Triton messages, ${checked} checked against tritonserver 2.51, ${CORRECTED.length} corrected by it, ${listed.size} not runnable here (cited to Triton's sources), ${unchecked.size} runnable but not checked yet`,
    );
    expect(missing).toEqual([]);
  });
});
