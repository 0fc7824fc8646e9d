"""Serialization at the edge: every text and plain-data form heartslib reads or writes, in one module.

heartslib's values are Python objects (cards, enums, frozen attrs records,
exact complex scores); files and programs exchange plain data (JSON, TOML).
This module is the only place that knows the plain forms and checks them on
the way in:

* **scores**: :func:`parse_score` / :func:`score_data` (``13``, ``"13i"``,
  ``"-26+10i"``: exact, never floats);
* **field values**: :func:`plain` (enums as their values, cards as ``"QS"``,
  card tables as ``{"QS": 13}``, complex scores as text);
* **records** (the variant and its six sections): :func:`record_data` writes
  every field; :func:`read_section` and :func:`read_variant` read them back,
  rejecting unknown keys (TOML typos) and reporting every bad field at once
  with its path;
* **TOML**: :func:`read_toml` (text or a ``.toml`` path) and
  :func:`toml_text` (a writer for the variant schema: the standard library
  only reads TOML);
* **pass directions**: :func:`direction_data` / :func:`read_direction`;
* **actions**: :func:`tagged_data` / :func:`read_tagged` (an explicit
  ``"type"`` tag, exact keys);
* **observations**: :func:`observation_data` (plain data a UI can send as JSON);
* **saves**: the match save's envelope, :func:`save_data` / :func:`read_save`
  (format, version, keys, numbers in range, the set deal, the digest,
  :func:`save_digest`); replaying the actions is the match's own job
  (:meth:`heartslib.Match.from_dict`).

The model classes keep their public methods (``Variant.to_toml``,
``Match.to_json``, ``Play.to_dict``, ...) as one-line calls into this module;
it sits below them (it imports only cards, enums, points and errors) and so
takes the class it is to build as an argument.

>>> parse_score("13i"), parse_score("-26+10i"), parse_score(-10), score_data(complex(-26, 10))
(13j, (-26+10j), -10, '-26+10i')
>>> direction_data(PassMode.HOLD), read_direction({"offset": -1})
('hold', Offset(k=-1))
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, cast

import attrs

from heartslib.cards import Card, Suit
from heartslib.enums import Offset, PassDirection, PassMode
from heartslib.errors import CardError, IllegalAction, SaveError, VariantError, arg_text, value_text
from heartslib.points import MAX_HAND_NUMBER, MAX_SCORE, MAX_SEED, Score, score_text

__all__ = [
    "MAX_INDENT",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SaveData",
    "SaveDeal",
    "direction_data",
    "json_text",
    "observation_data",
    "parse_score",
    "plain",
    "public_value",
    "read_direction",
    "read_json",
    "read_save",
    "read_section",
    "read_tagged",
    "read_toml",
    "read_variant",
    "record_data",
    "save_data",
    "save_digest",
    "score_data",
    "tagged_data",
    "toml_text",
    "unknown_fields",
]

#: The ``format`` of a match save, and the version this heartslib writes and reads.
SAVE_FORMAT = "heartslib-match"
SAVE_VERSION = 1
#: The ``format`` of a JSON game record (:mod:`heartslib.record`, which reads and writes them); a save loader
#: names it when given one.
RECORD_FORMAT = "heartslib-record"

#: What the field metadata key ``data`` says a field holds, for :func:`read_tagged`.
_TEXT_KINDS = ("card", "text")


# --------------------------------------------------------------------------- scores


def parse_score(value: Any, limit: int = MAX_SCORE) -> Score:
    """An int, or a complex number from text such as ``"13i"``, ``"2i"``, ``"-i"``, ``"3-4i"``.

    Each part must be at most ``limit`` in size (:data:`~heartslib.points.MAX_SCORE` unless a field
    sets a smaller bound). Text may have spaces around it and around a sign (``" 3 - 4i "``), never inside a
    number (``"1 2"`` and ``"1_2"`` are refused, not read as 12). Anything else (floats included: scores are
    exact) raises :class:`~heartslib.IllegalAction` (``bad_argument``); a variant's fields report it as a
    :class:`~heartslib.VariantError`, a save as a :class:`~heartslib.SaveError`.

    >>> parse_score("12345678901234567891i")
    Traceback (most recent call last):
    ...
    heartslib.errors.IllegalAction: '12345678901234567891i' is too large: each part of a score is at most ...
    """
    if type(limit) is not int or limit < 0:  # an int subclass (a bool) is not a limit
        raise IllegalAction("bad_argument", f"limit must be a whole number >= 0, not {arg_text(limit)}")
    if isinstance(value, bool):
        raise _not_a_score(f"{value_text(value)} is not a score (a whole number or text like '13i')")
    if isinstance(value, int):
        return _bounded(value, value, 0, limit)
    if isinstance(value, complex):
        if not (math.isfinite(value.real) and math.isfinite(value.imag)):
            raise _not_a_score(f"{value_text(value)} is not a score: its parts must be whole numbers")
        if abs(value.real) > limit or abs(value.imag) > limit:
            raise _not_a_score(f"{value_text(value)} is too large: each part of a score is at most {limit}")
        if value.real != int(value.real) or value.imag != int(value.imag):
            raise _not_a_score(f"{value_text(value)} has fractional parts; scores are whole numbers")
        return value if value.imag else int(value.real)
    if isinstance(value, str):
        text = value.strip().replace("j", "i")
        if len(text) <= 4 * _DIGITS:  # (bounded first: the pattern's work grows with the square of the spaces)
            # spaces only around the text and a sign: a space between digits would join two numbers into one
            text = _SPACED_SIGN.sub(r"\1", text)
        if len(text) <= 2 * _DIGITS:  # longer text is out of range (and int() refuses 4,300 digits)
            match = re.fullmatch(r"([+-]?[0-9]+)", text)
            if match:
                return _bounded(value, int(text), 0, limit)
            match = re.fullmatch(r"([+-]?[0-9]*)i", text)
            if match:
                im = _unit(match.group(1))
                return _bounded(value, 0, im, limit)
            match = re.fullmatch(r"([+-]?[0-9]+)([+-][0-9]*)i", text)
            if match:
                return _bounded(value, int(match.group(1)), _unit(match.group(2)), limit)
        elif re.fullmatch(r"[+-]?[0-9]+([+-][0-9]*)?i?", text):
            raise _not_a_score(f"{value_text(value)} is too large: each part of a score is at most {limit}")
    raise _not_a_score(f"{value_text(value)} is not a score: write a whole number or a complex one like '13i' "
                       "or '3-4i'")


#: Digits in the text of the largest allowed score, and some: longer text is not read as a number.
_DIGITS = 40
#: Spaces next to a sign, which :func:`parse_score` drops (``"3 - 4i"``); spaces anywhere else stay and refuse.
_SPACED_SIGN = re.compile(r"\s*([+-])\s*")


def _not_a_score(message: str) -> IllegalAction:
    """The error :func:`parse_score` raises: a bad argument, as for every public function's arguments."""
    return IllegalAction("bad_argument", message)


