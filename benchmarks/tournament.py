"""Strength tournament: one agent against copies of another, seats rotated over the same deals.

    python benchmarks/tournament.py                        # SearchAgent (default budget) vs 3 heuristics, standard
    python benchmarks/tournament.py --variant omnibus --variant black_maria --deals 20 --workers 2
    python benchmarks/tournament.py --agent search:playouts=8 --deals 5 --quick
    python benchmarks/tournament.py --naive --naive-hands 4000   # the lowest-card player's moons vs 3 heuristics
    python benchmarks/tournament.py --costs                # what a rollout costs, per option

Each *deal set* is one match seed: the same seed deals the same hands in the
same order whoever plays, so the tested agent plays it once from every seat
(``players`` matches per deal set) and luck of the deal cancels out. Matches
run to the variant's end (``--hands`` caps the hands per match instead, for
quick runs).

Printed per variant, with 95% intervals:

* points per hand of the tested agent and of the opponents' seats, their
  ratio (a cluster bootstrap over deal sets: the matches of one deal set are
  resampled together, since they share cards), and the difference per hand;
* matches won by the tested agent and by the average opponent seat (Wilson
  intervals; a tie for the best total is a win for each tied seat);
* moons shot by each, and the tested agent's decision times (median and
  95th percentile over every decision it was asked to make, trivial ones
  included: one legal action is answered at once; then over the decisions
  that took over 2 ms, the searched ones). Times are CPU seconds of the
  process that decided (``time.process_time``), so other work on the machine
  does not inflate them; the wall-clock median and 95th percentile and the
  load average are printed beside them.

"Points per hand" are the variant's own: for Gong Zhu, where the highest
total wins, higher is better and the ratio is printed for the sign-flipped
points; for complex hearts the real part.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import heartslib as hl
from heartslib.agents import AGENTS, BaseAgent, actions_for, setup_agent
from heartslib.simulate import _mix, wilson


class LowestCard(BaseAgent):
    """The naive player of issue 17: always the lowest legal card (by rank), passes its highest cards."""

    name = "lowest"

    def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action:
        """Lowest rank first (ties in suit order); passes the highest-ranked passable cards."""
        if observation.phase == hl.Phase.PASS:
            forbidden = set(self.variant.passing.forbidden) if self.variant else set()
            cards = sorted((c for c in observation.hand if c not in forbidden), key=lambda c: (-c.rank, c.index))
            return hl.Pass(observation.seat, cards[: observation.pass_count])
        plays = [a for a in legal_actions if isinstance(a, hl.Play)]
        if plays:
            return min(plays, key=lambda a: (a.card.rank, a.card.index))
        return legal_actions[0]


def make(spec: str, seed: int) -> Any:
    """``name`` or ``name:key=value,key=value`` (e.g. ``search:playouts=8,time_limit=0.1``)."""
    name, _, params = spec.partition(":")
    kwargs: dict[str, Any] = {}
    for item in filter(None, params.split(",")):
        key, _, value = item.partition("=")
        kwargs[key] = float(value) if "." in value else int(value)
    if name == "lowest":
        return LowestCard(seed)
    return AGENTS[name](seed, **kwargs)


@dataclass
class Game:
    """One match: who sat where, the points per hand, the winners, moons and the tested agent's timings."""

    deal_set: int
    tested_seat: int
    points: list[list[float]] = field(default_factory=list)  # per hand, per seat
    winners: list[int] = field(default_factory=list)
    moons: list[int] = field(default_factory=list)  # per seat
    times: list[float] = field(default_factory=list)  # CPU seconds of each of the tested agent's decisions
    walls: list[float] = field(default_factory=list)  # and wall-clock seconds


def play(variant_name: str, tested: str, opponent: str, seed: int, deal_set: int, rotation: int,
         max_hands: int) -> Game:
    """Play one match of the deal set ``deal_set`` with the tested agent in seat ``rotation``."""
    v = hl.preset(variant_name) if not variant_name.endswith(".toml") else hl.Variant.from_toml(variant_name)
    n = v.players
    agents = [make(tested if s == rotation else opponent, _mix("tournament", seed, deal_set, rotation, s))
              for s in range(n)]
    match = hl.Match(v, seed=_mix("deals", seed, deal_set))
    for s, a in enumerate(agents):
        setup_agent(a, v, s)
    game = Game(deal_set, rotation, moons=[0] * n)
    hands = 0
    while not match.is_over and (not max_hands or hands < max_hands):
        seat = match.to_act[0]
        obs = match.observation(seat)
        legal = actions_for(match, seat)
        if seat == rotation:
            c0, t0 = time.process_time(), time.perf_counter()
            action = agents[seat].act(obs, legal)
            game.times.append(time.process_time() - c0)
            game.walls.append(time.perf_counter() - t0)
        else:
            action = agents[seat].act(obs, legal)
        before = len(match.rounds)
        match.apply(action)
        if len(match.rounds) > before:
            result = match.rounds[-1]
            game.points.append([_real(p) for p in result.points])
            if result.outcome.shooter is not None and result.outcome.kind != "sun":
                game.moons[result.outcome.shooter] += 1
            hands += 1
    if match.is_over:
        game.winners = list(match.winners)
    else:
        totals = [sum(h[s] for h in game.points) for s in range(n)]
        best = (max if v.end.winner.value == "highest" else min)(totals)
        game.winners = [s for s in range(n) if totals[s] == best]
    return game


