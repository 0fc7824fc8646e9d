"""The variant model: validation, replace, dict/TOML round-trips, describe()."""

from __future__ import annotations

from pathlib import Path

import pytest

import heartslib as hl


@pytest.mark.parametrize("name", hl.preset_names())
def test_presets_round_trip_through_dict_and_toml(name: str) -> None:
    v = hl.preset(name)
    assert v.source, "a preset must name its source"
    assert hl.Variant.from_dict(v.to_dict()) == v
    assert hl.Variant.from_toml(v.to_toml()) == v
    text = v.describe()
    assert str(v.deal_size) in text
    assert v.source not in text and "source" not in text.lower()  # the rules a player reads name no source


def test_preset_aliases_and_unknown_names() -> None:
    assert hl.preset("black_lady") == hl.preset("standard")
    assert hl.preset("Black Lady") == hl.preset("standard")
    with pytest.raises(hl.UnknownVariant) as info:
        hl.preset("omnibsu")
    assert "omnibus" in str(info.value)
    assert isinstance(info.value, KeyError)


def test_replace_sections_by_dict_and_object() -> None:
    v = hl.preset("standard")
    v2 = v.replace(moon={"kind": "new"})
    assert v2.moon.kind is hl.MoonKind.NEW and v2.end == v.end and v.moon.kind is hl.MoonKind.OLD
    v3 = v.replace(moon=hl.MoonRules(kind="choice"))
    assert v3.moon.kind is hl.MoonKind.CHOICE
    with pytest.raises(hl.VariantError, match=r"moon\.kidn"):
        v.replace(moon={"kidn": "new"})


@pytest.mark.parametrize(
    ("changes", "path", "words"),
    [
        ({"players": 11}, "deck.decks", "two decks"),
        ({"players": 12}, "players", "too large"),
        ({"players": 2}, "players", "too small"),
        ({"play": {"identical": "cancel"}}, "play.identical", "two decks"),
        ({"passing": {"cards": 14}}, "passing.cards", "13"),
        ({"players": 5, "passing": {"schedule": ["left", "across"]}}, "passing.schedule[1]", "across"),
        ({"passing": {"schedule": ["left", "left-4"]}}, "passing.schedule[1]", "1 <= k < 4"),
        ({"players": 5, "passing": {"schedule": "left"}, "deck": {"strip": ["2C"]}}, "deck.strip", "only 1"),
        ({"moon": {"kind": "sideways"}}, "moon.kind", "'old'"),
        ({"players": 10, "deck": {"strip": ["2C", "2D"]}, "passing": {"schedule": "scatter"}},
         "passing.schedule", "scatter pass needs 9"),
        ({"passing": {"schedule": ["left", "upwards"]}}, "passing.schedule[1]", "not a pass"),
        ({"deck": {"decks": 3}}, "deck.decks", "too large"),
        ({"deck": {"fill": "jokers", "jokers": 3}}, "deck.jokers", "zero-suit"),
        ({"scoring": {"values": {"QX": 13}}}, "scoring.values.QX", "not a card"),
        ({"scoring": {"values": {"QS": "lots"}}}, "scoring.values.QS", "whole number"),
        ({"scoring": {"values": {"QS": 13.5}}}, "scoring.values.QS", "not a score"),
        ({"scoring": {"values": {"QS": "13i"}}}, "end.measure", "magnitude"),
        ({"end": {"target": 0}}, "end.target", "never end"),
        ({"players": 6, "passing": {"schedule": "star"}, "deck": {"strip": ["2C", "2D", "2S", "2H"]}},
         "passing.schedule", "five players"),
        ({"passing": {"cards": 3, "forbidden": ["2C", "QS", "AH"]}, "players": 10,
          "deck": {"strip": ["2C", "2D"]}, "passing_schedule": None}, "", ""),
    ],
)
def test_impossible_variants_name_the_field(changes: dict[str, object], path: str, words: str) -> None:
    if "passing_schedule" in changes:
        # 10 players, 5 cards each, 3 of them possibly forbidden: passing 3 cannot always work
        with pytest.raises(hl.VariantError) as info:
            hl.Variant(players=10, deck={"strip": ["2C", "2D"]},
                       passing={"cards": 3, "schedule": "left", "forbidden": ["2C", "QS", "AH", "AS"]})
        assert info.value.path == "passing.cards"
        return
    with pytest.raises(hl.VariantError) as info:
        hl.preset("standard").replace(**changes)
    assert info.value.path == path or any(p == path for p, _ in info.value.problems), info.value.problems
    assert words in str(info.value)