def _bounded(value: Any, re_part: int, im: int, limit: int) -> Score:
    if abs(re_part) > limit or abs(im) > limit:
        raise _not_a_score(f"{value_text(value)} is too large: each part of a score is at most {limit}")
    return complex(re_part, im) if im else re_part


def _unit(text: str) -> int:
    if text in ("", "+"):
        return 1
    if text == "-":
        return -1
    return int(text)


def score_data(value: Score) -> int | str:
    """A score as JSON/TOML data: an int, or exact text for a complex score."""
    if isinstance(value, complex):
        return score_text(value) if value.imag else int(value.real)
    return value


# --------------------------------------------------------------------------- field values and records


def plain(value: Any) -> Any:
    """A field value as plain data (str, int, bool, lists and dicts) that the field's converter reads back.

    >>> plain(PassMode.HOLD), plain(Card("QS")), plain((Card("2C"), Card("QS"))), plain(13j), plain(None)
    ('hold', 'QS', ['2C', 'QS'], '13i', '')
    """
    kind = type(value)  # an action's fields first, by exact type: the server writes a few for every action
    if kind is Card:
        return value.code
    if kind is int or kind is str or kind is bool:
        return value
    if isinstance(value, bool | int | str) and not hasattr(value, "value"):
        return value
    if hasattr(value, "value") and isinstance(value.value, str):
        return value.value
    if hasattr(value, "to_mapping"):  # card tables and strip tables
        return value.to_mapping()
    if attrs.has(type(value)):  # a section of a variant
        return record_data(value)
    if value is None:
        return ""
    if isinstance(value, complex):
        return score_data(value)
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, Card):
        return value.code
    raise TypeError(f"cannot serialise {value!r}")  # pragma: no cover - all field types handled above


