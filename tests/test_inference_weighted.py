"""Choice-aware worlds (issue 34): Sampler.weighted and Sampler.draw_weighted weigh determinizations by how
likely the other seats' passes and plays are under a model, with slack."""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

import pytest

import heartslib as hl
from heartslib.actions import Action
from heartslib.agents import HeuristicAgent
from heartslib.inference import Sampler
from helpers import load_benchmark

belief = load_benchmark("belief")


def first_legal(obs: hl.Observation, legal: Sequence[Action]) -> Action:
    """A model (and a player): always the first legal action (the lowest card in hand order)."""
    return legal[0]


def last_legal(obs: hl.Observation, legal: Sequence[Action]) -> Action:
    return legal[-1]


def _played(v: hl.Variant, seed: int, plays: int, chooser=first_legal) -> hl.Round:
    r = hl.Round.deal(v, seed=seed)
    done = 0
    while not r.is_over and (r.phase != hl.Phase.PLAY or done < plays):
        seat = r.to_act[0]
        if r.phase == hl.Phase.PLAY:
            done += 1
        r.apply(chooser(r.observation(seat), r.legal_actions(seat)))
    return r


@pytest.mark.parametrize("name", ["standard", "omnibus", "black_maria", "spot_hearts", "double_deck_6_dirty"])
def test_weighted_worlds_are_consistent_and_their_weights_sum_to_one(name: str) -> None:
    v = hl.preset(name)
    r = _played(v, 3, 3 * v.players + 2)
    model = HeuristicAgent(seed=0)
    model.setup(v, 0)
    obs = r.observation(0)
    drawn = Sampler(obs, v).weighted(random.Random(1), model.act, worlds=6)
    assert len(drawn) == 6
    assert sum(w for _, w in drawn) == pytest.approx(1.0)
    assert all(w > 0 for _, w in drawn)  # the slack rules no world out
    assert all(d.round.observation(0) == obs for d, _ in drawn)
    assert Sampler(obs, v).draw_weighted(random.Random(2), model.act, worlds=4).round.observation(0) == obs


def test_weighting_by_the_players_own_policy_puts_more_belief_on_the_true_deal() -> None:
    # every seat plays its first legal card, and the model says so: the deals in which the others' plays were
    # their first legal cards are the likely ones, and the real deal is one of them
    v = hl.preset("standard")
    gains = []
    for seed in range(12):
        r = _played(v, seed, 6 * 4)
        sampler = Sampler(r.observation(0), v)
        rng = random.Random(seed)
        flat = [(sampler.draw(rng), 1 / 24) for _ in range(24)]
        weighted = sampler.weighted(rng, first_legal, worlds=24, epsilon=0.05)
        gains.append(belief.truth_probability(weighted, r, 0) - belief.truth_probability(flat, r, 0))
    assert statistics.fmean(gains) > 0.02, gains  # about 0.04; uniform weights give 0 give or take 0.01


def test_a_model_the_players_never_follow_does_not_collapse_the_belief() -> None:
    v = hl.preset("standard")
    r = _played(v, 4, 8 * 4)  # played by first_legal; the model always names the last legal action
    drawn = Sampler(r.observation(0), v).weighted(random.Random(3), last_legal, worlds=8, epsilon=0.1)
    assert sum(w for _, w in drawn) == pytest.approx(1.0)
    assert max(w for _, w in drawn) < 1.0


def test_full_slack_is_the_random_player_whatever_the_model() -> None:
    # epsilon 1: each choice counts 1/k whatever the model says, a uniformly random player's likelihood
    v = hl.preset("standard")
    r = _played(v, 5, 10)
    sampler = Sampler(r.observation(0), v)
    a = sampler.weighted(random.Random(4), first_legal, worlds=5, epsilon=1.0)
    b = sampler.weighted(random.Random(4), last_legal, worlds=5, epsilon=1.0)
    assert [d.dealt for d, _ in a] == [d.dealt for d, _ in b]
    assert [w for _, w in a] == pytest.approx([w for _, w in b])


@pytest.mark.parametrize(("kwargs", "text", "wrong_type"), [
    ({"worlds": 0}, "worlds must be a whole number of at least 1", False),
    ({"worlds": 2.0}, "worlds must be a whole number", True),
    ({"epsilon": 0}, r"epsilon must be a number with 0 < epsilon <= 1", False),
    ({"epsilon": 1.5}, r"epsilon must be a number", False),
    ({"epsilon": "0.1"}, r"epsilon must be a number", True),
])
def test_bad_arguments_are_refused_and_change_nothing(kwargs: dict[str, object], text: str, wrong_type: bool) -> None:
    v = hl.preset("standard")
    r = _played(v, 6, 9)
    sampler = Sampler(r.observation(0), v)
    if hl.COMPILED and wrong_type:
        # inference is compiled in the compiled build: a wrongly typed argument is a TypeError at the call
        # there (docs/performance.md, "Two builds"); a value of the right type is checked as in the pure build
        with pytest.raises(TypeError):
            sampler.weighted(random.Random(0), first_legal, **kwargs)  # type: ignore[arg-type]
    else:
        with pytest.raises(hl.IllegalAction, match=text) as info:
            sampler.weighted(random.Random(0), first_legal, **kwargs)  # type: ignore[arg-type]
        assert info.value.code == "bad_argument"
    with pytest.raises(hl.IllegalAction, match="model must be a callable"):
        sampler.weighted(random.Random(0), "heuristic")  # type: ignore[arg-type]
    assert sampler.draw(random.Random(0)).round.observation(0) == r.observation(0)


def test_the_calibration_benchmark_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert belief.main(["--hands", "2", "--worlds", "3", "--tricks", "2,4"]) == 0
    out = capsys.readouterr().out
    assert "| trick | uniform: P(true place) | weighted: P(true place) |" in out
