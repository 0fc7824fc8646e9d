"""benchmarks/ladder.py runs: a tiny ladder, its rows and its paired intervals (no timing is asserted)."""

from __future__ import annotations

import pytest

import heartslib as hl
from helpers import load_benchmark

ladder = load_benchmark("ladder")


def test_a_tiny_ladder_runs_and_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder.main(["--quick", "--deals", "1", "--players", "random,heuristic,moon,search",
                        "--field", "heuristic", "--field", "moon"]) == 0
    out = capsys.readouterr().out
    assert "against the heuristic field (1 deals, 4 hands a player)" in out
    assert "against the moon field" in out
    assert "| search:playouts=8 |" in out and "| moon |" in out


def test_duplicate_play_meets_the_same_deals_in_every_seat() -> None:
    v = hl.preset("standard")
    hands = {p: [ladder.play_hand(v, p, "heuristic", d, seat, 7) for d in range(2) for seat in range(4)]
             for p in ("heuristic", "moon")}
    rows = ladder.summarise(hands, ["heuristic", "moon"])
    assert [r["hands"] for r in rows] == [8, 8]
    # four heuristic agents on the same cards: the heuristic row is the field itself, on average
    assert rows[0]["ratio"] == pytest.approx(1.0)
    assert rows[0]["diff"] == 0.0
    lo, hi = rows[1]["diff_ci"]
    assert lo <= rows[1]["diff"] <= hi
    # the same deals again: the same hands
    again = [ladder.play_hand(v, "moon", "heuristic", d, seat, 7) for d in range(2) for seat in range(4)]
    assert [(h.mine, h.field_mean) for h in again] == [(h.mine, h.field_mean) for h in hands["moon"]]


def test_workers_play_the_same_hands() -> None:
    # --workers: the hands are played in processes, each from its own seeds, so the tables do not change
    v = hl.preset("standard")
    one = ladder.play_hands(v, ["heuristic", "moon"], "heuristic", 2, 7)
    two = ladder.play_hands(v, ["heuristic", "moon"], "heuristic", 2, 7, workers=2)
    assert [(h.deal, h.seat, h.mine, h.field_mean) for p in one for h in one[p]] == [
        (h.deal, h.seat, h.mine, h.field_mean) for p in two for h in two[p]]
    assert [h.mine for h in one["moon"]] == [ladder.play_hand(v, "moon", "heuristic", d, s, 7).mine
                                             for d in range(2) for s in range(4)]


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(SystemExit, match="unknown player"):
        ladder.make("nobody", 1)


def test_the_baseline_names_the_player_differences_are_taken_from(capsys: pytest.CaptureFixture[str]) -> None:
    v = hl.preset("standard")
    hands = {p: [ladder.play_hand(v, p, "heuristic", d, seat, 7) for d in range(2) for seat in range(4)]
             for p in ("heuristic", "moon")}
    rows = ladder.summarise(hands, ["heuristic", "moon"], baseline="moon")
    assert rows[1]["diff"] == 0.0
    moon = sum(h.mine for h in hands["moon"]) / 8
    assert rows[0]["diff"] == pytest.approx(sum(h.mine for h in hands["heuristic"]) / 8 - moon)
    assert "vs moon, pts/hand" in ladder.table("standard", "heuristic", rows)
    with pytest.raises(SystemExit):
        ladder.main(["--quick", "--deals", "1", "--players", "heuristic", "--baseline", "search"])
    assert "is not one of --players" in capsys.readouterr().err


def test_the_endgame_benchmark_compares_players_from_the_same_positions(capsys: pytest.CaptureFixture[str]) -> None:
    endgame = load_benchmark("search_endgame")
    assert endgame.main(["--deals", "2", "--tricks", "2", "--players",
                         "search:playouts=4,endgame=0,search:playouts=4,endgame=2,heuristic"]) == 0
    out = capsys.readouterr().out
    assert "(8 hands," in out and "| heuristic | " in out
    # from two cards left, the search with and without the endgame search meets the same positions
    assert "| search:playouts=4,endgame=2 | " in out


def test_players_split_on_commas_keep_their_parameters() -> None:
    assert ladder.split_players("heuristic, search:playouts=8,endgame=0,search4x,heuristic") == [
        "heuristic", "search:playouts=8,endgame=0", "search4x"]
