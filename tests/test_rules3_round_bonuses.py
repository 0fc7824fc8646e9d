"""Bonuses for round scores in the two-deck game (seed 001: "variant rules that give bonus points for 'even'
scores (+50 or +100, and the resulting +150) take on extra significance", no values given; RULES.md §11;
``end.round_bonuses``, the values as a table)."""

from __future__ import annotations

import pytest

import heartslib as hl
from heartslib.scoring import apply_exact_reset
from helpers import played_match

ROUND = {"50": -50, "100": -50, "150": -50}
DOUBLE = hl.preset("double_deck_8").replace(end={"round_bonuses": ROUND})


def test_001_a_total_landing_on_a_round_score_earns_its_bonus() -> None:
    # 100 and 50 landed on this hand; 150 was there before (not landed); 90 is not listed
    assert apply_exact_reset(DOUBLE, (100, 150, 90, 50, 0, 0, 0, 0), before=(60, 150, 40, 0, 0, 0, 0, 0)) == (
        50, 150, 90, 0, 0, 0, 0, 0)


def test_001_every_round_score_of_a_match_gets_its_bonus() -> None:
    landed = 0
    for seed in range(6):
        m = played_match(DOUBLE.replace(end={"target": 160}), seed)
        before = (0,) * DOUBLE.players
        for result in m.rounds:
            raw = [a + b for a, b in zip(before, result.points, strict=True)]
            expected = [t + (ROUND.get(str(t), 0) if t != b else 0) for t, b in zip(raw, before, strict=True)]
            assert list(result.totals) == expected
            landed += sum(1 for t, b in zip(raw, before, strict=True) if t != b and str(t) in ROUND)
            before = result.totals
    assert landed > 0  # the rule was reached, not only passed by


def test_the_bonus_values_are_the_tables() -> None:
    v = hl.preset("standard").replace(end={"round_bonuses": {"60": 10, "25": -5}})
    assert apply_exact_reset(v, (60, 25, 61, 24), before=(40, 20, 50, 0)) == (70, 20, 61, 24)
    assert v.end.round_bonuses.to_mapping() == {"25": -5, "60": 10}
    assert "adds its points (25: -5; 60: +10)" in v.describe()
    assert hl.Variant.from_toml(v.to_toml()) == v


@pytest.mark.parametrize(("end", "words"), [
    ({"round_bonuses": {"x": 1}}, "table keys are totals other than 0"),
    ({"round_bonuses": {"0": 1}}, "table keys are totals other than 0"),
    ({"round_bonuses": {"50": 1.5}}, "not a whole number of points"),
    ({"round_bonuses": {"50": True}}, "not a whole number of points"),
    ({"round_bonuses": {"50": -50, 50: -25}}, "listed twice"),
    ({"round_bonuses": ["50"]}, "expected a table of totals"),
    ({"round_bonuses": {"50": -50}, "exact_fifty": "any"}, "both say what landing on a round score does"),
])
def test_bad_bonus_tables_are_refused_by_name(end: dict[str, object], words: str) -> None:
    with pytest.raises(hl.VariantError, match=words) as info:
        hl.preset("standard").replace(end=end)
    assert info.value.path.startswith("end.round_bonuses")


def test_bonuses_that_keep_every_player_from_the_target_are_refused() -> None:
    zero_hearts = {f"{r}H": 0 for r in "23456789TJQKA"}
    with pytest.raises(hl.VariantError, match="might never end") as info:
        hl.preset("standard").replace(scoring={"values": {**zero_hearts, "QS": 13}}, moon={"kind": "none"},
                                      end={"target": 13, "round_bonuses": {"13": -13}})
    assert info.value.path == "end.round_bonuses"
    with pytest.raises(hl.VariantError, match="whole-number totals"):
        hl.preset("complex_hearts").replace(end={"round_bonuses": {"50": -50}})