def record_data(record: Any) -> dict[str, Any]:
    """Every init field of an attrs record as plain data, in declaration order (records within it too)."""
    return {f.name: plain(getattr(record, f.name)) for f in attrs.fields(type(record)) if f.init}


def _raise(problems: list[tuple[str, str]]) -> None:
    if problems:
        raise VariantError(problems[0][0], problems[0][1], problems=tuple(problems))


def _sorted_keys(keys: Iterable[Any]) -> list[Any]:
    """Unknown keys in a stable order, whatever their types (text, numbers, ... from any program's data)."""
    return sorted(keys, key=lambda k: (type(k).__name__, repr(k)))


def unknown_fields(keys: Iterable[Any], known: Iterable[str], section: str = "") -> list[tuple[str, str]]:
    """A ``(path, message)`` problem for each unknown key of a variant (``section`` "") or of one of its sections:
    the key's path, the closest field name when one is close, and every field the record has.

    >>> unknown_fields(["knd"], ["kind", "points", "requires"], "moon")
    [('moon.knd', 'unknown field; did you mean kind? moon has kind, points, requires')]
    """
    names = sorted(known)
    owner = section or "a variant"
    problems = []
    for key in _sorted_keys(keys):
        close = difflib.get_close_matches(key, names, n=1) if isinstance(key, str) else []
        hint = f"did you mean {close[0]}? " if close else ""
        path = f"{section}.{key}" if section else str(key)
        problems.append((path, f"unknown field; {hint}{owner} has {', '.join(names)}"))
    return problems


def read_section(cls: type[Any], name: str, data: Mapping[str, Any], base: Any = None) -> Any:
    """A variant section (``cls``, named ``name``) from plain data, or ``base`` with the listed fields changed.

    Unknown keys are rejected; every bad field is reported, each with its path.
    """
    known = {f.name for f in attrs.fields(cls)}
    problems = unknown_fields(set(data) - known, known, name)
    if not problems:
        try:
            return cls(**data) if base is None else attrs.evolve(base, **data)
        except VariantError:
            pass  # find every bad field below, not just the first
    for key, value in data.items():
        if key in known:
            try:
                cls(**{key: value})
            except VariantError as exc:
                problems.extend(exc.problems)
    _raise(problems)
    raise AssertionError("unreachable")  # pragma: no cover - _raise raised: some field failed above


def _check_alone(field: attrs.Attribute[Any], value: Any) -> None:
    """Raise the :class:`VariantError` of a field's own converter or validator for ``value``, if any."""
    if field.converter is not None:  # the variant's converters are plain functions of the value
        value = cast(Callable[[Any], Any], field.converter)(value)
    if field.validator is not None:
        field.validator(None, field, value)


