"""Game records: a match as a document other tools can read, as JSON and as text, both replayed on loading.

A save (:meth:`heartslib.Match.to_json`) is for resuming a match; a record
is for reading one: every hand's dealer, pass direction and deal, its actions
in the order they were made, its tricks, points and totals, and the result.
Both forms carry the rules (a preset's name, or the whole variant), the seed
and the start, so :func:`from_record` and :func:`from_record_text` rebuild
the :class:`~heartslib.Match` by replaying every action through
:meth:`~heartslib.Match.apply` and check each deal, trick and total the
record states against the replay; anything wrong raises
:class:`~heartslib.SaveError` with the place (``hands[2].actions[17]``).
As PBN and PHH records do, a record may carry headers (:data:`HEADERS`: the
event, site, date, round, table and each seat's player), which
:func:`record_headers` reads.

The JSON form is described by a JSON Schema, ``docs/record.schema.json``
(format ``"heartslib-record"``, version 2, and version 1 read as before;
:data:`RECORD_SCHEMA`), whose rules :func:`validate_record` applies in Python
before anything is replayed. The text form is in the spirit of PBN: a
version line, a header, then one block a hand, one line a trick, and a
``Result`` line, without which the record is refused as cut short (see
``docs/records.md`` for its grammar)::

    % heartslib record 2
    Event: Club night
    Players: Ann | Bo | Cy | Dee
    Variant: standard
    Seed: 7
    Dealer: 0

    Hand 1: dealer 0, pass left
    Deal: 2C 7C JC ... | 6C TC KC ... | 3C 5C 9C ... | 4C 8C QC ...
    Pass 1: 9D QH TS
    ...
    Trick 1: 0:2C 1:KC 2:5C 3:4C -> 1
    ...
    Points: 0 13 13 0
    Totals: 0 13 13 0

    Result: over, winners 2, totals 54 101 63 42

Cards are written as codes (``QS``) or, with ``symbols=True``, as ``Q♠``;
both are read. A trick a decision interrupts (a joker's called suit) is
written as two ``Trick`` lines around its ``Choose`` line. Lines starting
with ``%`` are comments, but for ``% heartslib record N`` (in any case), the
version line, which comes first and once. Numbers are ASCII digits, each
``Trick`` line's number is checked, and a line over :data:`MAX_LINE`
characters is refused before it is read.

>>> import heartslib as hl, random
>>> from heartslib import strategies as hst
>>> m = hl.Match(hl.preset("standard"), seed=7)
>>> rng = random.Random(1)
>>> for _ in range(80):
...     m.apply(hst.random_action(m, rng))
>>> from_record(to_record(m)) == m, from_record_text(record_text(m)) == m
(True, True)
>>> record_headers(record_text(m, headers={"event": "Club night", "date": "2026-12-07"}))
{'event': 'Club night', 'date': '2026-12-07'}
"""

from __future__ import annotations

import datetime
import itertools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from heartslib.actions import Action, Choose, Pass, Play, action_from_text
from heartslib.cards import Card
from heartslib.enums import pass_name
from heartslib.errors import CardError, IllegalAction, SaveError, VariantError, value_text
from heartslib.match import Match, from_saved_deal
from heartslib.points import Score
from heartslib.presets import preset, preset_names
from heartslib.round import Round
from heartslib.serialize import RECORD_FORMAT, direction_data, parse_score, read_deal, read_direction, score_data
from heartslib.variant import Variant

__all__ = ["HEADERS", "MAX_LINE", "RECORD_FORMAT", "RECORD_SCHEMA", "RECORD_VERSION", "RECORD_VERSIONS", "from_record",
           "from_record_text", "record_headers", "record_text", "to_record", "validate_record"]

#: The version of the record format this release writes.
RECORD_VERSION = 2

#: The versions this release reads: version 1 (no headers, and a JSON record may leave out its result) as before.
RECORD_VERSIONS = (1, 2)

#: The headers a record may carry, as PBN and PHH records do, in the order the text form writes them: the JSON
#: form's ``headers`` keys, and the text form's lines (``Event: Club night``, ``Players: Ann | Bo | Cy | Dee``).
HEADERS = ("event", "site", "date", "round", "table", "players")

#: The longest line a text record may have: far above any real line (a custom variant's JSON, a two-deck deal),
#: and checked before a line is read, so that a huge line costs no more memory than the text itself.
MAX_LINE = 65_536

_CARD = "^([2-9TJQKA][CDHS]|0[CD]|JK)$"
_ACTION = "^[0-9]+:(play|pass|choose) .+$"
# a header's text fits one line of the text form: no control character or line break (what str.splitlines splits
# at), no space at either end (the reader strips a line), and a player's name has no '|' (which parts the names)
_NO_BREAK = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
_LABEL = rf"^[^\s{_NO_BREAK}]([^{_NO_BREAK}]*[^\s{_NO_BREAK}])?$"
_NAME = rf"^[^\s|{_NO_BREAK}]([^|{_NO_BREAK}]*[^\s|{_NO_BREAK}])?$"
_DATE = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"

