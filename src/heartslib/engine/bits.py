"""Sets of cards as bit masks: bit ``i`` is card index ``i`` (:mod:`heartslib.cards`), the convention of every mask
in the engine (hands, the compiled rules' card masks, the search's inference).

Bit order is hand order (clubs, diamonds, hearts, spades, each low to high, then the suitless joker) for every
card but the zero-suit jokers 0♣ and 0♦ (indices 52 and 53), which hand order puts first in their suits: the
functions here that list or count through a mask in hand order place them (:data:`ZEROS`), so callers never
see the difference. Two decks (and several suitless jokers) put more than one copy of a card in a hand: a mask
holds the cards held at least once, and the state keeps the further copies beside it
(:attr:`heartslib.engine.state.RoundState.spares`).

The two builds want different idioms for counting bits (``int.bit_count`` is one C call interpreted, a
generic method call compiled), so :func:`count` is the engine's one ``NATIVE`` branch for masks.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from heartslib.cards import NUM_CARD_INDICES
from heartslib.engine.tables import C0, D0, NATIVE

__all__ = ["ALL", "BIT", "CLUBS", "ZEROS", "cards_in", "count", "low_card", "mask_of", "nth", "pick", "with_copies"]

#: ``BIT[card]``: the card's bit.
BIT: Final[tuple[int, ...]] = tuple(1 << i for i in range(NUM_CARD_INDICES))
#: Every card index's bit.
ALL: Final = (1 << NUM_CARD_INDICES) - 1
#: The zero-suit jokers' bits (out of hand order: see the module's text).
ZEROS: Final = BIT[C0] | BIT[D0]
#: The clubs 2..A (the cards hand order puts between 0♣ and 0♦).
CLUBS: Final = (1 << 13) - 1
# 2 is a primitive root modulo 67, so the powers of two below 2**66 leave 66 different remainders: a single
# bit's card index is one table read, native in both builds (bit_length is a generic call compiled)
_LOW: Final[tuple[int, ...]] = tuple(
    next((i for i in range(NUM_CARD_INDICES) if (1 << i) % 67 == r), -1) for r in range(67))


def mask_of(cards: Iterable[int]) -> int:
    """The mask of a set of card indices (copies count once)."""
    mask = 0
    for i in cards:
        mask |= 1 << i
    return mask


def low_card(mask: int) -> int:
    """The card of ``mask``'s lowest bit (``mask`` not 0): the first in hand order unless a zero-suit joker is
    in it."""
    return _LOW[(mask & -mask) % 67]


def count(mask: int) -> int:
    """How many cards ``mask`` holds."""
    if NATIVE:
        # compiled, a native loop (at most a hand's cards): int.bit_count is a generic method call
        k = 0
        while mask:
            mask &= mask - 1
            k += 1
        return k
    return mask.bit_count()


def _suit_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[suit][part]``: the cards of a 13-bit part of a mask at that suit's place, in order."""
    return tuple(tuple(tuple(base + i for i in range(13) if part >> i & 1) for part in range(1 << 13))
                 for base in (0, 13, 26, 39))


#: The pure build's per-suit lists (interpreted, four table reads list a hand faster than a walk over its bits,
#: each step of which makes a new two-digit int; compiled, the walk is native): made on first use.
_PARTS: list[tuple[tuple[tuple[int, ...], ...], ...]] = []


def cards_in(mask: int) -> list[int]:
    """The cards of ``mask`` in hand order."""
    if mask >> 52:  # 0♣, 0♦ (out of bit order) or the suitless joker
        return _cards_with_jokers(mask)
    if NATIVE:
        out: list[int] = []
        while mask:
            low = mask & -mask
            out.append(_LOW[low % 67])
            mask ^= low
        return out
    if not _PARTS:
        _PARTS.append(_suit_tables())
    clubs, diamonds, hearts, spades = _PARTS[0]
    return [*clubs[mask & 8191], *diamonds[mask >> 13 & 8191], *hearts[mask >> 26 & 8191], *spades[mask >> 39]]


def _cards_with_jokers(mask: int) -> list[int]:
    """:func:`cards_in` for a mask holding a joker: the zero-suit ones placed first in their suits."""
    out: list[int] = []
    rest = mask & ~ZEROS
    while rest:
        low = rest & -rest
        out.append(_LOW[low % 67])
        rest ^= low
    if mask & ZEROS:
        if mask & BIT[D0]:
            out.insert(count(mask & CLUBS), D0)  # before the first diamond (after the clubs)
        if mask & BIT[C0]:
            out.insert(0, C0)
    return out


def nth(mask: int, i: int) -> int:
    """The ``i``-th card of ``mask`` in hand order (0 the first)."""
    if mask & ZEROS:
        return cards_in(mask)[i]
    while i:
        mask &= mask - 1
        i -= 1
    return _LOW[(mask & -mask) % 67]


def pick(mask: int, rnd: Callable[[], float]) -> int:
    """A uniform draw among the cards of ``mask`` (not 0): the card at ``int(rnd() * count)`` in hand order, ``rnd``
    called only when there are two or more (the draws of a random agent: one ``random()`` per choice)."""
    if not mask & (mask - 1):
        return _LOW[mask % 67]
    if mask >> 52:  # a joker: hand order is not bit order
        listed = cards_in(mask)
        return listed[int(rnd() * len(listed))]
    # interpreted, bit_count here saves count()'s frame on every draw (compiled, count's native loop)
    i = int(rnd() * (count(mask) if NATIVE else mask.bit_count()))
    while i:
        mask &= mask - 1
        i -= 1
    return _LOW[(mask & -mask) % 67]


def with_copies(mask: int, spares: list[int]) -> list[int]:
    """A hand in hand order with its copies repeated: the cards of ``mask`` and, next to each, its further copies
    in ``spares`` (in hand order, each a card of ``mask``)."""
    out = cards_in(mask)
    if not spares:
        return out
    full: list[int] = []
    j = 0
    for c in out:
        full.append(c)
        while j < len(spares) and spares[j] == c:
            full.append(c)
            j += 1
    return full
