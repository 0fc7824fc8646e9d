"""The game server under hostile or unlucky traffic (issue 54): no request that stalls everyone, every frame
answered once, no credential printed, no pump writing to a gone client, database failures reported and
recovered from, spectators and resumes served from a ready log, a turn clock, restarts that load only what is
unfinished. Each test is named after the defect it holds fixed."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import socket
import sqlite3
import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")

import heartslib as hl
from heartslib import cli
from heartslib.client import Client
from heartslib.engine import choices as engine_choices
from heartslib.engine import legality
from heartslib.server import tables
from heartslib.server.store import SQLiteStore, StoreUnavailable, TableRecord, open_store
from heartslib.server.tables import MAX_LISTED, Hub
from heartslib.streams import spectator_events
from test_server import Probe, _documented_codes, _run, _settle
from test_server_e2e import Server


def _two_decks(**passing: Any) -> dict[str, Any]:
    """The issue's table: two whole decks, four players (26 cards a hand, each card held up to twice)."""
    return {"name": "standard", "deck": {"decks": 2, "strip": []}, "passing": {"cards": 6, **passing}}


def _no_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make listing every pass fail: the work the issue's request did (230,230 combinations, then again per
    pass listed)."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("every pass listed")

    monkeypatch.setattr(legality, "pass_choices", refuse)
    monkeypatch.setattr(engine_choices, "pass_choices", refuse)


@pytest.mark.parametrize("keep", [False, True])
def test_d1_legal_at_a_two_deck_table_lists_no_pass_space_and_describes_the_pass(
        monkeypatch: pytest.MonkeyPatch, keep: bool) -> None:
    async def body(hub: Hub) -> None:
        p = Probe(hub)
        variant = _two_decks(**({"keep_last_of_suit": True} if keep else {}))
        table = (await p.reply({"type": "create", "variant": variant, "seats": [None, "random", "random", "random"],
                                "seed": 5}))["table"]
        await p.reply({"type": "join", "table": table, "seat": 0})
        _no_listing(monkeypatch)
        legal = await p.reply({"type": "legal"})
        m = hub.tables[table].match
        rules = m.round.pass_rules(0)
        assert legal["total"] == len(set(itertools.combinations(sorted(rules.hand), 6))) or keep
        assert 0 < len(legal["actions"]) <= MAX_LISTED
        described = legal["pass"]
        assert described["choose"] == 6 and described["ordered"] is False
        assert sorted(described["from"]) == sorted(c.code for c in m.round.hand(0))
        assert described["keep_last_of_suit"] is keep
        # a client can pass from the description (the first cards of "from", under the suit rule the agents'
        # card-by-card choice) or from the listed passes
        if not keep:
            assert rules.problem(hl.Pass(0, tuple(hl.Card(c) for c in described["from"][:6]))) is None
        ack = await p.reply({"type": "act", "action": legal["actions"][-1]})
        assert ack["type"] == "ack"
        await _settle(hub)  # the random agents pass too, without listing
        assert m.round.phase is not hl.Phase.PASS

    _run(body)


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("keep", [False, True])
def test_d1_the_pass_space_counts_and_unranks_every_legal_pass_with_copies(ordered: bool, keep: bool) -> None:
    rng = random.Random(3)
    for _ in range(30):
        hand = sorted(rng.choice(range(52)) for _ in range(rng.randint(4, 9)))
        size = rng.randint(1, min(4, len(hand)))
        forbidden = frozenset(rng.sample(hand, 1)) if rng.random() < 0.3 else frozenset()
        exempt = frozenset(c for c in hand if rng.random() < 0.2) if keep else None
        rules = legality.PassRules(0, tuple(hand), size, forbidden, ordered, exempt)
        expected = {tuple(c.index for c in a.cards) for a in rules.choices()}
        space = tables.PassSpace(rules)
        assert len(space) == len(expected), (hand, size, forbidden, exempt)
        got = [tuple(c.index for c in space[i].cards) for i in range(len(space))]
        assert len(set(got)) == len(got) and set(got) == expected
        assert all(a in space for a in rules.choices())


