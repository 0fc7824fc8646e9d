"""The numpy backend of :mod:`heartslib.vector` (and the :class:`Env` both backends share): one hand per
game, N games stepped in lockstep.

Every rule is read from the compiled per-card tables of the variant, through :mod:`heartslib.vector.kernel`
(the tables as arrays, and the rules' functions over them, which the jax backend
:mod:`heartslib.vector.jaxenv` runs too); this module writes what they compute into the rows of the games
each step moves. A variant whose rules the environment does not implement is refused by
:func:`check_supported` with a :class:`~heartslib.VariantError` naming the field and its value, rather than
played approximately.

The state is a set of arrays (:class:`State`); :meth:`Env.step` returns a new state and never changes the one
it is given. Each game keeps the action ids applied to it (``log``), so :meth:`Env.to_round` replays them
through :class:`heartslib.Round` (the pass, one card at a time, as :class:`heartslib.adapters.encoding.Turns`
groups it) and the round it returns is the one the same actions make through ``Round.apply``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from heartslib.adapters.encoding import CARD_ACTIONS, SCORE_SCALE, Encoding, Turns, resolve_variant
from heartslib.cards import Card
from heartslib.engine.args import check_hand_number, check_seat, check_seed
from heartslib.engine.dealing import canonical
from heartslib.enums import (
    DEALERS_CHOICE,
    HOLD,
    SCATTER,
    SHUFFLE,
    STAR,
    MoonKind,
    Offset,
    PassDirection,
    Phase,
)
from heartslib.errors import IllegalAction, arg_text
from heartslib.round import Round, engine_state
from heartslib.variant import Variant
from heartslib.vector import kernel
from heartslib.vector.kernel import ARRAYS, DECIDE, OVER, PASS, PLAY, C
from heartslib.vector.support import check_supported

__all__ = ["Env", "State", "check_supported"]

_PHASE_OF: Final = {Phase.DECIDE: DECIDE, Phase.PASS: PASS, Phase.PLAY: PLAY, Phase.OVER: OVER}
_SPECIAL: Final = (SCATTER, STAR, SHUFFLE, DEALERS_CHOICE)

#: The arrays every step writes, and those a step of each phase may write (resolving a trick, exchanging the
#: passes and ending the hand included): a step copies these and shares the others (see ``State._copy``).
_STEPPED: Final = frozenset({"rewards", "log", "log_len", "legal_action_mask"})
_WRITES: Final = {
    PLAY: frozenset({"owner", "played", "trick_cards", "trick_len", "led", "broken", "hand_count", "turn"}),
    PASS: frozenset({"pass_from", "pass_pick", "picks", "passed", "turn", "owner", "recv_by", "opening", "phase",
                     "leader"}),
    DECIDE: frozenset({"points", "phase", "turn", "terminated", "exposed"}),
}
#: What a play that completes a trick writes besides (``_resolve``, and ``_score`` after the last trick).
_TRICK_WRITES: Final = frozenset({"taker", "points_vis", "points", "won", "sun_seat", "trick_no", "leader", "phase",
                                  "shooter", "terminated", "led_before"})  # "taker": the kitty cards due too


def _per_game(value: object, n_games: int, name: str, check: Callable[[int], object]) -> Any:
    """``value`` (one whole number, or one per game) as an (N,) int64 array, each number passed by ``check``
    (the engine's check of the same argument, so the environment takes what ``Round.deal`` takes);
    :class:`~heartslib.IllegalAction` otherwise."""
    arr = _array(value)
    if arr is None or arr.ndim > 1 or (arr.ndim == 1 and arr.shape != (n_games,)) or \
            (arr.dtype.kind not in "iu" and arr.size):
        raise IllegalAction("bad_argument", f"{name} is one whole number or one per game ({n_games}), "
                            f"not {arg_text(value)}")
    for x in np.unique(arr).tolist():  # Python ints: a uint64 beyond int64 is not read as negative
        check(x)
    return np.broadcast_to(arr, (n_games,)).astype(np.int64)


def _array(value: object, dtype: Any = None) -> Any:
    """``np.asarray(value, dtype)``, or None for what numpy cannot make an array of (a ragged list, ...)."""
    try:
        return np.asarray(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        return None


def _seed_list(seeds: object) -> list[int]:
    """``seeds`` (a sequence, or a 1-D array, of whole numbers: one per game) as Python ints, each a seed
    ``Round.deal`` takes; :class:`~heartslib.IllegalAction` otherwise."""
    if hasattr(seeds, "__array__"):
        arr = _array(seeds)
    elif isinstance(seeds, Iterable) and not isinstance(seeds, str | bytes | Mapping):
        # element by element: numpy would read [0, 2**64 - 1] as floats
        arr = _array([int(s) if isinstance(s, np.integer) else s for s in seeds], dtype=object)
    else:
        arr = None
    if arr is None or arr.ndim != 1 or (arr.dtype.kind not in "iuO" and arr.size):
        raise IllegalAction("bad_argument", "seeds are a sequence of whole numbers from 0 to 2**64 - 1, one per "
                            f"game, not {arg_text(seeds)}")
    out: list[int] = arr.tolist()
    for s in out:
        if s is None:  # Round.deal draws a seed for None; a game of the batch is dealt from its own
            raise IllegalAction("bad_argument", "a seed is a whole number from 0 to 2**64 - 1, not None")
        check_seed(s)
    return out


def _mask_arg(value: object, n_games: int, name: str) -> Any:
    """``value`` as an (N,) bool array (a boolean mask of the batch, never an index list);
    :class:`~heartslib.IllegalAction` otherwise."""
    on = _array(value)
    if on is None or on.shape != (n_games,) or on.dtype != np.bool_:
        raise IllegalAction("bad_argument", f"{name} must be {n_games} booleans (a mask, one per game), not "
                            f"{arg_text(value)}")
    return on


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

    __slots__ = ("_env", "_obs", "_origins", *ARRAYS)

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
    exposed: Any
    led_before: Any
    kitty: Any
    seed: Any
    hand_number: Any
    origin: Any

    def __init__(self, arrays: dict[str, Any], env: Env, origins: tuple[Round, ...] = ()) -> None:
        for name in ARRAYS:
            setattr(self, name, arrays[name])
        self._env = env
        self._obs: Any = None
        # the rounds from_rounds started these games from (``origin`` indexes them), shared by the states
        # stepped from this one and dropped with them (the environment keeps none)
        self._origins = origins

    def __getstate__(self) -> dict[str, Any]:
        """What pickles (and copies) a state: its arrays, its environment and the rounds it started from; not
        the observation, which is larger than the state (it is built again on first access)."""
        return {name: getattr(self, name) for name in (*ARRAYS, "_env", "_origins")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._obs = None

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
        return sum(int(getattr(self, name).nbytes) for name in ARRAYS)

    def _copy(self, names: Iterable[str] = ARRAYS) -> State:
        """A state with its own copy of the arrays ``names``; the others are shared with this one and made
        read-only in both, so a step that writes to an array it did not copy fails loudly instead of changing
        the state it was given."""
        copied = set(names)
        arrays: dict[str, Any] = {}
        for name in ARRAYS:
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
    """A batched, functional environment for one supported variant (see the module docs and ``docs/vector.md``):
    ``variant`` is a :class:`~heartslib.Variant`, a preset name, a ``.toml`` path or TOML text, as the adapters
    take it.

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

    def __init__(self, variant: str | Path | Variant, backend: str = "numpy") -> None:
        if backend not in ("numpy", "jax"):
            raise IllegalAction("bad_argument", f"backend {arg_text(backend)} is not available: heartslib.vector has "
                                "the 'numpy' and 'jax' backends")
        self.variant = resolve_variant(variant)
        check_supported(self.variant)
        self.backend = backend
        self.encoding = Encoding(self.variant)
        """The encoding of the observations and action ids."""
        self._t = kernel.Tables(self.variant)
        self.num_players: int = self.variant.players
        self.num_actions: int = self.encoding.num_actions
        """A: card indices 0..54, then the variant's decision options."""
        self.observation_size: int = self.encoding.size
        """D, the length of an observation."""
        self._choice_ids: tuple[int, ...] = ()
        """The action ids of the shooter's two options (``moon.kind`` "choice": old, new; "lot": zero, double)."""
        if self.variant.moon.kind in (MoonKind.CHOICE, MoonKind.LOT):
            self._choice_ids = tuple(self.encoding.option_id(how) for how in self._t.choices)
            self._t.choice_ids = (self._choice_ids[0], self._choice_ids[1])
        self._jax: Any = None
        """The compiled jax step and observation (:class:`heartslib.vector.jaxenv.JaxBackend`) with
        ``backend="jax"``; None with numpy."""
        if backend == "jax":
            self._jax = _jax_backend()(self._t, self.encoding, self._choice_ids, self.num_actions)

    def __copy__(self) -> Env:
        """This environment (its rules, and the jax backend's compiled step, are never changed, so shared)."""
        twin = object.__new__(Env)
        vars(twin).update(vars(self))
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """What pickles (and deep-copies) the environment: all but the jax backend's compiled functions, which
        :meth:`__setstate__` builds again (and jax compiles again at the first step)."""
        return {**vars(self), "_jax": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        if self.backend == "jax":
            self._jax = _jax_backend()(self._t, self.encoding, self._choice_ids, self.num_actions)

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
            "exposed": z((n_games, C), bool), "led_before": z((n_games, 5), bool),
            "kitty": z((n_games, max(t.kitty_size, 1)), np.int8),
            "seed": z(n_games, np.uint64), "hand_number": z(n_games, np.int64), "origin": neg(n_games, -1, np.int32),
        }

    def init(self, seeds: Iterable[int] | Any, *, dealer: int | Any = 0, hand_number: int | Any = 0) -> State:
        """N hands, game ``i`` dealt exactly as ``Round.deal(variant, seed=seeds[i], dealer=dealer[i],
        hand_number=hand_number[i])``; ``dealer`` and ``hand_number`` (which picks the pass of the schedule) are
        one for every game or one per game."""
        seed_list = _seed_list(seeds)
        n_games = len(seed_list)
        t = self._t
        dealers = _per_game(dealer, n_games, "dealer", lambda d: check_seat(d, t.n, "dealer"))
        hands = _per_game(hand_number, n_games, "hand_number", check_hand_number)
        a = self._blank(n_games)
        a["seed"][:] = np.array(seed_list, dtype=np.uint64)
        a["dealer"][:] = dealers
        a["hand_number"][:] = hands
        orders = _shuffled(self._t.pack, seed_list)
        seats = t.deal_seats[dealers]
        a["owner"][np.arange(n_games)[:, None], orders] = seats
        if t.kitty_size:  # the cards dealt to the kitty, in the order dealt (the order they are taken in)
            a["kitty"][:] = orders[seats < 0].reshape(n_games, t.kitty_size)
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
        size = kernel.pass_size(d, self.variant.rules.pass_cards, self._t.n)
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
        if isinstance(rounds, str | bytes) or not isinstance(rounds, Iterable):
            raise IllegalAction("bad_argument", f"rounds is a sequence of Rounds of this environment's variant, not "
                                f"{arg_text(rounds)}")
        rounds = list(rounds)
        a = self._blank(len(rounds))
        origins: list[Round] = []
        for g, r in enumerate(rounds):
            if not isinstance(r, Round) or r.variant != self.variant:
                raise IllegalAction("bad_argument", f"rounds[{g}] is not a Round of this environment's variant")
            _read_round(self._t, a, g, engine_state(r))  # the engine state, read once
            a["origin"][g] = g
            origins.append(r.copy())
        most = int(np.abs(a["scores"]).max()) if len(rounds) else 0
        if self.variant.moon.kind == MoonKind.LOT and most >= 2**30:
            raise IllegalAction("bad_argument", "going for the lot scores a hand from the totals before it, and the "
                                "environment keeps a hand's points in 32 bits: a score must lie within ±2**30, not "
                                f"{most}")
        st = State(a, self, tuple(origins))
        return self._finish(st)

    def _finish(self, st: State) -> State:
        live = np.flatnonzero(~st.terminated)
        st.legal_action_mask[:] = False
        if live.size:
            _masks(self._t, st, live, self._choice_ids)
        if self._jax is not None:
            return State(self._jax.to_device({name: getattr(st, name) for name in ARRAYS}), self, st._origins)
        return st

    def _check_state(self, state: object, *, any_backend: bool = False) -> None:
        """:class:`~heartslib.IllegalAction` unless ``state`` is a :class:`State` of this environment's variant
        and backend (made by this environment, or by another of the same rules: a copy, an unpickled one); of
        either backend with ``any_backend`` (what only reads the legal masks)."""
        if isinstance(state, State):
            env = state._env
            if env is self or (env.variant == self.variant and (any_backend or env.backend == self.backend)):
                return
            what = f"a State of the {env.backend} backend and the variant {env.variant.name!r}" + (
                " (other rules)" if env.variant != self.variant else "")
        else:
            what = arg_text(state)
        raise IllegalAction("bad_argument", f"state must be a State of this environment's variant "
                            f"({self.variant.name!r}) and backend ({self.backend}), not {what}")

    # ------------------------------------------------------------------ stepping

    def step(self, state: State, actions: Any, *, active: Any = None) -> State:
        """A new state after each live game's action id (terminated games ignore theirs; ``state`` is unchanged).

        ``active``, an (N,) bool array, steps only the games where it is True: the others are left as they are
        and ignore their action, as a terminated game does (an adapter steps the opponents' games while the
        learner's wait). Raises :class:`~heartslib.IllegalAction` naming the game, the seat and the card (or
        option) of the first action that is not legal in its game, before anything is applied."""
        self._check_state(state)
        acts = _array(actions)
        n_games = state.batch_size
        if acts is None or acts.shape != (n_games,) or not (np.issubdtype(acts.dtype, np.integer) or n_games == 0):
            raise IllegalAction("bad_argument", f"actions must be {n_games} integer action ids, not "
                                f"{arg_text(actions)}")
        live = ~state.terminated
        if active is not None:
            live &= _mask_arg(active, n_games, "active")
        if self._jax is not None:
            return self._jax_step(state, acts, live)
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

    def _jax_step(self, state: State, acts: Any, live: Any) -> State:
        """:meth:`step` on the jax backend: the compiled step over the whole batch, then the illegal action it
        found (if any) refused, the state given unchanged as ever (jax arrays are immutable)."""
        jb = self._jax
        out, bad = jb.step_fn(jb.arrays(state), acts.astype(np.int32), live)
        g = int(bad)
        if g >= 0:
            self._refuse(state, g, int(acts[g]))
        arrays = {name: getattr(state, name) for name in ARRAYS} | out
        return State(arrays, self, state._origins)

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
        (a :class:`numpy.random.Generator`); ``state`` may be of either backend."""
        self._check_state(state, any_backend=True)
        if not isinstance(rng, np.random.Generator):
            raise IllegalAction("bad_argument", f"rng is a numpy.random.Generator (numpy.random.default_rng(seed)), "
                                f"not {arg_text(rng)}")
        # the k-th legal id of each game, k uniform below its number of legal ids: one draw a game, not one an
        # id, read from the flat positions of every legal id (row by row), not from a cumulative sum per row
        mask = np.asarray(state.legal_action_mask)  # the jax backend's too, read once
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
        self._check_state(state)
        n_games = state.batch_size
        # a bool is not a game (True would be game 1), nor is 1.7 or '1'; a numpy integer is
        if isinstance(i, bool | np.bool_) or not isinstance(i, int | np.integer) or not 0 <= i < n_games:
            raise IllegalAction("bad_argument", f"a game is a whole number 0..{n_games - 1} (the batch holds "
                                f"{n_games}), not {arg_text(i)}")
        i = int(i)
        origin = int(state.origin[i])
        r = state._origins[origin].copy() if origin >= 0 else Round.deal(
            self.variant, seed=int(state.seed[i]), dealer=int(state.dealer[i]), hand_number=int(state.hand_number[i]))
        turns = Turns(self.encoding, r)
        log = np.asarray(state.log[i])  # one read of the row (a jax array is read element by element otherwise)
        for k in range(int(state.log_len[i])):
            seat = turns.current()
            assert seat is not None
            turns.apply_id(seat, int(log[k]))
        return turns

    def observe(self, state: State, seat: Any = None) -> Any:
        """(N, D) float32: each game's observation for the player to act (what ``state.observation`` holds), or
        with ``seat`` (a seat, or (N,) seats) that seat's, ``acting`` set where it is the seat to act."""
        self._check_state(state)
        if seat is None:
            if self._jax is not None:
                return self._jax.observe_fn(self._jax.arrays(state), np.full(state.batch_size, -1, np.int32))
            return _observe(self._t, self.encoding, state)
        seats = _array(seat)
        if seats is not None and seats.ndim == 1 and seats.shape != (state.batch_size,):
            raise IllegalAction("bad_argument", f"seat is one seat or one per game ({state.batch_size}), not "
                                f"{arg_text(seat)}")
        if seats is None or seats.ndim > 1 or not np.issubdtype(seats.dtype, np.integer) or \
                ((seats < 0) | (seats >= self.num_players)).any():
            raise IllegalAction("no_such_seat", f"seat must be a seat 0..{self.num_players - 1} (or one per game), "
                                f"not {seat!r}")
        if self._jax is not None:
            return self._jax.observe_fn(self._jax.arrays(state),
                                        np.broadcast_to(seats, (state.batch_size,)).astype(np.int32))
        return _observe(self._t, self.encoding, state, np.broadcast_to(seats, (state.batch_size,)).astype(np.int64))

    def reset_where(self, state: State, where: Any, seeds: Iterable[int] | Any, *, dealer: int | Any = 0,
                    hand_number: int | Any = 0) -> State:
        """A new state in which the games ``where`` ((N,) bool) are new hands dealt from ``seeds`` (one per game
        replaced; ``dealer`` and ``hand_number`` as :meth:`init` takes them) and the others are as in
        ``state``: an autoreset (``state`` is unchanged)."""
        self._check_state(state)
        rows = np.flatnonzero(_mask_arg(where, state.batch_size, "where"))
        fresh = self.init(seeds, dealer=dealer, hand_number=hand_number)
        if fresh.batch_size != rows.size:
            raise IllegalAction("bad_argument", f"{rows.size} games are replaced, so {rows.size} seeds are needed, "
                                f"not {fresh.batch_size}")
        if self._jax is not None:
            return State({name: _replaced(getattr(state, name), rows, getattr(fresh, name)) for name in ARRAYS},
                         self, state._origins)
        st = state._copy()
        for name in ARRAYS:
            getattr(st, name)[rows] = getattr(fresh, name)
        return st


def _replaced(a: Any, rows: Any, new: Any) -> Any:
    """The array ``a`` (numpy or jax) with ``rows`` replaced by ``new``, ``a`` unchanged."""
    if isinstance(a, np.ndarray):
        out = a.copy()
        out[rows] = new
        return out
    return a.at[rows].set(new)


def _jax_backend() -> Any:
    """:class:`heartslib.vector.jaxenv.JaxBackend`; an :class:`ImportError` naming the ``jax`` extra without
    jax."""
    try:
        from heartslib.vector.jaxenv import JaxBackend
    except ImportError as exc:
        raise ImportError("heartslib.vector's backend='jax' needs the 'jax' extra: pip install 'heartslib[jax]' "
                          f"(from a checkout: pip install -e '.[jax]') ({exc})") from exc
    return JaxBackend


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


def _read_round(t: kernel.Tables, a: dict[str, Any], g: int, s: Any) -> None:
    """Fill game ``g`` of the arrays ``a`` from a round's engine state ``s``."""
    if s.phase is Phase.DECIDE and (s.decision is None or s.decision[0].value not in ("moon", "expose")):
        raise IllegalAction("bad_argument", f"rounds[{g}]: heartslib.vector takes no {s.decision[0]} decision")
    for seat in range(s.n):
        hand = s.held(seat)
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
    a["exposed"][g, list(s.exposed)] = True
    if t.kitty_size:  # those taken (in any order: they are gone), then those left in order
        taken = [c for seat in range(t.n) for c in s.kitty_seen[seat]]
        a["kitty"][g] = taken + list(s.kitty)
        for seat, cards in enumerate(s.kitty_seen):
            a["taker"][g, list(cards)] = seat
    twice = kernel.doubled(t, a["exposed"][g][None, :])[0]
    for raw in s.tricks:
        number, _, seats, cards, winner, _ = raw
        a["played"][g, list(cards)] = seats
        a["taker"][g, list(cards)] = winner
        a["points_vis"][g, winner] += int(sum(t.value[c] * (1 + int(twice[c])) for c in cards))
        a["led_before"][g, raw[5]] = True
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
    elif s.phase is Phase.DECIDE and s.decision[0].value == "moon":
        a["shooter"][g] = a["turn"][g] = s.decision[1]
    elif s.phase is Phase.DECIDE:  # exposing
        a["turn"][g] = s.decision[1]
    elif s.phase is Phase.OVER:
        a["turn"][g] = -1
        a["terminated"][g] = True
        a["points"][g] = [int(x.real) for x in s.outcome.points]
    if s.phase is not Phase.OVER:
        a["points"][g] = a["points_vis"][g]


# ---------------------------------------------------------------------- one step


def _play(t: kernel.Tables, st: State, rows: Any, a: Any) -> None:
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


def _resolve(t: kernel.Tables, st: State, q: Any) -> None:
    """The complete tricks of games ``q``: the highest card of the suit led takes them."""
    tc = st.trick_cards[q].astype(np.int64)
    w = kernel.winner(t, tc, st.led[q], st.leader[q])
    st.taker[q[:, None], tc] = w[:, None]
    if t.kitty_size:
        kitty = st.kitty[q].astype(np.int64)
        due = kernel.kitty_due(t, st, q, st.trick_no[q].astype(np.int64))
        st.taker[q[:, None], kitty] = np.where(due, w[:, None], st.taker[q[:, None], kitty])
    st.points_vis[q, w] += kernel.trick_worth(t, st, q, tc)
    st.led_before[q, st.led[q].astype(np.int64)] = True
    st.points[q] = st.points_vis[q]
    st.won[q, w] += 1
    tn = st.trick_no[q].astype(np.int64)
    st.sun_seat[q] = kernel.sun_after(t, tn, st.sun_seat[q], w)
    st.trick_no[q] = tn + 1
    st.leader[q] = w
    st.turn[q] = w
    st.trick_len[q] = 0
    st.led[q] = -1
    st.trick_cards[q] = -1
    end = tn + 1 == t.hand_size
    if end.any():
        _score(t, st, q[end])


def _pick(t: kernel.Tables, st: State, rows: Any, a: Any) -> None:
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
    turn = kernel.next_passer(t, st.passed[f])
    st.turn[f] = turn
    x = f[turn < 0]
    if x.size:
        _exchange(t, st, x)


def _exchange(t: kernel.Tables, st: State, x: Any) -> None:
    """Every seat of games ``x`` has passed: each card goes to its seat, then play begins."""
    sel, to = kernel.pass_targets(t, st, x)
    st.owner[x] = np.where(sel, to, st.owner[x])
    st.recv_by[x] = np.where(sel, to, -1)
    _begin_play(t, st, x)


def _begin_play(t: kernel.Tables, st: State, b: Any) -> None:
    """The first lead of games ``b``, or the exposures before it (``engine.tricks.begin_play``)."""
    leader, opening, phase = kernel.play_begins(t, st, b)
    if t.open_card >= 0:
        st.opening[b] = opening
    st.phase[b] = phase
    st.leader[b] = leader
    st.turn[b] = leader


def _choose(t: kernel.Tables, st: State, rows: Any, a: Any) -> None:
    """The seat deciding in each game of ``rows`` chose ``a``: the cards it exposes (then the next seat decides,
    or the play begins), or how the moon it shot scores."""
    if t.exposable:
        ex = kernel.exposing(t, st, rows)
        if ex.any():
            x = rows[ex]
            st.exposed[x], nxt, begins = kernel.exposed_after(t, st, x, a[ex])
            st.turn[x] = np.where(begins, st.leader[x], nxt)
            st.phase[x] = np.where(begins, PLAY, DECIDE)
            rows, a = rows[~ex], a[~ex]
            if not rows.size:
                return
    _over(t, st, rows, kernel.chosen_points(t, st, rows, a))


# ---------------------------------------------------------------------- the end of a hand


def _score(t: kernel.Tables, st: State, e: Any) -> None:
    """Score the finished hands of games ``e`` (``scoring.score``), or hand a moon choice to its shooter."""
    pts, ask, shooter = kernel.hand_end(t, st, e)
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


def _over(t: kernel.Tables, st: State, e: Any, pts: Any) -> None:
    """The hands of games ``e`` end with ``pts``: the points, the rewards, terminated."""
    st.points[e] = pts
    st.phase[e] = OVER
    st.turn[e] = -1
    st.terminated[e] = True
    st.rewards[e] = kernel.rewards(t, st.scores[e], pts)


# ---------------------------------------------------------------------- legality


def _masks(t: kernel.Tables, st: State, rows: Any, choice_ids: tuple[int, ...]) -> None:
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
            ex = kernel.exposing(t, st, r) if t.exposable else np.zeros(r.size, dtype=bool)
            if ex.any():
                k = t.expose_cards.shape[0]
                mask[r[ex], t.expose_id: t.expose_id + k] = kernel.expose_mask(t, st, r[ex])
            if not ex.all():
                mask[np.ix_(r[~ex], list(choice_ids))] = True
            continue
        mask[at, :C] = kernel.candidates(t, st, r) if code == PLAY else kernel.pass_mask(t, st, r)
        if mask.shape[1] > C:
            mask[at, C:] = False


# ---------------------------------------------------------------------- observations


def _observe(t: kernel.Tables, enc: Encoding, st: State, seats: Any = None) -> Any:
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
    deciding = phase == DECIDE
    if t.exposable:  # the exposures before the first lead, or the moon
        ex = kernel.exposing(t, st, slice(None))
        bits[:, o["decision"] + enc.decisions.index("expose")] = ex
        deciding &= ~ex
        bits[:, o["exposed"]: o["exposed"] + C] = st.exposed
    bits[:, o["decision"] + enc.decisions.index("moon")] = deciding
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
    if t.kitty_seen:  # the kitty cards the seat took, which it may look at
        bits[:, o["kitty"]: o["kitty"] + C] = kernel.in_kitty(t, st) & (st.taker == me8)
    obs = bits.astype(np.float32)
    obs[:, o["pass_count"]] = st.pass_size / t.hand_size
    flat = ar[:, None] * n + seat_at  # each relative slot's seat, as an index into a flattened (N, n) array
    obs[:, o["hand_sizes"]: o["hand_sizes"] + n] = st.hand_count.take(flat) / t.hand_size
    obs[:, o["tricks_won"]: o["tricks_won"] + n] = st.won.take(flat) / t.hand_size
    obs[:, o["scores"]: o["scores"] + n] = st.scores.take(flat) / SCORE_SCALE
    obs[:, o["round_points"]: o["round_points"] + n] = st.points.take(flat) / SCORE_SCALE
    return obs


def _trick_leader(t: kernel.Tables, st: State, bits: Any, o: dict[str, int], me: Any) -> None:
    """The current trick's leader (relative) and the suit led, in the games where a trick is under way."""
    going = np.flatnonzero(st.trick_len > 0)
    if going.size:
        bits[going, o["leader"] + t.rel[me[going], st.leader[going].astype(np.int64)]] = True
        bits[going, o["led_suit"] + st.led[going].astype(np.int64)] = True
