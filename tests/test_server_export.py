"""Exporting the game server's records (issue 54): ``GET /tables/{id}/record`` and ``heartslib records export``.

A finished table's record is the engine's own (:mod:`heartslib.record`, version 2) with the ``table`` and
``players`` headers; an unfinished table's is refused (it would show every seat's cards); an unknown id, a table
that does not replay and a failed database each get their documented status and code, never a 500. The app is
driven as ASGI in process (no HTTP client needed); the PostgreSQL variants run when HEARTSLIB_TEST_POSTGRES is set.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")

import heartslib as hl
from heartslib import cli
from heartslib import strategies as hst
from heartslib.record import from_record, from_record_text, record_headers
from heartslib.server import tables as server_tables
from heartslib.server.app import create_app
from heartslib.server.store import (
    RecordRefused,
    SQLiteStore,
    Store,
    StoreUnavailable,
    TableRecord,
    export_record,
    open_store,
)

ONE_HAND = {"name": "standard", "end": {"hands": 1}}
SEATS = ("open", "random", "heuristic", "search:5")
POSTGRES = os.environ.get("HEARTSLIB_TEST_POSTGRES")
needs_postgres = pytest.mark.skipif(not POSTGRES, reason="set HEARTSLIB_TEST_POSTGRES to a postgresql:// URL to run "
                                    "the PostgreSQL tests (.ci/run installs and starts one)")


def _store_match(store: Store, table_id: str, *, seed: int = 3, actions: int | None = None,
                 seats: tuple[str, ...] = SEATS) -> hl.Match:
    """Store a table and play it with random actions, as the server stores them: to the end, or ``actions``."""
    v = hl.Variant.from_dict(ONE_HAND)
    m = hl.Match(v, seed)
    store.create_table(TableRecord(table_id, v.to_dict(), seed, seats))
    rng = random.Random(seed)
    while not m.is_over and (actions is None or len(m.actions) < actions):
        action = hst.random_action(m, rng)
        store.add_action(table_id, len(m.actions), action.to_dict())
        m.apply(action)
    return m


def _get(store: Store, path: str, query: str = "") -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` from the app on ``store``, driven as ASGI: the status, the headers and the body."""
    app = create_app(store)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "headers": [],
             "server": ("test", 80), "client": ("127.0.0.1", 1), "root_path": ""}
    try:
        asyncio.run(app(scope, receive, send))
    finally:
        app.state.hub.stop()
    start = sent[0]
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    return start["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])


@pytest.fixture
def store() -> Store:
    return SQLiteStore(":memory:")


def test_a_finished_tables_record_is_served_as_json_with_its_headers(store: Store) -> None:
    m = _store_match(store, "t1")
    status, headers, body = _get(store, "/tables/t1/record")
    assert status == 200 and headers["content-type"] == "application/json"
    data = json.loads(body)
    assert from_record(data) == m
    assert data["headers"] == {"table": "t1", "players": ["?", "random", "heuristic", "search:5"]}
    assert "date" not in data["headers"]  # the store keeps no creation time


def test_a_finished_tables_record_is_served_as_text(store: Store) -> None:
    m = _store_match(store, "t1")
    status, headers, body = _get(store, "/tables/t1/record", "format=text")
    assert status == 200 and headers["content-type"] == "text/plain; charset=utf-8"
    text = body.decode("utf-8")
    assert from_record_text(text) == m
    assert record_headers(text) == {"table": "t1", "players": ["?", "random", "heuristic", "search:5"]}


def test_an_unfinished_tables_record_is_refused_without_a_card(store: Store) -> None:
    m = _store_match(store, "t1", actions=10)
    status, _, body = _get(store, "/tables/t1/record")
    data = json.loads(body)
    assert status == 409 and data["code"] == "in_progress" and "in progress" in data["message"]
    assert not any(c.code in body.decode() for h in m.round.hands for c in h)


def test_an_unknown_table_is_404(store: Store) -> None:
    status, _, body = _get(store, "/tables/nope/record")
    assert status == 404 and json.loads(body)["code"] == "no_such_table"


def test_an_unknown_format_is_400(store: Store) -> None:
    _store_match(store, "t1")
    status, _, body = _get(store, "/tables/t1/record", "format=pbn")
    data = json.loads(body)
    assert status == 400 and data["code"] == "bad_format" and "json or text" in data["message"]


def test_a_table_that_does_not_replay_is_a_client_error_not_a_500(store: Store) -> None:
    _store_match(store, "t1")
    with store._transaction() as cur:  # edited by hand: an action no longer legal
        cur.execute("UPDATE hl_actions SET action = ? WHERE table_id = 't1' AND number = 30",
                    (json.dumps({"type": "play", "seat": 0, "card": "ZZ"}),))
    status, _, body = _get(store, "/tables/t1/record")
    data = json.loads(body)
    assert status == 422 and data["code"] == "bad_record" and "does not replay" in data["message"]
    with store._transaction() as cur:  # and a row that is not JSON at all
        cur.execute("UPDATE hl_actions SET action = '{' WHERE table_id = 't1' AND number = 30")
    status, _, body = _get(store, "/tables/t1/record")
    assert status == 422 and json.loads(body)["code"] == "bad_record"


def test_a_failed_database_is_503_unavailable(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _store_match(store, "t1")

    def broken(table_id: str) -> None:
        raise StoreUnavailable("database", "OperationalError: disk I/O error")

    monkeypatch.setattr(store, "table", broken)
    status, _, body = _get(store, "/tables/t1/record")
    assert status == 503 and json.loads(body)["code"] == "unavailable"


def test_the_record_is_rebuilt_off_the_event_loop(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _store_match(store, "t1")
    threads: list[int] = []

    def spy(*args: Any) -> str:
        threads.append(threading.get_ident())
        return export_record(*args)

    monkeypatch.setattr(server_tables, "export_record", spy)
    assert _get(store, "/tables/t1/record")[0] == 200
    assert threads and threads[0] != threading.get_ident()  # asyncio.run's loop runs on this thread


def test_header_names_are_cleaned_to_what_a_record_allows(store: Store) -> None:
    odd = ("open", " ann|bo\x01 " + "x" * 200, "\x7f", "random")
    m = _store_match(store, "t|1", seats=odd)
    data = json.loads(export_record(store.table("t|1") or pytest.fail(), store.actions("t|1")))
    players = data["headers"]["players"]
    assert players[0] == "?" and players[1].startswith("ann bo x") and len(players[1]) == 100
    assert players[2] == "?" and from_record(data) == m
    assert record_headers(export_record(store.table("t|1") or pytest.fail(), store.actions("t|1"), "text")) \
        == data["headers"]


def test_refusals_survive_pickling() -> None:
    import pickle

    exc = pickle.loads(pickle.dumps(RecordRefused("table t", "gone", "no_such_table")))
    assert exc.code == "no_such_table" and str(exc) == "table t: gone"


# ------------------------------------------------------------------ heartslib records export


def _export(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["records", "export", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_records_export_writes_each_finished_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite3")
    store = open_store(db)
    a, b = _store_match(store, "a", seed=1), _store_match(store, "b", seed=2)
    _store_match(store, "c", actions=5)
    store.close()
    code, out, err = _export(capsys, "--database", db, "--out", str(tmp_path))
    assert code == 0 and err == "" and "2 written" in out and "1 unfinished" in out
    assert from_record(json.loads((tmp_path / "a.json").read_text("utf-8"))) == a
    assert from_record(json.loads((tmp_path / "b.json").read_text("utf-8"))) == b
    assert not (tmp_path / "c.json").exists()
    code, out, err = _export(capsys, "--database", db, "--out", str(tmp_path), "--table", "b", "--format", "text")
    assert code == 0 and from_record_text((tmp_path / "b.txt").read_text("utf-8")) == b
    assert not (tmp_path / "a.txt").exists()


def test_records_export_skips_an_unreadable_table_in_one_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite3")
    store = open_store(db)
    _store_match(store, "good")
    _store_match(store, "bad", seed=5)
    _store_match(store, "../evil", seed=6)  # an id that would write outside --out
    with store._transaction() as cur:
        cur.execute("UPDATE hl_actions SET action = '{' WHERE table_id = 'bad' AND number = 3")
    store.close()
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    code, out, err = _export(capsys, "--database", db, "--out", str(out_dir))
    lines = err.splitlines()
    assert code == 1 and len(lines) == 2 and "Traceback" not in err
    assert any("bad" in line for line in lines) and any("evil" in line and "file" in line for line in lines)
    assert sorted(p.name for p in tmp_path.rglob("*.json")) == ["good.json"] and "2 unreadable" in out


def test_records_export_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite3")
    store = open_store(db)
    _store_match(store, "c", actions=5)
    store.close()
    code, _, err = _export(capsys, "--database", db, "--table", "nope", "--out", str(tmp_path))
    assert code == 2 and "no table 'nope'" in err
    code, _, err = _export(capsys, "--database", db, "--table", "c", "--out", str(tmp_path))
    assert code == 2 and "in progress" in err and not list(tmp_path.glob("*.json"))
    code, _, err = _export(capsys, "--database", db, "--out", str(tmp_path / "none"))
    assert code == 2 and "not a folder" in err
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["records", "export", "--database", db, "--format", "pbn"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["records", "export"])
    assert exit_info.value.code == 2
    capsys.readouterr()


def test_records_export_never_shows_a_postgresql_password(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _export(capsys, "--database", "postgresql://alice:sekrit99@localhost:notaport/db")
    assert code == 2 and err.startswith("heartslib: error:") and len(err.splitlines()) == 1
    assert "sekrit99" not in out + err and "Traceback" not in err


@needs_postgres
def test_records_on_postgresql(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert POSTGRES is not None
    store = open_store(POSTGRES)
    ids = [f"exp{secrets.token_hex(4)}", f"exp{secrets.token_hex(4)}"]
    try:
        m = _store_match(store, ids[0])
        _store_match(store, ids[1], actions=5)
        status, _, body = _get(store, f"/tables/{ids[0]}/record")
        assert status == 200 and from_record(json.loads(body)) == m
        assert _get(store, f"/tables/{ids[1]}/record")[0] == 409
        code, _, _ = _export(capsys, "--database", POSTGRES, "--table", ids[0], "--out", str(tmp_path))
        assert code == 0 and from_record(json.loads((tmp_path / f"{ids[0]}.json").read_text("utf-8"))) == m
    finally:
        store = open_store(POSTGRES)
        with store._transaction() as cur:
            for table in ("hl_tables", "hl_actions", "hl_finished", "hl_tokens"):
                key = "id" if table == "hl_tables" else "table_id"
                for tid in ids:
                    cur.execute(store._sql(f"DELETE FROM {table} WHERE {key} = ?"), (tid,))
        store.close()


def test_two_processes_marking_one_table_finished_at_once_raise_nothing(tmp_path: Path) -> None:
    # found running the e2e test on PostgreSQL: both processes saw the match end, both found no mark, and the
    # second's INSERT failed with a unique violation (a traceback in the server's log)
    db = str(tmp_path / "s.sqlite3")
    store, other = open_store(db), open_store(db)
    real = store._transaction

    class Cursor:
        def __init__(self, cur: Any) -> None:
            self.cur = cur

        def execute(self, sql: str, args: Any = ()) -> Any:
            if sql.startswith("INSERT INTO hl_finished"):
                other.mark_finished("t1")  # the other process marks it after this one looked, before it inserts
            return self.cur.execute(sql, args)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.cur, name)

    def transaction() -> Any:
        class Wrapped:
            def __enter__(self) -> Cursor:
                self.inner = real()
                return Cursor(self.inner.__enter__())

            def __exit__(self, *exc: Any) -> Any:
                return self.inner.__exit__(*exc)

        return Wrapped()

    _store_match(store, "t1")
    store._transaction = transaction  # type: ignore[method-assign]
    store.mark_finished("t1")
    store._transaction = real  # type: ignore[method-assign]
    assert [t.id for t in store.unfinished()] == []
    store.close()
    other.close()
