#!/usr/bin/env python3
"""What `verify --reference ort` is for, made from the tutorial's classifier
(fixtures/models/torch-onnx/tutorial_classifier) with onnx and numpy, into OUT:

- drift.onnx: the classifier with every weight rounded to float16 and back (what an FP16 engine
  does to the weights), stored as FP32 so Triton's ONNX Runtime backend serves it on the CPU.
- tiny.onnx: the classifier with its last layer scaled by 1e-5, so its outputs are around 1e-5 (the
  issue's model); tiny_drift.onnx: the same with its weights rounded to float16 and back (at 1e-5
  float16 is subnormal: a few percent of relative error).
- x.npy (4 images of 3x224x224, float32, numpy's default_rng(0)), x.npz (np.savez, input=x),
  xc.npz (np.savez_compressed), x64.npy (float64), xbe.npy (big-endian float32), x1.npy (one image,
  no batch dim), x40.npy (a batch of 40), and x.json ({"input": nested lists} of x1).
- expected.json: each model's outputs on x computed here by numpy in float64 (the graph is Conv 7x7
  stride 4, Relu, GlobalAveragePool, Flatten, Gemm), independently of any ONNX Runtime: the largest
  |output| of the reference models and the largest |drift - reference| of the drifted ones.

Usage: python drift.py SOURCE_MODEL OUT
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def rounded_to_fp16(model):
    for init in model.graph.initializer:
        a = numpy_helper.to_array(init)
        if a.dtype == np.float32:
            init.CopyFrom(numpy_helper.from_array(a.astype(np.float16).astype(np.float32), init.name))
    return model


def scaled_last_layer(model, factor):
    last = {n.input[1] for n in model.graph.node if n.op_type == "Gemm"} | {n.input[2] for n in model.graph.node if n.op_type == "Gemm" and len(n.input) > 2}
    for init in model.graph.initializer:
        if init.name in last:
            init.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(init) * np.float32(factor), init.name))
    return model


def forward(model, x):
    w = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in model.graph.initializer}
    conv = next(n for n in model.graph.node if n.op_type == "Conv")
    gemm = next(n for n in model.graph.node if n.op_type == "Gemm")
    k, b = w[conv.input[1]], w[conv.input[2]]
    windows = np.lib.stride_tricks.sliding_window_view(x.astype(np.float64), (7, 7), axis=(2, 3))[:, :, ::4, ::4]
    y = np.einsum("nchwij,ocij->nohw", windows, k) + b[None, :, None, None]
    pooled = np.maximum(y, 0).mean(axis=(2, 3))
    return pooled @ w[gemm.input[1]].T + w[gemm.input[2]]


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source, out = argv
    os.makedirs(out, exist_ok=True)
    onnx.save(rounded_to_fp16(onnx.load(source)), os.path.join(out, "drift.onnx"))
    onnx.save(scaled_last_layer(onnx.load(source), 1e-5), os.path.join(out, "tiny.onnx"))
    onnx.save(rounded_to_fp16(scaled_last_layer(onnx.load(source), 1e-5)), os.path.join(out, "tiny_drift.onnx"))
    x = np.random.default_rng(0).standard_normal((4, 3, 224, 224)).astype(np.float32)
    outs = {name: forward(onnx.load(path), x) for name, path in [("classifier", source)] + [(n, os.path.join(out, f"{n}.onnx")) for n in ("drift", "tiny", "tiny_drift")]}
    expected = {
        "classifier": {"largest": float(np.abs(outs["classifier"]).max())},
        "drift": {"maxAbsError": float(np.abs(outs["drift"] - outs["classifier"]).max())},
        "tiny": {"largest": float(np.abs(outs["tiny"]).max())},
        "tiny_drift": {"maxAbsError": float(np.abs(outs["tiny_drift"] - outs["tiny"]).max())},
    }
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f)
    np.save(os.path.join(out, "x.npy"), x)
    np.savez(os.path.join(out, "x.npz"), input=x)
    np.savez_compressed(os.path.join(out, "xc.npz"), input=x)
    np.save(os.path.join(out, "x64.npy"), x.astype(np.float64))
    np.save(os.path.join(out, "xbe.npy"), x.astype(">f4"))
    np.save(os.path.join(out, "x1.npy"), x[0])
    np.save(os.path.join(out, "x40.npy"), np.zeros((40, 3, 224, 224), np.float32))
    with open(os.path.join(out, "x.json"), "w") as f:
        json.dump({"input": x[0].tolist()}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
