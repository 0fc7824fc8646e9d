"""Checks of the arguments programs hand the engine (seats, seeds, random generators, scores, hand numbers).

Each raises :class:`~heartslib.IllegalAction` naming the argument and what is
allowed: ``no_such_seat`` for a seat, ``bad_argument`` for the rest. A seat is
an ``int`` (not a ``bool``, not ``3.0``); the limits are :data:`~heartslib.points.MAX_SEED`,
:data:`~heartslib.points.MAX_HAND_NUMBER` and :data:`~heartslib.points.MAX_SCORE` (in
:mod:`heartslib.points`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TypeGuard

from heartslib.actions import Choose, Pass, Play
from heartslib.cards import Card
from heartslib.errors import IllegalAction, arg_text
from heartslib.points import MAX_HAND_NUMBER, MAX_SCORE, MAX_SEED, Score

__all__ = [
    "MAX_HAND_NUMBER",
    "MAX_SEED",
    "action_problem",
    "check_hand_number",
    "check_rng",
    "check_scores",
    "check_seat",
    "check_seed",
]


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_seat(seat: object, n: int, what: str = "seat") -> None:
    """Raise :class:`~heartslib.IllegalAction` (``no_such_seat``) unless ``seat`` is a seat of ``n`` players."""
    # a plain int first (this runs on every call); a bool is not a seat, an int subclass is
    if (type(seat) is not int and not _whole(seat)) or not 0 <= seat < n:
        raise IllegalAction("no_such_seat", f"{what} {seat!r} does not exist; seats are the whole numbers 0-{n - 1}")


def check_seed(seed: object) -> int | None:
    """``seed`` if it is a whole number from 0 to :data:`MAX_SEED`, or None; ``IllegalAction`` otherwise."""
    if seed is None or (_whole(seed) and 0 <= seed <= MAX_SEED):
        return seed
    raise IllegalAction("bad_argument",
                        f"a seed is a whole number from 0 to 2**64 - 1 (or None), not {arg_text(seed)}")


def check_rng(rng: object, what: str = "rng", *, optional: bool = True) -> random.Random | None:
    """``rng`` if it is a :class:`random.Random` (a subclass too), or None when ``optional``; ``IllegalAction``
    otherwise. (Not in the playouts' hot paths: ``Round.random_playout`` and ``rollout_points`` take it as given.)"""
    if isinstance(rng, random.Random) or (rng is None and optional):
        return rng
    allowed = "a random.Random (or None)" if optional else "a random.Random, e.g. random.Random(seed)"
    raise IllegalAction("bad_argument", f"{what} must be {allowed}, not {arg_text(rng)}")


def check_scores(scores: Sequence[Score] | None, n: int) -> tuple[Score, ...]:
    """Match totals for ``n`` seats (zeros when None); ``IllegalAction`` unless they are ``n`` scores, whole
    numbers or complex ones with whole parts, each part at most :data:`~heartslib.points.MAX_SCORE`."""
    if scores is None:
        return (0,) * n
    try:
        items = tuple(scores)
    except TypeError:
        items = ()
    if len(items) != n or not all(_score_ok(s) for s in items):
        raise IllegalAction("bad_argument", f"scores must be {n} whole numbers (complex ones with whole parts), "
                            f"each part at most {MAX_SCORE}, got {arg_text(scores)}")
    return items


def _score_ok(s: object) -> bool:
    if _whole(s):
        return abs(s) <= MAX_SCORE
    if isinstance(s, complex):
        return all(math.isfinite(x) and x == int(x) and abs(x) <= MAX_SCORE for x in (s.real, s.imag))
    return False


def check_hand_number(hand_number: object) -> int:
    """``hand_number`` if it is a whole number from 0 to :data:`MAX_HAND_NUMBER`; ``IllegalAction`` otherwise."""
    if not _whole(hand_number) or not 0 <= hand_number <= MAX_HAND_NUMBER:
        raise IllegalAction("bad_argument", f"hand_number must be a whole number from 0 to {MAX_HAND_NUMBER}, "
                            f"not {arg_text(hand_number)}")
    return hand_number


def action_problem(action: object, n: int) -> tuple[str, str] | None:
    """Why ``action`` is not a well-formed action for ``n`` players, as ``(code, message)``; None when it is.

    The constructors check their fields; this catches an action built around them (``object.__new__``, a
    subclass), before the engine reads it: a seat that is an ``int`` seat number, a card that is a
    :class:`~heartslib.Card`, a tuple of cards for a pass, text for a decision.
    """
    if not isinstance(action, Pass | Play | Choose):
        return ("not_an_action", f"{arg_text(action)} is not an action (Pass, Play or Choose)")
    seat = getattr(action, "seat", None)
    if not _whole(seat) or not 0 <= seat < n:
        return ("no_such_seat", f"{type(action).__name__} by seat {arg_text(seat)}: seats are the whole numbers "
                f"0-{n - 1}")
    if isinstance(action, Play) and type(getattr(action, "card", None)) is not Card:
        return ("not_an_action", f"a play of {arg_text(getattr(action, 'card', None))}: a Play's card is a Card")
    if isinstance(action, Pass):
        cards = getattr(action, "cards", None)
        if type(cards) is not tuple or not all(type(c) is Card for c in cards):
            return ("not_an_action", f"a pass of {arg_text(cards)}: a Pass's cards are a tuple of Cards")
    if isinstance(action, Choose) and not isinstance(getattr(action, "option", None), str):
        return ("not_an_action", f"a choice of {arg_text(getattr(action, 'option', None))}: an option is text")
    return None
