#!/usr/bin/env bash
# Build, offline from NVIDIA, a Triton image for `tritonc verify --runtime docker --engine podman`
# and the container tests (test/verify/integration.test.ts): Debian 12 (debootstrap minbase bookworm,
# python3) with the real tritonserver 2.51.0 laid out as NVIDIA's image lays it out, under
# /opt/tritonserver: bin/tritonserver, lib/ (the wheel's libraries), backends/{python,onnxruntime,
# pytorch,openvino} (Triton's own r24.10 backends, CPU only, with their frameworks' libraries beside
# them) and caches/. It is imported with `podman import` as $TRITONC_CONTAINER_IMAGE (default
# localhost/tritonc-tritonserver:2.51.0-cpu). What differs from NVIDIA's image: docs/real-triton.md.
#
# Needs, first: scripts/real-triton/setup.sh (.venv-triton and its triton-backends) and
# scripts/model-exports/setup.sh (.venv-exports: torch 2.5.1, openvino 2024.5.0), and root (apt-get,
# debootstrap, rootful podman). Installs Debian 12's podman, runc and debootstrap; changes nothing
# else on the host: podman reads scripts/container/containers.conf through CONTAINERS_CONF.
# Idempotent: an image whose label holds the hash of this build's inputs is kept as it is.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TAG="${TRITONC_CONTAINER_IMAGE:-localhost/tritonc-tritonserver:2.51.0-cpu}"
SUITE=bookworm
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# python3 (3.11) and libpython3.11 for the Python backend's stub (built for 3.11), numpy for its
# triton_python_backend_utils; libgomp1 for OpenVINO's and ONNX Runtime's threads.
INCLUDE=python3,libpython3.11,python3-numpy,libgomp1,ca-certificates
LABEL=dev.tritonc.image-inputs
export CONTAINERS_CONF="$HERE/containers.conf"

need=()
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
# debootstrap checks the archive's signatures with these (it only recommends them).
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || need+=(debian-archive-keyring)
command -v gpgv >/dev/null 2>&1 || need+=(gpgv)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

VENV="${TRITON_VENV:-$ROOT/.venv-triton}"
BACKENDS="${TRITON_BACKENDS:-$VENV/triton-backends}"
EXPORTS_SITE="${EXPORTS_VENV:-$ROOT/.venv-exports}/lib/python3.11/site-packages"
SITE="$VENV/lib/python3.11/site-packages"
DIST="$SITE/pytriton/tritonserver"
STUB="$DIST/python_backend_stubs/3.11/triton_python_backend_stub"
TORCH="$EXPORTS_SITE/torch/lib"
NV="$EXPORTS_SITE/nvidia"
OPENVINO="$EXPORTS_SITE/openvino/libs"

# What goes into /opt/tritonserver, as "destination<TAB>source" (sources resolved through links).
inputs() {
  printf 'bin/tritonserver\t%s\n' "$DIST/bin/tritonserver"
  for f in "$SITE"/nvidia_pytriton.libs/*; do printf 'lib/%s\t%s\n' "${f##*/}" "$f"; done
  printf 'backends/python/libtriton_python.so\t%s\n' "$DIST/backends/python/libtriton_python.so"
  printf 'backends/python/triton_python_backend_utils.py\t%s\n' "$DIST/backends/python/triton_python_backend_utils.py"
  printf 'backends/python/triton_python_backend_stub\t%s\n' "$STUB"
  for b in onnxruntime pytorch openvino; do printf 'backends/%s/libtriton_%s.so\t%s\n' "$b" "$b" "$BACKENDS/$b/libtriton_$b.so"; done
  printf 'backends/onnxruntime/libonnxruntime.so.1\t%s\n' "$BACKENDS/onnxruntime/libonnxruntime.so.1"
  # libtorch_cpu and what it needs (libcudart and libcupti for its profiler; no GPU is used), found
  # beside it through its RPATH's $ORIGIN, as in NVIDIA's image, where backends/pytorch holds libtorch.
  for f in libtorch_cpu.so libc10.so libgomp-a34b3233.so.1; do printf 'backends/pytorch/%s\t%s\n' "$f" "$TORCH/$f"; done
  printf 'backends/pytorch/libcudart.so.12\t%s\n' "$NV/cuda_runtime/lib/libcudart.so.12"
  printf 'backends/pytorch/libcupti.so.12\t%s\n' "$NV/cuda_cupti/lib/libcupti.so.12"
  # OpenVINO's runtime, its CPU plugin, IR frontend and TBB (it loads plugins from beside itself).
  for f in libopenvino.so.2450 libopenvino_intel_cpu_plugin.so libopenvino_ir_frontend.so.2450 libopenvino_onnx_frontend.so.2450 libtbb.so.12 libtbbmalloc.so.2 libtbbbind_2_5.so.3 libhwloc.so.15; do
    printf 'backends/openvino/%s\t%s\n' "$f" "$OPENVINO/$f"
  done
}

