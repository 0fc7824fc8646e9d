"""heartslib.simulate: seeded games, exact statistics, any executor."""

from __future__ import annotations

import functools
import json
import math
import statistics
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

import heartslib as hl
from heartslib.agents import HeuristicAgent, RandomAgent, play_match
from heartslib.simulate import (
    SimulationStats,
    agent_name,
    agent_seed,
    game_seed,
    make_agent,
    resolve_agents,
    simulate,
    wilson,
)

STANDARD = hl.preset("standard")
TABLE = ["heuristic", "random", "random", "random"]


def test_results_do_not_depend_on_the_executor_or_the_chunking() -> None:
    base = simulate(STANDARD, TABLE, games=12, seed=5)
    with ProcessPoolExecutor(2) as pool:
        assert simulate(STANDARD, TABLE, games=12, seed=5, executor=pool) == base
        assert simulate(STANDARD, TABLE, games=12, seed=5, executor=pool, chunk_size=5) == base
    with ThreadPoolExecutor(3) as threads:
        assert simulate(STANDARD, TABLE, games=12, seed=5, executor=threads, chunk_size=1) == base
    assert simulate(STANDARD, TABLE, games=12, seed=6) != base


def test_each_game_is_seeded_from_the_seed_and_its_number() -> None:
    # the statistics equal those of the same games replayed one by one with the documented seeds
    stats = simulate(STANDARD, [HeuristicAgent, RandomAgent, "random", "heuristic"], games=6, seed=9)
    per_seat: list[list[int]] = [[], [], [], []]
    wins = [0, 0, 0, 0]
    rounds = 0
    for game in range(6):
        agents = [cls(agent_seed(9, game, seat))
                  for seat, cls in enumerate([HeuristicAgent, RandomAgent, RandomAgent, HeuristicAgent])]
        m = play_match(STANDARD, agents, game_seed(9, game))
        rounds += len(m.rounds)
        for result in m.rounds:
            for seat, p in enumerate(result.points):
                per_seat[seat].append(int(p))
        for seat in m.winners:
            wins[seat] += 1
    assert stats.games == 6 and stats.rounds == rounds
    assert stats.rounds_per_match == pytest.approx(rounds / 6)
    for seat, s in enumerate(stats.seats):
        assert s.mean == pytest.approx(statistics.mean(per_seat[seat]))
        assert s.std == pytest.approx(statistics.stdev(per_seat[seat]))
        assert s.wins == wins[seat] and s.win_rate == pytest.approx(wins[seat] / 6)
        assert (s.win_low, s.win_high) == wilson(wins[seat], 6)
    assert [s.agent for s in stats.seats] == ["heuristic", "random", "random", "heuristic"]


def test_wilson_interval() -> None:
    low, high = wilson(60, 100)
    assert (round(low, 4), round(high, 4)) == (0.5020, 0.6906)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(10, 10)
    assert high == 1.0 and 0.69 < low < 0.73
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.31


def test_moons_and_suns_are_counted() -> None:
    # random players shoot the moon now and then; with the sun rule, taking every trick counts as a sun
    stats = simulate(STANDARD, "random", games=30, seed=3)
    assert sum(s.moons for s in stats.seats) > 0
    assert stats.moon_rate == pytest.approx(sum(s.moons for s in stats.seats) / stats.rounds)
    assert stats.sun_rate == 0.0 and all(s.suns == 0 for s in stats.seats)
    sun = STANDARD.replace(moon={"sun": "add_52"})
    assert simulate(sun, "heuristic", games=2, seed=1).sun_rate >= 0.0


def test_stats_are_frozen_plain_data_and_readable() -> None:
    stats = simulate(STANDARD, TABLE, games=3, seed=2)
    assert isinstance(stats, SimulationStats)
    with pytest.raises(AttributeError):
        stats.games = 5  # type: ignore[misc]
    data = json.loads(json.dumps(stats.to_dict()))
    assert data["games"] == 3 and len(data["seats"]) == 4 and data["seats"][0]["agent"] == "heuristic"
    assert stats.games_per_second > 0 and stats.seconds > 0
    table = stats.table()
    assert str(stats) == table
    assert "heuristic" in table and "points/round" in table and "lower points are better" in table
    assert table.count("random") == 3


