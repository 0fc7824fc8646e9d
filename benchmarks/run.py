"""heartslib's benchmark suite: ``python benchmarks/run.py`` (``--quick`` for a short run).

Everything runs in one process. Each measured case is a function doing one
pass over a fixed workload; the cases of a table run interleaved (every
repetition runs each case once, in a rotating order) and the figure reported
is the median repetition. Before the repetitions each case is calibrated to
repeat its pass often enough to run for about ``--block`` seconds, so short
cases are not timer noise. The garbage collector stays on: allocation is part
of what a search loop pays.

Sections (``--only`` picks some):

- ``play``: play-phase playouts/s on the same post-pass standard deals:
  heartslib ``Round.random_playout``, heartslib's public ``legal_actions``/
  ``apply`` loop, OpenSpiel's C++ Hearts driven from Python, and the floor
  (``benchmarks/floor.py``). Every case copies the start state, then plays.
- ``copy``: ``Round.copy()`` of a mid-game round (OpenSpiel's ``clone()``
  beside it), and the memory of one ``Round`` (tracemalloc).
- ``variants``: ``random_playout`` rates for other presets, from their own
  post-pass deals.
- ``whole``: whole rounds (the deal, the pass and the play) beside the
  post-pass playout, the points-only ``Round.rollout_points``, and rounds of a
  match between four ``RandomAgent``s.
- ``observation``: ``Round.observation`` early (trick 0) and late (trick 12)
  in a hand.
- ``presets``: every preset's post-pass ``random_playout`` per card, beside
  standard's (each preset timed in a pair with standard; the median of the
  pairs' ratios).
- ``matches``: whole standard matches/s with ``heartslib.agents``, the
  ``simulate`` speed-up with two worker processes, and ``heartslib simulate``'s
  default job (one heuristic agent against three random ones).

The targets of issues 8 and 16 are printed at the end as ratios from this run.
``pip install -e '.[bench]'`` installs what the suite needs (OpenSpiel);
missing pieces are skipped with a message.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
import tomllib
import tracemalloc
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import floor
import openspiel_driver

import heartslib as hl

SECTIONS = ("play", "copy", "variants", "whole", "observation", "presets", "matches")
VARIANTS: dict[str, Callable[[], hl.Variant]] = {
    "omnibus": lambda: hl.preset("omnibus"),
    "spot_hearts": lambda: hl.preset("spot_hearts"),
    "double_deck_8": lambda: hl.preset("double_deck_8"),
    "cancellation": lambda: hl.preset("cancellation"),
    "standard, 3 players": lambda: hl.preset("standard").replace(players=3, passing={"schedule": "left_right"}),
}

Case = Callable[[], int]
"""One pass over a workload; returns how many units (playouts, copies, matches) it did."""


# ---------------------------------------------------------------------- deals


def to_play_phase(r: hl.Round, rng: random.Random) -> None:
    """Make the decisions before play at random: a dealer's choice, then each seat's pass.

    A pass is drawn directly from the passable cards (listing every pass
    would enumerate hundreds of combinations per seat).
    """
    forbidden = set(r.variant.passing.forbidden)
    while r.phase != hl.Phase.PLAY:
        if r.phase == hl.Phase.DECIDE:
            options = r.legal_actions()
            r.apply(options[int(rng.random() * len(options))])
        elif r.phase == hl.Phase.PASS:
            for seat in r.to_act:
                if r.variant.passing.keep_last_of_suit:  # a pass judged as a whole: one of the legal passes
                    passes = hl.agents.LazyActions(r, seat)
                    r.apply(passes[int(rng.random() * len(passes))])
                    continue
                passable = [c for c in r.hand(seat) if c not in forbidden]
                r.apply(hl.Pass(seat, tuple(rng.sample(passable, r.pass_count))))
        else:
            raise RuntimeError(f"cannot reach the play phase from {r!r}")


def post_pass_rounds(v: hl.Variant, count: int, seed: int) -> list[hl.Round]:
    """``count`` rounds at their first play: dealt by heartslib from seeds ``seed..``, passed at random.

    The hands after the pass are dealt again with ``Round.from_hands(...,
    passing=HOLD)``, so each round starts clean at the first play.
    """
    out = []
    for i in range(count):
        dealt = hl.Round.deal(v, seed=seed + i)
        to_play_phase(dealt, random.Random(seed + i))
        out.append(hl.Round.from_hands(v, dealt.hands, passing=hl.HOLD, kitty=dealt.kitty, dealer=dealt.dealer))
    return out


def hand_indices(r: hl.Round) -> list[list[int]]:
    """Each seat's hand as card indices."""
    return [[c.index for c in h] for h in r.hands]


