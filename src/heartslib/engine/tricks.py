"""Tricks: who leads the first one, exposing cards before it, playing a card, resolving a trick, the kitty,
cancellation and roll-overs.

:func:`play_card` and :func:`resolve` each have a short path for the variants
the plain-tricks allow-list admits (``Rules.short_tricks``; see
:mod:`heartslib.engine.fastpath`) and the general path for every rule;
``tests/test_conformance.py`` holds the short paths to the general one.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

from collections.abc import Sequence

from heartslib.actions import KittyTaken
from heartslib.engine.bits import BIT
from heartslib.engine.finishing import score_round
from heartslib.engine.legality import callable_suits, exposure_options
from heartslib.engine.rules import Rules
from heartslib.engine.state import RawTrick, RoundState, give, take
from heartslib.engine.tables import (
    CARD,
    CODE,
    DECIDE,
    EXPOSE_DECISION,
    HEART,
    JK,
    NO_SUIT,
    ORDER,
    PLAY,
    SUIT_DECISION,
    SUIT_NAMES,
)
from heartslib.enums import CancelRollover, KittyMode

__all__ = [
    "begin_play", "call_suit", "close_trick", "draw_after_trick", "draw_to_follow", "due_count", "expose", "kitty_due",
    "play_card",
    "resolve", "settle", "trick_winner",
]


def begin_play(s: RoundState) -> None:
    """Start the tricks: the leader is the opening taker, or the holder of the opening card (searched from
    the dealer's left), or eldest hand."""
    rules = s.rules
    n = s.n
    step = rules.step
    s.phase = PLAY
    leader = (s.dealer + step) % n
    if s.lead >= 0:
        leader = s.lead
    elif rules.needs_opening_card():
        card = rules.opening_card(s.hands)
        if card is not None:
            s.opening = card
            for i in range(n):
                seat = (s.dealer + step * (1 + i)) % n
                if s.hands[seat] >> card & 1:
                    leader = seat
                    break
    s.leader = leader
    s.turn = leader
    if rules.exposable:
        # exposing ("selling") cards before the first lead: every seat in turn from the leader, so that who is
        # asked tells nothing about who holds what
        s.phase = DECIDE
        s.decision = (EXPOSE_DECISION, leader, exposure_options(s, leader))


def expose(s: RoundState, option: str) -> None:
    """The seat deciding exposed the cards of ``option`` (``"none"`` or codes, one of
    :func:`~heartslib.engine.legality.exposure_options`); the next seat decides, or the first lead follows."""
    seat = s.turn  # the seat deciding (the leader's turn comes back after the last one)
    if option != "none":
        cards = s.rules.exposure_cards.get(option)
        if cards is None:  # offered by a round made elsewhere (unpickled): this Rules has not built it yet
            cards = tuple([CODE.index(code) for code in option.split()])
        s.exposed = tuple(sorted(s.exposed + cards, key=ORDER.__getitem__))
    nxt = (seat + s.rules.step) % s.n
    if nxt == s.leader:
        s.phase = PLAY
        s.turn = s.leader
    else:
        s.phase = DECIDE
        s.turn = nxt
        s.decision = (EXPOSE_DECISION, nxt, exposure_options(s, nxt))


def play_card(s: RoundState, seat: int, card: int) -> None:
    """``seat`` plays ``card`` (legal: checked by the caller); the trick resolves once complete."""
    rules = s.rules
    s.memo = -1
    if rules.repeats:
        take(s, seat, card)
    else:
        s.hands[seat] &= ~BIT[card]
    s.tseats.append(seat)
    tcards = s.tcards
    tcards.append(card)
    if rules.breaks[card]:
        s.broken = True
    if rules.short_tricks:
        # no booster nines and no suitless jokers: the first card sets the suit led and the trick
        # ends with one card from each player
        plays = len(tcards)
        if plays == 1:
            s.tsuit = rules.suit[card]
        elif plays == s.n:
            resolve(s)
            return
        s.turn = (seat + rules.step) % s.n
        return
    if rules.booster_nines and rules.rank[card] == 9:
        s.nines += 1
    csuit = rules.suit[card]
    if len(tcards) == 1:
        s.tsuit = csuit
        if csuit == NO_SUIT and rules.joker_calls_suit:
            s.phase = DECIDE
            s.decision = (SUIT_DECISION, seat, callable_suits(s, seat))
            return
    elif s.tsuit == NO_SUIT and not s.called and csuit != NO_SUIT:
        s.tsuit = csuit
    if rules.draws_to_follow:
        _next_active(s, seat)
        return
    n = s.n
    plays = len(tcards)
    if plays % n == 0 and (plays >= n * (1 + s.nines) or not s.hands[s.leader]):
        resolve(s)
    else:
        s.turn = (seat + rules.step) % n


def _next_active(s: RoundState, seat: int) -> None:
    """Domino Hearts: the next seat after ``seat`` that still holds cards plays (drawing first until it can
    follow), or the trick resolves once play has come round to its leader."""
    step, n, hands = s.rules.step, s.n, s.hands
    nxt = seat
    for _ in range(n - 1):
        nxt = (nxt + step) % n
        if nxt == s.leader:
            break
        if hands[nxt]:
            s.turn = nxt
            draw_to_follow(s, nxt)
            return
    resolve(s)


def draw_to_follow(s: RoundState, seat: int) -> None:
    """``seat``, unable to follow the suit led, draws the stock's top card until it can or the stock is empty
    (``deck.stock = "to_follow"``, Domino Hearts)."""
    stock, suit, led = s.kitty, s.rules.suit, s.tsuit
    if not stock or led == NO_SUIT or s.hands[seat] & s.rules.suit_masks[led]:
        return
    drawn: list[int] = []
    while stock:
        card = stock.pop(0)
        give(s, seat, [card])
        drawn.append(card)
        if suit[card] == led:
            break
    s.draws.append((s.trick_no, seat, tuple(drawn)))
    s.memo = -1


def _first_active(s: RoundState, seat: int) -> int:
    """``seat`` if it holds cards, else the first seat on its left (in the direction of play) that does."""
    step, n, hands = s.rules.step, s.n, s.hands
    for k in range(n):
        nxt = (seat + step * k) % n
        if hands[nxt]:
            return nxt
    return seat


def _keep_the_rest(s: RoundState) -> None:
    """Domino Hearts' end: the last player holding cards takes them and the rest of the stock as taken (with
    nobody left, the stock goes to the last trick's winner)."""
    keeper = _first_active(s, s.leader)
    s.taken[keeper].extend(s.held(keeper) + s.kitty)
    s.hands[keeper] = 0
    s.spares[keeper] = []
    s.kitty = []


def call_suit(s: RoundState, option: str) -> None:
    """A joker's leader called the suit ``option`` (one of :func:`~heartslib.engine.legality.callable_suits`)."""
    s.tsuit = SUIT_NAMES.index(option)
    s.called = True
    s.phase = PLAY
    s.turn = (s.turn + s.rules.step) % s.n


def resolve(s: RoundState) -> None:
    """The trick is complete: find its winner (or its cancellation), hand out the cards and any kitty cards
    due, and move on to the next trick or the scoring."""
    rules = s.rules
    if rules.short_tricks and not s.kitty:
        close_trick(s, tuple(s.tseats), s.tcards, s.tsuit)
        s.tseats = []
        s.tcards = []
        s.tsuit = NO_SUIT
        return
    domino = rules.draws_to_follow
    # with a stock to draw after the trick, empty hands are refilled (one card each: hand size 1)
    last = sum(1 for h in s.hands if h) <= 1 if domino else not s.hands[s.leader] and not (
        s.kitty and rules.draws_after_trick)
    settle(s, s.tseats, s.tcards, s.tsuit, last)
    s.trick_no += 1
    s.tseats = []
    s.tcards = []
    s.tsuit = NO_SUIT
    s.called = False
    s.nines = 0
    if last:
        if domino:
            _keep_the_rest(s)
        score_round(s)
        return
    if s.kitty and rules.draws_after_trick:
        draw_after_trick(s)
    if domino:
        # a winner who took the trick with their last card hands the lead to the first player on their left
        s.leader = _first_active(s, s.leader)
    s.turn = s.leader


def close_trick(s: RoundState, seats: tuple[int, ...], cards: list[int], led: int) -> None:
    """The trick ``cards`` (played by ``seats``, ``led`` the suit to follow) is complete, for the plain-tricks
    rules with no kitty left (``Rules.short_tricks``: no suitless jokers, no cancellation, nothing due): its
    winner (:func:`trick_winner`) takes it, and the next trick or the scoring follows. What :func:`settle` does
    for these rules without its branches; the current trick's fields are the caller's to clear."""
    pos, _ = trick_winner(s.rules, cards, led)
    winner = seats[pos]
    raw: RawTrick = (s.trick_no, s.leader, seats, tuple(cards), winner, led)
    s.tricks.append(raw)
    s.taken[winner].extend(cards)
    s.won[winner] = s.won[winner] + 1  # compiled, += on an item is the generic in-place add
    s.events.append(raw)
    s.leader = winner
    s.trick_no += 1
    if s.hands[winner]:
        s.turn = winner
    else:
        score_round(s)


def draw_after_trick(s: RoundState) -> None:
    """Each player draws the top card of the stock (held in the kitty's place, in the dealt order), the
    trick's winner first and then the others in the order of play, while the stock lasts (``deck.stock``)."""
    stock = s.kitty
    for seat in s.rules.order[s.leader]:
        if not stock:
            break
        card = stock.pop(0)
        give(s, seat, [card])
        s.draws.append((s.trick_no - 1, seat, (card,)))  # after the trick just completed
    s.memo = -1


def settle(s: RoundState, seats: Sequence[int], cards: list[int], led: int, last: bool) -> None:
    """Settle trick number ``s.trick_no`` (``cards`` played by ``seats``, ``led`` the suit to follow; ``last``:
    the hand's last trick), for every rule: its winner (or its cancellation, the cards then rolling over),
    the cards of earlier cancelled tricks, the kitty cards due with it, jokers that do not score on it; the
    record and the log. Sets ``s.leader`` to whoever leads next (a cancelled trick's leader leads again).
    The fast playout loop calls it for the tricks its own short settling does not cover."""
    rules = s.rules
    winner_pos, rollover = trick_winner(rules, cards, led)
    leader = s.leader
    winner = seats[winner_pos] if winner_pos >= 0 else leader
    dead = 0
    if rules.joker_conditional and led != HEART:
        dead = sum(1 for c in cards if c in rules.jokers)
    pile = cards + s.carry
    due = kitty_due(s, rules, last) if s.kitty and not (rules.draws_after_trick or rules.draws_to_follow) else []
    if rules.joker_conditional and led != HEART:
        dead += sum(1 for c in due if c in rules.jokers)
    raw = (s.trick_no, leader, tuple(seats), tuple(cards), -1 if rollover else winner, led)
    s.tricks.append(raw)
    if rollover and not last:
        s.carry = pile + due
        s.carry_dead += dead
        s.events.append((raw, ()))
        return
    if rollover:
        winner = leader
    taken = pile + due
    s.taken[winner].extend(taken)
    trick_dead = dead + s.carry_dead
    s.dead[winner] += trick_dead
    s.won[winner] += 1
    s.carry = []
    s.carry_dead = 0
    s.leader = winner
    if rules.joker_conditional:  # the dead jokers' count rides along (TrickWon.points)
        s.events.append((raw, tuple(taken), trick_dead))
    elif len(taken) == len(cards):  # no carried or kitty cards: the trick's own, logged as the raw trick alone
        s.events.append(raw)
    else:
        s.events.append((raw, tuple(taken)))
    if due:
        s.kitty_seen[winner].extend(due)
        s.events.append(KittyTaken(winner, tuple(CARD[c] for c in due)))


def trick_winner(rules: Rules, cards: list[int], led: int) -> tuple[int, bool]:
    """The position of the winning card among ``cards`` (-1 if none wins) and whether the trick rolls over:
    the highest card of the suit led, ties by ``play.identical``, identical cards cancelling. The one
    trick-winner rule of the general path (:func:`settle`) and of the endgame solver (:mod:`heartslib.solve`)."""
    if led == NO_SUIT:
        return -1, False
    of_led = rules.of_suit[led]
    challenge, level = rules.challenge, rules.level
    if not (rules.cancel and len(set(cards)) < len(cards)):
        # no cancellation: one pass, the highest so far by rules.challenge against rules.level (ties by
        # play.identical are in those tables; a card's challenge is never below 0, so the first of the suit
        # led always counts)
        best = -1
        top = -1
        for i in range(len(cards)):
            c = cards[i]
            if of_led[c] and challenge[c] > top:
                best = i
                top = level[c]
        return best, False
    # two identical cards (or jokers) in the trick, which may cancel
    cand = [i for i, c in enumerate(cards) if of_led[c]]
    # a plain dict: a Counter's constructor runs in Python, dear for a trick's few cards
    counts = dict.fromkeys(cards, 0)
    for c in cards:
        counts[c] += 1
    counts.pop(JK, None)  # jokers never cancel
    cancelled = {c for c, k in counts.items() if k >= 2}
    if cancelled:
        remaining = [i for i in cand if cards[i] not in cancelled]
        pairs = sum([k // 2 for k in counts.values()])
        if (cand and not remaining) or (rules.cancel_rollover == CancelRollover.TWO_PAIRS and pairs >= 2):
            return -1, True
        cand = remaining
    if not cand:
        return -1, False
    best = cand[0]
    top = level[cards[best]]
    for i in cand[1:]:
        if challenge[cards[i]] > top:
            best = i
            top = level[cards[i]]
    return best, False


def kitty_due(s: RoundState, rules: Rules, last: bool) -> list[int]:
    """Take from the kitty the cards due with the trick being resolved (``last``: the hand's last trick)."""
    count = due_count(rules, len(s.kitty), s.trick_no, last)
    due = s.kitty[:count]
    del s.kitty[:count]
    return due


def due_count(rules: Rules, left: int, trick_no: int, last: bool) -> int:
    """How many of the ``left`` kitty cards are due with trick ``trick_no`` (``last``: the hand's last):
    ``deck.kitty`` says the whole kitty with the first trick, one card a trick, or the first card with
    the first trick and the rest with the last."""
    if not left:
        return 0
    mode = rules.kitty_mode
    if mode == KittyMode.FIRST_TRICK:
        return left if trick_no == 0 or last else 0
    if mode == KittyMode.ONE_PER_TRICK:
        return left if last else 1
    if last:
        return left
    return 1 if trick_no == 0 else 0
