"""The OpenSpiel game ``python_heartslib`` for every heartslib variant (extra ``openspiel``).

::

    import pyspiel
    from heartslib.adapters import openspiel   # registers python_heartslib

    game = pyspiel.load_game("python_heartslib", {"variant": "omnibus"})   # or {"preset": "omnibus"}
    game = openspiel.load_game("my_rules.toml", episode="match")   # a TOML variant file
    state = game.new_initial_state()

Game parameters: ``variant`` (a preset name or a path to a TOML variant, as
the PettingZoo environment takes it), or ``preset`` (a preset name, default
``"standard"``) or ``variant_file`` (a path to a TOML variant) – one of the three,
``episode`` (``"round"``, default, or ``"match"``), ``dealer`` and
``hand_number`` (a round episode's dealer and place in the passing
schedule, default 0), ``max_hands`` (a match is cut off after this many
hands; 0 means the variant's ``end.hands`` or 1000).

The game is sequential with explicit chance: every deal is one chance node
per card (the card at the next position of the shuffled pack; cards go
one at a time from the dealer's left, the kitty last), and a shuffle pass
is one chance node per passed card (the pile's next card, dealt out from
the dealer's left). The simultaneous pass is hidden sequential
single-card choices, lowest seat first; actions are the card indices
0-54 (play or pass by phase) and the variant's decision options from 55
(see :mod:`heartslib.adapters.encoding`). Chance outcomes are card indices
too.

Observations come from the same encoding as the PettingZoo adapter:
``observation_tensor`` is the observation vector and
``observation_string`` its text; ``information_state_string`` is the
seat's whole history (its dealt hand, its pass choices, what it received,
every public play and decision, earlier hands of a match) and
``information_state_tensor`` adds the dealt hand and the ordered plays of
the hand to the observation vector. ``returns()`` are the rewards of
:meth:`~heartslib.adapters.encoding.Encoding.rewards` summed over the
episode (minus the points for most variants). ``resample_from_infostate``
draws a deal consistent with what a seat knows (the cards it saw, the
voids and forced plays it saw), so ``open_spiel.python.algorithms.ismcts``
runs.

OpenSpiel's C++ MCTS bots crash on Python-implemented games in
open-spiel 2.0.2; use the Python ``mcts`` and ``ismcts`` modules.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from heartslib.actions import (
    Action,
    Choose,
    KittyTaken,
    MoonShot,
    Pass,
    PassesExchanged,
    Play,
    RoundScored,
    TrickWon,
)
from heartslib.adapters.encoding import CARD_ACTIONS, Encoding, Turns, resolve_variant
from heartslib.cards import NUM_CARD_INDICES, Card
from heartslib.engine.args import check_rng, check_seat
from heartslib.engine.dealing import deal_seats, pile_seats
from heartslib.engine.legality import pass_extensions
from heartslib.engine.values import pass_size
from heartslib.enums import HOLD, SHUFFLE, Offset, Phase, Settlement, StockDraw, pass_name
from heartslib.errors import IllegalAction, VariantError, arg_text
from heartslib.inference import Determinization, Sampler
from heartslib.match import Match
from heartslib.points import score_text
from heartslib.round import Round
from heartslib.variant import Variant

if TYPE_CHECKING:
    import numpy as np
    import pyspiel
    from pyspiel import Game as _GameBase
    from pyspiel import State as _StateBase

    _IMPORT_ERROR: ImportError | None = None
else:
    try:
        import numpy as np
        import pyspiel

        _GameBase = pyspiel.Game
        _StateBase = pyspiel.State
        _IMPORT_ERROR = None
    except ImportError as exc:  # the module stays importable (docs, doctest collection) without the extra
        _IMPORT_ERROR = exc
        _GameBase = _StateBase = object

__all__ = ["GAME_NAME", "HeartsCore", "HeartsGame", "HeartsObserver", "HeartsState", "load_game"]

#: The registered short name.
GAME_NAME: Final = "python_heartslib"
#: ``pyspiel.PlayerId.CHANCE`` and ``TERMINAL``.
CHANCE: Final = -1
TERMINAL: Final = -4
#: A match episode is cut off after this many hands unless the variant or ``max_hands`` says otherwise.
DEFAULT_MAX_HANDS: Final = 1000
#: Samples tried by :meth:`HeartsState.resample_from_infostate` before it gives up.
RESAMPLE_TRIES: Final = 200

_CARDS: Final = tuple(Card.from_index(i) for i in range(NUM_CARD_INDICES))
_PARAMS: Final[dict[str, Any]] = {
    "variant": "",
    "preset": "standard",
    "variant_file": "",
    "episode": "round",
    "dealer": 0,
    "hand_number": 0,
    "max_hands": 0,
}


def _require() -> None:
    if _IMPORT_ERROR is not None:
        raise ImportError(
            "heartslib.adapters.openspiel needs the 'openspiel' extra: pip install 'heartslib[openspiel]' "
            "(from a checkout: pip install -e '.[openspiel]') "
            f"({_IMPORT_ERROR})"
        ) from _IMPORT_ERROR


# --------------------------------------------------------------------------- setup


class Setup:
    """A game's fixed facts: the variant, its encoding and the episode parameters."""

    __slots__ = ("dealer", "encoding", "episode", "hand_number", "max_hands", "params", "variant")

    def __init__(self, variant: Variant, *, episode: str = "round", dealer: int = 0, hand_number: int = 0,
                 max_hands: int = 0, params: dict[str, Any] | None = None) -> None:
        if episode not in ("round", "match"):
            raise ValueError(f"episode must be 'round' or 'match', not {episode!r}")
        n = variant.players
        if variant.deck.stock != StockDraw.NONE:
            raise VariantError("deck.stock", f"the OpenSpiel adapter does not play {variant.name}: a game with a "
                               "stock (deck.stock) deals cards into the hands during play, which its observation "
                               "tensor and game length do not describe; play it with heartslib.Match")
        if variant.scoring.settlement == Settlement.AUCTION:
            raise VariantError("scoring.settlement", f"the OpenSpiel adapter does not play {variant.name}: an "
                               "auction (scoring.settlement = \"auction\") bids and names the penalty suit, "
                               "decisions its action space and observation tensor do not describe; play it with "
                               "heartslib.Match")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0-{n - 1}, not {dealer!r}")
        if hand_number < 0 or max_hands < 0:
            raise ValueError("hand_number and max_hands must be >= 0")
        self.variant = variant
        self.encoding = Encoding(variant)
        self.episode = episode
        self.dealer = dealer
        self.hand_number = hand_number if episode == "round" else 0
        self.max_hands = 1 if episode == "round" else (max_hands or variant.end.hands or DEFAULT_MAX_HANDS)
        self.params = dict(params or {})

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Setup:
        """Read OpenSpiel game parameters (unknown names are an error)."""
        unknown = set(params) - set(_PARAMS)
        if unknown:
            raise ValueError(f"unknown {GAME_NAME} parameters {sorted(unknown)}; known: {sorted(_PARAMS)}")
        full = {**_PARAMS, **params}
        # pyspiel hands over every parameter, defaults included: a parameter is given when it differs from them
        given = [name for name in ("variant", "preset", "variant_file") if full[name] != _PARAMS[name]]
        if len(given) > 1:
            raise ValueError(f"give one of the parameters variant, preset and variant_file, not {' and '.join(given)}")
        source: str | Path = full["variant"] or (Path(full["variant_file"]) if full["variant_file"] else full["preset"])
        return cls(resolve_variant(source), episode=full["episode"], dealer=int(full["dealer"]),
                   hand_number=int(full["hand_number"]), max_hands=int(full["max_hands"]), params=full)

    @property
    def plays_per_round(self) -> int:
        """Cards played in a hand (every dealt card; the kitty is never played)."""
        return int(self.variant.rules.hand_size) * self.variant.players

    def round_length(self) -> int:
        """The most decisions one hand can take."""
        v = self.variant
        rules = v.rules
        n = v.players
        pass_cards = max([rules.pass_cards] + [pass_size(d, rules.pass_cards, n) for d in rules.schedule])
        jokers = sum(1 for c in rules.pack if c == NUM_CARD_INDICES - 1)
        exposures = n if rules.exposable else 0  # every seat decides what it exposes before the first lead
        return int(1 + n * pass_cards + exposures + self.plays_per_round + jokers + 1)

    def utility_bound(self) -> float:
        """A bound on the absolute return of an episode."""
        v = self.variant
        rules = v.rules
        per_round = 4.0 * (
            sum(abs(rules.value[c]) for c in rules.pack) + abs(rules.moon_points) + 52.0 * rules.decks
            + abs(v.scoring.no_tricks) + 10.0
        )
        return float(per_round * self.max_hands)

    def game_info(self) -> Any:
        """The ``pyspiel.GameInfo``."""
        bound = self.utility_bound()
        return pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=NUM_CARD_INDICES,
            num_players=self.variant.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=self.round_length() * self.max_hands,
        )


