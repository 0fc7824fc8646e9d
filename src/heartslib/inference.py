"""What one seat can know about the hidden cards, and determinizations drawn from it.

Everything here starts from an :class:`~heartslib.Observation` (what the
seat may know) and the variant's public rules; nothing reads another seat's
cards. Three layers:

* :func:`known_voids`, :func:`known_cards`, :func:`unseen_cards` and
  :func:`knowledge`: the facts a seat can deduce from the public history
  (voids from failures to follow suit and from forced plays, the cards this
  seat passed to a neighbour, the kitty cards it saw, the opening card's
  search order) and from its own cards;
* :class:`Sampler` and :func:`sample_round`: a *determinization*, a complete
  :class:`~heartslib.Round` whose hidden hands are drawn among the deals
  consistent with all of that, reached by replaying the public history with
  the engine's own rules, so that
  ``sample_round(obs, rng, variant=v).observation(obs.seat) == obs`` always
  holds;
* the search player built on it, :class:`heartslib.agents.SearchAgent`.

How a sample is drawn
---------------------
1. The cards this seat has not seen (in other hands and in the kitty) form a
   pool; each other seat has its current hand size to fill, the kitty its
   unseen cards. The public history restricts which cards each seat may hold
   (:attr:`Knowledge.allowed`): a seat that did not follow a suit holds none
   of it, a hearts lead before hearts were broken means a hand of hearts, a
   player who did not make a forced play (Q♠ in club play, a forced discard,
   the opening card's search from the dealer's left) does not hold the card,
   and so on. Cards this seat passed are fixed in the receiver's hand.
2. The pool is dealt into those slots card by card, the most constrained
   cards first, each into an allowed slot chosen with probability
   proportional to its free places (without constraints this is exactly a
   uniform deal), then mixed by random exchanges of two cards between slots
   that keep every restriction (a Markov chain whose stationary distribution
   is uniform over the deals it can reach). With voids the result is close to
   uniform, not exactly uniform; ``docs/search-player.md`` measures how close.
3. The hands before the pass are rebuilt: each hidden pass is drawn uniformly
   among the cards the receiver holds (never a forbidden card; under
   ``passing.keep_last_of_suit``, once most such passes have broken the rule,
   only among the cards the passer may pass), and the
   dealer's choice, the shuffle pass and the jokers' called suits are
   replayed as seen.
4. The round is dealt with :meth:`Round.from_hands` and the public history
   replayed through :meth:`Round.apply`; a sample whose replay is illegal or
   whose observation differs is rejected and drawn again. So the engine, not
   this module, is the judge of consistency: restrictions this module does
   not know (a forced discard "only when holding all") cost retries, never
   wrong samples.

In a game with a stock (``deck.stock``) a void holds only for the cards a
seat held when it showed it: the plays and the draws are read on one clock,
and a sample places the cards in the hands as dealt, the cards each seat drew
and the stock, exactly uniformly among the placements the history allows
(``docs/search-player.md``, "Games with a stock").

A history no deal can explain raises :class:`ImpossibleHistory` (a
``ValueError``) naming the contradiction.

>>> import heartslib as hl, random
>>> from heartslib import inference
>>> v = hl.preset("standard")
>>> r = hl.Round.deal(v, seed=4)
>>> for seat in range(4):
...     r.apply(r.legal_actions(seat)[0])
>>> for _ in range(9):
...     r.apply(r.legal_actions()[0])
>>> obs = r.observation(0)
>>> world = inference.sample_round(obs, random.Random(1), variant=v)
>>> world.observation(0) == obs, world.hand(0) == r.hand(0)
(True, True)
"""

from __future__ import annotations

import functools
import math
import operator
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final, TypeAlias

import attrs

from heartslib._mypyc import mypyc_attr
from heartslib.actions import Action, Choose, Pass, Play
from heartslib.cards import NUM_CARD_INDICES, Card, Suit, card_order
from heartslib.engine.args import check_rng
from heartslib.engine.legality import pass_problem
from heartslib.engine.rules import mask_of
from heartslib.engine.tables import JK, NO_SUIT, QS, SPADE
from heartslib.enums import (
    DEALERS_CHOICE,
    HOLD,
    SCATTER,
    SHUFFLE,
    STAR,
    Decision,
    JokerLead,
    KittyMode,
    LeadHeartsUnbroken,
    Offset,
    Opening,
    PassDirection,
    Phase,
    Settlement,
    StockDraw,
)
from heartslib.errors import IllegalAction, VariantError, arg_text
from heartslib.observation import Observation, Trick
from heartslib.round import Round
from heartslib.variant import Variant, expect_variant

__all__ = [
    "ChoiceModel",
    "Determinization",
    "ImpossibleHistory",
    "Knowledge",
    "Sampler",
    "check_epsilon",
    "check_model",
    "knowledge",
    "known_cards",
    "known_voids",
    "reads",
    "sample_round",
    "unseen_cards",
    "weights_of",
]

_CARD: Final = tuple(Card.from_index(i) for i in range(NUM_CARD_INDICES))
_ALL: Final = (1 << NUM_CARD_INDICES) - 1
_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
#: Whole samples tried (deal, then replay) before :meth:`Sampler.sample` gives up.
MAX_TRIES: Final = 2000
#: Samples tried under the likelier reading of the first lead before the other is tried too.
_PRIMARY_TRIES: Final = 100


# a plain Python class in the compiled build too: a native one has no __dict__, which pickling and deepcopy of
# an exception raised in a worker process read (tests/test_reliability_match.py)
@mypyc_attr(native_class=False)
class ImpossibleHistory(ValueError):
    """No deal is consistent with the observation (a history the rules could not have produced)."""


def _cards_of(mask: int) -> list[int]:
    return [i for i in range(NUM_CARD_INDICES) if mask >> i & 1]


def _check_seats(plays: Sequence[Sequence[tuple[int, int]]], n: int, boosted: bool) -> None:
    """Each play of each trick is by one of the ``n`` seats, each seat once to a trick (with booster nines,
    ``boosted``, once in each turn round the trick): a history that says otherwise is named here, not found out
    by draws whose replays all fail."""
    for number, trick in enumerate(plays):
        seats = [s for s, _ in trick]
        for s in seats:
            if not 0 <= s < n:
                raise ImpossibleHistory(f"trick {number}: a play by seat {s}; the seats are 0-{n - 1}")
        # a boosted trick goes round again: a seat plays again only after every seat in the trick has played
        turn = len(set(seats)) if boosted else len(seats)
        twice = next((seats[i] for i in range(len(seats)) if seats[i] in seats[max(0, i - turn + 1):i]), None)
        if twice is not None:
            cards = " and ".join(_CARD[c].code for s, c in trick if s == twice)
            raise ImpossibleHistory(f"trick {number}: seat {twice} plays twice ({cards}); each seat plays once "
                                    + ("in each turn round a trick" if boosted else "to a trick"))


def _codes(cards: Counter[int]) -> str:
    """The cards of a multiset as text, in hand order (``"QS QS 2H"``)."""
    return " ".join(c.code for c in sorted(_CARD[i] for i in cards.elements()))


# --------------------------------------------------------------------------- the variant's public facts


class _Facts:
    """The card facts the history is read with: the engine's compiled tables (:class:`~heartslib.engine.rules.Rules`,
    compiled once per variant), under the names this module reads them by, and the few facts only inference needs.

    Reading the engine's tables, not the variant's fields a second time, keeps the rules in one place: a new rule
    compiled into ``Rules`` is seen here too (``tests/test_inference*.py`` hold the reading to the engine's replays).
    """

    def __init__(self, v: Variant, named: Suit | None = None) -> None:
        r = v.rules if named is None else v.rules.for_suit(int(named))
        self.variant = v
        self.counts = r.counts
        self.n = r.players
        self.step = r.step
        self.suit = r.suit
        self.rank = r.rank
        self.value = r.value
        self.sign = r.sign
        self.penalty = r.penalty
        self.suit_mask = r.suit_masks
        self.penalty_mask = r.penalty_mask
        self.locks = r.locks_hearts
        self.locked = r.locked_suit  # hearts, or the suit an auction named
        self.breaks = r.breaks
        self.only_penalty = r.lead_hearts_unbroken == LeadHeartsUnbroken.ONLY_PENALTY_CARDS
        self.qlock = r.queen_needs_broken
        self.banned = r.first_trick_banned or []
        self.banned_mask = r.first_trick_mask
        self.valueless = r.valueless
        self.jk_any_time = r.joker_play_any_time
        self.joker_lead = r.joker_lead
        self.queen_forced = r.queen_forced
        self.must_discard = r.must_discard
        self.must_discard_mask = r.must_discard_mask
        self.must_discard_if_all = r.must_discard_if_all
        self.undercut = r.undercut
        self.undercut_winning = r.undercut_winning
        self.undercut_discards = r.undercut_discards
        self.exposable = bool(r.exposable)
        self.forbidden = r.forbidden
        self.keep = r.pass_keep
        self.opening = r.opening
        self.open_suit = r.open_suit
        self.open_floor = r.open_rank
        self.opening_taker = r.opening_taker >= 0
        self.kitty_size = r.kitty_size
        self.kitty_mode = r.kitty_mode
        self.kitty_seen = r.kitty_seen
        self.pack = r.pack
        self.pack_mask = r.pack_mask
        self.stock = r.stock
        self.deal_size = v.deal_size
        opening_suit = [i for i in self.counts if self.suit[i] == self.open_suit and self.rank[i] >= self.open_floor]
        self.lowest_open = min(opening_suit, key=self.rank.__getitem__) if opening_suit else None


_FACTS: dict[tuple[Variant, Suit | None], _Facts] = {}


def _facts(v: Variant, named: Suit | None = None) -> _Facts:
    """The facts of ``v``, or of a hand whose auction named the suit ``named`` (``Observation.penalty_suit``)."""
    key = (v, named)
    facts = _FACTS.get(key)
    if facts is None:
        if len(_FACTS) > 64:
            _FACTS.clear()
        facts = _FACTS[key] = _Facts(v, named)
    return facts


def _auction_start(obs: Observation) -> tuple[tuple[int, ...] | None, int | None]:
    """An auction's context for a rebuilt deal (``Round.from_hands``'s ``chips`` and ``bidder``): the chips, and the
    seat that named the suit without bidding (after a pot nobody won: no bids); (None, None) outside an auction."""
    if not obs.chips:
        return None, None
    return obs.chips, obs.bidder if obs.bidder is not None and not obs.bids else None


def _replay_auction(r: Round, obs: Observation) -> None:
    """Replay an auction as everyone saw it (bids and the suit named are public, whatever the deal)."""
    for seat, bid in obs.bids:
        r.apply(Choose(seat, str(bid) if bid else "pass"))
    if obs.penalty_suit is not None and r.phase == Phase.DECIDE:
        r.apply(Choose(r.to_act[0], obs.penalty_suit.name.lower()))


def _variant_of(obs: Observation, variant: Variant | None) -> Variant:
    if not isinstance(obs, Observation):
        raise IllegalAction("bad_argument", f"obs must be an Observation (a seat's view: round.observation(seat)), "
                            f"not {arg_text(obs)}")
    if variant is not None:
        expect_variant(variant)
        if variant.players != obs.players:
            raise VariantError("players", f"the variant {variant.name!r} has {variant.players} players; the "
                               f"observation {obs.players}: pass the variant the observation was made under")
        return variant
    found = getattr(obs, "variant", None)
    if isinstance(found, Variant):
        return found
    raise VariantError("", "the observation does not carry its rules: pass the variant, e.g. "
                       "sample_round(obs, rng, variant=v) (an agent gets it from setup(variant, seat))")


def reads(v: Variant) -> bool:
    """Whether this module can read the histories of ``v``: every variant today, games with a stock
    (``deck.stock``) included, where a void a seat showed holds only for the cards it held then (see "Games
    with a stock" in ``docs/search-player.md``), and Auction Hearts, whose public bids and named suit are
    replayed before the tricks. ``SearchAgent`` plays a variant this says it cannot read by its heuristic:
    the one place to say so if a future rule outruns the sampler.

    >>> import heartslib as hl
    >>> reads(hl.preset("standard")), reads(hl.preset("two_handed")), reads(hl.preset("auction_hearts"))
    (True, True, True)
    """
    expect_variant(v)
    return True


# --------------------------------------------------------------------------- what a seat knows


@attrs.frozen
class Knowledge:
    """What ``seat`` knows about the hidden cards (see :func:`knowledge`).

    Card sets are tuples of :class:`~heartslib.Card` sorted in hand order;
    with two decks a card may repeat.
    """

    seat: int
    """The seat whose knowledge this is."""
    voids: tuple[frozenset[Suit], ...]
    """Per seat, the suits its plays (or the opening card's search) show it holds none of: what every seat
    can read, so this seat's own entry is what the others know of it."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat, the cards it is known to hold now: this seat's hand for itself; for the others, the cards
    this seat passed to them and they have not played."""
    allowed: tuple[frozenset[Card], ...]
    """Per seat, the cards it may hold now: its known cards and the unseen cards its plays have not ruled
    out (this seat's own hand for itself)."""
    kitty_allowed: frozenset[Card]
    """The cards that may be among the kitty's unseen cards."""
    unseen: tuple[Card, ...]
    """The cards this seat has not seen: in other hands or in the kitty (not the kitty cards it looked at)."""
    kitty_unseen: int
    """How many of the unseen cards are in the kitty (taken or not, but never shown to this seat)."""


