"""Play a complete match between random legal players, printed hand by hand.

Usage: python examples/quickstart.py [PRESET] [SEED]

PRESET defaults to "standard" (see heartslib.preset_names()); SEED, a whole
number from 0 to 2**64 - 1, to 1.
"""

from __future__ import annotations

import random
import sys

import heartslib as hl
from heartslib.points import score_text  # "13i" for complex hearts' scores, "-10" for the others


def main(argv: list[str]) -> int:
    name = argv[1] if len(argv) > 1 else "standard"
    try:
        variant = hl.preset(name)
    except hl.UnknownVariant as exc:
        print(exc, file=sys.stderr)
        return 2
    text = argv[2] if len(argv) > 2 else "1"
    if not (text.isascii() and text.isdigit() and int(text) < 2**64):
        print(f"SEED must be a whole number from 0 to 2**64 - 1, not {text!r}", file=sys.stderr)
        return 2
    seed = int(text)
    print(variant.describe())
    print()
    match = hl.Match(variant, seed=seed)
    players = random.Random(seed)  # the random players' own choices, separate from the deal
    shown = 0
    while not match.is_over:
        seat = match.to_act[0]
        actions = match.legal_actions(seat)
        match.apply(players.choice(actions))
        for result in match.rounds[shown:]:
            passing = result.passing.name(variant.players) if isinstance(result.passing, hl.Offset) else (
                result.passing.value)
            note = ""
            if result.outcome.shooter is not None:
                note = f"  seat {result.outcome.shooter} shot the {result.outcome.kind} ({result.outcome.scoring})"
            points = " ".join(f"{score_text(p):>4}" for p in result.points)
            totals = " ".join(f"{score_text(t):>4}" for t in result.totals)
            print(f"hand {result.hand_number + 1:>2} (dealer {result.dealer}, pass {passing:<8}) "
                  f"points {points}   totals {totals}{note}")
        shown = len(match.rounds)
    # the winners are the match's to say: the lowest total in most games, the highest in Gong Zhu, the most
    # lives left in Danger Hearts, a whole team in Likha
    winners = ", ".join(f"seat {s} ({score_text(match.scores[s])} points)" for s in match.winners)
    print(f"\nThe match is over after {len(match.rounds)} hands. Winner{'s' if len(match.winners) > 1 else ''}: "
          f"{winners}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
