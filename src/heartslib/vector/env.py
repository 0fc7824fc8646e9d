"""The numpy backend of :mod:`heartslib.vector`: one hand per game, N games stepped in lockstep.

Every rule is read from the compiled per-card tables of the variant (:class:`heartslib.engine.rules.Rules`:
``suit``, ``rank``, ``value``, ``penalty``, ``bonus``, ``breaks``, ``first_trick_banned``, ``forbidden``,
``must_discard``, ``opening_order``, ``deal_seats``, ``team_of`` ...), turned into numpy arrays once, and the
legality narrowings are those of :func:`heartslib.engine.legality.candidates`, written over card masks. A
variant whose rules this module does not implement is refused by :func:`check_supported` with a
:class:`~heartslib.VariantError` naming the field and its value, rather than played approximately.

The state is a set of arrays (:class:`State`); :meth:`Env.step` returns a new state and never changes the one
it is given. Each game keeps the action ids applied to it (``log``), so :meth:`Env.to_round` replays them
through :class:`heartslib.Round` (the pass, one card at a time, as :class:`heartslib.adapters.encoding.Turns`
groups it) and the round it returns is the one the same actions make through ``Round.apply``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

import numpy as np

from heartslib.adapters.encoding import CARD_ACTIONS, SCORE_SCALE, Encoding, Turns
from heartslib.cards import NUM_CARD_INDICES, Card
from heartslib.engine.dealing import canonical
from heartslib.engine.tables import HEART, QS, SPADE
from heartslib.enums import (
    DEALERS_CHOICE,
    HOLD,
    SCATTER,
    SHUFFLE,
    STAR,
    LeadHeartsUnbroken,
    Measure,
    MoonKind,
    MoonRequires,
    Offset,
    Opening,
    PassDirection,
    Phase,
    Sun,
    Winner,
)
from heartslib.errors import IllegalAction
from heartslib.round import Round, engine_state
from heartslib.variant import Variant, expect_variant
from heartslib.vector.support import check_supported

__all__ = ["Env", "State", "check_supported"]

C: Final = NUM_CARD_INDICES
#: Phase codes, in the order of the encoding's ``phase`` section (decide, pass, play, over).
DECIDE: Final = 0
PASS: Final = 1
PLAY: Final = 2
OVER: Final = 3
_PHASE_OF: Final = {Phase.DECIDE: DECIDE, Phase.PASS: PASS, Phase.PLAY: PLAY, Phase.OVER: OVER}
_SPECIAL: Final = (SCATTER, STAR, SHUFFLE, DEALERS_CHOICE)

#: The arrays of a state, each (N, ...): name -> dtype (the shapes are set by :class:`_Shape`).
_ARRAYS: Final = (
    "owner", "played", "taker", "pass_from", "pass_pick", "recv_by", "trick_cards", "trick_len", "leader", "led",
    "phase", "turn", "passed", "picks", "trick_no", "broken", "won", "hand_count", "points_vis", "scores",
    "dealer", "pass_code", "pass_dest", "pass_size", "opening", "lead", "sun_seat", "shooter", "points",
    "rewards", "terminated", "log", "log_len", "legal_action_mask", "seed", "hand_number",
    "origin",
)
#: The arrays every step writes, and those a step of each phase may write (resolving a trick, exchanging the
#: passes and ending the hand included): a step copies these and shares the others (see ``State._copy``).
_STEPPED: Final = frozenset({"rewards", "log", "log_len", "legal_action_mask"})
_WRITES: Final = {
    PLAY: frozenset({"owner", "played", "trick_cards", "trick_len", "led", "broken", "hand_count", "turn"}),
    PASS: frozenset({"pass_from", "pass_pick", "picks", "passed", "turn", "owner", "recv_by", "opening", "phase",
                     "leader"}),
    DECIDE: frozenset({"points", "phase", "turn", "terminated"}),
}
#: What a play that completes a trick writes besides (``_resolve``, and ``_score`` after the last trick).
_TRICK_WRITES: Final = frozenset({"taker", "points_vis", "points", "won", "sun_seat", "trick_no", "leader", "phase",
                                  "shooter", "terminated"})


class _Tables:
    """A supported variant's rules as numpy arrays, built once from :attr:`heartslib.Variant.rules`."""

    def __init__(self, v: Variant) -> None:
        rules = v.rules
        self.n = n = v.players
        self.step = rules.step
        self.hand_size = rules.hand_size
        self.suit = np.array([s if s < 4 else 4 for s in rules.suit], dtype=np.int8)
        self.rank = np.array(rules.rank, dtype=np.int8)
        self.value = np.array([int(x.real) for x in rules.value], dtype=np.int32)
        self.penalty = np.array(rules.penalty, dtype=np.int32)
        self.bonus = np.array(rules.bonus, dtype=np.int32)
        self.bonus_value = self.value * self.bonus
        self.breaks = np.array(rules.breaks, dtype=bool)
        self.suit_mask = np.array([[s == k for s in rules.suit] for k in range(5)], dtype=bool)
        self.heart = self.suit_mask[HEART]
        self.pen_or_heart = np.array(rules.penalty, dtype=bool) | self.heart
        locked = self.heart.copy()
        if rules.queen_needs_broken:
            locked[QS] = True
        self.unlocked = ~locked
        self.locks = rules.locks_hearts
        self.penalty_exempt = rules.lead_hearts_unbroken == LeadHeartsUnbroken.ONLY_PENALTY_CARDS
        banned = rules.first_trick_banned
        self.banned = None if banned is None else ~np.array(banned, dtype=bool)  # kept: the cards allowed
        self.queen_forced = rules.queen_forced
        self.must = np.zeros(C, dtype=bool)
        self.must[list(rules.must_discard)] = True
        self.must_any = bool(rules.must_discard)
        self.must_all = len(rules.must_discard) if rules.must_discard_if_all else 0
        self.passable = np.ones(C, dtype=bool)
        self.passable[list(rules.forbidden)] = False
        self.open_card = rules.opening_order[0] if rules.needs_opening_card() and rules.opening_order else -1
        self.two_of_clubs = rules.opening == Opening.TWO_OF_CLUBS
        self.open_suit = rules.open_suit
        self.team_of = np.array(rules.team_of, dtype=np.int8)
        self.pack = np.array(rules.pack, dtype=np.int64)
        self.deal_seats = np.array(rules.deal_seats, dtype=np.int8)
        self.seats = np.arange(n, dtype=np.int8)
        # seat_at[me, r]: the seat r places after me in the direction of play; rel[me, seat]: the other way
        # round (tables, so that an observation takes no modulo over its cards)
        self.seat_at = np.array([[(me + self.step * r) % n for r in range(n)] for me in range(n)], dtype=np.int8)
        self.rel = np.array([[(seat - me) * self.step % n for seat in range(n)] for me in range(n)], dtype=np.int64)
        moon = v.moon
        self.moon = moon
        self.moon_points = int(rules.moon_points.real)
        self.no_tricks = v.scoring.no_tricks
        self.magnitude = v.end.measure == Measure.MAGNITUDE
        self.reward_sign = 1.0 if v.end.winner == Winner.HIGHEST else -1.0
        self.sun_start = 1 if moon.sun_skips_first_trick else 0
        self.max_pass = max((_pass_size(d, rules.pass_cards, n) for d in rules.schedule), default=0)
        self.log_size = n * max(self.max_pass, 1) + len(rules.pack) + 2
        self.old_id = -1  # the id of the moon choice "old", set by the Env (ids follow the variant's options)
        self.only_open = np.arange(C) == self.open_card
        self.only_qs = np.arange(C) == QS
        #: The array namespace the rules' functions compute with (numpy here; :meth:`on` gives jax's), the
        #: integer type they index with, and whether they may look at the data to skip work (numpy only: a
        #: traced jax function cannot branch on its values).
        self.xp: Any = np
        self.ix: Any = np.int64
        self.eager = True

    def on(self, xp: Any, ix: Any) -> _Tables:
        """These tables with every array moved to the array namespace ``xp`` (e.g. ``jax.numpy``), indexed
        with ``ix``: the same rules, computed by another backend."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                setattr(other, name, xp.asarray(value.astype(ix) if value.dtype == np.int64 else value))
        other.xp, other.ix, other.eager = xp, ix, False
        return other


def _per_game(value: Any, n_games: int, name: str, bound: int | None) -> Any:
    """``value`` (one whole number, or one per game) as an (N,) int64 array, each in ``0..bound - 1`` (or
    ``>= 0`` without a bound); :class:`~heartslib.IllegalAction` otherwise."""
    arr = np.asarray(value)
    if arr.ndim == 0:
        arr = np.full(n_games, arr)
    within = f"0..{bound - 1}" if bound is not None else ">= 0"
    if arr.shape != (n_games,) or not (np.issubdtype(arr.dtype, np.integer) or n_games == 0) or \
            (arr < 0).any() or (bound is not None and (arr >= bound).any()):
        raise IllegalAction("bad_argument", f"{name} is one whole number {within} or one per game ({n_games}), "
                            f"not {value!r}")
    return arr.astype(np.int64)


def _pass_size(d: PassDirection, cards: int, n: int) -> int:
    """Cards each seat passes in direction ``d`` (the engine's ``values.pass_size``)."""
    if d is HOLD:
        return 0
    if d is STAR:
        return 2
    if d is SCATTER:
        return n - 1
    return cards


def _pass_code(d: PassDirection, n: int) -> int:
    """The slot of the encoding's ``pass_direction`` section for ``d``."""
    if isinstance(d, Offset):
        return d.k % n
    if d is HOLD:
        return 0
    return n + _SPECIAL.index(d)


def _pass_offsets(d: PassDirection, size: int) -> list[int]:
    """How many seats on (in the direction of play) each card of a pass goes, by its place in the pass."""
    if d is SCATTER:
        return [i + 1 for i in range(size)]
    if d is STAR:
        return [i + 2 for i in range(size)]
    if isinstance(d, Offset):
        return [d.k] * size
    return []


class State:
    """The arrays of N games (each a hand of the variant), as :meth:`Env.init` and :meth:`Env.step` return them.

    Public arrays: ``current_player`` (N,) int8 (-1 once the hand is over), ``legal_action_mask`` (N, A) bool,
    ``observation`` (N, D) float32 for the player to act (built on first access, then kept), ``rewards`` (N, P)
    float32 (this step's), ``terminated`` (N,) bool, ``points`` (N, P) int32 (the card points of the tricks
    each seat took so far; once the hand is over, its points as the variant scores them, moon included).
    The other attributes are the internal arrays the environment steps; treat every array as read-only.
    """

    __slots__ = ("_env", "_obs", "_origins", *_ARRAYS)

    owner: Any
    played: Any
    taker: Any
    pass_from: Any
    pass_pick: Any
    recv_by: Any
    trick_cards: Any
    trick_len: Any
    leader: Any
    led: Any
    phase: Any
    turn: Any
    passed: Any
    picks: Any
    trick_no: Any
    broken: Any
    won: Any
    hand_count: Any
    points_vis: Any
    scores: Any
    dealer: Any
    pass_code: Any
    pass_dest: Any
    pass_size: Any
    opening: Any
    lead: Any
    sun_seat: Any
    shooter: Any
    points: Any
    rewards: Any
    terminated: Any
    log: Any
    log_len: Any
    legal_action_mask: Any
    seed: Any
    hand_number: Any
    origin: Any

    def __init__(self, arrays: dict[str, Any], env: Env, origins: tuple[Round, ...] = ()) -> None:
        for name in _ARRAYS:
            setattr(self, name, arrays[name])
        self._env = env
        self._obs: Any = None
        # the rounds from_rounds started these games from (``origin`` indexes them), shared by the states
        # stepped from this one and dropped with them (the environment keeps none)
        self._origins = origins

    @property
    def current_player(self) -> Any:
        """(N,) int8: the seat to act in each game (-1 once its hand is over)."""
        return self.turn

    @property
    def batch_size(self) -> int:
        """N, the number of games."""
        return int(self.turn.shape[0])

    def nbytes(self) -> int:
        """The bytes of the arrays that make the state (the observation, built on demand, not counted)."""
        return sum(int(getattr(self, name).nbytes) for name in _ARRAYS)

    def _copy(self, names: Iterable[str] = _ARRAYS) -> State:
        """A state with its own copy of the arrays ``names``; the others are shared with this one and made
        read-only in both, so a step that writes to an array it did not copy fails loudly instead of changing
        the state it was given."""
        copied = set(names)
        arrays: dict[str, Any] = {}
        for name in _ARRAYS:
            a = getattr(self, name)
            if name in copied:
                arrays[name] = a.copy()
            else:
                if a.flags.writeable:  # reading the flag is a fifth of the cost of setting it
                    a.flags.writeable = False
                arrays[name] = a
        return State(arrays, self._env, self._origins)

    @property
    def observation(self) -> Any:
        """(N, D) float32: each game's observation for the player to act (see :class:`Env`), built on first
        access (a learner that reads it every step pays for it every step; a search that never does, never)."""
        if self._obs is None:
            self._obs = self._env.observe(self)
        return self._obs


class Env:
    """A batched, functional environment for one supported variant (see the module docs and ``docs/vector.md``).

    * an **episode is one hand**; :meth:`init` deals N hands exactly as ``Round.deal(variant, seed=s)`` does,
      :meth:`from_rounds` takes N rounds in any phase but a pass half-chosen;
    * an **action id** is a card index (:mod:`heartslib.cards`, A = 55 ids before any decision) or, from 55 on,
      a decision option of :attr:`heartslib.adapters.encoding.Encoding.options` (with ``moon.kind = "choice"``:
      55 = ``"old"``, 56 = ``"new"``); a pass is chosen one card at a time, the seats still to pass in turn,
      lowest seat first (as :class:`heartslib.adapters.encoding.Turns` and OpenSpiel's ``hearts`` do it);
    * the **observation** is :class:`heartslib.adapters.encoding.Encoding`'s vector for the player to act
      (for a game whose hand is over, seat 0's, with ``acting`` 0);
    * **rewards** are :meth:`Encoding.rewards` of the hand, on the step that ends it, else 0;
    * stepping a **terminated** game is a no-op (its action is ignored; no autoreset).
    """

    def __init__(self, variant: Variant, backend: str = "numpy") -> None:
        if backend != "numpy":
            raise ValueError(f"backend {backend!r} is not available: heartslib.vector has the 'numpy' backend")
        self.variant = expect_variant(variant)
        check_supported(self.variant)
        self.backend = backend
        self.encoding = Encoding(self.variant)
        """The encoding of the observations and action ids."""
        self._t = _Tables(self.variant)
        self.num_players: int = self.variant.players
        self.num_actions: int = self.encoding.num_actions
        """A: card indices 0..54, then the variant's decision options."""
        self.observation_size: int = self.encoding.size
        """D, the length of an observation."""
        self._choice_ids = (self.encoding.option_id("old"), self.encoding.option_id("new")) \
            if self.variant.moon.kind == MoonKind.CHOICE else ()
        if self._choice_ids:
            self._t.old_id = self._choice_ids[0]

    # ------------------------------------------------------------------ making states

    def _blank(self, n_games: int) -> dict[str, Any]:
        t = self._t
        p = t.n
        z = np.zeros
        neg = np.full
        return {
            "owner": neg((n_games, C), -1, np.int8), "played": neg((n_games, C), -1, np.int8),
            "taker": neg((n_games, C), -1, np.int8), "pass_from": neg((n_games, C), -1, np.int8),
            "pass_pick": neg((n_games, C), -1, np.int8), "recv_by": neg((n_games, C), -1, np.int8),
            "trick_cards": neg((n_games, p), -1, np.int8), "trick_len": z(n_games, np.int8),
            "leader": neg(n_games, -1, np.int8), "led": neg(n_games, -1, np.int8), "phase": z(n_games, np.int8),
            "turn": neg(n_games, -1, np.int8), "passed": z((n_games, p), bool), "picks": z(n_games, np.int8),
            "trick_no": z(n_games, np.int8), "broken": z(n_games, bool), "won": z((n_games, p), np.int8),
            "hand_count": z((n_games, p), np.int8), "points_vis": z((n_games, p), np.int32),
            "scores": z((n_games, p), np.int64), "dealer": z(n_games, np.int8), "pass_code": z(n_games, np.int8),
            "pass_dest": z((n_games, max(t.max_pass, 1)), np.int8), "pass_size": z(n_games, np.int8),
            "opening": neg(n_games, -1, np.int8), "lead": neg(n_games, -1, np.int8),
            "sun_seat": neg(n_games, -2, np.int8), "shooter": neg(n_games, -1, np.int8),
            "points": z((n_games, p), np.int32), "rewards": z((n_games, p), np.float32),
            "terminated": z(n_games, bool), "log": neg((n_games, t.log_size), -1, np.int8),
            "log_len": z(n_games, np.int16), "legal_action_mask": z((n_games, self.num_actions), bool),
            "seed": z(n_games, np.uint64), "hand_number": z(n_games, np.int64), "origin": neg(n_games, -1, np.int32),
        }

    def init(self, seeds: Iterable[int] | Any, *, dealer: int | Any = 0, hand_number: int | Any = 0) -> State:
        """N hands, game ``i`` dealt exactly as ``Round.deal(variant, seed=seeds[i], dealer=dealer[i],
        hand_number=hand_number[i])``; ``dealer`` and ``hand_number`` (which picks the pass of the schedule) are
        one for every game or one per game."""
        seed_list = [int(s) for s in np.asarray(seeds, dtype=object).reshape(-1)]
        for s in seed_list:
            if not 0 <= s < 2**64:
                raise IllegalAction("bad_argument", f"a seed is a whole number from 0 to 2**64 - 1, not {s}")
        n_games = len(seed_list)
        t = self._t
        dealers = _per_game(dealer, n_games, "dealer", t.n)
        hands = _per_game(hand_number, n_games, "hand_number", None)
        a = self._blank(n_games)
        a["seed"][:] = np.array(seed_list, dtype=np.uint64)
        a["dealer"][:] = dealers
        a["hand_number"][:] = hands
        orders = _shuffled(self._t.pack, seed_list)
        a["owner"][np.arange(n_games)[:, None], orders] = t.deal_seats[dealers]
        a["hand_count"][:] = t.hand_size
        schedule = self.variant.rules.schedule
        which = hands % len(schedule)
        for j in np.unique(which):
            d = schedule[int(j)]
            self._set_pass(a, which == j, canonical(d, t.n) if isinstance(d, Offset) else d)
        st = State(a, self)
        self._start(st, np.arange(n_games))
        return self._finish(st)

    def _set_pass(self, a: dict[str, Any], rows: Any, d: PassDirection) -> None:
        size = _pass_size(d, self.variant.rules.pass_cards, self._t.n)
        a["pass_code"][rows] = _pass_code(d, self._t.n)
        a["pass_size"][rows] = size
        offsets = _pass_offsets(d, size)
        if offsets:
            a["pass_dest"][rows, : len(offsets)] = offsets

    def _start(self, st: State, rows: Any) -> None:
        """The start of a hand: the pass phase, or the first lead for a hold hand."""
        hold = st.pass_size[rows] == 0
        st.phase[rows] = PASS
        st.turn[rows] = 0
        if hold.any():
            _begin_play(self._t, st, rows[hold])

    def from_rounds(self, rounds: Sequence[Round]) -> State:
        """N games from N rounds of this variant, in any phase (the pass too, for seats that have not passed)."""
        rounds = list(rounds)
        a = self._blank(len(rounds))
        origins: list[Round] = []
        for g, r in enumerate(rounds):
            if not isinstance(r, Round) or r.variant != self.variant:
                raise IllegalAction("bad_argument", f"rounds[{g}] is not a Round of this environment's variant")
            _read_round(self._t, a, g, engine_state(r))  # the engine state, read once
            a["origin"][g] = g
            origins.append(r.copy())
        st = State(a, self, tuple(origins))
        return self._finish(st)

    def _finish(self, st: State) -> State:
        live = np.flatnonzero(~st.terminated)
        st.legal_action_mask[:] = False
        if live.size:
            _masks(self._t, st, live, self._choice_ids)
        return st

    # ------------------------------------------------------------------ stepping

    def step(self, state: State, actions: Any, *, active: Any = None) -> State:
        """A new state after each live game's action id (terminated games ignore theirs; ``state`` is unchanged).

        ``active``, an (N,) bool array, steps only the games where it is True: the others are left as they are
        and ignore their action, as a terminated game does (an adapter steps the opponents' games while the
        learner's wait). Raises :class:`~heartslib.IllegalAction` naming the game, the seat and the card (or
        option) of the first action that is not legal in its game, before anything is applied."""
        acts = np.asarray(actions)
        n_games = state.batch_size
        if acts.shape != (n_games,) or not (np.issubdtype(acts.dtype, np.integer) or n_games == 0):
            raise IllegalAction("bad_argument", f"actions must be {n_games} integer action ids, "
                                f"not an array of shape {acts.shape} and dtype {acts.dtype}")
        live = ~state.terminated
        if active is not None:
            on = np.asarray(active)
            if on.shape != (n_games,) or on.dtype != np.bool_:
                raise IllegalAction("bad_argument", f"active must be {n_games} booleans, not an array of shape "
                                    f"{on.shape} and dtype {on.dtype}")
            live &= on
        ok = (acts >= 0) & (acts < self.num_actions)
        safe = np.where(ok, acts, 0)
        legal = ok & state.legal_action_mask[np.arange(n_games), safe]
        bad = np.flatnonzero(live & ~legal)
        if bad.size:
            self._refuse(state, int(bad[0]), int(acts[bad[0]]))
        rows = np.flatnonzero(live)
        st = state._copy(self._writes(state, rows))
        st.rewards[:] = 0.0  # this step's rewards: a game over before it gets none
        if rows.size == 0:
            return st
        a = safe[rows].astype(np.int64)
        st.log[rows, st.log_len[rows]] = a
        st.log_len[rows] += 1
        t = self._t
        phase = st.phase[rows]
        for code, fn in ((PLAY, _play), (PASS, _pick), (DECIDE, _choose)):
            sel = phase == code
            if sel.all():
                fn(t, st, rows, a)
            elif sel.any():
                fn(t, st, rows[sel], a[sel])
        over = st.terminated[rows]
        st.legal_action_mask[rows[over]] = False
        live_now = rows[~over]
        if live_now.size:
            _masks(t, st, live_now, self._choice_ids)
        return st

    def _writes(self, state: State, rows: Any) -> frozenset[str]:
        """The arrays a step of the games ``rows`` may write (the others are shared with ``state``)."""
        phase = state.phase[rows]
        out = _STEPPED.union(*(_WRITES[code] for code in (PLAY, PASS, DECIDE) if (phase == code).any()))
        if (state.trick_len[rows] == self._t.n - 1).any():  # a play completes a trick
            out |= _TRICK_WRITES
        return out

    def _refuse(self, st: State, g: int, action: int) -> None:
        seat = int(st.turn[g])
        what = {PLAY: "play", PASS: "pass", DECIDE: "choose"}.get(int(st.phase[g]), "act")
        if 0 <= action < C:
            shown = Card.from_index(action).code
        elif CARD_ACTIONS <= action < self.num_actions:
            shown = self.encoding.option(action)
        else:
            shown = f"action id {action} (ids are 0..{self.num_actions - 1})"
        legal = " ".join(self.encoding.action_text(int(i)) for i in np.flatnonzero(st.legal_action_mask[g]))
        raise IllegalAction("illegal_action_index",
                            f"game {g}: seat {seat} may not {what} {shown} now (legal: {legal})")

    def random_actions(self, state: State, rng: Any) -> Any:
        """One uniformly random legal action id per game (0 for a terminated game), from ``rng``
        (a :class:`numpy.random.Generator`)."""
        # the k-th legal id of each game, k uniform below its number of legal ids: one draw a game, not one an
        # id, read from the flat positions of every legal id (row by row), not from a cumulative sum per row
        mask = state.legal_action_mask
        n_games, width = mask.shape
        legal = np.flatnonzero(mask)
        if not legal.size:
            return np.zeros(n_games, dtype=np.int64)
        counts = mask.sum(1)
        k = (rng.random(n_games) * counts).astype(np.int64)
        at = np.minimum(np.cumsum(counts) - counts + k, legal.size - 1)  # clipped: a game with none legal
        return np.where(counts > 0, legal[at] - np.arange(n_games) * width, 0)

    # ------------------------------------------------------------------ reading states

    def to_round(self, state: State, i: int) -> Round:
        """Game ``i`` as a :class:`heartslib.Round`: its deal (or the round it was made from) with its actions
        applied through ``Round.apply``. The cards chosen so far of a pass not yet complete are not part of a
        round (as :attr:`heartslib.adapters.encoding.Turns.pending`): the round is the one before them."""
        return self.to_turns(state, i).round

    def to_turns(self, state: State, i: int) -> Turns:
        """Game ``i`` as a :class:`heartslib.adapters.encoding.Turns`: :meth:`to_round`'s round with the cards
        chosen so far of a pass not yet complete as its ``pending`` (the game exactly as the ids left it)."""
        i = int(i)
        if not 0 <= i < state.batch_size:
            raise IllegalAction("bad_argument", f"game {i} is not in a batch of {state.batch_size}")
        origin = int(state.origin[i])
        r = state._origins[origin].copy() if origin >= 0 else Round.deal(
            self.variant, seed=int(state.seed[i]), dealer=int(state.dealer[i]), hand_number=int(state.hand_number[i]))
        turns = Turns(self.encoding, r)
        for k in range(int(state.log_len[i])):
            seat = turns.current()
            assert seat is not None
            turns.apply_id(seat, int(state.log[i, k]))
        return turns

    def observe(self, state: State, seat: Any = None) -> Any:
        """(N, D) float32: each game's observation for the player to act (what ``state.observation`` holds), or
        with ``seat`` (a seat, or (N,) seats) that seat's, ``acting`` set where it is the seat to act."""
        if seat is None:
            return _observe(self._t, self.encoding, state)
        seats = np.broadcast_to(np.asarray(seat), (state.batch_size,))
        if not np.issubdtype(seats.dtype, np.integer) or ((seats < 0) | (seats >= self.num_players)).any():
            raise IllegalAction("no_such_seat", f"seat must be a seat 0..{self.num_players - 1} (or one per game), "
                                f"not {seat!r}")
        return _observe(self._t, self.encoding, state, seats.astype(np.int64))

    def reset_where(self, state: State, where: Any, seeds: Iterable[int] | Any, *, dealer: int | Any = 0,
                    hand_number: int | Any = 0) -> State:
        """A new state in which the games ``where`` ((N,) bool) are new hands dealt from ``seeds`` (one per game
        replaced; ``dealer`` and ``hand_number`` as :meth:`init` takes them) and the others are as in
        ``state``: an autoreset (``state`` is unchanged)."""
        rows = np.flatnonzero(np.asarray(where, dtype=bool))
        fresh = self.init(seeds, dealer=dealer, hand_number=hand_number)
        if fresh.batch_size != rows.size:
            raise IllegalAction("bad_argument", f"{rows.size} games are replaced, so {rows.size} seeds are needed, "
                                f"not {fresh.batch_size}")
        st = state._copy()
        for name in _ARRAYS:
            getattr(st, name)[rows] = getattr(fresh, name)
        return st


# ---------------------------------------------------------------------- the deal


def _shuffled(pack: Any, seeds: list[int]) -> Any:
    """Each seed's shuffle of ``pack``: the engine's Fisher–Yates (``engine.dealing.shuffled``), the same
    ``random.Random(seed).random()`` draws, with the swaps done for every game at once."""
    k = len(pack)
    draws = np.empty((len(seeds), max(k - 1, 0)), dtype=np.float64)
    for g, s in enumerate(seeds):
        draw = random.Random(s).random
        draws[g] = [draw() for _ in range(k - 1)]
    out = np.tile(pack, (len(seeds), 1))
    rows = np.arange(len(seeds))
    for col, i in enumerate(range(k - 1, 0, -1)):
        j = (draws[:, col] * (i + 1)).astype(np.int64)  # int(draw() * (i + 1)): the draw is >= 0
        a = out[:, i].copy()
        out[:, i] = out[rows, j]
        out[rows, j] = a
    return out


def _read_round(t: _Tables, a: dict[str, Any], g: int, s: Any) -> None:
    """Fill game ``g`` of the arrays ``a`` from a round's engine state ``s``."""
    if s.phase is Phase.DECIDE and (s.decision is None or s.decision[0].value != "moon"):
        raise IllegalAction("bad_argument", f"rounds[{g}]: heartslib.vector takes no {s.decision[0]} decision")
    for seat, hand in enumerate(s.hands):
        a["owner"][g, hand] = seat
        a["hand_count"][g, seat] = len(hand)
    a["scores"][g] = [int(x.real) for x in s.scores]
    a["dealer"][g] = s.dealer
    a["hand_number"][g] = s.hand_number
    a["lead"][g] = s.lead
    code = _pass_code(s.passing, t.n)
    a["pass_code"][g] = code
    a["pass_size"][g] = s.pass_size
    offsets = _pass_offsets(s.passing, s.pass_size)
    a["pass_dest"][g, : len(offsets)] = offsets
    for seat, p in enumerate(s.passes):
        if p is not None:
            a["passed"][g, seat] = True
            a["pass_from"][g, list(p)] = seat
            a["pass_pick"][g, list(p)] = range(len(p))
    if s.received is not None:
        for seat, rec in enumerate(s.received):
            a["recv_by"][g, list(rec)] = seat
    for raw in s.tricks:
        number, _, seats, cards, winner, _ = raw
        a["played"][g, list(cards)] = seats
        a["taker"][g, list(cards)] = winner
        a["points_vis"][g, winner] += int(sum(t.value[c] for c in cards))
        a["won"][g, winner] += 1
        if number >= t.sun_start:
            ss = int(a["sun_seat"][g])
            a["sun_seat"][g] = winner if ss in (-2, winner) else -1
    a["played"][g, list(s.tcards)] = s.tseats
    a["trick_cards"][g, : len(s.tcards)] = s.tcards
    a["trick_len"][g] = len(s.tcards)
    a["led"][g] = s.tsuit if s.tcards else -1
    a["trick_no"][g] = s.trick_no
    a["broken"][g] = s.broken
    a["leader"][g] = s.leader
    a["opening"][g] = s.opening
    a["phase"][g] = _PHASE_OF[s.phase]
    a["turn"][g] = s.turn
    if s.phase is Phase.PASS:
        a["turn"][g] = min(seat for seat, p in enumerate(s.passes) if p is None)
    elif s.phase is Phase.DECIDE:
        a["shooter"][g] = a["turn"][g] = s.decision[1]
    elif s.phase is Phase.OVER:
        a["turn"][g] = -1
        a["terminated"][g] = True
        a["points"][g] = [int(x.real) for x in s.outcome.points]
    if s.phase is not Phase.OVER:
        a["points"][g] = a["points_vis"][g]


# ---------------------------------------------------------------------- one step


def _play(t: _Tables, st: State, rows: Any, a: Any) -> None:
    """Each game of ``rows`` plays card ``a`` (legal); a complete trick resolves."""
    at = slice(None) if rows.size == st.batch_size else rows  # the whole batch: views, not gathers
    seat = st.turn[at].astype(np.int64)
    st.owner[rows, a] = -1
    st.played[rows, a] = seat
    tl = st.trick_len[at].astype(np.int64)
    st.trick_cards[rows, tl] = a
    st.led[at] = np.where(tl == 0, t.suit[a], st.led[at])
    st.broken[at] |= t.breaks[a]
    st.hand_count[rows, seat] -= 1
    tl += 1
    st.trick_len[at] = tl
    st.turn[at] = (seat + t.step) % t.n
    done = tl == t.n
    if done.all():
        _resolve(t, st, rows)
    elif done.any():
        _resolve(t, st, rows[done])


def _resolve(t: _Tables, st: State, q: Any) -> None:
    """The complete tricks of games ``q``: the highest card of the suit led takes them."""
    tc = st.trick_cards[q].astype(np.int64)
    w = _winner(t, tc, st.led[q], st.leader[q])
    st.taker[q[:, None], tc] = w[:, None]
    st.points_vis[q, w] += t.value[tc].sum(1)
    st.points[q] = st.points_vis[q]
    st.won[q, w] += 1
    tn = st.trick_no[q].astype(np.int64)
    st.sun_seat[q] = _sun_after(t, tn, st.sun_seat[q], w)
    st.trick_no[q] = tn + 1
    st.leader[q] = w
    st.turn[q] = w
    st.trick_len[q] = 0
    st.led[q] = -1
    st.trick_cards[q] = -1
    end = tn + 1 == t.hand_size
    if end.any():
        _score(t, st, q[end])


def _winner(t: _Tables, tc: Any, led: Any, leader: Any) -> Any:
    """The seat that takes each complete trick (``tc``: its cards in the order played, ``leader`` its first
    player): the highest card of the suit ``led``."""
    score = t.xp.where(t.suit[tc] == led[:, None], t.rank[tc], -1)
    return (leader.astype(t.ix) + t.step * score.argmax(1)) % t.n


def _sun_after(t: _Tables, trick_no: Any, sun_seat: Any, w: Any) -> Any:
    """``sun_seat`` after seat ``w`` took trick ``trick_no``: -2 before any trick counted, the one seat that
    took every trick counted so far, or -1."""
    xp = t.xp
    return xp.where(trick_no >= t.sun_start, xp.where((sun_seat == -2) | (sun_seat == w), w, -1), sun_seat)


def _pick(t: _Tables, st: State, rows: Any, a: Any) -> None:
    """Each game of ``rows``: the seat choosing its pass picks card ``a``; a complete pass moves to the next
    seat, and the last one exchanges."""
    seat = st.turn[rows].astype(np.int64)
    picks = st.picks[rows].astype(np.int64)
    st.pass_from[rows, a] = seat
    st.pass_pick[rows, a] = picks
    picks += 1
    full = picks == st.pass_size[rows]
    st.picks[rows] = np.where(full, 0, picks)
    if not full.any():
        return
    f = rows[full]
    st.passed[f, seat[full]] = True
    turn = _next_passer(t, st.passed[f])
    st.turn[f] = turn
    x = f[turn < 0]
    if x.size:
        _exchange(t, st, x)


def _next_passer(t: _Tables, passed: Any) -> Any:
    """The lowest seat that has not passed yet in each game, -1 where every seat has."""
    left = ~passed
    return t.xp.where(left.any(1), left.argmax(1), -1)


def _exchange(t: _Tables, st: State, x: Any) -> None:
    """Every seat of games ``x`` has passed: each card goes to its seat, then play begins."""
    sel, to = _pass_targets(t, st, x)
    st.owner[x] = np.where(sel, to, st.owner[x])
    st.recv_by[x] = np.where(sel, to, -1)
    _begin_play(t, st, x)


def _pass_targets(t: _Tables, st: State, x: Any) -> tuple[Any, Any]:
    """Per card of games ``x``: whether it was passed, and the seat it goes to."""
    xp = t.xp
    frm = st.pass_from[x].astype(t.ix)
    dest = xp.take_along_axis(st.pass_dest[x], xp.maximum(st.pass_pick[x], 0).astype(t.ix), axis=1)
    return frm >= 0, (frm + t.step * dest.astype(t.ix)) % t.n


def _begin_play(t: _Tables, st: State, b: Any) -> None:
    """The first lead of games ``b`` (``engine.tricks.begin_play``)."""
    leader, opening = _first_lead(t, st, b)
    if t.open_card >= 0:
        st.opening[b] = opening
    st.phase[b] = PLAY
    st.leader[b] = leader
    st.turn[b] = leader


def _first_lead(t: _Tables, st: State, b: Any) -> tuple[Any, Any]:
    """The first leader of games ``b`` (the opening taker given, or the holder of the opening card, or eldest
    hand) and the card that must open (-1 for none; only meaningful where the variant has an opening card)."""
    xp = t.xp
    lead = st.lead[b]
    if t.open_card >= 0:
        return xp.where(lead >= 0, lead, st.owner[b, t.open_card]), xp.where(lead >= 0, -1, t.open_card)
    eldest = (st.dealer[b].astype(t.ix) + t.step) % t.n
    return xp.where(lead >= 0, lead, eldest), None


def _choose(t: _Tables, st: State, rows: Any, a: Any) -> None:
    """The shooter of each game of ``rows`` chose how its moon scores (``a``: the id of "old" or "new")."""
    _over(t, st, rows, _chosen(t, st, rows, a))


def _chosen(t: _Tables, st: State, e: Any, a: Any) -> Any:
    """The points of games ``e`` whose shooter chose ``a`` (the id of "old" or "new")."""
    raw, bonus, _, _ = _facts(t, st, e)
    keep = t.moon.requires == MoonRequires.PENALTY_CARDS
    shooter = st.shooter[e].astype(t.ix)
    old = _moon(t, raw, bonus, shooter, "old", keep)
    new = _moon(t, raw, bonus, shooter, "new", keep)
    return t.xp.where((a == t.old_id)[:, None], old, new)


# ---------------------------------------------------------------------- the end of a hand


def _facts(t: _Tables, st: State, e: Any) -> tuple[Any, Any, Any, Any]:
    """Per seat of games ``e``: card points, the bonus cards' part of them, penalty and bonus card counts."""
    taken = st.taker[e][:, None, :] == t.seats[None, :, None]  # (M, P, C)
    m = taken.astype(np.int32)
    return m @ t.value, m @ t.bonus_value, m @ t.penalty, m @ t.bonus


def _seat_value(t: _Tables, per_seat: Any, seat: Any) -> Any:
    """``per_seat[g, seat[g]]`` for each game ``g``."""
    return t.xp.take_along_axis(per_seat, seat[:, None].astype(t.ix), axis=1)[:, 0]


def _moon(t: _Tables, raw: Any, bonus: Any, shooter: Any, how: str, keep: bool) -> Any:
    """``scoring.moon_result`` over games: the points when ``shooter`` shot the moon, scored ``how``."""
    xp = t.xp
    p = t.moon_points
    if how == "no_score":
        return bonus if keep else xp.zeros_like(raw)
    own = _seat_value(t, bonus, shooter) if keep else xp.zeros_like(raw[:, 0])
    pts = raw
    if how == "old":
        other = t.team_of[None, :] != t.team_of[shooter][:, None]
        pts = xp.where(other, raw + p, raw)
    elif how == "penalty":
        own = own + p
    else:  # new, take_all
        own = own - p
    return xp.where(t.seats[None, :] == shooter[:, None], own[:, None], pts)


def _score(t: _Tables, st: State, e: Any) -> None:
    """Score the finished hands of games ``e`` (``scoring.score``), or hand a moon choice to its shooter."""
    pts, ask, shooter = _hand_end(t, st, e)
    if ask is not None and ask.any():
        d = e[ask]
        st.phase[d] = DECIDE
        st.shooter[d] = shooter[ask]
        st.turn[d] = shooter[ask]
        done = ~ask
        if done.any():
            _over(t, st, e[done], pts[done])
        return
    _over(t, st, e, pts)


def _hand_end(t: _Tables, st: State, e: Any) -> tuple[Any, Any, Any]:
    """The points of the finished hands of games ``e`` (``scoring.score``); with ``moon.kind = "choice"``
    also where the shooter is to choose (else None) and who shot."""
    xp = t.xp
    raw, bonus, pen, bon = _facts(t, st, e)
    moon = t.moon
    keep = moon.requires == MoonRequires.PENALTY_CARDS
    normal = raw + xp.where(st.won[e] == 0, t.no_tricks, 0)
    if moon.sun != Sun.NONE:
        s = st.sun_seat[e].astype(t.ix)
        shot = s >= 0
        if t.eager and not shot.any():
            return normal, None, None
        return xp.where(shot[:, None], _sun(t, st, e, raw, bonus, xp.maximum(s, 0), keep), normal), None, None
    if moon.kind == MoonKind.NONE:
        return normal, None, None
    total = pen.sum(1)
    hit = (pen == total[:, None]) & (total[:, None] > 0)
    shot = hit.any(1)
    shooter = hit.argmax(1)
    if moon.requires == MoonRequires.ALL_COUNTERS:
        shot &= _seat_value(t, bon, shooter) == bon.sum(1)
    kind = moon.kind
    how = "old" if kind == MoonKind.CHOICE else str(kind.value)
    as_old = xp.zeros_like(shot)
    if kind in (MoonKind.NEW, MoonKind.CHOICE) and moon.new_after:
        before = st.scores[e]
        keyed = xp.abs(before) if t.magnitude else before
        reached = _seat_value(t, keyed, shooter) if moon.new_after_shooter else keyed.max(1)
        as_old = reached < moon.new_after
    old = _moon(t, raw, bonus, shooter, "old", keep)
    if kind == MoonKind.CHOICE:
        return xp.where(shot[:, None], old, normal), shot & ~as_old, shooter
    moon_pts = _moon(t, raw, bonus, shooter, how, keep)
    if not t.eager or as_old.any():
        moon_pts = xp.where(as_old[:, None], old, moon_pts)
    return xp.where(shot[:, None], moon_pts, normal), None, None


def _sun(t: _Tables, st: State, e: Any, raw: Any, bonus: Any, s: Any, keep: bool) -> Any:
    """The points of games ``e`` where seat ``s`` took every trick counted (``moon.sun``)."""
    xp = t.xp
    moon = t.moon
    p = t.moon_points
    is_s = t.seats[None, :] == s[:, None]
    own = _seat_value(t, bonus, s) if keep else xp.zeros_like(raw[:, 0])
    if moon.sun == Sun.CLEAN_SLATE:
        return xp.where(is_s, -_seat_value(t, st.scores[e], s)[:, None], raw)
    if moon.sun == Sun.SUBTRACT_52:
        return xp.where(is_s, (own - 2 * p)[:, None], raw)
    other = t.team_of[None, :] != t.team_of[s][:, None]
    extra: Any = 2 * p
    if moon.sun == Sun.PUNISH_PASSER:
        code = st.pass_code[e].astype(t.ix)  # an offset pass's k % n, 0 for a hold, n... for the others
        single = (code > 0) & (code < t.n)  # an offset pass other than a hold: one seat passed to the shooter
        passer = xp.where(single, (s - code * t.step) % t.n, -1)
        extra = xp.where(t.seats[None, :] == passer[:, None], 2 * p, p)
    return xp.where(is_s, own[:, None], xp.where(other, raw + extra, raw))


def _over(t: _Tables, st: State, e: Any, pts: Any) -> None:
    """The hands of games ``e`` end with ``pts``: the points, the rewards, terminated."""
    st.points[e] = pts
    st.phase[e] = OVER
    st.turn[e] = -1
    st.terminated[e] = True
    st.rewards[e] = _rewards(t, st.scores[e], pts)


def _rewards(t: _Tables, before: Any, pts: Any) -> Any:
    """The rewards of hands ending with ``pts`` over the scores ``before`` them (``Encoding.rewards``)."""
    if t.magnitude:
        return t.reward_sign * (t.xp.abs(before + pts) - t.xp.abs(before)) + 0.0
    return t.reward_sign * pts + 0.0


# ---------------------------------------------------------------------- legality


def _masks(t: _Tables, st: State, rows: Any, choice_ids: tuple[int, ...]) -> None:
    """The legal action masks of the live games ``rows`` (every id of each row written)."""
    phase = st.phase[rows]
    mask = st.legal_action_mask
    for code in (PLAY, PASS, DECIDE):
        sel = phase == code
        if sel.all():
            r = rows
        elif sel.any():
            r = rows[sel]
        else:
            continue
        # the whole batch as a slice: a copy, not a scatter
        at = slice(None) if r.size == st.batch_size else r
        if code == DECIDE:
            mask[at] = False
            mask[np.ix_(r, list(choice_ids))] = True
            continue
        mask[at, :C] = _play_mask(t, st, r) if code == PLAY else _pass_mask(t, st, r)
        if mask.shape[1] > C:
            mask[at, C:] = False


def _pass_mask(t: _Tables, st: State, r: Any) -> Any:
    """The cards the seat choosing its pass may pick next in games ``r``."""
    return (st.owner[r] == st.turn[r][:, None]) & t.passable[None, :] & (st.pass_from[r] < 0)


def _narrow(t: _Tables, cands: Any, allowed: Any, where: Any = None) -> Any:
    """``cands`` narrowed to the cards ``allowed`` in the games where that leaves a card (and ``where`` holds),
    else ``cands``."""
    if t.eager and where is not None and not where.any():
        return cands  # most steps: not the first trick, not void, ...
    keep = cands & allowed[None, :]
    use = keep.any(1)
    if where is not None:
        use &= where
    return t.xp.where(use[:, None], keep, cands)


def _play_mask(t: _Tables, st: State, r: Any) -> Any:
    """``legality.candidates`` over card masks for the games ``r`` in the play phase."""
    own = st.owner[r] == st.turn[r][:, None]
    leading = st.trick_len[r] == 0
    first = st.trick_no[r] == 0
    if t.eager and leading.all():
        return _lead_mask(t, st, r, own, first)
    follow = _follow_mask(t, st, r, own, first)
    if t.eager and not leading.any():
        return follow
    return t.xp.where(leading[:, None], _lead_mask(t, st, r, own, first), follow)


def _lead_mask(t: _Tables, st: State, r: Any, own: Any, first: Any) -> Any:
    """``legality._lead``: the opening lead, the hearts lock and the first-trick rule."""
    xp = t.xp
    cands = own
    opening = st.opening[r]
    fixed = first & (opening >= 0)
    banned = t.banned
    if t.locks:
        closed = ~st.broken[r]
        if t.penalty_exempt:
            closed &= (cands & ~t.pen_or_heart[None, :]).any(1)
        cands = _narrow(t, cands, t.unlocked, closed)
    if banned is not None:
        cands = _narrow(t, cands, banned, first)
    if t.eager and not fixed.any():
        return cands
    if t.two_of_clubs:
        return xp.where(fixed[:, None], own & t.only_open[None, :], cands)
    same = own & t.suit_mask[t.open_suit][None, :]
    if banned is not None:
        same = _narrow(t, same, banned)
    return xp.where((fixed & same.any(1))[:, None], same, cands)


def _follow_mask(t: _Tables, st: State, r: Any, own: Any, first: Any) -> Any:
    """``legality.candidates`` after the lead: follow suit, the first-trick rule, the queen, forced discards."""
    xp = t.xp
    led = st.led[r].astype(t.ix)
    follow = own & t.suit_mask[xp.maximum(led, 0)]
    has = follow.any(1)
    cands = xp.where(has[:, None], follow, own)
    void = ~has
    if t.banned is not None:
        cands = _narrow(t, cands, t.banned, first)
    if t.queen_forced:
        tc = st.trick_cards[r].astype(t.ix)
        high = ((t.suit[tc] == SPADE) & (t.rank[tc] > 12) & (tc >= 0)).any(1)
        forced = cands[:, QS] & (void | ((led == SPADE) & high))
        if not t.eager or forced.any():
            cands = xp.where(forced[:, None], t.only_qs[None, :], cands)
    if t.must_any:
        use = void
        if t.must_all:
            use = use & ((own & t.must[None, :]).sum(1) == t.must_all)
        cands = _narrow(t, cands, t.must, use)
    return cands


# ---------------------------------------------------------------------- observations


def _observe(t: _Tables, enc: Encoding, st: State, seats: Any = None) -> Any:
    """:meth:`Encoding.encode` of each game's observation for the player to act (or for ``seats``), over
    arrays."""
    n_games = st.batch_size
    n = t.n
    o = {name: start for name, (start, _) in enc.layout().items()}
    # the 0/1 sections are written as bools and widened to float32 once: a quarter of the memory traffic of
    # writing each section as floats
    bits = np.zeros((n_games, enc.size), dtype=np.bool_)
    ar = np.arange(n_games)
    if seats is None:
        live = st.turn >= 0
        me = np.where(live, st.turn, 0).astype(np.int64)
    else:
        me = seats
        live = st.turn == me
    phase = st.phase.astype(np.int64)
    bits[ar, o["phase"] + phase] = True
    bits[:, o["decision"] + 1] = phase == DECIDE  # the only decision played here is the moon's
    bits[:, o["acting"]] = live
    seat_at = t.seat_at[me]  # (N, n): the seat in each relative slot
    me8 = seat_at[:, :1]
    mine = st.owner == me8
    picked = st.pass_from == me8
    choosing = (phase == PASS) & live
    if choosing.any():
        # the cards the seat choosing has chosen so far leave its hand (Turns.pending); a seat done choosing
        # still holds its pass until the exchange, as the engine's observation shows it
        mine &= ~(picked & choosing[:, None])
    bits[:, o["hand"]: o["hand"] + C] = mine
    blocks = st.played[:, None, :] == seat_at[:, :, None]  # (N, n, C): the cards each relative seat played
    bits[:, o["played"]: o["played"] + n * C] = blocks.reshape(n_games, n * C)
    # the current trick: the cards played and not yet taken, by the same relative seats
    on_table = st.taker < 0
    on_table &= st.played >= 0
    blocks &= on_table[:, None, :]
    bits[:, o["trick"]: o["trick"] + n * C] = blocks.reshape(n_games, n * C)
    _trick_leader(t, st, bits, o, me)
    bits[:, o["passed"]: o["passed"] + C] = picked
    bits[:, o["received"]: o["received"] + C] = st.recv_by == me8
    bits[ar, o["pass_direction"] + st.pass_code.astype(np.int64)] = True
    bits[ar, o["dealer"] + t.rel[me, st.dealer.astype(np.int64)]] = True
    bits[:, o["hearts_broken"]] = st.broken | (not t.locks)
    obs = bits.astype(np.float32)
    obs[:, o["pass_count"]] = st.pass_size / t.hand_size
    flat = ar[:, None] * n + seat_at  # each relative slot's seat, as an index into a flattened (N, n) array
    obs[:, o["hand_sizes"]: o["hand_sizes"] + n] = st.hand_count.take(flat) / t.hand_size
    obs[:, o["tricks_won"]: o["tricks_won"] + n] = st.won.take(flat) / t.hand_size
    obs[:, o["scores"]: o["scores"] + n] = st.scores.take(flat) / SCORE_SCALE
    obs[:, o["round_points"]: o["round_points"] + n] = st.points.take(flat) / SCORE_SCALE
    return obs


def _trick_leader(t: _Tables, st: State, bits: Any, o: dict[str, int], me: Any) -> None:
    """The current trick's leader (relative) and the suit led, in the games where a trick is under way."""
    going = np.flatnonzero(st.trick_len > 0)
    if going.size:
        bits[going, o["leader"] + t.rel[me[going], st.leader[going].astype(np.int64)]] = True
        bits[going, o["led_suit"] + st.led[going].astype(np.int64)] = True
