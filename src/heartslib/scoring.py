"""Scoring a finished round: card points and modifiers, the moon and sun rules, and the match end.

Facts are decided from the cards taken, not from point sums (STYLE 7): a
moon is "this seat took every penalty card that scored this hand", which
stays right with two decks, bonus cards, conditional jokers and the
hand-score modifiers (multipliers, suit doublers, cancelling cards).

:func:`score_cards` is the scorer as a pure function: a hand's points per seat
from the cards each seat took (plus the facts scoring needs: who won each
trick, who passed to whom, the match totals). The engine scores every hand
with the same two steps, :func:`card_facts` then :func:`score`, except the
hands its summed scorer is admitted to
(:mod:`heartslib.engine.finishing`); the summed one calls :func:`hand_points`
and :func:`multiply_points` here for the modifiers.

This module is compiled by the optional mypyc build (the modifiers' scorer is
the slow presets' hot path): keep it strictly typed.

>>> import heartslib as hl
>>> v = hl.preset("standard")
>>> score_cards(v, ["QS 2H", "3H", "", "4H 5H 6H 7H 8H 9H TH JH QH KH AH"]).points
(14, 1, 0, 11)
>>> score_cards(v, ["QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "", "", ""]).points
(0, 26, 26, 26)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Final, NoReturn, cast

import attrs

from heartslib.cards import Card, CardLike, Suit, parse_cards
from heartslib.engine.rules import Rules
from heartslib.engine.tables import HEART, NATIVE
from heartslib.engine.values import exact_total
from heartslib.enums import (
    BIG_MOON_HANDS,
    HOLD,
    BigMoon,
    ExactFifty,
    Measure,
    MoonKind,
    MoonRequires,
    MoonScoring,
    NextDealer,
    Offset,
    PassDirection,
    PassMode,
    Settlement,
    Shot,
    Sun,
    TeamLoss,
    Winner,
)
from heartslib.errors import CardError, IllegalAction, arg_text
from heartslib.points import Score, normalise
from heartslib.variant import Variant, expect_variant

__all__ = [
    "BIG_MOON_HANDS",
    "Outcome",
    "RoundFacts",
    "apply_exact_reset",
    "big_moon_points",
    "card_facts",
    "exposure_doubles",
    "hand_points",
    "hand_totals",
    "losing_team",
    "match_over",
    "moon_options",
    "moon_result",
    "moon_taker",
    "multiply_points",
    "next_dealer",
    "reached_target",
    "reached_win_target",
    "score",
    "score_cards",
    "series_points",
    "slate_change",
    "team_totals",
    "trick_points",
    "winners",
    "winning_team",
]


@attrs.frozen
class RoundFacts:
    """What happened in a round, as scoring needs it (all per seat)."""

    raw: tuple[Score, ...]
    """Card points taken, after cancelling cards, suit doublers and the all-hearts rule, before multipliers."""
    bonus: tuple[Score, ...]
    """The part of ``raw`` from bonus cards (cards that count for their taker)."""
    penalty_cards: tuple[int, ...]
    """How many penalty cards that scored this hand each seat took."""
    bonus_cards: tuple[int, ...]
    tricks_won: tuple[int, ...]
    trick_winners: tuple[int | None, ...]
    """Winner of each trick in order (None for a cancelled trick)."""
    taken: tuple[tuple[int, ...], ...] = ()
    """Card indices each seat took (for the multipliers)."""
    doubled: frozenset[int] = frozenset()
    """Cards whose effect doubles for their taker this hand (exposed cards: :func:`exposure_doubles`)."""


@attrs.frozen
class Outcome:
    """A scored round: ``points`` per seat and, if any, who shot the moon/sun and how it scored."""

    points: tuple[Score, ...]
    """The hand's points per seat, after the moon and sun rules."""
    shooter: int | None = None
    """Who shot the moon or the sun (None when nobody did)."""
    kind: Shot | None = None
    """:attr:`Shot.MOON <heartslib.Shot.MOON>` or :attr:`Shot.SUN <heartslib.Shot.SUN>` when someone shot it."""
    scoring: MoonScoring | None = None
    """How it was scored (:class:`heartslib.MoonScoring`: old, new, no_score, take_all, add_52, ...)."""


# --------------------------------------------------------------------------- card points


def hand_points(
    rules: Rules, taken: Sequence[int], dead: int, joker_points: int, *, doubled: Collection[int] = frozenset()
) -> tuple[Score, Score]:
    """A seat's card points for the hand and the part of them from bonus cards, before multipliers.

    ``dead`` counts conditional jokers taken on tricks where they do not score; ``doubled`` cards (exposed ones)
    count twice, after the all-hearts flip and the suit doublers.
    """
    value = rules.value
    dead_points = dead * joker_points
    if rules.plain_scoring:
        total: Score = sum(map(value.__getitem__, taken)) - dead_points
        if not rules.has_bonus:
            return (total if not rules.complex else normalise(total)), 0
        is_bonus = rules.bonus
        bonus: Score = sum((value[c] for c in taken if is_bonus[c]), start=0)
        if dead and joker_points * rules.sign < 0:  # conditional jokers that are bonus cards
            bonus -= dead_points
        return normalise(total), normalise(bonus)
    # with one deck every card is taken once: a dict made in one C call, not a Counter (whose constructor
    # runs in Python, a fifth of a compiled modifier preset's playout)
    counts: dict[int, int] = Counter(taken) if rules.repeats else dict.fromkeys(taken, 1)
    if dead:
        # A dead joker (one that scores only on a hearts lead, taken on another trick) counts nothing (RULES
        # sections 2 and 6): it leaves the cards counted, so that no modifier below turns it into points and
        # its value stays out of the bonus part too, which the counter settlements take off the points. The
        # jokers that may be dead are worth the same, so which of them is left out does not matter.
        left = dead
        for joker in rules.jokers:
            k = min(counts.get(joker, 0), left)
            if k:
                counts[joker] -= k
                left -= k
    get = counts.get  # not counts[...]: a Counter's missing key goes through a Python-level __missing__
    cancelled: dict[int, int] = {}
    for card, target in rules.cancels.items():
        if get(card, 0) and get(target, 0):
            cancelled[target] = cancelled.get(target, 0) + min(counts[card], counts[target])
    suit = rules.suit
    flip = (
        rules.all_hearts_flips
        and rules.hearts_in_pack > 0
        and _count(rules.of_suit[HEART], taken) == rules.hearts_in_pack
    )
    doubled_suits = {s for card, s in rules.double_suit.items() if get(card, 0)}
    only_hearts = rules.flips_only_hearts
    is_bonus = rules.bonus
    total = 0
    bonus = 0
    for card, k in counts.items():
        x = value[card]
        if not x:
            continue  # a card worth nothing stays worth nothing, flipped, doubled or cancelled
        # the flip turns the penalty cards positive (the hearts alone, or the pig too): they count for the taker
        flipped = flip and _real(x) < 0 and (not only_hearts or suit[card] == HEART)
        if flipped:
            x = -x
        if suit[card] in doubled_suits:
            x = x * 2
        if card in doubled:
            x = x * 2
        if cancelled:
            k -= cancelled.get(card, 0)
        x = x * k
        total += x
        if is_bonus[card] or flipped:
            bonus += x
    return normalise(total), normalise(bonus)


