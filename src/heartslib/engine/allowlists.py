"""The vocabulary of allow-lists: which values of which variant fields a piece of code implements.

An allow-list maps a field's path (``"deck.decks"``) to :data:`ANY` (every
value, or a field the code never reads), a tuple of the values allowed, or an
:class:`Only` condition over the variant's fields; :func:`refusals` names the
fields of a variant that keep it off the code the list describes, and
:func:`admits` says whether none do. A field a list does not name must be at
its default (:data:`DEFAULTS`, the behaviour from before the option existed),
so a new option is refused until someone lists it. The engine's fast paths
(:mod:`heartslib.engine.fastpath`) and the batched environment
(:mod:`heartslib.vector.support`) state what they implement in it.

>>> import heartslib as hl
>>> v = hl.preset("black_maria")
>>> "deck.strip" in refusals(v, {}), admits(v, {path: ANY for path in refusals(v, {})})
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from heartslib.sections import SECTIONS, VariantFields, field_paths

__all__ = ["ANY", "DEFAULTS", "Allowed", "Only", "admits", "refusals"]


@attrs.frozen
class Only:
    """An allow-list entry that admits a field's value when ``test(variant)`` holds (``why`` says when)."""

    why: str
    test: Callable[[VariantFields], bool] = attrs.field(repr=False)


#: The code implements every value of the field (or does not depend on it).
ANY: Final = "any"

Allowed = str | tuple[Any, ...] | Only


def _allows(entry: Allowed, value: Any, v: VariantFields) -> bool:
    if isinstance(entry, Only):
        return entry.test(v)
    if isinstance(entry, tuple):
        return value in entry
    return entry == ANY


#: Every section field's default (``"deck.decks"``: 1, ...): its value in a section built with no arguments.
DEFAULTS: Final[Mapping[str, Any]] = {
    f"{name}.{f.name}": getattr(section(), f.name) for name, section in SECTIONS.items() for f in attrs.fields(section)
}


def refusals(v: VariantFields, allow: Mapping[str, Allowed]) -> list[str]:
    """The fields of ``v`` that keep it off the fast path ``allow`` describes: a listed field whose value the
    entry does not allow, and a field the list does not name at any value but its default."""
    return [path for path, value in field_paths(v)
            if not (_allows(allow[path], value, v) if path in allow else path in DEFAULTS and value == DEFAULTS[path])]


def admits(v: VariantFields, allow: Mapping[str, Allowed]) -> bool:
    """Whether ``v`` may take the fast path ``allow`` describes: each listed field's value allowed, each field
    the list does not name at its default (a new option plays on the general path until a path lists it)."""
    return not refusals(v, allow)
