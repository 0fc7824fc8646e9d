"""Fast paths are admitted, never assumed: the allow-lists of the variant fields each fast path implements.

The engine keeps its optimised paths beside its general code:

* **plain tricks** (:data:`PLAIN_TRICKS`): the short branch of playing a card
  and of settling a trick (:mod:`heartslib.engine.tricks`): one card from each
  player, the highest of the suit led winning (one or two decks, first- or
  last-wins ties);
* **summed scoring** (:data:`SUMMED_SCORING`): a hand with no possible moon
  scored from card sums (one a seat with whole-number values), the seats whose
  cards bring a modifier into play (suit doublers, cancelling cards, the
  all-hearts flip) scored by :func:`heartslib.scoring.hand_points`, the
  multipliers by the scorer's own step (:mod:`heartslib.engine.finishing`).

A variant takes a fast path only if each field the path's allow-list names
has a value it allows, and each field it does not name (a new option, say)
is at its default: a default is the behaviour from before the option
existed, which every path implements, and any other value keeps the variant
on the general path, which is always right. So a new option needs nothing
here; whoever makes a path implement it lists it, and the differential tests
in ``tests/test_conformance.py`` (the same random numbers through both
paths) hold every listed value to the general path.

Each entry is :data:`ANY` (the path implements every value, or does not look
at the field), a tuple of the allowed values, or an :class:`Only` condition
over the variant's fields (for a value that is harmless in some combinations
only). The fields every path takes at any value are named once
(``_EVERY_PATH``); each list adds its own entries, so a list names exactly
what its path implements beyond them.

>>> import heartslib as hl
>>> refusals(hl.preset("cancellation"), PLAIN_TRICKS)
['play.identical']
>>> refusals(hl.preset("standard"), PLAIN_TRICKS), refusals(hl.preset("complex_hearts"), SUMMED_SCORING)
([], [])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from heartslib.engine.allowlists import ANY, DEFAULTS, Allowed, Only, admits, refusals
from heartslib.enums import (
    Fill,
    Identical,
    JokerKind,
    JokerPointsWhen,
    Sun,
)
from heartslib.sections import VariantFields

# the allow-list vocabulary lives in engine.allowlists; its names stay importable from here
__all__ = [
    "ANY", "DEFAULTS", "PLAIN_TRICKS", "SUMMED_SCORING", "Allowed", "Only", "admits", "refusals",
]


def _no_conditional_jokers(v: VariantFields) -> bool:
    return v.deck.joker_points_when == JokerPointsWhen.ALWAYS or v.deck.joker_points == 0


def _no_valueless_jokers(v: VariantFields) -> bool:
    return v.deck.joker == JokerKind.ZERO_SUITS or (v.deck.jokers == 0 and v.deck.fill != Fill.JOKERS)


#: The fields every fast path implements at any value, or never reads: who plays (seat orders, teams and the
#: copies of two decks come from the compiled tables; ties from ``rules.challenge``), the deck's make-up (the
#: short paths run once the kitty is empty, the fast loop hands kitty cards to ``tricks.settle``; zero-suit jokers
#: are ordinary cards of their suit; only valueless jokers have play rules of their own), the pass (the paths
#: start in play), the play rules the paths leave to legality or read only with another rule, and the match's
#: business (moons are scored the long way, the end of a match is not a hand's). Each path adds its own entries.
_EVERY_PATH: Final = (
    "name", "source", "players", "direction", "teams",
    "deck.decks", "deck.fill", "deck.strip", "deck.kitty", "deck.kitty_seen_by_winner", "deck.jokers",
    "deck.joker_play", "deck.joker_lead", "deck.joker_points",
    "passing.cards", "passing.schedule", "passing.forbidden", "passing.keep_last_of_suit",
    "passing.last_of_suit_exempt",
    "play.opening", "play.breaking", "play.first_trick", "play.opening_card", "play.opening_taker",
    "play.must_discard_if_all", "play.cancel_rollover", "play.undercut_ceiling", "play.undercut_binds_discards",
    "scoring.hearts", "scoring.multiply_alone",
    "moon.kind", "moon.requires", "moon.points", "moon.new_after", "moon.new_after_shooter",
    "moon.sun_skips_first_trick", "moon.sun_and_moon", "moon.shooter_cannot_win", "moon.continue_after_moon",
    "moon.big_moon",
    "end.target", "end.winner", "end.measure", "end.lives", "end.life_threshold", "end.reset_at_exact",
    "end.magic_multiple", "end.hands", "end.exact_fifty", "end.round_bonuses", "end.win_target", "end.team_scores",
    "end.next_dealer", "end.dealer_ties", "end.losing_team",
)


def _every(*more: str) -> dict[str, Allowed]:
    """:data:`_EVERY_PATH` and ``more`` as :data:`ANY` entries."""
    return dict.fromkeys((*_EVERY_PATH, *more), ANY)


_ZERO_SUIT_JOKERS = Only("zero-suit jokers, or no jokers in the pack", _no_valueless_jokers)
_ALWAYS_SCORING_JOKERS = Only("jokers that always score (or score nothing)", _no_conditional_jokers)

#: Playing a card and settling a trick without the branches for booster nines, suitless jokers, conditional
#: jokers and cancellation (``Rules.short_tricks``: ``tricks.play_card``'s short branch and ``tricks.resolve``'s
#: short path, once the kitty is handed out). Who may play what is legality's business, and what a trick scores
#: the scorer's: not looked at here.
PLAIN_TRICKS: Final[Mapping[str, Allowed]] = {
    **_every(
        "play.lead_hearts_unbroken", "play.queen_needs_broken", "play.queen_forced", "play.must_discard",
        "play.undercut",  # legality
        "scoring.values", "scoring.no_tricks", "scoring.multiply", "scoring.double_suit", "scoring.cancels",
        "scoring.all_hearts_flips", "scoring.settlement", "scoring.exposable", "moon.sun",  # scoring
    ),
    "deck.joker": _ZERO_SUIT_JOKERS,
    "deck.joker_points_when": _ALWAYS_SCORING_JOKERS,
    "play.booster_nines": (False,),
    "play.identical": Only(
        "first or last wins (no cancellation)",
        lambda v: v.play.identical != Identical.CANCEL or v.deck.decks == 1,
    ),
}


#: Scoring a hand with no possible moon from card sums (``Rules.tally``; with whole-number values one sum per
#: seat, ``Rules.packed``): its card values, and a tally packing its penalty cards, its modifier cards (suit
#: doublers, cancelling cards) and its hearts. A seat that took a modifier card or every heart with the
#: all-hearts flip is scored by :func:`heartslib.scoring.hand_points` (which owns those rules), and the
#: multipliers by the scorer's own step; the other seats' points are their card sums, a card an exposure doubles
#: counted twice. A hand in which someone could have shot the moon goes the long way.
SUMMED_SCORING: Final[Mapping[str, Allowed]] = {
    **_every(
        "deck.joker",  # a joker's points are in the value table
        # play rules decide who takes what, not what it scores
        "play.lead_hearts_unbroken", "play.queen_needs_broken", "play.queen_forced", "play.must_discard",
        "play.booster_nines", "play.undercut", "play.identical",
        "scoring.settlement",  # settled from the penalty points, apart from the score
        "scoring.values",  # complex values too: the sums are normalised as hand_points normalises them
        "scoring.multiply",  # the scorer's own multiplier step
        "scoring.double_suit",  # a seat that took a doubler goes to hand_points
        "scoring.cancels",  # a seat that took a cancelling card goes to hand_points
        "scoring.all_hearts_flips",  # a seat that took every heart goes to hand_points
        "scoring.exposable",  # a doubled card counts twice (with another modifier in play: hand_points)
    ),
    "deck.joker_points_when": _ALWAYS_SCORING_JOKERS,
    "scoring.no_tricks": (0,),
    "moon.sun": (Sun.NONE,),
}


