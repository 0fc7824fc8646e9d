"""Instructions per post-pass `random_playout`, counted by valgrind's cachegrind (steady where the clock is not).

Runs this script twice under ``valgrind --tool=cachegrind``, once dealing and copying the rounds only and once
also playing them out, and prints the difference per playout (copy included), for each preset asked::

    python benchmarks/instructions.py standard black_jack
    python benchmarks/instructions.py --src /tmp/old/src standard     # another checkout's sources, pure
    /path/to/compiled/venv/bin/python benchmarks/instructions.py standard   # that interpreter's heartslib
    python benchmarks/instructions.py --api standard        # the public legal_actions/apply loop instead
    python benchmarks/instructions.py --rollout standard    # the search player's rollout (policy playout)
    python benchmarks/instructions.py --general standard    # card by card: what the public API and rollouts run

Set ``PYTHONHASHSEED`` (the script does: 0) so that both runs hash alike; repeated runs of the same build still
differ by a few thousand instructions a playout pure. Needs valgrind on the PATH.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _play(preset: str, deals: int, passes: int, play: bool, api: bool, rollout: bool = False,
          general: bool = False) -> None:
    """Deal ``deals`` post-pass rounds of ``preset``; copy each ``passes`` times, playing the copies out if
    ``play`` (by ``random_playout``, with ``api`` by the public ``legal_actions``/``apply`` loop, with ``rollout``
    by the search player's rollout policy in the engine's loop, with ``general`` by ``random_playout`` on the
    general path alone: what a random playout would cost without the fast loop)."""
    sys.path.insert(0, str(HERE))
    from run import heartslib_api_loop, heartslib_rollouts, post_pass_rounds

    import heartslib as hl
    from heartslib.engine.playout import random_playout
    card_by_card = getattr(__import__("heartslib.engine.playout", fromlist=["x"]), "card_by_card", None)
    from heartslib.round import engine_state

    rounds = post_pass_rounds(hl.preset(preset), deals, 1)
    if api or rollout:
        loop = heartslib_rollouts(rounds, 5) if rollout else heartslib_api_loop(rounds, 5)
        for _ in range(passes):
            if play:
                loop()
            else:
                for r in rounds:
                    r.copy()
        return
    states = [engine_state(r) for r in rounds]
    rng = random.Random(5)
    for _ in range(passes):
        for s in states:
            c = s.copy()
            if play:
                if general and card_by_card is None:
                    random_playout(c, rng, False)  # before issue 49: its general path alone
                elif general:
                    card_by_card(c, rng)
                else:
                    random_playout(c, rng)


def _count(args: argparse.Namespace, preset: str, play: bool) -> int:
    """The instructions of one child run under cachegrind."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--child", "--deals", str(args.deals), "--passes", str(args.passes)]
    if args.src:
        cmd += ["--src", args.src]
    if args.api:
        cmd += ["--api"]
    if args.rollout:
        cmd += ["--rollout"]
    if args.general:
        cmd += ["--general"]
    cmd += ["--play" if play else "--deal-only", preset]
    env = {**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("presets", nargs="*", default=["standard"], help="presets (default standard)")
    parser.add_argument("--deals", type=int, default=200, help="post-pass deals (default 200)")
    parser.add_argument("--passes", type=int, default=10, help="times each deal is copied and played (default 10)")
    parser.add_argument("--src", help="import heartslib from this source directory instead of the installed one")
    parser.add_argument("--api", action="store_true",
                        help="play by the public legal_actions/apply loop (copy included) instead of random_playout")
    parser.add_argument("--rollout", action="store_true",
                        help="play by the search player's rollout policy (search.RolloutPolicy, copy included)")
    parser.add_argument("--general", action="store_true",
                        help="card by card (playout.card_by_card; before issue 49 random_playout(fast=False)): "
                             "the path the public API and rollouts run on")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    mode.add_argument("--deal-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    if args.child:
        _play(args.presets[0], args.deals, args.passes, args.play, args.api, args.rollout, args.general)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing measured")
        return 1
    playouts = args.deals * args.passes
    for preset in args.presets:
        extra = _count(args, preset, True) - _count(args, preset, False)
        how = ("public-loop playout" if args.api else "rollout" if args.rollout else
               "general-path playout" if args.general else "playout")
        print(f"{preset:<24} {extra / playouts / 1000:8.1f}k instructions a {how} ({playouts} playouts)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
