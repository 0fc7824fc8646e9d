"""Leak checks for anything that shows a seat part of a game: observations, encodings, event streams, messages.

A view of a game for one seat must not depend on the cards that seat
cannot know. :func:`check_no_leak` tests that with Hypothesis: it deals a
random game (any variant, or the ones you give), plays random legal actions,
then exchanges two hidden cards in the deal – between two seats, or between a
seat and the cards still in the kitty – deals the changed game again and
replays the same actions (a pass of either card passes the other instead).
Where the replay is legal and the two games differ, at every step, only in
where those two cards lie, the view of every seat that never held either card
must be the same in both games.

Each example makes these swaps:

* **one random swap** of two cards hidden from a random seat (of the same
  suit where there is one, so that more replays stay legal);
* **a targeted swap of every hidden card**: each card still in a hand or
  the kitty is exchanged at least once with a card of another holder,
  preferring a card of another suit (so that suit counts change too), until
  one replay is comparable. A single-card leak – who holds the Q♠, how many
  spades a seat has – therefore fails on the first example that shows it.

A card is hidden from a seat that never held it: one passed to another seat
is hidden from everybody but its passer and its receiver, so a view that
shows another seat's pass fails. A card played, exposed, taken with the
kitty or passed in a variant with two copies of it is public or cannot be
followed, and is not swapped; nor is the opening card (whose holder is
public: they must lead it). A swap that would make another card the opening
one, make a seat draw other cards or counts from a stock (a void is public
once it draws), or deal a shuffle pass differently makes another game, and
is not compared.

>>> import heartslib as hl
>>> from heartslib.testing import check_no_leak
>>> check_no_leak(lambda r, seat: r.observation(seat), hl.preset("standard"), max_examples=10)

A view that shows another seat's hand fails, with an ``AssertionError`` that names the swap (``tests/
test_testing.py`` plants such leaks: another seat's hand, the kitty, another seat's pass, the Q♠'s holder and
one suit count, each caught on every seed).

Needs the ``testing`` extra (Hypothesis): ``pip install "heartslib[testing]"``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

try:
    from hypothesis import HealthCheck, Phase, assume, given, settings
    from hypothesis import strategies as st
    from hypothesis.strategies import SearchStrategy
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "heartslib.testing needs Hypothesis: pip install heartslib[testing] (from a checkout: "
        "pip install -e '.[testing]')"
    ) from exc

from heartslib.actions import Action, Pass
from heartslib.cards import Card
from heartslib.engine.bits import mask_of
from heartslib.round import Round
from heartslib.strategies import random_action, variants
from heartslib.variant import Variant

__all__ = ["HiddenSwap", "View", "assert_same_view", "check_no_leak", "hidden_swaps"]

View = Callable[[Round, int], Any]
"""A view of a round for one seat: anything compared with ``==`` (numpy arrays and anything else with a
``tolist()`` are compared as lists)."""

#: How many partners a targeted swap tries for one card before it leaves that card to other examples: a swap
#: made illegal by the play so far (a seat that showed a void now holding the suit) is tried with the next.
_TRIES = 6

#: The holder number of the kitty (or stock).
_KITTY = -1


@attrs.frozen
class HiddenSwap:
    """Two rounds that differ only in cards hidden from ``seat``, reached by the same ``actions``.

    ``original`` was dealt as drawn, ``twin`` with ``cards[0]`` and ``cards[1]`` exchanged between
    ``holders[0]`` and ``holders[1]`` (a holder of -1 is the kitty); a pass of either card in ``actions``
    passed the other in ``twin``.
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


#: Where the cards lie at one step, as card indices (compared far faster than cards): each seat's hand, then the
#: kitty (in order: a stock is drawn from its top).
_Position = tuple[tuple[int, ...], ...]


def _position(r: Round) -> _Position:
    return (*(tuple(c.index for c in r.hand(seat)) for seat in range(r.variant.players)),
            tuple(c.index for c in r.kitty))


@attrs.frozen
class _Game:
    """A dealt game and the random legal actions played in it, with where every card lay at each step."""

    dealt: Round
    seed: int
    start: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    log: tuple[Action, ...]
    final: Round
    positions: tuple[_Position, ...]  # after the deal, then after each action
    held: dict[int, frozenset[int]]  # the seats that held each card (by index) at some step
    copies: Counter[Card]  # how many of each card the pack has
    opening: int | None

    def holder_cards(self, holder: int) -> tuple[Card, ...]:
        return self.kitty if holder == _KITTY else self.start[holder]

    def knew(self, x: Card, y: Card) -> frozenset[int]:
        """The seats that held ``x`` or ``y`` at some step."""
        return self.held.get(x.index, frozenset()) | self.held.get(y.index, frozenset())

    def swappable(self, holder: int) -> list[Card]:
        """The cards dealt to ``holder`` that no seat has seen but the ones that held them: every copy still in a
        hand or the kitty (not played, not taken with the kitty), not exposed, passed only if the pack has one
        copy, and not the opening card."""
        now = Counter(index for cards in self.positions[-1] for index in cards)
        passed = Counter(card for act in self.log if isinstance(act, Pass) for card in act.cards)
        exposed = set(self.final.exposed)
        return [x for x in dict.fromkeys(self.holder_cards(holder)) if now[x.index] == self.copies[x]
                and (not passed[x] or self.copies[x] == 1) and x not in exposed and x.index != self.opening]


