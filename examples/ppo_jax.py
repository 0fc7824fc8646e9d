"""PPO on heartslib's functional JAX core: one seat learns the standard game against three random players.

What it does
------------
* **The learner is seat 0**; seats 1-3 play :meth:`Game.random_action` (uniform over the legal ids, drawn on
  the device). Every game of the batch runs until seat 0 is to act, so each transition is one decision of the
  learner: it acts, then the other seats play (and a finished hand is re-dealt, the functional core's
  autoreset) until it acts again.
* **Reward**: the change of seat 0's points between its decisions, negated (``state.points``; on the step that
  ends the hand they are the hand's points as scored, moon included), so a hand's rewards add up to exactly the
  hand's reward (``state.rewards[:, 0]``); they come as tricks are taken, not only at the end. An episode is a
  hand (no discount inside it, GAE's lambda for the credit).
* **Policy and value**: one small MLP (observation -> two ReLU layers -> logits over the 55 card ids and a
  value), the illegal ids masked out of the softmax. PPO with the clipped objective, GAE, a value loss, an
  entropy bonus and a hand-written Adam; the rollout (``lax.scan`` of the learner's steps, each a
  ``lax.while_loop`` of the others') and the update are one jitted function of the whole batch, on the CPU.
  Only jax and numpy.
* **Evaluation through the ordinary engine**: the trained network becomes :class:`PolicyAgent`, a
  :class:`heartslib.agents.BaseAgent` with a numpy forward pass over the same observation encoding
  (:class:`heartslib.adapters.encoding.Encoding`, bit for bit what ``Game.observe`` gives), playing the most
  likely legal card. It plays fixed deals (``Round.deal(variant, seed=s)``, dealer and pass cycling) in seat 0
  against three ``RandomAgent`` and against three ``HeuristicAgent``; a ``RandomAgent`` and a
  ``HeuristicAgent`` in seat 0 play the same deals against the same opponents, so the figures are paired: the
  learner's own points per hand (lower is better), not the constant-sum mean over seats.

Run::

    pip install -e '.[jax]'
    python examples/ppo_jax.py                     # 6 CPU-minutes of training, then the evaluation
    python examples/ppo_jax.py --minutes 1 --eval-hands 200 --out /tmp/ppo   # a quick look

Options: ``--minutes`` (training budget in process CPU time, ``time.process_time()``, which adds up every
thread's time), ``--seed``, ``--out`` (a folder: ``ppo-curve.svg`` and ``ppo-curve.json`` are written there;
default ``docs/images``), ``--eval-hands``, ``--iterations`` (stop after this many instead of a CPU budget),
``--batch``, ``--horizon``, ``--hidden``. It prints the learning curve as it goes and the final figures;
docs/tutorials/ppo.md shows them as measured.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
except ImportError as exc:
    # not a success: a script running the examples must be able to tell that this one did not run
    print(f"{type(exc).__name__}: {exc}\nthis example needs the 'jax' extra: pip install 'heartslib[jax]' "
          "(from a checkout: pip install -e '.[jax]')", file=sys.stderr)
    sys.exit(2)

import heartslib as hl
from heartslib.adapters.encoding import Encoding
from heartslib.agents import BaseAgent, HeuristicAgent, LazyActions, RandomAgent, setup_agent
from heartslib.engine.legality import pass_extensions
from heartslib.vector import functional

LEARNER = 0
"""The learner's seat, in training and in the evaluation."""

Params = dict[str, Any]


@dataclass(frozen=True)
class Config:
    """The training settings (the defaults are those of the figures in docs/tutorials/ppo.md)."""

    variant: str = "standard"
    batch: int = 512
    """Games stepped together."""
    horizon: int = 32
    """Learner decisions per game in one rollout (two hands' worth)."""
    hidden: int = 128
    lr: float = 5e-4
    epochs: int = 3
    minibatches: int = 4
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    reward_scale: float = 0.1
    """Points are multiplied by this for the value and the advantages (a hand is worth 0-26 points)."""


