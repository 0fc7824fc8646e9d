"""Gong Zhu with exposed ("sold") cards: the ``gong_zhu_exposed`` preset and ``scoring.exposable``.

Cases from pagat's Gong Zhu page and from garytang/gongzhu ``backend/test/engine/scoring.test.js`` and
``game.test.js`` ("exposure doubling", "slams", "exposure restrictions").
"""

from __future__ import annotations

import random

import pytest

import heartslib as hl
from heartslib import strategies as hst
from heartslib.scoring import score_cards
from helpers import legal, play, round_from

GZX = hl.preset("gong_zhu_exposed")
HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def alone(cards: str, exposed: str = "") -> hl.Score:
    """What seat 0 scores taking ``cards`` with ``exposed`` exposed (the others take nothing)."""
    return score_cards(GZX, [cards, "", "", ""], exposed=exposed).points[0]


def expose(r: hl.Round, choices: dict[int, str]) -> None:
    """Every seat makes its exposure decision in turn: ``choices[seat]``, or ``"none"``."""
    while r.phase is hl.Phase.DECIDE and r.decision == "expose":
        seat = r.to_act[0]
        r.apply(hl.Choose(seat, choices.get(seat, "none")))


# --------------------------------------------------------------------------- scoring


def test_garytang_gongzhu_exposure_doubles_the_pig_and_the_sheep() -> None:
    assert alone("QS", exposed="QS") == -200
    assert alone("JD", exposed="JD") == 200


def test_garytang_gongzhu_exposed_ace_doubles_every_heart() -> None:
    assert alone("AH KH", exposed="AH") == -180
    assert alone("5H", exposed="AH") == -20  # every heart, not only the ace


def test_garytang_gongzhu_exposed_transformer_quadruples_and_is_100_alone() -> None:
    assert alone("TC", exposed="TC") == 100
    assert alone("TC QS", exposed="TC") == -400
    assert alone("TC QS", exposed="TC QS") == -800


def test_garytang_gongzhu_exposure_doubles_for_whoever_takes_the_card() -> None:
    # the pig's holder exposed it and then dumped it: the taker eats the doubled value
    assert score_cards(GZX, ["QS", "", "", ""], exposed="QS").points == (-200, 0, 0, 0)


def test_garytang_gongzhu_exposed_slams() -> None:
    assert alone(HEARTS, exposed="AH") == 400
    assert alone(HEARTS + " QS JD TC", exposed="AH QS JD TC") == 3200  # the fully exposed grand slam


def test_pagat_exposed_pig_flips_with_all_the_hearts() -> None:
    # "Queen of spades exposed: the pig is worth -200 instead of -100 (or +200 to a player who takes all the
    # hearts)"
    assert alone(HEARTS + " QS", exposed="QS") == 200 + 200


# --------------------------------------------------------------------------- the decision


def test_exposure_is_a_public_decision_of_every_seat_in_turn() -> None:
    r = round_from(GZX, {0: "2S AH", 2: "QS JD", 3: "TC"})
    assert r.phase is hl.Phase.DECIDE and r.decision == "expose" and r.to_act == (0,)
    assert r.options == ("none", "AH") and r.observation(1).options == ()
    r.apply(hl.Choose(0, "AH"))
    assert r.to_act == (1,) and r.options == ("none",)  # holding none, seat 1 is asked too
    assert r.observation(3).exposed == (hl.Card("AH"),)  # public once made
    r.apply(hl.Choose(1, "none"))
    assert r.to_act == (2,) and r.options == ("none", "JD", "QS", "JD QS")
    err = r.why_illegal(hl.Choose(2, "AH"))  # not held: not offered
    assert err is not None and err.code == "choice_not_offered"
    assert r.why_illegal(hl.Choose(2, "3S")).code == "choice_not_offered"  # type: ignore[union-attr]
    r.apply(hl.Choose(2, "JD QS"))
    r.apply(hl.Choose(3, "none"))
    assert r.phase is hl.Phase.PLAY and r.to_act == (0,) and legal(r) == {"2S"}
    assert r.exposed == hl.parse_cards("JD AH QS")
    # exposing is done face up: everyone knows who exposed what, after the cards are played too
    assert r.exposed_by == (2, 0, 2) and r.observation(1).exposed_by == (2, 0, 2)
    assert "exposed: seat 2 J♦, seat 0 A♥, seat 2 Q♠" in r.observation(1).text()
    assert [e for e in r.events if isinstance(e, hl.Choose)] == [
        hl.Choose(0, "AH"), hl.Choose(1, "none"), hl.Choose(2, "JD QS"), hl.Choose(3, "none")]


