"""The page's Python glue (game.py) on CPython: what the browser asks of heartslib, without a browser.

Run by ../ci.sh before the browser test (``python -m pytest examples/web/tests/test_glue.py``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import heartslib as hl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# The glue lives beside the page, not in a package.
import game

ERRORS_MD = Path(__file__).resolve().parents[3] / "docs" / "errors.md"


def call(fn: Any, *args: Any) -> Any:
    return json.loads(fn(*args))


def play_to_human(state: dict[str, Any]) -> dict[str, Any]:
    """Let the computer players act until the human must (or the match ends)."""
    while state["agents_to_act"] and not state["is_over"]:
        state = call(game.agent_step)["state"]
    return state


def first_trick(seed: int, preset: str = "standard", level: str = "normal") -> dict[str, Any]:
    s = call(game.new_game, preset, seed, 1, level)
    return play_to_human(call(game.pass_cards, " ".join(s["passable"][:3]))["state"])


def test_new_game_deals_and_asks_for_a_pass_to_the_left() -> None:
    s = call(game.new_game, "standard", 11, 1)
    assert (s["phase"], s["turn"], s["pass_direction"], s["pass_count"], s["level"]) == \
        ("pass", "you", "left", 3, "normal")
    assert (s["pass_to"], s["receive_from"]) == (1, 3)  # West (the next seat clockwise) and East
    assert len(s["hand"]) == 13 and sorted(s["passable"]) == sorted(c["code"] for c in s["hand"])
    assert s["legal"] == [] and s["scores"] == [0, 0, 0, 0] and s["hand_points"] == [0, 0, 0, 0]
    assert set(s["hand"][0]) == {"code", "rank", "suit", "red"} and s["hand"][0]["suit"] in "SHDC"


def test_state_shows_only_the_human_hand() -> None:
    s = call(game.new_game, "standard", 12, 1)
    m = game._current().match
    text = game.state()
    for seat in (1, 2, 3):
        for card in m.round.hand(seat):
            assert f'"{card.code}"' not in text, f"seat {seat}'s {card} leaked into the page state"
    assert {c["code"] for c in s["hand"]} == {c.code for c in m.round.hand(0)}


def test_agents_receive_observations_only() -> None:
    seen: list[object] = []
    call(game.new_game, "standard", 13, 1)
    for agent in game._current().agents.values():
        original = agent.act

        def spy(observation: Any, legal: Any, _original: Any = original) -> Any:
            seen.append(observation)
            return _original(observation, legal)

        agent.act = spy  # type: ignore[method-assign]
    s = play_to_human(call(game.state))
    s = call(game.pass_cards, " ".join(s["passable"][:3]))["state"]
    play_to_human(s)
    assert seen and all(isinstance(o, hl.Observation) for o in seen)


def test_a_refused_card_comes_back_as_data_and_changes_nothing() -> None:
    s = first_trick(14)
    refused = [c["code"] for c in s["hand"] if c["code"] not in s["legal"]]
    assert refused, "on the first trick some card is always refused"
    verdict = call(game.why, refused[0])
    refusal = verdict["refusal"]
    assert verdict["legal"] is False and refusal["card"]["code"] == refused[0]
    assert refusal["code"] in {"must_lead_opening_card", "must_follow_suit", "no_points_on_first_trick"}
    if refusal["code"] == "must_lead_opening_card":
        assert [c["code"] for c in refusal["cards"]] == ["2C"]
    if refusal["code"] == "must_follow_suit":
        assert refusal["led"] == "C"
    before = game.save()
    result = call(game.play, refused[0])
    assert result["ok"] is False and result["refusal"] == refusal
    assert game.save() == before
    assert call(game.why, s["legal"][0]) == {"legal": True}


def test_refusals_name_what_the_rule_is_about() -> None:
    s = call(game.new_game, "standard", 15, 1)
    wrong = call(game.pass_cards, " ".join(s["passable"][:2]))["refusal"]
    assert (wrong["code"], wrong["count"]) == ("pass_wrong_size", 3)
    assert call(game.pass_cards, "ZZ")["refusal"]["code"] == "bad_card"
    s = call(game.pass_cards, " ".join(s["passable"][:3]))["state"]
    assert s["turn"] == "agents"
    early = call(game.why, s["hand"][0]["code"])["refusal"]
    assert early["code"] == "not_playing"  # the others are still choosing their cards


def test_the_page_words_every_refusal_code() -> None:
    """Every IllegalAction code of docs/errors.md has words in both languages of i18n.js."""
    section = ERRORS_MD.read_text().split("## IllegalAction codes", 1)[1].split("## Save errors", 1)[0]
    codes = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    words = (Path(game.__file__).parent / "i18n.js").read_text()
    th = words[words.index("\n  th: {"):]
    en = words[words.index("\n  en: {"):words.index("\n  th: {")]
    assert len(codes) >= 20
    for code in codes:
        assert f"      {code}: " in en and f"      {code}: " in th, code


def test_running_points_follow_the_cards_taken() -> None:
    for preset in game.PRESETS:
        v = hl.preset(preset)
        s = first_trick(16, preset)
        while not s["rounds"]:
            taken = [sum(game.card_value(v, hl.Card(c["code"])) for c in cards) for cards in s["taken"]]
            assert s["hand_points"] == taken
            s = play_to_human(call(game.play, s["legal"][0])["state"])
        (hand,) = s["rounds"]
        taken_points = [sum(game.card_value(v, hl.Card(c["code"])) for c in cards) for cards in hand["taken"]]
        if hand["shooter"] is None:
            # Without a moon the hand's points are exactly the card values taken: card_value agrees with heartslib.
            assert hand["points"] == taken_points, preset


def test_a_whole_hand_scores_and_the_next_passes_right() -> None:
    s = first_trick(17)
    while not s["rounds"]:
        s = play_to_human(call(game.play, s["legal"][0])["state"])
    (hand,) = s["rounds"]
    assert sum(hand["points"]) in (26, 78) and hand["totals"] == hand["points"] == s["scores"]
    assert sum(hand["tricks_won"]) == 13 and len(hand["last_trick"]["plays"]) == 4
    assert (s["hand_number"], s["pass_direction"], s["pass_to"]) == (2, "right", 3)


def test_save_and_load_resume_mid_hand() -> None:
    s = first_trick(18, "omnibus", "easy")
    for _ in range(4):
        s = play_to_human(call(game.play, s["legal"][0])["state"])
    record = game.save()
    call(game.new_game, "standard", 99, 1)
    resumed = call(game.load, record)
    assert resumed["ok"] and resumed["state"] == s
    assert (resumed["state"]["preset"], resumed["state"]["level"]) == ("omnibus", "easy")


def test_an_older_save_without_a_level_plays_at_the_default() -> None:
    call(game.new_game, "standard", 19, 1)
    data = json.loads(game.save())
    del data["level"]
    assert call(game.load, json.dumps(data))["state"]["level"] == game.DEFAULT_LEVEL
    data["level"] = "hard-from-a-newer-build"
    assert call(game.load, json.dumps(data))["state"]["level"] == game.DEFAULT_LEVEL


def test_replay_deals_again_and_a_new_game_deals_anew() -> None:
    first = call(game.new_game, "pink_lady", 20, 1, "easy")
    call(game.pass_cards, " ".join(first["passable"][:3]))
    again = call(game.replay)
    assert again["hand"] == first["hand"] and again["level"] == "easy"
    assert call(game.new_game, "pink_lady")["hand"] != first["hand"]


@pytest.mark.parametrize(("record", "problem"), [
    ("{", "not_json"),
    ("[]", "not_a_save"),
    (json.dumps({"preset": "standard", "agent_seed": 1}), "not_a_save"),
    (json.dumps({"preset": "nope", "agent_seed": 1, "match": "{}"}), "not_a_save"),
    (json.dumps({"preset": "standard", "agent_seed": 1, "match": "{}"}), "damaged"),
])
def test_a_bad_record_is_refused_as_data(record: str, problem: str) -> None:
    s = call(game.new_game, "standard", 21, 1)
    result = call(game.load, record)
    assert result["ok"] is False and result["problem"] == problem and result["detail"]
    assert call(game.state) == s, "the current game is left as it was"


@pytest.mark.parametrize("field", [
    ("level", ["normal"]), ("level", {"x": 1}), ("level", 5), ("level", None),
    ("preset", ["standard"]), ("agent_seed", "7"), ("agent_seed", True), ("agent_seed", 1.5), ("match", 3),
])
def test_every_stored_field_of_a_save_is_checked(field: tuple[str, Any]) -> None:
    """A stored field of the wrong kind is refused as data (the page's friendly dialog), never raised."""
    s = call(game.new_game, "standard", 24, 1)
    data = json.loads(game.save())
    data[field[0]] = field[1]
    result = call(game.load, json.dumps(data))
    assert result["ok"] is False and result["problem"] == "not_a_save" and result["detail"]
    assert call(game.state) == s


def test_a_finished_trick_tells_its_story() -> None:
    """Who led, who took it and what it scores (from the variant), for the page's trick line."""
    s = first_trick(25, "omnibus")
    while s["tricks_played"] < 13 and not s["rounds"]:
        before = s["tricks_played"]
        s = play_to_human(call(game.play, s["legal"][0])["state"])
        if s["rounds"] or s["tricks_played"] == before:
            continue
        last = s["last_trick"]
        assert last["leader"] == last["plays"][0]["seat"] and last["winner"] in range(4)
        v = hl.preset("omnibus")
        assert last["points"] == sum(game.card_value(v, hl.Card(p["card"]["code"])) for p in last["plays"])
    summary = s["rounds"][0]["last_trick"]
    assert set(summary) == {"plays", "leader", "winner", "points"}


def test_a_tampered_save_is_damaged() -> None:
    call(game.new_game, "standard", 22, 1)
    data = json.loads(game.save())
    match = json.loads(data["match"])
    match["actions"] = [{"type": "play", "seat": 0, "card": "AS"}]
    data["match"] = json.dumps(match)
    result = call(game.load, json.dumps(data))
    assert result["problem"] == "damaged" and "SaveError" in result["detail"]
    with pytest.raises(ValueError, match="the page offers"):
        game.new_game("no_such_variant")
    with pytest.raises(ValueError, match="the levels are"):
        game.new_game("standard", level="impossible")


@pytest.mark.parametrize("name", game.PRESETS)
def test_every_offered_variant_has_worded_rules_and_plays_a_hand(name: str) -> None:
    facts = call(game.catalog)["presets"][game.PRESETS.index(name)]["facts"]
    v = hl.preset(name)
    # The facts agree with heartslib's own description of the variant.
    assert f"Shooting the moon ({facts['moon']['points']} points)" in v.describe()
    assert f"reaches {facts['target']} or more" in v.describe()
    s = first_trick(23, name)
    while not s["rounds"]:
        s = play_to_human(call(game.play, s["legal"][0])["state"])
    assert len(s["rounds"]) == 1


def test_rules_facts_refuse_a_rule_the_page_cannot_word() -> None:
    with pytest.raises(ValueError, match=r"moon\.kind"):
        game.rules_facts(hl.preset("standard").replace(moon={"kind": "new"}))
    with pytest.raises(ValueError, match=r"passing\.schedule"):
        game.rules_facts(hl.preset("standard").replace(passing={"schedule": "left"}))


@pytest.mark.parametrize("level", list(game.LEVELS))
def test_every_level_plays_a_whole_match(level: str) -> None:
    s = call(game.new_game, "standard", 24, 5, level)
    for _ in range(5000):
        if s["is_over"]:
            break
        if s["turn"] != "you":
            s = play_to_human(s)
        elif s["phase"] == "pass":
            s = call(game.pass_cards, " ".join(s["passable"][:3]))["state"]
        else:
            s = call(game.play, s["legal"][0])["state"]
    assert s["is_over"] and s["winners"] and max(s["scores"]) >= 100


@pytest.mark.parametrize("level", list(game.LEVELS))
def test_a_resumed_match_goes_on_exactly_as_it_would_have(level: str) -> None:
    """Reloading the page (save, then load into fresh computer players) changes none of their choices."""

    def run(reload_every: int) -> list[Any]:
        s = call(game.new_game, "standard", 25, 6, level)
        seen = []
        for step in range(400):
            if s["is_over"]:
                break
            if reload_every and step % reload_every == 0:
                s = call(game.load, game.save())["state"]
            if s["turn"] != "you":
                s = call(game.agent_step)["state"]
            elif s["phase"] == "pass":
                s = call(game.pass_cards, " ".join(s["passable"][:3]))["state"]
            else:
                s = call(game.play, s["legal"][0])["state"]
            seen.append((s["trick"], s["scores"]))
        return seen

    assert run(0) == run(7)