def mid_game(r: hl.Round, plays: int, rng: random.Random) -> hl.Round:
    """A copy of ``r`` after ``plays`` random legal plays."""
    r = r.copy()
    for _ in range(plays):
        actions = r.legal_actions()
        r.apply(actions[int(rng.random() * len(actions))])
    return r


# ---------------------------------------------------------------------- cases


def heartslib_playouts(rounds: Sequence[hl.Round], seed: int) -> Case:
    """``copy()`` then ``random_playout`` on each round."""
    rng = random.Random(seed)

    def case() -> int:
        for r in rounds:
            r.copy().random_playout(rng)
        return len(rounds)

    return case


def heartslib_rollouts(rounds: Sequence[hl.Round], seed: int) -> Case:
    """``copy()`` then the search player's rollout policy to the end, in the engine's loop
    (``search.RolloutPolicy`` through ``Round.policy_playout``): the cost of a search rollout."""
    from heartslib.search import RolloutPolicy, RolloutTables

    rng = random.Random(seed)
    tables = RolloutTables(rounds[0].variant)

    def case() -> int:
        for r in rounds:
            r.copy().policy_playout(RolloutPolicy(tables, rng=rng), rng)
        return len(rounds)

    return case


def heartslib_api_loop(rounds: Sequence[Any], seed: int) -> Case:
    """``copy()`` then the public loop: ``legal_actions()`` and ``apply`` a uniform choice."""
    rng = random.Random(seed)
    rnd = rng.random

    def case() -> int:
        for r0 in rounds:
            r = r0.copy()
            while not r.is_over:
                actions = r.legal_actions()
                n = len(actions)
                r.apply(actions[int(rnd() * n)] if n > 1 else actions[0])
        return len(rounds)

    return case


class NullRound:
    """A stand-in with heartslib's play API that does nothing: 52 steps of three legal actions.

    Driven by the same loop as heartslib's public API, it measures the
    Python loop alone (method calls, the random draw), the part of any
    Python-driven engine's figure that the engine cannot remove.
    """

    __slots__ = ("left",)
    ACTIONS = (0, 1, 2)

    def __init__(self) -> None:
        self.left = 52

    def copy(self) -> NullRound:
        return NullRound()

    @property
    def is_over(self) -> bool:
        return self.left == 0

    def legal_actions(self) -> list[int]:
        return list(self.ACTIONS)

    def apply(self, action: int) -> None:
        self.left -= 1


def openspiel_playouts(states: Sequence[Any], seed: int) -> Case:
    """OpenSpiel: ``clone()`` then ``legal_actions``/``apply_action`` to the end."""
    rng = random.Random(seed)
    play = openspiel_driver.playout

    def case() -> int:
        for s in states:
            play(s, rng)
        return len(states)

    return case


def floor_playouts(deals: Sequence[floor.Deal], seed: int) -> Case:
    """The floor's playout (it copies its deal first)."""
    rng = random.Random(seed)
    play = floor.playout

    def case() -> int:
        for d in deals:
            play(d, rng)
        return len(deals)

    return case


def repeat_case(fn: Callable[[], object], times: int) -> Case:
    """Call ``fn`` ``times`` times (for operations too quick to time one at a time)."""

    def case() -> int:
        for _ in range(times):
            fn()
        return times

    return case


# ---------------------------------------------------------------------- timing


#: The clock of every table but simulate's (``--clock cpu`` switches to this process's CPU time).
CLOCK: Callable[[], float] = time.perf_counter


