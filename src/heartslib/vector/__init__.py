"""A functional, batched environment over numpy arrays: thousands of hands stepped at once.

>>> import numpy as np
>>> import heartslib as hl
>>> from heartslib.vector import Env
>>> env = Env(hl.preset("standard"))
>>> state = env.init(np.arange(8))
>>> state.legal_action_mask.shape, state.observation.shape
((8, 55), (8, 706))
>>> rng = np.random.default_rng(0)
>>> while not state.terminated.all():
...     state = env.step(state, env.random_actions(state, rng))
>>> env.to_round(state, 3).phase.value
'over'

``heartslib.vector`` needs numpy (the ``vector`` extra); ``import heartslib``
never imports it. ``Env(variant, backend="jax")`` runs the same environment
on jax (the ``jax`` extra; :mod:`heartslib.vector.jaxenv`), both backends
reading the rules from :mod:`heartslib.vector.kernel`; :mod:`heartslib.vector.functional` gives the same
game as pure, jittable jax functions (``init``, ``step``, ``observe``, ``legal_action_mask``: whole
rollouts on the device, under ``jit``, ``vmap`` and ``lax.scan``). Which variants it plays:
:mod:`heartslib.vector.support`.
On top of it, :mod:`heartslib.vector.gym` (a Gymnasium vector environment for
one learner seat) and :mod:`heartslib.vector.selfplay` (a PettingZoo-style
batch wrapper for self-play) need the ``gymnasium`` extra. See
``docs/vector.md`` for the encoding, the action ids, the supported variants
and the figures.
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401 - every module of the package needs it
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    # a ModuleNotFoundError still (code that catches one keeps working), with the install line
    raise ModuleNotFoundError(
        "heartslib.vector needs numpy, the 'vector' extra: pip install 'heartslib[vector]' (from a checkout: "
        "pip install -e '.[vector]'); its Gymnasium and self-play adapters need the 'gymnasium' extra, its jax "
        f"backend the 'jax' extra ({exc})",
        name=exc.name,
    ) from exc

from heartslib.vector.env import Env, State, check_supported

__all__ = ["Env", "State", "check_supported"]
