"""heartslib.testing: the leak harness, run over every preset against the views heartslib itself gives
(observations, the adapters' encoding, the legal actions of the seat to act), and shown to catch an injected
leak."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib.adapters.encoding import Encoding
from heartslib.testing import HiddenSwap, assert_same_view, check_no_leak, hidden_swaps

PRESETS = hl.preset_names()


@cache
def _encoding(v: hl.Variant) -> Encoding:
    return Encoding(v)


def _observation(r: hl.Round, seat: int) -> object:
    return r.observation(seat)


def _encoded(r: hl.Round, seat: int) -> object:
    return _encoding(r.variant).encode(r.observation(seat))


def _legal(r: hl.Round, seat: int) -> object:
    # a seat's own legal actions may depend only on what it knows (not while passing: those are its own cards)
    return r.legal_actions(seat) if seat in r.to_act and r.phase is not hl.Phase.PASS else ()


@pytest.mark.parametrize("name", PRESETS)
def test_no_preset_view_leaks_a_hidden_card(name: str) -> None:
    v = hl.preset(name)
    # the adapters' encoding refuses an auction (tests/test_rules3_auction.py): nothing to encode
    encodes = v.scoring.settlement != hl.Settlement.AUCTION
    for view in (_observation, _encoded, _legal) if encodes else (_observation, _legal):
        check_no_leak(view, v, max_examples=12)


def test_the_harness_catches_an_injected_leak() -> None:
    def peek(r: hl.Round, seat: int) -> object:
        return r.observation(seat), r.hand((seat + 1) % r.variant.players)

    with pytest.raises(AssertionError, match=r"the view of seat \d+ changed when .* were swapped"):
        check_no_leak(peek, hl.preset("standard"), max_examples=60)


def test_the_harness_catches_a_leak_of_the_kitty() -> None:
    def peek_kitty(r: hl.Round, seat: int) -> object:
        return r.observation(seat), r.kitty

    with pytest.raises(AssertionError, match=r"the kitty"):
        check_no_leak(peek_kitty, hl.preset("cancellation"), max_examples=200)


@settings(max_examples=60)
@given(hidden_swaps(hl.preset("black_maria")), st.data())
def test_a_swap_differs_only_in_hidden_cards(swap: HiddenSwap, data: st.DataObject) -> None:
    # the examples reach what they claim: the two rounds differ (the swapped cards changed hands), the seat
    # that sees neither card is neither holder, and the public history is the same
    a, b = swap.holders
    assert swap.seat not in (a, b)
    assert swap.original.hands != swap.twin.hands or swap.original.kitty != swap.twin.kitty
    assert swap.original.tricks == swap.twin.tricks
    assert_same_view(_observation, swap)


def test_a_stock_that_deals_the_opening_card_or_makes_a_seat_draw_is_no_false_leak() -> None:
    # six cards each from a stock (deck.stock = "to_follow"): a swap with the stock can put the lowest club in
    # a hand, making its holder the public opener, and a swap that voids a seat makes it draw publicly; both
    # are other games, not hidden cards, and the harness does not report them as leaks of the observation
    v = hl.preset("standard").replace(deck={"stock": "to_follow", "hand_size": 6})
    check_no_leak(_observation, v, max_examples=300)


@settings(max_examples=80)
@given(hidden_swaps(hl.preset("domino_hearts")))
def test_a_swap_in_a_stock_game_keeps_the_public_draws(swap: HiddenSwap) -> None:
    n = swap.original.variant.players
    assert [len(swap.original.hand(s)) for s in range(n)] == [len(swap.twin.hand(s)) for s in range(n)]
    assert swap.original.to_act == swap.twin.to_act
