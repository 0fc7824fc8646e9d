"""Compiling a variant: everything its fields imply, worked out once, as typed tables.

:func:`compile_rules` first judges the combinations of fields
(:mod:`heartslib.engine.checks`, raising :class:`~heartslib.VariantError` with
every problem found), then builds a :class:`Rules` object of plain tables
indexed by card index, so the engine's hot paths never re-read options. A
variant compiles once, when built (:attr:`heartslib.Variant.rules`).

:class:`Rules` is typed attribute by attribute: every module that reads it
(the engine, :mod:`heartslib.scoring`, :mod:`heartslib.describe`, the agents,
the command line and the adapters) is checked by ``mypy --strict``. Its
attributes are internal: they may change between releases.

This module is compiled by the optional mypyc build (see
``docs/performance.md``): keep it strictly typed, construct classes by
calling them, and annotate module constants read on hot paths ``Final``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final, Protocol

from heartslib.actions import Choose
from heartslib.cards import NUM_CARD_INDICES, Card, card_order
from heartslib.engine.bits import mask_of
from heartslib.engine.checks import check_variant
from heartslib.engine.fastpath import PLAIN_TRICKS, SUMMED_SCORING, admits
from heartslib.engine.tables import C0, CLUB, D0, HEART, JK, NO_SUIT, QS
from heartslib.engine.values import card_values, counts_against, dealing_order
from heartslib.enums import (
    Breaking,
    CancelRollover,
    Direction,
    FirstTrick,
    HeartsFlip,
    Identical,
    JokerLead,
    JokerPlay,
    JokerPointsWhen,
    KittyMode,
    LeadHeartsUnbroken,
    MoonKind,
    Opening,
    PassDirection,
    Settlement,
    StockDraw,
    UndercutCeiling,
    Winner,
    resolve_schedule,
)
from heartslib.errors import VariantError
from heartslib.points import Score, is_complex, normalise
from heartslib.sections import MoonRules, ScoringRules, VariantFields

__all__ = ["TALLY_MASK", "VALUE_SHIFT", "Compiled", "Rules", "compile_rules", "mask_of"]


#: Where a card's value sits above its tally in :attr:`Rules.packed`: the tally's three 7-bit fields (penalty
#: cards, modifier cards, hearts) take bits 0-20, and no hand takes 128 cards, so they never carry into the value.
VALUE_SHIFT: Final = 21
TALLY_MASK: Final = (1 << VALUE_SHIFT) - 1


class Compiled(VariantFields, Protocol):
    """A variant that keeps its compiled rules (:class:`heartslib.Variant`)."""

    @property
    def rules(self) -> Rules:
        """The variant's compiled rules."""


