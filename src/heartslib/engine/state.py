"""A round's state, declared once: every field, what it holds, and how a copy and the state key treat it.

:class:`RoundState` is the plain record the engine's modules work on (cards
are indices, hands sorted lists); :class:`heartslib.Round` is the public
facade around one. :data:`FIELDS` is the one declaration of the fields:
``__slots__``, the annotations, :meth:`RoundState.__init__`,
:meth:`RoundState.copy` and :meth:`RoundState.key` must agree with it, and
``tests/test_architecture.py`` fails when any of them misses a field (the
copy and the key are written out by hand because they are on hot paths and
the compiled build cannot generate code).

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

import random
from typing import Any, Final

from heartslib.actions import Event
from heartslib.engine.rules import Rules
from heartslib.engine.tables import NO_SUIT
from heartslib.enums import SHUFFLE, Decision, PassDirection, Phase
from heartslib.points import Score
from heartslib.scoring import Outcome
from heartslib.variant import Variant

__all__ = ["FIELDS", "RawTrick", "RawTrickWon", "RoundState"]

#: A completed trick as the engine stores it: (number, leader, seats, cards, winner or -1, led suit).
RawTrick = tuple[int, int, tuple[int, ...], tuple[int, ...], int, int]
#: A TrickWon event as stored: the raw trick and the card indices its winner took, and (only where jokers score
#: on a hearts lead alone) how many of those jokers scored nothing.
RawTrickWon = tuple[RawTrick, tuple[int, ...]] | tuple[RawTrick, tuple[int, ...], int]
#: A pending decision: what it is about, who makes it, the options.
Pending = tuple[Decision, int, tuple[str, ...]]

# How a copy treats a field, and whether the state key includes it:
#: an immutable value (or the round's fixed rules): shared by copies, part of the key
VALUE: Final = "value"
#: a flat list: copied, part of the key
LIST: Final = "list"
#: a list of lists: each inner list copied, part of the key
LISTS: Final = "lists"
#: a list of immutable items (tuples, events): the outer list copied, part of the key
ITEMS: Final = "items"
#: the random generator: copied only while a draw is still to come (else shared), its state in the key
RNG: Final = "rng"
#: worked out from other fields or a cache: shared or reset by copies, not part of the key
DERIVED: Final = "derived"

#: Every field of a round's state, in declaration order, with how copies and the key treat it.
FIELDS: Final[dict[str, str]] = {
    "variant": VALUE,
    "rules": DERIVED,  # the variant's compiled rules
    "n": DERIVED,  # the variant's number of players
    "dealer": VALUE,
    "hand_number": VALUE,
    "scores": VALUE,
    "lead": VALUE,
    "hands": LISTS,
    "kitty": LIST,
    "kitty_seen": LISTS,
    "passing": VALUE,
    "pass_size": VALUE,
    "passes": ITEMS,
    "received": VALUE,
    "scripted": VALUE,
    "rng": RNG,
    "taken": LISTS,
    "won": LIST,
    "dead": LIST,
    "carry": LIST,
    "carry_dead": VALUE,
    "tricks": ITEMS,
    "tseats": LIST,
    "tcards": LIST,
    "tsuit": VALUE,
    "called": VALUE,
    "nines": VALUE,
    "trick_no": VALUE,
    "broken": VALUE,
    "leader": VALUE,
    "turn": VALUE,
    "opening": VALUE,
    "exposed": VALUE,
    "outcome": VALUE,
    "decision": VALUE,
    "events": ITEMS,
    "phase": VALUE,
    "memo": DERIVED,  # the legal cards of the seat to play, until the next change (may be its hand list)
}


class RoundState:
    """The state of one hand: plain fields on card indices (see :data:`FIELDS`).

    Built by :func:`heartslib.engine.dealing.start` and changed only by the
    engine's modules; programs use :class:`heartslib.Round`.
    """

    __slots__ = (
        "broken",
        "called",
        "carry",
        "carry_dead",
        "dead",
        "dealer",
        "decision",
        "events",
        "exposed",
        "hand_number",
        "hands",
        "kitty",
        "kitty_seen",
        "lead",
        "leader",
        "memo",
        "n",
        "nines",
        "opening",
        "outcome",
        "pass_size",
        "passes",
        "passing",
        "phase",
        "received",
        "rng",
        "rules",
        "scores",
        "scripted",
        "taken",
        "tcards",
        "trick_no",
        "tricks",
        "tseats",
        "tsuit",
        "turn",
        "variant",
        "won",
    )

    variant: Variant
    """The rules played."""
    rules: Rules
    """The variant's compiled rules."""
    n: int
    """Number of players."""
    dealer: int
    hand_number: int
    scores: tuple[Score, ...]
    """Match totals before this hand."""
    lead: int
    """A seat that leads the first trick with any card (``play.opening_taker``), or -1."""
    hands: list[list[int]]
    """Each seat's cards, sorted in hand order."""
    kitty: list[int]
    """Kitty cards not yet handed out."""
    kitty_seen: list[list[int]]
    """Kitty cards each seat took (it may look at them with ``deck.kitty_seen_by_winner``)."""
    passing: PassDirection
    pass_size: int
    passes: list[tuple[int, ...] | None]
    """What each seat chose to pass (None until it has)."""
    received: list[tuple[int, ...]] | None
    """What each seat received, once exchanged."""
    scripted: tuple[tuple[int, ...], ...] | None
    """The outcome of a pending shuffle pass fixed by :meth:`heartslib.Round.script_shuffle_pass`."""
    rng: random.Random
    """Draws the shuffle pass (a round dealt by a match shares the match's generator)."""
    taken: list[list[int]]
    """Cards each seat took: tricks, rolled-over cards, kitty cards."""
    won: list[int]
    """Tricks won per seat."""
    dead: list[int]
    """Per seat, conditional jokers taken on tricks where they do not score."""
    carry: list[int]
    """Cards of cancelled tricks (and kitty cards due with them) waiting for the next winner."""
    carry_dead: int
    tricks: list[RawTrick]
    """Completed tricks."""
    tseats: list[int]
    """The current trick: the seats that played, in order."""
    tcards: list[int]
    """The current trick: the cards played, in order."""
    tsuit: int
    """The current trick's suit to follow (``NO_SUIT`` until known)."""
    called: bool
    """The current trick's suit was called by a joker's leader."""
    nines: int
    """Booster nines played to the current trick."""
    trick_no: int
    broken: bool
    """Hearts have been broken."""
    leader: int
    """Who leads (or led) the current trick; -1 before play."""
    turn: int
    """The seat to play; -1 when none."""
    opening: int
    """The card that must open the first trick (or whose suit must), or -1."""
    exposed: tuple[int, ...]
    """Cards exposed this hand (``scoring.exposable``), in pack order; public."""
    outcome: Outcome | None
    decision: Pending | None
    events: list[Event | int | RawTrickWon]
    """The log: actions and events, plays as ints and tricks as raw tuples (built into values on demand)."""
    phase: Phase
    memo: list[int] | None

    def __init__(
        self,
        variant: Variant,
        rules: Rules,
        hands: list[list[int]],
        kitty: list[int],
        *,
        dealer: int,
        hand_number: int,
        scores: tuple[Score, ...],
        lead: int,
        passing: PassDirection,
        pass_size: int,
        rng: random.Random,
        phase: Phase,
    ) -> None:
        n = variant.players
        self.variant = variant
        self.rules = rules
        self.n = n
        self.dealer = dealer
        self.hand_number = hand_number
        self.scores = scores
        self.lead = lead
        self.hands = hands
        self.kitty = kitty
        self.kitty_seen = [[] for _ in range(n)]
        self.passing = passing
        self.pass_size = pass_size
        self.passes = [None] * n
        self.received = None
        self.scripted = None
        self.rng = rng
        self.taken = [[] for _ in range(n)]
        self.won = [0] * n
        self.dead = [0] * n
        self.carry = []
        self.carry_dead = 0
        self.tricks = []
        self.tseats = []
        self.tcards = []
        self.tsuit = NO_SUIT
        self.called = False
        self.nines = 0
        self.trick_no = 0
        self.broken = False
        self.leader = -1
        self.turn = -1
        self.opening = -1
        self.exposed = ()
        self.outcome = None
        self.decision = None
        self.events = []
        self.phase = phase
        self.memo = None

    def copy(self) -> RoundState:
        """An independent copy: immutable parts shared, lists copied (see :data:`FIELDS`)."""
        new = RoundState(self.variant, self.rules, [h[:] for h in self.hands], self.kitty[:],
                         dealer=self.dealer, hand_number=self.hand_number, scores=self.scores, lead=self.lead,
                         passing=self.passing, pass_size=self.pass_size, rng=self.rng, phase=self.phase)
        new.kitty_seen = [k[:] for k in self.kitty_seen]
        new.passes = self.passes[:]
        new.received = self.received
        new.scripted = self.scripted
        if self.phase is Phase.PASS and self.passing == SHUFFLE and self.scripted is None:
            # only a shuffle pass still to come draws on the round's RNG (a dealer's choice never names a
            # shuffle); otherwise sharing it is safe
            rng = random.Random()
            rng.setstate(self.rng.getstate())
            new.rng = rng
        new.taken = [t[:] for t in self.taken]
        new.won = self.won[:]
        new.dead = self.dead[:]
        new.carry = self.carry[:]
        new.carry_dead = self.carry_dead
        new.tricks = self.tricks[:]
        new.tseats = self.tseats[:]
        new.tcards = self.tcards[:]
        new.tsuit = self.tsuit
        new.called = self.called
        new.nines = self.nines
        new.trick_no = self.trick_no
        new.broken = self.broken
        new.leader = self.leader
        new.turn = self.turn
        new.opening = self.opening
        new.exposed = self.exposed
        new.outcome = self.outcome
        new.decision = self.decision
        new.events = self.events[:]
        new.memo = None  # it may be the hand list itself, which only this round's plays change
        return new

    def key(self) -> tuple[Any, ...]:
        """A value equal for two states that are the same (every field of :data:`FIELDS` but the derived)."""
        return (
            self.variant,
            self.dealer,
            self.hand_number,
            self.scores,
            self.lead,
            tuple(tuple(h) for h in self.hands),
            tuple(self.kitty),
            tuple(tuple(k) for k in self.kitty_seen),
            self.passing,
            self.pass_size,
            tuple(self.passes),
            None if self.received is None else tuple(self.received),
            self.scripted,
            self.rng.getstate(),
            tuple(tuple(t) for t in self.taken),
            tuple(self.won),
            tuple(self.dead),
            tuple(self.carry),
            self.carry_dead,
            tuple(self.tricks),
            tuple(self.tseats),
            tuple(self.tcards),
            self.tsuit,
            self.called,
            self.nines,
            self.trick_no,
            self.broken,
            self.leader,
            self.turn,
            self.opening,
            self.exposed,
            self.outcome,
            self.decision,
            tuple(self.events),
            self.phase,
        )
