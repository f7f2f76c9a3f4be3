// Test support for the lint engine and rules: write a small repository (configs and real ONNX files
// built with the fixture writer) into a temp dir, lint it, and look at the findings by rule.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { encodeModel, floatTensor, model, tensorInfo, writeModel, type DimSpec, type ModelProto } from '../../fixtures/onnx/model-builder.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { lintSync, type LintOptions } from '../../src/lint/engine.js';
import type { LintResult } from '../../src/lint/results.js';
import { elemTypeByName } from '../../src/onnx/elem-types.js';
import { RULES } from '../../src/lint/rules/index.js';
import { tempDir } from '../support/cli.js';

/** A graph I/O tensor: [name, ONNX element type name, shape]. */
export type TensorSpec = [name: string, elem: string, shape: DimSpec[] | null];

export interface OnnxSpec {
  inputs: TensorSpec[];
  outputs: TensorSpec[];
  /** Initializers as [name, float count]; listed as graph inputs too when `overridable`. */
  initializers?: { name: string; floats: number; overridable?: boolean }[];
  /** Weights kept as external data of this many bytes (sized by the `length` key; no file written). */
  externalBytes?: number;
  /** The model's IR version (default 8) and its ai.onnx opset (default 17), and other domains' opsets. */
  irVersion?: number;
  opset?: number;
  extraOpsets?: { domain: string; version: number }[];
}

/** Files of a repository: text, or an ONNX model spec (written as a real .onnx file). */
export type RepoFiles = Record<string, string | OnnxSpec | Uint8Array>;

const code = (elem: string): number => {
  const t = elemTypeByName(elem);
  if (!t) throw new Error(`unknown ONNX element type ${elem}`);
  return t.code;
};

export async function writeOnnx(file: string, spec: OnnxSpec): Promise<string> {
  return writeModel(file, onnxModel(spec));
}

/** The bytes of the ONNX model a spec describes (for a repository held in memory). */
export const onnxBytes = (spec: OnnxSpec): Uint8Array => encodeModel(onnxModel(spec));

function onnxModel(spec: OnnxSpec): ModelProto {
  const inits = spec.initializers ?? [];
  return model(
    {
      name: 'test',
      node: [],
      initializer: [
        ...inits.map((i) => floatTensor(i.name, [i.floats], new Float32Array(i.floats))),
        ...(spec.externalBytes
          ? [
              {
                name: 'external_w',
                dataType: code('FLOAT'),
                dims: [spec.externalBytes / 4],
                dataLocation: 1,
                externalData: [
                  { key: 'location', value: 'weights.bin' },
                  { key: 'length', value: String(spec.externalBytes) },
                ],
              },
            ]
          : []),
      ],
      input: [
        ...spec.inputs.map(([name, elem, shape]) => tensorInfo(name, code(elem), shape)),
        ...inits.filter((i) => i.overridable).map((i) => tensorInfo(i.name, code('FLOAT'), [i.floats])),
      ],
      output: spec.outputs.map(([name, elem, shape]) => tensorInfo(name, code(elem), shape)),
    },
    {
      ...(spec.irVersion === undefined ? {} : { irVersion: spec.irVersion }),
      ...(spec.opset === undefined ? {} : { opset: spec.opset }),
      ...(spec.extraOpsets ? { extraOpsets: spec.extraOpsets } : {}),
    },
  );
}

export async function writeRepo(files: RepoFiles, dir = tempDir('tritonc-lint-')): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    if (typeof content === 'string' || content instanceof Uint8Array) writeFileSync(full, content);
    else await writeOnnx(full, content);
  }
  return dir;
}

/** The model classifier of the tutorial: input [batch,3,224,224] FLOAT -> output [batch,1000] FLOAT. */
export const CLASSIFIER: OnnxSpec = {
  inputs: [['input', 'FLOAT', ['batch', 3, 224, 224]]],
  outputs: [['output', 'FLOAT', ['batch', 1000]]],
};

export const CLASSIFIER_CONFIG = `name: "classifier"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching { }
`;