def measure(cases: dict[str, Case], reps: int, block: float, clock: Callable[[], float] | None = None,
            ) -> dict[str, dict[str, Any]]:
    """Rates (units/s) of interleaved cases: the median repetition, and the slowest and fastest."""
    clock = clock or CLOCK
    inner: dict[str, int] = {}
    for name, case in cases.items():
        case()  # warm up (first calls fill caches)
        t0 = clock()
        case()
        once = clock() - t0
        inner[name] = max(1, round(block / max(once, 1e-9)))
    rates: dict[str, list[float]] = {name: [] for name in cases}
    names = list(cases)
    for rep in range(reps):
        order = names[rep % len(names) :] + names[: rep % len(names)]
        for name in order:
            case = cases[name]
            units = 0
            t0 = clock()
            for _ in range(inner[name]):
                units += case()
            rates[name].append(units / (clock() - t0))
    return {
        name: {"median": statistics.median(r), "min": min(r), "max": max(r), "reps": len(r), "rates": r}
        for name, r in rates.items()
    }


def print_rates(title: str, result: dict[str, dict[str, Any]], unit: str, per: int | None = None) -> None:
    print(f"\n{title}")
    width = max(len(name) for name in result)
    for name, r in result.items():
        us = 1e6 / r["median"]
        each = f"{us:>9.2f} µs" if us < 10_000 else f"{us / 1000:>9.1f} ms"
        line = f"  {name:<{width}}  {r['median']:>12,.0f} {unit}/s  {each} each"
        if per:
            line += f"  {us / per:6.3f} µs/card"
        spread = (r["max"] - r["min"]) / r["median"] * 100
        line += f"   (spread {spread:.0f}% over {r['reps']})"
        print(line)


# ---------------------------------------------------------------------- sections


def section_play(args: argparse.Namespace, out: dict[str, Any]) -> None:
    v = hl.preset("standard")
    rounds = post_pass_rounds(v, args.deals, args.seed)
    cases: dict[str, Case] = {
        "heartslib random_playout": heartslib_playouts(rounds, args.seed),
        "heartslib legal_actions/apply": heartslib_api_loop(rounds, args.seed),
        "heartslib search rollout (policy playout)": heartslib_rollouts(rounds, args.seed),
    }
    missing = openspiel_driver.available()
    if missing is None:
        game = openspiel_driver.load()
        states = [openspiel_driver.start(game, hand_indices(r)) for r in rounds]
        cases["OpenSpiel (C++) from Python"] = openspiel_playouts(states, args.seed)
    else:
        print(f"\n[skipped OpenSpiel: {missing}]")
    cases["floor (pure Python, one rule set)"] = floor_playouts(
        [floor.prepare(hand_indices(r)) for r in rounds], args.seed
    )
    cases["null engine (the Python loop alone)"] = heartslib_api_loop([NullRound() for _ in rounds], args.seed)
    result = measure(cases, args.reps, args.block)
    print_rates(f"Play-phase playouts of {len(rounds)} post-pass standard deals (copy + play 52 cards)",
                result, "playouts", per=52)
    out["play"] = result


def section_copy(args: argparse.Namespace, out: dict[str, Any]) -> None:
    v = hl.preset("standard")
    start = post_pass_rounds(v, 1, args.seed)[0]
    mid = mid_game(start, 26, random.Random(args.seed))
    cases: dict[str, Case] = {"heartslib Round.copy() (mid-game)": repeat_case(mid.copy, 1000)}
    if openspiel_driver.available() is None:
        state = openspiel_driver.start(openspiel_driver.load(), hand_indices(start))
        for move in mid.events:
            if isinstance(move, hl.Play):
                state.apply_action(openspiel_driver.card_action(move.card.index))
        cases["OpenSpiel state.clone() (mid-game)"] = repeat_case(state.clone, 1000)
    result = measure(cases, args.reps, args.block)
    print_rates("Copying a round after 26 of 52 plays", result, "copies")
    out["copy"] = result

    fresh_bytes = allocated(lambda: hl.Round.from_hands(v, start.hands, passing=hl.HOLD))
    copy_bytes = allocated(mid.copy)
    print("\nMemory of one Round (tracemalloc, mean of 100)")
    print(f"  a new Round at the first play (from_hands; its own random.Random)  {fresh_bytes:>7,.0f} bytes")
    print(f"  a copy() of the mid-game round (shares variant, rules, RNG)       {copy_bytes:>7,.0f} bytes")
    out["memory"] = {"fresh_round_bytes": fresh_bytes, "mid_game_copy_bytes": copy_bytes}


