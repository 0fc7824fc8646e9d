"""Random playouts: uniformly random legal actions to the end of a hand, with a fast loop for the common rules.

:func:`random_playout` chooses each step uniformly among the legal actions
(so the distribution is a random agent's). For the variants the fast loop's
allow-list admits (``Rules.fast_playout``, :data:`heartslib.engine.fastpath.FAST_LOOP`)
the tricks from the start of one run in :func:`fast_playout`, which draws
exactly what the general path draws: the same candidates in the same order,
one ``rng.random()`` per choice of two or more. It holds each hand as four
per-suit lists (following suit is one list operation; a choice among several
suits counts through them in hand order); with two decks the lists hold a
hand's distinct cards and a count of its extra copies by card index beside
them, so both copies of a card are one choice, and ties go to the first or
last played (``rules.challenge``); a trick it cannot settle itself goes to
:func:`heartslib.engine.tricks.settle` (:func:`_unsettled`). The
property tests ``test_fast_playout_agrees_with_the_general_path_on_random_variants``
and ``..._on_every_fast_preset`` hold the two to the same game for the same
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
    position,
    random_pass,
)
from heartslib.engine.machine import apply, choice, choose, choose_cards, to_act
from heartslib.engine.rules import Rules
from heartslib.engine.state import RawTrick, RawTrickWon, RoundState
from heartslib.engine.tables import (
    CARD_OPENS,
    FAST_RUN,
    HEART,
    NATIVE,
    NO_SUIT,
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
    while s.phase is not OVER:
        phase = s.phase
        if fast and phase is PLAY and not s.tcards:
            fast_playout(s, rng)
            continue
        if phase is PLAY:
            seat = s.turn
            cands = candidates(s, seat, None)
            card = cands[int(rng.random() * len(cands))] if len(cands) > 1 else cands[0]
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
    if len(options) < 2:
        k = 0
    else:
        k = policy.decide(s, seat, options) if policy is not None else int(rng.random() * len(options))
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


def rollout_points(s: RoundState, rng: random.Random) -> tuple[Score, ...]:
    """The points :func:`random_playout` would give a copy of ``s`` with the same ``rng``, without changing
    ``s`` and, where the fast loop can take the rest of the hand, without recording it."""
    rules = s.rules
    if not (rules.fast_playout and s.phase is PLAY and not s.tcards and not s.kitty and not s.carry
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
    suit, rank, breaks, challenge, level = rules.suit, rules.rank, rules.breaks, rules.challenge, rules.level
    dup, forced, undercut, leekhas = rules.repeats, bool(rules.must_discard), rules.undercut, rules.must_discard
    # no rule here that tricks.settle must handle (and only it adds to the kitty or the carried cards); the
    # undercut binds below the highest leekha played
    plain = not (rules.cancel or rules.joker_conditional or s.kitty or s.carry)
    rnd, leader, number, order, after = rng.random, s.leader, s.trick_no, rules.order, rules.followers
    lists = split[leader]
    size = len(lists[0]) + len(lists[1]) + len(lists[2]) + len(lists[3]) + (sum(extra[leader]) if dup else 0)
    guard = not s.broken and rules.locks_hearts  # while hearts are locked a lead avoids them if it can
    # exposed cards whose suit no completed trick has led yet: each may be barred (legality._exposed)
    bound = [c for c in s.exposed if suit[c] not in {t[5] for t in tricks}] if s.exposed else []
    while size:
        seats = order[leader]
        if number == 0 or (bound and _bars_lead(split[leader], bound, suit)):
            cards, winner, led, guard = _listed_trick(s, rnd, seats, split, extra, guard, not number, bound)
        else:
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
            ceiling = rank[card] if undercut and card in leekhas else -1  # -1: no leekha on the trick yet
            # the exposed cards of the suit led, which a follower holding another card of it may not play
            barred = [c for c in bound if suit[c] == led] if bound else bound
            for seat in after[leader]:
                lists = split[seat]
                same = lists[led]
                if same:
                    k = len(same)
                    if barred or ceiling >= 0:
                        card = _narrowed(rnd, same, barred, ceiling, rank, extra[seat] if dup else None)
                    elif dup:
                        card = _take(same, int(rnd() * k) if k > 1 else 0, extra[seat])
                    else:
                        card = same.pop(int(rnd() * k)) if k > 1 else same.pop()
                    if challenge[card] > best:
                        best = level[card]
                        winner = seat
                else:
                    card = _forced_discard(rnd, rules, lists, ceiling, extra[seat] if dup else None) if forced else -1
                    if card < 0:
                        card = (_take_distinct(rnd, lists, SUITS, extra[seat]) if dup
                                else _pick(lists, SUITS, int(rnd() * size) if size > 1 else 0))
                guard = guard and not breaks[card]
                if undercut and card in leekhas and rank[card] > ceiling:
                    ceiling = rank[card]
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
        bound = [c for c in bound if suit[c] != led] if bound else bound  # free once its suit has been led
        number += 1
        leader = winner
        size -= 1
    return leader, number, guard


def _forced_discard(
    rnd: Callable[[], float], rules: Rules, lists: list[list[int]], ceiling: int, more: list[int] | None,
) -> int:
    """Remove and return a void follower's uniform choice among its forced discards (``play.must_discard``:
    :func:`_forced`; with the undercut, below ``ceiling`` unless none is), its hand held as per-suit lists
    (``more``: its extra copies by card index with two decks, else None); -1 when none is forced (the discard
    is then free)."""
    held = _forced(rules, lists, [c for st in SUITS for c in lists[st]])
    if not held:
        return -1
    if ceiling >= 0:
        held = [c for c in held if rules.rank[c] < ceiling] or held
    card = held[int(rnd() * len(held))] if len(held) > 1 else held[0]
    _drop(lists[rules.suit[card]], card, more)
    return card


def _unsettled(s: RoundState, cards: list[int], seats: tuple[int, ...], winner: int, number: int, last: bool) -> bool:
    """Whether trick ``number`` (``cards`` played by ``seats``, ``winner`` as the loop found it) is for
    :func:`~heartslib.engine.tricks.settle`: jokers that may not score, carried cards, kitty cards due with it,
    or copies that cancel where they may change the winner. With one card repeated, and not the winning one,
    the winner stands: cancelled cards below it leave it the highest card left, and one pair rolls nothing
    over (``tricks._winner``, which settles every other case)."""
    rules = s.rules
    if rules.joker_conditional or s.carry or (s.kitty and due_count(rules, len(s.kitty), number, last)):
        return True
    if not rules.cancel:
        return False
    repeats = len(cards) - len(set(cards))
    return repeats > 1 or (repeats == 1 and cards.count(cards[seats.index(winner)]) > 1)


def _narrowed(
    rnd: Callable[[], float], same: list[int], barred: list[int], ceiling: int, rank: list[int],
    more: list[int] | None,
) -> int:
    """Remove and return a follower's uniform choice among ``same`` (its distinct cards of the suit led, in hand
    order; ``more``: its extra copies, two decks) narrowed as ``candidates`` narrows it: the ``barred`` exposed
    cards out and, with the undercut, the cards ranked from ``ceiling`` up, each unless it would leave none."""
    cands = same
    if barred:
        cands = [c for c in cands if c not in barred] or cands
    if ceiling >= 0:
        cands = [c for c in cands if rank[c] < ceiling] or cands
    k = len(cands)
    card = cands[int(rnd() * k)] if k > 1 else cands[0]
    _drop(same, card, more)
    return card


def _drop(cards: list[int], card: int, more: list[int] | None) -> None:
    """Remove ``card`` from the per-suit list ``cards`` holding it; a card held twice (``more``: the seat's
    extra copies by card index, two decks) stays listed, one copy fewer."""
    if more is not None and more[card]:
        more[card] -= 1
    elif NATIVE:
        cards.pop(position(cards, card))  # legality.position: list.remove compares generically compiled
    else:
        cards.remove(card)


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


def _listed_trick(
    s: RoundState, rnd: Callable[[], float], seats: tuple[int, ...], split: list[list[list[int]]],
    extra: list[list[int]], guard: bool, first: bool, exposed: list[int],
) -> tuple[list[int], int, int, bool]:
    """A trick of :func:`fast_playout` whose every choice is listed as
    :func:`~heartslib.engine.legality.candidates` lists it, from the per-suit lists: the first trick (the
    opening lead, the first-trick ban) and the tricks in which an exposed card of a suit not led yet
    (``exposed``, one deck) may be barred. Returns (cards, winner, led suit, guard)."""
    rules = s.rules
    suit, rank, breaks = rules.suit, rules.rank, rules.breaks
    banned = rules.first_trick_banned if first else None
    challenge, level = rules.challenge, rules.level
    opening = s.opening if first else -1
    cards: list[int] = []
    led = NO_SUIT
    best = -1
    winner = seats[0]
    ceiling = -1  # the undercut: the rank of the highest leekha card on the trick
    for seat in seats:
        lists = split[seat]
        if cards:
            follows = bool(lists[led])
            cands = lists[led] or lists[0] + lists[1] + lists[2] + lists[3]
            if exposed and follows:  # an exposed card of the suit led, while the player holds another of it
                cands = [c for c in cands if c not in exposed] or cands
            if banned is not None:
                cands = _unbanned(cands, banned)
            bound = follows
            if rules.must_discard and not follows:
                held = _forced(rules, lists, cands)
                if held:
                    cands, bound = held, True
            if ceiling >= 0 and bound:
                cands = [c for c in cands if rank[c] < ceiling] or cands
        elif opening >= 0 and rules.opening is CARD_OPENS:
            cands = [opening]
        elif opening >= 0 and lists[suit[opening]]:
            cands = lists[suit[opening]]
            if exposed:
                cands = _unexposed(cands, exposed, lists, suit)
            if banned is not None:
                cands = _unbanned(cands, banned)
        else:
            cands = lists[0] + lists[1] + lists[2] + lists[3]
            if guard:
                cands = [c for c in cands if suit[c] != HEART] or cands
            if exposed:
                cands = _unexposed(cands, exposed, lists, suit)
            if banned is not None:
                cands = _unbanned(cands, banned)
        card = cands[int(rnd() * len(cands))] if len(cands) > 1 else cands[0]  # distinct cards (_split)
        _drop(lists[suit[card]], card, extra[seat] if extra else None)
        if not cards:
            led = suit[card]
        if guard and breaks[card]:
            guard = False
        if suit[card] == led and challenge[card] > best:
            best = level[card]
            winner = seat
        if rules.undercut and card in rules.must_discard and rank[card] > ceiling:
            ceiling = rank[card]
        cards.append(card)
    return cards, winner, led, guard


def _unbanned(cands: list[int], banned: list[bool]) -> list[int]:
    """``cands`` without the cards the first-trick rule bans, unless that would leave none (``cands`` itself
    when it holds none: following suit, mostly)."""
    if NATIVE:  # compiled, a native loop (map with a bound method is called generically)
        for c in cands:
            if banned[c]:
                return [c for c in cands if not banned[c]] or cands
        return cands
    if any(map(banned.__getitem__, cands)):
        return [c for c in cands if not banned[c]] or cands
    return cands


def _bars_lead(lists: list[list[int]], bound: list[int], suit: list[int]) -> bool:
    """Whether the leader, its hand held as per-suit lists, holds an exposed card of a suit not led yet
    (``bound``) beside another card of that suit: its lead is then listed (:func:`_unexposed`)."""
    for c in bound:
        held = lists[suit[c]]
        if len(held) > 1 and c in held:
            return True
    return False


def _unexposed(cands: list[int], exposed: list[int], lists: list[list[int]], suit: list[int]) -> list[int]:
    """The leads among ``cands`` once the exposed cards of suits not led yet are barred where the leader holds
    another card of their suit (``legality._exposed``), unless none would be left."""
    return [c for c in cands if c not in exposed or len(lists[suit[c]]) == 1] or cands


def _forced(rules: Rules, lists: list[list[int]], cands: list[int]) -> list[int]:
    """The forced discards (``play.must_discard``) among ``cands`` of a void player whose hand is held as
    per-suit lists, in hand order and once per card (the lists hold distinct cards: :func:`_split`), as
    ``candidates`` finds them; empty when none applies."""
    md = rules.must_discard
    held = [c for c in cands if c in md]
    if held and rules.must_discard_if_all and not all(c in lists[rules.suit[c]] for c in md):
        return []
    return held


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