def _banned_keep(f: _Facts, led: int, void: bool | None) -> int:
    """What a seat that played a card the first-trick rule bans may still hold: following suit, no card of the
    suit led but banned ones (nor a joker it could have played instead); void, banned cards only."""
    if void is False:
        keep = ~(f.suit_mask[led] & ~f.banned_mask)
        return keep & ~(1 << JK) if f.jk_any_time and not f.banned[JK] else keep
    return f.banned_mask if void is True else _ALL


def _queen_was_forced(f: _Facts, pos: int, trick: Sequence[tuple[int, int]], led: int, void: bool | None,
                      first: bool, queen_barred: bool) -> bool:
    """Whether club play's Q♠ was due from a seat playing at place ``pos`` of ``trick`` (void, or spades led
    with a higher spade on the trick), so that another card there shows it had none; ``queen_barred``: an
    exposed Q♠ held back the first time spades are led."""
    if first and f.banned and f.banned[QS]:
        return False
    if void is True:
        return True
    return (void is False and led == SPADE and not queen_barred
            and any(f.suit[x] == SPADE and f.rank[x] > 12 for _, x in trick[:pos]))


class _Reading:
    """One pass over the public history: per seat allowed-card masks and the facts the sampler needs."""

    def __init__(self, obs: Observation, f: _Facts, leader: int | None = None) -> None:
        self.obs = obs
        self.f = f
        n = obs.players
        me = obs.seat
        self.n = n
        self.me = me
        self.allowed = [_ALL] * n
        self.kitty_allowed = _ALL
        #: cards that can only be in the kitty (the opening card's search passed over them)
        self.kitty_forced = 0
        #: (seat, card): the first leader and the opening card it held after the exchange, when known
        self.opening_holder: tuple[int, int] | None = None
        #: cards (with copies) each seat played this hand
        self.played: list[Counter[int]] = [Counter() for _ in range(n)]
        self.plays: list[list[tuple[int, int]]] = [
            [(s, c.index) for s, c in t.plays] for t in obs.tricks
        ]
        if obs.trick:
            self.plays.append([(s, c.index) for s, c in obs.trick])
        self.led_suits: list[int] = [NO_SUIT if t.led_suit is None else int(t.led_suit) for t in obs.tricks]
        if obs.trick:
            self.led_suits.append(NO_SUIT if obs.led_suit is None else int(obs.led_suit))
        _check_seats(self.plays, n, f.variant.play.booster_nines)
        if obs.phase is Phase.OVER and obs.to_act:  # whatever the hidden cards, nobody acts once the hand is over
            raise ImpossibleHistory(f"the hand is over, but the observation says seats {obs.to_act} are to act")
        for trick in self.plays:
            for s, c in trick:
                self.played[s][c] += 1
        self.exchanged = obs.phase not in (Phase.PASS,) and not (obs.phase == Phase.DECIDE and obs.decision == "pass")
        #: the seat named to lead the first trick with any card (None: the opening rules chose the leader)
        self.leader_fixed = leader
        self.hand = Counter(c.index for c in obs.hand)
        self._read_leaders()
        self._read_own_cards()
        #: with a stock (``deck.stock``): per seat, the checkpoints ``(time, mask)`` its plays set, each holding only
        #: for the cards it held at that time (see _read_timeline for the clock)
        self.stock = f.stock is not StockDraw.NONE
        self.checks: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.play_time: list[list[int]] = []
        self.draw_time: list[int] = []
        if self.stock:
            self._read_timeline()
        self._read_plays()
        self._read_opening_at_deal()
        #: what every seat can read from the plays (this seat's own hand aside)
        self.public = self.allowed[:]
        self.allowed[me] = mask_of(self.hand)
        self.kitty_seen = [c.index for c in obs.kitty or ()]
        self.known: list[Counter[int]] = [Counter() for _ in range(n)]
        #: per seat, the cards it is known to have held after the exchange, played since or not (with a stock: in
        #: its hand as dealt, never drawn)
        self.given: list[Counter[int]] = [Counter() for _ in range(n)]
        self.not_kitty: Counter[int] = Counter()
        self._read_passes()
        self._read_exposed()
        self._read_holder()
        seen = self.hand + Counter(self.kitty_seen)
        for p in self.played:
            seen += p
        self.unseen = Counter(f.counts)
        self.unseen.subtract(seen)
        if any(k < 0 for k in self.unseen.values()):
            extra = " ".join(_CARD[c].code for c, k in self.unseen.items() if k < 0)
            raise ImpossibleHistory(f"more copies seen than the pack holds: {extra}")
        self.unseen = +self.unseen
        # with a stock, the hidden undealt cards are the stock's cards now
        self.kitty_need = obs.stock_size if self.stock else f.kitty_size - len(self.kitty_seen)
        if self.kitty_need < 0:
            raise ImpossibleHistory("more kitty cards seen than the kitty holds")
        if not self.exchanged:
            # before the exchange nothing has been played: the deal is all there is
            self.allowed = [_ALL if s != me else self.allowed[me] for s in range(n)]

    # ------------------------------------------------------------------ this seat's own cards

    def _read_own_cards(self) -> None:
        """Every card the observation names is of the variant's pack, and this seat's own cards add up: what it
        received it holds or has played, and its hand as dealt (held and played, less what it received, plus
        what it passed) is part of the pack. Checked before the plays are read, so that an observation of
        another variant or an edited pass is named as such, not found out by a sampler that cannot replay it."""
        obs, f, me = self.obs, self.f, self.me
        auction = f.variant.scoring.settlement == Settlement.AUCTION
        if bool(obs.chips) != auction:
            # an auction's observation always shows the chips, and no other game's does: a replay could never
            # match it (the sampler would refuse every deal)
            raise ImpossibleHistory(
                f"the observation {'shows' if obs.chips else 'does not show'} an auction's chips, and the variant "
                f"{f.variant.name!r} {'is not' if obs.chips else 'is'} an auction (scoring.settlement = "
                f"\"{f.variant.scoring.settlement.value}\"): an observation of another variant?")
        named = [*obs.hand, *obs.cards_played, *(obs.passed or ()), *(obs.received or ()), *(obs.kitty or ()),
                 *obs.exposed]
        foreign = sorted({c for c in named if c.index not in f.counts})
        if foreign:
            raise ImpossibleHistory(f"{' '.join(c.code for c in foreign)}: not in the pack of the variant "
                                    f"{f.variant.name!r} (an observation of another variant?)")
        passed = Counter(c.index for c in obs.passed or ())
        received = Counter(c.index for c in obs.received or ())
        for what, cards in (("passed", obs.passed), ("received", obs.received)):
            if cards is not None and len(cards) != obs.pass_count:
                raise ImpossibleHistory(f"seat {me} {what} {len(cards)} card(s) in a hand that passes "
                                        f"{obs.pass_count}")
        if obs.received is None:
            return
        held = self.hand + self.played[me]
        missing = received - held
        if missing and not (obs.phase is Phase.OVER and f.stock is StockDraw.TO_FOLLOW):
            # (once Domino Hearts is over, the survivor's cards are in no hand)
            raise ImpossibleHistory(f"seat {me} received {_codes(missing)} but neither holds nor played it")
        over = held - received + passed - f.counts
        if over:
            raise ImpossibleHistory(f"seat {me} passed {_codes(over & passed)} and still holds or played it "
                                    "without receiving it back" if over & passed else
                                    f"seat {me} was dealt more copies of {_codes(over)} than the pack holds")

    def _read_leaders(self) -> None:
        """A trick's leader is the seat of its first play: the replay follows the plays, so a leader that is not
        would only be found out by draws that all fail (the first trick's leader names who was to lead)."""
        obs = self.obs
        led = [(t.number, t.leader, t.plays[0][0]) for t in obs.tricks if t.plays]
        if obs.trick and obs.leader is not None:
            led.append((len(obs.tricks), obs.leader, obs.trick[0][0]))
        for number, leader, first in led:
            if leader != first:
                raise ImpossibleHistory(f"trick {number} was led by seat {first} (its first play), not by seat "
                                        f"{leader} as the observation says")

    # ------------------------------------------------------------------ reading the plays

    def _read_plays(self) -> None:
        """What each play shows of its player's hand, trick by trick (see :meth:`_read_follow` for a card
        that follows a lead)."""
        breaks = self.f.breaks
        broken = False
        # an exposed Q♠ is not played the first time spades are led while its holder has another spade, and
        # then the club-play rule does not force it either: following without it shows nothing
        queen_shown = any(c.index == QS for c in self.obs.exposed)
        for number, trick in enumerate(self.plays):
            led = NO_SUIT
            called = False
            for pos, (s, c) in enumerate(trick):
                held = self.allowed[s]
                if self.stock:
                    self.allowed[s] = _ALL  # this play's facts alone, kept as a checkpoint below
                elif not held >> c & 1:
                    raise ImpossibleHistory(f"seat {s} played {_CARD[c].code} in trick {number} after its plays "
                                            "showed it could not hold it")
                if pos == 0:
                    led, called = self._read_first(s, c, number, broken)
                else:
                    led = self._read_follow(s, c, number, pos, trick, led, called, queen_shown)
                if self.stock:
                    self.checks[s].append((self.play_time[number][pos], self.allowed[s]))
                    self.allowed[s] &= held
                if breaks[c]:
                    broken = True

    def _read_first(self, s: int, c: int, number: int, broken: bool) -> tuple[int, bool]:
        """The lead ``c`` of trick ``number`` by ``s``: what it shows, and the suit led and whether it was
        called (a joker's leader calling a suit)."""
        f = self.f
        self._read_lead(s, c, number == 0, broken)
        led = f.suit[c]
        if led != NO_SUIT or f.joker_lead != JokerLead.CALL_SUIT:
            return led, False
        led = self.led_suits[number]
        if led == f.locked and f.locks and not broken and not f.breaks[c]:
            # hearts may be called before they are broken only by a hand of hearts (a joker whose own play
            # breaks them, a scoring one where penalty cards break, calls freely: the engine asks for the call
            # after the play, legality.callable_suits)
            self.allowed[s] &= self._hearts_lead_mask() | f.suit_mask[NO_SUIT]
        return led, True

    def _read_follow(self, s: int, c: int, number: int, pos: int, trick: Sequence[tuple[int, int]], led: int,
                     called: bool, queen_shown: bool) -> int:
        """What ``s`` playing ``c`` at place ``pos`` of trick ``number`` shows (a void, the first-trick ban,
        club play's Q♠, the undercut, forced discards); the suit led from here on (a joker led leaves it to the
        first suited card)."""
        f = self.f
        suit = f.suit
        first = number == 0
        banned = f.banned
        void: bool | None = True
        if led != NO_SUIT:
            if suit[c] == led:
                void = False
            elif c == JK and f.jk_any_time:
                void = None  # a joker may be played whether or not the player could follow
            else:
                self.allowed[s] &= ~f.suit_mask[led]  # a void
        if first and banned and banned[c]:
            self.allowed[s] &= _banned_keep(f, led, void)
        forced = f.queen_forced and c == QS
        if f.queen_forced and not forced and _queen_was_forced(
                f, pos, trick, led, void, first, queen_shown and SPADE not in self.led_suits[:number]):
            self.allowed[s] &= ~(1 << QS)
        if f.undercut and not forced and not (first and banned) and not f.exposable:
            # (a first-trick ban or an exposure bar may have held a lower card back: nothing shown)
            self._read_undercut(s, c, trick[:pos], led, void, c in f.must_discard)
        if f.must_discard and void is True and c not in f.must_discard and not forced:
            self._read_discards(s, number, pos, first)
        if led == NO_SUIT and not called and suit[c] != NO_SUIT:
            led = suit[c]
        return led

    def _read_discards(self, s: int, number: int, pos: int, first: bool) -> None:
        """A void ``s`` that played no forced discard (``play.must_discard``) held none it had to play."""
        f = self.f
        drop = f.must_discard_mask
        if first and f.banned:
            drop &= ~f.banned_mask  # a banned one may have been kept back by the ban
        if f.must_discard_if_all:
            # it did not hold them all: if it later played all but one, not that one
            later = {x for x, _ in self._later(s, number, pos)} & f.must_discard
            missing = [m for m in f.must_discard if m not in later]
            drop = (1 << missing[0]) & drop if len(missing) == 1 else 0
        self.allowed[s] &= ~drop

    def _read_undercut(self, s: int, c: int, before: Sequence[tuple[int, int]], led: int, void: bool | None,
                       leekha: bool) -> None:
        """What a play under the undercut rule shows (``legality._undercut``): once a leekha card lies on the
        trick, a card ranked at or above the ceiling means the seat held no card below it among those it could
        play (its cards of the suit led when following; its leekha cards when it dumped one; any card when a
        free discard is bound too)."""
        f = self.f
        rank, suit = f.rank, f.suit
        on = [x for _, x in before]
        leekhas = [x for x in on if x in f.must_discard]
        if not leekhas:
            return
        if f.undercut_winning:
            of_led = [rank[x] for x in on if suit[x] == led]
            if not of_led:
                return
            ceiling = max(of_led)
        else:
            ceiling = max(rank[x] for x in leekhas)
        if rank[c] < ceiling:
            return
        if void is False:
            could = f.suit_mask[led]
        elif void is True and leekha and not f.must_discard_if_all:
            could = f.must_discard_mask
        elif void is True and not leekha and f.undercut_discards:
            could = f.pack_mask
        else:
            return
        self.allowed[s] &= ~mask_of(i for i in range(NUM_CARD_INDICES) if could >> i & 1 and rank[i] < ceiling)

    def _later(self, seat: int, number: int, pos: int) -> list[tuple[int, int]]:
        """The cards ``seat`` played after position ``pos`` of trick ``number``, with their trick numbers."""
        out = []
        for t in range(number, len(self.plays)):
            for p, (s, c) in enumerate(self.plays[t]):
                if s == seat and (t > number or p > pos):
                    out.append((c, t))
        return out

    def _hearts_lead_mask(self) -> int:
        """The cards a hand may hold when it leads a heart before hearts are broken."""
        f = self.f
        mask = f.suit_mask[f.locked]
        if f.qlock:
            mask |= 1 << QS
        if f.only_penalty:
            mask |= f.penalty_mask
        return mask

    def _read_lead(self, s: int, c: int, first: bool, broken: bool) -> None:
        f = self.f
        if first and f.opening != Opening.ELDEST_ANY and self.leader_fixed is None:
            return  # the opening lead: read by _read_opening
        joker_kept = 0
        if f.valueless and f.joker_lead == JokerLead.FORBIDDEN:
            if c == JK:
                self.allowed[s] &= 1 << JK  # a joker leads only from a hand of jokers
                return
            joker_kept = 1 << JK
        locked = f.locks and not broken and (f.suit[c] == f.locked or (f.qlock and c == QS))
        if locked:
            self.allowed[s] &= self._hearts_lead_mask() | joker_kept
        if first and f.banned and f.banned[c]:
            mask = f.banned_mask | joker_kept
            if f.locks and not broken:
                mask |= self._hearts_lead_mask()
            self.allowed[s] &= mask

    def _read_opening_at_deal(self) -> None:
        """:meth:`_read_opening`; with a stock its facts are about the hands as dealt (after the exchange), so they
        are kept as each seat's checkpoint at time 1, before any card is played or drawn."""
        if not self.stock:
            self._read_opening()
            return
        held = self.allowed[:]
        self.allowed = [_ALL] * self.n
        self._read_opening()
        for seat in range(self.n):
            if self.allowed[seat] != _ALL:
                self.checks[seat].insert(0, (1, self.allowed[seat]))
            self.allowed[seat] &= held[seat]

    def _read_timeline(self) -> None:
        """With a stock: when each play and each draw happened, on one clock. Time 0 is the deal, 1 the opening
        search; then the plays and draws in the engine's order (``"after_trick"``: a trick's draws after its
        plays; ``"to_follow"``: a seat's draw just before its play). A draw takes two ticks: the first is the
        moment before it (in Domino Hearts the drawer then held no card of the suit led), the second the draw."""
        draws = self.obs.draws
        follow = self.f.stock is StockDraw.TO_FOLLOW
        self.draw_time = [0] * len(draws)
        clock = 2
        d = 0
        for number, trick in enumerate(self.plays):
            times: list[int] = []
            for s, _ in trick:
                if follow and d < len(draws) and draws[d][0] == number and draws[d][1] == s:
                    self.draw_time[d] = clock + 1
                    clock += 2
                    d += 1
                times.append(clock)
                clock += 1
            self.play_time.append(times)
            while not follow and d < len(draws) and draws[d][0] <= number:
                self.draw_time[d] = clock + 1
                clock += 2
                d += 1
        for rest in range(d, len(draws)):  # a draw whose play is still to come (the seat to act now)
            self.draw_time[rest] = clock + 1
            clock += 2
        if follow:
            for i, (number, seat, _) in enumerate(draws):
                led = self.led_suits[number] if number < len(self.led_suits) else NO_SUIT
                if led != NO_SUIT:
                    # it drew because it could not follow: it held no card of the suit led just before
                    self.checks[seat].append((self.draw_time[i] - 1, _ALL & ~self.f.suit_mask[led]))

    def _read_opening(self) -> None:
        """The opening card's search from the dealer's left: the first leader held the opening card after
        the exchange, the seats searched before it held none, and lower cards of its suit are in the kitty."""
        f, obs = self.f, self.obs
        if f.opening == Opening.ELDEST_ANY or self.leader_fixed is not None or not self.exchanged:
            return
        if self.plays:
            leader, led = self.plays[0][0]
        elif obs.leader is not None:
            leader, led = obs.leader, -1
        else:
            return
        fixed_card = f.opening == Opening.TWO_OF_CLUBS
        if led >= 0 and (f.suit[led] != f.open_suit or (fixed_card and f.rank[led] < f.open_floor)):
            raise ImpossibleHistory(f"the first trick was led with {_CARD[led].code}, not a card that opens")
        if f.opening == Opening.TWO_OF_CLUBS and led >= 0:
            opening = led
        elif f.kitty_size == 0 and f.lowest_open is not None:
            opening = f.lowest_open  # no kitty to hide it: the pack's lowest card of the suit opens
        else:
            return
        n, step = self.n, f.step
        for i in range(n):
            seat = (obs.dealer + step * (1 + i)) % n
            if seat == leader:
                break
            self.allowed[seat] &= ~(1 << opening)
        lower = mask_of(
            i for i in f.counts
            if f.suit[i] == f.open_suit and f.open_floor <= f.rank[i] < f.rank[opening]
        )
        for seat in range(n):
            self.allowed[seat] &= ~lower
        self.kitty_forced = lower
        self.opening_holder = (leader, opening)

    def _read_holder(self) -> None:
        # a method of its own: read in __init__, mypy would narrow the attribute to its first value (None),
        # and the compiled build checks that narrowed type at run time
        if self.opening_holder is not None:
            holder, opening = self.opening_holder
            if holder != self.me:
                need = 1 - self.played[holder][opening]
                if need > self.known[holder][opening]:
                    self.known[holder][opening] = need

    # ------------------------------------------------------------------ passing

    def _read_passes(self) -> None:
        obs, f = self.obs, self.f
        n, me, step = self.n, self.me, f.step
        passed = [c.index for c in obs.passed or ()]
        if not self.exchanged or not passed:
            return
        d = obs.passing
        targets: list[tuple[int, int]] = []
        if isinstance(d, Offset):
            targets = [((me + d.k * step) % n, c) for c in passed]
        elif d in (SCATTER, STAR):
            first = 1 if d == SCATTER else 2
            targets = [((me + step * (first + i)) % n, c) for i, c in enumerate(passed)]
        elif d == SHUFFLE:
            received = Counter(c.index for c in obs.received or ())
            gone = Counter(passed) - received
            # my cards that others drew from the pile are in their hands or among their plays
            played_others: Counter[int] = Counter()
            for s in range(n):
                if s != me:
                    played_others += self.played[s]
            self.not_kitty = gone - played_others
        for t, c in targets:
            self.known[t][c] += 1
            self.given[t][c] += 1
        for t in range(n):
            if t != me:
                self.known[t] = self.known[t] - self.played[t]

    def _read_exposed(self) -> None:
        """Exposed cards (Gong Zhu) were shown face up after the exchange: the exposer holds each until played."""
        obs = self.obs
        self._check_exposed()
        for seat, card in zip(obs.exposed_by, obs.exposed, strict=True):
            c = card.index
            if seat != self.me:
                self.given[seat][c] = 1
            if seat != self.me and not self.played[seat][c]:
                self.known[seat][c] = 1  # exposable cards need one deck
                if not self.allowed[seat] >> c & 1:
                    raise ImpossibleHistory(f"seat {seat} exposed {card.code} and then showed it could not hold it")

    def _check_exposed(self) -> None:
        """The exposures name exposable cards, one exposer each, held by the exposer: this seat's own exposures
        among its own cards, the others' among the cards this seat cannot see (not in its hand, not played by
        a third seat). Judged here, as no deal could change them, not left to draws that all fail."""
        obs, me = self.obs, self.me
        if len(obs.exposed) != len(obs.exposed_by):
            raise ImpossibleHistory(f"the observation names {len(obs.exposed)} exposed card(s) and "
                                    f"{len(obs.exposed_by)} exposer(s): one exposer each")
        exposable = self.f.variant.rules.exposable
        for seat, card in zip(obs.exposed_by, obs.exposed, strict=True):
            c = card.index
            if c not in exposable:
                allowed = f"only {' '.join(_CARD[e].code for e in exposable)}" if exposable else "no card"
                raise ImpossibleHistory(f"{card.code} was exposed, but the variant {self.f.variant.name!r} exposes "
                                        f"{allowed} (scoring.exposable)")
            if not 0 <= seat < self.n:
                raise ImpossibleHistory(f"{card.code} was exposed by seat {seat}: there are seats 0-{self.n - 1}")
            if seat == me and not (self.hand[c] or self.played[me][c]):
                raise ImpossibleHistory(f"seat {me} exposed {card.code} but neither holds nor played it")
            if seat != me and (self.hand[c] or any(self.played[s][c] for s in range(self.n) if s != seat)):
                raise ImpossibleHistory(f"seat {seat} exposed {card.code}, which "
                                        + (f"seat {me} holds" if self.hand[c] else "another seat played"))

    # ------------------------------------------------------------------ results

    def knowledge(self) -> Knowledge:
        if self.stock:
            return _StockPlan(self).knowledge()
        n, me = self.n, self.me

        def cards(counter: Counter[int]) -> tuple[Card, ...]:
            return tuple(sorted(_CARD[c] for c in counter.elements()))

        known = tuple(cards(self.hand if s == me else self.known[s]) for s in range(n))
        f = self.f
        voids = tuple(
            frozenset(Suit(x) for x in range(4) if f.suit_mask[x] & f.pack_mask and not public & f.suit_mask[x])
            for public in self.public
        )
        allowed = tuple(
            frozenset(_CARD[c] for c in _cards_of(self.allowed[s]) if self.unseen[c] or self.known[s][c])
            if s != me else frozenset(_CARD[c] for c in self.hand)
            for s in range(n)
        )
        kitty_allowed = frozenset(
            _CARD[c] for c in _cards_of(self.kitty_allowed) if self.unseen[c]
        ) if self.kitty_need else frozenset()
        return Knowledge(
            seat=me,
            voids=voids,
            known=known,
            allowed=allowed,
            kitty_allowed=kitty_allowed,
            unseen=cards(self.unseen),
            kitty_unseen=self.kitty_need,
        )