# --------------------------------------------------------------------------- chance nodes


class _Chance:
    """A chance phase in progress: the positions of a deal or of a shuffle pass being filled."""

    __slots__ = ("dealer", "hand_number", "held", "items", "kind", "left", "picks", "scores", "targets")

    def __init__(self, kind: str, items: Sequence[int], targets: Sequence[int], *, held: Action | None,
                 dealer: int, hand_number: int, scores: Sequence[Any]) -> None:
        self.kind = kind
        self.items = tuple(items)
        self.targets = tuple(targets)
        self.picks: list[int] = []
        self.left = Counter(items)
        self.held = held
        self.dealer = dealer
        self.hand_number = hand_number
        self.scores = tuple(scores)

    def copy(self) -> _Chance:
        new = object.__new__(_Chance)
        new.kind = self.kind
        new.items = self.items
        new.targets = self.targets
        new.picks = self.picks[:]
        new.left = self.left.copy()
        new.held = self.held
        new.dealer = self.dealer
        new.hand_number = self.hand_number
        new.scores = self.scores
        return new

    def outcomes(self) -> list[tuple[int, float]]:
        total = len(self.items) - len(self.picks)
        return [(c, k / total) for c, k in sorted(self.left.items()) if k > 0]

    def seen_by(self, seat: int) -> list[Card]:
        return sorted(_CARDS[c] for c, t in zip(self.picks, self.targets, strict=False) if t == seat)


