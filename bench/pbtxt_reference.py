#!/usr/bin/env python3
"""Times Google's Python text_format on the same inputs as bench/pbtxt.mjs.

argv: proto path, JSON file with {"sets": {name: [texts]}, "repeat": {name: n}}.
Prints JSON {name: {"parse_ms", "print_ms"}}: the fastest of `repeat` passes.
"""
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main():
    proto, spec_path = sys.argv[1], sys.argv[2]
    out = tempfile.mkdtemp(prefix="tritonc-bench-")
    subprocess.run(["protoc", f"--proto_path={os.path.dirname(os.path.abspath(proto))}", f"--python_out={out}", os.path.basename(proto)], check=True)
    sys.dont_write_bytecode = True
    sys.path.insert(0, out)
    pb2 = importlib.import_module("model_config_pb2")
    # The compiled module is loaded: its temporary directory is not needed any more.
    shutil.rmtree(out, ignore_errors=True)
    from google.protobuf import text_format

    with open(spec_path) as f:
        spec = json.load(f)
    result = {}
    for name, texts in spec["sets"].items():
        repeat = spec["repeat"][name]
        parse_best = print_best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            msgs = []
            for t in texts:
                m = pb2.ModelConfig()
                text_format.Parse(t, m)
                msgs.append(m)
            parse_best = min(parse_best, time.perf_counter() - t0)
            t0 = time.perf_counter()
            for m in msgs:
                text_format.MessageToString(m)
            print_best = min(print_best, time.perf_counter() - t0)
        result[name] = {"parse_ms": parse_best * 1000, "print_ms": print_best * 1000}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
