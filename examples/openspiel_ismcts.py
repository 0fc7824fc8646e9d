"""Information-set MCTS on heartslib's OpenSpiel game (needs the ``openspiel`` extra).

Seat 0 is OpenSpiel's Python ISMCTS bot; it samples the hidden cards with
the game's ``resample_from_infostate``. The other seats play uniformly at
random. (OpenSpiel's C++ MCTS bots crash on Python-implemented games in
open-spiel 2.0.2; use the Python ``open_spiel.python.algorithms`` bots.)

Run::

    pip install 'heartslib[openspiel]'      # from a checkout: pip install -e '.[openspiel]'
    python examples/openspiel_ismcts.py [VARIANT] [ROUNDS] [SIMULATIONS]

e.g. ``python examples/openspiel_ismcts.py omnibus 10 100``. Without the
extra it prints the missing module and the install command on stderr and
exits with status 2, so a script can tell a skip from a run.
"""

from __future__ import annotations

import random
import sys

try:
    import numpy as np
    import pyspiel  # noqa: F401 - only to say which extra is missing
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as exc:
    # not a success: a script running the examples must be able to tell that this one did not run
    print(f"{type(exc).__name__}: {exc}\nthis example needs the 'openspiel' extra: pip install "
          "'heartslib[openspiel]' (from a checkout: pip install -e '.[openspiel]')", file=sys.stderr)
    sys.exit(2)

from heartslib.adapters import openspiel


def main(variant: str = "standard", rounds: int = 2, simulations: int = 20) -> None:
    totals: list[float] = []
    rng = random.Random(0)
    for hand_number in range(rounds):
        # one round per episode; hand_number walks through the passing schedule
        game = openspiel.load_game(variant, hand_number=hand_number, dealer=hand_number % 4)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=np.random.RandomState(hand_number))
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(hand_number))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        totals.append(returns[0])
        print(f"round {hand_number + 1}: returns {' '.join(f'{r:+g}' for r in returns)} (ISMCTS is seat 0)")
    print(f"ISMCTS ({simulations} simulations a move) averaged {sum(totals) / len(totals):+.2f} over {rounds} rounds")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "standard", int(args[1]) if len(args) > 1 else 2, int(args[2]) if len(args) > 2 else 20)
