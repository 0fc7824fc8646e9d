"""Observations: frozen values holding only what one seat may know.

An :class:`Observation` is built fresh from the state; it is never a view
on the truth, so an agent holding one cannot see other hands or the RNG.
"""

from __future__ import annotations

from typing import Any

import attrs

from heartslib.cards import Card, Suit
from heartslib.enums import Decision, PassDirection, Phase, pass_name
from heartslib.points import Score, score_text
from heartslib.serialize import observation_data

__all__ = ["Auction", "Observation", "Trick", "make_observation"]


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


# Not slotted: attrs then fills a frozen instance's __dict__ instead of calling object.__setattr__ once
# per field, and make_observation can hand over a whole dict; agents build one per decision.
@attrs.frozen
class Auction:
    """An auction's public state in one hand (``scoring.settlement = "auction"``; :attr:`heartslib.Round.auction`)."""

    chips: tuple[int, ...]
    """Each seat's chips before the hand, which bound its bid."""
    bids: tuple[tuple[int, int], ...]
    """The bids as they were made: ``(seat, chips)``, 0 for a pass."""
    bidder: int | None
    """The auction's winner, who names the penalty suit and leads (after a deal nobody won, the last auction's
    winner, named at the deal); None until every seat has bid."""
    bid: int
    """What the winner bid and pays into the pot: 0 until every seat has bid, and when it names without bidding."""
    penalty_suit: Suit | None
    """The suit named (its cards the hand's penalty cards, 1 each); None until it is named."""


@attrs.frozen(slots=False)
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
    """Whether hearts (in an auction, the named suit) may be led (always True when the variant never locks them)."""
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
    """What the pending decision is about (:class:`~heartslib.Decision`: pass, moon, suit, expose, or an auction's
    bid or name; public)."""
    exposed: tuple[Card, ...] = ()
    """Cards exposed ("sold") this hand, public once made (``scoring.exposable``, Gong Zhu)."""
    exposed_by: tuple[int, ...] = ()
    """The seat that exposed each card of :attr:`exposed`, in the same order (exposing is done face up)."""
    stock_size: int = 0
    """How many cards are left in the stock (``deck.stock``; 0 without one). Its cards, and the cards other
    players drew from it, are hidden: draws are face down."""
    draws: tuple[tuple[int, int, int], ...] = ()
    """Every draw from the stock so far, in order, as everyone saw it: ``(trick, seat, count)``, the trick the
    draw came after (``deck.stock = "after_trick"``) or in, before the seat's play (``"to_follow"``)."""
    drawn: tuple[Card, ...] = ()
    """The cards this seat drew from the stock, in the order drawn (:attr:`draws` says when)."""
    chips: tuple[int, ...] = ()
    """Each seat's chips before the hand, in an auction (``scoring.settlement = "auction"``; public); empty
    otherwise."""
    bids: tuple[tuple[int, int], ...] = ()
    """An auction's bids as they were made, public: ``(seat, chips)``, 0 for a pass."""
    bidder: int | None = None
    """The auction's winner, who names the penalty suit and leads (after a deal nobody won, the last auction's
    winner, who names without bidding); None before it is known and outside an auction."""
    penalty_suit: Suit | None = None
    """The suit the auction's winner named: its cards are this hand's penalty cards, 1 each, and the breaking and
    first-trick rules read it as hearts; None before it is named and outside an auction."""

    @property
    def variant(self) -> Any:
        """The :class:`~heartslib.Variant` whose round made this observation (:meth:`heartslib.Round.observation`,
        :meth:`heartslib.Match.observation`), so that readers of its history need not be told the rules again
        (:func:`heartslib.inference.sample_round`, ``known_voids``, an agent that was never set up); None for an
        observation built from its fields or from data (``Observation(...)``, ``attrs.evolve``). Not a field: it
        takes no part in equality, ``to_dict()`` or what a seat is sent, and two observations of equal fields
        under different rules compare equal."""
        return self.__dict__.get("_variant")

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

    def to_dict(self) -> dict[str, Any]:
        """The observation as plain data a UI can send as JSON (cards as ``"QS"``, enums as their values,
        ``None`` as ``null``; see :func:`heartslib.serialize.observation_data`)."""
        return observation_data(self)

    def text(self) -> str:
        """The observation in a few readable lines (what ``str()`` gives).

        >>> import heartslib as hl
        >>> print(hl.Round.deal(hl.preset("standard"), seed=1).observation(0))
        seat 0 of 4 · hand 1, dealer seat 0 · pass · to act: 0, 1, 2, 3
        hand: 5♣ 6♣ 8♣ 10♣ Q♣ 2♦ 9♦ J♦ Q♦ 6♥ 3♠ Q♠ A♠
        pass 3 card(s) left
        scores: 0 0 0 0
        """
        def cards(cs: tuple[Card, ...]) -> str:
            return " ".join(map(str, cs)) or "-"

        acting = ", ".join(map(str, self.to_act)) or "nobody"
        lines = [f"seat {self.seat} of {self.players} · hand {self.hand_number + 1}, dealer seat {self.dealer} · "
                 f"{self.phase.value} · to act: {acting}", f"hand: {cards(self.hand)}"]
        if self.pass_count:
            lines.append(f"pass {self.pass_count} card(s) {pass_name(self.passing, self.players, words=True)}"
                         + (f"; passed {cards(self.passed)}" if self.passed is not None else "")
                         + (f"; received {cards(self.received)}" if self.received is not None else ""))
        if self.kitty is not None:
            lines.append(f"kitty seen: {cards(self.kitty)}")
        if self.stock_size:
            lines.append(f"stock: {self.stock_size} card(s)")
        if self.chips:
            bids = ", ".join(f"seat {seat} {amount or 'pass'}" for seat, amount in self.bids) or "none yet"
            named = f" · {self.penalty_suit.name.lower()} named by seat {self.bidder}" if self.penalty_suit else ""
            lines.append("chips: " + " ".join(map(str, self.chips)) + f" · bids: {bids}{named}")
        if self.exposed:
            lines.append("exposed: " + ", ".join(f"seat {seat} {card}"
                                                 for seat, card in zip(self.exposed_by, self.exposed, strict=True)))
        if self.tricks or self.trick:
            on_table = ", ".join(f"seat {seat} {card}" for seat, card in self.trick) or "nothing yet"
            led = f", {self.led_suit} led" if self.led_suit is not None else ""
            lines.append(f"trick {len(self.tricks) + 1}{led}: {on_table} · tricks won: "
                         + " ".join(map(str, self.tricks_won))
                         + (" · hearts broken" if self.hearts_broken else ""))
        points = "" if self.round_points is None else " · this hand: " + " ".join(map(score_text, self.round_points))
        lines.append("scores: " + " ".join(map(score_text, self.scores)) + points)
        if self.options:
            lines.append(f"choose ({self.decision}): " + ", ".join(self.options))
        return "\n".join(lines)

    __str__ = text


_new = object.__new__
_set = object.__setattr__


def make_observation(fields: dict[str, Any]) -> Observation:
    """An :class:`Observation` from a dict holding every field by name (the engine's constructor), and
    ``_variant``, the rules :attr:`Observation.variant` reads.

    The same value ``Observation(**fields)`` gives (but for ``_variant``), for
    a third of the cost: the dict becomes the instance's own. ``Observation``
    has no defaults the engine leaves out, validators or converters to run,
    and a test checks that the engine's dict names exactly its fields and
    ``_variant``.
    """
    obs: Observation = _new(Observation)
    _set(obs, "__dict__", fields)
    return obs
