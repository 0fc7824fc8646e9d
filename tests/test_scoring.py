"""Card values, the moon and the sun, and the end of the match (RULES.md sections 6-8)."""

from __future__ import annotations

import random

import pytest

import heartslib as hl
from heartslib.scoring import RoundFacts, apply_exact_reset, score
from helpers import finish_hand

STD = hl.preset("standard")
# seat 0 takes every trick: it holds all the clubs and the others cannot follow
ALL_TRICKS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def play_out(v: hl.Variant, hands: list[str], scores: tuple[int, ...] | None = None, seed: int = 0) -> hl.Round:
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD, scores=scores)
    r.random_playout(random.Random(seed))
    return r


def facts(raw: tuple[int, ...], pen: tuple[int, ...], won: tuple[int, ...] = (3, 3, 3, 4),
          bonus: tuple[int, ...] = (0, 0, 0, 0), bonus_cards: tuple[int, ...] = (0, 0, 0, 0)) -> RoundFacts:
    winners = tuple(s for s, w in enumerate(won) for _ in range(w))
    return RoundFacts(raw=raw, bonus=bonus, penalty_cards=pen, bonus_cards=bonus_cards, tricks_won=won,
                      trick_winners=winners)


def run(v: hl.Variant, f: RoundFacts, before: tuple[int, ...] = (0, 0, 0, 0), passing: hl.PassDirection = hl.HOLD):
    return score(v, v.rules, f, scores_before=before, passing=passing, hands_played=1)


def test_002_normal_hand_points() -> None:
    r = play_out(STD, ALL_TRICKS)
    assert r.points == (0, 26, 26, 26)  # seat 0 took everything: old moon
    assert r.outcome is not None and r.outcome.shooter == 0 and r.outcome.scoring == "old"
    assert any(isinstance(e, hl.MoonShot) for e in r.events)


def test_000_no_moon_foster_scores_as_usual() -> None:
    r = play_out(STD.replace(moon={"kind": "none"}), ALL_TRICKS)
    assert r.points == (26, 0, 0, 0)


def test_000_culbertson_nobody_scores_on_a_moon() -> None:
    r = play_out(STD.replace(moon={"kind": "no_score"}), ALL_TRICKS)
    assert r.points == (0, 0, 0, 0)


def test_000_new_moon() -> None:
    r = play_out(STD.replace(moon={"kind": "new"}), ALL_TRICKS)
    assert r.points == (-26, 0, 0, 0)


def test_000_moon_points_follow_the_pack_pink_lady() -> None:
    r = play_out(hl.preset("pink_lady"), ALL_TRICKS)
    assert r.points == (0, 38, 38, 38)


def test_000_shooters_choice() -> None:
    v = STD.replace(moon={"kind": "choice"})
    r = hl.Round.from_hands(v, ALL_TRICKS, passing=hl.HOLD)
    rng = random.Random(0)
    while r.phase is hl.Phase.PLAY:
        acts = r.legal_actions()
        r.apply(acts[rng.randrange(len(acts))])
    assert r.phase is hl.Phase.DECIDE and r.to_act == (0,) and r.decision == "moon"
    assert [a.option for a in r.legal_actions()] == ["old", "new"]  # type: ignore[union-attr]
    assert r.points is None
    r.apply(hl.Choose(0, "new"))
    assert r.points == (-26, 0, 0, 0)


