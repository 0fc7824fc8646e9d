"""PettingZoo AEC environments for every heartslib variant (extra ``pettingzoo``).

::

    from heartslib.adapters.pettingzoo import env

    e = env("standard", episode="round")          # a preset name, a .toml path, TOML text or a Variant
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). Each
observation is a dict: ``"observation"``, the float32 vector of
:class:`~heartslib.adapters.encoding.Encoding`, and ``"action_mask"``, an
int8 vector over the ``Discrete(num_actions)`` action space (card indices
0-54, then the variant's decision options). The pass is played as hidden
single-card choices, seat by seat, exchanged when the last seat has chosen.

Rewards: when a round ends each seat receives **minus** the points it
scored that round (after the moon rules), so higher is better and a whole
match sums to minus the seat's final total (without the exact-target
reset); see :meth:`~heartslib.adapters.encoding.Encoding.rewards` for the
variants where the highest score wins or complex scores count by their
magnitude. With ``shaping="trick"`` each completed trick already pays its
taker the reward of the card values played to it (and to cancelled tricks
rolled over into it): only cards every seat saw, never the hidden kitty
cards its taker may collect with it; the round's end pays the difference,
kitty cards included, so every round still sums to the same reward.

``episode="round"`` plays one hand: its dealer and its place in the
passing schedule come from the seed unless ``dealer``/``hand_number`` are
given, so every pass direction appears. ``episode="match"`` plays a whole
match to the variant's end. Terminated agents must be stepped with
``None`` (the AEC contract); :func:`env` adds PettingZoo's
out-of-bounds and order-enforcing wrappers, :class:`raw_env` is bare and
raises :class:`~heartslib.IllegalAction` for a masked-out action, for an
action that is not an index (``None`` from a live agent included) and for an
agent name that is not one of the table's.
"""

from __future__ import annotations

import operator
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from heartslib.actions import TrickWon
from heartslib.adapters.encoding import Encoding, Turns, resolve_variant
from heartslib.engine.args import check_seed
from heartslib.enums import Measure, Settlement, StockDraw, Winner
from heartslib.errors import IllegalAction, VariantError, arg_text
from heartslib.match import Match
from heartslib.round import Round
from heartslib.variant import Variant

if TYPE_CHECKING:
    import numpy as np
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    _IMPORT_ERROR: ImportError | None = None
else:
    try:
        import numpy as np
        from gymnasium import logger, spaces
        from pettingzoo import AECEnv
        from pettingzoo.utils import wrappers

        _IMPORT_ERROR = None
    except ImportError as exc:  # the module stays importable (docs, doctest collection) without the extra
        _IMPORT_ERROR = exc
        AECEnv = object

__all__ = ["env", "raw_env"]

EPISODES: Final = ("round", "match")
RENDER_MODES: Final = ("human", "ansi")


def _require() -> None:
    if _IMPORT_ERROR is not None:
        raise ImportError(
            "heartslib.adapters.pettingzoo needs the 'pettingzoo' extra: pip install 'heartslib[pettingzoo]' "
            "(from a checkout: pip install -e '.[pettingzoo]') "
            f"({_IMPORT_ERROR})"
        ) from _IMPORT_ERROR


