#!/usr/bin/env python3
"""Reference text-format parser for tritonc's differential tests: Google's protobuf text_format.

Compiles schemas/model_config.proto with protoc, then reads JSON lines {"id", "text"} on stdin and
writes JSON lines {"id", "ok", "value" | "error"} where value is MessageToDict with proto field names.
Run with Debian's python3 (python3-protobuf); protoc comes from protobuf-compiler.
"""
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    proto = sys.argv[1]
    out = tempfile.mkdtemp(prefix="tritonc-ref-")
    subprocess.run(
        ["protoc", f"--proto_path={os.path.dirname(os.path.abspath(proto))}", f"--python_out={out}", os.path.basename(proto)],
        check=True,
    )
    sys.dont_write_bytecode = True
    sys.path.insert(0, out)
    pb2 = importlib.import_module(os.path.splitext(os.path.basename(proto))[0] + "_pb2")
    # The compiled module is loaded: its temporary directory is not needed any more.
    shutil.rmtree(out, ignore_errors=True)
    from google.protobuf import json_format, text_format

    for line in sys.stdin:
        req = json.loads(line)
        msg = pb2.ModelConfig()
        try:
            text_format.Parse(req["text"], msg)
            value = json_format.MessageToDict(msg, preserving_proto_field_name=True)
            resp = {"id": req["id"], "ok": True, "value": value}
        except Exception as e:  # noqa: BLE001 - any parse failure is the answer
            resp = {"id": req["id"], "ok": False, "error": str(e)}
        sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
