// How the OpenVINO backend compares a config's dims with its model's (openvino_backend
// src/openvino_utils.cc doesMatch, CompareDimsSupported): backend behaviour that rules ask here, so no
// rule reaches into the reader (src/openvino/names.ts implements it beside the IR's shapes it reads).
export { dimBounds, doesMatch } from '../../../openvino/names.js';