# ---------------------------------------------------------------------- the network (jax or numpy)


def init_params(key: Any, inputs: int, actions: int, hidden: int) -> Params:
    """A two-layer ReLU trunk with a policy head (``actions`` logits) and a value head, He-initialised; the
    heads start small so the first policy is near uniform over the legal ids."""
    k1, k2, k3, k4 = jax.random.split(key, 4)

    def dense(k: Any, n_in: int, n_out: int, scale: float) -> Any:
        return jax.random.normal(k, (n_in, n_out), jnp.float32) * scale * math.sqrt(2.0 / n_in)

    return {
        "w1": dense(k1, inputs, hidden, 1.0), "b1": jnp.zeros(hidden, jnp.float32),
        "w2": dense(k2, hidden, hidden, 1.0), "b2": jnp.zeros(hidden, jnp.float32),
        "wp": dense(k3, hidden, actions, 0.01), "bp": jnp.zeros(actions, jnp.float32),
        "wv": dense(k4, hidden, 1, 0.1), "bv": jnp.zeros(1, jnp.float32),
    }


def forward(params: Params, obs: Any, xp: Any = jnp) -> tuple[Any, Any]:
    """Logits (..., A) and value (...) of observations (..., D); ``xp`` is ``jax.numpy`` or ``numpy`` (the
    agent's forward pass is this same function on numpy arrays)."""
    h = xp.maximum(obs @ params["w1"] + params["b1"], 0.0)
    h = xp.maximum(h @ params["w2"] + params["b2"], 0.0)
    return h @ params["wp"] + params["bp"], (h @ params["wv"] + params["bv"])[..., 0]


def masked_log_softmax(logits: Any, mask: Any) -> Any:
    """Log-probabilities over the legal ids (the illegal ones get a large negative logit, so probability 0)."""
    return jax.nn.log_softmax(jnp.where(mask, logits, -1e9), axis=-1)


# ---------------------------------------------------------------------- Adam, by hand


def adam_init(params: Params) -> Params:
    """Adam's state: the step count and the two moment estimates."""
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"t": jnp.zeros((), jnp.int32), "m": zeros, "v": zeros}


def adam_update(params: Params, grads: Params, opt: Params, lr: float,
                b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> tuple[Params, Params]:
    """One Adam step (Kingma and Ba), with the bias corrections."""
    t = opt["t"] + 1
    m = jax.tree_util.tree_map(lambda m_, g: b1 * m_ + (1 - b1) * g, opt["m"], grads)
    v = jax.tree_util.tree_map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, opt["v"], grads)
    scale = lr * jnp.sqrt(1 - b2 ** t) / (1 - b1 ** t)
    new = jax.tree_util.tree_map(lambda p, m_, v_: p - scale * m_ / (jnp.sqrt(v_) + eps), params, m, v)
    return new, {"t": t, "m": m, "v": v}


def clip_by_global_norm(grads: Params, limit: float = 0.5) -> Params:
    """The gradients scaled down to a global norm of at most ``limit`` (PPO's usual guard)."""
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree_util.tree_leaves(grads)))
    factor = jnp.minimum(1.0, limit / (norm + 1e-6))
    scaled: Params = jax.tree_util.tree_map(lambda g: g * factor, grads)
    return scaled


# ---------------------------------------------------------------------- rollout and update


