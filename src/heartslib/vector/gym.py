"""A Gymnasium vector environment over :mod:`heartslib.vector`: one learner seat against other players.

::

    from heartslib.vector.gym import LearnerEnv

    envs = LearnerEnv("standard", num_envs=1024, seat=0, opponents="random")
    obs, infos = envs.reset(seed=0)
    while True:
        mask = obs["action_mask"].astype(bool)
        actions = ...                                   # (num_envs,) action ids, legal where the mask says
        obs, rewards, terminations, truncations, infos = envs.step(actions)

It is a ``gymnasium.vector.VectorEnv`` (gymnasium 1.x, the ``gymnasium`` extra) of ``num_envs`` hands of one
variant stepped together. Each step is one decision of the **learner** (``seat``) in every game; the other
seats (``opponents``) play in between, batched:

* ``"random"``: a uniformly random legal action (numpy, from the environment's generator);
* a **policy**, any callable ``policy(observation, action_mask, current_player) -> actions`` over the whole
  batch ((N, D) float32, (N, A) bool, (N,) int; only the games where an opponent acts are read back);
* **agents**: a sequence of :class:`heartslib.agents.Agent` (``RandomAgent``, ``HeuristicAgent``,
  ``SearchAgent``, your own), one per other seat in seat order, each set up for its seat and asked through
  an :class:`~heartslib.Observation` of its own game, one game at a time (the speed of Python agents).

Observations are the learner's: a dict of ``"observation"``, the (N, D) float32 vector of
:class:`heartslib.adapters.encoding.Encoding`, and ``"action_mask"``, (N, A) int8, as the PettingZoo adapter
gives them. An action id is a card index (0-54) or a decision option after it; a pass is chosen one card at a
time. The reward is the learner's (:meth:`~heartslib.adapters.encoding.Encoding.rewards`), paid on the step
that ends the hand; an episode is one hand, dealt as ``Round.deal(variant, seed=s, dealer=d, hand_number=h)``
with ``s``, ``d`` and ``h`` drawn from the environment's generator (every seat deals, every pass of the schedule
comes up) unless ``dealer`` or ``hand_number`` is given. Nothing is ever truncated.

**Autoreset: next step** (``metadata["autoreset_mode"]`` is ``AutoresetMode.NEXT_STEP``): the step that ends a
hand returns its last observation with ``terminated`` True; the next step ignores that game's action and
returns the first observation of a new hand, with reward 0.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from heartslib.actions import Action, Choose, Pass, Play
from heartslib.adapters.encoding import Turns, resolve_variant
from heartslib.agents import Agent, LazyActions, setup_agent
from heartslib.engine.args import check_hand_number, check_seat, check_seed
from heartslib.enums import Phase
from heartslib.errors import IllegalAction, arg_text
from heartslib.round import Round
from heartslib.variant import Variant
from heartslib.vector.env import Env, State

try:
    from gymnasium import spaces
    from gymnasium.spaces import MultiDiscrete
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

    _IMPORT_ERROR: ImportError | None = None
except ImportError as exc:  # the module stays importable (docs, doctest collection) without the extra
    _IMPORT_ERROR = exc
    if not TYPE_CHECKING:
        VectorEnv = MultiDiscrete = object

__all__ = ["NEXT_STEP", "BatchedActions", "Deals", "LearnerEnv", "Opponents", "batched_spaces", "observation_space"]

#: A policy for the other seats: (observation, action_mask, current_player) over the batch -> action ids.
Policy = Callable[[Any, Any, Any], Any]
#: What plays the other seats: ``"random"``, a :data:`Policy`, or one agent per other seat.
Opponents = str | Policy | Sequence[Agent]

_SEED_HIGH: Final = 2**63
#: Gymnasium's name of the autoreset both adapters declare (a text without gymnasium, which they then need).
NEXT_STEP: Final[Any] = AutoresetMode.NEXT_STEP if _IMPORT_ERROR is None else "NextStep"


def require_gymnasium() -> None:
    """An :class:`ImportError` naming the extra when gymnasium 1.x is not installed."""
    if _IMPORT_ERROR is not None:
        raise ImportError(
            "heartslib.vector's Gymnasium and PettingZoo-style adapters need the 'gymnasium' extra: "
            "pip install 'heartslib[gymnasium]' (from a checkout: pip install -e '.[gymnasium]') "
            f"({_IMPORT_ERROR})"
        ) from _IMPORT_ERROR


def observation_space(env: Env) -> Any:
    """One game's observation space: ``Dict(observation=Box(D,) float32, action_mask=Box(A,) int8)``."""
    enc = env.encoding
    return spaces.Dict({
        "observation": spaces.Box(low=np.asarray(enc.low, dtype=np.float32),
                                  high=np.asarray(enc.high, dtype=np.float32), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(env.num_actions,), dtype=np.int8),
    })


