// Why a model file could not be read, one message per wording, by id: the values (offsets, sizes,
// field names and numbers, wire types, names and text from the file itself) are the data, and the
// wording is here alone. ModelReadError renders its `reason` from this table, and the
// `model-unreadable` rule reports these ids with their data (lint/model-read.ts wraps each in what
// to do about it). One table per section, each id prefixed by its reader, so that the sections spread
// into one id space without a clash (test/model-file/messages.test.ts checks it).
import { renderMessage, type MessageValue, type Placeholders } from '../util/message-template.js';

/** The file cannot be read at all (kind `io`): missing, a directory, no permission, a device. */
export const IO_READ_MESSAGES = {
  // Opening a model file (model-file/open.ts), the same for every format: `{{format}}` is the
  // reader's (ONNX, OpenVINO IR, PyTorch, TensorFlow SavedModel).
  noSuchFile: 'no such file or directory',
  permissionDenied: 'permission denied',
  /** `code`: Node's error code for the failed read (EIO, ...). */
  cannotReadFile: 'cannot read the file ({{code}})',
  isDirectory: 'is a directory where the {{format}} model file should be',
  /** `fileType`: FIFO, socket or device. */
  notRegularFile: 'not a regular file (a {{fileType}}), where the {{format}} model file should be',
  torchObjectEnded: 'the object ended before the bytes its central directory points at',
  savedModelNotDirectory: 'is not a directory: a TensorFlow SavedModel is a directory holding saved_model.pb (and variables/)',
  savedModelNoPb: 'has no {{pb}}: not a TensorFlow SavedModel directory (tf.saved_model.save writes one)',
  // A repository in object storage (src/remote).
  remoteNotFetched: 'not fetched yet',
  remoteObjectGone: 'the object went away while it was being read',
} as const;

/** A Git LFS pointer where the model file should be (the rule reports these by the pointer's data). */
export const LFS_READ_MESSAGES = {
  gitLfsPointer: 'not the {{format}} model: this is a Git LFS pointer to an object of {{objectBytes}} bytes ({{oid}}) that was never fetched; run git lfs pull',
  gitLfsPointerUnsized: 'not the {{format}} model: this is a Git LFS pointer to an object ({{oid}}) that was never fetched; run git lfs pull',
} as const;

/**
 * The protobuf window (window.ts), the same for every format that walks protobuf (ONNX, TensorFlow
 * SavedModel): `{{field}}` is the field read, by its path in the format's protos (ModelProto.graph,
 * MetaGraphDef.signature_def), or where the walk has no name for it, "field <number>".
 */
