"""The variant model: immutable, validated rules of one game of the hearts family.

A :class:`Variant` is pure data: the table (``players``, ``direction``,
``teams``) and six frozen sections (``deck``, ``passing``, ``play``,
``scoring``, ``moon``, ``end``; :mod:`heartslib.sections`). Every field
carries metadata – the players' words for the rule, what each value means and
the source – which drives :meth:`Variant.describe` and the rules reference,
so they cannot drift from the code. A variant is validated and compiled once,
when built (:attr:`Variant.rules`).

>>> import heartslib as hl
>>> v = hl.preset("standard").replace(players=5, passing={"schedule": "everyone"})
>>> v.players, v.passing.schedule
(5, 'everyone')
>>> hl.Variant.from_toml(v.to_toml()) == v
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import attrs

from heartslib.cards import Card
from heartslib.describe import describe
from heartslib.engine.rules import Rules, compile_rules
from heartslib.enums import Direction
from heartslib.errors import VariantError, arg_text
from heartslib.points import Score
from heartslib.sections import (
    META_KEY,
    SECTIONS,
    CardCards,
    CardMap,
    CardSuits,
    CardValues,
    DeckRules,
    EndRules,
    MoonRules,
    PassingRules,
    PlayRules,
    Record,
    ScoringRules,
    StripTable,
    enum_field,
    field_metadata,
    int_field,
    meta,
    text_validator,
    to_deck,
    to_end,
    to_moon,
    to_passing,
    to_play,
    to_scoring,
    to_teams,
)
from heartslib.serialize import read_section, read_toml, read_variant, record_data, toml_text
from heartslib.unread import unread_fields

# The sections and their value types live in heartslib.sections; they are imported from here too.
__all__ = [
    "META_KEY",
    "SECTIONS",
    "CardCards",
    "CardMap",
    "CardSuits",
    "CardValues",
    "DeckRules",
    "EndRules",
    "MoonRules",
    "PassingRules",
    "PlayRules",
    "ScoringRules",
    "StripTable",
    "Variant",
    "expect_variant",
    "field_metadata",
]


@attrs.frozen(kw_only=True, cache_hash=True)
class Variant(Record):
    """The complete rules of one game: pure, immutable, validated data.

    Build one from a preset (:func:`heartslib.preset`), from keyword
    arguments, from a dict or from TOML. Sections may be given as dicts.
    Impossible combinations, bad values and unknown fields raise
    :class:`~heartslib.VariantError` naming the field.

    >>> v = Variant(players=3, deck={"strip": ["2S"]}, passing={"schedule": "left"})
    >>> v.deal_size, v.penalty_total
    (17, 26)
    """

    name: str = attrs.field(
        default="custom",
        validator=text_validator("name", blank=False),
        metadata=meta("name", "The variant's name, shown by describe(), saves and messages: any text that is not "
                      "empty or only spaces."),
    )
    source: str = attrs.field(
        default="",
        validator=text_validator("source"),
        metadata=meta("source", "Where these rules come from."),
    )
    players: int = int_field(
        "players", 4, meta("players", "Number of players: 3-10, 11 with two decks; 2 in a game with a stock "
                           "(deck.stock: two-handed Hearts).", "000, 001, pagat.com"), 2, 11
    )
    direction: Direction = enum_field(
        "direction",
        Direction,
        Direction.CLOCKWISE,
        meta(
            "direction of play",
            "Which way play, the deal and \"left\" go.",
            "000",
            {"clockwise": "play goes clockwise", "anticlockwise": "play goes anticlockwise (Likha)"},
        ),
    )
    teams: tuple[tuple[int, ...], ...] = attrs.field(
        default=(),
        converter=to_teams,
        metadata=meta(
            "partnerships",
            "Fixed teams, e.g. [[0, 2], [1, 3]]: the team of the player who reaches the target loses "
            "(the higher score's team when players of several teams reach it in the same hand).",
            "000 (Likha)",
        ),
    )
    deck: DeckRules = attrs.field(factory=DeckRules, converter=to_deck)
    passing: PassingRules = attrs.field(factory=PassingRules, converter=to_passing)
    play: PlayRules = attrs.field(factory=PlayRules, converter=to_play)
    scoring: ScoringRules = attrs.field(factory=ScoringRules, converter=to_scoring)
    moon: MoonRules = attrs.field(factory=MoonRules, converter=to_moon)
    end: EndRules = attrs.field(factory=EndRules, converter=to_end)

    SECTION_NAMES: ClassVar[tuple[str, ...]] = tuple(SECTIONS)

    def __attrs_post_init__(self) -> None:
        # compiling judges the combinations of fields (raising VariantError with every problem) and keeps
        # the tables the engine plays from
        self.rules  # noqa: B018

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # pickled as its fields; the compiled rules are rebuilt when loaded
        return (_variant_from_fields, ({f.name: getattr(self, f.name) for f in attrs.fields(Variant) if f.init},))

    # ------------------------------------------------------------ derived facts

    @functools.cached_property
    def rules(self) -> Rules:
        """The variant compiled into the tables the engine plays from (:class:`heartslib.engine.rules.Rules`)."""
        return compile_rules(self)

    @property
    def deal_size(self) -> int:
        """Cards dealt to each player."""
        return self.rules.hand_size

    @property
    def pack(self) -> tuple[Card, ...]:
        """Every card in play (hands and kitty), sorted; copies repeat."""
        return self.rules.pack_cards

    @property
    def kitty_size(self) -> int:
        """Cards left over in the kitty after the deal."""
        return self.rules.kitty_size

    @property
    def penalty_total(self) -> Score:
        """The pack's penalty points: the sum of the values of the cards that count against their taker
        (26 standard, 38 pink lady, 13+13i complex hearts)."""
        return self.rules.penalty_total

    @property
    def moon_points(self) -> Score:
        """What a moon is worth: ``moon.points`` or the pack's penalty total."""
        return self.rules.moon_points

    # ------------------------------------------------------------ building

    def replace(self, **changes: Any) -> Variant:
        """A copy with some fields changed; a section given as a dict changes only its listed fields.

        A copy whose rules differ is no longer the game its name and source describe: unless given, its name
        gains " (modified)" and its source becomes "based on NAME: SOURCE".

        >>> import heartslib as hl
        >>> house = hl.preset("standard").replace(moon={"kind": "new"})
        >>> house.moon.kind, house.name, house.source[:22]
        (<MoonKind.NEW: 'new'>, 'standard (modified)', 'based on standard: 002')
        """
        resolved: dict[str, Any] = {}
        for key, value in changes.items():
            if key in SECTIONS and isinstance(value, Mapping):
                resolved[key] = read_section(SECTIONS[key], key, value, base=getattr(self, key))
            else:
                resolved[key] = value
        new = attrs.evolve(self, **resolved)  # an unknown field: VariantError (Record)
        if ("name" in changes and "source" in changes) or all(
            getattr(new, f.name) == getattr(self, f.name) for f in attrs.fields(Variant) if f.name not in _LABELS
        ):
            return new
        # other rules than the ones the name and the source describe: say so, unless both were given
        labels: dict[str, Any] = {}
        if "name" not in changes and not self.name.endswith(_MODIFIED):
            labels["name"] = self.name + _MODIFIED
        if "source" not in changes and not self.source.startswith("based on "):
            labels["source"] = f"based on {self.name}" + (f": {self.source}" if self.source else "")
        return attrs.evolve(new, **labels) if labels else new

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        """Build a variant from plain data (the TOML/JSON schema); unknown keys are rejected.

        >>> v = Variant.from_dict({"players": 5, "passing": {"schedule": "everyone"}, "moon": {"kind": "new"}})
        >>> v.moon.kind.value
        'new'
        """
        variant: Variant = read_variant(cls, SECTIONS, data)
        return variant

    def to_dict(self) -> dict[str, Any]:
        """The variant as plain data (str, int, bool, lists and dicts) that :meth:`from_dict` reads back."""
        return record_data(self)

    @classmethod
    def from_toml(cls, text_or_path: str | Path) -> Variant:
        """Read a variant from TOML text or from a path to a ``.toml`` file.

        >>> Variant.from_toml('players = 4\\n[moon]\\nkind = "new"\\n').moon.kind.value
        'new'
        """
        return cls.from_dict(read_toml(text_or_path))

    def to_toml(self) -> str:
        """The variant as TOML text that :meth:`from_toml` reads back."""
        return toml_text(self.to_dict())

    def describe(self) -> str:
        """The rules in plain English, generated from the fields and their metadata."""
        return describe(self)

    def unread_fields(self) -> tuple[tuple[str, str], ...]:
        """The fields set away from their defaults that none of this variant's rules reads, as ``(path, why)``:
        a new-moon threshold with no moon, a kitty mode with no kitty. The variant plays as if they were at
        their defaults; ``heartslib validate`` prints them as notes (``heartslib.unread`` judges them). Empty
        for every preset.

        >>> import heartslib as hl
        >>> hl.preset("black_maria").replace(play={"opening_card": "2S"}).unread_fields()[0][0]
        'play.opening_card'
        """
        return tuple(unread_fields(self))


#: The fields that label a variant rather than make its rules, and what :meth:`Variant.replace` adds to the
#: name of a copy with other rules.
_LABELS = ("name", "source")
_MODIFIED = " (modified)"


def expect_variant(value: object) -> Variant:
    """``value`` if it is a :class:`Variant`, else :class:`~heartslib.VariantError`: the check of the functions and
    constructors that take a variant (``Match``, ``Round.deal``, ``simulate``, ``score_cards``, ...).

    >>> expect_variant("standard")
    Traceback (most recent call last):
    ...
    heartslib.errors.VariantError: expected a Variant (e.g. hl.preset('standard')), got 'standard'
    """
    if isinstance(value, Variant):
        return value
    raise VariantError("", f"expected a Variant (e.g. hl.preset('standard')), got {arg_text(value)}")


def _variant_from_fields(fields: dict[str, Any]) -> Variant:
    """A pickled :class:`Variant` loaded again (see ``Variant.__reduce__``)."""
    return Variant(**fields)
