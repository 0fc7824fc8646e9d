"""The jax backend of :mod:`heartslib.vector` (``Env(variant, backend="jax")``, the ``jax`` extra).

The same rules as the numpy backend, from the same tables: :meth:`heartslib.vector.kernel.Tables.on` moves
the variant's compiled card tables to ``jax.numpy`` and the rules' functions of :mod:`heartslib.vector.kernel`
(legal masks, the trick's winner, the pass targets, the first lead, the hand's points, moons and suns,
rewards) run on them unchanged. What differs is only how a step writes its results: the numpy backend
scatters into the rows of the games each phase steps; here every write is a ``where`` over the whole batch
(each game masked by whether its action was of that kind), and the parts that only some steps reach (a trick
resolved, a pass exchanged, a hand scored, a moon chosen) run under ``lax.cond``, so a step pays for them
only when some game gets there. The step is one pure function of the arrays under ``jax.jit``, compiled once
per variant and batch size.

The arrays a step never reads or writes (``seed``, ``hand_number``, ``origin``: what :meth:`Env.to_round`
replays from) stay numpy arrays on the host; ``scores`` is int32 here (jax's default integers: x64 is not
needed, and scores beyond int32 are refused by :meth:`JaxBackend.to_device`).
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np

from heartslib.adapters.encoding import SCORE_SCALE, Encoding
from heartslib.errors import IllegalAction
from heartslib.vector import kernel
from heartslib.vector.kernel import ARRAYS, DECIDE, OVER, PASS, PLAY, C

__all__ = ["HOST", "JaxBackend"]

#: The arrays of a state that stay on the host (never read by a step).
HOST: Final = frozenset({"seed", "hand_number", "origin"})
#: The arrays a step takes and returns.
DEVICE: Final = tuple(name for name in ARRAYS if name not in HOST)

_Arrays = dict[str, Any]


def _put(o: _Arrays, name: str, value: Any) -> None:
    """Store ``value`` as the array ``name``, in that array's dtype."""
    o[name] = value.astype(o[name].dtype)


def _view(o: _Arrays) -> Any:
    """The arrays as attributes, as the shared rules' functions read a state (with ``slice(None)`` rows)."""
    return SimpleNamespace(**o)


_ALL: Final = slice(None)


def _ratio_tables(d: int) -> tuple[Any, Any]:
    """``r / d`` for ``r`` in ``0..d - 1`` as float32 pairs (nearest float32, and the rest), from float64."""
    r = np.arange(d)
    hi = (r / d).astype(np.float32)
    return jnp.asarray(hi), jnp.asarray((r / d - hi.astype(np.float64)).astype(np.float32))


def _ratio(k: Any, tables: tuple[Any, Any]) -> Any:
    """``k / d`` (``k`` whole numbers, ``d`` the length of ``tables``) as the float32 nearest to it, as numpy's
    float64 division then float32 gives it: XLA's float32 division on the CPU is not correctly rounded (3 / 13
    comes out one unit in the last place off), so the quotient is ``k // d`` plus the remainder's tabled
    fraction, added with the rounding error kept (TwoSum) and put back at the end; exact for ``|k| < 2**24``."""
    hi, lo = tables
    d = hi.shape[0]
    q = k.astype(jnp.int32) // d
    r = k - q * d
    qf = q.astype(jnp.float32)
    h = hi[r]
    s = qf + h
    b = s - qf
    err = (qf - (s - b)) + (h - b)
    return s + (err + lo[r])


