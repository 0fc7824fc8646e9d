"""heartslib.vector's allow-list: every variant field is listed with the values the environment plays, and
anything else is refused with a VariantError naming the field and the value."""

from __future__ import annotations

from enum import Enum
from typing import Any

import pytest

pytest.importorskip("numpy")

from hypothesis import HealthCheck, given, settings

import heartslib as hl
from heartslib.engine.fastpath import ANY
from heartslib.sections import field_paths
from heartslib.strategies import variants
from heartslib.vector import Env, check_supported, support

#: A change to the standard game that each restricted entry of the allow-list refuses, by the field refused.
REFUSED: dict[str, dict[str, Any]] = {
    "deck.decks": {"deck": {"decks": 2}, "players": 8},
    "deck.joker": {"deck": {"jokers": 1, "joker": "valueless"}},
    "deck.joker_points_when": {"deck": {"jokers": 2, "joker_points": 5, "joker_points_when": "hearts_led"}},
    "passing.schedule": {"passing": {"schedule": ["left", "shuffle"]}},
    "play.booster_nines": {"play": {"booster_nines": True}},
    "scoring.values": {"scoring": {"values": {"QS": "13+1j"}}, "end": {"measure": "magnitude"}},
    "scoring.multiply": {"scoring": {"multiply": {"TC": "2i"}}, "end": {"measure": "magnitude"}},
    "scoring.settlement": {"scoring": {"settlement": "auction", "values": {}}, "moon": {"kind": "none"},
                           "passing": {"schedule": "hold"}},
    "moon.kind": {"moon": {"kind": "new_if_old_loses"}, "end": {"hands": 8}},
    "moon.points": {"moon": {"points": "26+1j"}, "end": {"measure": "magnitude"}},
}


def test_the_allow_list_names_only_fields_that_exist() -> None:
    fields = {path for path, _ in field_paths(hl.Variant())}
    assert not set(support.SUPPORTED) - fields, f"stale entries: {sorted(set(support.SUPPORTED) - fields)}"


#: The entries that list every value their field has today: a value added to the field's enum later is refused
#: until someone lists it (no example of a refused value exists now).
EVERY_VALUE = {"direction", "deck.kitty", "play.opening", "play.breaking", "play.lead_hearts_unbroken",
               "play.first_trick", "scoring.hearts", "scoring.all_hearts_flips", "moon.requires", "moon.sun",
               "end.winner", "end.measure"}


def test_every_restricted_entry_has_a_refused_example() -> None:
    restricted = {path for path, entry in support.SUPPORTED.items() if entry != ANY}
    assert restricted == set(REFUSED) | EVERY_VALUE


def test_the_enums_a_hand_reads_list_their_values() -> None:
    """An enum field the environment reads is listed value by value, never as ANY or from the enum itself, so a
    value added to the enum (as moon.kind's "lot" was until it was implemented) is refused until it is implemented;
    moon.kind lists its values, and one more under a condition."""
    defaults = dict(field_paths(hl.Variant()))
    for path in EVERY_VALUE:
        entry = support.SUPPORTED[path]
        assert isinstance(entry, tuple) and isinstance(defaults[path], Enum), path
    listed = set(support._MOON_KINDS) | {hl.MoonKind.NEW_IF_OLD_LOSES}
    assert listed == set(hl.MoonKind), "a moon kind added: refused (not in _MOON_KINDS) until implemented"
    with pytest.raises(hl.VariantError, match=r'moon\.kind = "new_if_old_loses"'):
        check_supported(hl.preset("standard").replace(moon={"kind": "new_if_old_loses"}, teams=[[0, 2], [1, 3]]))


@pytest.mark.parametrize("path", sorted(REFUSED))
def test_a_value_the_environment_does_not_play_is_refused_by_name(path: str) -> None:
    v = hl.preset("standard").replace(**REFUSED[path])
    with pytest.raises(hl.VariantError) as err:
        Env(v)
    assert err.value.path == path
    value = dict(field_paths(v))[path]
    assert f"does not implement {path} = " in str(err.value)
    assert value != dict(field_paths(hl.preset("standard")))[path]


