#!/usr/bin/env python3
"""Export the TensorFlow models of Triton's historical qa/L0_model_config TensorFlow cases (the
suite before the TensorFlow backend left it at 25.03) into OUT, as test.sh copied them:

  OUT/savedmodel_int32_int8_int8/1/model.savedmodel/saved_model.pb
      gen_qa_models.create_savedmodel_modelfile (TF1 graph + simple_save): signature
      'serving_default', tag 'serve'; INPUT0/INPUT1 -> TENSOR_INPUT0:0/TENSOR_INPUT1:0 DT_INT32
      [-1,16]; OUTPUT0/OUTPUT1 -> TENSOR_OUTPUT0:0/TENSOR_OUTPUT1:0 DT_INT8 [-1,16].
  OUT/savedmodel_zero_2_float32/1/model.savedmodel/saved_model.pb
      gen_qa_reshape_models.create_tf_modelfile ([1],[8] reshaped to [],[4,1,2]), max batch 8:
      INPUT0 DT_FLOAT [-1] -> OUTPUT0, INPUT1 DT_FLOAT [-1,4,1,2] -> OUTPUT1 (identities).
  OUT/savedmodel_nobatch_images_float32/1/model.savedmodel/saved_model.pb
      a small stand-in for the 1.2 MB in-tree model of tensorflow_savedmodel/no_config_no_batch:
      input -> images:0 DT_FLOAT [1,256,256,256,1]; output -> Reshape_1:0 DT_FLOAT [1,256,256,256,14].
  OUT/savedmodel_tf2_scale_float32/1/model.savedmodel/
      a TF2 tf.Module saved with tf.saved_model.save (object graph, functions, fingerprint.pb) with
      one variable of 16 floats: signature 'serving_default' x DT_FLOAT [-1,16] -> output_0
      DT_FLOAT [-1,16]; its variables/ holds the checkpoint the reader sizes without reading.
  OUT/savedmodel_unknown_rank_float32/1/model.savedmodel/saved_model.pb
      INPUT0 DT_FLOAT of unknown rank (placeholder shape None) -> OUTPUT0: the backend takes such a
      tensor's shape from the config.
  OUT/savedmodel_scalar_float32/1/model.savedmodel/saved_model.pb
      INPUT0 DT_FLOAT [] (a scalar: no dims) -> OUTPUT0: rank 0 too, to the backend.
  OUT/savedmodel_complex64/1/model.savedmodel/saved_model.pb
      INPUT0 DT_COMPLEX64 [-1,4] -> OUTPUT0: a type the backend cannot serve.
  OUT/graphdef_int32_int8_int8/1/model.graphdef, OUT/graphdef_zero_2_float32/1/model.graphdef
      the GraphDef forms (tritonc does not read GraphDefs; they are there for the cases that use them).

The TF1 models have no variables (add/sub/identity/reshape only), so simple_save's empty variables/ directory
is removed: git keeps no empty directory and the reader does not need one. Every file is written by
TensorFlow itself; a rerun with the same versions writes the same bytes.

Usage: python export.py OUT
"""
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402


def _fresh(target):
    if os.path.exists(target):
        shutil.rmtree(target)
    os.makedirs(os.path.dirname(target), exist_ok=True)


def _simple_save(graph, target, inputs, outputs):
    _fresh(target)
    with tf.compat.v1.Session(graph=graph) as sess:
        tf.compat.v1.saved_model.simple_save(sess, target, inputs=inputs, outputs=outputs)
    variables = os.path.join(target, "variables")
    if os.path.isdir(variables) and not os.listdir(variables):
        os.rmdir(variables)


