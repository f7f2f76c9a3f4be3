#!/usr/bin/env bash
# Exports every format's fixtures into OUT (default fixtures/models) with the venv of setup.sh:
# scripts/model-exports/<format>/export.py OUT/<format>.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${EXPORTS_VENV:-$HERE/../../.venv-exports}"
OUT="${1:-$HERE/../../fixtures/models}"
for script in "$HERE"/*/export.py; do
  [ -e "$script" ] || continue
  format="$(basename "$(dirname "$script")")"
  mkdir -p "$OUT/$format"
  "$VENV/bin/python" "$script" "$OUT/$format"
done
