"""Fuzzing the edges: mutated TOML variants, variant data, JSON saves, card and action text.

Bad input must raise only the documented exceptions (VariantError for
variants, SaveError for saves, CardError for card text, all ValueError),
never anything else, and input that loads must load as written: never
silently coerced (``players = true``, ``decks = 2.0``) or half-read.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import tomllib
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst

PRESETS = [hl.preset(name) for name in hl.preset_names()]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, 2, 3, 4, 11, 12, 13, 52, 100, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "left", "LEFT ", "old", "QS", "10H", "JK", "0C", "2C 3C", "four_way", "cancel", "kitty"]),
)
json_values = st.recursive(
    scalars,
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=6), kids, max_size=3)),
    max_leaves=10,
)
TOML_TOKENS = ["=", "\n", "[", "]", "{", "}", '"', "'", ",", ".", " ", "#", "0", "2", "1e3", "true", "-", "inf",
               "nan", "[deck]", "[moon]", "players", "decks", "kind", "\"QS\"", "[[x]]", "\\u0000", "é"]


# --------------------------------------------------------------------------- variants


def _value_for(key: Any) -> st.SearchStrategy[Any]:
    return json_values


def _field_types() -> dict[tuple[str | None, str], type]:
    """The kind of every int, bool and enum field (section None: top level); enums map to ``str``."""
    out: dict[tuple[str | None, str], type] = {}
    for section, cls in [(None, hl.Variant), *((name, type(getattr(hl.Variant(), name)))
                                              for name in hl.Variant.SECTION_NAMES)]:
        default = cls() if section is not None else hl.Variant()
        for f in attrs.fields(cls):
            value = getattr(default, f.name)
            if hasattr(value, "value") and isinstance(value.value, str):
                out[(section, f.name)] = str
            elif isinstance(value, bool | int):
                out[(section, f.name)] = type(value)
    return out


FIELD_TYPES = _field_types()


def _check_loaded_as_written(v: hl.Variant, data: Any) -> None:
    """A variant that loaded must say what the data said: whole numbers and booleans exactly, enums by name."""
    assert hl.Variant.from_dict(v.to_dict()) == v
    assert hl.Variant.from_toml(v.to_toml()) == v
    if not isinstance(data, dict):
        return
    out = v.to_dict()
    for key, given_value in data.items():
        sections = [(key, given_value)] if isinstance(given_value, dict) and key in hl.Variant.SECTION_NAMES else []
        items = [((None, key), given_value, out.get(key))] if not sections else [
            ((key, field), sub, out[key].get(field)) for key, sec in sections for field, sub in sec.items()
        ]
        for where, given_item, loaded in items:
            kind = FIELD_TYPES.get(where)
            if kind is bool:
                assert given_item is loaded, f"{where}: {given_item!r} loaded as {loaded!r}"
            elif kind is int:
                assert type(given_item) is int and given_item == loaded, f"{where}: {given_item!r} loaded as {loaded!r}"
            elif kind is str:
                assert isinstance(given_item, str), f"{where}: {given_item!r} loaded as {loaded!r}"
                word = given_item.strip().lower()
                assert loaded in (word, word.replace("-", "_")), f"{where}: {given_item!r} loaded as {loaded!r}"


@given(st.sampled_from(PRESETS), st.data())
def test_mutated_variant_data_raises_variant_error_or_loads_as_written(v: hl.Variant, data: st.DataObject) -> None:
    d = v.to_dict()
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        where = data.draw(st.sampled_from(["top", "section", "unknown", "delete"]), label="where")
        if where == "top":
            key = data.draw(st.sampled_from(sorted(d)))
            d[key] = data.draw(_value_for(key))
        elif where == "section":
            section = data.draw(st.sampled_from(hl.Variant.SECTION_NAMES))
            if isinstance(d.get(section), dict) and d[section]:
                d[section][data.draw(st.sampled_from(sorted(d[section])))] = data.draw(json_values)
            else:
                d[section] = data.draw(json_values)
        elif where == "unknown":
            d[data.draw(st.text(max_size=8))] = data.draw(json_values)
        else:
            key = data.draw(st.sampled_from(sorted(d)))
            del d[key]
    try:
        loaded = hl.Variant.from_dict(d)
    except hl.VariantError:
        return
    _check_loaded_as_written(loaded, d)


@given(st.sampled_from(PRESETS), st.data())
def test_mutated_toml_raises_variant_error_or_loads_as_written(v: hl.Variant, data: st.DataObject) -> None:
    text = v.to_toml()
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        at = data.draw(st.integers(0, len(text)), label="at")
        op = data.draw(st.sampled_from(["insert", "delete", "replace"]), label="op")
        piece = data.draw(st.one_of(st.sampled_from(TOML_TOKENS), st.text(max_size=4)), label="piece")
        if op == "insert":
            text = text[:at] + piece + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + data.draw(st.integers(1, 20)):]
        else:
            text = text[:at] + piece + text[at + len(piece):]
    try:
        loaded = hl.Variant.from_toml(text)
    except hl.VariantError:
        return
    _check_loaded_as_written(loaded, tomllib.loads(text))


@given(st.text(max_size=40))
def test_any_text_is_a_variant_error_or_a_variant(text: str) -> None:
    assume("\n" in text or not text.endswith(".toml"))  # a path would be read from disk
    with contextlib.suppress(hl.VariantError):
        hl.Variant.from_toml(text)


@pytest.mark.parametrize("key", ["name", "source"])
def test_a_non_text_name_is_a_variant_error(key: str) -> None:
    with pytest.raises(hl.VariantError):
        hl.Variant.from_dict({key: None})


@pytest.mark.parametrize(
    ("section", "field", "value"),
    [(None, "players", True), (None, "players", 4.0), (None, "players", "4"), ("deck", "decks", 2.0),
     ("deck", "kitty_seen_by_winner", 1), ("end", "target", "100"), ("moon", "points", None),
     ("passing", "cards", [3]), ("scoring", "values", {"QS": 13.0}), ("scoring", "values", {"QS": True})],
)
def test_wrong_types_are_rejected_not_coerced(section: str | None, field: str, value: Any) -> None:
    d = hl.preset("standard").to_dict()
    if section is None:
        d[field] = value
    else:
        d[section][field] = value
    with pytest.raises(hl.VariantError):
        hl.Variant.from_dict(d)


# --------------------------------------------------------------------------- saves


@st.composite
def saves(draw: st.DrawFn) -> dict[str, Any]:
    v = draw(st.one_of(st.sampled_from(PRESETS[:6]), hst.variants(players=st.integers(3, 6))), label="variant")
    m = draw(hst.matches(v, max_steps=120), label="match")
    return m.to_dict()


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


def _set(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node[path[0]] = _set(node[path[0]], path[1:], value)
    return node


def _check_loaded_save(loaded: hl.Match, data: dict[str, Any]) -> None:
    """A save that loaded is exactly the game the data describes."""
    out = loaded.to_dict()
    assert out["actions"] == [hl.action_from_dict(a).to_dict() for a in data["actions"]]
    for key in ("seed", "dealer", "hand_number", "state", "format", "version"):
        assert out[key] == data[key], key
    assert loaded.variant == hl.Variant.from_dict(data["variant"])
    assert hl.Match.from_json(loaded.to_json()) == loaded


@given(saves(), st.data())
def test_mutated_saves_raise_save_error_or_load_as_written(save: dict[str, Any], data: st.DataObject) -> None:
    for _ in range(data.draw(st.integers(1, 2), label="mutations")):
        op = data.draw(st.sampled_from(["set", "set", "drop_action", "swap_actions", "delete_key"]), label="op")
        if op == "set":
            path = data.draw(st.sampled_from(_paths(save)[1:]), label="path")
            save = _set(save, path, data.draw(_value_for(path[-1] if path[:1] == ("variant",) else ""), label="value"))
        elif op == "drop_action" and isinstance(save.get("actions"), list) and save["actions"]:
            del save["actions"][data.draw(st.integers(0, len(save["actions"]) - 1))]
        elif op == "swap_actions" and isinstance(save.get("actions"), list) and len(save["actions"]) > 1:
            i = data.draw(st.integers(0, len(save["actions"]) - 2))
            save["actions"][i], save["actions"][i + 1] = save["actions"][i + 1], save["actions"][i]
        elif op == "delete_key":
            del save[data.draw(st.sampled_from(sorted(save)))]
    text = json.dumps(save)
    try:
        loaded = hl.Match.from_json(text)
    except hl.SaveError:
        return
    _check_loaded_save(loaded, json.loads(text))


@given(saves(), st.data())
def test_corrupted_save_text_raises_save_error_or_loads_as_written(save: dict[str, Any], data: st.DataObject) -> None:
    text = json.dumps(save)
    at = data.draw(st.integers(0, len(text)), label="at")
    op = data.draw(st.sampled_from(["truncate", "flip", "insert"]), label="op")
    if op == "truncate":
        text = text[:at]
    elif op == "flip":
        text = text[:at] + data.draw(st.characters(), label="char") + text[at + 1:]
    else:
        text = text[:at] + data.draw(st.text(max_size=6), label="piece") + text[at:]
    try:
        loaded = hl.Match.from_json(text)
    except hl.SaveError:
        return
    _check_loaded_save(loaded, json.loads(text))


@given(st.one_of(json_values, st.binary(max_size=20)))
def test_anything_else_is_a_save_error(value: Any) -> None:
    text = value if isinstance(value, bytes) else json.dumps(value)
    with pytest.raises(hl.SaveError):
        hl.Match.from_json(text)


def test_a_truncated_action_list_with_a_stale_state_is_rejected() -> None:
    m = hl.Match(hl.preset("standard"), seed=3)
    rng = random.Random(3)
    while m.hand_number == 0:
        m.apply(hst.random_action(m, rng))
    data = m.to_dict()
    data["actions"] = data["actions"][:-1]  # back into hand 0, but the state says hand 1
    with pytest.raises(hl.SaveError):
        hl.Match.from_dict(data)


# --------------------------------------------------------------------------- cards and actions


@given(st.text(max_size=6))
def test_card_text_is_a_card_or_a_card_error(text: str) -> None:
    try:
        card = hl.Card.parse(text)
    except hl.CardError:
        return
    assert hl.Card.parse(card.code) is card


@given(st.one_of(st.text(max_size=20), st.lists(st.text(max_size=4), max_size=5)))
def test_card_lists_are_cards_or_a_card_error(value: Any) -> None:
    try:
        cards = hl.parse_cards(value)
    except hl.CardError:
        return
    assert hl.parse_cards([c.code for c in cards]) == cards


@given(st.one_of(st.text(max_size=20), st.sampled_from(["0:play QS", "1:pass 2C 3C 4C", "2:choose new", "0:play"])))
def test_action_text_is_an_action_or_a_value_error(text: str) -> None:
    try:
        action = hl.action_from_text(text)
    except ValueError:
        return
    assert hl.action_from_text(action.text()) == action


@given(json_values)
def test_action_data_is_an_action_or_a_value_error(value: Any) -> None:
    try:
        action = hl.action_from_dict(value)
    except ValueError:
        return
    assert hl.action_from_dict(action.to_dict()) == action


def test_nan_and_huge_numbers_in_a_save_are_save_errors() -> None:
    base = hl.Match(hl.preset("standard"), seed=1).to_dict()
    for key, value in [("seed", math.nan), ("seed", 1.5), ("dealer", 10**30), ("hand_number", -1)]:
        data = dict(base, **{key: value})
        with pytest.raises(hl.SaveError):
            hl.Match.from_json(json.dumps(data))
