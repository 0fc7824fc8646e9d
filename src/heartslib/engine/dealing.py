"""Dealing and passing: the shuffle, who gets each dealt card, the start of a round, the exchange of passes.

The engine's only randomness is the shuffle (:func:`shuffled`), used for the
deal and for a shuffle pass's pile. Who receives each position of a shuffled
pack or pile is fixed by the rules (:func:`deal_seats`, :func:`pile_seats`),
so a program that chooses the order itself (an OpenSpiel chance node, a
determinizing search) gets exactly the deal it asked for:
:meth:`heartslib.Round.deal` takes an ``order``, and
:meth:`heartslib.Round.script_shuffle_pass` fixes a shuffle pass's outcome.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Final

from heartslib.actions import PassesExchanged
from heartslib.engine import auction
from heartslib.engine.args import check_hand_number, check_scores, check_seat
from heartslib.engine.legality import pass_impossible
from heartslib.engine.rules import Rules
from heartslib.engine.state import RoundState, give, take
from heartslib.engine.tables import C0, CARD, CODE, D0, ORDER
from heartslib.engine.tricks import begin_play
from heartslib.engine.values import pass_size
from heartslib.enums import (
    DEALERS_CHOICE,
    HOLD,
    SCATTER,
    SHUFFLE,
    STAR,
    Decision,
    Offset,
    PassDirection,
    PassMode,
    Phase,
    Settlement,
    pass_word,
)
from heartslib.errors import CardError, IllegalAction, VariantError, arg_text
from heartslib.points import Score
from heartslib.variant import Variant

__all__ = [
    "canonical",
    "check_pack",
    "choose_pass",
    "deal_order",
    "deal_seats",
    "dealers_choice_options",
    "exchange",
    "pile_seats",
    "script_problem",
    "shuffled",
    "sort_hand",
    "start",
]


def shuffled(items: Sequence[int], rng: random.Random) -> list[int]:
    """A Fisher–Yates shuffle built only on ``rng.random()``.

    Python promises ``random()`` is the same on every version and platform
    for a given seed (``shuffle`` and ``randrange`` are not promised), so
    deals are reproducible everywhere.
    """
    out = list(items)
    draw = rng.random  # bound once: compiled, a method call looks the method up on each draw
    for i in range(len(out) - 1, 0, -1):
        j = int(draw() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def sort_hand(cards: list[int]) -> None:
    """Sort card indices in hand order, in place."""
    # the indices are numbered in hand order but for the zero jokers (0♣ and 0♦ sort first in their suits;
    # the suitless joker, the highest index, sorts last either way): a plain sort of ints, list.sort's
    # fastest compare, is a sixth of the cost of a keyed one
    cards.sort()
    if cards and cards[-1] >= C0 and (C0 in cards or D0 in cards):
        cards.sort(key=ORDER.__getitem__)


def deal_seats(rules: Rules, dealer: int) -> tuple[int, ...]:
    """The seat each position of a shuffled pack goes to (-1 for the kitty): one card at a time from the
    dealer's left in the direction of play, the cards left over to the kitty (worked out when the variant
    compiled: :func:`heartslib.engine.values.dealing_order`)."""
    return rules.deal_seats[dealer]


def pile_seats(rules: Rules, dealer: int, per_seat: int) -> tuple[int, ...]:
    """The receiver of each position of a shuffle pass's shuffled pile: ``per_seat`` cards to each seat in
    turn from the dealer's left."""
    n = rules.players
    return tuple((dealer + rules.step * (1 + i // per_seat)) % n for i in range(n * per_seat))


def check_pack(rules: Rules, hands: Sequence[Sequence[int]], kitty: Sequence[int]) -> None:
    """Raise :class:`~heartslib.CardError` unless the hands and kitty are exactly the variant's pack."""
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            raise CardError(f"hand {seat} has {len(hand)} cards; this variant deals {rules.hand_size}")
    if len(kitty) != rules.kitty_size:
        raise CardError(f"the kitty has {len(kitty)} cards; this variant leaves {rules.kitty_size}")
    dealt = Counter(chain.from_iterable(hands))
    dealt.update(kitty)
    if not dict.__eq__(dealt, rules.counts):  # as dicts: Counter's own == walks both in Python
        missing = rules.counts - dealt
        extra = dealt - rules.counts
        parts = []
        if missing:
            parts.append("missing " + " ".join(CODE[c] for c in sorted(missing.elements())))
        if extra:
            extras = " ".join(CODE[c] for c in sorted(extra.elements()))
            parts.append("not in the pack (or too many copies) " + extras)
        raise CardError("the hands and kitty are not this variant's pack: " + "; ".join(parts))


def canonical(offset: Offset, n: int) -> PassDirection:
    """One spelling per direction: 0 is HOLD, then 1..n//2 to the left, -1.. to the right."""
    k = offset.k % n
    if k == 0:
        return HOLD
    k = k - n if k > n // 2 else k
    return offset if k == offset.k else Offset(k)  # the schedule's offsets are canonical: no new value a deal


def start(
    v: Variant,
    hands: list[list[int]],
    kitty: list[int],
    *,
    dealer: int,
    hand_number: int,
    passing: PassDirection | str | None,
    scores: Sequence[Score] | None,
    rng: random.Random | None,
    leader: int | None,
    check: bool = True,
    chips: Sequence[int] | None = None,
    bidder: int | None = None,
) -> RoundState:
    """A round's state at its start, from a deal of card indices (checked by the caller), with the
    arguments programs give checked here. ``chips`` and ``bidder`` are an auction's (:mod:`heartslib.engine.auction`):
    each seat's chips, and the seat that names the suit without bidding after a deal nobody won."""
    rules = v.rules
    n = v.players
    hand_number = check_hand_number(hand_number)
    score_tuple = check_scores(scores, n)
    if leader is not None:
        check_seat(leader, n, "leader")
        if rules.auction:  # a leader the round would not read
            raise IllegalAction("bad_argument", f"leader={leader}: in an auction (scoring.settlement = \"auction\") "
                                "the bid's winner leads the first trick; give no leader")
    chip_tuple = check_auction(v, chips, bidder)
    for h in hands:
        sort_hand(h)
    explicit = passing is not None
    if passing is None:
        passing = rules.schedule[hand_number % len(rules.schedule)]
    if isinstance(passing, str) and not isinstance(passing, PassMode):
        try:  # a schedule's word, as a rules file writes it ("left", "across", "left-2", "hold"): a mode's word
            passing = pass_word(passing, n)  # gives its member, one object per mode, compared by identity from here
        except (VariantError, ValueError):
            raise IllegalAction("bad_argument", f"{passing!r} is not a pass direction: Offset(k), HOLD, SCATTER, "
                                "..., or a rules file's word (\"left\", \"right\", \"across\" at an even table, "
                                "\"left-2\", \"hold\")") from None
    if not isinstance(passing, Offset | PassMode):
        raise IllegalAction("bad_argument", f"{passing!r} is not a pass direction (Offset(k), HOLD, SCATTER, ...)")
    if isinstance(passing, Offset):
        passing = canonical(passing, n)
    if rules.auction and passing is not HOLD:
        raise IllegalAction("bad_argument", f"passing={passing!r}: an auction's hands are not passed (HOLD)")
    # the schedule's passes fit every deal (the variant's checks); a pass given here must fit this one
    if explicit and check:
        why = pass_impossible(rules, hands, passing, pass_size(passing, rules.pass_cards, n))
        if why is not None:
            raise IllegalAction("bad_argument", f"passing={passing!r} is impossible with this deal: {why}")
    s = RoundState.start(v, rules, hands, list(kitty), dealer=dealer, hand_number=hand_number, scores=score_tuple,
                   lead=-1 if leader is None else leader, passing=passing,
                   pass_size=pass_size(passing, rules.pass_cards, n), rng=rng, phase=Phase.PASS)
    if rules.auction:
        auction.begin(s, chip_tuple, -1 if bidder is None else bidder)
    elif passing is DEALERS_CHOICE:
        s.phase = Phase.DECIDE
        s.decision = (Decision.PASS, dealer, dealers_choice_options(n, rules.pass_cards))
    elif passing is HOLD:
        begin_play(s)
    return s


#: The most chips a seat may hold in an auction: every chip of the largest table at the most each may start with
#: (11 seats of ``scoring.chips`` <= 1,000). A bid is listed for every count up to the bidder's chips, so a
#: million would list a million actions and a match would never end.
MAX_CHIPS: Final = 11_000


def check_auction(v: Variant, chips: Sequence[int] | None, bidder: int | None) -> tuple[int, ...]:
    """An auction's arguments checked (each seat's chips, at least 1 each: the match ends before a seat has
    none; the seat naming without bidding), with the chips to use: the variant's ``scoring.chips`` each when
    not given. Outside an auction both must be None."""
    n = v.players
    if v.scoring.settlement != Settlement.AUCTION:
        if chips is not None or bidder is not None:
            raise IllegalAction("bad_argument", "chips and bidder are an auction's (scoring.settlement = "
                                f"\"auction\"); this variant settles {v.scoring.settlement.value!r}")
        return ()
    if bidder is not None:
        check_seat(bidder, n, "bidder")
    if chips is None:
        return (v.scoring.chips,) * n
    # each item read as an object: compiled, a float among ints would be a TypeError where it is unboxed
    items: tuple[object, ...] = () if isinstance(chips, str) or not isinstance(chips, Sequence) else tuple(chips)
    whole = [c for c in items if isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= MAX_CHIPS]
    if len(items) != n or len(whole) != n:
        raise IllegalAction("bad_argument", f"chips must be {n} whole numbers from 1 to {MAX_CHIPS} (each "
                            f"seat's chips), not {arg_text(chips)}")
    return tuple(whole)


def dealers_choice_options(n: int, pass_cards: int) -> tuple[str, ...]:
    """A dealer's choice: ``"hold"`` or ``"<cards> <direction>"`` for 1..``pass_cards`` cards, every offset."""
    names = [Offset(k).name(n) for k in range(1, n)]
    return ("hold", *(f"{count} {name}" for count in range(1, pass_cards + 1) for name in names))


def choose_pass(s: RoundState, option: str) -> None:
    """Carry out the dealer's choice ``option`` (one of :func:`dealers_choice_options`)."""
    if option == "hold":
        s.passing = HOLD
        s.pass_size = 0
        begin_play(s)
        return
    count_text, _, name = option.partition(" ")
    k = next(k for k in range(1, s.n) if Offset(k).name(s.n) == name)
    s.passing = canonical(Offset(k), s.n)
    s.pass_size = int(count_text)
    s.phase = Phase.PASS


def script_problem(s: RoundState, pile: Sequence[int]) -> str | None:
    """Why the scripted outcome (:attr:`RoundState.scripted`) cannot be what the shuffle pass of ``pile``
    hands out, or None (checked when the last pass is chosen, before anything changes)."""
    received = s.scripted or ()
    if len(received) != s.n or any(len(r) != s.pass_size for r in received):
        return f"a shuffle pass gives each of the {s.n} seats {s.pass_size} {'card' if s.pass_size == 1 else 'cards'}"
    given = Counter(c for r in received for c in r)
    if given != Counter(pile):
        cards = " ".join(CODE[c] for c in sorted((given - Counter(pile)).elements()))
        return f"{cards} not among the cards passed" if cards else "cards passed are missing from it"
    return None


def exchange(s: RoundState) -> None:
    """Every seat has chosen: move the passed cards, then begin play."""
    n = s.n
    step = s.rules.step
    passes: list[tuple[int, ...]] = [p for p in s.passes if p is not None]
    received: list[list[int]] = [[] for _ in range(n)]
    d = s.passing
    if d is SHUFFLE:
        if s.scripted is not None:
            received = [list(r) for r in s.scripted]
        else:
            pool = shuffled([c for p in passes for c in p], s.generator())
            for i, seat in enumerate(pile_seats(s.rules, s.dealer, s.pass_size)):
                received[seat].append(pool[i])
    else:
        # how many seats on each card of a pass goes (the direction read once, not once a card)
        if d is SCATTER:
            ks = [i + 1 for i in range(s.pass_size)]
        elif d is STAR:
            ks = [i + 2 for i in range(s.pass_size)]
        else:
            assert isinstance(d, Offset)
            ks = [d.k] * s.pass_size
        for seat, cards in enumerate(passes):
            for i, c in enumerate(cards):
                received[(seat + step * ks[i]) % n].append(c)
    for seat in range(n):
        for c in passes[seat]:
            take(s, seat, c)
    for seat in range(n):
        give(s, seat, received[seat])
        sort_hand(received[seat])
    s.received = [tuple(r) for r in received]
    s.events.append(PassesExchanged(tuple([tuple([CARD[c] for c in r]) for r in received])))
    begin_play(s)


def deal_order(
    v: Variant, order: Sequence[int], dealer: int, *, check: bool = True
) -> tuple[list[list[int]], list[int]]:
    """The hands and kitty dealt from a shuffled pack ``order`` (card indices, a permutation of the pack;
    ``check=False`` for an order that is one, such as :func:`shuffled`'s)."""
    rules = v.rules
    if check and Counter(order) != rules.counts:
        raise CardError(f"a deal order holds every card of the pack once per copy; got {len(order)} cards "
                        f"for a pack of {len(rules.pack)}" + ("" if len(order) != len(rules.pack) else
                                                              ", not the pack's cards"))
    hands: list[list[int]] = [[] for _ in range(v.players)]
    kitty: list[int] = []
    seats = deal_seats(rules, dealer)  # as long as the pack, so as the order (checked, or shuffled from it)
    for i, card in enumerate(order):  # not zip(strict=True): a keyword call, dear in the compiled build
        seat = seats[i]
        (kitty if seat < 0 else hands[seat]).append(card)
    return hands, kitty

