"""The rules of :mod:`heartslib.vector`, shared by its numpy and jax backends.

:class:`Tables` turns a supported variant's compiled per-card tables (:class:`heartslib.engine.rules.Rules`:
``suit``, ``rank``, ``value``, ``penalty``, ``bonus``, ``breaks``, ``first_trick_banned``, ``forbidden``,
``must_discard``, ``opening_order``, ``deal_seats``, ``team_of`` ...) into arrays once; the functions here
compute with them over a batch of games (the legal masks of :func:`heartslib.engine.legality.candidates`
written over card masks, the trick's winner, the pass targets, the first lead, the hand's points with moons
and suns, the rewards) and return arrays, never writing to the state they read. They compute with the
tables' array namespace (``t.xp``: numpy, or ``jax.numpy`` for :meth:`Tables.on`'s copy), and take their
shortcuts that look at the data only where the tables are eager (numpy): a traced jax function cannot branch
on its values. A state ``st`` is read by attribute (``st.owner[rows]``), ``rows`` the games computed (an index
array, or ``slice(None)`` for the whole batch).
"""

from __future__ import annotations

import copy
import importlib
from typing import Any, Final

import numpy as np

from heartslib.adapters.encoding import decision_options
from heartslib.cards import NUM_CARD_INDICES, Card
from heartslib.engine.rules import Rules
from heartslib.engine.tables import HEART, QS, SPADE
from heartslib.enums import (
    HOLD,
    SCATTER,
    STAR,
    KittyMode,
    LeadHeartsUnbroken,
    Measure,
    MoonKind,
    MoonRequires,
    PassDirection,
    Sun,
    Winner,
)
from heartslib.variant import Variant

__all__ = ["ARRAYS", "DECIDE", "OVER", "PASS", "PLAY", "C", "Tables"]

C: Final = NUM_CARD_INDICES
#: Phase codes, in the order of the encoding's ``phase`` section (decide, pass, play, over).
DECIDE: Final = 0
PASS: Final = 1
PLAY: Final = 2
OVER: Final = 3


#: The arrays of a state, each (N, ...): name -> dtype (the shapes are set by :class:`_Shape`).
ARRAYS: Final = (
    "owner", "played", "taker", "pass_from", "pass_pick", "recv_by", "trick_cards", "trick_len", "leader", "led",
    "phase", "turn", "passed", "picks", "trick_no", "broken", "won", "hand_count", "points_vis", "scores",
    "dealer", "pass_code", "pass_dest", "pass_size", "opening", "lead", "sun_seat", "shooter", "points",
    "rewards", "terminated", "log", "log_len", "legal_action_mask", "exposed", "led_before", "kitty", "seed",
    "hand_number",
    "origin",
)


