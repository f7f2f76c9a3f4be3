#!/usr/bin/env bash
# Usage: start.sh REPO_DIR HTTP_PORT GRPC_PORT [METRICS_PORT|off] [extra tritonserver args...]
# Starts tritonserver 2.51.0 (from the venv made by setup.sh) in the foreground, on 127.0.0.1,
# CPU only, explicit model control. Run it in the background yourself (start.sh ... &) and
# poll http://127.0.0.1:HTTP_PORT/v2/health/ready for 200. Its Python backend's /dev/shm regions are
# named triton_test_<pid>_<n> (or TRITON_SHM_PREFIX<n>): servers started side by side with the default
# prefix take each other's regions, and one of them crashes (seen with 2.51.0: "Signal (11) received").
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${TRITON_VENV:-$HERE/../../.venv-triton}"
BACKENDS="${TRITON_BACKENDS:-$VENV/triton-backends}"
[ $# -ge 3 ] || { echo "usage: $0 REPO_DIR HTTP_PORT GRPC_PORT [METRICS_PORT|off] [extra args]" >&2; exit 2; }
REPO="$(cd "$1" && pwd)"; HTTP_PORT="$2"; GRPC_PORT="$3"; shift 3
METRICS=(--allow-metrics=false)
if [ $# -ge 1 ]; then
  if [ "$1" != off ]; then METRICS=(--allow-metrics=true --allow-gpu-metrics=false --metrics-address=127.0.0.1 --metrics-port="$1"); fi
  shift
fi
SITE="$("$VENV/bin/python" -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')"
DIST="$SITE/pytriton/tritonserver"
# Shared libraries bundled in the wheel (RPATH already points there; this is belt and braces,
# and mirrors what pytriton itself does).
export LD_LIBRARY_PATH="$SITE/nvidia_pytriton.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The PyTorch and OpenVINO backends need libtorch_cpu and OpenVINO, from the exporters' venv
# (scripts/model-exports/setup.sh: torch 2.5.1, openvino 2024.5.0), used where they are: libtorch_cpu
# finds libcudart and libcupti by its own RPATH relative to torch/lib.
EXPORTS="${EXPORTS_VENV:-$HERE/../../.venv-exports}"
EXPORTS_SITE="$EXPORTS/lib/python3.11/site-packages"
for lib in "$EXPORTS_SITE/torch/lib" "$EXPORTS_SITE/openvino/libs"; do
  [ -d "$lib" ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$lib"
done
# The python backend stub embeds Debian's libpython3.X; with the venv's bin first on PATH the
# embedded interpreter finds venv/bin/python3 -> pyvenv.cfg and so the venv's site-packages
# (numpy is required by triton_python_backend_utils).
export PATH="$VENV/bin:$PATH"
exec "$DIST/bin/tritonserver" \
  --model-repository="$REPO" \
  --model-control-mode=explicit \
  --backend-directory="$BACKENDS" \
  --cache-directory="$DIST/caches" \
  --http-address=127.0.0.1 --http-port="$HTTP_PORT" \
  --grpc-address=127.0.0.1 --grpc-port="$GRPC_PORT" \
  "${METRICS[@]}" \
  --pinned-memory-pool-byte-size=0 \
  --cuda-memory-pool-byte-size=0:0 \
  --min-supported-compute-capability=0 \
  --exit-timeout-secs=5 \
  --backend-config=python,shm-region-prefix-name="${TRITON_SHM_PREFIX:-triton_test_$$_}" \
  "$@"
