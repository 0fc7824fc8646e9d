"""SearchAgent's levels (issue 50): ``"strong"`` is four times the default budget, and a bad level is refused."""

from __future__ import annotations

import copy
import pickle

import pytest

import heartslib as hl
from heartslib.agents import LEVELS, SearchAgent
from heartslib.search import DEFAULT_MAX_PLAYS, DEFAULT_PLAYOUTS


def test_the_strong_level_has_four_times_the_default_budget() -> None:
    assert LEVELS["default"] == (DEFAULT_PLAYOUTS, DEFAULT_MAX_PLAYS)
    strong = SearchAgent(1, level="strong")
    assert (strong.playouts, strong.max_plays) == (4 * DEFAULT_PLAYOUTS, 4 * DEFAULT_MAX_PLAYS)
    assert repr(strong) == "SearchAgent(seed=1, level='strong')"
    assert repr(SearchAgent(1)) == f"SearchAgent(seed=1, playouts={DEFAULT_PLAYOUTS})"


def test_an_explicit_budget_overrides_the_level() -> None:
    a = SearchAgent(2, level="strong", playouts=10)
    assert (a.playouts, a.max_plays) == (10, 4 * DEFAULT_MAX_PLAYS)
    assert repr(a) == "SearchAgent(seed=2, level='strong', playouts=10)"


@pytest.mark.parametrize("bad", ["fast", "", "Strong", None, 4])
def test_a_bad_level_is_refused(bad: object) -> None:
    errors = (hl.IllegalAction, TypeError) if hl.COMPILED and not isinstance(bad, str) else hl.IllegalAction
    with pytest.raises(errors, match=r"level must be one of 'default', 'strong'|str"):
        SearchAgent(1, level=bad)  # type: ignore[arg-type]


def test_a_strong_agent_plays_and_copies() -> None:
    v = hl.preset("standard")
    r = hl.Round.deal(v, seed=5, hand_number=3)  # a hold hand: play at once
    agent = SearchAgent(3, level="strong", playouts=8)
    agent.setup(v, r.to_act[0])
    seat = r.to_act[0]
    action = agent.act(r.observation(seat), r.legal_actions(seat))
    assert r.is_legal(action)
    for twin in (copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))):
        assert repr(twin) == repr(agent)
        assert twin.level == "strong"
