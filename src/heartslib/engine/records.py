"""Public records from the state's compact ones: completed tricks as :class:`~heartslib.Trick` values and
the event log as :class:`~heartslib.Event` values.

The engine records a play as an int and a completed trick as a tuple (see
:data:`heartslib.engine.state.RawTrick`), which is what its hot loops can
afford; programs get frozen values. Both logs only grow, so each value is
built once and kept (:attr:`RoundState.trick_values`,
:attr:`RoundState.event_values`): an observation late in a hand costs what
one early in it does.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

from heartslib.actions import Event, TrickWon
from heartslib.engine.rules import Rules
from heartslib.engine.state import RawTrick, RawTrickWon, RoundState
from heartslib.engine.tables import CARD, NO_SUIT, PLAY_CODE, PLAYS, SUIT_OF
from heartslib.observation import Trick
from heartslib.scoring import exposure_doubles, trick_points

__all__ = ["event_value", "event_values", "trick_value", "trick_values"]


def trick_value(raw: RawTrick) -> Trick:
    """A completed trick as a :class:`~heartslib.Trick`."""
    number, leader, seats, cards, winner, led = raw
    return Trick(
        number=number,
        leader=leader,
        plays=tuple((s, CARD[c]) for s, c in zip(seats, cards, strict=True)),
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
        raw, taken = item[0], item[1]
        dead = item[2] if len(item) == 3 else 0  # jokers taken on it that score only on a hearts lead
        trick = trick_value(raw)
        return TrickWon(trick.number, trick.leader, trick.plays, trick.winner, tuple(CARD[c] for c in taken),
                        trick_points(rules, taken, dead, doubled))
    return item


def trick_values(s: RoundState) -> list[Trick]:
    """The completed tricks as values, each built once (the list is the state's own: do not change it)."""
    cache = s.trick_values
    if cache is None:
        cache = s.trick_values = []
    raw = s.tricks
    if len(cache) < len(raw):
        cache.extend(trick_value(t) for t in raw[len(cache):])
    return cache


def event_values(s: RoundState) -> list[Event]:
    """The log as events, each built once (the list is the state's own: do not change it)."""
    cache = s.event_values
    if cache is None:
        cache = s.event_values = []
    log = s.events
    if len(cache) < len(log):
        rules, doubled = s.rules, exposure_doubles(s.rules, s.exposed)
        cache.extend(event_value(item, rules, doubled) for item in log[len(cache):])
    return cache