def _count(flags: list[bool], cards: Sequence[int]) -> int:
    """How many of ``cards`` the table ``flags`` marks, in the idiom each build runs fastest (``tables.NATIVE``:
    compiled, ``map`` with a bound method calls it generically per card)."""
    if NATIVE:
        k = 0
        for c in cards:
            if flags[c]:
                k += 1
        return k
    return sum(map(flags.__getitem__, cards))


def _copies(cards: Sequence[int], card: int) -> int:
    """How many times ``card`` is among ``cards`` (compiled, a native loop over a list: ``count`` is a generic
    method call)."""
    if NATIVE and isinstance(cards, list):
        k = 0
        for c in cast("list[int]", cards):  # an int list: mypyc compares the items natively
            if c == card:
                k += 1
        return k
    return cards.count(card)


def _real(x: Score) -> float:
    return x.real if isinstance(x, complex) else x


def card_facts(
    rules: Rules,
    taken: Sequence[Sequence[int]],
    *,
    dead: Sequence[int] | None = None,
    tricks_won: Sequence[int] | None = None,
    trick_winners: Sequence[int | None] = (),
    doubled: Collection[int] = frozenset(),
) -> RoundFacts:
    """What happened in a hand, as scoring needs it, from the cards each seat took (card indices).

    ``dead`` counts, per seat, the jokers that score only on a hearts lead and were taken on another trick;
    ``tricks_won`` defaults to one trick for a seat that took any card, none for the others; ``doubled`` are
    the cards whose effect doubles this hand (:func:`exposure_doubles`).
    """
    jp = rules.variant.deck.joker_points
    n = len(taken)
    dead_counts = list(dead) if dead is not None else [0] * n
    raw: list[Score] = []
    bonus: list[Score] = []
    pen: list[int] = []
    bon: list[int] = []
    dead_pen = jp * rules.sign > 0
    doubled_set = frozenset(doubled)
    for seat, cards in enumerate(taken):
        d = dead_counts[seat]
        points, own_bonus = hand_points(rules, cards, d, jp, doubled=doubled_set)
        raw.append(points)
        bonus.append(own_bonus)
        pen.append(_count(rules.penalty, cards) - (d if dead_pen else 0))
        bon.append(_count(rules.bonus, cards) - (d if jp and not dead_pen else 0))
    won = tuple(tricks_won) if tricks_won is not None else tuple(1 if cards else 0 for cards in taken)
    return RoundFacts(
        raw=tuple(raw),
        bonus=tuple(bonus),
        penalty_cards=tuple(pen),
        bonus_cards=tuple(bon),
        tricks_won=won,
        trick_winners=tuple(trick_winners),
        taken=tuple(tuple(cards) for cards in taken),
        doubled=doubled_set,
    )


def trick_points(rules: Rules, taken: Iterable[int], dead: int = 0, doubled: Collection[int] = ()) -> Score:
    """What the cards taken with one trick are worth to their taker (:attr:`heartslib.TrickWon.points`).

    Card values, doubled for exposed cards (``doubled``: :func:`exposure_doubles`), less ``dead`` jokers that
    score only on a hearts lead; before the hand's modifiers (multipliers, suit doublers, cancelling cards, the
    all-hearts flip) and the moon.
    """
    value = rules.value
    total: Score = sum((value[c] * 2 if c in doubled else value[c] for c in taken), start=0)
    return normalise(total - dead * rules.variant.deck.joker_points)


def _multiply(rules: Rules, facts: RoundFacts, points: list[Score]) -> list[Score]:
    """Apply the multiplier cards (10♣ × 2i, × 2 ...) to each taker's final hand score."""
    return multiply_points(rules, facts.taken, facts.doubled, points)