class Tables:
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
        self.is_bonus = self.bonus.astype(bool)
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
        self._forcing_tables(rules)
        self._pass_tables(rules)
        self.open_card = rules.opening_order[0] if rules.needs_opening_card() and rules.opening_order else -1
        # the opening card, or when it is not dealt to a hand (in the kitty) the next one up in its suit
        self.opening_order = np.array(rules.opening_order if self.open_card >= 0 else [0], dtype=np.int64)
        self.opening_card_leads = rules.opening_card_leads
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
        self.end = v.end
        self.lowest = v.end.winner == Winner.LOWEST
        self.sun_start = 1 if moon.sun_skips_first_trick else 0
        self.kitty_size = rules.kitty_size
        self.kitty_mode = rules.kitty_mode
        self.kitty_seen = v.deck.kitty_seen_by_winner and self.kitty_size > 0
        self.max_pass = max((pass_size(d, rules.pass_cards, n) for d in rules.schedule), default=0)
        self.log_size = n * max(self.max_pass, 1) + len(rules.pack) + 2
        # the shooter's two options (moon.kind "choice": old and new; "lot": zero and double) and their action ids,
        # set by the Env (ids follow the variant's options)
        self.choices: tuple[str, str] = ("zero", "double") if moon.kind == MoonKind.LOT else ("old", "new")
        self.choice_ids = (-1, -1)
        self._modifier_tables(rules)
        self._exposure_tables(v)
        self.only_qs = np.arange(C) == QS
        #: The array namespace the rules' functions compute with (numpy here; :meth:`on` gives jax's), the
        #: integer type they index with, and whether they may look at the data to skip work (numpy only: a
        #: traced jax function cannot branch on its values).
        self.xp: Any = np
        self.ix: Any = np.int64
        self.eager = True

    def _forcing_tables(self, rules: Rules) -> None:
        """The rules of :func:`forced`: Q♠ at the first opportunity, the forced discards and the undercut."""
        self.queen_forced = rules.queen_forced
        self.must = np.zeros(C, dtype=bool)
        self.must[list(rules.must_discard)] = True
        self.must_any = bool(rules.must_discard)
        self.must_all = len(rules.must_discard) if rules.must_discard_if_all else 0
        # the undercut (play.undercut) and its two readings: the ceiling, the highest card of the suit led rather
        # than the highest leekha (undercut_ceiling = "winning_card"); binding free discards too
        self.undercut = rules.undercut
        self.undercut_winning = rules.undercut_winning
        self.undercut_discards = rules.undercut_discards

    def _pass_tables(self, rules: Rules) -> None:
        """The rules of :func:`pass_mask`: the cards that may be passed, and ``passing.keep_last_of_suit``."""
        self.passable = np.ones(C, dtype=bool)
        self.passable[list(rules.forbidden)] = False
        # passing.keep_last_of_suit: whether a pass keeps a card of each suit it takes from, the cards that may
        # always be passed (last_of_suit_exempt), and which of the five suits it keeps (not the suitless one)
        self.keeps = rules.pass_keep is not None
        self.exempt = np.zeros(C, dtype=bool)
        self.exempt[list(rules.pass_keep or ())] = True
        self.suited = np.arange(5) < 4

    def _modifier_tables(self, rules: Rules) -> None:
        """The hand-score modifiers (``scoring.double_suit``, ``cancels``, ``all_hearts_flips``, ``multiply``) as
        the card lists :func:`card_worth` and :func:`multiplied` read (``scoring.hand_points``,
        ``scoring.multiply_points``)."""
        self.modifiers = bool(rules.double_suit or rules.cancels or rules.all_hearts_flips or rules.exposable)
        self.doublers = tuple(sorted(rules.double_suit.items()))  # (card, the suit its taker's cards double)
        self.cancellers = tuple(rules.cancels.items())  # (card, the card it cancels when one seat takes both)
        self.flip = rules.all_hearts_flips and rules.hearts_in_pack > 0
        self.hearts_in_pack = rules.hearts_in_pack
        # the cards the flip turns positive: those worth less than nothing (the hearts alone, or every one)
        self.flippable = (self.value < 0) & (self.heart | (not rules.flips_only_hearts))
        counters = np.zeros(C, dtype=bool)
        counters[list(rules.counters)] = True
        # (card, factor, what it scores alone or None, the other counting cards that stop it scoring alone), in
        # the variant's order: a lone multiplier replaces the score, so the order matters
        self.multipliers = tuple(
            (card, int(factor.real), None if card not in rules.multiply_alone else
             int(rules.multiply_alone[card].real), counters & (np.arange(C) != card))
            for card, factor in rules.multiply.items())

    def _exposure_tables(self, v: Variant) -> None:
        """Exposed cards (``scoring.exposable``): the cards each exposure doubles (``scoring.exposure_doubles``:
        the card itself, or every card of the suit it names) and the exposing options (``"none"``, then each set of
        exposable cards, as the encoding numbers them from ``expose_id`` on) as card masks."""
        rules = v.rules
        self.exposable = bool(rules.exposable)
        self.doubles = np.zeros((C, C), dtype=np.int32)  # doubles[exposed card, card]: 1 where it doubles
        for card, target in rules.exposable.items():
            if target < 0:
                self.doubles[card, card] = 1
            else:
                self.doubles[card, [c for c in rules.counts if rules.suit[c] == target]] = 1
        options = decision_options(v)
        exposing = options[options.index("none"):] if self.exposable else ()
        self.expose_id = C + len(options) - len(exposing)
        self.expose_cards = np.zeros((max(len(exposing), 1), C), dtype=np.int32)
        for k, option in enumerate(exposing[1:], start=1):
            self.expose_cards[k, [Card(code).index for code in option.split()]] = 1
        self.expose_sizes = self.expose_cards.sum(1)
        if self.exposable:
            self.log_size += self.n  # each seat's exposure is an action

    def __getstate__(self) -> dict[str, Any]:
        """The tables with the array namespace and the index type by name (a module cannot be pickled)."""
        state = dict(vars(self))
        state["xp"], state["ix"] = self.xp.__name__, np.dtype(self.ix).name
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The tables :meth:`__getstate__` gave, the array namespace and the index type resolved again."""
        xp = importlib.import_module(state["xp"])
        vars(self).update(state, xp=xp, ix=getattr(xp, state["ix"]))

    def on(self, xp: Any, ix: Any) -> Tables:
        """These tables with every array moved to the array namespace ``xp`` (e.g. ``jax.numpy``), indexed
        with ``ix``: the same rules, computed by another backend."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                setattr(other, name, _moved(xp, ix, value))
        other.multipliers = tuple((card, f, alone, _moved(xp, ix, others)) for card, f, alone, others in
                                  self.multipliers)
        other.xp, other.ix, other.eager = xp, ix, False
        return other


