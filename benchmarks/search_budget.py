"""Why more budget buys the search player little: how often a bigger budget changes its choice, and by how much.

Positions are taken from hands of a variant played by four heuristic agents: every play decision of seat 0
with two or more candidates (after the search merges equivalent cards). At each, the search
(:class:`heartslib.search.Search`, the moon defence on, uniform worlds) chooses with the default budget
(1x) and with four times the worlds and cards (4x), each under two different random seeds, and a *judge*
(16x, another seed) values every candidate. The table gives:

* how often two runs agree: 1x with 1x (another seed), 1x with 4x, 4x with 4x;
* the judge's value of the card each budget chose, below the judge's best (its *regret*, in the search's
  hand values: a seat's points against the others' mean, signed so higher is better; 1.0 is about a point);
* how many decisions have candidates the judge cannot tell apart (within 0.25 points).

If 1x already agrees with 4x about as often as 4x agrees with itself, more worlds only re-roll the noise
among near-equal cards, and the rest of the gap to a perfect player is in what the worlds and rollouts
cannot see (strategy fusion, the rollout policy), which more of them do not fix.

    python benchmarks/search_budget.py --hands 12
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import heartslib as hl
from heartslib.agents import HeuristicAgent
from heartslib.search import DEFAULT_MAX_PLAYS, DEFAULT_PLAYOUTS, Budget, Search


def _values(search: Search, obs: hl.Observation, candidates: list[hl.Action], rng: random.Random) -> list[float]:
    """The judge's value of every candidate: the search's own comparison with the pruning and the early stops
    switched off (``Search.exhaustive``), each candidate's mean over the same worlds."""
    search.exhaustive = True
    try:
        search.choose(obs, candidates, rng)
    finally:
        search.exhaustive = False
    rows = [[x for x in row if x is not None] for row in search.last_values]
    means = [statistics.fmean(row) if row else -1e18 for row in rows]
    n = len(candidates)
    # with the moon open to this seat (Search.shoot), rows n.. are the same candidates played for the moon; a
    # candidate is worth the better of its two ways, as the search counts it
    return [max(means[k::n]) for k in range(n)]


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--judge", type=int, default=16, help="the judge's budget, in multiples of the default")
    args = parser.parse_args(argv)
    v = hl.preset(args.variant)
    one = Search(v, Budget())
    four = Search(v, Budget(4 * DEFAULT_PLAYOUTS, 4 * DEFAULT_MAX_PLAYS))
    judge = Search(v, Budget(args.judge * DEFAULT_PLAYOUTS, args.judge * DEFAULT_MAX_PLAYS))
    agree = {"1x/1x": 0, "1x/4x": 0, "4x/4x": 0}
    regret: dict[str, list[float]] = {"1x": [], "4x": []}
    flat = 0
    positions = 0
    started = time.process_time()
    for hand in range(args.hands):
        players = [HeuristicAgent(10 * hand + s) for s in range(v.players)]
        for s, p in enumerate(players):
            p.setup(v, s)
        r = hl.Round.deal(v, seed=51_000 + hand, hand_number=hand)
        while not r.is_over:
            seat = r.to_act[0]
            legal = r.legal_actions(seat)
            if seat == 0 and r.phase == hl.Phase.PLAY:
                obs = r.observation(0)
                candidates = one.play_candidates(obs, legal)
                if len(candidates) > 1:
                    positions += 1
                    seeds = [random.Random(1000 * hand + len(r.tricks) * 10 + i) for i in range(5)]
                    a, b = one.choose(obs, candidates, seeds[0]), one.choose(obs, candidates, seeds[1])
                    c, d = four.choose(obs, candidates, seeds[2]), four.choose(obs, candidates, seeds[3])
                    agree["1x/1x"] += a == b
                    agree["1x/4x"] += a == c
                    agree["4x/4x"] += c == d
                    values = _values(judge, obs, candidates, seeds[4])
                    best = max(values)
                    regret["1x"].append(best - values[candidates.index(a)])
                    regret["4x"].append(best - values[candidates.index(c)])
                    flat += sorted(values)[-2] >= best - 0.25
            r.apply(players[seat].act(r.observation(seat), legal))
    if not positions:
        print(f"{args.variant}: no decision of seat 0 with two or more candidates in {args.hands} hands")
        return 0
    print(f"{args.variant}: {positions} decisions of seat 0 with two or more candidates, {args.hands} hands by "
          f"heuristic players; judge {args.judge}x ({time.process_time() - started:.0f} s CPU)\n")
    print("| | 1x | 4x |\n|---|---:|---:|")
    print(f"| agrees with another run of the same budget | {agree['1x/1x'] / positions:.0%} | "
          f"{agree['4x/4x'] / positions:.0%} |")
    print(f"| agrees with the other budget | {agree['1x/4x'] / positions:.0%} | {agree['1x/4x'] / positions:.0%} |")
    print(f"| judge's regret, mean points a decision | {statistics.fmean(regret['1x']):.3f} | "
          f"{statistics.fmean(regret['4x']):.3f} |")
    print(f"| decisions with zero regret | {sum(x <= 1e-9 for x in regret['1x']) / positions:.0%} | "
          f"{sum(x <= 1e-9 for x in regret['4x']) / positions:.0%} |")
    print(f"\ndecisions whose two best candidates the judge values within 0.25 points: {flat / positions:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