def read_variant(cls: type[Any], sections: Mapping[str, type[Any]], data: Mapping[str, Any]) -> Any:
    """A variant (class ``cls``, whose table fields ``sections`` are records) from plain data.

    Unknown keys are rejected; every bad field is reported at once (the
    combinations of fields are judged only once every field is valid).
    """
    if not isinstance(data, Mapping):
        raise VariantError("", f"expected a table of variant fields, got {type(data).__name__}")
    known = {f.name for f in attrs.fields(cls) if f.init}
    problems = unknown_fields(set(data) - known, known)
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            continue
        try:
            if key in sections:
                if not isinstance(value, Mapping):
                    raise VariantError(key, f"expected a table of {key} rules, got {value_text(value)}")
                fields[key] = read_section(sections[key], key, value)
            else:
                fields[key] = value
        except VariantError as exc:
            problems.extend(exc.problems)
    if not problems:
        try:
            return cls(**fields)
        except VariantError as exc:
            problems.extend(exc.problems)
    # table-level fields checked one by one, each on its own value (its converter and validator): combinations
    # are judged only once every field is valid, not against defaults the data did not choose (2 players beside
    # a deck.stock that had another bad field were told that only a game with a stock is played by 2)
    attributes = attrs.fields_dict(cls)
    for key in fields:
        if key not in sections:
            try:
                _check_alone(attributes[key], fields[key])
            except VariantError as exc:
                problems.extend(p for p in exc.problems
                                if (p[0] == key or p[0].startswith((f"{key}.", f"{key}["))) and p not in problems)
    _raise(problems)
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------- TOML