export const PROTOBUF_READ_MESSAGES = {
  protobufFileChanged: 'the file ended at byte {{end}} while {{size}} bytes were expected (did it change while being read?)',
  protobufTagCutOffFile: 'field tag is cut off by the end of the file ({{fileSize}})',
  protobufTagCutOffMessage: 'field tag is cut off by the end of the enclosing message (byte {{limit}})',
  protobufTagOverflow: 'field tag is not a valid varint (overflows 64 bits)',
  protobufLengthCutOffFile: 'length of {{field}} is cut off by the end of the file ({{fileSize}})',
  protobufLengthCutOffMessage: 'length of {{field}} is cut off by the end of the enclosing message (byte {{limit}})',
  protobufLengthOverflow: 'length of {{field}} is not a valid varint (overflows 64 bits)',
  protobufVarintCutOffFile: '{{field}} is cut off by the end of the file ({{fileSize}})',
  protobufVarintCutOffMessage: '{{field}} is cut off by the end of the enclosing message (byte {{limit}})',
  protobufVarintOverflow: '{{field}} is not a valid varint (overflows 64 bits)',
  protobufFixedCutOffFile: '{{field}} ({{bytes}}-byte value) is cut off by the end of the file ({{fileSize}})',
  protobufFixedCutOffMessage: '{{field}} ({{bytes}}-byte value) is cut off by the end of the enclosing message (byte {{limit}})',
  protobufLengthPastFile: '{{field}} claims {{claimed}} bytes but only {{remaining}} remain in the file ({{fileSize}} in all; truncated?)',
  protobufLengthPastMessage: '{{field}} claims {{claimed}} bytes but only {{remaining}} remain in the enclosing message (which ends at byte {{limit}})',
  // A length past 2^53, which a Number does not hold exactly.
  protobufHugeLengthPastFile: '{{field}} claims over 2^53 bytes but only {{remaining}} remain in the file ({{fileSize}} in all; truncated?)',
  protobufHugeLengthPastMessage: '{{field}} claims over 2^53 bytes but only {{remaining}} remain in the enclosing message (which ends at byte {{limit}})',
  protobufStringTooLong: '{{field}} is {{length}} bytes long; tritonc reads strings up to {{max}} bytes',
  protobufStringCutOff: 'the file ended while reading {{field}} (did it change while being read?)',
  // A field's tag (protobuf.ts decodeTag, wireMismatch).
  protobufTagTooLarge: 'invalid field tag (larger than 32 bits)',
  protobufTagFieldZero: 'invalid field tag (field number 0)',
  protobufTagGroup: 'field {{fieldNumber}} uses a protobuf group (wire type {{wire}}), which {{format}} never writes',
  protobufTagWireType: 'invalid wire type {{wire}} for field {{fieldNumber}}',
  protobufWireMismatch: '{{field}} (field {{fieldNumber}}) has wire type {{wire}} ({{wireName}}), expected {{expected}} ({{expectedName}})',
} as const;

/** The ONNX reader (src/onnx): what the file is when it is no ONNX model, and the walk's own limits. */
export const ONNX_READ_MESSAGES = {
  onnxEmpty: 'the file is empty, not an ONNX model',
  onnxZip: 'not an ONNX model: this is a ZIP archive (a PyTorch .pt/.pth checkpoint, TorchScript or Keras file?)',
  onnxHdf5: 'not an ONNX model: this is an HDF5 file (a Keras .h5 model?)',
  onnxGguf: 'not an ONNX model: this is a GGUF file',
  onnxNoGraph: 'not an ONNX model: there is no graph (ModelProto field 7)',
  onnxNoIrVersion: 'not an ONNX model: there is no ir_version (ModelProto field 1), which ONNX Runtime refuses ("Missing model IR version.")',
  onnxText: 'not an ONNX model: this looks like a text file, not a binary ONNX protobuf (its protobuf walk fails at byte {{failsAt}})',
  onnxTooManyItems: 'more than {{max}} inputs, outputs, dims and other entries; refusing to decode further',
  onnxTypeTooDeep: 'TypeProto nested deeper than {{max}} levels',
} as const;

/**
 * ONNX external data outside the model's directory, which ONNX Runtime refuses to load
 * (tensorprotoutils.cc ValidateExternalDataPathFromDir) and onnx.checker refuses (checker.cc
 * resolve_external_data_location); tritonc never looks at such a file. Not about the bytes of the
 * file, so no byte offset.
 */
export const ONNX_EXTERNAL_MESSAGES = {
  onnxExternalAbsolute:
    'tensor "{{tensor}}" keeps its data at the absolute path "{{location}}"; ONNX Runtime loads external data only from the model\'s directory: put the file beside the model and write its name, relative to the model, as the location',
  onnxExternalParent:
    'tensor "{{tensor}}" keeps its data at "{{location}}", which leads out of the model\'s directory (".."); ONNX Runtime loads external data only from the model\'s directory: put the file beside the model and write its name, relative to the model, as the location',
  onnxExternalLink:
    'tensor "{{tensor}}" keeps its data at "{{location}}", a symbolic link that leads out of the model\'s directory; ONNX Runtime loads external data only from the model\'s directory: put the file itself beside the model',
} as const;

