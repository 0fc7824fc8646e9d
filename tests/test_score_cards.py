"""Scoring without a round (API.md): ``heartslib.scoring.score_cards`` and the points on ``TrickWon`` events.

The cases come from other engines' test suites (garytang/gongzhu ``backend/test/engine/scoring.test.js``,
jehadbaeth/Leekha ``packages/engine/test/rules.test.ts``); the properties hold the pure scorer to the engine.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst
from heartslib.scoring import score_cards
from helpers import play

GZ = hl.preset("gong_zhu")
HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
PIG, SHEEP, TRANSFORMER = "QS", "JD", "TC"


def alone(cards: str, v: hl.Variant = GZ) -> hl.Score:  # type: ignore[name-defined]
    """What seat 0 scores taking ``cards`` (the other seats take nothing)."""
    return score_cards(v, [cards, "", "", ""]).points[0]


def test_garytang_gongzhu_point_cards() -> None:
    assert alone(PIG) == -100
    assert alone(SHEEP) == 100
    assert alone("AH KH") == -90
    assert alone("2S 3D 9C") == 0


def test_garytang_gongzhu_transformer_alone_and_doubling() -> None:
    assert alone(TRANSFORMER) == 50
    assert alone("TC 2S") == 50  # non-point cards do not stop the bonus
    assert alone("TC QS") == -200
    assert alone("TC JD") == 200
    assert alone("TC AH") == -100


def test_garytang_gongzhu_slams() -> None:
    assert alone(HEARTS) == 200
    assert alone(HEARTS + " QS") == 300
    assert alone(HEARTS + " QS JD") == 400  # the small slam
    assert alone(HEARTS + " QS JD TC") == 800  # the grand slam


def test_garytang_gongzhu_a_whole_hand_sums_to_minus_200() -> None:
    hearts = HEARTS.split()
    points = score_cards(GZ, [hearts[:7], hearts[7:], [PIG], [SHEEP]]).points
    assert sum(points) == -200


def test_garytang_gongzhu_scores_each_taker() -> None:
    assert score_cards(GZ, [PIG, SHEEP, "AH", ""]).points == (-100, 100, -50, 0)


def test_score_cards_moon_sun_and_the_facts_they_need() -> None:
    v = hl.preset("standard")
    assert score_cards(v, ["QS " + HEARTS, "", "", ""]).points == (0, 26, 26, 26)
    assert score_cards(v.replace(moon={"kind": "new"}), ["QS " + HEARTS, "", "", ""]).points == (-26, 0, 0, 0)
    sun = v.replace(moon={"sun": "add_52"})
    everything = " ".join(c.code for c in v.pack)
    assert score_cards(sun, [everything, "", "", ""]).points == (0, 52, 52, 52)
    assert score_cards(sun, ["QS " + HEARTS, "2C", "", ""]).points == (26, 0, 0, 0)  # no sun: scores normally
    punish = v.replace(moon={"sun": "punish_passer"})
    assert score_cards(punish, [everything, "", "", ""], passing=hl.Offset(1)).points == (0, 26, 26, 52)
    choice = v.replace(moon={"kind": "choice"})
    assert score_cards(choice, ["QS " + HEARTS, "", "", ""], moon_choice="new").points == (-26, 0, 0, 0)
    with pytest.raises(ValueError, match="moon_choice"):
        score_cards(choice, ["QS " + HEARTS, "", "", ""])
    slate = v.replace(moon={"sun": "clean_slate"})
    assert score_cards(slate, [everything, "", "", ""], scores=(70, 1, 2, 3)).points == (0, 0, 0, 0)
    # the no-tricks bonus reads who won tricks: by default, whoever took cards
    minus5 = v.replace(scoring={"no_tricks": -5})
    assert score_cards(minus5, ["QS", "2H", "2C", ""]).points == (13, 1, 0, -5)
    assert score_cards(minus5, ["QS", "2H", "", "2C"], trick_winners=[0, 1, 1]).points == (13, 1, -5, -5)


def test_score_cards_says_what_is_wrong() -> None:
    v = hl.preset("standard")
    with pytest.raises(ValueError, match="4 seats"):
        score_cards(v, ["QS", ""])
    with pytest.raises(hl.CardError):
        score_cards(v, ["QX", "", "", ""])
    with pytest.raises(ValueError, match="trick_winners"):
        score_cards(v, ["QS", "", "", ""], trick_winners=[7])
    with pytest.raises(ValueError, match="scores"):
        score_cards(v, ["QS", "", "", ""], scores=(1, 2))
    skip = v.replace(moon={"sun": "add_52", "sun_skips_first_trick": True})
    with pytest.raises(ValueError, match="trick_winners"):
        score_cards(skip, ["QS", "", "", ""])


def test_leekha_winner_receives_the_sum_of_all_points_in_the_trick() -> None:
    # jehadbaeth/Leekha rules.test.ts: S5 led, H4 and D10 dumped, S9 wins: 1 heart + 10 = 11
    v = hl.preset("likha")
    r = hl.Round.from_hands(v, ["5S " + "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
                                "4H AC 2D 3D 4D 5D 6D 7D 8D 9D JD QD KD",
                                "TD AD 2H 3H 5H 6H 7H 8H 9H TH JH QH KH",
                                "9S AH 2S 3S 4S 6S 7S 8S TS JS QS KS AS"], passing=hl.HOLD, dealer=1)
    assert r.to_act == (0,)
    play(r, "0:5S", "3:9S", "2:TD", "1:4H")
    won = [e for e in r.events if isinstance(e, hl.TrickWon)]
    assert won[-1].winner == 3 and won[-1].points == 11


def test_trick_won_points_leave_out_a_joker_that_did_not_score() -> None:
    v = hl.preset("standard").replace(deck={"jokers": 2, "joker_points": 5, "joker_points_when": "hearts_led"})
    hands = ["0C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "0D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    while not r.is_over:
        r.apply(r.legal_actions()[0])
    won = [e for e in r.events if isinstance(e, hl.TrickWon)]
    # 0♣ led a club trick, seat 2 (only hearts) gave 2♥: the trick is worth the heart alone
    assert won[0].taken[0] == hl.Card("0C") and hl.Card("2H") in won[0].taken and won[0].points == 1
    assert sum(e.points for e in won) == 26


def _dead_jokers(r: hl.Round) -> list[int]:
    """Per seat, the jokers worth nothing to it (hearts-led jokers taken on another trick), from the events."""
    v = r.variant
    dead = [0] * v.players
    if not v.rules.joker_conditional:
        return dead
    doubled = hl.scoring.exposure_doubles(v.rules, {c.index for c in r.exposed})
    for e in r.events:
        if isinstance(e, hl.TrickWon) and e.taken:
            face = sum(v.rules.value[c.index] * (2 if c.index in doubled else 1) for c in e.taken)
            dead[_taker(e)] += round((face - e.points).real / v.deck.joker_points) if v.deck.joker_points else 0
    return dead


def _taker(e: hl.TrickWon) -> int:
    """Who took a trick's cards: its winner, or for a rolled-over last trick its leader."""
    return e.leader if e.winner is None else e.winner