def _real(x: Any) -> float:
    return float(x.real) if isinstance(x, complex) else float(x)


def _job(args: tuple[str, str, str, int, int, int, int]) -> Game:
    return play(*args)


def summarise(variant_name: str, games: list[Game], tested: str, opponent: str, boot: int = 2000) -> dict[str, Any]:
    """The table's figures for one variant (see the module docs)."""
    v = hl.preset(variant_name) if not variant_name.endswith(".toml") else hl.Variant.from_toml(variant_name)
    n = v.players
    sign = -1.0 if v.end.winner.value == "highest" else 1.0
    by_set: dict[int, list[Game]] = {}
    for g in games:
        by_set.setdefault(g.deal_set, []).append(g)

    def sums(sets: list[int]) -> tuple[float, float, int]:
        mine = other = 0.0
        hands = 0
        for d in sets:
            for g in by_set[d]:
                for h in g.points:
                    mine += sign * h[g.tested_seat]
                    other += sign * (sum(h) - h[g.tested_seat]) / (n - 1)
                    hands += 1
        return mine, other, hands

    keys = sorted(by_set)
    mine, other, hands = sums(keys)
    rng = random.Random(1)
    ratios, diffs = [], []
    for _ in range(boot):
        pick = [keys[int(rng.random() * len(keys))] for _ in keys]
        m, o, h = sums(pick)
        if h and o:
            ratios.append(m / o)
        if h:
            diffs.append((m - o) / h)
    ratios.sort()
    diffs.sort()

    def ci(xs: list[float]) -> tuple[float, float]:
        if not xs:
            return (math.nan, math.nan)
        return xs[int(0.025 * len(xs))], xs[min(len(xs) - 1, int(0.975 * len(xs)))]

    wins_tested = sum(g.tested_seat in g.winners for g in games)
    # the opponents' wins by where they sat relative to the tested agent (one seat on, two seats on, ...)
    wins_by_offset = [sum((g.tested_seat + k) % n in g.winners for g in games) for k in range(1, n)]
    wins_other = sum(sum(1 for s in g.winners if s != g.tested_seat) for g in games) / (n - 1)
    moons_tested = sum(g.moons[g.tested_seat] for g in games)
    moons_other = sum(sum(g.moons) - g.moons[g.tested_seat] for g in games)
    times = sorted(t for g in games for t in g.times)
    walls = sorted(t for g in games for t in g.walls)
    searched = sorted(t for t in times if t > 2e-3)  # decisions that searched (not forced, not delegated)
    return {
        "variant": variant_name, "tested": tested, "opponent": opponent, "deal_sets": len(keys),
        "matches": len(games), "hands": hands,
        "tested_per_hand": sign * mine / hands if hands else math.nan,
        "opponent_per_hand": sign * other / hands if hands else math.nan,
        "ratio": mine / other if other else math.nan, "ratio_ci": ci(ratios),
        "diff_per_hand": sign * (mine - other) / hands if hands else math.nan,
        "diff_ci": tuple(sign * x for x in ci(diffs))[:: int(sign)],
        "wins_tested": wins_tested, "wins_tested_ci": wilson(wins_tested, len(games)),
        "wins_opponent_seat": wins_other, "wins_opponent_ci": wilson(round(wins_other), len(games)),
        "wins_by_offset": wins_by_offset,
        "moons_tested": moons_tested, "moons_opponents": moons_other,
        "decisions": len(times),
        "time_median": statistics.median(times) if times else math.nan,
        "time_p95": times[int(0.95 * (len(times) - 1))] if times else math.nan,
        "searched_decisions": len(searched),
        "searched_median": statistics.median(searched) if searched else math.nan,
        "searched_p95": searched[int(0.95 * (len(searched) - 1))] if searched else math.nan,
        "wall_median": statistics.median(walls) if walls else math.nan,
        "wall_p95": walls[int(0.95 * (len(walls) - 1))] if walls else math.nan,
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan,
    }


