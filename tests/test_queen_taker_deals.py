"""Likha: the Q♠ taker deals next (RULES.md §11; ``end.next_dealer = "queen_taker"``), so the player after that
seat in the direction of play (the dealer's right, anticlockwise) leads the next hand."""

from __future__ import annotations

import pytest

import heartslib as hl
from heartslib.scoring import next_dealer
from helpers import played_match

LIKHA_QS = hl.preset("likha").replace(end={"next_dealer": "queen_taker"})


def test_likha_the_queen_of_spades_taker_deals_next() -> None:
    assert next_dealer(LIKHA_QS, 0, (0, 14, 0, 0), ("", "QS 2H", "", "")) == 1
    assert next_dealer(LIKHA_QS, 2, (0, 0, 13, 0), ((), (), [hl.Card.parse("QS")], ())) == 2  # the dealer again


def test_likha_without_a_queen_taker_the_deal_passes_on() -> None:
    # anticlockwise: the next seat in the direction of play is the dealer's right
    assert next_dealer(LIKHA_QS, 0, (0, 0, 0, 0), ("", "", "", "")) == 3


def test_likha_matches_deal_from_the_queen_taker_and_its_right_leads() -> None:
    for seed in range(4):
        m = played_match(LIKHA_QS, seed)
        for done, following in zip(m.rounds, m.rounds[1:], strict=False):
            took = [s for s in range(4) for e in done.round.events
                    if isinstance(e, hl.TrickWon) and e.winner == s and hl.Card.parse("QS") in e.taken]
            assert following.dealer == took[0]
            first = following.round.tricks[0]
            assert first.leader == (following.dealer - 1) % 4  # anticlockwise: the dealer's right leads


def test_the_queen_taker_rule_needs_one_queen_of_spades() -> None:
    with pytest.raises(hl.VariantError, match=r"end\.next_dealer.*exactly one Q♠"):
        hl.preset("double_deck_8").replace(end={"next_dealer": "queen_taker"})
    assert "took Q♠ deals the next hand" in LIKHA_QS.describe()
