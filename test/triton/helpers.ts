// Model directories for resolve tests: a config.pbtxt (or none) and real ONNX files in version dirs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { model, node, tensorInfo, writeModel, type DimSpec, type NodeProto } from '../../fixtures/onnx/model-builder.js';
import { ELEM_TYPES } from '../../src/onnx/elem-types.js';
import { tempDir } from '../support/cli.js';

export interface TensorSpec {
  name: string;
  /** Triton data type (TYPE_FP32, ...) or an ONNX element code. */
  type: string | number;
  shape: DimSpec[] | null;
}

export interface SignatureSpec {
  inputs: TensorSpec[];
  outputs: TensorSpec[];
}

function elemCode(type: string | number): number {
  if (typeof type === 'number') return type;
  const e = ELEM_TYPES.find((t) => t.tritonType === type || t.name === type);
  if (!e) throw new Error(`no ONNX element type for ${type}`);
  return e.code;
}

/** Writes an ONNX model with exactly this signature (each output computed from an input, so the graph is connected). */
export async function writeOnnx(file: string, sig: SignatureSpec): Promise<string> {
  const nodes: NodeProto[] = sig.outputs.map((o, i) => {
    const from = sig.inputs[i % Math.max(1, sig.inputs.length)];
    if (!from) return node('Constant', [], [o.name]);
    return elemCode(from.type) === elemCode(o.type)
      ? node('Identity', [from.name], [o.name])
      : node('Cast', [from.name], [o.name], [{ name: 'to', type: 2, i: elemCode(o.type) }]);
  });
  return writeModel(
    file,
    model({
      name: 'resolve-fixture',
      node: nodes,
      input: sig.inputs.map((t) => tensorInfo(t.name, elemCode(t.type), t.shape)),
      output: sig.outputs.map((t) => tensorInfo(t.name, elemCode(t.type), t.shape)),
    }),
  );
}

/** The common two-in/two-out signature of Triton's QA models (INT32 x2 -> INT8 x2, 16 elements). */
export function qaSignature(batch: boolean): SignatureSpec {
  const shape = (batch ? [-1, 16] : [16]) as DimSpec[];
  return {
    inputs: [
      { name: 'INPUT0', type: 'TYPE_INT32', shape },
      { name: 'INPUT1', type: 'TYPE_INT32', shape },
    ],
    outputs: [
      { name: 'OUTPUT0', type: 'TYPE_INT8', shape },
      { name: 'OUTPUT1', type: 'TYPE_INT8', shape },
    ],
  };
}

export interface ModelDirSpec {
  /** Directory name (the model's name). */
  name: string;
  config?: string;
  /** Extra files, relative to the model directory, e.g. { 'configs/h100.pbtxt': '...' }. */
  files?: Record<string, string>;
  /** ONNX models to write, relative to the model directory, e.g. { '1/model.onnx': sig }. */
  models?: Record<string, SignatureSpec>;
  /** Empty directories to create, relative to the model directory. */
  dirs?: string[];
}

/** Creates `<tmp>/<name>/...` and returns the model directory. */
export async function makeModelDir(spec: ModelDirSpec, repo = tempDir('tritonc-resolve-')): Promise<string> {
  const dir = join(repo, spec.name);
  mkdirSync(dir, { recursive: true });
  if (spec.config !== undefined) writeFileSync(join(dir, 'config.pbtxt'), spec.config);
  for (const d of spec.dirs ?? []) mkdirSync(join(dir, d), { recursive: true });
  for (const [path, text] of Object.entries(spec.files ?? {})) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const [path, sig] of Object.entries(spec.models ?? {})) await writeOnnx(join(dir, path), sig);
  return dir;
}
