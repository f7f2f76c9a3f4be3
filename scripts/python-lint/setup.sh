#!/usr/bin/env bash
# Create the venv .venv-pylint with mypy, ruff and numpy from PyPI (pinned, with their dependencies in
# requirements.txt), which check the generated Python clients' runtime where it is written
# (src/client/runtime/*.py; test/client/runtime-check.test.ts runs them). Idempotent: re-running only
# fills in what is missing. PYLINT_VENV puts the venv elsewhere.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${PYLINT_VENV:-$HERE/../../.venv-pylint}"
PY=/usr/bin/python3
dpkg -s python3-venv >/dev/null 2>&1 || {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
}
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
# The venv holds exactly requirements.txt's set once its stamp is that file's own hash.
stamp="$VENV/.requirements.sha256"
sum="$(sha256sum "$HERE/requirements.txt" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$sum" ]; then
  # --no-deps: requirements.txt is the whole set, every package pinned.
  "$VENV/bin/pip" install --disable-pip-version-check -q --no-deps -r "$HERE/requirements.txt"
  echo "$sum" > "$stamp"
fi
"$VENV/bin/mypy" --version
"$VENV/bin/ruff" --version
