#!/usr/bin/env bash
# Triton's core library (libtritonserver.so) built from source for r24.10, r26.06 and core main at
# 73aad7c (the shared triton-cores folder, or TRITON_CORES_SOURCE), laid out for the tests in the
# ignored folder .triton-cores/ (TRITON_CORES puts it elsewhere):
#   driver                      the folder's driver.c, compiled here (it loads a repository in-process
#                               and prints core's verdict per model as JSON lines)
#   cores/<name>/libtritonserver.so   links to each core (LD_LIBRARY_PATH picks one)
#   backends/onnxruntime/       Triton's ONNX Runtime backend (a copy: its RUNPATH is $ORIGIN) and
#                               libonnxruntime.so.1 from the onnxruntime-node package of npm ci
#   backends/stub/              the stub backend, which lets core judge any other backend's config
# test/support/triton-core.ts runs them. Idempotent: re-running only fills in what is missing.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SRC="${TRITON_CORES_SOURCE:-$ROOT/../shared/triton-cores}"
OUT="${TRITON_CORES:-$ROOT/.triton-cores}"
CORES=(r24.10 r26.06 main-73aad7c)

[ -f "$SRC/driver.c" ] || { echo "no Triton cores at $SRC (set TRITON_CORES_SOURCE to the triton-cores folder)" >&2; exit 1; }

# Debian packages: the cores' runtime (libprotobuf.so.32, libnuma.so.1) and g++ for the driver
# (its headers are C++ only).
need=()
dpkg -s libprotobuf32 >/dev/null 2>&1 || need+=(libprotobuf32)
dpkg -s libnuma1 >/dev/null 2>&1 || need+=(libnuma1)
command -v g++ >/dev/null 2>&1 || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

mkdir -p "$OUT/cores" "$OUT/backends/onnxruntime" "$OUT/backends/stub"
for core in "${CORES[@]}"; do
  [ -f "$SRC/$core/lib/libtritonserver.so" ] || { echo "no $SRC/$core/lib/libtritonserver.so" >&2; exit 1; }
  ln -sfn "$SRC/$core/lib" "$OUT/cores/$core"
done
if [ ! -x "$OUT/driver" ] || [ "$SRC/driver.c" -nt "$OUT/driver" ]; then
  g++ -x c++ -O2 -I "$SRC/include" "$SRC/driver.c" -o "$OUT/driver.tmp" -L "$SRC/r26.06/lib" -ltritonserver
  mv "$OUT/driver.tmp" "$OUT/driver"
fi
# The ONNX Runtime backend finds libonnxruntime.so.1 beside it ($ORIGIN): both are copies, so that
# $ORIGIN is this folder whatever the links would resolve to.
cmp -s "$SRC/backends/onnxruntime/libtriton_onnxruntime.so" "$OUT/backends/onnxruntime/libtriton_onnxruntime.so" ||
  install -m 0755 "$SRC/backends/onnxruntime/libtriton_onnxruntime.so" "$OUT/backends/onnxruntime/libtriton_onnxruntime.so"
ORT="$ROOT/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"
[ -f "$ORT" ] || { echo "no $ORT: run npm ci first" >&2; exit 1; }
cmp -s "$ORT" "$OUT/backends/onnxruntime/libonnxruntime.so.1" || install -m 0755 "$ORT" "$OUT/backends/onnxruntime/libonnxruntime.so.1"
cmp -s "$SRC/backends/stub/libtriton_stub.so" "$OUT/backends/stub/libtriton_stub.so" ||
  install -m 0755 "$SRC/backends/stub/libtriton_stub.so" "$OUT/backends/stub/libtriton_stub.so"

# Each core answers: its server version, read through the driver on an empty repository.
empty="$(mktemp -d)"
trap 'rm -rf "$empty"' EXIT
for core in "${CORES[@]}"; do
  answer="$(LD_LIBRARY_PATH="$OUT/cores/$core" TMPDIR="$empty" "$OUT/driver" -r "$empty" -b "$OUT/backends")"
  version="$(printf '%s\n' "$answer" | grep -o '"version":"[^"]*"' | head -n 1 || true)"
  [ -n "$version" ] || { echo "the $core core did not answer: $answer" >&2; exit 1; }
  echo "$core: $version"
done
