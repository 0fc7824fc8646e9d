"""The six sections of a variant: frozen, validated records of one area of the rules each.

``deck``, ``passing``, ``play``, ``scoring``, ``moon`` and ``end`` (see
:class:`heartslib.Variant`, which holds them with the table fields). Every
field converts and validates its own value (raising
:class:`~heartslib.VariantError` with the field's path) and carries metadata
– the players' words for the rule, what each value means and the source –
which drives :meth:`~heartslib.Variant.describe` and the rules reference, so
they cannot drift from the code. Rules that combine several fields are judged
when a variant is compiled (:mod:`heartslib.engine.checks`).

>>> PlayRules(first_trick="no_hearts").first_trick
<FirstTrick.NO_HEARTS: 'no_hearts'>
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, ClassVar, Protocol, Self, TypeVar, cast

import attrs

from heartslib.cards import Card, Suit, card_order, parse_cards
from heartslib.enums import (
    BigMoon,
    Breaking,
    CancelRollover,
    Direction,
    ExactFifty,
    Fill,
    FirstTrick,
    HeartsFlip,
    HeartsScoring,
    Identical,
    JokerKind,
    JokerLead,
    JokerPlay,
    JokerPointsWhen,
    KittyMode,
    LeadHeartsUnbroken,
    Measure,
    MoonKind,
    MoonRequires,
    NextDealer,
    Opening,
    Settlement,
    StockDraw,
    Sun,
    TeamLoss,
    UndercutCeiling,
    Winner,
)
from heartslib.errors import CardError, VariantError, value_text
from heartslib.points import Score
from heartslib.serialize import parse_score, read_section, score_data, unknown_fields

__all__ = [
    "BOUNDS_KEY",
    "MAX_FACTOR",
    "MAX_POINTS",
    "META_KEY",
    "SECTIONS",
    "TABLE_FIELDS",
    "CardCards",
    "CardExposures",
    "CardMap",
    "CardSuits",
    "CardValues",
    "DeckRules",
    "EndRules",
    "MoonRules",
    "PassingRules",
    "PlayRules",
    "Record",
    "ScoringRules",
    "StripTable",
    "TotalBonuses",
    "VariantFields",
    "field_metadata",
    "field_paths",
]

E = TypeVar("E", bound="Any")

#: The largest size of a card value's real or imaginary part (``scoring.values``, ``multiply_alone``,
#: ``moon.points``): Gong Zhu's biggest card is worth 100.
MAX_POINTS = 100_000
#: The largest size of a score multiplier's real or imaginary part (``scoring.multiply``).
MAX_FACTOR = 100
#: The metadata key of a whole-number field's ``(least, most)`` allowed values (for the rules reference).
BOUNDS_KEY = "bounds"

#: Field metadata keys: ``words`` (the players' name for the rule), ``doc``
#: (what it does), ``source`` (where the rule comes from, see RULES.md) and,
#: for enums, ``values`` (what each value means).
META_KEY = "heartslib"


def meta(words: str, doc: str, source: str = "", values: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Field metadata: the players' ``words`` for the rule, its ``doc``, its ``source`` and, for enums, ``values``."""
    return {META_KEY: {"words": words, "doc": doc, "source": source, "values": dict(values or {})}}


# --------------------------------------------------------------------------- converters


def _enum_converter(path: str, enum_type: type[E]) -> Callable[[Any], E]:
    allowed = ", ".join(value_text(m.value) for m in enum_type)

    def convert(value: Any) -> E:
        if isinstance(value, enum_type):
            return value
        if isinstance(value, str):
            try:
                return cast(E, enum_type(value.strip().lower()))
            except ValueError:
                pass
        raise VariantError(path, f"{value_text(value)} is not allowed; use one of {allowed}")

    return convert


def _int_validator(path: str, lo: int | None = None, hi: int | None = None) -> Callable[..., None]:
    def check(_inst: object, _attr: object, value: Any) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise VariantError(path, f"{value_text(value)} is not a whole number")
        if lo is not None and value < lo:
            raise VariantError(path, f"{value} is too small; the least allowed is {lo}")
        if hi is not None and value > hi:
            raise VariantError(path, f"{value} is too large; the most allowed is {hi}")

    return check


def text_validator(path: str, *, blank: bool = True) -> Callable[..., None]:
    """A validator that the value is text (errors name ``path``); with ``blank=False`` text that is empty or only
    spaces is refused too (a variant's name, which its rules, saves and messages show)."""
    def check(_inst: object, _attr: object, value: Any) -> None:
        if not isinstance(value, str):
            raise VariantError(path, f"{value_text(value)} is not text")
        if not blank and not value.strip():
            raise VariantError(path, f"{value_text(value)} is {'blank' if value else 'empty'}: a variant's name is "
                               "shown in its rules, saves and messages; give it one (rules that leave the name out "
                               "are called 'custom')")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no file (TOML, JSON in UTF-8) can hold it
            raise VariantError(path, f"{value_text(value)} is not valid Unicode text (it holds a lone surrogate)"
                               ) from None

    return check


def _bool_validator(path: str) -> Callable[..., None]:
    def check(_inst: object, _attr: object, value: Any) -> None:
        if not isinstance(value, bool):
            raise VariantError(path, f"{value_text(value)} is not true or false")

    return check


def _cards_converter(path: str) -> Callable[[Any], tuple[Card, ...]]:
    def convert(value: Any) -> tuple[Card, ...]:
        try:
            return parse_cards(value)
        except CardError as exc:
            raise VariantError(path, str(exc)) from None

    return convert


def enum_field(path: str, enum_type: type[E], default: E, meta: dict[str, Any]) -> Any:
    """An enum field: accepts a member or its value (any case) and names ``path`` in errors."""
    return attrs.field(default=default, converter=_enum_converter(path, enum_type), metadata=meta)


def int_field(path: str, default: int, meta: dict[str, Any], lo: int | None = None, hi: int | None = None) -> Any:
    """A whole-number field within ``lo``..``hi`` (kept in the metadata under :data:`BOUNDS_KEY`)."""
    return attrs.field(default=default, validator=_int_validator(path, lo, hi),
                       metadata={**meta, BOUNDS_KEY: (lo, hi)})


def bool_field(path: str, default: bool, meta: dict[str, Any]) -> Any:
    """A true/false field."""
    return attrs.field(default=default, validator=_bool_validator(path), metadata=meta)


def cards_field(path: str, meta: dict[str, Any]) -> Any:
    """A field holding cards (text such as ``"2C QS"`` or a list of cards)."""
    return attrs.field(default=(), converter=_cards_converter(path), metadata=meta)


# --------------------------------------------------------------------------- small values


@attrs.frozen(cache_hash=True)
class StripTable:
    """A per-player-count table of cards to remove (Foster, seed 001).

    >>> t = StripTable.from_mapping({"3": ["2S"], 5: "2C 2S"})
    >>> [c.code for c in t.for_players(5)], t.for_players(4)
    (['2C', '2S'], ())
    """

    entries: tuple[tuple[int, tuple[Card, ...]], ...]

    @classmethod
    def from_mapping(cls, mapping: Mapping[Any, Any], path: str = "deck.strip") -> StripTable:
        """Build a table from ``{players: cards}`` (keys may be strings, as in TOML)."""
        if not isinstance(mapping, Mapping):
            raise VariantError(path, f"expected a table of player counts and the cards to strip, got "
                               f"{value_text(mapping)}")
        entries = []
        for key, cards in mapping.items():
            n = _player_count(key)
            if n is None:
                raise VariantError(f"{path}.{key}", f"table keys are player counts such as \"3\", not "
                                   f"{value_text(key)}")
            entries.append((n, _cards_converter(f"{path}.{key}")(cards)))
        return cls(tuple(sorted(entries)))

    def for_players(self, players: int) -> tuple[Card, ...]:
        """The cards to remove with ``players`` at the table (none if not listed)."""
        for n, cards in self.entries:
            if n == players:
                return cards
        return ()

    def to_mapping(self) -> dict[str, list[str]]:
        """The table as TOML/JSON data: ``{"3": ["2S"], ...}``."""
        return {str(n): [c.code for c in cards] for n, cards in self.entries}