@given(hst.playouts(), st.integers(0, 2**32 - 1))
def test_score_cards_agrees_with_the_engine(r: hl.Round, seed: int) -> None:
    # one scorer: the pure function, given what the round saw, scores exactly what the engine scored (the
    # summed scorer included); each TrickWon carries its cards' points for the winner
    v = r.variant
    choice = next((e.option for e in r.events if isinstance(e, hl.Choose) and e.option in ("old", "new")
                   and r.decision is None and v.moon.kind == hl.MoonKind.CHOICE), None)
    outcome = score_cards(v, r.taken, trick_winners=[t.winner for t in r.tricks], tricks_won=r.tricks_won,
                          dead=_dead_jokers(r), exposed=r.exposed, passing=r.passing, scores=r.scores,
                          hand_number=r.hand_number, moon_choice=choice,
                          named=None if r.auction is None else r.auction.penalty_suit)
    assert outcome == r.outcome
    per_seat: list[hl.Score] = [0] * v.players  # type: ignore[name-defined]
    for e in r.events:
        if isinstance(e, hl.TrickWon) and e.taken:
            per_seat[_taker(e)] += e.points
        elif isinstance(e, hl.TrickWon):
            assert e.points == 0
    dead = _dead_jokers(r)
    doubled = hl.scoring.exposure_doubles(v.rules, {c.index for c in r.exposed})
    for seat in range(v.players):
        cards = list(r.taken[seat])
        if v.deck.stock == "to_follow":  # Domino Hearts' survivor keeps its hand and the stock: in no trick
            # (what each trick's winner took: its own cards and any that a cancelled trick carried into it)
            cards = [c for e in r.events if isinstance(e, hl.TrickWon) and e.winner == seat for c in e.taken]
        rules = v.rules if r.auction is None or r.auction.penalty_suit is None else v.rules.for_suit(
            int(r.auction.penalty_suit))
        face = sum(rules.value[c.index] * (2 if c.index in doubled else 1) for c in cards)
        assert per_seat[seat] == face - dead[seat] * v.deck.joker_points


