"""Leading and following (RULES.md section 4), each test citing its source."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst
from helpers import legal, play, round_from

STD = hl.preset("standard")


def test_002_holder_of_two_of_clubs_leads_it() -> None:
    r = round_from(STD, {2: "2C 3C KS"})
    assert r.to_act == (2,)
    assert legal(r) == {"2C"}
    err = r.why_illegal(hl.Play(2, "3C"))
    assert err is not None and err.code == "must_lead_opening_card"
    with pytest.raises(hl.IllegalAction) as info:
        r.apply(hl.Play(2, "KS"))
    assert info.value.code == "must_lead_opening_card" and "2C" in str(info.value)


def test_002_must_follow_suit() -> None:
    r = round_from(STD, {0: "2C", 1: "5C 9C AH"})
    play(r, "0:2C")
    assert {"5C", "9C"} <= legal(r) and "AH" not in legal(r)
    err = r.why_illegal(hl.Play(1, "AH"))
    assert err is not None and err.code == "must_follow_suit"


def test_002_first_trick_exception_no_points_unless_only_points() -> None:
    # seat 1 has no clubs: it may not discard a heart or Q♠ while it holds a non-point card
    hands = {
        0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        1: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QS 2D 3D",
        2: "4D 5D 6D 7D 8D 9D TD JD QD KD AD 2S 3S",
        3: "QH KH AH 4S 5S 6S 7S 8S 9S TS JS KS AS",
    }
    r = hl.Round.from_hands(STD, [hands[s] for s in range(4)], passing=hl.HOLD)
    play(r, "0:2C")
    assert legal(r) == {"2D", "3D"}
    err = r.why_illegal(hl.Play(1, "QS"))
    assert err is not None and err.code == "no_points_on_first_trick"
    err = r.why_illegal(hl.Play(1, "2H"))
    assert err is not None and err.code == "no_points_on_first_trick"
    play(r, "1:2D", "2:4D")
    # seat 3 holds only hearts and spades, Q♠ excepted: spades are not points, so no heart
    assert "QH" not in legal(r) and "4S" in legal(r)


def test_002_first_trick_exception_hand_of_only_points() -> None:
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS",
        "AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    ]
    r = hl.Round.from_hands(STD, hands, passing=hl.HOLD)
    play(r, "0:2C")
    # only penalty cards: the exception lets any of them be played
    assert legal(r) == {c.code for c in r.hand(1)}


def test_001_no_hearts_on_first_trick_variation() -> None:
    v = STD.replace(play={"first_trick": "no_hearts"})
    r = round_from(v, {0: "2C", 1: "QS 2H 2D"}, dealer=3)
    r = round_from(v, {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", 1: "QS 2H 2D"}, dealer=3)
    play(r, "0:2C")
    assert "QS" in legal(r) and "2H" not in legal(r)
    assert r.why_illegal(hl.Play(1, "2H")).code == "no_hearts_on_first_trick"  # type: ignore[union-attr]


def test_002_hearts_locked_until_a_heart_is_played_queen_does_not_break() -> None:
    hands = [
        "AC 2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 9H",
        "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD TH JH QH KH AH 7S 8S 9S TS JS KS AS",
    ]
    # seat 0 wins the first trick with A♣ and must lead: hearts are locked, so not 2♥
    r = hl.Round.from_hands(STD, hands, passing=hl.HOLD)
    play(r, "1:2C", "2:2D", "3:AD", "0:AC")
    assert "2H" not in legal(r)
    assert r.why_illegal(hl.Play(0, "2H")).code == "hearts_not_broken"  # type: ignore[union-attr]
    # seat 1, void in spades, discards 9♥ on seat 0's spade lead: hearts are broken
    play(r, "0:2S", "1:9H")
    assert r.hearts_broken
    # Q♠ played to a trick does not break hearts (002): seat 2 follows spades with it and wins
    r = hl.Round.from_hands(STD, hands, passing=hl.HOLD)
    play(r, "1:2C", "2:2D", "3:AD", "0:AC", "0:2S", "1:3C", "2:QS", "3:7S")
    assert not r.hearts_broken
    assert r.to_act == (2,)  # Q♠ beat 2♠ and 7♠


def test_002_may_lead_hearts_when_holding_only_hearts() -> None:
    hands = [
        "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    r = hl.Round.from_hands(STD, hands, passing=hl.HOLD)
    play(r, "1:2C", "2:2D", "3:2S", "0:AC")  # seat 0 wins the first trick and holds nothing but hearts
    assert not r.hearts_broken
    assert legal(r) == {"2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"}
    play(r, "0:2H")
    assert r.hearts_broken


def test_000_a_heart_discarded_on_another_suit_breaks_hearts() -> None:
    hands = [
        "2C AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2H",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    v = STD.replace(play={"first_trick": "any"})
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD, dealer=3)
    play(r, "0:2C", "1:AC", "2:2D", "3:2S")
    assert not r.hearts_broken
    play(r, "1:3C", "2:3D", "3:3S", "0:3H")  # seat 0, void in clubs, discards a heart on a club lead
    assert r.hearts_broken


def test_000_penalty_cards_break_hearts_variation() -> None:
    v = STD.replace(play={"breaking": "penalty_cards"})
    hands = [
        "AC 2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 9H",
        "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD TH JH QH KH AH 7S 8S 9S TS JS KS AS",
    ]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r, "1:2C", "2:2D", "3:AD", "0:AC", "0:2S", "1:3C", "2:QS", "3:7S")
    assert r.hearts_broken  # Q♠ breaks hearts under this variation


def test_000_hearts_may_be_led_any_time_early_rules() -> None:
    v = STD.replace(play={"breaking": "none"})
    r = round_from(v, {0: "AC 2H", 1: "2C"})
    play(r, "1:2C")
    for seat in (2, 3):
        play(r, f"{seat}:{sorted(legal(r))[0]}")
    # seat 0 follows with AC and wins; it may lead a heart at once
    play(r, "0:AC")
    assert r.to_act == (0,) and "2H" in legal(r)


def test_000_only_hearts_and_penalty_cards_may_lead_a_heart() -> None:
    hand0 = "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"
    base = [hand0, "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC KH",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", "AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"]
    for rule, can_lead_heart in (("only_hearts", False), ("only_penalty_cards", True)):
        v = STD.replace(play={"lead_hearts_unbroken": rule, "first_trick": "any"})
        r = hl.Round.from_hands(v, base, passing=hl.HOLD)
        play(r, "1:2C", "2:2D", "3:2S", "0:AC")
        assert ("2H" in legal(r)) is can_lead_heart, rule
        assert "QS" in legal(r)


def test_000_black_lady_may_not_be_led_before_hearts_broken_morehead() -> None:
    v = STD.replace(play={"queen_needs_broken": True, "first_trick": "any"})
    hands = ["AC QS 2S 3H 4H 5H 6H 7H 8H 9H TH JH QH", "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC KH",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", "AH 2H 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r, "1:2C", "2:2D", "3:3S", "0:AC")
    assert legal(r) == {"2S"}
    assert r.why_illegal(hl.Play(0, "QS")).code == "queen_not_broken"  # type: ignore[union-attr]
    play(r, "0:2S", "1:KH")  # hearts broken
    play(r, "2:3D", "3:AS")
    # seat 3 leads; hearts broken, Q♠ is free now (seat 0 holds it)
    assert r.hearts_broken


def test_000_eldest_hand_leads_any_card() -> None:
    v = hl.preset("culbertson_1950")
    r = round_from(v, {1: "AS KS", 0: "2C"}, dealer=0)
    assert r.to_act == (1,)
    assert len(legal(r)) == 13


def test_openspiel_any_club_opening() -> None:
    v = STD.replace(play={"opening": "any_club"})
    r = round_from(v, {2: "2C 9C AC AS"})
    assert r.to_act == (2,)
    assert legal(r) == {c.code for c in r.hand(2) if c.suit == hl.Suit.CLUBS}
    assert r.why_illegal(hl.Play(2, "AS")).code == "must_lead_club"  # type: ignore[union-attr]


def test_000_three_of_clubs_leads_when_two_stripped() -> None:
    v = STD.replace(players=3, passing={"schedule": "left_right"})
    assert hl.Card("2C") not in v.pack
    r = round_from(v, {1: "3C"})
    assert r.to_act == (1,) and legal(r) == {"3C"}


def test_000_club_play_queen_forced_when_void() -> None:
    v = STD.replace(play={"queen_forced": True, "first_trick": "any"})
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "QS 2H 3H 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
             "4H 5H 6H 7H 8H 9H TH JH QH KH AH QD KD", "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r, "0:2C")
    assert legal(r) == {"QS"}
    assert r.why_illegal(hl.Play(1, "2D")).code == "queen_forced"  # type: ignore[union-attr]


def test_000_club_play_queen_forced_on_higher_spade() -> None:
    v = STD.replace(play={"queen_forced": True, "first_trick": "any"})
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC KS", "QS 2S 2H 2D 3D 4D 5D 6D 7D 8D 9D TD AC",
             "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH JD", "QD KD AD 3S 4S 5S 6S 7S 8S 9S TS JS AS"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r, "0:2C", "1:AC", "2:JD", "3:QD")  # seat 1 wins, leads 2S
    play(r, "1:2S", "2:3H", "3:3S", "0:KS")  # seat 0 wins with KS
    r2 = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r2, "0:2C", "1:AC", "2:JD", "3:QD", "1:2D")
    # a diamond lead: seat 1 has Q♠ but follows diamonds; not forced
    assert r2.to_act == (2,)
    # now a spade lead with K♠ before seat 1: seat 1 must play Q♠
    r3 = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r3, "0:2C", "1:AC", "2:JD", "3:QD", "1:2D", "2:3H", "3:KD", "0:3C")
    play(r3, "3:3S", "0:KS")
    assert legal(r3) == {"QS"}


def test_000_black_jack_must_be_discarded_when_void() -> None:
    v = hl.preset("black_jack")
    r = round_from(v, {1: "AS", 2: "JS 2D 3D"}, dealer=0)
    # eldest (seat 1) leads; lead a club so that seat 2, holding no clubs, must discard J♠
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2S", "AC 3S 4S 5S 6S 7S 8S 9S TS QS KS AS 2H",
             "JS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "AD 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r, "1:AC")
    assert legal(r) == {"JS"}
    assert r.why_illegal(hl.Play(2, "2D")).code == "must_discard"  # type: ignore[union-attr]
    early = v.replace(play={"must_discard": []})
    r = hl.Round.from_hands(early, hands, passing=hl.HOLD)
    play(r, "1:AC")
    assert len(legal(r)) == 13  # early rules: may, not must


def test_000_likha_must_play_one_of_both_when_holding_both() -> None:
    v = STD.replace(play={"must_discard": ["QS", "TD"], "must_discard_if_all": True, "first_trick": "any"})
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "QS TD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
             "2D 3D 4D 5D 6D 7D 8D 9D JD QD KD AD KH", "AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r, "0:2C")
    assert legal(r) == {"QS", "TD"}
    hands2 = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "QS 9D 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
              "2D 3D 4D 5D 6D 7D 8D TD JD QD KD AD KH", "AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"]
    r = hl.Round.from_hands(v, hands2, passing=hl.HOLD)
    play(r, "0:2C")
    assert len(legal(r)) == 13  # holding only one of them: free


def test_000_booster_nines_extend_the_trick() -> None:
    v = STD.replace(play={"booster_nines": True})
    hands = ["2C 9C 4C 5C 6C 7C 8C 3C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    play(r, "0:2C", "1:9D", "2:2H", "3:2S")
    # one nine played: a second round of plays in the same trick
    assert len(r.tricks) == 0 and r.to_act == (0,)
    play(r, "0:9C", "1:2D", "2:3H", "3:3S")
    # another nine (9♣): a third round
    assert len(r.tricks) == 0
    play(r, "0:AC", "1:3D", "2:4H", "3:4S")
    assert len(r.tricks) == 1
    trick = r.tricks[0]
    assert len(trick.plays) == 12 and trick.winner == 0  # A♣ is the highest club
    assert [len(r.hand(s)) for s in range(4)] == [10, 10, 10, 10]


def test_decision_booster_round_not_added_when_hands_are_empty() -> None:
    v = STD.replace(play={"booster_nines": True})
    r = hl.Round.deal(v, seed=4)
    for seat in range(4):
        hand = r.hand(seat)
        r.apply(hl.Pass(seat, hand[:3]))
    import random

    points = r.random_playout(random.Random(1))
    assert sum(points) in (26, 78)
    assert all(not r.hand(s) for s in range(4))


def test_illegal_apply_leaves_state_unchanged() -> None:
    r = round_from(STD, {0: "2C AH"}, passing=hl.Offset(1))
    before = r.copy()
    for bad in (hl.Play(0, "2C"), hl.Pass(0, hl.parse_cards("2C AH")), hl.Pass(5, []), hl.Choose(0, "old")):
        with pytest.raises(hl.IllegalAction):
            r.apply(bad)
        assert r == before


def test_play_out_of_turn_and_card_not_held() -> None:
    r = round_from(STD, {0: "2C", 1: "3C"})
    assert r.why_illegal(hl.Play(1, "3C")).code == "not_your_turn"  # type: ignore[union-attr]
    assert r.why_illegal(hl.Play(0, "3C")).code == "card_not_held"  # type: ignore[union-attr]
    assert r.legal_actions(1) == []
    with pytest.raises(hl.IllegalAction, match="seat 9"):
        r.legal_actions(9)


# ------------------------------------------------------------------ issue 18: every opening obeys the first trick


def test_issue18_any_club_opening_refuses_a_club_that_scores() -> None:
    # the rogue 7♣ (001) is worth 7: "no blood" keeps it off the first trick, as eldest_any already did
    v = STD.replace(play={"opening": "any_club"}, scoring={"values": {"QS": 13, "7C": 7}})
    r = round_from(v, {2: "2C 7C 9C AS"})
    assert r.to_act == (2,)
    assert legal(r) == {c.code for c in r.hand(2) if c.suit == hl.Suit.CLUBS} - {"7C"}
    assert r.why_illegal(hl.Play(2, "7C")).code == "no_points_on_first_trick"  # type: ignore[union-attr]
    assert r.why_illegal(hl.Play(2, "AS")).code == "must_lead_club"  # type: ignore[union-attr]
    eldest = round_from(v.replace(play={"opening": "eldest_any"}), {1: "2C 7C 9C AS"})
    assert "7C" not in legal(eldest)


def test_issue18_any_spade_opening_refuses_the_queen() -> None:
    # Gong Zhu's 2♠ as the opening card with "any_club": any spade but Q♠ may open while the first trick is bloodless
    v = STD.replace(play={"opening": "any_club", "opening_card": "2S"})
    r = round_from(v, {1: "2S 5S QS 3C"})
    assert r.to_act == (1,)
    assert "QS" not in legal(r) and {"2S", "5S"} <= legal(r)
    assert r.why_illegal(hl.Play(1, "QS")).code == "no_points_on_first_trick"  # type: ignore[union-attr]


def test_issue18_any_club_opening_refuses_a_joker_penalty_card() -> None:
    # 0♣ is the lowest club in play; as a penalty card it may not open while its holder has another club
    v = STD.replace(deck={"jokers": 2, "joker_points": 5}, play={"opening": "any_club"})
    assert hl.Card("0C") in v.pack and hl.Card("2C") not in v.pack
    r = round_from(v, {3: "0C 3C 8C"})
    assert r.to_act == (3,)
    assert "0C" not in legal(r) and {"3C", "8C"} <= legal(r)


def test_issue18_any_club_opening_with_only_scoring_cards_of_the_suit_may_lead_one() -> None:
    # the exemption: when every card the opening allows is a penalty card, the first-trick rule gives way
    v = STD.replace(play={"opening": "any_club", "opening_card": "QS"})
    r = round_from(v, {1: "QS 2C"}, void={1: "S"})
    assert r.to_act == (1,) and legal(r) == {"QS"}


FIRST_TRICK_VARIANTS = hst.variants(
    first_trick=st.sampled_from(["no_points", "no_hearts"]),
    opening=st.sampled_from(["any_club", "two_of_clubs", "eldest_any"]),
    values=st.sampled_from([{"QS": 13, "7C": 7}, {"QS": 13, "3C": 3, "9C": 2}, {"QS": 13, "5C": 5}, {"JS": 10}]),
    schedule=st.sampled_from(["hold", "left"]),
)


@given(hst.rounds(FIRST_TRICK_VARIANTS, max_steps=6))
def test_first_trick_cards_are_all_allowed_or_all_banned(r: hl.Round) -> None:
    # on the first trick the rule removes a banned card whenever another legal card remains: the legal cards
    # are never a mix (every opening, every forced play narrows within the allowed ones)
    if r.phase is not hl.Phase.PLAY or r.tricks:
        return
    banned = r.variant.rules.first_trick_banned
    assert banned is not None
    flags = {banned[c.index] for c in r.legal_cards()}
    assert len(flags) == 1, (r.trick, r.legal_cards())