#: The JSON Schema of the JSON form, ``docs/record.schema.json`` (a test keeps the two equal); :func:`validate_record`
#: applies its rules in Python, so that the core needs no schema library.
RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "heartslib-record-2",
    "title": "heartslib game record, version 2 (version 1 is read as before)",
    "description": "A match as heartslib.record.to_record writes it; heartslib.record.from_record replays and checks "
                   "it (heartslib.record.validate_record checks these rules alone).",
    "type": "object",
    "required": ["format", "version", "variant", "seed", "dealer", "hands"],
    "properties": {
        "format": {"const": "heartslib-record"},
        "version": {"enum": [1, 2], "description": "2 as this release writes; 1 as earlier releases wrote"},
        "headers": {
            "description": "what PBN and PHH records carry besides the game: each optional; a text form's header lines",
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "event": {"$ref": "#/$defs/label", "description": "the event, tournament or series"},
                "site": {"$ref": "#/$defs/label", "description": "where it was played (a club, a server)"},
                "date": {"type": "string", "pattern": _DATE, "format": "date",
                         "description": "the day it was played, as YYYY-MM-DD (a real date)"},
                "round": {"$ref": "#/$defs/label", "description": "the event's round (not a hand of the match)"},
                "table": {"$ref": "#/$defs/label", "description": "the table's name or id"},
                "players": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/name"},
                            "description": "each seat's player, seat 0 first: one name a seat"},
            },
        },
        "variant": {
            "description": "A preset's name, or the variant as Variant.to_dict writes it.",
            "oneOf": [{"type": "string", "maxLength": 100}, {"type": "object"}],
        },
        "seed": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
        "dealer": {"type": "integer", "minimum": 0},
        "start": {
            "description": "null when the first hand was dealt from the seed; else the set position (Match.from_deal).",
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["hand_number", "scores", "deal"],
                    "additionalProperties": False,
                    "properties": {
                        "hand_number": {"type": "integer", "minimum": 0},
                        "scores": {"type": "array", "items": {"$ref": "#/$defs/score"}},
                        "deal": {
                            "type": "object",
                            "required": ["hands", "kitty", "passing"],
                            "properties": {
                                "hands": {"type": "array", "items": {"$ref": "#/$defs/cards"}},
                                "kitty": {"$ref": "#/$defs/cards"},
                                "passing": {"$ref": "#/$defs/passing"},
                                "counters": {"type": "array", "items": {"type": "integer"},
                                             "description": "a settlement's net counters per seat at the start (an "
                                                            "auction's chips less scoring.chips); absent for none"},
                                "pool": {"type": "integer", "minimum": 0, "description": "the counters (an auction's "
                                         "chips) in the pool at the start; absent for 0"},
                                "bidder": {"type": "integer", "minimum": 0, "description": "an auction's seat that "
                                           "names the first suit without bidding; absent for none"},
                            },
                        },
                    },
                },
            ],
        },
        "hands": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["number", "dealer", "passing", "deal", "kitty", "actions", "tricks"],
                "properties": {
                    "number": {"type": "integer", "minimum": 0, "description": "0 for the match's first hand"},
                    "dealer": {"type": "integer", "minimum": 0},
                    "passing": {"$ref": "#/$defs/passing"},
                    "deal": {"type": "array", "items": {"$ref": "#/$defs/cards"},
                             "description": "each seat's cards as dealt, before passing"},
                    "kitty": {"$ref": "#/$defs/cards"},
                    "actions": {
                        "type": "array",
                        "description": "every action of the hand in the order it was made, as action text",
                        "items": {"type": "string", "pattern": _ACTION, "maxLength": 1000},
                    },
                    "tricks": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["leader", "plays", "winner"],
                            "properties": {
                                "leader": {"type": "integer", "minimum": 0},
                                "plays": {"type": "array", "items": {
                                    "type": "array", "prefixItems": [{"type": "integer"}, {"$ref": "#/$defs/card"}],
                                    "minItems": 2, "maxItems": 2}},
                                "winner": {"type": ["integer", "null"], "description": "null for a cancelled trick"},
                            },
                        },
                    },
                    "points": {"type": "array", "items": {"$ref": "#/$defs/score"},
                               "description": "the hand's points, once it is over"},
                    "totals": {"type": "array", "items": {"$ref": "#/$defs/score"},
                               "description": "the match totals after the hand"},
                },
            },
        },
        "result": {
            "type": "object",
            "required": ["over", "totals", "winners"],
            "properties": {
                "over": {"type": "boolean"},
                "totals": {"type": "array", "items": {"$ref": "#/$defs/score"}},
                "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            },
        },
    },
    "if": {"required": ["version"], "properties": {"version": {"const": 2}}},
    "then": {"required": ["result"], "description": "a version-2 record states its result (over or in progress), so "
                                                    "that one cut short is refused"},
    "$defs": {
        "card": {"type": "string", "pattern": _CARD},
        "label": {"type": "string", "pattern": _LABEL, "maxLength": 200,
                  "description": "one line of text, without spaces at either end"},
        "name": {"type": "string", "pattern": _NAME, "maxLength": 100,
                 "description": "a player's name: one line of text, without '|' or spaces at either end"},
        "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        "passing": {
            "description": "the pass direction as saves write it: {\"offset\": k}, or a word such as \"hold\"",
            "oneOf": [{"type": "string", "maxLength": 100},
                      {"type": "object", "required": ["offset"], "properties": {"offset": {"type": "integer"}},
                       "additionalProperties": False}],
        },
        "score": {"description": "a whole number, or exact complex text such as \"13i\"", "type": ["integer", "string"],
                  "maxLength": 100},
    },
}