class BatchedActions(MultiDiscrete):
    """The batched action space, ``MultiDiscrete([A] * num_envs)``: one action id per game, whose
    :meth:`sample` also takes an observation's ``"action_mask"`` as it is, (N, A) int8 (gymnasium's wants a
    tuple of N rows): a legal id in each game that has one, 0 in the others."""

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        """A random action id per game (from a legal one where ``mask`` says, as ``MultiDiscrete.sample``)."""
        if isinstance(mask, np.ndarray) and mask.ndim == 2:
            mask = tuple(mask)
        return super().sample(mask=mask, probability=probability)


def batched_spaces(env: Env, num_envs: int) -> tuple[Any, Any, Any, Any]:
    """One game's observation and action spaces, and both batched over ``num_envs`` games (the actions as
    :class:`BatchedActions`)."""
    single_obs = observation_space(env)
    single_act = spaces.Discrete(env.num_actions)
    return single_obs, single_act, batch_space(single_obs, num_envs), BatchedActions([env.num_actions] * num_envs)


class Deals:
    """How the adapters deal a new hand: a seed, a dealer and a hand number (the pass of the schedule) for each
    game, drawn from the environment's generator, so every seat deals and every pass comes up; a ``dealer`` or
    ``hand_number`` given is used for every hand."""

    def __init__(self, env: Env, dealer: int | None, hand_number: int | None) -> None:
        n = env.num_players
        # the engine's own checks, so the environments take what Round.deal takes (and refuse it at once, not at
        # the first reset)
        if dealer is not None:
            check_seat(dealer, n, "dealer")
        if hand_number is not None:
            check_hand_number(hand_number)
        self.n = n
        self.cycle = len(env.variant.rules.schedule)
        self.dealer = dealer
        self.hand_number = hand_number

    def draw(self, rng: Any, k: int) -> dict[str, Any]:
        """``k`` deals: ``{"seeds", "dealer", "hand_number"}``, arrays of ``k``, as :meth:`Env.init` takes them."""
        seeds = rng.integers(0, _SEED_HIGH, size=k, dtype=np.int64)
        dealer = rng.integers(0, self.n, size=k) if self.dealer is None else np.full(k, self.dealer)
        hand = rng.integers(0, self.cycle, size=k) if self.hand_number is None else np.full(k, self.hand_number)
        return {"seeds": seeds, "dealer": dealer, "hand_number": hand}


def check_games(num_envs: object) -> int:
    """``num_envs`` as a positive whole number, else :class:`~heartslib.IllegalAction`."""
    if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
        raise IllegalAction("bad_argument", f"num_envs is a whole number of games >= 1, not {arg_text(num_envs)}")
    return num_envs


