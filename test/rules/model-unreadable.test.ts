import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { ruleById } from '../../src/lint/rules/index.js';
import { modelReadReport } from '../../src/lint/model-read.js';
import { ModelReadError } from '../../src/model-file/errors.js';
import { readSignatureSync } from '../../src/onnx/reader.js';
import { readOpenVinoSync } from '../../src/openvino/reader.js';
import { readTorchSignatureSync } from '../../src/pytorch/reader.js';
import { readSavedModelSync } from '../../src/savedmodel/reader.js';
import { renderMessage } from '../../src/util/message-template.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, lintModel, writeRepo } from '../lint/harness.js';
import { findingsOf, testRule } from '../support/rule-tester.js';
import { ROOT } from '../support/snapshot.js';
import { buildZip, torchscriptZip } from '../pytorch/zip-builder.js';
import { bytesField, intField, key, stringField, tensorHeader, tensorTypeProto, valueInfoProto, varint } from '../../fixtures/onnx/proto-writer.js';
import { metaGraph, savedModel, signatureDef, tensorInfo } from '../savedmodel/helpers.js';

const ID = 'model-unreadable';
const MODEL = 'm/1/model.onnx';
const pointer = (lines: string): Uint8Array => new TextEncoder().encode(`version https://git-lfs.github.com/spec/v1\n${lines}`);

const TORCH = (name: string): Uint8Array => readFileSync(join(ROOT, 'fixtures/models/pytorch', name));

