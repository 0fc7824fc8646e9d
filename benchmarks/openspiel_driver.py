"""OpenSpiel's C++ Hearts (PyPI ``open-spiel``) driven from Python, from a heartslib deal.

The reference researchers would otherwise use. The game is loaded with
``qs_breaks_hearts=False`` so its rules match heartslib's ``standard`` preset
during play (OpenSpiel's default lets Q♠ break hearts); every other default
already matches. The deal enters through OpenSpiel's chance nodes: the pass
direction outcome "No Pass", then the 52 cards in the order OpenSpiel deals
them (the k-th card dealt goes to player ``k % 4``; players 0-3 play in turn,
as heartslib's seats do clockwise), so play starts from exactly the hands
heartslib holds after its pass.

``import pyspiel`` happens inside :func:`load`, so this module imports
without ``open-spiel`` installed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

__all__ = ["available", "card_action", "load", "playout", "start"]

GAME_PARAMS = {"qs_breaks_hearts": False}


def available() -> str | None:
    """None when pyspiel imports, else the reason it does not."""
    try:
        import pyspiel  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        return f"open-spiel is not installed ({exc}); pip install -e '.[bench]'"
    return None


def load() -> Any:
    """OpenSpiel's Hearts game with heartslib's standard play rules."""
    import pyspiel

    return pyspiel.load_game("hearts", GAME_PARAMS)


def card_action(index: int) -> int:
    """OpenSpiel's action for a heartslib card index (OpenSpiel orders cards rank-major: 2♣ 2♦ 2♥ 2♠ 3♣ ...)."""
    return (index % 13) * 4 + index // 13


def start(game: Any, hands: Sequence[Sequence[int]]) -> Any:
    """The OpenSpiel state at the first play for four hands of heartslib card indices (after passing)."""
    state = game.new_initial_state()
    no_pass = next(a for a, _ in state.chance_outcomes() if state.action_to_string(a) == "No Pass")
    state.apply_action(no_pass)
    for i in range(13):
        for seat in range(4):
            state.apply_action(card_action(hands[seat][i]))
    if state.is_chance_node() or state.current_player() < 0:
        raise RuntimeError("the OpenSpiel state did not reach the play phase after the deal")
    return state


def playout(state: Any, rng: random.Random) -> list[float]:
    """Clone ``state`` and play uniformly random legal actions to the end; return OpenSpiel's returns.

    OpenSpiel's return for a seat is 26 minus its points. As in every case of
    the suite, a random number is drawn only when there is a choice.
    """
    rnd = rng.random
    s = state.clone()
    while not s.is_terminal():
        actions = s.legal_actions()
        n = len(actions)
        s.apply_action(actions[int(rnd() * n)] if n > 1 else actions[0])
    returns: list[float] = s.returns()
    return returns