/** The SavedModel reader (src/savedmodel). */
export const SAVEDMODEL_READ_MESSAGES = {
  savedModelPbtxt:
    'holds {{pbtxt}}, the text form, which tritonc does not read (TensorFlow loads it); save the model in binary form ({{pb}}) to have it checked',
  savedModelEmpty: 'saved_model.pb is empty, not a SavedModel',
  savedModelTooLarge: 'saved_model.pb is {{size}} bytes, more than the 2 GiB a protobuf message may be: not a SavedModel TensorFlow can read',
  savedModelNoMetaGraph: 'not a SavedModel: it has no meta graph (SavedModel field 2)',
  savedModelNoServeTag:
    'no meta graph is tagged exactly { {{tag}} } (the tag sets are {{sets}}), so Triton\'s TensorFlow backend cannot load it ("Could not find meta graph def matching supplied tags: { {{tag}} }"); export with the serve tag, or name the tag set in parameter TF_GRAPH_TAG',
  savedModelNoSignature:
    "the { {{tag}} } meta graph has no signature to serve (no '{{signature}}'), so Triton's TensorFlow backend refuses it (\"expected '{{signature}}' signature\"); export the model with a serving signature",
  savedModelTooManyMetaGraphs: 'more than {{max}} meta graphs',
  savedModelTooManyTags: 'more than {{max}} tags',
  savedModelTooManySignatures: 'more than {{max}} signatures',
  savedModelTooManyTensors: 'more than {{max}} signature tensors',
  savedModelRankTooLarge: 'a tensor shape of more than {{max}} dimensions',
} as const;

