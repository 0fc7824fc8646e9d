"""heartslib.vector against the PettingZoo adapter, in one run (issue 33's targets).

::

    python benchmarks/vector_env.py                 # numpy at 1 to 16384 games, jax at 1024 to 16384; ~2 min
    python benchmarks/vector_env.py --quick         # a first look
    python benchmarks/vector_env.py --clock cpu     # CPU time of this process: steadier on a loaded machine
    python benchmarks/vector_env.py --jax-threads 1 # XLA on one core, as numpy
    python benchmarks/vector_env.py --batches 4096 --jax-batches --functional-batches 4096  # one comparison

Each figure is env steps a second (one step = one action of one game): the numpy backend on the standard
variant, one process, random legal actions drawn from ``legal_action_mask``, ``state.observation`` built at
every step, new hands dealt (``Env.init``) whenever a batch is over, so dealing counts too. The PettingZoo
figure is the adapter's ``raw_env`` stepped the same way (random legal action from the mask, the observation
read each step, ``reset`` per hand), and OpenSpiel's own C++ ``hearts`` stepped from Python with its
information-state tensor read at each decision (with open-spiel installed). Set ``OMP_NUM_THREADS=1`` etc.
for one core: numpy's element-wise work here is single-threaded anyway. The jax backend (with the ``jax``
extra; jax's CPU build unless a GPU one is installed) is stepped the same way, its actions drawn by a jitted
function from the mask, the observation waited for at every step, one batch (the compile) played before the
clock starts; ``--jax-threads 1`` keeps XLA on one core (``--clock cpu`` counts every core XLA uses).

The functional jax core (:mod:`heartslib.vector.functional`) is timed as learners run it: the whole hand
on the device under one ``jax.jit`` (``init``, then a ``lax.while_loop`` of ``observe``, ``random_action``
and ``step`` until every game is over; the observation carried by the loop, so built and kept at every step),
read back once a batch; the numpy backend is timed again at the same batch just before each of its rows, and
the ratio printed is to that figure (on a shared machine the load moves between rows a minute apart).

``--clock cpu`` times with the process's CPU time instead of the wall clock: on a machine other work shares,
the time this process was not running is left out (the figures are then what one core would do, not what
this machine did).
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import heartslib as hl
from heartslib.vector import Env

#: The clock the rates are timed with (``--clock``): the wall clock, or this process's CPU time.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def stepped_rate(env: Env, batch: int, seconds: float, clock: Callable[[], float],
                 actions: Callable[[Any], Any]) -> tuple[float, int]:
    """Env steps a second of ``env`` at ``batch`` games (``actions(state)``: one legal action id per game), the
    observation built (and waited for) at every step, new hands dealt whenever a batch is over; and the
    state's bytes per game."""
    steps = 0
    seed = 0
    nbytes = 0
    start = clock()
    while clock() - start < seconds or steps == 0:
        state = env.init(np.arange(seed, seed + batch))
        seed += batch
        nbytes = state.nbytes() // batch
        while True:
            over = np.asarray(state.terminated)
            if over.all():
                break
            obs = state.observation  # built every step, as a learner reads it
            if hasattr(obs, "block_until_ready"):
                obs.block_until_ready()  # jax computes it asynchronously
            state = env.step(state, actions(state))
            steps += int((~over).sum())
    return steps / (clock() - start), nbytes


def vector_rate(batch: int, seconds: float, clock: Callable[[], float] = time.perf_counter) -> tuple[float, int]:
    """The numpy backend's env steps a second at ``batch`` games, and the state's bytes per game."""
    env = Env(hl.preset("standard"))
    rng = np.random.default_rng(0)
    return stepped_rate(env, batch, seconds, clock, lambda state: env.random_actions(state, rng))


def jax_rate(batch: int, seconds: float, clock: Callable[[], float] = time.perf_counter) -> float | None:
    """The jax backend's env steps a second at ``batch`` games, stepped as :func:`vector_rate` steps numpy
    (random legal actions drawn by a jitted function from the mask); None without jax. One batch, which
    compiles the step and the observation, is played before the clock starts."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None

    @jax.jit
    def pick(key: Any, i: Any, mask: Any) -> Any:
        # the k-th legal id of each game, k uniform below its number of legal ids (as Env.random_actions): the
        # number of ids with at most k legal ones up to them (XLA's argmax and cumsum are slow on the CPU)
        count = mask.sum(1)
        k = (jax.random.uniform(jax.random.fold_in(key, i), count.shape) * count).astype(jnp.int32)
        upto = jax.lax.associative_scan(jnp.add, mask.astype(jnp.int32), axis=1)
        return (upto <= k[:, None]).sum(1).astype(jnp.int32)

    env = Env(hl.preset("standard"), backend="jax")
    key = jax.random.PRNGKey(0)
    draws = itertools.count()

    def actions(state: Any) -> Any:
        return pick(key, next(draws), state.legal_action_mask)

    stepped_rate(env, batch, 0.0, clock, actions)
    return stepped_rate(env, batch, seconds, clock, actions)[0]


def functional_rate(batch: int, seconds: float, clock: Callable[[], float] = time.perf_counter) -> float | None:
    """The functional core's (:mod:`heartslib.vector.functional`) env steps a second at ``batch`` games, all on
    the device under one ``jax.jit``: each call deals a batch (``init`` from keys), then a ``lax.while_loop``
    steps it until every game is over, each step drawing random legal actions (``random_action``) and building
    the observation (``observe``: carried by the loop, so materialised at every step as a learner reads it);
    the live games' steps are counted on the device. None without jax. One call (the compile) is made before
    the clock starts."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    from heartslib.vector import functional

    game = functional.make(hl.preset("standard"))

    def play(key: Any) -> Any:
        deal, draw = jax.random.split(key)
        state = game.init(jax.random.split(deal, batch))

        def body(carry: Any) -> Any:
            state, key, steps, _ = carry
            key, sub = jax.random.split(key)
            obs = game.observe(state)
            steps = steps + (~state.terminated).sum()
            return game.step(state, game.random_action(state, sub)), key, steps, obs

        obs = jnp.zeros((batch, game.observation_size), jnp.float32)
        carry = jax.lax.while_loop(lambda c: ~c[0].terminated.all(), body, (state, draw, jnp.int32(0), obs))
        return carry[2], carry[3]

    run = jax.jit(play)
    jax.block_until_ready(run(jax.random.PRNGKey(0)))
    steps = 0
    start = clock()
    for i in itertools.count(1):
        n, obs = run(jax.random.PRNGKey(i))
        obs.block_until_ready()
        steps += int(n)
        if clock() - start >= seconds:
            break
    return steps / (clock() - start)


