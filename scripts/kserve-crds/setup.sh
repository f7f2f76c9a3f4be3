#!/usr/bin/env bash
# KServe's CustomResourceDefinitions of release v0.20.0 (tag commit 1fb781055dd1567164358233e1125142ca6ef1fe),
# read from KServe's Go module through the Go module proxy (go mod download checks the module's hash
# against the checksum database, and this script checks it again against the pinned h1: sum below), laid
# out in the ignored folder .kserve-crds/ (KSERVE_CRDS puts it elsewhere):
#   serving.kserve.io_inferenceservices.yaml, serving.kserve.io_servingruntimes.yaml,
#   serving.kserve.io_clusterservingruntimes.yaml   (config/crd/full/ of the release)
#   kserve-tritonserver.yaml, kustomization.yaml     (config/runtimes/: KServe's Triton runtime, its image tag)
#   VERSION                                          the release, written last (its presence = complete)
# test/support/kubernetes-schema.ts checks KServe's kinds against their openAPIV3Schema. Idempotent:
# re-running only fills in what is missing.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${KSERVE_CRDS:-$ROOT/.kserve-crds}"
MODULE=github.com/kserve/kserve
VERSION=v0.20.0
PINNED_SUM='h1:Bs7HxmGV4KFqqptDcWseKv+mwD4YOYHJWcuVgPG2Gug='
CRDS=(serving.kserve.io_inferenceservices.yaml serving.kserve.io_servingruntimes.yaml serving.kserve.io_clusterservingruntimes.yaml)

[ "$(cat "$OUT/VERSION" 2>/dev/null || true)" = "$VERSION" ] && { echo "KServe CRDs $VERSION in $OUT"; exit 0; }
# The Go toolchain fetches and verifies the module (Debian's golang-go where there is none).
command -v go >/dev/null 2>&1 || {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends golang-go ca-certificates >/dev/null
}

# A module cache of our own, so that nothing is written into the user's ~/go and the files can be removed.
cache="$(mktemp -d)"
trap 'chmod -R u+w "$cache" 2>/dev/null || true; rm -rf "$cache"' EXIT
info="$(cd "$cache" && GOMODCACHE="$cache/mod" go mod download -json "$MODULE@$VERSION")"
dir="$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
sum="$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p')"
[ "$sum" = "$PINNED_SUM" ] || { echo "KServe $VERSION: module sum $sum, expected $PINNED_SUM" >&2; exit 1; }
mkdir -p "$OUT"
for crd in "${CRDS[@]}"; do install -m 0644 "$dir/config/crd/full/$crd" "$OUT/$crd"; done
install -m 0644 "$dir/config/runtimes/kserve-tritonserver.yaml" "$OUT/kserve-tritonserver.yaml"
install -m 0644 "$dir/config/runtimes/kustomization.yaml" "$OUT/kustomization.yaml"
echo "$VERSION" > "$OUT/VERSION"
echo "KServe CRDs $VERSION in $OUT"
