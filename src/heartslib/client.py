"""A small Python client of the game server (``heartslib serve``, docs/server.md), for bots and tests.

:class:`Client` speaks the WebSocket protocol with blocking calls: each request waits for its own reply
(matched by ``id``) and keeps the events that arrive meanwhile, following them
(:func:`heartslib.streams.follow`) into :attr:`Client.view` – the seat's observation as plain data. A
refused request raises :class:`ServerError` with the server's code.

A remote bot plays exactly as a person's program does::

    with Client("ws://127.0.0.1:8765/ws") as c:
        table = c.create("standard", seats=[None, "random", "heuristic", "random"])
        c.join(table, 0)
        play_randomly(c)          # until the match is over

Needs the ``server`` extra (the ``websockets`` package): ``pip install "heartslib[server]"``.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

from websockets.sync.client import connect

from heartslib.streams import follow

__all__ = ["Client", "ServerError", "play_randomly"]


class ServerError(ValueError):
    """The server refused a request: ``code`` is the protocol's error code (docs/server.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[ServerError], tuple[str, str]]:
        # pickle and copy rebuild it from its own arguments (the default passes only the text to __init__)
        return (type(self), (self.code, self.message))


class Client:
    """One connection to a game server (``url``: ``ws://host:port/ws``); ``timeout`` bounds each wait, in
    seconds."""

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        self.timeout = timeout
        # entered at once (websockets 17 warns about a connection not used as a context manager); close() ends it
        self._ws = connect(url, open_timeout=timeout, max_size=2**22).__enter__()
        self._ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []
        """Every event received, in order (the ``event`` of each ``event`` message)."""
        self.view: dict[str, Any] = {}
        """The seat's (or spectator's) view, followed from :attr:`events`."""
        self.table: str | None = None
        self.seat: int | None = None
        self.token: str | None = None

    # ------------------------------------------------------------------ plumbing

    def send_text(self, text: str) -> None:
        """Send raw text (tests send malformed messages with it)."""
        self._ws.send(text)

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message; an event is also recorded in :attr:`events` and followed into :attr:`view`."""
        data: dict[str, Any] = json.loads(self._ws.recv(timeout=self.timeout if timeout is None else timeout))
        if data.get("type") == "event":
            event = data["event"]
            if event["number"] == len(self.events):  # a resumed stream repeats nothing, but be safe
                self.events.append(event)
                self.view = follow([event], self.view)
        return data

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """Send ``message`` with a fresh ``id`` and return the reply to it (events met on the way are kept);
        raises :class:`ServerError` if the reply is an error."""
        ident = next(self._ids)
        self._ws.send(json.dumps({**message, "id": ident}))
        deadline = time.monotonic() + self.timeout
        while True:
            data = self.receive(max(0.0, deadline - time.monotonic()))
            if data.get("id") == ident:
                if data["type"] == "error":
                    raise ServerError(data["code"], data["message"])
                return data

    # ------------------------------------------------------------------ the protocol

    def create(self, variant: str | Mapping[str, Any] = "standard", *, seats: Sequence[Any] | None = None,
               seed: int | None = None) -> str:
        """Create a table; returns its id. ``seats``: one entry a seat (None for a player, ``"random"``,
        ``"heuristic"``, ``"moon"`` or ``{"agent": "search", "playouts": N}``)."""
        message: dict[str, Any] = {"type": "create", "variant": variant}
        if seats is not None:
            message["seats"] = list(seats)
        if seed is not None:
            message["seed"] = seed
        return str(self.request(message)["table"])

    def join(self, table: str, seat: int) -> str:
        """Take an open seat; returns its token (keep it to :meth:`resume`)."""
        reply = self.request({"type": "join", "table": table, "seat": seat})
        self.table, self.seat, self.token = table, seat, reply["token"]
        self.events, self.view = [], {}
        return str(reply["token"])

    def resume(self, table: str, token: str, *, events: Sequence[Mapping[str, Any]] | None = None) -> int:
        """Take back a seat after a disconnection (on this connection or a new one), receiving the events after
        those in :attr:`events` (or ``events``: those an earlier connection received); returns the seat."""
        if events is not None:
            self.events = [dict(e) for e in events]
            self.view = follow(self.events)
        reply = self.request({"type": "resume", "table": table, "token": token, "since": len(self.events)})
        self.table, self.seat, self.token = table, int(reply["seat"]), token
        return self.seat

    def spectate(self, table: str) -> None:
        """Watch a table: the public events from its start."""
        self.request({"type": "spectate", "table": table})
        self.table, self.seat, self.events, self.view = table, None, [], {}

    def legal(self) -> list[dict[str, Any]]:
        """The seat's legal actions now, as data (at most the server's limit of passes)."""
        return list(self.request({"type": "legal"})["actions"])

    def act(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """Apply an action (``{"type": "play", "card": "QS"}``; the seat is the connection's); returns the
        acknowledgement, sent once the action is stored. Returns once the action's own events have arrived too,
        so :attr:`view` shows it applied."""
        ack = self.request({"type": "act", "action": dict(action)})
        while len(self.events) < ack["events"]:
            self.receive()
        return ack

    @property
    def over(self) -> bool:
        """Whether the match has ended (an ``end`` event was received)."""
        return bool(self.events) and self.events[-1]["kind"] == "end"

    def my_turn(self) -> bool:
        """Whether the view says this seat is to act."""
        return self.seat is not None and self.seat in self.view.get("to_act", ())

    def wait_turn(self) -> bool:
        """Receive until this seat is to act (True) or the match is over (False)."""
        while not self.my_turn():
            if self.over:
                return False
            self.receive()
        return True

    def close(self) -> None:
        """Close the connection."""
        self._ws.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def play_randomly(client: Client, rng: random.Random | None = None, *, max_actions: int | None = None) -> int:
    """Play the client's seat with random legal actions until the match is over (or ``max_actions``
    actions); returns how many actions it made."""
    rng = rng or random.Random(0)
    made = 0
    while (max_actions is None or made < max_actions) and client.wait_turn():
        choices = client.legal()
        if not choices:  # the view was behind (the events that came with the reply may have ended the match)
            if not client.over:
                client.receive()
            continue
        client.act(rng.choice(choices))
        made += 1
    return made