def _moved(xp: Any, ix: Any, value: Any) -> Any:
    """The numpy array ``value`` in the array namespace ``xp`` (int64 as ``ix``)."""
    return xp.asarray(value.astype(ix) if value.dtype == np.int64 else value)


def pass_size(d: PassDirection, cards: int, n: int) -> int:
    """Cards each seat passes in direction ``d`` (the engine's ``values.pass_size``)."""
    if d is HOLD:
        return 0
    if d is STAR:
        return 2
    if d is SCATTER:
        return n - 1
    return cards


def winner(t: Tables, tc: Any, led: Any, leader: Any) -> Any:
    """The seat that takes each complete trick (``tc``: its cards in the order played, ``leader`` its first
    player): the highest card of the suit ``led``."""
    score = t.xp.where(t.suit[tc] == led[:, None], t.rank[tc], -1)
    return (leader.astype(t.ix) + t.step * score.argmax(1)) % t.n


def sun_after(t: Tables, trick_no: Any, sun_seat: Any, w: Any) -> Any:
    """``sun_seat`` after seat ``w`` took trick ``trick_no``: -2 before any trick counted, the one seat that
    took every trick counted so far, or -1."""
    xp = t.xp
    return xp.where(trick_no >= t.sun_start, xp.where((sun_seat == -2) | (sun_seat == w), w, -1), sun_seat)


def next_passer(t: Tables, passed: Any) -> Any:
    """The lowest seat that has not passed yet in each game, -1 where every seat has."""
    left = ~passed
    return t.xp.where(left.any(1), left.argmax(1), -1)


def pass_targets(t: Tables, st: Any, x: Any) -> tuple[Any, Any]:
    """Per card of games ``x``: whether it was passed, and the seat it goes to."""
    xp = t.xp
    frm = st.pass_from[x].astype(t.ix)
    dest = xp.take_along_axis(st.pass_dest[x], xp.maximum(st.pass_pick[x], 0).astype(t.ix), axis=1)
    return frm >= 0, (frm + t.step * dest.astype(t.ix)) % t.n


def first_lead(t: Tables, st: Any, b: Any) -> tuple[Any, Any]:
    """The first leader of games ``b`` (the opening taker given, or the holder of the opening card, or eldest
    hand) and the card that must open (-1 for none; only meaningful where the variant has an opening card)."""
    xp = t.xp
    lead = st.lead[b]
    eldest = (st.dealer[b].astype(t.ix) + t.step) % t.n
    if t.open_card < 0:
        return xp.where(lead >= 0, lead, eldest), None
    holders = st.owner[b][:, t.opening_order]  # the first card of the opening order a seat holds opens
    at = (holders >= 0).argmax(1)
    found = (lead < 0) & (holders >= 0).any(1)
    leader = xp.where(lead >= 0, lead, xp.where(found, seat_value(t, holders, at), eldest))
    return leader, xp.where(found, t.opening_order[at], -1)


def play_begins(t: Tables, st: Any, b: Any) -> tuple[Any, Any, int]:
    """The first leader and the opening card of games ``b`` (:func:`first_lead`), and the phase that begins:
    the play, or with exposable cards the seats' exposures, from the leader on (``engine.tricks.begin_play``)."""
    leader, opening = first_lead(t, st, b)
    return leader, opening, DECIDE if t.exposable else PLAY


def exposing(t: Tables, st: Any, r: Any) -> Any:
    """Whether each game of ``r`` deciding decides its exposures (before the first lead), not a moon."""
    return (st.phase[r] == DECIDE) & (st.trick_no[r] == 0)


def expose_mask(t: Tables, st: Any, r: Any) -> Any:
    """(M, K) the exposing options of the seat deciding in games ``r``: ``"none"`` and each set of the exposable
    cards it holds (``legality.exposure_options``)."""
    own = (st.owner[r] == st.turn[r][:, None]).astype(np.int32)
    return (own @ t.expose_cards.T) == t.expose_sizes[None, :]


def exposed_after(t: Tables, st: Any, r: Any, a: Any) -> tuple[Any, Any, Any]:
    """Games ``r`` whose deciding seat exposed option ``a`` (an action id, ``engine.tricks.expose``): the
    exposed cards, then the next seat to decide and whether the play begins (back at the leader)."""
    exposed = st.exposed[r] | (t.expose_cards[a - t.expose_id] > 0)
    nxt = (st.turn[r].astype(t.ix) + t.step) % t.n
    return exposed, nxt, nxt == st.leader[r]


def doubled(t: Tables, exposed: Any) -> Any:
    """(M, C) the cards the ``exposed`` cards double (``scoring.exposure_doubles``)."""
    return (exposed.astype(np.int32) @ t.doubles) > 0


