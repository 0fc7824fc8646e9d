"""Settling around the average (Hoyle, as RULES.md §11 cites it; ``heartslib.settlement.around_average``): "the
totals of all players are added into a grand total and divided by the number of players to determine the average
score. Each player whose score is above the average pays into the pot the difference between the average score and
his own; each player whose score is below the average then collects the difference"."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import heartslib as hl
from heartslib.settlement import around_average
from helpers import played_match


def test_hoyle_settling_around_the_average() -> None:
    r = around_average([20, 48, 100, 72])  # a grand total of 240: the average is 60
    assert r.average == 60
    assert r.paid == (0, 0, 40, 12)  # above the average: pay the difference into the pot
    assert r.received == (40, 12, 0, 0)  # below it: collect the difference
    assert r.net == (40, 12, -40, -12)


def test_an_average_that_is_not_a_whole_number_is_settled_exactly() -> None:
    r = around_average([0, 1, 1])
    assert r.average == Fraction(2, 3)
    assert r.net == (Fraction(2, 3), Fraction(-1, 3), Fraction(-1, 3)) and sum(r.net) == 0


def test_where_the_highest_total_wins_the_players_below_the_average_pay() -> None:
    r = around_average([300, -100, 0, 200], highest_wins=True)  # Gong Zhu-like totals: the average is 100
    assert r.paid == (0, 200, 100, 0) and r.received == (200, 0, 0, 100)


@given(st.lists(st.integers(-10_000, 10_000), min_size=2, max_size=11), st.booleans())
def test_the_pot_is_emptied_and_better_totals_collect_more(totals: list[int], highest: bool) -> None:
    r = around_average(totals, highest_wins=highest)
    assert sum(r.paid) == sum(r.received) and sum(r.net) == 0
    assert all(p == 0 or q == 0 for p, q in zip(r.paid, r.received, strict=True))
    key = (lambda t: -t) if highest else (lambda t: t)
    order = sorted(range(len(totals)), key=lambda s: key(totals[s]))
    assert [r.net[s] for s in order] == sorted(r.net, reverse=True)


def test_a_finished_match_is_settled_from_its_totals() -> None:
    m = played_match(hl.preset("standard"), 3)
    r = around_average(m.scores)
    assert sum(r.net) == 0
    assert all(r.net[s] == max(r.net) for s in m.winners)


@pytest.mark.parametrize(("totals", "words"), [
    ([5], "at least 2 seats"),
    ("12", "a sequence of whole numbers"),
    ([1, 2.5], r"totals\[1\] must be a whole number"),
    ([1, 2j], r"totals\[1\] must be a whole number"),
    ([True, 2], r"totals\[0\]"),
])
def test_bad_totals_are_refused_by_name(totals: object, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        around_average(totals)  # type: ignore[arg-type]