def test_d5_a_lone_surrogate_in_an_id_or_an_option_is_answered_and_the_connection_goes_on(tmp_path: Any) -> None:
    server = Server(str(tmp_path / "tables.sqlite3"))
    try:
        with Client(server.url, timeout=5) as c:
            table = c.create("standard", seats=[None, "random", "random", "random"], seed=1)
            c.join(table, 0)
            frames = [{"type": "ping", "id": "\ud800"},
                      {"type": "act", "action": {"type": "choose", "option": "\udc00"}, "id": 7},
                      {"type": "act", "action": {"type": "play", "card": "\ud83d"}, "id": 8},
                      {"type": "ping", "id": 9}]
            for frame in frames:
                c.send_text(json.dumps(frame))  # ensure_ascii: the surrogate travels as \\ud800, valid UTF-8
                replies = []
                while not replies:
                    data = c.receive(5)
                    if data["type"] != "event":
                        replies.append(data)
                assert replies[0].get("id") == frame["id"], (frame, replies)
            assert c.request({"type": "ping"})["type"] == "pong"
    finally:
        err = server.stop()
    assert "Traceback" not in err, err


#: Malformed or unreachable PostgreSQL URLs, each holding the password s3cret somewhere.
BAD_URLS = [
    "postgresql://hearts:s3cret@[::1/hearts",  # libpq quotes the whole URI back
    "postgresql://hearts:s3cret@localhost:1/hearts?sslmode=bogus",
    "postgresql://hearts:s3cret@%zz/hearts",
    "postgresql://localhost:1/hearts?password=s3cret",
    "postgresql://localhost:1/hearts?sslmode=bogus&password=s3cret",
    "postgresql://hearts:s3%63ret@[::1/hearts",  # percent-encoded
    "postgres://hearts:s3cret@host:port:bad/hearts",
]