def _stats(games: int, seconds: float, std: float = 4.5, mean: float = 1.5) -> SimulationStats:
    from heartslib.simulate import SeatStats

    seats = tuple(SeatStats(seat=i, agent="search" if i == 0 else "random", mean=mean, std=std if i == 0 else 1.0,
                            wins=1, win_rate=0.5, win_low=0.1, win_high=0.9, moons=0, suns=0, mean_total=12.5)
                  for i in range(4))
    return SimulationStats(variant="gong_zhu", games=games, seed=0, rounds=games, rounds_per_match=1.0,
                           moon_rate=0.0, sun_rate=0.0, seats=seats, seconds=seconds,
                           games_per_second=games / seconds if seconds else 0.0)


def test_the_table_gives_a_useful_speed_however_slow() -> None:
    # two search games in 60 s printed "(0 games/s)"
    assert "60.0 s (30.0 s a game)" in _stats(2, 60.0).table()
    assert "(2.5 games/s)" in _stats(5, 2.0).table()
    assert "(1,500 games/s)" in _stats(3000, 2.0).table()
    assert "(too fast to time)" in _stats(1, 0.0).table()


def test_the_table_says_one_game_not_one_games() -> None:
    assert _stats(1, 2.0).table().startswith("gong_zhu: 1 game, 1 round (1.0 a match)")
    assert _stats(2, 2.0).table().startswith("gong_zhu: 2 games, 2 rounds")
    assert simulate(STANDARD, "random", games=1).table().startswith("standard: 1 game, ")


@pytest.mark.parametrize(("std", "mean"), [(4.34, 1.57), (125.16, -10.65), (12345.67, -1234.5), (1.0, 3.25 - 13j)])
def test_the_table_columns_stay_aligned_for_large_values(std: float, mean: float | complex) -> None:
    # gong_zhu's std of 125.16 pushed the rest of its row one place right of the header
    lines = _stats(2, 1.0, std=std, mean=mean).table().splitlines()
    header, rows = lines[2], lines[3:7]
    for title in ("points/round", "std", "win rate", "(95% interval)", "moons", "final total"):
        end = header.index(title) + len(title)
        for row in rows:  # every column is right-aligned under its title
            assert row[end - 1] != " " and (end == len(row) or row[end] == " "), (title, header, row)
    assert header.startswith("seat  agent ")


