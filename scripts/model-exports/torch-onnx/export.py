#!/usr/bin/env python3
"""ONNX models exported from PyTorch as Triton's tutorials export an image classifier
(torch.onnx.export, opset 17, input [batch, 3, 224, 224] FP32 named "input", output [batch, 1000]
named "output"), written into OUT (fixtures/models/torch-onnx) as OUT/<name>/1/model.onnx:

- tutorial_classifier: dynamic_axes on the input and the output, as the tutorial asks: it can batch.
- input_only_dynamic: dynamic_axes on the input only, of a forward that flattens with the sizes of
  the example (`y.reshape(1, 8)`): the output's first dim is fixed at 1, the model cannot batch, as
  the tutorial warns. (With torch 2.5's exporter, a forward that keeps the batch symbolic, such as
  tutorial_classifier's, gets a dynamic output from shape inference even when the output is not in
  dynamic_axes; `int(y.shape[0])` or `view(1, -1)` give it an unnamed dim, not 1.)
- output_only_dynamic: dynamic_axes on the output only: the input is fixed at a batch of 1.

The network is tiny (a strided convolution, global average pooling, a linear layer to 1000 classes)
so the files stay small; its weights come from torch.manual_seed(0). Usage: python export.py OUT
"""
import os
import sys

import torch
from torch import nn


class TinyClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, kernel_size=7, stride=4)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 1000)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(torch.relu(self.conv(x))), 1))


class FrozenBatchClassifier(TinyClassifier):
    def forward(self, x):
        y = self.pool(torch.relu(self.conv(x)))
        return self.fc(y.reshape(1, 8))


def export(out, name, dynamic_axes, network=TinyClassifier):
    torch.manual_seed(0)
    model = network().eval()
    vdir = os.path.join(out, name, "1")
    os.makedirs(vdir, exist_ok=True)
    torch.onnx.export(
        model,
        torch.randn(1, 3, 224, 224),
        os.path.join(vdir, "model.onnx"),
        input_names=["input"],
        output_names=["output"],
        dynamic_axes=dynamic_axes,
        opset_version=17,
        dynamo=False,
    )


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = os.path.abspath(argv[0])
    export(out, "tutorial_classifier", {"input": {0: "batch_size"}, "output": {0: "batch_size"}})
    export(out, "input_only_dynamic", {"input": {0: "batch_size"}}, FrozenBatchClassifier)
    export(out, "output_only_dynamic", {"output": {0: "batch_size"}})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