@attrs.frozen(cache_hash=True)
class TotalBonuses:
    """Points a hand adds to a player whose total it lands exactly on a listed total (``end.round_bonuses``: the
    two-deck game's bonuses for round scores, seed 001).

    >>> b = TotalBonuses.from_mapping({"50": -50, 100: -100})
    >>> b.points(100), b.points(75), b.to_mapping()
    (-100, 0, {'50': -50, '100': -100})
    """

    entries: tuple[tuple[int, int], ...]

    @classmethod
    def from_mapping(cls, mapping: Mapping[Any, Any], path: str = "end.round_bonuses") -> TotalBonuses:
        """Build the table from ``{total: points}`` (keys may be text, as in TOML; totals and points whole
        numbers, at most :data:`MAX_POINTS` in size, totals not 0)."""
        if isinstance(mapping, TotalBonuses):
            return mapping
        if not isinstance(mapping, Mapping):
            raise VariantError(path, f"expected a table of totals and the points landing on them adds, such as "
                               f"{{ \"50\" = -50 }}, got {value_text(mapping)}")
        entries: dict[int, int] = {}
        for key, points in mapping.items():
            total = _whole_key(key)
            if total is None or total == 0 or abs(total) > MAX_POINTS:
                raise VariantError(f"{path}.{key}", f"table keys are totals other than 0 such as \"50\" (at most "
                                   f"{MAX_POINTS:,} in size), not {value_text(key)}")
            if total in entries:
                raise VariantError(f"{path}.{key}", f"the total {total} is listed twice")
            if isinstance(points, bool) or not isinstance(points, int) or abs(points) > MAX_POINTS:
                raise VariantError(f"{path}.{key}", f"{value_text(points)} is not a whole number of points (at most "
                                   f"{MAX_POINTS:,} in size)")
            entries[total] = points
        return cls(tuple(sorted(entries.items())))

    def points(self, total: int) -> int:
        """The points a hand landing a player exactly on ``total`` adds (0 when it is not listed)."""
        for listed, points in self.entries:
            if listed == total:
                return points
        return 0

    def to_mapping(self) -> dict[str, int]:
        """The table as TOML/JSON data: ``{"50": -50, ...}``."""
        return {str(total): points for total, points in self.entries}

    def __bool__(self) -> bool:
        return bool(self.entries)


def _whole_key(key: object) -> int | None:
    """A table key as a whole number: an ``int`` or text of digits with an optional minus sign (a TOML key is
    text); None for anything else."""
    if isinstance(key, str):
        text = key.strip()
        digits = text.removeprefix("-")
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
            return None
        key = int(text)
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    return None


def _to_round_bonuses(value: Any) -> TotalBonuses:
    return TotalBonuses.from_mapping(value)


def _player_count(key: object) -> int | None:
    """A strip table's key as a whole number: an ``int`` or text of digits (a TOML key is text); None for
    anything else (a negative or huge number too). Not ``int(key)``, which reads ``3.5`` as 3, ``"1_0"`` as
    10 and ``"٣"`` as 3, and raises ``OverflowError`` for ``inf``."""
    if isinstance(key, str):
        text = key.strip()
        if text.isascii() and text.isdigit() and len(text) <= 9:  # more digits are no player count
            key = int(text)
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < 10**9:
        return key
    return None


def _strip_converter(value: Any) -> tuple[Card, ...] | StripTable:
    if isinstance(value, StripTable):
        return value
    if isinstance(value, Mapping):
        return StripTable.from_mapping(value)
    return _cards_converter("deck.strip")(value)


V = TypeVar("V")


class CardMap(Mapping[Card, V]):
    """An immutable, hashable mapping keyed by cards; keys may be looked up by text.

    Subclasses fix what the values are (:class:`CardValues`: scores,
    :class:`CardSuits`: suits, :class:`CardCards`: cards).
    """

    __slots__ = ("_items", "_map")
    _what: ClassVar[str] = "value"
    _path: ClassVar[str] = ""

    def __init__(self, values: Mapping[Any, Any] | Iterable[tuple[Any, Any]] = (), path: str = "") -> None:
        path = path or self._path
        if isinstance(values, Mapping):
            pairs: Iterable[tuple[Any, Any]] = values.items()
        else:
            try:
                pairs = [(key, raw) for key, raw in values]
            except (TypeError, ValueError):  # not iterable, or not of pairs
                raise VariantError(path, f"expected a table of cards, each with its {self._what}, got "
                                   f"{value_text(values)}") from None
        table: dict[Card, V] = {}
        written: dict[Card, Any] = {}  # each card's key as written, to name both of a card listed twice
        for key, raw in pairs:
            try:
                card = Card.parse(key)
            except CardError as exc:
                raise VariantError(f"{path}.{key}", str(exc)) from None
            if card in written:  # "QS" and "Q♠" (or "qs") are one card: which entry holds would be chance
                raise VariantError(f"{path}.{card.code}", f"{card.code} is listed twice (as "
                                   f"{value_text(written[card])} and {value_text(key)}): list each card once")
            written[card] = key
            try:
                table[card] = self._parse(raw)
            except (ValueError, TypeError) as exc:  # the parsers' messages quote the value and say what is allowed
                raise VariantError(f"{path}.{card.code}", str(exc)) from None
        self._map = table
        self._items = tuple(sorted(table.items(), key=lambda kv: card_order[kv[0].index]))

    @staticmethod
    def _parse(raw: Any) -> Any:  # pragma: no cover - overridden
        return raw

    @staticmethod
    def _data(value: Any) -> Any:
        return value

    def __getitem__(self, key: Card | str) -> V:
        return self._map[Card.parse(key)]

    def __contains__(self, key: object) -> bool:
        try:
            return Card.parse(key) in self._map  # type: ignore[arg-type]
        except (CardError, TypeError):
            return False

    def __iter__(self) -> Iterator[Card]:
        return (card for card, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardMap):
            return type(self) is type(other) and self._items == other._items
        if isinstance(other, Mapping):
            try:
                return self._items == type(self)(other)._items
            except (VariantError, CardError):
                return False
        return NotImplemented

    def __repr__(self) -> str:
        inner = ", ".join(f"{c.code!r}: {self._data(p)!r}" for c, p in self._items)
        return f"{type(self).__name__}({{{inner}}})"

    def to_mapping(self) -> dict[str, Any]:
        """As TOML/JSON data: ``{"QS": 13}``."""
        return {card.code: self._data(value) for card, value in self._items}


class CardValues(CardMap[Score]):
    """Cards to points (whole numbers, or complex ones written ``"13i"``).

    >>> vals = CardValues({"QS": 13, "JD": -10})
    >>> vals["QS"], vals[Card("JD")], "QH" in vals
    (13, -10, False)
    >>> CardValues({"QS": "13i"}).to_mapping()
    {'QS': '13i'}
    """

    _what = "score (a whole number or text like '13i')"
    _path = "scoring.values"

    @staticmethod
    def _parse(raw: Any) -> Score:
        return parse_score(raw, MAX_POINTS)

    @staticmethod
    def _data(value: Any) -> Any:
        return score_data(value)


