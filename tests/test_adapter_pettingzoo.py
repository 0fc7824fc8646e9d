"""The PettingZoo adapter, checked by PettingZoo's own test harness and by heartslib's rules.

Needs the ``pettingzoo`` extra; skipped (with the reason) without it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip(
    "pettingzoo", reason="the PettingZoo adapter needs the 'pettingzoo' extra: pip install -e '.[pettingzoo]'"
)

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.wrappers import BaseWrapper

import heartslib as hl
from heartslib.adapters import pettingzoo as hpz
from heartslib.adapters.encoding import Encoding, Turns
from heartslib.strategies import variants

# api_test recommends a bare Box observation; a Dict with "observation" and "action_mask" is the
# documented convention of PettingZoo's own classic (card and board) games.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning"),
]

VARIANTS = {
    "standard": hl.preset("standard"),
    "omnibus": hl.preset("omnibus"),
    "three_stripped": hl.preset("standard").replace(players=3, passing={"schedule": "left_right"}),
    "cancellation": hl.preset("cancellation"),
}
SEEDS = range(12)


class Reseeded(BaseWrapper):  # type: ignore[misc]
    """Shifts every explicit reset seed, so PettingZoo's fixed seeds (0, 42) cover many deals."""

    def __init__(self, env: Any, offset: int) -> None:
        super().__init__(env)
        self.offset = offset

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=None if seed is None else seed + self.offset, options=options)


def make(name: str, offset: int, **kwargs: Any) -> Any:
    return Reseeded(hpz.env(VARIANTS[name], **kwargs), offset)