class _Agents:
    """Built-in (or any) agents for the other seats, each game mirrored by a :class:`Turns` over a Round, so an
    agent sees an :class:`~heartslib.Observation` of its own game; a pass an agent chooses whole is fed to the
    environment one card at a time."""

    def __init__(self, env: Env, agents: Sequence[Agent], learner: int) -> None:
        n = env.num_players
        others = [s for s in range(n) if s != learner]
        if len(agents) != len(others) or not all(isinstance(a, Agent) for a in agents):
            raise IllegalAction("bad_argument", f"opponents: {len(others)} agents (one per seat but the learner's, "
                                f"seats {others}), not {arg_text(agents)}")
        self.env = env
        self.by_seat: dict[int, Agent] = dict(zip(others, agents, strict=True))
        for seat, agent in self.by_seat.items():
            setup_agent(agent, env.variant, seat)
        self.games: list[Turns] = []
        self.queued: list[list[int]] = []

    def deal(self, rows: Any, seeds: Any, dealer: Any, hand_number: Any) -> None:
        """Games ``rows`` start new hands (as :meth:`Env.init` deals them)."""
        for g, seed, d, h in zip(rows.tolist(), seeds.tolist(), dealer.tolist(), hand_number.tolist(), strict=True):
            turns = Turns(self.env.encoding, Round.deal(self.env.variant, seed=seed, dealer=d, hand_number=h))
            if g == len(self.games):
                self.games.append(turns)
                self.queued.append([])
            else:
                self.games[g] = turns
                self.queued[g] = []

    def record(self, rows: Any, seats: Any, actions: Any) -> None:
        """The environment applied ``actions`` by ``seats`` in games ``rows``: so does each mirror."""
        for g, seat, a in zip(rows.tolist(), seats.tolist(), actions.tolist(), strict=True):
            self.games[g].apply_id(seat, a)

    def act(self, rows: Any, n_games: int) -> Any:
        """The agents' action ids in games ``rows`` (0 elsewhere)."""
        out = np.zeros(n_games, dtype=np.int64)
        for g in rows.tolist():
            queue = self.queued[g]
            if not queue:
                queue.extend(self._decide(self.games[g]))
            out[g] = queue.pop(0)
        return out

    def _decide(self, turns: Turns) -> list[int]:
        seat = turns.current()
        assert seat is not None
        rnd = turns.round
        legal: Sequence[Action] = LazyActions(rnd, seat) if rnd.phase is Phase.PASS else rnd.legal_actions(seat)
        action = self.by_seat[seat].act(rnd.observation(seat), legal)
        if isinstance(action, Pass):
            return [c.index for c in action.cards]
        if isinstance(action, Play | Choose):
            return [self.env.encoding.action_id(action)]
        raise IllegalAction("not_an_action", f"the agent of seat {seat} returned {arg_text(action)}")