@pytest.mark.parametrize("url", BAD_URLS)
def test_d10_a_bad_postgresql_url_never_shows_its_password(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(hl.SaveError) as caught:
        open_store(url)
    text = str(caught.value)
    assert "s3cret" not in text and "s3%63ret" not in text and "\n" not in text, text
    assert cli.main(["serve", "--database", url, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "s3cret" not in err and "s3%63ret" not in err and err.count("\n") == 1, err


class GoneSocket:
    """A WebSocket whose client vanished, as asyncio and websockets behave: the first write fails inside the
    transport, which learns it is closed only on the loop's next turn; every write until then "succeeds" and
    logs a line (asyncio's ``socket.send() raised exception.``); a write after it raises."""

    def __init__(self) -> None:
        self.broken = self.closed = False
        self.logged = 0

    def _lose(self) -> None:
        self.closed = True

    async def send(self, text: str) -> None:
        if self.closed:
            raise ConnectionResetError("the client is gone")
        if self.broken:
            self.logged += 1
        else:
            self.broken = True
            asyncio.get_running_loop().call_soon(self._lose)


def test_d12_the_pump_stops_writing_once_the_client_is_gone() -> None:
    async def main() -> None:
        conn = tables.Connection()
        for i in range(10_000):
            conn.send_data({"type": "event", "n": i})
        sock = GoneSocket()
        await asyncio.wait_for(conn.pump(sock.send), 5)
        assert sock.logged <= 1
        conn.send_data({"type": "pong"})  # queued to a gone client: dropped, not kept
        assert conn.outbox.qsize() <= 1

    asyncio.run(main())


def test_d12_a_closed_connection_drops_what_it_had_queued() -> None:
    async def main() -> None:
        conn = tables.Connection()
        for i in range(1000):
            conn.send_data({"type": "event", "n": i})
        conn.close()
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)

        await asyncio.wait_for(conn.pump(send), 5)
        assert sent == []

    asyncio.run(main())


class FullDisk:
    """A store connection whose commits fail while ``full`` (SQLite's "database or disk is full"): each
    transaction is rolled back, as on a real full disk."""

    def __init__(self, conn: Any) -> None:
        self.conn, self.full, self.failed = conn, False, 0

    def cursor(self) -> Any:
        return self.conn.cursor()

    def commit(self) -> None:
        if self.full:
            self.failed += 1
            raise sqlite3.OperationalError("database or disk is full")
        self.conn.commit()

    def rollback(self) -> None:
        self.conn.rollback()

    def close(self) -> None:
        self.conn.close()


def _fill(hub: Hub) -> FullDisk:
    disk = FullDisk(hub.store._conn)
    hub.store._conn = disk
    return disk


def test_d11_a_database_failure_is_answered_unavailable_and_changes_nothing() -> None:
    codes = _documented_codes()

    async def body(hub: Hub) -> None:
        p = Probe(hub)
        table = (await p.reply({"type": "create", "seats": [None, None, "random", "random"], "seed": 4}))["table"]
        await p.reply({"type": "join", "table": table, "seat": 0})
        legal = (await p.reply({"type": "legal"}))["actions"]
        disk = _fill(hub)
        disk.full = True
        m = hub.tables[table].match
        before = len(m.actions)
        for message in ({"type": "act", "action": legal[0]}, {"type": "create"},
                        {"type": "join", "table": table, "seat": 1}):
            reply = await p.reply(message)
            assert reply["type"] == "error" and reply["code"] == "unavailable", reply
            assert "unavailable" in codes and "try again" in reply["message"]
        assert len(m.actions) == before and len(hub.tables) == 1
        disk.full = False
        assert (await p.reply({"type": "act", "action": legal[0]}))["type"] == "ack"
        assert (await Probe(hub).reply({"type": "join", "table": table, "seat": 1}))["type"] == "joined"

    _run(body)


def test_d7_agents_stopped_by_a_failed_commit_carry_on_once_the_database_recovers() -> None:
    async def body(hub: Hub) -> None:
        disk = _fill(hub)
        p = Probe(hub)
        table = (await p.reply({"type": "create", "seats": ["random"] * 4, "seed": 4,
                                "variant": {"name": "standard", "end": {"hands": 1}}}))["table"]
        disk.full = True  # before the agents' first action (they start when the hub next waits)
        await p.reply({"type": "spectate", "table": table})
        assert await _until(lambda: disk.failed >= 2, 5)  # refused, and tried again
        stuck = len(hub.tables[table].match.actions)
        disk.full = False
        for _ in range(200):  # no message from anyone: the agents retry by themselves
            await asyncio.sleep(0.05)
            if hub.tables[table].match.is_over:
                break
        m = hub.tables[table].match
        assert m.is_over and len(m.actions) > stuck
        assert len(hub.store.actions(table)) == len(m.actions)

    _run(body)


def _on_the_loop(monkeypatch: pytest.MonkeyPatch, name: str) -> list[bool]:
    """Record, for each call of ``heartslib.server.tables.<name>``, whether it ran on the event loop's thread."""
    calls: list[bool] = []
    real = getattr(tables, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(tables, name, spy)
    return calls


async def _play_seat(hub: Hub, p: Probe, table: str, seat: int) -> None:
    m = hub.tables[table].match
    while not m.is_over:
        await _settle(hub)
        if seat in m.to_act:
            await p.reply({"type": "act", "action": (await p.reply({"type": "legal"}))["actions"][0]})
    await _settle(hub)
    p.drain()


def test_d2_spectate_and_resume_are_served_from_the_tables_log_never_replayed_on_the_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def body(hub: Hub) -> None:
        p = Probe(hub)
        table = (await p.reply({"type": "create", "seats": [None, "random", "random", "random"], "seed": 2,
                                "variant": {"name": "standard", "end": {"hands": 2}}}))["table"]
        token = (await p.reply({"type": "join", "table": table, "seat": 0}))["token"]
        await _play_seat(hub, p, table, 0)
        watcher = Probe(hub)
        await watcher.reply({"type": "spectate", "table": table})  # keeps the finished table in memory
        m = hub.tables[table].match
        replays = _on_the_loop(monkeypatch, "replay_stream")
        parsed = _on_the_loop(monkeypatch, "action_from_dict")
        probes = [p, watcher]
        for _ in range(10):
            s, r = Probe(hub), Probe(hub)
            probes += [s, r]
            await s.reply({"type": "spectate", "table": table})
            await r.reply({"type": "resume", "table": table, "token": token, "since": 5})
            assert s.events == [e.to_dict() for e in spectator_events(m)] == watcher.events
            assert r.events == p.events[5:] and r.events[-1]["kind"] == "end"
        assert replays == [] and parsed == []  # nothing replayed: both views' logs were ready
        for probe in probes:
            hub.drop(probe.conn)
        assert table not in hub.tables  # put away: read back (and replayed) off the loop when asked
        late = Probe(hub)
        await late.reply({"type": "spectate", "table": table})
        assert late.events == watcher.events
        assert not any(replays) and not any(parsed) and parsed

    _run(body)


def _clocked(body: Any, turn_timeout: float | None) -> None:
    async def main() -> None:
        hub = Hub(SQLiteStore(":memory:"), turn_timeout=turn_timeout)
        await hub.load()
        try:
            await body(hub)
        finally:
            hub.stop()

    asyncio.run(main())


async def _until(check: Any, seconds: float) -> bool:
    for _ in range(int(seconds / 0.02)):
        if check():
            return True
        await asyncio.sleep(0.02)
    return bool(check())


def test_d9_a_player_who_does_not_act_in_time_is_stood_in_for_and_gets_the_seat_back() -> None:
    async def body(hub: Hub) -> None:
        p, s = Probe(hub), Probe(hub)
        table = (await p.reply({"type": "create", "seats": [None, "random", "random", "random"], "seed": 3}))["table"]
        await p.reply({"type": "join", "table": table, "seat": 0})
        await s.reply({"type": "spectate", "table": table})
        m = hub.tables[table].match
        assert await _until(lambda: len(m.actions) >= 8, 5)  # seat 0 passed (by the stand-in), play went on
        notices = [x for x in p.drain() if x["type"] == "stand_in"]
        assert notices[0] == {"type": "stand_in", "table": table, "seat": 0, "agent": "heuristic", "active": True}
        assert [x for x in s.drain() if x["type"] == "stand_in"][:1] == notices[:1]  # announced to the table
        assert await _until(lambda: 0 not in m.to_act, 5)
        # the player is back (an act, even one refused): the seat is theirs again, announced
        back = await p.send({"type": "act", "action": {"type": "play", "card": "2C"}})
        assert {"type": "stand_in", "table": table, "seat": 0, "agent": "heuristic", "active": False} in back
        assert [x["active"] for x in s.drain() if x["type"] == "stand_in"] == [False]
        assert await _until(lambda: 0 in m.to_act, 5)
        waited = len(m.actions)
        await asyncio.sleep(0.1)  # within the clock: the table waits for its player
        assert len(m.actions) == waited and 0 in m.to_act
        legal = (await p.reply({"type": "legal"}))["actions"]
        assert (await p.reply({"type": "act", "action": legal[0]}))["type"] == "ack"

    _clocked(body, 1.0)


def test_d9_without_a_turn_clock_a_table_waits_for_its_player() -> None:
    async def body(hub: Hub) -> None:
        p = Probe(hub)
        table = (await p.reply({"type": "create", "seats": [None, "random", "random", "random"], "seed": 3}))["table"]
        await p.reply({"type": "join", "table": table, "seat": 0})
        await asyncio.sleep(0.5)
        await _settle(hub)
        m = hub.tables[table].match
        assert 0 in m.to_act and not any(x["type"] == "stand_in" for x in p.drain())

    _clocked(body, None)
    with pytest.raises(ValueError, match="turn_timeout"):
        Hub(SQLiteStore(":memory:"), turn_timeout=0)


def test_d9_serve_runs_a_turn_clock_when_asked(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    server = Server(str(tmp_path / "tables.sqlite3"), "--turn-timeout", "0.3")
    try:
        with Client(server.url, timeout=10) as c:
            table = c.create("standard", seats=[None, "random", "random", "random"], seed=1)
            c.join(table, 0)
            notice = c.receive()
            while notice["type"] == "event":
                notice = c.receive()
            assert notice == {"type": "stand_in", "table": table, "seat": 0, "agent": "heuristic", "active": True}
    finally:
        err = server.stop()
    assert "Traceback" not in err, err
    for bad in ("0", "-1", "nan", "1e99"):
        assert cli.main(["serve", "--turn-timeout", bad, "--database", str(tmp_path / "x.sqlite3")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--turn-timeout" in err and "seconds above 0" in err, err


def test_d6_a_restart_loads_the_unfinished_tables_only_and_finished_ones_on_demand(tmp_path: Any) -> None:
    path = str(tmp_path / "tables.sqlite3")

    async def first() -> tuple[list[str], str]:
        hub = Hub(open_store(path))
        await hub.load()
        p = Probe(hub)
        done = [(await p.reply({"type": "create", "seats": ["random"] * 4, "seed": seed,
                                "variant": {"name": "standard", "end": {"hands": 1}}}))["table"]
                for seed in range(12)]
        open_table = (await p.reply({"type": "create", "seats": [None, "random", "random", "random"]}))["table"]
        await _settle(hub)
        assert await _until(lambda: not hub._background, 5)  # marked finished in threads
        hub.stop()
        hub.store.close()
        return done, open_table

    async def again(expect_rebuilt: int) -> None:
        hub = Hub(open_store(path))
        rebuilt = []
        real = hub._rebuild

        def spy(record: Any) -> Any:
            rebuilt.append(record.id)
            return real(record)

        hub._rebuild = spy  # type: ignore[method-assign]
        await hub.load()
        assert len(rebuilt) == expect_rebuilt and list(hub.tables) == [open_table]
        watcher = Probe(hub)  # a finished table is read back when asked
        await watcher.reply({"type": "spectate", "table": done[3]})
        assert watcher.events[-1]["kind"] == "end" and rebuilt[-1] == done[3]
        hub.stop()
        hub.store.close()

    done, open_table = asyncio.run(first())
    asyncio.run(again(1))
    # a database written before finished tables were marked: the first restart replays them once and marks them
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM hl_finished")
    asyncio.run(again(13))
    asyncio.run(again(1))


STORE_CALLS = ("create_table", "claim_seat", "seat_of", "claimed", "table", "actions", "add_actions", "mark_finished",
               "unfinished")


def test_load_no_database_call_runs_on_the_event_loop() -> None:
    async def body(hub: Hub) -> None:
        on_loop: list[str] = []
        for name in STORE_CALLS:
            real = getattr(hub.store, name)

            def spy(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
                if threading.current_thread() is threading.main_thread():
                    on_loop.append(_name)
                return _real(*args, **kwargs)

            setattr(hub.store, name, spy)
        p = Probe(hub)
        table = (await p.reply({"type": "create", "seats": [None, "random", "random", "random"], "seed": 1,
                                "variant": {"name": "standard", "end": {"hands": 1}}}))["table"]
        token = (await p.reply({"type": "join", "table": table, "seat": 0}))["token"]
        assert (await p.reply({"type": "resume", "table": table, "token": token}))["type"] == "joined"
        await _play_seat(hub, p, table, 0)
        hub.drop(p.conn)
        assert table not in hub.tables
        assert (await Probe(hub).reply({"type": "spectate", "table": table}))["type"] == "spectating"
        assert await _until(lambda: not hub._background, 5)
        assert on_loop == []

    _run(body)


POSTGRES = os.environ.get("HEARTSLIB_TEST_POSTGRES")
needs_postgres = pytest.mark.skipif(not POSTGRES, reason="set HEARTSLIB_TEST_POSTGRES to a postgresql:// URL to run "
                                    "the PostgreSQL tests (.ci/run installs and starts one)")


def _forget(store: Any, ids: list[str]) -> None:
    """Remove test tables from a shared database (the PostgreSQL one other tests' servers load)."""
    with store._transaction() as cur:
        for table in ("hl_tables", "hl_actions", "hl_finished", "hl_tokens"):
            key = "id" if table == "hl_tables" else "table_id"
            for tid in ids:
                cur.execute(store._sql(f"DELETE FROM {table} WHERE {key} = ?"), (tid,))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=needs_postgres)])
def any_store(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    store = open_store(str(tmp_path / "t.sqlite3") if request.param == "sqlite" else str(POSTGRES))
    store.made = []
    yield store
    _forget(store, store.made)
    store.close()


def test_d6_finished_tables_are_marked_once_and_left_out_of_a_restart(any_store: Any) -> None:
    ids = any_store.made = [f"d6-{random.randrange(10**12)}-{k}" for k in range(3)]
    for tid in ids:
        any_store.create_table(TableRecord(tid, {"name": "standard"}, 1, ("open",) * 4))
    any_store.mark_finished(ids[0])
    any_store.mark_finished(ids[0])  # again: nothing changes
    any_store.mark_finished(ids[2])
    unfinished = {t.id for t in any_store.unfinished()}
    assert ids[1] in unfinished and ids[0] not in unfinished and ids[2] not in unfinished


@needs_postgres
def test_d7_a_postgresql_store_that_lost_its_connection_is_unavailable_once_then_reconnects() -> None:
    import psycopg

    store = open_store(str(POSTGRES))
    tid = f"d7-{random.randrange(10**12)}"
    store.create_table(TableRecord(tid, {"name": "standard"}, 1, ("open",) * 4))
    with psycopg.connect(str(POSTGRES), autocommit=True) as admin:  # the database restarts, say
        admin.execute("SELECT pg_terminate_backend(%s)", (store._conn.info.backend_pid,))
    with pytest.raises(StoreUnavailable) as caught:
        store.add_action(tid, 0, {"n": 0})
    assert "hearts@" not in str(caught.value)
    store.add_action(tid, 0, {"n": 0})  # a new connection: the store carries on
    assert store.actions(tid) == [{"n": 0}]
    _forget(store, [tid])
    store.close()


def test_a_stored_table_that_no_longer_replays_is_logged_and_the_others_resume(tmp_path: Any,
                                                                              caplog: pytest.LogCaptureFixture) -> None:
    store = open_store(str(tmp_path / "t.sqlite3"))
    store.create_table(TableRecord("bad", {"name": "standard"}, 1, ("open",) * 4))
    store.add_action("bad", 0, {"n": 0})
    store.create_table(TableRecord("good", {"name": "standard"}, 1, ("open",) * 4))

    async def main() -> None:
        hub = Hub(store)
        await hub.load()
        assert list(hub.tables) == ["good"]
        hub.stop()

    asyncio.run(main())
    assert "table bad cannot be resumed" in caplog.text
    store.close()


@needs_postgres
def test_load_postgresql_processes_hear_of_each_others_actions_without_polling() -> None:
    async def main() -> None:
        a, b = Hub(open_store(str(POSTGRES))), Hub(open_store(str(POSTGRES)))
        await a.load()
        await b.load()
        made: list[str] = []
        try:
            p = Probe(a)
            table = (await p.reply({"type": "create", "seats": [None] * 4, "seed": 2}))["table"]
            made.append(table)
            await p.reply({"type": "join", "table": table, "seat": 0})
            watcher = Probe(b)
            await watcher.reply({"type": "spectate", "table": table})
            reads = []
            real = b.store.actions

            def spy(*args: Any) -> Any:
                reads.append(args)
                return real(*args)

            b.store.actions = spy  # type: ignore[method-assign]
            await asyncio.sleep(1.0)  # nothing happens: nobody asks the database anything
            assert reads == []
            seen = 0
            watcher.drain()
            legal = (await p.reply({"type": "legal"}))["actions"]
            assert (await p.reply({"type": "act", "action": legal[0]}))["type"] == "ack"
            assert await _until(lambda: len(watcher.drain()) > seen, 3)  # told of it, it reads the new action
            assert 1 <= len(reads) <= 2
        finally:
            a.stop()
            b.stop()
            _forget(a.store, made)
            a.store.close()
            b.store.close()

    asyncio.run(main())


def test_d1_the_play_page_passes_both_copies_of_a_card_at_a_two_deck_table(tmp_path: Any) -> None:
    from test_server_browser import Browser  # skips this test where there is no Chromium

    server = Server(str(tmp_path / "tables.sqlite3"))
    browser = Browser(tmp_path / "profile")
    try:
        with Client(server.url) as host:
            table = host.create(_two_decks(), seats=[None, "random", "random", "random"], seed=3)
        page = server.url.replace("ws://", "http://").removesuffix("/ws") + f"/play?table={table}&seat=0"
        browser.call("Page.navigate", url=page)
        for _ in range(400):
            status = browser.evaluate("document.getElementById('status')?.textContent || ''")
            if status.startswith("Your turn: choose"):
                break
            time.sleep(0.05)
        twice = browser.evaluate("""(() => {
          const hand = state.view.hand, twice = hand.find((c, i) => hand.indexOf(c) !== i);
          const buttons = [...document.querySelectorAll('#hand button')];
          for (const b of buttons.filter((b) => b.dataset.card === twice)) b.click();
          for (const b of buttons) if (document.querySelectorAll('#hand button.chosen').length < 6
                                      && b.dataset.card !== twice) b.click();
          document.getElementById('pass').click();
          return twice;
        })()""")
        stored = open_store(str(tmp_path / "tables.sqlite3"))
        for _ in range(400):
            passes = [a for a in stored.actions(table) if a["type"] == "pass" and a["seat"] == 0]
            if passes:
                break
            time.sleep(0.05)
        stored.close()
        assert passes and passes[0]["cards"].count(twice) == 2, (twice, passes)
        assert browser.errors == []
    finally:
        browser.close()
        err = server.stop()
    assert "Traceback" not in err, err


def test_d12_a_spectate_flood_from_a_client_that_vanishes_logs_nothing_and_the_server_answers(tmp_path: Any) -> None:
    server = Server(str(tmp_path / "tables.sqlite3"))
    try:
        with Client(server.url) as host:
            table = host.create({"name": "standard", "end": {"hands": 2}}, seats=["random"] * 4, seed=1)
            host.spectate(table)
            while not host.over:
                host.receive()
        flood = Client(server.url)
        for _ in range(300):  # each queues the whole match's events, some 130 messages
            flood.send_text(json.dumps({"type": "spectate", "table": table}))
        time.sleep(0.3)
        flood._ws.socket.shutdown(socket.SHUT_RDWR)  # gone without a goodbye
        flood._ws.socket.close()
        time.sleep(1.0)
        with Client(server.url, timeout=10) as other:
            assert other.request({"type": "ping"})["type"] == "pong"
    finally:
        err = server.stop()
    assert "Traceback" not in err and err.count("\n") <= 5, err[-2000:]


def test_d6_the_app_serves_before_its_stored_tables_are_loaded(tmp_path: Any) -> None:
    from heartslib.server.app import create_app

    path = str(tmp_path / "tables.sqlite3")

    async def first() -> str:
        hub = Hub(open_store(path))
        await hub.load()
        p = Probe(hub)
        table = (await p.reply({"type": "create", "seats": ["random"] * 4, "seed": 5,
                                "variant": {"name": "standard", "end": {"hands": 1}}}))["table"]
        hub.stop()  # mid-hand: the agents stop with the server
        hub.store.close()
        return table

    async def restart(table: str) -> None:
        app = create_app(path)
        hub = app.state.hub
        release = asyncio.Event()
        load = hub.load

        async def slow_load() -> None:  # a database of many unfinished tables, say
            await release.wait()
            await load()

        hub.load = slow_load
        async with asyncio.timeout(10), app.router.lifespan_context(app):
            watcher = Probe(hub)  # served at once: the table is read when asked, and its agents play on
            assert (await watcher.reply({"type": "spectate", "table": table}))["type"] == "spectating"
            served = hub.tables[table]
            release.set()
            assert await _until(lambda: served.match.is_over, 5)
            assert hub.tables[table] is served  # the load did not read it a second time

    table = asyncio.run(first())
    asyncio.run(restart(table))


class _Raced(SQLiteStore):
    """A shared store where another process stores first: the next ``raced`` rows written conflict (nothing new
    to read: the other process's actions were of other seats, still to come), then rows are stored."""

    shared = True

    def __init__(self) -> None:
        super().__init__(":memory:")
        self.raced = 0

    def add_actions(self, rows: Any) -> Any:
        from heartslib.server.store import StoreConflict

        out: list[Any] = []
        for row in rows:
            if self.raced > 0:
                self.raced -= 1
                out.append(StoreConflict(f"hl_actions[{row[0]}:{row[1]}]", "another process stored this action first"))
            else:
                out += super().add_actions([row])
        return out


@pytest.mark.parametrize("raced", [2, 4, 5])
def test_a_legal_action_raced_by_other_processes_is_tried_once_per_seat_before_conflict(raced: int) -> None:
    # while passing every seat acts at once: with bots on several processes, a pass may lose the race several
    # times in a row. Caught up each time, it is judged again and stored (five tries at a table of four); only
    # past them is the client told "conflict", and then nothing is applied
    async def main() -> None:
        hub = Hub(_Raced())
        await hub.load()
        try:
            p = Probe(hub)
            table = (await p.reply({"type": "create", "seats": [None] * 4, "seed": 2}))["table"]
            await p.reply({"type": "join", "table": table, "seat": 0})
            legal = (await p.reply({"type": "legal"}))["actions"]
            assert isinstance(hub.store, _Raced)
            hub.store.raced = raced
            got = await p.reply({"type": "act", "action": legal[0]})
            m = hub.tables[table].match
            if raced < 5:
                assert got["type"] == "ack" and len(m.actions) == 1
                assert hub.store.actions(table) == [m.actions[0].to_dict()]
            else:
                assert got["type"] == "error" and got["code"] == "conflict", got
                assert len(m.actions) == 0 and hub.store.actions(table) == []
        finally:
            hub.stop()

    asyncio.run(main())
