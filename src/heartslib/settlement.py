"""Foster's counter settlements: turning a round's penalty points into counters.

R. F. Foster (1909) has players start with a stock of counters (50 or 100)
and settle each deal through a central pool, in one of two ways (seed 000,
"Scoring"; RULES.md section 6):

* :func:`sweepstake` - everyone pays one counter per heart taken (the black
  lady counts as thirteen hearts); the pool goes to whoever took no penalty
  points at all, split evenly with odd counters staying put; if everyone took
  some, the whole pool stays as the "jack" for the next deal.
* :func:`howell` - everyone pays *per opponent* as many counters as the
  points they took, then claims as many as they did *not* take
  (``total`` minus their own points), which exhausts the pool.

Both take the points each seat took in one round, as non-negative ints in
seat order. These should be the points the penalty cards taken actually
scored (each heart 1, the black lady 13, or the variant's own values), *before*
any shoot-the-moon adjustment: Foster's scheme has no moon, and a
moon-adjusted score (shooter 0, others 26) would reward the shooter as if
they had taken nothing.

A variant can settle every hand of a match this way itself: with
``scoring.settlement = "sweepstake"`` or ``"howell"`` (the ``foster_1909``
preset uses the sweepstake), :attr:`heartslib.Match.counters` keeps each
seat's net counters, :attr:`heartslib.Match.pool` the sweepstake's jack, and
each :class:`heartslib.RoundResult` its hand's result.

Hoyle settles once, after the match, :func:`around_average`: each player whose
total is above the average pays the difference into the pot and each player
below it collects theirs. It reads only the final totals, so it is called on a
finished match's :attr:`heartslib.Match.scores` rather than chosen by a variant
field (it changes nothing in play or in the totals).

>>> howell([14, 5, 4, 3]).net
(-30, 6, 10, 14)
>>> sweepstake([0, 10, 13, 3]).received
(26, 0, 0, 0)
>>> around_average([20, 48, 100, 72]).net
(Fraction(40, 1), Fraction(12, 1), Fraction(-40, 1), Fraction(-12, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "AuctionResult", "AverageResult", "HowellResult", "SweepstakeResult", "around_average", "auction_pot", "howell",
    "sweepstake",
]

_MIN_PLAYERS = 2


@dataclass(frozen=True, slots=True)
class SweepstakeResult:
    """The counters moved by one deal settled by Foster's sweepstake method.

    Attributes, per seat in the order the points were given:

    * ``paid`` - counters the seat paid into the pool (``stake`` per point).
    * ``received`` - counters the seat took out of the pool.
    * ``net`` - ``received - paid``: the change to the seat's stock.

    And for the table:

    * ``winners`` - seats that took no points and so shared the pool
      (empty when nobody did).
    * ``pot`` - counters in the pool before it was shared: the carried-in
      pool plus everything paid this deal.
    * ``carry`` - counters left in the pool for the next deal: odd counters
      after an uneven split, or the whole pot (the "jack") when nobody won.

    Counters are conserved: ``pot == sum(paid) + pool_in`` and
    ``pot == sum(received) + carry``.

    >>> r = sweepstake([0, 0, 0, 26])
    >>> r.winners, r.received, r.carry
    ((0, 1, 2), (8, 8, 8, 0), 2)
    """

    paid: tuple[int, ...]
    received: tuple[int, ...]
    net: tuple[int, ...]
    winners: tuple[int, ...]
    pot: int
    carry: int


@dataclass(frozen=True, slots=True)
class HowellResult:
    """The counters moved by one deal settled by the Howell method.

    Attributes, per seat in the order the points were given:

    * ``paid`` - ``(players - 1) * points``: the seat's points once per
      opponent.
    * ``claimed`` - ``total - points``: the points the seat did not take.
    * ``net`` - ``claimed - paid``, which is ``total - players * points``.

    And ``pool``, the counters paid in (equal to the counters claimed, since
    :func:`howell` only accepts points that add up to ``total``).

    >>> r = howell([14, 5, 4, 3])
    >>> r.paid, r.claimed, r.pool
    ((42, 15, 12, 9), (12, 21, 22, 23), 78)
    """

    paid: tuple[int, ...]
    claimed: tuple[int, ...]
    net: tuple[int, ...]
    pool: int


def _non_negative_int(name: str, value: object) -> int:
    """Return ``value`` if it is an int >= 0 (bool excluded), else raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be an int >= 0, got {value!r}")
    return value