def _knowledge(obs: Observation, f: _Facts) -> Knowledge:
    """What holds under every reading of the history the observation allows (see _leader_hypotheses)."""
    found: list[Knowledge] = []
    problem: ImpossibleHistory | None = None
    hypotheses, both = _leader_hypotheses(obs, f)
    for leader in hypotheses:
        try:
            found.append(_Reading(obs, f, leader).knowledge())
        except ImpossibleHistory as exc:
            problem = problem or exc
            continue
        if not both:
            break
    if not found:
        assert problem is not None
        raise problem
    first = found[0]
    if len(found) == 1:
        return first
    n = obs.players
    return attrs.evolve(
        first,
        voids=tuple(frozenset.intersection(*(k.voids[s] for k in found)) for s in range(n)),
        known=tuple(tuple(sorted(functools.reduce(operator.and_, (Counter(k.known[s]) for k in found)).elements()))
                    for s in range(n)),
        allowed=tuple(frozenset.union(*(k.allowed[s] for k in found)) for s in range(n)),
        kitty_allowed=frozenset.union(*(k.kitty_allowed for k in found)),
    )


def _leader_hypotheses(obs: Observation, f: _Facts) -> tuple[list[int | None], bool]:
    """Who may have been named to lead the first trick with any card, likelier first: None (the opening
    rules chose the leader) or, once play has begun, the seat that led it; and whether both are live.

    In an auction the bid's winner leads (``play.opening`` is not read). A match names the taker of
    ``play.opening_taker`` in the previous hand (Gong Zhu's pig), and a round
    dealt alone may be given a ``leader``; the observation does not say which. With an opening taker after
    the first hand both readings are live (knowledge holds under both; samples come from the first that
    replays); otherwise the named leader is only a fallback for a history the opening rules cannot explain.
    """
    leader = obs.tricks[0].leader if obs.tricks else obs.leader
    if leader is None:
        return [None], False
    if f.variant.scoring.settlement == Settlement.AUCTION:
        return [leader], False  # the bid's winner leads, whatever the opening rule: it shows nothing of its hand
    if f.opening == Opening.ELDEST_ANY:
        eldest = (obs.dealer + f.step) % obs.players
        return ([None] if leader == eldest else [leader]), False
    if f.opening_taker and obs.hand_number > 0:
        return [leader, None], True
    return [None, leader], False


def knowledge(obs: Observation, variant: Variant | None = None) -> Knowledge:
    """Everything ``obs.seat`` can deduce about the hidden cards (a :class:`Knowledge`).

    ``variant`` gives the rules (the observation does not repeat them); an
    agent gets it from ``setup(variant, seat)``.
    """
    return _knowledge(obs, _facts(_variant_of(obs, variant), obs.penalty_suit))