def multiply_points(
    rules: Rules, taken_by: Sequence[Sequence[int]], doubled: Collection[int], points: list[Score]
) -> list[Score]:
    """Apply the multiplier cards (10♣ × 2i, × 2 ...) to each taker's final hand score (``taken_by``: each seat's
    cards; ``doubled``: :func:`exposure_doubles`). ``points`` is changed in place and comes back (a normalised
    copy with complex values).

    >>> import heartslib as hl
    >>> rules = hl.preset("gong_zhu").rules
    >>> ten, queen = hl.Card("TC").index, hl.Card("QS").index
    >>> multiply_points(rules, [[ten, queen], [ten + 1], [], []], frozenset(), [-100, 0, 0, 0])
    [-200, 0, 0, 0]
    """
    if not rules.multiply or not taken_by:
        return points
    counters = rules.counters
    # card by card, then seat by seat: each seat still meets the multipliers in the table's order (a lone
    # multiplier replaces the score, so that order matters), and a card's factors are looked up once
    for card, factor in rules.multiply.items():
        alone = rules.multiply_alone.get(card)
        if card in doubled:  # an exposed multiplier doubles its effect: x 2 becomes x 4, +50 becomes +100
            factor = factor * 2
            alone = None if alone is None else alone * 2
        for seat, taken in enumerate(taken_by):
            copies = _copies(taken, card)
            if not copies:
                continue
            if alone is not None and not _counts_other(taken, card, counters):
                points[seat] = alone * copies
            else:
                for _ in range(copies):
                    points[seat] = points[seat] * factor
    return [normalise(p) for p in points] if rules.complex else points  # whole numbers stay whole


def _counts_other(cards: Sequence[int], card: int, counters: frozenset[int]) -> bool:
    """Whether ``cards`` hold a counting card other than ``card`` (a lone multiplier scores alone only without
    one)."""
    return any(c != card and c in counters for c in cards)  # compiled, any() over a generator is a native loop


# --------------------------------------------------------------------------- the end of the match


def _key(v: Variant, x: Score) -> float:
    if v.end.measure == Measure.MAGNITUDE:
        return abs(x)
    return float(_real(x))


def team_totals(v: Variant, totals: Sequence[Score]) -> tuple[Score, ...]:
    """Per team (in ``v.teams`` order), the sum of its members' totals; empty without teams."""
    team_of = v.rules.team_of
    return tuple(normalise(sum((totals[s] for s in range(len(totals)) if team_of[s] == t), start=0))
                 for t in range(len(v.teams)))


def _judged(v: Variant, totals: Sequence[Score]) -> Sequence[Score]:
    """The totals the end is judged on: each seat's own, or with ``end.team_scores`` its team's."""
    if not v.end.team_scores:
        return totals
    sums = team_totals(v, totals)
    return tuple(sums[t] for t in v.rules.team_of)


def reached_target(v: Variant, totals: Sequence[Score]) -> bool:
    """Whether some total has reached the target (at least it if positive, at most it if negative); with
    ``end.team_scores``, some team total."""
    target = v.end.target
    if not target:
        return False
    keys = [_key(v, t) for t in _judged(v, totals)]
    return any(k >= target for k in keys) if target > 0 else any(k <= target for k in keys)


def reached_win_target(v: Variant, totals: Sequence[Score]) -> bool:
    """Whether some total has reached the winning target (``end.win_target``: at least it where the highest
    total wins, at most it where the lowest does)."""
    target = v.end.win_target
    if not target:
        return False
    keys = [_key(v, t) for t in _judged(v, totals)]
    return any(k >= target for k in keys) if v.end.winner == Winner.HIGHEST else any(k <= target for k in keys)


def _team_sum(v: Variant, totals: Sequence[Score], team: int) -> float:
    team_of = v.rules.team_of
    return _key(v, normalise(sum((totals[s] for s in range(len(totals)) if team_of[s] == team), start=0)))


def winning_team(v: Variant, totals: Sequence[Score]) -> int | None:
    """With teams, when the winning target (``end.win_target``) ended the match: the team of the best total
    among the players who reached it; the team totals decide between teams that share it; None if they tie."""
    keys = [_key(v, t) for t in totals]
    target = v.end.win_target
    high = v.end.winner == Winner.HIGHEST
    pool = [s for s in range(len(totals)) if (keys[s] >= target if high else keys[s] <= target)]
    return _team_at(v, totals, keys, pool, max if high else min)


def losing_team(v: Variant, totals: Sequence[Score]) -> int | None:
    """With teams: the team of the worst total among the players who reached the target (or among all
    players if none did). When players of several teams share that total, the team totals decide among
    those teams (Idlib Leekha); None when those tie too (play on). With ``end.losing_team =
    "worst_team_total"``: the team with the worst team total; None when team totals tie."""
    if v.end.losing_team == TeamLoss.WORST_TEAM_TOTAL:
        sums = {t: _team_sum(v, totals, t) for t in range(len(v.teams))}
        worst = (max if v.end.winner == Winner.LOWEST else min)(sums.values())
        worst_teams = [t for t, x in sums.items() if x == worst]
        return worst_teams[0] if len(worst_teams) == 1 else None
    keys = [_key(v, t) for t in totals]
    pool = list(range(len(totals)))
    if reached_target(v, totals):
        target = v.end.target
        pool = [s for s in pool if (keys[s] >= target if target > 0 else keys[s] <= target)]
    return _team_at(v, totals, keys, pool, max if v.end.winner == Winner.LOWEST else min)


def _team_at(v: Variant, totals: Sequence[Score], keys: Sequence[float], pool: Sequence[int],
             pick: Callable[[Iterable[float]], float]) -> int | None:
    """The team of the player ``pick`` (max or min) chooses by ``keys`` among ``pool``; when players of
    several teams share that key, the team totals decide, by ``pick`` too; None when those tie as well."""
    extreme = pick(keys[s] for s in pool)
    teams = {v.rules.team_of[s] for s in pool if keys[s] == extreme}
    if len(teams) > 1:
        sums = {t: _team_sum(v, totals, t) for t in teams}
        extreme_sum = pick(sums.values())
        teams = {t for t, x in sums.items() if x == extreme_sum}
    return teams.pop() if len(teams) == 1 else None


