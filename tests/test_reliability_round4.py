"""Issue 51, items 6, 7, 10 and 11: ``simulate`` checks that each task ran as it was asked and does not wait for a
cancelled one; ``sample_round`` names an impossible history at once; cleaning the slate scores the shooter's hand
0; the Leekha partnership text and the two-player message say what is true."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any
from unittest import mock

import attrs
import pytest

import heartslib as hl
from heartslib import inference
from heartslib.inference import ImpossibleHistory, sample_round
from heartslib.scoring import score_cards
from heartslib.simulate import simulate
from test_reliability_inference import _midway as _round_midway

STD = hl.preset("standard")


# --------------------------------------------------------------------------- item 6: simulate checks each task


class _Altering(Executor):
    """Runs each task at once, in this thread, after ``alter`` has changed its arguments."""

    def __init__(self, alter: Callable[[tuple[Any, ...]], tuple[Any, ...]]) -> None:
        self.alter = alter

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*self.alter(args), **kwargs))
        return future


def _other_target(args: tuple[Any, ...]) -> tuple[Any, ...]:
    data, specs, seed, start, stop = args
    return ({**data, "end": {**data["end"], "target": 50}}, specs, seed, start, stop)


@pytest.mark.parametrize(("alter", "named"), [
    (lambda a: (a[0], a[1], a[2] + 1, a[3], a[4]), r"seed 2 \(not 1\)"),
    (lambda a: (a[0], ("heuristic",) * 4, a[2], a[3], a[4]), "agents heuristic"),
    (_other_target, "variant"),
], ids=["seed", "agents", "variant"])
def test_simulate_refuses_an_executor_that_alters_its_tasks(
    alter: Callable[[tuple[Any, ...]], tuple[Any, ...]], named: str
) -> None:
    # the statistics of games played with another seed, other agents or other rules came back as this run's
    with pytest.raises(hl.IllegalAction, match=f"a task run with {named}") as info:
        simulate(STD, "random", games=4, seed=1, executor=_Altering(alter), chunk_size=2)
    assert info.value.code == "bad_argument"


class _Replaying(Executor):
    """Hands back, for each range of games, the result it computed for that range in the first simulation it
    served (a cache keyed on the games alone)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], Any] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        key = (args[3], args[4])
        if key not in self.seen:
            self.seen[key] = fn(*args, **kwargs)
        future: Future[Any] = Future()
        future.set_result(self.seen[key])
        return future


def test_simulate_refuses_another_runs_result_for_the_same_games() -> None:
    executor = _Replaying()
    first = simulate(STD, "random", games=4, seed=1, executor=executor, chunk_size=2)
    assert first == simulate(STD, "random", games=4, seed=1)
    with pytest.raises(hl.IllegalAction, match="another simulation's"):
        simulate(STD, "random", games=4, seed=2, executor=executor, chunk_size=2)
    with pytest.raises(hl.IllegalAction, match="agents"):
        simulate(STD, ["heuristic", "random", "random", "random"], games=4, seed=1, executor=executor, chunk_size=2)


class _Cancelling(Executor):
    """Cancels every task it is given and never runs it."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.cancel()
        return future


def test_simulate_refuses_a_cancelled_task_rather_than_waiting_forever() -> None:
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            simulate(STD, "random", games=4, seed=1, executor=_Cancelling(), chunk_size=2)
        except BaseException as exc:  # handed to the test's thread
            outcome.append(exc)
        else:
            outcome.append(None)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    assert outcome, "simulate waited for a cancelled task"
    error = outcome[0]
    assert isinstance(error, hl.IllegalAction) and error.code == "bad_argument"
    assert "cancelled the task for games 0-1" in str(error)


def test_an_honest_executor_still_gives_this_process_statistics() -> None:
    table = ["heuristic", "random", hl.agents.RandomAgent(seed=3), hl.agents.HeuristicAgent]
    for name in ("standard", "omnibus", "complex_hearts"):
        v = hl.preset(name)
        assert simulate(v, table, games=3, seed=5, executor=_Altering(lambda a: a), chunk_size=2) == simulate(
            v, table, games=3, seed=5)


# --------------------------------------------------------------------------- item 7: impossible at once


def _midway(name: str = "standard", seed: int = 4, plays: int = 6) -> tuple[hl.Variant, hl.Observation]:
    """Seat 0's observation of a round of preset ``name`` after the pass and ``plays`` cards."""
    v, r = _round_midway(name, seed, plays)
    return v, r.observation(0)


def _at_once(obs: hl.Observation, v: hl.Variant, match: str) -> None:
    # one draw allowed: a refusal that needed the draws would be the RuntimeError "please report this position"
    with mock.patch.object(inference, "MAX_TRIES", 1), pytest.raises(ImpossibleHistory, match=match):
        sample_round(obs, random.Random(0), variant=v)


