"""Leak checks for anything that shows a seat part of a game: observations, encodings, event streams, messages.

A view of a game for one seat must not depend on the cards that seat
cannot know. :func:`check_no_leak` tests that with Hypothesis: it deals a
random game (any variant, or the ones you give), plays random legal actions,
then swaps hidden cards – between two other seats, or between another seat
and the cards still in the kitty – deals the swapped game again and replays
the same actions. Where the replay is legal, the view of the seat that saw
neither card must be the same in both games. A card counts as hidden from a
seat when it was dealt to its holder, is still in its holder's hand (or the
kitty), was never passed, and is not the opening card (whose holder is
public: they must lead it). A swap that would make another card the opening
one, or make a seat draw another number of cards from a stock (a void is
public once it draws), makes another game, and is not drawn.

>>> import heartslib as hl
>>> from heartslib.testing import check_no_leak
>>> check_no_leak(lambda r, seat: r.observation(seat), hl.preset("standard"), max_examples=10)

A view that shows another seat's hand fails, with an ``AssertionError`` that names the swap (``tests/
test_testing.py`` injects such a leak).

Needs the ``testing`` extra (Hypothesis): ``pip install "heartslib[testing]"``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from heartslib.actions import Action, Pass
from heartslib.cards import Card
from heartslib.round import Round
from heartslib.strategies import random_action, variants
from heartslib.variant import Variant

__all__ = ["HiddenSwap", "View", "assert_same_view", "check_no_leak", "hidden_swaps"]

View = Callable[[Round, int], Any]
"""A view of a round for one seat: anything compared with ``==`` (numpy arrays and anything else with a
``tolist()`` are compared as lists)."""


@attrs.frozen
class HiddenSwap:
    """Two rounds that differ only in cards hidden from ``seat``, reached by the same ``actions``.

    ``original`` was dealt as drawn, ``twin`` with ``cards[0]`` and ``cards[1]`` exchanged between
    ``holders[0]`` and ``holders[1]`` (a holder of -1 is the kitty).
    """

    original: Round
    twin: Round
    seat: int
    cards: tuple[Card, Card]
    holders: tuple[int, int]
    actions: tuple[Action, ...]

    def describe(self) -> str:
        """The swap in words, for a failure message."""
        def holder(h: int) -> str:
            return "the kitty" if h < 0 else f"seat {h}"

        return (f"{self.cards[0].code} ({holder(self.holders[0])}) and {self.cards[1].code} "
                f"({holder(self.holders[1])}) were swapped in {self.original.variant.name!r} after "
                f"{len(self.actions)} action(s)")


def _deal_again(r: Round, hands: Sequence[Sequence[Card]], kitty: Sequence[Card], seed: int) -> Round:
    return Round.from_hands(r.variant, [tuple(h) for h in hands], dealer=r.dealer, passing=r.passing,
                            kitty=tuple(kitty), hand_number=r.hand_number, seed=seed)


@st.composite
def hidden_swaps(draw: st.DrawFn, variant: Variant | SearchStrategy[Variant] | None = None) -> HiddenSwap:
    """A :class:`HiddenSwap`: a random deal of ``variant`` (default: any variant), random legal actions,
    and a swap of two cards hidden from a third seat, replayed where every action stays legal."""
    v = draw(variants() if variant is None else (st.just(variant) if isinstance(variant, Variant) else variant))
    n = v.players
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    dealt = Round.deal(v, seed=seed, dealer=seed % n, hand_number=seed % 5)
    start, pack_kitty = dealt.hands, dealt.kitty
    r = _deal_again(dealt, start, pack_kitty, seed)
    rng = random.Random(seed)
    log: list[Action] = []
    sizes: list[list[int]] = []  # every hand's size after each action: public, and changed by draws from a stock
    for _ in range(draw(st.integers(0, n * v.deal_size), label="steps")):
        if not r.to_act:
            break
        action = random_action(r, rng)
        r.apply(action)
        log.append(action)
        sizes.append([len(r.hand(seat)) for seat in range(n)])
    order = draw(st.permutations(range(n)), label="seats")
    viewer, a = order[0], order[1]
    b = order[2] if n > 2 and (not r.kitty or draw(st.booleans(), label="between seats")) else -1
    passed = Counter(card for act in log if isinstance(act, Pass) for card in act.cards)
    opening = v.rules.opening_card([[x.index for x in h] for h in start]) if v.rules.needs_opening_card() else None

    def hidden(holder: int, other: int) -> list[Card]:
        # cards dealt to holder, still there, never passed, not held by the other at the deal, not the opening
        # card
        if holder < 0:
            now, dealt_to, theirs = Counter(r.kitty), Counter(pack_kitty), Counter(start[other])
        else:
            now, dealt_to = Counter(r.hand(holder)), Counter(start[holder])
            theirs = Counter(pack_kitty) if other < 0 else Counter(start[other])
        return [x for x in dealt_to if now[x] == dealt_to[x] and not passed[x] and not theirs[x]
                and x.index != opening]

    xs, ys = hidden(a, b), hidden(b, a)
    if not xs or not ys:
        assume(False)
    same_suit = [(x, y) for x in xs for y in ys if x.suit == y.suit]
    x, y = draw(st.sampled_from(same_suit or [(x, y) for x in xs for y in ys]), label="swap")
    hands = [list(h) for h in start]
    kitty = list(pack_kitty)
    for holder, out, into in ((a, x, y), (b, y, x)):
        cards = kitty if holder < 0 else hands[holder]
        cards.remove(out)
        cards.append(into)
    # the swap may make another card the opening one (a lowest club dealt from the stock into a hand): who must
    # lead is public, so that is another game, not the same one with other hidden cards
    if opening is not None and v.rules.opening_card([[c.index for c in h] for h in hands]) != opening:
        assume(False)
    twin = _deal_again(dealt, hands, kitty, seed)
    for action, seen in zip(log, sizes, strict=True):
        if not twin.is_legal(action):  # the swap changed what a holder may play: not a comparable game
            assume(False)
        twin.apply(action)
        if [len(twin.hand(seat)) for seat in range(n)] != seen:  # another void made a seat draw other counts
            assume(False)
    return HiddenSwap(r, twin, viewer, (x, y), (a, b), tuple(log))


def _comparable(value: Any) -> Any:
    if hasattr(value, "tolist") and callable(value.tolist):
        return value.tolist()
    if isinstance(value, tuple | list):
        return [_comparable(x) for x in value]
    return value


def assert_same_view(view: View, swap: HiddenSwap) -> None:
    """Raise ``AssertionError`` naming the swap if ``view`` shows ``swap.seat`` anything of the swapped cards."""
    mine, theirs = _comparable(view(swap.original, swap.seat)), _comparable(view(swap.twin, swap.seat))
    if mine != theirs:
        raise AssertionError(f"the view of seat {swap.seat} changed when {swap.describe()}: it shows a card "
                             "that seat cannot know")


def check_no_leak(view: View, variant: Variant | SearchStrategy[Variant] | None = None, *,
                  max_examples: int = 100) -> None:
    """Fail (``AssertionError``) if ``view(round, seat)`` depends on cards hidden from ``seat``.

    Runs a Hypothesis test of ``max_examples`` examples over :func:`hidden_swaps` of ``variant`` (default:
    any variant); call it from your own tests. The failure shrinks to a small game and names the swap.
    """
    @settings(max_examples=max_examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(hidden_swaps(variant))
    def run(swap: HiddenSwap) -> None:
        assert_same_view(view, swap)

    run()
