#!/usr/bin/env bash
# The frameworks that export the real model fixtures (fixtures/models/): a venv made from Debian's
# python3 with the pinned requirements of every exporter (scripts/model-exports/<format>/requirements.txt).
# tritonc never needs them at run time; the tests regenerate the fixtures with them where they are
# installed (test/support/model-exports.ts) and compare what the readers see.
# Idempotent: re-running only installs what is missing.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${EXPORTS_VENV:-$HERE/../../.venv-exports}"
PY=/usr/bin/python3

if ! dpkg -s python3-venv >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
# Every exporter's pins in one resolver pass, so one file's packages cannot move another's.
reqs=()
for req in "$HERE"/*/requirements.txt; do
  [ -e "$req" ] && reqs+=(-r "$req")
done
[ ${#reqs[@]} -eq 0 ] || "$VENV/bin/pip" install --disable-pip-version-check -q "${reqs[@]}"
echo "exporters: $VENV"
