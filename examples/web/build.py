"""Build the static site into dist/: the page, Pyodide's runtime, a trimmed standard library and the wheels.

Run from anywhere after ``npm ci`` (which fetches Pyodide into node_modules)::

    python3 build.py            # or: npm run build

It needs Node.js (for Pyodide under Node and for brotli), pip, and access to
PyPI once (to build the heartslib wheel and fetch the attrs wheel); the site
it writes then works offline. What it writes:

- ``pyodide/<version>/``: Pyodide's runtime (``pyodide.mjs``,
  ``pyodide.asm.mjs``, ``pyodide.asm.wasm``), a lock file listing no packages
  (the page loads none from Pyodide's repository), and
  ``python_stdlib-<hash>.zip``: only the standard-library files the game
  imports (less :data:`STDLIB_LEFT_OUT`), as bytecode. They are found by running ``tools/stdlib_trace.py`` in
  Pyodide under Node with the full standard library (it imports every module
  heartslib and game.py name and plays through everything the page asks);
  ``tools/compile_pyc.py`` compiles them with Pyodide's own Python, and the
  trimmed zip is then checked by running the trace again on it. The zip is
  stored uncompressed so that brotli compresses it on the wire.
- ``wheels/<hash>/``: the heartslib wheel built from this repository (less
  :data:`LEFT_OUT`) and the attrs wheel, repacked uncompressed, as bytecode
  without sources (``X.pyc`` where ``X.py`` was, listed in RECORD), so nothing
  is compiled in the page. The bytecode is compiled with
  ``PYTHONNODEBUGRANGES=1`` (line numbers, no column ranges; the standard
  library's has no line numbers either): see ``tools/compile_pyc.py``.
- the page (``index.html`` stamped with the build id, ``app.js``,
  ``engine.js``, ``i18n.js``, ``storage.js``, ``style.css``, ``game.py``, ``sw.js``) and
  ``manifest.json``: the build id and every file with its size and hash, which
  the page downloads into its offline cache.
- beside every file that compresses, ``FILE.br`` (brotli, quality 11, through
  Node's zlib; cached in ``.cache/brotli``) and ``FILE.gz``: ``serve.py``
  sends them to browsers that accept them.

Content-addressed folders (``pyodide/<version>/``, ``wheels/<hash>/``) let
``serve.py`` mark those files immutable.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DIST = HERE / "dist"
PYODIDE = HERE / "node_modules" / "pyodide"
BROTLI_CACHE = HERE / ".cache" / "brotli"  # outside node_modules, which npm ci empties
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
PAGE_FILES = ("index.html", "app.js", "engine.js", "i18n.js", "storage.js", "style.css", "game.py", "sw.js")
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".py", ".wasm", ".zip", ".whl")
BUILD_MARK = 'content="dev"'  # index.html's <meta name="heartslib-build">, replaced by the build id


class BuildError(Exception):
    """A build step failed; the message says which and what to do."""


def run(*args: str | Path, what: str) -> str:
    """Run a command, returning its stdout; fail with ``what`` and its stderr."""
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise BuildError(f"{what} failed (exit {proc.returncode}):\n{proc.stderr.strip() or proc.stdout.strip()}")
    return proc.stdout


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def node() -> str:
    found = shutil.which("node")
    if not found:
        raise BuildError("build needs Node.js (node) on PATH: it runs Pyodide and brotli")
    return found


def wheels(into: Path) -> list[Path]:
    """Build the heartslib wheel and fetch attrs'; both must be pure Python."""
    pip = (sys.executable, "-m", "pip")
    run(*pip, "wheel", "--no-deps", "--quiet", REPO, "-w", into, what="pip wheel (heartslib)")
    run(*pip, "download", "attrs>=23.1", "--no-deps", "--only-binary=:all:", "--quiet", "-d", into,
        what="pip download attrs")
    found = sorted(into.glob("*.whl"))
    for prefix in ("heartslib-", "attrs-"):
        mine = [p for p in found if p.name.startswith(prefix)]
        if len(mine) != 1:
            raise BuildError(f"expected one {prefix}*.whl in {into}, found {[p.name for p in found]}")
        if not mine[0].name.endswith("-py3-none-any.whl"):
            raise BuildError(f"{mine[0].name} is not pure Python; Pyodide cannot load it")
    return found