def _deal_targets(v: Variant, dealer: int) -> list[int]:
    """The seat each position of the shuffled pack goes to (-1 for the kitty), as the engine deals."""
    return list(deal_seats(v.rules, dealer))


def _shuffle_targets(v: Variant, dealer: int, per_seat: int) -> list[int]:
    """The receiver of each position of a shuffle pass's pile, as the engine deals it out."""
    return list(pile_seats(v.rules, dealer, per_seat))


# --------------------------------------------------------------------------- the state logic


class HeartsCore:
    """The state of ``python_heartslib`` in pure Python (:class:`HeartsState` delegates to it).

    ``history`` lists every action, chance outcomes included; the state is a
    function of it (:meth:`replay`).
    """

    __slots__ = (
        "chance",
        "dealt",
        "finished",
        "hands_done",
        "history",
        "kinds",
        "over",
        "picks",
        "returns",
        "round_start",
        "setup",
        "turns",
    )

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        v = setup.variant
        n = v.players
        self.history: list[int] = []
        self.kinds: list[str] = []
        """Per history entry: ``deal``, ``shuffle``, ``pick``, ``play`` or ``choose``."""
        self.round_start = 0
        self.turns: Turns | None = None
        self.dealt: tuple[tuple[Card, ...], ...] = ()
        self.picks: list[list[int]] = [[] for _ in range(n)]
        self.finished: list[list[str]] = [[] for _ in range(n)]
        self.returns = [0.0] * n
        self.hands_done = 0
        self.over = False
        self.chance: _Chance | None = _Chance(
            "deal", v.rules.pack, _deal_targets(v, setup.dealer), held=None, dealer=setup.dealer,
            hand_number=setup.hand_number, scores=(0,) * n,
        )

    # ------------------------------------------------------------------ copying and replaying

    def copy(self) -> HeartsCore:
        """An independent copy (the engine's cheap copy, the adapter's RNG reinstalled)."""
        new = object.__new__(HeartsCore)
        new.setup = self.setup
        new.history = self.history[:]
        new.kinds = self.kinds[:]
        new.round_start = self.round_start
        new.turns = None if self.turns is None else self.turns.copy()
        new.dealt = self.dealt
        new.picks = [p[:] for p in self.picks]
        new.finished = [f[:] for f in self.finished]
        new.returns = self.returns[:]
        new.hands_done = self.hands_done
        new.over = self.over
        new.chance = None if self.chance is None else self.chance.copy()
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> HeartsCore:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel serializes a Python state's attributes with pickle: keep that to the rules and
        # the action list, and rebuild by replaying them.
        s = self.setup
        return (_replay, (s.variant.to_toml(), s.episode, s.dealer, s.hand_number, s.max_hands, s.params,
                          tuple(self.history)))

    @classmethod
    def replay(cls, setup: Setup, history: Sequence[int]) -> HeartsCore:
        """The state reached by ``history`` (raises :class:`~heartslib.IllegalAction` if it is not legal)."""
        core = cls(setup)
        for action in history:
            core.apply(action)
        return core

    # ------------------------------------------------------------------ queries

    @property
    def n(self) -> int:
        """The number of players."""
        return self.setup.variant.players

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        if self.over:
            return TERMINAL
        if self.chance is not None:
            return CHANCE
        assert self.turns is not None
        seat = self.turns.current()
        assert seat is not None
        return seat

    def legal(self, player: int) -> list[int]:
        """Legal actions of ``player`` (chance outcomes for :data:`CHANCE`), ascending."""
        if self.over:
            return []
        if self.chance is not None:
            return [c for c, _ in self.chance.outcomes()] if player == CHANCE else []
        assert self.turns is not None
        return self.turns.legal_ids(player) if player >= 0 else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card index, probability)`` for the next position being dealt or shuffled."""
        if self.chance is None:
            raise ValueError("not a chance node")
        return self.chance.outcomes()

    def action_text(self, player: int, action: int) -> str:
        """``"deal QS"``, ``"shuffle QS"``, ``"pass QS"``, ``"play QS"``, ``"choose old"``."""
        enc = self.setup.encoding
        if player == CHANCE:
            kind = self.chance.kind if self.chance is not None else "deal"
            return f"{kind} {enc.action_text(action)}"
        if action >= CARD_ACTIONS:
            return enc.action_text(action)
        phase = self.turns.round.phase if self.turns is not None else Phase.PLAY
        return ("pass " if phase == Phase.PASS else "play ") + enc.action_text(action)

    # ------------------------------------------------------------------ applying

    def apply(self, action: int) -> None:
        """Apply a chance outcome or the current seat's action index."""
        if self.over:
            raise IllegalAction("game_over", "the game is over")
        chance = self.chance
        if chance is not None:
            if chance.left.get(action, 0) <= 0:
                raise IllegalAction("not_a_chance_outcome", f"{action} is not a chance outcome now")
            chance.picks.append(action)
            chance.left[action] -= 1
            self.history.append(action)
            self.kinds.append(chance.kind)
            if len(chance.picks) == len(chance.items):
                self._finish_chance(chance)
            return
        turns = self.turns
        assert turns is not None
        seat = turns.current()
        assert seat is not None
        rnd = turns.round
        phase = rnd.phase
        kind = "pick" if phase == Phase.PASS else "play" if phase == Phase.PLAY else "choose"
        need = self._chance_needed(seat, action)
        if need is not None:
            held = turns.apply_id(seat, action, defer=True)
            self._record(seat, action, kind)
            assert held is not None
            self.chance = need
            need.held = held
            return
        turns.apply_id(seat, action)
        self._record(seat, action, kind)
        if rnd.is_over:
            self._round_ended(rnd)

    def _record(self, seat: int, action: int, kind: str) -> None:
        self.history.append(action)
        self.kinds.append(kind)
        if kind == "pick":
            self.picks[seat].append(action)

    def _chance_needed(self, seat: int, action: int) -> _Chance | None:
        """A chance phase to insert before this action reaches the engine, if it will draw randomness."""
        turns = self.turns
        assert turns is not None
        rnd = turns.round
        v = self.setup.variant
        if rnd.phase == Phase.PASS and rnd.passing == SHUFFLE and rnd.to_act == (seat,) and turns.completes_pass(
            seat
        ):
            if action not in turns.legal_ids(seat):
                return None  # apply_id raises the error
            pool = [c for s in range(self.n) for c in (self.picks[s] + ([action] if s == seat else []))]
            return _Chance("shuffle", pool, _shuffle_targets(v, rnd.dealer, rnd.pass_count), held=None,
                           dealer=rnd.dealer, hand_number=rnd.hand_number, scores=rnd.scores)
        if self.setup.episode != "match" or not _may_end_round(rnd):
            return None
        if action not in turns.legal_ids(seat):
            return None
        probe = turns.copy()
        probe.apply_id(seat, action)
        nxt = probe.round
        if nxt.hand_number == rnd.hand_number or probe.game.is_over or self.hands_done + 1 >= self.setup.max_hands:
            # the hand goes on, or the match ends, or the episode is cut off (the engine then deals a hand
            # nobody plays from its own generator)
            return None
        return _Chance("deal", v.rules.pack, _deal_targets(v, nxt.dealer), held=None, dealer=nxt.dealer,
                       hand_number=nxt.hand_number, scores=nxt.scores)

    def _finish_chance(self, chance: _Chance) -> None:
        setup = self.setup
        v = setup.variant
        order = [_CARDS[c] for c in chance.picks]
        self.chance = None
        if self.turns is None:
            rnd = Round.deal(v, order=order, dealer=chance.dealer, hand_number=chance.hand_number)
            game: Round | Match = rnd
            if setup.episode == "match":
                game = Match.from_deal(v, rnd.hands, dealer=chance.dealer, hand_number=chance.hand_number,
                                       kitty=rnd.kitty, seed=0)
            self.turns = Turns(setup.encoding, game)
            self._check_deal(chance)
            return
        turns = self.turns
        before = turns.round
        game = turns.game
        if chance.kind == "shuffle":
            game.script_shuffle_pass([[c for c, t in zip(order, chance.targets, strict=True) if t == seat]
                                      for seat in range(self.n)])
        else:
            assert isinstance(game, Match)
            game.script_next_deal(order)
        assert chance.held is not None
        game.apply(chance.held)
        if chance.kind == "shuffle":
            received = before.received
            assert received is not None
            for seat in range(self.n):
                expected = sorted(c for c, t in zip(chance.picks, chance.targets, strict=True) if t == seat)
                if sorted(c.index for c in received[seat]) != expected:  # pragma: no cover - engine change
                    raise RuntimeError("the engine's shuffle pass no longer follows the chance outcomes")
            if before.is_over:  # pragma: no cover - a pass never ends a hand
                self._round_ended(before)
            return
        self._round_ended(before)
        self.round_start = len(self.history) - len(chance.items)
        self._check_deal(chance)

    def _check_deal(self, chance: _Chance) -> None:
        assert self.turns is not None
        rnd = self.turns.round
        self.dealt = rnd.hands
        self.picks = [[] for _ in range(self.n)]
        for seat in range(self.n):
            if sorted(c.index for c in self.dealt[seat]) != sorted(c.index for c in chance.seen_by(seat)):
                raise RuntimeError("the engine's deal no longer follows the chance outcomes")  # pragma: no cover

    def _round_ended(self, rnd: Round) -> None:
        points = rnd.points
        assert points is not None
        for seat, reward in enumerate(self.setup.encoding.rewards(rnd.scores, points)):
            self.returns[seat] += reward
        for seat in range(self.n):
            self.finished[seat].append(self._round_info(seat, rnd))
        self.hands_done += 1
        game = self.turns.game if self.turns is not None else rnd
        if self.setup.episode == "round" or game.is_over or self.hands_done >= self.setup.max_hands:
            self.over = True

    # ------------------------------------------------------------------ observations

    def observation_vector(self, seat: int) -> list[float]:
        """The shared encoding's vector for ``seat`` (the deal so far while dealing)."""
        chance = self.chance
        if chance is not None and chance.kind == "deal":
            return self.setup.encoding.encode_deal(
                seat, dealer=chance.dealer, dealt=chance.seen_by(seat), scores=chance.scores,
                passing=self._deal_passing(chance), pass_count=self._deal_pass_count(chance),
            )
        assert self.turns is not None
        return self.turns.observe(seat)

    def _deal_passing(self, chance: _Chance) -> Any:
        schedule = self.setup.variant.rules.schedule
        d = schedule[chance.hand_number % len(schedule)]
        if isinstance(d, Offset) and d.k % self.n == 0:
            return HOLD
        return d

    def _deal_pass_count(self, chance: _Chance) -> int:
        rules = self.setup.variant.rules
        return pass_size(self._deal_passing(chance), rules.pass_cards, self.n)

    def history_tensor(self, seat: int) -> list[float]:
        """The dealt hand (55) then every play of the hand in order: a card one-hot and a relative seat one-hot."""
        out = [0.0] * (NUM_CARD_INDICES + self.setup.plays_per_round * (NUM_CARD_INDICES + self.n))
        for index in self.history_ones(seat):
            out[index] += 1.0
        return out

    def history_ones(self, seat: int) -> list[int]:
        """The positions of :meth:`history_tensor` that hold a 1 (a dealt card twice with two decks)."""
        setup = self.setup
        n = self.n
        width = NUM_CARD_INDICES + n
        chance = self.chance
        dealing = chance is not None and chance.kind == "deal"
        dealt = chance.seen_by(seat) if chance is not None and dealing else list(self.dealt[seat])
        out = [card.index for card in dealt]
        if dealing or self.turns is None:
            return out
        step = setup.variant.rules.step
        i = 0
        for event in self.turns.round.events:
            if isinstance(event, Play) and i < setup.plays_per_round:
                base = NUM_CARD_INDICES + i * width
                out.append(base + event.card.index)
                out.append(base + NUM_CARD_INDICES + (event.seat - seat) * step % n)
                i += 1
        return out

    def observation_string(self, seat: int) -> str:
        """The shared encoding's text for ``seat``."""
        chance = self.chance
        if chance is not None and chance.kind == "deal":
            return (f"seat {seat} of {self.n} · dealer {chance.dealer} · dealing {len(chance.picks)} of "
                    f"{len(chance.items)}\nhand: " + " ".join(c.code for c in chance.seen_by(seat)))
        assert self.turns is not None
        return self.turns.observation_text(seat)

    def information_state_string(self, seat: int) -> str:
        """Everything ``seat`` has seen this episode (perfect recall)."""
        v = self.setup.variant
        head = f"{GAME_NAME} {v.name} · seat {seat} of {self.n} · {self.setup.episode}"
        parts = [head, *self.finished[seat]]
        chance = self.chance
        if self.turns is not None and not self.over and not self.turns.round.is_over:
            parts.append(self._round_info(seat, self.turns.round))
        if chance is not None:
            if chance.held is not None and (not isinstance(chance.held, Pass) or chance.held.seat == seat):
                parts.append("then " + chance.held.text())
            if chance.kind == "deal":
                parts.append(f"hand {chance.hand_number} · dealer {chance.dealer} · dealing {len(chance.picks)} "
                             f"of {len(chance.items)}: " + " ".join(c.code for c in chance.seen_by(seat)))
            else:
                parts.append(f"shuffling the passed cards: {len(chance.picks)} of {len(chance.items)}")
        return "\n".join(parts)

    def _round_info(self, seat: int, rnd: Round) -> str:
        n = self.n
        d = rnd.passing
        lines = [
            f"hand {rnd.hand_number} · dealer {rnd.dealer} · scores " + " ".join(map(score_text, rnd.scores))
            + f" · pass {pass_name(d, n)} {rnd.pass_count}",
            "dealt: " + " ".join(c.code for c in self.dealt[seat]) if self.dealt else "dealt: -",
        ]
        if rnd is self._current_round():
            picks = self.picks[seat]
            made = sum(len(p) for p in self.picks)
        else:
            picks = [c.index for e in rnd.events if isinstance(e, Pass) and e.seat == seat for c in e.cards]
            made = -1
        if picks:
            lines.append("chose: " + " ".join(_CARDS[c].code for c in picks))
        if made > 0:
            lines.append(f"pass choices made: {made}")
        kitty_seen = self.setup.variant.rules.kitty_seen
        out: list[str] = []
        for event in rnd.events:
            if isinstance(event, Play):
                out.append(f"{event.seat}:{event.card.code}")
            elif isinstance(event, Choose):
                out.append(f"{event.seat}:choose {event.option}")
            elif isinstance(event, PassesExchanged):
                out.append("received " + " ".join(c.code for c in event.received[seat]))
            elif isinstance(event, TrickWon):
                out.append(f"-> {'cancelled' if event.winner is None else event.winner}")
            elif isinstance(event, KittyTaken) and kitty_seen and event.seat == seat:
                out.append("kitty " + " ".join(c.code for c in event.cards))
            elif isinstance(event, MoonShot):
                out.append(f"{event.kind} {event.seat} {event.outcome}")
            elif isinstance(event, RoundScored):
                out.append("points " + " ".join(map(score_text, event.points)))
        if out:
            lines.append(" ".join(out))
        return "\n".join(lines)

    def _current_round(self) -> Round | None:
        return None if self.turns is None else self.turns.round

    def text(self) -> str:
        """The whole table (every hand): ``str(state)``."""
        chance = self.chance
        lines: list[str] = []
        if self.turns is not None:
            lines.append(self.turns.table_text(self.setup.variant.name))
        if chance is not None:
            if chance.held is not None:
                lines.append("then " + chance.held.text())
            if chance.kind == "deal":
                lines.append(f"dealing hand {chance.hand_number} (dealer {chance.dealer}): "
                             f"{len(chance.picks)} of {len(chance.items)}")
                for seat in range(self.n):
                    lines.append(f"{seat}: " + " ".join(c.code for c in chance.seen_by(seat)))
            else:
                lines.append("shuffling the passed cards: " + " ".join(_CARDS[c].code for c in chance.picks))
        if self.over:
            lines.append("returns: " + " ".join(f"{r:g}" for r in self.returns))
        return "\n".join(lines)

    # ------------------------------------------------------------------ resampling

    def resample_history(self, seat: int, rng: random.Random) -> list[int]:
        """A history that ``seat`` cannot tell from the true one: the current hand's hidden cards,
        hidden pass choices and shuffle dealt anew, consistent with every play ``seat`` saw.

        Earlier hands of a match are kept as they were (nothing hidden in them matters any more).
        Raises ``ValueError`` when no consistent sample was found (then try again).
        """
        check_rng(rng, optional=False)
        check_seat(seat, self.n)
        if self.chance is not None or self.turns is None:
            raise ValueError("resample at a decision node")
        return _Resampler(self, seat, rng).history()


