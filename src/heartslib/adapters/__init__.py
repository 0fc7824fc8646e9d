"""Adapters that put any heartslib variant inside the game-AI ecosystem.

- :mod:`heartslib.adapters.encoding`: the observation vector and the
  action indices both adapters share (pure Python, no extra needed).
- :mod:`heartslib.adapters.pettingzoo`: PettingZoo AEC environments
  (``pip install 'heartslib[pettingzoo]'``).
- :mod:`heartslib.adapters.openspiel`: the OpenSpiel game
  ``python_heartslib`` (``pip install 'heartslib[openspiel]'``).

Importing this package never needs the extras; the adapter modules raise
an :class:`ImportError` naming the extra only when an environment or game
is built without it.

>>> from heartslib.adapters import Encoding
>>> import heartslib as hl
>>> Encoding(hl.preset("standard")).num_actions
55
"""

from heartslib.adapters.encoding import (
    CARD_ACTIONS,
    Encoding,
    Turns,
    resolve_variant,
    table_text,
)

__all__ = ["CARD_ACTIONS", "Encoding", "Turns", "resolve_variant", "table_text"]
