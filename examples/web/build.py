"""Build the static site into dist/: the page, Pyodide's files and the heartslib and attrs wheels.

Run from anywhere after ``npm ci`` (which fetches Pyodide into node_modules)::

    python3 build.py            # or: npm run build

It needs pip and network access to PyPI once (to build the heartslib wheel
and fetch the attrs wheel); the site it writes then works offline.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DIST = HERE / "dist"
PYODIDE = HERE / "node_modules" / "pyodide"
# The files of the npm package that the browser loads (the rest are types, maps and Node helpers).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PAGE_FILES = ("index.html", "app.js", "style.css", "game.py")


def pip(*args: str) -> None:
    """Run pip with the interpreter that runs this script, failing loudly."""
    subprocess.run([sys.executable, "-m", "pip", *args], check=True)


def main() -> int:
    """Write dist/ from scratch; return the process exit code."""
    missing = [name for name in PYODIDE_FILES if not (PYODIDE / name).is_file()]
    if missing:
        print(f"build: {PYODIDE} lacks {', '.join(missing)}; run `npm ci` in {HERE} first", file=sys.stderr)
        return 1
    if DIST.exists():
        shutil.rmtree(DIST)
    wheels = DIST / "wheels"
    (DIST / "pyodide").mkdir(parents=True)
    wheels.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, DIST / "pyodide" / name)
    for name in PAGE_FILES:
        shutil.copy2(HERE / name, DIST / name)
    pip("wheel", "--no-deps", "--quiet", str(REPO), "-w", str(wheels))
    pip("download", "attrs>=23.1", "--no-deps", "--only-binary=:all:", "--quiet", "-d", str(wheels))
    names = sorted(p.name for p in wheels.glob("*.whl"))
    for prefix in ("heartslib-", "attrs-"):
        if sum(n.startswith(prefix) for n in names) != 1:
            print(f"build: expected one {prefix}*.whl in {wheels}, found {names}", file=sys.stderr)
            return 1
        if not any(n.startswith(prefix) and n.endswith("-py3-none-any.whl") for n in names):
            print(f"build: the {prefix}wheel is not pure Python; Pyodide cannot load it", file=sys.stderr)
            return 1
    pyodide_version = json.loads((PYODIDE / "package.json").read_text())["version"]
    manifest = {"wheels": names, "pyodide": pyodide_version}
    (DIST / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    size = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    print(f"build: wrote {DIST} ({size / 1e6:.1f} MB): Pyodide {pyodide_version}, {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