/** The PyTorch reader (src/pytorch): the archive (zip.ts), then the TorchScript code (torchscript.ts). */
export const PYTORCH_READ_MESSAGES = {
  torchEmpty: 'the file is empty, not a PyTorch model',
  torchBarePickle:
    'not a PyTorch model: a bare pickle (torch.save with _use_new_zipfile_serialization=False, or pickle.dump); a TorchScript model.pt is the ZIP archive torch.jit.save writes',
  torchNotZip: 'not a PyTorch model: not a ZIP archive; a TorchScript model.pt is the ZIP archive torch.jit.save writes',
  torchEmptyZip: 'an empty ZIP archive, not a PyTorch model',
  torchTooManyFetches: 'more than {{max}} ranged reads for a signature: not a PyTorch archive tritonc can read by ranges',
  torchExportProgram:
    "a torch.export program (torch.export.save: '{{entry}}'), not a model Triton loads: the pytorch backend loads a TorchScript model.pt (torch.jit.save) or an AOTInductor package model.pt2 (torch._inductor.aoti_compile_and_package)",
  torchNoDataPkl: 'a ZIP archive without data.pkl: not a TorchScript model (torch.jit.save writes <name>/data.pkl and <name>/code/)',
  torchCheckpoint:
    'a torch.save checkpoint (pickled weights or module), not a TorchScript model: it has no code/; Triton loads what torch.jit.save(torch.jit.script(model) or torch.jit.trace(model, example)) writes',
  torchNoClass: "'{{entry}}' does not define class {{className}}, the archive's top module",
  torchNoForward: "class {{className}} in '{{entry}}' has no forward method",
  torchTopModuleMissing: "data.pkl's top module is {{module}}.{{className}}, but the archive has no '{{path}}'",
  torchNoTorchPy: "data.pkl does not name the top module's class and there is no '{{path}}'",
  torchNoForwardClass: "'{{entry}}' defines no class with a forward method",
  // The forward definition (torchscript.ts parseForward).
  torchForwardString: "'{{entry}}': a string in the forward definition does not end",
  torchForwardArgsOpen: "'{{entry}}': forward's argument list does not end",
  torchForwardNoReturn: "'{{entry}}': forward's definition has no return annotation",
  torchForwardReturnOpen: "'{{entry}}': forward's return annotation does not end with ':'",
  torchForwardBadArgument: "'{{entry}}': forward's argument '{{argument}}' is not a name",
  // The ZIP archive (zip.ts).
  torchTruncatedEocd: 'the file ends inside the end of central directory record (the archive is truncated)',
  torchTruncatedZip64Locator: 'the file ends inside the zip64 end of central directory locator (the archive is truncated)',
  torchTruncatedZip64Eocd: 'the file ends inside the zip64 end of central directory record (the archive is truncated)',
  torchTruncatedDirectory: 'the file ends inside the central directory (the archive is truncated)',
  torchTruncatedLocalHeader: "the file ends inside the local header of '{{entry}}' (the archive is truncated)",
  torchTruncatedEntry: "the file ends inside '{{entry}}' (the archive is truncated)",
  torchTooShort: 'too short to be a ZIP archive (no end of central directory record)',
  torchNoEocd: 'no end of central directory record: not a ZIP archive, or one truncated at the end',
  torchMultiDisk: 'a multi-disk (split) ZIP archive, which PyTorch never writes',
  torchNoZip64Locator: 'the end record says zip64 but there is no zip64 locator before it',
  torchZip64PastLocator: 'the zip64 end record offset {{offset}} is past the locator',
  torchNoZip64Eocd: 'no zip64 end of central directory record where the locator points',
  torchTooManyEntries: '{{count}} entries: more than a model archive holds (limit {{max}})',
  torchDirectoryTooLarge: 'a central directory of {{size}} bytes: more than a model archive holds (limit {{max}})',
  torchDirectoryPastEnd: 'the central directory ({{size}} bytes at {{offset}}) runs past the end record at {{eocd}}',
  torchEntriesDoNotFit: '{{count}} entries cannot fit in a central directory of {{size}} bytes',
  torchDirectoryEndsInEntry: 'the central directory ends inside entry {{index}}',
  torchNoCentralSignature: 'entry {{index}} of the central directory has no central file header signature',
  torchEntryPastDirectory: "entry {{index}}'s name, extra field and comment run past the central directory",
  torchNoZip64Extra: "entry '{{entry}}' needs its zip64 extra field and has none",
  torchZip64ExtraShort: "entry '{{entry}}''s zip64 extra field is too short",
  torchEntryPastDirectoryStart: "entry '{{entry}}' ({{size}} bytes at {{offset}}) runs past the start of the central directory at {{directory}}",
  torchNoLocalHeader: "no local file header where the central directory puts '{{entry}}'",
  torchEntryPastEnd: "'{{entry}}' ({{size}} bytes from {{offset}}) runs past the end of the file",
  torchEncrypted: "'{{entry}}' is encrypted",
  torchMethod: "'{{entry}}' is compressed with method {{method}}; PyTorch writes stored (0) or deflate (8) entries only",
  torchRecordTooLarge: "'{{entry}}' declares {{size}} bytes, more than a signature record holds (limit {{max}}); refusing to inflate it",
  torchStoredSizes: "'{{entry}}' is stored but its sizes differ ({{compressed}} and {{size}})",
  torchRatio: "'{{entry}}' declares {{size}} bytes from {{compressed}} compressed: a ratio no deflate stream reaches (a zip bomb?)",
  torchInflatesPast: "'{{entry}}' inflates past its declared {{size}} bytes (a zip bomb?)",
  /** `code`: zlib's error code (Z_DATA_ERROR, ...). */
  torchBadDeflate: "'{{entry}}' is not a valid deflate stream ({{code}})",
  torchInflatedSize: "'{{entry}}' inflates to {{inflated}} bytes, not the {{size}} its record declares",
} as const;