def play(env: Any, seed: int, pick: random.Random) -> dict[str, float]:
    """Play one episode with random legal actions; return each agent's summed rewards."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[pick.randrange(len(legal))]))
    return totals


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("offset", SEEDS)
def test_pettingzoo_api_test(name: str, offset: int) -> None:
    api_test(make(name, offset * 1000), num_cycles=1000)


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("offset", SEEDS)
def test_pettingzoo_seed_test(name: str, offset: int) -> None:
    seed_test(lambda: make(name, offset * 1000), num_cycles=500)


@pytest.mark.parametrize("name", VARIANTS)
def test_pettingzoo_render_test(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: hpz.env(VARIANTS[name], render_mode=render_mode))
    assert "scores before this hand" in capsys.readouterr().out  # the "human" mode printed the table


@pytest.mark.parametrize("name", ["standard", "omnibus"])
def test_pettingzoo_match_episodes_pass_api_test(name: str) -> None:
    api_test(hpz.env(VARIANTS[name], episode="match"), num_cycles=2000)


@pytest.mark.parametrize("name", VARIANTS)
def test_round_rewards_are_minus_the_points(name: str) -> None:
    pick = random.Random(5)
    for seed in range(3):
        env = hpz.env(VARIANTS[name])
        totals = play(env, seed, pick)
        points = env.unwrapped.game.points
        assert points is not None
        assert [totals[a] for a in env.possible_agents] == [-float(p) for p in points]


def test_trick_shaping_pays_during_the_round_and_sums_to_the_same() -> None:
    pick = random.Random(1)
    env = hpz.env("standard", shaping="trick")
    env.reset(seed=3)
    mid_round: list[float] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if not terminated:
            mid_round.append(reward)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[pick.randrange(len(legal))]))
    points = env.unwrapped.game.points
    assert any(r < 0 for r in mid_round)  # some trick with points paid before the round ended
    assert [totals[a] for a in env.possible_agents] == [-float(p) for p in points]


def test_match_rewards_sum_to_minus_the_final_totals() -> None:
    env = hpz.env("standard", episode="match")
    totals = play(env, 11, random.Random(2))
    match = env.unwrapped.game
    assert match.is_over
    assert [totals[a] for a in env.possible_agents] == [-float(s) for s in match.scores]


def test_terminated_agents_are_stepped_with_none() -> None:
    env = hpz.raw_env("standard", hand_number=3)  # hold hand: straight to play
    env.reset(seed=0)
    pick = random.Random(0)
    while not any(env.terminations.values()):
        legal = env.turns.legal_ids(env.turns.current())
        env.step(legal[pick.randrange(len(legal))])
    agent = env.agent_selection
    assert env.terminations[agent]
    with pytest.raises(ValueError, match="None"):
        env.step(0)
    for _ in range(4):
        env.step(None)
    assert env.agents == []


def test_an_illegal_action_raises_illegal_action() -> None:
    env = hpz.raw_env("standard", hand_number=3, dealer=0)
    env.reset(seed=4)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.copy()
    with pytest.raises(hl.IllegalAction):
        env.step(illegal)
    assert env.game == before  # nothing changed; a legal action still plays
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.game != before


def test_the_pass_is_hidden_sequential_single_card_choices() -> None:
    env = hpz.raw_env("standard", hand_number=0, dealer=3)  # pass left
    env.reset(seed=8)
    rnd = env.game
    hands = [rnd.hand(s) for s in range(4)]
    chosen: dict[int, list[hl.Card]] = {}
    for seat in range(4):
        for _ in range(3):
            assert env.agent_selection == f"player_{seat}"
            assert env.observe(f"player_{(seat + 1) % 4}")["action_mask"].sum() == 0  # one seat at a time
            card = sorted(set(hands[seat]) - set(chosen.get(seat, [])))[-1]
            chosen.setdefault(seat, []).append(card)
            env.step(card.index)
    assert rnd.phase == hl.Phase.PLAY
    assert rnd.received == tuple(tuple(sorted(chosen[(s - 1) % 4])) for s in range(4))


def test_other_seats_hidden_choices_do_not_change_an_observation() -> None:
    a = hpz.raw_env("standard", hand_number=1, dealer=3)
    b = hpz.raw_env("standard", hand_number=1, dealer=3)
    a.reset(seed=21)
    b.reset(seed=21)
    hand1 = a.game.hand(1)
    for env, cards in ((a, hand1[:3]), (b, hand1[-3:])):
        env.step(env.game.hand(0)[0].index)
        env.step(env.game.hand(0)[1].index)
        env.step(env.game.hand(0)[2].index)
        for card in cards:
            env.step(card.index)
    assert a.agent_selection == b.agent_selection == "player_2"
    for agent in ("player_0", "player_2", "player_3"):
        np.testing.assert_array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
    assert not np.array_equal(a.observe("player_1")["observation"], b.observe("player_1")["observation"])


def test_observation_vector_is_the_shared_encoding() -> None:
    env = hpz.raw_env("omnibus")
    env.reset(seed=2)
    enc = Encoding(hl.preset("omnibus"))
    obs = env.observe(env.agent_selection)
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (enc.size,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (enc.num_actions,)
    seat = int(env.agent_selection.split("_")[1])
    start, stop = enc.layout()["hand"]
    held = {int(i) for i in np.flatnonzero(obs["observation"][start:stop])}
    assert held == {card.index for card in env.game.hand(seat)}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(v=variants(settlement=st.sampled_from(["none", "sweepstake", "howell"])), seed=st.integers(0, 2**32),
       moves=st.integers(0, 60))
def test_the_array_encoding_is_the_list_encoding(v: hl.Variant, seed: int, moves: int) -> None:
    """Encoding.encode_array (what the adapter now returns, built from the vector's non-zero entries) is the
    list encode gives, as float32, for every seat, over random variants (two decks, jokers, complex scores,
    exposures) and positions, hidden pass choices included. Not auctions: the encoding refuses them (their
    named suit and bids are in no section; test_rules3_auction.py)."""
    enc = Encoding(v)
    turns = Turns(enc, hl.Match(v, seed=seed))
    rng = random.Random(seed)
    for _ in range(moves):
        current = turns.current()
        if current is None:
            break
        for seat in range(v.players):
            np.testing.assert_array_equal(turns.observe_array(seat), np.asarray(turns.observe(seat), np.float32))
            assert turns.observe_array(seat).dtype == np.float32
        turns.apply_id(current, rng.choice(turns.legal_ids(current)))


def test_decisions_are_actions_after_the_cards() -> None:
    v = hl.preset("standard").replace(passing={"schedule": "dealers_choice"}, moon={"kind": "choice"})
    env = hpz.raw_env(v, dealer=1)
    env.reset(seed=0)
    assert env.agent_selection == "player_1"  # the dealer names the pass
    mask = env.observe("player_1")["action_mask"]
    offered = [env.encoding.option(int(i)) for i in np.flatnonzero(mask)]
    assert offered[0] == "hold" and "3 across" in offered and "old" not in offered
    env.step(env.encoding.option_id("hold"))
    assert env.game.phase == hl.Phase.PLAY


def test_render_ansi_returns_the_table() -> None:
    env = hpz.env("cancellation", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    assert text.startswith("cancellation · hand")
    assert len([line for line in text.splitlines() if line[:2] in {f"{s}:" for s in range(6)}]) == 6


def test_without_the_extra_the_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hpz, "_IMPORT_ERROR", ImportError("No module named 'pettingzoo'"))
    with pytest.raises(ImportError, match=r"heartslib\[pettingzoo\]"):
        hpz.env("standard")


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="episode"):
        hpz.raw_env("standard", episode="game")
    with pytest.raises(ValueError, match="render_mode"):
        hpz.raw_env("standard", render_mode="rgb_array")
    with pytest.raises(hl.UnknownVariant):
        hpz.raw_env("standrd")
