"""Game records attacked from outside (issue 51, item 9): deep JSON headers, records the schema refuses, trick
numbers, version lines, non-ASCII and signed numbers, over-long lines, wrong arguments; and the schema and the
Python validator agreeing on good and bad records."""

from __future__ import annotations

import copy
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import heartslib as hl
from heartslib.record import from_record, from_record_text, record_text, to_record
from helpers import played_match

SCHEMA = Path(__file__).resolve().parents[1] / "docs" / "record.schema.json"


def _match() -> hl.Match:
    return played_match(hl.preset("standard"), 7, steps=70)


def _replace_line(text: str, start: str, new: str) -> str:
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(start))
    return "\n".join([*lines[:i], new, *lines[i + 1:]]) + "\n"


@pytest.mark.parametrize("key", ["Variant", "Start"])
def test_a_deeply_nested_json_header_is_a_save_error(key: str) -> None:
    # json.loads gave a bare RecursionError
    text = record_text(_match())
    deep = "[" * 20_000 + "]" * 20_000
    bad = _replace_line(text, "Variant:", f"Variant: {{\"a\": {deep}}}") if key == "Variant" else \
        _replace_line(text, "Dealer:", f"Dealer: 0\nStart: {{\"a\": {deep}}}")
    with pytest.raises(hl.SaveError) as exc:
        from_record_text(bad)
    assert exc.value.path == key
    assert "nested" in str(exc.value)


def _good() -> dict[str, Any]:
    return json.loads(json.dumps(to_record(_match())))


def _with(path: tuple[Any, ...], value: Any, delete: bool = False) -> dict[str, Any]:
    data = _good()
    place: Any = data
    for key in path[:-1]:
        place = place[key]
    if delete:
        del place[path[-1]]
    else:
        place[path[-1]] = value
    return data


#: Records docs/record.schema.json refuses, and where the reader must say the fault is.
BAD: list[tuple[str, dict[str, Any], str]] = [
    ("version true", _with(("version",), True), "version"),
    ("version 3", _with(("version",), 3), "version"),
    ("a leader true", _with(("hands", 0, "tricks", 0, "leader"), True), "hands[0].tricks[0].leader"),
    ("a winner true", _with(("hands", 0, "tricks", 0, "winner"), True), "hands[0].tricks[0].winner"),
    ("a play's seat true", _with(("hands", 0, "tricks", 0, "plays", 0, 0), True), "hands[0].tricks[0].plays[0][0]"),
    ("result null", _with(("result",), None), "result"),
    ("a result without totals", _with(("result", "totals"), None, delete=True), "result.totals"),
    ("a result over 1", _with(("result", "over"), 1), "result.over"),
    ("a hand number true", _with(("hands", 0, "number"), False), "hands[0].number"),
    ("a seed true", _with(("seed",), True), "seed"),
    ("a dealer 0.5", _with(("dealer",), 0.5), "dealer"),
    ("a card 'qs'", _with(("hands", 0, "deal", 0, 0), "qs"), "hands[0].deal[0][0]"),
    ("an action 'play QS'", _with(("hands", 0, "actions", 0), "play QS"), "hands[0].actions[0]"),
    ("a points true", _with(("hands", 0, "points", 0), True), "hands[0].points[0]"),
    ("points null", _with(("hands", 0, "points"), None), "hands[0].points"),
    ("a passing of a list", _with(("hands", 0, "passing"), [1]), "hands[0].passing"),
    ("winners [true]", _with(("result", "winners"), [True]), "result.winners[0]"),
    ("a record as a list", [], ""),  # type: ignore[list-item]
]


@pytest.mark.parametrize(("name", "data", "where"), BAD, ids=[b[0] for b in BAD])
def test_the_reader_refuses_what_the_schema_refuses(name: str, data: Any, where: str) -> None:
    # "version": true, a leader true, "result": null and a result without totals loaded before (True == 1)
    with pytest.raises(hl.SaveError) as exc:
        from_record(data)
    assert exc.value.path == where, str(exc.value)


def test_the_schema_refuses_the_same_records() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for name, data, _ in BAD:
        assert not jsonschema.Draft202012Validator(schema).is_valid(data), name