def test_sample_round_names_a_seat_that_plays_twice_in_a_finished_trick() -> None:
    v, obs = _midway()
    first = obs.tricks[0]
    (a, card_a), (_, card_b), *rest = first.plays
    edited = attrs.evolve(first, plays=((a, card_a), (a, card_b), *rest))
    _at_once(attrs.evolve(obs, tricks=(edited, *obs.tricks[1:])), v, f"trick 0: seat {a} plays twice")


def test_sample_round_names_a_seat_that_plays_twice_in_the_current_trick() -> None:
    v, obs = _midway()
    assert len(obs.trick) >= 2
    (a, card_a), (_, card_b), *rest = obs.trick
    _at_once(attrs.evolve(obs, trick=((a, card_a), (a, card_b), *rest)), v, f"seat {a} plays twice")


def test_sample_round_names_a_play_by_a_seat_that_does_not_exist() -> None:
    v, obs = _midway()
    (_, card), *rest = obs.trick
    _at_once(attrs.evolve(obs, trick=((7, card), *rest)), v, "a play by seat 7; the seats are 0-3")


@pytest.mark.parametrize("name", ["standard", "double_deck_9", "cancellation"])
def test_sample_round_names_an_edited_to_act_at_once(name: str) -> None:
    # with unseen kitty cards (double_deck_9, cancellation) to_act was never compared: 2,000 draws, RuntimeError
    v, obs = _midway(name, plays=5)
    wrong = tuple(s for s in range(obs.players) if s not in obs.to_act)[:1]
    _at_once(attrs.evolve(obs, to_act=wrong), v, "to_act")


@pytest.mark.parametrize("name", ["standard", "domino_hearts", "double_deck_9"])
def test_sample_round_names_seats_to_act_in_a_hand_that_is_over(name: str) -> None:
    # Domino Hearts (a stock): 2,000 draws, then RuntimeError
    v = hl.preset(name)
    r = hl.Round.deal(v, seed=6)
    rnd = random.Random(6)
    while not r.is_over:
        r.apply(rnd.choice(r.legal_actions(r.to_act[0])))
    obs = r.observation(1)
    _at_once(attrs.evolve(obs, to_act=(1, 2)), v, r"the hand is over, but the observation says seats \(1, 2\)")


@pytest.mark.parametrize("name", ["standard", "double_deck_9", "double_deck_6_dirty"])
def test_sample_round_names_an_edited_to_act_in_the_pass(name: str) -> None:
    # with unseen kitty cards, nobody left to pass in the pass phase was 2,000 draws, then RuntimeError
    v = hl.preset(name)
    obs = hl.Round.deal(v, seed=2).observation(0)
    assert obs.phase == hl.Phase.PASS
    _at_once(attrs.evolve(obs, to_act=()), v, "to_act")


@pytest.mark.parametrize("name", ["standard", "double_deck_9", "gong_zhu_exposed"])
def test_sample_round_names_an_edited_exposure_at_once(name: str) -> None:
    # a deal in which seat 0 holds an exposable card (any card where the variant exposes none)
    v, obs = next((v, obs) for v, obs in (_midway(name, seed, plays=5) for seed in range(50))
                  if not v.rules.exposable or any(c.index in v.rules.exposable for c in obs.hand))
    mine = next((c for c in obs.hand if c.index in v.rules.exposable), obs.hand[0])
    # a card this seat holds, said to be exposed by another seat
    _at_once(attrs.evolve(obs, exposed=(*obs.exposed, mine), exposed_by=(*obs.exposed_by, 1)), v,
             "exposes no card" if not v.rules.exposable else "seat 1 exposed .*, which seat 0 holds")
    # exposed cards without their exposers
    _at_once(attrs.evolve(obs, exposed=(*obs.exposed, mine)), v, "exposer")


def test_gong_zhu_an_exposure_this_seat_never_made() -> None:
    v = hl.preset("gong_zhu_exposed")
    v, obs = _midway("gong_zhu_exposed", plays=5)
    missing = next(c for c in sorted(set(v.pack)) if c.index in v.rules.exposable and c not in obs.hand)
    _at_once(attrs.evolve(obs, exposed=(*obs.exposed, missing), exposed_by=(*obs.exposed_by, 0)), v,
             f"seat 0 exposed {missing.code} but neither holds nor played it")


@pytest.mark.parametrize("obs", [None, "obs", 3])
def test_sample_round_of_something_that_is_not_an_observation(obs: object) -> None:
    # AttributeError: 'NoneType' object has no attribute 'players'
    with pytest.raises(hl.IllegalAction, match="obs must be an Observation") as info:
        sample_round(obs, random.Random(0), variant=STD)  # type: ignore[arg-type]
    assert info.value.code == "bad_argument"
    with pytest.raises(hl.IllegalAction, match="obs must be an Observation"):
        inference.Sampler(obs)  # type: ignore[arg-type]