def test_several_problems_are_all_reported() -> None:
    with pytest.raises(hl.VariantError) as info:
        hl.Variant(players=5, deck={"strip": []}, passing={"schedule": ["across"]})
    paths = [p for p, _ in info.value.problems]
    assert "deck.strip" in paths and "passing.schedule" in paths


def test_from_dict_rejects_unknown_keys_and_bad_types() -> None:
    with pytest.raises(hl.VariantError, match="colour"):
        hl.Variant.from_dict({"colour": "red"})
    with pytest.raises(hl.VariantError, match=r"play\.booster_nines"):
        hl.Variant.from_dict({"play": {"booster_nines": "yes"}})
    with pytest.raises(hl.VariantError, match="players"):
        hl.Variant.from_dict({"players": True})
    with pytest.raises(hl.VariantError):
        hl.Variant.from_toml("players = [")


def test_toml_file_round_trip(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "house.toml"
    path.write_text('name = "house"\nplayers = 5\n[passing]\nschedule = "everyone"\ncards = 2\n'
                    '[scoring]\nvalues = { QS = 13, JD = -10 }\n[moon]\nkind = "new"\n', encoding="utf-8")
    v = hl.Variant.from_toml(path)
    assert v.players == 5 and v.passing.cards == 2 and v.scoring.values["JD"] == -10
    assert v.deal_size == 10 and [c.code for c in sorted(set(hl.preset("standard").pack) - set(v.pack))] == [
        "2C", "2D"]
    assert hl.Variant.from_toml(str(path)) == v
    with pytest.raises(hl.VariantError, match="cannot read"):
        hl.Variant.from_toml(str(path) + ".missing.toml")


def test_000_stripping_orders_and_tables() -> None:
    # Culbertson: 2C 2D 2S 2H in that order
    v = hl.preset("culbertson_1950").replace(players=5)
    assert sorted(c.code for c in set(hl.preset("standard").pack) - set(v.pack)) == ["2C", "2D"]
    v = hl.preset("culbertson_1950").replace(players=7)
    assert {c.code for c in set(hl.preset("standard").pack) - set(v.pack)} == {"2C", "2D", "2S"}
    # Morehead: 2C 2D 3C 2S
    v = hl.preset("morehead_2001").replace(players=6)
    assert {c.code for c in set(hl.preset("standard").pack) - set(v.pack)} == {"2C", "2D", "3C", "2S"}
    # Foster: 3 players remove 2S; 5 the black deuces; 6 all four deuces
    for players, removed in ((3, {"2S"}), (5, {"2C", "2S"}), (6, {"2C", "2D", "2H", "2S"})):
        v = hl.preset("foster_1909").replace(players=players)
        assert {c.code for c in set(hl.preset("standard").pack) - set(v.pack)} == removed


def test_001_single_deck_strip_table_decision() -> None:
    # Seed 001: 3 players remove 3C; 5 players remove 3D and 3S (decision: those two only, 10 cards each)
    table = {"3": ["3C"], "5": ["3D", "3S"]}
    v3 = hl.Variant(players=3, deck={"strip": table}, passing={"schedule": "everyone"})
    v5 = hl.Variant(players=5, deck={"strip": table}, passing={"schedule": "everyone"})
    assert v3.deal_size == 17 and hl.Card("3C") not in v3.pack
    assert v5.deal_size == 10 and hl.Card("3D") not in v5.pack and hl.Card("3S") not in v5.pack


def test_penalty_totals_and_moon_points() -> None:
    assert hl.preset("standard").penalty_total == 26
    assert hl.preset("pink_lady").penalty_total == 38
    assert hl.preset("spot_hearts").penalty_total == 117  # 2+...+14 = 104, plus Q♠ 13
    assert hl.preset("black_jack").penalty_total == 23
    assert hl.preset("double_deck_8").penalty_total == 52
    assert hl.preset("double_deck_9").penalty_total == 51
    assert hl.preset("omnibus").penalty_total == 26  # the 10♦ bonus is not a penalty
    assert hl.preset("standard").replace(moon={"points": 30}).moon_points == 30


def test_describe_uses_players_words() -> None:
    text = hl.preset("standard").describe()
    assert "old moon" in text and "2♣" in text and "left, right, across, hold" in text
    assert "no penalty card may be played to the first trick" in text.lower()
    text = hl.preset("cancellation").describe()
    assert "cancel" in text and "kitty" in text
    text = hl.preset("standard").replace(play={"booster_nines": True}).describe()
    assert "booster nines" in text.lower()


def test_from_dict_reports_every_bad_field_at_once() -> None:
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_dict({"players": 12, "colour": 1, "moon": {"kind": "x", "points": "q"},
                              "deck": {"decks": 3}, "play": {"booster_nines": "yes"}})
    paths = [p for p, _ in info.value.problems]
    assert paths == ["colour", "moon.kind", "moon.points", "deck.decks", "play.booster_nines", "players"]
    # a valid set of fields in an impossible combination: every combination problem
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_dict({"players": 11})
    assert {"deck.decks", "deck.strip"} <= {p for p, _ in info.value.problems}


# --------------------------------------------------------------------------- QA pass: names, BOMs, wording


@pytest.mark.parametrize("name", ["", "   ", "\t\n"])
def test_a_blank_name_is_refused_where_the_variant_is_built(name: str) -> None:
    # replace(name="").describe() raised IndexError, and `heartslib validate` accepted name = "" that `rules`
    # then called a bug: a name is shown by describe(), saves and messages, so it may not be blank
    with pytest.raises(hl.VariantError) as info:
        hl.preset("standard").replace(name=name)
    assert info.value.path == "name" and "rules that leave the name out are called 'custom'" in info.value.reason
    with pytest.raises(hl.VariantError, match=r"^name: ") as info:
        hl.Variant.from_dict({"name": name})
    assert hl.Variant.from_dict({}).name == "custom"  # a name left out is the default
    assert hl.preset("standard").replace(name=" x ").describe().startswith("X.\n")


def test_a_save_written_with_a_blank_name_still_loads() -> None:
    from heartslib.serialize import save_digest

    match = hl.Match(hl.preset("standard"), seed=3)
    match.apply(match.legal_actions(0)[0])
    data = match.to_dict()
    data["variant"]["name"] = ""  # what replace(name="") saved before blank names were refused
    data["digest"] = save_digest(data)
    resumed = hl.Match.from_dict(data)
    assert resumed.variant.name == "custom" and resumed.actions == match.actions


def test_a_byte_order_mark_before_the_toml_is_ignored(tmp_path: object) -> None:
    # Windows editors write U+FEFF first: "not valid TOML: Invalid statement (at line 1, column 1)"
    from pathlib import Path

    path = Path(str(tmp_path)) / "bom.toml"
    path.write_bytes(b'\xef\xbb\xbfname = "x"\nplayers = 5\n')
    assert hl.Variant.from_toml(path).name == "x"
    assert hl.Variant.from_toml(str(path)).players == 5
    assert hl.Variant.from_toml('\ufeffname = "x"\n').name == "x"
    with pytest.raises(hl.VariantError, match="not valid TOML"):
        hl.Variant.from_toml('name = "x"\n\ufeffplayers = 5\n')  # only a leading mark is ignored


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("players = true", "players: true is not a whole number"),
        ("players = \"4\"", "players: '4' is not a whole number"),
        ("players = [4]", "players: [4] is not a whole number"),
        ("players = {n = 4}", "players: { n = 4 } is not a whole number"),
        ("name = false", "name: false is not text"),
        ("[moon]\nkind = false", "moon.kind: false is not allowed; use one of 'none', "),
        ("[play]\nbooster_nines = \"yes\"", "play.booster_nines: 'yes' is not true or false"),
        ("[passing]\nschedule = [true]", "passing.schedule[0]: true is not a pass word"),
        ("[passing]\nschedule = false", "passing.schedule: false is not a list of passes or a named cycle"),
        ("[deck]\nstrip = true", "deck.strip: true is neither card text nor an iterable of cards"),
        ("[deck]\nstrip = [false]", "deck.strip: false is not card text"),
        ("[scoring]\nvalues = { QS = true }", "scoring.values.QS: true is not a score"),
        ("[scoring]\nvalues = true", "scoring.values: true is not a table of card = points"),
        ("[scoring]\ndouble_suit = { QH = false }", "scoring.double_suit.QH: false is not a suit"),
        ("[moon]\npoints = false", "moon.points: false is not a score"),
        ("teams = [[0, true]]", "teams[0]: true is not a seat number"),
        ("teams = { a = true }", "teams: { a = true } is not a list of teams"),
        ("moon = true", "moon: expected a table of moon rules, got true"),
        ("name = \"it's\"\nplayers = false", "players: false is not a whole number"),
    ],
)
def test_error_messages_quote_values_in_toml_notation(toml: str, message: str) -> None:
    # `players = true` said "True is not a whole number": Python's words for a TOML file's value
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_toml(toml + "\n")
    assert message in str(info.value)
    for python in ("True", "False", "None", "{'"):
        assert python not in str(info.value)


