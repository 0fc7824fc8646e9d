"""Leekha as Jawaker plays it now (RULES.md §11; blog.jawaker.com/en/leekha-rules-en): a player's 101 ends the
match and the team with the lower team total wins (``end.losing_team = "worst_team_total"``, the
``leekha_jawaker`` preset)."""

from __future__ import annotations

import pytest

import heartslib as hl
from heartslib.scoring import match_over, winners
from helpers import played_match

JAWAKER = hl.preset("leekha_jawaker")
IDLIB_END = JAWAKER.replace(end={"losing_team": "worst_player"})


def test_leekha_jawaker_the_team_of_the_player_at_101_can_still_win() -> None:
    # seat 0 reaches 101 and ends the match, but its team's total (101 + 0) is below the other team's (60 + 60)
    totals = (101, 60, 0, 60)
    assert match_over(JAWAKER, totals, 5)
    assert winners(JAWAKER, totals) == (0, 2)
    assert winners(IDLIB_END, totals) == (1, 3)  # the reading of the likha preset: the buster's team loses


def test_leekha_jawaker_the_lower_team_total_wins() -> None:
    totals = (101, 10, 0, 20)
    assert match_over(JAWAKER, totals, 5) and winners(JAWAKER, totals) == (1, 3)


def test_leekha_jawaker_tied_team_totals_play_on() -> None:
    assert not match_over(JAWAKER, (101, 50, 0, 51), 5)
    assert not match_over(JAWAKER, (100, 60, 0, 60), 5)  # nobody at 101 yet


def test_leekha_jawaker_matches_end_with_the_lower_team_total_winning() -> None:
    for seed in range(6):
        m = played_match(JAWAKER, seed)
        a, b = m.scores[0] + m.scores[2], m.scores[1] + m.scores[3]
        assert max(m.scores) >= 101 and a != b
        assert m.winners == ((0, 2) if a < b else (1, 3))
        assert all(sum(r.points) == 36 for r in m.rounds)


def test_the_losing_team_rule_needs_partnerships_judged_on_players_totals() -> None:
    with pytest.raises(hl.VariantError, match=r"end\.losing_team"):
        hl.preset("standard").replace(end={"losing_team": "worst_team_total"})
    with pytest.raises(hl.VariantError, match=r"end\.losing_team"):
        JAWAKER.replace(end={"team_scores": True})


def test_leekha_jawaker_is_described_and_named() -> None:
    assert hl.preset("likha_jawaker") == JAWAKER
    assert "lowest team total wins" in JAWAKER.describe()
    assert hl.Variant.from_toml(JAWAKER.to_toml()) == JAWAKER


def test_decision_no_big_moon_and_no_lives_with_partnerships() -> None:
    # RULES.md section 11's decision: no source defines them; the refusal names both the field and the teams
    with pytest.raises(hl.VariantError, match=r"moon\.big_moon: .*partnerships \(teams\)"):
        JAWAKER.replace(moon={"kind": "old", "big_moon": "ten_moons"})
    with pytest.raises(hl.VariantError, match=r"end\.lives: .*partnerships \(teams\)"):
        JAWAKER.replace(end={"lives": 3})
    hl.preset("danger_hearts")  # lives without teams still play


def test_decision_most_points_is_compared_by_magnitude_where_totals_are() -> None:
    # RULES.md section 11's decision: "the player who took the most points" deals next, compared as the
    # totals are (end.measure): by magnitude, -30 is more points than 20
    from heartslib.scoring import next_dealer

    idlib = hl.preset("likha_idlib")
    assert next_dealer(idlib, 0, (-30, 20, 5, 5), ("", "", "", "")) == 1
    assert next_dealer(idlib.replace(end={"measure": "magnitude"}), 0, (-30, 20, 5, 5), ("", "", "", "")) == 0