def test_the_presets_refused_are_those_of_two_decks_stocks_the_auction_and_complex_scores() -> None:
    """Every preset plays but those whose rules the environment does not implement, each refused for them: the
    Leekha family's pass and undercut rules are played (issue 53)."""
    from heartslib.presets import _PRESETS

    refused = {name: [path for path, _ in support.refusals(hl.preset(name))] for name in _PRESETS}
    refused = {name: paths for name, paths in refused.items() if paths}
    two_decks = {name for name in refused if name.startswith("double_deck_")} | {"cancellation"}
    assert set(refused) == two_decks | {"domino_hearts", "two_handed", "auction_hearts", "complex_hearts"}
    assert all("deck.decks" in refused[name] for name in two_decks)
    assert refused["domino_hearts"][0] == refused["two_handed"][0] == "deck.stock"
    assert refused["auction_hearts"] == ["scoring.settlement"]
    assert refused["complex_hearts"] == ["scoring.values", "scoring.multiply"]
    for name in ("leekha_aymog", "likha_idlib", "likha", "leekha_jawaker"):
        check_supported(hl.preset(name))


def test_the_message_names_the_value_and_what_is_played() -> None:
    with pytest.raises(hl.VariantError, match=r"deck\.decks = 2 \(it plays: 1\)"):
        check_supported(hl.preset("standard").replace(deck={"decks": 2}, players=8))
    with pytest.raises(hl.VariantError, match=r'moon\.kind = "new_if_old_loses" \(it plays: "none", .* where a hand'):
        check_supported(hl.preset("standard").replace(moon={"kind": "new_if_old_loses"}, end={"hands": 8}))


def test_every_refused_field_is_named_in_problems() -> None:
    v = hl.preset("standard").replace(deck={"jokers": 1, "joker": "valueless"}, play={"booster_nines": True},
                                      moon={"kind": "new_if_old_loses"}, end={"hands": 8})
    with pytest.raises(hl.VariantError) as err:
        check_supported(v)
    assert [p for p, _ in err.value.problems] == ["deck.joker", "play.booster_nines", "moon.kind"]


def test_a_field_not_listed_plays_only_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule added after the list (here: play.queen_forced taken off it) is refused by name once a variant
    uses it, and plays at its default, the behaviour every variant had before the field existed."""
    shorter = {p: e for p, e in support.SUPPORTED.items() if p != "play.queen_forced"}
    monkeypatch.setattr(support, "SUPPORTED", shorter)
    check_supported(hl.preset("standard"))
    with pytest.raises(hl.VariantError) as err:
        check_supported(hl.preset("standard").replace(play={"queen_forced": True}))
    assert err.value.path == "play.queen_forced"
    assert "a rule it does not list yet: only its default" in str(err.value)


def test_a_refused_variant_builds_no_environment() -> None:
    with pytest.raises(hl.VariantError):
        Env(hl.preset("standard").replace(deck={"decks": 2}, players=8))
    with pytest.raises(hl.VariantError, match="expected a Variant"):
        check_supported("standard")  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(v=variants())
def test_any_variant_is_played_or_refused_field_by_field(v: hl.Variant) -> None:
    """Over random variants (every field drawn), the refusals are exactly the fields whose value the list does
    not admit: no field slips through unnamed, and none is named without cause."""
    defaults = dict(field_paths(hl.Variant()))
    expected = []
    for path, value in field_paths(v):
        entry = support.SUPPORTED.get(path)
        if entry is None:  # a field not listed yet: its default only
            ok = value == defaults[path]
        elif isinstance(entry, tuple):
            ok = value in entry
        elif entry == ANY:
            ok = True
        else:
            ok = entry.test(v)
        if not ok:
            expected.append(path)
    try:
        check_supported(v)
    except hl.VariantError as err:
        assert [p for p, _ in err.problems] == expected
        assert err.path == expected[0]
        for path, message in err.problems:
            assert message.startswith(f"heartslib.vector does not implement {path} = ")
    else:
        assert expected == []