class LearnerEnv(VectorEnv):
    """``num_envs`` hands of ``variant``, the learner at ``seat`` and ``opponents`` at the other seats
    (see the module docs). ``variant``: a preset name, a ``.toml`` path, TOML text or a Variant."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - gymnasium reads it from the class
        "autoreset_mode": NEXT_STEP,
        "render_modes": [],
    }

    def __init__(self, variant: str | Path | Variant = "standard", num_envs: int = 64, *, seat: int = 0,
                 opponents: Opponents = "random", dealer: int | None = None, hand_number: int | None = None) -> None:
        require_gymnasium()
        self.env = Env(resolve_variant(variant))
        """The batched environment stepped underneath."""
        self.num_envs = check_games(num_envs)
        n = self.env.num_players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise IllegalAction("no_such_seat", f"seat is the learner's seat 0..{n - 1}, not {arg_text(seat)}")
        self.seat = seat
        self._deals = Deals(self.env, dealer, hand_number)
        (self.single_observation_space, self.single_action_space, self.observation_space,
         self.action_space) = batched_spaces(self.env, self.num_envs)
        self._policy: Policy | None = None
        self._agents: _Agents | None = None
        if isinstance(opponents, str):
            if opponents != "random":
                raise IllegalAction("bad_argument", "opponents is 'random', a policy (a callable) or one agent per "
                                    f"other seat, not {opponents!r}")
        elif callable(opponents):
            self._policy = opponents
        else:
            self._agents = _Agents(self.env, list(opponents), seat)
        self._state: State | None = None
        self._done = np.zeros(self.num_envs, dtype=bool)

    @property
    def state(self) -> State:
        """The :class:`heartslib.vector.State` of the games now (call :meth:`reset` first)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def __copy__(self) -> LearnerEnv:
        """An independent copy: the games, the generator and the agents are its own (a shallow copy sharing
        them would draw from the original's generator), the batched environment underneath is shared."""
        return copy.deepcopy(self, {id(self.env): self.env})

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """New hands in every game; the same ``seed`` (a whole number from 0 to 2**64 - 1, or None) gives the
        same deals (and, with seeded agents, games)."""
        check_seed(seed)
        undo = self._snapshot()
        super().reset(seed=seed)
        try:
            return self._reset()
        except BaseException:  # an agent's or a policy's own error too (even an interrupt): nothing half done
            undo()
            raise

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """The learner's action in every game (ignored in a game that ended on the last step, which starts a new
        hand instead), then the other seats' until the learner acts again or the hand is over. An illegal
        action (the learner's, or an opponent's) raises :class:`~heartslib.IllegalAction` naming the game; after
        it, or any other error (an opponent agent's or policy's own), the environment is left as it was: the
        games, the generator and the agents' mirrors, the learner's action not recorded."""
        undo = self._snapshot()
        try:
            return self._step(actions)
        except BaseException:  # the learner's action is in the mirrors before the opponents act: take it out
            undo()
            raise

    def _snapshot(self) -> Callable[[], None]:
        """A function that puts the games, the generator and the agents' mirrors back as they are now."""
        state, done = self._state, self._done
        rng = self.np_random
        bits = rng.bit_generator.state
        queued = None if self._agents is None else [q[:] for q in self._agents.queued]

        def undo() -> None:
            self._state, self._done = state, done
            self.np_random = rng
            rng.bit_generator.state = bits
            if self._agents is not None and queued is not None:
                # the mirrors replayed from the games' own action ids, the passes half chosen included
                games = [] if state is None else [self.env.to_turns(state, g) for g in range(state.batch_size)]
                self._agents.games, self._agents.queued = games, queued

        return undo

    def _reset(self) -> tuple[Any, dict[str, Any]]:
        deal = self._deals.draw(self.np_random, self.num_envs)
        state = self.env.init(**deal)
        if self._agents is not None:
            self._agents.deal(np.arange(self.num_envs), **deal)
        state, _ = self._others(state)
        self._state = state
        self._done = state.terminated.copy()
        return self._observe(state), {}

    def _step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        state = self.state
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalAction("bad_argument", f"actions must be {self.num_envs} integer action ids, not "
                                f"{arg_text(actions)}")
        done = self._done
        learner = ~state.terminated & ~done
        after = self.env.step(state, np.where(learner, acts, 0), active=learner)  # IllegalAction: nothing changed
        if self._agents is not None:
            rows = np.flatnonzero(learner)
            self._agents.record(rows, np.full(rows.size, self.seat), acts[rows])
        reward = after.rewards[:, self.seat].copy()
        if done.any():
            deal = self._deals.draw(self.np_random, int(done.sum()))
            after = self.env.reset_where(after, done, **deal)
            if self._agents is not None:
                self._agents.deal(np.flatnonzero(done), **deal)
        after, more = self._others(after)
        reward += more
        self._state = after
        self._done = after.terminated.copy()
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self._observe(after), reward, self._done.copy(), truncated, {}

    def _others(self, state: State) -> tuple[State, Any]:
        """Step the other seats until the learner acts (or the hand ends) in every game; the learner's rewards."""
        reward = np.zeros(self.num_envs, dtype=np.float32)
        while True:
            turn = state.current_player
            theirs = (turn >= 0) & (turn != self.seat)
            if not theirs.any():
                return state, reward
            state = self._step_others(state, theirs)
            reward += state.rewards[:, self.seat]

    def _step_others(self, state: State, theirs: Any) -> State:
        if self._agents is not None:
            rows = np.flatnonzero(theirs)
            acts = self._agents.act(rows, self.num_envs)
            after = self.env.step(state, acts, active=theirs)
            self._agents.record(rows, state.current_player[rows], acts[rows])
            return after
        if self._policy is not None:
            acts = np.asarray(self._policy(state.observation, state.legal_action_mask, state.current_player))
            if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
                raise IllegalAction("bad_argument", f"the opponents' policy must return {self.num_envs} integer "
                                    f"action ids, not an array of shape {acts.shape} and dtype {acts.dtype}")
            return self.env.step(state, np.where(theirs, acts, 0), active=theirs)
        return self.env.step(state, self.env.random_actions(state, self.np_random), active=theirs)

    def _observe(self, state: State) -> dict[str, Any]:
        mask = state.legal_action_mask.astype(np.int8)  # all 0 in a game that is over
        return {"observation": self.env.observe(state, self.seat), "action_mask": mask}

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