/** The OpenVINO IR reader (src/openvino): where model.xml has a place, its line and column lead. */
export const OPENVINO_READ_MESSAGES = {
  openvinoEmpty: 'the file is empty, not an OpenVINO IR model.xml',
  openvinoBinary: 'not an OpenVINO IR model.xml: a NUL byte, so this is a binary file',
  openvinoBinaryOnnx: 'not an OpenVINO IR model.xml: a NUL byte, so this is a binary file (an ONNX model? name it model.onnx)',
  openvinoNotUtf8: 'not an OpenVINO IR model.xml: the bytes are not UTF-8 text here',
  openvinoTooLarge:
    '{{size}} bytes is more than the {{maxMiB}} MiB tritonc reads of an OpenVINO IR model.xml: the XML holds the graph only (the weights are in the .bin), so this is not one',
  openvinoNotNet: 'line {{line}}:{{column}}: not an OpenVINO IR model.xml: the root element is <{{tag}}>, not <net>',
  openvinoNoVersion: 'line {{line}}:{{column}}: <net> has no version attribute; OpenVINO reads IR versions 10 and 11',
  openvinoVersion:
    'line {{line}}:{{column}}: IR version {{version}}: OpenVINO reads IR versions 10 and 11 (convert the model again with a current OpenVINO: ovc or openvino.convert_model)',
  openvinoLayerNoId: 'line {{line}}:{{column}}: <layer> has no id attribute',
  openvinoLayerIdTwice: 'line {{line}}:{{column}}: two layers have the id {{id}}',
  openvinoConstSize: 'line {{line}}:{{column}}: the Const layer\'s size "{{size}}" is not a byte count',
  openvinoConstOffset: 'line {{line}}:{{column}}: the Const layer\'s offset "{{offset}}" is not a byte offset',
  openvinoEdgeAttributes: 'line {{line}}:{{column}}: <edge> needs from-layer, from-port, to-layer and to-port',
  openvinoParameterNoShape: "line {{line}}:{{column}}: the Parameter layer '{{layer}}' has neither a shape nor an output port",
  openvinoResultNoInput: "line {{line}}:{{column}}: the Result layer '{{layer}}' has no input port and no edge into it",
  openvinoBinMissing:
    'line {{line}}:{{column}}: the weights file {{bin}} beside it is missing, and OpenVINO fails reading the Const layer \'{{layer}}\' ("Empty weights data in bin file or bin file cannot be found!"); copy {{bin}} into the version directory',
  openvinoBinShort:
    "line {{line}}:{{column}}: the Const layer '{{layer}}' reads bytes {{from}}..{{to}} of {{bin}}, which has {{binBytes}} bytes (\"Incorrect weights in bin file!\"): the .bin is not this model's, or is cut short",
  openvinoDim: 'line {{line}}:{{column}}: the dimension "{{dim}}" is not a size, -1, \'?\' or a range like 1..10',
  // Not well-formed XML (openvino/xml.ts).
  openvinoXmlAmpersand: "line {{line}}:{{column}}: not well-formed XML: an '&' that starts no character reference (write &amp;)",
  openvinoXmlCharRef: 'line {{line}}:{{column}}: not well-formed XML: the character reference &{{ref}}; names no character',
  openvinoXmlEntity: 'line {{line}}:{{column}}: not well-formed XML: the entity &{{ref}}; is not one XML predefines (an IR uses none other)',
  openvinoXmlEndsInTag: 'line {{line}}:{{column}}: not well-formed XML: the file ends inside a tag',
  openvinoXmlNameStart: "line {{line}}:{{column}}: not well-formed XML: '{{char}}' cannot start a name here",
  openvinoXmlCommentOpen: "line {{line}}:{{column}}: not well-formed XML: a comment is never closed (no '-->')",
  openvinoXmlCdataOpen: "line {{line}}:{{column}}: not well-formed XML: a CDATA section is never closed (no ']]>')",
  openvinoXmlPiOpen: "line {{line}}:{{column}}: not well-formed XML: a processing instruction is never closed (no '?>')",
  openvinoXmlDoctypeOpen: "line {{line}}:{{column}}: not well-formed XML: the DOCTYPE is never closed (no '>')",
  openvinoXmlTextOutside: 'line {{line}}:{{column}}: not well-formed XML: text outside the root element',
  openvinoXmlCdataOutside: 'line {{line}}:{{column}}: not well-formed XML: a CDATA section outside the root element',
  openvinoXmlDoctypeSubset:
    'line {{line}}:{{column}}: not well-formed XML: a DOCTYPE with an internal subset (entity declarations), which an OpenVINO IR never has',
  openvinoXmlEndsInEndTag: 'line {{line}}:{{column}}: not well-formed XML: the file ends inside an end tag',
  openvinoXmlEndTagOpen: "line {{line}}:{{column}}: not well-formed XML: expected '>' to end </{{tag}}>",
  openvinoXmlEndTagNothing: 'line {{line}}:{{column}}: not well-formed XML: the end tag </{{tag}}> closes nothing',
  openvinoXmlEndTagMismatch: 'line {{line}}:{{column}}: not well-formed XML: the end tag </{{tag}}> does not match <{{open}}> (opened at character {{openAt}})',
  openvinoXmlEndsInStartTag: 'line {{line}}:{{column}}: not well-formed XML: the file ends inside <{{tag}}>',
  openvinoXmlExpectedSpace: "line {{line}}:{{column}}: not well-formed XML: expected a space, '>' or '/>' in <{{tag}}>",
  openvinoXmlAttributeNoValue: "line {{line}}:{{column}}: not well-formed XML: the attribute {{attribute}} of <{{tag}}> has no '=' value",
  openvinoXmlAttributeUnquoted: 'line {{line}}:{{column}}: not well-formed XML: the value of {{attribute}} in <{{tag}}> is not quoted',
  openvinoXmlAttributeOpen: 'line {{line}}:{{column}}: not well-formed XML: the value of {{attribute}} in <{{tag}}> is never closed',
  openvinoXmlLtInAttribute: "line {{line}}:{{column}}: not well-formed XML: '<' inside the value of {{attribute}} in <{{tag}}> (write &lt;)",
  openvinoXmlAttributeTwice: 'line {{line}}:{{column}}: not well-formed XML: <{{tag}}> has the attribute {{attribute}} twice',
  openvinoXmlSecondRoot: 'line {{line}}:{{column}}: not well-formed XML: a second root element <{{tag}}>',
  openvinoXmlNeverClosed: 'line {{line}}:{{column}}: not well-formed XML: <{{tag}}> is never closed (the file ends first)',
  openvinoXmlNoRoot: 'line {{line}}:{{column}}: not well-formed XML: there is no root element',
} as const;