def allocated(make: Callable[[], object], count: int = 100) -> float:
    """Bytes allocated and still held per object made by ``make`` (tracemalloc, mean of ``count``)."""
    keep: list[object] = [None] * count
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(count):
            keep[i] = make()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / count


def section_variants(args: argparse.Namespace, out: dict[str, Any]) -> None:
    cases: dict[str, Case] = {}
    for name, make in VARIANTS.items():
        rounds = post_pass_rounds(make(), args.variant_deals, args.seed)
        cases[name] = heartslib_playouts(rounds, args.seed)
    result = measure(cases, args.reps, args.block)
    print_rates(f"heartslib random_playout on other variants ({args.variant_deals} post-pass deals each)",
                result, "playouts")
    out["variants"] = result


def section_whole(args: argparse.Namespace, out: dict[str, Any]) -> None:
    v = hl.preset("standard")
    count: int = max(20, args.deals // 4)
    rounds = post_pass_rounds(v, count, args.seed)
    seeds = list(range(args.seed, args.seed + count))
    rng = random.Random(args.seed)

    def whole() -> int:
        for seed in seeds:
            hl.Round.deal(v, seed=seed).random_playout(rng)
        return count

    def rollouts() -> int:
        for r in rounds:
            r.rollout_points(rng)
        return count

    cases: dict[str, Case] = {
        "post-pass playout (copy + random_playout)": heartslib_playouts(rounds, args.seed),
        "whole round (deal, pass, play)": whole,
        "points-only rollout (Round.rollout_points)": rollouts,
    }
    try:
        from heartslib import agents
    except ImportError:
        agents = None  # type: ignore[assignment]
    if agents is not None:
        matches = max(1, int(args.matches) // 2)

        class ThroughAct(agents.RandomAgent):
            """A subclass: play_match drives it through act() with observations, as any agent of a user's."""

        def agent_rounds(make: Callable[[int], Any] = agents.RandomAgent) -> int:
            played = 0
            for g in range(matches):
                m = agents.play_match(v, [make(args.seed + 4 * g + s) for s in range(4)], seed=args.seed + g)
                played += len(m.rounds)
            return played

        cases["a round of a match between 4 x RandomAgent"] = agent_rounds
        cases["the same through act() (a RandomAgent subclass)"] = lambda: agent_rounds(ThroughAct)
    result = measure(cases, args.reps, args.block)
    print_rates("Whole rounds of the standard game", result, "rounds")
    out["whole"] = result


def section_observation(args: argparse.Namespace, out: dict[str, Any]) -> None:
    v = hl.preset("standard")
    start = post_pass_rounds(v, 1, args.seed)[0]
    early = start.copy()
    late = mid_game(start, 48, random.Random(args.seed))  # 12 tricks done
    cases: dict[str, Case] = {
        "observation() at trick 0": repeat_case(lambda: early.observation(0), 200),
        "observation() at trick 12": repeat_case(lambda: late.observation(0), 200),
    }
    result = measure(cases, args.reps, args.block)
    print_rates("Round.observation early and late in a hand", result, "observations")
    out["observation"] = result


def section_presets(args: argparse.Namespace, out: dict[str, Any]) -> None:
    # Each preset is timed in a pair with standard, the two interleaved at half the block: the ratio of each
    # repetition compares runs a fraction of a second apart, and the figure is the median of those ratios.
    # Timing the 25 presets in one table put seconds between standard and a preset, and a noisy machine's
    # speed drifts over seconds (ratios of medians 30% off the instruction counts' ratios).
    rounds = {name: post_pass_rounds(hl.preset(name), max(10, args.variant_deals // 2), args.seed)
              for name in hl.preset_names()}
    cards = {name: sum(len(h) for h in r[0].hands) for name, r in rounds.items()}
    standard = heartslib_playouts(rounds["standard"], args.seed)
    result: dict[str, dict[str, Any]] = {}
    ratios: dict[str, float] = {"standard": 1.0}
    baseline: list[float] = []
    for name in rounds:
        if name == "standard":
            continue
        pair = measure({"standard": standard, name: heartslib_playouts(rounds[name], args.seed)}, args.reps,
                       args.block / 2)
        result[name] = pair[name]
        baseline += pair["standard"]["rates"]
        ratios[name] = statistics.median(
            s * cards["standard"] / (p * cards[name])
            for s, p in zip(pair["standard"]["rates"], pair[name]["rates"], strict=True))
    result = {"standard": {"median": statistics.median(baseline), "min": min(baseline), "max": max(baseline),
                           "reps": len(baseline), "rates": baseline}, **result}
    print_rates("Every preset's post-pass random_playout (each timed in a pair with standard)", result, "playouts")
    print("\n  per card, against standard's (the median of the pairs' ratios):")
    for name in result:
        print(f"  {name:<22} {ratios[name]:5.2f}x standard's cost per card")
    out["presets"] = {name: {**r, "cards": cards[name], "per_card": ratios[name]} for name, r in result.items()}


def section_matches(args: argparse.Namespace, out: dict[str, Any]) -> None:
    v = hl.preset("standard")
    try:
        from heartslib import agents
    except ImportError as exc:
        print(f"\n[skipped matches and simulate: heartslib.agents is not available ({exc})]")
        return
    matches = int(args.matches)
    cases: dict[str, Case] = {}
    for name, make in (("4 x RandomAgent", agents.RandomAgent), ("4 x HeuristicAgent", agents.HeuristicAgent)):
        def case(make: Callable[[int], Any] = make) -> int:
            for g in range(matches):
                agents.play_match(v, [make(args.seed + 4 * g + seat) for seat in range(4)], seed=args.seed + g)
            return matches

        cases[name] = case
    result = measure(cases, args.reps, args.block)
    print_rates(f"Whole standard matches to 100 (heartslib.agents.play_match, {matches} per pass)", result, "matches")
    out["matches"] = result

    simulate = _simulate_function()
    if simulate is None:
        print("\n[skipped simulate: heartslib.simulate is not available]")
        return
    games = int(args.sim_games)
    with ProcessPoolExecutor(max_workers=1) as one, ProcessPoolExecutor(max_workers=2) as two:
        list(one.map(abs, range(4)))  # start the workers before timing
        list(two.map(abs, range(4)))
        sim_cases: dict[str, Case] = {}
        for label, executor in (("in this process (executor=None)", None), ("1 worker process", one),
                                ("2 worker processes", two)):
            def sim_case(executor: Any = executor) -> int:
                simulate(v, "heuristic", games=games, seed=args.seed, executor=executor)
                return games

            sim_cases["simulate, " + label] = sim_case
        def default_job() -> int:
            simulate(v, ["heuristic", "random", "random", "random"], games=games, seed=args.seed)
            return games

        sim_cases["simulate's default job (heuristic vs 3 random), in this process"] = default_job
        # one pass is already long: no calibration repeats
        sim = measure(sim_cases, args.reps, 0.0, clock=time.perf_counter)  # the workers' time is the point
    print_rates(f"simulate({games} standard matches, 4 x HeuristicAgent)", sim, "matches")
    out["simulate"] = sim


def _simulate_function() -> Callable[..., Any] | None:
    """heartslib's ``simulate`` function, if this version has one."""
    try:
        from heartslib.simulate import simulate
    except ImportError:
        candidate = getattr(hl, "simulate", None)
        return candidate if callable(candidate) else None
    return simulate


# ---------------------------------------------------------------------- targets


def targets(out: dict[str, Any]) -> list[tuple[str, float, float, str]]:
    """(target, measured, required, comparison) for every target the run has figures for (issues 8 and 16;
    the thresholds of issue 16 for random_playout and the public loop depend on the build)."""
    rows: list[tuple[str, float, float, str]] = []
    play = out.get("play", {})
    compiled = bool(getattr(hl, "COMPILED", False))

    def rate(table: dict[str, Any], name: str) -> float | None:
        r = table.get(name)
        return None if r is None else float(r["median"])

    fast, api = rate(play, "heartslib random_playout"), rate(play, "heartslib legal_actions/apply")
    ospiel, flo = rate(play, "OpenSpiel (C++) from Python"), rate(play, "floor (pure Python, one rule set)")
    if fast and ospiel:
        rows.append(("random_playout / OpenSpiel", fast / ospiel, 3.0 if compiled else 1.6, ">="))
    if fast and flo:
        rows.append(("random_playout / floor", fast / flo, 0.8, ">="))
    if api and ospiel:
        rows.append(("legal_actions/apply loop / OpenSpiel", api / ospiel, 1.0 if compiled else 0.7, ">="))
    rollout = rate(play, "heartslib search rollout (policy playout)")
    if fast and rollout:
        # issue 32: a policy rollout card costs at most twice a random_playout card
        rows.append(("rollout card / random_playout card", fast / rollout, 2.0, "<="))
    copy = out.get("copy", {}).get("heartslib Round.copy() (mid-game)")
    if copy:
        rows.append(("Round.copy() time (µs)", 1e6 / copy["median"], 3.0, "<"))
    whole = out.get("whole", {})
    post, full = rate(whole, "post-pass playout (copy + random_playout)"), rate(whole, "whole round (deal, pass, play)")
    agent = rate(whole, "a round of a match between 4 x RandomAgent")
    if post and full:
        rows.append(("whole-round playout / post-pass playout (time)", post / full, 3.0, "<="))
    if full and agent:
        rows.append(("RandomAgent match round / whole-round playout (time)", full / agent, 4.0, "<="))
    obs = out.get("observation", {})
    early, late = rate(obs, "observation() at trick 0"), rate(obs, "observation() at trick 12")
    if early and late:
        rows.append(("observation() at trick 12 / at trick 0 (time)", early / late, 1.5, "<="))
    presets = out.get("presets")
    if presets:
        worst = max(presets, key=lambda name: float(presets[name]["per_card"]))
        rows.append((f"slowest preset per card / standard ({worst})", float(presets[worst]["per_card"]), 2.0,
                     "<="))
    sim = out.get("simulate")
    if sim:
        speedup = sim["simulate, 2 worker processes"]["median"] / sim["simulate, 1 worker process"]["median"]
        rows.append(("simulate speed-up, 2 workers vs 1", speedup, 1.7, ">="))
    return rows


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "unknown"
    compiled = bool(getattr(hl, "COMPILED", False))
    versions = {
        "heartslib": hl.__version__ + _git_revision(),
        "build": "compiled (mypyc)" if compiled else "pure Python",
    }
    try:
        from importlib.metadata import version

        versions["open-spiel"] = version("open-spiel")
    except Exception:
        versions["open-spiel"] = "not installed"
    return {
        "cpus": str(os.cpu_count()),
        "cpu": cpu,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        **versions,
    }


def _git_revision() -> str:
    """`` (commit abc1234)`` when run from a git checkout, with ``+changes`` if the tree is dirty."""
    root = Path(__file__).resolve().parent.parent
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                             timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=root, capture_output=True,
                               text=True, timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return f" (commit {rev}{'+changes' if dirty else ''})" if rev else ""


ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = Path(__file__).resolve().parent / ".build"


def compile_sources() -> Path:
    """Compile a private copy of ``src/heartslib`` with mypyc, as the optional compiled build does.

    The modules are the ones ``pyproject.toml`` gives the build hook, so this
    measures what ``HATCH_BUILD_HOOK_ENABLE_MYPYC=true pip install .`` installs.
    Returns the directory to put first on ``sys.path`` (``benchmarks/.build``).
    """
    hook = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]
    modules = [m.removeprefix("src/") for m in hook["hooks"]["mypyc"]["include"]]
    shutil.rmtree(BUILD_DIR, ignore_errors=True)
    shutil.copytree(ROOT / "src" / "heartslib", BUILD_DIR / "heartslib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    print(f"compiling {', '.join(modules)} with mypyc into {BUILD_DIR} ...", flush=True)
    done = subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=BUILD_DIR, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit("mypyc failed (it needs the bench extra's mypy and a C compiler):\n"
                         + done.stdout + done.stderr)
    return BUILD_DIR


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer deals, repetitions and matches (~20 s)")
    parser.add_argument("--deals", type=int, help="standard post-pass deals (default 200)")
    parser.add_argument("--variant-deals", type=int, help="post-pass deals per other variant (default 50)")
    parser.add_argument("--reps", type=int, help="interleaved repetitions per table (default 7)")
    parser.add_argument("--block", type=float, help="seconds each case runs per repetition (default 0.3)")
    parser.add_argument("--matches", type=int, help="matches per timed pass (default 10)")
    parser.add_argument("--sim-games", type=int, help="matches per simulate call (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    parser.add_argument("--only", action="append", choices=SECTIONS, help="run only this section (repeatable)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time (default), or this process's CPU time, steadier on a busy machine "
                        "(simulate always uses wall time)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--build", choices=("installed", "compiled"), default="installed",
                        help="measure the installed heartslib (default), or compile the sources with mypyc first "
                        "and measure that build (the optional compiled build; needs a C compiler)")
    args = parser.parse_args(argv)
    if args.build == "compiled":
        path = compile_sources()
        # the same options in a fresh interpreter that imports the compiled copy (the last --build wins)
        rest = [*(sys.argv[1:] if argv is None else argv), "--build", "installed"]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), os.environ.get("PYTHONPATH", "")]),
               "HEARTSLIB_BENCH_COMPILED": "1"}
        return subprocess.run([sys.executable, __file__, *rest], env=env).returncode
    if os.environ.get("HEARTSLIB_BENCH_COMPILED") == "1" and not getattr(hl, "COMPILED", False):
        raise SystemExit(f"expected the compiled copy in {BUILD_DIR}, but imported {hl.__file__}")
    quick = args.quick
    defaults = {"deals": 200, "variant_deals": 20 if quick else 50, "reps": 3 if quick else 7,
                "block": 0.1 if quick else 0.3, "matches": 2 if quick else 10, "sim_games": 8 if quick else 40}
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)

    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    info = machine()
    print("heartslib benchmarks — " + ", ".join(f"{k}: {v}" for k, v in info.items()))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if load > 0.5 * (os.cpu_count() or 1):
        print(f"warning: load average {load:.1f} on {os.cpu_count()} CPUs; other work will make the figures noisy")
    info["load average at start"] = f"{load:.2f}"
    if info["build"] == "pure Python":
        print("note: this is the pure-Python build; `--build compiled` measures the optional compiled build "
              "(about 3x faster in the play phase; see docs/performance.md)")
    print(f"deals {args.deals}, repetitions {args.reps} (interleaved, median), block {args.block} s, "
          f"clock: {'CPU time of this process' if args.clock == 'cpu' else 'wall time'}")
    out: dict[str, Any] = {"machine": info, "args": {k: str(v) for k, v in vars(args).items()}}
    for name in args.only or SECTIONS:
        {"play": section_play, "copy": section_copy, "variants": section_variants, "whole": section_whole,
         "observation": section_observation, "presets": section_presets,
         "matches": section_matches}[name](args, out)

    rows = targets(out)
    if rows:
        print("\nTargets (issues 8, 16 and 32), from this run")
        for label, measured, required, op in rows:
            ok = measured >= required if op == ">=" else measured <= required if op == "<=" else measured < required
            shown = f"{measured:.2f}" + ("x" if "µs" not in label else " µs")
            print(f"  {label:<40} {shown:>10}   target {op} {required:g}   {'met' if ok else 'NOT MET'}")
        out["targets"] = [
            {"target": label, "measured": measured, "required": required, "op": op} for label, measured, required, op
            in rows
        ]
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