def winners(v: Variant, totals: Sequence[Score], lives: Sequence[int] | None = None,
            chips: Sequence[int] = ()) -> tuple[int, ...]:
    """The winning seats for these totals (ties share the win).

    The lowest total wins, or the highest (``end.winner``), measured by the
    score or its magnitude (``end.measure``); with lives, only the players
    with the most lives left can win; with teams, every player not on the
    losing team wins (or, when the winning target alone ended the match, the
    winning team's players); with ``end.team_scores`` the players of the best
    team total win. In an auction (``scoring.settlement = "auction"``) the most
    ``chips`` win, whatever the totals.
    """
    if chips and v.scoring.settlement == Settlement.AUCTION:
        return tuple(seat for seat, c in enumerate(chips) if c == max(chips))
    seats = list(range(len(totals)))
    if v.end.team_scores:
        totals = _judged(v, totals)
    elif v.teams:
        if reached_win_target(v, totals) and not reached_target(v, totals):
            won = winning_team(v, totals)
            if won is None:
                return tuple(seats)
            return tuple(s for s in seats if v.rules.team_of[s] == won)
        team = losing_team(v, totals)
        if team is None:
            return tuple(seats)
        return tuple(s for s in seats if v.rules.team_of[s] != team)
    if lives is not None and v.end.lives:
        most = max(lives)
        seats = [s for s in seats if lives[s] == most]
    keys = {s: _key(v, totals[s]) for s in seats}
    best = (min if v.end.winner == Winner.LOWEST else max)(keys.values())
    return tuple(s for s in seats if keys[s] == best)


_QS: Final = Card.parse("QS")


def next_dealer(
    v: Variant, dealer: int, points: Sequence[Score], taken: Sequence[str | Iterable[CardLike]]
) -> int:
    """Who deals after a hand ``dealer`` dealt that scored ``points`` with ``taken`` cards per seat.

    ``end.next_dealer = "rotate"``: the next seat in the direction of play. ``"most_points"`` (Idlib
    Leekha): the player with the worst hand score; among tied players, whoever took the first card of
    ``end.dealer_ties``, then the first tied player after the dealer in the direction of play.
    ``"queen_taker"`` (Likha): the player who took Q♠, or the next seat when nobody did.

    ``taken[seat]`` holds the cards that seat took, as text (``"QS 2H"``) or as cards and card text (read only
    by ``"most_points"`` and ``"queen_taker"``). Raises :class:`~heartslib.CardError` for anything else among them, and
    :class:`~heartslib.IllegalAction` (``bad_argument``) when ``taken`` does not hold one entry per seat.

    >>> import heartslib as hl
    >>> v = hl.preset("likha").replace(end={"next_dealer": "most_points"})
    >>> next_dealer(v, 0, (10, 30, 5, 5), ((), (), (), ()))
    1
    """
    rules = v.rules
    n = rules.players
    if v.end.next_dealer == NextDealer.ROTATE:
        return (dealer + rules.step) % n
    if not _many(taken) or len(taken) != n:
        _bad(f"taken must hold the cards each of the {n} seats took, got {arg_text(taken)}")
    # parsed whether or not a tie reads them, so that bad cards are refused alike in every hand (a set of
    # text or of other values would never match a tie-breaking card, silently)
    held = [set(parse_cards(cards)) for cards in taken]
    if v.end.next_dealer == NextDealer.QUEEN_TAKER:
        takers = [s for s in range(n) if _QS in held[s]]
        return takers[0] if takers else (dealer + rules.step) % n
    sign = 1 if v.end.measure == Measure.MAGNITUDE else rules.sign
    badness = [_key(v, p) * sign for p in points]
    worst = max(badness)
    tied = [s for s in range(n) if badness[s] == worst]
    if len(tied) > 1:
        for card in v.end.dealer_ties:
            took = [s for s in tied if card in held[s]]
            if took:
                return took[0]
    return next((dealer + rules.step * i) % n for i in range(1, n + 1) if (dealer + rules.step * i) % n in tied)


def hand_totals(
    v: Variant, before: Sequence[Score], points: Sequence[Score], outcome: Outcome | None = None
) -> tuple[Score, ...]:
    """The match totals after a hand that scored ``points`` on top of the totals ``before``: their sums, the
    shooter's total returned to 0 where the hand cleaned the slate (``outcome`` says so: ``moon.sun =
    "clean_slate"``, whose hand scores 0), then the exact-total rules (:func:`apply_exact_reset`).

    >>> import heartslib as hl
    >>> v = hl.preset("standard").replace(moon={"sun": "clean_slate"})
    >>> slate = Outcome((0, 0, 0, 0), 0, Shot.SUN, MoonScoring.CLEAN_SLATE)
    >>> hand_totals(v, (70, 10, 20, 30), slate.points, slate)
    (0, 10, 20, 30)
    >>> hand_totals(v, (70, 10, 20, 30), (13, 5, 8, 0))
    (83, 15, 28, 30)
    """
    totals = [a + b for a, b in zip(before, slate_change(before, points, outcome), strict=True)]
    return apply_exact_reset(v, totals, before)


def slate_change(before: Sequence[Score], points: Sequence[Score], outcome: Outcome | None = None) -> tuple[Score, ...]:
    """What a hand that scored ``points`` adds to each total before the exact-total rules: its points, and for
    the shooter of a clean slate (whose hand scores 0) minus its total ``before``, since that total returns to
    0 (:func:`hand_totals`). For a player weighing a hand by the totals it leaves.

    >>> slate = Outcome((0, 0, 0, 0), 0, Shot.SUN, MoonScoring.CLEAN_SLATE)
    >>> slate_change((70, 10, 20, 30), slate.points, slate)
    (-70, 0, 0, 0)
    """
    change = list(points)
    if outcome is not None and outcome.scoring == MoonScoring.CLEAN_SLATE and outcome.shooter is not None:
        change[outcome.shooter] = -before[outcome.shooter]
    return tuple(change)


