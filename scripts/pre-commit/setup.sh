#!/usr/bin/env bash
# Create the venv .venv-precommit with pre-commit 4.7.0 from PyPI (pinned, with its dependencies in
# requirements.txt), for the hooks' end-to-end tests (test/e2e/pre-commit.test.ts): 4.x installs a
# `language: node` hook with `npm install --allow-git=root --install-links -g git+file://<clone>`,
# where Debian's 3.x packs it first.
# Idempotent: re-running only fills in what is missing. PRECOMMIT_VENV puts the venv elsewhere.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${PRECOMMIT_VENV:-$HERE/../../.venv-precommit}"
PY=/usr/bin/python3
dpkg -s python3-venv >/dev/null 2>&1 || {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
}
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
if [ "$("$VENV/bin/pre-commit" --version 2>/dev/null)" != "pre-commit 4.7.0" ]; then
  # --no-deps: requirements.txt is the whole set, every package pinned.
  "$VENV/bin/pip" install --disable-pip-version-check -q --no-deps -r "$HERE/requirements.txt"
fi
"$VENV/bin/pre-commit" --version
