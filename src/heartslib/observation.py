"""Observations: frozen values holding only what one seat may know.

An :class:`Observation` is built fresh from the state; it is never a view
on the truth, so an agent holding one cannot see other hands or the RNG.
"""

from __future__ import annotations

import attrs

from heartslib.cards import Card, Suit
from heartslib.enums import PassDirection, Phase
from heartslib.score import Score

__all__ = ["Observation", "Trick"]


@attrs.frozen
class Trick:
    """A completed trick as everyone saw it.

    ``winner`` is None when the trick was cancelled and its cards rolled
    over to the next trick's winner (cancellation hearts).
    """

    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None
    led_suit: Suit | None

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
    players: int
    phase: Phase
    to_act: tuple[int, ...]
    hand_number: int
    dealer: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    passing: PassDirection
    pass_count: int
    passed: tuple[Card, ...] | None
    received: tuple[Card, ...] | None
    leader: int | None
    trick: tuple[tuple[int, Card], ...]
    led_suit: Suit | None
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    hearts_broken: bool
    kitty_size: int
    kitty: tuple[Card, ...] | None
    scores: tuple[Score, ...]
    round_points: tuple[Score, ...] | None
    options: tuple[str, ...]
    decision: str | None

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
