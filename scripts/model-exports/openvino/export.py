#!/usr/bin/env python3
"""Export the OpenVINO IR fixtures (fixtures/models/openvino) with OpenVINO itself.

Usage:  python export.py OUT_DIR

Writes, each as <model>/1/model.xml + model.bin (the version directory Triton loads):
  openvino_fixed_batch    = Triton's qa/openvino_models/fixed_batch (a TF2/Keras model converted by
                            Model Optimizer 2022.1): inputs i32 [1,4] named {Func/PartitionedCall/input/_0:0,
                            input0:0} and {input1, input1:0}; outputs add and sub i32 [1,4]; no layout.
                            Used by every autofill_noplatform/openvino case and the success cases
                            empty_config and no_config.
  openvino_dynamic_batch  = qa/openvino_models/dynamic_batch: the same with layout [N,H] on every input and
                            output (the backend then batches: max_batch_size 4, dims [4]).
  openvino_int8_int8_int8 = gen_qa_models.create_openvino_modelfile + gen_common.openvino_save_model:
                            INPUT0/INPUT1 i8 [8,16], OUTPUT0 = sum, OUTPUT1 = difference (a Reshape by a
                            Const: 16 bytes of weights), no layout; plus output0_labels.txt. Used by
                            autofill_noplatform_success/openvino/partial_config.
  openvino_classifier     = a model as converters write them: f32 pixel_values [?,3,8,8] (NCHW) with the
                            aliases {pixel_values, x:0}, an i64 sequence input with a ranged dim [?,1..128],
                            a MatMul by a 3x10 f32 Const (120 bytes of weights); outputs logits [?,10] and
                            probabilities [?,10] (layout [N,C]); every tensor's batch is dynamic with N.

Deterministic (no random weights): a rerun with the same versions writes the same bytes. The models
are read back and printed as the OpenVINO backend sees them (get_any_name, element type, partial shape,
layout).
"""
import os
import sys

import numpy as np
import openvino as ov

try:  # openvino >= 2025 drops openvino.runtime
    import openvino.opset1 as ops  # type: ignore
    import openvino.opset8 as ops8  # type: ignore
except ImportError:  # pragma: no cover
    import openvino.runtime.opset1 as ops  # type: ignore
    import openvino.runtime.opset8 as ops8  # type: ignore


def save(model, out, name):
    vdir = os.path.join(out, name, "1")
    os.makedirs(vdir, exist_ok=True)
    ov.serialize(model, os.path.join(vdir, "model.xml"), os.path.join(vdir, "model.bin"))
    return name


def addsub_int8(out, max_batch=8, shape=(16,)):
    """gen_qa_models.create_openvino_modelfile (int8, batch dim = max_batch, static) + openvino_save_model."""
    name = "openvino_int8_int8_int8"
    batch = (max_batch,)
    in0 = ops.parameter(shape=batch + shape, dtype=np.int8, name="INPUT0")
    in1 = ops.parameter(shape=batch + shape, dtype=np.int8, name="INPUT1")
    r0 = ops.reshape(ops.add(in0, in1), ops.constant(np.array(batch + shape, dtype=np.int64)), special_zero=False)
    r1 = ops.reshape(ops.subtract(in0, in1), ops.constant(np.array(batch + shape, dtype=np.int64)), special_zero=False)
    op0 = ops.convert(r0, destination_type=np.int8, name="OUTPUT0")
    op1 = ops.convert(r1, destination_type=np.int8, name="OUTPUT1")
    model = ov.Model([op0, op1], [in0, in1], name)
    for idx, o in enumerate(model.outputs):  # gen_common.openvino_save_model's work-around
        o.get_tensor().set_names({f"OUTPUT{idx}"})
    save(model, out, name)
    with open(os.path.join(out, name, "output0_labels.txt"), "w") as f:
        for i in range(shape[0]):
            f.write(f"label{i}\n")
    return name