class CardSuits(CardMap[Suit]):
    """Cards to suits, e.g. ``{"QH": "hearts"}``."""

    _what = "suit"
    _path = "scoring.double_suit"

    @staticmethod
    def _parse(raw: Any) -> Suit:
        if isinstance(raw, Suit):
            return raw
        if not isinstance(raw, str):
            raise TypeError(f"{value_text(raw)} is not a suit: write a suit name such as 'hearts'")
        return Suit.parse(raw)

    @staticmethod
    def _data(value: Any) -> Any:
        return str(value)


class CardExposures(CardMap["Suit | None"]):
    """Cards that may be exposed and what exposing each doubles: ``"card"`` (the card itself) or a suit,
    e.g. ``{"AH": "hearts", "QS": "card"}`` (Gong Zhu's A♥ doubles every heart)."""

    _what = "suit name or \"card\""
    _path = "scoring.exposable"

    @staticmethod
    def _parse(raw: Any) -> Suit | None:
        if raw is None or isinstance(raw, Suit):
            return raw
        if not isinstance(raw, str):
            raise TypeError("write \"card\" (the card itself) or a suit name such as 'hearts'")
        if raw.strip().lower() == "card":
            return None
        return Suit.parse(raw)

    @staticmethod
    def _data(value: Any) -> Any:
        return "card" if value is None else str(value)


class CardCards(CardMap[Card]):
    """Cards to cards, e.g. ``{"QC": "QS"}``."""

    _what = "card"
    _path = "scoring.cancels"

    @staticmethod
    def _parse(raw: Any) -> Card:
        return Card.parse(raw)

    @staticmethod
    def _data(value: Any) -> Any:
        return value.code


def _values_converter(value: Any) -> CardValues:
    if isinstance(value, CardValues):
        return value
    if not isinstance(value, Mapping):
        raise VariantError("scoring.values", f"{value_text(value)} is not a table of card = points, e.g. {{ QS = 13 }}")
    return CardValues(value)


def _map_converter(cls: type[CardMap[Any]], path: str) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        if isinstance(value, cls):
            return value
        if not isinstance(value, Mapping):
            raise VariantError(path, f"{value_text(value)} is not a table keyed by card, e.g. {{ QS = ... }}")
        return cls(value, path)

    return convert


def _to_multiply(value: Any) -> CardValues:
    factors = cast(CardValues, _map_converter(CardValues, "scoring.multiply")(value))
    for card, factor in factors.items():
        if max(abs(factor.real), abs(factor.imag)) > MAX_FACTOR:
            raise VariantError(f"scoring.multiply.{card.code}",
                               f"{value_text(score_data(factor))} is too large: a multiplier is at most {MAX_FACTOR} "
                               "(each part)")
    return factors


def _to_multiply_alone(value: Any) -> CardValues:
    return cast(CardValues, _map_converter(CardValues, "scoring.multiply_alone")(value))


def _to_double_suit(value: Any) -> CardSuits:
    return cast(CardSuits, _map_converter(CardSuits, "scoring.double_suit")(value))


def _to_exposable(value: Any) -> CardExposures:
    return cast(CardExposures, _map_converter(CardExposures, "scoring.exposable")(value))


def _to_cancels(value: Any) -> CardCards:
    pairs = cast(CardCards, _map_converter(CardCards, "scoring.cancels")(value))
    for card, other in pairs.items():
        if card == other:  # it would score nothing once taken, while the moon and the totals still count it
            raise VariantError(f"scoring.cancels.{card.code}", f"{card.code} cannot cancel itself: name another "
                               f"card (a player who takes both scores nothing for {card.code})")
    return pairs


def _to_hearts_flip(value: Any) -> HeartsFlip:
    """``scoring.all_hearts_flips``: a :class:`HeartsFlip` value, or ``true``/``false`` as it was written before
    it became a choice (``true`` is pagat's flip of every penalty card, ``false`` no flip)."""
    if isinstance(value, bool):
        return HeartsFlip.PENALTY_CARDS if value else HeartsFlip.NONE
    return _enum_converter("scoring.all_hearts_flips", HeartsFlip)(value)


def _score_converter(path: str, limit: int = MAX_POINTS) -> Callable[[Any], Score]:
    def convert(value: Any) -> Score:
        try:
            return parse_score(value, limit)
        except ValueError as exc:
            raise VariantError(path, str(exc)) from None

    return convert


def _to_moon_points(value: Any) -> Score:
    return _score_converter("moon.points")(value)


def _optional_card(path: str) -> Callable[[Any], Card | None]:
    def convert(value: Any) -> Card | None:
        if value is None or value == "":
            return None
        try:
            return Card.parse(value)
        except CardError as exc:
            raise VariantError(path, str(exc)) from None

    return convert


def _to_opening_card(value: Any) -> Card | None:
    return _optional_card("play.opening_card")(value)


def _to_opening_taker(value: Any) -> Card | None:
    return _optional_card("play.opening_taker")(value)


def to_teams(value: Any) -> tuple[tuple[int, ...], ...]:
    """Teams as a tuple of seat tuples (``[[0, 2], [1, 3]]``); the split itself is checked when compiling."""
    try:
        if isinstance(value, str | Mapping):
            raise TypeError  # text and tables iterate, but as letters and keys, not seats
        listed = list(value)
        if any(isinstance(team, str | Mapping) for team in listed):
            raise TypeError
        teams = tuple(tuple(team) for team in listed)
    except TypeError:
        raise VariantError("teams", f"{value_text(value)} is not a list of teams such as [[0, 2], [1, 3]]") from None
    for i, team in enumerate(teams):
        for seat in team:
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise VariantError(f"teams[{i}]", f"{value_text(seat)} is not a seat number")
    return teams


# --------------------------------------------------------------------------- passing words

NAMED_CYCLES: dict[str, str] = {
    "four_way": "left, right, across, hold (four-way passing; left, right, hold with an odd number of players)",
    "everyone": "left, right, 2nd left, 2nd right, ... until everyone has passed to everyone, then hold",
    "rotating": "1 left, 2 left, 3 left, ... (rotating pass)",
    "rotating_hold": "1 left, 2 left, 3 left, ..., then hold",
    "left_right": "left and right alternately",
    "left": "always to the left",
    "right": "always to the right",
}
_SPECIAL_ITEMS = ("left", "right", "across", "hold", "scatter", "star", "shuffle", "dealers_choice")
_OFFSET_ITEM = re.compile(r"^(left|right)-([1-9][0-9]?)$")
_PASS_LIST = "left, right, across, hold, left-k, right-k, scatter, star, shuffle or dealers_choice"


def _schedule_converter(value: Any) -> str | tuple[str, ...]:
    path = "passing.schedule"
    if isinstance(value, str):
        word = value.strip().lower()
        if word in NAMED_CYCLES:
            return word
        if word in _SPECIAL_ITEMS or _OFFSET_ITEM.match(word):
            return (word,)
        # each word once: left and right are both named cycles and passes ("did you mean left or left?")
        close = difflib.get_close_matches(word, list(dict.fromkeys([*NAMED_CYCLES, *_SPECIAL_ITEMS])), n=2, cutoff=0.6)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        raise VariantError(path, f"{value_text(value)} is neither a named cycle ({', '.join(NAMED_CYCLES)}) nor a "
                           f"pass ({_PASS_LIST}){hint}")
    try:
        items = list(value)
    except TypeError:
        raise VariantError(path, f"{value_text(value)} is not a list of passes or a named cycle") from None
    if not items:
        raise VariantError(path, "the schedule is empty; use [\"hold\"] for no passing")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise VariantError(f"{path}[{i}]", f"{value_text(item)} is not a pass word")
        word = item.strip().lower()
        if word not in _SPECIAL_ITEMS and not _OFFSET_ITEM.match(word):
            raise VariantError(
                f"{path}[{i}]",
                f"{value_text(item)} is not a pass; use {_PASS_LIST}",
            )
        out.append(word)
    return tuple(out)


