"""Issue 35, item 5: bad arguments to public functions raise heartslib's documented errors, never a built-in one.

One rule (docs/errors.md): a bad argument to a public function is :class:`heartslib.IllegalAction` with the code
``bad_argument``; a bad value in variant data is a :class:`heartslib.VariantError` naming the field.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

import heartslib as hl
from heartslib.agents import SearchAgent, SearchFactory
from heartslib.search import Budget
from heartslib.serialize import MAX_INDENT, json_text, parse_score
from heartslib.simulate import resolve_agents, simulate

STD = hl.preset("standard")


def _bad_argument(call: Callable[[], object]) -> hl.IllegalAction:
    with pytest.raises(hl.IllegalAction) as info:
        call()
    assert type(info.value) is hl.IllegalAction and info.value.code == "bad_argument", info.value
    return info.value


def _typed(call: Callable[[], object]) -> None:
    """A wrongly typed argument to a compiled function: the compiled build refuses it at the call with a
    TypeError (docs/errors.md, "Two builds"); the pure build with IllegalAction('bad_argument')."""
    if hl.COMPILED:
        with pytest.raises(TypeError):
            call()
    else:
        _bad_argument(call)


# --------------------------------------------------------------------------- variant data: VariantError


@pytest.mark.parametrize("key", [math.inf, -math.inf, math.nan, 3.5, "1_0", "٣", "-3", True, -3, 10**30, "3 3"])
def test_a_strip_table_key_that_is_no_player_count_is_a_variant_error(key: Any) -> None:
    # a key of inf raised OverflowError (int(inf)); 3.5 was read as 3 and "1_0" as 10
    with pytest.raises(hl.VariantError, match="table keys are player counts") as info:
        hl.Variant.from_dict({"deck": {"strip": {key: ["2C"]}}})
    assert info.value.path.startswith("deck.strip.")


def test_a_strip_table_reads_whole_numbers_and_their_text() -> None:
    for key in (3, "3", " 3 "):
        v = hl.Variant.from_dict({"deck": {"strip": {key: ["2C"]}}})
        assert v.to_dict()["deck"]["strip"] == {"3": ["2C"]}


@pytest.mark.parametrize("text", [" 1 2 ", "1 2", "1_2", "1 3i", "3 - 4 4i", "1+ 2"])
def test_a_number_with_a_space_or_underscore_inside_is_not_read_in_a_variant_field(text: str) -> None:
    # " 1 2 " was read as 12 (every space was dropped before reading the number)
    for data in ({"scoring": {"values": {"QS": text}}}, {"moon": {"points": text}}):
        with pytest.raises(hl.VariantError, match="is not a score"):
            hl.Variant.from_dict(data)


def test_spaces_around_a_score_and_its_sign_are_still_read() -> None:
    assert hl.Variant.from_dict({"scoring": {"values": {"QS": " 13 "}}}).scoring.values["QS"] == 13
    assert parse_score(" 3 - 4i ") == complex(3, -4)
    assert parse_score("- 7") == -7


# --------------------------------------------------------------------------- parse_score and json_text


@pytest.mark.parametrize("value", ["1_2", " 1 2 ", "", "x", "1.5", 1.5, None, True, "12345678901234567891i", 10**16,
                                   "1" + " " * 10**5 + "2"])
def test_parse_score_raises_illegal_action_bad_argument(value: Any) -> None:
    # '1_2' raised a bare ValueError
    _bad_argument(lambda: parse_score(value))


@pytest.mark.parametrize("indent", [2**64, -(2**64), MAX_INDENT + 1, -1, 1.5, True, "2"])
def test_to_json_with_an_indent_out_of_range_is_bad_argument(indent: Any) -> None:
    # indent=2**64 raised OverflowError from inside json
    match = hl.Match(STD, seed=1)
    if isinstance(indent, int):
        _bad_argument(lambda: match.to_json(indent=indent))
    else:
        _typed(lambda: match.to_json(indent=indent))  # Match is compiled in the compiled build
    _bad_argument(lambda: json_text({"a": 1}, indent=indent))


def test_to_json_keeps_the_indents_it_always_took() -> None:
    match = hl.Match(STD, seed=1)
    for indent in (None, 0, 2, MAX_INDENT):
        assert hl.Match.from_json(match.to_json(indent=indent)) == match


# --------------------------------------------------------------------------- the search agent's budget


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: SearchAgent(1, playouts=0), id="playouts=0"),
        pytest.param(lambda: SearchAgent(1, playouts=-5), id="playouts<0"),
        pytest.param(lambda: SearchAgent(1, time_limit=math.nan), id="time_limit=nan"),
        pytest.param(lambda: SearchAgent(1, time_limit=0), id="time_limit=0"),
        pytest.param(lambda: SearchAgent(1, time_limit=-1), id="time_limit<0"),
        pytest.param(lambda: SearchAgent(1, max_plays=0), id="max_plays=0"),
        pytest.param(lambda: SearchFactory(playouts=0), id="SearchFactory"),
        pytest.param(lambda: Budget(time_limit=math.nan), id="Budget"),
    ],
)
def test_a_search_budget_that_cannot_be_used_is_bad_argument(call: Callable[[], object]) -> None:
    # playouts=0 and time_limit=nan raised a bare ValueError
    message = str(_bad_argument(call))
    assert "must be" in message


@pytest.mark.parametrize("kwargs", [{"playouts": 2.5}, {"time_limit": "1"}], ids=["playouts=2.5", "time_limit-text"])
def test_a_wrongly_typed_search_budget_is_refused(kwargs: dict[str, Any]) -> None:
    # SearchAgent and Budget are compiled in the compiled build (agents.py, search.py): a type mypyc checks is a
    # TypeError at the call there; the others (an int where a float may be) reach Budget's own check
    _typed(lambda: SearchAgent(1, **kwargs))
    if hl.COMPILED:
        with pytest.raises((TypeError, hl.IllegalAction)):
            Budget(**kwargs)
    else:
        assert "must be" in str(_bad_argument(lambda: Budget(**kwargs)))


def test_a_search_budget_that_can_be_used_is_kept() -> None:
    agent = SearchAgent(1, playouts=3, time_limit=0.5)
    assert (agent.playouts, agent.time_limit) == (3, 0.5)


# --------------------------------------------------------------------------- simulate's arguments


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        pytest.param({"games": -1}, "games must be a whole number >= 0", id="games=-1"),
        pytest.param({"games": 1.0}, "games must be", id="games=1.0"),
        pytest.param({"games": True}, "games must be", id="games=True"),
        pytest.param({"seed": "1"}, "seed must be a whole number from 0 to 2**64 - 1", id="seed='1'"),
        pytest.param({"seed": -1}, "seed must be a whole number from 0 to 2**64 - 1", id="seed=-1"),
        pytest.param({"seed": 2**64}, "seed must be", id="seed=2**64"),
        pytest.param({"seed": None}, "seed must be", id="seed=None"),
        pytest.param({"chunk_size": 0}, "chunk_size must be a whole number >= 1", id="chunk_size=0"),
        pytest.param({"chunk_size": 2.0}, "chunk_size must be", id="chunk_size=2.0"),
        pytest.param({"chunk_size": True}, "chunk_size must be", id="chunk_size=True"),
        pytest.param({"agents": []}, "4 players need 4 agents", id="agents=[]"),
        pytest.param({"agents": ["random"] * 5}, "4 players need 4 agents", id="agents-too-many"),
        pytest.param({"agents": "clever"}, "unknown agent 'clever'", id="agents-unknown"),
        pytest.param({"agents": "heartslib.agents:Nobody"}, "cannot load agent", id="agents-not-found"),
        pytest.param({"agents": "heartslib.agents:AGENTS"}, "is not a class or function", id="agents-not-callable"),
    ],
)
def test_simulate_refuses_bad_arguments_with_bad_argument(kwargs: dict[str, Any], words: str) -> None:
    args: dict[str, Any] = {"agents": "random", "games": 1, **kwargs}
    message = str(_bad_argument(lambda: simulate(STD, **args)))
    assert words in message


def test_resolve_agents_uses_the_same_error() -> None:
    _bad_argument(lambda: resolve_agents([], 4))
    _bad_argument(lambda: resolve_agents("clever", 4))


def test_the_largest_seed_simulates() -> None:
    assert simulate(STD, "random", games=1, seed=2**64 - 1).seed == 2**64 - 1