def kitty_due(t: Tables, st: Any, q: Any, tn: Any) -> Any:
    """(M, K) which of the kitty cards (``st.kitty``, in the order dealt) go with trick ``tn`` of games ``q`` to
    its winner (``engine.tricks.due_count``): ``deck.kitty`` says the whole kitty with the first trick, one card a
    trick, or the first card with the first trick and the rest with the last; what is left, with the last."""
    xp = t.xp
    kitty = st.kitty[q].astype(t.ix)
    gone = (xp.take_along_axis(st.taker[q], kitty, axis=1) >= 0).sum(1)  # taken with earlier tricks
    left = t.kitty_size - gone
    last = tn + 1 == t.hand_size
    if t.kitty_mode == KittyMode.FIRST_TRICK:
        count = xp.where((tn == 0) | last, left, 0)
    elif t.kitty_mode == KittyMode.ONE_PER_TRICK:
        count = xp.where(last, left, xp.minimum(left, 1))
    else:  # first and last
        count = xp.where(last, left, xp.where(tn == 0, xp.minimum(left, 1), 0))
    slot = xp.arange(t.kitty_size)[None, :]
    return (slot >= gone[:, None]) & (slot < (gone + count)[:, None])


def in_kitty(t: Tables, st: Any) -> Any:
    """(N, C) the cards dealt to the kitty."""
    return (st.kitty.astype(t.ix)[:, :, None] == t.xp.arange(C)[None, None, :]).any(1)


def trick_worth(t: Tables, st: Any, q: Any, tc: Any) -> Any:
    """What the complete tricks ``tc`` of games ``q`` are worth to their taker (``scoring.trick_points``: card
    values, a card an exposure doubles twice)."""
    value = t.value[tc]
    if t.exposable:
        value = value * (1 + t.xp.take_along_axis(doubled(t, st.exposed[q]), tc, axis=1))
    return value.sum(1)


def chosen_points(t: Tables, st: Any, e: Any, a: Any) -> Any:
    """The points of games ``e`` whose shooter chose ``a`` (the id of one of ``t.choices``: "old" or "new",
    going for the lot "zero" or "double")."""
    raw, bonus, _, _ = facts(t, st, e)
    keep = t.moon.requires == MoonRequires.PENALTY_CARDS
    shooter = st.shooter[e].astype(t.ix)
    before = st.scores[e]
    first, second = (moon_points(t, raw, bonus, shooter, how, keep, before) for how in t.choices)
    return multiplied(t, st, e, t.xp.where((a == t.choice_ids[0])[:, None], first, second))


def facts(t: Tables, st: Any, e: Any) -> tuple[Any, Any, Any, Any]:
    """Per seat of games ``e`` (``scoring.card_facts``): card points (after the modifiers of
    :func:`card_worth`), the bonus part of them, penalty and bonus card counts."""
    taken = st.taker[e][:, None, :] == t.seats[None, :, None]  # (M, P, C)
    m = taken.astype(np.int32)
    if not t.modifiers:
        return m @ t.value, m @ t.bonus_value, m @ t.penalty, m @ t.bonus
    worth, in_bonus = card_worth(t, st.taker[e], m, doubled(t, st.exposed[e]) if t.exposable else None)
    raw = (m * worth[:, None, :]).sum(2)
    bonus = (m * t.xp.where(in_bonus, worth, 0)[:, None, :]).sum(2)
    return raw, bonus, m @ t.penalty, m @ t.bonus


def card_worth(t: Tables, taker: Any, m: Any, twice: Any = None) -> tuple[Any, Any]:
    """What each card of the finished hands (``taker``: (M, C) the seat that took it; ``m``: (M, P, C) 0/1,
    which seat took which card) is worth to its taker after the modifiers, in ``scoring.hand_points``' order:
    the all-hearts flip (a seat that took every heart scores its cards worth less than nothing as plus
    points), the suit doublers, the cards an exposure doubles (``twice``: (M, C) bool), the cancelling cards
    (one seat took both: the cancelled card counts once less per canceller); and whether it counts in the
    bonus part (a bonus card, or one the flip turned)."""
    xp = t.xp
    worth = xp.broadcast_to(t.value[None, :], taker.shape)
    flipped = xp.zeros(taker.shape, dtype=bool)
    if t.flip:
        every_heart = (m @ t.heart.astype(np.int32)) == t.hearts_in_pack  # (M, P)
        flipped = xp.take_along_axis(every_heart, xp.maximum(taker, 0).astype(t.ix), axis=1) & t.flippable[None, :]
        worth = xp.where(flipped, -worth, worth)
    if t.doublers:
        doubled = xp.zeros(taker.shape, dtype=bool)
        for card, suit in t.doublers:  # a suit two cards double is doubled once
            doubled = doubled | ((taker == taker[:, card: card + 1]) & t.suit_mask[suit][None, :])
        worth = xp.where(doubled, 2 * worth, worth)
    if twice is not None:
        worth = xp.where(twice, 2 * worth, worth)
    if t.cancellers:
        kept = xp.ones(taker.shape, dtype=np.int32)
        for card, target in t.cancellers:
            both = taker[:, card: card + 1] == taker[:, target: target + 1]
            kept = kept - (both & (np.arange(C) == target)[None, :])
        worth = worth * kept
    return worth, flipped | t.is_bonus[None, :]