#: The schema without its rule for a whole record's end, for a text record's header read alone.
_HEADER_SCHEMA = {key: value for key, value in RECORD_SCHEMA.items() if key not in ("if", "then")}

_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
               "null": "null", "array": "a list", "object": "a table (JSON object)"}
_PATTERN_WORDS = {_CARD: "a card code such as 'QS', 'TD', '0C' or 'JK'",
                  _ACTION: "an action text such as '2:play QS', '0:pass AS KS QS' or '1:choose new'",
                  _LABEL: "one line of text, without control characters or spaces at either end",
                  _NAME: "a name on one line, without '|', control characters or spaces at either end",
                  _DATE: "a date written YYYY-MM-DD, such as '2026-12-07'"}


def _is_type(value: Any, name: str) -> bool:
    """JSON Schema's types, as jsonschema reads Python data: a bool is no number, a float with no fraction is a
    whole number."""
    if name in ("integer", "number") and isinstance(value, bool):
        return False
    return {"integer": lambda: isinstance(value, int) or (isinstance(value, float) and value.is_integer()),
            "number": lambda: isinstance(value, int | float), "string": lambda: isinstance(value, str),
            "boolean": lambda: isinstance(value, bool), "null": lambda: value is None,
            "array": lambda: isinstance(value, list), "object": lambda: isinstance(value, dict)}[name]()


def _json_equal(a: Any, b: Any) -> bool:
    return isinstance(a, bool) == isinstance(b, bool) and type(a) in (int, float, bool, str) and a == b


def _at(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)


def _one_of(value: Any, options: list[dict[str, Any]], path: str) -> Any:
    """The value checked by the one option it fits; the error of the option of its type where it fits none."""
    fits: list[Any] = []
    errors: list[tuple[dict[str, Any], SaveError]] = []
    for option in options:
        try:
            fits.append(_checked(value, option, path))
        except SaveError as exc:
            errors.append((option, exc))
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise SaveError(path, f"{value_text(value)} fits more than one form")
    for option, error in errors:
        if _is_type(value, option.get("type", "")):
            raise error
    words = " or ".join(_TYPE_WORDS.get(option.get("type", ""), "another form") for option in options)
    raise SaveError(path, f"{words} is expected, not {value_text(value)}")


def _checked(value: Any, schema: dict[str, Any], path: str) -> Any:
    """``value`` checked against ``schema`` (the keywords :data:`RECORD_SCHEMA` uses), as a copy with whole numbers
    written as floats made ints; raises :class:`~heartslib.SaveError` at the first fault. It follows the data only
    where the schema does, so its depth is the schema's, however deep the data."""
    if "$ref" in schema:
        schema = RECORD_SCHEMA["$defs"][schema["$ref"].rpartition("/")[2]]
    if "oneOf" in schema:
        value = _one_of(value, schema["oneOf"], path)
    if "const" in schema and not _json_equal(value, schema["const"]):
        raise SaveError(path, f"{value_text(schema['const'])} is expected, not {value_text(value)}")
    if "enum" in schema and not any(_json_equal(value, x) for x in schema["enum"]):
        raise SaveError(path, f"{' or '.join(map(value_text, schema['enum']))} is expected, not {value_text(value)}")
    if "type" in schema:
        names = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        if not any(_is_type(value, name) for name in names):
            raise SaveError(path, f"{' or '.join(_TYPE_WORDS[n] for n in names)} is expected, not {value_text(value)}")
        if isinstance(value, float) and "integer" in names:
            value = int(value)
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            raise SaveError(path, f"text of at most {schema['maxLength']} characters is expected, not "
                            f"{len(value):,} characters")
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            raise SaveError(path, f"{_PATTERN_WORDS.get(schema['pattern'], 'other text')} is expected, not "
                            f"{value_text(value)}")
        if schema.get("format") == "date":  # as jsonschema's format checker reads it: a day the calendar has
            try:
                datetime.date.fromisoformat(value)
            except ValueError:
                raise SaveError(path, f"a real date is expected, not {value_text(value)}") from None
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if not schema.get("minimum", value) <= value <= schema.get("maximum", value):
            low, high = schema.get("minimum"), schema.get("maximum")
            limits = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise SaveError(path, f"a whole number {limits} is expected, not {value_text(value)}")
    elif isinstance(value, list):
        return _checked_list(value, schema, path)
    elif isinstance(value, dict):
        return _checked_dict(value, schema, path)
    return value


