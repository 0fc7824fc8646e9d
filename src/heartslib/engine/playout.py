"""Random playouts: uniformly random legal actions to the end of a hand, with a fast loop for the common rules.

:func:`random_playout` chooses each step uniformly among the legal actions
(so the distribution is a random agent's). For the variants the plain-tricks
allow-list admits (``Rules.fast_playout``, :mod:`heartslib.engine.fastpath`)
the tricks after the kitty is gone run in :func:`fast_playout`, which draws
exactly what the general path draws; the property test
``test_fast_playout_agrees_with_the_general_path_on_random_variants`` holds
the two to the same game for the same random numbers.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from heartslib.engine.finishing import score_round
from heartslib.engine.legality import candidates, distinct
from heartslib.engine.machine import apply, legal_actions, to_act
from heartslib.engine.state import RawTrick, RoundState
from heartslib.engine.tables import HEART, NO_SUIT, NOT_HEARTS, OVER, PLAY, PLAY_CODE, SUITS
from heartslib.engine.tricks import play_card
from heartslib.enums import Opening
from heartslib.points import Score

__all__ = ["fast_playout", "random_playout"]


def random_playout(s: RoundState, rng: random.Random, fast: bool = True) -> tuple[Score, ...]:
    """Play uniformly random legal actions to the end of the round, in place; return the points.

    ``fast=False`` keeps the whole hand on the general path (the differential tests use it).
    """
    fast = fast and s.rules.fast_playout
    while s.phase is not OVER:
        phase = s.phase
        if fast and phase is PLAY and not s.tcards and not s.kitty:
            fast_playout(s, rng)
            continue
        if phase is PLAY:
            seat = s.turn
            cands = candidates(s, seat, None)
            card = cands[int(rng.random() * len(cands))] if len(cands) > 1 else cands[0]
            s.events.append(seat * PLAY_CODE + card)
            play_card(s, seat, card)
        else:
            actions = legal_actions(s, to_act(s)[0])
            apply(s, actions[int(rng.random() * len(actions))])
    assert s.outcome is not None
    return s.outcome.points


def fast_playout(s: RoundState, rng: random.Random) -> None:
    """Random play of the remaining tricks for the plain-tricks rules, then scoring.

    Called at the start of a trick with no kitty left to hand out; plays every card left. It draws exactly
    what the general path draws (the same candidates in the same order, one ``rng.random()`` per choice of
    two or more). Each hand is split into one list per suit, which makes following suit one list operation;
    a choice among several suits counts through the lists in hand order. With two decks both copies of a
    card count once among the choices, and of two identical winning cards the first or the last played
    wins (``rules.challenge``).
    """
    s.memo = None
    rules = s.rules
    suit, rank, breaks, challenge = rules.suit, rules.rank, rules.breaks, rules.challenge
    dup = rules.repeats
    rnd = rng.random
    split = _split(s)
    leader = s.leader
    size = len(split[leader][0]) + len(split[leader][1]) + len(split[leader][2]) + len(split[leader][3])
    number = s.trick_no
    order = rules.order
    tricks, taken, won, events = s.tricks, s.taken, s.won, s.events
    code = PLAY_CODE
    # while hearts are unbroken (and the variant locks them) a lead must avoid hearts if it can
    guard = not s.broken and rules.locks_hearts
    while size:
        seats = order[leader]
        if number == 0:
            cards, winner, led, guard = _first_trick(s, rnd, seats, split, guard)
        else:
            lists = split[leader]
            hearts = len(lists[HEART])
            suits, k = (NOT_HEARTS, size - hearts) if guard and 0 < hearts < size else (SUITS, size)
            if dup:
                card = _take_distinct(rnd, lists, suits, suit)
            else:
                card = _pick(lists, suits, int(rnd() * k) if k > 1 else 0)
            led = suit[card]
            if guard and breaks[card]:
                guard = False
            best = rank[card]
            winner = leader
            cards = [card]
            events.append(leader * code + card)
            for seat in seats[1:]:
                lists = split[seat]
                same = lists[led]
                if same:
                    if dup:
                        card = _take_distinct(rnd, lists, (led,), suit)
                    else:
                        k = len(same)
                        card = same.pop(int(rnd() * k)) if k > 1 else same.pop()
                    if challenge[card] > best:
                        best = rank[card]
                        winner = seat
                elif dup:
                    card = _take_distinct(rnd, lists, SUITS, suit)
                else:
                    card = _pick(lists, SUITS, int(rnd() * size) if size > 1 else 0)
                if guard and breaks[card]:
                    guard = False
                events.append(seat * code + card)
                cards.append(card)
        raw: RawTrick = (number, leader, seats, tuple(cards), winner, led)
        tricks.append(raw)
        taken[winner] += cards
        won[winner] += 1
        events.append((raw, raw[3]))
        number += 1
        leader = winner
        size -= 1
    if not guard and rules.locks_hearts:
        s.broken = True
    s.leader = leader
    s.trick_no = number
    score_round(s)


def _split(s: RoundState) -> list[list[list[int]]]:
    """Each hand as four per-suit lists (in hand order); the hands themselves are emptied."""
    suit = s.rules.suit
    split: list[list[list[int]]] = []
    for hand in s.hands:
        lists: list[list[int]] = [[], [], [], []]
        for c in hand:
            lists[suit[c]].append(c)
        split.append(lists)
        hand.clear()
    return split


def _first_trick(
    s: RoundState, rnd: Callable[[], float], seats: tuple[int, ...], split: list[list[list[int]]], guard: bool
) -> tuple[list[int], int, int, bool]:
    """The first trick of :func:`fast_playout`: the opening lead and the first-trick ban as
    :func:`~heartslib.engine.legality.candidates` decides them, from the per-suit lists.
    Returns (cards, winner, led suit, guard)."""
    rules = s.rules
    suit, rank, breaks = rules.suit, rules.rank, rules.breaks
    banned = rules.first_trick_banned
    challenge = rules.challenge
    opening = s.opening
    events = s.events
    cards: list[int] = []
    led = NO_SUIT
    best = -1
    winner = seats[0]
    for seat in seats:
        lists = split[seat]
        if cards:
            cands = lists[led] or lists[0] + lists[1] + lists[2] + lists[3]
            if banned is not None:
                cands = [c for c in cands if not banned[c]] or cands
        elif opening >= 0 and rules.opening == Opening.TWO_OF_CLUBS:
            cands = [opening]
        elif opening >= 0 and lists[suit[opening]]:
            cands = lists[suit[opening]]
            if banned is not None:
                cands = [c for c in cands if not banned[c]] or cands
        else:
            cands = lists[0] + lists[1] + lists[2] + lists[3]
            if guard:
                cands = [c for c in cands if suit[c] != HEART] or cands
            if banned is not None:
                cands = [c for c in cands if not banned[c]] or cands
        if rules.repeats:
            cands = distinct(cands)
        card = cands[int(rnd() * len(cands))] if len(cands) > 1 else cands[0]
        lists[suit[card]].remove(card)
        if not cards:
            led = suit[card]
        if guard and breaks[card]:
            guard = False
        if suit[card] == led and challenge[card] > best:
            best = rank[card]
            winner = seat
        events.append(seat * PLAY_CODE + card)
        cards.append(card)
    return cards, winner, led, guard


def _take_distinct(rnd: Callable[[], float], lists: list[list[int]], suits: tuple[int, ...], suit: list[int]) -> int:
    """Remove and return a uniform choice among the distinct cards of ``suits`` in a hand held as
    per-suit lists (two decks: both copies of a card count once, as in ``candidates``)."""
    cands = distinct([c for st in suits for c in lists[st]])
    card = cands[int(rnd() * len(cands))] if len(cands) > 1 else cands[0]
    lists[suit[card]].remove(card)
    return card


def _pick(lists: list[list[int]], suits: tuple[int, ...], i: int) -> int:
    """Remove and return the ``i``-th card of ``suits`` in a hand held as per-suit lists (in hand order)."""
    for st in suits:
        cards = lists[st]
        if i < len(cards):
            return cards.pop(i)
        i -= len(cards)
    raise IndexError(i)  # pragma: no cover
