"""Gong Zhu across a series of matches, as the "Chinese Hearts" app keeps it (RULES.md §11;
``heartslib.scoring.series_points``): at each match's end a player over +1000 gets 2 round points, one under
-1000 none, the rest 1."""

from __future__ import annotations

import pytest

import heartslib as hl
from heartslib.scoring import series_points

GZ = hl.preset("gong_zhu")
TWO_SIDED = GZ.replace(end={"win_target": 1000})


def test_chinese_hearts_round_points_at_a_matchs_end() -> None:
    assert series_points(TWO_SIDED, (1040, -330, 60, -1000)) == (2, 1, 1, 0)
    # the gong_zhu preset ends only at -1000: the app's +1000 is given as win_at
    assert series_points(GZ, (1000, -330, -1200, 999), win_at=1000) == (2, 1, 0, 1)
    assert series_points(GZ, (1000, -330, -1200, 999)) == (1, 1, 0, 1)


def test_a_series_is_the_sum_over_its_matches() -> None:
    points = [0, 0, 0, 0]
    finals = []
    for seed in range(4):
        m = hl.agents.play_match(TWO_SIDED, [hl.agents.RandomAgent(s) for s in range(4)], seed=seed)
        finals.append(m.scores)
        points = [p + q for p, q in zip(points, series_points(TWO_SIDED, m.scores), strict=True)]
    # each match ends with someone at +1000 or -1000: it gives out fewer or more than one point a player
    for totals in finals:
        got = series_points(TWO_SIDED, totals)
        assert got != (1, 1, 1, 1)
        assert all(g == (2 if t >= 1000 else 0 if t <= -1000 else 1) for g, t in zip(got, totals, strict=True))
    assert sum(points) == sum(sum(series_points(TWO_SIDED, t)) for t in finals)


def test_where_the_lowest_total_wins_reaching_the_target_earns_nothing() -> None:
    std = hl.preset("standard")
    assert series_points(std, (100, 40, 99, 0)) == (0, 1, 1, 1)
    assert series_points(std, (100, 40, 99, 0), win_at=0) == (0, 1, 1, 1)  # 0: no winning total
    assert series_points(std.replace(end={"win_target": -20}), (100, -20, 99, 0)) == (0, 2, 1, 1)


def test_team_totals_give_partners_the_same_points() -> None:
    teams = TWO_SIDED.replace(teams=[[0, 2], [1, 3]], end={"team_scores": True})
    assert series_points(teams, (600, -500, 500, -600)) == (2, 0, 2, 0)


@pytest.mark.parametrize(("totals", "kw", "words"), [
    ((1, 2, 3), {}, "the 4 totals of a finished match"),
    ("1234", {}, "the 4 totals of a finished match"),
    ((1, 2, 3, 4.5), {}, "the 4 totals of a finished match"),
    ((1, 2, 3, 4), {"win_at": 2.5}, "win_at must be a whole number"),
    ((1, 2, 3, 4), {"lose_at": True}, "lose_at must be a whole number"),
])
def test_bad_arguments_are_refused_by_name(totals: object, kw: dict[str, object], words: str) -> None:
    # compiled, a value of the wrong type for a typed argument (win_at=2.5) is a TypeError at the call
    # (docs/errors.md); the pure build names it
    typed = hl.COMPILED and any(isinstance(x, float) for x in kw.values())
    with pytest.raises(TypeError if typed else hl.IllegalAction, match=None if typed else words) as info:
        series_points(TWO_SIDED, totals, **kw)  # type: ignore[arg-type]
    assert typed or getattr(info.value, "code", None) == "bad_argument"