class Rules:
    """A variant compiled into tables (internal; attributes may change between releases).

    Card tables (``suit``, ``rank``, ``value``, ``penalty``, ...) are lists
    indexed by card index (:data:`heartslib.cards.NUM_CARD_INDICES` long).
    """

    # ------------------------------------------------------------ the table and the pack
    variant: Compiled
    """The variant compiled (pickling a Rules pickles it and takes the variant's own rules back)."""
    players: int
    step: int
    """+1 clockwise, -1 anticlockwise: the next seat is ``(seat + step) % players``."""
    order: tuple[tuple[int, ...], ...]
    """``order[leader]``: the seats in playing order for a trick led by ``leader``."""
    followers: list[list[int]]
    """``followers[leader]``: the seats after ``leader`` in playing order (lists: the compiled fast loop iterates
    a list natively, a tuple's slice generically)."""
    pack: tuple[int, ...]
    """Every card in play, sorted in hand order (copies repeat)."""
    pack_cards: tuple[Card, ...]
    kitty_size: int
    """Cards the deal leaves undealt: the kitty, or the stock (``stock``)."""
    hand_size: int
    """Cards dealt to each player."""
    stock: StockDraw
    """Whether the undealt cards are a stock drawn into the hands (``deck.stock``), held in the kitty's place."""
    draws_after_trick: bool
    """``stock`` is ``"after_trick"`` (the hot paths read bools: compiled, an enum member is an attribute lookup)."""
    draws_to_follow: bool
    """``stock`` is ``"to_follow"`` (Domino Hearts)."""
    decks: int
    counts: Counter[int]
    """Copies of each card in the pack."""
    repeats: bool
    """Whether a hand may hold two copies of a card (two decks, or several suitless jokers)."""
    jokers: frozenset[int]
    """The jokers in the pack (0♣, 0♦, JK)."""
    valueless: bool
    """Suitless jokers in the pack: they never win and follow and lead by rules of their own."""

    # ------------------------------------------------------------ card tables and scoring
    suit: list[int]
    """Per card: its suit (``NO_SUIT`` for the suitless joker)."""
    rank: list[int]
    of_suit: list[list[bool]]
    """``of_suit[s][card]``: the card is of suit ``s`` (for following suit with ``filter``)."""
    value: list[Score]
    """Per card: its points (hearts by ``scoring.hearts``, then ``scoring.values``, then jokers)."""
    sign: int
    """+1 when the lowest total wins, -1 when the highest does: a "penalty card" is one whose value counts
    against its taker, whichever way that is."""
    complex: bool
    """Whether any card value, multiplier or the moon is a complex score."""
    penalty: list[bool]
    """Per card: its value counts against its taker."""
    bonus: list[bool]
    """Per card: its value counts for its taker."""
    counters: frozenset[int]
    """Cards that count as scoring cards (listed values, zeros included; hearts; jokers with points)."""
    multiply: dict[int, Score]
    multiply_alone: dict[int, Score]
    double_suit: dict[int, int]
    cancels: dict[int, int]
    all_hearts_flips: bool
    """A player who takes every heart scores flipped cards as plus points (``scoring.all_hearts_flips``)."""
    flips_only_hearts: bool
    """Only the hearts flip (the pig keeps its value); otherwise every penalty card does."""
    hearts_in_pack: int
    plain_scoring: bool
    """No multipliers, suit doublers, cancelling cards, all-hearts flip or exposed cards: a hand's points are card
    points."""
    joker_conditional: bool
    """Jokers score only on a trick whose led suit is hearts."""
    penalty_total: Score
    moon_points: Score
    has_bonus: bool
    tally: list[int] | None
    """Per card ``is_penalty + 128 * is_modifier + 16384 * is_heart`` when the summed scorer is admitted
    (:data:`SUMMED_SCORING`; a modifier card: a suit doubler or a cancelling card): a seat's sum counts its penalty
    cards, modifier cards and hearts (each below 128)."""
    packed: list[int] | None
    """:attr:`tally` with the card's value above it (``value << VALUE_SHIFT | tally``) when the summed scorer is
    admitted and every value is an ``int``: one sum per seat gives its points (``>> VALUE_SHIFT``, negative points
    too: the tally fields below never carry into them) and its tally (``& TALLY_MASK``). None otherwise (complex
    values: the scorer sums the values apart)."""
    moon_on: bool
    moon: MoonRules

    # ------------------------------------------------------------ play
    opening: Opening
    opening_card_leads: bool
    """The opening card itself leads the first trick (``play.opening = "two_of_clubs"``), not any card of its
    suit."""
    open_suit: int
    open_rank: int
    opening_order: tuple[int, ...]
    """The cards that may open, best first: the opening card (by default the lowest club in the pack), then
    the next ones up in its suit (for when it is in the kitty)."""
    opening_taker: int
    """The card index whose taker leads the next hand (``play.opening_taker``), or -1."""
    breaking: Breaking
    named: int
    """The penalty suit an auction named for this hand (``scoring.settlement = "auction"``; these rules are
    :meth:`for_suit`'s), or -1: the variant's own rules."""
    locked_suit: int
    """The suit whose cards are hearts to the breaking and first-trick rules: hearts, or the named suit."""
    locks_hearts: bool
    """Whether leading hearts waits until hearts are broken (read on every lead, so a plain bool)."""
    breaks: list[bool]
    """Per card: playing it breaks hearts."""
    lead_hearts_unbroken: LeadHeartsUnbroken
    penalty_hands_lead_any: bool
    """``lead_hearts_unbroken`` is ``"only_penalty_cards"``: a hand of nothing but penalty cards and hearts may lead
    any of them while hearts are locked."""
    queen_needs_broken: bool
    first_trick_banned: list[bool] | None
    """Per card: it may not be played to the first trick while the player holds another card (None: any)."""
    first_trick_code: str
    queen_forced: bool
    must_discard: frozenset[int]
    must_discard_if_all: bool
    booster_nines: bool
    undercut: bool
    """Once a forced-discard card is on the trick, play below the highest of them when able (``play.undercut``)."""
    forces: bool
    """A rule forces a play among the allowed cards (:attr:`queen_forced`, :attr:`must_discard`, :attr:`undercut`):
    ``legality.candidates`` asks ``legality._forced``."""
    undercut_winning: bool
    """The undercut plays below the highest card of the suit led, not the highest leekha (``play.undercut_ceiling``)."""
    undercut_discards: bool
    """The undercut binds a free discard too (``play.undercut_binds_discards``)."""
    exposable: dict[int, int]
    """Cards that may be exposed before the first lead (``scoring.exposable``): per card, the suit whose cards its
    exposure doubles, or -1 for the card itself."""
    exposable_order: tuple[int, ...]
    """The exposable cards in hand order (as a seat's exposure options list them)."""
    exposure_memo: dict[tuple[int, ...], tuple[str, ...]]
    """The exposure options of each set of exposable cards held, built once (the only mutable table: it only
    grows, with values that depend on the key alone)."""
    exposure_cards: dict[str, tuple[int, ...]]
    """The cards of each exposure option built into :attr:`exposure_memo`."""
    choices: dict[tuple[int, str], Choose]
    """The ``Choose`` action of each seat and option the engine has offered (:func:`heartslib.engine.machine.choice`),
    made once (it only grows, one entry per seat and option of the variant's decisions)."""
    doubled_memo: dict[tuple[int, ...], frozenset[int]]
    """The cards each set of exposed cards doubles (:func:`heartslib.scoring.exposure_doubles`), built once per
    set (it only grows, at most one entry per subset of the exposable cards)."""
    identical: Identical
    cancel: bool
    cancel_rollover: CancelRollover
    joker_play_any_time: bool
    joker_lead: JokerLead
    joker_calls_suit: bool
    """``joker_lead`` is ``"call_suit"``: a suitless joker's leader names the suit to follow."""
    joker_may_not_lead: bool
    """``joker_lead`` is ``"forbidden"``."""
    kitty_mode: KittyMode
    kitty_seen: bool
    challenge: list[int]
    """Per card: what a card of the suit led must exceed, against the :attr:`level` of the best card so far, to
    win the trick: twice its rank, plus one with last_wins, so that an identical later card wins (whole numbers:
    compiled, ints compare natively)."""
    level: list[int]
    """Per card: twice its rank, what a later card's :attr:`challenge` is held against."""
    short_tricks: bool
    """The short paths of playing a card and settling a trick are admitted
    (:data:`heartslib.engine.fastpath.PLAIN_TRICKS`)."""

    # ------------------------------------------------------------ the card tables as masks (bit i: card index i)
    pack_mask: int
    """The cards in the pack."""
    suit_masks: tuple[int, ...]
    """Per suit (0-3, and 4 for the suitless joker): its cards."""
    penalty_mask: int
    """The cards that count against their taker (:attr:`penalty`)."""
    breaks_mask: int
    """The cards whose play breaks hearts (:attr:`breaks`)."""
    first_trick_mask: int
    """The cards barred from the first trick while the player holds another (:attr:`first_trick_banned`), or 0."""
    must_discard_mask: int
    """The cards a player void in the suit led must discard (:attr:`must_discard`)."""

    # ------------------------------------------------------------ passing and the end
    schedule: tuple[PassDirection, ...]
    forbidden: frozenset[int]
    pass_keep: frozenset[int] | None
    """With ``passing.keep_last_of_suit``: the cards a pass may take whatever the hand keeps of their suit
    (``passing.last_of_suit_exempt``); None when a pass may empty a suit."""
    pass_cards: int
    max_bid: int
    """The most chips one auction bid may be (``scoring.max_bid``); 0: the bidder's chips alone bound it."""
    deal_seats: tuple[tuple[int, ...], ...]
    """``deal_seats[dealer]``: the seat each position of a shuffled pack goes to (-1 for the kitty)."""
    teams: tuple[tuple[int, ...], ...]
    team_of: list[int]

    auction: bool
    """The variant is Auction Hearts (``scoring.settlement = "auction"``): each hand's penalty suit is named."""
    named_rules: dict[int, Rules]
    """The rules of each suit an auction has named, compiled once (:meth:`for_suit`; it only grows)."""

    def __init__(self, v: Compiled, named: int = -1) -> None:
        pack, kitty_size, problems = check_variant(v)
        if problems:
            first_path, first_message = problems[0]
            raise VariantError(first_path, first_message, problems=tuple(problems))
        self.variant = v
        self.auction = v.scoring.settlement == Settlement.AUCTION
        self.named = named
        self.locked_suit = HEART if named < 0 else named
        self.named_rules = {}
        n = v.players
        self.players = n
        self.step = 1 if v.direction == Direction.CLOCKWISE else -1
        self.order = tuple(tuple((lead + self.step * i) % n for i in range(n)) for lead in range(n))
        self.followers = [list(seats[1:]) for seats in self.order]
        self.pack = tuple(pack)
        self.pack_cards = tuple(Card.from_index(i) for i in pack)
        self.kitty_size = kitty_size
        self.hand_size = v.deck.hand_size or max(1, (len(pack) - kitty_size) // n)
        self.stock = v.deck.stock
        self.draws_after_trick = self.stock == StockDraw.AFTER_TRICK
        self.draws_to_follow = self.stock == StockDraw.TO_FOLLOW
        self.decks = v.deck.decks
        self.counts = Counter(pack)
        self.repeats = any(k > 1 for k in self.counts.values())
        self.jokers = frozenset(j for j in (C0, D0, JK) if j in self.counts)
        self.valueless = JK in self.counts
        self._card_tables(v)
        self._scoring_tables(v)
        self._play_tables(v)
        self._masks()
        self.schedule = resolve_schedule(v.passing.schedule, n)
        self.forbidden = frozenset(c.index for c in v.passing.forbidden)
        self.pass_keep = (frozenset(c.index for c in v.passing.last_of_suit_exempt)
                          if v.passing.keep_last_of_suit else None)
        self.pass_cards = v.passing.cards
        self.max_bid = v.scoring.max_bid
        self.deal_seats = tuple(dealing_order(n, self.step, self.hand_size, len(pack), d) for d in range(n))
        self.teams = v.teams
        self.team_of = list(range(n))
        for t, team in enumerate(v.teams):
            for s in team:
                self.team_of[s] = t

    def _card_tables(self, v: Compiled) -> None:
        suit = [NO_SUIT] * NUM_CARD_INDICES
        rank = [0] * NUM_CARD_INDICES
        for i in range(NUM_CARD_INDICES):
            c = Card.from_index(i)
            suit[i] = NO_SUIT if c.suit is None else int(c.suit)
            rank[i] = int(c.rank)
        self.suit = suit
        self.rank = rank
        self.of_suit = [[x == st for x in suit] for st in range(5)]
        # an auction's named suit is the hand's only penalty suit, each card 1 (the checks refuse other values)
        self.value = card_values(v) if self.named < 0 else [1 if s == self.named else 0 for s in suit]
        self.sign = 1 if v.end.winner == Winner.LOWEST else -1
        self.complex = any(is_complex(x) for x in self.value) or is_complex(v.moon.points) or any(
            is_complex(x) for x in v.scoring.multiply.values()
        ) or any(is_complex(x) for x in v.scoring.multiply_alone.values())
        self.penalty = [counts_against(x, self.sign) for x in self.value]
        self.bonus = [counts_against(-x, self.sign) for x in self.value]

    def _scoring_tables(self, v: Compiled) -> None:
        sc = v.scoring
        deck = v.deck
        pack, value = self.pack, self.value
        locked = [i for i in range(NUM_CARD_INDICES) if self.suit[i] == self.locked_suit]
        self.counters = frozenset(locked + [c.index for c in sc.values] + ([C0, D0, JK] if deck.joker_points else []))
        self._modifier_tables(sc)
        self.all_hearts_flips = sc.all_hearts_flips != HeartsFlip.NONE
        self.flips_only_hearts = sc.all_hearts_flips == HeartsFlip.HEARTS
        self.hearts_in_pack = sum(1 for i in pack if self.suit[i] == self.locked_suit)
        self.plain_scoring = not (self.multiply or self.double_suit or self.cancels or self.all_hearts_flips
                                  or v.scoring.exposable)
        # a pack without jokers has no joker whose points depend on the trick, whatever the deck section says:
        # every path (the trick records, the fast loop, the scorers) must read the rule as absent
        self.joker_conditional = (bool(self.jokers) and deck.joker_points != 0
                                  and deck.joker_points_when == JokerPointsWhen.HEARTS_LED)
        conditional_jokers = self.jokers if self.joker_conditional else frozenset()
        self.penalty_total = normalise(
            sum((value[i] for i in pack if self.penalty[i] and i not in conditional_jokers), start=0)
        )
        self.moon_points = v.moon.points or self.penalty_total
        self.has_bonus = any(self.bonus[i] for i in pack)
        self._tally_tables(v)
        self.moon_on = v.moon.kind != MoonKind.NONE
        self.moon = v.moon

    def _modifier_tables(self, sc: ScoringRules) -> None:
        # the hand-score modifiers by card index, and the memos of the exposures and doublings they lead to
        self.multiply = {c.index: f for c, f in sc.multiply.items()}
        self.multiply_alone = {c.index: f for c, f in sc.multiply_alone.items()}
        self.double_suit = {c.index: int(s) for c, s in sc.double_suit.items()}
        self.cancels = {c.index: t.index for c, t in sc.cancels.items()}
        # a listed card the pack leaves out (stripped, or a joker) is never held: without one in the pack there is
        # nothing to expose, and no seat is asked
        self.exposable = {c.index: (-1 if target is None else int(target)) for c, target in sc.exposable.items()
                          if c.index in self.counts}
        self.exposable_order = tuple(sorted(self.exposable, key=card_order.__getitem__))
        self.exposure_memo = {}
        self.exposure_cards = {}
        self.choices = {}
        self.doubled_memo = {}

    def _tally_tables(self, v: Compiled) -> None:
        # the summed scorer's tables (None where it does not score the variant): each card's tally, and its
        # value packed above the tally where every value is a whole number
        modifiers = set(self.double_suit) | set(self.cancels)
        self.tally = (
            [int(p) + (128 if i in modifiers else 0) + (16384 if self.suit[i] == self.locked_suit else 0)
             for i, p in enumerate(self.penalty)]
            if admits(v, SUMMED_SCORING) else None
        )
        self.packed = (
            [(int(x.real) << VALUE_SHIFT) + t for x, t in zip(self.value, self.tally, strict=True)]
            if self.tally is not None and all(type(x) is int for x in self.value) else None
        )

    def _play_tables(self, v: Compiled) -> None:
        play, deck, suit = v.play, v.deck, self.suit
        self.opening = play.opening
        self.opening_card_leads = play.opening == Opening.TWO_OF_CLUBS
        self.open_suit = CLUB if play.opening_card is None else suit[play.opening_card.index]
        self.open_rank = 0 if play.opening_card is None else self.rank[play.opening_card.index]
        self.opening_order = tuple(sorted(
            {c for c in self.pack if suit[c] == self.open_suit and self.rank[c] >= self.open_rank},
            key=self.rank.__getitem__,
        ))
        self.opening_taker = -1 if play.opening_taker is None else play.opening_taker.index
        self.breaking = play.breaking
        self.locks_hearts = play.breaking != Breaking.NONE
        locked = self.locked_suit
        if play.breaking == Breaking.HEARTS:
            self.breaks = [s == locked for s in suit]
        elif play.breaking == Breaking.PENALTY_CARDS:
            self.breaks = [s == locked or p for s, p in zip(suit, self.penalty, strict=True)]
        else:
            self.breaks = [False] * NUM_CARD_INDICES
        self.lead_hearts_unbroken = play.lead_hearts_unbroken
        self.penalty_hands_lead_any = play.lead_hearts_unbroken == LeadHeartsUnbroken.ONLY_PENALTY_CARDS
        self.queen_needs_broken = play.queen_needs_broken and play.breaking != Breaking.NONE
        if play.first_trick == FirstTrick.NO_POINTS:
            self.first_trick_banned = list(self.penalty)
        elif play.first_trick == FirstTrick.NO_HEARTS:
            self.first_trick_banned = [s == locked for s in suit]
        else:
            self.first_trick_banned = None
        self.first_trick_code = {
            FirstTrick.NO_POINTS: "no_points_on_first_trick",
            FirstTrick.NO_HEARTS: "no_hearts_on_first_trick",
        }.get(play.first_trick, "")
        self.queen_forced = play.queen_forced and QS in self.counts
        self.must_discard = frozenset(c.index for c in play.must_discard)
        self.must_discard_if_all = play.must_discard_if_all
        self.booster_nines = play.booster_nines
        self.undercut = play.undercut
        self.forces = self.queen_forced or bool(self.must_discard) or self.undercut
        self.undercut_winning = play.undercut_ceiling == UndercutCeiling.WINNING_CARD
        self.undercut_discards = play.undercut_binds_discards
        self.identical = play.identical if deck.decks == 2 else Identical.FIRST_WINS
        self.cancel = self.identical == Identical.CANCEL
        self.cancel_rollover = play.cancel_rollover
        self.joker_play_any_time = self.valueless and deck.joker_play == JokerPlay.ANY_TIME
        self.joker_lead = deck.joker_lead
        self.joker_calls_suit = deck.joker_lead == JokerLead.CALL_SUIT
        self.joker_may_not_lead = deck.joker_lead == JokerLead.FORBIDDEN
        self.kitty_mode = deck.kitty
        self.kitty_seen = deck.kitty_seen_by_winner
        # doubled ranks, so that last_wins's tie-break is a whole number too (compiled, ints compare natively)
        tie = 1 if self.identical == Identical.LAST_WINS else 0
        self.challenge = [2 * r + tie for r in self.rank]
        self.level = [2 * r for r in self.rank]
        self.short_tricks = admits(v, PLAIN_TRICKS)

    def _masks(self) -> None:
        # the per-card tables as bit masks (bit i: card index i), for the readers that work on sets of cards
        self.pack_mask = mask_of(self.counts)
        self.suit_masks = tuple(mask_of(i for i in range(NUM_CARD_INDICES) if self.suit[i] == st) for st in range(5))
        self.penalty_mask = mask_of(i for i in range(NUM_CARD_INDICES) if self.penalty[i])
        self.breaks_mask = mask_of(i for i in range(NUM_CARD_INDICES) if self.breaks[i])
        banned = self.first_trick_banned
        self.first_trick_mask = 0 if banned is None else mask_of(i for i in range(NUM_CARD_INDICES) if banned[i])
        self.must_discard_mask = mask_of(self.must_discard)

    def __reduce__(self) -> tuple[Any, tuple[Compiled, int]]:
        # a variant's rules are rebuilt from the variant (in the compiled build Rules is an extension
        # type that pickle cannot rebuild field by field), a named suit's from the variant's own
        return (_rules_of, (self.variant, self.named))

    def for_suit(self, suit: int) -> Rules:
        """The rules of a hand whose auction named ``suit`` (0-3: clubs, diamonds, hearts, spades): its cards are
        the penalty cards, 1 each, and the breaking and first-trick rules read it as hearts; compiled once."""
        made = self.named_rules.get(suit)
        if made is None:
            made = self.named_rules[suit] = Rules(self.variant, suit)
        return made

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self  # tables computed once and never changed

    def opening_card(self, hands: list[int]) -> int | None:
        """The card that opens, among the cards in ``hands`` (masks): the variant's opening card, or when it is
        not dealt (stripped, in the kitty) the next one up in its suit; by default the lowest club."""
        for card in self.opening_order:
            for hand in hands:
                if hand >> card & 1:
                    return card
        return None

    def needs_opening_card(self) -> bool:
        """Whether the first lead is fixed by the lowest club in play."""
        return self.opening != Opening.ELDEST_ANY




def _rules_of(v: Compiled, named: int = -1) -> Rules:
    """The compiled rules of ``v``, or of its hands whose auction named the suit ``named`` (how a pickled
    :class:`Rules` is loaded)."""
    return v.rules if named < 0 else v.rules.for_suit(named)


def compile_rules(v: Compiled) -> Rules:
    """Judge the combinations of ``v``'s fields and compile it (called once by :class:`~heartslib.Variant`)."""
    return Rules(v)
