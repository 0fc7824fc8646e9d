"""Calibration of the beliefs about hidden cards: uniform worlds against choice-aware (weighted) worlds.

Hands of a variant are played by four copies of a *player* agent. At the start of chosen tricks, seat 0's
belief is formed from its observation: ``--worlds`` determinizations drawn uniformly
(:meth:`heartslib.inference.Sampler.draw`, each weighing the same), and as many weighted by how likely the
other seats' choices are under a *model* agent with slack ``--epsilon``
(:meth:`heartslib.inference.Sampler.weighted`). For every card seat 0 has not seen, the belief's probability
that the card is where it really is (the seat that holds it, or the kitty) is read off; the table gives the mean
over cards and hands, by trick, with a 95% interval over hands (normal, hands being independent).

When the players are the model (``--players heuristic --model heuristic``) the weighting should help; when
they deviate from it (``--players random``), the slack should keep the belief from collapsing below the
uniform one by much.

    python benchmarks/belief.py --hands 30
    python benchmarks/belief.py --hands 30 --players random
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence

import heartslib as hl
from heartslib.agents import AGENTS
from heartslib.inference import Determinization, Sampler


def truth_probability(belief: Sequence[tuple[Determinization, float]], truth: hl.Round, seat: int) -> float:
    """The mean, over the cards ``seat`` has not seen in ``truth``, of the belief's probability that each is where
    it really is (in which hand, or in the kitty)."""
    obs = truth.observation(seat)
    seen = set(obs.hand) | {c for t in obs.tricks for _, c in t.plays} | {c for _, c in obs.trick}
    where = {c: s for s in range(truth.variant.players) for c in truth.hand(s)}
    hidden = [c for c in where if c not in seen] + [c for c in truth.kitty if c not in seen]
    if not hidden:
        return math.nan
    total = 0.0
    for card in hidden:
        holder = where.get(card, -1)  # -1: the kitty
        for d, weight in belief:
            world = d.round
            placed = next((s for s in range(world.variant.players) if card in world.hand(s)), -1)
            if placed == holder:
                total += weight
    return total / len(hidden)


def _agent(name: str, v: hl.Variant, seed: int) -> hl.agents.Agent:
    agent = AGENTS[name](seed=seed)
    agent.setup(v, 0)
    return agent


def main(argv: list[str] | None = None) -> int:
    """Print the calibration table; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--players", default="heuristic", help="the agent that plays every seat")
    parser.add_argument("--model", default="heuristic", help="the agent whose choices weigh the worlds")
    parser.add_argument("--tricks", default="2,4,6,8,10", help="the tricks at whose start the belief is read")
    args = parser.parse_args(argv)
    v = hl.preset(args.variant)
    checkpoints = [int(x) for x in args.tricks.split(",")]
    uniform: dict[int, list[float]] = {t: [] for t in checkpoints}
    weighted: dict[int, list[float]] = {t: [] for t in checkpoints}
    model = _agent(args.model, v, 0)
    for hand in range(args.hands):
        players = [_agent(args.players, v, 100 * hand + s) for s in range(v.players)]
        for s, p in enumerate(players):
            p.setup(v, s)
        r = hl.Round.deal(v, seed=70_000 + hand, hand_number=hand)
        rng = random.Random(hand)
        while not r.is_over:
            if r.phase == hl.Phase.PLAY and not r.trick and len(r.tricks) in uniform:
                sampler = Sampler(r.observation(0), v)
                flat = [(sampler.draw(rng), 1 / args.worlds) for _ in range(args.worlds)]
                uniform[len(r.tricks)].append(truth_probability(flat, r, 0))
                belief = sampler.weighted(rng, model.act, worlds=args.worlds, epsilon=args.epsilon)
                weighted[len(r.tricks)].append(truth_probability(belief, r, 0))
            seat = r.to_act[0]
            r.apply(players[seat].act(r.observation(seat), r.legal_actions(seat)))
    print(f"{args.variant}: {args.hands} hands played by {args.players}, worlds weighted by the {args.model} "
          f"model (epsilon {args.epsilon}), {args.worlds} worlds a belief\n")
    print("| trick | uniform: P(true place) | weighted: P(true place) | difference (95% CI) |")
    print("|---:|---:|---:|---|")
    for t in checkpoints:
        pairs = [(u, w) for u, w in zip(uniform[t], weighted[t], strict=True) if not math.isnan(u)]
        if len(pairs) < 2:
            continue
        diffs = [w - u for u, w in pairs]
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        print(f"| {t + 1} | {statistics.fmean(u for u, _ in pairs):.3f} | {statistics.fmean(w for _, w in pairs):.3f} "
              f"| {mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
