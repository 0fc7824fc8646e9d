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
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from heartslib.presets import preset, preset_names
from heartslib.server.store import RECORD_FORMATS, RecordRefused, Store, StoreUnavailable, open_store, safe_url
from heartslib.server.tables import BATCHED_SEND, Connection, Hub, Quotas, check_agent_workers, check_turn_timeout

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
        batched = BATCHED_SEND in (websocket.scope.get("extensions") or {})  # heartslib serve's protocol
        pump = asyncio.create_task(conn.pump(websocket.send_text, batched=batched))
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
    config = uvicorn.Config(app, log_level="warning", ws=_WEBSOCKET, ws_max_size=MAX_FRAME, lifespan="on",
                            ws_per_message_deflate=False)
    print(f"heartslib serve: ws://{host}:{bound}/ws (database: {safe_url(database)}); Ctrl-C stops", flush=True)
    uvicorn.Server(config).run(sockets=[sock])


#: How many received messages may wait for the app before a connection stops reading its socket.
READ_QUEUE = 16

#: The WebSocket protocol ``heartslib serve`` gives uvicorn: :class:`_BatchedWebSocket` where this uvicorn has the
#: protocol it builds on (0.35 on), else uvicorn's own choice.
_WEBSOCKET: type[asyncio.Protocol] | str = "auto"

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import InvalidState
except ImportError:  # pragma: no cover - an older uvicorn: each message written at once, reading paused after each
    pass
else:

    class _BatchedWebSocket(WebSocketsSansIOProtocol):
        """uvicorn's WebSocket protocol, less two costs it pays per message (at 200 busy tables the send calls
        were the largest single item of the event loop's time: benchmarks/server_load.py); the frames and their
        order are unchanged.

        The text messages sent to a connection in one turn of the loop leave in one write (one system call, which
        on a loopback also delivers them), where uvicorn writes each at once; and reading stops only once
        :data:`READ_QUEUE` messages wait for the app, where uvicorn stops and starts it again (two epoll calls)
        for every message received. The scope's ``heartslib.batched_send`` extension tells the app's pump that
        it may send several messages in one turn (:meth:`~heartslib.server.tables.Connection.pump`).
        """

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pending: list[bytes] = []  # frames sent this turn, written together by _flush

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)  # only set for an accepted handshake
            if scope is not None:
                extensions = scope.setdefault("extensions", {})
                if extensions is not None:
                    extensions[BATCHED_SEND] = {}

        async def send(self, message: Any) -> None:
            text = message.get("text") if message["type"] == "websocket.send" else None
            if text is not None and self.handshake_complete and not self.close_sent and self.transport.is_closing():
                # the client is gone (or going): a write now would only be logged, once for each message
                self._pending.clear()
                raise ConnectionResetError("the WebSocket connection is closing: the client is gone")
            # uvicorn's own send for anything else: an accept, a close, a wait for a slow client (the attributes
            # read as uvicorn's versions have them)
            if (text is None or not self.handshake_complete or self.close_sent or not self.writable.is_set()
                    or getattr(self, "initial_response", None) is not None):
                self._flush()  # after what was sent before
                await super().send(message)
                return
            try:
                self.conn.send_text(text.encode())
            except InvalidState:  # the client closed its side: uvicorn's send says so
                self._flush()
                await super().send(message)
                return
            if not self._pending:
                self.loop.call_soon(self._flush)
            self._pending += self.conn.data_to_send()

        def _flush(self) -> None:
            """Write the frames sent since the last write (none to a transport that is closing: the client is
            gone)."""
            if self._pending:
                data, self._pending = b"".join(self._pending), []
                if not self.transport.is_closing():
                    self.transport.write(data)

        def data_received(self, data: bytes) -> None:
            self._flush()  # before any frame this answers with (a pong, a close)
            super().data_received(data)

        def shutdown(self) -> None:
            self._flush()  # before the close frame
            super().shutdown()

        def send_receive_event_to_app(self) -> None:
            paused, self.read_paused = self.read_paused, True  # uvicorn's pauses reading unless already paused
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = paused
            if not paused and self.queue.qsize() >= READ_QUEUE:
                self.read_paused = True
                self.transport.pause_reading()

    _WEBSOCKET = _BatchedWebSocket