def test_an_exposure_offered_before_the_rules_built_it_is_carried_out_the_same() -> None:
    # the engine builds each set of exposure options once per compiled variant and remembers the cards of each
    # option; a round made elsewhere (an unpickled one) may offer an option this Rules has not built
    remembered = round_from(GZX, {0: "2S AH", 2: "QS JD", 3: "TC"})
    fresh = remembered.copy()
    for seat, option in ((0, "AH"), (1, "none"), (2, "JD QS"), (3, "none")):
        remembered.apply(hl.Choose(seat, option))
        built = dict(GZX.rules.exposure_cards)
        GZX.rules.exposure_cards.clear()
        try:
            fresh.apply(hl.Choose(seat, option))
        finally:
            GZX.rules.exposure_cards.update(built)
    assert fresh == remembered and fresh.exposed == hl.parse_cards("JD AH QS")


# --------------------------------------------------------------------------- the first lead of a suit

SPADES = {0: "2S 4S", 1: "QS 5S 6S", 2: "KS 7S", 3: "AS 3S 8S 9S TS JS"}
NO_MORE_SPADES = {0: "S", 1: "S", 2: "S", 3: "S"}


def test_garytang_gongzhu_bars_an_exposed_card_the_first_time_its_suit_is_led() -> None:
    r = round_from(GZX, SPADES, void=NO_MORE_SPADES)
    expose(r, {1: "QS"})
    play(r, "0:2S")
    assert legal(r) == {"5S", "6S"}
    err = r.why_illegal(hl.Play(1, "QS"))
    assert err is not None and err.code == "exposed_card_first_lead"


def test_garytang_gongzhu_lifts_the_restriction_once_the_suit_has_been_led() -> None:
    r = round_from(GZX, SPADES, void=NO_MORE_SPADES)
    expose(r, {1: "QS"})
    play(r, "0:2S", "1:5S", "2:7S", "3:AS", "3:3S", "0:4S")
    assert legal(r) == {"QS", "6S"}


def general_playout(r: hl.Round, seed: int) -> hl.Round:
    """``r`` played out by random_playout with the short paths turned off (the general path alone)."""
    general = r.copy()
    saved = GZX.rules.short_tricks
    GZX.rules.short_tricks = False
    try:
        general.random_playout(random.Random(seed))
    finally:
        GZX.rules.short_tricks = saved
    return general


def exposure_binds(r: hl.Round) -> bool:
    """Whether an exposed card may still be barred: one is still held and its suit has not been led."""
    led = {t.led_suit for t in r.tricks}
    return any(c.suit not in led and any(c in r.hand(s) for s in range(r.variant.players)) for c in r.exposed)


def test_the_short_paths_keep_the_exposed_card_rule_until_each_suit_is_led() -> None:
    # legality decides every play, short paths or not: from the first lead after exposing, or from the second
    # trick, the same game as the general path for the same draws (a fast loop once had to wait until no exposed
    # card could still be barred)
    r = round_from(GZX, SPADES, void=NO_MORE_SPADES)
    expose(r, {1: "QS"})
    play(r, "0:2S", "1:5S", "2:7S", "3:AS")
    assert not exposure_binds(r)  # spades have been led: Q♠ is free from now on
    binding = 0
    for seed in range(60):
        rng = random.Random(seed)
        r = hl.Round.deal(GZX, seed=seed)
        while r.phase is not hl.Phase.PLAY or len(r.tricks) < seed % 2:
            acting = r.to_act[0]
            acts = r.legal_actions(acting)
            if r.phase is hl.Phase.DECIDE:  # expose something when there is something to expose
                acts = [a for a in acts if a.option != "none"] or acts  # type: ignore[union-attr]
            r.apply(acts[rng.randrange(len(acts))])
        binding += exposure_binds(r)
        fast = r.copy()
        fast.random_playout(random.Random(seed))
        general = general_playout(r, seed)
        assert fast == general and fast.events == general.events
    assert binding >= 40  # most of these playouts start with an exposed card still barred


