"""Serve dist/ on http://127.0.0.1:8000/ (or the port given; 0 picks a free one).

``python3 -m http.server --directory dist`` works too where the system
knows the types of ``.mjs`` and ``.wasm`` files; this script sets them
itself, since browsers refuse a module script or a streamed WebAssembly
file served with the wrong type.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import sys
from pathlib import Path

DIST = Path(__file__).resolve().parent / "dist"


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs, quiet unless something fails."""

    extensions_map = {  # noqa: RUF012 - the base class declares it as a plain dict
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/zip",
        ".zip": "application/zip",
        ".py": "text/plain; charset=utf-8",
        ".json": "application/json",
    }

    def log_message(self, format: str, *args: object) -> None:
        if len(args) > 1 and str(args[1]).startswith(("4", "5")):
            super().log_message(format, *args)


def main(argv: list[str]) -> int:
    """Serve until interrupted; print the address first (the e2e test reads it)."""
    if not (DIST / "index.html").is_file():
        print(f"serve: {DIST} is not built; run `python3 build.py` first", file=sys.stderr)
        return 1
    port = int(argv[0]) if argv else 8000
    handler = functools.partial(Handler, directory=str(DIST))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"Serving Hearts on http://127.0.0.1:{server.server_address[1]}/", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