def apply_exact_reset(
    v: Variant, totals: Sequence[Score], before: Sequence[Score] | None = None
) -> tuple[Score, ...]:
    """Totals after the exact-total rules: exactly the target returns to 0 (``end.reset_at_exact``); a total
    the hand landed exactly on a multiple of 50 is reduced by 50 (``end.exact_fifty``), one it landed exactly on
    a listed round score gets its bonus (``end.round_bonuses``; ``before`` are the totals before the hand: a
    total the hand did not change did not land).

    >>> import heartslib as hl
    >>> bonuses = hl.preset("double_deck_8").replace(end={"round_bonuses": {"50": -50, "100": -50, "150": -50}})
    >>> apply_exact_reset(bonuses, (100, 150, 90, 50), before=(60, 150, 40, 0))
    (50, 150, 90, 0)
    >>> v = hl.preset("standard").replace(end={"exact_fifty": "any"})
    >>> apply_exact_reset(v, (50, 100, 150, 99), before=(40, 90, 150, 80))
    (0, 50, 150, 99)

    With ``end.magic_multiple`` (the Twanger: 25), a total the hand landed exactly on a positive multiple of it
    then resets to the average of the highest and lowest of the other totals, rounded down:

    >>> twanger = hl.preset("standard").replace(end={"magic_multiple": 25})
    >>> apply_exact_reset(twanger, (50, 37, 12, 90), before=(40, 30, 10, 80))
    (51, 37, 12, 90)
    >>> apply_exact_reset(twanger, (50, 37, 12, 90), before=(50, 30, 10, 80))
    (50, 37, 12, 90)
    """
    end = v.end
    if not end.reset_at_exact and end.exact_fifty == ExactFifty.NONE and not end.magic_multiple and not (
            end.round_bonuses):
        return tuple(totals)
    out = [exact_total(end, t, None if before is None else before[i]) for i, t in enumerate(totals)]
    m = end.magic_multiple
    left = [x for x in out if isinstance(x, int)]  # whole-number totals: validation refuses complex ones here
    if m and len(out) > 1 and len(left) == len(out):
        # every total is judged on the totals the hand and the rules above left, before any magic reset
        for i, t in enumerate(left):
            landed = before is None or before[i] != totals[i]
            if landed and t > 0 and t % m == 0:
                others = left[:i] + left[i + 1:]
                out[i] = (max(others) + min(others)) // 2
    return tuple(out)


