"""The game server's per-client limits (issue 54, D3): each connection and each IP address may hold only so many
unfinished tables it created and create only so many a minute, agent-only tables are capped in number and must
end within so many hands; each refusal has its documented code, says the limit, and changes nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")

from heartslib import cli
from heartslib.server.app import DEFAULT_QUOTAS
from heartslib.server.store import SQLiteStore
from heartslib.server.tables import Connection, Hub, Quotas

OPEN = [None, "random", "random", "random"]
AGENTS = ["random"] * 4
ONE_HAND = {"name": "standard", "end": {"hands": 1}}
NO_LIMITS = {"open_tables": None, "creates_per_minute": None, "agent_tables": None, "agent_hands": None}


async def _create(hub: Hub, conn: Connection, seats: list[Any] = OPEN, variant: Any = "standard",
                  seed: int = 1) -> dict[str, Any]:
    await hub.handle(conn, json.dumps({"type": "create", "variant": variant, "seats": seats, "seed": seed}))
    replies = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        assert text is not None
        replies.append(json.loads(text))
    assert len(replies) == 1, replies
    return replies[0]


def _run(quotas: Quotas | None, body: Callable[[Hub], Awaitable[None]], agent_workers: int = 0) -> None:
    async def main() -> None:
        hub = Hub(SQLiteStore(":memory:"), quotas=quotas, agent_workers=agent_workers)
        try:
            await body(hub)
        finally:
            hub.stop()

    asyncio.run(main())


def _state(hub: Hub) -> tuple[list[str], list[str], dict[str, list[float]]]:
    """What a refusal must leave as it was: the tables in memory and stored, and the creation times counted."""
    return (sorted(hub.tables), [t.id for t in hub.store.tables()],
            {k: list(v) for k, v in hub.limiter._recent.items()})


def _refused(reply: dict[str, Any], code: str, *words: str) -> None:
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert all(w in reply["message"] for w in words), reply["message"]


def test_a_connection_may_hold_only_so_many_open_tables() -> None:
    async def body(hub: Hub) -> None:
        conn = Connection("203.0.113.5")
        for _ in range(2):
            assert (await _create(hub, conn))["type"] == "created"
        before = _state(hub)
        _refused(await _create(hub, conn), "quota_exceeded", "this connection", "(2)")
        assert _state(hub) == before and len(conn.creates) == 2
        assert (await _create(hub, Connection("203.0.113.6")))["type"] == "created"  # another client still may

    _run(Quotas(**{**NO_LIMITS, "open_tables": 2}), body)


def test_a_finished_table_no_longer_counts() -> None:
    async def body(hub: Hub) -> None:
        conn = Connection()
        table = (await _create(hub, conn, AGENTS, ONE_HAND))["table"]
        _refused(await _create(hub, conn), "quota_exceeded")
        for _ in range(3000):  # the agents play the one hand (the table then leaves memory)
            if table not in hub.tables or hub.tables[table].match.is_over:
                break
            await asyncio.sleep(0.01)
        assert len(hub.store.actions(table)) > 50
        assert (await _create(hub, conn))["type"] == "created"

    _run(Quotas(**{**NO_LIMITS, "open_tables": 1}), body)


def test_an_address_may_hold_only_so_many_open_tables_over_its_connections() -> None:
    async def body(hub: Hub) -> None:
        assert (await _create(hub, Connection("203.0.113.5")))["type"] == "created"
        assert (await _create(hub, Connection("203.0.113.5")))["type"] == "created"
        before = _state(hub)
        _refused(await _create(hub, Connection("203.0.113.5")), "quota_exceeded", "the address 203.0.113.5", "(2)")
        assert _state(hub) == before
        for _ in range(3):  # loopback (a reverse proxy on the machine) is limited per connection only
            assert (await _create(hub, Connection("127.0.0.1")))["type"] == "created"

    _run(Quotas(**{**NO_LIMITS, "open_tables": 2}), body)


def test_a_connection_may_create_only_so_many_tables_a_minute() -> None:
    async def body(hub: Hub) -> None:
        now = [1000.0]
        hub.limiter.clock = lambda: now[0]
        conn = Connection("2001:db8::1")
        for _ in range(2):
            assert (await _create(hub, conn))["type"] == "created"
        before = _state(hub)
        _refused(await _create(hub, conn), "rate_limited", "this connection", "(2)", "minute")
        assert _state(hub) == before and len(conn.creates) == 2  # the refusal is not counted
        now[0] += 59
        _refused(await _create(hub, conn), "rate_limited")
        now[0] += 2
        assert (await _create(hub, conn))["type"] == "created"

    _run(Quotas(**{**NO_LIMITS, "creates_per_minute": 2}), body)


def test_an_address_may_create_only_so_many_tables_a_minute() -> None:
    async def body(hub: Hub) -> None:
        now = [0.0]
        hub.limiter.clock = lambda: now[0]
        for _ in range(3):
            assert (await _create(hub, Connection("198.51.100.7")))["type"] == "created"
        before = _state(hub)
        _refused(await _create(hub, Connection("198.51.100.7")), "rate_limited", "the address 198.51.100.7", "(3)")
        assert _state(hub) == before
        now[0] += 61
        assert (await _create(hub, Connection("198.51.100.7")))["type"] == "created"
        assert list(hub.limiter._recent) == ["198.51.100.7"]  # the quiet minute's times are forgotten

    _run(Quotas(**{**NO_LIMITS, "creates_per_minute": 3}), body)


def test_agent_only_tables_are_capped_in_number() -> None:
    async def body(hub: Hub) -> None:
        assert (await _create(hub, Connection("203.0.113.1"), AGENTS))["type"] == "created"
        before = _state(hub)
        _refused(await _create(hub, Connection("203.0.113.2"), AGENTS), "quota_exceeded", "agent-only", "(1)")
        assert _state(hub) == before
        assert (await _create(hub, Connection("203.0.113.2"), OPEN))["type"] == "created"  # a player's table may

    _run(Quotas(**{**NO_LIMITS, "agent_tables": 1}), body)


def test_agent_only_tables_must_end_within_so_many_hands() -> None:
    async def body(hub: Hub) -> None:
        conn = Connection("203.0.113.1")
        before = _state(hub)
        for variant in ("standard", {"name": "standard", "end": {"hands": 6}}):
            _refused(await _create(hub, conn, AGENTS, variant), "quota_exceeded", "within 5 hands", "end.hands")
        assert _state(hub) == before and not conn.creates
        assert (await _create(hub, conn, AGENTS, {"name": "standard", "end": {"hands": 5}}))["type"] == "created"
        assert (await _create(hub, conn, OPEN, "standard"))["type"] == "created"  # a player's table: any length

    _run(Quotas(**{**NO_LIMITS, "agent_hands": 5}), body)


def test_quotas_are_checked() -> None:
    for bad in (0, -1, 1.5, True, "3", 10**10):
        with pytest.raises(ValueError, match="open_tables is a whole number from 1"):
            Quotas(open_tables=bad)
    assert Quotas(**NO_LIMITS).open_tables is None


def test_serve_documents_the_default_quotas(capsys: pytest.CaptureFixture[str]) -> None:
    defaults = {field: default for _, field, default, _ in cli._QUOTA_OPTIONS}
    assert defaults == {f: getattr(Quotas(), f) for f in NO_LIMITS} and Quotas() == DEFAULT_QUOTAS
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for option, _, default, _ in cli._QUOTA_OPTIONS:
        assert option in help_text and f"(default: {default}; 0: no limit)" in help_text
    args = cli.build_parser().parse_args(["serve", "--max-open-tables", "3", "--max-agent-hands", "0"])
    assert cli._quotas(args) == Quotas(open_tables=3, agent_hands=None)


def test_serve_refuses_a_bad_quota_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--max-creates-per-minute", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--max-creates-per-minute is a whole number from 0" in err and len(err.splitlines()) == 1


async def _ws_session(app: Any, host: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One WebSocket connection to ``app`` from ``host``, driven as ASGI: sends ``messages``, returns the replies."""
    incoming: list[dict[str, Any]] = [{"type": "websocket.connect"}]
    incoming += [{"type": "websocket.receive", "text": json.dumps(m)} for m in messages]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if incoming:
            return incoming.pop(0)
        for _ in range(500):
            if sum(s["type"] == "websocket.send" for s in sent) >= len(messages):
                break
            await asyncio.sleep(0.01)
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "websocket", "asgi": {"version": "3.0"}, "path": "/ws", "raw_path": b"/ws", "query_string": b"",
             "headers": [], "client": (host, 5000), "server": ("test", 80), "scheme": "ws", "root_path": "",
             "subprotocols": []}
    await app(scope, receive, send)
    return [json.loads(s["text"]) for s in sent if s["type"] == "websocket.send"]


