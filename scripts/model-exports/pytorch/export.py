"""TorchScript fixtures for tritonc's PyTorch reader (src/pytorch), written by torch itself.

Usage:  python export.py OUT_DIR

Writes OUT_DIR/<model>/1/model.pt for:
- libtorch_float32_float32_float32: Triton's qa AddSubNet, as server qa/common/gen_qa_models.py
  create_libtorch_modelfile makes it (the all-tensor branch; what qa/L0_model_config's pytorch cases
  use): forward(self, INPUT0, INPUT1) -> (INPUT0 + INPUT1, INPUT0 - INPUT1), each cast to float32.
- libtorch_named: forward(self, image: Tensor, scale: List[Tensor]) -> Tuple[Tensor, Tensor]: named
  arguments (which configs may use as input names), a List argument, and a Linear layer's weights
  under data/.
- libtorch_optional: forward(self, x: Tensor, mask: Optional[Tensor]) -> Tensor: an Optional argument,
  which pytorch_backend refuses at load.
- libtorch_dict: forward(self, inputs: Dict[str, Tensor]) -> Dict[str, Tensor]: the backend's dict mode.
- libtorch_two_dicts: forward(self, a: Dict[str, Tensor], b: Dict[str, Tensor]) -> Tensor: which the
  backend refuses ("Multiple inputs of kind DictType were detected").
and two files Triton does not load, which the reader must refuse with the fix:
- torch_save_checkpoint/1/model.pt: torch.save(state_dict) (a ZIP archive without code/);
- torch_export_program/1/model.pt2: torch.export.save(torch.export.export(...)) (a torch.export
  program, not an AOTInductor package);
and OUT_DIR/expected.json: each model's forward signature as torch reads it back (argument names and
types, the return type), which the reader must match. Byte-identical on a rerun with the same torch.
"""
import json
import os
import sys
from typing import Dict, List, Optional, Tuple

import torch
from torch import nn


class AddSubNet(nn.Module):
    def __init__(self, *args):
        self.output0_dtype = args[0][0]
        self.output1_dtype = args[0][1]
        self.swap = args[0][2]
        super(AddSubNet, self).__init__()

    def forward(self, INPUT0, INPUT1):
        op0 = (INPUT0 + INPUT1 if not self.swap else INPUT0 - INPUT1).to(self.output0_dtype)
        op1 = (INPUT0 - INPUT1 if not self.swap else INPUT0 + INPUT1).to(self.output1_dtype)
        return op0, op1


class NamedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 2)

    def forward(self, image: torch.Tensor, scale: List[torch.Tensor]) -> Tuple[torch.Tensor, torch.Tensor]:
        y = self.linear(image)
        return y * scale[0], y


class OptionalNet(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor]) -> torch.Tensor:
        if mask is not None:
            return x * mask
        return x


class DictNet(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, inputs: Dict[str, torch.Tensor]) -> Dict[str, torch.Tensor]:
        return {"sum": inputs["a"] + inputs["b"], "diff": inputs["a"] - inputs["b"]}


class TwoDictNet(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: Dict[str, torch.Tensor], b: Dict[str, torch.Tensor]) -> torch.Tensor:
        return a["x"] + b["x"]


def save(out, name, module):
    torch.manual_seed(0)
    vdir = os.path.join(out, name, "1")
    os.makedirs(vdir, exist_ok=True)
    path = os.path.join(vdir, "model.pt")
    torch.jit.script(module).save(path)
    loaded = torch.jit.load(path)
    schema = loaded.forward.schema
    return {
        "file": f"{name}/1/model.pt",
        "arguments": [{"name": a.name, "type": a.type.annotation_str} for a in schema.arguments],
        "returns": [r.type.annotation_str for r in schema.returns],
    }


def fix_zip_times(path):
    """torch.export.save writes through Python's zipfile, which stamps the time: rewrite it with a fixed one."""
    import zipfile
    with zipfile.ZipFile(path) as z:
        items = [(i, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w") as z:
        for info, data in items:
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type = info.compress_type
            z.writestr(fixed, data)


def main():
    # TorchScript prints a module's constants in set order: a fixed hash seed makes the bytes repeat.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    expected = {
        "torch": torch.__version__,
        "models": {
            "libtorch_float32_float32_float32": save(out, "libtorch_float32_float32_float32", AddSubNet((torch.float32, torch.float32, False))),
            "libtorch_named": save(out, "libtorch_named", NamedNet()),
            "libtorch_optional": save(out, "libtorch_optional", OptionalNet()),
            "libtorch_dict": save(out, "libtorch_dict", DictNet()),
            "libtorch_two_dicts": save(out, "libtorch_two_dicts", TwoDictNet()),
        },
    }
    ckpt = os.path.join(out, "torch_save_checkpoint", "1")
    os.makedirs(ckpt, exist_ok=True)
    torch.manual_seed(0)
    torch.save(nn.Linear(4, 2).state_dict(), os.path.join(ckpt, "model.pt"))
    prog = os.path.join(out, "torch_export_program", "1")
    os.makedirs(prog, exist_ok=True)
    torch.manual_seed(0)
    ep = torch.export.export(AddSubNet((torch.float32, torch.float32, False)), (torch.ones(1, 16), torch.ones(1, 16)))
    torch.export.save(ep, os.path.join(prog, "model.pt2"))
    fix_zip_times(os.path.join(prog, "model.pt2"))
    expected["refused"] = ["torch_save_checkpoint/1/model.pt", "torch_export_program/1/model.pt2"]
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")
    for name, m in expected["models"].items():
        print(f"{name}: forward({', '.join(a['name'] + ': ' + a['type'] for a in m['arguments'])}) -> {', '.join(m['returns'])}")


if __name__ == "__main__":
    main()