def env(
    variant: str | Path | Variant = "standard",
    *,
    episode: str = "round",
    render_mode: str | None = None,
    shaping: str | None = None,
    dealer: int | None = None,
    hand_number: int | None = None,
) -> Any:
    """A wrapped AEC environment (PettingZoo's out-of-bounds and order-enforcing wrappers).

    Arguments as for :class:`raw_env`.
    """
    _require()
    e: Any = raw_env(
        variant, episode=episode, render_mode=render_mode, shaping=shaping, dealer=dealer, hand_number=hand_number
    )
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):
    """The bare AEC environment: one heartslib round or match, seat by seat.

    ``variant``: a preset name, a path to a ``.toml`` file, TOML text or a
    :class:`~heartslib.Variant`. ``episode``: ``"round"`` or ``"match"``.
    ``render_mode``: ``None``, ``"ansi"`` (:meth:`render` returns the table
    as text) or ``"human"`` (prints it). ``shaping``: ``None`` or
    ``"trick"`` (per-trick rewards). ``dealer``/``hand_number`` fix a round
    episode's dealer and place in the passing schedule.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": list(RENDER_MODES),
        "name": "heartslib_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Path | Variant = "standard",
        *,
        episode: str = "round",
        render_mode: str | None = None,
        shaping: str | None = None,
        dealer: int | None = None,
        hand_number: int | None = None,
    ) -> None:
        _require()
        super().__init__()
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'round' or 'match', not {episode!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if shaping not in (None, "trick"):
            raise ValueError(f"shaping must be None or 'trick', not {shaping!r}")
        self.variant: Variant = resolve_variant(variant)
        if self.variant.deck.stock != StockDraw.NONE:
            raise VariantError("deck.stock", f"the PettingZoo adapter does not play {self.variant.name}: a game "
                               "with a stock (deck.stock) deals cards into the hands during play, which its "
                               "observation and action spaces do not describe; play it with heartslib.Match")
        if self.variant.scoring.settlement == Settlement.AUCTION:
            raise VariantError("scoring.settlement", f"the PettingZoo adapter does not play {self.variant.name}: "
                               "an auction (scoring.settlement = \"auction\") bids and names the penalty suit, "
                               "decisions its observation and action spaces do not describe; play it with "
                               "heartslib.Match")
        if shaping is not None and self.variant.end.measure != Measure.SCORE:
            raise ValueError("shaping='trick' needs scores measured as they are (end.measure = 'score')")
        n = self.variant.players
        if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < n):
            raise ValueError(f"dealer must be a seat 0-{n - 1}, not {dealer!r}")
        if hand_number is not None:
            if episode == "match":
                raise ValueError("hand_number applies to round episodes only (a match starts at hand 0)")
            if not (isinstance(hand_number, int) and hand_number >= 0):
                raise ValueError(f"hand_number must be a whole number >= 0, not {hand_number!r}")
        self.episode = episode
        self.render_mode = render_mode
        self.shaping = shaping
        self._dealer = dealer
        self._hand_number = hand_number
        self.encoding = Encoding(self.variant)
        self.possible_agents: list[str] = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = self.possible_agents[:]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        enc = self.encoding
        low = np.asarray(enc.low, dtype=np.float32)
        high = np.asarray(enc.high, dtype=np.float32)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(enc.num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(enc.num_actions) for agent in self.possible_agents}
        self._seeder = random.Random()
        self._turns: Turns | None = None
        self._shaped = [0.0] * n
        self._seen = 0
        self._rolled = 0.0  # the points of cancelled tricks' cards, due to the next trick's winner
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> Any:
        """The Dict space of ``agent``'s observations (the same object every call)."""
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):
            raise self._no_such_agent(agent) from None

    def action_space(self, agent: str) -> Any:
        """``Discrete(num_actions)`` (the same object every call)."""
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise self._no_such_agent(agent) from None

    def _no_such_agent(self, agent: object) -> IllegalAction:
        return IllegalAction("no_such_seat", f"no agent {arg_text(agent)}: the agents are "
                             f"{', '.join(self.possible_agents)}")

    # ------------------------------------------------------------------ state

    @property
    def turns(self) -> Turns:
        """The game being played (call :meth:`reset` first)."""
        if self._turns is None:
            raise RuntimeError("call reset() before using the environment")
        return self._turns

    @property
    def game(self) -> Round | Match:
        """The heartslib :class:`~heartslib.Round` (round episodes) or :class:`~heartslib.Match`."""
        return self.turns.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; the same ``seed`` gives the same deals and the same game."""
        check_seed(seed)
        if seed is not None:
            self._seeder = random.Random(seed)
        rng = random.Random(self._seeder.getrandbits(63))
        v = self.variant
        n = v.players
        dealer = self._dealer if self._dealer is not None else int(rng.random() * n)
        game: Round | Match
        if self.episode == "match":
            game = Match(v, seed=rng.getrandbits(63), dealer=dealer)
        else:
            schedule = v.rules.schedule
            hand = self._hand_number if self._hand_number is not None else int(rng.random() * len(schedule))
            game = Round.deal(v, rng=rng, dealer=dealer, hand_number=hand)
        self._turns = Turns(self.encoding, game)
        self._shaped = [0.0] * n
        self._seen = 0
        self._rolled = 0.0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        current = self._turns.current()
        assert current is not None
        self.agent_selection = self.possible_agents[current]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: ``{"observation": float32 vector, "action_mask": int8 vector}``."""
        turns = self.turns
        try:
            seat = self._seat_of[agent]
        except (KeyError, TypeError):
            raise self._no_such_agent(agent) from None
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        legal = turns.legal_ids(seat)
        if legal:
            mask[legal] = 1
        return {"observation": turns.observe_array(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action index (``None`` for a terminated agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        turns = self.turns
        seat = self._seat_of[agent]
        rnd = turns.round
        try:
            index = operator.index(action)  # an int, a NumPy integer (space.sample()); not None, 1.5 or True
        except TypeError:
            index = -1
        if index < 0 or isinstance(action, bool):
            raise IllegalAction("illegal_action_index", f"{agent}: an action is an index into Discrete("
                                f"{self.encoding.num_actions}) that its action mask allows, not {arg_text(action)} "
                                "(only a terminated or truncated agent steps with None)")
        turns.apply_id(seat, index)  # an illegal action raises here, before anything changed
        self._cumulative_rewards[agent] = 0.0
        for a in self.rewards:
            self.rewards[a] = 0.0
        self._collect(rnd)
        current = turns.current()
        over = turns.game.is_over
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif current is not None:
            self.agent_selection = self.possible_agents[current]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _collect(self, rnd: Round) -> None:
        """Rewards from the round just acted in (still the finished round if a match dealt the next)."""
        agents = self.possible_agents
        if self.shaping == "trick":
            events = rnd.events
            values = self.encoding.values
            sign = 1.0 if self.variant.end.winner == Winner.HIGHEST else -1.0
            for event in events[self._seen :]:
                if isinstance(event, TrickWon):
                    # only the cards everyone saw played: the trick's and those of cancelled tricks rolled over
                    # into it; kitty cards stay hidden (the round's end pays for them)
                    seen = sum((values[card.index] for _, card in event.plays), start=0)
                    self._rolled += seen.real if isinstance(seen, complex) else float(seen)
                    if event.winner is not None:
                        reward = sign * self._rolled
                        self._rolled = 0.0
                        self.rewards[agents[event.winner]] += reward
                        self._shaped[event.winner] += reward
            self._seen = len(events)
        points = rnd.points
        if points is not None:
            for seat, reward in enumerate(self.encoding.rewards(rnd.scores, points)):
                self.rewards[agents[seat]] += reward - self._shaped[seat]
            self._shaped = [0.0] * len(agents)
            self._seen = 0
            self._rolled = 0.0

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``); None without a render mode."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human' to env()")
            return None
        text = self.turns.table_text(self.variant.name)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""
