"""Checks of the arguments programs hand the engine (seats, seeds, scores, hand numbers).

Each raises the documented error naming the argument and what is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence

from heartslib.errors import IllegalAction
from heartslib.points import Score

__all__ = ["check_hand_number", "check_scores", "check_seat", "check_seed"]


def check_seat(seat: object, n: int, what: str = "seat") -> None:
    """Raise :class:`~heartslib.IllegalAction` (``no_such_seat``) unless ``seat`` is a seat of ``n`` players."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise IllegalAction("no_such_seat", f"{what} {seat!r} does not exist; seats are 0-{n - 1}")


def check_seed(seed: object) -> int | None:
    """``seed`` if it is a whole number or None; ``ValueError`` otherwise."""
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        return seed
    raise ValueError(f"a seed is a whole number (or None), not {seed!r}")


def check_scores(scores: Sequence[Score] | None, n: int) -> tuple[Score, ...]:
    """Match totals for ``n`` seats (zeros when None); ``ValueError`` unless they are ``n`` scores."""
    if scores is None:
        return (0,) * n
    if len(scores) != n or not all(isinstance(s, int | complex) and not isinstance(s, bool) for s in scores):
        raise ValueError(f"scores must be {n} whole numbers, got {scores!r}")
    return tuple(scores)


def check_hand_number(hand_number: object) -> int:
    """``hand_number`` if it is a whole number >= 0; ``ValueError`` otherwise."""
    if not isinstance(hand_number, int) or isinstance(hand_number, bool) or hand_number < 0:
        raise ValueError(f"hand_number must be a whole number >= 0, not {hand_number!r}")
    return hand_number