def test_an_unedited_observation_still_samples_in_every_phase() -> None:
    for name in ("standard", "double_deck_9", "cancellation", "gong_zhu_exposed", "domino_hearts"):
        v = hl.preset(name)
        r = hl.Round.deal(v, seed=9)
        rnd = random.Random(9)
        while not r.is_over:
            obs = r.observation(r.to_act[0])
            assert sample_round(obs, random.Random(1), variant=v).observation(obs.seat) == obs
            r.apply(rnd.choice(r.legal_actions(r.to_act[0])))


# --------------------------------------------------------------------------- item 10: cleaning the slate


def _clean_slate_match() -> hl.Match:
    """Issue 51's position: seat 0 holds every spade and takes every trick, so it shoots the sun."""
    v = STD.replace(passing={"schedule": ["hold"]},
                    play={"opening": "eldest_any", "breaking": "none", "first_trick": "any"},
                    moon={"sun": "clean_slate"}, end={"next_dealer": "most_points"})
    hands = [" ".join(rank + suit for rank in "23456789TJQKA") for suit in "SHDC"]
    m = hl.Match.from_deal(v, hands, scores=(10, 20, 30, 40), dealer=3, seed=1)
    while not m.rounds:
        seat = m.to_act[0]
        legal = m.legal_actions(seat)
        m.apply(max(legal, key=lambda a: a.card.rank) if seat == 0 else legal[0])  # type: ignore[attr-defined]
    return m


def test_clean_slate_scores_the_shooters_hand_zero_and_resets_its_total() -> None:
    # the hand scored (-10, 0, 0, 0), minus the shooter's old total, and "most points" then chose seat 1
    m = _clean_slate_match()
    result = m.rounds[0]
    assert result.outcome.kind == "sun" and result.outcome.scoring == "clean_slate"
    assert result.points == (0, 0, 0, 0)
    assert result.totals == m.scores == (0, 20, 30, 40)
    assert m.round.dealer == 0  # a tie at 0 points: the first tied player after the dealer (seat 3)


def test_clean_slate_survives_the_save_and_the_record() -> None:
    m = _clean_slate_match()
    again = hl.Match.from_json(m.to_json())
    assert again.scores == (0, 20, 30, 40) and again.rounds[0].points == (0, 0, 0, 0)
    assert again.round.dealer == 0


def test_clean_slate_with_score_cards() -> None:
    v = STD.replace(moon={"sun": "clean_slate"})
    everything = " ".join(c.code for c in v.pack)
    outcome = score_cards(v, [everything, "", "", ""], scores=(70, 1, 2, 3))
    assert outcome.points == (0, 0, 0, 0) and outcome.scoring == "clean_slate" and outcome.shooter == 0


# --------------------------------------------------------------------------- item 11: texts that say what is true


def test_leekha_jawaker_partnership_line_says_the_lower_team_total_wins() -> None:
    text = hl.preset("leekha_jawaker").describe()
    partnerships = next(line for line in text.splitlines() if line.startswith("Partnerships:"))
    assert "reaches the target loses" not in partnerships
    assert "team total" in partnerships
    # the Idlib reading (the worst player's team loses) keeps its line
    assert "the team of the player who reaches the target loses" in hl.preset("likha_idlib").describe()


def test_two_players_with_a_stock_and_a_bad_deck_field_name_only_the_bad_field() -> None:
    # "players: 2 players is too small for this variant: only a game with a stock ... " beside the real problem
    data = STD.to_dict()
    data["players"] = 2
    data["deck"] = {**data["deck"], "stock": "after_trick", "hand_size": 13, "kitty": "bad"}
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_dict(data)
    assert [path for path, _ in info.value.problems] == ["deck.kitty"]
    assert "too small" not in str(info.value)


def test_teams_of_six_with_a_bad_deck_field_name_only_the_bad_field() -> None:
    data = STD.to_dict()
    data["players"] = 6
    data["teams"] = [[0, 2, 4], [1, 3, 5]]
    data["deck"] = {**data["deck"], "kitty": "bad"}
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_dict(data)
    assert [path for path, _ in info.value.problems] == ["deck.kitty"]


def test_two_players_without_a_stock_still_says_so() -> None:
    with pytest.raises(hl.VariantError, match="too small") as info:
        STD.replace(players=2)
    assert info.value.path == "players"
    data = STD.to_dict()
    data["players"] = 2
    with pytest.raises(hl.VariantError, match="only a game with a stock"):
        hl.Variant.from_dict(data)
    data["players"] = "two"
    data["deck"] = {**data["deck"], "kitty": "bad"}
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_dict(data)
    assert sorted(path for path, _ in info.value.problems) == ["deck.kitty", "players"]
