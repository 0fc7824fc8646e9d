"""The :class:`Agent` protocol, re-exported as :class:`heartslib.agents.Agent` (use that name).

It has a module of its own because the compiled build compiles ``agents``
but not this module: mypyc turns a ``Protocol`` into a plain class, which
``@runtime_checkable`` refuses, and ``isinstance(x, Agent)`` needs the real
protocol in both builds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from heartslib.actions import Action
from heartslib.observation import Observation

__all__ = ["Agent"]


@runtime_checkable
class Agent(Protocol):
    """What a player must provide: one method choosing among the legal actions.

    ``legal_actions`` is a sequence of :class:`~heartslib.Pass`,
    :class:`~heartslib.Play` or :class:`~heartslib.Choose` values, valid
    during the call. Optionally define ``setup(variant, seat)`` (called before
    each match) to learn the public rules; see :class:`~heartslib.agents.BaseAgent`.

    >>> import heartslib as hl
    >>> class FirstCard:
    ...     def act(self, observation, legal_actions):
    ...         return legal_actions[0]
    >>> isinstance(FirstCard(), hl.agents.Agent)
    True
    """

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions`` for ``observation.seat``."""
        ...