def test_garytang_gongzhu_allows_the_exposed_card_when_it_is_the_only_one_of_its_suit() -> None:
    r = round_from(GZX, {0: "2S", 1: "QS"}, void={1: "S"})
    expose(r, {1: "QS"})
    play(r, "0:2S")
    assert legal(r) == {"QS"}


def test_pagat_an_exposed_card_may_not_lead_its_suit_the_first_time() -> None:
    # "may not be played the first time its suit is led, including the lead itself, unless it is a singleton"
    v = GZX.replace(play={"opening": "eldest_any"})
    r = round_from(v, {0: "AH 2H 3C"}, void={0: "H"}, dealer=3)
    expose(r, {0: "AH"})
    assert r.to_act == (0,) and "AH" not in legal(r) and "2H" in legal(r)
    assert r.why_illegal(hl.Play(0, "AH")).code == "exposed_card_first_lead"  # type: ignore[union-attr]
    single = round_from(v, {0: "AH 3C"}, void={0: "H"}, dealer=3)
    expose(single, {0: "AH"})
    assert "AH" in legal(single)


# --------------------------------------------------------------------------- whole hands


@pytest.mark.parametrize("seed", range(3))
def test_an_exposed_hand_scores_as_score_cards_says(seed: int) -> None:
    rng = random.Random(seed)
    m = hl.Match(GZX, seed=seed)
    while m.hand_number < 2 and not m.is_over:
        m.apply(hst.random_action(m, rng))
    for result in m.rounds:
        exposed = [c for e in result.events if isinstance(e, hl.Choose) for c in hl.parse_cards(
            "" if e.option == "none" else e.option)]
        won = [e for e in result.events if isinstance(e, hl.TrickWon)]
        taken = [[c for e in won if e.winner == s for c in e.taken] for s in range(4)]
        assert score_cards(GZX, taken, exposed=exposed, trick_winners=[e.winner for e in won]) == result.outcome
        per_seat = [sum(e.points for e in won if e.winner == s) for s in range(4)]
        doubled = hl.scoring.exposure_doubles(GZX.rules, {c.index for c in exposed})
        assert per_seat == [sum(GZX.rules.value[c.index] * (2 if c.index in doubled else 1) for c in t)
                            for t in taken]


def test_exposed_cards_need_one_deck() -> None:
    with pytest.raises(hl.VariantError, match=r"scoring\.exposable"):
        hl.preset("double_deck_8").replace(scoring={"exposable": {"QS": "card"}})


CLUB_PLAY_SPADES = {0: "4S 8S 9S TS JS AS", 1: "QS 5S 6S", 2: "2S 7S", 3: "KS 3S"}


def test_decision_the_exposure_bar_wins_over_a_forced_play() -> None:
    # RULES.md section 11's decision: with club play (Q♠ forced once spades are led and K♠ or A♠ is on the
    # trick) an exposed Q♠ is still barred the first time spades are led while its holder has another spade
    v = GZX.replace(play={"queen_forced": True})
    r = round_from(v, CLUB_PLAY_SPADES, void=NO_MORE_SPADES)
    expose(r, {1: "QS"})
    play(r, "2:2S", "3:KS", "0:4S")
    assert legal(r) == {"5S", "6S"}
    err = r.why_illegal(hl.Play(1, "QS"))
    assert err is not None and err.code == "exposed_card_first_lead"
    unexposed = round_from(v, CLUB_PLAY_SPADES, void=NO_MORE_SPADES)
    expose(unexposed, {})
    play(unexposed, "2:2S", "3:KS", "0:4S")
    assert legal(unexposed) == {"QS"}  # the club-play rule itself, without the exposure
