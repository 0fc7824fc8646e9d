"""The functional JAX core of :mod:`heartslib.vector`: pure, jittable functions of arrays, in the pgx style.

>>> import jax
>>> from heartslib.vector import functional
>>> game = functional.make("standard")
>>> state = game.init(jax.random.split(jax.random.PRNGKey(0), 8))   # 8 hands, dealt on the device
>>> state.legal_action_mask.shape, game.observe(state).shape
((8, 55), (8, 706))
>>> state = jax.jit(game.step)(state, game.random_action(state, jax.random.PRNGKey(1)))
>>> state.log_len.tolist()
[1, 1, 1, 1, 1, 1, 1, 1]

:func:`make` closes a variant's tables over four functions (:meth:`Game.init`, :meth:`Game.step`,
:meth:`Game.observe`, :meth:`Game.legal_action_mask`) and a random legal policy (:meth:`Game.random_action`):
each takes and returns arrays only (a :class:`State` is a ``NamedTuple`` of jax arrays, a pytree), reads
nothing else and never goes back to the host, so ``jax.jit``, ``jax.vmap``, ``lax.scan`` and sharding apply
to them as to any jax function. The rules are those of ``Env(variant, backend="jax")`` (the same step, from
:mod:`heartslib.vector.jaxenv`), so a game played here is the game the numpy backend and the engine's
``Round`` play from the same deal; what differs is the deal (a shuffle on the device from a key, not
``Round.deal``'s seeded one), what an illegal action does (nothing, flagged in ``illegal``: a jitted
function cannot raise), and the optional autoreset. ``docs/vector-jax.md`` holds the contract: shapes,
dtypes, reward timing and autoreset.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise ImportError("heartslib.vector.functional needs the 'jax' extra: pip install 'heartslib[jax]' (from a "
                      f"checkout: pip install -e '.[jax]') ({exc})") from exc

from heartslib.adapters.encoding import Turns
from heartslib.cards import Card
from heartslib.engine.dealing import canonical
from heartslib.enums import Offset
from heartslib.errors import IllegalAction, arg_text
from heartslib.round import Round
from heartslib.variant import Variant
from heartslib.vector import kernel
from heartslib.vector.env import Env
from heartslib.vector.jaxenv import DEVICE, JaxBackend
from heartslib.vector.kernel import C

__all__ = ["Game", "State", "make"]


class State(NamedTuple):
    """N games of one variant as jax arrays (a pytree: ``jit``, ``vmap`` and ``scan`` carry it as it is).

    The arrays a learner reads: ``legal_action_mask`` (N, A) bool, ``rewards`` (N, P) float32 (this step's),
    ``terminated`` (N,) bool, ``points`` (N, P) int32, ``current_player`` (``turn``, (N,) int8, -1 once over)
    and ``illegal`` (N,) bool. The others are the game's internal arrays, those of
    :class:`heartslib.vector.State` (the jax backend's dtypes), plus ``hand_number`` and ``dealt``.
    """

    owner: Any
    """(N, C) int8: the seat holding each card, -1 for none."""
    played: Any
    """(N, C) int8: the seat that played each card, -1 for none yet."""
    taker: Any
    """(N, C) int8: the seat that took each card in a trick, -1 for none yet."""
    pass_from: Any
    """(N, C) int8: the seat that chose each card for its pass, -1 for none."""
    pass_pick: Any
    """(N, C) int8: the place of each card in its seat's pass."""
    recv_by: Any
    """(N, C) int8: the seat each passed card went to, -1 for none."""
    trick_cards: Any
    """(N, P) int8: the cards of the current trick in the order played, -1 past them."""
    trick_len: Any
    """(N,) int8: cards in the current trick."""
    leader: Any
    """(N,) int8: the seat that led the current trick."""
    led: Any
    """(N,) int8: the suit led, -1 before the lead."""
    phase: Any
    """(N,) int8: 0 a decision, 1 the pass, 2 the play, 3 over (:mod:`heartslib.vector.kernel`'s codes)."""
    turn: Any
    """(N,) int8: the seat to act, -1 once the hand is over (``current_player``)."""
    passed: Any
    """(N, P) bool: the seats whose pass is chosen."""
    picks: Any
    """(N,) int8: the cards chosen so far by the seat choosing its pass."""
    trick_no: Any
    """(N,) int8: tricks complete."""
    broken: Any
    """(N,) bool: hearts broken."""
    won: Any
    """(N, P) int8: tricks each seat took."""
    hand_count: Any
    """(N, P) int8: cards in each seat's hand."""
    points_vis: Any
    """(N, P) int32: the card points each seat took so far."""
    scores: Any
    """(N, P) int32: the match scores before the hand (what ``init`` was given)."""
    dealer: Any
    """(N,) int8: the dealer."""
    pass_code: Any
    """(N,) int8: the hand's pass, as the encoding's ``pass_direction`` slot."""
    pass_dest: Any
    """(N, K) int8: how many seats on each card of a pass goes, by its place in the pass."""
    pass_size: Any
    """(N,) int8: the cards each seat passes (0 for a hold hand)."""
    opening: Any
    """(N,) int8: the card that must open the first trick, -1 for none."""
    lead: Any
    """(N,) int8: the seat given the first lead, -1 for none (always -1 here)."""
    sun_seat: Any
    """(N,) int8: the one seat that took every trick counted so far, -1 for none, -2 before any."""
    shooter: Any
    """(N,) int8: the shooter choosing how a moon scores, -1 for none."""
    points: Any
    """(N, P) int32: the card points taken so far; once over, the hand's points as the variant scores them."""
    rewards: Any
    """(N, P) float32: this step's rewards (the hand's, on the step that ends it; else 0)."""
    terminated: Any
    """(N,) bool: the hand is over."""
    log: Any
    """(N, L) int8: the action ids applied, in order (-1 past ``log_len``)."""
    log_len: Any
    """(N,) int16: the actions applied."""
    legal_action_mask: Any
    """(N, A) bool: the legal action ids of the player to act (all False once over)."""
    exposed: Any
    """(N, C) bool: the cards exposed this hand (``scoring.exposable``)."""
    led_before: Any
    """(N, 5) bool: the suits led to a complete trick so far (an exposed card binds until its suit is led)."""
    kitty: Any
    """(N, K) int8: the cards dealt to the kitty, in the order dealt (K = 1 for a variant without one)."""
    hand_number: Any
    """(N,) int32: the hand's place in the match (it picks the pass of the schedule)."""
    dealt: Any
    """(N, C) int8: the seat each card was dealt to, -1 for a card not dealt (what ``to_round`` replays)."""
    illegal: Any
    """(N,) bool: the game's action at the step that made this state was not legal (the game was not moved)."""

    @property
    def current_player(self) -> Any:
        """(N,) int8: the seat to act in each game, -1 once its hand is over."""
        return self.turn


_EXTRA = ("hand_number", "dealt", "illegal")
assert State._fields == (*DEVICE, *_EXTRA), "State lists the jax backend's device arrays, then its own"


def make(variant: str | Path | Variant) -> Game:
    """The functional core of ``variant`` (a :class:`~heartslib.Variant`, a preset name, a ``.toml`` path or TOML
    text, as :class:`heartslib.vector.Env` takes it; a variant the environment does not play raises its
    :class:`~heartslib.VariantError`)."""
    return Game(variant)


class Game:
    """A variant's pure functions over batches of games (see the module docs): build it once with :func:`make`;
    its methods close over the variant's tables and may be ``jax.jit``-ed, ``vmap``-ed and ``scan``-ned."""

    def __reduce__(self) -> tuple[type[Game], tuple[Variant]]:
        # copy, deepcopy and pickle: built again from the variant (its jitted functions hold local closures)
        return (Game, (self.variant,))

    def __init__(self, variant: str | Path | Variant) -> None:
        env = Env(variant, backend="jax")
        self.env = env
        """The :class:`heartslib.vector.Env` (jax backend) of the same variant: the same encoding and ids."""
        self.variant: Variant = env.variant
        self.num_players: int = env.num_players
        self.num_actions: int = env.num_actions
        """A: card indices 0..54, then the variant's decision options (as :class:`heartslib.vector.Env`)."""
        self.observation_size: int = env.observation_size
        """D, the length of an observation."""
        backend: JaxBackend = env._jax
        self._backend = backend
        self._t = backend.t
        # one row per place in the pass schedule: the pass code, size and destinations a hand dealt there gets
        # (the numpy environment's own deal computes them)
        schedule = self.variant.rules.schedule
        rows = env._blank(len(schedule))
        for j, d in enumerate(schedule):
            env._set_pass(rows, np.arange(len(schedule)) == j,
                          canonical(d, self.num_players) if isinstance(d, Offset) else d)
        self._pass = {name: jnp.asarray(rows[name]) for name in ("pass_code", "pass_size", "pass_dest")}
        self._blank = {name: jnp.asarray(value[0].astype(np.int32) if value.dtype == np.int64 else value[0])
                       for name, value in env._blank(1).items() if name in DEVICE}
        self._pack = jnp.asarray(self._t.pack)
        self._id_bits = max(self.num_actions - 1, 1).bit_length()

    # ------------------------------------------------------------------ the four functions

    def init(self, keys: Any, dealer: Any = 0, hand_number: Any = 0, scores: Any = None) -> State:
        """N new hands, game ``i`` dealt from ``keys[i]`` (``keys``: ``jax.random.split(key, N)``, legacy or typed
        keys) by a uniform shuffle on the device, by ``dealer`` ((N,) or one seat, default 0) at place
        ``hand_number`` of the match ((N,) or one, default 0: the pass of the schedule), with the match
        ``scores`` before the hand ((N, P) or (P,) whole numbers within ±2**31, default 0: what the moon rules
        that read scores, and the rewards of ``end.measure = "magnitude"``, read).

        Arguments of the wrong shape or type raise :class:`~heartslib.IllegalAction` (``bad_argument``), and so
        do values outside those ranges where they are known (outside ``jit``: traced values are not read)."""
        if jnp.ndim(keys) < 1 or jnp.shape(keys)[0] < 1:
            raise IllegalAction("bad_argument", f"keys are one PRNG key per game (jax.random.split(key, N)), not "
                                f"an array of shape {jnp.shape(keys)}")
        n_games = jnp.shape(keys)[0]
        dealer = _ints(dealer, (n_games,), "dealer", 0, self.num_players - 1)
        hand_number = _ints(hand_number, (n_games,), "hand_number", 0, 2**31 - 2)
        scores = _ints(0 if scores is None else scores, (n_games, self.num_players), "scores", -(2**31) + 1,
                       2**31 - 1)
        return self._deal(keys, dealer, hand_number, scores)

    def step(self, state: State, action: Any, key: Any = None) -> State:
        """The state after each game's action id (``action``: (N,) integers); ``state`` is unchanged.

        A live game whose action is legal plays it; the rewards are the hand's on the step that ends it, 0 on
        every other step. A live game whose action is not legal is left as it was, with ``illegal`` set (a
        jitted function cannot raise; :meth:`heartslib.vector.Env.step` raises ``IllegalAction`` instead).
        Without ``key``, a terminated game stays as it is and ignores its action (rewards 0), as in
        :class:`heartslib.vector.Env`. With ``key`` (one PRNG key), **next-step autoreset**: each game
        terminated in ``state`` ignores its action and is dealt its next hand from ``key`` (the dealer one
        seat on, ``(dealer + 1) % P``, whatever ``end.next_dealer`` says; ``hand_number`` + 1; the same
        ``scores``; rewards 0), as the Gymnasium adapters do. ``action`` not (N,) integers raises
        :class:`~heartslib.IllegalAction` (``bad_argument``)."""
        n_games = state.turn.shape[0]
        acts = _ints(action, (n_games,), "action", None, None, broadcast=False)
        live = ~state.terminated
        ok = (acts >= 0) & (acts < self.num_actions)
        legal = ok & jnp.take_along_axis(state.legal_action_mask, jnp.where(ok, acts, 0)[:, None], axis=1)[:, 0]
        arrays = {name: getattr(state, name) for name in DEVICE}
        out, _ = self._backend._step(arrays, acts, legal)
        stepped = state._replace(**out, illegal=live & ~legal)
        if key is None:
            return stepped

        def redeal(s: State) -> State:
            fresh = self._deal(jax.random.split(key, n_games), (s.dealer.astype(jnp.int32) + 1) % self.num_players,
                               s.hand_number + 1, s.scores)
            merged: State = jax.tree_util.tree_map(lambda new, old: _rows(state.terminated, new, old), fresh, s)
            return merged

        # the deal's shuffle costs a sort a game: paid only on the steps where some game is re-dealt
        out_state: State = jax.lax.cond(state.terminated.any(), redeal, lambda s: s, stepped)
        return out_state

    def observe(self, state: State, seat: Any = None) -> Any:
        """(N, D) float32: each game's observation (``Encoding``'s vector, as ``Env.observe`` gives it) for the
        player to act (seat 0's, ``acting`` 0, once over), or for ``seat`` (one seat or (N,) seats), with
        ``acting`` set where that seat acts (a seat that is not one raises :class:`~heartslib.IllegalAction`,
        where known outside ``jit``)."""
        n_games = state.turn.shape[0]
        seats = jnp.full((n_games,), -1, jnp.int32) if seat is None else \
            _ints(seat, (n_games,), "seat", 0, self.num_players - 1)
        return self._backend._observe({name: getattr(state, name) for name in DEVICE}, seats)

    def legal_action_mask(self, state: State) -> Any:
        """(N, A) bool: the legal action ids of the player to act in each game (all False once over)."""
        return state.legal_action_mask

    def random_action(self, state: State, key: Any) -> Any:
        """(N,) int32: a uniformly random legal action id per game (0 where none is legal), drawn on the device.

        One random 32-bit word per game from ``key``, hashed with each action id (MurmurHash3's finaliser, a
        bijection of 32-bit words); the legal id with the largest hash wins, its id kept in the low bits so the
        choice is one fused max-reduction (XLA's ``argmax`` and ``cumsum``, and drawing a word per id, are
        slower on the CPU). Ties between the hashes' high bits go to the larger id: a bias under 2**-25. For a
        policy's own distribution, ``jax.random.categorical(key, jnp.where(mask, logits, -jnp.inf))``."""
        mask = state.legal_action_mask
        word = jax.random.bits(key, mask.shape[:1], jnp.uint32)
        ids = jnp.arange(mask.shape[1], dtype=jnp.uint32)
        x = word[:, None] + ids[None, :] * jnp.uint32(0x9E3779B9)
        x = (x ^ (x >> 16)) * jnp.uint32(0x85EBCA6B)
        x = (x ^ (x >> 13)) * jnp.uint32(0xC2B2AE35)
        x = x ^ (x >> 16)
        high = jnp.uint32((0xFFFFFFFF >> self._id_bits) << self._id_bits)
        tagged = jnp.where(mask, (x & high) | ids[None, :], jnp.uint32(0))
        low = jnp.uint32((1 << self._id_bits) - 1)
        return (tagged.max(axis=1) & low).astype(jnp.int32)

    # ------------------------------------------------------------------ reading a game on the host

    def to_round(self, state: State, i: int) -> Round:
        """Game ``i`` as a :class:`heartslib.Round` (read back to the host): its deal, by ``Round.from_hands``,
        with its logged action ids applied through ``Round.apply`` (a pass half chosen is not part of a round:
        the round is the one before it, as :meth:`heartslib.vector.Env.to_round` gives it)."""
        n_games = int(state.turn.shape[0])
        if isinstance(i, bool | np.bool_) or not isinstance(i, int | np.integer) or not 0 <= i < n_games:
            raise IllegalAction("bad_argument", f"a game is a whole number 0..{n_games - 1} (the batch holds "
                                f"{n_games}), not {arg_text(i)}")
        dealt = np.asarray(state.dealt[i])
        hands = [[Card.from_index(int(c)) for c in np.flatnonzero(dealt == seat)] for seat in range(self.num_players)]
        kitty = [Card.from_index(int(c)) for c in np.asarray(state.kitty[i])] if self._t.kitty_size else []
        r = Round.from_hands(self.variant, hands, dealer=int(state.dealer[i]), hand_number=int(state.hand_number[i]),
                             scores=[int(x) for x in np.asarray(state.scores[i])], kitty=kitty, check=False)
        turns = Turns(self.env.encoding, r)
        log = np.asarray(state.log[i])
        for k in range(int(state.log_len[i])):
            seat = turns.current()
            assert seat is not None
            turns.apply_id(seat, int(log[k]))
        return turns.round

    # ------------------------------------------------------------------ the deal

    def _deal(self, keys: Any, dealer: Any, hand_number: Any, scores: Any) -> State:
        """New hands from ``keys`` ((N,) keys), ``dealer``, ``hand_number`` ((N,) int32) and ``scores``: the pack
        shuffled per game, dealt as ``engine.dealing`` deals an order (the variant's ``deal_seats``), then the
        pass phase, or the first lead of a hold hand."""
        t = self._t
        n_games = dealer.shape[0]
        o: dict[str, Any] = {name: jnp.broadcast_to(jnp.asarray(value), (n_games, *value.shape))
                             for name, value in self._blank.items()}
        order = jax.vmap(lambda k: jax.random.permutation(k, self._pack))(keys)
        dealt = jnp.full((n_games, C), -1, jnp.int8).at[jnp.arange(n_games)[:, None], order].set(
            t.deal_seats[dealer].astype(jnp.int8))
        which = hand_number % self._pass["pass_code"].shape[0]
        for name, table in self._pass.items():
            o[name] = table[which]
        if t.kitty_size:  # the pack's last positions of the deal order, in order (deal_seats -1 there)
            positions = np.flatnonzero(np.asarray(self.env._t.deal_seats[0]) < 0)
            o["kitty"] = order[:, positions].astype(jnp.int8)
        o.update(owner=dealt, dealer=dealer.astype(jnp.int8), scores=scores,
                 hand_count=jnp.full((n_games, self.num_players), t.hand_size, jnp.int8))
        hold = o["pass_size"] == 0
        leader, opening, begins = kernel.play_begins(t, SimpleNamespace(**o), slice(None))
        o["phase"] = jnp.where(hold, begins, kernel.PASS).astype(jnp.int8)
        o["leader"] = jnp.where(hold, leader, o["leader"]).astype(jnp.int8)
        o["turn"] = jnp.where(hold, leader, 0).astype(jnp.int8)
        if opening is not None:
            o["opening"] = jnp.where(hold, opening, o["opening"]).astype(jnp.int8)
        o["legal_action_mask"] = self._backend._masks(o)
        return State(**o, hand_number=hand_number, dealt=dealt, illegal=jnp.zeros((n_games,), bool))


def _ints(value: Any, shape: tuple[int, ...], name: str, low: int | None, high: int | None, *,
          broadcast: bool = True) -> Any:
    """``value`` as int32 of ``shape`` (broadcast to it, unless not ``broadcast``: then exactly it), each number
    within ``low..high`` where the values are known; :class:`~heartslib.IllegalAction` otherwise."""
    # a jax array stays where it is (no copy to the host at every step); only known values are range-checked
    try:
        arr = value if isinstance(value, jax.Array | jax.core.Tracer) else np.asarray(value)
    except jax.errors.TracerArrayConversionError:  # a list of traced numbers, under jit
        arr = jnp.asarray(value)
    try:
        fits = arr.shape == shape or (broadcast and arr.ndim <= len(shape) and
                                      np.broadcast_shapes(arr.shape, shape) == shape)
    except ValueError:
        fits = False
    if not fits or not (jnp.issubdtype(arr.dtype, jnp.integer) or arr.size == 0):
        what = "whole numbers of shape " + str(shape) + (", or one for every game" if broadcast else "")
        raise IllegalAction("bad_argument", f"{name} must be {what}, not {arg_text(value)}")
    if low is not None and high is not None and arr.size and not isinstance(arr, jax.core.Tracer):
        known = np.asarray(arr)
        if known.min() < low or known.max() > high:
            raise IllegalAction("bad_argument", f"{name} must lie within {low}..{high}, not {arg_text(value)}")
    return jnp.broadcast_to(jnp.asarray(arr, jnp.int32), shape)


def _rows(where: Any, new: Any, old: Any) -> Any:
    """``new`` in the games ``where`` ((N,) bool), ``old`` in the others (arrays of any rank, N first)."""
    return jnp.where(where.reshape(where.shape + (1,) * (new.ndim - 1)), new, old)