def multiplied(t: Tables, st: Any, e: Any, pts: Any) -> Any:
    """``scoring.multiply_points`` over games ``e``: each multiplier card's taker's ``pts`` times its factor, or
    what the card scores alone (``scoring.multiply_alone``) where its taker took no other counting card; card by
    card in the variant's order."""
    if not t.multipliers:
        return pts
    xp = t.xp
    taker = st.taker[e]
    twice = doubled(t, st.exposed[e]) if t.exposable else None
    for card, factor, alone, others in t.multipliers:
        holder = taker[:, card]
        # an exposed multiplier doubles its effect: x 2 becomes x 4, +50 becomes +100
        times = 1 if twice is None else 1 + twice[:, card: card + 1].astype(np.int32)
        new = pts * (factor * times)
        if alone is not None:
            other = ((taker == holder[:, None]) & others[None, :]).any(1)
            new = xp.where(other[:, None], new, alone * times)
        pts = xp.where(t.seats[None, :] == holder[:, None], new, pts)
    return pts


def seat_value(t: Tables, per_seat: Any, seat: Any) -> Any:
    """``per_seat[g, seat[g]]`` for each game ``g``."""
    return t.xp.take_along_axis(per_seat, seat[:, None].astype(t.ix), axis=1)[:, 0]


def moon_points(t: Tables, raw: Any, bonus: Any, shooter: Any, how: str, keep: bool, before: Any = None) -> Any:
    """``scoring.moon_result`` over games, before the multipliers: the points when ``shooter`` shot the moon,
    scored ``how`` (going for the lot's "zero" and "double" read the scores ``before`` the hand)."""
    xp = t.xp
    p = t.moon_points
    if how == "no_score":
        return bonus if keep else xp.zeros_like(raw)
    own = seat_value(t, bonus, shooter) if keep else xp.zeros_like(raw[:, 0])
    pts = raw
    other = t.team_of[None, :] != t.team_of[shooter][:, None]
    if how == "old":
        pts = xp.where(other, raw + p, raw)
    elif how == "penalty":
        own = own + p
    elif how == "zero":  # the shooter's total returns to 0 (then bonus cards count on top)
        own = own - seat_value(t, before, shooter)
    elif how == "double":  # each other player's total doubles
        pts = xp.where(other, raw + before, raw)
    else:  # new, take_all
        own = own - p
    return xp.where(t.seats[None, :] == shooter[:, None], own[:, None], pts)


def hand_end(t: Tables, st: Any, e: Any) -> tuple[Any, Any, Any]:
    """The points of the finished hands of games ``e`` (``scoring.score``, the multipliers included); where the
    shooter is to choose how the moon scores (``moon.kind`` "choice" or "lot"), also where (else None) and who
    shot."""
    xp = t.xp
    raw, bonus, pen, bon = facts(t, st, e)
    moon = t.moon
    keep = moon.requires == MoonRequires.PENALTY_CARDS
    pts = raw + xp.where(st.won[e] == 0, t.no_tricks, 0)
    ask = shooter = None
    if moon.kind != MoonKind.NONE and (moon.sun == Sun.NONE or moon.sun_and_moon):  # a sun rule replaces the moon
        pts, ask, shooter = moon_end(t, st, e, raw, bonus, pen, bon, pts, keep)
    scored = pts
    if moon.sun != Sun.NONE:
        s = st.sun_seat[e].astype(t.ix)
        shot = s >= 0
        if not t.eager or shot.any():
            pts = xp.where(shot[:, None], sun_points(t, st, e, raw, bonus, xp.maximum(s, 0), keep), pts)
            ask = None if ask is None else ask & ~shot
            if moon.sun == Sun.CLEAN_SLATE:  # the shooter's hand scores 0, no multiplier applied
                return xp.where(shot[:, None], pts, multiplied(t, st, e, scored)), ask, shooter
    return multiplied(t, st, e, pts), ask, shooter


