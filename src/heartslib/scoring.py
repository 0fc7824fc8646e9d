"""Scoring a finished round: card points, the moon and sun rules, and the match end.

Facts are decided from the cards taken, not from point sums (STYLE 7): a
moon is "this seat took every penalty card that scored this hand", which
stays right with two decks, bonus cards and conditional jokers.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from heartslib.enums import MoonKind, MoonRequires, Offset, PassDirection, Sun
from heartslib.rules import Rules
from heartslib.variant import Variant

__all__ = ["Outcome", "RoundFacts", "match_over", "moon_options", "score", "winners"]


@attrs.frozen
class RoundFacts:
    """What happened in a round, as scoring needs it (all per seat)."""

    raw: tuple[int, ...]
    """Card points taken (conditional jokers already adjusted)."""
    bonus: tuple[int, ...]
    """The negative part of ``raw`` (bonus cards taken)."""
    penalty_cards: tuple[int, ...]
    """How many penalty cards that scored this hand each seat took."""
    bonus_cards: tuple[int, ...]
    tricks_won: tuple[int, ...]
    trick_winners: tuple[int | None, ...]
    """Winner of each trick in order (None for a cancelled trick)."""


@attrs.frozen
class Outcome:
    """A scored round: ``points`` per seat and, if any, who shot the moon/sun and how it scored."""

    points: tuple[int, ...]
    shooter: int | None = None
    kind: str = ""
    """``"moon"`` or ``"sun"`` when someone shot it."""
    scoring: str = ""
    """How it was scored: ``"old"``, ``"new"``, ``"no_score"``, ``"take_all"``, ``"add_52"``, ..."""


def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """Seats with the lowest total (ties share the win)."""
    best = min(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)


def apply_exact_reset(v: Variant, totals: Sequence[int]) -> tuple[int, ...]:
    """Totals after the "exactly the target returns to 0" rule, when it is on."""
    if v.end.reset_at_exact and v.end.target:
        return tuple(0 if t == v.end.target else t for t in totals)
    return tuple(totals)


def match_over(v: Variant, totals: Sequence[int], hands_played: int, outcome: Outcome | None = None) -> bool:
    """Whether the match ends with these totals after ``hands_played`` hands."""
    if v.end.hands and hands_played >= v.end.hands:
        return True
    if outcome is not None and outcome.shooter is not None:
        if v.moon.continue_after_moon:
            return False
        if v.moon.shooter_cannot_win and outcome.shooter in winners(totals):
            reached = v.end.target and max(totals) >= v.end.target
            if reached:
                return False
    return bool(v.end.target) and max(totals) >= v.end.target


def moon_options() -> tuple[str, ...]:
    """The options of the shooter's choice (``moon.kind = "choice"``)."""
    return ("old", "new")


def _passer(shooter: int, passing: PassDirection, rules: Rules) -> int | None:
    if isinstance(passing, Offset) and passing.k % rules.players:
        return (shooter - passing.k * rules.step) % rules.players
    return None


def _normal(v: Variant, facts: RoundFacts) -> Outcome:
    bonus = v.scoring.no_tricks
    pts = tuple(
        r + (bonus if won == 0 else 0) for r, won in zip(facts.raw, facts.tricks_won, strict=True)
    )
    return Outcome(pts)


def moon_result(facts: RoundFacts, rules: Rules, shooter: int, how: str, keep_bonus: bool) -> Outcome:
    """Points when ``shooter`` shot the moon and it is scored ``how`` (old/new/take_all/no_score)."""
    p = rules.moon_points
    n = len(facts.raw)
    if how == "no_score":
        return Outcome((0,) * n, shooter, "moon", how)
    own = facts.bonus[shooter] if keep_bonus else 0
    if how == "old":
        pts = [facts.raw[s] + p for s in range(n)]
        pts[shooter] = own
    else:  # new, take_all
        pts = list(facts.raw)
        pts[shooter] = -p + own
    return Outcome(tuple(pts), shooter, "moon", how)


def score(
    v: Variant,
    rules: Rules,
    facts: RoundFacts,
    *,
    scores_before: Sequence[int],
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
                return Outcome(tuple(pts), s, "sun", moon.sun.value)
            passer = _passer(s, passing, rules) if moon.sun == Sun.PUNISH_PASSER else None
            for o in range(n):
                if o != s:
                    extra = 2 * p if passer is None or o == passer else p
                    pts[o] = facts.raw[o] + extra
            pts[s] = own
            how = moon.sun.value if passer is not None or moon.sun == Sun.ADD_52 else "add_52"
            return Outcome(tuple(pts), s, "sun", how)
        return _normal(v, facts)

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
        return _normal(v, facts)

    kind = moon.kind
    new_kinds = (MoonKind.NEW, MoonKind.CHOICE, MoonKind.NEW_IF_OLD_LOSES)
    if kind in new_kinds and moon.new_after and max(scores_before) < moon.new_after:
        kind = MoonKind.OLD
    if kind == MoonKind.CHOICE:
        return shooter
    if kind == MoonKind.NEW_IF_OLD_LOSES:
        old = moon_result(facts, rules, shooter, "old", keep_bonus)
        totals = apply_exact_reset(v, [a + b for a, b in zip(scores_before, old.points, strict=True)])
        ends = bool(v.end.target) and max(totals) >= v.end.target
        if ends and shooter not in winners(totals):
            return moon_result(facts, rules, shooter, "new", keep_bonus)
        return old
    how = {MoonKind.OLD: "old", MoonKind.NEW: "new", MoonKind.TAKE_ALL: "take_all",
           MoonKind.NO_SCORE: "no_score"}[kind]
    return moon_result(facts, rules, shooter, how, keep_bonus)


__all__ += ["apply_exact_reset", "moon_result"]