def _may_end_round(rnd: Round) -> bool:
    """Whether the next action can finish the hand (the last card, or the shooter's moon choice)."""
    if rnd.phase == Phase.DECIDE:
        return rnd.decision == "moon"
    if rnd.phase != Phase.PLAY:
        return False
    return sum(len(rnd.hand(s)) for s in range(rnd.n)) <= 1


def _replay(variant_toml: str, episode: str, dealer: int, hand_number: int, max_hands: int,
            params: dict[str, Any], history: Sequence[int]) -> HeartsCore:
    setup = Setup(Variant.from_toml(variant_toml), episode=episode, dealer=dealer, hand_number=hand_number,
                  max_hands=max_hands, params=params)
    return HeartsCore.replay(setup, history)


# --------------------------------------------------------------------------- resampling


class _Resampler:
    """Draws a hidden world consistent with one seat's information (see :meth:`HeartsCore.resample_history`).

    The world itself comes from :class:`heartslib.inference.Sampler` (the engine's own reading of what the
    seat knows, replayed through the rules); this class only writes its chance outcomes in OpenSpiel's
    terms: the deal card by card, the pass picks, the shuffle pass's pile.
    """

    def __init__(self, core: HeartsCore, seat: int, rng: random.Random) -> None:
        self.core = core
        self.seat = seat
        self.rng = rng
        assert core.turns is not None
        self.rnd = core.turns.round
        self.v = core.setup.variant
        self.n = self.v.players

    def history(self) -> list[int]:
        core = self.core
        world = Sampler(self.rnd.observation(self.seat), self.v).draw(self.rng)
        dealt = [[c.index for c in hand] for hand in world.dealt]
        picks = self._picks(world, dealt)
        pile = self._pile(world)
        deal_order = self._deal_order(dealt, [c.index for c in world.kitty])
        seg_start = core.round_start
        out = core.history[:seg_start]
        pick_i = [0] * self.n
        pile_i = 0
        deal_i = 0
        seats = self._pick_seats()
        for index in range(seg_start, len(core.history)):
            kind = core.kinds[index]
            action = core.history[index]
            if kind == "deal":
                out.append(deal_order[deal_i])
                deal_i += 1
            elif kind == "shuffle":
                out.append(pile[pile_i])
                pile_i += 1
            elif kind == "pick":
                s = seats[index]
                out.append(picks[s][pick_i[s]])
                pick_i[s] += 1
            else:
                out.append(action)
        return out

    def _picks(self, world: Determinization, dealt: list[list[int]]) -> list[list[int]]:
        """Each seat's pass picks: this seat's own, the sampled passes, and for a seat part-way through its
        picks (OpenSpiel picks card by card) as many passable cards of its sampled hand."""
        core = self.core
        picks: list[list[int]] = []
        for s, chosen in enumerate(world.passes):
            if s == self.seat:
                picks.append(list(core.picks[s]))
            elif chosen is not None:
                picks.append([c.index for c in chosen])
            else:
                picks.append(self._sample_picks(dealt[s], len(core.picks[s])))
        return picks

    def _sample_picks(self, dealt: list[int], count: int) -> list[int]:
        """``count`` picks from a sampled hand: passable cards, each (under ``passing.keep_last_of_suit``, which
        judges a pass as a whole) leaving a legal pass to complete, as OpenSpiel's card-by-card picks must."""
        rules = self.v.rules
        if rules.pass_keep is None:
            return self.rng.sample([c for c in dealt if c not in rules.forbidden], count)
        picked: list[int] = []
        for _ in range(count):
            picked.append(self.rng.choice(pass_extensions(dealt, picked, self.rnd.pass_count, rules.forbidden,
                                                          rules.pass_keep)))
        return picked

    def _pile(self, world: Determinization) -> list[int]:
        """A shuffle pass's pile in OpenSpiel's order: the card each receiver gets, in dealing order."""
        if world.shuffle_received is None:
            return []
        got = [[c.index for c in cards] for cards in world.shuffle_received]
        for cards in got:
            self.rng.shuffle(cards)
        return [got[t].pop() for t in _shuffle_targets(self.v, self.rnd.dealer, self.rnd.pass_count)]

    def _pick_seats(self) -> dict[int, int]:
        """The seat of each pick entry of this hand (seats pick in turn, lowest first)."""
        core = self.core
        out: dict[int, int] = {}
        counts = [len(p) for p in core.picks]
        index_by_seat: list[list[int]] = [[] for _ in range(self.n)]
        pick_entries = [i for i in range(core.round_start, len(core.history)) if core.kinds[i] == "pick"]
        pos = 0
        for s in range(self.n):
            for _ in range(counts[s]):
                index_by_seat[s].append(pick_entries[pos])
                pos += 1
        for s, entries in enumerate(index_by_seat):
            for i in entries:
                out[i] = s
        return out

    def _deal_order(self, dealt: list[list[int]], kitty: list[int]) -> list[int]:
        rng = self.rng
        targets = _deal_targets(self.v, self.rnd.dealer)
        pools = [rng.sample(h, len(h)) for h in dealt]
        kitty_left = kitty[:]
        out: list[int] = []
        for t in targets:
            if t < 0:
                out.append(kitty_left.pop(0))
            else:
                out.append(pools[t].pop())
        return out