def known_voids(obs: Observation, variant: Variant | None = None) -> tuple[frozenset[Suit], ...]:
    """Per seat, the suits it has shown it does not hold: it did not follow them.

    With a stock (``deck.stock``), a void holds only for the cards a seat held when it showed it: without
    ``variant``, a void a seat showed before (or in the trick of) a draw of its own is not reported.

    Zero jokers (0♣, 0♦) belong to their suits. A valueless joker shows a
    void only when the variant lets it be played just when void
    (``deck.joker_play = "when_void"``), so without ``variant`` joker plays
    show nothing; the trick's suit is the one led, called or set by the first
    suited card.

    >>> import heartslib as hl
    >>> r = hl.Round.from_hands(hl.preset("standard"), ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ...     "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ...     "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"], passing=hl.HOLD)
    >>> r.apply(hl.Play(0, "2C")); r.apply(hl.Play(1, "2D"))
    >>> [sorted(str(s) for s in v) for v in known_voids(r.observation(0))]
    [[], ['clubs'], [], []]
    """
    if variant is None:
        variant = getattr(obs, "variant", None)
    if variant is not None:
        return _knowledge(obs, _facts(_variant_of(obs, variant), obs.penalty_suit)).voids
    # per seat and suit, the last trick that showed the void; a draw in that trick or later may have ended it
    shown: list[dict[Suit, int]] = [{} for _ in range(obs.players)]
    tricks = [(t.plays, t.led_suit) for t in obs.tricks]
    if obs.trick:
        tricks.append((obs.trick, obs.led_suit))
    for number, (plays, led) in enumerate(tricks):
        if led is None:
            continue
        for pos, (seat, card) in enumerate(plays):
            if pos and card.suit is not None and card.suit != led:
                shown[seat][led] = number
    last_draw = [-1] * obs.players
    for number, seat, _ in obs.draws:
        last_draw[seat] = max(last_draw[seat], number)
    return tuple(frozenset(suit for suit, number in v.items() if last_draw[seat] < number)
                 for seat, v in enumerate(shown))


def known_cards(obs: Observation, variant: Variant | None = None) -> tuple[tuple[Card, ...], ...]:
    """Per seat, the cards ``obs.seat`` knows it holds now: its own hand; for another seat, the cards
    ``obs.seat`` passed it (left, right, across, scatter and star passes) that it has not played."""
    return knowledge(obs, variant).known


def unseen_cards(obs: Observation, variant: Variant | None = None) -> tuple[Card, ...]:
    """The cards ``obs.seat`` has not seen this hand: in other hands or in the kitty."""
    return knowledge(obs, variant).unseen


# --------------------------------------------------------------------------- sampling


def _shuffle(items: list[int], rnd: random.Random) -> None:
    # random() only: its sequence is the one Python keeps the same across versions
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _pick_some(items: list[int], k: int, rnd: random.Random) -> list[int]:
    """``k`` items drawn without replacement, in draw order (removed from ``items``)."""
    out = []
    for _ in range(k):
        count = len(items)  # a local: compiled, random() * len(...) multiplies boxed objects
        out.append(items.pop(int(rnd.random() * count)))
    return out


class _Plan:
    """Where the unseen cards may go under one reading of the history: per card copy, a mask of the
    slots it may fill (the other seats in turn, then the kitty), and the places in each slot; the room
    is checked at once (Hall's condition), so an impossible history fails here, not by retrying."""

    def __init__(self, rd: _Reading) -> None:
        self.reading = rd
        #: with a stock, the plan the sampler follows instead (the fields below are then empty)
        self.stock: _StockPlan | None = None
        if rd.stock:
            self.stock = _StockPlan(rd)
            self._no_slots()
            return
        self.hidden = [s for s in range(rd.n) if s != rd.me]
        pool = self._pool()
        kitty_need = rd.kitty_need
        total = sum(self.need) + kitty_need
        if total != sum(pool.values()):
            raise ImpossibleHistory(f"{sum(pool.values())} unseen cards for {total} hidden places")
        # slot masks per card copy: slot i < len(hidden) is a seat, the last slot the kitty
        self.slot_need = [*self.need, kitty_need]
        self.copies = self._copies(pool)
        self.known_lists = [list(k.elements()) for k in rd.known]
        tight = self._tight_slots()
        # a set of slots exactly filled by the cards that may only go there takes no other card: without this
        # the dealing below (card by card, in proportion to the free places) nearly always sends one of those
        # cards elsewhere and dead-ends (a seat that alone may hold 14 given cards, say), draw after draw
        if tight:
            self.copies = _narrowed(self.copies, tight)

    def _pool(self) -> Counter[int]:
        """The unseen cards no hidden seat is known to hold (each known card checked against the seat's
        voids and the cards seen elsewhere), and :attr:`need`, the places each hidden seat has left."""
        rd = self.reading
        if rd.exchanged:
            sizes = {s: rd.obs.hand_sizes[s] for s in self.hidden}
        else:
            sizes = {s: rd.f.variant.deal_size for s in self.hidden}
        pool = rd.unseen.copy()
        for s in self.hidden:
            for c, k in rd.known[s].items():
                if not rd.allowed[s] >> c & 1:
                    raise ImpossibleHistory(f"seat {s} was passed {_CARD[c].code} but has shown it cannot hold it")
                if pool[c] < k:
                    raise ImpossibleHistory(f"seat {s} should hold {_CARD[c].code}, which was seen elsewhere")
                pool[c] -= k
        self.need = [sizes[s] - sum(rd.known[s].values()) for s in self.hidden]
        if any(x < 0 for x in self.need):
            raise ImpossibleHistory("a seat holds fewer cards than it was passed")
        return +pool

    def _copies(self, pool: Counter[int]) -> list[tuple[int, int]]:
        """Per unseen card copy of ``pool`` (in card order), the mask of the slots it may fill."""
        rd = self.reading
        kitty_slot = len(self.hidden)
        kitty_ok = rd.kitty_allowed | rd.kitty_forced if rd.kitty_need else 0
        copies: list[tuple[int, int]] = []
        not_kitty = rd.not_kitty.copy()
        for c in sorted(pool.elements()):
            mask = 0
            for i, s in enumerate(self.hidden):
                if rd.allowed[s] >> c & 1:
                    mask |= 1 << i
            if kitty_ok >> c & 1:
                if not_kitty[c] > 0:
                    not_kitty[c] -= 1
                else:
                    mask |= 1 << kitty_slot
            if not mask:
                raise ImpossibleHistory(f"{_CARD[c].code} is unseen but no seat may hold it")
            copies.append((c, mask))
        return copies

    def _tight_slots(self) -> set[int]:
        """Hall's condition: the cards that may only go to a set of slots must fit in them (else the history
        is impossible); the sets of slots those cards fill exactly."""
        slots = len(self.slot_need)
        masks = Counter(m for _, m in self.copies)
        tight: set[int] = set()
        for subset in range(1, 1 << slots):
            room = sum(self.slot_need[i] for i in range(slots) if subset >> i & 1)
            must = sum(k for m, k in masks.items() if m & ~subset == 0)
            if must > room:
                who = [("the kitty" if i == slots - 1 else f"seat {self.hidden[i]}") for i in range(slots)
                       if subset >> i & 1]
                raise ImpossibleHistory(f"{must} unseen cards can only be held by {', '.join(who)}, "
                                        f"who have {room} places")
            if must == room and must:
                tight.add(subset)
        return tight

    def _no_slots(self) -> None:
        """With a stock the sampler follows :attr:`stock`: this plan's own slots stay empty."""
        self.hidden = []
        self.need = []
        self.slot_need = []
        self.copies = []
        self.known_lists = []


def _narrowed(copies: list[tuple[int, int]], tight: set[int]) -> list[tuple[int, int]]:
    """``copies`` with each card kept out of every full set of slots in ``tight`` it may go outside of."""
    narrowed = []
    for c, m in copies:
        keep = m
        for subset in tight:
            if m & ~subset:  # the card may go elsewhere, so not into this full set
                keep &= ~subset
        narrowed.append((c, keep))
    return narrowed


