"""Idlib Leekha (the ``likha_idlib`` preset): the cases of jehadbaeth/Leekha ``packages/engine/test/rules.test.ts``.

Seats as heartslib numbers them: with dealer 1 and anticlockwise play, seat 0 leads and then 3, 2, 1 play.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst
from helpers import legal, play, round_from

IDLIB = hl.preset("likha_idlib")


def deal(fixed: dict[int, str], void: dict[int, str] | None = None) -> hl.Round:
    r = round_from(IDLIB, fixed, void=void or {}, dealer=1)
    assert r.to_act == (0,)
    return r


def test_leekha_idlib_preset() -> None:
    assert IDLIB.penalty_total == 50  # "exactly 50 points exist per round"
    assert hl.preset("leekha_idlib") == IDLIB and IDLIB.end.target == 201
    assert [c.code for c in IDLIB.play.must_discard] == ["TD", "QS", "KC"]


# --------------------------------------------------------------------------- following and the forced dump


def test_leekha_must_follow_suit_when_able() -> None:
    r = deal({0: "2H", 3: "5H 9H 3S"}, {3: "H"})
    play(r, "0:2H")
    assert legal(r) == {"5H", "9H"}


def test_leekha_leader_may_lead_anything_including_hearts_on_trick_1() -> None:
    r = deal({0: "5H 3S KC"})
    assert legal(r) == {c.code for c in r.hand(0)}


def test_leekha_forced_dump_with_exactly_one_leekha_card() -> None:
    r = deal({0: "5S", 1: "QS KC", 3: "TD 4C 2H"}, {3: "S"})
    play(r, "0:5S")
    assert legal(r) == {"TD"}
    assert r.why_illegal(hl.Play(3, "4C")).code == "must_discard"  # type: ignore[union-attr]


def test_leekha_forced_dump_offers_a_choice_among_two_and_three() -> None:
    r = deal({0: "5C", 1: "KC", 3: "TD QS 2H"}, {3: "C"})
    play(r, "0:5C")
    assert legal(r) == {"TD", "QS"}
    r = deal({0: "5H", 3: "TD QS KC"}, {3: "H"})
    play(r, "0:5H")
    assert legal(r) == {"TD", "QS", "KC"}


def test_leekha_void_with_no_leekha_may_discard_anything() -> None:
    r = deal({0: "5S", 1: "TD QS KC", 3: "2H 4C 3D"}, {3: "S"})
    play(r, "0:5S")
    assert legal(r) == {c.code for c in r.hand(3)}


def test_leekha_queen_is_a_legal_follow_to_a_spade_lead() -> None:
    r = deal({0: "5S", 3: "QS 3S"}, {3: "S"})
    play(r, "0:5S")
    assert "QS" in legal(r)


def test_leekha_two_players_can_be_forced_on_the_same_trick() -> None:
    r = deal({0: "5S 9S", 1: "2S", 3: "TD 2H", 2: "KC 3H"}, {3: "S", 2: "S"})
    play(r, "0:5S")
    assert legal(r) == {"TD"}
    play(r, "3:TD")
    assert legal(r) == {"KC"}


def test_leekha_king_of_clubs_eaten_by_following_under_the_ace() -> None:
    # the K♣ holder has no lower club: it follows with the king and the ace takes 14
    r = deal({0: "2C", 3: "KC", 2: "3C", 1: "AC"}, {3: "C"})
    play(r, "0:2C", "3:KC", "2:3C", "1:AC")
    won = [e for e in r.events if isinstance(e, hl.TrickWon)][-1]
    assert won.winner == 1 and won.points == 14


# --------------------------------------------------------------------------- the undercut rule


def test_leekha_a_follower_must_duck_beneath_a_leekha_on_the_trick() -> None:
    r = deal({0: "QS", 3: "AS 5S"}, {3: "S"})
    play(r, "0:QS")
    assert legal(r) == {"5S"}
    err = r.why_illegal(hl.Play(3, "AS"))
    assert err is not None and err.code == "must_undercut" and "QS" in str(err)


def test_leekha_a_follower_whose_cards_all_outrank_it_plays_over() -> None:
    r = deal({0: "QS", 3: "AS KS"}, {3: "S"})
    play(r, "0:QS")
    assert legal(r) == {"AS", "KS"}


def test_leekha_a_forced_dumper_picks_the_leekha_below_the_tricks_highest() -> None:
    # spades led, the dumper is void: with Q♠ down, K♣ (13) is not below it, 10♦ is
    r = deal({0: "QS", 3: "TD KC"}, {3: "S"})
    play(r, "0:QS")
    assert legal(r) == {"TD"}
    assert r.why_illegal(hl.Play(3, "KC")).code == "must_undercut"  # type: ignore[union-attr]


def test_leekha_a_free_discard_stays_unconstrained() -> None:
    r = deal({0: "QS", 1: "TD KC", 3: "AH 4C"}, {3: "S"})
    play(r, "0:QS")
    assert legal(r) == {c.code for c in r.hand(3)}


def test_leekha_a_heart_only_trick_triggers_no_undercut() -> None:
    r = deal({0: "5H", 3: "AH 2H"}, {3: "H"})
    play(r, "0:5H")
    assert legal(r) == {"AH", "2H"}


def test_leekha_with_two_leekha_cards_on_the_trick_the_highest_sets_the_ceiling() -> None:
    # K♣ led, 10♦ dumped: the J♣ (11) ducks under the king (13), so both clubs are legal
    r = deal({0: "KC", 3: "TD", 2: "JC 2C"}, {3: "C", 2: "C"})
    play(r, "0:KC", "3:TD")
    assert legal(r) == {"JC", "2C"}


def test_the_undercut_rule_needs_the_leekha_cards() -> None:
    with pytest.raises(hl.VariantError, match=r"play\.undercut.*must_discard"):
        hl.preset("standard").replace(play={"undercut": True})


def test_leekha_idlib_match_plays_to_201_with_the_biggest_eater_dealing() -> None:
    m = hl.Match(IDLIB, seed=8, dealer=2)
    rng = __import__("random").Random(8)
    while not m.is_over:
        m.apply(m.legal_actions(m.to_act[0])[rng.randrange(len(m.legal_actions(m.to_act[0])))])
    assert max(m.scores) >= 201 and all(sum(r.points) == 50 for r in m.rounds)
    for done, following in zip(m.rounds, m.rounds[1:], strict=False):
        assert following.dealer == hl.scoring.next_dealer(IDLIB, done.dealer, done.points,
                                                           [[c for e in done.events if isinstance(e, hl.TrickWon)
                                                             and e.winner == s for c in e.taken] for s in range(4)])


UNDERCUT_VARIANTS = hst.variants(undercut=True, must_discard=st.sampled_from([("TD", "QS", "KC"), ("QS", "TD")]),
                                 undercut_ceiling="highest_leekha", undercut_binds_discards=False,
                                 decks=1, booster_nines=False)


@given(hst.rounds(UNDERCUT_VARIANTS, max_steps=0), st.integers(0, 2**32 - 1))
def test_undercut_legal_cards_are_all_below_the_ceiling_or_none_is(r: hl.Round, seed: int) -> None:
    # at every step of a random hand: once a leekha card is on the trick, a follower's legal cards are all below
    # the highest one on it whenever one of them is (the rule lifts only when none is)
    rng = random.Random(seed)
    rules = r.variant.rules
    while not r.is_over:
        if r.phase is hl.Phase.PLAY and r.trick:
            leekhas = [c.rank for _, c in r.trick if c.index in rules.must_discard]
            led = r.observation(r.to_act[0]).led_suit
            follows = led is not None and any(c.suit == led for c in r.hand(r.to_act[0]))
            if leekhas and follows:
                below = {c.rank < max(leekhas) for c in r.legal_cards()}
                assert len(below) == 1, (r.trick, r.legal_cards())
        r.apply(hst.random_action(r, rng))


def test_the_undercut_and_forced_discards_are_legalitys_alone() -> None:
    # issue 32: the fast loop once kept its own copy of the undercut's ceiling and of the forced discards; issue
    # 49 deleted that loop: every playout takes each card from legality.legal_mask
    from heartslib.engine import playout

    assert not hasattr(playout, "fast_playout") and not hasattr(IDLIB.rules, "fast_playout")


# --------------------------------------------------------------------------- the undercut's other readings (RULES §11)

WINNING = IDLIB.replace(play={"undercut_ceiling": "winning_card"})
BINDING = IDLIB.replace(play={"undercut_binds_discards": True})


def deal_in(v: hl.Variant, fixed: dict[int, str], void: dict[int, str] | None = None) -> hl.Round:
    r = round_from(v, fixed, void=void or {}, dealer=1)
    assert r.to_act == (0,)
    return r


def test_leekha_winning_card_the_ceiling_is_the_led_suits_highest_card_not_a_cross_suit_leekha() -> None:
    # rules.test.ts, "by default (winningCard) ...": 8♣ led, 4♣, 10♦ dumped by a void player; the follower's
    # 9♣ outranks the 8♣ on the trick, so it must duck under the 8, not just under the cross-suit 10♦
    fixed = {0: "8C", 3: "4C", 2: "TD", 1: "9C 3C 2C"}
    r = deal_in(WINNING, fixed, {2: "C"})
    play(r, "0:8C", "3:4C", "2:TD")
    assert legal(r) == {"3C", "2C"}
    err = r.why_illegal(hl.Play(1, "9C"))
    assert err is not None and err.code == "must_undercut"
    assert "TD is on the trick and 8C is winning it" in str(err)
    # the Leekha-rank reading (the preset's): 9♣ is below 10♦
    r = deal_in(IDLIB, fixed, {2: "C"})
    play(r, "0:8C", "3:4C", "2:TD")
    assert legal(r) == {"9C", "3C", "2C"}


def test_leekha_winning_card_binds_only_once_a_leekha_lies_on_the_trick() -> None:
    r = deal_in(WINNING, {0: "8C", 3: "9C 3C"})
    play(r, "0:8C")
    assert legal(r) == {"9C", "3C"}


def test_leekha_winning_card_with_two_leekha_cards_on_the_trick() -> None:
    # rules.test.ts, "with the leekhaRank variant, two leekha cards ...": K♣ led, 10♦ dumped; the winning card is
    # the K♣ too, so J♣ and 2♣ both duck under it
    r = deal_in(WINNING, {0: "KC", 3: "TD", 2: "JC 2C"}, {3: "C", 2: "C"})
    play(r, "0:KC", "3:TD")
    assert legal(r) == {"JC", "2C"}


def test_leekha_undercut_binds_free_discards_when_asked() -> None:
    # rules.test.ts, "a free discard stays unconstrained by default": with undercutBindsDiscards the void
    # player's free discard must go below the Q♠ too
    fixed = {0: "QS", 1: "TD KC", 3: "AH 4C"}
    r = deal_in(BINDING, fixed, {3: "S"})
    play(r, "0:QS")
    below = {c.code for c in r.hand(3) if c.rank < 12}
    assert "4C" in below and legal(r) == below
    assert r.why_illegal(hl.Play(3, "AH")).code == "must_undercut"  # type: ignore[union-attr]
    r = deal_in(IDLIB, fixed, {3: "S"})
    play(r, "0:QS")
    assert legal(r) == {c.code for c in r.hand(3)}


def test_the_undercut_readings_need_the_undercut_rule() -> None:
    for play_fields in ({"undercut_ceiling": "winning_card"}, {"undercut_binds_discards": True}):
        with pytest.raises(hl.VariantError, match=r"play\.undercut_.*play\.undercut = true"):
            hl.preset("standard").replace(play=play_fields)


def test_the_undercut_readings_are_described_and_round_trip() -> None:
    v = IDLIB.replace(play={"undercut_ceiling": "winning_card", "undercut_binds_discards": True})
    text = v.describe()
    assert "below the highest card of the suit led" in text and "a free discard" in text
    assert hl.Variant.from_toml(v.to_toml()) == v


READING_VARIANTS = hst.variants(undercut=True, must_discard=st.sampled_from([("TD", "QS", "KC"), ("QS", "TD")]),
                                undercut_ceiling="winning_card", undercut_binds_discards=st.booleans(),
                                decks=1, booster_nines=False, jokers=0)


@given(hst.rounds(READING_VARIANTS, max_steps=0), st.integers(0, 2**32 - 1))
def test_winning_card_legal_cards_are_all_below_the_led_suits_highest_or_none_is(r: hl.Round, seed: int) -> None:
    rng = random.Random(seed)
    rules = r.variant.rules
    binds = r.variant.play.undercut_binds_discards
    while not r.is_over:
        if r.phase is hl.Phase.PLAY and r.trick:
            led = r.trick[0][1].suit
            on_trick = [c for _, c in r.trick]
            seat = r.to_act[0]
            follows = any(c.suit == led for c in r.hand(seat))
            if any(c.index in rules.must_discard for c in on_trick) and (follows or binds):
                ceiling = max(c.rank for c in on_trick if c.suit == led)
                below = {c.rank < ceiling for c in r.legal_cards()}
                assert len(below) == 1, (r.trick, r.legal_cards())
        r.apply(hst.random_action(r, rng))