# --------------------------------------------------------------------------- pyspiel classes



if _IMPORT_ERROR is None:
    _GAME_TYPE = pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="heartslib: the hearts family of card games",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=11,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMS,
    )


class HeartsGame(_GameBase):
    """The ``python_heartslib`` game (build it with ``pyspiel.load_game`` or :func:`load_game`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        _require()
        if params is not None and not isinstance(params, Mapping):
            raise IllegalAction("bad_argument", f"the game parameters are a dict (or None), not {arg_text(params)}")
        setup = Setup.from_params(dict(params or {}))
        super().__init__(_GAME_TYPE, setup.game_info(), setup.params)
        self.setup = setup

    def new_initial_state(self) -> HeartsState:
        """A state before the deal (a chance node)."""
        return HeartsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> HeartsObserver:
        """The observer behind the observation and information-state strings and tensors."""
        return HeartsObserver(self.setup, iig_obs_type, params)


class HeartsState(_StateBase):
    """A ``python_heartslib`` state; the game logic is :class:`HeartsCore` (``state.core``)."""

    def __init__(self, game: HeartsGame) -> None:
        super().__init__(game)
        self.core = HeartsCore(game.setup)

    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        return self.core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that can come next and their probabilities."""
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.core.action_text(player, int(action))

    def is_terminal(self) -> bool:
        """Whether the episode is over."""
        return self.core.over

    def returns(self) -> list[float]:
        """Per seat: the episode's summed rewards once it is over, else zeros."""
        core = self.core
        return core.returns[:] if core.over else [0.0] * core.n

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HeartsState:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler`` (ISMCTS)."""
        game = self.get_game()
        rng = random.Random(int(probability_sampler() * 2**53))
        for _ in range(RESAMPLE_TRIES):
            history = self.core.resample_history(player_id, rng)  # ImpossibleHistory: no deal fits at all
            state = game.new_initial_state()
            try:
                for action in history:
                    state.apply_action(action)
            except (ValueError, IllegalAction):  # pragma: no cover - the sampled world replays by construction
                continue
            return state  # type: ignore[no-any-return]
        raise RuntimeError(f"no deal consistent with seat {player_id}'s information found")

    def __str__(self) -> str:
        return self.core.text()


class HeartsObserver:
    """OpenSpiel's Python observer: ``tensor``/``dict`` from :meth:`set_from`, text from :meth:`string_from`.

    With ``perfect_recall`` (the information state) the tensor is the
    observation vector, the dealt hand and the ordered plays of the hand;
    otherwise just the observation vector.
    """

    def __init__(self, setup: Setup, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        enc = setup.encoding
        n = setup.variant.players
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", enc.size, (enc.size,))]
        if self.perfect_recall:
            width = NUM_CARD_INDICES + n
            pieces += [("dealt", NUM_CARD_INDICES, (NUM_CARD_INDICES,)),
                       ("plays", setup.plays_per_round * width, (setup.plays_per_round, width))]
        size = sum(p[1] for p in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        pos = 0
        for name, length, shape in pieces:
            self.dict[name] = self.tensor[pos : pos + length].reshape(shape)
            pos += length

    def set_from(self, state: HeartsState, player: int) -> None:
        """Fill the tensor with ``player``'s view of ``state``."""
        core = state.core
        vec = core.observation_vector(player)
        tensor = self.tensor
        tensor[: len(vec)] = vec
        if self.perfect_recall:
            tail = tensor[len(vec) :]
            tail.fill(0.0)
            np.add.at(tail, core.history_ones(player), 1.0)

    def string_from(self, state: HeartsState, player: int) -> str:
        """``player``'s information state string (perfect recall) or observation string."""
        core = state.core
        return core.information_state_string(player) if self.perfect_recall else core.observation_string(player)


def load_game(variant: str | Path = "standard", **params: Any) -> Any:
    """``pyspiel.load_game("python_heartslib", ...)`` from a preset name or a ``.toml`` path.

    Other parameters (``episode``, ``dealer``, ``hand_number``, ``max_hands``) pass through.
    """
    _require()
    if isinstance(variant, Path) or str(variant).endswith(".toml"):
        params["variant_file"] = str(variant)
    else:
        params["preset"] = str(variant)
    return pyspiel.load_game(GAME_NAME, params)


if _IMPORT_ERROR is None and GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, HeartsGame)
