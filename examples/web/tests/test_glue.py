"""The page's Python glue (game.py) on CPython: what the browser asks of heartslib, without a browser.

Run by ../ci.sh before the browser test (``python -m pytest examples/web/tests/test_glue.py``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import heartslib as hl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# The glue lives beside the page, not in a package.
import game


def call(fn: Any, *args: Any) -> Any:
    return json.loads(fn(*args))


def play_to_human(state: dict[str, Any]) -> dict[str, Any]:
    """Let the computer players act until the human must (or the match ends)."""
    while state["agents_to_act"] and not state["is_over"]:
        state = call(game.agent_step)["state"]
    return state


def test_new_game_deals_and_asks_for_a_pass_to_the_left() -> None:
    s = call(game.new_game, "standard", 11, 1)
    assert (s["phase"], s["turn"], s["pass_direction"], s["pass_count"]) == ("pass", "you", "left", 3)
    assert s["names"][s["pass_to"]] == "West" and s["names"][s["receive_from"]] == "East"
    assert len(s["hand"]) == 13 and sorted(s["passable"]) == sorted(c["code"] for c in s["hand"])
    assert s["legal"] == [] and s["scores"] == [0, 0, 0, 0]


def test_state_shows_only_the_human_hand() -> None:
    s = call(game.new_game, "standard", 12, 1)
    truth = game._current().match.round.hands
    mine = {c.code for c in truth[0]}
    text = game.state()
    for seat in (1, 2, 3):
        for card in truth[seat]:
            assert f'"{card.code}"' not in text, f"seat {seat}'s {card} leaked into the page state"
    assert {c["code"] for c in s["hand"]} == mine


def test_agents_receive_observations_only() -> None:
    seen: list[object] = []
    call(game.new_game, "standard", 13, 1)
    for agent in game._current().agents.values():
        original = agent.act

        def spy(observation: Any, legal: Any, _original: Any = original) -> Any:
            seen.append(observation)
            return _original(observation, legal)

        agent.act = spy  # type: ignore[method-assign,assignment]
    s = play_to_human(call(game.state))
    s = call(game.pass_cards, " ".join(s["passable"][:3]))["state"]
    play_to_human(s)
    assert seen and all(isinstance(o, hl.Observation) for o in seen)


def test_a_refused_card_explains_itself_and_changes_nothing() -> None:
    s = call(game.new_game, "standard", 14, 1)
    s = play_to_human(call(game.pass_cards, " ".join(s["passable"][:3]))["state"])
    refused = [c["code"] for c in s["hand"] if c["code"] not in s["legal"]]
    assert refused, "on the first trick some card is always refused"
    verdict = call(game.why, refused[0])
    assert verdict["legal"] is False and verdict["code"] and verdict["message"]
    assert not verdict["message"].startswith("0:play")
    before = game.save()
    result = call(game.play, refused[0])
    assert result["ok"] is False and result["message"] == verdict["message"]
    assert game.save() == before
    assert call(game.why, s["legal"][0])["legal"] is True


def test_a_whole_hand_scores_and_the_next_passes_right() -> None:
    s = call(game.new_game, "standard", 15, 1)
    s = play_to_human(call(game.pass_cards, " ".join(s["passable"][:3]))["state"])
    while not s["rounds"]:
        s = play_to_human(call(game.play, s["legal"][0])["state"])
    (hand,) = s["rounds"]
    assert sum(hand["points"]) in (26, 78) and hand["totals"] == hand["points"] == s["scores"]
    assert sum(hand["tricks_won"]) == 13 and len(hand["last_trick"]["plays"]) == 4
    assert (s["hand_number"], s["pass_direction"]) == (2, "right")


def test_save_and_load_resume_mid_hand() -> None:
    s = call(game.new_game, "omnibus", 16, 2)
    s = play_to_human(call(game.pass_cards, " ".join(s["passable"][:3]))["state"])
    for _ in range(4):
        s = play_to_human(call(game.play, s["legal"][0])["state"])
    record = game.save()
    call(game.new_game, "standard", 99, 1)
    resumed = call(game.load, record)
    assert resumed == s and resumed["preset"] == "omnibus"


def test_replay_deals_again_and_a_new_game_deals_anew() -> None:
    first = call(game.new_game, "pink_lady", 17, 1)
    call(game.pass_cards, " ".join(first["passable"][:3]))
    assert call(game.replay)["hand"] == first["hand"]
    assert call(game.new_game, "pink_lady")["hand"] != first["hand"]


def test_a_tampered_save_is_refused() -> None:
    call(game.new_game, "standard", 18, 1)
    data = json.loads(game.save())
    match = json.loads(data["match"])
    match["actions"] = [{"type": "play", "seat": 0, "card": "AS"}]
    data["match"] = json.dumps(match)
    with pytest.raises(hl.SaveError):
        game.load(json.dumps(data))
    with pytest.raises(ValueError):
        game.new_game("no_such_variant")


@pytest.mark.parametrize("name", game.PRESETS)
def test_every_offered_variant_plays_a_hand(name: str) -> None:
    s = call(game.new_game, name, 19, 1)
    s = play_to_human(call(game.pass_cards, " ".join(s["passable"][:3]))["state"])
    while not s["rounds"]:
        s = play_to_human(call(game.play, s["legal"][0])["state"])
    assert len(s["rounds"]) == 1
    assert any(p["name"] == name and p["blurb"] and p["rules"] for p in call(game.presets))
