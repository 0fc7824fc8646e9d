"""Game records (heartslib.record): JSON and text, every preset, round trips that replay every action, and
records that lie about their game refused with SaveError."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

import heartslib as hl
from heartslib import strategies as hst
from heartslib.record import from_record, from_record_text, record_text, to_record
from helpers import played_match

SCHEMA = Path(__file__).resolve().parents[1] / "docs" / "record.schema.json"


@pytest.mark.parametrize("name", hl.preset_names())
def test_every_preset_round_trips_as_json_and_text(name: str) -> None:
    v = hl.preset(name)
    for m in (played_match(v, 3, steps=v.players * v.deal_size + 20), played_match(v, 4)):
        data = json.loads(json.dumps(to_record(m)))
        assert from_record(data) == m
        for symbols in (False, True):
            assert from_record_text(record_text(m, symbols=symbols)) == m


def test_a_custom_variant_and_a_set_start_round_trip() -> None:
    v = hl.preset("standard").replace(moon={"kind": "new"}, end={"target": 50})
    m = hl.Match.from_deal(v, hl.Round.deal(v, seed=9).hands, scores=(40, 10, 0, 5), dealer=2, hand_number=3,
                           seed=11)
    rng = random.Random(2)
    while not m.is_over:
        m.apply(hst.random_action(m, rng))
    data = to_record(m)
    assert isinstance(data["variant"], dict) and data["start"]["hand_number"] == 3
    assert from_record(data) == m and from_record_text(record_text(m)) == m


def test_a_record_that_lies_about_its_game_is_refused() -> None:
    m = played_match(hl.preset("standard"), 5, steps=120)
    data = to_record(m)
    cases = []
    bad = copy.deepcopy(data)
    bad["hands"][0]["deal"][0][0], bad["hands"][0]["deal"][1][0] = bad["hands"][0]["deal"][1][0], \
        bad["hands"][0]["deal"][0][0]
    cases.append((bad, r"hands\[0\]\.deal"))
    bad = copy.deepcopy(data)
    bad["hands"][0]["points"][0] += 1
    cases.append((bad, r"hands\[0\]\.points"))
    bad = copy.deepcopy(data)
    first_play = next(i for i, a in enumerate(bad["hands"][0]["actions"]) if ":play " in a)
    bad["hands"][0]["actions"][first_play] = bad["hands"][0]["actions"][first_play + 1]
    cases.append((bad, rf"hands\[0\]\.actions\[{first_play}\]"))
    cases.append(({**data, "version": 99}, "version"))
    cases.append(({**data, "format": "heartslib-match"}, "format"))
    cases.append(({**data, "variant": "no_such_game"}, "variant"))
    cases.append(({**data, "seed": -1}, "seed"))
    cases.append(({**data, "result": {**data["result"], "winners": [0, 1, 2, 3]}}, "result.winners"))
    for bad, where in cases:
        with pytest.raises(hl.SaveError, match=where):
            from_record(bad)
    assert from_record(data) == m


def test_a_text_record_that_lies_is_refused_at_its_line() -> None:
    m = played_match(hl.preset("black_maria"), 6)
    text = record_text(m)
    lines = text.splitlines()
    points = next(i for i, line in enumerate(lines) if line.startswith("Points:"))
    lied = [*lines[:points], "Points: 1 2 3", *lines[points + 1:]]
    with pytest.raises(hl.SaveError, match=rf"line {points + 1}"):
        from_record_text("\n".join(lied))
    with pytest.raises(hl.SaveError, match="unknown line"):
        from_record_text(text.replace("Trick 1:", "Trik 1:", 1))
    with pytest.raises(hl.SaveError, match="Variant"):
        from_record_text("Seed: 1\n")
    with pytest.raises(hl.SaveError):
        from_record_text(text.replace("Trick 2:", "Trick 2: 0:QS", 1))
    assert from_record_text(text) == m


def test_a_decision_inside_a_trick_splits_its_line() -> None:
    # a joker lead's called suit interrupts the trick: the trick is written on two lines around the decision
    v = hl.preset("standard").replace(players=5, deck={"fill": "jokers", "joker": "valueless",
                                                       "joker_lead": "call_suit"})
    m = played_match(v, 0)
    text = record_text(m)
    lines = text.splitlines()
    split = [i for i, line in enumerate(lines)
             if line.startswith("Choose") and lines[i - 1].startswith("Trick") and "->" not in lines[i - 1]]
    assert split, "the example reaches a decision inside a trick"
    i = split[0]
    assert lines[i + 1].startswith(lines[i - 1].split(":")[0] + ":")  # the same trick goes on after it
    assert from_record_text(text) == m and from_record(to_record(m)) == m


def test_the_json_schema_accepts_records() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for name in ("standard", "complex_hearts", "cancellation"):
        m = played_match(hl.preset(name), 1, steps=60)
        jsonschema.validate(json.loads(json.dumps(to_record(m))), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"format": "heartslib-record", "version": 1}, schema)


def test_the_schema_file_is_json_naming_the_format() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["properties"]["format"]["const"] == "heartslib-record"
    assert set(schema["required"]) >= {"format", "version", "variant", "seed", "dealer", "hands"}


@pytest.mark.parametrize("start", [5, [], "x", {}, {"hand_number": 3, "scores": [50, 0, 0, 0]},
                                   {"hand_number": "x"}, {"deal": 5}])
def test_a_start_that_is_not_a_whole_set_position_is_refused(start: object) -> None:
    # part of a set position would be ignored (the match dealt from its seed): the record would lie
    m = played_match(hl.preset("standard"), 3, steps=60)
    data = {**to_record(m), "start": start}
    with pytest.raises(hl.SaveError, match="start"):
        from_record(data)
    lines = record_text(m).splitlines()
    dealer = next(i for i, line in enumerate(lines) if line.startswith("Dealer:"))
    text = "\n".join([*lines[:dealer + 1], f"Start: {json.dumps(start)}", *lines[dealer + 1:]])
    with pytest.raises(hl.SaveError, match="start"):
        from_record_text(text)


def test_a_text_records_header_is_read_strictly() -> None:
    m = played_match(hl.preset("standard"), 3, steps=20)
    text = record_text(m)
    assert text.startswith("% heartslib record 1\n")
    with pytest.raises(hl.SaveError, match="reads record version 1, not '2'"):
        from_record_text(text.replace("% heartslib record 1", "% heartslib record 2", 1))
    for line, where in (("Start: {bad", "Start"), ("Seed: x", "Seed"), ("Dealer: two", "Dealer"),
                        ("Variant: {bad", "Variant")):
        key = line.split(":")[0]
        lines = [x for x in text.splitlines() if not x.startswith(key + ":")]
        lines.insert(1, line)
        with pytest.raises(hl.SaveError) as exc:
            from_record_text("\n".join(lines))
        assert exc.value.path == where
    with pytest.raises(hl.SaveError, match="result"):
        from_record({**to_record(m), "result": "over"})


def test_a_hands_dealer_pass_and_parts_are_checked() -> None:
    # a false dealer or pass, or a part of a hand left out or null, loaded silently
    m = played_match(hl.preset("standard"), 4, steps=70)
    data = to_record(m)
    assert len(data["hands"]) >= 2
    for key, value in (("dealer", 3), ("dealer", "x"), ("passing", "right"), ("passing", {"offset": 1}),
                       ("dealer", None), ("deal", None), ("kitty", None), ("tricks", None)):
        bad = copy.deepcopy(data)
        bad["hands"][1][key] = value
        with pytest.raises(hl.SaveError) as exc:
            from_record(bad)
        assert exc.value.path == f"hands[1].{key}"
    bad = copy.deepcopy(data)
    del bad["hands"][1]["passing"]
    with pytest.raises(hl.SaveError, match="passing is missing"):
        from_record(bad)
    text = record_text(m)
    hand_2 = next(line for line in text.splitlines() if line.startswith("Hand 2:"))
    for lie in ("Hand 2: dealer 3, pass right", "Hand 2: dealer 1, pass left", "Hand 2: dealer banana, pass x"):
        if lie != hand_2:
            with pytest.raises(hl.SaveError, match="the hand's dealer and pass"):
                from_record_text(text.replace(hand_2, lie))
    assert from_record(data) == m and from_record_text(text) == m
