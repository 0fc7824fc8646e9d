"""Scoring a finished round: card points and modifiers, the moon and sun rules, and the match end.

Facts are decided from the cards taken, not from point sums (STYLE 7): a
moon is "this seat took every penalty card that scored this hand", which
stays right with two decks, bonus cards, conditional jokers and the
hand-score modifiers (multipliers, suit doublers, cancelling cards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from heartslib.engine.rules import Rules
from heartslib.engine.tables import HEART
from heartslib.enums import Measure, MoonKind, MoonRequires, MoonScoring, Offset, PassDirection, Shot, Sun, Winner
from heartslib.points import Score, normalise
from heartslib.variant import Variant

__all__ = [
    "Outcome",
    "RoundFacts",
    "apply_exact_reset",
    "hand_points",
    "losing_team",
    "match_over",
    "moon_options",
    "moon_result",
    "reached_target",
    "score",
    "winners",
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


def hand_points(rules: Rules, taken: Sequence[int], dead: int, joker_points: int) -> tuple[Score, Score]:
    """A seat's card points for the hand and the part of them from bonus cards, before multipliers.

    ``dead`` counts conditional jokers taken on tricks where they do not score.
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
    counts = Counter(taken)
    cancelled: Counter[int] = Counter()
    for card, target in rules.cancels.items():
        if counts[card] and counts[target]:
            cancelled[target] += min(counts[card], counts[target])
    suit = rules.suit
    flip = (
        rules.all_hearts_flips
        and rules.hearts_in_pack > 0
        and sum(k for c, k in counts.items() if suit[c] == HEART) == rules.hearts_in_pack
    )
    doubled = {s for card, s in rules.double_suit.items() if counts[card]}
    only_hearts = rules.flips_only_hearts
    total = -dead_points
    bonus = 0
    for card, k in counts.items():
        x = value[card]
        # the flip turns the penalty cards positive (the hearts alone, or the pig too): they count for the taker
        flipped = flip and _real(x) < 0 and (not only_hearts or suit[card] == HEART)
        if flipped:
            x = -x
        if suit[card] in doubled:
            x = x * 2
        x = x * (k - cancelled[card])
        total += x
        if rules.bonus[card] or flipped:
            bonus += x
    return normalise(total), normalise(bonus)


def _real(x: Score) -> float:
    return x.real if isinstance(x, complex) else x


def _multiply(rules: Rules, facts: RoundFacts, points: list[Score]) -> list[Score]:
    """Apply the multiplier cards (10♣ × 2i, × 2 ...) to each taker's final hand score."""
    if not rules.multiply or not facts.taken:
        return points
    for seat, taken in enumerate(facts.taken):
        for card, factor in rules.multiply.items():
            copies = taken.count(card)
            if not copies:
                continue
            alone = rules.multiply_alone.get(card)
            others = [c for c in taken if c != card and c in rules.counters]
            if alone is not None and not others:
                points[seat] = alone * copies
            else:
                for _ in range(copies):
                    points[seat] = points[seat] * factor
    return [normalise(p) for p in points]


# --------------------------------------------------------------------------- the end of the match


def _key(v: Variant, x: Score) -> float:
    if v.end.measure == Measure.MAGNITUDE:
        return abs(x)
    return float(_real(x))


def reached_target(v: Variant, totals: Sequence[Score]) -> bool:
    """Whether some total has reached the target (at least it if positive, at most it if negative)."""
    target = v.end.target
    if not target:
        return False
    keys = [_key(v, t) for t in totals]
    return any(k >= target for k in keys) if target > 0 else any(k <= target for k in keys)


def losing_team(v: Variant, totals: Sequence[Score]) -> int | None:
    """With teams: the team of the worst total among the players who reached the target (or among all
    players if none did); None when players of different teams share that total."""
    rules = v.rules
    keys = [_key(v, t) for t in totals]
    pool = list(range(len(totals)))
    if reached_target(v, totals):
        target = v.end.target
        pool = [s for s in pool if (keys[s] >= target if target > 0 else keys[s] <= target)]
    worst = (max if v.end.winner == Winner.LOWEST else min)(keys[s] for s in pool)
    teams = {rules.team_of[s] for s in pool if keys[s] == worst}
    return teams.pop() if len(teams) == 1 else None


