"""Random playouts: uniformly random legal actions to the end of a hand, with a fast loop for the common rules.

:func:`random_playout` chooses each step uniformly among the legal actions
(so the distribution is a random agent's). For the variants the fast loop's
allow-list admits (``Rules.fast_playout``, :data:`heartslib.engine.fastpath.FAST_LOOP`)
the tricks from the start of the second (once no exposed card may still be
barred: :func:`_exposure_binds`) run in :func:`fast_playout`, which draws exactly
what the general path draws: the same candidates in the same order, one
``rng.random()`` per choice of two or more. It knows only following suit,
the hearts lock on a lead and the winner of a trick; the first trick, the
exposed-card rule, forced discards and the undercut are legality's alone
(those tricks, and those variants, play on the general path). It holds each
hand as four per-suit lists (following suit is one list operation; a choice
among several suits counts through them in hand order); with two decks the
lists hold a hand's distinct cards and a count of its extra copies by card
index beside them, so both copies of a card are one choice, and ties go to
the first or last played (``rules.challenge``); a trick it cannot settle
itself goes to :func:`heartslib.engine.tricks.settle` (:func:`_unsettled`).
The property tests
``test_fast_playout_agrees_with_the_general_path_on_random_variants`` and
``..._on_every_fast_preset`` hold the two to the same game for the same
random numbers.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from heartslib.actions import Event
from heartslib.cards import NUM_CARD_INDICES
from heartslib.engine.finishing import rollout_score, score_round
from heartslib.engine.legality import (
    candidates,
    is_ordered,
    pass_of,
    random_pass,
)
from heartslib.engine.machine import apply, choice, choose, choose_cards, to_act
from heartslib.engine.state import RawTrick, RawTrickWon, RoundState
from heartslib.engine.tables import (
    FAST_RUN,
    HEART,
    NATIVE,
    NOT_HEARTS,
    OVER,
    PASS,
    PLAY,
    PLAY_CODE,
    SUITS,
)
from heartslib.engine.tricks import due_count, play_card, settle
from heartslib.points import Score

__all__ = ["Policy", "fast_playout", "policy_playout", "random_playout", "rollout_points"]


def random_playout(s: RoundState, rng: random.Random, fast: bool = True) -> tuple[Score, ...]:
    """Play uniformly random legal actions to the end of the round, in place; return the points.

    ``fast=False`` keeps the whole hand on the general path (the differential tests use it).
    """
    fast = fast and s.rules.fast_playout
    rnd = rng.random
    while s.phase is not OVER:
        phase = s.phase
        # from the start of a trick after the first, once no exposed card binds: the first trick (the opening
        # lead, the first-trick ban) and the exposed-card rule are legality's alone, played card by card below
        if fast and phase is PLAY and not s.tcards and s.trick_no and not (s.exposed and _exposure_binds(s)):
            fast_playout(s, rng)
            continue
        if phase is PLAY:
            seat = s.turn
            cands = candidates(s, seat, None)
            # the count in a local: compiled, random() * len(...) multiplies boxed objects, * k natively
            k = len(cands)
            card = cands[int(rnd() * k)] if k > 1 else cands[0]
            s.events.append(seat * PLAY_CODE + card)
            play_card(s, seat, card)
        else:
            _random_step(s, rng, None)
    assert s.outcome is not None
    return s.outcome.points


class Policy(Protocol):
    """How a rollout chooses (:func:`policy_playout`): a play among the legal cards, and decisions.

    The engine asks :meth:`play` only when a seat has two or more legal cards (and :meth:`decide` only when a
    decision has two or more options), tells :meth:`played` of every
    card played (so a policy can keep its own running facts: the cards still out, the points each seat has
    taken), and asks :meth:`decide` for each decision. Each method reads the state; none may change it.
    """

    def play(self, s: RoundState, seat: int, cands: list[int]) -> int:
        """The card (one of ``cands``, the distinct legal cards in hand order) ``seat`` plays."""

    def played(self, s: RoundState, seat: int, card: int) -> None:
        """``seat`` has played ``card`` (``s`` is the state after it: a completed trick is settled)."""

    def decide(self, s: RoundState, seat: int, options: tuple[str, ...]) -> int:
        """The index among ``options`` of the option ``seat`` chooses in the pending decision."""


def policy_playout(s: RoundState, rng: random.Random, policy: Policy) -> tuple[Score, ...]:
    """Play the round to its end in place, ``policy`` choosing every play and decision; return the points.

    The same steps as :func:`random_playout`'s general path (``legality.candidates``, then
    ``tricks.play_card``), without the public ``apply`` checks: what the policy returns is a legal card by
    contract. Passes still to make are drawn uniformly from ``rng``, as :func:`random_playout` draws them.
    """
    while s.phase is not OVER:
        if s.phase is PLAY:
            seat = s.turn
            cands = candidates(s, seat, None)
            card = policy.play(s, seat, cands) if len(cands) > 1 else cands[0]
            s.events.append(seat * PLAY_CODE + card)
            play_card(s, seat, card)
            policy.played(s, seat, card)
        else:
            _random_step(s, rng, policy)
    assert s.outcome is not None
    return s.outcome.points


def _random_step(s: RoundState, rng: random.Random, policy: Policy | None) -> None:
    """One pass or decision of a playout: a pass drawn uniformly among the legal passes; a decision drawn
    uniformly among its options, or chosen by ``policy``."""
    if s.phase is PASS:
        # a uniform choice among the legal passes, unranked rather than listed (listed once where the
        # suit-keeping rule judges a pass as a whole): the pass legal_actions would list at the drawn index
        seat = to_act(s)[0]
        hand, size, forbidden, ordered = s.hands[seat], s.pass_size, s.rules.forbidden, is_ordered(s.passing)
        combo = random_pass(hand, size, forbidden, ordered, s.rules.pass_keep, rng)
        action = pass_of(seat, combo)
        if s.scripted is not None and to_act(s) == (seat,):
            apply(s, action)  # the last pass of a scripted shuffle: apply() checks the script first
        else:
            choose_cards(s, action, combo)  # legal by construction: recorded without checking again
        return
    # a decision: one draw among its options, in the order legal_actions lists their Choose actions
    assert s.decision is not None
    _, seat, options = s.decision  # the seat deciding: what to_act gives, read where to_act reads it
    # one draw per choice of two or more, as for plays (a seat with no card to expose has one option)
    count = len(options)  # a local: compiled, random() * len(...) multiplies boxed objects
    k = 0
    if count > 1:
        k = policy.decide(s, seat, options) if policy is not None else int(rng.random() * count)
    # one of the decision's own options: recorded and carried out as apply() does, without its checks
    choose(s, choice(s.rules, seat, options[k]))


def fast_playout(s: RoundState, rng: random.Random) -> None:
    """Random play of the remaining tricks for the plain-tricks rules (from the start of a trick, the kitty
    handed out), then scoring: the candidates and draws of the general path, one ``rng.random()`` per choice
    of two or more."""
    s.memo = None
    s.events.append(FAST_RUN)  # the tricks' entries stand for their plays from here (RoundState.events)
    split, extra = _split(s, clear=True)
    leader, number, guard = _fast_tricks(s, rng, split, extra, s.taken, s.won, s.tricks, s.events)
    if not guard and s.rules.locks_hearts:
        s.broken = True
    s.leader = leader
    s.trick_no = number
    score_round(s)


def _exposure_binds(s: RoundState) -> bool:
    """Whether an exposed card still held may be barred by the exposed-card rule (its suit not led yet): the
    fast loop then leaves the trick to the general path, where legality alone decides it."""
    suit = s.rules.suit
    led = {t[5] for t in s.tricks}
    return any(suit[c] not in led and any(c in hand for hand in s.hands) for c in s.exposed)


def rollout_points(s: RoundState, rng: random.Random) -> tuple[Score, ...]:
    """The points :func:`random_playout` would give a copy of ``s`` with the same ``rng``, without changing
    ``s`` and, where the fast loop can take the rest of the hand, without recording it."""
    rules = s.rules
    if not (rules.fast_playout and s.phase is PLAY and not s.tcards and s.trick_no
            and not (s.exposed and _exposure_binds(s)) and not s.kitty and not s.carry
            and not rules.cancel and not rules.joker_conditional):
        return random_playout(s.copy(), rng)  # what the fast loop would settle in the state itself
    taken = [t[:] for t in s.taken] if NATIVE else list(map(list.copy, s.taken))  # tables.NATIVE
    won = s.won[:]
    tricks = s.tricks[:]
    split, extra = _split(s, clear=False)
    _fast_tricks(s, rng, split, extra, taken, won, tricks, [])
    return rollout_score(s, taken, won, tricks, rng)


def _split(s: RoundState, *, clear: bool) -> tuple[list[list[list[int]]], list[list[int]]]:
    """Each hand as four per-suit lists (in hand order), and with two decks each seat's extra copies by card
    index: a card held twice is listed once and counted there, so the lists hold the distinct cards a choice
    is drawn among (``legality.distinct``). With ``clear`` the hands themselves are emptied."""
    suit = s.rules.suit
    dup = s.rules.repeats
    split: list[list[list[int]]] = []
    extra: list[list[int]] = []
    if NATIVE and not dup and not s.rules.jokers:
        # compiled, and no jokers: a hand in hand order is sorted by card index, each suit's thirteen in a run,
        # so its suits are four slices at bounds a native scan finds (a third of appending card by card;
        # interpreted, slicing costs more than the appends)
        for hand in s.hands:
            n = len(hand)
            a = 0
            while a < n and hand[a] < 13:
                a += 1
            b = a
            while b < n and hand[b] < 26:
                b += 1
            c = b
            while c < n and hand[c] < 39:
                c += 1
            split.append([hand[:a], hand[a:b], hand[b:c], hand[c:]])
            if clear:
                hand.clear()
        return split, extra
    for hand in s.hands:
        lists: list[list[int]] = [[], [], [], []]
        if dup:
            more = [0] * NUM_CARD_INDICES  # a list: indexing it is native compiled, a dict's get is not
            prev = -1
            for c in hand:
                if c == prev:  # hand order: the copies of a card are neighbours
                    more[c] += 1
                else:
                    lists[suit[c]].append(c)
                    prev = c
            extra.append(more)
        else:
            for c in hand:
                lists[suit[c]].append(c)
        split.append(lists)
        if clear:
            hand.clear()
    return split, extra


def _fast_tricks(
    s: RoundState, rng: random.Random, split: list[list[list[int]]], extra: list[list[int]],
    taken: list[list[int]], won: list[int], tricks: list[RawTrick], events: list[Event | int | RawTrickWon],
) -> tuple[int, int, bool]:
    """:func:`fast_playout`'s tricks from :func:`_split`'s hands, into the lists given: (last winner, tricks, guard).
    A trick is logged as its entry alone (the plays are not: see ``FAST_RUN``)."""
    rules = s.rules
    suit, breaks, challenge, level, dup = rules.suit, rules.breaks, rules.challenge, rules.level, rules.repeats
    # no rule here that tricks.settle must handle (and only it adds to the kitty or the carried cards)
    plain = not (rules.cancel or rules.joker_conditional or s.kitty or s.carry)
    rnd, leader, number, order, after = rng.random, s.leader, s.trick_no, rules.order, rules.followers
    lists = split[leader]
    size = len(lists[0]) + len(lists[1]) + len(lists[2]) + len(lists[3]) + (sum(extra[leader]) if dup else 0)
    guard = not s.broken and rules.locks_hearts  # while hearts are locked a lead avoids them if it can
    while size:
        seats = order[leader]
        lists = split[leader]
        if dup:  # the lists hold distinct cards: a lead avoids hearts while they are locked, if it can
            suits = NOT_HEARTS if guard and lists[HEART] and (lists[0] or lists[1] or lists[3]) else SUITS
            card = _take_distinct(rnd, lists, suits, extra[leader])
        else:
            hearts = len(lists[HEART])
            if guard and 0 < hearts < size:  # not a conditional pair: compiled, the pair is built and unpacked
                suits, k = NOT_HEARTS, size - hearts
            else:
                suits, k = SUITS, size
            card = _pick(lists, suits, int(rnd() * k) if k > 1 else 0)
        led = suit[card]
        guard = guard and not breaks[card]
        best, winner, cards = level[card], leader, [card]
        for seat in after[leader]:
            lists = split[seat]
            same = lists[led]
            if same:
                k = len(same)
                if dup:
                    card = _take(same, int(rnd() * k) if k > 1 else 0, extra[seat])
                else:
                    card = same.pop(int(rnd() * k)) if k > 1 else same.pop()
                if challenge[card] > best:
                    best = level[card]
                    winner = seat
            else:
                card = (_take_distinct(rnd, lists, SUITS, extra[seat]) if dup
                        else _pick(lists, SUITS, int(rnd() * size) if size > 1 else 0))
            guard = guard and not breaks[card]
            cards.append(card)
        if not plain and _unsettled(s, cards, seats, winner, number, size == 1):
            s.trick_no = number
            s.leader = leader
            settle(s, seats, cards, led, size == 1)
            winner = s.leader
        else:
            raw: RawTrick = (number, leader, seats, tuple(cards), winner, led)
            tricks.append(raw)
            taken[winner].extend(cards)
            won[winner] += 1
            events.append(raw)
        number += 1
        leader = winner
        size -= 1
    return leader, number, guard


def _unsettled(s: RoundState, cards: list[int], seats: tuple[int, ...], winner: int, number: int, last: bool) -> bool:
    """Whether trick ``number`` (``cards`` played by ``seats``, ``winner`` as the loop found it) is for
    :func:`~heartslib.engine.tricks.settle`: jokers that may not score, carried cards, kitty cards due with it,
    or copies that cancel where they may change the winner. With one card repeated, and not the winning one,
    the winner stands: cancelled cards below it leave it the highest card left, and one pair rolls nothing
    over (``tricks.trick_winner``, which settles every other case)."""
    rules = s.rules
    if rules.joker_conditional or s.carry or (s.kitty and due_count(rules, len(s.kitty), number, last)):
        return True
    if not rules.cancel:
        return False
    repeats = len(cards) - len(set(cards))
    return repeats > 1 or (repeats == 1 and cards.count(cards[seats.index(winner)]) > 1)


def _take(cards: list[int], i: int, more: list[int]) -> int:
    """Remove and return ``cards[i]`` from a per-suit list of distinct cards (two decks; ``more``: the seat's
    extra copies by card index): a card held twice stays listed, one copy fewer."""
    card = cards[i]
    if more[card]:
        more[card] -= 1
    elif NATIVE:
        cards.pop(i)  # compiled, a pop costs less than del's slice assignment; interpreted, more
    else:
        del cards[i]
    return card


def _take_distinct(
    rnd: Callable[[], float], lists: list[list[int]], suits: tuple[int, ...], more: list[int],
) -> int:
    """Remove and return a uniform choice among the cards of ``suits`` in a two-deck hand held as per-suit
    lists of distinct cards (``more``: its extra copies): both copies of a card count once, as in
    ``candidates``."""
    if NATIVE:  # compiled, a native loop (sum, map and len are looked up and called generically)
        k = 0
        for st in suits:
            k += len(lists[st])
    else:
        k = sum(map(len, lists)) if suits is SUITS else sum([len(lists[st]) for st in suits])
    i = int(rnd() * k) if k > 1 else 0
    for st in suits:
        cards = lists[st]
        if i < len(cards):
            return _take(cards, i, more)
        i -= len(cards)
    raise IndexError(i)  # pragma: no cover


def _pick(lists: list[list[int]], suits: tuple[int, ...], i: int) -> int:
    """Remove and return the ``i``-th card of ``suits`` in a hand held as per-suit lists (in hand order)."""
    for st in suits:
        cards = lists[st]
        if i < len(cards):
            return cards.pop(i)
        i -= len(cards)
    raise IndexError(i)  # pragma: no cover
