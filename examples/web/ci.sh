#!/usr/bin/env bash
# The browser example's CI: install what its tests need, build the static site, run the tests.
#   - Debian's chromium (apt) for the end-to-end test, fonts for the card symbols;
#   - npm ci: Pyodide and playwright-core, pinned by package-lock.json;
#   - build.py: dist/ with Pyodide, the heartslib and attrs wheels and the page;
#   - the glue's pytest tests (CPython), then the e2e test in headless Chromium (node --test).
# Exits non-zero when anything fails. Screenshots land in $E2E_OUT (default examples/web/test-output).
# Needs root (or an already installed /usr/bin/chromium), node >= 18 with npm, and a python with pip,
# pytest and heartslib installed (PYTHON, default: python, else python3).
set -euo pipefail
cd "$(dirname "$0")"

PYTHON="${PYTHON:-$(command -v python || command -v python3)}"
export PYTHON
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$CHROMIUM" ]; then
  echo "ci.sh: installing chromium from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi
"$CHROMIUM" --version

npm ci --no-audit --no-fund --loglevel=error
"$PYTHON" build.py

status=0
"$PYTHON" -m pytest -q -p no:cacheprovider tests/test_glue.py game.py || status=1
node --test --test-reporter=spec tests/ || status=1
if [ "$status" -ne 0 ]; then
  echo "ci.sh: the browser example failed (screenshots: ${E2E_OUT:-$(pwd)/test-output})" >&2
fi
exit "$status"
