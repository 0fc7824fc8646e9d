"""The endgame, paired: search players compared on the same positions from the same point of the hand on.

    python benchmarks/search_endgame.py --deals 200 --tricks 3 --players search:endgame=0,search:endgame=3

Deal ``d`` of the ladder's frozen set (``Round.deal(variant, seed=34000 + d, hand_number=d)``) is played
by four :class:`~heartslib.agents.HeuristicAgent` s until the tested seat holds ``--tricks`` cards (each
seat in turn is the tested one, as in duplicate play); from that position each player named takes the
tested seat and the heuristic field plays the other seats to the end of the hand. Every player meets the
same positions, so the differences are paired and most of the luck of the deal cancels: what is left is
how each plays the last tricks. Printed: per player the points per hand from that point on, the paired
difference from the first player with a 95% bootstrap interval over deals, and the decision CPU times
(median and 95th percentile over the decisions with two or more legal actions).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence

import heartslib as hl
from heartslib.agents import HeuristicAgent
from heartslib.simulate import _mix

sys.path.insert(0, os.path.dirname(__file__))
from ladder import SEED, bootstrap, make, split_players  # the ladder's players and intervals


def position(v: hl.Variant, deal: int, seat: int, tricks: int, seed: int) -> hl.Round | None:
    """Deal ``deal`` played by heuristic agents until ``seat`` holds ``tricks`` cards (None if the hand ends
    first)."""
    r = hl.Round.deal(v, seed=seed + deal, hand_number=deal)
    agents = [HeuristicAgent(_mix("endgame", seed, deal, s)) for s in range(v.players)]
    for s, a in enumerate(agents):
        a.setup(v, s)
    while not r.is_over:
        if r.phase == hl.Phase.PLAY and len(r.hand(seat)) <= tricks:
            return r
        s = r.to_act[0]
        legal = hl.agents.LazyActions(r, s) if r.phase == hl.Phase.PASS else r.legal_actions(s)
        r.apply(agents[s].act(r.observation(s), legal))
    return None


def finish(start: hl.Round, player: str, seat: int, deal: int, seed: int) -> tuple[float, list[float]]:
    """``player`` in ``seat`` and the heuristic field play ``start`` (a copy) out: its points from there on
    (taken and moon included: the hand's points) and its decision CPU times."""
    r = start.copy()
    v = r.variant
    agents = [make(player if s == seat else "heuristic", _mix("endgame", seed, deal, s)) for s in range(v.players)]
    for s, a in enumerate(agents):
        a.setup(v, s)
    times: list[float] = []
    while not r.is_over:
        s = r.to_act[0]
        legal = r.legal_actions(s)
        c0 = time.process_time()
        action = agents[s].act(r.observation(s), legal)
        if s == seat and len(legal) > 1:
            times.append(time.process_time() - c0)
        r.apply(action)
    assert r.points is not None
    p = r.points[seat]
    return float(p.real) if isinstance(p, complex) else float(p), times


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison and print its table (see the module docs)."""
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--variant", default="standard")
    p.add_argument("--players", default="search:endgame=0,search:endgame=3")
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--first", type=int, default=0, help="the first deal")
    p.add_argument("--tricks", type=int, default=3, help="cards left in the tested seat's hand at the start")
    p.add_argument("--seed", type=int, default=SEED)
    args = p.parse_args(argv)
    v = hl.preset(args.variant)
    players = split_players(args.players)
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.python_implementation()} "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.1f}; {args.variant}, deals "
          f"{args.first}-{args.first + args.deals - 1}, from {args.tricks} cards left")
    points: dict[str, dict[int, float]] = {pl: {} for pl in players}
    times: dict[str, list[float]] = {pl: [] for pl in players}
    started = time.perf_counter()
    for d in range(args.first, args.first + args.deals):
        for seat in range(v.players):
            r = position(v, d, seat, args.tricks, args.seed)
            if r is None:
                continue
            for pl in players:
                pts, ts = finish(r, pl, seat, d, args.seed)
                points[pl][d] = points[pl].get(d, 0.0) + pts
                times[pl].extend(ts)
    deals = sorted(points[players[0]])
    hands = v.players * len(deals)
    print(f"\n| player | pts/hand | vs {players[0]}, pts/hand (95% CI) | decision CPU median / p95 |")
    print("|---|---:|---|---|")
    for pl in players:
        mine = sum(points[pl].values()) / hands

        def diff(ds: Sequence[int], pl: str = pl) -> float:
            return sum(points[pl][d] - points[players[0]][d] for d in ds) / (v.players * len(ds))

        lo, hi = bootstrap(deals, diff)
        ts = sorted(times[pl])
        t = (f"{1000 * statistics.median(ts):.1f} / {1000 * ts[int(0.95 * (len(ts) - 1))]:.1f} ms" if ts else "–")
        vs = "–" if pl == players[0] else f"{diff(deals):+.3f} ({lo:+.3f} to {hi:+.3f})"
        print(f"| {pl} | {mine:.3f} | {vs} | {t} |")
    print(f"({hands} hands, {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