# --------------------------------------------------------------------------- sections


class Record:
    """The base of :class:`~heartslib.Variant` and its sections: a keyword that names no field raises
    :class:`~heartslib.VariantError` at the field's path (``"deck.dekcs"``), with the closest field name and every
    field the record has, as :meth:`Variant.from_dict <heartslib.Variant.from_dict>` reports an unknown key
    (instead of the ``TypeError`` of the ``__init__`` attrs writes).

    >>> import heartslib as hl
    >>> hl.DeckRules(dekcs=2)
    Traceback (most recent call last):
    ...
    heartslib.errors.VariantError: deck.dekcs: unknown field; did you mean decks? deck has ...
    """

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        known = _FIELD_NAMES.get(cls)
        if known is None:
            known = _FIELD_NAMES[cls] = frozenset(f.name for f in attrs.fields(cast(Any, cls)) if f.init)
        if not known.issuperset(kwargs):
            section = next((name for name, record in SECTIONS.items() if record is cls), "")
            problems = unknown_fields(kwargs.keys() - known, known, section)
            raise VariantError(problems[0][0], problems[0][1], problems=tuple(problems))
        return super().__new__(cls)


#: Each record class's field names (filled on first use: attrs has made the final class by then).
_FIELD_NAMES: dict[type[Any], frozenset[str]] = {}


@attrs.frozen(kw_only=True, cache_hash=True)
class DeckRules(Record):
    """The pack: how many decks, how the deal is made even, and jokers."""

    decks: int = int_field(
        "deck.decks", 1, meta("decks", "Standard 52-card decks shuffled together.", "000, 001"), 1, 2
    )
    fill: Fill = enum_field(
        "deck.fill",
        Fill,
        Fill.STRIP,
        meta(
            "evening the deal",
            "How the deal is made even when the pack does not divide by the number of players.",
            "000, 001",
            {
                "strip": "remove cards (stripping) so that every player gets the same number",
                "kitty": "deal evenly and put the cards left over into a kitty",
                "jokers": "add jokers until the pack divides evenly",
            },
        ),
    )
    strip: tuple[Card, ...] | StripTable = attrs.field(
        default=parse_cards("2C 2D 3C 2S"),
        converter=_strip_converter,
        metadata=meta(
            "stripping",
            "Cards to remove: a priority order (with fill = \"strip\", take as many from the front "
            "as needed) or a table by number of players (always removed; the fill evens out the rest).",
            "000 (Foster, Culbertson, Morehead), 001",
        ),
    )
    kitty: KittyMode = enum_field(
        "deck.kitty",
        KittyMode,
        KittyMode.FIRST_TRICK,
        meta(
            "kitty",
            "Who takes the kitty.",
            "000 (Morehead), 001",
            {
                "first_trick": "the winner of the first trick takes the whole kitty",
                "one_per_trick": "the winner of each trick takes one kitty card, from the first trick on, "
                "until the kitty is empty",
                "first_and_last": "the first kitty card goes to the first trick's winner and the second "
                "to the last trick's winner",
            },
        ),
    )
    stock: StockDraw = enum_field(
        "deck.stock",
        StockDraw,
        StockDraw.NONE,
        meta(
            "stock",
            "Whether each player is dealt deck.hand_size cards and the rest of the pack forms a face-down stock "
            "that the players draw from into their hands. Draws are the stock's order from the deal, not "
            "choices; a player sees the cards they draw and only the stock's size otherwise.",
            "pagat.com (Hearts, two players); Parlett, The Penguin Book of Card Games (Draw Hearts); Bicycle's "
            "rules (Domino Hearts)",
            {
                "none": "no stock: the whole pack is dealt",
                "after_trick": "after each trick every player draws the top card of the stock, the trick's "
                "winner first and then the others in the order of play, until the stock is empty; then the "
                "hands are played out (two-handed Hearts)",
                "to_follow": "a player who cannot follow suit draws from the stock until they can (with the "
                "stock empty, they discard any card); players drop out as their hands empty, a trick's winner "
                "with no cards left hands the lead to the first player on their left who has some, and the last "
                "player holding cards keeps them and the rest of the stock as taken (Domino Hearts)",
            },
        ),
    )
    hand_size: int = int_field(
        "deck.hand_size",
        0,
        meta(
            "hand size",
            "Cards dealt to each player when the rest of the pack forms a stock (deck.stock); 0 deals the "
            "whole pack.",
            "pagat.com (Hearts, two players: 13 each); Bicycle's rules (Domino Hearts: 6 each)",
        ),
        0,
        52,
    )
    kitty_seen_by_winner: bool = bool_field(
        "deck.kitty_seen_by_winner",
        False,
        meta("seeing the kitty", "A player who takes kitty cards may look at them.", "000 (Morehead)"),
    )
    jokers: int = int_field(
        "deck.jokers",
        0,
        meta(
            "jokers",
            "Jokers added to the pack (with fill = \"jokers\", 0 means as many as make the deal even).",
            "000, 001",
        ),
        0,
        10,
    )
    joker: JokerKind = enum_field(
        "deck.joker",
        JokerKind,
        JokerKind.ZERO_SUITS,
        meta(
            "joker convention",
            "What the added jokers are.",
            "000, 001",
            {
                "zero_suits": "the jokers are the zero of clubs (0♣) and the zero of diamonds (0♦), "
                "ranking below the 2 and behaving as ordinary cards of their suit",
                "valueless": "the jokers are valueless cards that never win a trick",
            },
        ),
    )
    joker_play: JokerPlay = enum_field(
        "deck.joker_play",
        JokerPlay,
        JokerPlay.ANY_TIME,
        meta(
            "playing a joker",
            "When a valueless joker may be played to another player's lead.",
            "000, 001",
            {
                "any_time": "a joker may be played at any time (it always counts as following suit)",
                "when_void": "a joker may be played only when unable to follow suit",
            },
        ),
    )
    joker_lead: JokerLead = enum_field(
        "deck.joker_lead",
        JokerLead,
        JokerLead.FORBIDDEN,
        meta(
            "leading a joker",
            "Whether a valueless joker may lead a trick.",
            "000",
            {
                "forbidden": "a joker may not lead (unless the hand holds nothing else)",
                "call_suit": "a joker may lead and its player names the suit to be followed",
                "next_card": "a joker may lead and the next card played sets the suit",
            },
        ),
    )
    joker_points: int = int_field(
        "deck.joker_points",
        0,
        meta("jokers as penalty cards", "Penalty points for taking a joker (one that scoring.values lists keeps that "
             "value, 0 included).", "000"),
        -100,
        100,
    )
    joker_points_when: JokerPointsWhen = enum_field(
        "deck.joker_points_when",
        JokerPointsWhen,
        JokerPointsWhen.ALWAYS,
        meta(
            "when jokers score",
            "When a joker's points count.",
            "000",
            {
                "always": "a joker scores like a normal penalty card",
                "hearts_led": "a joker scores only when played to a trick led with a heart",
            },
        ),
    )