def make_iteration(game: functional.Game, cfg: Config) -> Callable[..., Any]:
    """The jitted training iteration: ``(params, opt, state, key) -> (params, opt, state, stats)``, a rollout
    of ``cfg.horizon`` learner decisions in each of the ``cfg.batch`` games, then the PPO update."""

    def tally(old: Any, new: Any) -> tuple[Any, Any, Any]:
        """Seat 0's reward on one step (its points gained, negated; 0 on a re-deal), and the hands the step
        finished with their points (for the report)."""
        gained = jnp.where(old.terminated, 0, new.points[:, LEARNER] - old.points[:, LEARNER])
        finished = new.terminated & ~old.terminated
        return -gained.astype(jnp.float32), finished, jnp.where(finished, new.points[:, LEARNER], 0)

    def play_on(state: Any, chosen: Any, key: Any) -> tuple[Any, Any, Any, Any, Any]:
        """Play seat 0's ``chosen`` action in every game, then step the games where seat 0 does not act (the
        others' random actions, and a finished hand re-dealt) until it acts again in all of them: one loop,
        so the jitted program holds one copy of the step (it compiles in half the time of two)."""

        def waiting(carry: Any) -> Any:
            s, acted = carry[0], carry[2]
            return (~acted | (s.current_player != LEARNER)).any()

        def body(carry: Any) -> Any:
            s, k, acted, reward, done, points, hands = carry
            k, k_act, k_deal = jax.random.split(k, 3)
            mine = s.current_player == LEARNER
            # -1 is no action: a game where seat 0 has acted and acts again is left as it is (flagged illegal)
            action = jnp.where(mine, jnp.where(acted, -1, chosen), game.random_action(s, k_act))
            new = game.step(s, action, k_deal)
            r, finished, pts = tally(s, new)
            return new, k, acted | mine, reward + r, done | finished, points + pts, hands + finished

        zeros = jnp.zeros(state.turn.shape[0], jnp.int32)
        out = jax.lax.while_loop(waiting, body, (state, key, zeros > 0, zeros.astype(jnp.float32), zeros > 0,
                                                  zeros, zeros))
        return out[0], out[3], out[4], out[5], out[6]

    def learner_step(carry: Any, key: Any) -> tuple[Any, Any]:
        params, state = carry
        k_act, k_rest = jax.random.split(key)
        obs = game.observe(state)
        mask = state.legal_action_mask
        logits, value = forward(params, obs)
        logp_all = masked_log_softmax(logits, mask)
        action = jax.random.categorical(k_act, logp_all)
        logp = jnp.take_along_axis(logp_all, action[:, None], axis=1)[:, 0]
        state, reward, done, points, hands = play_on(state, action, k_rest)
        out = {"obs": obs, "mask": mask, "action": action, "logp": logp, "value": value,
               "reward": reward * cfg.reward_scale, "done": done, "points": points, "hands": hands}
        return (params, state), out

    def gae(traj: Any, last_value: Any) -> tuple[Any, Any]:
        """Generalised advantage estimates (no discount inside a hand; a finished hand cuts the bootstrap)."""

        def back(next_: Any, t: Any) -> tuple[Any, Any]:
            adv_next, value_next = next_
            keep = 1.0 - t["done"].astype(jnp.float32)
            delta = t["reward"] + keep * value_next - t["value"]
            adv = delta + cfg.lam * keep * adv_next
            return (adv, t["value"]), adv

        _, adv = jax.lax.scan(back, (jnp.zeros_like(last_value), last_value),
                              {k: traj[k] for k in ("reward", "done", "value")}, reverse=True)
        return adv, adv + traj["value"]

    def loss(params: Params, b: Any) -> tuple[Any, Any]:
        logits, value = forward(params, b["obs"])
        logp_all = masked_log_softmax(logits, b["mask"])
        logp = jnp.take_along_axis(logp_all, b["action"][:, None], axis=1)[:, 0]
        adv = (b["adv"] - b["adv"].mean()) / (b["adv"].std() + 1e-8)
        ratio = jnp.exp(logp - b["logp"])
        policy = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv).mean()
        value_loss = 0.5 * ((value - b["ret"]) ** 2).mean()
        probs = jnp.exp(logp_all)
        entropy = -jnp.sum(jnp.where(b["mask"], probs * logp_all, 0.0), axis=-1).mean()
        return policy + cfg.value_coef * value_loss - cfg.entropy * entropy, (policy, value_loss, entropy)

    def update(params: Params, opt: Params, data: Any, key: Any) -> tuple[Params, Params, Any]:
        size = data["action"].shape[0]
        per = size // cfg.minibatches

        def epoch(carry: Any, k: Any) -> tuple[Any, Any]:
            order = jax.random.permutation(k, size)[: per * cfg.minibatches].reshape(cfg.minibatches, per)

            def minibatch(c: Any, idx: Any) -> tuple[Any, Any]:
                p, o = c
                grads, aux = jax.grad(loss, has_aux=True)(p, jax.tree_util.tree_map(lambda x: x[idx], data))
                p, o = adam_update(p, clip_by_global_norm(grads), o, cfg.lr)
                return (p, o), aux

            return jax.lax.scan(minibatch, carry, order)

        (params, opt), aux = jax.lax.scan(epoch, (params, opt), jax.random.split(key, cfg.epochs))
        return params, opt, jax.tree_util.tree_map(lambda x: x[-1, -1], aux)

    @jax.jit
    def iteration(params: Params, opt: Params, state: Any, key: Any) -> tuple[Params, Params, Any, Any]:
        k_roll, k_upd = jax.random.split(key)
        (_, state), traj = jax.lax.scan(learner_step, (params, state), jax.random.split(k_roll, cfg.horizon))
        _, last_value = forward(params, game.observe(state))
        adv, ret = gae(traj, last_value)
        flat = {k: traj[k].reshape((-1, *traj[k].shape[2:])) for k in ("obs", "mask", "action", "logp")}
        flat["adv"], flat["ret"] = adv.reshape(-1), ret.reshape(-1)
        params, opt, (policy, value_loss, entropy) = update(params, opt, flat, k_upd)
        stats = {"points": traj["points"].sum(), "hands": traj["hands"].sum(), "entropy": entropy,
                 "value_loss": value_loss, "policy_loss": policy}
        return params, opt, state, stats

    return iteration


