"""benchmarks/search_budget.py runs (no figure is asserted)."""

from __future__ import annotations

import random

import pytest

import heartslib as hl
from heartslib.search import Budget, Search
from helpers import load_benchmark

search_budget = load_benchmark("search_budget")


def test_the_judge_values_every_candidate_in_the_same_worlds() -> None:
    v = hl.preset("standard")
    r = hl.Round.deal(v, seed=3, hand_number=3)  # a hold hand: play starts at once
    for _ in range(6):  # the search's own doctest position: several candidates
        r.apply(r.legal_actions()[0])
    obs = r.observation(r.to_act[0])
    search = Search(v, Budget(playouts=4))
    candidates = search.play_candidates(obs, r.legal_actions())
    values = search_budget._values(search, obs, candidates, random.Random(1))
    assert len(values) == len(candidates) > 1
    assert all(-100 < x < 100 for x in values)
    assert search.choose(obs, candidates, random.Random(1)) in candidates  # the search is left as it was


def test_no_decision_prints_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert search_budget.main(["--hands", "0"]) == 0
    assert "no decision of seat 0" in capsys.readouterr().out
