"""The search's model of a moon defence (issue 50): the rollouts' other seats defend as
:class:`~heartslib.agents.DefendingAgent` does, each rule in a position of its own."""

from __future__ import annotations

import random

import heartslib as hl
from heartslib.round import engine_state
from heartslib.search import RolloutPolicy, RolloutTables, rollout_card
from helpers import load_benchmark

STANDARD = hl.preset("standard")
T = RolloutTables(STANDARD)


def idx(code: str) -> int:
    return hl.Card(code).index


def unplayed_without(*codes: str) -> list[int]:
    left = T.counts[:]
    for code in codes:
        left[idx(code)] -= 1
    return left


def test_a_void_defender_keeps_the_high_cards_that_stop_a_moon() -> None:
    # hearts led to a moon in the making (feed=False), this seat void in hearts: the lowest card without points
    # goes, not A♠ (the plain discard's pick: the highest card, and one that could catch Q♠), which may win
    # the trick a point is later thrown on
    cands = [idx("AS"), idx("3D")]
    trick = [idx("2H")]
    left = unplayed_without("2H")
    assert rollout_card(cands, trick, int(hl.Suit.HEARTS), False, False, False, left, T) == idx("3D")
    assert rollout_card(cands, trick, int(hl.Suit.HEARTS), False, True, False, left, T) == idx("AS")
    # with only point cards left, the cheapest
    points = [idx("QS"), idx("5H")]
    assert rollout_card(points, [idx("2C")], int(hl.Suit.CLUBS), False, False, False, left, T) == idx("5H")


def _policy(**kwargs: int) -> RolloutPolicy:
    # seat 0 has taken 8 points, every point so far: a threat from MOON_THREAT of the pack's (5.2) on
    return RolloutPolicy(T, taken=[8.0, 0.0, 0.0, 0.0], unplayed=unplayed_without("AH", "KH", "2H", "3H", "4H",
                                                                                     "5H", "6H", "7H"),
                         rng=random.Random(1), **kwargs)


def test_a_void_defender_drops_no_point_on_a_trick_the_threat_has_still_to_play_to() -> None:
    state = engine_state(hl.Round.deal(STANDARD, seed=1))
    policy = _policy(shooter=0)
    policy.start([(1, idx("2C"))], False)  # seat 1 leads 2♣; seat 2, void, plays; the threat (0) plays last
    assert policy.play(state, 2, [idx("QS"), idx("5D")]) == idx("5D")
    policy = _policy()  # no threat: the usual discard, the most expensive card
    policy.start([(1, idx("2C"))], False)
    assert policy.play(state, 2, [idx("QS"), idx("5D")]) == idx("QS")


def test_the_searching_seats_plain_play_is_defended_against_too() -> None:
    # the seat the others defend against though it plays the plain policy: a defender leads its stopper (Q♥,
    # the highest heart still out) against it, as against a shooter
    state = engine_state(hl.Round.deal(STANDARD, seed=1))
    policy = _policy(defended=0)
    policy.start([], False)
    assert policy.play(state, 1, [idx("QH"), idx("2C")]) == idx("QH")
    policy = _policy()
    policy.start([], False)
    assert policy.play(state, 1, [idx("QH"), idx("2C")]) == idx("2C")


def test_the_ladder_counts_hands_won() -> None:
    ladder = load_benchmark("ladder")
    hands = {"heuristic": [ladder.play_hand(STANDARD, "heuristic", "heuristic", d, seat, 7)
                           for d in range(2) for seat in range(4)]}
    (row,) = ladder.summarise(hands, ["heuristic"])
    # four heuristic agents seeded by seat: each deal's four hands are one game, whose win the seats share
    assert row["won"] == 0.25
    assert all(h.won in (0.0, 1.0, 0.5, 1 / 3) for h in hands["heuristic"])