def _checked_list(value: list[Any], schema: dict[str, Any], path: str) -> list[Any]:
    if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        size = f"{low} to {high}" if high is not None else f"at least {low}"
        raise SaveError(path, f"a list of {size} items is expected, not {len(value)}")
    first = schema.get("prefixItems", [])
    return [_checked(x, first[i] if i < len(first) else schema.get("items", {}), _at(path, i))
            for i, x in enumerate(value)]


def _checked_dict(value: dict[str, Any], schema: dict[str, Any], path: str) -> dict[str, Any]:
    for key in schema.get("required", ()):
        if key not in value:
            why = schema.get("description") or f"a {path or 'record'} has {', '.join(schema['required'])}"
            raise SaveError(_at(path, key), f"{key} is missing ({why})")
    properties = schema.get("properties", {})
    if schema.get("additionalProperties", True) is False:
        extra = [key for key in value if key not in properties]
        if extra:
            raise SaveError(_at(path, str(extra[0])), f"unknown key {value_text(extra[0])}: {path or 'a record'} "
                            f"has only {', '.join(properties)}")
    checked = {key: _checked(x, properties[key], _at(path, key)) if key in properties else x
               for key, x in value.items()}
    if "if" in schema and _fits(checked, schema["if"], path):
        _checked(checked, schema["then"], path)
    return checked


def _fits(value: Any, schema: dict[str, Any], path: str) -> bool:
    try:
        _checked(value, schema, path)
    except SaveError:
        return False
    return True


def validate_record(data: Any) -> dict[str, Any]:
    """Check ``data`` against the record's JSON Schema (:data:`RECORD_SCHEMA`, ``docs/record.schema.json``) without
    replaying it; raises :class:`~heartslib.SaveError` naming the first fault and its place (``hands[2].dealer``).

    Returns the record as :func:`from_record` reads it: a copy, with whole numbers written as floats (``7.0``,
    which JSON Schema counts as whole numbers) made ints.
    """
    checked: dict[str, Any] = _checked(data, RECORD_SCHEMA, "")
    return checked


# --------------------------------------------------------------------------- writing


def _action_text(action: Action, symbols: bool) -> str:
    def card(c: Card) -> str:
        return str(c) if symbols else c.code

    if isinstance(action, Play):
        return f"{action.seat}:play {card(action.card)}"
    if isinstance(action, Pass):
        return f"{action.seat}:pass " + " ".join(card(c) for c in action.cards)
    assert isinstance(action, Choose)
    return f"{action.seat}:choose {action.option}"


def _variant_data(v: Variant) -> str | dict[str, Any]:
    """A preset's name when the variant is that preset, else the whole variant."""
    if v.name in preset_names() and preset(v.name) == v:
        return v.name
    return v.to_dict()


def _save_start(save: Mapping[str, Any]) -> dict[str, Any] | None:
    """A save's set position as a record's ``start``: None for a match dealt from its seed."""
    if save["deal"] is None:
        return None
    return {"hand_number": save["hand_number"], "scores": save["scores"], "deal": save["deal"]}


def _hands(m: Match) -> list[dict[str, Any]]:
    """Each hand of ``m`` as record data, from a replay of its save: the deal is read as each hand starts."""
    save = m.to_dict()  # refuses a match dealt from scripted chance outcomes, which a record cannot replay
    replay = _start(m.variant, save["seed"], save["dealer"], _save_start(save))
    hands: list[dict[str, Any]] = []
    for action in m.actions:
        if not hands or replay.hand_number != hands[-1]["number"]:
            hands.append(_hand_start(replay))
        hands[-1]["actions"].append(action)
        replay.apply(action)
    if replay.hand_number != (hands[-1]["number"] if hands else -1) and not replay.is_over:
        hands.append(_hand_start(replay))  # the hand just dealt, no action yet
    results = {r.hand_number: r for r in m.rounds}
    for hand in hands:
        result = results.get(hand["number"])
        rnd = result.round if result is not None else m.round
        hand["tricks"] = _tricks_data(rnd)
        if result is not None:
            hand["points"] = [score_data(x) for x in result.points]
            hand["totals"] = [score_data(x) for x in result.totals]
    return hands


def _tricks_data(rnd: Round) -> list[dict[str, Any]]:
    """A hand's tricks as a record states them: leader, plays as ``[seat, card]``, winner (None: cancelled)."""
    return [{"leader": t.leader, "plays": [[s, c.code] for s, c in t.plays], "winner": t.winner} for t in rnd.tricks]


def _hand_start(m: Match) -> dict[str, Any]:
    r = m.round
    return {"number": m.hand_number, "dealer": r.dealer, "passing": direction_data(r.passing),
            "deal": [[c.code for c in h] for h in r.hands], "kitty": [c.code for c in r.kitty], "actions": []}


