#!/usr/bin/env bash
# Create a venv with tritonserver 2.51.0 (from PyPI nvidia-pytriton 0.7.0) and a
# backend directory whose python backend has the stub for this Python.
# Idempotent: re-running only fills in what is missing.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The venv lives beside the checkout's node_modules (ignored by git); TRITON_VENV puts it elsewhere.
VENV="${TRITON_VENV:-$HERE/../../.venv-triton}"
BACKENDS="${TRITON_BACKENDS:-$VENV/triton-backends}"
PY=/usr/bin/python3

# Debian packages: python3-venv (venv + ensurepip) and libpython3.X (needed by the stub).
PYVER="$($PY -c 'import sys;print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
need=()
dpkg -s python3-venv >/dev/null 2>&1 || need+=(python3-venv)
dpkg -s "libpython${PYVER}" >/dev/null 2>&1 || need+=("libpython${PYVER}")
dpkg -s curl >/dev/null 2>&1 || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
fi

[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
if ! "$VENV/bin/python" -c 'import importlib.metadata as m; assert m.version("nvidia-pytriton")=="0.7.0"; import numpy; assert numpy.__version__=="1.26.4"' 2>/dev/null; then
  # --no-deps: the server needs only the wheel's binaries/libs and numpy (for
  # triton_python_backend_utils in the stub). pytriton's own Python deps (tritonclient,
  # grpcio, pydantic, ...) are not used here; skipping them saves ~120 MB.
  "$VENV/bin/pip" install --disable-pip-version-check -q --no-deps nvidia-pytriton==0.7.0 numpy==1.26.4
fi

# The generated Python clients' runtime (tritonclient[http,grpc]) and their type checker (mypy), for
# test/client/python-*.test.ts and test/server/client-python*-real-triton.test.ts: every package
# pinned in client-requirements.txt, installed without resolving (the file is the whole set).
REQS="$HERE/client-requirements.txt"
if ! "$VENV/bin/python" - "$REQS" <<'PY' 2>/dev/null
import importlib.metadata as m, re, sys
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, version = line.split("==")
        if m.version(re.sub(r"\[.*\]", "", name)) != version:
            sys.exit(1)
PY
then
  "$VENV/bin/pip" install --disable-pip-version-check -q --no-deps -r "$REQS"
fi

SITE="$("$VENV/bin/python" -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')"
DIST="$SITE/pytriton/tritonserver"
STUB="$DIST/python_backend_stubs/$PYVER/triton_python_backend_stub"
[ -x "$DIST/bin/tritonserver" ] || { echo "tritonserver binary missing in $DIST" >&2; exit 1; }
[ -x "$STUB" ] || { echo "no python backend stub for Python $PYVER in $DIST/python_backend_stubs" >&2; exit 1; }

# The wheel ships backends/python without the stub (pytriton copies the stub in at run
# time). Build our own backend dir of symlinks instead of writing into the wheel. The RPATHs
# ($ORIGIN/../../../../nvidia_pytriton.libs) still resolved in testing; start.sh also sets
# LD_LIBRARY_PATH to nvidia_pytriton.libs, as pytriton does.
mkdir -p "$BACKENDS/python"
ln -sfn "$DIST/backends/python/libtriton_python.so" "$BACKENDS/python/libtriton_python.so"
ln -sfn "$DIST/backends/python/triton_python_backend_utils.py" "$BACKENDS/python/triton_python_backend_utils.py"
ln -sfn "$STUB" "$BACKENDS/python/triton_python_backend_stub"

# Triton's own ONNX Runtime, PyTorch and OpenVINO backends (r24.10, CPU only, built for this server;
# ../shared/triton-backends, or TRITON_REAL_BACKENDS): links beside the Python backend. The ONNX Runtime
# backend finds libonnxruntime.so.1 beside it ($ORIGIN), taken from npm's onnxruntime-node (the
# checkout's node_modules, after npm ci); libtorch and OpenVINO come from .venv-exports at start
# (start.sh). Without them only the Python backend is laid out; under CI=true that is a failure.
REAL="${TRITON_REAL_BACKENDS:-$HERE/../../../shared/triton-backends}/r24.10"
ORT_LIB="$HERE/../../node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"
if [ -f "$REAL/onnxruntime/libtriton_onnxruntime.so" ]; then
  for backend in onnxruntime pytorch openvino; do
    mkdir -p "$BACKENDS/$backend"
    ln -sfn "$(cd "$REAL/$backend" && pwd -P)/libtriton_$backend.so" "$BACKENDS/$backend/libtriton_$backend.so"
  done
  [ -f "$ORT_LIB" ] || { echo "no $ORT_LIB: run npm ci first (onnxruntime-node 1.30.0)" >&2; exit 1; }
  ln -sfn "$(cd "$(dirname "$ORT_LIB")" && pwd -P)/libonnxruntime.so.1" "$BACKENDS/onnxruntime/libonnxruntime.so.1"
elif [ "${CI:-}" = true ]; then
  echo "no Triton backends at $REAL (set TRITON_REAL_BACKENDS to the folder holding r24.10/)" >&2
  exit 1
else
  echo "note: no Triton backends at $REAL: only the Python backend is laid out" >&2
fi

if ldd "$DIST/bin/tritonserver" "$DIST/backends/python/libtriton_python.so" "$STUB" | grep -q 'not found'; then
  ldd "$DIST/bin/tritonserver" "$DIST/backends/python/libtriton_python.so" "$STUB" | grep 'not found' >&2
  exit 1
fi
echo "tritonserver: $DIST/bin/tritonserver"
echo "backends:     $BACKENDS"
