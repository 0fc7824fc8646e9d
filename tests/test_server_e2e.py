"""The game server end to end: `heartslib serve` in a subprocess on 127.0.0.1, heartslib.client over real
WebSockets. Four clients play a whole match; a client disconnects mid-trick and resumes; the server is killed
and restarted mid-match and every table resumes; PostgreSQL shared by two server processes (when
HEARTSLIB_TEST_POSTGRES names a database); the command's one-line errors."""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")
pytest.importorskip("websockets", reason="the server tests need the server extra: pip install 'heartslib[server]'")

import heartslib as hl
from heartslib import cli
from heartslib.client import Client, ServerError, play_randomly
from heartslib.server.store import open_store

SHORT = {"name": "short", "end": {"target": 30}}


class Server:
    """``heartslib serve`` in a subprocess on a free port."""

    def __init__(self, database: str, *options: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "heartslib", "serve", "--port", "0", "--database",
                                      database, *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r"ws://\S+/ws", line)
        assert found, f"no address in {line!r}: {self.proc.stderr.read() if self.proc.stderr else ''}"
        self.url = found.group(0)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> str:
        """Stop it (as Ctrl-C would) and return what it wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.terminate()
        _, err = self.proc.communicate(timeout=10)
        return err


@pytest.fixture
def database(tmp_path: Path) -> str:
    return str(tmp_path / "tables.sqlite3")


@pytest.fixture
def server(database: str) -> Iterator[Server]:
    s = Server(database)
    yield s
    err = s.stop()
    assert "Traceback" not in err, err


def _replayed(database: str, table: str) -> hl.Match:
    """The match as the database holds it."""
    store = open_store(database)
    try:
        record = store.table(table)
        assert record is not None
        m = hl.Match(hl.Variant.from_dict(dict(record.variant)), record.seed)
        for data in store.actions(table):
            m.apply(hl.action_from_dict(data))
        return m
    finally:
        store.close()


def _cards_in(value: Any) -> set[str]:
    if isinstance(value, str):
        try:
            return {hl.Card.parse(value).code} if len(value) <= 3 else set()
        except ValueError:
            return set()
    if isinstance(value, list):
        return set().union(*map(_cards_in, value)) if value else set()
    if isinstance(value, dict):
        return set().union(*map(_cards_in, value.values())) if value else set()
    return set()


def _known(m: hl.Match, seat: int) -> set[str]:
    """Every card ``seat`` may know in ``m``: its deals, what it received, every card played."""
    rounds = [r.round for r in m.rounds] + ([] if m.is_over else [m.round])
    known: set[str] = set()
    for rnd in rounds:
        known |= {c.code for c in _dealt(rnd, seat)}
        known |= {c.code for t in rnd.tricks for c in t.cards} | {c.code for _, c in rnd.trick}
        if rnd.received is not None:
            known |= {c.code for c in rnd.received[seat]}
    return known


def _dealt(rnd: hl.Round, seat: int) -> set[hl.Card]:
    held = set(rnd.hand(seat))
    held |= {c for t in rnd.tricks for s, c in t.plays if s == seat} | {c for s, c in rnd.trick if s == seat}
    return held | {c for e in rnd.events if isinstance(e, hl.Pass) and e.seat == seat for c in e.cards}


def _play_all(clients: list[Client], table: str) -> None:
    """Client i takes seat i and plays randomly to the end, each in its own thread, all at once."""
    errors: list[BaseException] = []

    def play(seat: int) -> None:
        try:
            clients[seat].join(table, seat)
            play_randomly(clients[seat], random.Random(seat))
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(seat,)) for seat in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert not errors, errors


def test_four_clients_play_a_whole_match(server: Server, database: str) -> None:
    with Client(server.url) as owner:
        table = owner.create(SHORT, seats=[None] * 4, seed=12)
    clients = [Client(server.url) for _ in range(4)]
    received: list[list[dict[str, Any]]] = [[] for _ in range(4)]
    _play_all(clients, table)
    m = _replayed(database, table)
    assert m.is_over
    for seat, c in enumerate(clients):
        received[seat] = c.events
        assert c.over and c.view == m.observation(seat).to_dict()
        assert [e["number"] for e in c.events] == list(range(len(c.events)))
        # no message held a card the seat may not know
        assert _cards_in(c.events) <= _known(m, seat)
        c.close()
    assert received[0][-1]["winners"] == list(m.winners)


def test_a_client_disconnects_mid_trick_resumes_and_plays_on(server: Server, database: str) -> None:
    c = Client(server.url)
    table = c.create(SHORT, seats=[None, "random", "random", "random"], seed=5)
    token = c.join(table, 0)
    rng = random.Random(2)
    while not (c.wait_turn() and c.view["trick"]):  # seat 0 to play into a trick already led
        c.act(rng.choice(c.legal()))
    events = list(c.events)
    c.close()
    with Client(server.url) as again:
        assert again.resume(table, token, events=events) == 0
        play_randomly(again, rng)
        m = _replayed(database, table)
        assert again.view == m.observation(0).to_dict()
        assert [e["number"] for e in again.events] == list(range(len(again.events)))


def test_a_killed_server_restarts_and_every_table_resumes(database: str) -> None:
    first = Server(database)
    tables, tokens, acked = [], [], []
    clients = []
    for seed in (1, 2):
        c = Client(first.url)
        table = c.create(SHORT, seats=[None, "heuristic", "random", "heuristic"], seed=seed)
        tokens.append(c.join(table, 0))
        tables.append(table)
        rng = random.Random(seed)
        for _ in range(12):
            c.wait_turn()
            acked.append((table, c.act(rng.choice(c.legal()))["number"]))
        clients.append(c)
    first.kill()  # no shutdown: whatever was acknowledged must be in the database already
    for c in clients:
        with pytest.raises(Exception):  # noqa: B017 - the connection is gone, however websockets says it
            c.legal()
    second = Server(database)
    try:
        for table, token, old in zip(tables, tokens, clients, strict=True):
            stored = _replayed(database, table)
            assert all(number < len(stored.actions) for t, number in acked if t == table)
            with Client(second.url) as c:
                c.resume(table, token, events=old.events)
                play_randomly(c, random.Random(7))
                m = _replayed(database, table)
                assert m.is_over and c.view == m.observation(0).to_dict()
                assert m.actions[:len(stored.actions)] == stored.actions
    finally:
        err = second.stop()
    assert "Traceback" not in err, err


def test_binary_and_oversized_frames_are_refused_and_the_server_goes_on(server: Server) -> None:
    with Client(server.url) as c:
        c._ws.send(b"\x00\x01")
        reply = c.receive()
        assert reply["type"] == "error" and reply["code"] == "bad_message"
        c.send_text(json.dumps({"type": "ping", "pad": "x" * 100_000}))
        assert c.receive()["code"] == "too_large"
        assert c.request({"type": "ping"})["type"] == "pong"
    with Client(server.url) as c:
        c.send_text("x" * (2**20 + 10))  # past the WebSocket layer's limit: the connection is closed
        with pytest.raises(Exception):  # noqa: B017
            c.receive(5)
    with Client(server.url) as c, pytest.raises(ServerError, match="no_such_table"):
        c.join("missing", 0)


def test_serve_reports_a_port_in_use_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = cli.main(["serve", "--port", str(port), "--database", str(tmp_path / "x.sqlite3")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err


def test_serve_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    for name in [m for m in sys.modules if m == "starlette" or m.startswith("starlette.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.delitem(sys.modules, "heartslib.server.app", raising=False)
    assert cli.main(["serve"]) == 2
    assert "pip install 'heartslib[server]'" in capsys.readouterr().err


def test_serve_reports_a_database_it_cannot_open(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--database", str(tmp_path / "no" / "such" / "dir.sqlite3")]) == 2
    assert "cannot open the SQLite database" in capsys.readouterr().err


POSTGRES = os.environ.get("HEARTSLIB_TEST_POSTGRES")


@pytest.mark.skipif(not POSTGRES, reason="set HEARTSLIB_TEST_POSTGRES to a postgresql:// URL to run the "
                    "PostgreSQL test (.ci/run installs and starts one)")
def test_two_server_processes_share_tables_in_postgresql() -> None:
    assert POSTGRES is not None
    a, b = Server(POSTGRES), Server(POSTGRES)
    try:
        with Client(a.url) as owner:
            table = owner.create(SHORT, seats=[None, None, "random", "random"], seed=3)
        clients = [Client(a.url), Client(b.url)]  # one player on each process
        _play_all(clients, table)
        m = _replayed(POSTGRES, table)
        assert m.is_over
        for seat, c in enumerate(clients):
            assert c.view == m.observation(seat).to_dict()
            c.close()
    finally:
        for s in (a, b):
            err = s.stop()
            assert "Traceback" not in err, err