def repack_stored(source: Path, target: Path, names: list[str] | None = None) -> None:
    """Copy the zip ``source`` (only ``names``, if given) to ``target`` with every entry uncompressed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
        infos = {i.filename: i for i in src.infolist()}
        for name in names if names is not None else list(infos):
            info = infos[name]
            entry = zipfile.ZipInfo(info.filename, info.date_time)
            entry.external_attr = info.external_attr
            out.writestr(entry, src.read(info), compress_type=zipfile.ZIP_STORED)


#: Parts of the heartslib wheel the page never imports (the extras' modules: the server and its client, the
#: adapters, the batched environment, the property-testing helpers), left out of what the browser downloads.
#: The standard-library trace below runs the game on the trimmed wheel, so a module the game needs that is
#: listed here fails the build.
LEFT_OUT: tuple[str, ...] = (
    "heartslib/server/", "heartslib/vector/", "heartslib/adapters/", "heartslib/client.py",
    "heartslib/strategies.py", "heartslib/testing.py",
    # the command line (and what it alone imports: argparse, difflib, tempfile...)
    "heartslib/cli.py", "heartslib/__main__.py",
    # what only the modules above import: game records, event streams, the terminal's picture of the table
    "heartslib/record.py", "heartslib/streams.py", "heartslib/tableview.py", "heartslib/_tableview.py",
)

#: Standard-library files Pyodide's start-up imports only inside ``try: ... except ImportError`` (asyncio's
#: TLS support, shutil's and zipfile's optional compressors), so a start without them is a start without
#: TLS, bz2, lzma and zstd; the wheels are stored uncompressed and nothing in the page opens a socket.
#: build.py refuses to leave out a module that heartslib or game.py names, and the check run below plays the
#: game without them.
STDLIB_LEFT_OUT: tuple[str, ...] = (
    "ssl.py", "_ssl.py", "base64.py",  # base64: imported by ssl alone
    "bz2.py", "lzma.py", "compression/",
)


def page_files(wheel: Path) -> list[str]:
    """The entries of ``wheel`` the page needs: not :data:`LEFT_OUT`, nor the type stubs (``.pyi``)."""
    with zipfile.ZipFile(wheel) as z:
        return [n for n in z.namelist() if not n.startswith(LEFT_OUT) and not n.endswith(".pyi")]


def stdlib_files(trace: dict[str, object]) -> list[str]:
    """The standard-library files the trace imported, but for :data:`STDLIB_LEFT_OUT`."""
    paths = {m: m.replace(".", "/") for m in trace["named"]}  # type: ignore[attr-defined]
    named = [m for m, path in paths.items() if f"{path}.py".startswith(STDLIB_LEFT_OUT)
             or f"{path}/".startswith(STDLIB_LEFT_OUT)]
    if named:
        raise BuildError(f"heartslib or game.py imports {', '.join(named)}, which STDLIB_LEFT_OUT leaves out")
    return sorted(n for n in set(trace["stdlib"]) if not n.startswith(STDLIB_LEFT_OUT))  # type: ignore[call-overload]


def trace_stdlib(wheel_files: list[Path], stdlib: Path | None = None) -> dict[str, object]:
    """Run tools/stdlib_trace.py in Pyodide under Node (with ``stdlib`` instead of the full one, if given)."""
    args: list[str | Path] = [node(), HERE / "tools" / "pyodide_run.mjs", HERE / "tools" / "stdlib_trace.py",
                              *wheel_files, "--game", HERE / "game.py"]
    if stdlib is not None:
        args += ["--stdlib", stdlib]
    what = "the standard-library check (the trimmed zip lacks a module)" if stdlib else "the standard-library trace"
    out = run(*args, what=what)
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def site_files() -> list[Path]:
    """The files of dist/, without the compressed twins (FILE.br, FILE.gz)."""
    return [p for p in DIST.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz")]


def start_brotli(files: list[Path]) -> subprocess.Popen[str]:
    """Start brotli on ``files`` in the background (tools/compress.mjs writes FILE.br beside each)."""
    return subprocess.Popen([node(), str(HERE / "tools" / "compress.mjs"), str(BROTLI_CACHE), *map(str, files)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen[str], what: str) -> None:
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise BuildError(f"{what} failed (exit {proc.returncode}):\n{err.strip() or out.strip()}")


def compress(files: list[Path], early: subprocess.Popen[str] | None = None, started: tuple[Path, ...] = ()) -> None:
    """Write FILE.gz and FILE.br beside each file that compresses by at least 5%.

    ``early`` is a brotli run already going for the files ``started`` (the large runtime, started
    while the rest of the build runs: quality 11 takes about 40 s for the WebAssembly file).
    """
    todo = [f for f in files if f.suffix in COMPRESSIBLE]
    for f in todo:
        data = f.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) < 0.95 * len(data):
            f.with_name(f.name + ".gz").write_bytes(packed)
    rest = [f for f in todo if f not in started]
    if rest:
        finish(start_brotli(rest), "brotli (tools/compress.mjs)")
    if early is not None:
        finish(early, "brotli (tools/compress.mjs) of the runtime")
    for f in todo:
        br = f.with_name(f.name + ".br")
        if br.stat().st_size >= 0.95 * f.stat().st_size:
            br.unlink()


def build() -> dict[str, object]:
    missing = [n for n in (*RUNTIME_FILES, "python_stdlib.zip", "pyodide-lock.json", "package.json")
               if not (PYODIDE / n).is_file()]
    if missing:
        raise BuildError(f"{PYODIDE} lacks {', '.join(missing)}; run `npm ci` in {HERE} first")
    version = json.loads((PYODIDE / "package.json").read_text())["version"]
    if DIST.exists():
        shutil.rmtree(DIST)
    runtime = DIST / "pyodide" / version
    runtime.mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copy2(PYODIDE / name, runtime / name)
    started = tuple(runtime / name for name in RUNTIME_FILES)
    early = start_brotli(list(started))
    try:
        return _build(version, runtime, early, started)
    finally:
        if early.poll() is None:
            early.kill()
            early.wait()


def _build(version: str, runtime: Path, early: subprocess.Popen[str], started: tuple[Path, ...]) -> dict[str, object]:
    # The page loads no package from Pyodide's repository (the wheels are unpacked directly).
    lock = json.loads((PYODIDE / "pyodide-lock.json").read_text())
    (runtime / "pyodide-lock.json").write_text(json.dumps({"info": lock["info"], "packages": {}}) + "\n")

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        built = wheels(work / "built")
        stored = [work / "stored" / whl.name for whl in built]
        for whl, target in zip(built, stored, strict=True):
            repack_stored(whl, target, page_files(whl))
        trace = trace_stdlib(stored)  # the wheels as the page gets them (LEFT_OUT is not there)
        names = stdlib_files(trace)
        repack_stored(PYODIDE / "python_stdlib.zip", work / "stdlib-source.zip", names)
        # Bytecode compiled by Pyodide's Python: the page then compiles nothing at start-up.
        jobs = [{"in": "stdlib-source.zip", "out": "python_stdlib.zip", "kind": "stdlib"}]
        (work / "compiled").mkdir(exist_ok=True)
        for whl in built:
            jobs.append({"in": f"stored/{whl.name}", "out": f"compiled/{whl.name}", "kind": "wheel"})
        (work / "jobs.json").write_text(json.dumps(jobs))
        run(node(), HERE / "tools" / "pyodide_run.mjs", HERE / "tools" / "compile_pyc.py", "--mount", work,
            "--env", "PYTHONNODEBUGRANGES=1", what="compiling to bytecode (tools/compile_pyc.py)")
        compiled = [work / "compiled" / whl.name for whl in built]
        trimmed = work / "python_stdlib.zip"
        check = trace_stdlib(compiled, trimmed)
        used = {name.removesuffix("c") for name in check["stdlib"]}  # type: ignore[attr-defined]
        if used != set(names):
            raise BuildError(f"the trimmed standard library behaves differently: {sorted(used ^ set(names))}")
        stdlib = runtime / f"python_stdlib-{sha256(trimmed)[:12]}.zip"
        shutil.copy2(trimmed, stdlib)
        wheel_paths = []
        for whl in compiled:
            target = DIST / "wheels" / sha256(whl)[:12] / whl.name
            target.parent.mkdir(parents=True)
            shutil.copy2(whl, target)
            wheel_paths.append(target)

    for name in PAGE_FILES:
        if name != "index.html":
            shutil.copy2(HERE / name, DIST / name)
    page = (HERE / "index.html").read_text(encoding="utf-8")
    if BUILD_MARK not in page:
        raise BuildError(f"index.html lacks the build mark {BUILD_MARK!r}")
    others = sorted(site_files())
    digest = hashlib.sha256(page.encode())
    for p in others:
        digest.update(p.relative_to(DIST).as_posix().encode() + b"\0" + sha256(p).encode())
    build_id = digest.hexdigest()[:16]
    (DIST / "index.html").write_text(page.replace(BUILD_MARK, f'content="{build_id}"'), encoding="utf-8")

    rel = lambda p: p.relative_to(DIST).as_posix()  # noqa: E731
    files = {rel(p): {"size": p.stat().st_size, "sha256": sha256(p)} for p in sorted(site_files()) if p.name != "sw.js"}
    manifest = {
        "build": build_id,
        "pyodide": version,
        "runtime": f"{rel(runtime)}/",
        "stdlib": rel(stdlib),
        "wheels": [rel(p) for p in wheel_paths],
        "files": files,
    }
    (DIST / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    compress(sorted(site_files()), early, started)
    return manifest


def main() -> int:
    """Write dist/ from scratch; return the process exit code."""
    start = time.monotonic()
    try:
        manifest = build()
    except BuildError as exc:
        print(f"build: {exc}", file=sys.stderr)
        return 1
    files: dict[str, dict[str, int]] = manifest["files"]  # type: ignore[assignment]
    raw = sum(f["size"] for f in files.values())

    def sent(name: str) -> int:
        p = DIST / name
        for enc in (".br", ".gz"):
            if p.with_name(p.name + enc).is_file():
                return p.with_name(p.name + enc).stat().st_size
        return p.stat().st_size

    wire = sum(sent(name) for name in files)
    print(f"build: wrote {DIST} in {time.monotonic() - start:.0f} s: build {manifest['build']}, "
          f"Pyodide {manifest['pyodide']}, {len(files)} files, {raw / 1e6:.1f} MB "
          f"({wire / 1e6:.2f} MB compressed), {manifest['stdlib']}, {', '.join(manifest['wheels'])}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
