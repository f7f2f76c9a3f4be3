// The OpenVINO IR fixtures exported by scripts/model-exports/openvino/export.py (fixtures/models/openvino).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/snapshot.js';

export const OPENVINO_FIXTURES = join(ROOT, 'fixtures', 'models', 'openvino');
export const OPENVINO_MODELS = ['openvino_fixed_batch', 'openvino_dynamic_batch', 'openvino_int8_int8_int8', 'openvino_classifier'] as const;
export type OpenVinoModel = (typeof OPENVINO_MODELS)[number];

/** The files of fixture `model`'s version 1 (model.xml, model.bin), keyed for a memory repository under `at`. */
export function irFiles(model: OpenVinoModel, at: string): Record<string, Uint8Array> {
  const dir = join(OPENVINO_FIXTURES, model, '1');
  return {
    [`${at}/1/model.xml`]: readFileSync(join(dir, 'model.xml')),
    [`${at}/1/model.bin`]: readFileSync(join(dir, 'model.bin')),
  };
}

/** An IR whose one input and one output are scalars of f32 (hand-written; model.xml and an empty model.bin). */
export function scalarIr(at: string): Record<string, string> {
  const xml = `<?xml version="1.0"?>
<net name="scalar" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1"><data shape="" element_type="f32"/><output><port id="0" precision="FP32" names="x"/></output></layer>
    <layer id="1" name="y" type="Result" version="opset1"><input><port id="0" precision="FP32"/></input></layer>
  </layers>
  <edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges>
</net>
`;
  return { [`${at}/1/model.xml`]: xml, [`${at}/1/model.bin`]: '' };
}
