"""The ladder: every player against the same frozen deals, in every seat, with paired bootstrap intervals.

    python benchmarks/ladder.py --quick                               # a small run (a minute or two)
    python benchmarks/ladder.py --variant standard --deals 100 --field heuristic --field moon
    python benchmarks/ladder.py --players random,heuristic,moon --variant omnibus --variant black_maria
    python benchmarks/ladder.py --variant standard --deals 400 --players search,search4x --workers 2

For each variant the deal set is frozen: deal ``d`` is ``Round.deal(variant, seed=SEED + d,
hand_number=d)`` (so the pass directions rotate through the deals). Each tested player plays each deal once
from every seat (duplicate play: ``players`` hands per deal), the other seats held by the *field* (three
heuristic agents, or three moon agents, ...), every agent seeded from the deal and the seat. A hand is
played to its end and scored alone (no match totals), so every player meets exactly the same cards.

Printed per variant, field and player, with 95% intervals from a paired bootstrap over deals (the hands
of one deal, all seatings, resampled together, 2,000 resamples):

* the player's points per hand and the field's (the mean of the other seats, on the same hands), and their
  ratio (below 1: the player takes fewer points than the field);
* the margin: the player's points per hand minus the field's on the same hands (a ratio flatters a player
  that shoots: each of its moons adds to every other seat), and its paired difference from the baseline's;
* failed: the share of its hands with no moon in which the player scored ``FAILED`` (10) or more (a failed
  moon attempt, mostly), with its interval;
* moons: shot by the player, and *conceded* (shot by a field seat in a hand the player sat in);
* hands won: the share of its hands in which the player took the fewest points of the table (a tie for the
  fewest shared among the tied seats; the ladder plays hands, not matches);
* each player's points per hand minus the heuristic player's (the first player's without one; ``--baseline``
  names another) on the same deals and seats: the paired difference (``search`` against ``heuristic`` is the
  same cards played two ways);
* the player's decision CPU times (median and 95th percentile over the decisions it was asked to make
  with two or more legal actions).

Players: ``random``, ``heuristic``, ``moon``, ``defending`` (:class:`~heartslib.agents.DefendingAgent`),
``search`` (the default budget), ``search4x`` (four times the worlds and the card budget), or
``search:level=strong,playouts=N,max_plays=M,beliefs=heuristic,endgame=K,shoot=0`` (any of them;
``beliefs=heuristic``: choice-aware worlds; ``endgame=K``: solve the worlds exactly from ``K`` tricks left,
0 never; ``shoot=0``: never tries for the moon itself).

``--workers N`` plays the hands in N processes: each hand is played from its own seeds, so the tables are the
same whatever N (the decision times are each process's own CPU time, as with one).
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import heartslib as hl
from heartslib.agents import (
    LEVELS,
    BaseAgent,
    DefendingAgent,
    HeuristicAgent,
    LazyActions,
    MoonAgent,
    RandomAgent,
    SearchAgent,
)
from heartslib.simulate import _mix
from heartslib.solve import ENDGAME_TRICKS

VARIANTS = ("standard", "omnibus", "black_maria", "cancellation")
PLAYERS = ("random", "heuristic", "moon", "defending", "search", "search4x")
SEED = 34_000
#: The points a hand without a moon must cost the player for the ladder to count it as failed (issue 50).
FAILED = 10


def make(spec: str, seed: int) -> BaseAgent:
    """An agent from a ladder name (see the module docs)."""
    name, _, params = spec.partition(":")
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(seed)
    if name == "moon":
        return MoonAgent(seed)
    if name == "defending":
        return DefendingAgent(seed)
    if name == "search4x":
        return SearchAgent(seed, level="strong")  # four times the worlds and the card budget
    if name == "search":
        kwargs = {k: v for k, _, v in (p.partition("=") for p in params.split(",") if p)}
        level = kwargs.get("level", "default")
        playouts, max_plays = LEVELS.get(level, LEVELS["default"])
        return SearchAgent(seed, level=level, playouts=int(kwargs.get("playouts", playouts)),
                           max_plays=int(kwargs.get("max_plays", max_plays)),
                           beliefs=kwargs.get("beliefs", "uniform"),
                           endgame=int(kwargs.get("endgame", ENDGAME_TRICKS)),
                           shoot=kwargs.get("shoot", "1") not in ("0", "false", "False"))
    raise SystemExit(f"unknown player {spec!r}: use {', '.join(PLAYERS)} or search:playouts=N,beliefs=heuristic")


@dataclass
class Hand:
    """One hand of a deal with the tested player in ``seat``: its points, the field's mean, the moons."""

    deal: int
    seat: int
    mine: float
    field_mean: float
    shot: bool
    conceded: bool
    #: a hand without a moon in which the player scored :data:`FAILED` or more (a failed moon attempt, mostly)
    failed: bool = False
    times: list[float] = field(default_factory=list)
    #: the share of the hand's win: 1 when the player took the fewest points alone, ``1/k`` when ``k`` seats tie
    #: for the fewest, else 0
    won: float = 0.0


def _real(x: Any) -> float:
    return float(x.real) if isinstance(x, complex) else float(x)