def naive_moons(variant_name: str, hands: int, seed: int, workers: int) -> dict[str, Any]:
    """How often the lowest-card player shoots the moon against three heuristic players."""
    v = hl.preset(variant_name)
    per_match = 12  # hands at most per match (a standard match with this player lasts about eight)
    games: list[Game] = []
    d = 0
    while sum(len(g.points) for g in games) < hands:
        batch = max(2 * workers, math.ceil((hands - sum(len(g.points) for g in games)) / 7))
        jobs = [(variant_name, "lowest", "heuristic", seed, d + i, (d + i) % v.players, per_match)
                for i in range(batch)]
        d += batch
        games += _run(jobs, workers)
    total = sum(len(g.points) for g in games)
    moons = sum(g.moons[g.tested_seat] for g in games)
    return {"variant": variant_name, "hands": total, "naive_moons": moons, "rate": moons / total,
            "rate_ci": wilson(moons, total)}


def _run(jobs: list[tuple[str, str, str, int, int, int, int]], workers: int) -> list[Game]:
    if workers <= 1:
        return [_job(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_job, jobs, chunksize=1))


def table(rows: list[dict[str, Any]]) -> str:
    """The strength table as Markdown."""
    lines = ["| variant | matches | hands | tested pts/hand | opponents pts/hand | ratio (95% CI) "
             "| difference/hand (95% CI) | tested wins | opponent seat wins | moons (tested / opponents) "
             "| decision CPU median / p95 (searched only) | wall median / p95 |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r["ratio_ci"]
        dlo, dhi = r["diff_ci"]
        wl, wh = r["wins_tested_ci"]
        ol, oh = r["wins_opponent_ci"]
        lines.append(
            f"| {r['variant']} | {r['matches']} | {r['hands']} | {r['tested_per_hand']:.2f} | "
            f"{r['opponent_per_hand']:.2f} | **{r['ratio']:.2f}** ({lo:.2f}–{hi:.2f}) | {r['diff_per_hand']:+.2f} "
            f"({dlo:+.2f} to {dhi:+.2f}) | {r['wins_tested']} ({100 * wl:.0f}–{100 * wh:.0f}%) | "
            f"{r['wins_opponent_seat']:.1f} ({100 * ol:.0f}–{100 * oh:.0f}%) | {r['moons_tested']} / "
            f"{r['moons_opponents']} | {1000 * r['time_median']:.0f} / {1000 * r['time_p95']:.0f} ms "
            f"({1000 * r['searched_median']:.0f} / {1000 * r['searched_p95']:.0f} ms) | "
            f"{1000 * r['wall_median']:.0f} / {1000 * r['wall_p95']:.0f} ms |"
        )
    return "\n".join(lines)


def costs() -> list[tuple[str, float]]:
    """What a rollout costs, per option (CPU microseconds, best of 5), on 100 standard post-pass deals."""
    from heartslib.agents import HeuristicAgent
    from heartslib.search import RolloutTables, rollout

    v = hl.preset("standard")
    t = RolloutTables(v)
    starts = []
    for i in range(100):
        r = hl.Round.deal(v, seed=i)
        rng = random.Random(i)
        while r.phase == hl.Phase.PASS:
            seat = r.to_act[0]
            r.apply(hl.Pass(seat, tuple(r.hand(seat)[int(rng.random() * 10):][:3])))
        starts.append(r)
    mid = []
    for r in starts:
        c = r.copy()
        for _ in range(26):
            c.apply(c.legal_actions()[0])
        mid.append(c)
    heuristics = [HeuristicAgent(s) for s in range(4)]
    for s, a in enumerate(heuristics):
        a.setup(v, s)

    def best(f: Any, per: int = 1) -> float:
        out = math.inf
        for _ in range(5):
            c0 = time.process_time()
            count = f()
            out = min(out, (time.process_time() - c0) / count / per)
        return out * 1e6

    def copies() -> int:
        for r in mid:
            r.copy()
        return len(mid)

    def fast() -> int:
        rng = random.Random(1)
        for r in starts:
            r.copy().random_playout(rng)
        return len(starts)

    def loop() -> int:
        rng = random.Random(1)
        for r in starts:
            c = r.copy()
            while not c.is_over:
                acts = c.legal_actions()
                c.apply(acts[int(rng.random() * len(acts))] if len(acts) > 1 else acts[0])
        return len(starts)

    def cards_loop() -> int:
        rng = random.Random(1)
        for r in starts:
            c = r.copy()
            while not c.is_over:
                seat = c.to_act[0]
                legal = c.legal_cards(seat)
                c.apply(hl.Play(seat, legal[int(rng.random() * len(legal))]))
        return len(starts)

    def policy() -> int:
        rng = random.Random(1)
        for r in starts:
            rollout(r.copy(), [0.0] * 4, t.counts[:], t, rng)
        return len(starts)

    def heuristic() -> int:
        for r in starts[:20]:
            c = r.copy()
            while not c.is_over:
                seat = c.to_act[0]
                acts = c.legal_actions()
                c.apply(acts[0] if len(acts) == 1 else heuristics[seat].act(c.observation(seat), acts))
        return 20

    def observations() -> int:
        for r in starts[:20]:
            c = r.copy()
            while not c.is_over:
                c.observation(c.to_act[0])
                c.apply(c.legal_actions()[0])
        return 20

    return [
        ("Round.copy() after 26 plays", best(copies)),
        ("random_playout, whole hand (engine fast loop)", best(fast)),
        ("public loop legal_actions + apply, whole hand", best(loop)),
        ("public loop legal_cards + apply(Play), whole hand", best(cards_loop)),
        ("rollout_card policy on the public loop, whole hand", best(policy)),
        ("HeuristicAgent for every seat, whole hand", best(heuristic)),
        ("Round.observation() at every step, whole hand", best(observations)),
    ]


def calibration() -> float:
    """This machine's speed for the timings: CPU microseconds of one ``Round.random_playout`` of a standard
    hand (``docs/performance.md`` records about 25 on an idle core)."""
    v = hl.preset("standard")
    starts = [hl.Round.deal(v, seed=i, hand_number=3) for i in range(200)]
    rng = random.Random(1)
    best = math.inf
    for _ in range(5):
        c0 = time.process_time()
        for r in starts:
            r.copy().random_playout(rng)
        best = min(best, (time.process_time() - c0) / len(starts))
    return best * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", action="append", help="preset name or TOML file (repeatable; default standard)")
    p.add_argument("--agent", default="search", help="tested agent: name[:key=value,...] (default: search)")
    p.add_argument("--opponent", default="heuristic", help="the other seats' agent (default: heuristic)")
    p.add_argument("--deals", type=int, default=20, help="deal sets per variant; each is played from every seat")
    p.add_argument("--hands", type=int, default=0, help="cap on hands per match (default: play to the end)")
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--naive", action="store_true", help="measure the lowest-card player's moon rate instead")
    p.add_argument("--naive-hands", type=int, default=4000)
    p.add_argument("--costs", action="store_true", help="measure what a rollout costs instead")
    p.add_argument("--json", default=None, metavar="FILE", help="also write the figures as JSON")
    args = p.parse_args(argv)
    if args.costs:
        for name, us in costs():
            print(f"{name:55s} {us:8.1f} us CPU ({us / 52:.2f} per card)" if "hand" in name
                  else f"{name:55s} {us:8.1f} us CPU")
        return 0
    variants = args.variant or ["standard"]
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    if args.naive:
        for name in variants:
            r = naive_moons(name, args.naive_hands, args.seed, args.workers)
            lo, hi = r["rate_ci"]
            print(f"{name}: the lowest-card player shot the moon in {r['naive_moons']} of {r['hands']} hands "
                  f"against three heuristic players: {100 * r['rate']:.2f}% (95% {100 * lo:.2f}–{100 * hi:.2f}%)")
            rows.append(r)
    else:
        for name in variants:
            n = (hl.preset(name) if not name.endswith(".toml") else hl.Variant.from_toml(name)).players
            jobs = [(name, args.agent, args.opponent, args.seed, d, rot, args.hands)
                    for d in range(args.deals) for rot in range(n)]
            t0 = time.perf_counter()
            games = _run(jobs, args.workers)
            row = summarise(name, games, args.agent, args.opponent)
            row["seconds"] = time.perf_counter() - t0
            rows.append(row)
            print(table([row]).split("\n")[-1], f"[{row['seconds']:.0f} s]", flush=True)
        print()
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
        print(f"{args.agent} against {args.opponent} in every other seat, seed {args.seed}, {args.deals} deal sets "
              f"per variant, seats rotated; {time.perf_counter() - started:.0f} s on {args.workers} worker(s); "
              f"machine: random_playout {calibration():.0f} us CPU per standard hand, load {load:.1f}")
        print(table(rows))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
