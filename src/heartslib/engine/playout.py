"""Playouts: a hand played to its end by uniformly random legal actions, or by a rollout policy.

There is one driver, :func:`policy_playout`'s loop, shared by :func:`random_playout` and
:func:`rollout_points`: each card comes from the one play legality (:func:`~heartslib.engine.legality.legal_mask`)
and goes through the one trick code (:func:`~heartslib.engine.tricks.play_card`, which resolves a completed
trick), so a playout restates no rule. A random playout chooses each step uniformly among the legal actions
(the distribution of a random agent): one ``rng.random()`` per choice of two or more, the card at that place in
hand order among the legal cards (:func:`heartslib.engine.bits.nth`).

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from heartslib.engine.bits import BIT, cards_in, low_card, pick
from heartslib.engine.legality import binds, followed, is_ordered, legal_mask, locked, pass_of, random_pass
from heartslib.engine.machine import apply, choice, choose, choose_cards, to_act
from heartslib.engine.state import RoundState, take
from heartslib.engine.tables import OVER, PASS, PLAY, PLAY_CODE
from heartslib.engine.tricks import close_trick, play_card
from heartslib.points import Score

__all__ = ["Policy", "card_by_card", "policy_playout", "random_playout", "rollout_points"]


def random_playout(s: RoundState, rng: random.Random) -> tuple[Score, ...]:
    """Play uniformly random legal actions to the end of the round, in place; return the points."""
    return _random_play(s, rng, True)


def card_by_card(s: RoundState, rng: random.Random) -> tuple[Score, ...]:
    """:func:`random_playout` with every card through ``legal_mask`` and ``play_card`` one call at a time (the
    path of the public API and of rollouts): the same game for the same ``rng``; for the tests and benchmarks."""
    return _random_play(s, rng, False)


def _random_play(s: RoundState, rng: random.Random, whole_tricks: bool) -> tuple[Score, ...]:
    """The random playout, with ``whole_tricks`` the plain tricks left in :func:`_plain_tricks`."""
    rnd = rng.random
    while s.phase is not OVER:
        if whole_tricks and s.phase is PLAY and not s.tcards and s.trick_no and _plain(s):
            _plain_tricks(s, rnd)
        elif s.phase is PLAY:
            seat = s.turn
            card = pick(legal_mask(s, seat, None), rnd)
            s.events.append(seat * PLAY_CODE + card)
            play_card(s, seat, card)
        else:
            _random_step(s, rng, None)
    assert s.outcome is not None
    return s.outcome.points


def _plain(s: RoundState) -> bool:
    """Whether no rule but following suit and the hearts lock on a lead can narrow a play from here to the end of
    the hand, each trick one card a seat with nothing else to settle (``Rules.short_tricks``): past the first trick
    (the opening lead, the first-trick rule), no forced play (``Rules.forces``), no exposed card that may still be
    barred, no kitty or stock left and no suitless joker (``short_tricks`` refuses them)."""
    rules = s.rules
    return rules.short_tricks and not rules.forces and not s.kitty and not (s.exposed and _exposure_binds(s))


def _exposure_binds(s: RoundState) -> bool:
    """Whether an exposed card still held may yet be barred by the exposed-card rule (``legality.binds``: its
    suit not led so far); once none may, none will, and legality's exposed-card step removes nothing."""
    for card in s.exposed:
        if binds(s, card):
            for seat in range(s.n):
                if s.hands[seat] >> card & 1:
                    return True
    return False


def _plain_tricks(s: RoundState, rnd: Callable[[], float]) -> None:
    """The tricks left, from the start of one, where :func:`_plain` holds, with the hands in locals: each card
    drawn among the legal ones that the legality's own steps give (:func:`~heartslib.engine.legality.locked` on a
    lead while hearts are locked, :func:`~heartslib.engine.legality.followed` after it), each trick closed by
    :func:`~heartslib.engine.tricks.close_trick` (its winner by ``tricks.trick_winner``). The draws are
    :func:`card_by_card`'s, the game the same; what is done here is only the bookkeeping of a card leaving a
    hand for the trick, which ``play_card`` does one call a card."""
    rules = s.rules
    hands = s.hands
    events = s.events
    order, after, suit, breaks, copies, bit = rules.order, rules.followers, rules.suit, rules.breaks, rules.repeats, BIT
    guarded = rules.locks_hearts and not s.broken
    s.memo = -1
    while s.phase is PLAY:
        leader = s.leader
        hand = hands[leader]
        card = pick(locked(rules, hand, None) if guarded else hand, rnd)
        if copies:
            take(s, leader, card)
        else:
            hands[leader] = hand ^ bit[card]
        led = suit[card]
        events.append(leader * PLAY_CODE + card)
        cards = [card]
        for seat in after[leader]:
            hand = hands[seat]
            card = pick(followed(rules, hand, led), rnd)
            if copies:
                take(s, seat, card)
            else:
                hands[seat] = hand ^ bit[card]
            events.append(seat * PLAY_CODE + card)
            cards.append(card)
        if guarded:
            for card in cards:
                if breaks[card]:
                    guarded = False
                    s.broken = True
        close_trick(s, order[leader], cards, led)


def rollout_points(s: RoundState, rng: random.Random) -> tuple[Score, ...]:
    """The points :func:`random_playout` gives a copy of ``s`` with the same ``rng``, leaving ``s`` as it is."""
    return random_playout(s.copy(), rng)


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

    The same steps as :func:`random_playout` (``legality.legal_mask``, then ``tricks.play_card``), without the
    public ``apply`` checks: what the policy returns is a legal card by contract. Passes still to make are drawn
    uniformly from ``rng``, as :func:`random_playout` draws them.
    """
    while s.phase is not OVER:
        if s.phase is PLAY:
            seat = s.turn
            legal = legal_mask(s, seat, None)
            card = policy.play(s, seat, cards_in(legal)) if legal & (legal - 1) else low_card(legal)
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
        hand, size, forbidden, ordered = s.held(seat), s.pass_size, s.rules.forbidden, is_ordered(s.passing)
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
    n_options = len(options)  # a local: compiled, random() * len(...) multiplies boxed objects
    k = 0
    if n_options > 1:
        k = policy.decide(s, seat, options) if policy is not None else int(rng.random() * n_options)
    # one of the decision's own options: recorded and carried out as apply() does, without its checks
    choose(s, choice(s.rules, seat, options[k]))