def test_score_cards_agrees_with_a_seeded_match() -> None:
    v = hl.preset("omnibus")
    m = hl.Match(v, seed=4)
    rng = random.Random(4)
    while m.hand_number < 2 and not m.is_over:
        m.apply(hst.random_action(m, rng))
    for result in m.rounds:
        won = [e for e in result.events if isinstance(e, hl.TrickWon)]
        taken = [[c for e in won if e.winner == s for c in e.taken] for s in range(4)]
        before = tuple(t - p for t, p in zip(result.totals, result.points, strict=True))
        assert score_cards(v, taken, trick_winners=[e.winner for e in won], passing=result.passing,
                           scores=before, hand_number=result.hand_number) == result.outcome


def test_score_cards_scores_an_auction_by_the_named_suit() -> None:
    v = hl.preset("auction_hearts")
    taken = ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "", "2H 3H", ""]
    assert score_cards(v, taken, named=hl.Suit.SPADES).points == (13, 0, 0, 0)
    assert score_cards(v, taken, named=hl.Suit.HEARTS).points == (0, 0, 2, 0)
    with pytest.raises(hl.IllegalAction, match="named"):
        score_cards(v, taken)
    # the compiled build types the argument at the call (docs/performance.md): a TypeError there
    with pytest.raises((hl.IllegalAction, TypeError) if hl.COMPILED else hl.IllegalAction):
        score_cards(v, taken, named="spades")  # type: ignore[arg-type]
    with pytest.raises(hl.IllegalAction, match="no auction"):
        score_cards(hl.preset("standard"), taken, named=hl.Suit.SPADES)



def test_a_joker_scoring_values_lists_at_zero_scores_zero() -> None:
    # scoring.values replaces the table as a whole, and a listed card keeps its value: JK = 0 still scored
    # deck.joker_points (9 here), as an unlisted joker does
    v = hl.Variant(players=3, deck={"fill": "jokers", "joker": "valueless", "joker_points": 9},
                   scoring={"values": {"QS": 13, "JK": 0}})
    assert score_cards(v, ["JK QS", "2H", ""]).points == (13, 1, 0)
    assert score_cards(v.replace(scoring={"values": {"QS": 13}}), ["JK QS", "2H", ""]).points == (22, 1, 0)
    assert [p for p, _ in v.unread_fields()] == ["deck.joker_points"]


def test_domino_trick_points_count_the_cards_a_cancelled_trick_carried() -> None:
    # Domino Hearts with two decks and cancellation (found by the nightly profile): a cancelled trick's cards
    # roll over to the next trick's winner, and that TrickWon's points are the face value of everything it took
    v = hl.preset("standard").replace(players=6, deck={"decks": 2, "stock": "to_follow", "hand_size": 5},
                                      play={"identical": "cancel", "cancel_rollover": "two_pairs"})
    carried = []
    for seed in range(40):
        r = hl.Round.deal(v, seed=seed)
        r.random_playout(random.Random(seed))
        for e in r.events:
            if isinstance(e, hl.TrickWon) and e.taken:
                assert e.points == sum(v.rules.value[c.index] for c in e.taken)
                if len(e.taken) > len(e.plays):
                    carried.append(e)
    assert any(e.points for e in carried)  # the carried cards reached a trick with points