def series_points(
    v: Variant, totals: Sequence[Score], *, win_at: int | None = None, lose_at: int | None = None
) -> tuple[int, ...]:
    """Round points for a series of matches (Gong Zhu as the "Chinese Hearts" app keeps it, RULES.md section 11):
    at a match's end, a player whose total reached the winning total gets 2, one whose total reached the losing
    total gets none, the others 1. ``totals`` are the finished match's (:attr:`heartslib.Match.scores`);
    ``win_at`` and ``lose_at`` default to the variant's ``end.win_target`` and ``end.target`` and are judged as
    they are (reached: at least or at most, by the way the variant's totals are judged, team totals with
    ``end.team_scores``); 0 means none. The app: ``win_at=1000`` (``lose_at`` is Gong Zhu's -1000).

    A series is kept by the caller, as a sum of these points over the matches it plays: it adds no rule of play
    (no decision, no hidden card, no chance beyond each match's own seed), and each match already saves, replays
    and reports itself; an object above :class:`~heartslib.Match` would only hold that list of matches.

    >>> import heartslib as hl
    >>> gz = hl.preset("gong_zhu").replace(end={"win_target": 1000})
    >>> series_points(gz, (1040, -330, 60, -1000))
    (2, 1, 1, 0)
    >>> points = [0, 0, 0, 0]
    >>> for seed in range(3):
    ...     m = hl.agents.play_match(gz, [hl.agents.RandomAgent(s) for s in range(4)], seed=seed)
    ...     points = [p + q for p, q in zip(points, series_points(gz, m.scores), strict=True)]
    >>> points
    [1, 2, 3, 2]
    """
    n = v.players
    if not _many(totals) or len(totals) != n or not all(
            isinstance(x, int | complex) and not isinstance(x, bool) for x in totals):
        _bad(f"totals must be the {n} totals of a finished match, got {arg_text(totals)}")
    for name, value in (("win_at", win_at), ("lose_at", lose_at)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            _bad(f"{name} must be a whole number (a total), or None for the variant's own, not {arg_text(value)}")
    win = v.end.win_target if win_at is None else win_at
    lose = v.end.target if lose_at is None else lose_at
    highest = v.end.winner == Winner.HIGHEST
    out: list[int] = []
    for x in _judged(v, totals):
        k = _key(v, x)
        if win and (k >= win if highest else k <= win):
            out.append(2)
        elif lose and (k >= lose if lose > 0 else k <= lose):
            out.append(0)
        else:
            out.append(1)
    return tuple(out)


def match_over(
    v: Variant,
    totals: Sequence[Score],
    hands_played: int,
    outcome: Outcome | None = None,
    lives: Sequence[int] | None = None,
) -> bool:
    """Whether the match ends with these totals after ``hands_played`` hands: the last of a fixed number of
    hands, one player left with lives, or a total at the target or at the winning target (``end.win_target``)."""
    if v.end.hands and hands_played >= v.end.hands:
        return True
    if lives is not None and v.end.lives and sum(1 for x in lives if x > 0) <= 1:
        return True
    lost = reached_target(v, totals)
    if not lost and not reached_win_target(v, totals):
        return False
    if outcome is not None and outcome.shooter is not None:
        if v.moon.continue_after_moon:
            return False
        if v.moon.shooter_cannot_win and outcome.shooter in winners(v, totals, lives):
            return False
    if v.teams and not v.end.team_scores:  # a tie between teams (team totals included) plays on
        return (losing_team(v, totals) if lost else winning_team(v, totals)) is not None
    return True


# --------------------------------------------------------------------------- the moon and the sun


def moon_taker(facts: RoundFacts, requires: MoonRequires = MoonRequires.PENALTY_CARDS) -> int | None:
    """The seat that took every penalty card that scored this hand (with ``"all_counters"`` every bonus card
    too), whatever the moon rule makes of it; None when nobody did (or no penalty card scored)."""
    total = sum(facts.penalty_cards)
    if not total:
        return None
    for s, count in enumerate(facts.penalty_cards):
        if count == total:
            if requires == MoonRequires.ALL_COUNTERS and facts.bonus_cards[s] != sum(facts.bonus_cards):
                return None
            return s
    return None


def big_moon_points(v: Variant, shooter: int, run: Sequence[Score], points: Sequence[Score]) -> tuple[Score, ...]:
    """This hand's points when it is ``shooter``'s tenth consecutive hand of every penalty card (a big moon):
    the ten hands are rescored so that they give the shooter 0 and every other player (the other teams'
    players) ten times the moon points, or 100 against them (-100 where the highest total wins)
    (``moon.big_moon``); partners keep what they scored. ``run``
    holds, per seat, what the ten hands scored before the big moon, this one's ``points`` included.

    >>> import heartslib as hl
    >>> v = hl.preset("standard").replace(moon={"kind": "none", "big_moon": "ten_moons"})
    >>> big_moon_points(v, 0, (260, 0, 0, 0), (26, 0, 0, 0))
    (-234, 260, 260, 260)
    """
    rules = v.rules
    award: Score = 10 * rules.moon_points if v.moon.big_moon == BigMoon.TEN_MOONS else 100 * rules.sign
    team = rules.team_of[shooter]
    out = list(points)
    for s in range(len(points)):
        if s == shooter:
            out[s] = normalise(points[s] - run[s])
        elif rules.team_of[s] != team:
            out[s] = normalise(points[s] + award - run[s])
    return tuple(out)


def moon_options(kind: MoonKind = MoonKind.CHOICE) -> tuple[MoonScoring, ...]:
    """The options of the shooter's choice: old or new moon (``moon.kind = "choice"``), or, going for the lot
    (``"lot"``), zero the shooter's own total or double every other player's."""
    if kind == MoonKind.LOT:
        return (MoonScoring.ZERO, MoonScoring.DOUBLE)
    return (MoonScoring.OLD, MoonScoring.NEW)


def _passer(shooter: int, passing: PassDirection, rules: Rules) -> int | None:
    if isinstance(passing, Offset) and passing.k % rules.players:
        return (shooter - passing.k * rules.step) % rules.players
    return None


def _normal(v: Variant, rules: Rules, facts: RoundFacts) -> Outcome:
    bonus = v.scoring.no_tricks
    won = facts.tricks_won  # one per seat, as facts.raw (not zip(strict=True): a keyword call, dear compiled)
    pts = [r + (bonus if won[seat] == 0 else 0) for seat, r in enumerate(facts.raw)]
    return Outcome(tuple(_multiply(rules, facts, pts)))


def moon_result(facts: RoundFacts, rules: Rules, shooter: int, how: MoonScoring, keep_bonus: bool,
                scores_before: Sequence[Score] = ()) -> Outcome:
    """Points when ``shooter`` shot the moon and it is scored ``how`` (old/new/take_all/penalty/no_score, or going
    for the lot's zero/double, which read the match totals before the hand, ``scores_before``).

    With teams, "the other players" are the other teams' players.
    """
    p = rules.moon_points
    n = len(facts.raw)
    if how == MoonScoring.NO_SCORE:
        # nobody scores the penalty cards; bonus cards keep their value (RULES.md 7: the bonus card stays on
        # top of the moon result unless the moon needs it, and then only the shooter can hold one)
        bonus: list[Score] = [facts.bonus[s] if keep_bonus else 0 for s in range(n)]
        return Outcome(tuple(_multiply(rules, facts, bonus)), shooter, Shot.MOON, how)
    own = facts.bonus[shooter] if keep_bonus else 0
    team = rules.team_of[shooter]
    pts = list(facts.raw)
    if how == MoonScoring.OLD:
        for s in range(n):
            if rules.team_of[s] != team:
                pts[s] = facts.raw[s] + p
        pts[shooter] = own
    elif how == MoonScoring.PENALTY:
        pts[shooter] = p + own
    elif how == MoonScoring.ZERO:  # the shooter's total returns to 0 (then bonus cards count on top)
        pts[shooter] = own - scores_before[shooter]
    elif how == MoonScoring.DOUBLE:  # each other player's total doubles (the others took no penalty card)
        for s in range(n):
            if rules.team_of[s] != team:
                pts[s] = facts.raw[s] + scores_before[s]
        pts[shooter] = own
    else:  # new, take_all
        pts[shooter] = -p + own
    return Outcome(tuple(_multiply(rules, facts, pts)), shooter, Shot.MOON, how)


def score(
    v: Variant,
    rules: Rules,
    facts: RoundFacts,
    *,
    scores_before: Sequence[Score],
    passing: PassDirection,
    hands_played: int,
) -> Outcome | int:
    """Score a round. Returns an :class:`Outcome`, or the shooter's seat when the
    shooter must first choose how the moon scores (``moon.kind = "choice"`` or ``"lot"``)."""
    n = len(facts.raw)
    moon = v.moon
    keep_bonus = moon.requires == MoonRequires.PENALTY_CARDS
    if moon.sun != Sun.NONE:
        counted = facts.trick_winners[1:] if moon.sun_skips_first_trick else facts.trick_winners
        won = [w for w in counted if w is not None]
        if won and all(w == won[0] for w in won):
            s = won[0]
            p = rules.moon_points
            own = facts.bonus[s] if keep_bonus else 0
            pts = list(facts.raw)
            if moon.sun == Sun.CLEAN_SLATE:
                # RULES.md 11: the shooter's hand scores 0 (what "most points" reads) and its total returns to 0,
                # bonus cards included: the total is reset by hand_totals, not by a hand score of minus the total
                pts[s] = 0
                return Outcome(tuple(pts), s, Shot.SUN, MoonScoring.CLEAN_SLATE)
            if moon.sun == Sun.SUBTRACT_52:  # GNOME Hearts: the shooter subtracts twice the moon, the others score 0
                pts[s] = -2 * p + own
                return Outcome(tuple(_multiply(rules, facts, pts)), s, Shot.SUN, MoonScoring.SUBTRACT_52)
            punish = moon.sun == Sun.PUNISH_PASSER
            passer = _passer(s, passing, rules) if punish else None
            team = rules.team_of[s]
            for o in range(n):
                if rules.team_of[o] != team:
                    # the punishment rule: twice the moon points to the passer, the moon points to the others
                    # (RULES.md 7: with no single passer, a hold, scatter, star or shuffle hand, nobody is
                    # punished and every other player receives the moon points)
                    extra = p if punish and o != passer else 2 * p
                    pts[o] = facts.raw[o] + extra
            pts[s] = own
            how = MoonScoring.PUNISH_PASSER if punish else MoonScoring.ADD_52
            return Outcome(tuple(_multiply(rules, facts, pts)), s, Shot.SUN, how)
        if not moon.sun_and_moon:
            return _normal(v, rules, facts)  # a sun rule replaces the moon rule (000)

    shooter = moon_taker(facts, moon.requires) if moon.kind != MoonKind.NONE else None
    if shooter is None:
        return _normal(v, rules, facts)

    kind = moon.kind
    new_kinds = (MoonKind.NEW, MoonKind.CHOICE, MoonKind.NEW_IF_OLD_LOSES)
    if kind in new_kinds and moon.new_after:
        reached = (_key(v, scores_before[shooter]) if moon.new_after_shooter
                   else max(_key(v, x) for x in scores_before))
        if reached < moon.new_after:
            kind = MoonKind.OLD
    if kind == MoonKind.CHOICE or kind == MoonKind.LOT:
        return shooter
    if kind == MoonKind.NEW_IF_OLD_LOSES:
        old = moon_result(facts, rules, shooter, MoonScoring.OLD, keep_bonus)
        totals = apply_exact_reset(v, [a + b for a, b in zip(scores_before, old.points, strict=True)], scores_before)
        # "old moon would end the game": the target or the last of a fixed number of hands, and not a hand
        # after which the match goes on anyway (continue_after_moon)
        if match_over(v, totals, hands_played, old) and shooter not in winners(v, totals):
            return moon_result(facts, rules, shooter, MoonScoring.NEW, keep_bonus)
        return old
    return moon_result(facts, rules, shooter, MoonScoring(kind.value), keep_bonus)


# --------------------------------------------------------------------------- the scorer as a pure function


def _hand_rules(variant: Variant, named: object) -> Rules:
    """The rules a hand of ``variant`` is scored by: an auction's named suit's (``named``, required there), or the
    variant's own (``named`` refused)."""
    if variant.scoring.settlement == Settlement.AUCTION:
        if not isinstance(named, Suit):
            raise IllegalAction("bad_argument", f"named must be the Suit the auction named (its cards are the hand's "
                                f"penalty cards), not {arg_text(named)}")
        return variant.rules.for_suit(int(named))
    if named is not None:
        raise IllegalAction("bad_argument", f"named is the suit an auction named; {variant.name!r} has no auction "
                            f"(scoring.settlement = {variant.scoring.settlement.value!r}): leave it out")
    return variant.rules


def score_cards(
    variant: Variant,
    taken: Sequence[str | Iterable[CardLike | int]],
    *,
    trick_winners: Sequence[int | None] | None = None,
    tricks_won: Sequence[int] | None = None,
    dead: Sequence[int] | None = None,
    exposed: str | Iterable[CardLike] = (),
    passing: PassDirection = HOLD,
    scores: Sequence[Score] | None = None,
    hand_number: int = 0,
    moon_choice: MoonScoring | str | None = None,
    named: Suit | None = None,
) -> Outcome:
    """A hand's points per seat from the cards each seat took: the scorer every round uses, as a pure function.

    ``taken[seat]`` holds the cards that seat took (text such as ``"QS 2H"``, cards, or card indices). The
    facts scoring needs besides the cards, when the variant asks for them:

    * ``trick_winners``: the winner of each trick in order (None for a cancelled one), for a sun rule and the
      no-tricks bonus; without it a seat that took cards won a trick, and a seat that took every card took
      every trick; ``tricks_won`` (tricks per seat) overrides the count for the no-tricks bonus (a rolled-over
      last trick is won by its leader: :attr:`heartslib.Round.tricks_won`);
    * ``dead``: per seat, the jokers that score only on a hearts lead and were taken on another trick;
    * ``exposed``: the cards exposed this hand (``scoring.exposable``, Gong Zhu);
    * ``passing``: the hand's pass direction (the punishment-rule sun punishes whoever passed to the shooter);
    * ``scores`` and ``hand_number``: the match totals before the hand and its number (0 for the first), for
      the moon rules that look at the game;
    * ``moon_choice``: how the shooter scores a moon when ``moon.kind = "choice"`` (``"old"`` or ``"new"``) or
      ``"lot"`` (``"zero"`` or ``"double"``, which read ``scores``);
    * ``named``: in Auction Hearts (``scoring.settlement = "auction"``), the suit the auction named, whose cards
      are the hand's penalty cards (required there, refused elsewhere; :attr:`heartslib.Round.auction`).

    Raises :class:`~heartslib.IllegalAction` (``bad_argument``) naming the argument that is wrong and what it
    may be, :class:`~heartslib.CardError` for a bad card, :class:`~heartslib.VariantError` when ``variant`` is
    not a :class:`~heartslib.Variant` (all ``ValueError``).

    >>> import heartslib as hl
    >>> gz = hl.preset("gong_zhu")
    >>> score_cards(gz, ["QS TC", "JD", "AH KH", ""]).points
    (-200, 100, -90, 0)
    >>> score_cards(hl.preset("gong_zhu_exposed"), ["QS TC", "JD", "AH KH", ""], exposed="QS AH").points
    (-400, 100, -180, 0)
    """
    expect_variant(variant)
    rules = _hand_rules(variant, named)
    n = variant.players
    if not _many(taken) or len(taken) != n:
        _bad(f"taken must hold the cards of each of the {n} seats, got {arg_text(taken)}")
    cards = [_indices(t) for t in taken]
    if dead is not None and (not _many(dead) or len(dead) != n or not all(_natural(d) for d in dead)):
        _bad(f"dead must be {n} whole numbers >= 0 (jokers that did not score, per seat), got {arg_text(dead)}")
    winners_seen, won = _trick_facts(variant, cards, trick_winners, tricks_won)
    exposed_cards = frozenset(c.index for c in parse_cards(exposed))
    if not isinstance(passing, Offset | PassMode):
        _bad(f"passing is a pass direction (an Offset, hl.HOLD, hl.SCATTER, ...), not {arg_text(passing)}")
    facts = card_facts(rules, cards, dead=dead, tricks_won=won, trick_winners=winners_seen,
                       doubled=exposure_doubles(rules, exposed_cards))
    if scores is not None and not _many(scores):
        _bad(f"scores must be the {n} match totals before the hand, got {arg_text(scores)}")
    before: tuple[Score, ...] = (0,) * n if scores is None else tuple(scores)
    if len(before) != n or not all(isinstance(x, int | complex) and not isinstance(x, bool) for x in before):
        _bad(f"scores must be the {n} match totals before the hand, got {arg_text(scores)}")
    if not _natural(hand_number):
        _bad(f"hand_number must be a whole number >= 0, not {arg_text(hand_number)}")
    result = score(variant, rules, facts, scores_before=before, passing=passing, hands_played=hand_number + 1)
    if isinstance(result, int):
        kind = variant.moon.kind
        options = moon_options(kind)
        if moon_choice is None or moon_choice not in options:
            _bad(f"seat {result} shot the moon and chooses how it scores (moon.kind = \"{kind.value}\"): "
                 f"give moon_choice, one of {', '.join(options)}; got {arg_text(moon_choice)}")
        keep = variant.moon.requires == MoonRequires.PENALTY_CARDS
        return moon_result(facts, rules, result, MoonScoring(moon_choice), keep, before)
    return result


def _trick_facts(
    variant: Variant, cards: list[list[int]], trick_winners: Sequence[int | None] | None,
    tricks_won: Sequence[int] | None,
) -> tuple[tuple[int | None, ...], tuple[int, ...] | None]:
    """:func:`score_cards`' ``trick_winners`` and ``tricks_won``, checked: who won each trick (without them, the
    seats that took cards) and the tricks won per seat (None: counted from the cards)."""
    n = variant.players
    won: tuple[int, ...] | None = None
    if trick_winners is None:
        if variant.moon.sun != Sun.NONE and variant.moon.sun_skips_first_trick:
            _bad("moon.sun_skips_first_trick: give trick_winners (who won each trick) to judge the sun")
        winners_seen: tuple[int | None, ...] = tuple(s for s in range(n) if cards[s])
    else:
        if not _many(trick_winners):
            _bad(f"trick_winners is a sequence of seats 0-{n - 1} (or None), not {arg_text(trick_winners)}")
        for w in trick_winners:
            if w is not None and (not _natural(w) or not w < n):
                _bad(f"trick_winners holds seats 0-{n - 1} (or None), not {arg_text(w)}")
        winners_seen = tuple(trick_winners)
        won = tuple(sum(1 for w in trick_winners if w == s) for s in range(n))
    if tricks_won is not None:
        if not _many(tricks_won) or len(tricks_won) != n or not all(_natural(w) for w in tricks_won):
            _bad(f"tricks_won must be {n} whole numbers >= 0, got {arg_text(tricks_won)}")
        won = tuple(tricks_won)
    return winners_seen, won


def _many(value: object) -> bool:
    """Whether an argument of :func:`score_cards` can be per-seat (or per-trick) values: a collection (a list, a
    tuple, an array), not text."""
    return isinstance(value, Collection) and not isinstance(value, str)


def _natural(value: object) -> bool:
    """Whether ``value`` is a whole number >= 0 (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _bad(message: str) -> NoReturn:
    raise IllegalAction("bad_argument", message)


def _indices(cards: str | Iterable[CardLike | int]) -> list[int]:
    if isinstance(cards, str):
        return [c.index for c in parse_cards(cards)]
    if not isinstance(cards, Iterable):
        raise CardError(f"{arg_text(cards)} is not the cards a seat took (text such as 'QS 2H', cards or indices)")
    out: list[int] = []
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int | str | Card):
            raise CardError(f"{c!r} is not a card (text such as 'QS', a Card, or a card index)")
        out.append(Card.from_index(c).index if isinstance(c, int) else Card.parse(c).index)
    return out



def exposure_doubles(rules: Rules, exposed: Collection[int]) -> frozenset[int]:
    """The cards whose effect doubles this hand when ``exposed`` cards (indices) are exposed: each exposed card
    itself, or every card of the suit it doubles (Gong Zhu's A♥ doubles every heart).

    >>> import heartslib as hl
    >>> rules = hl.preset("gong_zhu_exposed").rules
    >>> sorted(hl.Card.from_index(c).code for c in exposure_doubles(rules, {hl.Card("QS").index}))
    ['QS']
    >>> len(exposure_doubles(rules, {hl.Card("AH").index}))
    13
    """
    if not exposed:
        return frozenset()
    key = exposed if isinstance(exposed, tuple) else tuple(sorted(exposed))
    known = rules.doubled_memo.get(key)
    if known is not None:
        return known
    out: set[int] = set()
    for card in exposed:
        target = rules.exposable.get(card)
        if target is None:
            continue
        if target < 0:
            out.add(card)
        else:
            out.update(c for c in rules.counts if rules.suit[c] == target)
    doubled = rules.doubled_memo[key] = frozenset(out)
    return doubled
