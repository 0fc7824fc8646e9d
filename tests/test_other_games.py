"""The other hearts-family games of seed 000: complex, royal, Gong Zhu, danger hearts, Likha."""

from __future__ import annotations

import json
import random

import pytest

import heartslib as hl
from heartslib.scoring import hand_points, losing_team, match_over, next_dealer, winners
from heartslib.serialize import save_digest
from helpers import play


def points_for(v: hl.Variant, cards: str) -> hl.score.Score:  # type: ignore[name-defined]
    total, _ = hand_points(v.rules, [c.index for c in hl.parse_cards(cards)], 0, 0)
    facts_points = total
    rules = v.rules
    for card, factor in rules.multiply.items():
        taken = [c.index for c in hl.parse_cards(cards)]
        if card in taken:
            others = [c for c in taken if c != card and c in rules.counters]
            alone = rules.multiply_alone.get(card)
            facts_points = alone if alone is not None and not others else facts_points * factor
    return facts_points


def finish(m: hl.Match | hl.Round, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not m.is_over:
        seat = m.to_act[rng.randrange(len(m.to_act))]
        acts = m.legal_actions(seat)
        m.apply(acts[rng.randrange(len(acts))])


# ------------------------------------------------------------------ complex hearts


def test_000_complex_hearts_card_values() -> None:
    v = hl.preset("complex_hearts")
    assert v.penalty_total == complex(13, 13) and v.moon_points == complex(13, 13)
    assert points_for(v, "2H 3H QS") == complex(2, 13)
    assert points_for(v, "2H JD") == -9


def test_000_complex_hearts_ten_of_clubs_multiplies_by_2i() -> None:
    # Rex Dieter's example: five hearts, Q♠ and 10♣ score (5 + 13i) * 2i = -26 + 10i
    v = hl.preset("complex_hearts")
    assert points_for(v, "2H 3H 4H 5H 6H QS TC") == complex(-26, 10)


def test_000_complex_hearts_round_end_to_end_and_exact_json() -> None:
    v = hl.preset("complex_hearts")
    m = hl.Match(v, seed=3)
    finish(m, 3)
    assert any(isinstance(s, complex) for s in m.scores)
    assert all(abs(s) < 100 for s in m.rounds[-2].totals)  # it ended on the last hand
    assert any(abs(s) >= 100 for s in m.scores)
    data = json.loads(m.to_json())
    assert all(isinstance(x, int | str) for x in data["state"]["scores"])
    loaded = hl.Match.from_json(m.to_json())
    assert loaded.scores == m.scores and loaded == m
    # the winner has the smallest magnitude
    assert m.winners == tuple(s for s, x in enumerate(m.scores) if abs(x) == min(abs(y) for y in m.scores))
    assert "13i" in v.describe() and "magnitude" in v.describe()


def test_000_complex_hearts_moon_is_the_shooters_choice() -> None:
    v = hl.preset("complex_hearts")
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    while r.phase is hl.Phase.PLAY:
        r.apply(r.legal_actions()[0])
    assert r.decision == "moon" and r.to_act == (0,)
    r.apply(hl.Choose(0, "old"))
    # seat 0 took every card: 10♣ multiplies its hand score: 0 * 2i = 0; the J♦ (-10) went to seat 0 too
    assert r.points == (-20j, 13 + 13j, 13 + 13j, 13 + 13j)


# ------------------------------------------------------------------ royal hearts


def test_000_royal_hearts_queens() -> None:
    v = hl.preset("royal_hearts")
    assert points_for(v, "QS") == 26
    assert points_for(v, "QD") == -10
    assert points_for(v, "2H 3H 4H") == 3
    assert points_for(v, "2H 3H QH") == 6  # Q♥ doubles the hearts its taker took, itself included
    assert points_for(v, "QS QC") == 0  # Q♣ cancels Q♠ when one player takes both
    assert points_for(v, "QS QC 2H QD") == -9
    assert points_for(v, "QC 2H") == 1


# ------------------------------------------------------------------ Gong Zhu


HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def test_000_gong_zhu_counters() -> None:
    v = hl.preset("gong_zhu")
    assert points_for(v, "QS") == -100
    assert points_for(v, "JD") == 100
    assert points_for(v, "AH KH QH JH") == -140
    assert points_for(v, "5H 6H 7H 8H 9H TH 2H 3H 4H") == -60
    assert v.penalty_total == -300


def test_pagat_gong_zhu_ten_of_clubs() -> None:
    v = hl.preset("gong_zhu")
    assert points_for(v, "TC") == 50  # alone: +50
    assert points_for(v, "TC 3H") == 0  # 2♥-4♥ are scoring cards worth 0: doubled to 0
    assert points_for(v, "TC QS JD AH") == 2 * (-100 + 100 - 50)
    assert points_for(v, "TC 2C 3C") == 50  # non-scoring cards do not matter


def test_pagat_gong_zhu_all_hearts_turn_positive() -> None:
    v = hl.preset("gong_zhu")
    assert points_for(v, HEARTS) == 200
    assert points_for(v, HEARTS + " QS") == 300
    assert points_for(v, HEARTS + " QS JD TC") == 800


def test_mrifoffline_hearts_only_flip_keeps_the_pig() -> None:
    # Gongzhu-Society/MrIfOffline Util.calc_score: thirteen hearts add 400 (-200 becomes +200), the pig stays -100,
    # the sheep +100, and 10♣ doubles the lot
    v = hl.preset("gong_zhu").replace(scoring={"all_hearts_flips": "hearts"})
    assert v.scoring.all_hearts_flips is hl.HeartsFlip.HEARTS
    assert points_for(v, HEARTS) == 200
    assert points_for(v, HEARTS + " QS") == 100
    assert points_for(v, HEARTS + " QS TC") == 200
    assert points_for(v, HEARTS + " JD") == 300
    assert points_for(v, HEARTS + " QS JD TC") == 400
    assert points_for(v, "3H 4H 5H QS") == -110  # not every heart: no flip
    pagat = hl.preset("gong_zhu")
    assert pagat.scoring.all_hearts_flips is hl.HeartsFlip.PENALTY_CARDS
    assert points_for(pagat, HEARTS + " QS") == 300  # pagat: the pig turns positive too


def test_all_hearts_flips_true_and_false_still_load() -> None:
    # before it became a choice the field was true/false: TOML files and saves written then still load
    v = hl.Variant.from_toml('[scoring]\nall_hearts_flips = true\n[end]\ntarget = 1000\nwinner = "highest"\n')
    assert v.scoring.all_hearts_flips is hl.HeartsFlip.PENALTY_CARDS
    assert hl.Variant.from_dict({"scoring": {"all_hearts_flips": False}}).scoring.all_hearts_flips == "none"
    old = hl.preset("gong_zhu").to_dict()
    old["scoring"]["all_hearts_flips"] = True
    assert hl.Variant.from_dict(old) == hl.preset("gong_zhu")
    m = hl.Match(hl.preset("gong_zhu"), seed=1)
    m.apply(m.legal_actions()[0])
    save = json.loads(m.to_json())
    save["variant"]["scoring"]["all_hearts_flips"] = True
    save["digest"] = save_digest(save)  # as a save written with the old form would carry
    assert hl.Match.from_json(json.dumps(save)) == m
    with pytest.raises(hl.VariantError, match=r"scoring\.all_hearts_flips.*'penalty_cards'"):
        hl.preset("gong_zhu").replace(scoring={"all_hearts_flips": "pig"})


def test_issue18_all_hearts_flip_where_the_lowest_wins_is_refused() -> None:
    # the flip and the moon fought in a lowest-wins game: an old moon scored the shooter 26 instead of 0 and the
    # punishment-rule sun left the shooter 43; the combination is now refused, saying why
    with pytest.raises(hl.VariantError, match=r"scoring\.all_hearts_flips.*highest") as info:
        hl.preset("standard").replace(scoring={"all_hearts_flips": True})
    assert info.value.path == "scoring.all_hearts_flips"
    with pytest.raises(hl.VariantError, match=r"scoring\.all_hearts_flips"):
        hl.preset("standard").replace(scoring={"all_hearts_flips": "hearts"}, moon={"sun": "punish_passer"})
    assert hl.preset("gong_zhu").scoring.all_hearts_flips  # where the highest total wins it stands


def test_pagat_gong_zhu_two_of_spades_leads_then_the_pigs_taker() -> None:
    v = hl.preset("gong_zhu")
    m = hl.Match(v, seed=5)
    first = m.round
    holder = next(s for s in range(4) if hl.Card("2S") in first.hand(s))
    assert m.to_act == (holder,) and m.legal_actions() == [hl.Play(holder, "2S")]
    rng = random.Random(1)
    while m.hand_number == 0:
        acts = m.legal_actions()
        m.apply(acts[rng.randrange(len(acts))])
    pig = next(s for s, cards in enumerate(first.taken) if hl.Card("QS") in cards)
    assert m.to_act == (pig,)
    assert len(m.legal_actions()) == 13  # any card


def test_pagat_gong_zhu_higher_wins_and_ends_at_minus_1000() -> None:
    v = hl.preset("gong_zhu")
    assert winners(v, (-300, 150, 20, -1000)) == (1,)
    assert match_over(v, (-300, 150, 20, -1000), 5)
    assert not match_over(v, (-300, 150, 20, -999), 5)
    m = hl.Match(v, seed=2)
    finish(m, 2)
    assert min(m.scores) <= -1000 and m.winners == tuple(s for s, x in enumerate(m.scores) if x == max(m.scores))


GZ_TWO_SIDED = hl.preset("gong_zhu").replace(end={"win_target": 1000})


@pytest.mark.parametrize(
    ("totals", "over", "won"),
    [
        ((900, -900, 0, 0), False, ()),  # everyone inside the targets
        ((1000, -400, 0, 0), True, (0,)),  # a player reaches the positive target: that player wins
        ((100, -1000, 50, 0), True, (0,)),  # a player reaches -1000: the highest total wins
        ((1000, -1000, 0, 0), True, (0,)),  # both at once: the highest total wins outright
    ],
)
def test_garytang_gongzhu_match_ends_at_plus_or_minus_1000(totals: tuple[int, ...], over: bool,
                                                          won: tuple[int, ...]) -> None:
    # garytang/gongzhu backend/test/engine/game.test.js, "game: match end" (targetScore 1000, either sign)
    assert match_over(GZ_TWO_SIDED, totals, 3) is over
    if over:
        assert winners(GZ_TWO_SIDED, totals) == won
    assert not match_over(hl.preset("gong_zhu"), (1000, -400, 0, 0), 3)  # pagat's game ends only at -1000


def test_two_sided_end_in_a_match_and_where_the_lowest_wins() -> None:
    v = hl.preset("gong_zhu").replace(end={"win_target": 150})
    m = hl.Match(v, seed=3)
    finish(m, 3)
    assert max(m.scores) >= 150 or min(m.scores) <= -1000
    assert m.winners == tuple(s for s, x in enumerate(m.scores) if x == max(m.scores))
    # where the lowest total wins, the winning target lies below 0 (new moons can take a player there)
    low = hl.preset("standard").replace(moon={"kind": "new"}, end={"win_target": -50})
    assert match_over(low, (-52, 30, 20, 10), 2) and winners(low, (-52, 30, 20, 10)) == (0,)
    assert not match_over(low, (-26, 30, 20, 10), 2)
    # partnerships: the team of the best total at the winning target wins
    teams = GZ_TWO_SIDED.replace(teams=[[0, 2], [1, 3]])
    assert winners(teams, (1010, 200, -500, 0)) == (0, 2) and match_over(teams, (1010, 200, -500, 0), 2)
    with pytest.raises(hl.VariantError, match=r"end\.win_target.*losing side"):
        hl.preset("gong_zhu").replace(end={"win_target": -2000})
    with pytest.raises(hl.VariantError, match=r"end\.win_target"):
        hl.preset("complex_hearts").replace(end={"win_target": -50})


GZ_TEAMS = hl.preset("gong_zhu").replace(teams=[[0, 2], [1, 3]], end={"win_target": 1000, "team_scores": True})


def test_garytang_gongzhu_team_totals_are_the_sum_of_the_members() -> None:
    # backend/test/engine/scoring.test.js "derives team totals from individual scores": a PIG, b SHEEP, c A♥
    points = hl.scoring.score_cards(GZ_TEAMS, ["QS", "JD", "AH", ""]).points
    assert points == (-100, 100, -50, 0)
    assert hl.scoring.team_totals(GZ_TEAMS, points) == (-150, 100)
    # game.test.js "tracks team totals alongside individual totals"
    m = hl.Match(GZ_TEAMS, seed=2)
    finish(m, 2)
    assert m.team_totals == (m.scores[0] + m.scores[2], m.scores[1] + m.scores[3])
    assert m.winners == ((0, 2) if m.team_totals[0] > m.team_totals[1] else (1, 3))


@pytest.mark.parametrize(
    ("totals", "over", "won"),
    [
        ((1000, -1000, 0, 0), True, (0, 2)),  # "resolves a simultaneous crossing by highest total": team totals
        ((-600, 0, -500, 0), True, (1, 3)),  # no player at -1000, but team 0's total is -1100
        ((600, 0, 500, 0), True, (0, 2)),  # team 0 reaches +1000 together
        ((900, -900, 50, 40), False, ()),
        ((-500, -500, -500, -500), True, (0, 1, 2, 3)),  # both teams at -1000: equal totals share the win
    ],
)
def test_garytang_gongzhu_teams_are_judged_on_team_totals(totals: tuple[int, ...], over: bool,
                                                         won: tuple[int, ...]) -> None:
    assert match_over(GZ_TEAMS, totals, 4) is over
    if over:
        assert winners(GZ_TEAMS, totals) == won


def test_team_scores_need_teams_and_no_lives() -> None:
    with pytest.raises(hl.VariantError, match=r"end\.team_scores.*partnerships"):
        hl.preset("gong_zhu").replace(end={"team_scores": True})
    with pytest.raises(hl.VariantError, match=r"end\.team_scores.*lives"):
        hl.preset("likha").replace(end={"team_scores": True, "lives": 3})


# ------------------------------------------------------------------ danger hearts


def test_000_danger_hearts_lives() -> None:
    v = hl.preset("danger_hearts")
    m = hl.Match(v, seed=11)
    assert m.lives == (3, 3, 3, 3)
    finish(m, 4)
    assert len(m.rounds) <= 10
    expected = [3, 3, 3, 3]
    for result in m.rounds:
        expected = [max(0, left - 1) if p >= 15 else left for left, p in zip(expected, result.points, strict=True)]
        assert result.lives == tuple(expected)
    assert m.lives == tuple(expected)
    assert len(m.rounds) == 10 or sum(1 for x in m.lives if x) <= 1
    most = max(m.lives)
    best = min(t for t, left in zip(m.scores, m.lives, strict=True) if left == most)
    assert m.winners == tuple(s for s in range(4) if m.lives[s] == most and m.scores[s] == best)


# ------------------------------------------------------------------ Likha


def test_000_likha_plays_anticlockwise_in_partnerships() -> None:
    v = hl.preset("likha")
    assert v.direction is hl.Direction.ANTICLOCKWISE and v.penalty_total == 36
    r = hl.Round.deal(v, seed=1, dealer=0)
    for seat in range(4):
        r.apply(hl.Pass(seat, r.hand(seat)[:3]))
    assert r.to_act == (3,)  # the dealer's right leads: the next player anticlockwise
    card = r.legal_cards()[0]
    play(r, f"3:{card.code}")
    assert r.to_act == (2,)


def test_000_likha_first_to_101_loses_with_the_team() -> None:
    v = hl.preset("likha")
    assert losing_team(v, (50, 101, 30, 40)) == 1
    assert winners(v, (50, 101, 30, 40)) == (0, 2)
    # both teams reach it in the same deal: the higher score loses
    assert winners(v, (105, 101, 30, 40)) == (1, 3)
    assert match_over(v, (50, 101, 30, 40), 3)
    # an exact tie across teams: the team totals decide (131 against 141), and if they tie too, play on
    assert match_over(v, (101, 101, 30, 40), 3) and winners(v, (101, 101, 30, 40)) == (0, 2)
    assert not match_over(v, (101, 101, 40, 40), 3)


IDLIB_END = hl.preset("likha").replace(end={"target": 201})


@pytest.mark.parametrize(
    ("totals", "over", "losers"),
    [
        ((50, 60, 70, 20), False, None),  # no one busts below target
        ((201, 0, 0, 0), True, 0),  # busts at exactly 201
        ((210, 50, 60, 40), True, 0),  # single team bust
        ((205, 210, 20, 20), True, 1),  # both teams cross: the higher individual score loses
        ((205, 205, 30, 10), True, 0),  # equal cross-team busts: team totals 235 against 215
        ((205, 205, 15, 15), False, None),  # and equal team totals: sudden death, play on
        ((210, 50, 220, 40), True, 0),  # same team double bust
    ],
)
def test_leekha_bust_and_match_end(totals: tuple[int, ...], over: bool, losers: int | None) -> None:
    # jehadbaeth/Leekha packages/engine/test/scoring.test.ts, "bust and match end" (teams 0+2 and 1+3)
    assert match_over(IDLIB_END, totals, 3) is over
    if over:
        assert losing_team(IDLIB_END, totals) == losers
        assert winners(IDLIB_END, totals) == tuple(s for s in range(4) if s % 2 != losers)


BIGGEST_EATER = hl.preset("likha").replace(end={"next_dealer": "most_points", "dealer_ties": ["KC", "QS", "TD"]})


@pytest.mark.parametrize(
    ("points", "taken", "dealer", "expected"),
    [
        ((10, 30, 5, 5), ("", "", "", ""), 0, 1),  # the biggest eater deals next
        ((20, 20, 5, 5), ("KC", "5H", "", ""), 2, 0),  # the K♣ eater breaks a points tie
        ((20, 20, 5, 5), ("QS", "TD", "KC", ""), 3, 0),  # K♣ eater not among the tied: the Q♠ eater
        ((20, 20, 5, 5), ("5H", "TD", "6H", ""), 3, 1),  # then the 10♦ eater
    ],
)
def test_leekha_dealer_selection(points: tuple[int, ...], taken: tuple[str, ...], dealer: int, expected: int) -> None:
    # jehadbaeth/Leekha packages/engine/test/scoring.test.ts, "dealer selection" (selectNextDealer)
    cards = [hl.parse_cards(t) for t in taken]
    assert next_dealer(BIGGEST_EATER, dealer, points, cards) == expected


def test_leekha_dealer_tie_without_tie_cards_goes_to_the_first_after_the_dealer() -> None:
    # SPEC.md 3.13: "the tied seat closest to the previous dealer's right": the first tied player after the
    # dealer in the direction of play (anticlockwise in Likha: after seat 3 comes seat 2)
    assert next_dealer(BIGGEST_EATER, 3, (20, 5, 20, 5), [(), (), (), ()]) == 2
    assert next_dealer(BIGGEST_EATER.replace(direction="clockwise"), 3, (20, 5, 20, 5), [(), (), (), ()]) == 0
    assert next_dealer(hl.preset("likha"), 3, (20, 5, 20, 5), [(), (), (), ()]) == 2  # rotate: dealer's right


def test_biggest_eater_deals_in_a_match() -> None:
    m = hl.Match(BIGGEST_EATER, seed=6)
    finish(m, 6)
    assert len(m.rounds) > 1
    for done, following in zip(m.rounds, m.rounds[1:], strict=False):
        worst = max(done.points)
        if sum(1 for p in done.points if p == worst) == 1:
            assert following.dealer == done.points.index(worst)


def test_000_likha_moon_is_a_37_point_penalty() -> None:
    v = hl.preset("likha")
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD, dealer=1)
    assert r.to_act == (0,)
    finish(r)
    assert r.points == (37, 0, 0, 0)


@pytest.mark.parametrize("name", ["complex_hearts", "royal_hearts", "gong_zhu", "danger_hearts", "likha"])
def test_other_presets_play_to_the_end_and_round_trip(name: str) -> None:
    v = hl.preset(name)
    assert hl.Variant.from_toml(v.to_toml()) == v
    for seed in range(2):
        m = hl.Match(v, seed=seed)
        finish(m, seed)
        assert m.is_over and m.winners
        assert hl.Match.from_json(m.to_json()) == m
