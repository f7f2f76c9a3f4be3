// The Python that `--run-python-autocomplete` runs, written for tritonc (not copied from python_backend):
// a stand-in `triton_python_backend_utils` whose ModelConfig records each helper call (and keeps the
// config up to date, so a script that reads as_dict() sees what the backend's would), and a runner
// that refuses the network, imports model.py as the stub does, calls
// TritonPythonModel.auto_complete_config, and prints what it did as one JSON line on the real stdout.
// The refusals themselves are judged in TypeScript (src/triton/backends/python/autocomplete-script.ts), from
// the recorded calls, with python_backend's messages.

/** triton_python_backend_utils, as far as auto_complete_config and a model.py's import need it. */
export const STAND_IN_UTILS = `# A stand-in for python_backend's triton_python_backend_utils, written by tritonc: it records the
# calls auto_complete_config makes on the config, for tritonc to judge. It is not python_backend.
import copy
import json
import sys

_calls = []
_model_dir = None
_script = None


def get_model_dir():
    return _model_dir


def _value(v, depth=0):
    if depth > 32:
        return {"t": "unknown", "why": "a value nested too deeply"}
    if isinstance(v, bool):
        return {"t": "bool", "v": v}
    if isinstance(v, int):
        if abs(v) > 2**53 - 1:
            return {"t": "unknown", "why": "an integer too large to follow"}
        return {"t": "int", "v": v}
    if isinstance(v, float):
        return {"t": "float", "v": v}
    if isinstance(v, str):
        return {"t": "str", "v": v}
    if v is None:
        return {"t": "none"}
    if isinstance(v, list):
        return {"t": "list", "items": [_value(x, depth + 1) for x in v[:10000]]}
    if isinstance(v, tuple):
        return {"t": "tuple", "items": [_value(x, depth + 1) for x in v[:10000]]}
    if isinstance(v, dict):
        return {"t": "dict", "entries": [[_value(k, depth + 1), _value(x, depth + 1)] for k, x in list(v.items())[:10000]]}
    return {"t": "unknown", "why": "a value of type " + type(v).__name__}


class ModelConfig:
    def __init__(self, model_config):
        self._model_config = json.loads(model_config)

    def as_dict(self):
        return self._model_config

    def _record(self, method, *args):
        line, frame = 0, sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == _script:
                line = frame.f_lineno
                break
            frame = frame.f_back
        _calls.append({"method": method, "args": [_value(a) for a in args], "line": line})

    def set_max_batch_size(self, max_batch_size):
        self._record("set_max_batch_size", max_batch_size)
        if isinstance(max_batch_size, int) and self._model_config.get("max_batch_size", 0) <= max_batch_size:
            self._model_config["max_batch_size"] = max_batch_size

    def set_dynamic_batching(self):
        self._record("set_dynamic_batching")
        if "sequence_batching" not in self._model_config and "ensemble_scheduling" not in self._model_config:
            self._model_config.setdefault("dynamic_batching", {})

    def _add(self, side, tensor):
        self._record("add_" + side, tensor)
        if not isinstance(tensor, dict) or "name" not in tensor:
            return
        for current in self._model_config.setdefault(side, []):
            if current.get("name") == tensor["name"]:
                for key in ("data_type", "dims", "optional"):
                    if key in tensor:
                        current[key] = copy.deepcopy(tensor[key])
                return
        self._model_config[side].append(copy.deepcopy(tensor))

    def add_input(self, input):
        self._add("input", input)

    def add_output(self, output):
        self._add("output", output)

    def set_model_transaction_policy(self, transaction_policy_dict):
        self._record("set_model_transaction_policy", transaction_policy_dict)
        policy = self._model_config.setdefault("model_transaction_policy", {})
        if isinstance(transaction_policy_dict, dict) and "decoupled" in transaction_policy_dict and "decoupled" not in policy:
            policy["decoupled"] = transaction_policy_dict["decoupled"]


class _Anything:
    """What model.py may name at import time from the module (Tensor, InferenceResponse, ...): inert."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return _Anything()

    def __getattr__(self, name):
        return _Anything()


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return type(name, (_Anything,), {})
`;

/** The runner: argv = model.py's path, the model directory, the config's JSON. */
export const RUNNER = `import importlib.util
import json
import os
import socket
import sys
import traceback

MARK = "@@tritonc-auto-complete@@"


def refuse(*args, **kwargs):
    raise OSError("network access is refused while tritonc runs auto_complete_config")


class NoSocket(socket.socket):
    def __init__(self, *args, **kwargs):
        refuse()


socket.socket = NoSocket
socket.create_connection = refuse
socket.socketpair = refuse
socket.getaddrinfo = refuse
socket.fromfd = refuse
try:
    import _socket

    _socket.socket = NoSocket
    _socket.getaddrinfo = refuse
except Exception:
    pass

real_stdout = sys.stdout
sys.stdout = sys.stderr
script, model_dir, config_json = sys.argv[1], sys.argv[2], sys.stdin.read()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_python_backend_utils as pb_utils

pb_utils._model_dir = model_dir
pb_utils._script = script
out = {"defines": False, "calls": pb_utils._calls}
try:
    sys.path.insert(1, os.path.dirname(script))
    spec = importlib.util.spec_from_file_location("model", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
except BaseException as e:
    out["importError"] = type(e).__name__ + ": " + str(e)[:2000]
else:
    cls = getattr(module, "TritonPythonModel", None)
    if cls is None:
        out["importError"] = "model.py defines no TritonPythonModel"
    elif hasattr(cls, "auto_complete_config"):
        out["defines"] = True
        code = getattr(getattr(cls, "auto_complete_config"), "__code__", None)
        if code is not None and code.co_filename == script:
            out["defLine"] = code.co_firstlineno
        config = pb_utils.ModelConfig(config_json)
        try:
            result = cls.auto_complete_config(config)
            out["returns"] = "config" if isinstance(result, pb_utils.ModelConfig) else "other"
        except BaseException as e:
            out["raised"] = type(e).__name__ + ": " + str(e)[:2000]
            out["at"] = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == script][-1:] or [1]
real_stdout.write(MARK + json.dumps(out) + "\\n")
real_stdout.flush()
`;
