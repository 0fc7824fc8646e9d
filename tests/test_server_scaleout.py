"""The scale-out recipe of docs/server.md, as written there: two ``heartslib serve`` processes on one PostgreSQL
database. Tables are created on either; each table's players connect to both; one process is killed (kill -9)
part way, and its clients resume on the other with their tokens and play on. Every match ends as the database
holds it, every client's view is its seat's observation, and no event is lost or repeated.

Runs where HEARTSLIB_TEST_POSTGRES names a PostgreSQL database (.ci/run starts one from Debian's packages);
skips, saying so, elsewhere.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")
pytest.importorskip("websockets", reason="the server tests need the server extra: pip install 'heartslib[server]'")

from heartslib import strategies as hst
from heartslib.client import Client, ServerError
from heartslib.server.store import open_store
from heartslib.server.tables import Connection, Hub
from test_server_e2e import SHORT, Server, _replayed

POSTGRES = os.environ.get("HEARTSLIB_TEST_POSTGRES")

#: How many actions each table has stored when the first process is killed.
KILL_AFTER = 30


def _seat(urls: list[str], table: str, seat: int, seed: int, clients: dict[tuple[str, int], Client],
          resumed: set[tuple[str, int]], errors: list[BaseException]) -> None:
    """Take ``seat`` on the first process and play randomly to the end as the protocol says a client does (a
    ``conflict`` looked at again, a view behind the table read on); if that process dies, resume on the
    second with the seat's token and the events received so far."""
    try:
        c = Client(urls[0])
        token = c.join(table, seat)
        rng = random.Random(seed)
        for url in [*urls[1:], ""]:
            try:
                while c.wait_turn():
                    choices = c.legal()
                    if not choices:  # the view was behind the process's table: read on
                        if not c.over:
                            c.receive()
                        continue
                    try:
                        c.act(rng.choice(choices))
                    except ServerError as exc:  # another process applied an action first: look again
                        if exc.code != "conflict":
                            raise
                break
            except Exception:  # the process is gone, however websockets says it: on to the next
                if not url:
                    raise
                events = list(c.events)
                c = Client(url)
                c.resume(table, token, events=events)
                resumed.add((table, seat))
        clients[table, seat] = c
    except BaseException as exc:  # reported by the test's thread
        errors.append(exc)


def _stored(table: str) -> int:
    assert POSTGRES is not None
    store = open_store(POSTGRES)
    try:
        return len(store.actions(table))
    finally:
        store.close()


@pytest.mark.skipif(not POSTGRES, reason="set HEARTSLIB_TEST_POSTGRES to a postgresql:// URL to run the "
                    "PostgreSQL scale-out test (.ci/run installs and starts one)")
def test_two_processes_on_one_database_carry_every_table_through_a_kill() -> None:
    assert POSTGRES is not None
    a, b = Server(POSTGRES), Server(POSTGRES)
    try:
        tables = []
        for seed, server in enumerate((a, b), 11):  # one table created on each process
            with Client(server.url) as owner:
                tables.append(owner.create(SHORT, seats=[None, None, None, "random"], seed=seed))
        clients: dict[tuple[str, int], Client] = {}
        errors: list[BaseException] = []
        resumed: set[tuple[str, int]] = set()
        # seats 0 and 1 on the process that will be killed, seat 2 on the other, whichever process created it
        threads = [threading.Thread(target=_seat, args=([a.url, b.url] if seat < 2 else [b.url], table, seat,
                                                        100 * i + seat, clients, resumed, errors))
                   for i, table in enumerate(tables) for seat in range(3)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 120
        while min(map(_stored, tables)) < KILL_AFTER and not errors and time.monotonic() < deadline:
            time.sleep(0.05)
        a.kill()
        at_kill = [_stored(table) for table in tables]
        for t in threads:
            t.join(180)
        assert not errors, errors
        assert not any(t.is_alive() for t in threads), "a client never finished"
        # every client of the killed process went on through the other, and every match went on after the kill
        assert resumed == {(table, seat) for table in tables for seat in (0, 1)}
        for table, stored in zip(tables, at_kill, strict=True):
            m = _replayed(POSTGRES, table)
            assert m.is_over and len(m.actions) > stored >= KILL_AFTER
            for seat in range(3):
                c = clients[table, seat]
                assert c.view == m.observation(seat).to_dict()
                c.close()
    finally:
        if a.proc.poll() is None:
            a.kill()
        err = b.stop()
    assert "Traceback" not in err, err


@pytest.mark.skipif(not POSTGRES, reason="set HEARTSLIB_TEST_POSTGRES to a postgresql:// URL to run the "
                    "PostgreSQL scale-out test (.ci/run installs and starts one)")
def test_a_process_that_reads_several_actions_at_once_writes_the_same_events() -> None:
    # a client may resume on any process from the events another sent it: so each action's change of view must
    # be on its own last event in every process's log, however many actions a process read at once
    async def body() -> None:
        assert POSTGRES is not None
        a, b = Hub(open_store(POSTGRES)), Hub(open_store(POSTGRES))  # b not loaded: it reads only when told to
        try:
            owner = Connection()
            await a.handle(owner, json.dumps({"type": "create", "seats": [None] * 4, "seed": 5}))
            table = json.loads(owner.outbox.get_nowait() or "{}")["table"]
            seats = [Connection() for _ in range(4)]
            for seat, conn in enumerate(seats):
                await a.handle(conn, json.dumps({"type": "join", "table": table, "seat": seat}))
            for hub in (a, b):
                await hub.handle(Connection(), json.dumps({"type": "spectate", "table": table}))
            m, rng = a.tables[table].match, random.Random(5)
            for _ in range(9):  # the passes and a trick and more, all through a
                action = hst.random_action(m, rng)
                await a.handle(seats[action.seat], json.dumps({"type": "act", "action": action.to_dict()}))
            async with b.tables[table].lock:
                await b._catch_up(b.tables[table])  # nine actions read at once
            assert b.tables[table].logs[None].texts == a.tables[table].logs[None].texts
        finally:
            for hub in (a, b):
                hub.stop()
                hub.store.close()

    asyncio.run(body())