/** A reader that failed with an error of its own (a bug in tritonc, caught so that a run goes on). */
export const BUG_READ_MESSAGES = {
  /** `error`: the error's class name (TypeError, RangeError, ...). */
  readerFailed: "tritonc's reader failed on this file ({{error}}): a bug in tritonc; please report it",
} as const;

/** Every reason, by id. */
export const READ_MESSAGES = {
  ...IO_READ_MESSAGES,
  ...LFS_READ_MESSAGES,
  ...PROTOBUF_READ_MESSAGES,
  ...ONNX_READ_MESSAGES,
  ...ONNX_EXTERNAL_MESSAGES,
  ...SAVEDMODEL_READ_MESSAGES,
  ...PYTORCH_READ_MESSAGES,
  ...OPENVINO_READ_MESSAGES,
  ...BUG_READ_MESSAGES,
} as const;

export type ReadMessages = typeof READ_MESSAGES;
export type ReadMessageId = keyof ReadMessages;

/** The values a reason's template takes. */
export type ReadData<K extends ReadMessageId> = { readonly [P in Placeholders<ReadMessages[K]>]: MessageValue };

/** A reason of the table with its values. */
export type ReadMessage<K extends ReadMessageId = ReadMessageId> = { [I in K]: { messageId: I; data: ReadData<I> } }[K];

/** The text of a reason. */
export const renderReadMessage = (m: ReadMessage): string => renderMessage(READ_MESSAGES[m.messageId], m.data);

/** Node's code for an error (EIO), else its class name: the value the messages quote. */
export function errorCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : e instanceof Error ? e.name : typeof e;
}

/** The ids whose wording starts with a place in a text file (`line {{line}}:{{column}}: `). */
export type PlacedId = { [K in ReadMessageId]: ReadData<K> extends { readonly line: MessageValue; readonly column: MessageValue } ? K : never }[ReadMessageId];

/** A reason of such an id, with its values but the line and column (the reader adds them from the offset). */
export type PlacedMessage<K extends PlacedId = PlacedId> = { [I in K]: { messageId: I; data: Omit<ReadData<I>, 'line' | 'column'> } }[K];