def test_the_python_api_quotes_values_the_same_way() -> None:
    with pytest.raises(hl.VariantError, match=r"^players: true is not a whole number$"):
        hl.Variant(players=True)
    with pytest.raises(hl.VariantError, match=r"^moon\.points: null is not a score"):
        hl.Variant.from_dict({"moon": {"points": None}})
    with pytest.raises(hl.VariantError, match=r"^teams: \{ 0 = 2 \} is not a list of teams"):
        hl.preset("standard").replace(teams={0: 2})
    with pytest.raises(hl.CardError, match=r"^true is not card text"):
        hl.Card.parse(True)  # type: ignore[arg-type]


def test_every_bad_team_is_reported_beside_other_problems() -> None:
    # teams[0] problems were dropped when another field was wrong too (only paths equal to "teams" were kept)
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_dict({"players": "4", "teams": [[0, True]], "moon": {"kind": False}})
    assert {p for p, _ in info.value.problems} == {"players", "teams[0]", "moon.kind"}


@pytest.mark.parametrize(
    ("schedule", "says", "not_said"),
    [
        (["left", "scatter"], "3 cards (scatter: one to each opponent)", "star"),
        (["star", "left"], "3 cards (star: two)", "scatter"),
        (["star", "hold"], "chooses cards (star: two)", "3 cards"),
        (["scatter", "star"], "chooses cards (scatter: one to each opponent; star: two)", "3 cards"),
        ("four_way", "chooses 3 cards and passes", "star"),
    ],
)
def test_describe_explains_only_the_passes_the_schedule_uses(schedule: object, says: str, not_said: str) -> None:
    # with ["left", "scatter"] it still said "(scatter: one to each opponent; star: two)"
    v = hl.preset("standard").replace(players=5, passing={"schedule": schedule})
    [line] = [line for line in v.describe().splitlines() if line.startswith("Passing: ")]
    assert says in line and not_said not in line.split(". The cycle")[0], line


