"""Serve dist/ on http://127.0.0.1:8000/ (or the port given; 0 picks a free one), compressed and cacheable.

    python3 serve.py [PORT] [--host HOST] [--log]

- **Compression**: build.py writes ``FILE.br`` and ``FILE.gz`` beside each file
  that compresses; this server sends the brotli one to a browser that accepts
  ``br``, else the gzip one, else the file itself (``Vary: Accept-Encoding``).
- **Caching**: every response has an ``ETag`` and answers ``If-None-Match``
  with ``304 Not Modified``. Files under ``pyodide/`` and ``wheels/`` sit in
  folders named by version or content hash, so they are sent with
  ``Cache-Control: public, max-age=31536000, immutable``; everything else
  (the page, ``manifest.json``, the service worker) with ``no-cache``, so the
  browser always asks whether it changed.
- **Types**: ``.mjs``, ``.wasm``, ``.whl`` and the rest get the MIME types
  browsers insist on (a module script or streamed WebAssembly with the wrong
  type is refused).
- ``--log`` prints one line per request, ``GET /path 200 br 123456``, the
  last number being the bytes written to the socket (headers included); the
  end-to-end test adds them up to measure what a load transfers.

Any static file server can host dist/ instead (``python3 -m http.server
--directory dist`` works where the system knows the ``.mjs`` and ``.wasm``
types); it then sends the files uncompressed.
"""

from __future__ import annotations

import argparse
import contextlib
import email.utils
import http.server
import sys
from pathlib import Path
from typing import Any, BinaryIO

DIST = Path(__file__).resolve().parent / "dist"
IMMUTABLE = ("pyodide/", "wheels/")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".py": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


class _Counting:
    """A socket file that counts the bytes written through it."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.count = 0

    def write(self, data: bytes) -> int:
        self.count += len(data)
        return self.raw.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class Handler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD for the files of dist/, with precompressed bodies, ETags and cache headers."""

    server_version = "heartslib-web"
    protocol_version = "HTTP/1.1"
    log_requests = False

    def setup(self) -> None:
        super().setup()
        self.wfile = _Counting(self.wfile)  # type: ignore[assignment]

    def handle_one_request(self) -> None:
        self.wfile.count = 0  # type: ignore[attr-defined]
        self._line: tuple[str, str] | None = None
        super().handle_one_request()
        if self.log_requests and self._line is not None:
            status, encoding = self._line
            print(f"{self.command} {self.path} {status} {encoding} {self.wfile.count}",  # type: ignore[attr-defined]
                  flush=True)

    def log_message(self, format: str, *args: object) -> None:
        pass  # --log prints its own lines; errors are sent to the browser

    def _file(self) -> Path | None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        parts = [p for p in path.split("/") if p]
        if any(p in ("..", ".") or p.startswith(".") for p in parts):
            return None
        file = DIST.joinpath(*parts) if parts else DIST
        if file.is_dir():
            file = file / "index.html"
        return file if file.is_file() else None

    def do_HEAD(self) -> None:
        self._send(body=False)

    def do_GET(self) -> None:
        self._send(body=True)

    def _send(self, body: bool) -> None:
        file = self._file()
        if file is None:
            self._line = ("404", "-")
            self.send_error(404, "Not found")
            return
        accepted = {e.split(";")[0].strip() for e in self.headers.get("Accept-Encoding", "").split(",")}
        encoding, source = "identity", file
        for name, suffix in ENCODINGS:
            candidate = file.with_name(file.name + suffix)
            if name in accepted and candidate.is_file():
                encoding, source = name, candidate
                break
        stat = source.stat()
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}-{encoding}"'
        rel = file.relative_to(DIST).as_posix()
        headers = {
            "Content-Type": TYPES.get(file.suffix, "application/octet-stream"),
            "ETag": etag,
            "Last-Modified": email.utils.formatdate(stat.st_mtime, usegmt=True),
            "Cache-Control": "public, max-age=31536000, immutable" if rel.startswith(IMMUTABLE) else "no-cache",
            "Vary": "Accept-Encoding",
        }
        if encoding != "identity":
            headers["Content-Encoding"] = encoding
        if etag in {t.strip() for t in self.headers.get("If-None-Match", "").split(",")}:
            self._line = ("304", encoding)
            self.send_response(304)
            for key in ("ETag", "Cache-Control", "Vary"):
                self.send_header(key, headers[key])
            self.end_headers()
            return
        self._line = ("200", encoding)
        self.send_response(200)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(stat.st_size))
        self.end_headers()
        if body:
            with source.open("rb") as f, contextlib.suppress(ConnectionError):
                while chunk := f.read(1 << 16):
                    self.wfile.write(chunk)


def main(argv: list[str]) -> int:
    """Serve until interrupted; print the address first (the e2e test reads it)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", nargs="?", type=int, default=8000, help="0 picks a free port (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--log", action="store_true", help="print every request with the bytes it sent")
    args = parser.parse_args(argv)
    if not (DIST / "index.html").is_file():
        print(f"serve: {DIST} is not built; run `python3 build.py` first", file=sys.stderr)
        return 1
    handler = type("LoggingHandler", (Handler,), {"log_requests": args.log})
    with http.server.ThreadingHTTPServer((args.host, args.port), handler) as server:
        print(f"Serving Hearts on http://{args.host}:{server.server_address[1]}/", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
