"""The search player with choice-aware worlds (SearchAgent(beliefs="heuristic"), issue 34)."""

from __future__ import annotations

import random

import pytest

import heartslib as hl
from heartslib.agents import HeuristicAgent, SearchAgent, play_match
from heartslib.search import Budget, Search, _weighted_mean

SHORT = hl.preset("standard").replace(end={"target": 15})


def _match(seed: int) -> hl.Match:
    agents = [SearchAgent(1, playouts=4, beliefs="heuristic")] + [HeuristicAgent(s) for s in (2, 3, 4)]
    return play_match(SHORT, agents, seed=seed)


def test_a_search_player_with_choice_aware_worlds_plays_a_match_the_same_way_twice() -> None:
    first, second = _match(7), _match(7)
    assert first.is_over and first == second


def test_the_weighted_search_asks_the_model_about_the_other_seats_choices() -> None:
    v = hl.preset("standard")
    r = hl.Round.deal(v, seed=3, hand_number=3)  # a hold hand: play starts at once
    for _ in range(9):
        r.apply(r.legal_actions()[0])
    asked: list[int] = []
    heuristic = HeuristicAgent(0)
    heuristic.setup(v, 0)

    def model(obs: hl.Observation, legal: object) -> hl.Action:
        asked.append(obs.seat)
        return heuristic.act(obs, legal)  # type: ignore[arg-type]

    obs = r.observation(r.to_act[0])
    search = Search(v, Budget(playouts=4), model=model)
    choice = search.choose(obs, search.play_candidates(obs, r.legal_actions()), random.Random(1))
    assert choice in r.legal_actions()
    assert asked and obs.seat not in asked  # the others' choices, never the searcher's own


def test_values_count_with_their_worlds_weights() -> None:
    assert _weighted_mean([1.0, 3.0], [0.75, 0.25]) == pytest.approx(1.5)
    assert _weighted_mean([None, 3.0], [0.9, 0.1]) == pytest.approx(3.0)  # a world that could not play it


@pytest.mark.parametrize(("kwargs", "text"), [
    ({"beliefs": "bayes"}, "beliefs must be one of 'uniform', 'heuristic'"),
    ({"beliefs": "heuristic", "epsilon": 0.0}, "epsilon must be a number with 0 < epsilon <= 1"),
])
def test_bad_beliefs_are_refused(kwargs: dict[str, object], text: str) -> None:
    with pytest.raises(hl.IllegalAction, match=text):
        SearchAgent(1, **kwargs)  # type: ignore[arg-type]


def test_the_beliefs_show_in_the_repr() -> None:
    assert repr(SearchAgent(1, beliefs="heuristic")) == \
        "SearchAgent(seed=1, playouts=64, beliefs='heuristic', epsilon=0.1)"
    assert "beliefs" not in repr(SearchAgent(1))
