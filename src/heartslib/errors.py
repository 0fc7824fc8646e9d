"""The exceptions heartslib raises for bad input.

All of them are :class:`ValueError` subclasses (``UnknownVariant`` is a
:class:`KeyError`), so callers that only want "bad input" can catch
``ValueError``; programs that branch on the reason use the attributes.
Each keeps its type, attributes and message through pickle and
:func:`copy.deepcopy`, so one raised in a worker process reaches the caller.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

__all__ = ["CardError", "IllegalAction", "SaveError", "UnknownVariant", "VariantError", "arg_text", "value_text"]


def _restored(cls: type[BaseException], args: tuple[Any, ...], attributes: dict[str, Any]) -> BaseException:
    """An exception of ``cls`` with these ``args`` and attributes, made without calling its ``__init__``: how
    :class:`_Restorable` exceptions come back from pickle and :func:`copy.deepcopy`."""
    exc = cls.__new__(cls, *args)
    exc.args = args  # a subclass's __new__ may not pass them on
    exc.__dict__.update(attributes)
    return exc


class _Restorable(Exception):
    """The exceptions' common base: they keep their attributes through pickle and :func:`copy.deepcopy`.

    ``BaseException.__reduce__`` gives back only ``args`` (the message) to ``__init__``, which here takes
    other arguments (a code, a path), so loading would fail; a process pool pickles a worker's exception to
    the parent, where it would surface as ``BrokenProcessPool``. Rebuilding from ``args`` and the attributes
    keeps the type, every attribute (``code``, ``path``, ``problems``, ...) and the message (``str()``).
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restored, (type(self), self.args, dict(self.__dict__)))


class CardError(_Restorable, ValueError):
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


class VariantError(_Restorable, ValueError):
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


class IllegalAction(_Restorable, ValueError):
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


class UnknownVariant(_Restorable, KeyError):
    """A preset name that does not exist; the message lists close names."""

    def __init__(self, name: str, close: tuple[str, ...], available: tuple[str, ...]) -> None:
        self.name = name
        self.close = close
        self.available = available
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        super().__init__(f"no preset named {name!r}{hint} (presets: {', '.join(available)})")

    def __str__(self) -> str:
        return str(self.args[0])


class SaveError(_Restorable, ValueError):
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
        return _size_text(value)
    text = repr(value)
    return text if len(text) <= 60 else text[:40] + "..."


def _size_text(value: int) -> str:
    """A huge whole number named by its size, not quoted."""
    return f"a whole number of about {int(value.bit_length() * math.log10(2)) + 1} digits"


def value_text(value: object) -> str:
    """How an error message quotes a value that may have come from a rules file or a save: in TOML notation,
    which JSON shares for everything but tables, short (a long value is cut, a huge number named by its size).

    ``true``/``false``, numbers, text as a TOML literal string (``'left'``, the same as Python's repr) or a
    basic string when it holds a quote or a character that is not printable (``"it's"``, ``"a\\nb"``), arrays
    ``[1, 2]`` (a tuple too), tables ``{ QS = 13 }`` and dates ``1979-05-27``; ``null`` for a missing value
    (JSON's ``null``, Python's ``None``); anything else (a :class:`~heartslib.Card`, an enum member) as its
    Python repr.
    The messages of the Python API use the same notation, so one message reads the same however the value
    was given.

    >>> print(value_text(True), value_text("new moon"), value_text(["left", None]), value_text({"QS": 13, "JD": -10}))
    true 'new moon' ['left', null] { QS = 13, JD = -10 }
    """
    text = _data_text(value)
    return text if len(text) <= 60 else text[:40] + f"... ({len(text)} characters)"


def _data_text(value: object, depth: int = 0) -> str:
    if depth > 20:  # deeper data is cut, not followed to Python's recursion limit
        return "..."
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        if value.bit_length() > 200:  # repr() refuses more than 4,300 digits
            return _size_text(value)
        return str(value)
    if type(value) is str:
        if value.isprintable() and "'" not in value:
            return f"'{value}'"
        return _basic_string(value)
    if isinstance(value, datetime.date | datetime.time):  # TOML's dates and times
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_data_text(v, depth + 1) for v in value[:20]) + (", ...]" if len(value) > 20 else "]")
    if type(value) is dict:
        items = list(value.items())
        inner = ", ".join(f"{_key_text(k)} = {_data_text(v, depth + 1)}" for k, v in items[:20])
        return "{ " + inner + (", ..." if len(items) > 20 else "") + " }" if items else "{}"
    return repr(value)


def _key_text(key: object) -> str:
    """A table key: bare when TOML allows it, quoted otherwise."""
    if isinstance(key, str) and key and all(ch.isascii() and (ch.isalnum() or ch in "_-") for ch in key):
        return key
    return _data_text(key) if not isinstance(key, str) else _basic_string(key)


def _basic_string(text: str) -> str:
    """``text`` as a TOML basic string: ``"..."`` with backslash escapes for quotes and unprintable characters."""
    out = []
    for ch in text:
        if ch in "\\\"":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch.isprintable():
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
    return '"' + "".join(out) + '"'
