"""One hand of play: the deal, the pass, the tricks and the scoring, as a state machine.

Only :class:`~heartslib.Pass`, :class:`~heartslib.Play` and
:class:`~heartslib.Choose` reach the caller; collecting tricks, the kitty,
cancellations, the moon and scoring happen inside :meth:`Round.apply`.

:class:`Round` is the public facade over the engine (:mod:`heartslib.engine`):
it checks what programs hand it, turns card indices into
:class:`~heartslib.Card` values and back, and leaves every rule to the
engine's modules, which work on one :class:`~heartslib.engine.state.RoundState`
(see ``docs/architecture.md``).

This module is compiled by the optional mypyc build (see
``docs/performance.md``): keep it strictly typed and construct classes by
calling them.

>>> import heartslib as hl
>>> r = hl.Round.deal(hl.preset("standard"), seed=1)
>>> r.phase, r.to_act
(<Phase.PASS: 'pass'>, (0, 1, 2, 3))
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

from heartslib.actions import Action, Choose, Event, Pass, Play
from heartslib.cards import Card, cards_from_indices, parse_cards
from heartslib.engine import machine, playout
from heartslib.engine.args import check_rng, check_seat, check_seed
from heartslib.engine.bits import cards_in
from heartslib.engine.dealing import check_pack, deal_order, shuffled, start
from heartslib.engine.finishing import facts, penalty_points
from heartslib.engine.legality import (
    PassRules,
    legal_mask,
    pass_choices,
    pass_problem,
    seat_pass_rules,
    why_action,
)
from heartslib.engine.records import auction_value, event_values, exposers, observation, trick_values
from heartslib.engine.rules import Rules
from heartslib.engine.state import RoundState
from heartslib.engine.tables import (
    CARD,
    ORDER,
    OVER,
    PASS,
    PLAY,
    PLAY_CODE,
    PLAY_IDS,
    PLAY_TYPE,
    PLAYS,
)
from heartslib.engine.tricks import play_card
from heartslib.enums import SHUFFLE, Decision, PassDirection, Phase
from heartslib.errors import CardError, IllegalAction, SaveError, arg_text
from heartslib.observation import Auction, Observation, Trick
from heartslib.points import Score
from heartslib.scoring import Outcome, moon_taker
from heartslib.variant import Variant, expect_variant

__all__ = ["PassRules", "Round", "pass_choices", "pass_problem", "shuffled"]


#: Which build this is: a pickle names the build that wrote it, and the other build refuses it (:func:`_unpickled`).
BUILD: Final = "pure" if __file__.endswith((".py", ".pyc")) else "compiled"


def _unpickled(build: str) -> Round:
    """A bare round to restore a pickle into; a pickle of the other build is refused before its state is read
    (a compiled class pickles its attributes as the pure one does not)."""
    if build != BUILD:
        raise SaveError("pickle", f"this round was pickled by the {build} build of heartslib and this is the "
                        f"{BUILD} build: pickles do not cross builds; send a save (Match.to_json) instead")
    new = Round()
    new._held = False
    return new


def _seat_arg(s: RoundState, seat: int | None) -> int:
    """``seat`` checked, or when None the only seat to act (-1 when none acts)."""
    if seat is None:
        acting = machine.to_act(s)
        if len(acting) != 1:
            if not acting:
                return -1
            raise IllegalAction(
                "seat_required",
                f"seats {', '.join(map(str, acting))} act now; name the seat: legal_actions(seat)",
            )
        return acting[0]
    check_seat(seat, s.n)
    return seat


def _round(state: RoundState) -> Round:
    new = Round()
    new._s = state
    new._held = False
    return new


def engine_state(rnd: Round) -> RoundState:
    """The engine state behind ``rnd``, for the library's upper layers whose hot loops work on it directly
    (``agents.play_match``'s random agents, ``heartslib.vector`` reading a round once): they read it, and
    change it only through the engine's modules."""
    return rnd._s


def shuffle_due(rnd: Round) -> bool:
    """Whether ``rnd`` is passing by a shuffle pass, whose last pass draws the pile's order (a match lends the
    round its generator for that draw)."""
    s = rnd._s
    return s.phase is PASS and s.passing is SHUFFLE


def release_generator(rnd: Round) -> Round:
    """``rnd``, holding the generator it was dealt with only while a shuffle pass is still to draw from it.

    A round keeps the generator it was dealt with, and its equality compares the generator's state. In a match
    that state belongs to the match (compared once, in ``Match.__eq__``): a round that kept it would compare the
    state of whichever match dealt it, so a copy (whose rounds were dealt by the original) and a loaded save of
    the same match would differ once the original dealt on.
    """
    s = rnd._s
    if not (s.phase is PASS and s.passing is SHUFFLE and s.scripted is None):
        s.rng = None
    return rnd


def hold(rnd: Round) -> Round:
    """``rnd``, marked as a match's round (``match.round``): from now on only the match moves it on
    (:func:`apply_in_match`, :func:`script_shuffle`), so that nothing the match should record, score or save
    happens behind its back. ``apply``, ``random_playout``, ``policy_playout`` and ``script_shuffle_pass`` on
    it raise ``IllegalAction("round_in_match")``; reading it, ``copy()`` (a round of the caller's own) and
    ``rollout_points`` (which changes nothing) work as on any round."""
    rnd._held = True
    return rnd


def apply_in_match(rnd: Round, action: Action) -> None:
    """:meth:`Round.apply` on a match's round (:func:`hold`), the match's own door to it."""
    rnd._held = False
    try:
        rnd.apply(action)
    finally:
        rnd._held = True


def script_shuffle(rnd: Round, received: Sequence[str | Iterable[Card | str]], *, by_match: bool = False) -> None:
    """:meth:`Round.script_shuffle_pass`, checked; ``by_match``: the match scripting its own round (:func:`hold`)."""
    if rnd._held and not by_match:
        raise _held_error("script_shuffle_pass (match.script_shuffle_pass is the match's own)")
    if isinstance(received, str) or not isinstance(received, Sequence):
        raise CardError(f"expected a sequence of collections of cards (one per seat), got {arg_text(received)}")
    s = rnd._s
    if s.passing is not SHUFFLE or s.phase is not PASS:
        raise IllegalAction("no_shuffle_pass", "there is no shuffle pass to script now")
    if len(received) != s.n:
        raise CardError(f"expected {s.n} collections of cards (one per seat), got {received!r}")
    s.scripted = tuple(tuple(_indices(r)) for r in received)


def _held_error(what: str, action: object = None) -> IllegalAction:
    """The refusal of ``what`` on a match's round (:func:`hold`)."""
    return IllegalAction("round_in_match", f"{what}: this round is a match's (match.round), and the match would "
                         "neither record nor score what happened to it behind its back; apply actions with "
                         "match.apply, or play on a copy of your own (match.round.copy())", action=action)


def _indices(cards: str | Iterable[Card | str]) -> list[int]:
    return [c.index for c in parse_cards(cards)]


class Round:
    """One hand: construct with :meth:`deal` or :meth:`from_hands`, then ``apply`` actions.

    Attributes such as :attr:`phase`, :attr:`to_act`, :attr:`tricks` and
    :attr:`points` describe the state; :meth:`observation` gives one seat's
    view. A failed :meth:`apply` raises :class:`~heartslib.IllegalAction` and
    leaves the round exactly as it was.
    """

    __slots__ = ("_held", "_s")

    _s: RoundState
    _held: bool  # a match's round (match.round), which only the match moves on: see hold()
    # no __init__: rounds are made by deal(), from_hands() and copy(), which set the state (a plain call and
    # no Python-level __init__ keeps copy() cheap; mypyc compiles it)

    # ------------------------------------------------------------------ construction

    @classmethod
    def deal(
        cls,
        v: Variant,
        seed: int | None = None,
        *,
        dealer: int = 0,
        hand_number: int = 0,
        scores: Sequence[Score] | None = None,
        rng: random.Random | None = None,
        leader: int | None = None,
        order: str | Iterable[Card | str] | None = None,
        chips: Sequence[int] | None = None,
        bidder: int | None = None,
    ) -> Round:
        """A random deal from ``seed`` (or from ``rng``, which the round then keeps for a shuffle pass).

        Cards are dealt one at a time from the dealer's left in the direction of
        play; the cards left over (if the variant uses a kitty) form the kitty.
        ``order``, when given, is the shuffled pack to deal instead of a random
        one (every card of ``v.pack`` once per copy, position by position: the
        chance hook for programs that choose the deal themselves).
        ``leader``, when given, leads the first trick with any card (the ``play.opening_taker`` rule: the match
        passes who took that card last hand; refused in an auction, whose bid's winner leads).
        An auction's ``chips`` (each seat's, at least 1; ``scoring.chips`` by default) bound the bids; its
        ``bidder`` names the suit unbid (the match passes it after a deal nobody won).

        >>> import heartslib as hl
        >>> v = hl.preset("standard")
        >>> r = hl.Round.deal(v, order=v.pack)
        >>> [c.code for c in r.hand(1)][:4]
        ['2C', '6C', 'TC', 'AC']
        """
        if type(v) is not Variant or (rng is not None and type(rng) is not random.Random):
            expect_variant(v)  # the checks, off the common path: a subclass passes them
            check_rng(rng)
        if rng is None:
            rng = random.Random(check_seed(seed))
        elif seed is not None:
            raise IllegalAction("bad_argument", "give either seed or rng, not both")
        check_seat(dealer, v.players, "dealer")
        rules = v.rules
        if order is None:
            hands, kitty = deal_order(v, shuffled(rules.pack, rng), dealer, check=False)
        else:
            hands, kitty = deal_order(v, _indices(order), dealer)
        return _round(start(v, hands, kitty, dealer=dealer, hand_number=hand_number, passing=None, scores=scores,
                            rng=rng, leader=leader, chips=chips, bidder=bidder))

    @classmethod
    def from_hands(
        cls,
        v: Variant,
        hands: Sequence[str | Iterable[Card | str]],
        *,
        dealer: int = 0,
        passing: PassDirection | str | None = None,
        kitty: str | Iterable[Card | str] = (),
        hand_number: int = 0,
        scores: Sequence[Score] | None = None,
        seed: int | None = None,
        leader: int | None = None,
        rng: random.Random | None = None,
        check: bool = True,
        chips: Sequence[int] | None = None,
        bidder: int | None = None,
    ) -> Round:
        """A round from an explicit deal (the hands before passing).

        ``passing`` defaults to the variant's schedule for ``hand_number``; it is
        an ``Offset``, a mode (``HOLD``...) or a rules file's word (``"left"``,
        ``"across"``, ``"left-2"``). The hands and kitty (or stock, top card first) must be exactly the pack;
        otherwise :class:`~heartslib.CardError` says what is missing or extra.
        A shuffle pass draws from ``rng`` (or a generator seeded with ``seed``).

        ``check=False`` skips comparing the cards with the pack (and an
        explicit ``passing`` with what the hands can pass): for search code that
        builds many rounds from deals it knows are valid, such as
        determinizations of a real deal. A deal that is not the pack then plays
        by rules it was not made for.

        >>> import heartslib as hl
        >>> v = hl.preset("standard")
        >>> hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        ...          "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
        >>> r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
        >>> r.phase, r.to_act, r.legal_actions()
        (<Phase.PLAY: 'play'>, (0,), [Play(seat=0, card=Card('2C'))])
        """
        if type(v) is not Variant or (rng is not None and type(rng) is not random.Random):
            expect_variant(v)  # the checks, off the common path: a subclass passes them
            check_rng(rng)
        n = v.players
        if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != n:
            raise CardError(f"expected {n} hands (one per player), got {hands!r}")
        parsed = [_indices(h) for h in hands]
        kitty_cards = _indices(kitty)
        if check:
            check_pack(v.rules, parsed, kitty_cards)
        check_seat(dealer, n, "dealer")
        if rng is None:
            seeded = check_seed(seed)
            rng = None if seeded is None else random.Random(seeded)  # unseeded: made when first needed
        elif seed is not None:
            raise IllegalAction("bad_argument", "give either seed or rng, not both")
        return _round(start(v, parsed, kitty_cards, dealer=dealer, hand_number=hand_number, passing=passing,
                            scores=scores, rng=rng, leader=leader, check=check, chips=chips, bidder=bidder))

    def copy(self, *, rng: random.Random | None = None) -> Round:
        """An independent copy (cheap: shares immutable parts, copies small lists).

        ``rng``, when given, is the generator the copy draws a pending shuffle
        pass from (a copied match hands its copied generator to its round).
        """
        if rng is not None:  # a search loop's copy gives none: no call on its path
            check_rng(rng)
        new = Round()
        new._held = False  # a copy of a match's round is the caller's own
        state = new._s = self._s.copy()
        if rng is not None:
            state.rng = rng
        return new

    def __copy__(self) -> Round:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:  # copy() copies every mutable part already
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:  # the build first: the other build refuses it before the state
        return (_unpickled, (BUILD,), self._s)

    def __setstate__(self, state: RoundState) -> None:
        self._s = state

    # ------------------------------------------------------------------ public state

    @property
    def variant(self) -> Variant:
        """The rules this round is played by."""
        return self._s.variant

    @property
    def rules(self) -> Rules:
        """The variant compiled into tables (internal)."""
        return self._s.rules

    @property
    def n(self) -> int:
        """Number of players."""
        return self._s.n

    @property
    def dealer(self) -> int:
        """The dealer's seat; eldest hand is the next seat in the direction of play."""
        return self._s.dealer

    @property
    def hand_number(self) -> int:
        """0 for the first hand of a match; picks the pass direction from the schedule."""
        return self._s.hand_number

    @property
    def scores(self) -> tuple[Score, ...]:
        """Match totals before this round (the moon rules that look at the game use them)."""
        return self._s.scores

    @property
    def phase(self) -> Phase:
        """What the round waits for (``OVER`` once scored)."""
        return self._s.phase

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now (several while passing)."""
        return machine.to_act(self._s)

    @property
    def is_over(self) -> bool:
        """Whether the round is finished and scored."""
        return self._s.phase is OVER

    @property
    def passing(self) -> PassDirection:
        """This hand's pass direction (after a dealer's choice, the chosen one)."""
        return self._s.passing

    @property
    def pass_count(self) -> int:
        """Cards each player passes this hand."""
        return self._s.pass_size

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, sorted."""
        check_seat(seat, self._s.n)
        return tuple(cards_from_indices(self._s.held(seat)))

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand (the whole truth; agents should use :meth:`observation`)."""
        return tuple(tuple(cards_from_indices(self._s.held(i))) for i in range(self._s.n))

    @property
    def kitty(self) -> tuple[Card, ...]:
        """Kitty cards not yet taken; with a stock (``deck.stock``), the stock's cards, top card first."""
        return tuple(cards_from_indices(self._s.kitty))

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick's plays so far: ``(seat, card)`` pairs."""
        s = self._s
        return tuple(zip(s.tseats, cards_from_indices(s.tcards), strict=True))

    @property
    def leader(self) -> int | None:
        """Who leads (or led) the current trick, once play has begun."""
        return None if self._s.leader < 0 else self._s.leader

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Completed tricks in order."""
        return trick_values(self._s)

    @property
    def hearts_broken(self) -> bool:
        """Whether hearts have been broken (always True when breaking is "none")."""
        return self._s.broken or not self._s.rules.locks_hearts

    @property
    def taken(self) -> tuple[tuple[Card, ...], ...]:
        """Cards each seat has taken (tricks, rolled-over cards and kitty cards)."""
        return tuple(tuple(cards_from_indices(sorted(t, key=ORDER.__getitem__))) for t in self._s.taken)

    @property
    def carry(self) -> tuple[Card, ...]:
        """Cards of cancelled tricks (and kitty cards due with them) waiting for the next trick's winner."""
        return tuple(cards_from_indices(self._s.carry))

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won per seat."""
        return tuple(self._s.won)

    @property
    def events(self) -> tuple[Event, ...]:
        """The append-only log: the actions applied and the automatic events, in order."""
        return tuple(event_values(self._s))

    @property
    def points(self) -> tuple[Score, ...] | None:
        """Per-seat points once the round is scored (after the moon and sun rules), else None."""
        outcome = self._s.outcome
        return None if outcome is None else outcome.points

    @property
    def outcome(self) -> Outcome | None:
        """The scored result, with the shooter and how a moon/sun scored."""
        return self._s.outcome

    @property
    def penalty_points(self) -> tuple[int, ...] | None:
        """Per seat, the points of the penalty cards taken, before any moon, once the round is over
        (what Foster's counter settlements are paid on); None before."""
        return penalty_points(self._s) if self._s.phase is OVER else None

    @property
    def auction(self) -> Auction | None:
        """The auction's public state (``scoring.settlement = "auction"``): chips, bids, winner, suit named."""
        return auction_value(self._s)

    @property
    def exposed(self) -> tuple[Card, ...]:
        """Cards exposed ("sold") this hand before the first lead (``scoring.exposable``); public."""
        return tuple(cards_from_indices(self._s.exposed))

    @property
    def exposed_by(self) -> tuple[int, ...]:
        """The seat that exposed each card of :attr:`exposed`, in the same order."""
        return exposers(self._s)

    @property
    def took_all_penalty_cards(self) -> int | None:
        """The seat that took every penalty card that scored this hand (the fact a moon is judged on, whatever
        the moon rule made of it), once the round is over; None before, or when nobody did."""
        s = self._s
        return moon_taker(facts(s), s.variant.moon.requires) if s.phase is OVER else None

    @property
    def received(self) -> tuple[tuple[Card, ...], ...] | None:
        """What each seat received in the pass, once exchanged."""
        received = self._s.received
        if received is None:
            return None
        return tuple(tuple(cards_from_indices(r)) for r in received)

    @property
    def options(self) -> tuple[str, ...]:
        """The options of the pending decision (empty unless the phase is DECIDE)."""
        decision = self._s.decision
        return decision[2] if decision else ()

    @property
    def decision(self) -> Decision | None:
        """What the pending decision is about (:class:`~heartslib.Decision`: pass, moon, suit, expose, bid, name), or
        None."""
        decision = self._s.decision
        return decision[0] if decision else None

    # ------------------------------------------------------------------ legality

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for ``seat`` (default: the only seat to act).

        While passing several seats act, so name the seat. Seats that are not
        to act have no legal actions. Passing lists every choice of cards,
        which grows quickly with hand size (3 of 13: 286; scatter orders them).
        """
        s = self._s
        if s.phase is PLAY and (seat is None or (seat == s.turn and type(seat) is int)):
            # the common step, kept short: the remembered legal cards as interned plays
            turn = s.turn
            memo = s.memo
            if memo < 0:
                memo = s.memo = legal_mask(s, turn, None)
            plays = PLAYS[turn]
            return [plays[c] for c in cards_in(memo)]
        return machine.legal_actions(s, _seat_arg(self._s, seat))

    def legal_cards(self, seat: int | None = None) -> tuple[Card, ...]:
        """The cards ``seat`` may play now (empty when it is not that seat's turn to play)."""
        seat = _seat_arg(self._s, seat)
        s = self._s
        if s.phase is not PLAY or seat != s.turn:
            return ()
        return tuple([CARD[c] for c in cards_in(legal_mask(s, seat, None))])

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now (no enumeration)."""
        return why_action(self._s, action) is None

    def why_illegal(self, action: Action) -> IllegalAction | None:
        """The :class:`~heartslib.IllegalAction` that :meth:`apply` would raise, or None: what the game allows
        (a match's round refuses ``apply`` itself, ``round_in_match``: :attr:`heartslib.Match.round`)."""
        why = why_action(self._s, action)
        if why is None:
            return None
        return IllegalAction(why[0], why[1], action=action)

    def pass_rules(self, seat: int) -> PassRules:
        """What ``seat`` knows about its pass: its hand, how many cards, which are forbidden, whether
        the order matters. Enough to list or check its passes without the rest of the round.

        >>> import heartslib as hl
        >>> rules = hl.Round.deal(hl.preset("standard"), seed=1).pass_rules(0)
        >>> rules.size, len(rules.choices())
        (3, 286)
        """
        s = self._s
        check_seat(seat, s.n)
        return seat_pass_rules(s, seat)

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> None:
        """Apply a legal action; raise :class:`~heartslib.IllegalAction` (state unchanged) otherwise."""
        if self._held:
            raise _held_error(str(action) if isinstance(action, Pass | Play | Choose) else arg_text(action), action)
        s = self._s
        if s.phase is PLAY:
            # the common step, kept here (a call less per card): one of the plays legal_actions handed out,
            # known by identity, or a Play built by the caller, among the remembered legal cards
            code = PLAY_IDS.get(id(action), -1)
            if code < 0 and type(action) is PLAY_TYPE:  # a Play built by the caller (or around its constructor)
                seat, card_value = getattr(action, "seat", None), getattr(action, "card", None)
                if type(seat) is int and type(card_value) is Card:
                    code = seat * PLAY_CODE + card_value.index
            seat = code // PLAY_CODE
            if code >= 0 and seat == s.turn:
                memo = s.memo
                if memo < 0:
                    memo = s.memo = legal_mask(s, seat, None)
                card = code - seat * PLAY_CODE
                if memo >> card & 1:
                    s.events.append(code)
                    play_card(s, seat, card)
                    return
        machine.apply(s, action)

    def script_shuffle_pass(self, received: Sequence[str | Iterable[Card | str]]) -> None:
        """Fix the outcome of this hand's shuffle pass: ``received[seat]`` is what each seat gets from the
        shuffled pile, instead of a draw from the round's generator (the chance hook for programs that
        choose chance outcomes themselves, such as the OpenSpiel adapter and determinizing search).

        Allowed while the shuffle pass is still to be exchanged; the outcome is
        checked against the cards passed when the last seat passes (that
        :meth:`apply` raises ``IllegalAction("script_mismatch", ...)`` and
        changes nothing if it does not fit).

        >>> import heartslib as hl
        >>> v = hl.preset("standard").replace(passing={"schedule": ["shuffle"]})
        >>> r = hl.Round.deal(v, seed=1)
        >>> first = [r.hand(seat)[:3] for seat in range(4)]
        >>> r.script_shuffle_pass([first[3], first[0], first[1], first[2]])
        >>> for seat in range(4):
        ...     r.apply(hl.Pass(seat, first[seat]))
        >>> r.received[0] == first[3]
        True
        """
        script_shuffle(self, received)

    def random_playout(self, rng: random.Random) -> tuple[Score, ...]:
        """Play uniformly random legal actions to the end of the round, in place; return the points.

        Each step is uniform among :meth:`legal_actions` (one ``rng.random()`` per choice of two or more), as a
        random agent plays.

        >>> import heartslib as hl, random
        >>> r = hl.Round.deal(hl.preset("standard"), seed=1)
        >>> points = r.random_playout(random.Random(2))
        >>> r.is_over, sum(points) in (26, 78)
        (True, True)
        """
        if type(rng) is not random.Random:  # one test on the common path; a subclass passes check_rng
            check_rng(rng, optional=False)  # before anything changes
        if self._held:
            raise _held_error("random_playout")
        return playout.random_playout(self._s, rng)

    def rollout_points(self, rng: random.Random, policy: playout.Policy | None = None) -> tuple[Score, ...]:
        """The points of a playout from here, leaving the round as it is: with no ``policy``, what
        ``round.copy().random_playout(rng)`` returns for the same ``rng`` state; with one, what
        ``round.copy().policy_playout(policy, rng)`` returns.

        >>> import heartslib as hl, random
        >>> r = hl.Round.deal(hl.preset("standard"), seed=1)
        >>> r.rollout_points(random.Random(2)) == r.copy().random_playout(random.Random(2)), r.phase
        (True, <Phase.PASS: 'pass'>)
        """
        if type(rng) is not random.Random:  # one test on the common path; a subclass passes check_rng
            check_rng(rng, optional=False)  # before anything changes
        if policy is not None:
            return playout.policy_playout(self._s.copy(), rng, policy)
        return playout.rollout_points(self._s, rng)

    def policy_playout(self, policy: playout.Policy, rng: random.Random) -> tuple[Score, ...]:
        """Play to the end of the round in place, ``policy`` choosing every play and decision; return the points.

        ``policy`` (the protocol ``heartslib.engine.playout.Policy``, e.g. :class:`heartslib.search.RolloutPolicy`)
        is handed the engine's state and the legal cards as indices and returns one of them; the engine's own
        legality and trick code do the rest, without :meth:`apply`'s checks. Passes are drawn from ``rng``.
        """
        check_rng(rng, optional=False)  # before anything changes
        if self._held:
            raise _held_error("policy_playout")
        return playout.policy_playout(self._s, rng, policy)

    # ------------------------------------------------------------------ observation

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (see :class:`~heartslib.Observation`)."""
        s = self._s
        check_seat(seat, s.n)
        return observation(s, seat, machine.to_act(s))

    # ------------------------------------------------------------------ misc

    def __repr__(self) -> str:
        s = self._s
        return (f"<Round {s.variant.name!r} hand {s.hand_number} dealer {s.dealer} "
                f"phase {s.phase.value} to_act {self.to_act}>")

    def state_key(self) -> tuple[Any, ...]:
        """A value equal for two rounds in the same state (used by tests and search caches)."""
        return self._s.key()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self._s.key() == other._s.key()

    __hash__ = None  # type: ignore[assignment]