def tf2_like(out, dynamic):
    """The two IRs of qa/openvino_models: the backend names each tensor by get_any_name(), the smallest of
    its names: 'Func/PartitionedCall/input/_0:0', 'input1', 'Func/PartitionedCall/output/_2:0' and '_3:0'."""
    if dynamic:
        name = "openvino_dynamic_batch"
        in0 = ops.parameter(shape=(1, 4), dtype=np.int32, name="Func/PartitionedCall/input/_0/placeholder_out_port_0")
        in0.output(0).get_tensor().set_names({"Func/PartitionedCall/input/_0:0"})
    else:
        name = "openvino_fixed_batch"
        in0 = ops.parameter(shape=(1, 4), dtype=np.int32, name="input0")
        in0.output(0).get_tensor().set_names({"Func/PartitionedCall/input/_0:0", "input0:0"})
    in1 = ops.parameter(shape=(1, 4), dtype=np.int32, name="input1")
    in1.output(0).get_tensor().set_names({"input1", "input1:0"})
    sub = ops.subtract(in0, in1, name="PartitionedCall/model/tf.math.subtract/Sub")
    sub.output(0).get_tensor().set_names({
        "Func/PartitionedCall/output/_3:0", "Identity_1:0", "PartitionedCall/Identity_1:0",
        "PartitionedCall/model/tf.math.subtract/Sub:0"})
    add = ops.add(in0, in1, name="PartitionedCall/model/tf.math.add/Add")
    add.output(0).get_tensor().set_names({
        "Func/PartitionedCall/output/_2:0", "Identity:0", "PartitionedCall/Identity:0",
        "PartitionedCall/model/tf.math.add/Add:0"})
    r_add = ops.result(add)
    r_add.set_friendly_name("Func/PartitionedCall/output/_2:0")
    r_sub = ops.result(sub)
    r_sub.set_friendly_name("Func/PartitionedCall/output/_3:0")
    model = ov.Model([r_add, r_sub], [in0, in1], name.replace("openvino_", ""))
    if dynamic:
        nh = ov.Layout("NH")
        for p in model.get_parameters():
            p.set_layout(nh)
        for r in model.get_results():
            r.set_layout(nh)
    return save(model, out, name)


def classifier(out):
    """A dynamic-batch model with the name sets converters leave: aliases, a ranged dim, real weights."""
    name = "openvino_classifier"
    pixels = ops.parameter(shape=ov.PartialShape([-1, 3, 8, 8]), dtype=np.float32, name="pixel_values")
    pixels.output(0).get_tensor().set_names({"pixel_values", "x:0"})
    pixels.set_layout(ov.Layout("NCHW"))
    ids = ops.parameter(shape=ov.PartialShape([ov.Dimension(), ov.Dimension(1, 128)]), dtype=np.int64, name="input_ids")
    ids.output(0).get_tensor().set_names({"input_ids"})
    ids.set_layout(ov.Layout("[N,SEQ]"))
    pooled = ops.reduce_mean(pixels, ops.constant(np.array([2, 3], dtype=np.int64)), keep_dims=False)
    weights = ops.constant(np.arange(30, dtype=np.float32).reshape(3, 10) / 30.0)
    logits = ops.matmul(pooled, weights, False, False, name="classifier/MatMul")
    count = ops.convert(ops8.reduce_sum(ids, ops.constant(np.array([1], dtype=np.int64)), keep_dims=True), destination_type=np.float32)
    logits = ops.add(logits, count, name="classifier/add")
    logits.output(0).get_tensor().set_names({"logits", "output_0", "classifier/add:0"})
    probs = ops8.softmax(logits, 1, name="probabilities/Softmax")
    probs.output(0).get_tensor().set_names({"probabilities"})
    r_logits = ops.result(logits)
    r_probs = ops.result(probs)
    model = ov.Model([r_logits, r_probs], [pixels, ids], "classifier")
    nc = ov.Layout("[N,C]")
    for r in model.get_results():
        r.set_layout(nc)
    return save(model, out, name)


def describe(out, names):
    """Each IR read back with OpenVINO, as the backend sees it."""
    core = ov.Core()
    for name in names:
        m = core.read_model(os.path.join(out, name, "1", "model.xml"))

        def rows(ios):
            r = []
            for t in ios:
                lay = ov.layout_helpers.get_layout(t)
                r.append(f"{t.get_any_name()}:{t.get_element_type().get_type_name()}{t.get_partial_shape()}"
                         + (f" layout={lay}" if not lay.empty else ""))
            return ", ".join(r)
        print(f"{name}: inputs {rows(m.inputs)}; outputs {rows(m.outputs)}")


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = os.path.abspath(argv[0])
    os.makedirs(out, exist_ok=True)
    names = [tf2_like(out, dynamic=False), tf2_like(out, dynamic=True), addsub_int8(out), classifier(out)]
    describe(out, names)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
