"""Finishing a hand: the facts scoring needs, decided from the cards each seat took, and the hand-off to scoring.

:func:`score_round` scores a finished hand: when no moon is possible, with the
summed scorer for the variants admitted to it (``Rules.tally``,
:data:`~heartslib.engine.fastpath.SUMMED_SCORING`: card sums, one a seat with
whole-number values, and :func:`heartslib.scoring.hand_points` for a seat
whose cards bring a modifier into play), otherwise with the steps of
:func:`heartslib.scoring.score_cards`, the one scorer
(:func:`heartslib.scoring.card_facts`, then :func:`heartslib.scoring.score`,
which owns the moon, the sun and the modifiers). A shooter's choice of old
or new moon becomes a decision (:func:`choose_moon` carries it out).

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

from typing import Final

from heartslib.actions import MoonShot, RoundScored
from heartslib.engine.rules import TALLY_MASK, VALUE_SHIFT, Rules
from heartslib.engine.state import RawTrick, RoundState
from heartslib.engine.tables import NATIVE
from heartslib.enums import Decision, MoonRequires, MoonScoring, Phase
from heartslib.points import Score, normalise
from heartslib.scoring import (
    Outcome,
    RoundFacts,
    card_facts,
    exposure_doubles,
    hand_points,
    moon_options,
    moon_result,
    moon_taker,
    multiply_points,
    score,
)

__all__ = [
    "choose_moon", "facts", "facts_of", "finish", "moon_shooter", "penalty_points", "score_round",
    "summed_points",
]


def facts(s: RoundState) -> RoundFacts:
    """What happened in the hand, as scoring needs it, from the cards each seat took
    (:func:`heartslib.scoring.card_facts`, the first step of :func:`heartslib.scoring.score_cards`)."""
    return facts_of(s, s.taken, s.won, s.tricks)


def facts_of(s: RoundState, taken_by: list[list[int]], won: list[int], tricks: list[RawTrick]) -> RoundFacts:
    """:func:`facts` for the cards ``taken_by`` each seat, the tricks ``won`` and the ``tricks`` of a hand
    played out from ``s`` (the round's own, or a rollout's)."""
    return card_facts(s.rules, taken_by, dead=s.dead, tricks_won=won,
                      trick_winners=tuple(None if t[4] < 0 else t[4] for t in tricks),
                      doubled=exposure_doubles(s.rules, s.exposed))


def penalty_points(s: RoundState) -> tuple[int, ...]:
    """Per seat, the points its penalty cards scored this hand, before the moon (what Foster's counter
    settlements are paid on; ``scoring.settlement`` requires whole-number values).

    These are the points the seat actually scored: a joker that scores only on a hearts lead and was
    taken on another trick counts nothing (the card points less the bonus cards' part of them).
    """
    f = facts(s)
    return tuple(int((points - bonus).real) for points, bonus in zip(f.raw, f.bonus, strict=True))


def moon_shooter(s: RoundState) -> int:
    """The seat that took every penalty card that scored (a moon is pending)."""
    shooter = moon_taker(facts(s), s.variant.moon.requires)
    assert shooter is not None
    return shooter


def summed_points(rules: Rules, taken: list[list[int]], exposed: tuple[int, ...]) -> tuple[Score, ...] | None:
    """The summed scorer (for the variants admitted to it; ``Rules.tally``): a seat's points are the sum of its
    card values (a card an exposure doubles counted twice) unless its cards bring a modifier into play (a suit
    doubler or cancelling card, every heart with the all-hearts flip), when :func:`heartslib.scoring.hand_points`
    scores them; then the multipliers (:func:`heartslib.scoring.multiply_points`). With whole-number values one
    sum per seat (``Rules.packed``) gives both its points and its tally. None when the variant is not admitted or
    someone may have shot the moon (that goes the long way)."""
    tally = rules.tally
    if tally is None:
        return None
    doubled = exposure_doubles(rules, exposed) if exposed else frozenset()
    flip = rules.hearts_in_pack if rules.all_hearts_flips and rules.hearts_in_pack > 0 else -1
    packed = rules.packed
    if packed is not None and doubled:
        # a card an exposure doubles counts its value twice: in a copy of the table (a hand's exposures are its own)
        packed = list(packed)
        for c in doubled:
            packed[c] += (packed[c] >> VALUE_SHIFT) << VALUE_SHIFT
    value = rules.value
    pen: list[int] = []
    points: list[Score] = []
    for cards in taken:
        x: Score = 0
        if packed is not None:
            if NATIVE:  # a native loop; interpreted, sum over map stays in C
                t = 0
                for c in cards:
                    t += packed[c]
            else:
                t = sum(map(packed.__getitem__, cards))
            x = t >> VALUE_SHIFT
            t &= TALLY_MASK
        else:  # complex values: the tally and the points summed apart (a sum of scores is not native compiled)
            t = 0
            for c in cards:
                t += tally[c]
                x += value[c]
                if c in doubled:
                    x += value[c]
        if t & 0x3F80 or t >> 14 == flip:
            x = hand_points(rules, cards, 0, 0, doubled=doubled)[0]
        pen.append(t & 127)
        points.append(x if packed is not None else normalise(x))
    total = sum(pen)
    if rules.moon_on and total and total in pen:
        return None
    return tuple(multiply_points(rules, taken, doubled, points))


#: The outcome and the closing event of a hand nobody shot, by its points (whole numbers), each made once and
#: shared, as the plays are (``tables.PLAYS``): both are frozen, and attrs builds them in Python, which cost a
#: compiled random playout a tenth of its time. Emptied when full, so it never outgrows the points seen lately.
_SCORED: Final[dict[tuple[Score, ...], tuple[Outcome, RoundScored]]] = {}
_SCORED_SIZE: Final = 4096


def score_round(s: RoundState) -> None:
    """Score the finished hand (or ask the shooter to choose how, for ``moon.kind = "choice"``)."""
    rules = s.rules
    points = summed_points(rules, s.taken, s.exposed)
    if points is not None and not rules.complex:
        # whole numbers (the values, multipliers and moon are): a key that a complex score cannot equal
        scored = _SCORED.get(points)
        if scored is None:
            if len(_SCORED) >= _SCORED_SIZE:
                _SCORED.clear()
            scored = _SCORED[points] = (Outcome(points), RoundScored(points))
        finish(s, scored[0], scored[1])
        return
    if points is not None:
        finish(s, Outcome(points))
        return
    result = score(s.variant, rules, facts(s), scores_before=s.scores, passing=s.passing,
                   hands_played=s.hand_number + 1)
    if isinstance(result, int):
        s.phase = Phase.DECIDE
        s.decision = (Decision.MOON, result, moon_options(s.variant.moon.kind))
        return
    finish(s, result)


def choose_moon(s: RoundState, option: str) -> None:
    """The shooter chose how the moon scores (``"old"`` or ``"new"``; going for the lot, ``"zero"`` or
    ``"double"``)."""
    keep = s.variant.moon.requires == MoonRequires.PENALTY_CARDS
    finish(s, moon_result(facts(s), s.rules, moon_shooter(s), MoonScoring(option), keep, s.scores))


def finish(s: RoundState, outcome: Outcome, scored: RoundScored | None = None) -> None:
    """Record the scored hand and end the round (``scored``: the closing event, if made already)."""
    s.outcome = outcome
    if outcome.shooter is not None:
        assert outcome.kind is not None and outcome.scoring is not None
        s.events.append(MoonShot(outcome.shooter, outcome.kind, outcome.scoring))
    s.events.append(RoundScored(outcome.points) if scored is None else scored)
    s.phase = Phase.OVER
    s.turn = -1
