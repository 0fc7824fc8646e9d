"""Actions (what players do) and events (what the engine does by itself).

Actions are the only things a caller applies: :class:`Pass`, :class:`Play`
and :class:`Choose`. They are small frozen values with a text form that
round-trips and a ``repr`` that is valid Python.

>>> import heartslib as hl
>>> a = hl.Play(0, hl.Card("QS"))
>>> a, str(a), hl.action_from_text(str(a)) == a
(Play(seat=0, card=Card('QS')), '0:play QS', True)
>>> hl.Pass(1, hl.parse_cards("AS KS QS")).text()
'1:pass AS KS QS'
"""

from __future__ import annotations

from typing import Any

import attrs

from heartslib.cards import Card, parse_cards
from heartslib.enums import MoonScoring, Shot
from heartslib.errors import CardError, IllegalAction
from heartslib.points import Score
from heartslib.serialize import read_tagged, tagged_data

__all__ = [
    "Action",
    "Choose",
    "Event",
    "KittyTaken",
    "MoonShot",
    "Pass",
    "PassesExchanged",
    "Play",
    "RoundScored",
    "TrickWon",
    "action_from_dict",
    "action_from_text",
]


def _seat(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise IllegalAction("no_such_seat", f"a seat is a whole number >= 0, not {value!r}")
    return int(value)  # a plain int (an IntEnum seat too), as saves write it


def _option(_inst: object, _attr: object, value: Any) -> None:
    if not isinstance(value, str):
        raise IllegalAction("choice_not_offered", f"{value!r} is not an option: options are text, e.g. 'new'")


def _card(value: Any) -> Card:
    return Card.parse(value)


def _cards(value: Any) -> tuple[Card, ...]:
    return parse_cards(value)


_new = object.__new__
_set = object.__setattr__


def make_pass(seat: int, cards: tuple[Card, ...]) -> Pass:
    """``Pass(seat, cards)`` for a seat number and a tuple of :class:`~heartslib.Card` values the caller
    vouches for (the engine's and the built-in agents' constructor, from a seat and cards they know).

    The same value for a tenth of the cost: it skips the converters, which
    parse every card again. A test holds it equal to the constructor's.
    """
    action: Pass = _new(Pass)
    _set(action, "seat", seat)
    _set(action, "cards", cards)
    return action


def make_choose(seat: int, option: str) -> Choose:
    """``Choose(seat, option)`` for a seat number and an option the engine offers (its decisions' own
    options: ``legal_actions`` and the random playout), without running the converter and validator.

    A test holds it equal to the constructor's.
    """
    action: Choose = _new(Choose)
    _set(action, "seat", seat)
    _set(action, "option", option)
    return action


@attrs.frozen(repr=False)
class Pass:
    """``seat`` passes ``cards``. Order matters only for scatter and star passes,
    where ``cards[i]`` goes to the (i+1)-th opponent in the direction of play
    (scatter) or to the 2nd and 3rd player on (star). Two passes are equal when
    their cards are in the same order, and ``legal_actions`` lists each pass in
    hand order: to check a pass built in another order (the order a player
    clicked), ask ``is_legal``, not ``in legal_actions(seat)``."""

    seat: int = attrs.field(converter=_seat)
    cards: tuple[Card, ...] = attrs.field(converter=_cards, metadata={"data": "cards"})

    def text(self) -> str:
        """``"0:pass AS KS QS"``."""
        return f"{self.seat}:pass " + " ".join(c.code for c in self.cards)

    __str__ = text

    def __repr__(self) -> str:
        return f"Pass(seat={self.seat}, cards=parse_cards({' '.join(c.code for c in self.cards)!r}))"

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "pass", "seat": 0, "cards": ["AS", ...]}``."""
        return tagged_data("pass", self)


@attrs.frozen(repr=False)
class Play:
    """``seat`` plays ``card`` to the current trick."""

    seat: int = attrs.field(converter=_seat)
    card: Card = attrs.field(converter=_card, metadata={"data": "card"})

    def text(self) -> str:
        """``"0:play QS"``."""
        return f"{self.seat}:play {self.card.code}"

    __str__ = text

    def __repr__(self) -> str:
        return f"Play(seat={self.seat}, card={self.card!r})"

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "play", "seat": 0, "card": "QS"}``."""
        return tagged_data("play", self)