class JaxBackend:
    """The compiled step and observation of one :class:`heartslib.vector.Env` on jax."""

    def __init__(self, t: Any, encoding: Encoding, choice_ids: tuple[int, ...], num_actions: int) -> None:
        self.t = t.on(jnp, jnp.int32)
        self.encoding = encoding
        self.choice_ids = choice_ids
        self.num_actions = num_actions
        self.step_fn = jax.jit(self._step)
        """The pure step: ``(arrays, actions, active) -> (arrays, bad)``, over the dict of the state's device
        arrays (:data:`DEVICE`), (N,) int32 action ids and an (N,) bool of the games stepped; ``bad`` is the
        first game whose action is not legal (-1 for none), and where it is not -1 the arrays returned are not
        a state of the game (the caller keeps the old ones, as :meth:`heartslib.vector.Env.step` does)."""
        self._by_hand = _ratio_tables(self.t.hand_size)
        scale = int(SCORE_SCALE)
        assert scale == SCORE_SCALE  # a whole number, as _ratio needs
        self._by_scale = _ratio_tables(scale)
        self.observe_fn = jax.jit(self._observe)
        """The pure observation: ``(arrays, seats) -> (N, D) float32`` (``seats``: (N,) int32, or -1 for the
        player to act)."""

    # ------------------------------------------------------------------ host <-> device

    def to_device(self, arrays: dict[str, Any]) -> dict[str, Any]:
        """A numpy state's arrays, those a step uses as jax arrays (int64 as int32)."""
        scores = arrays["scores"]
        if scores.size and np.abs(scores).max() >= 2**31:
            raise IllegalAction("bad_argument", "the jax backend keeps scores as 32-bit integers: a score must lie "
                                f"within ±2**31, not {int(np.abs(scores).max())}")
        out = dict(arrays)
        for name in DEVICE:
            a = arrays[name]
            out[name] = jnp.asarray(a.astype(np.int32) if a.dtype == np.int64 else a)
        return out

    def arrays(self, state: Any) -> dict[str, Any]:
        """The device arrays of ``state``."""
        return {name: getattr(state, name) for name in DEVICE}

    # ------------------------------------------------------------------ the step

    def _step(self, s: _Arrays, acts: Any, active: Any) -> tuple[_Arrays, Any]:
        t = self.t
        n_games = acts.shape[0]
        ar = jnp.arange(n_games)
        live = ~s["terminated"] & active
        ok = (acts >= 0) & (acts < self.num_actions)
        a = jnp.where(ok, acts, 0).astype(jnp.int32)
        wrong = live & ~(ok & s["legal_action_mask"][ar, a])
        bad = jnp.where(wrong.any(), jnp.argmax(wrong), -1)
        o = dict(s)
        at = jnp.minimum(s["log_len"].astype(jnp.int32), t.log_size - 1)
        _put(o, "log", s["log"].at[ar, at].set(jnp.where(live, a, s["log"][ar, at]).astype(s["log"].dtype)))
        _put(o, "log_len", s["log_len"] + live)
        o["rewards"] = jnp.zeros_like(s["rewards"])
        phase = s["phase"]
        for code, fn in ((PLAY, self._play), (PASS, self._pick), (DECIDE, self._choose)):
            on = live & (phase == code)
            o = jax.lax.cond(on.any(), fn, lambda o, on, a: o, o, on, a)
        o["legal_action_mask"] = jnp.where((live & ~o["terminated"])[:, None], self._masks(o),
                                           s["legal_action_mask"] & ~live[:, None])
        return o, bad

    def _play(self, o: _Arrays, on: Any, a: Any) -> _Arrays:
        """The games ``on`` play card ``a``; a complete trick resolves (the numpy backend's ``env._play``)."""
        t = self.t
        o = dict(o)
        seat = o["turn"].astype(jnp.int32)
        hit = on[:, None] & (jnp.arange(C)[None, :] == a[:, None])
        _put(o, "owner", jnp.where(hit, -1, o["owner"]))
        _put(o, "played", jnp.where(hit, seat[:, None], o["played"]))
        tl = o["trick_len"].astype(jnp.int32)
        slot = on[:, None] & (jnp.arange(t.n)[None, :] == tl[:, None])
        _put(o, "trick_cards", jnp.where(slot, a[:, None], o["trick_cards"]))
        _put(o, "led", jnp.where(on & (tl == 0), t.suit[a], o["led"]))
        o["broken"] = o["broken"] | (on & t.breaks[a])
        _put(o, "hand_count", o["hand_count"] - (on[:, None] & (t.seats[None, :] == seat[:, None])))
        tl = tl + on
        _put(o, "trick_len", tl)
        _put(o, "turn", jnp.where(on, (seat + t.step) % t.n, seat))
        done = on & (tl == t.n)
        out: _Arrays = jax.lax.cond(done.any(), self._resolve, lambda o, done: o, o, done)
        return out

    def _resolve(self, o: _Arrays, done: Any) -> _Arrays:
        """The complete tricks of the games ``done`` (``env._resolve``)."""
        t = self.t
        o = dict(o)
        tc = o["trick_cards"].astype(jnp.int32)
        w = kernel.winner(t, tc, o["led"], o["leader"])
        on_table = (o["played"] >= 0) & (o["taker"] < 0)
        taker = jnp.where(done[:, None] & on_table, w[:, None], o["taker"])
        if t.kitty_size:  # the kitty cards due with the trick go to its winner too
            due = done[:, None] & kernel.kitty_due(t, _view(o), _ALL, o["trick_no"].astype(jnp.int32))
            kitty = o["kitty"].astype(jnp.int32)
            rows = jnp.arange(kitty.shape[0])[:, None]
            taker = taker.at[rows, kitty].set(jnp.where(due, w[:, None], taker[rows, kitty]).astype(taker.dtype))
        _put(o, "taker", taker)
        took = done[:, None] & (t.seats[None, :] == w[:, None])
        _put(o, "points_vis", o["points_vis"] + jnp.where(took, kernel.trick_worth(t, _view(o), _ALL, tc)[:, None], 0))
        o["led_before"] = o["led_before"] | (done[:, None] & (jnp.arange(5)[None, :] == o["led"][:, None]))
        _put(o, "points", jnp.where(done[:, None], o["points_vis"], o["points"]))
        _put(o, "won", o["won"] + took)
        tn = o["trick_no"].astype(jnp.int32)
        _put(o, "sun_seat", jnp.where(done, kernel.sun_after(t, tn, o["sun_seat"], w), o["sun_seat"]))
        _put(o, "trick_no", tn + done)
        for name in ("leader", "turn"):
            _put(o, name, jnp.where(done, w, o[name]))
        _put(o, "trick_len", jnp.where(done, 0, o["trick_len"]))
        _put(o, "led", jnp.where(done, -1, o["led"]))
        _put(o, "trick_cards", jnp.where(done[:, None], -1, o["trick_cards"]))
        end = done & (tn + 1 == t.hand_size)
        out: _Arrays = jax.lax.cond(end.any(), self._score, lambda o, end: o, o, end)
        return out

    def _score(self, o: _Arrays, end: Any) -> _Arrays:
        """Score the finished hands of the games ``end``, or hand a moon choice to its shooter
        (``env._score``)."""
        pts, ask, shooter = kernel.hand_end(self.t, _view(o), _ALL)
        o = dict(o)
        if ask is not None:
            decide = end & ask
            _put(o, "phase", jnp.where(decide, DECIDE, o["phase"]))
            for name in ("shooter", "turn"):
                _put(o, name, jnp.where(decide, shooter, o[name]))
            end = end & ~decide
        return self._over(o, end, pts)

    def _over(self, o: _Arrays, fin: Any, pts: Any) -> _Arrays:
        """The hands of the games ``fin`` end with ``pts`` (``env._over``)."""
        _put(o, "points", jnp.where(fin[:, None], pts, o["points"]))
        _put(o, "phase", jnp.where(fin, OVER, o["phase"]))
        _put(o, "turn", jnp.where(fin, -1, o["turn"]))
        o["terminated"] = o["terminated"] | fin
        _put(o, "rewards", jnp.where(fin[:, None], kernel.rewards(self.t, o["scores"], pts), o["rewards"]))
        return o

    def _pick(self, o: _Arrays, on: Any, a: Any) -> _Arrays:
        """The games ``on``: the seat choosing its pass picks card ``a`` (``env._pick``)."""
        t = self.t
        o = dict(o)
        seat = o["turn"].astype(jnp.int32)
        picks = o["picks"].astype(jnp.int32)
        hit = on[:, None] & (jnp.arange(C)[None, :] == a[:, None])
        _put(o, "pass_from", jnp.where(hit, seat[:, None], o["pass_from"]))
        _put(o, "pass_pick", jnp.where(hit, picks[:, None], o["pass_pick"]))
        picks = picks + on
        full = on & (picks == o["pass_size"])
        _put(o, "picks", jnp.where(full, 0, picks))
        o["passed"] = o["passed"] | (full[:, None] & (t.seats[None, :] == seat[:, None]))
        nxt = kernel.next_passer(t, o["passed"])
        _put(o, "turn", jnp.where(full, nxt, o["turn"]))
        x = full & (nxt < 0)
        out: _Arrays = jax.lax.cond(x.any(), self._exchange, lambda o, x: o, o, x)
        return out

    def _exchange(self, o: _Arrays, x: Any) -> _Arrays:
        """Every seat of the games ``x`` has passed: the exchange, then the first lead (``env._exchange``)."""
        t = self.t
        o = dict(o)
        sel, to = kernel.pass_targets(t, _view(o), _ALL)
        _put(o, "owner", jnp.where(x[:, None] & sel, to, o["owner"]))
        _put(o, "recv_by", jnp.where(x[:, None], jnp.where(sel, to, -1), o["recv_by"]))
        leader, opening, phase = kernel.play_begins(t, _view(o), _ALL)
        if opening is not None:
            _put(o, "opening", jnp.where(x, opening, o["opening"]))
        _put(o, "phase", jnp.where(x, phase, o["phase"]))
        for name in ("leader", "turn"):
            _put(o, name, jnp.where(x, leader, o[name]))
        return o

    def _choose(self, o: _Arrays, on: Any, a: Any) -> _Arrays:
        """The seats deciding in the games ``on`` exposed cards, or chose how their moon scores
        (``env._choose``)."""
        t = self.t
        o = dict(o)
        if t.exposable:
            view = _view(o)
            ex = on & kernel.exposing(t, view, _ALL)
            exposed, nxt, begins = kernel.exposed_after(t, view, _ALL, jnp.where(ex, a, t.expose_id))
            o["exposed"] = jnp.where(ex[:, None], exposed, o["exposed"])
            _put(o, "turn", jnp.where(ex, jnp.where(begins, o["leader"], nxt), o["turn"]))
            _put(o, "phase", jnp.where(ex & begins, PLAY, o["phase"]))
            on = on & ~ex
        if not self.choice_ids:
            return o
        return self._over(o, on, kernel.chosen_points(t, _view(o), _ALL, a))

    def _masks(self, o: _Arrays) -> Any:
        """The legal action mask of every game as if live (the caller keeps those of the others)."""
        t = self.t
        view = _view(o)
        phase = o["phase"][:, None]
        cards = jnp.where(phase == PLAY, kernel.candidates(t, view, _ALL),
                          (phase == PASS) & kernel.pass_mask(t, view, _ALL))
        n_games = cards.shape[0]
        extra = jnp.zeros((n_games, self.num_actions - C), dtype=bool)
        moon = phase == DECIDE
        if t.exposable:
            ex = kernel.exposing(t, view, _ALL)
            moon = moon & ~ex[:, None]
            first = t.expose_id - C
            options = jnp.where(ex[:, None], kernel.expose_mask(t, view, _ALL), False)
            extra = extra.at[:, first: first + options.shape[1]].set(options)
        if self.choice_ids:
            ids = jnp.arange(C, self.num_actions)
            is_choice = (ids == self.choice_ids[0]) | (ids == self.choice_ids[1])
            extra = extra | (moon & is_choice[None, :])
        return jnp.concatenate([cards, extra], axis=1)

    # ------------------------------------------------------------------ observations

    def _observe(self, s: _Arrays, seats: Any) -> Any:
        """``env._observe`` as one expression per section of the encoding, in the order of its layout."""
        t = self.t
        n = t.n
        n_games = seats.shape[0]
        turn = s["turn"].astype(jnp.int32)
        mine_only = seats < 0
        live = jnp.where(mine_only, turn >= 0, turn == seats)
        me = jnp.where(mine_only, jnp.maximum(turn, 0), seats)
        phase = s["phase"].astype(jnp.int32)
        seat_at = t.seat_at[me]  # (N, n) int8, as the arrays it is compared with: the seat in each relative slot
        me8 = seat_at[:, :1]
        picked = s["pass_from"] == me8
        choosing = (phase == PASS) & live
        # one (N, C) comparison per relative seat: XLA compiles a broadcast (N, n, C) comparison reshaped to
        # (N, n * C) into a loop three times slower on the CPU
        played = [s["played"] == seat_at[:, r: r + 1] for r in range(n)]
        on_table = (s["taker"] < 0) & (s["played"] >= 0)
        going = s["trick_len"] > 0
        # kernel.exposing: the exposures before the first lead, not a moon
        exposing = (phase == DECIDE) & (s["trick_no"] == 0) & t.exposable
        expose_slot = len(self.encoding.decisions) - 1  # "expose", the last decision kind, where there is one

        def hot(i: Any, width: int) -> Any:
            return i[:, None] == jnp.arange(width)[None, :]

        def per_seat(name: str, by: tuple[Any, Any]) -> Any:
            # each relative slot's value picked by n selects, not gathered: XLA's gather of (N, n) indices into
            # the flattened array made the whole observation half as slow again on the CPU
            a = s[name]
            slots = [sum(jnp.where(seat_at[:, r: r + 1] == k, a[:, k: k + 1], 0) for k in range(n)) for r in range(n)]
            return _ratio(jnp.concatenate(slots, axis=1), by)

        sections: dict[str, Callable[[int], Any]] = {
            "phase": lambda w: hot(phase, w),
            "decision": lambda w: hot(jnp.where(phase == DECIDE, jnp.where(exposing, expose_slot, 1), -1), w),
            "acting": lambda w: live[:, None],
            "hand": lambda w: (s["owner"] == me8) & ~(picked & choosing[:, None]),
            "played": lambda w: jnp.concatenate(played, axis=1),
            "trick": lambda w: jnp.concatenate([p & on_table for p in played], axis=1),
            "leader": lambda w: hot(t.rel[me, s["leader"].astype(jnp.int32)], w) & going[:, None],
            "led_suit": lambda w: hot(s["led"].astype(jnp.int32), w) & going[:, None],
            "passed": lambda w: picked,
            "received": lambda w: s["recv_by"] == me8,
            "pass_direction": lambda w: hot(s["pass_code"].astype(jnp.int32), w),
            "pass_count": lambda w: _ratio(s["pass_size"], self._by_hand)[:, None],
            "dealer": lambda w: hot(t.rel[me, s["dealer"].astype(jnp.int32)], w),
            "hand_sizes": lambda w: per_seat("hand_count", self._by_hand),
            "tricks_won": lambda w: per_seat("won", self._by_hand),
            "hearts_broken": lambda w: (s["broken"] | (not t.locks))[:, None],
            "scores": lambda w: per_seat("scores", self._by_scale),
            "round_points": lambda w: per_seat("points", self._by_scale),
            "exposed": lambda w: s["exposed"],
        }
        if t.kitty_seen:  # the kitty cards the seat took, which it may look at
            sections["kitty"] = lambda w: kernel.in_kitty(t, _view(s)) & (s["taker"] == me8)
        # the 0/1 sections are joined as bools and widened to float32 once, and the few fractions scattered into
        # their columns after (one concatenate of float32 sections is twice as slow on the CPU, writing each
        # fraction's section into its slice four times)
        bits: list[Any] = []
        fracs: list[Any] = []
        cols: list[int] = []
        for name, (start, stop) in self.encoding.layout().items():
            make = sections.get(name)
            part = make(stop - start) if make else jnp.zeros((n_games, stop - start), dtype=bool)
            if part.dtype == bool:
                bits.append(part)
                continue
            bits.append(jnp.zeros((n_games, stop - start), dtype=bool))
            fracs.append(part.astype(jnp.float32))
            cols.extend(range(start, stop))
        out = jnp.concatenate(bits, axis=1).astype(jnp.float32)
        return out.at[:, np.array(cols)].set(jnp.concatenate(fracs, axis=1)) if cols else out
