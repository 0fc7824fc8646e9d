"""The game server as an ASGI application (Starlette): one WebSocket endpoint, ``/ws``, that carries the
protocol's JSON text to and from the :class:`~heartslib.server.tables.Hub`, a page at ``/`` that says how to
connect, and at ``/play`` a small browser client (one static HTML file with its script, no build step and
nothing from outside the server) with which people create, join and play tables. ``heartslib serve`` runs it
with uvicorn; any ASGI server can.

Needs the ``server`` extra: ``pip install "heartslib[server]"``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import AsyncIterator
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from heartslib.presets import preset, preset_names
from heartslib.server.store import RECORD_FORMATS, RecordRefused, Store, StoreUnavailable, open_store, safe_url
from heartslib.server.tables import Connection, Hub, Quotas, check_agent_workers, check_turn_timeout

__all__ = ["DEFAULT_QUOTAS", "MAX_FRAME", "create_app", "serve"]

_log = logging.getLogger("heartslib.server")

_INDEX = """heartslib game server

Connect a WebSocket to /ws and send JSON messages, e.g.
  {"type": "create", "variant": "standard", "seats": [null, "random", "heuristic", "random"]}
  {"type": "join", "table": "<id>", "seat": 0}
Play in a browser: /play
A finished table's record: /tables/<id>/record (?format=json or text)
The protocol: https://heartslib.readthedocs.io/ (docs/server.md in the sources).
"""


#: The limits a served app puts on each client by default (``heartslib serve``'s options change them).
DEFAULT_QUOTAS = Quotas()


def create_app(database: str | Store = "heartslib.sqlite3", *, turn_timeout: float | None = None,
               quotas: Quotas | None = DEFAULT_QUOTAS, agent_workers: int = 0) -> Starlette:
    """The ASGI app, keeping its tables in ``database`` (a SQLite file path, a ``postgresql://`` URL, or an
    open :class:`~heartslib.server.store.Store`). The unfinished stored tables resume as the app starts, beside
    serving (a table asked for first is read when asked). ``turn_timeout``:
    the turn clock in seconds (None: none), after which an agent stands in for a player (docs/server.md);
    ``quotas``: what each client may create (:class:`~heartslib.server.tables.Quotas`; None: no limits);
    ``agent_workers``: the worker processes the built-in agents think in (0: threads)."""
    store = database if isinstance(database, Store) else open_store(database)
    hub = Hub(store, turn_timeout=turn_timeout, quotas=quotas, agent_workers=agent_workers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # the stored tables load beside serving: a restart answers at once, and a table asked for first is read
        # when asked
        loading = asyncio.create_task(hub.load())
        loading.add_done_callback(_report)
        try:
            yield
        finally:
            loading.cancel()
            hub.stop()
            store.close()

    async def index(request: Request) -> PlainTextResponse:
        return PlainTextResponse(_INDEX)

    page = _page()

    async def play(request: Request) -> HTMLResponse:
        return HTMLResponse(page)

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Connection(websocket.client.host if websocket.client is not None else None)
        pump = asyncio.create_task(conn.pump(websocket.send_text))
        try:
            while not conn.closed:  # closed: the pump found the client gone
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    conn.send_data({"type": "error", "code": "bad_message",
                                    "message": "send each message as a text frame of JSON, not a binary frame"})
                    continue
                await hub.handle(conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            hub.drop(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, 5)

    async def record(request: Request) -> Response:
        return await _record(hub, request)

    routes = [Route("/", index), Route("/play", play), Route("/tables/{id}/record", record),
              WebSocketRoute("/ws", endpoint)]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


#: The HTTP status of each refusal of a record (docs/server.md).
_RECORD_STATUS = {"bad_format": 400, "no_such_table": 404, "in_progress": 409, "bad_record": 422,
                  "unavailable": 503}


async def _record(hub: Hub, request: Request) -> Response:
    """``GET /tables/{id}/record[?format=json|text]``: a finished table's record, or a JSON error (``code``,
    ``message``) with the status :data:`_RECORD_STATUS` gives it."""
    form = request.query_params.get("format", "json")
    try:
        if form not in RECORD_FORMATS:
            raise RecordRefused("format", f"format is {' or '.join(RECORD_FORMATS)}, not {form!r:.40}",
                                "bad_format")
        text = await hub.record(request.path_params["id"], form)
    except StoreUnavailable as exc:
        _log.warning("heartslib server: the database failed: %s", exc)
        code, message = "unavailable", "the database is unavailable: try again shortly"
    except RecordRefused as exc:
        code, message = exc.code, str(exc)
    else:
        return Response(text, media_type=RECORD_FORMATS[form])
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=_RECORD_STATUS[code])


def _report(loading: asyncio.Task[None]) -> None:
    """Log why loading the stored tables failed (the server goes on: each table is read when asked for)."""
    if not loading.cancelled() and loading.exception() is not None:
        exc = loading.exception()
        _log.error("heartslib server: loading the stored tables failed: %s: %s", type(exc).__name__, str(exc)[:200])


#: The largest WebSocket frame uvicorn accepts (a longer one closes the connection, code 1009); the hub refuses
#: messages over :data:`~heartslib.server.tables.MAX_MESSAGE` with an error and keeps the connection.
MAX_FRAME = 2**20


def _page() -> str:
    """The ``/play`` page, with each preset's player count written into its script (``PRESETS``), so that its
    create form offers a seat for each player of the variant named."""
    page = resources.files("heartslib.server").joinpath("play.html").read_text(encoding="utf-8")
    players = {name: preset(name).players for name in preset_names()}
    return page.replace("/*PRESETS*/{}", json.dumps(players), 1)


def serve(*, host: str = "127.0.0.1", port: int = 8765, database: str = "heartslib.sqlite3",
          turn_timeout: float | None = None, quotas: Quotas | None = DEFAULT_QUOTAS, agent_workers: int = 0) -> None:
    """Serve the app with uvicorn until interrupted, printing one line with the address (``port`` 0 takes a free
    port, which the line names). ``turn_timeout`` is the turn clock, ``quotas`` the clients' limits and
    ``agent_workers`` the agents' worker processes (:func:`create_app`). Raises
    :class:`~heartslib.SaveError` when the database cannot be opened, ``ValueError`` for a ``turn_timeout`` that
    is not a number of seconds above 0, and ``OSError`` when the address cannot be listened on."""
    import uvicorn

    check_turn_timeout(turn_timeout)  # before anything is opened
    check_agent_workers(agent_workers)
    store = open_store(database)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # clients may connect as soon as the line below is printed: they wait for uvicorn
    except OSError:
        sock.close()
        store.close()
        raise
    bound = sock.getsockname()[1]
    # no per-message compression: the messages are small, and deflating each one for each subscriber cost the
    # server more than the bytes it saved on a loopback or LAN (benchmarks/server_load.py)
    app = create_app(store, turn_timeout=turn_timeout, quotas=quotas, agent_workers=agent_workers)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_FRAME, lifespan="on",
                            ws_per_message_deflate=False)
    print(f"heartslib serve: ws://{host}:{bound}/ws (database: {safe_url(database)}); Ctrl-C stops", flush=True)
    uvicorn.Server(config).run(sockets=[sock])