def to_record(m: Match, *, headers: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``m`` as plain data (the JSON form; ``json.dumps`` writes it), with ``headers`` (any of
    :data:`HEADERS`: ``{"event": "Club night", "date": "2026-12-07", "players": ["Ann", "Bo", "Cy", "Dee"]}``).

    Raises :class:`~heartslib.SaveError` for a match dealt from scripted chance outcomes (a record, like a
    save, replays its seed), for anything but a :class:`~heartslib.Match`, and for headers the record's schema
    refuses or a list of players that is not one name a seat (naming the header: ``headers.date``).
    """
    _need_match(m, "to_record")
    checked = _headers(headers, m.variant)
    save = m.to_dict()
    hands = _hands(m)
    for hand in hands:
        hand["actions"] = [_action_text(a, False) for a in hand["actions"]]
    data: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "variant": _variant_data(m.variant),
        "seed": m.seed,
        "dealer": save["dealer"],
        "start": _save_start(save),
        "hands": hands,
        "result": {"over": m.is_over, "totals": [score_data(x) for x in m.scores], "winners": list(m.winners)},
    }
    if checked:
        data["headers"] = checked
    return data


def _headers(headers: Mapping[str, Any] | None, v: Variant, where: str = "headers") -> dict[str, Any]:
    """``headers`` checked by the record's schema and against the variant (one player a seat), in
    :data:`HEADERS`' order; ``where`` names them in errors."""
    if headers is None:
        return {}
    if not isinstance(headers, Mapping):
        raise SaveError(where, f"the headers are a table (dict) of {', '.join(HEADERS)}, not {value_text(headers)}")
    checked: dict[str, Any] = _checked(dict(headers), RECORD_SCHEMA["properties"]["headers"], where)
    _check_players(checked.get("players"), v, _at(where, "players"))
    return {key: checked[key] for key in HEADERS if key in checked}


def _need_match(m: Any, name: str) -> None:
    if not isinstance(m, Match):
        raise SaveError("", f"{name} writes the record of a Match, not of {type(m).__name__} {value_text(m)}")


def _score_text(x: Score) -> str:
    return str(score_data(x))


def record_text(m: Match, *, symbols: bool = False, headers: Mapping[str, Any] | None = None) -> str:
    """The record of ``m`` as text (see the module docs); ``symbols`` writes cards as ``Q♠``, not ``QS``;
    ``headers`` as for :func:`to_record`, each a header line (``Players: Ann | Bo | Cy | Dee``)."""
    _need_match(m, "record_text")
    v = m.variant
    checked = _headers(headers, v)
    save = m.to_dict()
    variant = _variant_data(v)
    lines = [f"% heartslib record {RECORD_VERSION}",
             *(f"{key.capitalize()}: {' | '.join(value) if key == 'players' else value}"
               for key, value in checked.items()),
             f"Variant: {variant if isinstance(variant, str) else json.dumps(variant, ensure_ascii=False)}",
             f"Seed: {m.seed}", f"Dealer: {save['dealer']}"]
    if save["deal"] is not None:
        lines.append("Start: " + json.dumps({"hand_number": save["hand_number"], "scores": save["scores"],
                                             "deal": save["deal"]}, ensure_ascii=False))

    def cards(codes: Sequence[str]) -> str:
        return " ".join(str(Card.parse(c)) if symbols else c for c in codes) or "-"

    for hand in _hands(m):
        passing = read_direction(hand["passing"])
        lines += ["", f"Hand {hand['number'] + 1}: dealer {hand['dealer']}, pass {pass_name(passing, v.players)}",
                  "Deal: " + " | ".join(cards(h) for h in hand["deal"])]
        if hand["kitty"]:
            lines.append("Kitty: " + cards(hand["kitty"]))
        lines += _hand_lines(hand, symbols)
        if "points" in hand:
            lines += ["Points: " + " ".join(map(str, hand["points"])), "Totals: " + " ".join(map(str, hand["totals"]))]
    winners = " ".join(map(str, m.winners)) or "-"
    lines += ["", f"Result: {'over' if m.is_over else 'in progress'}, winners {winners}, totals "
              + " ".join(_score_text(x) for x in m.scores)]
    return "\n".join(lines) + "\n"


def _hand_lines(hand: dict[str, Any], symbols: bool) -> list[str]:
    """A hand's actions as lines: ``Pass`` and ``Choose`` lines, and the plays as ``Trick`` lines, split at
    each completed trick (with ``-> winner``, ``-`` for a cancelled one) and at any decision between plays."""
    out: list[str] = []
    sizes = [len(t["plays"]) for t in hand["tricks"]]
    number = 0
    tokens: list[str] = []

    def flush(complete: bool) -> None:
        nonlocal tokens
        if tokens:
            winner = hand["tricks"][number]["winner"] if complete else None
            tail = f" -> {'-' if winner is None else winner}" if complete else ""
            out.append(f"Trick {number + 1}: " + " ".join(tokens) + tail)
            tokens = []

    played = 0  # plays of the trick in progress, over its lines
    for action in hand["actions"]:
        if isinstance(action, Play):
            tokens.append(f"{action.seat}:{str(action.card) if symbols else action.card.code}")
            played += 1
            if number < len(sizes) and played == sizes[number]:
                flush(True)
                number, played = number + 1, 0
            continue
        flush(False)
        seat, _, rest = _action_text(action, symbols).partition(":")
        kind, _, arg = rest.partition(" ")
        out.append(f"{'Pass' if kind == 'pass' else 'Choose'} {seat}: {arg}")
    flush(False)
    return out


# --------------------------------------------------------------------------- reading


def _variant(data: Any, path: str) -> Variant:
    try:
        if isinstance(data, str):
            return preset(data)
        if isinstance(data, Mapping):
            return Variant.from_dict(dict(data))
    except (KeyError, VariantError) as exc:
        raise SaveError(path, str(exc).strip("'\"")) from exc
    raise SaveError(path, "the variant is a preset's name or a variant as a table of fields")


def _int(data: Any, path: str, low: int, high: int) -> int:
    if not isinstance(data, int) or isinstance(data, bool) or not low <= data <= high:
        raise SaveError(path, f"a whole number from {low} to {high} is expected, not {data!r:.60}")
    return data


def _start(v: Variant, seed: int, dealer: int, start: Mapping[str, Any] | None) -> Match:
    """The match a record starts from: a deal from its seed, or its set deal (``start``); the record's types are
    checked already (:func:`validate_record`: a start is all of a set position or none of one)."""
    dealer = _int(dealer, "dealer", 0, v.players - 1)
    try:
        if start is None:
            return Match(v, seed, dealer=dealer)
        return from_saved_deal(Match, v, read_deal(start["deal"], "start.deal"),
                               scores=[parse_score(x) for x in start["scores"]], dealer=dealer,
                               hand_number=start["hand_number"], seed=seed)
    except SaveError:
        raise
    except (KeyError, TypeError, CardError, IllegalAction, ValueError) as exc:
        raise SaveError("start", str(exc)) from exc


def _check(path: str, stated: Any, replayed: Any, what: str) -> None:
    if stated is not None and stated != replayed:
        raise SaveError(path, f"the record says {what} {stated!r:.80}, but the replay gives {replayed!r:.80}")


def from_record(data: Any) -> Match:
    """The match a record (plain data, as :func:`to_record` gives or ``json.loads`` reads) describes, checked
    against the schema (:func:`validate_record`), replayed and checked against the replay; raises
    :class:`~heartslib.SaveError` naming what is wrong and where."""
    data = validate_record(data)
    v = _variant(data["variant"], "variant")
    _headers(data.get("headers"), v)
    m = _start(v, data["seed"], data["dealer"], data.get("start"))
    for h, hand in enumerate(data["hands"]):
        where = f"hands[{h}]"
        if m.is_over:
            raise SaveError(where, "the match is already over")
        _check(f"{where}.number", hand["number"], m.hand_number, "hand number")
        _check(f"{where}.dealer", hand["dealer"], m.round.dealer, "the dealer")
        _check(f"{where}.passing", hand["passing"], direction_data(m.round.passing), "the pass")
        _check(f"{where}.deal", hand["deal"], [[c.code for c in x] for x in m.round.hands], "the deal")
        _check(f"{where}.kitty", hand["kitty"], [c.code for c in m.round.kitty], "the kitty")
        number, rnd = m.hand_number, m.round
        for i, text in enumerate(hand["actions"]):
            _apply(m, text, f"{where}.actions[{i}]")
            if m.hand_number != number and i + 1 < len(hand["actions"]):
                raise SaveError(f"{where}.actions[{i + 1}]", "the hand is over: its next actions belong to the "
                                "next hand")
        _check(f"{where}.tricks", hand["tricks"], _tricks_data(rnd), "the tricks")
        result = next((r for r in m.rounds if r.hand_number == number), None)
        if result is not None:  # points and totals are optional (a record may leave them out), never null
            _check(f"{where}.points", hand.get("points"), [score_data(x) for x in result.points], "the points")
            _check(f"{where}.totals", hand.get("totals"), [score_data(x) for x in result.totals], "the totals")
    if "result" in data:
        result = data["result"]
        _check("result.over", result["over"], m.is_over, "the match over")
        _check("result.totals", result["totals"], [score_data(x) for x in m.scores], "the totals")
        _check("result.winners", result["winners"], list(m.winners), "the winners")
    return m


def _apply(m: Match, text: Any, path: str) -> None:
    try:
        action = action_from_text(text)
        m.apply(action)
    except (CardError, IllegalAction, ValueError) as exc:
        raise SaveError(path, str(exc)) from exc


def from_record_text(text: str) -> Match:
    """The match a text record (see the module docs) describes, replayed and checked; raises
    :class:`~heartslib.SaveError` naming the line that is wrong, and for a record without its version line first
    or its ``Result`` line last (one cut short: a cut at any point is refused, never read as a shorter game)."""
    lines = _lines(text)
    header, body = _text_header(lines)
    m = _text_start(header)
    hand_number = -1
    result = None
    for where, line in itertools.chain([] if body is None else [body], lines):
        if result is not None:
            raise SaveError(where, f"the record ends at its Result line ({result}): nothing but blank lines and "
                            f"comments comes after the Result line, not {value_text(line[:60])}")
        key, value = _key_value(line, where)
        if key == "Result":
            result = where
        try:
            hand_number = _text_line(m, key, value, where, hand_number)
        except SaveError:
            raise
        except (CardError, IllegalAction) as exc:  # a card or a score that cannot be read: this line's fault
            raise SaveError(where, str(exc)) from exc
    if result is None:
        raise SaveError("Result", "the record ends without its Result line ('Result: over, ...' or 'Result: in "
                        "progress, ...'): it was cut short")
    return m


def record_headers(record: str | Mapping[str, Any]) -> dict[str, Any]:
    """The headers (:data:`HEADERS`) of a record, JSON data or text, as ``to_record`` takes them (``{}`` for none):
    read and checked with the record's header (variant, seed, start), without replaying its game, which
    :func:`from_record` and :func:`from_record_text` do; raises :class:`~heartslib.SaveError` as they do."""
    if isinstance(record, str):
        header, _ = _text_header(_lines(record))
        return _text_headers(header, _text_variant(header))
    data = validate_record(record)
    return _headers(data.get("headers"), _variant(data["variant"], "variant"))


#: The lines of a text record's header (each once, in any order) and of its body, as the reader takes them.
_HEADER_LINES = (*(key.capitalize() for key in HEADERS), "Variant", "Seed", "Dealer", "Start")
_BODY_LINES = ("Hand", "Deal", "Kitty", "Pass", "Choose", "Trick", "Points", "Totals", "Result")


def _lines(text: str) -> Iterator[tuple[str, str]]:
    """The lines of a text record that say something, stripped, each with its place (``line 12``): blank lines and
    comments left out, but for version lines; a line over :data:`MAX_LINE` characters refused before it is read."""
    if not isinstance(text, str):
        raise SaveError("", f"a text record is a str, not {type(text).__name__}")
    # a byte order mark, which some editors write at the start of UTF-8, is no part of the first line
    for no, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        where = f"line {no}"
        if len(raw) > MAX_LINE:  # before anything reads it: a huge line would cost many times its size
            raise SaveError(where, f"the line is longer than {MAX_LINE:,} characters ({len(raw):,})")
        line = raw.strip()
        if line and (not line.startswith("%") or _VERSION_LINE.fullmatch(line)):
            yield where, line


def _text_header(lines: Iterator[tuple[str, str]]) -> tuple[dict[str, str], tuple[str, str] | None]:
    """A text record's version line and header lines: the header (key: value), and the first line after the
    header with its place (None at the end)."""
    first = next(lines, None)
    if first is None:
        raise SaveError("version", f"the text is empty: a text record starts with its version line "
                        f"('% heartslib record {RECORD_VERSION}')")
    if not first[1].startswith("%"):
        raise SaveError(first[0], f"a text record starts with its version line ('% heartslib record "
                        f"{RECORD_VERSION}'), not {value_text(first[1][:60])}")
    _version_line(first[1], first[0])
    header: dict[str, str] = {}
    places: dict[str, str] = {}
    for where, line in lines:
        key, value = _key_value(line, where)
        if key not in _HEADER_LINES:
            return header, (where, line)
        if key in header:
            raise SaveError(where, f"a second {key} line ({places[key]} was the first): a header line is given once")
        header[key], places[key] = value, where
    return header, None


def _key_value(line: str, where: str) -> tuple[str, str]:
    if line.startswith("%"):
        raise SaveError(where, "a second version line: a record has its version line once, first")
    key, sep, value = line.partition(":")
    if not sep:
        raise SaveError(where, f"expected 'Name: value', not {line!r:.60}")
    return key.strip(), value.strip()


_VERSION_LINE = re.compile(r"%\s*heartslib\s+record\b(.*)", re.IGNORECASE | re.DOTALL)


def _version_line(line: str, where: str) -> None:
    """Check a version line (``% heartslib record 2``, in any case): the version it names must be one this release
    reads (both are read alike: version 2 adds what version 1 lacks)."""
    version = _VERSION_LINE.fullmatch(line)
    said = "" if version is None else version.group(1).strip()
    if said not in map(str, RECORD_VERSIONS):
        raise SaveError(where, f"this release reads record versions {' and '.join(map(str, RECORD_VERSIONS))}, "
                        f"not {value_text(said) if said else 'a version line that names none'}")


def _digits(text: str, what: str, where: str) -> int:
    """A whole number written in ASCII digits (``int`` would also read ``'+7'``, ``'0_7'`` and other scripts'
    digits)."""
    if re.fullmatch(r"[0-9]{1,30}", text) is None:
        raise SaveError(where, f"the {what} is a whole number in the digits 0-9, not {value_text(text)}")
    return int(text)


def _json_header(text: str, key: str, what: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise SaveError(key, f"the header's {key} is {what}, nested too deeply to read") from None
    except ValueError as exc:
        raise SaveError(key, f"the header's {key} is {what} ({exc})") from None


def _text_variant(header: Mapping[str, str]) -> Variant:
    return _variant(_text_variant_data(header), "Variant")


def _text_variant_data(header: Mapping[str, str]) -> str | dict[str, Any]:
    if "Variant" not in header:
        raise SaveError("Variant", "a record's header names its variant ('Variant: standard')")
    name = header["Variant"]
    data: str | dict[str, Any] = _json_header(name, "Variant", "a variant written as a JSON table") \
        if name.startswith("{") else name
    return data


def _text_headers(header: Mapping[str, str], v: Variant) -> dict[str, Any]:
    """The headers of :data:`HEADERS` a text record's header lines give, checked as the JSON form's (each error
    named by its line's key: ``Date``, ``Players[2]``)."""
    schemas = RECORD_SCHEMA["properties"]["headers"]["properties"]
    found: dict[str, Any] = {}
    for key in HEADERS:
        name = key.capitalize()
        if name in header:
            value = header[name]
            found[key] = _checked([x.strip() for x in value.split("|")] if key == "players" else value,
                                  schemas[key], name)
    _check_players(found.get("players"), v, "Players")
    return found


def _check_players(players: Sequence[str] | None, v: Variant, where: str) -> None:
    if players is not None and len(players) != v.players:
        raise SaveError(where, f"one name a seat is expected: the variant has {v.players} seats, not {len(players)}")


def _text_start(header: Mapping[str, str]) -> Match:
    variant = _text_variant_data(header)
    v = _variant(variant, "Variant")
    _text_headers(header, v)
    seed, dealer = (_digits(header.get(key, default), f"header's {key}", key)
                    for key, default in (("Seed", ""), ("Dealer", "0")))
    start = _json_header(header["Start"], "Start", "a JSON table of hand_number, scores and deal") \
        if "Start" in header else None
    # the header as a JSON record's first keys, checked by the same rules (but for the result it leaves to the end)
    data = _checked({"format": RECORD_FORMAT, "version": RECORD_VERSION, "variant": variant, "seed": seed,
                     "dealer": dealer, "start": start, "hands": []}, _HEADER_SCHEMA, "")
    return _start(v, data["seed"], data["dealer"], data["start"])


def _text_line(m: Match, key: str, value: str, where: str, hand_number: int) -> int:
    """Read one body line of a text record into ``m``; returns the hand number its ``Hand`` line announced."""
    head, _, arg = key.partition(" ")
    if head == "Hand":
        _check(where, arg, str(m.hand_number + 1), "hand")
        # the dealer and the pass are the replay's, and a record that says otherwise lies about its game
        said = " ".join(value.split())
        _check(where, said, f"dealer {m.round.dealer}, pass {pass_name(m.round.passing, m.variant.players)}",
               "the hand's dealer and pass")
        return m.hand_number
    if head == "Deal":
        codes = [[Card.parse(c).code for c in part.split() if c != "-"] for part in value.split("|")]
        _check(where, codes, [[c.code for c in h] for h in m.round.hands], "the deal")
    elif head == "Kitty":
        _check(where, [Card.parse(c).code for c in value.split() if c != "-"], [c.code for c in m.round.kitty],
               "the kitty")
    elif head in ("Pass", "Choose"):
        _apply(m, f"{_digits(arg, 'seat', where)}:{head.lower()} {value}", where)
    elif head == "Trick":
        plays, arrow, winner = value.partition("->")
        rnd, done = m.round, len(m.round.tricks)
        _check(where, arg, str(done + 1), "the trick number")  # the trick in progress, for both lines of a split one
        for token in plays.split():
            seat, _, card = token.partition(":")
            _apply(m, f"{_digits(seat, 'seat', where)}:play {card}", where)
        if arrow:  # the line says who took the trick (``-``: cancelled): the replay's taker
            if len(rnd.tricks) == done:
                raise SaveError(where, "the line says who took the trick, but its plays do not complete one")
            taker = rnd.tricks[-1].winner
            _check(where, winner.strip(), "-" if taker is None else str(taker), "the trick's taker")
    elif head in ("Points", "Totals"):
        result = m.rounds[-1] if m.rounds else None
        if result is None:
            raise SaveError(where, f"{head} before any hand is over")
        stated = [str(score_data(parse_score(x))) for x in value.split()]
        values = result.points if head == "Points" else result.totals
        _check(where, stated, [_score_text(x) for x in values], head.lower())
    elif head == "Result" and not arg:
        _result_line(m, value, where)
    elif key in _HEADER_LINES:
        raise SaveError(where, f"a {key} line belongs to the header, before the first hand")
    else:
        raise SaveError(where, f"unknown line {key!r:.40}: expected {', '.join(_BODY_LINES[:-1])} or Result")
    return hand_number


_RESULT = re.compile(r"(over|in progress), winners (-|[0-9]+(?: [0-9]+)*), totals (\S+(?: \S+)*)")


def _result_line(m: Match, value: str, where: str) -> None:
    """Check a ``Result`` line, read whole (a line cut short is refused), against the replay."""
    result = _RESULT.fullmatch(" ".join(value.split()))
    if result is None:
        raise SaveError(where, "a Result line is 'Result: over' or 'Result: in progress', then ', winners' and the "
                        "winning seats ('-' for none), then ', totals' and each seat's total, not "
                        f"{value_text(value[:60])}")
    over, winners, totals = result.groups()
    _check(where, over == "over", m.is_over, "the match over")
    _check(where, winners, " ".join(map(str, m.winners)) or "-", "the winners")
    _check(where, [str(score_data(parse_score(x))) for x in totals.split()], [_score_text(x) for x in m.scores],
           "the totals")
