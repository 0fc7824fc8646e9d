"""Issue 49, step 1: play legality over card masks, held to the list-based legality it replaced.

``tests/legality_oracle.py`` is ``engine.legality`` as it was before hands became masks. At every play of
random hands in random variants (every field drawn, two decks and jokers included) the two must give the same
legal cards in the same order and, for every card held, the same code and message when it may not be played.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import heartslib as hl
import heartslib.strategies as hst
import legality_oracle as oracle
from heartslib.engine import legality
from heartslib.engine.bits import cards_in
from heartslib.engine.state import RoundState
from heartslib.engine.tables import NATIVE


def compare_legality(r: hl.Round, rng: random.Random) -> int:
    """Play ``r`` to its end at random, comparing the two legalities at each play; the plays compared."""
    compared = 0
    while not r.is_over:
        s: RoundState = r._s
        if r.phase is hl.Phase.PLAY:
            seat = s.turn
            expected = oracle.candidates(s, seat, None)
            assert legality.candidates(s, seat, None) == expected
            assert cards_in(legality.legal_mask(s, seat, None)) == expected
            for card in s.held(seat):
                assert legality.why_play(s, seat, card) == oracle.why_play(s, seat, card)
            compared += 1
        r.apply(hst.random_action(r, rng))
    return compared


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hst.rounds(max_steps=8), st.integers(0, 2**32 - 1))
def test_mask_legality_agrees_with_the_list_legality_in_random_variants(r: hl.Round, seed: int) -> None:
    compare_legality(r, random.Random(seed))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hst.rounds(hst.variants(decks=2), max_steps=8), st.integers(0, 2**32 - 1))
def test_mask_legality_agrees_with_the_list_legality_with_two_decks(r: hl.Round, seed: int) -> None:
    # both copies of a card are one choice: the mask holds it once, the spares the other copy
    compare_legality(r, random.Random(seed))


@pytest.mark.parametrize("name", hl.preset_names())
def test_mask_legality_agrees_with_the_list_legality_on_every_preset(name: str) -> None:
    v = hl.preset(name)
    compared = sum(compare_legality(hl.Round.deal(v, seed=seed, hand_number=seed), random.Random(seed))
                   for seed in range(6))
    assert compared > 0


@pytest.mark.skipif(NATIVE, reason="compiled, the engine's modules call each other directly: a patch reaches none")
@pytest.mark.parametrize(("rule", "least"), [("locked", 5), ("_first_trick", 1)])
def test_the_differential_test_catches_a_planted_bug(monkeypatch: pytest.MonkeyPatch, rule: str, least: int) -> None:
    """The comparison can fail: a mask legality that forgets the hearts lock (most deals), or the first-trick
    rule (a deal where a seat is void in clubs at the first trick), is caught in standard deals."""
    monkeypatch.setattr(legality, rule, lambda *args: args[-2])  # every narrowing step takes (..., cands, why)
    caught = 0
    for seed in range(20):
        try:
            compare_legality(hl.Round.deal(hl.preset("standard"), seed=seed), random.Random(seed))
        except AssertionError:
            caught += 1
    assert caught >= least