def _deal_again(r: Round, hands: Sequence[Sequence[Card]], kitty: Sequence[Card], seed: int) -> Round:
    return Round.from_hands(r.variant, [tuple(h) for h in hands], dealer=r.dealer, passing=r.passing,
                            kitty=tuple(kitty), hand_number=r.hand_number, seed=seed)


@st.composite
def _games(draw: st.DrawFn, variant: Variant | SearchStrategy[Variant] | None = None) -> _Game:
    v = draw(variants() if variant is None else (st.just(variant) if isinstance(variant, Variant) else variant))
    n = v.players
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    dealt = Round.deal(v, seed=seed, dealer=seed % n, hand_number=seed % 5)
    r = _deal_again(dealt, dealt.hands, dealt.kitty, seed)
    rng = random.Random(seed)
    log: list[Action] = []
    positions = [_position(r)]
    for _ in range(draw(st.integers(0, n * v.deal_size), label="steps")):
        if not r.to_act:
            break
        action = random_action(r, rng)
        r.apply(action)
        log.append(action)
        positions.append(_position(r))
    held: dict[int, set[int]] = {}
    for seat in range(n):
        for index in {index for position in positions for index in position[seat]}:
            held.setdefault(index, set()).add(seat)
    opening = (v.rules.opening_card([mask_of(x.index for x in h) for h in dealt.hands]) if v.rules.needs_opening_card()
               else None)
    return _Game(dealt, seed, dealt.hands, dealt.kitty, tuple(log), r, tuple(positions),
                 {card: frozenset(seats) for card, seats in held.items()},
                 Counter(card for cards in (*dealt.hands, dealt.kitty) for card in cards), opening)


def _differ_only_in(a: _Position, b: _Position, x: int, y: int) -> bool:
    """Whether two positions are the same but for where ``x`` and ``y`` lie (the kitty's order kept)."""
    # hands are sorted the same way in both games: the same sizes and the same cards besides x and y
    xy = (x, y)
    return all(len(p) == len(q) and [c for c in p if c not in xy] == [c for c in q if c not in xy]
               for p, q in zip(a[:-1], b[:-1], strict=True)) and \
        [None if c in xy else c for c in a[-1]] == [None if c in xy else c for c in b[-1]]


def _twin(game: _Game, x: Card, a: int, y: Card, b: int) -> tuple[Round, frozenset[int]] | None:
    """The game with ``x`` (dealt to ``a``) and ``y`` (dealt to ``b``) exchanged and the same actions replayed,
    and the seats that held either card in it; None where it is another game (see the module docs)."""
    hands = [list(h) for h in game.start]
    kitty = list(game.kitty)
    for holder, out, into in ((a, x, y), (b, y, x)):
        cards = kitty if holder == _KITTY else hands[holder]
        cards[cards.index(out)] = into  # in place: a stock keeps its order
    v = game.dealt.variant
    # the swap may make another card the opening one (a lowest club dealt from the stock into a hand): who must
    # lead is public, so that is another game, not the same one with other hidden cards
    if game.opening is not None and v.rules.opening_card([mask_of(c.index for c in h) for h in hands]) != game.opening:
        return None
    twin = _deal_again(game.dealt, hands, kitty, game.seed)
    swapped = {x: y, y: x}
    held: set[int] = set()
    xi, yi = x.index, y.index
    for action, seen in zip(game.log, game.positions[1:], strict=True):
        if isinstance(action, Pass) and (x in action.cards or y in action.cards):
            action = Pass(action.seat, tuple(swapped.get(c, c) for c in action.cards))
        if not twin.is_legal(action):  # the swap changed what a holder may do: not a comparable game
            return None
        twin.apply(action)
        now = _position(twin)
        if not _differ_only_in(now, seen, xi, yi):  # other draws from a stock, another shuffle pass
            return None
        held.update(seat for seat, hand in enumerate(now[:-1]) if xi in hand or yi in hand)
    return twin, frozenset(held)


def _swap(game: _Game, x: Card, a: int, y: Card, b: int) -> tuple[Round, list[int]] | None:
    """:func:`_twin`, and the seats that held neither card in either game (the ones whose view is compared)."""
    made = _twin(game, x, a, y, b)
    if made is None:
        return None
    twin, held = made
    knew = held | game.knew(x, y) | {a, b}
    return twin, [seat for seat in range(game.dealt.variant.players) if seat not in knew]


