"""A PettingZoo ``ParallelEnv``-style batch wrapper over :mod:`heartslib.vector`, for self-play.

::

    from heartslib.vector.selfplay import SelfPlayEnv

    env = SelfPlayEnv("standard", num_envs=1024)
    observations, infos = env.reset(seed=0)
    while True:
        actions = {agent: policy(observations[agent]) for agent in env.agents}   # each (num_envs,) action ids
        observations, rewards, terminations, truncations, infos = env.step(actions)

The agents are ``player_0`` … ``player_{n-1}`` (seats), as in :mod:`heartslib.adapters.pettingzoo`, and every
value is batched over the ``num_envs`` games: ``observations[agent]`` is a dict of ``"observation"``, (N, D)
float32, that seat's own view in each game (:class:`heartslib.adapters.encoding.Encoding`), and
``"action_mask"``, (N, A) int8, all 0 in the games where that seat does not act now; ``rewards[agent]``,
``terminations[agent]`` and ``truncations[agent]`` are (N,) arrays. Hearts is played in turn, so one seat acts
in each game: :meth:`SelfPlayEnv.step` reads, in game ``g``, the action of the seat to act there
(``actions[agent][g]``) and ignores the others'. Every seat's reward is paid on the step that ends the hand; an
episode is one hand, dealt as ``Round.deal(variant, seed=s, dealer=d, hand_number=h)`` with ``s``, ``d`` and
``h`` drawn from the environment's generator unless ``dealer`` or ``hand_number`` is given. Nothing is ever
truncated.

**Autoreset: next step** (``metadata["autoreset_mode"]`` is ``AutoresetMode.NEXT_STEP``): the step that ends a
hand returns every seat's last observation of it with ``terminations`` True; the next step ignores that game's
actions and returns the first observations of a new hand, with rewards 0.

``agents`` holds every seat while a game of the batch is live; after a step that leaves every game over it is
empty (PettingZoo's end of an episode: a loop ``while env.agents`` stops there), and the next step (an empty
dict of actions) deals new hands everywhere and brings the agents back, as :meth:`~SelfPlayEnv.reset` does. So
it passes PettingZoo's ``parallel_api_test``, run with ``num_envs=1`` (the test reads each termination as one
bool). ``action_space(agent).sample(mask=observations[agent]["action_mask"])`` draws a legal id in each game
where that seat acts (:class:`heartslib.vector.gym.BatchedActions`).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np

from heartslib.adapters.encoding import resolve_variant
from heartslib.engine.args import check_seed
from heartslib.errors import IllegalAction, arg_text
from heartslib.variant import Variant
from heartslib.vector.env import Env, State
from heartslib.vector.gym import NEXT_STEP, Deals, batched_spaces, check_games, require_gymnasium

__all__ = ["SelfPlayEnv"]


class SelfPlayEnv:
    """``num_envs`` hands of ``variant`` for every seat at once (see the module docs). ``variant``: a preset
    name, a ``.toml`` path, TOML text or a Variant."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - read from the class, as PettingZoo's are
        "name": "heartslib_vector_selfplay_v0",
        "autoreset_mode": NEXT_STEP,
        "is_parallelizable": True,
        "render_modes": [],
    }

    def __init__(self, variant: str | Path | Variant = "standard", num_envs: int = 64, *, dealer: int | None = None,
                 hand_number: int | None = None) -> None:
        require_gymnasium()
        self.env = Env(resolve_variant(variant))
        """The batched environment stepped underneath."""
        self.num_envs = check_games(num_envs)
        self._deals = Deals(self.env, dealer, hand_number)
        self.possible_agents: list[str] = [f"player_{i}" for i in range(self.env.num_players)]
        self.agents: list[str] = self.possible_agents[:]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        _, _, self._obs_space, self._act_space = batched_spaces(self.env, self.num_envs)
        self._rng = np.random.default_rng()
        self._state: State | None = None
        self._done = np.zeros(self.num_envs, dtype=bool)

    def observation_space(self, agent: str) -> Any:
        """The batched space of ``agent``'s observations (the same object for every agent)."""
        self._seat(agent)
        return self._obs_space

    def action_space(self, agent: str) -> Any:
        """``MultiDiscrete([A] * num_envs)``: one action id per game."""
        self._seat(agent)
        return self._act_space

    def _seat(self, agent: object) -> int:
        try:
            return self._seat_of[agent]  # type: ignore[index]
        except (KeyError, TypeError):
            raise IllegalAction("no_such_seat", f"no agent {arg_text(agent)}: the agents are "
                                f"{', '.join(self.possible_agents)}") from None

    @property
    def state(self) -> State:
        """The :class:`heartslib.vector.State` of the games now (call :meth:`reset` first)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def __copy__(self) -> SelfPlayEnv:
        """An independent copy: the games, the generator are its own (a shallow copy sharing
        them would draw from the original's generator), the batched environment underneath is shared."""
        return copy.deepcopy(self, {id(self.env): self.env})

    @property
    def unwrapped(self) -> SelfPlayEnv:
        """This environment (no wrapper around it), as PettingZoo's environments name it."""
        return self

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any],
                                                                                          dict[str, Any]]:
        """New hands in every game; the same ``seed`` (a whole number from 0 to 2**64 - 1, or None) gives the
        same deals."""
        if check_seed(seed) is not None:
            self._rng = np.random.default_rng(seed)
        state = self.env.init(**self._deals.draw(self._rng, self.num_envs))
        self._state = state
        self._done = state.terminated.copy()
        self.agents = self.possible_agents[:]
        return self._observe(state), {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any],
                                                     dict[str, Any], dict[str, Any]]:
        """Each game's acting seat's action (a game that ended on the last step starts a new hand instead):
        ``actions`` has an entry for every agent of :attr:`agents` (an entry for another of
        :attr:`possible_agents` is ignored). After a step that leaves every game over, :attr:`agents` is empty
        (PettingZoo's end of an episode) until the next step, which deals new hands everywhere and reads no
        action, or :meth:`reset`."""
        state = self.state
        if not isinstance(actions, dict) or not set(self.agents) <= set(actions) <= set(self.possible_agents):
            raise IllegalAction("bad_argument", f"actions is a dict of (num_envs,) action ids for every agent "
                                f"({', '.join(self.agents) or 'none now'}), not {arg_text(actions)}")
        columns = [np.asarray(actions[agent]) for agent in self.agents]
        if any(c.shape != (self.num_envs,) or not np.issubdtype(c.dtype, np.integer) for c in columns):
            raise IllegalAction("bad_argument", f"each agent's actions must be {self.num_envs} integer action ids")
        done = self._done
        live = ~state.terminated & ~done
        chosen = np.zeros(self.num_envs, dtype=np.int64)
        if columns:  # none once every game is over: this step only deals
            turn = np.maximum(state.current_player, 0).astype(np.int64)
            chosen = np.stack(columns)[turn, np.arange(self.num_envs)]
        after = self.env.step(state, np.where(live, chosen, 0), active=live)  # IllegalAction: nothing changed
        rewards = after.rewards.copy()
        if done.any():
            after = self.env.reset_where(after, done, **self._deals.draw(self._rng, int(done.sum())))
        self._state = after
        self._done = after.terminated.copy()
        truncated = np.zeros(self.num_envs, dtype=bool)
        agents = self.possible_agents  # every seat is in every game this step returns
        self.agents = [] if self._done.all() else agents[:]
        return (self._observe(after), {a: rewards[:, i] for i, a in enumerate(agents)},
                {a: self._done.copy() for a in agents}, {a: truncated.copy() for a in agents},
                {a: {} for a in agents})

    def _observe(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for seat, agent in enumerate(self.possible_agents):
            acting = (state.current_player == seat)[:, None]
            out[agent] = {"observation": self.env.observe(state, seat),
                          "action_mask": (state.legal_action_mask & acting).astype(np.int8)}
        return out

    def close(self) -> None:
        """Nothing to release."""
