"""heartslib.inference and a game with a stock (deck.stock): refused by name, and SearchAgent plays it by its
heuristic rather than failing (a seat may draw a suit after showing a void in it, which the readings of the
history do not model yet)."""

from __future__ import annotations

import random

import pytest

import heartslib as hl
from heartslib.agents import HeuristicAgent, SearchAgent, play_match
from heartslib.inference import Sampler, knowledge, known_voids, reads, sample_round

STOCK_PRESETS = [n for n in hl.preset_names() if hl.preset(n).deck.stock != "none"]


def test_the_stock_presets_exist() -> None:
    # the tests below must reach a stock game
    assert {"two_handed", "domino_hearts"} <= set(STOCK_PRESETS)


def test_inference_reads_every_preset_but_a_stock_game() -> None:
    for name in hl.preset_names():
        assert reads(hl.preset(name)) is (name not in STOCK_PRESETS), name


@pytest.mark.parametrize("name", STOCK_PRESETS)
def test_every_reading_of_a_stock_game_is_refused_at_deck_stock(name: str) -> None:
    v = hl.preset(name)
    r = hl.Round.deal(v, seed=3)
    rng = random.Random(3)
    for _ in range(6):
        r.apply(rng.choice(r.legal_actions(r.to_act[0])))
    obs = r.observation(0)
    calls = [lambda: Sampler(obs, v), lambda: knowledge(obs, v), lambda: known_voids(obs, v),
             lambda: sample_round(obs, random.Random(0), variant=v)]
    for call in calls:
        with pytest.raises(hl.VariantError, match="does not model a stock") as info:
            call()
        assert info.value.path == "deck.stock"


@pytest.mark.parametrize("name", STOCK_PRESETS)
def test_the_search_agent_plays_a_stock_game_as_its_heuristic(name: str) -> None:
    v = hl.preset(name).replace(end={"target": 15})
    n = v.players
    search = play_match(v, [SearchAgent(7, playouts=4)] + [HeuristicAgent(s) for s in range(1, n)], seed=11)
    heuristic = play_match(v, [HeuristicAgent(7)] + [HeuristicAgent(s) for s in range(1, n)], seed=11)
    assert search.is_over
    # the same choices as a heuristic player with the same seed: the search is not used, nothing else changes
    assert search.scores == heuristic.scores