def test_the_app_limits_each_clients_address() -> None:
    from heartslib.server.app import create_app

    app = create_app(SQLiteStore(":memory:"), quotas=Quotas(**{**NO_LIMITS, "open_tables": 1}))
    create = {"type": "create", "seats": OPEN}

    async def main() -> None:
        assert [r["type"] for r in await _ws_session(app, "203.0.113.9", [create])] == ["created"]
        _refused((await _ws_session(app, "203.0.113.9", [create]))[0], "quota_exceeded", "the address 203.0.113.9")
        assert [r["type"] for r in await _ws_session(app, "203.0.113.10", [create])] == ["created"]

    try:
        asyncio.run(main())
    finally:
        app.state.hub.stop()


# ------------------------------------------------------------------ agents thinking in worker processes


def _agents_play(agent_workers: int) -> tuple[list[dict[str, Any]], bool]:
    """An agent-only one-hand table played to the end: its stored actions, and whether worker processes ran."""
    seats = ["heuristic", "random", {"agent": "search", "playouts": 3}, "moon"]
    out: list[dict[str, Any]] = []
    used = [False]

    async def body(hub: Hub) -> None:
        table = (await _create(hub, Connection(), seats, ONE_HAND))["table"]
        for _ in range(6000):
            if table not in hub.tables or hub.tables[table].match.is_over:
                break
            await asyncio.sleep(0.01)
        out.extend(hub.store.actions(table))
        used[0] = hub.thinkers is not None and bool(hub.thinkers._processes)  # type: ignore[attr-defined]

    _run(None, body, agent_workers)
    return out, used[0]


def test_agents_think_in_worker_processes_and_play_as_in_threads() -> None:
    threaded, used = _agents_play(0)
    assert len(threaded) > 50 and not used
    in_workers, used = _agents_play(1)
    assert used and in_workers == threaded  # each agent's state (its random numbers) carried back and forth


def test_agent_workers_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (-1, 65, 1.5, True):
        with pytest.raises(ValueError, match="agent_workers is a whole number from 0"):
            Hub(SQLiteStore(":memory:"), agent_workers=bad)
    assert cli.main(["serve", "--agent-workers", "-1"]) == 2
    assert "--agent-workers: agent_workers is a whole number from 0" in capsys.readouterr().err
