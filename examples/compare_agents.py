"""Measure the built-in agents against each other: the figures in docs/agents.md.

Usage: python examples/compare_agents.py [--games N] [--workers N] [--seed S] [--presets]

Plays the standard game (a) one heuristic agent against three random ones,
(b) four random agents, (c) four heuristic agents, each for N seeded matches
(default 40, a few seconds; the docs use --games 2000 --workers 2), and
prints points per round per agent. --presets adds one row per preset:
one heuristic agent against random agents, N // 10 matches each.
"""

from __future__ import annotations

import argparse
import math
import statistics
from concurrent.futures import Executor, ProcessPoolExecutor

import heartslib as hl
from heartslib.simulate import SimulationStats, simulate


def interval(stats: SimulationStats, seats: list[int]) -> str:
    """Mean points per round over some seats, with a rough 95% interval (rounds treated as independent)."""
    means = [float(stats.seats[s].mean.real) for s in seats]
    stds = [stats.seats[s].std for s in seats]
    mean = statistics.fmean(means)
    half = 1.96 * statistics.fmean(stds) / math.sqrt(stats.rounds * len(seats))
    return f"{mean:.2f} ± {half:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--presets", action="store_true")
    args = parser.parse_args()
    executor: Executor | None = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    v = hl.preset("standard")
    try:
        mixed = simulate(v, ["heuristic", "random", "random", "random"], args.games, args.seed, executor)
        randoms = simulate(v, "random", args.games, args.seed, executor)
        heuristics = simulate(v, "heuristic", args.games, args.seed, executor)
        print(mixed.table(), end="\n\n")
        print(f"standard, {args.games} matches each, seed {args.seed}: points per round (mean ± 95%)\n")
        print("| table | heuristic agents | random agents | rounds | heuristic seat's win rate |")
        print("|---|---|---|---|---|")
        h = mixed.seats[0]
        print(f"| 1 heuristic + 3 random | {interval(mixed, [0])} | {interval(mixed, [1, 2, 3])} | "
              f"{mixed.rounds:,} | {100 * h.win_rate:.1f}% ({100 * h.win_low:.1f}-{100 * h.win_high:.1f}%) |")
        print(f"| 4 random | | {interval(randoms, [0, 1, 2, 3])} | {randoms.rounds:,} | |")
        print(f"| 4 heuristic | {interval(heuristics, [0, 1, 2, 3])} | | {heuristics.rounds:,} | |")
        print(f"\nmoon rates: mixed {100 * mixed.moon_rate:.2f}%, random {100 * randoms.moon_rate:.2f}%, "
              f"heuristic {100 * heuristics.moon_rate:.2f}% of rounds; "
              f"{mixed.games_per_second + randoms.games_per_second + heuristics.games_per_second:.0f} "
              "games/s summed over the three runs")
        if args.presets:
            games = max(1, args.games // 10)
            print(f"\nevery preset, 1 heuristic agent (seat 0) against random agents, {games} matches each:\n")
            print("| preset | players | heuristic | random | heuristic's win rate |")
            print("|---|---|---|---|---|")
            for name in hl.preset_names():
                p = hl.preset(name)
                s = simulate(p, ["heuristic"] + ["random"] * (p.players - 1), games, args.seed, executor)
                print(f"| {name} | {p.players} | {interval(s, [0])} | {interval(s, list(range(1, p.players)))} | "
                      f"{100 * s.seats[0].win_rate:.1f}% |")
    finally:
        if executor is not None:
            executor.shutdown()


if __name__ == "__main__":
    main()
