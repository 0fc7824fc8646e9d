"""A round's state, declared once: every field, what it holds, and how a copy and the state key treat it.

:class:`RoundState` is the plain record the engine's modules work on (cards
are indices, hands masks); :class:`heartslib.Round` is the public
facade around one. :data:`FIELDS` is the one declaration of the fields:
``__slots__``, the annotations, :meth:`RoundState.__init__`,
:meth:`RoundState.copy` and :meth:`RoundState.key` must agree with it, and
``tests/test_architecture.py`` fails when any of them misses a field (the
copy and the key are written out by hand because they are on hot paths and
the compiled build cannot generate code).

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Final

from heartslib.actions import Event
from heartslib.cards import Card
from heartslib.engine.bits import BIT, cards_in, count, with_copies
from heartslib.engine.rules import Rules
from heartslib.engine.tables import NO_SUIT, ORDER
from heartslib.enums import SHUFFLE, Decision, PassDirection, Phase
from heartslib.observation import Trick
from heartslib.points import Score
from heartslib.scoring import Outcome
from heartslib.variant import Variant

__all__ = [
    "CACHE", "DERIVED", "FIELDS", "ITEMS", "LIST", "LISTS", "RNG", "VALUE", "RawTrick", "RawTrickWon", "RoundState",
    "clone_rng", "give", "take",
]

#: A completed trick as the engine stores it: (number, leader, seats, cards, winner or -1, led suit).
RawTrick = tuple[int, int, tuple[int, ...], tuple[int, ...], int, int]
#: A TrickWon event as stored: the raw trick itself when its winner took its cards (most tricks: no tuple built
#: for the event), else the raw trick and the card indices its winner took, and (only where jokers score on a
#: hearts lead alone) how many of those jokers scored nothing.
RawTrickWon = RawTrick | tuple[RawTrick, tuple[int, ...]] | tuple[RawTrick, tuple[int, ...], int]
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
#: worked out from other fields: shared by copies, not part of the key
DERIVED: Final = "derived"
#: a cache of values built from other fields: reset (None; the legal-card mask -1) in copies, which rebuild it when
#: asked; not in the key
CACHE: Final = "cache"

#: Every field of a round's state, in declaration order, with how copies and the key treat it.
FIELDS: Final[dict[str, str]] = {
    "variant": VALUE,
    "rules": DERIVED,  # the variant's compiled rules, or those of the suit an auction named (from named)
    "n": DERIVED,  # the variant's number of players
    "dealer": VALUE,
    "hand_number": VALUE,
    "scores": VALUE,
    "lead": VALUE,
    "hands": LIST,
    "spares": LISTS,
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
    "draws": ITEMS,
    "chips": VALUE,
    "bids": VALUE,
    "bidder": VALUE,
    "named": VALUE,
    "outcome": VALUE,
    "decision": VALUE,
    "events": ITEMS,
    "phase": VALUE,
    "memo": CACHE,  # the legal cards of the seat to play as a mask, until the next change (-1: not known)
    "trick_values": CACHE,  # the completed tricks as Trick values (engine.records)
    "event_values": CACHE,  # the log as Event values (engine.records)
    "events_read": CACHE,  # how many entries of the log event_values holds the values of (engine.records)
    "card_values": CACHE,  # Card tuples of the state's int tuples that are replaced, never changed (engine.records)
    "obs_fixed": CACHE,  # per seat, the observation fields the play phase does not change (engine.records)
}


def clone_rng(rng: random.Random) -> random.Random:
    """A generator in ``rng``'s state. A plain ``random.Random()`` would first seed itself from the operating
    system, which costs more than the copy; so a ``random.Random`` is made without seeding, and a subclass
    (whose ``__init__`` may set more) is deep-copied."""
    if type(rng) is not random.Random:
        clone: random.Random = copy.deepcopy(rng)
        return clone
    new = random.Random.__new__(random.Random)
    new.setstate(rng.getstate())
    return new


class RoundState:
    """The state of one hand: plain fields on card indices (see :data:`FIELDS`).

    Built by :meth:`start` (from :func:`heartslib.engine.dealing.start`) or
    :meth:`copy`, and changed only by the engine's modules; programs use
    :class:`heartslib.Round`.
    """

    __slots__ = (
        "bidder",
        "bids",
        "broken",
        "called",
        "card_values",
        "carry",
        "carry_dead",
        "chips",
        "dead",
        "dealer",
        "decision",
        "draws",
        "event_values",
        "events",
        "events_read",
        "exposed",
        "hand_number",
        "hands",
        "kitty",
        "kitty_seen",
        "lead",
        "leader",
        "memo",
        "n",
        "named",
        "nines",
        "obs_fixed",
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
        "spares",
        "taken",
        "tcards",
        "trick_no",
        "trick_values",
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
    """The variant's compiled rules (once an auction has named the penalty suit, that suit's: ``Rules.for_suit``)."""
    n: int
    """Number of players."""
    dealer: int
    hand_number: int
    scores: tuple[Score, ...]
    """Match totals before this hand."""
    lead: int
    """A seat that leads the first trick with any card (``play.opening_taker``), or -1."""
    hands: list[int]
    """Each seat's cards as a mask (:mod:`heartslib.engine.bits`: bit ``i`` for card index ``i``), each card held
    counted once."""
    spares: list[list[int]]
    """Each seat's further copies of cards it holds (two decks, several suitless jokers), in hand order: empty
    lists in a one-copy pack. :meth:`held` lists a hand with them."""
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
    rng: random.Random | None
    """Draws the shuffle pass (a round dealt by a match shares the match's generator); None until a round
    made without a seed needs one (seeding a generator from the operating system costs more than making
    the round, and most rounds never draw)."""
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
    draws: list[tuple[int, int, tuple[int, ...]]]
    """Draws from the stock (``deck.stock``), in order: the trick they came after (``after_trick``) or in
    (``to_follow``), the seat, the cards drawn; the count is public, the cards the drawer's alone."""
    """Cards exposed this hand (``scoring.exposable``), in pack order; public."""
    chips: tuple[int, ...]
    """An auction's (``scoring.settlement = "auction"``): each seat's chips before the hand, which bound its bid;
    empty otherwise."""
    bids: tuple[tuple[int, int], ...]
    """An auction's bids as they were made: (seat, chips), 0 for a pass; public."""
    bidder: int
    """The auction's winner, who names the penalty suit and leads (after a deal nobody won, the last auction's
    winner, named at the deal), or -1."""
    named: int
    """The penalty suit the auction's winner named (0-3), or -1 (:attr:`rules` are then that suit's)."""
    outcome: Outcome | None
    decision: Pending | None
    events: list[Event | int | RawTrickWon]
    """The log: actions and events, plays as ints (``seat * PLAY_CODE + card``) and tricks as raw tuples (built
    into values on demand: :func:`heartslib.engine.records.event_values`)."""
    phase: Phase
    memo: int
    """The legal cards of the seat to play as a mask, until the next change; -1 when not worked out."""
    trick_values: tuple[Trick, ...] | None
    """The completed tricks as values, built once each (:mod:`heartslib.engine.records`)."""
    event_values: list[Event] | None
    """The log as events, built once each (:mod:`heartslib.engine.records`)."""
    events_read: int | None
    """How many entries of :attr:`events` :attr:`event_values` holds the values of (an entry may stand for
    several events); None with the cache."""
    card_values: dict[int, tuple[tuple[int, ...], tuple[Card, ...]]] | None
    """The cards of a pass, of what a seat received and of the exposed cards as :class:`~heartslib.Card`
    values, built once per tuple (by its id, with the tuple kept to check it; :mod:`heartslib.engine.records`)."""
    obs_fixed: list[dict[str, Any] | None] | None
    """Per seat, an observation's fields in the play phase with those the play phase cannot change filled in
    (the seat, its pass, the exposed cards, the scores before the hand...; :mod:`heartslib.engine.records`)."""

    @classmethod
    def start(
        cls,
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
        rng: random.Random | None,
        phase: Phase,
    ) -> RoundState:
        """The state of a hand about to begin (nothing passed, nothing played)."""
        n = variant.players
        self = cls()  # no __init__: every field is set here or by copy() (a plain call, so mypyc compiles it)
        self.variant = variant
        self.rules = rules
        self.n = n
        self.dealer = dealer
        self.hand_number = hand_number
        self.scores = scores
        self.lead = lead
        self.hands = [0] * n
        self.spares = [[] for _ in range(n)]
        for seat in range(n):
            give(self, seat, hands[seat])
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
        self.draws = []
        self.chips = ()
        self.bids = ()
        self.bidder = -1
        self.named = -1
        self.outcome = None
        self.decision = None
        self.events = []
        self.phase = phase
        self.memo = -1
        self.trick_values = None
        self.event_values = None
        self.events_read = None
        self.card_values = None
        self.obs_fixed = None
        return self

    def copy(self) -> RoundState:
        """An independent copy: immutable parts shared, lists copied (see :data:`FIELDS`)."""
        new = RoundState()
        new.variant = self.variant
        new.rules = self.rules
        new.n = self.n
        new.dealer = self.dealer
        new.hand_number = self.hand_number
        new.scores = self.scores
        new.lead = self.lead
        new.hands = self.hands[:]
        new.spares = [h[:] for h in self.spares]
        new.kitty = self.kitty[:]
        new.kitty_seen = [k[:] for k in self.kitty_seen]
        new.passing = self.passing
        new.pass_size = self.pass_size
        new.passes = self.passes[:]
        new.received = self.received
        new.scripted = self.scripted
        new.rng = self.rng
        if self.phase is Phase.PASS and self.passing is SHUFFLE and self.scripted is None:
            # only a shuffle pass still to come draws on the round's RNG (a dealer's choice never names a
            # shuffle); otherwise sharing it is safe. Both draw the same pile, so an unseeded round seeds now.
            new.rng = clone_rng(self.generator())
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
        new.draws = self.draws[:]
        new.chips = self.chips
        new.bids = self.bids
        new.bidder = self.bidder
        new.named = self.named
        new.outcome = self.outcome
        new.decision = self.decision
        new.events = self.events[:]
        new.phase = self.phase
        new.memo = -1
        new.trick_values = None  # rebuilt by the copy if it is asked (search copies rarely are)
        new.event_values = None
        new.events_read = None
        new.card_values = None
        new.obs_fixed = None
        return new

    def held(self, seat: int) -> list[int]:
        """``seat``'s cards in hand order, copies repeated (a new list)."""
        spares = self.spares[seat]
        return with_copies(self.hands[seat], spares) if spares else cards_in(self.hands[seat])

    def holds(self, seat: int, card: int) -> bool:
        """Whether ``seat`` holds ``card``."""
        return bool(self.hands[seat] >> card & 1)

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds (copies counted)."""
        return count(self.hands[seat]) + len(self.spares[seat])

    def generator(self) -> random.Random:
        """The round's generator, seeded from the operating system first if the round was made without one."""
        rng = self.rng
        if rng is None:
            rng = self.rng = random.Random()
        return rng

    def key(self) -> tuple[Any, ...]:
        """A value equal for two states that are the same (every field of :data:`FIELDS` but the derived
        ones and the caches)."""
        return (
            self.variant,
            self.dealer,
            self.hand_number,
            self.scores,
            self.lead,
            tuple(self.hands),
            tuple(tuple(h) for h in self.spares),
            tuple(self.kitty),
            tuple(tuple(k) for k in self.kitty_seen),
            self.passing,
            self.pass_size,
            tuple(self.passes),
            None if self.received is None else tuple(self.received),
            self.scripted,
            None if self.rng is None else self.rng.getstate(),
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
            tuple(self.draws),
            self.chips,
            self.bids,
            self.bidder,
            self.named,
            self.outcome,
            self.decision,
            tuple(self.events),
            self.phase,
        )


def take(s: RoundState, seat: int, card: int) -> None:
    """Take one copy of ``card`` (held) from ``seat``'s hand."""
    spares = s.spares[seat]
    if spares:
        for i in range(len(spares)):
            if spares[i] == card:
                del spares[i]
                return
    s.hands[seat] &= ~BIT[card]


def give(s: RoundState, seat: int, cards: list[int]) -> None:
    """Put ``cards`` in ``seat``'s hand (a copy of a card held joins the spares, kept in hand order)."""
    spares = s.spares[seat]
    mask = s.hands[seat]
    for card in cards:
        bit = BIT[card]
        if mask & bit:
            spares.append(card)
            if len(spares) > 1:
                spares.sort(key=ORDER.__getitem__)
        else:
            mask |= bit
    s.hands[seat] = mask