def start(game: functional.Game, cfg: Config, seed: int) -> tuple[Params, Params, Any, Any]:
    """Initial parameters, Adam state, batch of games (advanced to seat 0's first decision) and key."""
    key = jax.random.PRNGKey(seed)
    k_params, k_deal, k_run = jax.random.split(key, 3)
    params = init_params(k_params, game.observation_size, game.num_actions, cfg.hidden)
    state = jax.jit(game.init)(jax.random.split(k_deal, cfg.batch))
    # the rollout starts each step at seat 0's decision: it is first in a new hand that passes (the seats
    # choose their passes lowest first), as the standard game's first hand does
    assert bool((state.current_player == LEARNER).all()), "the learner must act first in a new hand"
    return params, adam_init(params), state, k_run


def train(cfg: Config, seed: int, cpu_seconds: float | None = None, iterations: int | None = None,
          report: Callable[[dict[str, Any]], None] | None = None) -> tuple[Params, list[dict[str, Any]]]:
    """Train until ``cpu_seconds`` of process CPU time (compilation included) or ``iterations`` have passed;
    return the parameters (as numpy arrays) and the curve: one point per iteration (CPU seconds, learner
    decisions, hands, seat 0's mean points per hand in that iteration's rollout)."""
    if cpu_seconds is None and iterations is None:
        raise ValueError("give a CPU-time budget or a number of iterations")
    game = functional.make(cfg.variant)
    iteration = make_iteration(game, cfg)
    cpu0 = time.process_time()
    params, opt, state, key = start(game, cfg, seed)
    curve: list[dict[str, Any]] = []
    decisions = hands = 0
    done = 0
    while True:
        key, k = jax.random.split(key)
        params, opt, state, stats = iteration(params, opt, state, k)
        stats = {name: float(value) for name, value in stats.items()}  # waits for the iteration
        done += 1
        decisions += cfg.batch * cfg.horizon
        hands += int(stats["hands"])
        point = {"cpu_s": time.process_time() - cpu0, "iteration": done, "decisions": decisions, "hands": hands,
                 "points_per_hand": stats["points"] / stats["hands"] if stats["hands"] else None,
                 "entropy": stats["entropy"]}
        curve.append(point)
        if report is not None:
            report(point)
        if (iterations is not None and done >= iterations) or \
                (cpu_seconds is not None and point["cpu_s"] >= cpu_seconds):
            break
    return {name: np.asarray(value) for name, value in params.items()}, curve