def test_the_rules_text_names_the_jokers_in_the_pack() -> None:
    # it said "Jokers: 52 53 in the pack.": the card indices, not the cards
    assert "Jokers: 0♣ 0♦ in the pack." in hl.Variant(players=3, deck={"fill": "jokers"}).describe()
    assert "Jokers: JK in the pack." in hl.Variant(players=5, deck={"fill": "jokers", "joker": "valueless"}).describe()


def test_a_misspelt_pass_schedule_lists_every_pass_word_and_the_closest() -> None:
    # it listed the named cycles alone, so "dealer_choice" never led to dealers_choice
    with pytest.raises(hl.VariantError) as info:
        hl.preset("standard").replace(passing={"schedule": "dealer_choice"})
    assert "did you mean dealers_choice?" in str(info.value) and "scatter, star, shuffle" in str(info.value)
    with pytest.raises(hl.VariantError, match=r"'sideways' is not a pass; use left, right, across, hold, left-k"):
        hl.preset("standard").replace(passing={"schedule": ["left", "sideways"]})
    # left and right are both named cycles and passes: suggested once ("did you mean left or left?" before)
    with pytest.raises(hl.VariantError) as info:
        hl.preset("standard").replace(passing={"schedule": "lft"})
    assert "did you mean left?" in str(info.value)


def test_a_file_name_given_as_toml_text_is_told_how_paths_are_read(tmp_path: Path) -> None:
    # "house.txt" was read as TOML text: "Expected '=' after a key" and nothing about paths
    with pytest.raises(hl.VariantError, match=r"a file name is read as a path only when it ends in \.toml"):
        hl.Variant.from_toml("house.txt")
    upper = tmp_path / "HOUSE.TOML"
    upper.write_text('[moon]\nkind = "new"\n', encoding="utf-8")
    assert hl.Variant.from_toml(str(upper)).moon.kind.value == "new"  # .TOML is a path too


def test_a_card_symbol_as_a_bare_toml_key_is_told_to_take_quotes() -> None:
    with pytest.raises(hl.VariantError, match=r'needs quotes in TOML: \{ "Q♠" = 13 \}'):
        hl.Variant.from_toml("[scoring]\nvalues = { Q♠ = 13 }\n")
    assert hl.Variant.from_toml('[scoring]\nvalues = { "Q♠" = 13 }\n').scoring.values[hl.Card("QS")] == 13


def test_a_utf16_rules_file_is_named_as_such(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_bytes("players = 4\n".encode("utf-16"))
    with pytest.raises(hl.VariantError, match=r"not UTF-8 text .*; it looks like UTF-16: save it as UTF-8"):
        hl.Variant.from_toml(path)
