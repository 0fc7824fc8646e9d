"""Run heartslib.simulate on Ray: a ten-line Executor adapter, then the same call.

Usage: python examples/simulate_ray.py [GAMES] [RAY_ADDRESS]

Needs Ray: pip install ray; without it the script prints the missing
module and that command on stderr and exits with status 2, so a script can
tell a skip from a run. Without RAY_ADDRESS it starts Ray on this
machine with two CPUs; give an address ("auto" inside a cluster, or
ray://head:10001) to use a running cluster, whose workers need heartslib
installed. The script checks that Ray's statistics equal those of the same
games played in this process.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import heartslib as hl
from heartslib.simulate import simulate

#: The exit status when Ray is not installed (1: Ray's statistics differ).
MISSING_EXTRA = 2


class RayExecutor(Executor):
    """A concurrent.futures.Executor whose tasks are Ray tasks (what simulate needs: submit)."""

    def __init__(self) -> None:
        self._remote: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        import ray

        if fn not in self._remote:
            self._remote[fn] = ray.remote(fn)
        # an ObjectRef can hand out a concurrent.futures.Future, which simulate waits on
        future: Future[Any] = self._remote[fn].remote(*args, **kwargs).future()
        return future


def main(argv: list[str]) -> int:
    try:
        import ray
    except ImportError as exc:
        # not a success: a script running the examples must be able to tell that this one did not run
        print(f"{type(exc).__name__}: {exc}\nthis example needs Ray: pip install ray", file=sys.stderr)
        return MISSING_EXTRA
    games = int(argv[1]) if len(argv) > 1 else 40
    variant = hl.preset("standard")
    agents = ["heuristic", "random", "random", "random"]
    if len(argv) > 2:
        ray.init(address=argv[2])
    else:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    try:
        stats = simulate(variant, agents, games=games, seed=0, executor=RayExecutor())
    finally:
        ray.shutdown()
    print(stats.table())
    same = stats == simulate(variant, agents, games=games, seed=0)
    print(f"\nidentical to the same {games} games played in this process: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