def addsub(out, savedmodel):
    name = f"{'savedmodel' if savedmodel else 'graphdef'}_int32_int8_int8"
    vdir = os.path.join(out, name, "1")
    g = tf.Graph()
    with g.as_default():
        prefix = "TENSOR_" if savedmodel else ""
        in0 = tf.compat.v1.placeholder(tf.int32, [None, 16], f"{prefix}INPUT0")
        in1 = tf.compat.v1.placeholder(tf.int32, [None, 16], f"{prefix}INPUT1")
        add = tf.add(in0, in1, "ADD")
        sub = tf.subtract(in0, in1, "SUB")
        cast0 = tf.cast(add, tf.int8, "CAST0")
        cast1 = tf.cast(sub, tf.int8, "CAST1")
        out0 = tf.identity(cast0, f"{prefix}OUTPUT0")
        out1 = tf.identity(cast1, f"{prefix}OUTPUT1")
    if savedmodel:
        _simple_save(g, os.path.join(vdir, "model.savedmodel"),
                     {"INPUT0": in0, "INPUT1": in1}, {"OUTPUT0": out0, "OUTPUT1": out1})
    else:
        os.makedirs(vdir, exist_ok=True)
        tf.io.write_graph(g.as_graph_def(), vdir, "model.graphdef", as_text=False)
    return name


def zero_2_float32(out, savedmodel):
    name = f"{'savedmodel' if savedmodel else 'graphdef'}_zero_2_float32"
    vdir = os.path.join(out, name, "1")
    g = tf.Graph()
    ins, outs = {}, {}
    with g.as_default():
        for i, shape in enumerate(([], [4, 1, 2])):
            tin = tf.compat.v1.placeholder(tf.float32, [None] + shape, f"INPUT{i}")
            ins[f"INPUT{i}"] = tin
            outs[f"OUTPUT{i}"] = tf.identity(tin, name=f"OUTPUT{i}")
    if savedmodel:
        _simple_save(g, os.path.join(vdir, "model.savedmodel"), ins, outs)
    else:
        os.makedirs(vdir, exist_ok=True)
        tf.io.write_graph(g.as_graph_def(), vdir, "model.graphdef", as_text=False)
    return name


def nobatch_images(out):
    name = "savedmodel_nobatch_images_float32"
    g = tf.Graph()
    with g.as_default():
        images = tf.compat.v1.placeholder(tf.float32, [1, 256, 256, 256, 1], "images")
        tiled = tf.tile(images, [1, 1, 1, 1, 14], name="Tile")
        flat = tf.reshape(tiled, [-1, 14], name="Reshape")
        out_t = tf.reshape(flat, [1, 256, 256, 256, 14], name="Reshape_1")
    _simple_save(g, os.path.join(out, name, "1", "model.savedmodel"), {"input": images}, {"output": out_t})
    return name


def identity(out, name, dtype, shape):
    g = tf.Graph()
    with g.as_default():
        tin = tf.compat.v1.placeholder(dtype, shape, "INPUT0")
        tout = tf.identity(tin, name="OUTPUT0")
    _simple_save(g, os.path.join(out, name, "1", "model.savedmodel"), {"INPUT0": tin}, {"OUTPUT0": tout})
    return name


class _Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.range(16, dtype=tf.float32), name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 16], tf.float32, name="x")])
    def __call__(self, x):
        return x * self.w


def tf2_scale(out):
    name = "savedmodel_tf2_scale_float32"
    target = os.path.join(out, name, "1", "model.savedmodel")
    _fresh(target)
    module = _Scale()
    tf.saved_model.save(module, target, signatures={"serving_default": module.__call__})
    return name


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = os.path.abspath(argv[1])
    os.makedirs(out, exist_ok=True)
    names = [addsub(out, True), zero_2_float32(out, True), nobatch_images(out), tf2_scale(out),
             identity(out, "savedmodel_unknown_rank_float32", tf.float32, None),
             identity(out, "savedmodel_scalar_float32", tf.float32, []),
             identity(out, "savedmodel_complex64", tf.complex64, [None, 4]),
             addsub(out, False), zero_2_float32(out, False)]
    for name in names:
        for root, _dirs, files in sorted(os.walk(os.path.join(out, name))):
            for fn in sorted(files):
                p = os.path.join(root, fn)
                print(f"{os.path.getsize(p):>8}  {os.path.relpath(p, out)}")
    print(f"tensorflow {tf.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