missing=0
while IFS=$'\t' read -r dest src; do
  [ -f "$src" ] || { echo "missing $src (for /opt/tritonserver/$dest): run scripts/real-triton/setup.sh and scripts/model-exports/setup.sh first" >&2; missing=1; }
done < <(inputs)
[ "$missing" = 0 ] || exit 1

# The inputs' hash: this script, the Debian suite and packages, and every file copied in.
hash="$( { cat "$HERE/setup.sh"; echo "$SUITE $INCLUDE $MIRROR"; inputs | cut -f1; inputs | cut -f2 | xargs -d '\n' sha256sum | cut -d' ' -f1; (cd "$DIST/caches" && find . -type f -print0 | sort -z | xargs -0r sha256sum); } | sha256sum | cut -c1-32)"
if [ "$(podman image inspect --format "{{index .Labels \"$LABEL\"}}" "$TAG" 2>/dev/null)" = "$hash" ]; then
  echo "image: $TAG (up to date, inputs $hash)"
  exit 0
fi

# The image this build replaces (if any), removed once the new one has its tag.
old="$(podman image inspect --format '{{.Id}}' "$TAG" 2>/dev/null || true)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tritonc-image-XXXXXX")"
# debootstrap mounts proc and sys (and binds /dev in a container) under the root it builds: they are
# unmounted before the work directory goes, and rm stays on this file system whatever is left.
cleanup() {
  for m in proc sys dev/pts dev; do umount -l "$work/rootfs/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
rootfs="$work/rootfs"
echo "debootstrap --variant=minbase $SUITE (about 100 s)"
# The archive's signatures are checked with Debian's keyring, never skipped.
debootstrap --keyring=/usr/share/keyrings/debian-archive-keyring.gpg --variant=minbase --include="$INCLUDE" "$SUITE" "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*

opt="$rootfs/opt/tritonserver"
while IFS=$'\t' read -r dest src; do
  mkdir -p "$(dirname "$opt/$dest")"
  cp -L "$src" "$opt/$dest"
done < <(inputs)
mkdir -p "$opt/caches/local"
cp -rL "$DIST/caches/." "$opt/caches/"

# NVIDIA's image puts tritonserver on PATH and its libraries on LD_LIBRARY_PATH; the wheel's libraries
# are renamed (libtritonserver-717102f0.so), so the backends find them only there.
tar -C "$rootfs" -cf - . | podman import \
  --change "ENV PATH=/opt/tritonserver/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV LD_LIBRARY_PATH=/opt/tritonserver/lib" \
  --change "WORKDIR /opt/tritonserver" \
  --change "LABEL $LABEL=$hash" \
  --change "LABEL dev.tritonc.triton-version=2.51.0" \
  --quiet - "$TAG" >/dev/null
if [ -n "$old" ] && [ "$old" != "$(podman image inspect --format '{{.Id}}' "$TAG")" ]; then
  podman rmi "$old" >/dev/null 2>&1 || echo "note: the previous image $old is still there (in use?)" >&2
fi
echo "image: $TAG (built, inputs $hash, $(podman image inspect --format '{{.Size}}' "$TAG") bytes)"
