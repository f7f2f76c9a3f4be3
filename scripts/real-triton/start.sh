#!/usr/bin/env bash
# Usage: start.sh REPO_DIR HTTP_PORT GRPC_PORT [METRICS_PORT|off] [extra tritonserver args...]
# Starts tritonserver 2.51.0 (from the venv made by setup.sh, through ./tritonserver, which gives it
# its libraries and backends) in the foreground, on 127.0.0.1, CPU only, explicit model control. Run
# it in the background yourself (start.sh ... &) and poll http://127.0.0.1:HTTP_PORT/v2/health/ready
# for 200. Its Python backend's /dev/shm regions are named triton_test_<pid>_<n> (or
# TRITON_SHM_PREFIX<n>): servers started side by side with the default prefix take each other's
# regions, and one of them crashes (seen with 2.51.0: "Signal (11) received").
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 3 ] || { echo "usage: $0 REPO_DIR HTTP_PORT GRPC_PORT [METRICS_PORT|off] [extra args]" >&2; exit 2; }
REPO="$(cd "$1" && pwd)"; HTTP_PORT="$2"; GRPC_PORT="$3"; shift 3
METRICS=(--allow-metrics=false)
if [ $# -ge 1 ]; then
  if [ "$1" != off ]; then METRICS=(--allow-metrics=true --allow-gpu-metrics=false --metrics-address=127.0.0.1 --metrics-port="$1"); fi
  shift
fi
exec "$HERE/tritonserver" \
  --model-repository="$REPO" \
  --model-control-mode=explicit \
  --http-address=127.0.0.1 --http-port="$HTTP_PORT" \
  --grpc-address=127.0.0.1 --grpc-port="$GRPC_PORT" \
  "${METRICS[@]}" \
  --backend-config=python,shm-region-prefix-name="${TRITON_SHM_PREFIX:-triton_test_$$_}" \
  "$@"
