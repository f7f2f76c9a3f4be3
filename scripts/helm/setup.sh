#!/usr/bin/env bash
# Build helm v4.3.2 (pinned) from the Go module proxy with the Go toolchain into .tools/helm/bin/helm
# (ignored by git). `tritonc lint --deployment CHART` renders a Helm chart with the real `helm
# template`, and test/deployment/helm.test.ts runs it (test/support/helm.ts finds it there).
# Idempotent: nothing is built when that binary already says it is v4.3.2. HELM_TOOLS puts it elsewhere.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VERSION=v4.3.2
BIN="${HELM_TOOLS:-$HERE/../../.tools/helm}/bin"
if "$BIN/helm" version --template '{{.Version}}' 2>/dev/null | grep -qx "$VERSION"; then
  echo "helm $VERSION: $BIN/helm"
  exit 0
fi
command -v go >/dev/null 2>&1 || { echo "scripts/helm/setup.sh: the Go toolchain (go) is needed to build helm" >&2; exit 1; }
mkdir -p "$BIN"
# -mod=mod: resolve helm's own go.mod from the module cache, outside any workspace of this repository.
# The flags of helm's own Makefile for a release build (CGO_ENABLED=0, -trimpath, -w -s), with the
# version it stamps from the tag: without it the binary says only "v4.3".
GOBIN="$(cd "$BIN" && pwd)" GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0 go install -trimpath \
  -ldflags "-w -s -X helm.sh/helm/v4/internal/version.version=$VERSION -X helm.sh/helm/v4/internal/version.gitTreeState=clean" \
  "helm.sh/helm/v4/cmd/helm@$VERSION"
"$BIN/helm" version --template '{{.Version}}' | grep -qx "$VERSION" || { echo "scripts/helm/setup.sh: $BIN/helm is not $VERSION" >&2; exit 1; }
echo "helm $VERSION: $BIN/helm"
