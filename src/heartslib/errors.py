"""The exceptions heartslib raises for bad input.

All of them are :class:`ValueError` subclasses (``UnknownVariant`` is a
:class:`KeyError`), so callers that only want "bad input" can catch
``ValueError``; programs that branch on the reason use the attributes.
"""

from __future__ import annotations

import math

__all__ = ["CardError", "IllegalAction", "SaveError", "UnknownVariant", "VariantError", "arg_text"]


class CardError(ValueError):
    """Card text that does not name a card.

    >>> import heartslib as hl
    >>> hl.Card.parse("ZZ")
    Traceback (most recent call last):
    ...
    heartslib.errors.CardError: 'ZZ' is not a card: ...
    """

    def __init__(self, message: str, *, token: str = "") -> None:
        super().__init__(message)
        self.token = token


class VariantError(ValueError):
    """A variant that cannot be played; ``path`` names the offending field.

    ``path`` is dotted (``"deck.decks"``); ``problems`` lists every
    ``(path, message)`` found when several fields are wrong at once.

    >>> import heartslib as hl
    >>> try:
    ...     hl.Variant(players=11)
    ... except hl.VariantError as exc:
    ...     print(exc.problems[0][0])
    deck.decks
    """

    def __init__(self, path: str, message: str, *, problems: tuple[tuple[str, str], ...] = ()) -> None:
        self.path = path
        self.reason = message
        self.problems = problems or ((path, message),)
        if len(self.problems) == 1:
            text = f"{path}: {message}" if path else message
        else:
            text = "; ".join(f"{p}: {m}" if p else m for p, m in self.problems)
        super().__init__(text)


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the state is left unchanged.

    ``code`` is a stable identifier (``"must_follow_suit"``,
    ``"hearts_not_broken"``, ``"no_points_on_first_trick"``, ...) for programs;
    the message explains it in English and quotes the action.

    >>> import heartslib as hl
    >>> m = hl.Match(hl.preset("standard"), seed=1)
    >>> try:
    ...     m.apply(hl.Play(0, "2C"))
    ... except hl.IllegalAction as exc:
    ...     print(exc.code)
    not_playing
    """

    def __init__(self, code: str, message: str, *, action: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.action = action


class UnknownVariant(KeyError):
    """A preset name that does not exist; the message lists close names."""

    def __init__(self, name: str, close: tuple[str, ...], available: tuple[str, ...]) -> None:
        self.name = name
        self.close = close
        self.available = available
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        super().__init__(f"no preset named {name!r}{hint} (presets: {', '.join(available)})")

    def __str__(self) -> str:
        return str(self.args[0])


class SaveError(ValueError):
    """A saved game that cannot be loaded: malformed, hand-edited or inconsistent.

    ``path`` locates the problem in the saved data (``"actions[57]"``); the
    original error, if any, is the ``__cause__``.
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


def arg_text(value: object) -> str:
    """``repr(value)``, short (a huge number is named by its size): how an error message quotes an argument."""
    if isinstance(value, int) and value.bit_length() > 200:
        return f"a whole number of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:40] + "..."