def play_hand(v: hl.Variant, player: str, field_name: str, deal: int, seat: int, seed: int) -> Hand:
    """Deal ``deal`` of the frozen set with ``player`` in ``seat`` and the field elsewhere."""
    n = v.players
    agents = [make(player if s == seat else field_name, _mix("ladder", seed, deal, s)) for s in range(n)]
    for s, a in enumerate(agents):
        a.setup(v, s)
    r = hl.Round.deal(v, seed=seed + deal, hand_number=deal)
    times: list[float] = []
    while not r.is_over:
        s = r.to_act[0]
        legal = LazyActions(r, s) if r.phase == hl.Phase.PASS else r.legal_actions(s)
        obs = r.observation(s)
        if s == seat and len(legal) > 1:
            c0 = time.process_time()
            action = agents[s].act(obs, legal)
            times.append(time.process_time() - c0)
        else:
            action = agents[s].act(obs, legal)
        r.apply(action)
    assert r.points is not None and r.outcome is not None
    sign = -1.0 if v.end.winner.value == "highest" else 1.0
    pts = [sign * _real(p) for p in r.points]
    shooter = r.outcome.shooter if r.outcome.kind != "sun" else None
    best = min(pts)
    won = 1.0 / sum(p == best for p in pts) if pts[seat] == best else 0.0
    return Hand(deal, seat, pts[seat], (sum(pts) - pts[seat]) / (n - 1), shooter == seat,
                shooter is not None and shooter != seat, shooter is None and pts[seat] >= FAILED, times, won)