def _seat_points(name: str, values: Sequence[int]) -> tuple[int, ...]:
    """Validate per-seat points: a sequence of at least two ints >= 0."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise ValueError(f"{name} must be a sequence of ints >= 0, one per seat, got {values!r}")
    if len(values) < _MIN_PLAYERS:
        raise ValueError(
            f"{name} must give points for at least {_MIN_PLAYERS} seats, got {len(values)}"
        )
    return tuple(_non_negative_int(f"{name}[{i}]", v) for i, v in enumerate(values))


def sweepstake(hearts_taken: Sequence[int], pool: int = 0, stake: int = 1) -> SweepstakeResult:
    """Settle one deal by Foster's sweepstake method.

    ``hearts_taken`` holds, per seat, the points taken this deal, which is
    Foster's "hearts": one per heart and thirteen for the black lady (or the
    variant's penalty values), before any moon adjustment. Every seat pays
    ``stake`` counters per point into the pool, which already holds ``pool``
    counters carried over from earlier deals. The seats that took no points
    at all (``0``; a seat that took only the black lady has taken thirteen
    "hearts" and does not qualify) divide the pool evenly; the odd counters
    stay in it. If no seat took zero, the whole pool stays as the jack and
    is returned as ``carry``: pass it as ``pool`` to the next deal.

    Raises ``ValueError`` if ``hearts_taken`` has fewer than two seats or a
    value that is not an int >= 0, if ``pool`` is not an int >= 0, or if
    ``stake`` is not an int >= 1.

    >>> r = sweepstake([0, 10, 13, 3])
    >>> r.paid, r.received, r.net, r.carry
    ((0, 10, 13, 3), (26, 0, 0, 0), (26, -10, -13, -3), 0)
    >>> first = sweepstake([1, 12, 3, 10])      # nobody clean: a jack of 26
    >>> first.carry
    26
    >>> sweepstake([0, 13, 8, 5], pool=first.carry).received
    (52, 0, 0, 0)
    """
    points = _seat_points("hearts_taken", hearts_taken)
    carried = _non_negative_int("pool", pool)
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 1:
        raise ValueError(f"stake must be an int >= 1, got {stake!r}")

    paid = tuple(stake * p for p in points)
    pot = carried + sum(paid)
    winners = tuple(seat for seat, p in enumerate(points) if p == 0)
    if winners:
        share, carry = divmod(pot, len(winners))
    else:
        share, carry = 0, pot
    received = tuple(share if p == 0 else 0 for p in points)
    net = tuple(r - p for r, p in zip(received, paid, strict=True))
    return SweepstakeResult(
        paid=paid, received=received, net=net, winners=winners, pot=pot, carry=carry
    )


@dataclass(frozen=True, slots=True)
class AuctionResult(SweepstakeResult):
    """The chips moved by one deal of Auction Hearts (:func:`auction_pot`): a sweepstake's fields, read as chips.

    Per seat: ``paid`` (a chip per card of the named suit taken, and the bid for the auction's winner),
    ``received`` (its share of the pot) and ``net`` (``received - paid``). For the table: ``winners`` (the
    seats that shared the pot; empty when nobody won it), ``pot`` (the carried-in pot plus everything paid),
    ``carry`` (chips left for the next deal: the odd chip of a split, or the whole pot) and ``bid``/``bidder``
    (the winning bid and who made it; bid 0 when the suit was named without bidding).

    Chips are conserved: ``pot == sum(paid) + pool_in == sum(received) + carry``.
    """

    bid: int
    bidder: int

    @property
    def won(self) -> bool:
        """Whether the pot was won (if not, the match deals again and the bidder names the suit unbid)."""
        return bool(self.winners)


def auction_pot(taken: Sequence[int], *, suit_cards: int, bid: int, bidder: int, pool: int = 0) -> AuctionResult:
    """Settle one deal of Auction Hearts as Bicycle's rules do.

    ``taken`` holds, per seat, the cards of the named suit it took; ``suit_cards`` is how many the pack holds
    (13 unless stripped); ``bidder`` bid ``bid`` chips (0: named without bidding after a deal nobody won) and
    pays them into the pot, which holds ``pool`` chips carried over. Each seat pays a chip per card taken. The
    one seat that took none wins the pot; if two took none they divide it and an odd chip stays for the next
    pot; if more than two took none, or one seat took every card of the suit, or every seat took at least
    one, nobody wins and the whole pot stays.

    Raises ``ValueError`` for points that are not ints >= 0 (fewer than two seats), cards taken that are
    not ``suit_cards`` in all, a bid below 0, a bidder that is not a seat, or a pool below 0.

    >>> r = auction_pot([0, 5, 4, 4], suit_cards=13, bid=3, bidder=2)
    >>> r.paid, r.received, r.winners, r.carry
    ((0, 5, 7, 4), (16, 0, 0, 0), (0,), 0)
    >>> split = auction_pot([0, 0, 6, 7], suit_cards=13, bid=2, bidder=3)
    >>> split.received, split.carry
    ((7, 7, 0, 0), 1)
    """
    cards = _seat_points("taken", taken)
    if isinstance(suit_cards, bool) or not isinstance(suit_cards, int) or sum(cards) != suit_cards:
        raise ValueError(f"taken must add up to suit_cards ({suit_cards!r}), the named suit's cards; "
                         f"got {list(cards)!r}")
    stake = _non_negative_int("bid", bid)
    carried = _non_negative_int("pool", pool)
    if isinstance(bidder, bool) or not isinstance(bidder, int) or not 0 <= bidder < len(cards):
        raise ValueError(f"bidder must be a seat 0-{len(cards) - 1}, got {bidder!r}")
    paid = tuple(c + (stake if seat == bidder else 0) for seat, c in enumerate(cards))
    pot = carried + sum(paid)
    clean = tuple(seat for seat, c in enumerate(cards) if c == 0)
    swept = any(c == suit_cards for c in cards)
    winners = clean if len(clean) in (1, 2) and not swept else ()
    share, carry = divmod(pot, len(winners)) if winners else (0, pot)
    received = tuple(share if seat in winners else 0 for seat in range(len(cards)))
    net = tuple(r - p for r, p in zip(received, paid, strict=True))
    return AuctionResult(paid=paid, received=received, net=net, winners=winners, pot=pot, carry=carry, bid=stake,
                         bidder=bidder)


def howell(points: Sequence[int], total: int = 26) -> HowellResult:
    """Settle one deal by the Howell method.

    ``points`` holds, per seat, the penalty points taken this deal (each
    heart 1, the black lady 13), before any moon adjustment. With ``n``
    seats, each seat pays ``(n - 1) * points`` counters (its points once per
    opponent) and then claims ``total - points`` counters (the points it did
    not take). Net per seat is ``total - n * points``.

    Paid and claimed balance exactly when the points add up to ``total``
    (``(n - 1) * S == n * total - S`` if and only if ``S == total``), so the
    pool is always exhausted. Points that do not add up to ``total`` cannot
    be settled from the pool - a moon-adjusted round such as
    ``(0, 26, 26, 26)`` would leave 208 counters unclaimed, and a
    "nobody scores" round would claim counters nobody paid - so they are
    rejected: pass the card points actually taken, and set ``total`` to the
    deal's penalty total (38 with the pink lady, 52 with two decks).

    Raises ``ValueError`` if ``points`` has fewer than two seats or a value
    that is not an int >= 0, if ``total`` is not an int >= 1, or if the
    points do not add up to ``total``.

    >>> r = howell([14, 5, 4, 3])              # Foster's Andy: 14 points
    >>> r.paid[0], r.claimed[0]
    (42, 12)
    >>> sum(r.net)
    0
    """
    taken = _seat_points("points", points)
    if isinstance(total, bool) or not isinstance(total, int) or total < 1:
        raise ValueError(f"total must be an int >= 1, got {total!r}")
    if sum(taken) != total:
        raise ValueError(
            f"points must add up to total ({total}) for the Howell pool to balance, "
            f"got {list(taken)} adding up to {sum(taken)}; pass the penalty points "
            "actually taken (before any moon adjustment) and the deal's penalty total"
        )
    opponents = len(taken) - 1
    paid = tuple(opponents * p for p in taken)
    claimed = tuple(total - p for p in taken)
    net = tuple(c - p for c, p in zip(claimed, paid, strict=True))
    return HowellResult(paid=paid, claimed=claimed, net=net, pool=sum(paid))


@dataclass(frozen=True, slots=True)
class AverageResult:
    """A match's final totals settled around their average (Hoyle).

    * ``average`` - the grand total divided by the number of players (exact);
    * ``paid`` - per seat, what a player worse than the average pays into the pot: the difference;
    * ``received`` - per seat, what a player better than the average collects from it: the difference;
    * ``net`` - ``received - paid``, which adds up to 0 (the pot is emptied).

    Amounts are exact :class:`~fractions.Fraction` values: an average of whole totals is a whole number only
    when the grand total divides by the players.

    >>> r = around_average([10, 0, 5])
    >>> r.average, r.paid[0], r.received[1]
    (Fraction(5, 1), Fraction(5, 1), Fraction(5, 1))
    """

    average: Fraction
    paid: tuple[Fraction, ...]
    received: tuple[Fraction, ...]
    net: tuple[Fraction, ...]


def around_average(totals: Sequence[int], *, highest_wins: bool = False) -> AverageResult:
    """Settle a finished match around the average (Hoyle): "the totals of all players are added into a grand
    total and divided by the number of players to determine the average score. Each player whose score is above
    the average pays into the pot the difference between the average score and his own; each player whose score
    is below the average then collects the difference".

    ``totals`` are the match's final totals (:attr:`heartslib.Match.scores`), whole numbers, one per seat (at
    least two). Where the highest total wins (``highest_wins``, Gong Zhu's ``end.winner = "highest"``), the
    players below the average pay and those above it collect. Raises ``ValueError`` naming the problem for
    anything else (fewer than two totals, a total that is not a whole number: complex totals have no average
    to settle around).

    >>> r = around_average([20, 48, 100, 72])
    >>> r.average, [int(x) for x in r.paid], [int(x) for x in r.received]
    (Fraction(60, 1), [0, 0, 40, 12], [40, 12, 0, 0])
    >>> around_average([0, 1, 1]).net
    (Fraction(2, 3), Fraction(-1, 3), Fraction(-1, 3))
    >>> around_average([100, 0], highest_wins=True).net
    (Fraction(50, 1), Fraction(-50, 1))
    """
    if isinstance(totals, (str, bytes)) or not isinstance(totals, Sequence):
        raise ValueError(f"totals must be a sequence of whole numbers, one per seat, got {totals!r}")
    if len(totals) < _MIN_PLAYERS:
        raise ValueError(f"totals must hold at least {_MIN_PLAYERS} seats' totals, got {len(totals)}")
    for i, t in enumerate(totals):
        if isinstance(t, bool) or not isinstance(t, int):
            raise ValueError(f"totals[{i}] must be a whole number (a match total), got {t!r}")
    if not isinstance(highest_wins, bool):
        raise ValueError(f"highest_wins must be True or False, got {highest_wins!r}")
    average = Fraction(sum(totals), len(totals))
    sign = -1 if highest_wins else 1
    # what each seat is behind the average (positive: it pays), counted the way its totals are judged
    behind = tuple(sign * (t - average) for t in totals)
    zero = Fraction(0)
    paid = tuple(max(b, zero) for b in behind)
    received = tuple(max(-b, zero) for b in behind)
    return AverageResult(average=average, paid=paid, received=received,
                         net=tuple(r - p for r, p in zip(received, paid, strict=True)))