# ---------------------------------------------------------------------- the trained network as an agent


class PolicyAgent(BaseAgent):
    """The trained network as a heartslib agent: a numpy forward pass over :class:`Encoding`'s observation
    vector (what ``Game.observe`` gives in training), choosing the legal id with the largest logit. A pass is
    chosen card by card as in training (each card with the cards already chosen shown as passed)."""

    name = "ppo"

    def __init__(self, params: Params, variant: hl.Variant, seed: int | None = 0) -> None:
        super().__init__(seed)
        self.params = {name: np.asarray(value, np.float32) for name, value in params.items()}
        self.encoding = Encoding(variant)
        self.rules = variant.rules

    def best(self, vector: Any, legal_ids: Sequence[int]) -> int:
        """The legal id the network rates highest for ``vector``."""
        logits, _ = forward(self.params, vector, np)
        ids = np.asarray(legal_ids)
        return int(ids[np.argmax(logits[ids])])

    def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action:
        """The network's choice among ``legal_actions``."""
        if observation.phase is hl.Phase.PASS:
            hand = [card.index for card in observation.hand]
            chosen: list[int] = []
            for _ in range(observation.pass_count):
                legal = pass_extensions(hand, chosen, observation.pass_count, self.rules.forbidden,
                                        self.rules.pass_keep)
                pending = [hl.Card.from_index(c) for c in chosen]
                chosen.append(self.best(self.encoding.encode_array(observation, pending=pending, acting=True), legal))
            return hl.Pass(observation.seat, tuple(hl.Card.from_index(c) for c in chosen))
        ids = [self.encoding.action_id(action) for action in legal_actions]
        choice = self.best(self.encoding.encode_array(observation, acting=True), ids)
        return legal_actions[ids.index(choice)]


def play_hand(variant: hl.Variant, agents: Sequence[Any], seed: int) -> tuple[Any, ...]:
    """One hand of ``variant`` dealt by ``Round.deal`` from ``seed`` (dealer and pass cycling with the seed),
    played by ``agents`` through the engine; each seat's points."""
    n = variant.players
    rnd = hl.Round.deal(variant, seed=seed, dealer=seed % n, hand_number=seed % len(variant.rules.schedule))
    for seat, agent in enumerate(agents):
        setup_agent(agent, variant, seat)
    while rnd.phase is not hl.Phase.OVER:
        seat = rnd.to_act[0]
        actions = LazyActions(rnd, seat) if rnd.phase is hl.Phase.PASS else rnd.legal_actions(seat)
        rnd.apply(agents[seat].act(rnd.observation(seat), actions))
    points = rnd.points
    assert points is not None
    return points


def evaluate(params: Params, variant: hl.Variant, hands: int, first_seed: int = 10_000) -> dict[str, Any]:
    """The learner's own points per hand in seat 0 on ``hands`` fixed deals, against three RandomAgent and
    against three HeuristicAgent, beside a RandomAgent and a HeuristicAgent in seat 0 on the same deals against
    the same opponents (mean, and the paired difference with its standard error)."""
    learner = PolicyAgent(params, variant)
    results: dict[str, Any] = {"hands": hands, "seeds": [first_seed, first_seed + hands - 1]}
    for opponents in ("random", "heuristic"):
        cls = RandomAgent if opponents == "random" else HeuristicAgent
        seat0 = {"learner": learner, "random": RandomAgent(seed=1), "heuristic": HeuristicAgent(seed=1)}
        points: dict[str, list[float]] = {name: [] for name in seat0}
        for s in range(first_seed, first_seed + hands):
            others = [cls(seed=s * 10 + seat) for seat in range(1, variant.players)]
            for name, agent in seat0.items():
                points[name].append(float(play_hand(variant, [agent, *others], s)[LEARNER]))
        row: dict[str, Any] = {name: float(np.mean(p)) for name, p in points.items()}
        for name in ("random", "heuristic"):
            diff = np.asarray(points[name]) - np.asarray(points["learner"])
            row[f"learner_gain_over_{name}"] = float(diff.mean())
            row[f"learner_gain_over_{name}_se"] = float(diff.std(ddof=1) / math.sqrt(hands))
        results[f"vs_{opponents}"] = row
    return results