def _pairs(game: _Game, x: Card, a: int, holders: dict[int, list[Card]]) -> Iterator[tuple[Card, int]]:
    """The cards ``x`` (dealt to ``a``) may be exchanged with: another holder's, neither held at the deal by the
    other holder (two decks), leaving some seat that held neither."""
    n = game.dealt.variant.players
    for b, ys in holders.items():
        if b == a or x in game.holder_cards(b):
            continue
        for y in ys:
            knew = game.knew(x, y) | {a, b}
            if y not in game.holder_cards(a) and len(knew - {_KITTY}) < n:
                yield y, b


def _targeted(game: _Game) -> Iterator[HiddenSwap]:
    """Every hidden card exchanged at least once with another holder's (another suit first)."""
    n = game.dealt.variant.players
    holders = {h: game.swappable(h) for h in (*range(n), _KITTY)}
    covered: set[tuple[Card, int]] = set()
    for a, xs in holders.items():
        for x in xs:
            if (x, a) in covered:
                continue
            partners = sorted(_pairs(game, x, a, holders), key=lambda p: (p[0].suit == x.suit, p in covered))
            for y, b in partners[:_TRIES]:
                made = _swap(game, x, a, y, b)
                if made is not None and made[1]:
                    covered |= {(x, a), (y, b)}
                    yield from (HiddenSwap(game.final, made[0], seat, (x, y), (a, b), game.log) for seat in made[1])
                    break


def _random_swap(draw: st.DrawFn, game: _Game) -> HiddenSwap | None:
    """A swap of two cards hidden from a random seat (of one suit where possible); None where it is not
    comparable."""
    n = game.dealt.variant.players
    order = draw(st.permutations(range(n)), label="seats")
    viewer, a = order[0], order[1]
    b = order[2] if n > 2 and (not game.final.kitty or draw(st.booleans(), label="between seats")) else _KITTY
    holders = {h: game.swappable(h) for h in (a, b)}
    pairs = [(x, y) for x in holders[a] for y, other in _pairs(game, x, a, holders) if other == b
             and viewer not in game.knew(x, y)]
    if not pairs:
        return None
    same_suit = [(x, y) for x, y in pairs if x.suit == y.suit]
    x, y = draw(st.sampled_from(same_suit or pairs), label="swap")
    made = _swap(game, x, a, y, b)
    if made is None or viewer not in made[1]:
        return None
    return HiddenSwap(game.final, made[0], viewer, (x, y), (a, b), game.log)


@st.composite
def hidden_swaps(draw: st.DrawFn, variant: Variant | SearchStrategy[Variant] | None = None) -> HiddenSwap:
    """A :class:`HiddenSwap`: a random deal of ``variant`` (default: any variant), random legal actions,
    and a swap of two cards hidden from a seat, replayed where every action stays legal."""
    swap = _random_swap(draw, draw(_games(variant)))
    assume(swap is not None)
    assert swap is not None
    return swap


class _Example:
    """One game of :func:`check_no_leak`: its random swap (None where none was comparable) and, made lazily so that
    a failure stops at its first leak, its targeted swaps. (Not an attrs class: Hypothesis would print a failing
    example field by field, rounds and all.)"""

    __slots__ = ("game", "swap")

    def __init__(self, game: _Game, swap: HiddenSwap | None) -> None:
        self.game, self.swap = game, swap

    def swaps(self) -> Iterator[HiddenSwap]:
        if self.swap is not None:
            yield self.swap
        yield from _targeted(self.game)

    def __repr__(self) -> str:  # what Hypothesis prints for a failure: the rounds themselves would be pages long
        r = self.game.dealt
        return (f"<{r.variant.name!r} dealt with seed {self.game.seed}, dealer {r.dealer}, hand {r.hand_number}, "
                f"then {len(self.game.log)} random action(s)>")


@st.composite
def _examples(draw: st.DrawFn, variant: Variant | SearchStrategy[Variant] | None) -> _Example:
    game = draw(_games(variant))
    return _Example(game, _random_swap(draw, game))


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

    Runs a Hypothesis test of ``max_examples`` games of ``variant`` (default: any variant), each with one random
    swap and a targeted swap of every hidden card (see the module docs); call it from your own tests. The
    failure shrinks to a small game and names the swap.
    """
    # no explain phase: it traces the view's lines under coverage, slowly, and the failure names the swap anyway
    @settings(max_examples=max_examples, deadline=None, database=None, phases=[p for p in Phase if p != Phase.explain],
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(_examples(variant))
    def run(example: _Example) -> None:
        for swap in example.swaps():
            assert_same_view(view, swap)

    run()
