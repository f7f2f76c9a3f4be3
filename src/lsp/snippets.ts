// Snippets: the shapes of config users write most, as completion items in LSP snippet syntax (LSP
// 3.17 "Snippet Syntax": $1 and ${1:default} tab stops, ${1|a,b|} choices, $0 the final cursor; `$`,
// `}` and `\` escaped with `\`, and `,` and `|` too inside a choice). Each is filled from the model
// beside the config where there is one (generate's config of its model file, its inputs that name
// sequence controls, the repository's models for an ensemble's steps), so it is right the first time.
// Pure: the language server gathers the facts (SnippetFacts) and turns these into completion items.
import { NEWEST_RELEASE, holdsIn } from '../triton/releases/catalog.js';
import type { ModelConfig } from '../config/model-config.js';
import type { TensorInfo } from '../model-file/signature.js';
import { BACKEND_RECORDS, ENSEMBLE_PLATFORM, ONNXRUNTIME, PYTHON } from '../triton/backend-records.js';

export interface Snippet {
  /** What the completion list shows. */
  label: string;
  /** One line on what it makes and where its values come from. */
  detail: string;
  /** The text, in LSP snippet syntax. */
  body: string;
}

/** A model of the repository, as an ensemble step sees it: its effective inputs and outputs. */
export interface StepModel {
  name: string;
  maxBatchSize: number;
  inputs: { name: string; dataType: string; dims: readonly number[] }[];
  outputs: { name: string; dataType: string; dims: readonly number[] }[];
}

export interface SnippetFacts {
  /** The message the cursor is in: 'inference.ModelConfig' at the top level, or 'inference.ModelEnsembling'. */
  message: string;
  /** The config as written so far. */
  config: ModelConfig;
  /** The model directory's name. */
  modelName: string;
  /** generate's config of the model file beside (its body, no header), and the file it was read from. */
  generated?: { text: string; from: string };
  /** The model file's inputs, when it has been read. */
  modelInputs?: readonly TensorInfo[];
  /** The repository's other models that can be an ensemble's step. */
  models: readonly StepModel[];
}

/** Text as literal snippet text. */
export const snippetText = (text: string): string => text.replace(/[\\$}]/g, (c) => `\\${c}`);
/** A string inside a choice (`,` and `|` are its separators). */
const choiceText = (text: string): string => text.replace(/[\\$},|]/g, (c) => `\\${c}`);
/** A config string literal, for snippet text. */
const str = (value: string): string => snippetText(JSON.stringify(value));

/** The backends to choose from: those with a model file Triton's releases still serve, ONNX Runtime first. */
const BACKEND_CHOICES = [
  ONNXRUNTIME,
  ...BACKEND_RECORDS.filter((b) => b !== ONNXRUNTIME && holdsIn(b.releases, NEWEST_RELEASE) && b.platforms.length > 0),
  PYTHON,
]
  .map((b) => b.name)
  .filter((n, i, all) => all.indexOf(n) === i);

/** At most this many step or ensemble snippets: one per model, for the models a repository has. */
const PER_MODEL = 12;

export function snippets(facts: SnippetFacts): Snippet[] {
  if (facts.message === 'inference.ModelEnsembling') return facts.models.slice(0, PER_MODEL).map(stepSnippet);
  if (facts.message !== 'inference.ModelConfig') return [];
  const c = facts.config;
  const out: Snippet[] = [];
  const empty = !c.input?.length && !c.output?.length && !c.platform && !c.backend;
  if (empty) out.push(modelSnippet(facts));
  if (!c.dynamic_batching && !c.sequence_batching) {
    out.push({
      label: 'dynamic_batching',
      detail: 'batch requests together, waiting at most the queue delay for a fuller batch',
      body: 'dynamic_batching {\n  max_queue_delay_microseconds: ${1:100}\n}\n$0',
    });
  }
  if (!c.instance_group?.length) {
    out.push({
      label: 'instance_group',
      detail: 'how many copies of the model run, and where (each GPU instance holds its own copy of the weights)',
      body: 'instance_group [\n  {\n    count: ${1:1}\n    kind: ${2|KIND_GPU,KIND_CPU,KIND_AUTO|}\n  }\n]\n$0',
    });
  }
  if (!c.sequence_batching && !c.dynamic_batching) out.push(sequenceSnippet(facts.modelInputs, c));
  if (empty) {
    for (const m of facts.models.slice(0, PER_MODEL)) out.push(ensembleSnippet(m));
    out.push(pythonSnippet());
  }
  return out;
}