@attrs.frozen(kw_only=True, cache_hash=True)
class PassingRules(Record):
    """Passing cards before play: how many, in which cycle of directions, and what may not be passed."""

    cards: int = int_field(
        "passing.cards",
        3,
        meta("cards passed", "How many cards each player passes (the most a dealer may name).", "000, 001, 002"),
        1,
        26,
    )
    schedule: str | tuple[str, ...] = attrs.field(
        default="four_way",
        converter=_schedule_converter,
        metadata=meta(
            "passing cycle",
            "The directions of passing, one per hand, repeating.",
            "000, 001, 002",
            {
                **NAMED_CYCLES,
                "left-k / right-k": "to the k-th player to the left or right",
                "across": "to the player opposite",
                "hold": "no passing",
                "scatter": "one card to each opponent (scatter pass)",
                "star": "five players: two cards, one each to the two players opposite (star passing)",
                "shuffle": "the passed cards are pooled, shuffled and dealt out again (shuffle passing)",
                "dealers_choice": "the dealer names the number of cards and the direction (dealer's choice)",
            },
        ),
    )
    forbidden: tuple[Card, ...] = cards_field(
        "passing.forbidden",
        meta("forbidden passes", "Cards that may not be passed (some versions forbid 2♣, Q♠ and A♥).", "000"),
    )
    keep_last_of_suit: bool = bool_field(
        "passing.keep_last_of_suit",
        False,
        meta(
            "no passing the last card of a suit",
            "A pass may not take the last card of a suit from the hand: every suit the passed cards come from "
            "keeps a card, except for the cards of passing.last_of_suit_exempt, which may always be passed "
            "(a suitless joker has no suit to keep).",
            "AyMog's Leekha app (com.AyMog.Leekha, its rules: \"any card ... provided it is not the last card "
            "available from the suit chosen\"); RULES.md section 11",
        ),
    )
    last_of_suit_exempt: tuple[Card, ...] = cards_field(
        "passing.last_of_suit_exempt",
        meta(
            "cards that may always be passed",
            "With passing.keep_last_of_suit, the cards that may be passed however few cards of their suit the "
            "hand keeps (AyMog's Leekha: Q♠ K♠ A♠ and 10♦ J♦ Q♦ K♦ A♦, the leekhas and the cards above them).",
            "AyMog's Leekha app (com.AyMog.Leekha); RULES.md section 11",
        ),
    )


@attrs.frozen(kw_only=True, cache_hash=True)
class PlayRules(Record):
    """Leading and following: the opening lead, breaking hearts, first-trick and forced plays, ties."""

    opening: Opening = enum_field(
        "play.opening",
        Opening,
        Opening.TWO_OF_CLUBS,
        meta(
            "opening lead",
            "Who leads the first trick, and with what.",
            "000, 001, 002",
            {
                "two_of_clubs": "the holder of the lowest club in play (2♣; 3♣ when it is stripped; "
                "0♣ when in play) must lead it",
                "any_club": "the holder of the lowest club in play leads, with any club",
                "eldest_any": "eldest hand (the dealer's left) leads any card",
            },
        ),
    )
    breaking: Breaking = enum_field(
        "play.breaking",
        Breaking,
        Breaking.HEARTS,
        meta(
            "breaking hearts",
            "What unlocks leading hearts.",
            "000, 002",
            {
                "hearts": "hearts may not be led until a heart has been played (the queen does not break hearts)",
                "penalty_cards": "hearts may not be led until a penalty card (Q♠ too) has been played",
                "none": "hearts may be led at any time",
            },
        ),
    )
    lead_hearts_unbroken: LeadHeartsUnbroken = enum_field(
        "play.lead_hearts_unbroken",
        LeadHeartsUnbroken,
        LeadHeartsUnbroken.ONLY_HEARTS,
        meta(
            "leading hearts unbroken",
            "Which hands may lead a heart before hearts are broken.",
            "000",
            {
                "only_hearts": "a player holding nothing but hearts may lead one",
                "only_penalty_cards": "a player holding nothing but hearts and other penalty cards may lead a heart",
            },
        ),
    )
    queen_needs_broken: bool = bool_field(
        "play.queen_needs_broken",
        False,
        meta("leading the black lady", "Q♠ may not be led until hearts are broken.", "000 (Morehead)"),
    )
    first_trick: FirstTrick = enum_field(
        "play.first_trick",
        FirstTrick,
        FirstTrick.NO_POINTS,
        meta(
            "first trick",
            "What may not be played to the first trick.",
            "001, 002",
            {
                "any": "any card may be played to the first trick",
                "no_points": "no penalty card may be played to the first trick (\"no blood\") "
                "unless the player has no other legal card",
                "no_hearts": "no heart may be played to the first trick unless the player has no other legal card",
            },
        ),
    )
    queen_forced: bool = bool_field(
        "play.queen_forced",
        False,
        meta(
            "club play",
            "The holder of Q♠ must play it at the first opportunity: when void in the suit led, "
            "or on a spade lead once a higher spade is in the trick.",
            "000 (Morehead)",
        ),
    )
    must_discard: tuple[Card, ...] = cards_field(
        "play.must_discard",
        meta(
            "forced discards",
            "A player void in the suit led who holds one of these cards must play one of them "
            "(black jack: J♠).",
            "000 (black jack, Likha)",
        ),
    )
    must_discard_if_all: bool = bool_field(
        "play.must_discard_if_all",
        False,
        meta(
            "forced discards when holding all",
            "The forced discard applies only to a player holding every listed card (Likha: Q♠ and 10♦).",
            "000 (Likha)",
        ),
    )
    booster_nines: bool = bool_field(
        "play.booster_nines",
        False,
        meta(
            "booster nines",
            "Each nine played extends the trick by one more round of plays.",
            "000",
        ),
    )
    opening_card: Card | None = attrs.field(
        default=None,
        converter=_to_opening_card,
        metadata=meta(
            "opening card",
            "The card whose holder opens (with opening = \"two_of_clubs\" it must be led; with \"any_club\" "
            "any card of its suit); none means the lowest club in play.",
            "000 (Gong Zhu: 2♠)",
        ),
    )
    opening_taker: Card | None = attrs.field(
        default=None,
        converter=_to_opening_taker,
        metadata=meta(
            "lead after taking a card",
            "From the second hand on, whoever took this card in the previous hand leads the first trick "
            "with any card (Gong Zhu: the pig, Q♠).",
            "000 (Gong Zhu)",
        ),
    )
    identical: Identical = enum_field(
        "play.identical",
        Identical,
        Identical.LAST_WINS,
        meta(
            "identical cards",
            "With two decks: which of two identical cards wins a trick.",
            "000, 001",
            {
                "first_wins": "the first copy played wins (\"first come, first served\")",
                "last_wins": "the most recently played copy wins",
                "cancel": "two identical cards cancel: neither can win, their points still count "
                "(cancellation hearts)",
            },
        ),
    )
    cancel_rollover: CancelRollover = enum_field(
        "play.cancel_rollover",
        CancelRollover,
        CancelRollover.ALL_LED_CANCELLED,
        meta(
            "cancelled tricks",
            "Cancellation hearts: when a trick is cancelled and its cards roll over to the next trick's winner.",
            "000 (Culbertson), 001",
            {
                "all_led_cancelled": "when every card of the suit led is cancelled, the same leader leads again "
                "and the next trick's winner takes both tricks",
                "two_pairs": "when two cancelling pairs appear in one trick (or every card of the suit led "
                "is cancelled) the trick rolls over to the next trick's winner",
            },
        ),
    )
    undercut: bool = bool_field(
        "play.undercut",
        False,
        meta(
            "the undercut rule",
            "Once one of the forced-discard cards (play.must_discard, the leekha cards) lies on the trick, a "
            "player must play a card ranked below the highest of them whenever the cards the other rules allow "
            "hold one (following suit, or a forced discard); a void player's free discard is not bound.",
            "jehadbaeth/Leekha SPEC.md 3.12 and 4.6 (Idlib Leekha)",
        ),
    )
    undercut_ceiling: UndercutCeiling = enum_field(
        "play.undercut_ceiling",
        UndercutCeiling,
        UndercutCeiling.HIGHEST_LEEKHA,
        meta(
            "the undercut's ceiling",
            "The undercut rule (play.undercut): which card on the trick a player must play below.",
            "jehadbaeth/Leekha packages/engine/src/types.ts and legal.ts (undercutRule: leekhaRank or "
            "winningCard, the engine's default)",
            {
                "highest_leekha": "the highest of the leekha cards on the trick (SPEC.md 3.12)",
                "winning_card": "the card winning the trick so far, the highest of the suit led, once a leekha "
                "card lies on the trick",
            },
        ),
    )
    undercut_binds_discards: bool = bool_field(
        "play.undercut_binds_discards",
        False,
        meta(
            "the undercut binds free discards",
            "The undercut rule (play.undercut) binds a void player's free discard too: it must be ranked below "
            "the ceiling whenever the player holds such a card.",
            "jehadbaeth/Leekha packages/engine/src/types.ts and legal.ts (undercutBindsDiscards)",
        ),
    )


