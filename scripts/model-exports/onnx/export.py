#!/usr/bin/env python3
"""Exports the ONNX models Triton's qa/L0_model_config/test.sh runs its ONNX cases on, into OUT
(fixtures/models/onnx): OUT/<qa model name>/1/model.onnx, as test.sh copies them.

- onnx_int32_int8_int8: the model.onnx Triton keeps in-tree for autofill_noplatform/onnx/* and
  autofill_noplatform_success/onnx/{empty_config,no_config} (qa/common/gen_qa_models.py
  create_onnx_modelfile, int32 in, int8 out): INPUT0/INPUT1 INT32 [batch,16] -> OUTPUT0 (add),
  OUTPUT1 (sub) INT8 [batch,16], the batch dimension unnamed.
- onnx_nobatch_int32_int8_int8: the same without the batch dimension ([16]), in-tree for
  autofill_noplatform/onnx/bad_max_batch_size and autofill_noplatform_success/onnx/no_config_no_batch.
- onnx_zero_1_float16: qa_identity_model_repository/onnx_zero_1_float16 (gen_qa_identity_models.py
  create_onnx_modelfile), copied into autofill_noplatform_success/onnx/cpu_instance: INPUT0 -> Identity
  -> OUTPUT0, FLOAT16 [batch, var_0, var_1].

Every file is written by onnx (pinned in requirements.txt); nothing is copied from Triton's files.
Byte-identical on a rerun with the same onnx version. Usage: python export.py OUT
"""
import os
import sys

import onnx
from onnx import TensorProto, helper


def _save(out, name, model):
    onnx.checker.check_model(model)
    vdir = os.path.join(out, name, "1")
    os.makedirs(vdir, exist_ok=True)
    onnx.save(model, os.path.join(vdir, "model.onnx"))


def identity(out, dtype="float16", io_cnt=1, max_batch=8, shape=(-1, -1)):
    """gen_qa_identity_models.create_onnx_modelfile: each -1 a distinct dim_param var_N."""
    tp = {"float16": TensorProto.FLOAT16, "float32": TensorProto.FLOAT, "int32": TensorProto.INT32}[dtype]
    name = f"onnx{'_nobatch' if max_batch == 0 else ''}_zero_{io_cnt}_{dtype}"
    batch_dim = [] if max_batch == 0 else [None]
    idx = 0
    nodes, ins, outs = [], [], []

    def conv(shape, idx):
        res = []
        for d in shape:
            if d == -1:
                res.append(f"var_{idx}")
                idx += 1
            else:
                res.append(d)
        return res, idx

    for i in range(io_cnt):
        in_shape, idx = conv(shape, idx)
        out_shape, idx = conv(shape, idx)
        ins.append(helper.make_tensor_value_info(f"INPUT{i}", tp, batch_dim + in_shape))
        outs.append(helper.make_tensor_value_info(f"OUTPUT{i}", tp, batch_dim + out_shape))
        nodes.append(helper.make_node("Identity", [f"INPUT{i}"], [f"OUTPUT{i}"]))
    _save(out, name, helper.make_model(helper.make_graph(nodes, name, ins, outs), producer_name="triton"))


def addsub(out, max_batch=8):
    """gen_qa_models.create_onnx_modelfile for int32 inputs and int8 outputs."""
    name = f"onnx{'_nobatch' if max_batch == 0 else ''}_int32_int8_int8"
    batch_dim = [] if max_batch == 0 else [None]
    ins = [helper.make_tensor_value_info(f"INPUT{i}", TensorProto.INT32, batch_dim + [16]) for i in (0, 1)]
    outs = [helper.make_tensor_value_info(f"OUTPUT{i}", TensorProto.INT8, batch_dim + [16]) for i in (0, 1)]
    nodes = [
        helper.make_node("Identity", ["INPUT0"], ["_INPUT0"]),
        helper.make_node("Identity", ["INPUT1"], ["_INPUT1"]),
        helper.make_node("Add", ["_INPUT0", "_INPUT1"], ["CAST0"]),
        helper.make_node("Sub", ["_INPUT0", "_INPUT1"], ["CAST1"]),
        helper.make_node("Cast", ["CAST0"], ["OUTPUT0"], to=TensorProto.INT8),
        helper.make_node("Cast", ["CAST1"], ["OUTPUT1"], to=TensorProto.INT8),
    ]
    _save(out, name, helper.make_model(helper.make_graph(nodes, name, ins, outs), producer_name="triton"))


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = os.path.abspath(argv[0])
    identity(out)
    addsub(out, 8)
    addsub(out, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
