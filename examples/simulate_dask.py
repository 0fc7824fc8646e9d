"""Run heartslib.simulate on a Dask cluster: the same call, the same results, more machines.

Usage: python examples/simulate_dask.py [GAMES] [SCHEDULER_ADDRESS]

Needs Dask's distributed scheduler: pip install "heartslib[dask]" (from a
checkout: pip install -e ".[dask]"); without it the script prints the
missing module and that command on stderr and exits with status 2, so a
script can tell a skip from a run. Without SCHEDULER_ADDRESS it starts a local
cluster of two worker processes on this machine; give the address of a
running scheduler (e.g. tcp://10.0.0.5:8786) to use a real cluster, whose
workers need heartslib installed. The script checks that the cluster's
statistics equal those of the same games played in this process.
"""

from __future__ import annotations

import sys

import heartslib as hl
from heartslib.simulate import simulate

#: The exit status when Dask is not installed (1: the cluster's statistics differ).
MISSING_EXTRA = 2


def main(argv: list[str]) -> int:
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        # not a success: a script running the examples must be able to tell that this one did not run
        print(f"{type(exc).__name__}: {exc}\nthis example needs Dask: pip install 'heartslib[dask]' (from a "
              "checkout: pip install -e '.[dask]')", file=sys.stderr)
        return MISSING_EXTRA
    games = int(argv[1]) if len(argv) > 1 else 40
    variant = hl.preset("standard")
    agents = ["heuristic", "random", "random", "random"]
    if len(argv) > 2:
        client = Client(argv[2])
        cluster = None
    else:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                               host="127.0.0.1")
        client = Client(cluster)
    try:
        # client.get_executor() is a concurrent.futures.Executor: simulate splits the games into seeded chunks
        stats = simulate(variant, agents, games=games, seed=0, executor=client.get_executor())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    print(stats.table())
    same = stats == simulate(variant, agents, games=games, seed=0)
    print(f"\nidentical to the same {games} games played in this process: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