def moon_end(t: Tables, st: Any, e: Any, raw: Any, bonus: Any, pen: Any, bon: Any, normal: Any,
             keep: bool) -> tuple[Any, Any, Any]:
    """The moon rule of ``hand_end``: the points (``normal`` where nobody shot), and for a shooter's choice
    where it is asked and who shot (else None twice)."""
    xp = t.xp
    moon = t.moon
    total = pen.sum(1)
    hit = (pen == total[:, None]) & (total[:, None] > 0)
    shot = hit.any(1)
    shooter = hit.argmax(1)
    if moon.requires == MoonRequires.ALL_COUNTERS:
        shot &= seat_value(t, bon, shooter) == bon.sum(1)
    kind = moon.kind
    as_old = xp.zeros_like(shot)
    if kind in (MoonKind.NEW, MoonKind.CHOICE, MoonKind.NEW_IF_OLD_LOSES) and moon.new_after:
        before = st.scores[e]
        keyed = xp.abs(before) if t.magnitude else before
        reached = seat_value(t, keyed, shooter) if moon.new_after_shooter else keyed.max(1)
        as_old = reached < moon.new_after
    old = moon_points(t, raw, bonus, shooter, "old", keep)
    if kind in (MoonKind.CHOICE, MoonKind.LOT):
        return xp.where(shot[:, None], old, normal), shot & ~as_old, shooter
    if kind == MoonKind.NEW_IF_OLD_LOSES:
        new = moon_points(t, raw, bonus, shooter, "new", keep)
        moon_pts = xp.where(old_loses(t, st.scores[e] + multiplied(t, st, e, old), shooter)[:, None], new, old)
    else:
        moon_pts = moon_points(t, raw, bonus, shooter, "old" if kind == MoonKind.OLD else str(kind.value), keep)
    if not t.eager or as_old.any():
        moon_pts = xp.where(as_old[:, None], old, moon_pts)
    return xp.where(shot[:, None], moon_pts, normal), None, None


def old_loses(t: Tables, totals: Any, shooter: Any) -> Any:
    """``moon.kind = "new_if_old_loses"`` (``scoring.score``): whether the old moon, giving the match ``totals``,
    would end it with the ``shooter`` not among the winners (a total at ``end.target`` or ``end.win_target``;
    never with ``moon.continue_after_moon``). Only for a variant whose end a hand can judge alone: no teams,
    no fixed number of hands, no exact-total rules (``support.SUPPORTED`` says so)."""
    xp = t.xp
    end = t.end
    keys = xp.abs(totals) if t.magnitude else totals
    wins = seat_value(t, keys, shooter) == (keys.min(1) if t.lowest else keys.max(1))
    over = xp.zeros_like(wins)
    if t.moon.continue_after_moon:  # the match goes on after a moon: the old moon ends nothing
        return over
    if end.target:
        over = over | (keys >= end.target if end.target > 0 else keys <= end.target).any(1)
    if end.win_target:
        over = over | (keys <= end.win_target if t.lowest else keys >= end.win_target).any(1)
    return over & ~wins


def sun_points(t: Tables, st: Any, e: Any, raw: Any, bonus: Any, s: Any, keep: bool) -> Any:
    """The points of games ``e`` where seat ``s`` took every trick counted (``moon.sun``), before the
    multipliers."""
    xp = t.xp
    moon = t.moon
    p = t.moon_points
    is_s = t.seats[None, :] == s[:, None]
    own = seat_value(t, bonus, s) if keep else xp.zeros_like(raw[:, 0])
    if moon.sun == Sun.CLEAN_SLATE:  # the shooter's hand scores 0; the match resets its total (RULES.md 11)
        return xp.where(is_s, 0, raw)
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


def rewards(t: Tables, before: Any, pts: Any) -> Any:
    """The rewards of hands ending with ``pts`` over the scores ``before`` them (``Encoding.rewards``)."""
    if t.magnitude:
        return t.reward_sign * (t.xp.abs(before + pts) - t.xp.abs(before)) + 0.0
    return t.reward_sign * pts + 0.0


def narrow(t: Tables, cands: Any, allowed: Any, where: Any = None) -> Any:
    """``cands`` narrowed to the cards ``allowed`` in the games where that leaves a card (and ``where`` holds),
    else ``cands``."""
    if t.eager and where is not None and not where.any():
        return cands  # most steps: not the first trick, not void, ...
    keep = cands & allowed[None, :]
    use = keep.any(1)
    if where is not None:
        use &= where
    return t.xp.where(use[:, None], keep, cands)


# ---------------------------------------------------------------------- legality
# The steps of heartslib.engine.legality.candidates, in its order and under its names, each over the card masks
# of a batch of games: candidates -> lead (opening, locked, exposed, first_trick), follow suit, exposed,
# first_trick, forced (queen_forced, must_discard, undercut); then the pass's: pass_mask (legality.pass_extensions)
# and pass_room.


def candidates(t: Tables, st: Any, r: Any) -> Any:
    """``legality.candidates`` over card masks: the cards the seat to play may play in games ``r`` (in the play
    phase): the lead's rules, or follow suit, then the first-trick rule and the forced plays."""
    own = st.owner[r] == st.turn[r][:, None]
    leading = st.trick_len[r] == 0
    first = st.trick_no[r] == 0
    if t.eager and leading.all():
        return lead(t, st, r, own, first)
    led = st.led[r].astype(t.ix)
    follow = own & t.suit_mask[t.xp.maximum(led, 0)]
    void = ~follow.any(1)
    cands = t.xp.where(void[:, None], own, follow)
    if t.exposable:
        cands = exposed(t, st, r, own, cands, led)
    if t.banned is not None:
        cands = first_trick(t, cands, first)
    cands = forced(t, st, r, own, cands, led, void)
    if t.eager and not leading.any():
        return cands
    return t.xp.where(leading[:, None], lead(t, st, r, own, first), cands)