def test_000_new_moon_when_old_moon_loses() -> None:
    # 000: shooter 90, second 95, leader 63: old moon would end the game with the shooter losing
    # (121, 90, 89), so the new moon applies. Three players, 2♣ stripped; seat 0 takes every trick.
    v = STD.replace(players=3, passing={"schedule": "left_right"}, moon={"kind": "new_if_old_loses"})
    hands = ["3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AD KD QD JD TD",
             "2D 3D 4D 5D 6D 7D 8D 9D 2S 3S 4S 5S 6S 7S 8S 9S TS",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH JS QS KS AS"]
    m = hl.Match.from_deal(v, hands, scores=(90, 95, 63), passing=hl.HOLD, seed=1)
    finish_hand(m, 0)
    assert m.rounds[0].outcome.scoring == "new"
    assert m.scores == (64, 95, 63) and not m.is_over
    old = hl.Match.from_deal(v.replace(moon={"kind": "old"}), hands, scores=(90, 95, 63), passing=hl.HOLD, seed=1)
    finish_hand(old, 0, to_the_end=True)
    assert old.scores == (90, 121, 89) and old.winners == (2,)
    # when old moon does not make the shooter lose, it stands
    m2 = hl.Match.from_deal(v, hands, scores=(10, 20, 30), passing=hl.HOLD, seed=1)
    finish_hand(m2, 0)
    assert m2.scores == (10, 46, 56)


def test_000_new_moon_only_after_a_set_score() -> None:
    v = STD.replace(moon={"kind": "new", "new_after": 50})
    f = facts((26, 0, 0, 0), (14, 0, 0, 0))
    assert run(v, f, (10, 20, 30, 40)).points == (0, 26, 26, 26)  # nobody at 50 yet: old moon
    assert run(v, f, (10, 20, 30, 55)).points == (-26, 0, 0, 0)
    own = v.replace(moon={"new_after_shooter": True})  # "once the shooter ... has reached a set score"
    assert run(own, f, (10, 20, 30, 55)).points == (0, 26, 26, 26)
    assert run(own, f, (50, 20, 30, 55)).points == (-26, 0, 0, 0)


def test_000_omnibus_take_all_needs_the_bonus_card_too() -> None:
    v = hl.preset("omnibus")
    # seat 0 took every counter including the 10♦: -26, the rest 0
    f = facts((16, 0, 0, 0), (14, 0, 0, 0), bonus=(-10, 0, 0, 0), bonus_cards=(1, 0, 0, 0))
    assert run(v, f).points == (-26, 0, 0, 0)
    # all penalty cards but someone else took the 10♦: no take-all, normal scoring
    f = facts((26, -10, 0, 0), (14, 0, 0, 0), bonus=(0, -10, 0, 0), bonus_cards=(0, 1, 0, 0))
    assert run(v, f).points == (26, -10, 0, 0)


def test_decision_bonus_card_keeps_its_value_on_top_of_the_moon() -> None:
    v = hl.preset("omnibus_jd").replace(moon={"kind": "old", "requires": "penalty_cards"})
    f = facts((16, 0, 0, 0), (14, 0, 0, 0), bonus=(-10, 0, 0, 0), bonus_cards=(1, 0, 0, 0))
    assert run(v, f).points == (-10, 26, 26, 26)
    f = facts((26, -10, 0, 0), (14, 0, 0, 0), bonus=(0, -10, 0, 0), bonus_cards=(0, 1, 0, 0))
    assert run(v, f).points == (0, 16, 26, 26)


def test_decision_bonus_card_keeps_its_value_when_nobody_scores_the_moon() -> None:
    # Culbertson's "nobody scores for the hand" cancels the penalty cards; the J♦ still counts (Decision, 7)
    v = hl.preset("omnibus_jd").replace(moon={"kind": "no_score", "requires": "penalty_cards"})
    f = facts((26, -10, 0, 0), (14, 0, 0, 0), bonus=(0, -10, 0, 0), bonus_cards=(0, 1, 0, 0))
    assert run(v, f).points == (0, -10, 0, 0)
    f = facts((16, 0, 0, 0), (14, 0, 0, 0), bonus=(-10, 0, 0, 0), bonus_cards=(1, 0, 0, 0))
    assert run(v, f).points == (-10, 0, 0, 0)
    # a moon that needs the bonus card itself takes it in: nobody scores at all
    needs_it = v.replace(moon={"requires": "all_counters"})
    assert run(needs_it, f).points == (0, 0, 0, 0)


def test_000_new_moon_when_old_moon_would_lose_on_the_last_of_fixed_hands() -> None:
    # "old moon would end the game": the game also ends after a fixed number of hands
    v = STD.replace(moon={"kind": "new_if_old_loses"}, end={"target": 200, "hands": 10})
    f = facts((26, 0, 0, 0), (14, 0, 0, 0), won=(10, 1, 1, 1))
    last = score(v, v.rules, f, scores_before=(50, 10, 10, 10), passing=hl.HOLD, hands_played=10)
    assert last.points == (-26, 0, 0, 0) and last.scoring == "new"
    earlier = score(v, v.rules, f, scores_before=(50, 10, 10, 10), passing=hl.HOLD, hands_played=9)
    assert earlier.points == (0, 26, 26, 26) and earlier.scoring == "old"  # the game goes on: old moon stands
    # when the match continues after a moon anyway, old moon never ends it, so it stands
    goes_on = STD.replace(moon={"kind": "new_if_old_loses", "continue_after_moon": True})
    assert run(goes_on, f, (90, 95, 63, 70)).scoring == "old"


def test_000_no_tricks_bonus_not_in_a_moon_hand() -> None:
    v = STD.replace(scoring={"no_tricks": -5})
    f = facts((10, 16, 0, 0), (5, 9, 0, 0), won=(6, 7, 0, 0))
    assert run(v, f).points == (10, 16, -5, -5)
    r = play_out(v, ALL_TRICKS)
    assert r.points == (0, 26, 26, 26)  # the moon hand: no -5 for the seats that took nothing


def test_000_shooting_the_sun_adds_52() -> None:
    r = play_out(STD.replace(moon={"sun": "add_52"}), ALL_TRICKS)
    assert r.points == (0, 52, 52, 52)
    assert r.outcome is not None and r.outcome.kind == "sun"


def test_000_sun_punishment_rule() -> None:
    v = STD.replace(moon={"sun": "punish_passer"})
    f = facts((26, 0, 0, 0), (14, 0, 0, 0), won=(13, 0, 0, 0))
    # passing left: seat 3 passed to seat 0
    assert run(v, f, passing=hl.Offset(1)).points == (0, 26, 26, 52)
    assert run(v, f, passing=hl.Offset(-1)).points == (0, 52, 26, 26)



@pytest.mark.parametrize("passing", [hl.HOLD, hl.SCATTER, hl.STAR, hl.SHUFFLE])
def test_issue18_sun_punishment_rule_with_no_single_passer(passing: hl.PassDirection) -> None:
    # RULES.md 7's decision: "the others each receive 26" with nobody to punish (it gave every other player 52)
    v = STD.replace(moon={"sun": "punish_passer"})
    f = facts((26, 0, 0, 0), (14, 0, 0, 0), won=(13, 0, 0, 0))
    outcome = run(v, f, passing=passing)
    assert outcome.points == (0, 26, 26, 26) and outcome.scoring == "punish_passer"


@pytest.mark.parametrize(
    ("variant", "points"),
    [
        (STD, (-52, 0, 0, 0)),
        # GNOME's spot hearts: hearts 2-14 (104) and Q♠ 25: twice 129
        (STD.replace(scoring={"hearts": "spot", "values": {"QS": 25}}), (-258, 0, 0, 0)),
        # GNOME's omnibus: the J♦'s -10 comes on top of the sun
        (STD.replace(scoring={"values": {"QS": 13, "JD": -10}}), (-62, 0, 0, 0)),
    ],
)
def test_gnome_hearts_0_3_1_sun_for_the_shooter(variant: hl.Variant, points: tuple[int, ...]) -> None:
    # gnome-hearts 0.3.1 cards_get_points: taking all 52 cards multiplies the hearts and Q♠ by -2
    r = play_out(variant.replace(moon={"sun": "subtract_52"}), ALL_TRICKS)
    assert r.points == points
    assert r.outcome is not None and r.outcome.kind == "sun" and r.outcome.scoring == "subtract_52"
    # every penalty card without every trick: scored normally, as with every sun rule
    f = facts((26, 0, 0, 0), (14, 0, 0, 0), won=(12, 1, 0, 0))
    assert run(STD.replace(moon={"sun": "subtract_52"}), f).points == (26, 0, 0, 0)


def test_000_sun_cleans_the_slate() -> None:
    v = STD.replace(moon={"sun": "clean_slate"})
    f = facts((26, 0, 0, 0), (14, 0, 0, 0), won=(13, 0, 0, 0))
    # the shooter's hand scores 0 and the match resets its total (RULES.md 11; scoring.hand_totals)
    assert run(v, f, before=(70, 10, 20, 30)).points == (0, 0, 0, 0)


def test_000_all_penalty_cards_without_all_tricks_scores_normally_with_a_sun_rule() -> None:
    v = STD.replace(moon={"sun": "add_52"})
    f = facts((26, 0, 0, 0), (14, 0, 0, 0), won=(12, 1, 0, 0))
    assert run(v, f).points == (26, 0, 0, 0)


def test_000_sun_may_skip_the_first_trick() -> None:
    v = STD.replace(moon={"sun": "add_52", "sun_skips_first_trick": True})
    f = RoundFacts(raw=(26, 0, 0, 0), bonus=(0,) * 4, penalty_cards=(14, 0, 0, 0), bonus_cards=(0,) * 4,
                   tricks_won=(12, 1, 0, 0), trick_winners=(1,) + (0,) * 12)
    assert run(v, f).points == (0, 52, 52, 52)


def test_000_spot_hearts_score_each_heart_its_pip_value() -> None:
    values = hl.preset("spot_hearts").rules.value
    assert [values[hl.Card(c).index] for c in ("2H", "TH", "JH", "QH", "KH", "AH", "QS")] == [2, 10, 11, 12, 13,
                                                                                               14, 13]


def test_001_rogue_seven_and_jack_of_diamonds_values() -> None:
    v = STD.replace(scoring={"values": {"QS": 13, "JD": -10, "7C": 7}})
    assert v.rules.value[hl.Card("7C").index] == 7 and v.rules.value[hl.Card("JD").index] == -10


def test_000_black_jack_scores_the_jack_of_spades_in_place_of_the_queen() -> None:
    # eldest (seat 1) holds every diamond and leads them, so it takes every trick: 13 hearts + J♠ 10, Q♠ 0
    r = play_out(hl.preset("black_jack").replace(moon={"kind": "none"}), ALL_TRICKS)
    assert r.points == (0, 23, 0, 0)


def test_points_add_up_over_random_rounds() -> None:
    for name in ("standard", "pink_lady", "spot_hearts", "omnibus", "black_maria", "black_jack"):
        v = hl.preset(name)
        total = sum(v.rules.value[c.index] for c in v.pack)
        for seed in range(30):
            r = hl.Round.deal(v, seed=seed)
            points = r.random_playout(random.Random(seed))
            if r.outcome is not None and r.outcome.shooter is None:
                assert sum(points) == total, (name, seed)


def test_002_ties_for_lowest_share_the_win() -> None:
    v = STD.replace(end={"target": 100})
    m = hl.Match.from_deal(v, ALL_TRICKS, scores=(80, 80, 80, 60), passing=hl.HOLD, seed=3)
    # seat 0 shoots (old moon): 80, 106, 106, 86 -> seat 0 wins alone
    finish_hand(m, 1, to_the_end=True)
    assert m.scores == (80, 106, 106, 86) and m.winners == (0,)
    m = hl.Match.from_deal(v.replace(moon={"kind": "none"}), ALL_TRICKS, scores=(80, 106, 106, 106),
                           passing=hl.HOLD, seed=3)
    finish_hand(m, 1, to_the_end=True)
    assert m.scores == (106, 106, 106, 106) and m.winners == (0, 1, 2, 3)


def test_000_exactly_the_target_resets_to_zero() -> None:
    v = STD.replace(end={"reset_at_exact": True}, moon={"kind": "none"})
    m = hl.Match.from_deal(v, ALL_TRICKS, scores=(74, 10, 20, 30), passing=hl.HOLD, seed=3)
    finish_hand(m, 1)
    assert m.scores == (0, 10, 20, 30) and not m.is_over


def test_000_danger_style_fixed_number_of_hands() -> None:
    v = STD.replace(end={"hands": 3, "target": 0})
    m = hl.Match(v, seed=5)
    finish_hand(m, 2, to_the_end=True)
    assert len(m.rounds) == 3


def test_000_shooter_cannot_win_on_the_moon_hand() -> None:
    v = STD.replace(moon={"shooter_cannot_win": True})
    m = hl.Match.from_deal(v, ALL_TRICKS, scores=(50, 80, 80, 80), passing=hl.HOLD, seed=3)
    finish_hand(m, 1)
    assert m.scores == (50, 106, 106, 106) and not m.is_over  # play continues at least one more hand
    plain = hl.Match.from_deal(STD, ALL_TRICKS, scores=(50, 80, 80, 80), passing=hl.HOLD, seed=3)
    finish_hand(plain, 1, to_the_end=True)
    assert plain.winners == (0,) and len(plain.rounds) == 1


def test_000_game_continues_after_a_moon_lowest_wins_over_target() -> None:
    v = STD.replace(moon={"continue_after_moon": True})
    m = hl.Match.from_deal(v, ALL_TRICKS, scores=(120, 90, 95, 80), passing=hl.HOLD, seed=3)
    finish_hand(m, 1)
    assert m.scores == (120, 116, 121, 106) and not m.is_over


@pytest.mark.parametrize("kind", ["old", "new", "no_score", "none", "take_all"])
def test_moon_kinds_from_facts(kind: str) -> None:
    v = STD.replace(moon={"kind": kind})
    f = facts((26, 0, 0, 0), (14, 0, 0, 0), won=(10, 1, 1, 1))
    expected = {"old": (0, 26, 26, 26), "new": (-26, 0, 0, 0), "no_score": (0, 0, 0, 0), "none": (26, 0, 0, 0),
                "take_all": (-26, 0, 0, 0)}[kind]
    assert run(v, f).points == expected


# ------------------------------------------------------------------ issue 18: exactly a multiple of 50


@pytest.mark.parametrize(
    ("rule", "before", "after", "expected"),
    [
        # Trickster's "Any 50x": every exact multiple of 50 goes down by 50
        ("any", (40, 90, 140, 30), (50, 100, 150, 49), (0, 50, 100, 49)),
        # "50x > 50": only the multiples above 50
        ("above_50", (40, 90, 140, 30), (50, 100, 150, 49), (50, 50, 100, 49)),
        # a total the hand did not change did not land on it; below zero nothing is reduced
        ("any", (50, 100, -40, 0), (50, 100, -50, 0), (50, 100, -50, 0)),
    ],
)
def test_trickster_exactly_a_multiple_of_50_is_reduced_by_50(
    rule: str, before: tuple[int, ...], after: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    v = STD.replace(end={"exact_fifty": rule, "target": 1000})
    assert apply_exact_reset(v, after, before) == expected


def test_exact_target_reset_wins_over_the_fifty_rule() -> None:
    # 000: exactly 100 returns to 0; the fifty rule reduces the other multiples
    v = STD.replace(end={"reset_at_exact": True, "exact_fifty": "any"})
    assert apply_exact_reset(v, (100, 150, 50, 90), (80, 130, 40, 80)) == (0, 100, 0, 90)


def test_exactly_fifty_in_a_match() -> None:
    # seat 0 holds every club and takes every trick: an old moon gives the others 26 each; seat 1 lands on 50
    # (back to 0) and seat 2 on 100 (back to 50, so the match goes on)
    v = STD.replace(end={"exact_fifty": "any"})
    m = hl.Match.from_deal(v, ALL_TRICKS, scores=(10, 24, 74, 0), passing=hl.HOLD, seed=1)
    finish_hand(m, 1)
    result = m.rounds[0]
    assert result.points == (0, 26, 26, 26)
    assert result.totals == (10, 0, 50, 26) and not m.is_over


# ------------------------------------------------------------------ issue 18: shooting the big moon (000)

CLUBS = hl.parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")


def _seat0_takes_everything(v: hl.Variant, dealer: int) -> list[hl.Card]:
    """A deal order (as Round.deal takes it) giving seat 0 every club: it takes every trick."""
    rest = [c for c in v.pack if c not in CLUBS]
    hands = [list(CLUBS), rest[:13], rest[13:26], rest[26:]]
    order = []
    for i in range(52):
        seat = (dealer + 1 + i % 4) % 4
        order.append(hands[seat].pop())
    return order


def _sweeps(v: hl.Variant, hands: int) -> hl.Match:
    """A match in which seat 0 takes every trick of the first ``hands`` hands."""
    m = hl.Match.from_deal(v, [CLUBS, *(hl.parse_cards(h) for h in ALL_TRICKS[1:])], seed=1)
    for hand in range(hands):
        assert m.hand_number == hand and m.round.dealer == hand % 4
        if hand + 1 < hands:  # the next hand is dealt as this one ends
            m.script_next_deal(_seat0_takes_everything(v, (hand + 1) % 4))
        finish_hand(m, hand)
    return m


@pytest.mark.parametrize(
    ("moon", "big", "totals", "tenth"),
    [
        # "260 points (26 points every round) over ten rounds": all other players receive 260, the shooter 0
        ("none", "ten_moons", (0, 260, 260, 260), (-234, 260, 260, 260)),
        # "or all other players receive 100 in a normal game"
        ("none", "hundred", (0, 100, 100, 100), (-234, 100, 100, 100)),
        # ten old moons already give the others 260: the big moon changes nothing, or makes it 100
        ("old", "ten_moons", (0, 260, 260, 260), (0, 26, 26, 26)),
        ("old", "hundred", (0, 100, 100, 100), (0, -134, -134, -134)),
    ],
)
def test_000_shooting_the_big_moon(moon: str, big: str, totals: tuple[int, ...], tenth: tuple[int, ...]) -> None:
    v = STD.replace(passing={"schedule": "hold"}, moon={"kind": moon, "big_moon": big}, end={"target": 1000})
    m = _sweeps(v, 10)
    assert [r.big_moon for r in m.rounds] == [None] * 9 + [0]
    assert m.rounds[-1].points == tenth and m.scores == totals
    assert m.rounds[-1].outcome.points == ((26, 0, 0, 0) if moon == "none" else (0, 26, 26, 26))


def test_000_big_moon_needs_ten_consecutive_hands() -> None:
    v = STD.replace(passing={"schedule": "hold"}, moon={"kind": "none", "big_moon": "ten_moons"},
                    end={"target": 1000})
    m = _sweeps(v, 9)  # nine sweeps, then a hand dealt at random: nobody takes every penalty card
    finish_hand(m, 99)
    assert m.rounds[-1].points != (26, 0, 0, 0)
    assert all(r.big_moon is None for r in m.rounds)
    assert m.rounds[-1].points == m.rounds[-1].outcome.points
    off = _sweeps(v.replace(moon={"big_moon": "none"}), 10)
    assert off.scores == (260, 0, 0, 0)  # without the rule: 26 a hand


GNOME = STD.replace(moon={"kind": "new", "sun": "subtract_52", "sun_and_moon": True})


def test_gnome_hearts_moon_and_sun_in_one_game() -> None:
    # gnome-hearts (RULES.md section 11): every penalty card without every trick is a moon, -26 for the shooter;
    # every trick is a sun, -52 for the shooter; both in the same game
    moon = run(GNOME, facts((26, 0, 0, 0), (14, 0, 0, 0), won=(12, 1, 0, 0)))
    assert moon.points == (-26, 0, 0, 0) and moon.kind == "moon" and moon.scoring == "new"
    sun = run(GNOME, facts((26, 0, 0, 0), (14, 0, 0, 0), won=(13, 0, 0, 0)))
    assert sun.points == (-52, 0, 0, 0) and sun.kind == "sun" and sun.scoring == "subtract_52"
    plain = run(GNOME, facts((20, 6, 0, 0), (10, 4, 0, 0), won=(8, 5, 0, 0)))
    assert plain.points == (20, 6, 0, 0) and plain.shooter is None


def test_the_sun_alone_still_replaces_the_moon_rule() -> None:
    # 000 (and the default): with a sun rule, every penalty card without every trick scores normally
    v = STD.replace(moon={"kind": "new", "sun": "subtract_52"})
    assert run(v, facts((26, 0, 0, 0), (14, 0, 0, 0), won=(12, 1, 0, 0))).points == (26, 0, 0, 0)


def test_moon_and_sun_together_need_both_rules() -> None:
    with pytest.raises(hl.VariantError, match=r"moon\.sun_and_moon"):
        STD.replace(moon={"sun_and_moon": True})
    with pytest.raises(hl.VariantError, match=r"moon\.sun_and_moon"):
        STD.replace(moon={"kind": "none", "sun": "add_52", "sun_and_moon": True})
    assert "shoots the moon" in GNOME.describe()