def read_toml(text_or_path: str | Path) -> dict[str, Any]:
    """TOML text, or the contents of a ``.toml`` file given by path, as plain data.

    A string without a newline that ends in ``.toml`` (in any case) is taken as a path.
    A leading byte-order mark (U+FEFF, which Windows editors write at the start of a UTF-8 file) is ignored.
    Raises :class:`~heartslib.VariantError` when the file cannot be read or
    is not valid TOML.

    >>> read_toml('\\ufeffplayers = 5\\n')
    {'players': 5}
    """
    if isinstance(text_or_path, Path) or (
        isinstance(text_or_path, str) and "\n" not in text_or_path and text_or_path.lower().endswith(".toml")
    ):
        path = Path(text_or_path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise VariantError("", f"cannot read {value_text(str(path))}: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            # the byte-order mark of UTF-16, which some editors call "Unicode"
            utf16 = "; it looks like UTF-16: save it as UTF-8" if exc.object[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
            raise VariantError("", f"cannot read {value_text(str(path))}: it is not UTF-8 text ({exc.reason} at byte "
                               f"{exc.start}){utf16}") from None
    elif isinstance(text_or_path, str):
        text = text_or_path
    else:  # str() of anything would be read as TOML text and fail far from the mistake
        raise VariantError("", f"expected TOML text or the path of a .toml file, not {type(text_or_path).__name__}")
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        line = text.strip()
        hint = ("; a file name is read as a path only when it ends in .toml (or pass a pathlib.Path)"
                if line and "\n" not in line and "=" not in line and not line.startswith("[") else "")
        at = re.search(r"at line (\d+)", str(exc))
        lines = text.splitlines()
        bad = lines[int(at.group(1)) - 1] if at and 0 < int(at.group(1)) <= len(lines) else ""
        if not hint and any(symbol in bad for symbol in "♠♥♦♣"):
            hint = '; a card with a suit symbol as a table key needs quotes in TOML: { "Q♠" = 13 }'
        raise VariantError("", f"not valid TOML: {exc}{hint}") from None
    except RecursionError:
        raise VariantError("", "not valid TOML for a variant: arrays or tables nested too deeply") from None
    except ValueError:  # int() refuses an integer of more than 4,300 digits
        raise VariantError("", "not valid TOML for a variant: a number has more than 4,300 digits") from None


def _key_text(key: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise."""
    if key and all(ch.isalnum() or ch in "_-" for ch in key):
        return key
    return json.dumps(key, ensure_ascii=False)


def toml_value(value: Any) -> str:
    """A plain value (str, int, bool, list or mapping, as :func:`record_data` gives them) as TOML.

    >>> toml_value({"QS": 13, "JD": -10}), toml_value(["left", "hold"]), toml_value(True)
    ('{ QS = 13, JD = -10 }', '["left", "hold"]', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # JSON string escapes are valid TOML basic-string escapes; JSON leaves U+007F (DEL) raw, which TOML
        # refuses in a string, so it is escaped too
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007F")
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key_text(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def toml_text(data: Mapping[str, Any]) -> str:
    """Plain data as TOML: top-level scalars first, then one ``[table]`` per nested mapping (one level deep)."""
    lines: list[str] = []
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in data.items():
        if isinstance(value, Mapping) and value:
            tables.append((key, value))
        else:
            lines.append(f"{_key_text(key)} = {toml_value(value)}")
    for name, table in tables:
        lines.append("")
        lines.append(f"[{_key_text(name)}]")
        for key, value in table.items():
            lines.append(f"{_key_text(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- pass directions


def direction_data(d: PassDirection) -> Any:
    """A pass direction as data: ``{"offset": k}`` or the mode's value (``"hold"``, ``"shuffle"``, ...)."""
    return {"offset": d.k} if isinstance(d, Offset) else d.value


def read_direction(data: Any, path: str = "deal.passing") -> PassDirection:
    """A pass direction written by :func:`direction_data` (raises :class:`~heartslib.SaveError` at ``path``)."""
    if isinstance(data, dict) and set(data) == {"offset"} and isinstance(data["offset"], int) and not isinstance(
        data["offset"], bool
    ):
        return Offset(data["offset"])
    if isinstance(data, str):
        try:
            return PassMode(data)
        except ValueError:
            pass
    raise SaveError(path, f"{value_text(data)} is not a pass direction")


# --------------------------------------------------------------------------- actions


def tagged_data(tag: str, record: Any) -> dict[str, Any]:
    """A record as ``{"type": tag, field: plain value, ...}`` (how actions are written)."""
    return {"type": tag, **record_data(record)}


def read_tagged(data: Any, kinds: Mapping[str, type[Any]], what: str = "an action") -> Any:
    """The record ``data`` describes: its ``"type"`` picks the class from ``kinds``, whose fields are
    exactly the other keys. A field whose metadata says ``data="card"`` or ``"text"`` must be text, and
    ``data="cards"`` a list of card texts (so that no other kind of value is converted by accident).

    Raises ``ValueError`` (:class:`~heartslib.CardError` for bad card data) on anything else.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{what} is a table with a 'type', not {value_text(data)}")
    kind = data.get("type")
    cls = kinds.get(kind) if isinstance(kind, str) else None
    if cls is None:
        names = [value_text(k) for k in kinds]
        choices = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
        raise ValueError(f"unknown {what.split()[-1]} type {value_text(kind)}: use {choices}")
    fields = {f.name: f.metadata.get("data", "") for f in attrs.fields(cls)}
    expected = {"type", *fields}
    if set(data) != expected:
        raise ValueError(f"a {kind} {what.split()[-1]} has exactly the keys {value_text(sorted(expected))}, "
                         f"got {value_text(_sorted_keys(data))}")
    for name, data_kind in fields.items():
        value = data[name]
        if data_kind == "card" and not isinstance(value, str):
            raise CardError(f"{value_text(value)} is not card text")
        if data_kind == "cards" and (not isinstance(value, list) or not all(isinstance(c, str) for c in value)):
            raise CardError(f"{value_text(value)} is not a list of card texts")
    try:
        return cls(**{name: data[name] for name in fields})
    except TypeError as exc:
        raise ValueError(f"bad {kind} {what.split()[-1]} {value_text(data)}: {exc}") from None


# --------------------------------------------------------------------------- observations


def observation_data(record: Any) -> dict[str, Any]:
    """An observation (or any frozen record of the public values) as plain JSON data, for a UI.

    Cards are text (``"QS"``), suits, phases, decisions and pass modes their names, a pass offset
    ``{"offset": k}``, complex scores exact text (``"13i"``), tricks tables of ``number``, ``leader``,
    ``plays`` (``[[seat, "QS"], ...]``), ``winner`` and ``led_suit``; nothing unknown is ``null``.

    >>> import heartslib as hl
    >>> data = observation_data(hl.Round.deal(hl.preset("standard"), seed=1).observation(0))
    >>> data["phase"], data["hand"][:3], data["passing"], data["passed"]
    ('pass', ['5C', '6C', '8C'], {'offset': 1}, None)
    """
    return {f.name: _public(getattr(record, f.name)) for f in attrs.fields(type(record))}


def public_value(value: Any) -> Any:
    """One field of an observation (or of a record within one) as :func:`observation_data` writes it.

    >>> import heartslib as hl
    >>> public_value((hl.Card("QS"), hl.Card("2C"))), public_value(hl.Phase.PASS), public_value(13j)
    (['QS', '2C'], 'pass', '13i')
    """
    return _public(value)


def _public(value: Any) -> Any:
    # the commonest values first, by exact type (an IntEnum is an int, and must not be taken for one): a game
    # server writes a few fields of every subscriber's view after each action
    kind = type(value)
    if kind is tuple:
        return [_public(v) for v in value]
    if kind is Card:
        return value.code
    if kind is int or value is None or kind is bool:
        return value
    if isinstance(value, Offset):
        return direction_data(value)
    if hasattr(value, "value") and isinstance(value.value, str):  # Phase, Decision, PassMode
        return value.value
    if isinstance(value, Suit):
        return str(value)
    if isinstance(value, int | str):
        return value
    if isinstance(value, complex):
        return score_data(value)
    if isinstance(value, tuple | list):
        return [_public(v) for v in value]
    if attrs.has(type(value)):
        return observation_data(value)
    raise TypeError(f"cannot write {value!r} as plain data")  # pragma: no cover - every field type handled above


# --------------------------------------------------------------------------- saves


@attrs.frozen
class SaveDeal:
    """The set deal a save starts from (:meth:`heartslib.Match.from_deal`)."""

    hands: tuple[tuple[str, ...], ...]
    """Each seat's cards before passing, as card text."""
    kitty: tuple[str, ...]
    """The kitty, as card text."""
    passing: PassDirection
    """The first hand's pass direction."""
    counters: tuple[int, ...] = ()
    """Each seat's net counters at the start (a settlement's, ``scoring.settlement``; an auction's chips less
    ``scoring.chips``); empty for none."""
    pool: int = 0
    """The counters (an auction's chips) in the pool at the start."""
    bidder: int | None = None
    """An auction's seat that names the first hand's suit without bidding."""


@attrs.frozen
class SaveData:
    """A match save read and checked as data (the variant and the actions not yet built or replayed)."""

    variant: Mapping[str, Any]
    """The rules, as plain data (``Variant.from_dict`` reads it)."""
    seed: int
    dealer: int
    hand_number: int
    scores: tuple[Score, ...]
    """The match totals at the start (zeros without a set deal)."""
    deal: SaveDeal | None
    """The set deal, or None when the match was dealt from its seed."""
    actions: tuple[Any, ...]
    """Every action as data, in order."""
    state: Any
    """The recorded summary of the state the actions reach (checked after the replay)."""
    digest_ok: bool = True
    """Whether the save's digest matches its contents (checked last, after the replay, so that a save that
    does not replay is reported where it goes wrong)."""


_SAVE_KEYS = frozenset({"format", "version", "variant", "seed", "dealer", "hand_number", "scores", "deal",
                        "actions", "state", "digest"})


def save_digest(data: Mapping[str, Any]) -> str:
    """The digest of a save's contents: SHA-256 of every entry but ``"digest"`` as canonical JSON (sorted keys,
    no spaces, ASCII), written ``"sha256:<hex>"``.

    A guard against accidents (a save edited by hand, damaged, or put together from two saves), not a
    signature: anyone can compute it.
    """
    body = {k: v for k, v in data.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def save_data(
    *,
    variant: Mapping[str, Any],
    seed: int,
    dealer: int,
    hand_number: int,
    scores: Iterable[Score],
    deal: SaveDeal | None,
    actions: Iterable[Mapping[str, Any]],
    state: Mapping[str, Any],
) -> dict[str, Any]:
    """A match save as plain data (the form :func:`read_save` checks)."""
    data: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "variant": dict(variant),
        "seed": seed,
        "dealer": dealer,
        "hand_number": hand_number,
        "scores": [score_data(x) for x in scores],
        "deal": None if deal is None else deal_data(deal),
        "actions": [dict(a) for a in actions],
        "state": dict(state),
    }
    data["digest"] = save_digest(data)
    return data


def deal_data(deal: SaveDeal) -> dict[str, Any]:
    """A set deal as plain data: its hands, kitty and pass, and a settlement's start where one was set (left out
    at their defaults, so a save without one reads as it always did)."""
    data: dict[str, Any] = {"hands": [list(h) for h in deal.hands], "kitty": list(deal.kitty),
                            "passing": direction_data(deal.passing)}
    if deal.counters:
        data["counters"] = list(deal.counters)
    if deal.pool:
        data["pool"] = deal.pool
    if deal.bidder is not None:
        data["bidder"] = deal.bidder
    return data


def read_deal(raw: Any, path: str = "deal") -> SaveDeal:
    """A set deal from plain data (:func:`deal_data`): ``SaveError`` at ``path`` naming what is wrong. The cards,
    the counters' number and the seats are the match's to check."""
    if not isinstance(raw, dict) or not {"hands", "kitty", "passing"} <= set(raw) <= _DEAL_KEYS:
        raise SaveError(path, "expected {hands, kitty, passing}, and counters, pool and bidder where a settlement "
                              "starts from a set position")
    counters = raw.get("counters", [])
    if not isinstance(counters, list) or not all(type(c) is int for c in counters):
        raise SaveError(f"{path}.counters", f"expected a list of whole numbers, got {value_text(counters)}")
    pool, bidder = raw.get("pool", 0), raw.get("bidder")
    if type(pool) is not int:
        raise SaveError(f"{path}.pool", f"expected a whole number, got {value_text(pool)}")
    if bidder is not None and type(bidder) is not int:
        raise SaveError(f"{path}.bidder", f"expected a seat number, got {value_text(bidder)}")
    return SaveDeal(hands=tuple(tuple(h) for h in _str_lists(raw["hands"], f"{path}.hands")),
                    kitty=tuple(_str_list(raw["kitty"], f"{path}.kitty")),
                    passing=read_direction(raw["passing"], f"{path}.passing"), counters=tuple(counters), pool=pool,
                    bidder=bidder)


_DEAL_KEYS = frozenset({"hands", "kitty", "passing", "counters", "pool", "bidder"})


#: The largest ``indent`` of JSON text (:func:`json_text`, ``Match.to_json``): wider than anyone reads, and far
#: below the sizes at which the text would not fit in memory (``2**64`` would overflow inside ``json``).
MAX_INDENT = 1000


def json_text(data: Any, *, indent: int | None = None) -> str:
    """Plain data as JSON text (non-ASCII characters kept as they are); ``indent`` is None (one line) or a whole
    number from 0 to :data:`MAX_INDENT`, anything else :class:`~heartslib.IllegalAction` (``bad_argument``).

    >>> json_text({"a": [1]}, indent=1)
    '{\\n "a": [\\n  1\\n ]\\n}'
    """
    if indent is not None and (type(indent) is not int or not 0 <= indent <= MAX_INDENT):
        raise IllegalAction("bad_argument", f"indent must be a whole number from 0 to {MAX_INDENT} (or None), "
                            f"not {arg_text(indent)}")
    return json.dumps(data, indent=indent, ensure_ascii=False)


def read_json(text: str | bytes) -> Any:
    """JSON text (or UTF-8 bytes) as data; :class:`~heartslib.SaveError` if it is not JSON (the parser's own error
    as its ``__cause__``)."""
    try:
        # bytes are UTF-8 here (json.loads would guess UTF-16 or -32 from the first bytes and blame the JSON)
        return json.loads(text.decode("utf-8") if isinstance(text, bytes | bytearray) else text)
    except RecursionError as exc:
        raise SaveError("", "not a JSON save: arrays or objects nested too deeply") from exc
    except UnicodeDecodeError as exc:
        raise SaveError("", f"not a JSON save: it is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise SaveError("", f"not a JSON save: {exc}") from exc
    except ValueError:  # int() refuses an integer of more than 4,300 digits
        raise SaveError("", "not a JSON save: a number has more than 4,300 digits") from None
    except TypeError:  # neither text nor bytes
        hint = " (Match.from_dict reads a save already parsed)" if isinstance(text, Mapping) else ""
        raise SaveError("", f"not a JSON save: expected JSON text or UTF-8 bytes, not {type(text).__name__}"
                            f"{hint}") from None


def read_save(data: Any) -> SaveData:
    """Check a save's envelope (format, version, keys, whole numbers, the set deal) and read its parts.

    Raises :class:`~heartslib.SaveError` naming where the save is wrong.
    """
    if not isinstance(data, dict):
        raise SaveError("", "a save is a JSON object")
    if data.get("format") == RECORD_FORMAT:
        raise SaveError("format", "this is a game record, not a save: heartslib.record.from_record reads it")
    if set(data) != _SAVE_KEYS:
        missing, extra = sorted(_SAVE_KEYS - set(data)), sorted(map(str, set(data) - _SAVE_KEYS))
        detail = "; ".join(p for p in (
            f"missing {', '.join(missing)}" if missing else "",
            f"unknown {', '.join(extra)}" if extra else "") if p)
        # one key off (a save damaged or edited) is the path; many (some other JSON object) leave it empty
        off = missing + extra
        raise SaveError(off[0] if len(off) == 1 else "", f"not a heartslib match save ({detail})")
    if data["format"] != SAVE_FORMAT:
        raise SaveError("format", f"expected {value_text(SAVE_FORMAT)}, got {value_text(data['format'])}")
    if data["version"] != SAVE_VERSION:
        raise SaveError("version", f"this heartslib reads version {SAVE_VERSION}, not {value_text(data['version'])}")
    for key, most in (("seed", MAX_SEED), ("dealer", None), ("hand_number", MAX_HAND_NUMBER)):
        value = data[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise SaveError(key, f"expected a whole number, got {value_text(value)}")
        if most is not None and not 0 <= value <= most:
            raise SaveError(key, f"expected a whole number from 0 to {most}, got {value_text(value)}")
    if not isinstance(data["digest"], str):
        raise SaveError("digest", f"expected the digest text ('sha256:...'), got {value_text(data['digest'])}")
    try:
        digest_ok = save_digest(data) == data["digest"]
    except (TypeError, ValueError) as exc:  # not plain JSON data (from_dict given other Python values)
        raise SaveError("", f"a save is plain JSON data: {exc}") from None
    if not isinstance(data["actions"], list):
        raise SaveError("actions", "expected a list of actions")
    if not isinstance(data["variant"], Mapping):
        raise SaveError("variant", f"expected a table of variant fields, got {type(data['variant']).__name__}")
    deal = None
    if data["deal"] is None:
        if data["hand_number"] != 0 or not isinstance(data["scores"], list) or any(
            type(x) is not int or x != 0 for x in data["scores"]
        ):
            raise SaveError("deal", "a save without a set deal starts at hand 0 with zero scores")
        scores: tuple[Score, ...] = tuple(data["scores"])
    else:
        deal = read_deal(data["deal"])
        if not isinstance(data["scores"], list):
            raise SaveError("scores", "expected a list of whole numbers")
        try:
            scores = tuple(parse_score(x) for x in data["scores"])
        except ValueError as exc:
            raise SaveError("scores", str(exc)) from None
    return SaveData(variant=data["variant"], seed=data["seed"], dealer=data["dealer"],
                    hand_number=data["hand_number"], scores=scores, deal=deal, actions=tuple(data["actions"]),
                    state=data["state"], digest_ok=digest_ok)


def _str_list(data: Any, path: str) -> list[str]:
    if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
        raise SaveError(path, "expected a list of card texts")
    return data


def _str_lists(data: Any, path: str) -> list[list[str]]:
    if not isinstance(data, list):
        raise SaveError(path, "expected a list of hands")
    return [_str_list(h, f"{path}[{i}]") for i, h in enumerate(data)]

