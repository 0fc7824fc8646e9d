"""benchmarks/server_load.py runs at its smallest (two tables, one one-hand match each) and its checks hold:
every stored action is one its client had acknowledged, none lost or duplicated, every match finished, no
traceback from the server. Nothing is timed here; docs/server.md has the figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import load_benchmark

EXTRA = "the server load benchmark needs the server extra: pip install 'heartslib[server]'"
pytest.importorskip("uvicorn", reason=EXTRA)
pytest.importorskip("websockets", reason=EXTRA)

server_load = load_benchmark("server_load")


def test_the_load_benchmark_runs_two_tables_and_finds_nothing_lost_or_duplicated(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    assert server_load.main(["--tables", "2", "--matches", "1", "--hands", "1", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    records = figures["records"]
    assert records["tables"] == 2 and records["stored_actions"] == figures["actions"] > 100
    assert [records[k] for k in ("lost", "unacknowledged_stored", "different", "duplicated", "unfinished")] == [0] * 5
    assert figures["matches"] == 2 and not figures["server_traceback"] and figures["refused"] == {}
    assert set(figures["latency_ms"]) == {"p50", "p95", "p99", "max"}
    assert [n for n, _ in figures["rss_kib"]] == [0, 2] and all(kib > 0 for _, kib in figures["rss_kib"])


def test_the_check_counts_an_action_stored_but_never_acknowledged(tmp_path: Path) -> None:
    import heartslib as hl
    from heartslib.server.store import TableRecord, open_store

    database = str(tmp_path / "t.sqlite3")
    store = open_store(database)
    variant = {"name": "standard", "end": {"hands": 1}}
    store.create_table(TableRecord("t", variant, 1, ("open",) * 4))
    first = hl.Match(hl.Variant.from_dict(variant), 1).legal_actions(0)[0]
    store.add_action("t", 0, first.to_dict())
    store.close()
    stats = server_load.Stats()
    stats.acked["t"] = {1: {"type": "play"}}
    check = server_load.check_records(database, stats)
    assert check["unacknowledged_stored"] == 1 and check["lost"] == 1 and check["unfinished"] == 1


def test_the_check_counts_a_stored_action_that_does_not_replay(tmp_path: Path) -> None:
    from heartslib.server.store import TableRecord, open_store

    database = str(tmp_path / "t.sqlite3")
    store = open_store(database)
    store.create_table(TableRecord("t", {"name": "standard"}, 1, ("open",) * 4))
    store.add_action("t", 0, {"type": "play", "seat": 0, "card": "AS"})  # a play while the seats are passing
    store.close()
    stats = server_load.Stats()
    stats.acked["t"] = {0: {"type": "play", "seat": 0, "card": "AS"}}
    assert server_load.check_records(database, stats)["unfinished"] == 1


def test_the_request_costs_run_and_name_every_request_type(tmp_path: Path) -> None:
    out = tmp_path / "requests.json"
    assert server_load.main(["--requests", "--repeat", "1", "--json", str(out)]) == 0
    costs = json.loads(out.read_text())
    assert {"create", "join", "act", "legal: 6 of two decks' 26 cards", "resume: a whole match, from 0",
            "spectate: a whole match, from 0", "spectate: a finished table read back"} <= set(costs)
    assert all(set(c) == {"loop_cpu_ms", "longest_hold_ms", "wall_ms"} for c in costs.values())