def lead(t: Tables, st: Any, r: Any, own: Any, first: Any) -> Any:
    """``legality._lead``: the opening lead of the first trick where it binds, else the hearts lock and the
    first-trick rule."""
    cands = own
    opened = opening(t, st, r, own, first)
    if t.locks:
        cands = locked(t, st, r, cands)
    if t.exposable:
        cands = exposed(t, st, r, own, cands)
    if t.banned is not None:
        cands = first_trick(t, cands, first)
    if opened is None:
        return cands
    where, keep = opened
    return t.xp.where(where[:, None], keep, cands)


def opening(t: Tables, st: Any, r: Any, own: Any, first: Any) -> tuple[Any, Any] | None:
    """``legality._opening``: where the first trick's opening binds (the opening card itself, or a card of its
    suit while the leader holds one) and the cards it leaves (the first-trick rule among them); None where it
    binds in no game of ``r``."""
    fixed = first & (st.opening[r] >= 0)
    if t.eager and not fixed.any():
        return None
    if t.opening_card_leads:  # the opening card is the only one, led whatever it scores
        return fixed, own & (t.xp.arange(C)[None, :] == st.opening[r][:, None])
    same = own & t.suit_mask[t.open_suit][None, :]
    where = fixed & same.any(1)
    if t.exposable:
        same = exposed(t, st, r, own, same)
    if t.banned is not None:
        same = first_trick(t, same)
    return where, same


def locked(t: Tables, st: Any, r: Any, cands: Any) -> Any:
    """``legality._locked``: no heart (nor Q♠ with ``play.queen_needs_broken``) led while hearts are not broken
    and the leader holds another card, unless ``play.lead_hearts_unbroken`` lets a hand of nothing but
    penalty cards and hearts lead anything."""
    closed = ~st.broken[r]
    if t.penalty_exempt:
        closed &= (cands & ~t.pen_or_heart[None, :]).any(1)
    return narrow(t, cands, t.unlocked, closed)


def exposed(t: Tables, st: Any, r: Any, own: Any, cands: Any, led: Any = None) -> Any:
    """``legality._exposed``: an exposed card is not played the first time its suit is led (``led``: the suit
    of the trick under way; None for a lead), unless it is the player's only card of that suit (and never so
    as to leave no card)."""
    xp = t.xp
    ex = st.exposed[r]
    if t.eager and not (cands & ex).any():
        return cands
    suit = t.suit.astype(t.ix)
    fresh = ~xp.take(st.led_before[r], suit, axis=1)  # (M, C): the card's suit not led in a complete trick yet
    held = own.astype(np.int32) @ t.suit_mask.T.astype(np.int32)  # (M, 5): cards of each suit held
    many = xp.take(held, suit, axis=1) > 1
    barred = cands & ex & fresh & many
    if led is not None:
        barred &= t.suit[None, :] == led[:, None]
    keep = cands & ~barred
    return xp.where(keep.any(1)[:, None], keep, cands)


def first_trick(t: Tables, cands: Any, first: Any = None) -> Any:
    """``legality._first_trick``: no card the first-trick rule bans while the player holds another (in the
    games ``first``, or all)."""
    return narrow(t, cands, t.banned, first)


def forced(t: Tables, st: Any, r: Any, own: Any, cands: Any, led: Any, void: Any) -> Any:
    """``legality._forced``: Q♠ at the first opportunity (``play.queen_forced``: when void in the suit led, or
    on a spade trick a higher spade already lies on), then a void player's forced discards
    (``play.must_discard``, with ``must_discard_if_all`` only while holding every one), then the undercut
    (:func:`undercut`) where the player follows suit, was forced to discard, or with
    ``play.undercut_binds_discards`` discards freely."""
    xp = t.xp
    if t.queen_forced:
        tc = st.trick_cards[r].astype(t.ix)
        high = ((t.suit[tc] == SPADE) & (t.rank[tc] > 12) & (tc >= 0)).any(1)
        queen = cands[:, QS] & (void | ((led == SPADE) & high))
        if not t.eager or queen.any():
            cands = xp.where(queen[:, None], t.only_qs[None, :], cands)
    else:
        queen = None
    discarded = None  # where a forced discard narrowed the cards (the undercut then binds among them)
    if t.must_any:
        use = void
        if t.must_all:
            use = use & ((own & t.must[None, :]).sum(1) == t.must_all)
        if queen is not None:
            use = use & ~queen  # the queen returned first
        if t.undercut:
            discarded = use & (cands & t.must[None, :]).any(1)
        cands = narrow(t, cands, t.must, use)
    if t.undercut:
        binds = xp.ones_like(void) if t.undercut_discards else ~void
        if discarded is not None:
            binds = binds | discarded
        if queen is not None:
            binds = binds & ~queen  # the queen returned first: nothing to undercut with
        cands = undercut(t, st, r, cands, led, binds)
    return cands


