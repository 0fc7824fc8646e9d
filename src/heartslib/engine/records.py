"""Public records from the state's compact ones: completed tricks as :class:`~heartslib.Trick` values, the
event log as :class:`~heartslib.Event` values, who exposed which card, and a seat's
:class:`~heartslib.Observation`.

The engine records a play as an int and a completed trick as a tuple (see
:data:`heartslib.engine.state.RawTrick`), which is what its hot loops can
afford; programs get frozen values. Both logs only grow, so each value is
built once and kept (:attr:`RoundState.trick_values`,
:attr:`RoundState.event_values`): an observation late in a hand costs what
one early in it does.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from heartslib.actions import Event, TrickWon
from heartslib.cards import Card
from heartslib.engine.auction import highest_bid
from heartslib.engine.bits import cards_in
from heartslib.engine.rules import Rules
from heartslib.engine.state import RawTrick, RawTrickWon, RoundState
from heartslib.engine.tables import CARD, NO_SUIT, PLAY, PLAY_CODE, PLAYS, SUIT_OF
from heartslib.enums import StockDraw
from heartslib.observation import Auction, Observation, Trick, make_observation
from heartslib.scoring import exposure_doubles, trick_points

# a list's __getitem__ is a plain builtin call: a tuple's goes through a slot wrapper, which builds an argument
# tuple per card (a quarter dearer in the pure build's observations)
_card = list(CARD).__getitem__


def _cards_of(ints: list[int]) -> tuple[Card, ...]:
    """The cards of a list of card indices (a hand), as a tuple of :class:`~heartslib.Card` values."""
    if len(ints) > 1:
        # itemgetter takes every item in one C call: half the cost of tuple(map(...)) for a hand, pure build
        # (with one index it would give the card itself, not a tuple)
        cards: tuple[Card, ...] = itemgetter(*ints)(CARD)
        return cards
    return (CARD[ints[0]],) if ints else ()


__all__ = ["auction_value", "event_value", "event_values", "exposers", "observation", "trick_value", "trick_values"]


def trick_value(raw: RawTrick) -> Trick:
    """A completed trick as a :class:`~heartslib.Trick`."""
    number, leader, seats, cards, winner, led = raw
    return Trick(
        number=number,
        leader=leader,
        plays=tuple(zip(seats, map(_card, cards))),  # noqa: B905 (one length: the raw trick's two halves)
        winner=None if winner < 0 else winner,
        led_suit=None if led == NO_SUIT else SUIT_OF[led],
    )


def event_value(item: Event | int | RawTrickWon, rules: Rules, doubled: frozenset[int]) -> Event:
    """One entry of the log as an :class:`~heartslib.Event` (a play's int, a trick's tuple, or the event); a
    trick's :attr:`~heartslib.TrickWon.points` are its cards' worth to the taker (``doubled``: the cards an
    exposure doubles, :func:`heartslib.scoring.exposure_doubles`)."""
    if isinstance(item, int):
        return PLAYS[item // PLAY_CODE][item % PLAY_CODE]
    if isinstance(item, tuple):
        if len(item) == 6:  # the raw trick alone: its winner took its cards
            raw, taken, dead = item, item[3], 0
        else:
            raw, taken = item[0], item[1]
            dead = item[2] if len(item) == 3 else 0  # jokers taken on it that score only on a hearts lead
        trick = trick_value(raw)
        return TrickWon(trick.number, trick.leader, trick.plays, trick.winner, tuple(CARD[c] for c in taken),
                        trick_points(rules, taken, dead, doubled))
    return item


def trick_values(s: RoundState) -> tuple[Trick, ...]:
    """The completed tricks as values, each built once (a tuple, so each observation can share it: it grows by
    a new tuple once per trick)."""
    cache = s.trick_values
    raw = s.tricks
    if cache is None:
        cache = s.trick_values = tuple(map(trick_value, raw))
    elif len(cache) < len(raw):
        cache = s.trick_values = cache + tuple(map(trick_value, raw[len(cache):]))
    return cache


def event_values(s: RoundState) -> list[Event]:
    """The log as events, each built once (the list is the state's own: do not change it)."""
    cache = s.event_values
    read = s.events_read
    if cache is None or read is None:
        cache = s.event_values = []
        read = 0
    log = s.events
    if read < len(log):
        rules, doubled = s.rules, exposure_doubles(s.rules, s.exposed)
        for i in range(read, len(log)):
            cache.append(event_value(log[i], rules, doubled))
        s.events_read = len(log)
    return cache


def exposers(s: RoundState) -> tuple[int, ...]:
    """Who exposed each card of ``s.exposed``, in its order.

    The state keeps only the exposed cards (what legality and scoring read). Exposing happens after the
    exchange and before the first lead, from one deck (validation refuses exposable cards with two), and
    a kitty card is never exposed, so an exposed card's exposer is the seat that still holds it, the seat
    that played it, or (Domino Hearts' last player holding cards keeps them, in no trick) the seat that took
    it unplayed.
    """
    if not s.exposed:
        return ()
    where: dict[int, int] = {}
    for raw in s.tricks:
        for seat, card in zip(raw[2], raw[3], strict=True):
            where[card] = seat
    for seat, card in zip(s.tseats, s.tcards, strict=True):
        where[card] = seat
    for seat in range(s.n):
        for card in cards_in(s.hands[seat]):
            where[card] = seat
    for seat, taken in enumerate(s.taken):
        for card in taken:
            where.setdefault(card, seat)  # a card no one played: the survivor kept it from its hand
    return tuple(where[c] for c in s.exposed)


def _cards(s: RoundState, ints: tuple[int, ...]) -> tuple[Card, ...]:
    # a pass, what a seat received or the exposed cards, as Card values built once per tuple: the state
    # replaces these tuples and never changes one, and the memo keeps each tuple it was built from, so an id
    # cannot be reused while its entry stands
    memo = s.card_values
    if memo is None:
        memo = s.card_values = {}
    hit = memo.get(id(ints))
    if hit is not None and hit[0] is ints:
        return hit[1]
    cards = tuple(map(_card, ints))
    memo[id(ints)] = (ints, cards)
    return cards


def auction_value(s: RoundState) -> Auction | None:
    """An auction's public state as a value (chips, bids, winner and winning bid, suit named); None outside one."""
    if not s.chips:
        return None
    bid = highest_bid(s.bids)[1] if len(s.bids) == s.n else 0
    return Auction(s.chips, s.bids, None if s.bidder < 0 else s.bidder, bid, None if s.named < 0 else SUIT_OF[s.named])


def observation(s: RoundState, seat: int, acting: tuple[int, ...]) -> Observation:
    """What ``seat`` may know now (a checked seat; ``acting``: the seats to act), as an
    :class:`~heartslib.Observation`: the public record plus the seat's own hand and pass.

    In the play phase half the fields cannot change until the hand ends (the seat, the pass, the exposed
    cards, the scores before the hand...): each seat's are kept (:attr:`RoundState.obs_fixed`) and copied, and
    only the rest is worked out again (:func:`_changing`), in the same dict order as a fresh build."""
    if s.phase is not PLAY or s.decision is not None or s.outcome is not None:
        return make_observation(_fields(s, seat, acting))
    fixed = s.obs_fixed
    if fixed is None:
        fixed = s.obs_fixed = [None] * s.n
    base = fixed[seat]
    if base is None:
        base = fixed[seat] = _fields(s, seat, acting)
        return make_observation(base.copy())
    fields = base.copy()
    _changing(fields, s, seat, acting)
    return make_observation(fields)


def _fields(s: RoundState, seat: int, acting: tuple[int, ...]) -> dict[str, Any]:
    """Every field of ``seat``'s observation now, by name in the fields' order (:func:`observation`); the
    ones that change during play are filled in by :func:`_changing`."""
    mine = s.passes[seat]
    rules = s.rules
    decision = s.decision
    outcome = s.outcome
    exposed = s.exposed
    fields: dict[str, Any] = {
        "seat": seat,
        "players": s.n,
        "phase": s.phase,
        "to_act": None,
        "hand_number": s.hand_number,
        "dealer": s.dealer,
        "hand": None,
        "hand_sizes": None,
        "passing": s.passing,
        "pass_count": s.pass_size,
        "passed": None if mine is None else _cards(s, mine),
        "received": None if s.received is None else _cards(s, s.received[seat]),
        "leader": None,
        "trick": None,
        "led_suit": None,
        "tricks": None,
        "tricks_won": None,
        "hearts_broken": None,
        "kitty_size": rules.kitty_size,
        "kitty": None,
        "scores": s.scores,
        "round_points": None if outcome is None else outcome.points,
        "options": decision[2] if decision is not None and seat in acting else (),
        "decision": None if decision is None else decision[0],
        "exposed": _cards(s, exposed) if exposed else (),
        "exposed_by": exposers(s) if exposed else (),
        "stock_size": 0,
        "draws": (),
        "drawn": (),
        "chips": s.chips,
        "bids": s.bids,
        "bidder": None if s.bidder < 0 else s.bidder,
        "penalty_suit": None if s.named < 0 else SUIT_OF[s.named],
        "_variant": s.variant,  # not a field: Observation.variant
    }
    _changing(fields, s, seat, acting)
    return fields


def _changing(fields: dict[str, Any], s: RoundState, seat: int, acting: tuple[int, ...]) -> None:
    """Set in ``fields`` (which hold every key already, so their order stays) the observation fields that
    change during play: who acts, the hands, the trick, the tricks done, whether hearts are broken, the kitty
    cards this seat has seen."""
    fields["to_act"] = acting
    fields["hand"] = _cards_of(s.held(seat))
    fields["hand_sizes"] = tuple([s.hand_size(i) for i in range(s.n)])
    fields["leader"] = None if s.leader < 0 else s.leader
    # the two lists grow together: zip's strict check is a keyword call, dear in the pure build
    fields["trick"] = tuple(zip(s.tseats, map(_card, s.tcards))) if s.tcards else ()  # noqa: B905
    fields["led_suit"] = None if s.tsuit == NO_SUIT else SUIT_OF[s.tsuit]
    done = s.trick_values  # trick_values(s) without the call while no trick has been completed since
    fields["tricks"] = done if done is not None and len(done) == len(s.tricks) else trick_values(s)
    fields["tricks_won"] = tuple(s.won)
    rules = s.rules
    fields["hearts_broken"] = s.broken or not rules.locks_hearts
    kitty = s.kitty_seen[seat] if rules.kitty_seen else None
    fields["kitty"] = tuple(map(_card, kitty)) if kitty else None
    if rules.stock != StockDraw.NONE:  # the stock is held in the kitty's place; only its size is public
        fields["stock_size"] = len(s.kitty)
        fields["draws"] = tuple([(trick, who, len(cards)) for trick, who, cards in s.draws])
        fields["drawn"] = tuple([_card(c) for _, who, cards in s.draws if who == seat for c in cards])
