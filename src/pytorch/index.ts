// The PyTorch reader (TorchScript model.pt, AOTInductor model.pt2): public surface of src/pytorch.
export { readTorchSignatureFrom, readTorchSignatureOfBytes, readTorchSignatureSync, torchOutputName } from './reader.js';
export { readCentralDirectory, readEntry, ZIP_LIMITS, type ZipEntry, type ZipSource } from './zip.js';