class _StockPlan:
    """Where the cards a seat has not seen came from, in a game with a stock (``deck.stock``).

    A world is the deal (each hand after the exchange, and the stock in its order), so the sampler places
    cards in *slots*: each other seat's hand as dealt, each card another seat drew (one slot a card, in the
    order of ``obs.draws``) and the stock as it is now. Every card this seat has not seen goes to one of the
    other seats' slots or to the stock; every card another seat played goes to one of that seat's slots it
    entered before the play. A card may go to a slot only if each of the owner's checkpoints between the
    card's entry (the deal, or its draw) and its exit (its play, or now) allows it, and a drawn card only if it
    fits the draw (Domino Hearts: every card but the last not of the suit led, the last of it while the stock
    lasted; a last card of the suit led that the drawer then played is that card). So a void holds only for
    the cards held when it was shown. This seat's own cards are fixed: its hand as dealt (its hand and plays,
    less what it drew) and its draws in their places.

    :meth:`place` draws the slots exactly uniformly among the placements that respect every mask (a
    sequential proposal corrected by rejection, :class:`_Placement`); the replay through the engine then rejects what
    the masks do not know, so the worlds are uniform among the deals that explain the observation.
    """

    def __init__(self, rd: _Reading) -> None:
        obs, f = rd.obs, rd.f
        n, me = rd.n, rd.me
        self.reading = rd
        self.n = n
        self.me = me
        checks = [sorted(c) for c in rd.checks]
        self.checks = checks
        #: per slot: its seat (-1: the stock now), when its cards entered that seat's hand, how many it holds, and
        #: the cards the draw allows in it
        self.owner: list[int] = []
        self.entry: list[int] = []
        self.cap: list[int] = []
        self.extra: list[int] = []
        self.hand_slot = [-1] * n
        for s in range(n):
            if s != me:
                self.hand_slot[s] = self._slot(s, 0, f.deal_size, _ALL)
        #: per seat, the sources of its cards every seat can read of (the deal, each card drawn): for its voids
        self.sources: list[list[tuple[int, int]]] = [[(0, _ALL)] for _ in range(n)]
        #: plays ``(trick, position)`` known to be of a card drawn just before (Domino Hearts' last card drawn)
        self.taken: set[tuple[int, int]] = set()
        #: per draw, per card position: a slot (>= 0) or a card known to be there (-1 - card)
        self.events: list[list[int]] = self._read_draws()
        # the cards never drawn (Domino Hearts' survivor takes them at the end: then not in obs.stock_size)
        self.stock_slot = self._slot(-1, _NOW, max(0, f.kitty_size - sum(k for _, _, k in obs.draws)), _ALL)
        unseen = rd.unseen.copy()
        self.my_hand = self._my_dealt_hand(unseen)
        self.fixed_hand: list[list[int]] = [[] for _ in range(n)]
        fixed_played = self._fix_known(unseen)
        self._check_sizes()
        self.held = self._unseen_copies(unseen)
        copies = self._played_copies(fixed_played) + self.held
        if sum(self.cap) != len(copies):
            raise ImpossibleHistory(f"{len(copies)} unseen and played cards for {sum(self.cap)} places in the "
                                    "hands as dealt, the draws and the stock")
        #: how the cards are drawn into the slots
        self.placement = _Placement(copies, self.cap, self._slot_text)

    def _slot(self, seat: int, entry: int, cap: int, extra: int) -> int:
        self.owner.append(seat)
        self.entry.append(entry)
        self.cap.append(cap)
        self.extra.append(extra)
        return len(self.cap) - 1

    def _slot_text(self, j: int) -> str:
        seat = self.owner[j]
        if seat < 0:
            return "the stock"
        return f"seat {seat}'s hand as dealt" if j == self.hand_slot[seat] else f"a card seat {seat} drew"

    def _read_draws(self) -> list[list[int]]:
        rd, f, obs = self.reading, self.reading.f, self.reading.obs
        follow = f.stock is StockDraw.TO_FOLLOW
        mine = [c.index for c in obs.drawn]
        left = f.kitty_size
        events: list[list[int]] = []
        for i, (number, seat, count) in enumerate(obs.draws):
            left -= count
            if seat == self.me:
                got, mine = mine[:count], mine[count:]
                if len(got) != count:
                    raise ImpossibleHistory(f"seat {seat} drew {count} card(s) after trick {number}, but its drawn "
                                            "cards do not include them")
                events.append([-1 - c for c in got])
                self._sources(seat, i, count, follow, number, left)
                continue
            positions: list[int] = []
            for p in range(count):
                extra, fixed = self._draw_fits(seat, number, p, count, follow, left)
                if fixed >= 0:
                    self.taken.add((number, next(k for k, (x, _) in enumerate(rd.plays[number]) if x == seat)))
                    positions.append(-1 - fixed)
                else:
                    positions.append(self._slot(seat, rd.draw_time[i], 1, extra))
            self._sources(seat, i, count, follow, number, left)
            events.append(positions)
        if mine:
            raise ImpossibleHistory(f"seat {self.me} holds {len(mine)} drawn card(s) more than its draws")
        return events

    def _draw_fits(self, seat: int, number: int, p: int, count: int, follow: bool, left: int) -> tuple[int, int]:
        """The cards position ``p`` of a draw of ``count`` cards may hold, and the card it must be (-1: any)."""
        rd, f = self.reading, self.reading.f
        if not follow or number >= len(rd.led_suits) or rd.led_suits[number] == NO_SUIT:
            return _ALL, -1
        led = rd.led_suits[number]
        if p < count - 1:
            return _ALL & ~f.suit_mask[led], -1
        # the last card: of the suit led unless the stock ran out first; then the drawer follows with it
        after = [c for s, c in rd.plays[number] if s == seat] if number < len(rd.plays) else []
        if after and f.suit[after[0]] == led:
            return f.suit_mask[led], after[0]
        return (f.suit_mask[led] if left > 0 else _ALL), -1

    def _sources(self, seat: int, draw: int, count: int, follow: bool, number: int, left: int) -> None:
        """Record the draw's cards among ``seat``'s sources (for the voids every seat can read): each position
        not known to be a card played since."""
        entry = self.reading.draw_time[draw]
        for p in range(count):
            extra, fixed = self._draw_fits(seat, number, p, count, follow, left)
            if fixed < 0:
                self.sources[seat].append((entry, extra))

    def _my_dealt_hand(self, unseen: Counter[int]) -> list[int]:
        """This seat's hand as dealt, as far as it is known: its hand and plays less what it drew. Once Domino
        Hearts is over, the cards the survivor kept are in no hand: if this seat was the survivor, those it was
        dealt are a slot of its own (those it drew are known, and taken out of ``unseen``)."""
        rd = self.reading
        seen = rd.hand + rd.played[rd.me]
        drawn = Counter(c.index for c in rd.obs.drawn)
        mine = (seen - drawn) | Counter(c.index for c in rd.obs.received or ())
        kept = (mine + drawn) - seen  # known to be this seat's, but in no hand: kept by the survivor
        short = rd.f.deal_size - sum(mine.values())
        if short < 0 or (rd.obs.phase is not Phase.OVER and (short or kept)):
            raise ImpossibleHistory(f"seat {rd.me}'s hand and plays, less the cards it drew, are not a hand of "
                                    f"{rd.f.deal_size} as dealt")
        if kept - unseen:
            raise ImpossibleHistory(f"seat {rd.me} received or drew {_codes(kept - unseen)}, seen elsewhere")
        unseen.subtract(kept)
        if short:
            self.hand_slot[rd.me] = self._slot(rd.me, 0, short, _ALL)
        return list(mine.elements())

    def _fix_known(self, unseen: Counter[int]) -> list[Counter[int]]:
        """The cards known to have been dealt to a seat (passed to it by this seat, exposed by it): in its hand
        as dealt, played since or still held (then allowed by every checkpoint since the deal). Returns, per
        seat, how many of its plays were of such cards."""
        rd = self.reading
        played = [Counter(p) for p in rd.played]
        for number, pos in self.taken:
            s, c = rd.plays[number][pos]
            played[s][c] -= 1
        fixed_played: list[Counter[int]] = [Counter() for _ in range(self.n)]
        for s in range(self.n):
            if s == self.me:
                continue
            fixed = rd.given[s] | rd.known[s]
            for c in sorted(fixed.elements()):
                if played[s][c] > 0:
                    played[s][c] -= 1
                    fixed_played[s][c] += 1
                elif unseen[c] > 0:
                    unseen[c] -= 1
                    if not self._allows(s, 0, _NOW, c):
                        raise ImpossibleHistory(f"seat {s} was given {_CARD[c].code} but has shown it cannot "
                                                "hold it")
                else:
                    raise ImpossibleHistory(f"seat {s} should hold {_CARD[c].code}, which was seen elsewhere")
                self.fixed_hand[s].append(c)
            self.cap[self.hand_slot[s]] -= len(self.fixed_hand[s])
            if self.cap[self.hand_slot[s]] < 0:
                raise ImpossibleHistory(f"seat {s} was given more cards than a hand as dealt holds")
        return fixed_played

    def _check_sizes(self) -> None:
        rd, obs = self.reading, self.reading.obs
        drew = [0] * self.n
        for _, seat, count in obs.draws:
            drew[seat] += count
        for s in range(self.n):
            size = rd.f.deal_size + drew[s] - sum(rd.played[s].values())
            # (once over, the survivor's cards are taken: every hand is empty)
            if size < 0 or (rd.exchanged and size != obs.hand_sizes[s] and obs.phase is not Phase.OVER):
                raise ImpossibleHistory(f"seat {s} holds {obs.hand_sizes[s]} card(s), but its hand as dealt, "
                                        f"its draws and its plays leave {size}")

    def _allows(self, seat: int, entry: int, exit: int, card: int) -> bool:
        """Whether every checkpoint of ``seat`` strictly between ``entry`` and ``exit`` allows ``card``."""
        return all(mask >> card & 1 or not entry < time < exit for time, mask in self.checks[seat])

    def _played_copies(self, fixed_played: list[Counter[int]]) -> list[tuple[int, int]]:
        """Each card another seat played (less those known where they came from), with the slots it may have
        come from: its player's, entered before the play and allowed by the checkpoints until it."""
        rd = self.reading
        copies: list[tuple[int, int]] = []
        slots = range(len(self.cap))
        for number, trick in enumerate(rd.plays):
            for pos, (s, c) in enumerate(trick):
                if s == self.me or (number, pos) in self.taken:
                    continue
                if fixed_played[s][c] > 0:
                    fixed_played[s][c] -= 1
                    continue
                at = rd.play_time[number][pos]
                mask = 0
                for j in slots:
                    if (self.owner[j] == s and self.entry[j] < at and self.extra[j] >> c & 1
                            and self._allows(s, self.entry[j], at, c)):
                        mask |= 1 << j
                if not mask:
                    raise ImpossibleHistory(f"seat {s} played {_CARD[c].code} in trick {number}, which neither its "
                                            "hand as dealt nor its draws can have held then")
                copies.append((c, mask))
        return copies

    def _unseen_copies(self, unseen: Counter[int]) -> list[tuple[int, int]]:
        """Each card this seat has not seen, with the slots it may be in now: another seat's, allowed by every
        checkpoint since it entered, or the stock."""
        rd = self.reading
        not_kitty = rd.not_kitty.copy()
        hands = 0
        for s in range(self.n):
            if s != self.me:
                hands |= 1 << self.hand_slot[s]
        copies: list[tuple[int, int]] = []
        for c in sorted(unseen.elements()):
            mask = 1 << self.stock_slot
            for j in range(len(self.cap)):
                s = self.owner[j]
                if s >= 0 and self.extra[j] >> c & 1 and self._allows(s, self.entry[j], _NOW, c):
                    mask |= 1 << j
            if not_kitty[c] > 0:  # this seat's passed card drawn by another seat from the shuffle pile
                not_kitty[c] -= 1
                mask &= hands
            if not mask:
                raise ImpossibleHistory(f"{_CARD[c].code} is unseen but no seat may hold it")
            copies.append((c, mask))
        return copies

    # ------------------------------------------------------------------ sampling

    def place(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """The hands as dealt (after the exchange) and the whole stock in drawing order, exactly uniform among the
        placements the masks allow (:class:`_Placement`), or :class:`_Reject`."""
        where = self.placement.draw(rng)
        copies = self.placement.copies
        held: list[list[int]] = [[] for _ in self.cap]
        for i, j in enumerate(where):
            held[j].append(copies[i][0])
        hands = [self.fixed_hand[s] + held[self.hand_slot[s]] if s != self.me else self.my_hand[:]
                 for s in range(self.n)]
        if self.hand_slot[self.me] >= 0:
            hands[self.me] += held[self.hand_slot[self.me]]
        stock = [-1 - x if x < 0 else held[x][0] for positions in self.events for x in positions]
        rest = held[self.stock_slot]
        _shuffle(rest, rng)  # the stock's order is hidden: uniform
        return hands, stock + rest

    # ------------------------------------------------------------------ knowledge

    def knowledge(self) -> Knowledge:
        """:meth:`_Reading.knowledge` with a stock: what each seat may hold now, its voids now."""
        rd, f = self.reading, self.reading.f
        n, me = self.n, self.me

        def cards(counter: Counter[int]) -> tuple[Card, ...]:
            return tuple(sorted(_CARD[c] for c in counter.elements()))

        held: list[set[int]] = [set() for _ in range(n)]
        kitty: set[int] = set()
        for c, mask in self.held:
            for j in _bits(mask):
                if self.owner[j] >= 0:
                    held[self.owner[j]].add(c)
                elif self.owner[j] < 0 and self.cap[j]:
                    kitty.add(c)
        # (once Domino Hearts is over, the survivor's cards are taken: nobody holds any)
        over = rd.obs.phase is Phase.OVER
        known = [Counter() if over else Counter(self.fixed_hand[s]) - rd.played[s] for s in range(n)]
        for s in range(n):
            held[s] |= set(known[s])
        voids = tuple(
            frozenset(Suit(x) for x in range(4) if f.suit_mask[x] & f.pack_mask and not any(
                self._reaches_now(s, entry, extra & f.suit_mask[x]) for entry, extra in self.sources[s]))
            for s in range(n)
        )
        return Knowledge(
            seat=me,
            voids=voids,
            known=tuple(cards(rd.hand if s == me else known[s]) for s in range(n)),
            allowed=tuple(frozenset(_CARD[c] for c in (rd.hand if s == me else held[s])) for s in range(n)),
            kitty_allowed=frozenset(_CARD[c] for c in kitty),
            unseen=cards(rd.unseen),
            kitty_unseen=rd.kitty_need,
        )

    def _reaches_now(self, seat: int, entry: int, cards: int) -> bool:
        """Whether some card of ``cards`` entering ``seat``'s hand at ``entry`` passes every checkpoint since."""
        for time, mask in self.checks[seat]:
            if time > entry:
                cards &= mask
        return cards != 0


#: The clock's "now" (after every play and draw; see _Reading._read_timeline).
_NOW: Final = 1 << 62
#: Proposals of a stock game's placement refused (with fewer than one in nine accepted) before
#: :meth:`_Placement.draw` stops correcting for exactness and mixes instead (close to uniform): a few
#: positions' acceptance is too low to wait for.
_EXACT_TRIES: Final = 64


class _Placement:
    """Cards drawn into slots, exactly uniformly among the placements that keep every card in its slots (``copies``:
    per card, ``(card, mask of slots)``; ``cap``: each slot's places, as many in all as cards).

    The masks are cut to the slots a card takes in some complete placement (:func:`_usable`; no complete
    placement raises :class:`ImpossibleHistory`, ``name`` naming the slots). The proposal deals the cards in a
    fixed order, each into an allowed slot with probability proportional to its free places: a placement ``x``
    comes out with probability ``prod(cap!) / prod(total_i(x))`` (``total_i`` the free places card ``i`` could
    choose from). Accepting it with probability ``prod(total_i(x) / bound_i)``, where ``bound_i`` bounds
    ``total_i`` over every placement, makes every placement equally likely; without restrictions every
    proposal is accepted. Where fewer than one proposal in nine is accepted after :data:`_EXACT_TRIES`
    refusals, it stops correcting and mixes each proposal by exchanges instead (:meth:`_mix`; counted in
    ``mixed``).
    """

    def __init__(self, copies: list[tuple[int, int]], cap: list[int], name: Callable[[int], str]) -> None:
        copies = _usable(copies, cap, _check_room(copies, cap, name))
        # most constrained first: fewer dead ends, and a tighter bound for the acceptance step
        room = [sum(cap[j] for j in _bits(m)) for _, m in copies]
        order = sorted(range(len(copies)), key=lambda i: (room[i], copies[i][0]))
        self.cap = cap[:]
        self.copies = [copies[i] for i in order]
        self.choices = [_bits(m) for _, m in self.copies]
        self.bound = _bounds([m for _, m in self.copies], cap)
        #: proposals refused and accepted so far, and placements drawn by the fallback
        self.refused = 0
        self.accepted = 0
        self.mixed = 0

    def draw(self, rng: random.Random) -> list[int]:
        """Each card's slot (in :attr:`copies` order), or :class:`_Reject` (a dead end, or not accepted)."""
        left = self.cap[:]
        choices, bound = self.choices, self.bound
        where = [0] * len(choices)
        accept = 1.0
        for i in range(len(choices)):
            ch = choices[i]
            total = 0
            for j in ch:
                total += left[j]
            if total == 0:
                raise _Reject("dead end while placing")
            accept *= total / bound[i]
            chosen = _weighted_slot(ch, left, rng.random() * total)
            left[chosen] -= 1
            where[i] = chosen
        if self.refused < _EXACT_TRIES or self.refused < 8 * self.accepted:
            if rng.random() >= accept:
                self.refused += 1
                raise _Reject("placement not accepted")
            self.accepted += 1
        else:
            self._mix(where, rng)
            self.mixed += 1
        return where

    def _mix(self, where: list[int], rng: random.Random) -> None:
        """Random exchanges of two cards between slots that each may take (a Markov chain whose stationary
        distribution is uniform over the placements it reaches): close to uniform rather than exactly."""
        copies = self.copies
        m = len(copies)
        for _ in range(4 * m if m > 1 else 0):
            a = int(rng.random() * m)
            b = int(rng.random() * m)
            sa, sb = where[a], where[b]
            if sa != sb and copies[a][1] >> sb & 1 and copies[b][1] >> sa & 1:
                where[a], where[b] = sb, sa


def _weighted_slot(choices: Sequence[int], left: list[int], x: float) -> int:
    """The slot of ``choices`` that ``x`` (uniform below their free places in total) falls in: each slot with
    probability proportional to its free places ``left``."""
    chosen = -1
    for j in choices:
        if left[j]:
            chosen = j
            x -= left[j]
            if x < 0:
                break
    return chosen


def _bits(mask: int) -> list[int]:
    out = []
    j = 0
    while mask:
        if mask & 1:
            out.append(j)
        mask >>= 1
        j += 1
    return out


def _bounds(masks: list[int], cap: list[int]) -> list[int]:
    """Per card (in placing order), a bound on the free places it can choose from in any placement: the places
    of its slots less the cards before it that can only go there, and the places left at all."""
    total = sum(cap)
    out = []
    for i, m in enumerate(masks):
        room = sum(cap[j] for j in _bits(m)) - sum(1 for k in range(i) if masks[k] & ~m == 0)
        out.append(max(1, min(room, total - i)))
    return out


def _check_room(copies: list[tuple[int, int]], cap: list[int], name: Callable[[int], str]) -> list[int]:
    """A slot for every card at once, each among its allowed slots, within the slots' places (a bipartite
    matching with capacities, by augmenting paths); :class:`ImpossibleHistory` when there is none."""
    load = [0] * len(cap)
    holders: list[list[int]] = [[] for _ in cap]
    where = [-1] * len(copies)

    def augment(i: int, seen: set[int]) -> bool:
        for j in _bits(copies[i][1]):
            if j in seen:
                continue
            seen.add(j)
            if load[j] < cap[j]:
                load[j] += 1
                holders[j].append(i)
                where[i] = j
                return True
            for k in holders[j]:
                if augment(k, seen):
                    holders[j].remove(k)
                    holders[j].append(i)
                    where[i] = j
                    return True
        return False

    for i in range(len(copies)):
        if not augment(i, set()):
            slots = ", ".join(name(j) for j in _bits(copies[i][1]))
            raise ImpossibleHistory(f"{_CARD[copies[i][0]].code} can only be in {slots}, which the other cards "
                                    "fill")
    return where


def _usable(copies: list[tuple[int, int]], cap: list[int], where: list[int]) -> list[tuple[int, int]]:
    """``copies`` with each mask cut to the slots the card takes in some complete placement: given one
    (``where``, every slot full), card ``i`` can go to slot ``j`` exactly when moving cards along slots, each
    to another slot it may take, leads from ``j`` back to the slot ``i`` leaves. Without the cut, the
    sequential placement would send cards where no placement of the rest fits, and retry."""
    slots = len(cap)
    step = [0] * slots  # slot a -> the slots a card placed in a may move to
    for i, (_, mask) in enumerate(copies):
        step[where[i]] |= mask
    reach = step[:]  # reach[a]: the slots reachable from a in one step or more
    changed = True
    while changed:
        changed = False
        for a in range(slots):
            more = reach[a]
            for b in _bits(reach[a]):
                more |= reach[b]
            if more != reach[a]:
                reach[a] = more
                changed = True
    out = []
    for i, (c, mask) in enumerate(copies):
        home = where[i]
        keep = 1 << home
        for j in _bits(mask & ~keep):
            if reach[j] >> home & 1:
                keep |= 1 << j
        out.append((c, keep))
    return out


class _Unpass:
    """Who received what in the hidden pass, given each seat's holdings after it (``post``): each draw takes
    cards the receiver holds, never a forbidden one, and never this seat's own passed cards twice."""

    def __init__(self, obs: Observation, f: _Facts, post: list[list[int]], rng: random.Random,
                 follow_rule: bool = False) -> None:
        self.n, self.me, self.step, self.k = obs.players, obs.seat, f.step, obs.pass_count
        self.rng = rng
        self.post = post
        self.suit = f.suit
        self.keep = f.keep if follow_rule else None
        self.my_pass = [c.index for c in obs.passed or ()]
        self.my_recv = [c.index for c in obs.received or ()]
        self.recv: list[list[int]] = [[] for _ in range(self.n)]
        self.passes: list[list[int] | None] = [None] * self.n
        self.passes[self.me] = self.my_pass
        self.rest = [[c for c in post[s] if c not in f.forbidden] for s in range(self.n)]

    def draw(self, seat: int, count: int, passer: int = -1) -> list[int] | None:
        """``count`` of the cards ``seat`` holds (not forbidden) as received. Following the suit-keeping pass rule
        (``passer`` known, its own receipt drawn), only cards ``passer`` may pass whatever else it passes: one it
        may always pass, or one of a suit it kept a card of."""
        pool = self.rest[seat]
        keep = self.keep
        if keep is not None and passer >= 0:
            suit = self.suit
            kept = Counter(self.post[passer])
            kept.subtract(self.recv[passer])
            suits = {suit[c] for c, x in kept.items() if x > 0}
            pool = [c for c in pool if c in keep or suit[c] in suits or suit[c] == NO_SUIT]
        if len(pool) < count:
            return None
        return _pick_some(pool, count, self.rng)

    def offset(self, k: int) -> bool:
        """A pass ``k`` seats on: each seat receives its passer's cards. The seats are taken along each cycle of
        passes, this seat's receiver first, so that a passer's own receipt is known when its pass is drawn."""
        n, me, shift = self.n, self.me, k * self.step
        order = list(range(n))
        if self.keep is not None:
            order = []
            for start in [(me + shift) % n, *range(n)]:
                t = start
                while t not in order:
                    order.append(t)
                    t = (t + shift) % n
        for t in order:
            passer = (t - shift) % n
            if t == me:
                self.recv[t] = self.my_recv
            elif passer == me:
                self.recv[t] = self.my_pass
            else:
                got = self.draw(t, self.k, passer if self.recv[passer] else -1)
                if got is None:
                    return False
                self.recv[t] = got
            self.passes[passer] = self.recv[t]
        return True

    def ordered(self, first: int) -> bool:
        """Scatter (``first`` 1) and star (2) passes: card ``i`` goes ``first + i`` seats on."""
        n, me, k, step = self.n, self.me, self.k, self.step
        picks: list[list[int]] = [[-1] * k for _ in range(n)]
        for t in range(n):
            incoming = [((t - step * (first + i)) % n, i) for i in range(k)]
            if t == me:
                mine = self.my_recv[:]
                _shuffle(mine, self.rng)  # which passer sent this seat which card is hidden
                for (x, i), c in zip(incoming, mine, strict=True):
                    picks[x][i] = c
                self.recv[t] = self.my_recv
                continue
            for x, i in incoming:
                if x == me:
                    picks[x][i] = self.my_pass[i]
                    self.rest[t].remove(self.my_pass[i])  # not to be drawn again as another seat's card
            for x, i in incoming:
                if x != me:
                    got = self.draw(t, 1)
                    if got is None:
                        return False
                    picks[x][i] = got[0]
                self.recv[t].append(picks[x][i])
        for x in range(n):
            if x != me:
                self.passes[x] = picks[x]
        return True

    def shuffle(self) -> bool:
        """The shuffle pass: the cards this seat passed and did not draw back went to others."""
        n, me, k = self.n, self.me, self.k
        self.recv[me] = self.my_recv
        gone = Counter(self.my_pass) - Counter(self.my_recv)
        for c in sorted(gone.elements()):
            holders = [s for s in range(n) if s != me and c in self.rest[s] and len(self.recv[s]) < k]
            if not holders:
                return False
            s = holders[int(self.rng.random() * len(holders))]
            self.rest[s].remove(c)
            self.recv[s].append(c)
        for s in range(n):
            if s != me:
                got = self.draw(s, k - len(self.recv[s]))
                if got is None:
                    return False
                self.recv[s] += got
        pile = Counter(c for s in range(n) for c in self.recv[s]) - Counter(self.my_pass)
        others = list(pile.elements())
        _shuffle(others, self.rng)
        for s in range(n):
            if s != me:
                self.passes[s], others = others[:k], others[k:]
        return True


#: How a seat chooses, as :meth:`Agent.act <heartslib.agents.Agent.act>` does: an action among the legal ones
#: from the seat's observation. :meth:`Sampler.weighted` weighs worlds by how often the other seats' choices in
#: them are this model's (``HeuristicAgent().act``, after ``setup``, is one).
ChoiceModel = Callable[[Observation, Sequence[Action]], Action]


class _Likelihood:
    """The log-likelihood of the other seats' choices in one replay under a model with slack ``epsilon``: a
    choice the model makes counts ``1 - epsilon + epsilon / k``, any other ``epsilon / k`` (``k`` legal
    actions), so a seat that deviates from the model lowers a world's weight without ruling it out."""

    __slots__ = ("epsilon", "log", "me", "model")

    def __init__(self, model: ChoiceModel, epsilon: float, me: int) -> None:
        self.model = model
        self.epsilon = epsilon
        self.me = me
        self.log = 0.0

    def __call__(self, r: Round, action: Pass | Play) -> None:
        """``action`` is about to be replayed in ``r``: count how likely the model made it."""
        seat = action.seat
        if seat == self.me:
            return  # this seat's own choices are known: they say nothing about the deal
        legal = r.legal_actions(seat)
        k = len(legal)
        if k < 2:
            return
        chosen = self.model(r.observation(seat), legal)
        same = chosen == action or (
            isinstance(chosen, Pass) and isinstance(action, Pass) and r.passing not in (SCATTER, STAR)
            and sorted(chosen.cards) == sorted(action.cards)  # an unordered pass: its cards, in any order
        )
        self.log += math.log((1 - self.epsilon if same else 0.0) + self.epsilon / k)


def check_model(model: object, epsilon: object) -> None:
    """Raise ``IllegalAction('bad_argument')`` unless ``model`` is callable and ``0 < epsilon <= 1``."""
    if not callable(model):
        raise IllegalAction("bad_argument", f"model must be a callable (observation, legal actions) -> action, "
                            f"such as an agent's act, not {arg_text(model)}")
    check_epsilon(epsilon)


def check_epsilon(epsilon: object) -> None:
    """Raise ``IllegalAction('bad_argument')`` unless ``epsilon`` (a choice model's slack) is a number with
    ``0 < epsilon <= 1``."""
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0 < epsilon <= 1:
        raise IllegalAction("bad_argument", f"epsilon must be a number with 0 < epsilon <= 1, not {arg_text(epsilon)}")


def weights_of(logs: Sequence[float]) -> list[float]:
    """Weights summing to 1 from natural-log likelihoods (kept in logs until here: a long history's product
    underflows a float)."""
    top = max(logs)
    raw = [math.exp(log - top) for log in logs]
    total = sum(raw)
    return [w / total for w in raw]


#: What a pickled :class:`Sampler` keeps beside its observation and variant (see ``Sampler.__reduce__``): the
#: pass direction settled and whether it is, the hidden passes refused and accepted, per reading of the first
#: lead kept its leader and (with a stock) its placement's refused, accepted and mixed counts, and the reading
#: in use.
_SamplerState: TypeAlias = tuple[PassDirection | None, bool, int, int,
                                 list[tuple[int | None, tuple[int, int, int] | None]], int | None]


def _placement_counts(placement: _Placement) -> tuple[int, int, int]:
    return placement.refused, placement.accepted, placement.mixed


class Sampler:
    """Draws determinizations for one observation: the history is read once, here.

    >>> import heartslib as hl, random
    >>> v = hl.preset("standard")
    >>> r = hl.Round.deal(v, seed=2)
    >>> sampler = Sampler(r.observation(1), v)
    >>> rng = random.Random(0)
    >>> all(sampler.sample(rng).observation(1) == r.observation(1) for _ in range(3))
    True
    """

    def __init__(self, obs: Observation, variant: Variant | None = None) -> None:
        v = _variant_of(obs, variant)
        self.obs = obs
        self.variant = v
        self.f = _facts(v, obs.penalty_suit)
        self._passing: PassDirection | None = None
        self._passing_known = False
        #: hidden passes refused and accepted under ``passing.keep_last_of_suit``: where most are refused, the
        #: proposal follows the rule (close to uniform rather than exactly; see _Unpass.draw)
        self._unpass_refused = 0
        self._unpass_accepted = 0
        plans: list[_Plan] = []
        problem: ImpossibleHistory | None = None
        for leader in _leader_hypotheses(obs, self.f)[0]:
            try:
                plans.append(_Plan(_Reading(obs, self.f, leader)))
            except ImpossibleHistory as exc:
                problem = problem or exc
        if not plans:
            assert problem is not None
            raise problem
        # with two readings, samples alternate between them until one replays; then it is kept
        self._plans = plans
        self.plan = plans[0]
        rd = plans[0].reading
        self._my_hand = list(rd.hand.elements())
        self._played_lists = [list(p.elements()) for p in rd.played]
        # the public history as actions, built once: only the hidden passes differ between samples
        self._history: list[tuple[Play, str | None]] = []
        for number, trick in enumerate(rd.plays):
            for pos, (seat, c) in enumerate(trick):
                call = None
                if pos == 0 and self.f.suit[c] == NO_SUIT and self.f.joker_lead == JokerLead.CALL_SUIT:
                    led = rd.led_suits[number]
                    call = _SUIT_NAMES[led] if led != NO_SUIT else None
                self._history.append((Play(seat, _CARD[c]), call))

    # copy, deepcopy and pickle (an agent that has played keeps its sampler; simulate deep-copies agents and
    # process pools pickle them). Compiled, loading calls the class (mypyc's __new__ runs __init__), so the
    # observation and the variant are the arguments and the history is read again; the state is what sampling
    # has learnt since: the pass settled, the counts of proposals refused and accepted, and the reading of the
    # first lead kept. Both builds do the same.
    def __reduce__(self) -> tuple[object, tuple[Observation, Variant], _SamplerState]:
        plans = [(p.reading.leader_fixed, None if p.stock is None else _placement_counts(p.stock.placement))
                 for p in self._plans]
        return (Sampler, (self.obs, self.variant),
                (self._passing, self._passing_known, self._unpass_refused, self._unpass_accepted, plans,
                 self.plan.reading.leader_fixed))

    def __setstate__(self, state: _SamplerState) -> None:
        passing, known, refused, accepted, plans, current = state
        self._passing, self._passing_known = passing, known
        self._unpass_refused, self._unpass_accepted = refused, accepted
        counts = dict(plans)
        self._plans = [p for p in self._plans if p.reading.leader_fixed in counts]
        for p in self._plans:
            placed = counts[p.reading.leader_fixed]
            if p.stock is not None and placed is not None:
                p.stock.placement.refused, p.stock.placement.accepted, p.stock.placement.mixed = placed
        self.plan = next(p for p in self._plans if p.reading.leader_fixed == current)

    @property
    def knowledge(self) -> Knowledge:
        """The facts the samples respect (under the reading of the history in use)."""
        return self.plan.reading.knowledge()

    def _deal_hidden(self, rnd: random.Random) -> list[list[int]] | None:
        """The unseen cards dealt into the slots (seats in ``hidden`` order, then the kitty)."""
        plan = self.plan
        copies = plan.copies
        slots = len(plan.slot_need)
        order = list(range(len(copies)))
        _shuffle(order, rnd)
        width = [bin(copies[i][1]).count("1") for i in range(len(copies))]
        order.sort(key=width.__getitem__)
        left = plan.slot_need[:]
        where = [0] * len(copies)
        for i in order:
            mask = copies[i][1]
            total = 0
            for s in range(slots):
                if mask >> s & 1:
                    total += left[s]
            if total == 0:
                return None
            chosen = _weighted_slot([s for s in range(slots) if mask >> s & 1], left, rnd.random() * total)
            left[chosen] -= 1
            where[i] = chosen
        # mix: swap two cards between slots when both may go to the other's slot
        m = len(copies)
        if m > 1 and any(width[i] < slots for i in range(m)):
            for _ in range(3 * m):
                a = int(rnd.random() * m)
                b = int(rnd.random() * m)
                sa, sb = where[a], where[b]
                if sa != sb and copies[a][1] >> sb & 1 and copies[b][1] >> sa & 1:
                    where[a], where[b] = sb, sa
        out: list[list[int]] = [[] for _ in range(slots)]
        for i, s in enumerate(where):
            out[s].append(copies[i][0])
        return out

    # ------------------------------------------------------------------ one sample

    def sample(self, rng: random.Random) -> Round:
        """A :class:`~heartslib.Round` consistent with the observation (see the module docs).

        Raises :class:`ImpossibleHistory` when no deal fits (found at once, by
        counting), and ``RuntimeError`` in the unlikely case that
        :data:`MAX_TRIES` draws were all rejected by the replay.
        """
        return self.draw(rng).round

    def draw(self, rng: random.Random) -> Determinization:
        """Like :meth:`sample`, with the hidden chance outcomes that produced the round: the deal, the
        kitty in dealing order, every seat's pass and a shuffle pass's outcome (what a program that
        models chance itself, such as the OpenSpiel adapter, needs to rebuild its own history).

        >>> import heartslib as hl, random
        >>> v = hl.preset("standard")
        >>> r = hl.Round.deal(v, seed=2)
        >>> d = Sampler(r.observation(0), v).draw(random.Random(1))
        >>> d.dealt[0] == r.hand(0), d.round.hands == d.dealt
        (True, True)
        """
        check_rng(rng, optional=False)
        return self._draw(rng, None)

    def weighted(self, rng: random.Random, model: ChoiceModel, *, worlds: int = 16,
                 epsilon: float = 0.1) -> list[tuple[Determinization, float]]:
        """``worlds`` determinizations drawn as :meth:`draw` draws them, each with its weight: how likely the
        other seats' passes and plays in it are when each seat chooses as ``model`` does, with slack
        ``epsilon`` (see :data:`ChoiceModel`), normalised so the weights sum to 1.

        Uniform draws are exact; weighted ones are choice-aware beliefs, as good as the model is: a seat
        that plays as the model predicts moves the weight onto the deals in which its choices were the
        model's, and ``epsilon`` (0 < epsilon <= 1) keeps a seat that deviates from collapsing the belief (at 1
        the model is not read at all: each choice counts as a uniformly random player's).
        ``docs/search-player.md`` measures the calibration.

        >>> import heartslib as hl, random
        >>> from heartslib.agents import HeuristicAgent
        >>> v = hl.preset("standard")
        >>> m = hl.Match(v, seed=5)
        >>> model = HeuristicAgent(seed=0)
        >>> model.setup(v, 0)
        >>> for _ in range(4 * 3 + 16):
        ...     seat = m.to_act[0]
        ...     m.apply(model.act(m.observation(seat), m.legal_actions(seat)))
        >>> belief = Sampler(m.observation(0), v).weighted(random.Random(1), model.act, worlds=8)
        >>> len(belief), round(sum(w for _, w in belief), 9)
        (8, 1.0)
        """
        check_rng(rng, optional=False)
        check_model(model, epsilon)
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
            raise IllegalAction("bad_argument", f"worlds must be a whole number of at least 1, not {arg_text(worlds)}")
        drawn = [self._draw_scored(rng, model, float(epsilon)) for _ in range(worlds)]
        return [(d, w) for (d, _), w in zip(drawn, weights_of([log for _, log in drawn]), strict=True)]

    def draw_scored(self, rng: random.Random, model: ChoiceModel, *,
                    epsilon: float = 0.1) -> tuple[Determinization, float]:
        """One world drawn as :meth:`draw` draws it, with the natural log of its likelihood under ``model``
        (see :meth:`weighted`; :func:`weights_of` turns a list of them into weights): for a caller that
        draws worlds one at a time and weighs them at the end, as the search player does."""
        check_rng(rng, optional=False)
        check_model(model, epsilon)
        return self._draw_scored(rng, model, float(epsilon))

    def _draw_scored(self, rng: random.Random, model: ChoiceModel, epsilon: float) -> tuple[Determinization, float]:
        like = _Likelihood(model, epsilon, self.plan.reading.me)
        return self._draw(rng, like), like.log

    def draw_weighted(self, rng: random.Random, model: ChoiceModel, *, worlds: int = 16,
                      epsilon: float = 0.1) -> Determinization:
        """One of :meth:`weighted`'s worlds, drawn with its weight (importance resampling): a choice-aware
        determinization."""
        belief = self.weighted(rng, model, worlds=worlds, epsilon=epsilon)
        x = rng.random()
        for d, w in belief:
            x -= w
            if x < 0:
                return d
        return belief[-1][0]  # rounding: the weights sum to 1 within a few ulps

    def _draw(self, rng: random.Random, watch: _Likelihood | None) -> Determinization:
        last: Exception | None = None
        plans = self._plans
        for i in range(MAX_TRIES):
            if len(plans) > 1:
                # the likelier reading alone at first; then both, in turn
                self.plan = plans[0] if i < _PRIMARY_TRIES else plans[i % len(plans)]
            if watch is not None:
                watch.log = 0.0  # a rejected attempt's replay counts for nothing
            try:
                d = self._attempt(rng, watch)
            except _Reject as exc:
                last = exc
                continue
            if len(plans) > 1:
                self._plans = [self.plan]
            return d
        raise RuntimeError(f"no consistent deal found in {MAX_TRIES} draws ({last}); please report this position")

    def _attempt(self, rng: random.Random, watch: _Likelihood | None) -> Determinization:
        rd = self.plan.reading
        obs = self.obs
        n, me = rd.n, rd.me
        stock = self.plan.stock
        if stock is not None:
            # the hands as dealt (after any exchange) and the stock in drawing order
            current, kitty = stock.place(rng)
        else:
            current, kitty = self._current(rng)
        passes: list[list[int] | None] = [None] * n
        shuffle_received: list[list[int]] | None = None
        if rd.exchanged:
            post = current if stock is not None else [current[s] + self._played_lists[s] for s in range(n)]
            world = self._unpass(post, rng)
            if world is None:
                raise _Reject("no hidden pass fits")
            dealt, passes, shuffle_received = world
        else:
            dealt = current
            mine = [c.index for c in obs.passed] if obs.passed is not None else None
            for s in range(n):
                if obs.phase == Phase.PASS and s not in obs.to_act:
                    if s == me:
                        passes[s] = mine
                    else:
                        pool = [c for c in dealt[s] if c not in self.f.forbidden]
                        if len(pool) < obs.pass_count:
                            raise _Reject("too few passable cards")
                        passes[s] = _pick_some(pool, obs.pass_count, rng)
        r = self._replay(dealt, kitty, passes, shuffle_received, rng, watch)

        def cards(items: Sequence[int]) -> tuple[Card, ...]:
            return tuple(_CARD[c] for c in items)

        return Determinization(
            round=r,
            # sorted as indices by the cards' order (sorting the cards compares them through Card.__lt__)
            dealt=tuple(cards(sorted(h, key=card_order.__getitem__)) for h in dealt),
            kitty=cards(kitty),
            passes=tuple(None if p is None else cards(p) for p in passes),
            shuffle_received=None if shuffle_received is None else tuple(cards(x) for x in shuffle_received),
        )

    def _current(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Without a stock: the hands now and the kitty in dealing order."""
        me = self.plan.reading.me
        dealt_now = self._deal_hidden(rng)
        if dealt_now is None:
            raise _Reject("dead end while dealing")
        # hands as plain lists of card indices (copies repeat): cheaper than Counters on this path
        current: list[list[int]] = [[] for _ in range(self.plan.reading.n)]
        current[me] = self._my_hand
        for i, s in enumerate(self.plan.hidden):
            current[s] = dealt_now[i] + self.plan.known_lists[s]
        kitty_free = dealt_now[-1]
        _shuffle(kitty_free, rng)
        return current, self._kitty_order(kitty_free)

    def _kitty_order(self, free: list[int]) -> list[int]:
        """The kitty in dealing order: the cards this seat took and saw keep their places."""
        rd = self.plan.reading
        if not rd.kitty_seen:
            return free
        positions = self._seen_positions()
        fixed = dict(zip(positions, rd.kitty_seen, strict=True))
        rest = free[:]
        return [fixed[i] if i in fixed else rest.pop() for i in range(self.f.kitty_size)]

    def _seen_positions(self) -> list[int]:
        """Where in the kitty the cards this seat saw were: kitty cards go out from the front, as the
        variant's kitty rule hands them to the tricks' winners."""
        f, obs = self.f, self.obs
        left = f.kitty_size
        pos = 0
        out: list[int] = []
        tricks = obs.tricks
        end = not any(obs.hand_sizes)
        for i, t in enumerate(tricks):
            if not left:
                break
            last = end and i == len(tricks) - 1
            number = t.number
            if f.kitty_mode == KittyMode.FIRST_TRICK:
                due = left if (number == 0 or last) else 0
            elif f.kitty_mode == KittyMode.ONE_PER_TRICK:
                due = left if last else 1
            else:
                due = 1 if (number == 0 and not last) else (left if last else 0)
            if due:
                taker = t.winner if t.winner is not None else (t.leader if last else None)
                if taker == obs.seat:
                    out.extend(range(pos, pos + due))
                pos += due
                left -= due
        if len(out) != len(self.plan.reading.kitty_seen):
            # the observation alone decides both counts: no other deal would do
            raise ImpossibleHistory(f"seat {obs.seat} saw {len(self.plan.reading.kitty_seen)} kitty card(s), but "
                                    f"the tricks it won bring it {len(out)}")
        return out

    def _unpass(self, post: list[list[int]], rng: random.Random
                ) -> tuple[list[list[int]], list[list[int] | None], list[list[int]] | None] | None:
        """The dealt hands, the passes and (shuffle pass) what each seat drew, for the holdings ``post``."""
        obs = self.obs
        d = obs.passing
        if obs.pass_count == 0 or d == HOLD:
            return post, [None] * self.plan.reading.n, None
        keep = self.f.keep
        follow = keep is not None and self._unpass_refused >= _EXACT_TRIES and (
            self._unpass_refused >= 8 * self._unpass_accepted)
        u = _Unpass(obs, self.f, post, rng, follow)
        if isinstance(d, Offset):
            done = u.offset(d.k)
        elif d in (SCATTER, STAR):
            done = u.ordered(1 if d == SCATTER else 2)
        elif d == SHUFFLE:
            done = u.shuffle()
        else:  # pragma: no cover - a dealer's choice names one of the above
            done = False
        if not done:
            return None
        dealt: list[list[int]] = []
        for seat in range(u.n):
            hand = post[seat][:]
            for c in u.recv[seat]:
                hand.remove(c)
            hand += u.passes[seat] or ()
            dealt.append(hand)
        if keep is not None:
            # the suit-keeping rule judged here, as the replay would, before the costly replay
            me, k = obs.seat, obs.pass_count
            if any(p is not None and s != me and pass_problem(s, dealt[s], p, k, frozenset(), keep) is not None
                   for s, p in enumerate(u.passes)):
                self._unpass_refused += 1
                return None
            self._unpass_accepted += 1
        return dealt, u.passes, (u.recv if d == SHUFFLE else None)

    def _replay(self, dealt: list[list[int]], kitty: list[int], passes: list[list[int] | None],
                shuffle_received: list[list[int]] | None, rng: random.Random,
                watch: _Likelihood | None = None) -> Round:
        """The round dealt ``dealt`` (and ``kitty``) with the observed history replayed on it: the passes
        ``passes`` (``shuffle_received``: a shuffle pass's receipts), the decisions and the plays, each action
        shown to ``watch`` first. Raises :class:`_Reject` where this deal cannot have happened and
        :class:`ImpossibleHistory` where no deal can have."""
        try:
            r = self._dealt_round(dealt, kitty, rng)
            if r.phase == Phase.DECIDE and r.decision == "pass" and not (
                self.obs.phase == Phase.DECIDE and self.obs.decision == "pass"
            ):
                self._choose_pass(r)
            if r.phase == Phase.PASS:
                self._replay_passes(r, passes, shuffle_received, watch)
            if r.phase == Phase.DECIDE and r.decision in (Decision.BID, Decision.NAME):
                _replay_auction(r, self.obs)
            if r.phase == Phase.DECIDE and r.decision == Decision.EXPOSE:
                self._expose(r)
            self._replay_plays(r, watch)
            if r.phase == Phase.DECIDE and r.decision == "moon" and self.obs.phase == Phase.OVER:
                r = self._moon_as_seen(r)
        except ImpossibleHistory:
            raise
        except ValueError as exc:  # IllegalAction, CardError: this deal cannot have happened
            raise _Reject(str(exc)) from None
        self._check_replayed(r)
        return r

    def _dealt_round(self, dealt: list[list[int]], kitty: list[int], rng: random.Random) -> Round:
        """The round as dealt, with the observed hand's dealer, pass direction, number, totals and leader."""
        obs, v = self.obs, self.variant
        hands = [[_CARD[c] for c in h] for h in dealt]
        seed = int(rng.random() * 2**53)
        chips, namer = _auction_start(obs)
        leader = self.plan.reading.leader_fixed if chips is None else None  # an auction's: the bids name it
        r = Round.from_hands(v, hands, dealer=obs.dealer, passing=self._passing, kitty=[_CARD[c] for c in kitty],
                             hand_number=obs.hand_number, scores=obs.scores, seed=seed, leader=leader,
                             chips=chips, bidder=namer)
        if not self._passing_known:
            self._settle_passing(r)
            if self._passing is not None:
                r = Round.from_hands(v, hands, dealer=obs.dealer, passing=self._passing,
                                     kitty=[_CARD[c] for c in kitty], hand_number=obs.hand_number,
                                     scores=obs.scores, seed=seed, leader=leader, chips=chips, bidder=namer)
        return r

    def _replay_passes(self, r: Round, passes: list[list[int] | None], shuffle_received: list[list[int]] | None,
                       watch: _Likelihood | None) -> None:
        """Apply each seat's pass of ``passes`` to ``r`` (a shuffle pass's receipts scripted before the last)."""
        me = self.plan.reading.me
        order = [s for s in range(self.plan.reading.n) if passes[s] is not None]
        for i, s in enumerate(order):
            if shuffle_received is not None and i == len(order) - 1:
                r.script_shuffle_pass([[_CARD[c] for c in got] for got in shuffle_received])
            cards = passes[s]
            assert cards is not None
            action = Pass(s, tuple(_CARD[c] for c in cards))
            if watch is not None:
                watch(r, action)
            try:
                r.apply(action)
            except IllegalAction as exc:
                # this seat's own pass from its own hand as dealt (known): no deal makes it legal
                if s == me and exc.code != "script_mismatch":
                    raise ImpossibleHistory(f"seat {me}'s own pass cannot have been made under the rules "
                                            f"of {self.variant.name!r}: {exc}") from None
                raise

    def _replay_plays(self, r: Round, watch: _Likelihood | None) -> None:
        """Apply the observed plays (and the decisions they called for) to ``r``."""
        me = self.plan.reading.me
        apply = r.apply
        for i, (play, call) in enumerate(self._history):
            if watch is not None:
                watch(r, play)
            try:
                apply(play)
            except IllegalAction as exc:
                # Past the first lead (whose leader and card may hang on the kitty), a refusal of whose
                # turn it is, or of this seat's own play (its hand at each moment is known), refuses
                # every deal: the history is impossible, not this sample
                if i and (exc.code in _PUBLIC_REFUSALS or play.seat == me):
                    raise ImpossibleHistory(f"the tricks cannot have been played under the rules of "
                                            f"{self.variant.name!r}: {exc}") from None
                raise
            if call is not None and r.phase == Phase.DECIDE:
                apply(Choose(play.seat, call))

    def _moon_as_seen(self, r: Round) -> Round:
        """``r`` after the moon decision that gives the points observed (``r`` itself if none does)."""
        for a in r.legal_actions():
            trial = r.copy()
            trial.apply(a)
            if trial.points == self.obs.round_points:
                return trial
        return r

    def _check_replayed(self, r: Round) -> None:
        """Reject ``r`` unless this seat's observation of it is the one observed (an impossible history where
        the difference is one no deal can mend)."""
        obs = self.obs
        seen = r.observation(self.plan.reading.me)
        if seen != obs:
            stock = self.plan.stock is not None
            problem = _fixed_difference(obs, seen, self.plan.reading.kitty_need > 0 or stock, stock)
            if problem is not None:
                raise ImpossibleHistory(f"{problem} (replaying the history under the rules of "
                                        f"{self.variant.name!r})")
            raise _Reject("the replayed observation differs")

    def _settle_passing(self, r: Round) -> None:
        """Whether the hand's pass direction is the schedule's (then ``from_hands`` finds it) or was set."""
        obs = self.obs
        self._passing_known = True
        if r.phase == Phase.DECIDE and r.decision == "pass":
            return  # a dealer's choice: replayed by _choose_pass
        if r.passing != obs.passing or r.pass_count != obs.pass_count:
            self._passing = obs.passing
        if obs.passing == DEALERS_CHOICE:
            self._passing = None

    def _expose(self, r: Round) -> None:
        """Replay the exposure decisions the observation has seen (each seat's exposed cards, or none)."""
        obs = self.obs
        waiting = obs.to_act if obs.phase == Phase.DECIDE and obs.decision == Decision.EXPOSE else ()
        while r.phase == Phase.DECIDE and r.decision == Decision.EXPOSE and r.to_act != waiting:
            (seat,) = r.to_act
            shown = {card.code for by, card in zip(obs.exposed_by, obs.exposed, strict=True) if by == seat}
            for option in r.options:
                if set(option.split()) == shown or (option == "none" and not shown):
                    r.apply(Choose(seat, option))
                    break
            else:
                raise _Reject(f"seat {seat} cannot expose {' '.join(sorted(shown))} in this deal")

    def _choose_pass(self, r: Round) -> None:
        obs = self.obs
        for a in r.legal_actions():
            trial = r.copy()
            trial.apply(a)
            if trial.passing == obs.passing and trial.pass_count == obs.pass_count:
                r.apply(a)
                return
        raise ImpossibleHistory(f"the dealer's choice offers no pass {obs.pass_count} {obs.passing}")


@attrs.frozen
class Determinization:
    """One sample of the hidden world (see :meth:`Sampler.draw`): the round and the chance outcomes behind it."""

    round: Round
    """The complete round, its public history replayed: ``round.observation(seat)`` is the observation."""
    dealt: tuple[tuple[Card, ...], ...]
    """Each seat's hand as dealt, before the pass (sorted)."""
    kitty: tuple[Card, ...]
    """The kitty in dealing order (kitty cards are handed out from the front)."""
    passes: tuple[tuple[Card, ...] | None, ...]
    """What each seat passed, in order (scatter and star passes name receivers by position); None for a seat
    that has not passed, and for every seat when nobody passes."""
    shuffle_received: tuple[tuple[Card, ...], ...] | None
    """With a shuffle pass already exchanged: what each seat drew from the pile; None otherwise."""


class _Reject(Exception):
    """A drawn deal the replay refused (internal: the sampler draws again)."""


#: Refusals of a play that no deal changes: whose turn it is, or whether cards are being played at all.
_PUBLIC_REFUSALS: Final = frozenset({"not_your_turn", "not_playing", "round_over", "no_such_seat"})


#: The fields of a replayed observation that the kitty's unseen cards can change (through their points: the
#: round's points, who shot the moon and so the phase and the decision) or, before the first lead, the opening
#: card hidden in it (the leader, and so who has been asked to expose cards so far). Every other field follows
#: from the plays and this seat's own cards.
_KITTY_FIELDS: Final = ("round_points", "phase", "to_act", "decision", "options", "leader", "exposed", "exposed_by")


def _fixed_difference(obs: Observation, seen: Observation, kitty_hidden: bool, stock: bool = False) -> str | None:
    """What ``obs`` says against ``seen`` (the same seat's observation once the engine has replayed the same
    history on a drawn deal) in the fields no other deal could change; None when they agree.

    Other seats' hidden cards never show in this seat's observation, only in whether the replay is legal, so
    a replay that went through gives every field but :data:`_KITTY_FIELDS` (and those too when no unseen
    card is in the kitty, ``kitty_hidden`` false) the value every deal would give: a difference there
    means no deal explains the observation.
    """
    if len(obs.tricks) != len(seen.tricks):
        return f"{len(obs.tricks)} tricks are complete, but their plays make {len(seen.tricks)}"
    for said, found in zip(obs.tricks, seen.tricks, strict=True):
        if said.winner != found.winner:
            return (f"trick {found.number} was won by {_seat_text(found.winner)}, not by "
                    f"{_seat_text(said.winner)} as the observation says")
        if said != found:
            field = next(f.name for f in attrs.fields(Trick) if getattr(said, f.name) != getattr(found, f.name))
            return (f"trick {found.number}: the observation says {field} {getattr(said, field)!r}, the plays "
                    f"give {getattr(found, field)!r}")
    if obs.tricks_won != seen.tricks_won:
        return f"tricks_won is {obs.tricks_won}, but the tricks give {seen.tricks_won}"
    if obs.hearts_broken != seen.hearts_broken:
        return ("hearts_broken is True, but no card played has broken hearts" if obs.hearts_broken else
                "hearts_broken is False, but the cards played have broken hearts")
    # once a card is played and until the last trick, the kitty can change none of them: the leader and the
    # exposures were settled by the first lead, whose turn it is follows from the plays (and, with a stock, from
    # the draws, where the drawn deal agrees on them), and the points and the moon's decision wait for the hand's
    # end: an edited to_act or exposed is named as such, not found out by draws that all fail
    # The pass comes before both: nothing in it hangs on the kitty (who has passed is the observation's word)
    settled = obs.phase is Phase.PASS or (seen.phase == Phase.PLAY and bool(seen.tricks or seen.trick) and not (
        stock and any(getattr(obs, field) != getattr(seen, field) for field in _STOCK_FIELDS)))
    for field in _OBSERVATION_FIELDS:
        if (kitty_hidden and field in _KITTY_FIELDS and not settled) or (stock and field in _STOCK_FIELDS):
            continue
        claimed, actual = getattr(obs, field), getattr(seen, field)
        if claimed != actual:
            return f"the observation says {field} {claimed!r}, the history gives {actual!r}"
    return None


#: With a stock, the fields a drawn deal may also change: in Domino Hearts a seat to act that has not drawn
#: holds a card of the suit led, which no slot's mask says (the replay rejects a world where it holds none).
_STOCK_FIELDS: Final = ("hand_sizes", "stock_size", "draws")

#: The fields of an observation in the order a difference is reported: the rules' own facts first.
_OBSERVATION_FIELDS: Final = tuple(f.name for f in attrs.fields(Observation))


def _seat_text(seat: int | None) -> str:
    return "nobody (cancelled)" if seat is None else f"seat {seat}"


def sample_round(obs: Observation, rng: random.Random, *, variant: Variant | None = None) -> Round:
    """A complete :class:`~heartslib.Round` that ``obs.seat`` cannot tell from the true one.

    Hidden hands (and the kitty, hidden passes, the shuffle pass) are drawn
    among the deals consistent with everything the seat knows, and the public
    history is replayed on them, so ``sample_round(obs, rng,
    variant=v).observation(obs.seat) == obs``. Only ``rng.random()`` is used,
    so the same seed gives the same sample on every Python version.

    ``variant`` gives the rules (the observation does not repeat them). To
    draw many samples for one observation, build a :class:`Sampler` once.
    Raises :class:`ImpossibleHistory` (a ``ValueError``) when no deal is
    consistent with the observation (a seat that plays twice to a trick, an edited ``to_act`` or
    ``exposed``: at once), :class:`~heartslib.IllegalAction` (``bad_argument``) when ``obs`` is not an
    :class:`~heartslib.Observation`, and ``RuntimeError`` when :data:`MAX_TRIES`
    draws were all rejected by the replay: a consistent deal exists but is
    too rare among the proposals. Every preset's observations are drawn
    (tested). Hidden passes under ``passing.keep_last_of_suit`` are first
    drawn uniformly and refused when they break the rule; where most are
    refused (an eight-player table dealt six cards each from a stock) the
    proposal follows the rule instead, close to uniform rather than exactly.
    """
    return Sampler(obs, variant).sample(rng)