@attrs.frozen(kw_only=True, cache_hash=True)
class ScoringRules(Record):
    """Card values: hearts, the queen and any other scoring cards, and the no-tricks bonus."""

    hearts: HeartsScoring = enum_field(
        "scoring.hearts",
        HeartsScoring,
        HeartsScoring.ONE,
        meta(
            "heart values",
            "What each heart scores.",
            "000, 001",
            {
                "one": "each heart scores 1 penalty point",
                "spot": "each heart scores its pip value, J 11, Q 12, K 13, A 14 (spot hearts)",
            },
        ),
    )
    values: CardValues = attrs.field(
        factory=lambda: CardValues({"QS": 13}),
        converter=_values_converter,
        metadata=meta(
            "card values",
            "Points of other scoring cards, replacing the heart rule for any heart listed "
            "(Q♠ 13; J♦ or 10♦ -10; the pink lady Q♥ 13; the rogue 7♣ +7; the black jack J♠ 10).",
            "000, 001",
        ),
    )
    no_tricks: int = int_field(
        "scoring.no_tricks",
        0,
        meta("no tricks", "Points for a player who takes no tricks (not in a hand where the moon is shot).", "000"),
        -1000,
        1000,
    )
    multiply: CardValues = attrs.field(
        factory=CardValues,
        converter=_to_multiply,
        metadata=meta(
            "score multipliers",
            "Taking one of these cards multiplies the taker's score for the hand by the factor "
            "(complex hearts: 10♣ × 2i; Gong Zhu: 10♣ × 2).",
            "000",
        ),
    )
    multiply_alone: CardValues = attrs.field(
        factory=CardValues,
        converter=_to_multiply_alone,
        metadata=meta(
            "multiplier alone",
            "What a multiplier card scores when its taker took no other scoring card (Gong Zhu: 10♣ +50).",
            "000 (Gong Zhu)",
        ),
    )
    double_suit: CardSuits = attrs.field(
        factory=CardSuits,
        converter=_to_double_suit,
        metadata=meta(
            "suit doublers",
            "Taking one of these cards doubles the value of the cards of the named suit its taker took "
            "(royal hearts: Q♥ doubles hearts).",
            "000 (royal hearts)",
        ),
    )
    cancels: CardCards = attrs.field(
        factory=CardCards,
        converter=_to_cancels,
        metadata=meta(
            "cancelling cards",
            "A player who takes both this card and the named one scores nothing for the named one "
            "(royal hearts: Q♣ cancels Q♠).",
            "000 (royal hearts)",
        ),
    )
    all_hearts_flips: HeartsFlip = attrs.field(
        default=HeartsFlip.NONE,
        converter=_to_hearts_flip,
        metadata=meta(
            "all the hearts",
            "What turns positive for a player who takes every heart, in a game the highest total wins (Gong Zhu); "
            "true and false, as older variants wrote it, mean \"penalty_cards\" and \"none\".",
            "000 (Gong Zhu, pagat); the Gongzhu-Society MrIfOffline bots",
            {
                "none": "no flip: the hearts score as usual",
                "hearts": "the hearts turn positive (+200 in Gong Zhu) and the pig keeps its own value (the "
                "Gongzhu-Society bots)",
                "penalty_cards": "every penalty card the player took turns positive: the hearts and the pig too "
                "(+300 with the pig in Gong Zhu, pagat)",
            },
        ),
    )
    settlement: Settlement = enum_field(
        "scoring.settlement",
        Settlement,
        Settlement.NONE,
        meta(
            "counter settlement",
            "Also settle each hand with counters through a pool, from the points of the penalty cards each "
            "player took (before any moon): Match.counters keeps each player's net counters (in an auction, "
            "Match.chips each player's chips).",
            "000 (Foster 1909); Bicycle's 'Auction Hearts' and Foster's Complete Hoyle (auction)",
            {
                "none": "no counters",
                "sweepstake": "each pays a counter per point; the players who took no penalty points share the "
                "pool (odd counters stay), and a pool nobody wins carries over to the next hand",
                "howell": "each pays its points once per opponent, then claims the points it did not take",
                "auction": "Auction Hearts: each deal the players bid chips, once each from eldest hand, for the "
                "right to name the penalty suit (its cards score 1 each; the winner leads); the bid and a chip "
                "per card of that suit taken make a pot that one player who took none wins, or two such players "
                "split (an odd chip stays); otherwise the pot stays and the winner of the last auction names the "
                "suit of the next deal without bidding; the match ends when a player has no chips left, the "
                "most chips winning",
            },
        ),
    )
    chips: int = int_field(
        "scoring.chips",
        50,
        meta(
            "chips",
            "Chips each player starts the match with, in an auction (scoring.settlement = \"auction\"); the match "
            "ends after the hand that leaves a player with none (or fewer). At most 1,000: chips only change "
            "hands, so the match lasts about as many hands as the square of this over the chips a hand moves "
            "(random play: 50 chips end in 1-14 hands, 1,000 in 2-103, 5,000 in hundreds).",
            "gamerules.com 'Auction Hearts' (fifty chips each)",
        ),
        1,
        1_000,
    )
    max_bid: int = int_field(
        "scoring.max_bid",
        0,
        meta(
            "highest bid",
            "The most chips one bid may be, in an auction; 0 = as many as the bidder holds (a bid is never more "
            "than the bidder's chips).",
            "Bicycle 'Auction Hearts' (bids in chips, no limit given)",
        ),
        0,
        1_000_000,
    )
    exposable: CardExposures = attrs.field(
        factory=CardExposures,
        converter=_to_exposable,
        metadata=meta(
            "exposed cards",
            "Before the first lead each player, in turn from the leader, may expose (\"sell\") any of these "
            "cards it holds, publicly; an exposed card doubles its effect for whoever takes it (\"card\": its "
            "value, or for a multiplier its factor and its score alone; a suit: every card of that suit), and may "
            "not be played the first time its suit is led, the lead included, unless it is the holder's only card "
            "of that suit (Gong Zhu: { AH = \"hearts\", QS = \"card\", JD = \"card\", TC = \"card\" }).",
            "pagat.com 'Gong Zhu' (J. McLeod); garytang/gongzhu backend/src/engine",
        ),
    )