def pettingzoo_rate(seconds: float, clock: Callable[[], float] = time.perf_counter) -> float:
    """The PettingZoo adapter's steps a second (raw_env, one hand an episode)."""
    from heartslib.adapters.pettingzoo import raw_env

    e = raw_env("standard", episode="round")
    rng = np.random.default_rng(0)
    steps = 0
    seed = 0
    start = clock()
    while clock() - start < seconds or steps == 0:
        e.reset(seed=seed)
        seed += 1
        while True:
            agent = e.agent_selection
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                break
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            del agent
    return steps / (clock() - start)


def openspiel_rate(seconds: float, clock: Callable[[], float] = time.perf_counter) -> float | None:
    """OpenSpiel's own C++ ``hearts`` stepped from Python the same way: a random legal action each decision, its
    information-state tensor read at each one, chance nodes (the deal) sampled and not counted; None without
    open-spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = np.random.default_rng(0)
    steps = 0
    start = clock()
    while clock() - start < seconds or steps == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            state.information_state_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
    return steps / (clock() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="shorter timings")
    parser.add_argument("--batches", type=int, nargs="*", default=[1, 64, 1024, 4096, 16384])
    parser.add_argument("--jax-batches", type=int, nargs="*", default=[1024, 4096, 16384],
                        help="the jax backend's batches (none without jax)")
    parser.add_argument("--functional-batches", type=int, nargs="*", default=[1024, 4096, 16384],
                        help="the functional jax core's batches (none without jax)")
    parser.add_argument("--jax-threads", type=int, default=0, help="XLA's threads on the CPU (1: one core, as the "
                        "numpy backend uses; 0: XLA's default, every core)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="time with the wall clock (default) "
                        "or this process's CPU time")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    if args.jax_threads == 1:  # read when jax starts, so before jax_rate imports it
        os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    seconds = 1.0 if args.quick else 4.0
    print(f"heartslib.vector (numpy {np.__version__}) · Python {platform.python_version()} · "
          f"{platform.machine()} · load {os.getloadavg()[0]:.2f} · {args.clock} clock")
    pz = pettingzoo_rate(seconds, clock)
    print(f"{'PettingZoo raw_env':>22}: {pz:>12,.0f} steps/s")
    spiel = openspiel_rate(seconds, clock)
    print(f"{'OpenSpiel hearts (C++)':>22}: " + ("open-spiel not installed" if spiel is None else
                                                f"{spiel:>12,.0f} steps/s  {spiel / pz:7.1f}x PettingZoo"))
    results = {}
    for batch in args.batches:
        rate, nbytes = vector_rate(batch, seconds, clock)
        results[batch] = rate
        print(f"{'vector, batch ' + str(batch):>22}: {rate:>12,.0f} steps/s  {rate / pz:7.1f}x PettingZoo  "
              f"{nbytes} B state/game")
    for label, rate_of, batches in (("jax (CPU)", jax_rate, args.jax_batches),
                                    ("functional", functional_rate, args.functional_batches)):
        for batch in batches:
            # numpy timed again just before, at the same batch: the ratio of two figures a few seconds apart
            beside = vector_rate(batch, seconds, clock)[0] if label == "functional" else results.get(batch)
            jrate = rate_of(batch, seconds, clock)
            if jrate is None:
                print(f"{label:>22}: jax not installed")
                break
            when = " just before" if label == "functional" else " above"
            versus = f"  {jrate / beside:5.2f}x numpy ({beside:,.0f}{when})" if beside else ""
            print(f"{label + ', batch ' + str(batch):>22}: {jrate:>12,.0f} steps/s  {jrate / pz:7.1f}x PettingZoo"
                  f"{versus}")
    pz_after = pettingzoo_rate(seconds, clock)
    print(f"{'PettingZoo (again)':>22}: {pz_after:>12,.0f} steps/s")
    if 1024 in results:
        r = results[1024]
        base = min(pz, pz_after)
        print(f"batch 1024: {r:,.0f} steps/s (target >= 1,000,000: {'met' if r >= 1e6 else 'NOT met'}); "
              f"{r / base:.0f}x PettingZoo (target >= 50x: {'met' if r / base >= 50 else 'NOT met'})")


if __name__ == "__main__":
    main()