/** The model with one input and one output; generate's config of the model file, where there is one. */
function modelSnippet(facts: SnippetFacts): Snippet {
  if (facts.generated) {
    // The batch size is the one value users choose: a tab stop on it.
    const body = snippetText(facts.generated.text).replace(/^max_batch_size: (\d+)$/m, 'max_batch_size: ${1:$1}');
    return { label: 'model', detail: `the config of ${facts.generated.from}, as tritonc generate writes it`, body: `${body}$0` };
  }
  return {
    label: 'model',
    detail: 'a model with one input and one output',
    body: [
      `name: ${str(facts.modelName)}`,
      `backend: "\${1|${BACKEND_CHOICES.map(choiceText).join(',')}|}"`,
      'max_batch_size: ${2:8}',
      'input [',
      '  {',
      '    name: "${3:INPUT0}"',
      '    data_type: ${4|TYPE_FP32,TYPE_FP16,TYPE_INT64,TYPE_INT32,TYPE_UINT8,TYPE_BOOL,TYPE_STRING|}',
      '    dims: [ ${5:-1} ]',
      '  }',
      ']',
      'output [',
      '  {',
      '    name: "${6:OUTPUT0}"',
      '    data_type: ${7|TYPE_FP32,TYPE_FP16,TYPE_INT64,TYPE_INT32,TYPE_UINT8,TYPE_BOOL,TYPE_STRING|}',
      '    dims: [ ${8:-1} ]',
      '  }',
      ']',
      '$0',
    ].join('\n'),
  };
}

/** The control's value field for a tensor's type (model_config.proto ModelSequenceBatching.Control). */
const CONTROL_VALUES: Record<string, string> = { TYPE_INT32: 'int32_false_true', TYPE_FP32: 'fp32_false_true', TYPE_BOOL: 'bool_false_true' };
/** The controls a sequence model's inputs name, by the names Triton's examples give them. */
const CONTROL_NAMES: [RegExp, string][] = [
  [/^start$/i, 'CONTROL_SEQUENCE_START'],
  [/^ready$/i, 'CONTROL_SEQUENCE_READY'],
  [/^end$/i, 'CONTROL_SEQUENCE_END'],
  [/^corrid$/i, 'CONTROL_SEQUENCE_CORRID'],
];

/** The sequence batcher, with the control inputs the model has and the config does not list. */
function sequenceSnippet(modelInputs: readonly TensorInfo[] | undefined, c: ModelConfig): Snippet {
  const listed = new Set((c.input ?? []).map((t) => t.name));
  const found = (modelInputs ?? []).flatMap((t) => {
    const kind = CONTROL_NAMES.find(([re]) => re.test(t.name))?.[1];
    const dataType = t.typed === false ? undefined : (t.tritonType ?? undefined);
    return kind && dataType && !listed.has(t.name) ? [{ name: t.name, kind, dataType }] : [];
  });
  const controls = found.length
    ? found
    : [
        { name: 'START', kind: 'CONTROL_SEQUENCE_START', dataType: 'TYPE_INT32' },
        { name: 'READY', kind: 'CONTROL_SEQUENCE_READY', dataType: 'TYPE_INT32' },
      ];
  const entries = controls.map((k) => {
    const value = k.kind === 'CONTROL_SEQUENCE_CORRID' ? `data_type: ${k.dataType}` : `${CONTROL_VALUES[k.dataType] ?? 'int32_false_true'}: [ 0, 1 ]`;
    return `    {\n      name: ${str(k.name)}\n      control [ { kind: ${k.kind} ${value} } ]\n    }`;
  });
  return {
    label: 'sequence_batching',
    detail: found.length
      ? `the sequence batcher, with the model's control inputs (${found.map((k) => k.name).join(', ')})`
      : 'the sequence batcher, with START and READY control inputs',
    body: `sequence_batching {\n  max_sequence_idle_microseconds: \${1:5000000}\n  control_input [\n${entries.join(',\n')}\n  ]\n}\n$0`,
  };
}