def test_the_schema_and_the_python_validator_agree() -> None:
    # one set of rules, two readers: jsonschema over docs/record.schema.json, and the validator from_record runs
    jsonschema = pytest.importorskip("jsonschema")
    from heartslib.record import validate_record

    check = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    good = _good()
    cases: list[Any] = [good, *(data for _, data, _ in BAD)]
    for name in ("complex_hearts", "cancellation", "black_maria", "omnibus"):
        cases.append(json.loads(json.dumps(to_record(played_match(hl.preset(name), 2)))))
    custom = hl.preset("standard").replace(end={"target": 40})
    cases.append(json.loads(json.dumps(to_record(hl.Match.from_deal(
        custom, hl.Round.deal(custom, seed=1).hands, scores=(1, 2, 3, 4), dealer=1, hand_number=2, seed=3)))))
    for key, value in (("seed", 7.0), ("seed", -1), ("seed", 2**64), ("dealer", "0"), ("variant", 5),
                       ("variant", "x" * 1000), ("format", "heartslib-match"), ("start", 5), ("start", {}),
                       ("hands", {}), ("extra", 1)):
        cases.append({**good, key: value})
    for key in ("format", "version", "variant", "seed", "dealer", "hands", "start", "result"):
        cases.append({k: v for k, v in good.items() if k != key})
    # version 2 states its result; version 1 may leave it out (issue 54)
    without_result = {k: v for k, v in good.items() if k != "result"}
    cases += [{**without_result, "version": 1}, {**without_result, "version": 2.0}, {**good, "version": 1},
              {**good, "version": 3}, {**good, "version": "2"}]
    for path, value in (((0, "actions", 0), "0:play QS\n"), ((0, "actions", 0), "0:play " + "QS " * 500),
                        ((0, "kitty"), ["JK"]), ((0, "kitty"), ["1X"]), ((0, "tricks", 0, "plays", 0), [0]),
                        ((0, "tricks", 0, "plays", 0), [0, "QS", 1]), ((0, "tricks", 0, "winner"), None),
                        ((0, "passing"), {"offset": 1, "k": 2}), ((0, "passing"), {"offset": "1"}),
                        ((0, "passing"), "hold"), ((0, "points", 0), "13i"), ((0, "points", 0), 1.5)):
        bad = copy.deepcopy(good)
        place: Any = bad["hands"]
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = value
        cases.append(bad)
    for data in cases:
        try:
            validate_record(data)
            python = True
        except hl.SaveError:
            python = False
        assert python == check.is_valid(data), (python, json.dumps(data)[:300])


def test_trick_numbers_are_checked() -> None:
    # a Trick line's number was never read: "Trick 9:" for the first trick loaded
    text = record_text(_match())
    first = next(line for line in text.splitlines() if line.startswith("Trick 1:"))
    for wrong in ("Trick 9:", "Trick 0:", "Trick x:", "Trick:"):
        with pytest.raises(hl.SaveError, match="trick"):
            from_record_text(text.replace(first, first.replace("Trick 1:", wrong), 1))


@pytest.mark.parametrize("line", ["% Heartslib record 3", "%HEARTSLIB RECORD 3", "%  heartslib  record 2.0",
                                  "% heartslib record", "% heartslib record 2 1"])
def test_a_version_line_in_any_case_is_a_version_line(line: str) -> None:
    # "% Heartslib record 2" was read as a comment: a record of another version loaded as this one
    text = record_text(_match())
    with pytest.raises(hl.SaveError, match="reads record versions 1 and 2"):
        from_record_text(text.replace("% heartslib record 2", line, 1))
    assert from_record_text(text.replace("% heartslib record 2", "% Heartslib Record 2", 1)) == _match()


@pytest.mark.parametrize(("line", "key"), [("Seed: ٧", "Seed"), ("Seed: 0_7", "Seed"), ("Seed: +7", "Seed"),
                                           ("Seed: 7 ", None), ("Dealer: +0", "Dealer"), ("Dealer: ０", "Dealer"),
                                           ("Dealer: -0", "Dealer"), ("Seed: 07", None)])
def test_header_numbers_are_ascii_digits(line: str, key: str | None) -> None:
    # int() read '٧' (an Arabic-Indic seven), '+0' and '0_7'
    m = _match()
    text = record_text(m)
    name = line.split(":")[0]
    new = _replace_line(text, name + ":", line)
    if key is None:  # surrounding spaces and a leading zero are still the same number
        assert from_record_text(new) == m
        return
    with pytest.raises(hl.SaveError) as exc:
        from_record_text(new)
    assert exc.value.path == key and "digits" in str(exc.value)


def test_an_over_long_line_is_refused_before_it_is_read() -> None:
    # a 48 MB Deal line peaked at 1.4 GB before its SaveError: now the memory is bounded by the input's size
    text = record_text(_match())
    deal = next(line for line in text.splitlines() if line.startswith("Deal:"))
    bad = text.replace(deal, "Deal: " + "2C " * 2_000_000, 1)  # 6 MB
    tracemalloc.start()
    try:
        with pytest.raises(hl.SaveError, match=r"line \d+: .*longer than"):
            from_record_text(bad)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * len(bad), peak


@pytest.mark.parametrize("value", [None, 5, "standard", {}])
def test_writing_a_record_of_something_else_is_a_save_error(value: Any) -> None:
    # to_record(None) was an AttributeError
    for write in (to_record, record_text):
        with pytest.raises(hl.SaveError, match="Match"):
            write(value)


def test_the_schema_file_is_the_one_the_reader_applies() -> None:
    from heartslib.record import RECORD_SCHEMA

    assert json.loads(SCHEMA.read_text(encoding="utf-8")) == RECORD_SCHEMA
