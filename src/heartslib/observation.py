"""Observations: frozen values holding only what one seat may know.

An :class:`Observation` is built fresh from the state; it is never a view
on the truth, so an agent holding one cannot see other hands or the RNG.
"""

from __future__ import annotations

import attrs

from heartslib.cards import Card, Suit
from heartslib.enums import Decision, PassDirection, Phase
from heartslib.points import Score

__all__ = ["Observation", "Trick"]


@attrs.frozen
class Trick:
    """A completed trick as everyone saw it.

    ``winner`` is None when the trick was cancelled and its cards rolled
    over to the next trick's winner (cancellation hearts).
    """

    number: int
    """0 for the first trick of the round (cancelled tricks count too)."""
    leader: int
    """The seat that led it."""
    plays: tuple[tuple[int, Card], ...]
    """``(seat, card)`` in the order played (more than one round of plays with booster nines)."""
    winner: int | None
    """The seat that won it; None when it was cancelled and rolled over."""
    led_suit: Suit | None
    """The suit to follow (None when only valueless jokers were played)."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards played to the trick, in order."""
        return tuple(card for _, card in self.plays)


@attrs.frozen
class Observation:
    """What ``seat`` may know at this moment.

    Public facts (the tricks played, who won them, hand sizes, scores) and
    this seat's private ones (its hand, what it passed and received, kitty
    cards it was allowed to see). Nothing about other seats' hidden cards.
    """

    seat: int
    """The seat this observation belongs to."""
    players: int
    """Number of players at the table."""
    phase: Phase
    """What the round waits for."""
    to_act: tuple[int, ...]
    """Seats that must act now (public: you see who has not passed yet)."""
    hand_number: int
    """0 for the first hand of the match."""
    dealer: int
    """This hand's dealer."""
    hand: tuple[Card, ...]
    """This seat's cards, sorted."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    passing: PassDirection
    """This hand's pass direction (``HOLD`` when nobody passes)."""
    pass_count: int
    """Cards each player passes this hand (0 when holding)."""
    passed: tuple[Card, ...] | None
    """What this seat passed, once it has chosen (None before, and when holding)."""
    received: tuple[Card, ...] | None
    """What this seat received, once the exchange has happened (None before)."""
    leader: int | None
    """Who leads (or led) the current trick; None before play starts."""
    trick: tuple[tuple[int, Card], ...]
    """The current trick's plays so far."""
    led_suit: Suit | None
    """The suit to follow in the current trick, once known."""
    tricks: tuple[Trick, ...]
    """The completed tricks, as everyone saw them."""
    tricks_won: tuple[int, ...]
    """Tricks won per seat."""
    hearts_broken: bool
    """Whether hearts may be led (always True when the variant never locks them)."""
    kitty_size: int
    """How many cards the deal left in the kitty."""
    kitty: tuple[Card, ...] | None
    """Kitty cards this seat took and may look at (``deck.kitty_seen_by_winner``); None otherwise."""
    scores: tuple[Score, ...]
    """Match totals before this hand."""
    round_points: tuple[Score, ...] | None
    """The hand's points once it is scored; None before."""
    options: tuple[str, ...]
    """The options of a decision this seat must make now (``Choose``); empty otherwise."""
    decision: Decision | None
    """What the pending decision is about (:class:`~heartslib.Decision`: pass, moon, suit or expose; public)."""
    exposed: tuple[Card, ...] = ()
    """Cards exposed ("sold") this hand, public once made (``scoring.exposable``, Gong Zhu)."""

    @property
    def my_turn(self) -> bool:
        """Whether this seat must act now."""
        return self.seat in self.to_act

    @property
    def cards_played(self) -> tuple[Card, ...]:
        """Every card seen played this round, completed tricks then the current one."""
        out = [card for trick in self.tricks for _, card in trick.plays]
        out += [card for _, card in self.trick]
        return tuple(out)