const tensor = (t: StepModel['inputs'][number], indent: string): string =>
  `${indent}{\n${indent}  name: ${str(t.name)}\n${indent}  data_type: ${t.dataType}\n${indent}  dims: [ ${t.dims.join(', ')} ]\n${indent}}`;

/** One step of an ensemble running `m`, each of its tensors mapped to an ensemble tensor of the same name. */
function stepSnippet(m: StepModel): Snippet {
  return { label: `step: ${m.name}`, detail: `an ensemble step running ${m.name}, its inputs and outputs mapped`, body: `${stepText(m, '', 1)}\n$0` };
}

function stepText(m: StepModel, indent: string, firstStop: number): string {
  let stop = firstStop;
  // The default is text-format string content (quotes, backslashes, line breaks escaped), then snippet text.
  const map = (field: string, t: { name: string }) =>
    `${indent}  ${field} { key: ${str(t.name)} value: "\${${stop++}:${snippetText(JSON.stringify(t.name).slice(1, -1))}}" }`;
  return [
    `${indent}step {`,
    `${indent}  model_name: ${str(m.name)}`,
    `${indent}  model_version: -1`,
    ...m.inputs.map((t) => map('input_map', t)),
    ...m.outputs.map((t) => map('output_map', t)),
    `${indent}}`,
  ].join('\n');
}

/** An ensemble of one step running `m`: its inputs and outputs are the step model's. */
function ensembleSnippet(m: StepModel): Snippet {
  return {
    label: `ensemble: ${m.name}`,
    detail: `an ensemble whose one step runs ${m.name} (add steps inside ensemble_scheduling)`,
    body: [
      `platform: "${ENSEMBLE_PLATFORM}"`,
      `max_batch_size: ${m.maxBatchSize}`,
      `input [\n${m.inputs.map((t) => tensor(t, '  ')).join(',\n')}\n]`,
      `output [\n${m.outputs.map((t) => tensor(t, '  ')).join(',\n')}\n]`,
      `ensemble_scheduling {\n${stepText(m, '  ', 1)}\n}`,
      '$0',
    ].join('\n'),
  };
}

/** A Python model: model.py's TritonPythonModel serves the tensors the config lists. */
function pythonSnippet(): Snippet {
  return {
    label: 'python model',
    detail: 'a Python backend model (model.py in the version directory); list the tensors its execute() reads and writes',
    body: [
      `backend: "${PYTHON.name}"`,
      'max_batch_size: ${1:0}',
      'input [',
      '  {',
      '    name: "${2:INPUT0}"',
      `    data_type: \${3|${['TYPE_FP32', 'TYPE_INT64', 'TYPE_INT32', 'TYPE_STRING', 'TYPE_BOOL'].map(choiceText).join(',')}|}`,
      '    dims: [ ${4:-1} ]',
      '  }',
      ']',
      'output [',
      '  {',
      '    name: "${5:OUTPUT0}"',
      `    data_type: \${6|${['TYPE_FP32', 'TYPE_INT64', 'TYPE_INT32', 'TYPE_STRING', 'TYPE_BOOL'].map(choiceText).join(',')}|}`,
      '    dims: [ ${7:-1} ]',
      '  }',
      ']',
      '$0',
    ].join('\n'),
  };
}