def undercut(t: Tables, st: Any, r: Any, cands: Any, led: Any, binds: Any) -> Any:
    """``legality._undercut`` (Idlib Leekha) in the games ``binds``: once a leekha card (``play.must_discard``)
    lies on the trick, a card ranked below the ceiling if the cards allowed so far hold one. The ceiling is the
    highest of the leekha cards there or, with ``play.undercut_ceiling = "winning_card"``, the highest card of
    the suit led."""
    xp = t.xp
    tc = st.trick_cards[r].astype(t.ix)
    on = tc >= 0
    rank = xp.where(on, t.rank[tc], -1)  # (M, n): the ranks of the cards on the trick, -1 for the empty places
    top = xp.where(on & t.must[tc], rank, -1).max(1)  # the highest leekha's rank, -1 where none lies there
    binds = binds & (top >= 0)
    if t.eager and not binds.any():
        return cands
    if t.undercut_winning:  # -1 where no card of the suit led lies there: nothing is below it
        top = xp.where(on & (t.suit[tc] == led[:, None]), rank, -1).max(1)
    keep = cands & (t.rank[None, :] < top[:, None])
    use = binds & keep.any(1)
    return xp.where(use[:, None], keep, cands)


def pass_mask(t: Tables, st: Any, r: Any) -> Any:
    """``legality.pass_extensions``: the cards the seat choosing its pass in games ``r`` may pick next (held, not
    picked yet, not forbidden), with ``passing.keep_last_of_suit`` only those that leave a legal pass to
    complete (:func:`pass_room`)."""
    own = st.owner[r] == st.turn[r][:, None]
    cands = own & t.passable[None, :] & (st.pass_from[r] < 0)
    if not t.keeps:
        return cands
    need = st.pass_size[r].astype(t.ix) - st.picks[r].astype(t.ix) - 1  # the cards still to pick after this one
    return cands & (pass_room(t, own, own & (st.pass_from[r] >= 0)) >= need[:, None])


def pass_room(t: Tables, own: Any, chosen: Any) -> Any:
    """``legality.pass_room`` after each card joins the pass: (M, C) the most cards that may still join the cards
    ``chosen`` (of the hand ``own``) and that card, -1 where the two would take the last card of a suit that is
    not exempt (``legality._emptied``); only meaningful for the cards that may be picked. Counted suit by suit,
    as the engine counts it: a suit with only exempt cards left to pass and no other card of it chosen gives
    them all; any other gives its passable cards less one, unless the hand keeps a forbidden card of it."""
    xp = t.xp
    i32 = np.int32
    by_suit = t.suit_mask.T.astype(i32)  # (C, 5)
    free = own & t.passable[None, :] & ~chosen
    held = own.astype(i32) @ by_suit  # (M, 5) per suit: the cards held, those chosen, those chosen not
    took = chosen.astype(i32) @ by_suit  # exempt, those left that may be passed, and the exempt among them
    binding = (chosen & ~t.exempt[None, :]).astype(i32) @ by_suit
    f = free.astype(i32) @ by_suit
    e = (free & t.exempt[None, :]).astype(i32) @ by_suit
    rest = held - took

    def room(f: Any, e: Any, binding: Any, rest: Any, suited: Any) -> Any:
        kept = xp.where((f == e) & (binding == 0), e, f - (rest <= f).astype(i32))
        return xp.where(suited, kept, f)  # suitless cards (none in a pack the environment plays) all go

    def emptied(binding: Any, rest: Any, suited: Any) -> Any:
        return suited & (binding > 0) & (rest <= 0)

    # every suit as it is, then the card's own suit replaced by what it is with the card chosen too
    base = room(f, e, binding, rest, t.suited[None, :])
    broken = emptied(binding, rest, t.suited[None, :])
    suit = t.suit.astype(t.ix)
    suited = t.suited[suit][None, :]

    def at(a: Any) -> Any:
        return xp.take(a, suit, axis=1)  # (M, C): each card's suit's value

    ex = t.exempt[None, :].astype(i32)
    f1, e1, b1, r1 = at(f) - 1, at(e) - ex, at(binding) + 1 - ex, at(rest) - 1
    total = base.sum(1)[:, None] - at(base) + room(f1, e1, b1, r1, suited)
    others = broken.astype(i32).sum(1)[:, None] - at(broken).astype(i32) > 0
    return xp.where(others | emptied(b1, r1, suited), -1, total)