@attrs.frozen(repr=False)
class Choose:
    """``seat`` makes a decision: ``option`` is one of the strings the state offers
    (``"old"``/``"new"`` for the moon choice, ``"3 left"`` for dealer's choice,
    ``"hearts"`` for a called suit)."""

    seat: int = attrs.field(converter=_seat)
    option: str = attrs.field(validator=_option)

    def text(self) -> str:
        """``"0:choose new"``."""
        return f"{self.seat}:choose {self.option}"

    __str__ = text

    def __repr__(self) -> str:
        return f"Choose(seat={self.seat}, option={self.option!r})"

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "choose", "seat": 0, "option": "new"}``."""
        return tagged_data("choose", self)


Action = Pass | Play | Choose


def action_from_text(text: str) -> Action:
    """Parse the text form of an action (``"2:play QS"``, ``"0:pass AS KS QS"``, ``"1:choose new"``).

    Anything else raises :class:`~heartslib.IllegalAction` (``not_an_action``; a
    :class:`~heartslib.CardError` for a bad card), a ``ValueError``.

    >>> action_from_text("play QS")
    Traceback (most recent call last):
    ...
    heartslib.errors.IllegalAction: 'play QS' is not an action: write '<seat>:play QS', ...
    """
    if not isinstance(text, str):
        raise IllegalAction("not_an_action", f"the text of an action is a str such as '2:play QS', "
                            f"not {text!r:.60}")
    seat_text, sep, rest = text.strip().partition(":")
    kind, _, arg = rest.strip().partition(" ")
    if not sep or not seat_text.strip().isdigit() or kind not in ("pass", "play", "choose"):
        raise IllegalAction("not_an_action", f"{text!r} is not an action: write '<seat>:play QS', "
                            "'<seat>:pass AS KS QS' or '<seat>:choose OPTION'")
    seat = int(seat_text)
    if kind == "play":
        return Play(seat, arg.strip())
    if kind == "pass":
        return Pass(seat, arg)
    return Choose(seat, arg.strip())


def action_from_dict(data: Any) -> Action:
    """Read an action written by ``to_dict``.

    Anything else raises :class:`~heartslib.IllegalAction` (``not_an_action``, as
    :func:`action_from_text`; a :class:`~heartslib.CardError` for bad card data), a ``ValueError``.

    >>> action_from_dict({"type": "play", "seat": 2, "card": "QS"})
    Play(seat=2, card=Card('QS'))
    >>> action_from_dict({"type": "bid", "seat": 2})
    Traceback (most recent call last):
    heartslib.errors.IllegalAction: unknown action type 'bid': use 'play', 'pass' or 'choose'
    """
    try:
        action: Action = read_tagged(data, _KINDS)
    except (CardError, IllegalAction):
        raise
    except ValueError as exc:
        raise IllegalAction("not_an_action", str(exc)) from None
    return action


_KINDS: dict[str, type[Action]] = {"play": Play, "pass": Pass, "choose": Choose}


# --------------------------------------------------------------------------- events


@attrs.frozen
class PassesExchanged:
    """Every seat has chosen; the passed cards changed hands (``received[seat]``)."""

    received: tuple[tuple[Card, ...], ...]


@attrs.frozen
class TrickWon:
    """A completed trick: ``winner`` is None when it was cancelled and rolled over.

    ``taken`` lists every card the winner collected with it: the trick, any
    rolled-over cards and kitty cards (those are hidden from observations).
    ``points`` is what those cards are worth to the winner, so a program can
    keep running totals without rescoring (see
    :func:`heartslib.scoring.trick_points`).
    """

    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None
    taken: tuple[Card, ...] = ()
    points: Score = 0
    """The card points of ``taken`` for the winner (a hearts-led joker on another trick counts nothing), before
    the hand's modifiers (multipliers, suit doublers, cancelling cards, the all-hearts flip) and the moon; 0 for
    a cancelled trick whose cards wait for the next winner (the last trick's roll-over goes to its leader)."""


@attrs.frozen
class KittyTaken:
    """``seat`` took ``cards`` from the kitty."""

    seat: int
    cards: tuple[Card, ...]


@attrs.frozen
class MoonShot:
    """``seat`` took every penalty card (``kind="moon"``) or every trick (``kind="sun"``);
    ``outcome`` is the scoring applied (``"old"``, ``"new"``, ...)."""

    seat: int
    kind: Shot
    outcome: MoonScoring


@attrs.frozen
class RoundScored:
    """The round's points per seat, after the moon and sun rules."""

    points: tuple[Score, ...]


Event = Pass | Play | Choose | PassesExchanged | TrickWon | KittyTaken | MoonShot | RoundScored
