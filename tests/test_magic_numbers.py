"""The Twanger / magic numbers (RULES.md §11; ``end.magic_multiple``): a total that a hand lands exactly on a
multiple of 25 resets to the average of the highest and the lowest other totals."""

from __future__ import annotations

import random

import pytest

import heartslib as hl
from heartslib import strategies as hst
from heartslib.scoring import apply_exact_reset

TWANGER = hl.preset("standard").replace(end={"magic_multiple": 25})


def test_twanger_a_total_landing_on_a_multiple_of_25_resets_to_the_average_of_the_others_extremes() -> None:
    # 45 + 5 lands on 50: the others' highest 90 and lowest 12 average 51
    assert apply_exact_reset(TWANGER, (50, 37, 12, 90), before=(45, 30, 10, 80)) == (51, 37, 12, 90)
    # odd sums round down: (90 + 13) // 2
    assert apply_exact_reset(TWANGER, (75, 37, 13, 90), before=(70, 30, 10, 80)) == (51, 37, 13, 90)


def test_twanger_a_total_the_hand_did_not_move_stays() -> None:
    assert apply_exact_reset(TWANGER, (50, 37, 12, 90), before=(50, 30, 10, 80)) == (50, 37, 12, 90)


def test_twanger_every_landing_is_judged_on_the_totals_before_any_reset() -> None:
    # both land: each resets from the other totals as the hand left them
    assert apply_exact_reset(TWANGER, (25, 50, 10, 90), before=(20, 40, 10, 80)) == (50, 50, 10, 90)


def test_twanger_zero_and_the_off_switch() -> None:
    assert apply_exact_reset(TWANGER, (0, 37, 12, 90), before=(-26, 30, 10, 80)) == (0, 37, 12, 90)
    off = hl.preset("standard")
    assert apply_exact_reset(off, (50, 37, 12, 90), before=(45, 30, 10, 80)) == (50, 37, 12, 90)


def test_twanger_matches_apply_it_between_hands() -> None:
    resets = 0
    for seed in range(12):
        m = hl.Match(TWANGER, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            m.apply(hst.random_action(m, rng))
        before = (0, 0, 0, 0)
        for result in m.rounds:
            raw = tuple(a + b for a, b in zip(before, result.points, strict=True))
            assert result.totals == apply_exact_reset(TWANGER, raw, before)
            resets += result.totals != raw
            before = result.totals
    assert resets  # the examples reach a reset


def test_magic_numbers_are_refused_where_they_cannot_work() -> None:
    with pytest.raises(hl.VariantError, match=r"end\.magic_multiple.*complex"):
        hl.preset("complex_hearts").replace(end={"magic_multiple": 25})
    with pytest.raises(hl.VariantError, match=r"end\.magic_multiple.*never end"):
        hl.preset("standard").replace(end={"magic_multiple": 1})
    assert "multiple of 25 resets" in TWANGER.describe()
