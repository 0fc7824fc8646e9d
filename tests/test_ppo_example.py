"""examples/ppo_jax.py, the PPO example on the functional jax core: a smoke test on a tiny budget.

It runs the example's command line for two iterations of a tiny batch and network (most of the time is jax
compiling the iteration), then checks that the curve and the figures it writes are well formed and that the
trained network, wrapped as an agent, plays legal actions through the engine (``Round.apply`` raises on an
illegal one) in every seat and every pass of the schedule. That the agent's numpy forward pass reads the
observation the network was trained on is the functional core's own guarantee (``Game.observe`` equals
``Encoding``'s vector, held by tests/test_vector_functional.py). The training's quality is not tested: the
figures in docs/tutorials/ppo.md come from the full run.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from xml.etree import ElementTree

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax", reason="examples/ppo_jax.py needs the 'jax' extra (pip install -e '.[jax]')")

import heartslib as hl  # noqa: E402
from heartslib.agents import RandomAgent  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ppo_jax.py"


@pytest.fixture(scope="module")
def ppo() -> ModuleType:
    """The example, imported from its file (examples/ is not a package)."""
    spec = importlib.util.spec_from_file_location("ppo_jax_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def run(ppo: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, Any], Path]]:
    """The example's command line on a tiny budget: its returned figures and its output folder.

    Most of the time is XLA compiling the training iteration (one step of the game, the network, its
    gradient): with XLA's optimisations off it compiles in about 6 CPU seconds instead of 10, and a few
    iterations of 8 games run as well unoptimised (the setting is put back afterwards)."""
    out = tmp_path_factory.mktemp("ppo")
    before = jax.config.read("jax_disable_most_optimizations")
    jax.config.update("jax_disable_most_optimizations", True)
    try:
        figures = ppo.main(["--iterations", "2", "--batch", "8", "--horizon", "4", "--hidden", "8",
                            "--eval-hands", "2", "--out", str(out)])
    finally:
        jax.config.update("jax_disable_most_optimizations", before)
    yield figures, out


def test_the_figures_and_the_curve_are_written_well_formed(run: tuple[dict[str, Any], Path]) -> None:
    figures, out = run
    written = json.loads((out / "ppo-curve.json").read_text())
    curve = written["curve"]  # one list per field, an entry per iteration
    assert written["iterations"] == 2 and curve["iteration"] == [1, 2]
    assert written["learner_decisions"] == 2 * 8 * 4 and curve["decisions"] == [32, 64]
    assert all(cpu > 0 for cpu in curve["cpu_s"])
    assert all(p is None or 0 <= p <= 26 for p in curve["points_per_hand"])
    for table in ("vs_random", "vs_heuristic"):
        row = written[table]
        for seat0 in ("learner", "random", "heuristic"):
            assert 0 <= row[seat0] <= 26  # seat 0's own points per hand in the standard game (a moon: 0 or 26)
        assert math.isclose(row["learner_gain_over_random"], row["random"] - row["learner"], abs_tol=1e-9)
    assert written["train_cpu_minutes"] > 0
    assert written["vs_random"] == figures["vs_random"]
    svg = ElementTree.fromstring((out / "ppo-curve.svg").read_text())
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.find("{http://www.w3.org/2000/svg}polyline") is not None


def test_the_wrapped_network_plays_legal_actions_through_the_engine(ppo: ModuleType,
                                                                    run: tuple[dict[str, Any], Path]) -> None:
    variant = hl.preset("standard")
    params = {name: np.asarray(value) for name, value in
              ppo.init_params(jax.random.PRNGKey(3), 706, 55, 8).items()}
    agent = ppo.PolicyAgent(params, variant)
    # every seat, and every pass of the schedule (left, right, across, hold: the seeds cycle them)
    for seed in range(4):
        for seat in range(4):
            agents = [RandomAgent(seed=seed * 4 + s) for s in range(4)]
            agents[seat] = agent
            points = ppo.play_hand(variant, agents, seed)  # Round.apply raises IllegalAction on an illegal one
            assert sum(points) in (26, 78)  # every point taken once, or a moon (26 to each other seat)

