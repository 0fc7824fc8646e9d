"""Auction Hearts' decisions (``scoring.settlement = "auction"``; Bicycle's rules, RULES.md section 11).

After the deal each player, once, from eldest hand round to the dealer,
bids chips for the right to name the penalty suit (a ``Choose`` of
``"pass"`` or a number higher than the highest bid so far, at most the
bidder's chips and ``scoring.max_bid``). The highest bidder names the suit
(``"clubs"``, ``"diamonds"``, ``"hearts"`` or ``"spades"``) and leads; from
then on the hand is played by that suit's rules
(:meth:`heartslib.engine.rules.Rules.for_suit`). After a deal whose pot
nobody won the match deals again with the last auction's winner named
(``bidder``): that seat names the suit without bidding. What the pot pays
is the match's business (:func:`heartslib.settlement.auction_pot`).

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

from heartslib.engine.state import RoundState
from heartslib.engine.tables import BID_DECISION, DECIDE, NAME_DECISION, SUIT_NAMES
from heartslib.engine.tricks import begin_play

__all__ = ["begin", "bid", "bid_options", "highest_bid", "name_suit"]

#: The option that declines to bid.
PASS_BID = "pass"


def begin(s: RoundState, chips: tuple[int, ...], bidder: int) -> None:
    """Open a dealt hand: the bidding from eldest hand, or (``bidder`` >= 0, after a deal nobody won) that
    seat naming the suit without bidding. ``chips``: each seat's chips, which bound its bid."""
    s.chips = chips
    s.phase = DECIDE
    if bidder >= 0:
        s.bidder = bidder
        s.decision = (NAME_DECISION, bidder, SUIT_NAMES)
        return
    eldest = (s.dealer + s.rules.step) % s.n
    s.decision = (BID_DECISION, eldest, bid_options(s, eldest))


def highest_bid(bids: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """The highest bid so far as (seat, chips), or (-1, 0) before any (each bid tops the last: one seat)."""
    best = (-1, 0)
    for seat, amount in bids:
        if amount > best[1]:
            best = (seat, amount)
    return best


def bid_options(s: RoundState, seat: int) -> tuple[str, ...]:
    """What ``seat`` may bid now: ``"pass"`` and each amount above the highest bid up to its limit (its chips,
    and ``scoring.max_bid`` when set). The dealer, last to speak after every other seat passed, must bid: a
    hand always has a bidder to name the suit and lead (the sources are silent; RULES.md's decision)."""
    best = highest_bid(s.bids)[1]
    limit = s.chips[seat]
    most = s.rules.max_bid
    if most:
        limit = min(limit, most)
    amounts = tuple(str(k) for k in range(best + 1, limit + 1))
    if best == 0 and len(s.bids) == s.n - 1 and amounts:
        return amounts
    return (PASS_BID, *amounts)


def bid(s: RoundState, seat: int, option: str) -> None:
    """``seat`` bid ``option`` (one of :func:`bid_options`); the next seat bids, or the highest bidder names the
    suit once every seat has spoken."""
    s.bids = (*s.bids, (seat, 0 if option == PASS_BID else int(option)))
    if len(s.bids) < s.n:
        nxt = (seat + s.rules.step) % s.n
        s.decision = (BID_DECISION, nxt, bid_options(s, nxt))
        return
    winner = highest_bid(s.bids)[0]
    s.bidder = winner
    s.decision = (NAME_DECISION, winner, SUIT_NAMES)


def name_suit(s: RoundState, option: str) -> None:
    """The bidder named the suit ``option`` (one of ``SUIT_NAMES``): the hand's rules become that suit's, and the
    bidder leads the first trick."""
    named = SUIT_NAMES.index(option)
    s.named = named
    s.rules = s.rules.for_suit(named)
    s.memo = -1
    s.lead = s.bidder
    begin_play(s)