@attrs.frozen(kw_only=True, cache_hash=True)
class MoonRules(Record):
    """Shooting the moon (all penalty cards) and the sun (all tricks)."""

    kind: MoonKind = enum_field(
        "moon.kind",
        MoonKind,
        MoonKind.OLD,
        meta(
            "shooting the moon",
            "What taking every penalty card in one hand does.",
            "000, 001, 002; Wikipedia's Black Lady, main rules (\"going for the lot\": \"either zeroise his "
            "running penalty total, or double everyone else's\")",
            {
                "none": "no moon: the hand is scored as usual",
                "no_score": "nobody scores for the hand (Culbertson)",
                "old": "old moon: the shooter scores 0 and every other player scores the moon points",
                "new": "new moon: the shooter subtracts the moon points and the others score 0",
                "choice": "the shooter chooses old moon or new moon",
                "new_if_old_loses": "old moon, unless it would end the game with the shooter losing: then new moon",
                "take_all": "take-all (omnibus): the shooter scores the moon points as plus points, "
                "everyone else 0",
                "penalty": "the shooter scores the moon points as a penalty and the others score 0 "
                "(Likha's 37-point penalty, as heartslib reads it)",
                "lot": "going for the lot: the shooter chooses to return their own running total to 0 or to "
                "double every other player's running total (bonus cards keep their value)",
            },
        ),
    )
    requires: MoonRequires = enum_field(
        "moon.requires",
        MoonRequires,
        MoonRequires.PENALTY_CARDS,
        meta(
            "what the moon needs",
            "Which cards a moon needs.",
            "000",
            {
                "penalty_cards": "a moon needs every penalty card; bonus cards keep their value on top of "
                "the moon result",
                "all_counters": "a moon needs every counting card, bonus cards included",
            },
        ),
    )
    points: Score = attrs.field(
        default=0,
        converter=_to_moon_points,
        metadata=meta(
            "moon points", "Points a moon is worth (0 = the pack's penalty total: 26, 38, 52, 13+13i, ...).", "000, 001"
        ),
    )
    new_after: int = int_field(
        "moon.new_after",
        0,
        meta(
            "new moon threshold",
            "New moon is allowed only once some player has reached this score (0 = always).",
            "000",
        ),
        0,
        100_000,
    )
    new_after_shooter: bool = bool_field(
        "moon.new_after_shooter",
        False,
        meta(
            "new moon threshold for the shooter",
            "The new moon threshold (moon.new_after) looks at the shooter's own score instead of any player's.",
            "000",
        ),
    )
    sun: Sun = enum_field(
        "moon.sun",
        Sun,
        Sun.NONE,
        meta(
            "shooting the sun",
            "What taking every trick in one hand does; with a sun rule, taking every penalty card without "
            "every trick scores normally.",
            "000; GNOME Hearts 0.3.1 (subtract_52)",
            {
                "none": "no sun rule",
                "add_52": "every other player scores twice the moon points (52)",
                "punish_passer": "the punishment rule: the player who passed to the shooter scores twice the "
                "moon points (52), the others the moon points (26); in a hand with no single passer (hold, "
                "scatter, star, shuffle) every other player scores the moon points",
                "clean_slate": "cleaning the slate: the shooter's match score returns to 0",
                "subtract_52": "the sun for the shooter: the shooter scores minus twice the moon points (-52) "
                "and the others score nothing (GNOME Hearts)",
            },
        ),
    )
    sun_skips_first_trick: bool = bool_field(
        "moon.sun_skips_first_trick",
        False,
        meta("sun without the first trick", "The first trick does not count for shooting the sun.", "000"),
    )
    sun_and_moon: bool = bool_field(
        "moon.sun_and_moon",
        False,
        meta(
            "moon and sun together",
            "With a sun rule, the moon rule still scores a hand in which a player took every penalty card but not "
            "every trick (off: a sun rule replaces the moon rule, as 000 has it).",
            "GNOME Hearts (kamarada/gnome-hearts, src/cards.c of 0.3.1; hearts/hearts/engine/scoring.py): a "
            "moon -26 and a sun -52 for the shooter in one game",
        ),
    )
    shooter_cannot_win: bool = bool_field(
        "moon.shooter_cannot_win",
        False,
        meta(
            "no winning on a moon",
            "A player who shot the moon or the sun cannot win the game on that hand: play continues.",
            "000",
        ),
    )
    continue_after_moon: bool = bool_field(
        "moon.continue_after_moon",
        False,
        meta(
            "the game goes on after a moon",
            "The game never ends on a hand in which the moon was shot; when it ends, the lowest score "
            "wins even over the target.",
            "000",
        ),
    )
    big_moon: BigMoon = enum_field(
        "moon.big_moon",
        BigMoon,
        BigMoon.NONE,
        meta(
            "shooting the big moon",
            "A player who takes every penalty card in each of ten consecutive hands (\"260 points over ten "
            "rounds\") shoots the big moon: on the tenth, those ten hands are rescored. Not with partnerships "
            "(no source defines it).",
            "000",
            {
                "none": "no big moon",
                "ten_moons": "the ten hands score the shooter 0 and every other player ten times the moon points "
                "(260)",
                "hundred": "the ten hands score the shooter 0 and every other player 100 (\"in a normal game\")",
            },
        ),
    )