/**
 * The engine's own rules and the contract rules: engine and rule tests lint with these only, so that
 * catalog rules added beside them (name vs directory, version directories, ...) do not change what
 * these tests see. Pass `rules: RULES` to lint with everything.
 */
export const OWN_RULE_IDS = new Set([
  'syntax',
  'model-unreadable',
  'missing-dynamic-axis',
  'batch-dim-in-dims',
  'io-name',
  'io-datatype',
  'io-shape',
  'fp16-accuracy',
  'invalid-suppression',
  'queue-delay',
  'instance-memory',
  'unused-suppression',
]);
export const OWN_RULES = RULES.filter((r) => OWN_RULE_IDS.has(r.meta.id));

export interface Finding {
  file: string;
  line: number;
  column: number;
  severity: Diagnostic['severity'];
  message: string;
  /** The source text the finding points at. */
  token?: string;
}

/** Lints a one-model repository (`<dir>/<name>/config.pbtxt` + `<name>/1/model.onnx`). */
export async function lintModel(
  config: string,
  onnx?: OnnxSpec | Uint8Array,
  options: LintOptions & { name?: string } = {},
): Promise<{ dir: string; result: LintResult }> {
  const name = options.name ?? 'm';
  const files: RepoFiles = { [`${name}/config.pbtxt`]: config };
  if (onnx) files[`${name}/1/model.onnx`] = onnx;
  const dir = await writeRepo(files);
  return { dir, result: lintSync([join(dir, name)], { cwd: dir, rules: OWN_RULES, ...options }) };
}

export function lintDir(dir: string, paths: string[] = ['.'], options: LintOptions = {}): LintResult {
  return lintSync(paths, { cwd: dir, rules: OWN_RULES, ...options });
}

/** The findings of one rule, with paths relative to `dir` and the text they point at. */
export function findings(result: LintResult, ruleId: string, dir?: string, texts?: Record<string, string>): Finding[] {
  return result.results.flatMap((r) =>
    r.diagnostics
      .filter((d) => d.ruleId === ruleId)
      .map((d) => {
        const f: Finding = {
          file: dir ? relative(dir, d.file) : d.file,
          line: d.range.start.line,
          column: d.range.start.column,
          severity: d.severity,
          message: d.message,
        };
        const text = texts?.[f.file];
        if (text !== undefined) f.token = text.slice(d.range.start.offset, d.range.end.offset);
        return f;
      }),
  );
}

/** Every rule id that reported something. */
export function ruleIds(result: LintResult): string[] {
  return [...new Set(result.results.flatMap((r) => r.diagnostics.map((d) => d.ruleId)))].sort();
}

/** The text a diagnostic points at in `text`. */
export function tokenAt(text: string, d: Diagnostic): string {
  return text.slice(d.range.start.offset, d.range.end.offset);
}

/** Lint one model and return one rule's findings with the token each points at. */
export async function check(ruleId: string, config: string, onnx?: OnnxSpec | Uint8Array, options: LintOptions = {}): Promise<Finding[]> {
  const { dir, result } = await lintModel(config, onnx, options);
  return findings(result, ruleId, dir, { 'm/config.pbtxt': config });
}

/** How tritonc shows the input name of notUtf8Onnx(): "in", the byte 0xff (never in UTF-8), "put". */
export const NOT_UTF8_INPUT = 'in\\xffput';

/** An ONNX model whose input is named by bytes that are not UTF-8 (an ONNX name is bytes; a config's is UTF-8 text). */
export function notUtf8Onnx(): Uint8Array {
  const bytes = onnxBytes({ inputs: [['inZput', 'FLOAT', ['batch', 4]]], outputs: [['out', 'FLOAT', ['batch', 4]]] });
  const at = Buffer.from(bytes).indexOf('inZput');
  if (at < 0 || Buffer.from(bytes).indexOf('inZput', at + 1) >= 0) throw new Error('the placeholder name must occur once');
  bytes[at + 2] = 0xff;
  return bytes;
}