def winners(v: Variant, totals: Sequence[Score], lives: Sequence[int] | None = None) -> tuple[int, ...]:
    """The winning seats for these totals (ties share the win).

    The lowest total wins, or the highest (``end.winner``), measured by the
    score or its magnitude (``end.measure``); with lives, only the players
    with the most lives left can win; with teams, every player not on the
    losing team wins.
    """
    seats = list(range(len(totals)))
    if v.teams:
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


def apply_exact_reset(v: Variant, totals: Sequence[Score]) -> tuple[Score, ...]:
    """Totals after the "exactly the target returns to 0" rule, when it is on."""
    if v.end.reset_at_exact and v.end.target:
        return tuple(0 if t == v.end.target else t for t in totals)
    return tuple(totals)


def match_over(
    v: Variant,
    totals: Sequence[Score],
    hands_played: int,
    outcome: Outcome | None = None,
    lives: Sequence[int] | None = None,
) -> bool:
    """Whether the match ends with these totals after ``hands_played`` hands."""
    if v.end.hands and hands_played >= v.end.hands:
        return True
    if lives is not None and v.end.lives and sum(1 for x in lives if x > 0) <= 1:
        return True
    if not reached_target(v, totals):
        return False
    if outcome is not None and outcome.shooter is not None:
        if v.moon.continue_after_moon:
            return False
        if v.moon.shooter_cannot_win and outcome.shooter in winners(v, totals, lives):
            return False
    return not (v.teams and losing_team(v, totals) is None)


# --------------------------------------------------------------------------- the moon and the sun


def moon_options() -> tuple[MoonScoring, ...]:
    """The options of the shooter's choice (``moon.kind = "choice"``)."""
    return (MoonScoring.OLD, MoonScoring.NEW)


def _passer(shooter: int, passing: PassDirection, rules: Rules) -> int | None:
    if isinstance(passing, Offset) and passing.k % rules.players:
        return (shooter - passing.k * rules.step) % rules.players
    return None


def _normal(v: Variant, rules: Rules, facts: RoundFacts) -> Outcome:
    bonus = v.scoring.no_tricks
    pts = [r + (bonus if won == 0 else 0) for r, won in zip(facts.raw, facts.tricks_won, strict=True)]
    return Outcome(tuple(_multiply(rules, facts, pts)))


def moon_result(facts: RoundFacts, rules: Rules, shooter: int, how: MoonScoring, keep_bonus: bool) -> Outcome:
    """Points when ``shooter`` shot the moon and it is scored ``how`` (old/new/take_all/penalty/no_score).

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
    shooter must first choose old or new moon (``moon.kind = "choice"``)."""
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
                pts[s] = -scores_before[s]
                return Outcome(tuple(pts), s, Shot.SUN, MoonScoring.CLEAN_SLATE)
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
        return _normal(v, rules, facts)

    total_pen = sum(facts.penalty_cards)
    shooter = None
    if moon.kind != MoonKind.NONE and total_pen:
        for s in range(n):
            if facts.penalty_cards[s] == total_pen:
                if moon.requires == MoonRequires.ALL_COUNTERS and facts.bonus_cards[s] != sum(facts.bonus_cards):
                    break
                shooter = s
                break
    if shooter is None:
        return _normal(v, rules, facts)

    kind = moon.kind
    new_kinds = (MoonKind.NEW, MoonKind.CHOICE, MoonKind.NEW_IF_OLD_LOSES)
    if kind in new_kinds and moon.new_after:
        reached = (_key(v, scores_before[shooter]) if moon.new_after_shooter
                   else max(_key(v, x) for x in scores_before))
        if reached < moon.new_after:
            kind = MoonKind.OLD
    if kind == MoonKind.CHOICE:
        return shooter
    if kind == MoonKind.NEW_IF_OLD_LOSES:
        old = moon_result(facts, rules, shooter, MoonScoring.OLD, keep_bonus)
        totals = apply_exact_reset(v, [a + b for a, b in zip(scores_before, old.points, strict=True)])
        # "old moon would end the game": the target or the last of a fixed number of hands, and not a hand
        # after which the match goes on anyway (continue_after_moon)
        if match_over(v, totals, hands_played, old) and shooter not in winners(v, totals):
            return moon_result(facts, rules, shooter, MoonScoring.NEW, keep_bonus)
        return old
    return moon_result(facts, rules, shooter, MoonScoring(kind.value), keep_bonus)
