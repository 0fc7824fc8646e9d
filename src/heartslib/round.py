"""One hand of play: the deal, the pass, the tricks and the scoring, as a state machine.

Only :class:`~heartslib.Pass`, :class:`~heartslib.Play` and
:class:`~heartslib.Choose` reach the caller; collecting tricks, the kitty,
cancellations, the moon and scoring happen inside :meth:`Round.apply`.

Internally cards are indices (see :mod:`heartslib.cards`) held in lists
sorted in hand order; every rule question is answered from the tables the
variant compiled once (:class:`heartslib.rules.Rules`).

This module is one of the two the optional compiled build turns into a C
extension with mypyc (see ``docs/performance.md``): keep it strictly typed,
construct classes by calling them (not ``object.__new__``), and annotate
module constants read on hot paths ``Final``. CI runs the tests on both builds.

>>> import heartslib as hl
>>> r = hl.Round.deal(hl.preset("standard"), seed=1)
>>> r.phase, r.to_act
(<Phase.PASS: 'pass'>, (0, 1, 2, 3))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, permutations
from typing import Any, Final

import attrs

from heartslib.actions import (
    Action,
    Choose,
    Event,
    KittyTaken,
    MoonShot,
    Pass,
    PassesExchanged,
    Play,
    RoundScored,
    TrickWon,
)
from heartslib.cards import Card, Suit, card_order, cards_from_indices, parse_cards
from heartslib.enums import (
    DEALERS_CHOICE,
    HOLD,
    SCATTER,
    SHUFFLE,
    STAR,
    CancelRollover,
    Identical,
    JokerLead,
    KittyMode,
    LeadHeartsUnbroken,
    MoonRequires,
    Offset,
    Opening,
    PassDirection,
    Phase,
)
from heartslib.errors import CardError, IllegalAction
from heartslib.observation import Observation, Trick
from heartslib.rules import HEART, JK, NO_SUIT, QS, SPADE, Rules
from heartslib.score import Score
from heartslib.scoring import Outcome, RoundFacts, hand_points, moon_options, moon_result, score
from heartslib.variant import Variant

__all__ = ["PassRules", "Round", "pass_choices", "pass_problem", "shuffled"]

_ORDER: Final = card_order
_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
_CODE: Final = tuple(Card.from_index(i).code for i in range(55))
_CARD: Final = tuple(Card.from_index(i) for i in range(55))
#: Interned Play actions, ``_PLAYS[seat][card index]``: legal_actions returns these without building new ones.
_PLAYS: Final = tuple(tuple(Play(seat, card) for card in _CARD) for seat in range(11))
#: A completed trick as the engine stores it: (number, leader, seats, cards, winner or -1, led suit);
#: :attr:`Round.tricks` turns these into :class:`Trick` values on demand.
_RawTrick = tuple[int, int, tuple[int, ...], tuple[int, ...], int, int]
#: A TrickWon event as stored: the raw trick and the card indices its winner took.
_RawTrickWon = tuple[_RawTrick, tuple[int, ...]]
# The phases as constants: compared by identity on every step (and a compiled build reads them as
# static values rather than attributes of the enum class).
_PLAY: Final = Phase.PLAY
_PASS: Final = Phase.PASS
_DECIDE: Final = Phase.DECIDE
_OVER: Final = Phase.OVER
#: The suits a lead may come from: any, or anything but hearts while they are locked.
_SUITS: Final = (0, 1, 2, 3)
_NOT_HEARTS: Final = (0, 1, 3)
#: Plays are logged as ``seat * _PLAY_CODE + card index`` (an int), turned into Play values on demand.
_PLAY_CODE: Final = 64
#: The Play class, for the type test in Round.apply (a static value when compiled).
_PLAY_TYPE: Final = Play
#: ``id(play) -> seat * _PLAY_CODE + card index`` for the interned plays, so Round.apply knows one of them
#: without reading its attributes (they live as long as this module, so their ids stay theirs).
_PLAY_IDS: Final = {id(_PLAYS[seat][card]): seat * _PLAY_CODE + card for seat in range(11) for card in range(55)}


def _trick(raw: _RawTrick) -> Trick:
    number, leader, seats, cards, winner, led = raw
    return Trick(
        number=number,
        leader=leader,
        plays=tuple((s, _CARD[c]) for s, c in zip(seats, cards, strict=True)),
        winner=None if winner < 0 else winner,
        led_suit=None if led == NO_SUIT else Suit(led),
    )


def _event(item: Event | int | _RawTrickWon) -> Event:
    if isinstance(item, int):
        return _PLAYS[item // _PLAY_CODE][item % _PLAY_CODE]
    if isinstance(item, tuple):
        raw, taken = item
        trick = _trick(raw)
        return TrickWon(trick.number, trick.leader, trick.plays, trick.winner, tuple(_CARD[c] for c in taken))
    return item


def shuffled(items: Sequence[int], rng: random.Random) -> list[int]:
    """A Fisher–Yates shuffle built only on ``rng.random()``.

    Python promises ``random()`` is the same on every version and platform
    for a given seed (``shuffle`` and ``randrange`` are not promised), so
    deals are reproducible everywhere.
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def _sort(cards: list[int]) -> None:
    cards.sort(key=_ORDER.__getitem__)