// Each of the readers' messages (src/model-file/messages.ts) on a file wrong in that one way, read by
// the real reader from memory: the finding is the reader's message id with its values, at the byte.
type Files = Record<string, string | Uint8Array>;
interface ReadCase {
  messageId: string;
  files: Files;
  file: string;
  data?: Record<string, unknown>;
}
const IR8 = intField(1, 8);
const io = (name: string) => valueInfoProto(name, tensorTypeProto(1, ['batch', 4]));
const GRAPH = Buffer.concat([bytesField(11, io('x')), bytesField(12, io('y'))]);
const cat = (...parts: (Buffer | number[] | string)[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const onnx = (bytes: Uint8Array) => ({ files: { 'm/config.pbtxt': CLASSIFIER_CONFIG, [MODEL]: bytes }, file: MODEL });
const XML = 'm/1/model.xml';
const ov = (xml: string | Uint8Array, bin: string | null = '') => ({
  files: { 'm/config.pbtxt': 'backend: "openvino"\n', [XML]: xml, ...(bin === null ? {} : { 'm/1/model.bin': bin }) },
  file: XML,
});
const layer = (id: number, name: string, type: string, inner = '') => `<layer id="${id}" name="${name}" type="${type}" version="opset1">${inner}</layer>`;
const PARAM = layer(
  0,
  'x',
  'Parameter',
  '<data shape="1,4" element_type="f32"/><output><port id="0" precision="FP32" names="x"><dim>1</dim><dim>4</dim></port></output>',
);
const RESULT = layer(1, 'y', 'Result', '<input><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port></input>');
const EDGE = '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>';
const net = (layers: string, edges = EDGE) =>
  `<?xml version="1.0"?>\n<net name="n" version="11">\n<layers>${layers}</layers>\n<edges>${edges}</edges>\n</net>\n`;
const CONST = layer(
  2,
  'w',
  'Const',
  '<data element_type="f32" shape="4" offset="0" size="16"/><output><port id="0" precision="FP32"><dim>4</dim></port></output>',
);
const PT = 'm/1/model.pt';
const torch = (bytes: Uint8Array) => ({ files: { 'm/config.pbtxt': 'backend: "pytorch"\n', [PT]: bytes }, file: PT });
const CODE = 'class Net(Module):\n  def forward(self: __torch__.Net,\n    x: Tensor) -> Tensor:\n    return x\n';
const PB = 'm/1/model.savedmodel/saved_model.pb';
const tf = (pb: Uint8Array) => ({ files: { 'm/config.pbtxt': 'platform: "tensorflow_savedmodel"\n', [PB]: pb }, file: PB });
/** A ZIP archive's end record alone, with `patch` applied to it (the offsets of APPNOTE 4.3.16). */
const eocd = (patch: (b: Buffer) => void, before: Buffer = Buffer.alloc(0)) => {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  patch(b);
  return Buffer.concat([before, b]);
};

/** An archive whose zip64 end record (APPNOTE 4.3.14, at byte 4) and locator (4.3.15) `patch` fills. */
const zip64 = (patch: (z: Buffer, locator: Buffer) => void) => {
  const z = Buffer.alloc(56);
  z.writeUInt32LE(0x06064b50, 0);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(4n, 8);
  patch(z, locator);
  // The end record defers count, size and offset to the zip64 record (0xFFFF, 0xFFFFFFFF).
  return eocd(
    (b) => {
      b.writeUInt16LE(0xffff, 10);
      b.writeUInt32LE(0xffffffff, 12);
      b.writeUInt32LE(0xffffffff, 16);
    },
    cat('PK\x03\x04', z, locator),
  );
};
/** `zip` with `patch` applied, given where its central directory starts. */
const patchZip = (zip: Buffer, patch: (zip: Buffer, cd: number) => unknown) => {
  const out = Buffer.from(zip);
  const cd = out.readUInt32LE(out.length - 22 + 16);
  // A zip64 archive's end record holds 0xFFFFFFFF; its zip64 end record (before the locator) the offset.
  patch(out, cd === 0xffffffff ? Number(out.readBigUInt64LE(out.length - 22 - 20 - 56 + 48)) : cd);
  return out;
};
/** Where the second central directory header starts. */
const second = (zip: Buffer, cd: number) => cd + 46 + zip.readUInt16LE(cd + 28) + zip.readUInt16LE(cd + 30) + zip.readUInt16LE(cd + 32);
/** A TorchScript-shaped archive whose code entry is `code` (sizes declared as given). */
const codeZip = (code: { data: string; deflate?: boolean; declaredUncompressed?: number }) =>
  buildZip([
    { name: 'model/data.pkl', data: cat([0x80, 0x02], 'c__torch__\nNet\n') },
    { name: 'model/code/__torch__.py', ...code },
  ]);

/** A model whose initializer 'w' keeps its data in an external file at `location` (TensorProto fields 13 and 14). */
const externalData = (location: string): Uint8Array =>
  cat(
    IR8,
    bytesField(
      7,
      cat(GRAPH, bytesField(5, cat(tensorHeader('w', 1, [4]), bytesField(13, cat(stringField(1, 'location'), stringField(2, location))), intField(14, 1)))),
    ),
  );

const READ_CASES: ReadCase[] = [
  // ---- ONNX (src/onnx) ----
  // External data outside the model's directory, refused as ONNX Runtime refuses it (tensorprotoutils.cc ValidateExternalDataPathFromDir).
  { messageId: 'onnxExternalAbsolute', ...onnx(externalData('/etc/passwd')), data: { tensor: 'w', location: '/etc/passwd' } },
  { messageId: 'onnxExternalParent', ...onnx(externalData('../../x.bin')), data: { tensor: 'w', location: '../../x.bin' } },
  { messageId: 'onnxEmpty', ...onnx(new Uint8Array(0)), data: { byteOffset: 0, kind: 'format' } },
  { messageId: 'onnxZip', ...onnx(cat('PK\x03\x04', Buffer.alloc(60))) },
  { messageId: 'onnxHdf5', ...onnx(cat([0x89, 0x48, 0x44, 0x46], Buffer.alloc(60))) },
  { messageId: 'onnxGguf', ...onnx(cat('GGUF', Buffer.alloc(60))) },
  { messageId: 'onnxNoGraph', ...onnx(cat(IR8, stringField(2, 'nothing else'))) },
  { messageId: 'onnxNoIrVersion', ...onnx(bytesField(7, GRAPH)) },
  { messageId: 'onnxText', ...onnx(cat('name: "not a model"\n')), data: { byteOffset: 0, failsAt: 0 } },
  {
    messageId: 'onnxTooManyItems',
    ...onnx(cat(IR8, bytesField(7, bytesField(5, cat(key(1, 2), varint(10_000_001), Buffer.alloc(10_000_001)))))),
    data: { max: 10_000_000 },
  },
  {
    messageId: 'protobufStringTooLong',
    ...onnx(cat(IR8, key(2, 2), varint(64 * 1024 * 1024 + 1), Buffer.alloc(64 * 1024 * 1024 + 1))),
    data: { field: 'ModelProto.producer_name', length: 64 * 1024 * 1024 + 1 },
  },
  {
    messageId: 'onnxTypeTooDeep',
    ...onnx(
      cat(
        IR8,
        bytesField(
          7,
          bytesField(
            11,
            valueInfoProto(
              'x',
              Array.from({ length: 100 }).reduce<Buffer>((t) => bytesField(4, bytesField(1, t)), tensorTypeProto(1, [1])),
            ),
          ),
        ),
      ),
    ),
    data: { max: 64 },
  },
  { messageId: 'protobufTagCutOffFile', ...onnx(cat(IR8, [0x80])), data: { byteOffset: 2, fileSize: '3 bytes' } },
  { messageId: 'protobufTagCutOffMessage', ...onnx(cat(IR8, bytesField(7, Buffer.from([0x80])), stringField(2, 'x'))), data: { byteOffset: 4, limit: 5 } },
  { messageId: 'protobufTagOverflow', ...onnx(cat(IR8, Buffer.alloc(9, 0xff), [0x02])), data: { byteOffset: 2 } },
  { messageId: 'protobufLengthCutOffFile', ...onnx(cat(IR8, key(7, 2), [0x80])), data: { field: 'ModelProto.graph', fileSize: '4 bytes' } },
  {
    messageId: 'protobufLengthCutOffMessage',
    ...onnx(cat(IR8, bytesField(7, cat(key(11, 2), [0x80])), stringField(2, 'x'))),
    data: { field: 'GraphProto.input', limit: 6 },
  },
  { messageId: 'protobufLengthOverflow', ...onnx(cat(IR8, key(7, 2), Buffer.alloc(9, 0xff), [0x02])), data: { field: 'ModelProto.graph' } },
  { messageId: 'protobufVarintCutOffFile', ...onnx(cat([0x08, 0xff, 0xff])), data: { field: 'ModelProto.ir_version', fileSize: '3 bytes', byteOffset: 1 } },
  {
    messageId: 'protobufVarintCutOffMessage',
    ...onnx(cat(IR8, bytesField(8, cat(key(2, 0), [0x80])), stringField(2, 'x'))),
    data: { field: 'OperatorSetIdProto.version' },
  },
  { messageId: 'protobufVarintOverflow', ...onnx(cat([0x08], Buffer.alloc(9, 0xff), [0x02])), data: { field: 'ModelProto.ir_version', byteOffset: 1 } },
  { messageId: 'protobufFixedCutOffFile', ...onnx(cat(IR8, key(100, 1), [1, 2, 3])), data: { field: 'field 100', bytes: 8 } },
  {
    messageId: 'protobufFixedCutOffMessage',
    ...onnx(cat(IR8, bytesField(7, cat(key(100, 5), [1, 2])), stringField(2, 'x'))),
    data: { field: 'field 100', bytes: 4 },
  },
  {
    messageId: 'protobufLengthPastFile',
    ...onnx(cat(IR8, key(7, 2), varint(1000), [1, 2, 3])),
    data: { field: 'ModelProto.graph', claimed: 1000, remaining: '3 bytes', fileSize: '8 bytes', byteOffset: 3 },
  },
  {
    messageId: 'protobufLengthPastMessage',
    ...onnx(cat(IR8, bytesField(7, cat(key(11, 2), varint(50), [0, 0, 0])), Buffer.alloc(100))),
    data: { field: 'GraphProto.input', claimed: 50, remaining: '3 bytes', limit: 9, byteOffset: 5 },
  },
  {
    messageId: 'protobufHugeLengthPastFile',
    ...onnx(cat(IR8, key(2, 2), varint(2 ** 60), 'abc')),
    data: { field: 'ModelProto.producer_name', remaining: '3 bytes' },
  },
  {
    messageId: 'protobufHugeLengthPastMessage',
    ...onnx(cat(IR8, bytesField(7, cat(key(11, 2), varint(2 ** 60))), stringField(2, 'x'))),
    data: { field: 'GraphProto.input' },
  },
  { messageId: 'protobufTagTooLarge', ...onnx(cat(IR8, varint(2 ** 35))) },
  { messageId: 'protobufTagFieldZero', ...onnx(cat(IR8, [0x00])), data: { byteOffset: 2 } },
  { messageId: 'protobufTagGroup', ...onnx(cat(IR8, key(5, 3))), data: { fieldNumber: 5, wire: 3 } },
  { messageId: 'protobufTagWireType', ...onnx(cat(IR8, key(5, 6))), data: { fieldNumber: 5, wire: 6 } },
  {
    messageId: 'protobufWireMismatch',
    ...onnx(cat(key(1, 2), varint(1), [8])),
    data: { field: 'ModelProto.ir_version', fieldNumber: 1, wire: 2, wireName: 'length-delimited', expected: 0, expectedName: 'varint' },
  },

  // ---- OpenVINO IR (src/openvino) ----
  { messageId: 'openvinoEmpty', ...ov('') },
  { messageId: 'openvinoBinary', ...ov(cat('<net>', [0])), data: { byteOffset: 5 } },
  { messageId: 'openvinoBinaryOnnx', ...ov(cat([0x08, 0x07, 0x12, 0x00])) },
  { messageId: 'openvinoNotUtf8', ...ov(cat('<net version="11">', [0xff], '</net>')), data: { byteOffset: 18 } },
  {
    messageId: 'openvinoTooLarge',
    ...ov(Buffer.alloc(64 * 1024 * 1024 + 1, 0x20)),
    data: { size: 64 * 1024 * 1024 + 1, maxMiB: 64, byteOffset: 64 * 1024 * 1024 },
  },
  { messageId: 'openvinoNotNet', ...ov('<?xml version="1.0"?>\n<model/>'), data: { line: 2, column: 1, tag: 'model' } },
  { messageId: 'openvinoNoVersion', ...ov('<net><layers/></net>') },
  { messageId: 'openvinoVersion', ...ov('<net version="7"><layers/></net>'), data: { version: '7' } },
  { messageId: 'openvinoLayerNoId', ...ov(net('<layer name="x" type="Parameter"/>')) },
  { messageId: 'openvinoLayerIdTwice', ...ov(net(PARAM + PARAM)), data: { id: '0' } },
  { messageId: 'openvinoConstSize', ...ov(net(PARAM + RESULT + CONST.replace('size="16"', 'size="big"'))), data: { size: 'big' } },
  { messageId: 'openvinoConstOffset', ...ov(net(PARAM + RESULT + CONST.replace('offset="0"', 'offset="-1"'))), data: { offset: '-1' } },
  { messageId: 'openvinoEdgeAttributes', ...ov(net(PARAM + RESULT, '<edge from-layer="0"/>')) },
  { messageId: 'openvinoParameterNoShape', ...ov(net(layer(0, 'x', 'Parameter') + RESULT)), data: { layer: 'x' } },
  { messageId: 'openvinoResultNoInput', ...ov(net(PARAM + layer(1, 'y', 'Result'), '')), data: { layer: 'y' } },
  { messageId: 'openvinoBinMissing', ...ov(net(PARAM + RESULT + CONST), null), data: { bin: 'model.bin', layer: 'w' } },
  { messageId: 'openvinoBinShort', ...ov(net(PARAM + RESULT + CONST), '12345678'), data: { layer: 'w', from: 0, to: 16, bin: 'model.bin', binBytes: 8 } },
  { messageId: 'openvinoDim', ...ov(net(PARAM.replace('shape="1,4"', 'shape="1,four"') + RESULT)), data: { dim: 'four' } },
  { messageId: 'openvinoXmlAmpersand', ...ov(net(PARAM.replace('names="x"', 'names="x & y"') + RESULT)) },
  { messageId: 'openvinoXmlCharRef', ...ov(net(PARAM.replace('names="x"', 'names="&#0;"') + RESULT)), data: { ref: '#0' } },
  { messageId: 'openvinoXmlEntity', ...ov(net(PARAM.replace('names="x"', 'names="x&nbsp;"') + RESULT)), data: { ref: 'nbsp' } },
  { messageId: 'openvinoXmlEndsInTag', ...ov('<net version="11"><') },
  { messageId: 'openvinoXmlNameStart', ...ov('<net version="11"><1/></net>'), data: { char: '1' } },
  { messageId: 'openvinoXmlCommentOpen', ...ov('<net version="11"><!-- never </net>') },
  { messageId: 'openvinoXmlCdataOpen', ...ov('<net version="11"><![CDATA[ never </net>') },
  { messageId: 'openvinoXmlPiOpen', ...ov('<?xml version="1.0"') },
  { messageId: 'openvinoXmlDoctypeOpen', ...ov('<!DOCTYPE net') },
  { messageId: 'openvinoXmlTextOutside', ...ov('<net version="11"><layers/></net>&bogus;') },
  { messageId: 'openvinoXmlCdataOutside', ...ov('<![CDATA[x]]><net version="11"/>') },
  { messageId: 'openvinoXmlDoctypeSubset', ...ov('<!DOCTYPE net [<!ENTITY a "b">]><net version="11"/>') },
  { messageId: 'openvinoXmlEndsInEndTag', ...ov('<net version="11"></net') },
  { messageId: 'openvinoXmlEndTagOpen', ...ov('<net version="11"></net x>'), data: { tag: 'net' } },
  { messageId: 'openvinoXmlEndTagNothing', ...ov('<net version="11"/></layers>'), data: { tag: 'layers' } },
  {
    messageId: 'openvinoXmlEndTagMismatch',
    ...ov('<?xml version="1.0"?>\n<net version="11"><layers></net>\n'),
    data: { byteOffset: 48, line: 2, column: 27, tag: 'net', open: 'layers', openAt: 40 },
  },
  { messageId: 'openvinoXmlEndsInStartTag', ...ov('<net version="11" '), data: { tag: 'net' } },
  { messageId: 'openvinoXmlExpectedSpace', ...ov('<net version="11"x="1"/>'), data: { tag: 'net' } },
  { messageId: 'openvinoXmlAttributeNoValue', ...ov('<net version/>'), data: { attribute: 'version', tag: 'net' } },
  { messageId: 'openvinoXmlAttributeUnquoted', ...ov('<net version=11/>'), data: { attribute: 'version', tag: 'net' } },
  { messageId: 'openvinoXmlAttributeOpen', ...ov('<net version="11/>'), data: { attribute: 'version', tag: 'net' } },
  { messageId: 'openvinoXmlLtInAttribute', ...ov('<net version="1<1"/>'), data: { attribute: 'version', tag: 'net' } },
  { messageId: 'openvinoXmlAttributeTwice', ...ov('<net version="11" version="10"/>'), data: { attribute: 'version', tag: 'net' } },
  { messageId: 'openvinoXmlSecondRoot', ...ov('<net version="11"/><net version="11"/>'), data: { tag: 'net' } },
  { messageId: 'openvinoXmlNeverClosed', ...ov('<net version="11"><layers>'), data: { tag: 'layers' } },
  { messageId: 'openvinoXmlNoRoot', ...ov('<?xml version="1.0"?>\n') },

  // ---- SavedModel (src/savedmodel) ----
  { messageId: 'savedModelEmpty', ...tf(new Uint8Array(0)), data: { backend: 'TensorFlow' } },
  { messageId: 'savedModelNoMetaGraph', ...tf(intField(1, 1)) },
  { messageId: 'savedModelNoServeTag', ...tf(savedModel(metaGraph(['train'], []))), data: { tag: 'serve', sets: '{ train }' } },
  { messageId: 'savedModelNoSignature', ...tf(savedModel(metaGraph(['serve'], []))), data: { tag: 'serve', signature: 'serving_default' } },
  {
    messageId: 'savedModelTooManyMetaGraphs',
    ...tf(cat(intField(1, 1), ...Array.from({ length: 100_001 }, () => bytesField(2, Buffer.alloc(0))))),
    data: { max: 100_000 },
  },
  { messageId: 'savedModelTooManyTags', ...tf(savedModel(cat(bytesField(1, cat(...Array.from({ length: 100_001 }, () => stringField(4, 's'))))))) },
  {
    messageId: 'savedModelTooManyTensors',
    ...tf(savedModel(metaGraph(['serve'], [['serving_default', cat(...Array.from({ length: 100_001 }, (_, i) => bytesField(1, stringField(1, `t${i}`))))]]))),
  },
  {
    messageId: 'savedModelRankTooLarge',
    ...tf(
      savedModel(
        metaGraph(
          ['serve'],
          [
            [
              'serving_default',
              signatureDef(
                [
                  [
                    'x',
                    tensorInfo(
                      'x:0',
                      1,
                      Array.from({ length: 1025 }, () => 1),
                    ),
                  ],
                ],
                [],
              ),
            ],
          ],
        ),
      ),
    ),
    data: { max: 1024 },
  },
  {
    messageId: 'protobufStringTooLong',
    ...tf(savedModel(metaGraph(['serve'], [['serving_default', signatureDef([['x'.repeat(1024 * 1024 + 1), tensorInfo('x:0', 1, [1])]], [])]]))),
    data: { field: 'SignatureDef.inputs.key', max: 1024 * 1024 },
  },
  { messageId: 'protobufTagCutOffFile', ...tf(cat(intField(1, 1), [0x80])) },
  { messageId: 'protobufTagCutOffMessage', ...tf(cat(intField(1, 1), bytesField(2, Buffer.from([0x80])), intField(1, 1))), data: { limit: 5 } },
  { messageId: 'protobufTagOverflow', ...tf(cat(intField(1, 1), Buffer.alloc(9, 0xff), [0x02])) },
  { messageId: 'protobufLengthCutOffFile', ...tf(cat(intField(1, 1), key(2, 2), [0x80])), data: { field: 'SavedModel.meta_graphs' } },
  {
    messageId: 'protobufLengthCutOffMessage',
    ...tf(cat(intField(1, 1), bytesField(2, cat(key(1, 2), [0x80])), intField(1, 1))),
    data: { field: 'MetaGraphDef.meta_info_def' },
  },
  { messageId: 'protobufLengthOverflow', ...tf(cat(intField(1, 1), key(2, 2), Buffer.alloc(9, 0xff), [0x02])), data: { field: 'SavedModel.meta_graphs' } },
  {
    messageId: 'protobufFixedCutOffFile',
    ...tf(cat(intField(1, 1), key(9, 1), [1, 2])),
    data: { field: 'field 9', bytes: 8, format: 'TensorFlow SavedModel' },
  },
  {
    messageId: 'protobufFixedCutOffMessage',
    ...tf(cat(intField(1, 1), bytesField(2, cat(key(9, 5), [1])), intField(1, 1))),
    data: { field: 'field 9', bytes: 4 },
  },
  {
    messageId: 'protobufVarintOverflow',
    ...tf(
      savedModel(
        metaGraph(
          ['serve'],
          [
            [
              'serving_default',
              signatureDef(
                [['x', cat(stringField(1, 'x:0'), intField(2, 1), bytesField(3, bytesField(2, cat(key(1, 0), Buffer.alloc(10, 0xff), [0x01]))))]],
                [],
              ),
            ],
          ],
        ),
      ),
    ),
    data: { field: 'Dim.size' },
  },
  { messageId: 'protobufVarintOverflow', ...tf(cat(key(1, 0), Buffer.alloc(9, 0xff), [0x02])), data: { field: 'field 1' } },
  {
    messageId: 'protobufLengthPastFile',
    ...tf(cat(intField(1, 1), key(2, 2), varint(1000), [1, 2, 3])),
    data: { field: 'SavedModel.meta_graphs', claimed: 1000, remaining: '3 bytes' },
  },
  {
    messageId: 'protobufLengthPastMessage',
    ...tf(cat(intField(1, 1), bytesField(2, cat(key(1, 2), varint(50), [0])), intField(1, 1))),
    data: { field: 'MetaGraphDef.meta_info_def', claimed: 50, remaining: '1 byte' },
  },
  { messageId: 'protobufTagTooLarge', ...tf(cat(intField(1, 1), varint(2 ** 35))) },
  { messageId: 'protobufTagFieldZero', ...tf(cat(intField(1, 1), [0x00])) },
  { messageId: 'protobufTagGroup', ...tf(cat(intField(1, 1), key(5, 3))), data: { fieldNumber: 5, wire: 3 } },
  { messageId: 'protobufTagWireType', ...tf(cat(intField(1, 1), key(5, 7))), data: { fieldNumber: 5, wire: 7 } },
  {
    messageId: 'protobufWireMismatch',
    ...tf(cat(intField(1, 1), key(2, 0), [1])),
    data: { field: 'SavedModel.meta_graphs', fieldNumber: 2, wire: 0, expected: 2 },
  },

  // ---- PyTorch (src/pytorch) ----
  { messageId: 'torchEmpty', ...torch(new Uint8Array(0)), data: { backend: 'PyTorch', byteOffset: 0 } },
  { messageId: 'torchBarePickle', ...torch(cat([0x80, 0x02], '}q\x00.')) },
  { messageId: 'torchNotZip', ...torch(cat('not a model')) },
  { messageId: 'torchEmptyZip', ...torch(eocd(() => {}, cat('PK\x03\x04'))) },
  {
    messageId: 'torchExportProgram',
    ...torch(buildZip([{ name: 'model/serialized_exported_program.json', data: '{}' }])),
    data: { entry: 'model/serialized_exported_program.json' },
  },
  { messageId: 'torchNoDataPkl', ...torch(buildZip([{ name: 'archive/other', data: 'x' }])) },
  { messageId: 'torchCheckpoint', ...torch(buildZip([{ name: 'archive/data.pkl', data: cat([0x80, 0x02], '}q\x00.') }])) },
  {
    messageId: 'torchNoClass',
    ...torch(
      buildZip([
        { name: 'archive/data.pkl', data: cat([0x80, 0x02], 'c__torch__\nNet\n') },
        { name: 'archive/code/__torch__.py', data: 'class Other(Module):\n  pass\n' },
      ]),
    ),
    data: { entry: 'archive/code/__torch__.py', className: 'Net' },
  },
  { messageId: 'torchNoForward', ...torch(torchscriptZip('class Net(Module):\n  pass\n')), data: { className: 'Net' } },
  {
    messageId: 'torchTopModuleMissing',
    ...torch(
      buildZip([
        { name: 'archive/data.pkl', data: cat([0x80, 0x02], 'c__torch__.pkg\nNet\n') },
        { name: 'archive/code/__torch__.py', data: CODE },
      ]),
    ),
    data: { module: '__torch__.pkg', className: 'Net', path: 'archive/code/__torch__/pkg.py' },
  },
  {
    messageId: 'torchNoTorchPy',
    ...torch(
      buildZip([
        { name: 'archive/data.pkl', data: cat([0x80, 0x02], '}q\x00.') },
        { name: 'archive/code/other.py', data: CODE },
      ]),
    ),
    data: { path: 'archive/code/__torch__.py' },
  },
  {
    messageId: 'torchNoForwardClass',
    ...torch(
      buildZip([
        { name: 'archive/data.pkl', data: cat([0x80, 0x02], '}q\x00.') },
        { name: 'archive/code/__torch__.py', data: 'class Net(Module):\n  pass\n' },
      ]),
    ),
    data: { entry: 'archive/code/__torch__.py' },
  },
  {
    messageId: 'torchForwardString',
    ...torch(torchscriptZip('class Net(Module):\n  def forward(self, x: Tensor = "open')),
    data: { entry: 'model/code/__torch__.py' },
  },
  { messageId: 'torchForwardArgsOpen', ...torch(torchscriptZip('class Net(Module):\n  def forward(self, x: Tensor')) },
  { messageId: 'torchForwardNoReturn', ...torch(torchscriptZip('class Net(Module):\n  def forward(self, x: Tensor):\n    return x\n')) },
  { messageId: 'torchForwardReturnOpen', ...torch(torchscriptZip('class Net(Module):\n  def forward(self, x: Tensor) -> Tensor')) },
  {
    messageId: 'torchForwardBadArgument',
    ...torch(torchscriptZip('class Net(Module):\n  def forward(self, 1x: Tensor) -> Tensor:\n    return x\n')),
    data: { argument: '1x' },
  },
  { messageId: 'torchTooShort', ...torch(cat('PK\x03\x04', Buffer.alloc(10))) },
  { messageId: 'torchNoEocd', ...torch(cat('PK\x03\x04', Buffer.alloc(40))) },
  { messageId: 'torchMultiDisk', ...torch(eocd((b) => b.writeUInt16LE(1, 4), cat('PK\x03\x04'))) },
  { messageId: 'torchTruncatedZip64Locator', ...torch(eocd((b) => b.writeUInt16LE(0xffff, 10), cat('PK\x03\x04'))) },
  { messageId: 'torchNoZip64Locator', ...torch(eocd((b) => b.writeUInt16LE(0xffff, 10), cat('PK\x03\x04', Buffer.alloc(20)))) },
  { messageId: 'torchTooManyEntries', ...torch(zip64((z) => z.writeBigUInt64LE(2_000_000n, 32))), data: { count: 2_000_000, max: 1_000_000 } },
  { messageId: 'torchDirectoryTooLarge', ...torch(zip64((z) => z.writeBigUInt64LE(100_000_000n, 40))), data: { size: 100_000_000 } },
  { messageId: 'torchZip64PastLocator', ...torch(zip64((_z, loc) => loc.writeBigUInt64LE(10n, 8))), data: { offset: 10 } },
  { messageId: 'torchNoZip64Eocd', ...torch(zip64((z) => z.writeUInt32LE(0, 0))) },
  {
    messageId: 'torchDirectoryEndsInEntry',
    ...torch(patchZip(buildZip([{ name: `archive/${'x'.repeat(42)}`, data: 'x' }]), (zip, cd) => zip.writeUInt16LE(2, zip.length - 22 + 10) + cd)),
    data: { index: 1 },
  },
  { messageId: 'torchNoCentralSignature', ...torch(patchZip(torchscriptZip(CODE), (zip, cd) => zip.writeUInt32LE(0, cd))), data: { index: 0 } },
  { messageId: 'torchEntryPastDirectory', ...torch(patchZip(torchscriptZip(CODE), (zip, cd) => zip.writeUInt16LE(5000, cd + 28))), data: { index: 0 } },
  {
    messageId: 'torchNoZip64Extra',
    ...torch(patchZip(torchscriptZip(CODE), (zip, cd) => zip.writeUInt32LE(0xffffffff, cd + 20))),
    data: { entry: 'model/data.pkl' },
  },
  {
    messageId: 'torchZip64ExtraShort',
    ...torch(patchZip(torchscriptZip(CODE, { zip64: true }), (zip, cd) => zip.writeUInt16LE(8, cd + 46 + 'model/data.pkl'.length + 2))),
    data: { entry: 'model/data.pkl' },
  },
  {
    messageId: 'torchEntryPastDirectoryStart',
    ...torch(patchZip(torchscriptZip(CODE), (zip, cd) => zip.writeUInt32LE(5000, cd + 20))),
    data: { entry: 'model/data.pkl', size: 5000, offset: 0 },
  },
  {
    messageId: 'torchNoLocalHeader',
    ...torch(patchZip(torchscriptZip(CODE), (zip, cd) => zip.writeUInt32LE(0, zip.readUInt32LE(second(zip, cd) + 42)))),
    data: { entry: 'model/code/__torch__.py' },
  },
  {
    messageId: 'torchEntryPastEnd',
    ...torch(patchZip(torchscriptZip(CODE), (zip, cd) => zip.writeUInt16LE(60000, zip.readUInt32LE(second(zip, cd) + 42) + 26))),
    data: { entry: 'model/code/__torch__.py' },
  },
  { messageId: 'torchEncrypted', ...torch(patchZip(torchscriptZip(CODE), (zip, cd) => zip.writeUInt16LE(1, cd + 8))), data: { entry: 'model/data.pkl' } },
  {
    messageId: 'torchMethod',
    ...torch(patchZip(torchscriptZip(CODE), (zip, cd) => zip.writeUInt16LE(12, cd + 10))),
    data: { entry: 'model/data.pkl', method: 12 },
  },
  {
    messageId: 'torchRecordTooLarge',
    ...torch(codeZip({ data: CODE, declaredUncompressed: 17_000_000 })),
    data: { entry: 'model/code/__torch__.py', size: 17_000_000, max: 16 * 1024 * 1024 },
  },
  {
    messageId: 'torchStoredSizes',
    ...torch(codeZip({ data: CODE, declaredUncompressed: CODE.length + 1 })),
    data: { compressed: CODE.length, size: CODE.length + 1 },
  },
  { messageId: 'torchRatio', ...torch(codeZip({ data: CODE, deflate: true, declaredUncompressed: 2_000_000 })), data: { size: 2_000_000 } },
  { messageId: 'torchInflatesPast', ...torch(codeZip({ data: CODE, deflate: true, declaredUncompressed: 10 })), data: { size: 10 } },
  {
    messageId: 'torchInflatedSize',
    ...torch(codeZip({ data: CODE, deflate: true, declaredUncompressed: CODE.length + 30 })),
    data: { inflated: CODE.length, size: CODE.length + 30 },
  },
  {
    messageId: 'torchBadDeflate',
    ...torch(patchZip(codeZip({ data: CODE }), (zip, cd) => zip.writeUInt16LE(8, second(zip, cd) + 10))),
    data: { entry: 'model/code/__torch__.py', code: 'Z_DATA_ERROR' },
  },
  { messageId: 'torchDirectoryPastEnd', ...torch(eocd((b) => b.writeUInt32LE(100, 12), cat('PK\x03\x04'))), data: { size: 100, offset: 0, eocd: 4 } },
  { messageId: 'torchEntriesDoNotFit', ...torch(eocd((b) => b.writeUInt16LE(1, 10), cat('PK\x03\x04', Buffer.alloc(10)))), data: { count: 1, size: 0 } },
];

testRule(ID, {
  valid: [{ name: 'a readable model', files: { 'm/config.pbtxt': CLASSIFIER_CONFIG, [MODEL]: CLASSIFIER } }],
  invalid: [
    {
      name: 'a Git LFS pointer instead of the model: an error in the model file, naming the object',
      files: { 'm/config.pbtxt': CLASSIFIER_CONFIG, [MODEL]: pointer('oid sha256:0123\nsize 123456\n') },
      errors: [
        {
          messageId: 'lfsPointer',
          severity: 'error',
          file: MODEL,
          line: 1,
          data: { oid: 'sha256:0123', objectBytes: 123456, objectSize: '121 KiB', kind: 'format' },
        },
      ],
    },
    {
      name: 'a Git LFS pointer without a size line',
      files: { 'm/config.pbtxt': CLASSIFIER_CONFIG, [MODEL]: pointer('oid sha256:0123\n') },
      errors: [{ messageId: 'lfsPointerUnsized', severity: 'error', file: MODEL, line: 1, data: { oid: 'sha256:0123', objectBytes: null } }],
    },
    {
      name: 'a Git LFS pointer under --configs-only: a note (the weights are provisioned elsewhere)',
      files: { 'm/config.pbtxt': CLASSIFIER_CONFIG, [MODEL]: pointer('oid sha256:0123\nsize 123456\n') },
      options: { configsOnly: true },
      errors: [{ messageId: 'lfsPointerElsewhere', severity: 'info', file: MODEL, data: { oid: 'sha256:0123', objectBytes: 123456, objectSize: '121 KiB' } }],
    },
    {
      name: 'a Git LFS pointer without a size line under --configs-only',
      files: { 'm/config.pbtxt': CLASSIFIER_CONFIG, [MODEL]: pointer('oid sha256:0123\n') },
      options: { configsOnly: true },
      errors: [{ messageId: 'lfsPointerElsewhereUnsized', severity: 'info', file: MODEL, data: { oid: 'sha256:0123' } }],
    },
    ...READ_CASES.map((c) => ({
      name: `${c.messageId}: the reader's message and its values`,
      files: c.files,
      errors: [{ messageId: c.messageId, severity: 'error' as const, file: c.file, ...(c.data ? { data: c.data } : {}) }],
    })),
  ],
});

// What a file in memory cannot show: the disk's own failures (a FIFO, a directory where a file
// should be), and the reads that come back short only from a disk or a store (a file that shrinks while
// it is read, an object that goes away). The readers make these errors at the places named; the
// finding is the reader's message id with its values, as for the rest.
describe(`${ID}: on disk`, () => {
  const onDisk = async (files: Record<string, string>, setUp: (dir: string) => void) => {
    const dir = await writeRepo(files);
    setUp(dir);
    return lintSync([join(dir, 'm')], { cwd: dir, rules: [ruleById(ID)!] })
      .results.flatMap((r) => r.diagnostics)
      .map((d) => ({ messageId: d.messageId, data: d.data, message: d.message }));
  };
  it('a FIFO where the model file should be: one id for every format, the format its data', async () => {
    const fifo = (file: string) => (dir: string) => {
      mkdirSync(join(dir, 'm/1'), { recursive: true });
      execFileSync('mkfifo', [join(dir, file)]);
    };
    expect(await onDisk({ 'm/config.pbtxt': CLASSIFIER_CONFIG }, fifo(MODEL))).toEqual([
      {
        messageId: 'notRegularFile',
        data: { format: 'ONNX', fileType: 'FIFO', byteOffset: null, kind: 'io' },
        message: 'cannot read the model file: not a regular file (a FIFO), where the ONNX model file should be; Triton cannot load this model either',
      },
    ]);
    expect(await onDisk({ 'm/config.pbtxt': 'backend: "openvino"\n' }, fifo('m/1/model.xml'))).toMatchObject([
      { messageId: 'notRegularFile', data: { format: 'OpenVINO IR', fileType: 'FIFO', byteOffset: null, kind: 'io' } },
    ]);
    expect(await onDisk({ 'm/config.pbtxt': 'backend: "pytorch"\n' }, fifo('m/1/model.pt'))).toMatchObject([
      { messageId: 'notRegularFile', data: { format: 'PyTorch', fileType: 'FIFO', byteOffset: null, kind: 'io' } },
    ]);
    const pbFifo = (dir: string) => {
      mkdirSync(join(dir, 'm/1/model.savedmodel'), { recursive: true });
      execFileSync('mkfifo', [join(dir, 'm/1/model.savedmodel/saved_model.pb')]);
    };
    expect(await onDisk({ 'm/config.pbtxt': 'platform: "tensorflow_savedmodel"\n' }, pbFifo)).toMatchObject([
      { messageId: 'notRegularFile', data: { format: 'TensorFlow SavedModel', fileType: 'FIFO' } },
    ]);
  });
  it("external data through a link that leads out of the model's directory: refused, the file outside never read", async () => {
    const found = await onDisk({ 'm/config.pbtxt': CLASSIFIER_CONFIG }, (dir) => {
      mkdirSync(join(dir, 'm/1'), { recursive: true });
      writeFileSync(join(dir, MODEL), externalData('w.bin'));
      writeFileSync(join(dir, 'outside.bin'), Buffer.alloc(16));
      symlinkSync(join(dir, 'outside.bin'), join(dir, 'm/1/w.bin'));
    });
    expect(found).toMatchObject([{ messageId: 'onnxExternalLink', data: { tensor: 'w', location: 'w.bin' } }]);
  });
  it('a SavedModel that is a file or holds no saved_model.pb', async () => {
    const mkdir = (path: string) => (dir: string) => mkdirSync(join(dir, path), { recursive: true });
    const tf = { 'm/config.pbtxt': 'platform: "tensorflow_savedmodel"\n' };
    expect(await onDisk({ ...tf, 'm/1/model.savedmodel': 'not a directory' }, () => {})).toMatchObject([{ messageId: 'savedModelNotDirectory' }]);
    expect(await onDisk(tf, mkdir('m/1/model.savedmodel/variables'))).toMatchObject([
      { messageId: 'savedModelNoPb', data: { pb: 'saved_model.pb', byteOffset: null, kind: 'io' } },
    ]);
    expect(await onDisk({ ...tf, 'm/1/model.savedmodel/saved_model.pbtxt': 'meta_graphs {}\n' }, () => {})).toMatchObject([
      { messageId: 'savedModelPbtxt', data: { pbtxt: 'saved_model.pbtxt', pb: 'saved_model.pb', byteOffset: null, kind: 'format', backend: 'TensorFlow' } },
    ]);
  });
});

describe(`${ID}: the readers on a directory or a missing path (which the locator passes to none of them; a library caller may)`, () => {
  const thrown = (read: () => unknown): ModelReadError => {
    try {
      read();
    } catch (e) {
      if (e instanceof ModelReadError) return e;
      throw e;
    }
    throw new Error('read without error');
  };
  const report = (e: ModelReadError) => ({
    messageId: modelReadReport(e).messageId,
    text: renderMessage(ruleById(ID)!.meta.messages[modelReadReport(e).messageId], modelReadReport(e).data ?? {}),
  });
  it('every reader says a directory by one id, its format the data; a missing path', async () => {
    const dir = await writeRepo({ 'x/.keep': '' });
    const sub = join(dir, 'x');
    expect(report(thrown(() => readSignatureSync(sub)))).toEqual({
      messageId: 'isDirectory',
      text: 'cannot read the model file: is a directory where the ONNX model file should be; Triton cannot load this model either',
    });
    expect(report(thrown(() => readOpenVinoSync(sub)))).toEqual({
      messageId: 'isDirectory',
      text: 'cannot read the model file: is a directory where the OpenVINO IR model file should be; Triton cannot load this model either',
    });
    expect(report(thrown(() => readTorchSignatureSync(sub)))).toEqual({
      messageId: 'isDirectory',
      text: 'cannot read the model file: is a directory where the PyTorch model file should be; Triton cannot load this model either',
    });
    expect(report(thrown(() => readSignatureSync(join(dir, 'none.onnx'))))).toEqual({
      messageId: 'noSuchFile',
      text: 'cannot read the model file: no such file or directory; Triton cannot load this model either',
    });
    expect(report(thrown(() => readSavedModelSync(join(dir, 'none'))))).toEqual({
      messageId: 'noSuchFile',
      text: 'cannot read the model file: no such file or directory; Triton cannot load this model either',
    });
  });
});

describe(`${ID}: what only a disk or a store shows`, () => {
  // Each as its reader makes it (the place named), reported by the rule's wording of it.
  const report = (e: ModelReadError) => {
    const r = modelReadReport(e);
    const text = renderMessage(ruleById(ID)!.meta.messages[r.messageId], r.data ?? {});
    return { messageId: r.messageId, data: r.data, text };
  };
  const cases: [ModelReadError, { messageId: string; text: string }][] = [
    // src/model-file/open.ts ioError, for every reader: EACCES (tests run as root here), EIO.
    [
      new ModelReadError('io', 'm.onnx', null, { messageId: 'permissionDenied', data: {} }),
      { messageId: 'permissionDenied', text: 'cannot read the model file: permission denied; Triton cannot load this model either' },
    ],
    [
      new ModelReadError('io', 'm.onnx', 0, { messageId: 'cannotReadFile', data: { code: 'EIO' } }),
      { messageId: 'cannotReadFile', text: 'cannot read the model file: cannot read the file (EIO); Triton cannot load this model either' },
    ],
    // A file that shrank while it was read: src/model-file/window.ts fill and text, one id for every format, the format the error's.
    [
      new ModelReadError('format', 'm.onnx', 40, { messageId: 'protobufFileChanged', data: { end: 40, size: 100 } }, undefined, { format: 'ONNX' }),
      {
        messageId: 'protobufFileChanged',
        text: 'not a readable ONNX model (at byte 40): the file ended at byte 40 while 100 bytes were expected (did it change while being read?); re-export the model, or restore the file (a truncated copy or a Git LFS pointer looks like this)',
      },
    ],
    [
      new ModelReadError('format', 'm.onnx', 40, { messageId: 'protobufStringCutOff', data: { field: 'ModelProto.doc_string' } }, undefined, {
        format: 'ONNX',
      }),
      {
        messageId: 'protobufStringCutOff',
        text: 'not a readable ONNX model (at byte 40): the file ended while reading ModelProto.doc_string (did it change while being read?); re-export the model, or restore the file (a truncated copy or a Git LFS pointer looks like this)',
      },
    ],
    [
      new ModelReadError('format', 'pb', 40, { messageId: 'protobufFileChanged', data: { end: 40, size: 100 } }, undefined, {
        format: 'TensorFlow SavedModel',
      }),
      {
        messageId: 'protobufFileChanged',
        text: 'not a readable TensorFlow SavedModel model (at byte 40): the file ended at byte 40 while 100 bytes were expected (did it change while being read?); re-export the model, or restore the file (a truncated copy or a Git LFS pointer looks like this)',
      },
    ],
    // src/savedmodel/reader.ts signatureOf: over 2 GiB; over 100,000 signatures (distinct keys, each looked up in the list: too slow to build here).
    [
      new ModelReadError('format', 'pb', 0, { messageId: 'savedModelTooLarge', data: { size: 2 ** 31 } }),
      {
        messageId: 'savedModelTooLarge',
        text: "Triton's TensorFlow backend cannot load this file: saved_model.pb is 2147483648 bytes, more than the 2 GiB a protobuf message may be: not a SavedModel TensorFlow can read",
      },
    ],
    [
      new ModelReadError('format', 'pb', 9, { messageId: 'savedModelTooManySignatures', data: { max: 100_000 } }),
      { messageId: 'savedModelTooManySignatures', text: "Triton's TensorFlow backend cannot load this file: more than 100000 signatures" },
    ],
    // src/pytorch/zip.ts readExact, when a ranged read of a store comes back short.
    [
      new ModelReadError('format', 'm.pt', 0, { messageId: 'torchTruncatedEocd', data: {} }),
      {
        messageId: 'torchTruncatedEocd',
        text: "Triton's PyTorch backend cannot load this file: the file ends inside the end of central directory record (the archive is truncated)",
      },
    ],
    [
      new ModelReadError('format', 'm.pt', 0, { messageId: 'torchTruncatedZip64Eocd', data: {} }),
      {
        messageId: 'torchTruncatedZip64Eocd',
        text: "Triton's PyTorch backend cannot load this file: the file ends inside the zip64 end of central directory record (the archive is truncated)",
      },
    ],
    [
      new ModelReadError('format', 'm.pt', 0, { messageId: 'torchTruncatedDirectory', data: {} }),
      {
        messageId: 'torchTruncatedDirectory',
        text: "Triton's PyTorch backend cannot load this file: the file ends inside the central directory (the archive is truncated)",
      },
    ],
    [
      new ModelReadError('format', 'm.pt', 0, { messageId: 'torchTruncatedLocalHeader', data: { entry: 'a/data.pkl' } }),
      {
        messageId: 'torchTruncatedLocalHeader',
        text: "Triton's PyTorch backend cannot load this file: the file ends inside the local header of 'a/data.pkl' (the archive is truncated)",
      },
    ],
    [
      new ModelReadError('format', 'm.pt', 0, { messageId: 'torchTruncatedEntry', data: { entry: 'a/data.pkl' } }),
      {
        messageId: 'torchTruncatedEntry',
        text: "Triton's PyTorch backend cannot load this file: the file ends inside 'a/data.pkl' (the archive is truncated)",
      },
    ],
    // src/pytorch/reader.ts readTorchSignatureFrom: ranged reads of a store.
    [
      new ModelReadError('format', 'm.pt', 0, { messageId: 'torchTooManyFetches', data: { max: 16 } }),
      {
        messageId: 'torchTooManyFetches',
        text: "Triton's PyTorch backend cannot load this file: more than 16 ranged reads for a signature: not a PyTorch archive tritonc can read by ranges",
      },
    ],
    [
      new ModelReadError('io', 'm.pt', 0, { messageId: 'torchObjectEnded', data: {} }),
      {
        messageId: 'torchObjectEnded',
        text: 'cannot read the model file: the object ended before the bytes its central directory points at; Triton cannot load this model either',
      },
    ],
    // src/remote/mounted.ts signature.
    [
      new ModelReadError('io', 'm.onnx', null, { messageId: 'remoteNotFetched', data: {} }),
      { messageId: 'remoteNotFetched', text: 'cannot read the model file: not fetched yet; Triton cannot load this model either' },
    ],
    [
      new ModelReadError('io', 'm.onnx', 0, { messageId: 'remoteObjectGone', data: {} }),
      { messageId: 'remoteObjectGone', text: 'cannot read the model file: the object went away while it was being read; Triton cannot load this model either' },
    ],
    // src/model-readers/readers.ts loadSignature: a reader's own bug, caught so that the run goes on.
    [
      new ModelReadError('format', 'm.onnx', null, { messageId: 'readerFailed', data: { error: 'TypeError' } }),
      { messageId: 'readerFailed', text: "tritonc's reader failed on this file (TypeError): a bug in tritonc; please report it" },
    ],
  ];
  for (const [error, want] of cases) {
    it(want.messageId, () => {
      expect(report(error)).toMatchObject(want);
    });
  }
});

describe(`${ID}: PyTorch files`, () => {
  it("a torch.save checkpoint where Triton's PyTorch backend wants TorchScript (a real torch 2.5.1 export): at the entry's byte, what it is and what to write instead", () => {
    const found = findingsOf(ID, {
      name: 'checkpoint',
      files: { 'm/config.pbtxt': 'backend: "pytorch"\n', 'm/1/model.pt': TORCH('torch_save_checkpoint/1/model.pt') },
    });
    expect(found.map((d) => [d.messageId, d.data, d.file.endsWith('m/1/model.pt'), d.range.start.offset])).toEqual([
      ['torchCheckpoint', { backend: 'PyTorch', kind: 'format', byteOffset: 1016 }, true, 1016],
    ]);
    expect(found[0]!.message).toBe(
      "Triton's PyTorch backend cannot load this file: a torch.save checkpoint (pickled weights or module), not a TorchScript model: it has no code/; Triton loads what torch.jit.save(torch.jit.script(model) or torch.jit.trace(model, example)) writes",
    );
    const empty = findingsOf(ID, { name: 'empty', files: { 'm/config.pbtxt': 'platform: "pytorch_libtorch"\n', 'm/1/model.pt': new Uint8Array(0) } });
    expect(empty.map((d) => [d.messageId, d.message])).toEqual([
      ['torchEmpty', "Triton's PyTorch backend cannot load this file: the file is empty, not a PyTorch model"],
    ]);
  });
  it('a TorchScript model under torch_aoti, an AOTInductor package under pytorch_libtorch: the other loader', () => {
    const ts = findingsOf(ID, { name: 'ts', files: { 'm/config.pbtxt': 'platform: "torch_aoti"\n', 'm/1/model.pt2': TORCH('libtorch_named/1/model.pt') } });
    expect(ts.map((d) => ({ messageId: d.messageId, data: d.data }))).toEqual([
      { messageId: 'torchscriptForAoti', data: { platform: 'torch_aoti', otherPlatform: 'pytorch_libtorch', otherFile: 'model.pt' } },
    ]);
    const aoti = buildZip([{ name: 'model/data/aotinductor/model/c.wrapper.so', data: Buffer.alloc(8) }]);
    const pkg = findingsOf(ID, { name: 'aoti', files: { 'm/config.pbtxt': 'platform: "pytorch_libtorch"\n', 'm/1/model.pt': aoti } });
    expect(pkg.map((d) => ({ messageId: d.messageId, data: d.data }))).toEqual([
      { messageId: 'aotiForTorchscript', data: { platform: 'pytorch_libtorch', otherPlatform: 'torch_aoti', otherFile: 'model.pt2' } },
    ]);
  });
});

describe(`${ID}: with every rule`, () => {
  it('the model-aware rules do not run without a signature; the config is still linted', async () => {
    const { result } = await lintModel(CLASSIFIER_CONFIG, pointer('oid sha256:0123\nsize 123456\n'));
    expect(result.errorCount).toBe(1);
  });
});