# ---------------------------------------------------------------------- the curve as SVG


def curve_svg(curve: Sequence[dict[str, Any]], baseline: float | None, final: float | None,
              heuristic: float | None = None, window: int = 10) -> str:
    """A small hand-written SVG of seat 0's points per hand in training (a moving average of ``window``
    iterations) against CPU minutes, with the evaluation's RandomAgent baseline, the learner's greedy figure and
    the HeuristicAgent's (all against three random opponents) as dashed lines."""
    width, height, left, right, top, bottom = 640, 360, 56, 16, 28, 44
    curve = [p for p in curve if p["points_per_hand"] is not None]  # an iteration that finished no hand
    xs = [p["cpu_s"] / 60 for p in curve]
    raw = [p["points_per_hand"] for p in curve]
    ys = [float(np.mean(raw[max(0, i - window + 1): i + 1])) for i in range(len(raw))]
    x_max = max(xs[-1] if xs else 1.0, 1e-9)
    levels = [y for y in (*ys, baseline, final, heuristic) if y is not None]
    y_max = math.ceil(max([*levels, 1.0]) + 3.5)  # headroom: the legend goes above the highest line

    def px(x: float) -> float:
        return left + (width - left - right) * x / x_max

    def py(y: float) -> float:
        return top + (height - top - bottom) * (1 - y / y_max)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="14">PPO learner (seat 0) against three '
             f'random players: its own points per hand</text>']
    for y in range(0, y_max + 1, max(1, y_max // 8)):
        parts.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{width - right}" y2="{py(y):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y}</text>')
    step = max(1, math.ceil(x_max / 8))
    for x in range(0, int(x_max) + 1, step):
        parts.append(f'<text x="{px(x):.1f}" y="{height - bottom + 16}" text-anchor="middle">{x}</text>')
    parts.append(f'<text x="{(left + width - right) / 2}" y="{height - 8}" text-anchor="middle">training, process '
                 'CPU minutes</text>')
    parts.append(f'<text x="14" y="{(top + height - bottom) / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {(top + height - bottom) / 2})">points per hand (lower is better)</text>')
    parts.append(f'<rect x="{left}" y="{top}" width="{width - left - right}" height="{height - top - bottom}" '
                 'fill="none" stroke="#888"/>')
    # the dashed levels, and a legend in the top right corner (the curve is down by then)
    series = [("#2c6fbb", "", f"learner in training (sampling; mean of {window} iterations)", None),
              ("#c0392b", "6 4", "RandomAgent in seat 0 (evaluation)", baseline),
              ("#8e44ad", "6 4", "HeuristicAgent in seat 0 (evaluation)", heuristic),
              ("#27ae60", "6 4", "learner, greedy (evaluation)", final)]
    for colour, dash, _, level in series:
        if level is not None:
            parts.append(f'<line x1="{left}" y1="{py(level):.1f}" x2="{width - right}" y2="{py(level):.1f}" '
                         f'stroke="{colour}" stroke-dasharray="{dash}"/>')
    points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys, strict=True))
    parts.append(f'<polyline points="{points}" fill="none" stroke="#2c6fbb" stroke-width="2"/>')
    shown = [(colour, dash, label + ("" if level is None else f": {level:.2f}"))
             for colour, dash, label, level in series if level is not None or not dash]
    x0, y0 = width - right - 330, top + 10
    parts.append(f'<rect x="{x0 - 8}" y="{y0 - 4}" width="330" height="{16 * len(shown) + 6}" fill="white" '
                 'stroke="#ccc"/>')
    for i, (colour, dash, label) in enumerate(shown):
        y = y0 + 8 + 16 * i
        parts.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + 24}" y2="{y}" stroke="{colour}" stroke-width="2" '
                     f'stroke-dasharray="{dash}"/>')
        parts.append(f'<text x="{x0 + 30}" y="{y + 4}" fill="#222">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------- the command line


def columns(curve: Sequence[dict[str, Any]]) -> dict[str, list[Any]]:
    """The curve as one list per field (one entry per iteration), floats cut to 4 decimals: the figures file
    stays small."""
    return {name: [round(p[name], 4) if isinstance(p[name], float) else p[name] for p in curve] for name in curve[0]}


def figures_json(figures: dict[str, Any]) -> str:
    """The figures as JSON text: indented, but each column of the curve on one line."""
    head = json.dumps({name: value for name, value in figures.items() if name != "curve"}, indent=1)
    curve = ",\n".join(f"  {json.dumps(name)}: {json.dumps(values)}" for name, values in figures["curve"].items())
    return head[: -len("\n}")] + ',\n "curve": {\n' + curve + "\n }\n}\n"


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, write the curve and the figures; return the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=6.0, help="training budget, process CPU minutes")
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many iterations instead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("docs/images"), help="folder for ppo-curve.svg/.json")
    parser.add_argument("--eval-hands", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=Config.batch)
    parser.add_argument("--horizon", type=int, default=Config.horizon)
    parser.add_argument("--hidden", type=int, default=Config.hidden)
    args = parser.parse_args(argv)
    cfg = Config(batch=args.batch, horizon=args.horizon, hidden=args.hidden)
    shown = [0]

    def report(p: dict[str, Any]) -> None:
        # a line every 30 CPU seconds (every iteration when they are counted)
        if p["points_per_hand"] is not None and (p["cpu_s"] >= shown[0] * 30 or args.iterations is not None):
            shown[0] = int(p["cpu_s"] // 30) + 1
            print(f"cpu {p['cpu_s'] / 60:5.2f} min  iteration {p['iteration']:5.0f}  hands {p['hands']:9,.0f}  "
                  f"seat 0 points/hand {p['points_per_hand']:5.2f}  entropy {p['entropy']:.3f}", flush=True)

    budget = None if args.iterations is not None else args.minutes * 60
    params, curve = train(cfg, args.seed, cpu_seconds=budget, iterations=args.iterations, report=report)
    cpu_train = curve[-1]["cpu_s"]
    cpu_eval0 = time.process_time()
    figures = evaluate(params, hl.preset(cfg.variant), args.eval_hands)
    figures.update({"config": asdict(cfg), "seed": args.seed, "train_cpu_minutes": cpu_train / 60,
                    "eval_cpu_minutes": (time.process_time() - cpu_eval0) / 60, "iterations": len(curve),
                    "learner_decisions": curve[-1]["decisions"], "training_hands": curve[-1]["hands"],
                    "jax": jax.__version__, "curve": columns(curve)})
    args.out.mkdir(parents=True, exist_ok=True)
    vr = figures["vs_random"]
    (args.out / "ppo-curve.svg").write_text(curve_svg(curve, vr["random"], vr["learner"], vr["heuristic"]))
    (args.out / "ppo-curve.json").write_text(figures_json(figures))
    vh = figures["vs_heuristic"]
    print(f"\ntrained {cpu_train / 60:.2f} CPU minutes ({len(curve)} iterations, {curve[-1]['hands']:,} hands); "
          f"evaluated on {args.eval_hands} fixed deals, seat 0's own points per hand (lower is better):")
    for name, row in (("3 RandomAgent", vr), ("3 HeuristicAgent", vh)):
        print(f"  against {name}: learner {row['learner']:.2f}, RandomAgent {row['random']:.2f}, "
              f"HeuristicAgent {row['heuristic']:.2f}; learner beats RandomAgent by "
              f"{row['learner_gain_over_random']:.2f} ± {row['learner_gain_over_random_se']:.2f} a hand")
    print(f"wrote {args.out / 'ppo-curve.svg'} and {args.out / 'ppo-curve.json'}")
    return figures


if __name__ == "__main__":
    main()