class Round:
    """One hand: construct with :meth:`deal` or :meth:`from_hands`, then ``apply`` actions.

    Attributes such as :attr:`phase`, :attr:`to_act`, :attr:`tricks` and
    :attr:`points` describe the state; :meth:`observation` gives one seat's
    view. A failed :meth:`apply` raises :class:`~heartslib.IllegalAction` and
    leaves the round exactly as it was.
    """

    __slots__ = (
        "_broken",
        "_called",
        "_carry",
        "_carry_dead",
        "_dead",
        "_decision",
        "_events",
        "_hands",
        "_kitty",
        "_kitty_seen",
        "_lead",
        "_leader",
        "_memo",
        "_nines",
        "_opening",
        "_outcome",
        "_pass_size",
        "_passes",
        "_passing",
        "_phase",
        "_received",
        "_rng",
        "_taken",
        "_tcards",
        "_trick_no",
        "_tricks",
        "_tseats",
        "_tsuit",
        "_turn",
        "_won",
        "dealer",
        "hand_number",
        "n",
        "rules",
        "scores",
        "variant",
    )

    variant: Variant
    """The rules this round is played by."""
    rules: Rules
    """The variant compiled into tables (internal)."""
    n: int
    """Number of players."""
    dealer: int
    """The dealer's seat; eldest hand is the next seat in the direction of play."""
    hand_number: int
    """0 for the first hand of a match; picks the pass direction from the schedule."""
    scores: tuple[Score, ...]
    """Match totals before this round (the moon rules that look at the game use them)."""
    _lead: int
    _hands: list[list[int]]
    _kitty: list[int]
    _kitty_seen: list[list[int]]
    _passing: PassDirection
    _pass_size: int
    _passes: list[tuple[int, ...] | None]
    _received: list[tuple[int, ...]] | None
    _rng: random.Random
    _taken: list[list[int]]
    _won: list[int]
    _dead: list[int]
    _carry: list[int]
    _carry_dead: int
    _tricks: list[_RawTrick]
    _tseats: list[int]
    _tcards: list[int]
    _tsuit: int
    _called: bool
    _nines: int
    _trick_no: int
    _broken: bool
    _leader: int
    _turn: int
    _opening: int
    _outcome: Outcome | None
    _decision: tuple[str, int, tuple[str, ...]] | None
    _events: list[Event | int | _RawTrickWon]
    _phase: Phase
    _memo: list[int] | None

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
    ) -> Round:
        """A random deal from ``seed`` (or from ``rng``, which the round then keeps for a shuffle pass).

        Cards are dealt one at a time from the dealer's left in the direction of
        play; the cards left over (if the variant uses a kitty) form the kitty.
        ``leader``, when given, leads the first trick with any card (the
        ``play.opening_taker`` rule: the match passes who took that card last hand).
        """
        if rng is None:
            rng = random.Random(_check_seed(seed))
        elif seed is not None:
            raise ValueError("give either seed or rng, not both")
        _check_seat(dealer, v.players, "dealer")
        rules = v.rules
        pack = shuffled(rules.pack, rng)
        n = v.players
        size = rules.hand_size
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(size * n):
            seat = (dealer + rules.step * (1 + i % n)) % n
            hands[seat].append(pack[i])
        kitty = pack[size * n :]
        return cls._start(v, hands, kitty, dealer, hand_number, None, scores, rng, leader)

    @classmethod
    def from_hands(
        cls,
        v: Variant,
        hands: Sequence[str | Iterable[Card | str]],
        *,
        dealer: int = 0,
        passing: PassDirection | None = None,
        kitty: str | Iterable[Card | str] = (),
        hand_number: int = 0,
        scores: Sequence[Score] | None = None,
        seed: int | None = None,
        leader: int | None = None,
    ) -> Round:
        """A round from an explicit deal (the hands before passing).

        ``passing`` defaults to the variant's schedule for ``hand_number``.
        The hands and kitty must together be exactly the variant's pack;
        otherwise :class:`~heartslib.CardError` says what is missing or extra.

        >>> import heartslib as hl
        >>> v = hl.preset("standard")
        >>> hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        ...          "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
        >>> r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
        >>> r.phase, r.to_act, r.legal_actions()
        (<Phase.PLAY: 'play'>, (0,), [Play(seat=0, card=Card('2C'))])
        """
        n = v.players
        if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != n:
            raise CardError(f"expected {n} hands (one per player), got {hands!r}")
        parsed = [[c.index for c in parse_cards(h)] for h in hands]
        kitty_cards = [c.index for c in parse_cards(kitty)]
        rules = v.rules
        for seat, hand in enumerate(parsed):
            if len(hand) != rules.hand_size:
                raise CardError(f"hand {seat} has {len(hand)} cards; this variant deals {rules.hand_size}")
        if len(kitty_cards) != rules.kitty_size:
            raise CardError(f"the kitty has {len(kitty_cards)} cards; this variant leaves {rules.kitty_size}")
        dealt = Counter(c for h in parsed for c in h) + Counter(kitty_cards)
        if dealt != rules.counts:
            missing = rules.counts - dealt
            extra = dealt - rules.counts
            parts = []
            if missing:
                parts.append("missing " + " ".join(_CODE[c] for c in sorted(missing.elements())))
            if extra:
                extras = " ".join(_CODE[c] for c in sorted(extra.elements()))
                parts.append("not in the pack (or too many copies) " + extras)
            raise CardError("the hands and kitty are not this variant's pack: " + "; ".join(parts))
        _check_seat(dealer, n, "dealer")
        rng = random.Random(_check_seed(seed))
        return cls._start(v, parsed, kitty_cards, dealer, hand_number, passing, scores, rng, leader)

    @classmethod
    def _start(
        cls,
        v: Variant,
        hands: list[list[int]],
        kitty: list[int],
        dealer: int,
        hand_number: int,
        passing: PassDirection | None,
        scores: Sequence[Score] | None,
        rng: random.Random,
        leader: int | None = None,
    ) -> Round:
        self = cls()  # no __init__: the fields are set here (a plain call, so mypyc can compile it)
        rules = v.rules
        n = v.players
        self.variant = v
        self.rules = rules
        self.n = n
        self.dealer = dealer
        if not isinstance(hand_number, int) or hand_number < 0:
            raise ValueError(f"hand_number must be a whole number >= 0, not {hand_number!r}")
        self.hand_number = hand_number
        if scores is None:
            self.scores = (0,) * n
        else:
            if len(scores) != n or not all(isinstance(s, int | complex) and not isinstance(s, bool) for s in scores):
                raise ValueError(f"scores must be {n} whole numbers, got {scores!r}")
            self.scores = tuple(scores)
        if leader is not None:
            _check_seat(leader, n, "leader")
        self._lead = -1 if leader is None else leader
        for h in hands:
            _sort(h)
        self._hands = hands
        self._kitty = list(kitty)
        self._kitty_seen = [[] for _ in range(n)]
        if passing is None:
            passing = rules.schedule[hand_number % len(rules.schedule)]
        if not isinstance(passing, Offset | str):
            raise ValueError(f"{passing!r} is not a pass direction (Offset(k), HOLD, SCATTER, ...)")
        if isinstance(passing, Offset):
            passing = _canonical(passing, n)
        self._passing = passing
        self._pass_size = Rules.pass_size(passing, rules.pass_cards, n)
        self._passes = [None] * n
        self._received = None
        self._rng = rng
        self._taken = [[] for _ in range(n)]
        self._won = [0] * n
        self._dead = [0] * n
        self._carry = []
        self._carry_dead = 0
        self._tricks = []
        self._tseats = []
        self._tcards = []
        self._tsuit = NO_SUIT
        self._called = False
        self._nines = 0
        self._trick_no = 0
        self._broken = False
        self._leader = -1
        self._turn = -1
        self._opening = -1
        self._outcome = None
        self._decision = None
        self._events = []
        self._memo = None
        if passing == DEALERS_CHOICE:
            self._phase = Phase.DECIDE
            self._decision = ("pass", dealer, self._dealers_choice_options())
        elif passing == HOLD:
            self._begin_play()
        else:
            self._phase = Phase.PASS
        return self

    def copy(self) -> Round:
        """An independent copy (cheap: shares immutable parts, copies small lists)."""
        new = Round()
        new.variant = self.variant
        new.rules = self.rules
        new.n = self.n
        new.dealer = self.dealer
        new.hand_number = self.hand_number
        new.scores = self.scores
        new._lead = self._lead
        new._hands = [h[:] for h in self._hands]
        new._kitty = self._kitty[:]
        new._kitty_seen = [k[:] for k in self._kitty_seen]
        new._passing = self._passing
        new._pass_size = self._pass_size
        new._passes = self._passes[:]
        new._received = self._received
        if self._phase is _PASS and self._passing == SHUFFLE:
            # only a shuffle pass still to come draws on the round's RNG (a dealer's choice never names a
            # shuffle); otherwise sharing it is safe
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            new._rng = rng
        else:
            new._rng = self._rng
        new._taken = [t[:] for t in self._taken]
        new._won = self._won[:]
        new._dead = self._dead[:]
        new._carry = self._carry[:]
        new._carry_dead = self._carry_dead
        new._tricks = self._tricks[:]
        new._tseats = self._tseats[:]
        new._tcards = self._tcards[:]
        new._tsuit = self._tsuit
        new._called = self._called
        new._nines = self._nines
        new._trick_no = self._trick_no
        new._broken = self._broken
        new._leader = self._leader
        new._turn = self._turn
        new._opening = self._opening
        new._outcome = self._outcome
        new._decision = self._decision
        new._events = self._events[:]
        new._phase = self._phase
        new._memo = None  # it may be the hand list itself, which only this round's plays change
        return new

    def __copy__(self) -> Round:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        # copy() already copies every mutable part (the variant and its tables never change)
        return self.copy()

    # ------------------------------------------------------------------ public state

    @property
    def phase(self) -> Phase:
        """What the round waits for (``OVER`` once scored)."""
        return self._phase

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now (several while passing)."""
        phase = self._phase
        if phase is _PLAY:
            return (self._turn,)
        if phase is _PASS:
            return tuple(s for s in range(self.n) if self._passes[s] is None)
        if phase is _DECIDE:
            assert self._decision is not None
            return (self._decision[1],)
        return ()

    @property
    def is_over(self) -> bool:
        """Whether the round is finished and scored."""
        return self._phase is _OVER

    @property
    def passing(self) -> PassDirection:
        """This hand's pass direction (after a dealer's choice, the chosen one)."""
        return self._passing

    @property
    def pass_count(self) -> int:
        """Cards each player passes this hand."""
        return self._pass_size

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, sorted."""
        _check_seat(seat, self.n)
        return tuple(cards_from_indices(self._hands[seat]))

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand (the whole truth; agents should use :meth:`observation`)."""
        return tuple(tuple(cards_from_indices(h)) for h in self._hands)

    @property
    def kitty(self) -> tuple[Card, ...]:
        """Kitty cards not yet taken."""
        return tuple(cards_from_indices(self._kitty))

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick's plays so far: ``(seat, card)`` pairs."""
        return tuple(zip(self._tseats, cards_from_indices(self._tcards), strict=True))

    @property
    def leader(self) -> int | None:
        """Who leads (or led) the current trick, once play has begun."""
        return None if self._leader < 0 else self._leader

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Completed tricks in order."""
        return tuple(_trick(raw) for raw in self._tricks)

    @property
    def hearts_broken(self) -> bool:
        """Whether hearts have been broken (always True when breaking is "none")."""
        return self._broken or not self.rules.locks_hearts

    @property
    def taken(self) -> tuple[tuple[Card, ...], ...]:
        """Cards each seat has taken (tricks, rolled-over cards and kitty cards)."""
        return tuple(tuple(cards_from_indices(sorted(t, key=_ORDER.__getitem__))) for t in self._taken)

    @property
    def carry(self) -> tuple[Card, ...]:
        """Cards of cancelled tricks (and kitty cards due with them) waiting for the next trick's winner."""
        return tuple(cards_from_indices(self._carry))

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks each seat has won."""
        return tuple(self._won)

    @property
    def events(self) -> tuple[Event, ...]:
        """The append-only log: the actions applied and the automatic events, in order."""
        return tuple(_event(item) for item in self._events)

    @property
    def points(self) -> tuple[Score, ...] | None:
        """Per-seat points once the round is scored (after the moon and sun rules), else None."""
        return None if self._outcome is None else self._outcome.points

    @property
    def outcome(self) -> Outcome | None:
        """The scored result, with the shooter and how a moon/sun scored."""
        return self._outcome

    @property
    def received(self) -> tuple[tuple[Card, ...], ...] | None:
        """What each seat received in the pass, once exchanged."""
        if self._received is None:
            return None
        return tuple(tuple(cards_from_indices(r)) for r in self._received)

    @property
    def options(self) -> tuple[str, ...]:
        """The options of the pending decision (empty unless the phase is DECIDE)."""
        return self._decision[2] if self._decision else ()

    @property
    def decision(self) -> str | None:
        """What the pending decision is about: ``"pass"``, ``"moon"`` or ``"suit"``."""
        return self._decision[0] if self._decision else None

    # ------------------------------------------------------------------ legality

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for ``seat`` (default: the only seat to act).

        While passing several seats act, so name the seat. Seats that are not
        to act have no legal actions. Passing lists every choice of cards,
        which grows quickly with hand size (3 of 13: 286; scatter orders them).
        """
        phase = self._phase
        if phase is _PLAY and (seat is None or seat == self._turn):
            turn = self._turn
            memo = self._memo
            if memo is None:
                memo = self._memo = self._candidates(turn, None)
            plays = _PLAYS[turn]
            return [plays[c] for c in memo]
        seat = self._seat_arg(seat)
        if seat not in self.to_act:
            return []
        if phase is _PLAY:
            plays = _PLAYS[seat]
            return [plays[c] for c in self._candidates(seat, None)]
        if phase is _DECIDE:
            assert self._decision is not None
            return [Choose(seat, o) for o in self._decision[2]]
        return [Pass(seat, tuple(_CARD[c] for c in combo)) for combo in self._pass_choices(seat)]

    def legal_cards(self, seat: int | None = None) -> tuple[Card, ...]:
        """The cards ``seat`` may play now (empty when it is not that seat's turn to play)."""
        seat = self._seat_arg(seat)
        if self._phase is not _PLAY or seat != self._turn:
            return ()
        return tuple(_CARD[c] for c in self._candidates(seat, None))

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now (no enumeration)."""
        return self._why(action) is None

    def why_illegal(self, action: Action) -> IllegalAction | None:
        """The :class:`~heartslib.IllegalAction` that :meth:`apply` would raise, or None."""
        why = self._why(action)
        if why is None:
            return None
        return IllegalAction(why[0], why[1], action=action)

    def _seat_arg(self, seat: int | None) -> int:
        if seat is None:
            acting = self.to_act
            if len(acting) != 1:
                if not acting:
                    return -1
                raise IllegalAction(
                    "seat_required",
                    f"seats {', '.join(map(str, acting))} act now; name the seat: legal_actions(seat)",
                )
            return acting[0]
        _check_seat(seat, self.n)
        return seat

    def _why(self, action: object) -> tuple[str, str] | None:
        if not isinstance(action, Pass | Play | Choose):
            return ("not_an_action", f"{action!r} is not an action (Pass, Play or Choose)")
        seat = action.seat
        if not 0 <= seat < self.n:
            return ("no_such_seat", f"{action}: there is no seat {seat}; seats are 0-{self.n - 1}")
        phase = self._phase
        if phase is _OVER:
            return ("round_over", f"{action}: the round is over")
        if isinstance(action, Play):
            if phase is not _PLAY:
                return ("not_playing", f"{action}: cards are not being played now (phase {phase.value})")
            if seat != self._turn:
                return ("not_your_turn", f"{action}: it is seat {self._turn}'s turn to play")
            return self._why_play(seat, action.card.index)
        if isinstance(action, Pass):
            if phase is not _PASS:
                return ("not_passing", f"{action}: cards are not being passed now (phase {phase.value})")
            if self._passes[seat] is not None:
                return ("already_passed", f"{action}: seat {seat} has already passed")
            return self._why_pass(seat, [c.index for c in action.cards])
        if phase is not _DECIDE:
            return ("no_decision", f"{action}: there is no decision to make now (phase {phase.value})")
        assert self._decision is not None
        _, who, options = self._decision
        if seat != who:
            return ("not_your_turn", f"{action}: seat {who} makes this decision")
        if action.option not in options:
            return ("choice_not_offered", f"{action}: {action.option!r} is not an option; choose one of "
                    + ", ".join(options))
        return None

    def _why_play(self, seat: int, card: int) -> tuple[str, str] | None:
        if card not in self._hands[seat]:
            return ("card_not_held", f"{seat}:play {_CODE[card]}: seat {seat} does not hold {_CODE[card]}")
        why: list[tuple[str, str, frozenset[int]]] = []
        legal = self._candidates(seat, why)
        if card in legal:
            return None
        for code, message, removed in why:
            if card in removed:
                return (code, f"{seat}:play {_CODE[card]}: {message}")
        return ("illegal_play", f"{seat}:play {_CODE[card]} is not allowed now")  # pragma: no cover

    def _candidates(self, seat: int, why: list[tuple[str, str, frozenset[int]]] | None) -> list[int]:
        """The distinct cards ``seat`` may play: the single source of play legality.

        Each rule narrows the candidates in turn; when ``why`` is a list, each
        narrowing records its code, its explanation and the cards it removed
        (messages are only built then: this runs at every step of a playout).

        :attr:`_memo` keeps the answer for the seat to play until the next
        change of state (a program asking for the legal actions and then
        applying one computes them once); :meth:`_play` and :meth:`apply`
        forget it. It may be the hand list itself, so it is never shared with
        a copy.
        """
        rules = self.rules
        hand = self._hands[seat]
        cands = _distinct(hand) if rules.repeats else hand
        suit = rules.suit
        first = self._trick_no == 0

        if not self._tcards:  # leading
            opening = self._opening
            if first and opening >= 0:
                if rules.opening == Opening.TWO_OF_CLUBS:
                    keep = [c for c in cands if c == opening]
                    if why is not None:
                        _record(why, cands, keep, "must_lead_opening_card",
                                f"the first trick must be led with {_CODE[opening]}")
                    return keep
                osuit = suit[opening]
                same = [c for c in cands if suit[c] == osuit]
                if same:
                    if why is not None:
                        _record(why, cands, same, "must_lead_club",
                                f"the first trick must be led with a {_SUIT_NAMES[osuit][:-1]}")
                    return same
            if rules.valueless and rules.joker_lead == JokerLead.FORBIDDEN:
                keep = [c for c in cands if c != JK]
                if keep:
                    if why is not None:
                        _record(why, cands, keep, "joker_cannot_lead", "a joker may not lead a trick")
                    cands = keep
            if not self._broken and rules.locks_hearts:
                exempt = rules.lead_hearts_unbroken == LeadHeartsUnbroken.ONLY_PENALTY_CARDS and all(
                    rules.penalty[c] or suit[c] == HEART for c in cands
                )
                if not exempt:
                    qlock = rules.queen_needs_broken
                    keep = [c for c in cands if suit[c] != HEART and not (qlock and c == QS)]
                    if keep and len(keep) < len(cands):
                        if why is not None:
                            removed = frozenset(cands) - frozenset(keep)
                            if QS in removed:
                                why.append(("queen_not_broken",
                                            "Q♠ may not be led until hearts are broken", frozenset((QS,))))
                            why.append(("hearts_not_broken",
                                        "hearts may not be led until hearts are broken "
                                        "(the leader holds other cards)", removed))
                        cands = keep
            if first and rules.first_trick_banned is not None:
                banned = rules.first_trick_banned
                keep = [c for c in cands if not banned[c]]
                if keep:
                    if why is not None:
                        _record(why, cands, keep, rules.first_trick_code, _first_trick_text(rules.first_trick_code))
                    cands = keep
            return cands

        led = self._tsuit
        void = True
        if led != NO_SUIT:
            follow = [c for c in cands if suit[c] == led]
            if follow:
                void = False
                if rules.joker_play_any_time and JK in cands:
                    follow.append(JK)
                if why is not None:
                    _record(why, cands, follow, "must_follow_suit", f"must follow suit ({_SUIT_NAMES[led]} led)")
                cands = follow
        if first and rules.first_trick_banned is not None:
            banned = rules.first_trick_banned
            keep = [c for c in cands if not banned[c]]
            if keep:
                if why is not None:
                    _record(why, cands, keep, rules.first_trick_code, _first_trick_text(rules.first_trick_code))
                cands = keep
        if (rules.queen_forced and QS in cands) and (
            void or (led == SPADE and any(suit[c] == SPADE and rules.rank[c] > 12 for c in self._tcards))
        ):
            if why is not None:
                _record(why, cands, [QS], "queen_forced", "Q♠ must be played at the first opportunity (club play)")
            return [QS]
        if rules.must_discard and void:
            held = [c for c in cands if c in rules.must_discard]
            if held and (not rules.must_discard_if_all or all(c in hand for c in rules.must_discard)):
                if why is not None:
                    names = " or ".join(_CODE[c] for c in sorted(rules.must_discard, key=_ORDER.__getitem__))
                    _record(why, cands, held, "must_discard", f"void in the suit led, the player must discard {names}")
                return held
        return cands

    def _why_pass(self, seat: int, cards: list[int]) -> tuple[str, str] | None:
        return pass_problem(seat, self._hands[seat], cards, self._pass_size, self.rules.forbidden)

    def _pass_choices(self, seat: int) -> list[tuple[int, ...]]:
        return pass_choices(self._hands[seat], self._pass_size, self.rules.forbidden,
                            self._passing in (SCATTER, STAR))

    def pass_rules(self, seat: int) -> PassRules:
        """What ``seat`` knows about its pass: its hand, how many cards, which are forbidden, whether
        the order matters. Enough to list or check its passes without the rest of the round.

        >>> import heartslib as hl
        >>> rules = hl.Round.deal(hl.preset("standard"), seed=1).pass_rules(0)
        >>> rules.size, len(rules.choices())
        (3, 286)
        """
        _check_seat(seat, self.n)
        return PassRules(seat, tuple(self._hands[seat]), self._pass_size, self.rules.forbidden,
                         self._passing in (SCATTER, STAR))

    def _dealers_choice_options(self) -> tuple[str, ...]:
        names = [Offset(k).name(self.n) for k in range(1, self.n)]
        opts = [f"{count} {name}" for count in range(1, self.rules.pass_cards + 1) for name in names]
        return ("hold", *opts)

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> None:
        """Apply a legal action; raise :class:`~heartslib.IllegalAction` (state unchanged) otherwise."""
        if self._phase is _PLAY:
            # the common step: one of the plays legal_actions handed out, known by identity
            code = _PLAY_IDS.get(id(action), -1)
            if code < 0 and type(action) is _PLAY_TYPE:  # a Play built by the caller
                code = action.seat * _PLAY_CODE + action.card.index
            seat = code // _PLAY_CODE
            if code >= 0 and seat == self._turn:
                memo = self._memo
                if memo is None:
                    memo = self._memo = self._candidates(seat, None)
                card = code - seat * _PLAY_CODE
                if card in memo:
                    self._events.append(code)
                    self._play(seat, card)
                    return
        why = self._why(action)
        if why is not None:
            raise IllegalAction(why[0], why[1], action=action)
        if isinstance(action, Play):
            self._events.append(action.seat * _PLAY_CODE + action.card.index)
            self._play(action.seat, action.card.index)
        elif isinstance(action, Pass):
            self._memo = None
            self._events.append(action)
            self._passes[action.seat] = tuple(c.index for c in action.cards)
            if all(p is not None for p in self._passes):
                self._exchange()
        else:
            self._memo = None
            self._events.append(action)
            self._decide(action.option)

    def _decide(self, option: str) -> None:
        assert self._decision is not None
        what = self._decision[0]
        self._decision = None
        if what == "pass":
            if option == "hold":
                self._passing = HOLD
                self._pass_size = 0
                self._begin_play()
                return
            count_text, _, name = option.partition(" ")
            k = next(k for k in range(1, self.n) if Offset(k).name(self.n) == name)
            self._passing = _canonical(Offset(k), self.n)
            self._pass_size = int(count_text)
            self._phase = Phase.PASS
        elif what == "suit":
            self._tsuit = _SUIT_NAMES.index(option)
            self._called = True
            self._phase = Phase.PLAY
            self._turn = (self._turn + self.rules.step) % self.n
        else:  # moon
            assert self._outcome is None
            shooter = self._moon_shooter()
            keep = self.variant.moon.requires == MoonRequires.PENALTY_CARDS
            self._finish(moon_result(self._facts(), self.rules, shooter, option, keep))

    def _exchange(self) -> None:
        n = self.n
        step = self.rules.step
        passes: list[tuple[int, ...]] = [p for p in self._passes if p is not None]
        received: list[list[int]] = [[] for _ in range(n)]
        d = self._passing
        if d == SHUFFLE:
            pool = shuffled([c for p in passes for c in p], self._rng)
            size = self._pass_size
            for i in range(n):
                seat = (self.dealer + step * (1 + i)) % n
                received[seat] = pool[i * size : (i + 1) * size]
        else:
            for seat, cards in enumerate(passes):
                for i, c in enumerate(cards):
                    if d == SCATTER:
                        k = i + 1
                    elif d == STAR:
                        k = i + 2
                    else:
                        assert isinstance(d, Offset)
                        k = d.k
                    received[(seat + step * k) % n].append(c)
        for seat in range(n):
            hand = self._hands[seat]
            for c in passes[seat]:
                hand.remove(c)
        for seat in range(n):
            self._hands[seat].extend(received[seat])
            _sort(self._hands[seat])
            _sort(received[seat])
        self._received = [tuple(r) for r in received]
        self._events.append(PassesExchanged(tuple(tuple(cards_from_indices(r)) for r in received)))
        self._begin_play()

    def _begin_play(self) -> None:
        rules = self.rules
        n = self.n
        step = rules.step
        self._phase = Phase.PLAY
        leader = (self.dealer + step) % n
        if self._lead >= 0:
            leader = self._lead
        elif rules.needs_opening_card():
            held = {c for h in self._hands for c in h}
            card = rules.opening_card(held)
            if card is not None:
                self._opening = card
                for i in range(n):
                    seat = (self.dealer + step * (1 + i)) % n
                    if card in self._hands[seat]:
                        leader = seat
                        break
        self._leader = leader
        self._turn = leader

    def _play(self, seat: int, card: int) -> None:
        rules = self.rules
        self._memo = None
        self._hands[seat].remove(card)
        self._tseats.append(seat)
        tcards = self._tcards
        tcards.append(card)
        if rules.breaks[card]:
            self._broken = True
        if rules.fast_playout:
            # no booster nines and no suitless jokers: the first card sets the suit led and the trick
            # ends with one card from each player
            plays = len(tcards)
            if plays == 1:
                self._tsuit = rules.suit[card]
            elif plays == self.n:
                self._resolve()
                return
            self._turn = (seat + rules.step) % self.n
            return
        if rules.booster_nines and rules.rank[card] == 9:
            self._nines += 1
        csuit = rules.suit[card]
        if len(self._tcards) == 1:
            self._tsuit = csuit
            if csuit == NO_SUIT and rules.joker_lead == JokerLead.CALL_SUIT:
                self._phase = Phase.DECIDE
                self._decision = ("suit", seat, self._callable_suits(seat))
                return
        elif self._tsuit == NO_SUIT and not self._called and csuit != NO_SUIT:
            self._tsuit = csuit
        n = self.n
        plays = len(self._tcards)
        if plays % n == 0 and (plays >= n * (1 + self._nines) or not self._hands[self._leader]):
            self._resolve()
        else:
            self._turn = (seat + rules.step) % n

    def _callable_suits(self, seat: int) -> tuple[str, ...]:
        """Suits a joker's leader may call: hearts only under the rules for leading a heart."""
        rules = self.rules
        hand = self._hands[seat]
        if self._broken or not rules.locks_hearts:
            return _SUIT_NAMES
        suit = rules.suit
        real = [c for c in hand if suit[c] != NO_SUIT]
        hearts_ok = all(suit[c] == HEART for c in real) or (
            rules.lead_hearts_unbroken == LeadHeartsUnbroken.ONLY_PENALTY_CARDS
            and all(rules.penalty[c] or suit[c] == HEART for c in real)
        )
        return _SUIT_NAMES if hearts_ok else tuple(s for s in _SUIT_NAMES if s != "hearts")

    def _resolve(self) -> None:
        rules = self.rules
        cards = self._tcards
        seats = self._tseats
        led = self._tsuit
        suit = rules.suit
        rank = rules.rank
        if rules.fast_playout and not self._kitty:
            # no valueless jokers, no cancellation, nothing due from the kitty: the highest card of the
            # suit led wins (of two identical ones the first, or with last_wins the last: rules.challenge)
            # and takes the trick, as below but without the branches
            best = -1
            challenge = rules.challenge
            winner = self._leader
            for seat, card in zip(seats, cards, strict=True):
                if suit[card] == led and challenge[card] > best:
                    best = rank[card]
                    winner = seat
            raw: _RawTrick = (self._trick_no, self._leader, tuple(seats), tuple(cards), winner, led)
            self._tricks.append(raw)
            self._taken[winner] += cards
            self._won[winner] += 1
            self._events.append((raw, raw[3]))
            self._leader = winner
            self._trick_no += 1
            self._tseats = []
            self._tcards = []
            self._tsuit = NO_SUIT
            if self._hands[winner]:
                self._turn = winner
            else:
                self._score()
            return
        rollover = False
        winner_pos = -1
        if led != NO_SUIT:
            cand = [i for i, c in enumerate(cards) if suit[c] == led]
            if rules.cancel:
                counts = Counter(c for c in cards if c != JK)
                cancelled = {c for c, k in counts.items() if k >= 2}
                if cancelled:
                    remaining = [i for i in cand if cards[i] not in cancelled]
                    pairs = sum(k // 2 for k in counts.values())
                    rollover = (bool(cand) and not remaining) or (
                        rules.cancel_rollover == CancelRollover.TWO_PAIRS and pairs >= 2
                    )
                    cand = remaining
            if cand and not rollover:
                best = cand[0]
                last_wins = rules.identical == Identical.LAST_WINS
                for i in cand[1:]:
                    r, b = rank[cards[i]], rank[cards[best]]
                    if r > b or (r == b and last_wins):
                        best = i
                winner_pos = best
        leader = self._leader
        winner = seats[winner_pos] if winner_pos >= 0 else leader
        dead = 0
        if rules.joker_conditional and led != HEART:
            dead = sum(1 for c in cards if c in rules.jokers)
        pile = cards + self._carry
        last = not self._hands[leader]
        # the kitty cards due with this trick
        due: list[int] = []
        kitty = self._kitty
        if kitty:
            mode = rules.kitty_mode
            if mode == KittyMode.FIRST_TRICK:
                if self._trick_no == 0 or last:
                    due = kitty[:]
            elif mode == KittyMode.ONE_PER_TRICK:
                due = kitty[:1] if not last else kitty[:]
            elif self._trick_no == 0 and not last:
                due = kitty[:1]
            elif last:
                due = kitty[:]
            del kitty[: len(due)]
            if rules.joker_conditional and led != HEART:
                dead += sum(1 for c in due if c in rules.jokers)
        raw = (self._trick_no, leader, tuple(seats), tuple(cards), -1 if rollover else winner, led)
        self._tricks.append(raw)
        if rollover and not last:
            self._carry = pile + due
            self._carry_dead += dead
            self._events.append((raw, ()))
        else:
            if rollover:
                winner = leader
            taken = pile + due
            self._taken[winner].extend(taken)
            self._dead[winner] += dead + self._carry_dead
            self._won[winner] += 1
            self._carry = []
            self._carry_dead = 0
            self._leader = winner
            self._events.append((raw, tuple(taken)))
            if due:
                self._kitty_seen[winner].extend(due)
                self._events.append(KittyTaken(winner, tuple(_CARD[c] for c in due)))
        self._trick_no += 1
        self._tseats = []
        self._tcards = []
        self._tsuit = NO_SUIT
        self._called = False
        self._nines = 0
        if last:
            self._score()
        else:
            self._turn = self._leader

    # ------------------------------------------------------------------ scoring

    def _facts(self) -> RoundFacts:
        rules = self.rules
        jp = self.variant.deck.joker_points
        raw: list[Score] = []
        bonus: list[Score] = []
        pen: list[int] = []
        bon: list[int] = []
        dead_pen = jp * rules.sign > 0
        for seat, taken in enumerate(self._taken):
            dead = self._dead[seat]
            points, own_bonus = hand_points(rules, taken, dead, jp)
            raw.append(points)
            bonus.append(own_bonus)
            pen.append(sum(map(rules.penalty.__getitem__, taken)) - (dead if dead_pen else 0))
            bon.append(sum(map(rules.bonus.__getitem__, taken)) - (dead if jp and not dead_pen else 0))
        return RoundFacts(
            raw=tuple(raw),
            bonus=tuple(bonus),
            penalty_cards=tuple(pen),
            bonus_cards=tuple(bon),
            tricks_won=tuple(self._won),
            trick_winners=tuple(None if t[4] < 0 else t[4] for t in self._tricks),
            taken=tuple(tuple(t) for t in self._taken),
        )

    def _penalty_points(self) -> tuple[int, ...]:
        """Per seat, the points of the penalty cards taken this hand, before the moon (what Foster's
        counter settlements are paid on; ``scoring.settlement`` requires whole-number values)."""
        value, penalty = self.rules.value, self.rules.penalty
        return tuple(int(sum(value[c] for c in taken if penalty[c]).real) for taken in self._taken)

    def _moon_shooter(self) -> int:
        facts = self._facts()
        total = sum(facts.penalty_cards)
        return next(s for s in range(self.n) if facts.penalty_cards[s] == total)

    def _score(self) -> None:
        rules = self.rules
        if rules.packed is not None:
            # the common case in one pass: each card packs value * 128 + is_penalty, so one sum per seat
            # gives both its points and its penalty-card count; only a possible moon goes the long way
            get = rules.packed.__getitem__
            sums = [sum(map(get, taken)) for taken in self._taken]
            pen = [x & 127 for x in sums]
            total = sum(pen)
            if not (rules.moon_on and total and total in pen):
                self._finish(Outcome(tuple([x >> 7 for x in sums])))
                return
        result = score(
            self.variant,
            self.rules,
            self._facts(),
            scores_before=self.scores,
            passing=self._passing,
            hands_played=self.hand_number + 1,
        )
        if isinstance(result, int):
            self._phase = Phase.DECIDE
            self._decision = ("moon", result, moon_options())
            return
        self._finish(result)

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        if outcome.shooter is not None:
            self._events.append(MoonShot(outcome.shooter, outcome.kind, outcome.scoring))
        self._events.append(RoundScored(outcome.points))
        self._phase = Phase.OVER
        self._turn = -1

    # ------------------------------------------------------------------ playouts

    def random_playout(self, rng: random.Random, *, fast: bool = True) -> tuple[Score, ...]:
        """Play uniformly random legal actions to the end of the round, in place; return the points.

        Each step chooses uniformly among :meth:`legal_actions` (passes are
        chosen uniformly among the legal card sets), so the distribution is the
        same as a random agent's. For the common rules (one deck, or two without
        cancellation) the tricks run in a fast loop that makes exactly the same
        choices as the general one; ``fast=False`` forces the general path for
        the play (used to test that).

        >>> import heartslib as hl, random
        >>> r = hl.Round.deal(hl.preset("standard"), seed=1)
        >>> points = r.random_playout(random.Random(2))
        >>> r.is_over, sum(points) in (26, 78)
        (True, True)
        """
        fast = fast and self.rules.fast_playout
        while self._phase is not _OVER:
            phase = self._phase
            if fast and phase is _PLAY and not self._tcards and not self._kitty:
                self._fast_playout(rng)
                continue
            if phase is _PLAY:
                seat = self._turn
                cands = self._candidates(seat, None)
                card = cands[int(rng.random() * len(cands))] if len(cands) > 1 else cands[0]
                self._events.append(seat * _PLAY_CODE + card)
                self._play(seat, card)
            else:
                seat = self.to_act[0]
                actions = self.legal_actions(seat)
                self.apply(actions[int(rng.random() * len(actions))])
        assert self._outcome is not None
        return self._outcome.points

    def _fast_playout(self, rng: random.Random) -> None:
        """Random play of the remaining tricks for the common rules, then scoring.

        Called at the start of a trick with no kitty left to hand out; plays
        every card left, so the hands end empty.

        It draws exactly what the general path draws (the same candidates in the
        same order, one ``rng.random()`` per choice of two or more), so both end
        in the same state; a property test holds them to that. Each hand is split
        into one list per suit (hands are sorted by suit, clubs to spades), which
        makes following suit one list operation; a choice among several suits
        counts through the lists in hand order. With two decks a hand may hold
        both copies of a card, which count once among the choices, and of two
        identical winning cards the first or the last played wins.
        """
        self._memo = None
        rules = self.rules
        suit, rank, breaks = rules.suit, rules.rank, rules.breaks
        dup = rules.repeats
        challenge = rules.challenge
        rnd = rng.random
        hands = self._hands
        split: list[list[list[int]]] = []
        for hand in hands:
            lists: list[list[int]] = [[], [], [], []]
            for c in hand:
                lists[suit[c]].append(c)
            split.append(lists)
            hand.clear()
        leader = self._leader
        size = len(split[leader][0]) + len(split[leader][1]) + len(split[leader][2]) + len(split[leader][3])
        number = self._trick_no
        order = rules.order
        tricks, taken, won, events = self._tricks, self._taken, self._won, self._events
        code = _PLAY_CODE
        # while hearts are unbroken (and the variant locks them) a lead must avoid hearts if it can
        guard = not self._broken and rules.locks_hearts
        while size:
            seats = order[leader]
            if number == 0:
                cards, winner, led, guard = self._fast_first_trick(rnd, seats, split, guard)
            else:
                lists = split[leader]
                hearts = len(lists[HEART])
                suits, k = (_NOT_HEARTS, size - hearts) if guard and 0 < hearts < size else (_SUITS, size)
                if dup:
                    card = _take_distinct(rnd, lists, suits, suit)
                else:
                    card = _pick(lists, suits, int(rnd() * k) if k > 1 else 0)
                led = suit[card]
                if guard and breaks[card]:
                    guard = False
                best = rank[card]
                winner = leader
                cards = [card]
                events.append(leader * code + card)
                for seat in seats[1:]:
                    lists = split[seat]
                    same = lists[led]
                    if same:
                        if dup:
                            card = _take_distinct(rnd, lists, (led,), suit)
                        else:
                            k = len(same)
                            card = same.pop(int(rnd() * k)) if k > 1 else same.pop()
                        if challenge[card] > best:
                            best = rank[card]
                            winner = seat
                    elif dup:
                        card = _take_distinct(rnd, lists, _SUITS, suit)
                    else:
                        card = _pick(lists, _SUITS, int(rnd() * size) if size > 1 else 0)
                    if guard and breaks[card]:
                        guard = False
                    events.append(seat * code + card)
                    cards.append(card)
            raw: _RawTrick = (number, leader, seats, tuple(cards), winner, led)
            tricks.append(raw)
            taken[winner] += cards
            won[winner] += 1
            events.append((raw, raw[3]))
            number += 1
            leader = winner
            size -= 1
        if not guard and rules.locks_hearts:
            self._broken = True
        self._leader = leader
        self._trick_no = number
        self._score()

    def _fast_first_trick(
        self, rnd: Callable[[], float], seats: tuple[int, ...], split: list[list[list[int]]], guard: bool
    ) -> tuple[list[int], int, int, bool]:
        """The first trick of :meth:`_fast_playout`: the opening lead and the first-trick ban as in
        :meth:`_candidates`, from the per-suit lists. Returns (cards, winner, led suit, guard)."""
        rules = self.rules
        suit, rank, breaks = rules.suit, rules.rank, rules.breaks
        banned = rules.first_trick_banned
        dup = rules.repeats
        challenge = rules.challenge
        opening = self._opening
        events = self._events
        cards: list[int] = []
        led = NO_SUIT
        best = -1
        winner = seats[0]
        for seat in seats:
            lists = split[seat]
            if cards:
                cands = lists[led] or lists[0] + lists[1] + lists[2] + lists[3]
                if banned is not None:
                    cands = [c for c in cands if not banned[c]] or cands
            elif opening >= 0 and rules.opening == Opening.TWO_OF_CLUBS:
                cands = [opening]
            elif opening >= 0 and lists[suit[opening]]:
                cands = lists[suit[opening]]
            else:
                cands = lists[0] + lists[1] + lists[2] + lists[3]
                if guard:
                    cands = [c for c in cands if suit[c] != HEART] or cands
                if banned is not None:
                    cands = [c for c in cands if not banned[c]] or cands
            if dup:
                cands = _distinct(cands)
            card = cands[int(rnd() * len(cands))] if len(cands) > 1 else cands[0]
            lists[suit[card]].remove(card)
            if not cards:
                led = suit[card]
            if guard and breaks[card]:
                guard = False
            if suit[card] == led and challenge[card] > best:
                best = rank[card]
                winner = seat
            events.append(seat * _PLAY_CODE + card)
            cards.append(card)
        return cards, winner, led, guard

    # ------------------------------------------------------------------ observation

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (see :class:`~heartslib.Observation`)."""
        _check_seat(seat, self.n)
        mine = self._passes[seat]
        return Observation(
            seat=seat,
            players=self.n,
            phase=self._phase,
            to_act=self.to_act,
            hand_number=self.hand_number,
            dealer=self.dealer,
            hand=tuple(cards_from_indices(self._hands[seat])),
            hand_sizes=tuple(len(h) for h in self._hands),
            passing=self._passing,
            pass_count=self._pass_size,
            passed=None if mine is None else tuple(cards_from_indices(mine)),
            received=None if self._received is None else tuple(cards_from_indices(self._received[seat])),
            leader=self.leader,
            trick=self.trick,
            led_suit=None if self._tsuit == NO_SUIT else Suit(self._tsuit),
            tricks=self.tricks,
            tricks_won=tuple(self._won),
            hearts_broken=self.hearts_broken,
            kitty_size=self.rules.kitty_size,
            kitty=(
                tuple(cards_from_indices(self._kitty_seen[seat]))
                if self.rules.kitty_seen and self._kitty_seen[seat]
                else None
            ),
            scores=self.scores,
            round_points=self.points,
            options=self.options if seat in self.to_act else (),
            decision=self.decision,
        )

    # ------------------------------------------------------------------ misc

    def __repr__(self) -> str:
        return (
            f"<Round {self.variant.name!r} hand {self.hand_number} dealer {self.dealer} "
            f"phase {self._phase.value} to_act {self.to_act}>"
        )

    def state_key(self) -> tuple[Any, ...]:
        """A value equal for two rounds in the same state (used by tests and search caches)."""
        return (
            self.variant,
            self.dealer,
            self.hand_number,
            self.scores,
            self._lead,
            tuple(tuple(h) for h in self._hands),
            tuple(self._kitty),
            self._passing,
            self._pass_size,
            tuple(self._passes),
            None if self._received is None else tuple(self._received),
            tuple(tuple(t) for t in self._taken),
            tuple(self._won),
            tuple(self._dead),
            tuple(self._carry),
            self._carry_dead,
            tuple(self._tricks),
            tuple(self._tseats),
            tuple(self._tcards),
            self._tsuit,
            self._called,
            self._nines,
            self._trick_no,
            self._broken,
            self._leader,
            self._turn,
            self._opening,
            self._outcome,
            self._decision,
            tuple(self._events),
            self._phase,
            self._rng.getstate(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]


def _canonical(offset: Offset, n: int) -> PassDirection:
    """One spelling per direction: 0 is HOLD, then 1..n//2 to the left, -1.. to the right."""
    k = offset.k % n
    if k == 0:
        return HOLD
    return Offset(k - n if k > n // 2 else k)


def pass_problem(
    seat: int, hand: Sequence[int], cards: Sequence[int], size: int, forbidden: frozenset[int]
) -> tuple[str, str] | None:
    """Why passing ``cards`` (indices) from ``hand`` is illegal, as ``(code, message)``; None if it is legal.

    The one source of pass legality: rounds and :class:`PassRules` both ask it.
    """
    text = " ".join(_CODE[c] for c in cards)
    if len(cards) != size:
        return ("pass_wrong_size", f"{seat}:pass {text}: pass exactly {size} card(s) this hand")
    want = Counter(cards)
    short = want - Counter(hand)
    if short:
        missing = " ".join(_CODE[c] for c in short.elements())
        return ("card_not_held", f"{seat}:pass {text}: seat {seat} does not hold {missing}")
    bad = [c for c in cards if c in forbidden]
    if bad:
        return ("pass_forbidden_card", f"{seat}:pass {text}: {_CODE[bad[0]]} may not be passed")
    return None


def pass_choices(hand: Sequence[int], size: int, forbidden: frozenset[int], ordered: bool) -> list[tuple[int, ...]]:
    """Every legal pass from ``hand`` (card indices): combinations, or orderings for scatter and star passes."""
    cards = [c for c in hand if c not in forbidden]
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    for combo in permutations(cards, size) if ordered else combinations(cards, size):
        if combo not in seen:
            seen.add(combo)
            out.append(combo)
    return out


@attrs.frozen
class PassRules:
    """One seat's view of its pass (see :meth:`Round.pass_rules`): it holds no other seat's cards."""

    seat: int
    hand: tuple[int, ...]
    """The seat's cards, as card indices."""
    size: int
    """How many cards to pass."""
    forbidden: frozenset[int]
    """Card indices that may not be passed."""
    ordered: bool
    """Whether the order of the cards matters (scatter and star passes)."""

    def choices(self) -> list[Pass]:
        """Every legal pass, in the order :meth:`Round.legal_actions` lists them."""
        return [Pass(self.seat, tuple(_CARD[c] for c in combo))
                for combo in pass_choices(self.hand, self.size, self.forbidden, self.ordered)]

    def problem(self, action: Pass) -> tuple[str, str] | None:
        """Why ``action`` is not a legal pass for this seat (None when it is)."""
        if action.seat != self.seat:
            return ("not_your_turn", f"{action}: this is seat {self.seat}'s pass")
        return pass_problem(self.seat, self.hand, [c.index for c in action.cards], self.size, self.forbidden)


def _record(why: list[tuple[str, str, frozenset[int]]], cands: list[int], keep: list[int], code: str,
            message: str) -> None:
    """Note which cards a legality rule removed, for the explanation of an illegal play."""
    if len(keep) < len(cands):
        why.append((code, message, frozenset(cands) - frozenset(keep)))


def _take_distinct(rnd: Callable[[], float], lists: list[list[int]], suits: tuple[int, ...], suit: list[int]) -> int:
    """Remove and return a uniform choice among the distinct cards of ``suits`` in a hand held as
    per-suit lists (two decks: both copies of a card count once, as in :meth:`Round._candidates`)."""
    cands = _distinct([c for s in suits for c in lists[s]])
    card = cands[int(rnd() * len(cands))] if len(cands) > 1 else cands[0]
    lists[suit[card]].remove(card)
    return card


def _pick(lists: list[list[int]], suits: tuple[int, ...], i: int) -> int:
    """Remove and return the ``i``-th card of ``suits`` in a hand held as per-suit lists (in hand order)."""
    for s in suits:
        cards = lists[s]
        if i < len(cards):
            return cards.pop(i)
        i -= len(cards)
    raise IndexError(i)  # pragma: no cover


def _distinct(hand: list[int]) -> list[int]:
    out: list[int] = []
    last = -1
    for c in hand:
        if c != last:
            out.append(c)
            last = c
    return out


def _first_trick_text(code: str) -> str:
    if code == "no_hearts_on_first_trick":
        return "no heart may be played to the first trick while the player has another card"
    return "no penalty card may be played to the first trick while the player has another card"


def _check_seat(seat: object, n: int, what: str = "seat") -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise IllegalAction("no_such_seat", f"{what} {seat!r} does not exist; seats are 0-{n - 1}")


def _check_seed(seed: object) -> int | None:
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        return seed
    raise ValueError(f"a seed is a whole number (or None), not {seed!r}")