def test_the_usual_table_layout_is_unchanged() -> None:
    # docs/simulation.md shows this header; the columns widen only for wide values
    assert _stats(2, 1.0).table().splitlines()[2] == (
        "seat  agent   points/round    std   win rate  (95% interval)   moons  final total")


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    simulate(STANDARD, "random", games=3, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    seen.clear()
    with ThreadPoolExecutor(2) as threads:
        simulate(STANDARD, "random", games=5, seed=1, executor=threads, chunk_size=2,
                 progress=lambda done, total: seen.append((done, total)))
    assert sorted(seen)[-1] == (5, 5) and len(seen) == 3


def test_agent_specs() -> None:
    assert resolve_agents("random", 3) == ("random",) * 3
    assert resolve_agents(RandomAgent, 2) == (RandomAgent, RandomAgent)
    assert make_agent("Heuristic", 4).seed == 4
    assert isinstance(make_agent("heartslib.agents:RandomAgent", 1), RandomAgent)
    partial = functools.partial(HeuristicAgent)
    assert isinstance(make_agent(partial, 1), HeuristicAgent)
    assert [agent_name(s) for s in ("random", HeuristicAgent, partial, _module_level_factory)] == [
        "random", "heuristic", "HeuristicAgent", "_module_level_factory"]
    with pytest.raises(ValueError, match="unknown agent 'clever'"):
        resolve_agents("clever", 4)
    with pytest.raises(ValueError, match="cannot load agent"):
        resolve_agents("heartslib.agents:Nobody", 4)
    for half in (":", "os:", ":Agent"):  # was "Empty module name", or getattr(os, "") failing
        with pytest.raises(hl.IllegalAction, match=r"write 'package\.module:Factory'"):
            resolve_agents(half, 4)
    with pytest.raises(ValueError, match="4 players need 4 agents"):
        resolve_agents(["random", "random"], 4)
    with pytest.raises(hl.IllegalAction, match="3 is not an agent name"):
        resolve_agents([3, 4, 5, 6], 4)  # type: ignore[list-item]


def _module_level_factory(seed: int) -> HeuristicAgent:
    return HeuristicAgent(seed)


def test_factories_run_in_worker_processes() -> None:
    specs = [_module_level_factory, "random", "random", "random"]
    with ProcessPoolExecutor(2) as pool:
        remote = simulate(STANDARD, specs, games=4, seed=8, executor=pool)
    assert remote == simulate(STANDARD, specs, games=4, seed=8)
    assert remote.seats[0].agent == "_module_level_factory"
    same_agent = simulate(STANDARD, TABLE, games=4, seed=8)
    assert [s.mean for s in remote.seats] == [s.mean for s in same_agent.seats]


def test_bad_arguments() -> None:
    with pytest.raises(hl.VariantError, match="expected a Variant"):
        simulate("standard", "random", games=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        simulate(STANDARD, "random", games=-1)
    with pytest.raises(ValueError):
        simulate(STANDARD, "random", games=1, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        simulate(STANDARD, "random", games=1, executor=ThreadPoolExecutor(1), chunk_size=0)
    empty = simulate(STANDARD, "random", games=0)
    assert empty.games == 0 and empty.rounds == 0 and math.isclose(empty.seats[0].win_high, 1.0)


def test_every_preset_simulates() -> None:
    for name in hl.preset_names():
        stats = simulate(hl.preset(name), "random", games=1, seed=4)
        assert stats.games == 1 and stats.rounds >= 1 and len(stats.seats) == hl.preset(name).players


def test_on_a_dask_cluster() -> None:
    # The optional integration test: `pip install -e ".[dask]"` to run it.
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster, distributed.Client(cluster) as client:
        remote = simulate(STANDARD, TABLE, games=8, seed=4, executor=client.get_executor())
    assert remote == simulate(STANDARD, TABLE, games=8, seed=4)


def test_agent_instances_are_accepted_and_split_independently() -> None:
    # API.md: hl.simulate(v, agents, ...) with hl.agents.RandomAgent(seed) / HeuristicAgent(seed) objects; every
    # game gets a copy (reseeded per game and seat), so results do not depend on the executor or the chunking
    agents = [HeuristicAgent(1), RandomAgent(2), RandomAgent(3), RandomAgent(4)]
    local = simulate(STANDARD, agents, games=6, seed=5)
    assert local == simulate(STANDARD, agents, games=6, seed=5, executor=None, chunk_size=1)
    with ProcessPoolExecutor(2) as pool:
        assert simulate(STANDARD, agents, games=6, seed=5, executor=pool, chunk_size=2) == local
    assert agents[0].seed == 1 and agents[0].variant is None  # the caller's agents are left untouched
    # one instance for every seat: the copies are reseeded per seat, so the seats do not play in lockstep
    assert simulate(STANDARD, RandomAgent(0), games=4, seed=1).games == 4
    assert [agent_name(a) for a in agents[:2]] == ["HeuristicAgent(seed=1)", "RandomAgent(seed=2)"]

    class Plain:  # an agent object with no repr of its own is named by its class, not "<... object at 0x...>"
        pass

    assert agent_name(Plain()) == "Plain"  # type: ignore[arg-type]


def test_executors_without_a_worker_count_get_tasks_of_a_few_hundred_games() -> None:
    # Dask's and Ray's executors report no worker count: a million games must not become 32 tasks
    from concurrent.futures import Executor

    from heartslib.simulate import CHUNK_GAMES, default_chunk_size

    class Cluster(Executor):
        pass

    assert default_chunk_size(Cluster(), 1_000_000) == CHUNK_GAMES == 200
    assert 1_000_000 // default_chunk_size(Cluster(), 1_000_000) == 5000
    with ThreadPoolExecutor(2) as pool:
        assert default_chunk_size(pool, 80) == 10 and default_chunk_size(pool, 10**6) == CHUNK_GAMES


def test_an_auction_table_says_the_most_chips_win() -> None:
    # Auction Hearts is won by chips, not by the lowest points (which are the named suit's cards taken)
    stats = simulate(hl.preset("auction_hearts"), "heuristic", games=2)
    assert stats.better == "chips"
    assert "the most chips win" in stats.table() and "lower points are better" not in stats.table()
    assert simulate(STANDARD, "random", games=1).better == "lower"


def test_an_auction_reports_each_seats_final_chips() -> None:
    # the chips decide an auction: each seat's mean final chips are its starting chips plus its mean net
    # counters, exactly as the matches themselves end (the rest is in the pot)
    v = hl.preset("auction_hearts")
    stats = simulate(v, TABLE, games=6, seed=2)
    finals = []
    for game in range(6):
        agents = [make_agent(spec, agent_seed(2, game, seat)) for seat, spec in enumerate(TABLE)]
        finals.append(play_match(v, agents, game_seed(2, game)).chips)
    for seat, s in enumerate(stats.seats):
        assert s.mean_chips == pytest.approx(statistics.fmean(f[seat] for f in finals))
        assert s.mean_counters == pytest.approx(s.mean_chips - v.scoring.chips)
    assert sum(s.mean_chips for s in stats.seats if s.mean_chips is not None) <= 4 * v.scoring.chips
    table = stats.table()
    assert "final chips" in table.splitlines()[2]
    assert f"{stats.seats[0].mean_chips:.1f}" in table.splitlines()[3]
    assert json.loads(json.dumps(stats.to_dict()))["seats"][0]["mean_chips"] == stats.seats[0].mean_chips


def test_a_counters_settlement_reports_the_counters_and_plain_games_neither() -> None:
    howell = simulate(STANDARD.replace(scoring={"settlement": "howell"}), TABLE, games=4, seed=1)
    assert all(s.mean_counters is not None and s.mean_chips is None for s in howell.seats)
    assert sum(s.mean_counters or 0.0 for s in howell.seats) == pytest.approx(0.0)  # counters change hands
    assert "counters" in howell.table().splitlines()[2]
    plain = simulate(STANDARD, TABLE, games=2)
    assert all(s.mean_counters is None and s.mean_chips is None for s in plain.seats)
    assert "counters" not in plain.table() and "chips" not in plain.table()


@pytest.mark.parametrize(("name", "wins_by", "said"), [
    ("standard", "seat", "a tie for the best total counts as a win for each tied seat"),
    ("likha", "team", "a seat wins when its team does"),
    ("danger_hearts", "lives", "only the players with the most lives left can win"),
    ("auction_hearts", "chips", "a tie for the most chips counts as a win"),
])
def test_the_table_says_how_wins_are_counted(name: str, wins_by: str, said: str) -> None:
    v = hl.preset(name)
    stats = simulate(v, "random", games=1)
    assert stats.wins_by == wins_by and said in stats.table().splitlines()[-1]
    if wins_by == "team":  # partners share every win
        for team in v.teams:
            assert len({stats.seats[s].wins for s in team}) == 1


class _FirstLegal:
    """The docs' agent (agents.md): a class made without arguments."""

    def act(self, observation: hl.Observation, legal_actions: Any) -> hl.Action:
        return legal_actions[0]  # type: ignore[no-any-return]


def test_an_agent_class_made_without_arguments_plays_without_the_seed() -> None:
    # simulate called FirstLegal(seed): "TypeError: FirstLegal() takes no arguments", with no seat or spec named
    stats = simulate(hl.preset("standard"), [_FirstLegal, "random", "random", "random"], games=2, seed=1)
    assert stats.games == 2
