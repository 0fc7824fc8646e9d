#!/usr/bin/env bash
# The browser example's CI: install what its tests need, build the static site, run the tests.
#   - Debian's chromium (apt) for the end-to-end test, with fonts for the card symbols and for Thai;
#   - a Python that imports heartslib and pytest: $PYTHON if it does (.ci/run's virtual environment),
#     else examples/web/.venv, made here with this repository installed in it (pip install -e '.[test]');
#   - npm ci: Pyodide and playwright-core, pinned by package-lock.json;
#   - build.py: dist/ with Pyodide, the trimmed standard library, the heartslib and attrs wheels, the page;
#   - the glue's pytest tests (CPython), then node --test: i18n.js's unit test and the e2e test in headless
#     Chromium, which prints the load figures (bytes and times of a first load and a warm reload).
# Exits non-zero when anything fails. Screenshots land in $E2E_OUT (default examples/web/test-output).
# Needs root for apt (or chromium and a Thai font already installed), node >= 18 with npm, python3 >= 3.11.
set -euo pipefail
cd "$(dirname "$0")"
REPO="$(cd ../.. && pwd)"

PYTHON="${PYTHON:-$(command -v python || command -v python3)}"
if ! "$PYTHON" -c "import heartslib, pytest" 2>/dev/null; then
  echo "ci.sh: $PYTHON cannot import heartslib and pytest; installing the repository into examples/web/.venv" >&2
  python3 -m venv .venv
  .venv/bin/python -m pip install -q -e "$REPO[test]"
  PYTHON="$(pwd)/.venv/bin/python"
fi
export PYTHON
"$PYTHON" -c "import heartslib, sys; print(f'ci.sh: heartslib {heartslib.__version__} from {heartslib.__file__} ({sys.executable})')"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

packages=()
[ -x "$CHROMIUM" ] || packages+=(chromium fonts-dejavu-core)
# A Thai font (Debian's TLWG fonts, or Noto Sans Thai): without one Chromium draws Thai as boxes.
if ! compgen -G "/usr/share/fonts/truetype/tlwg/*.ttf" >/dev/null &&
   ! compgen -G "/usr/share/fonts/truetype/noto/NotoSansThai*" >/dev/null; then
  packages+=(fonts-thai-tlwg)
fi
if [ "${#packages[@]}" -gt 0 ]; then
  echo "ci.sh: installing ${packages[*]} from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${packages[@]}" >/dev/null
fi
"$CHROMIUM" --version

npm ci --no-audit --no-fund --loglevel=error
"$PYTHON" build.py

status=0
"$PYTHON" -m pytest -q -p no:cacheprovider tests/test_glue.py game.py || status=1
node --test --test-reporter=spec tests/ || status=1
echo "ci.sh: screenshots in ${E2E_OUT:-$(pwd)/test-output}"
if [ "$status" -ne 0 ]; then
  echo "ci.sh: the browser example failed" >&2
fi
exit "$status"