def play_hands(v: hl.Variant, players: Sequence[str], field_name: str, deals: int, seed: int,
               workers: int = 1) -> dict[str, list[Hand]]:
    """Every player's hands of deals ``0 .. deals - 1`` from every seat (:func:`play_hand`), in ``workers``
    processes; the same hands in the same order whatever ``workers``."""
    tasks = [(pl, d, seat) for pl in players for d in range(deals) for seat in range(v.players)]
    if workers == 1:
        played = [play_hand(v, pl, field_name, d, seat, seed) for pl, d, seat in tasks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            played = list(pool.map(play_hand, itertools.repeat(v), [t[0] for t in tasks],
                                   itertools.repeat(field_name), [t[1] for t in tasks], [t[2] for t in tasks],
                                   itertools.repeat(seed), chunksize=4))
    hands: dict[str, list[Hand]] = {pl: [] for pl in players}
    for (pl, _, _), hand in zip(tasks, played, strict=True):
        hands[pl].append(hand)
    return hands


def bootstrap(deals: Sequence[int], stat: Any, boot: int = 2000) -> tuple[float, float]:
    """A 95% percentile interval of ``stat(deals)`` over ``boot`` resamples of the deals."""
    rng = random.Random(1)
    values = sorted(stat([deals[int(rng.random() * len(deals))] for _ in deals]) for _ in range(boot))
    return values[int(0.025 * boot)], values[min(boot - 1, int(0.975 * boot))]


def summarise(hands: dict[str, list[Hand]], players: Sequence[str],
              baseline: str | None = None) -> list[dict[str, Any]]:
    """The ladder rows of one variant and field (see the module docs); the paired differences are taken from
    ``baseline`` (default: :func:`baseline_of`)."""
    by_deal = {p: {} for p in players}  # type: dict[str, dict[int, list[Hand]]]
    for p in players:
        for h in hands[p]:
            by_deal[p].setdefault(h.deal, []).append(h)
    deals = sorted(by_deal[players[0]])
    first = baseline or baseline_of(players)

    def sums(p: str, ds: Sequence[int]) -> tuple[float, float, int]:
        mine = other = 0.0
        count = 0
        for d in ds:
            for h in by_deal[p][d]:
                mine += h.mine
                other += h.field_mean
                count += 1
        return mine, other, count

    rows = []
    for p in players:
        mine, other, count = sums(p, deals)

        def ratio(ds: Sequence[int], p: str = p) -> float:
            m, o, _ = sums(p, ds)
            return m / o if o else float("nan")

        def margin(ds: Sequence[int], p: str = p) -> float:
            m, o, c = sums(p, ds)
            return (m - o) / c if c else float("nan")

        def margin_diff(ds: Sequence[int], p: str = p) -> float:
            return margin(ds, p) - margin(ds, first)

        def failed(ds: Sequence[int], p: str = p) -> float:
            hs = [h for d in ds for h in by_deal[p][d]]
            return sum(h.failed for h in hs) / len(hs) if hs else float("nan")

        def diff(ds: Sequence[int], p: str = p) -> float:
            m, _, c = sums(p, ds)
            m0, _, _ = sums(first, ds)
            return (m - m0) / c if c else float("nan")

        times = sorted(t for h in hands[p] for t in h.times)
        rows.append({
            "player": p, "hands": count, "deals": len(deals), "baseline": first,
            "mine": mine / count, "field": other / count,
            "ratio": mine / other if other else float("nan"), "ratio_ci": bootstrap(deals, ratio),
            "margin": margin(deals), "margin_ci": bootstrap(deals, margin),
            "margin_diff": margin_diff(deals),
            "margin_diff_ci": bootstrap(deals, margin_diff) if p != first else (0.0, 0.0),
            "failed": sum(h.failed for h in hands[p]) / count, "failed_ci": bootstrap(deals, failed),
            "won": sum(h.won for h in hands[p]) / count,
            "diff": diff(deals), "diff_ci": bootstrap(deals, diff) if p != first else (0.0, 0.0),
            "shot": sum(h.shot for h in hands[p]), "conceded": sum(h.conceded for h in hands[p]),
            "t_median": statistics.median(times) if times else float("nan"),
            "t_p95": times[int(0.95 * (len(times) - 1))] if times else float("nan"),
        })
    return rows


def split_players(text: str) -> list[str]:
    """The ladder names in a comma-separated list, each once: a piece ``k=v`` without a player's name is one
    more parameter of the name before it (``search:playouts=8,endgame=0`` is one player)."""
    names: list[str] = []
    for piece in (x.strip() for x in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and names:
            names[-1] += "," + piece
        else:
            names.append(piece)
    return list(dict.fromkeys(names))


def baseline_of(players: Sequence[str]) -> str:
    """The player the paired differences are taken from by default: the heuristic if it plays, else the first."""
    return "heuristic" if "heuristic" in players else players[0]


def table(variant: str, field_name: str, rows: list[dict[str, Any]]) -> str:
    """One variant's and field's rows as Markdown."""
    first = rows[0]["baseline"]
    lines = [f"{variant}, against the {field_name} field ({rows[0]['deals']} deals, "
             f"{rows[0]['hands']} hands a player):", "",
             f"| player | pts/hand | field pts/hand | ratio (95% CI) | margin (95% CI) "
             f"| vs {first}, pts/hand (95% CI) | vs {first}, margin (95% CI) | moons shot / conceded "
             f"| failed (>= {FAILED}, no moon) | hands won | decision CPU median / p95 |",
             "|---|---:|---:|---|---|---|---|---|---:|---:|---|"]
    for r in rows:
        lo, hi = r["ratio_ci"]
        mlo, mhi = r["margin_ci"]
        dlo, dhi = r["diff_ci"]
        vs = "–" if r["player"] == first else f"{r['diff']:+.2f} ({dlo:+.2f} to {dhi:+.2f})"
        xlo, xhi = r["margin_diff_ci"]
        flo, fhi = r["failed_ci"]
        vs_margin = "–" if r["player"] == first else f"{r['margin_diff']:+.2f} ({xlo:+.2f} to {xhi:+.2f})"
        lines.append(f"| {r['player']} | {r['mine']:.2f} | {r['field']:.2f} | **{r['ratio']:.2f}** "
                     f"({lo:.2f}–{hi:.2f}) | {r['margin']:+.2f} ({mlo:+.2f} to {mhi:+.2f}) | {vs} | {vs_margin} | "
                     f"{r['shot']} / {r['conceded']} | {100 * r['failed']:.1f}% ({100 * flo:.1f}–{100 * fhi:.1f}) | "
                     f"{100 * r['won']:.1f}% | "
                     f"{1000 * r['t_median']:.1f} / {1000 * r['t_p95']:.1f} ms |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ladder and print its tables (see the module docs)."""
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--variant", action="append", help=f"preset (repeatable; default: {', '.join(VARIANTS)})")
    p.add_argument("--players", default=",".join(PLAYERS), help="comma-separated ladder players")
    p.add_argument("--field", action="append", help="the other seats' agent (repeatable; default heuristic)")
    p.add_argument("--deals", type=int, default=50, help="frozen deals per variant (each from every seat)")
    p.add_argument("--seed", type=int, default=SEED, help="the first deal's seed")
    p.add_argument("--quick", action="store_true", help="a small run: standard, 4 deals, search at 8 worlds")
    p.add_argument("--workers", type=int, default=1, help="processes to play the hands in (default 1)")
    p.add_argument("--baseline", help="the player the paired differences are taken from (one of --players; "
                   "default: heuristic if it plays, else the first)")
    args = p.parse_args(argv)
    variants = args.variant or (["standard"] if args.quick else list(VARIANTS))
    players = split_players(args.players)
    if args.workers < 1:
        p.error(f"--workers must be at least 1, not {args.workers}")
    if args.baseline is not None and args.baseline not in players:
        p.error(f"--baseline {args.baseline!r} is not one of --players ({', '.join(players)})")
    deals = args.deals
    if args.quick:
        deals = min(deals, 4)
        players = ["search:playouts=8" if x in ("search", "search4x") else x for x in players]
        players = list(dict.fromkeys(players))
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.python_implementation()} "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.1f}; seed {args.seed}")
    for name in variants:
        v = hl.preset(name)
        for field_name in args.field or ["heuristic"]:
            started = time.perf_counter()
            hands = play_hands(v, players, field_name, deals, args.seed, args.workers)
            print()
            print(table(name, field_name, summarise(hands, players, args.baseline)))
            print(f"({time.perf_counter() - started:.0f} s)")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