@attrs.frozen(kw_only=True, cache_hash=True)
class EndRules(Record):
    """When the match ends."""

    target: int = int_field(
        "end.target",
        100,
        meta(
            "game",
            "The match ends when a player reaches this score at the end of a hand: at least it when positive, "
            "at most it when negative (Gong Zhu: -1000); 0 = no target.",
            "000",
        ),
        -1_000_000,
        1_000_000,
    )
    winner: Winner = enum_field(
        "end.winner",
        Winner,
        Winner.LOWEST,
        meta(
            "who wins",
            "Whether the lowest or the highest total wins (ties share the win).",
            "000, 002",
            {"lowest": "the lowest total wins", "highest": "the highest total wins (Gong Zhu)"},
        ),
    )
    measure: Measure = enum_field(
        "end.measure",
        Measure,
        Measure.SCORE,
        meta(
            "measuring scores",
            "What the target and the ranking look at.",
            "000 (complex hearts)",
            {"score": "the score itself", "magnitude": "the score's absolute value (complex hearts)"},
        ),
    )
    lives: int = int_field(
        "end.lives",
        0,
        meta(
            "lives",
            "Each player starts with this many lives and loses one for a hand scoring at least "
            "end.life_threshold; the match also ends when at most one player has lives left (0 = no lives). Not "
            "with partnerships (no source defines it).",
            "000 (danger hearts)",
        ),
        0,
        100,
    )
    life_threshold: int = int_field(
        "end.life_threshold",
        15,
        meta("losing a life", "Points in one hand that cost a life.", "000 (danger hearts)"),
        1,
        100_000,
    )
    reset_at_exact: bool = bool_field(
        "end.reset_at_exact",
        False,
        meta(
            "exactly the target",
            "A score of exactly the target returns to 0, so more than the target is needed to end.",
            "000",
        ),
    )
    magic_multiple: int = int_field(
        "end.magic_multiple",
        0,
        meta(
            "magic numbers",
            "A total that a hand lands exactly on a positive multiple of this number resets to the average of the "
            "highest and the lowest of the other players' totals, rounded down (the Twanger: 25; 0 = off). "
            "Applied after the exact-target and multiple-of-50 rules, to the totals they leave.",
            "Hearts apps (Dodofox's \"magic numbers\"; RULES.md section 11, the Twanger)",
        ),
        0,
        1000,
    )
    round_bonuses: TotalBonuses = attrs.field(
        default=TotalBonuses(()),
        converter=_to_round_bonuses,
        metadata=meta(
            "bonuses for round scores",
            "Points a hand adds to a player whose total it lands exactly on one of these totals (the two-deck "
            "game's bonuses for \"round\" scores: +50, +100, +150; the values are the table's, e.g. "
            "{ \"50\" = -50, \"100\" = -50, \"150\" = -50 }). Applied after the exact-target reset, before magic "
            "numbers; not with end.exact_fifty.",
            "001 (two decks: bonuses for round scores, +50, +100 and +150, values not given); RULES.md section 11",
        ),
    )
    hands: int = int_field(
        "end.hands", 0, meta("fixed hands", "The match ends after this many hands (0 = no limit).", "000"), 0, 10_000
    )
    exact_fifty: ExactFifty = enum_field(
        "end.exact_fifty",
        ExactFifty,
        ExactFifty.NONE,
        meta(
            "exactly a multiple of 50",
            "A total that a hand lands exactly on a multiple of 50 is reduced by 50 (after the exact-target "
            "reset, which wins where both apply).",
            "Wikipedia's Hearts scoring variants; Trickster Cards (\"Any 50x\", \"50x > 50\")",
            {
                "none": "no reduction",
                "any": "any multiple of 50: 50 becomes 0, 100 becomes 50 (\"Any 50x\")",
                "above_50": "a multiple of 50 above 50: 100 becomes 50, 150 becomes 100, 50 stays (\"50x > 50\")",
            },
        ),
    )
    win_target: int = int_field(
        "end.win_target",
        0,
        meta(
            "winning target",
            "The match also ends when a player reaches this score at the end of a hand, that player winning "
            "(the two-sided end, beside end.target): at least it where the highest total wins (Gong Zhu: +1000), "
            "at most it where the lowest does; 0 = none.",
            "Gong Zhu (Wikipedia: \"also not more than 1000\"; garytang/gongzhu)",
        ),
        -1_000_000,
        1_000_000,
    )
    team_scores: bool = bool_field(
        "end.team_scores",
        False,
        meta(
            "team scores",
            "With partnerships, a team's total is the sum of its members' and the end and the winners are judged "
            "on team totals (the best team total wins, ties share the win), not on the players' own totals.",
            "Gong Zhu teams mode (garytang/gongzhu)",
        ),
    )
    losing_team: TeamLoss = enum_field(
        "end.losing_team",
        TeamLoss,
        TeamLoss.WORST_PLAYER,
        meta(
            "the losing team",
            "With partnerships and players' own totals (end.team_scores off): which team loses once a player's "
            "total ends the match.",
            "jehadbaeth/Leekha SPEC.md (Idlib); blog.jawaker.com/en/leekha-rules-en (Jawaker's Leekha: a "
            "player's 101 ends the match and the team with the lower total wins)",
            {
                "worst_player": "the team of the worst total among the players who reached the target (team "
                "totals break a tie between players of different teams)",
                "worst_team_total": "the team whose members' totals add up worst; tied team totals play on",
            },
        ),
    )
    next_dealer: NextDealer = enum_field(
        "end.next_dealer",
        NextDealer,
        NextDealer.ROTATE,
        meta(
            "next dealer",
            "Who deals the next hand.",
            "000, 001; jehadbaeth/Leekha SPEC.md (Idlib); RULES.md section 11 (Likha: the Q♠ taker deals next)",
            {
                "rotate": "the deal passes one seat on in the direction of play",
                "queen_taker": "the player who took Q♠ deals the next hand (so the next lead falls to the seat "
                "after that player); the deal passes on as usual when nobody took it",
                "most_points": "the player who scored the most points in the hand deals the next one (the worst "
                "hand score: the highest where the lowest total wins); among tied players, whoever took the first "
                "card of end.dealer_ties, then the first tied player after the dealer in the direction of play",
            },
        ),
    )
    dealer_ties: tuple[Card, ...] = cards_field(
        "end.dealer_ties",
        meta(
            "dealer ties",
            "With next_dealer = \"most_points\", the cards that break a tie in this order: the tied player who "
            "took the first of them deals (Idlib: K♣, then Q♠, then 10♦).",
            "jehadbaeth/Leekha SPEC.md (Idlib)",
        ),
    )


SECTIONS: dict[str, type[Any]] = {
    "deck": DeckRules,
    "passing": PassingRules,
    "play": PlayRules,
    "scoring": ScoringRules,
    "moon": MoonRules,
    "end": EndRules,
}


def _section_converter(name: str) -> Callable[[Any], Any]:
    cls = SECTIONS[name]

    def convert(value: Any) -> Any:
        if isinstance(value, cls):
            return value
        if isinstance(value, Mapping):
            return read_section(cls, name, value)
        raise VariantError(name, f"expected a table of {name} rules, got {value_text(value)}")

    return convert


def to_deck(value: Any) -> DeckRules:
    """The ``deck`` section from a section record or a table of its fields."""
    return cast(DeckRules, _section_converter("deck")(value))


def to_passing(value: Any) -> PassingRules:
    """The ``passing`` section from a section record or a table of its fields."""
    return cast(PassingRules, _section_converter("passing")(value))


def to_play(value: Any) -> PlayRules:
    """The ``play`` section from a section record or a table of its fields."""
    return cast(PlayRules, _section_converter("play")(value))


def to_scoring(value: Any) -> ScoringRules:
    """The ``scoring`` section from a section record or a table of its fields."""
    return cast(ScoringRules, _section_converter("scoring")(value))


def to_moon(value: Any) -> MoonRules:
    """The ``moon`` section from a section record or a table of its fields."""
    return cast(MoonRules, _section_converter("moon")(value))


def to_end(value: Any) -> EndRules:
    """The ``end`` section from a section record or a table of its fields."""
    return cast(EndRules, _section_converter("end")(value))



def field_metadata(cls: type[Any]) -> list[tuple[str, Any, dict[str, Any]]]:
    """``(name, default, metadata)`` of every documented field of a section or :class:`~heartslib.Variant`."""
    out = []
    for f in attrs.fields(cls):
        meta = f.metadata.get(META_KEY)
        if meta is None:
            continue
        factory = getattr(f.default, "factory", None)
        default = factory() if factory is not None else f.default
        out.append((f.name, default, meta))
    return out


class VariantFields(Protocol):
    """A variant as the compiler and the rules text read it: the table fields and the six sections.

    :class:`heartslib.Variant` is the one implementation; the modules below it
    (the engine's compiler, :mod:`heartslib.describe`) are typed against this
    protocol so that they need not import it.
    """

    @property
    def name(self) -> str:
        """The variant's name."""

    @property
    def source(self) -> str:
        """Where its rules come from."""

    @property
    def players(self) -> int:
        """Number of players."""

    @property
    def direction(self) -> Direction:
        """Direction of play."""

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Fixed partnerships (empty without)."""

    @property
    def deck(self) -> DeckRules:
        """The pack."""

    @property
    def passing(self) -> PassingRules:
        """Passing."""

    @property
    def play(self) -> PlayRules:
        """Leading and following."""

    @property
    def scoring(self) -> ScoringRules:
        """Card values and modifiers."""

    @property
    def moon(self) -> MoonRules:
        """The moon and the sun."""

    @property
    def end(self) -> EndRules:
        """The end of the match."""


def field_paths(v: VariantFields) -> list[tuple[str, Any]]:
    """Every field of a variant as ``(path, value)``: the table fields (``"players"``), then each section's
    (``"deck.decks"``), in declaration order."""
    out: list[tuple[str, Any]] = [(name, getattr(v, name)) for name in TABLE_FIELDS]
    for section in SECTIONS:
        record = getattr(v, section)
        out += [(f"{section}.{f.name}", getattr(record, f.name)) for f in attrs.fields(type(record))]
    return out


#: The variant's own fields that are not sections, in declaration order.
TABLE_FIELDS: tuple[str, ...] = ("name", "source", "players", "direction", "teams")
