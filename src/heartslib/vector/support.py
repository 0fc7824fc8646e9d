"""Which variants :mod:`heartslib.vector` plays: an allow-list of every variant field, with the values it implements.

Each field of a variant (:func:`heartslib.sections.field_paths`) is listed in :data:`SUPPORTED` as one of
:mod:`heartslib.engine.allowlists`' entries: :data:`~heartslib.engine.allowlists.ANY` (the environment plays every
value, or a hand never reads the field), a tuple of the values it plays, or an
:class:`~heartslib.engine.allowlists.Only` condition. :func:`check_supported` refuses anything else with a
:class:`~heartslib.VariantError` naming the field and the value.

A field this list does not name yet (a rule added after it) is played only at its default, the value every
variant had before the field existed (as :func:`heartslib.engine.allowlists.refusals` reads an allow-list); any
other value is refused by name until someone lists the field here with the values the environment implements.

>>> import heartslib as hl
>>> check_supported(hl.preset("standard")) is None
True
>>> try:
...     check_supported(hl.preset("standard").replace(deck={"decks": 2}, players=8))
... except hl.VariantError as exc:
...     print(exc.path)
deck.decks
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from heartslib.engine import allowlists
from heartslib.engine.allowlists import ANY, DEFAULTS, Allowed, Only
from heartslib.enums import (
    HOLD,
    SCATTER,
    STAR,
    Breaking,
    Direction,
    ExactFifty,
    FirstTrick,
    HeartsFlip,
    HeartsScoring,
    JokerKind,
    KittyMode,
    LeadHeartsUnbroken,
    Measure,
    MoonKind,
    MoonRequires,
    Offset,
    Opening,
    Settlement,
    Sun,
    Winner,
)
from heartslib.errors import VariantError
from heartslib.points import is_complex
from heartslib.sections import VariantFields, field_paths
from heartslib.serialize import plain, toml_value
from heartslib.variant import Variant, expect_variant

__all__ = ["SUPPORTED", "check_supported", "refusals"]

def _zero_suit_jokers(v: VariantFields) -> bool:
    """The pack's jokers (added by ``deck.jokers`` or the fill), if any, are 0♣ and 0♦, ordinary cards of their
    suits below the 2, each at most once (``deck.joker = "zero_suits"``)."""
    rules = expect_variant(v).rules
    return not rules.jokers or (v.deck.joker == JokerKind.ZERO_SUITS and not rules.repeats)


def _plain_passes(v: VariantFields) -> bool:
    """Every pass of the schedule is an offset (left, right, across, ...), a hold, scatter or star: listed one by
    one, so a pass mode added later is refused until implemented."""
    return all(isinstance(d, Offset) or d in (HOLD, SCATTER, STAR) for d in expect_variant(v).rules.schedule)


def _real_values(v: VariantFields) -> bool:
    return not any(is_complex(x) for x in v.scoring.values.values())


_INT32: Final = 2**31


def _whole_multipliers(v: VariantFields) -> bool:
    """The multipliers (``scoring.multiply``, ``multiply_alone``) are whole numbers and keep every hand's points
    within the 32 bits the environment keeps them in: the most a hand can score before them (every card's
    value, doubled, counted once more per cancelling card, two moons and the no-tricks bonus) times every
    factor."""
    sc = v.scoring
    factors, alone = list(sc.multiply.values()), list(sc.multiply_alone.values())
    if any(is_complex(x) for x in factors + alone):
        return False
    rules = expect_variant(v).rules
    most = (sum(abs(int(rules.value[c].real)) for c in rules.pack) * 2 * (1 + len(sc.cancels))
            + 2 * abs(int(rules.moon_points.real)) + abs(sc.no_tricks))
    for f in factors:
        most *= max(abs(int(f.real)), 1)
    return max([most, *(abs(int(x.real)) for x in alone)]) < _INT32


#: The moon rules played whatever the match's rules (listed one by one: a kind added later is refused).
_MOON_KINDS: Final = (MoonKind.NONE, MoonKind.NO_SCORE, MoonKind.OLD, MoonKind.NEW, MoonKind.CHOICE, MoonKind.TAKE_ALL,
                      MoonKind.PENALTY, MoonKind.LOT)
_KINDS_TEXT: Final = ", ".join(toml_value(plain(k)) for k in _MOON_KINDS)


def _moon_kind(v: VariantFields) -> bool:
    """A moon kind of :data:`_MOON_KINDS`, or ``"new_if_old_loses"`` where the hand alone can judge the end of the
    match the old moon would bring (``kernel.old_loses``): no teams, no fixed number of hands (the hand's number
    is not on the device), no exact-total rule changing the totals."""
    kind = v.moon.kind
    if kind in _MOON_KINDS:
        return True
    end = v.end
    return kind == MoonKind.NEW_IF_OLD_LOSES and not v.teams and not end.hands and not end.reset_at_exact and \
        end.exact_fifty == ExactFifty.NONE and not end.magic_multiple and not end.round_bonuses


#: Every variant field and the values the environment plays (see the module docs).
SUPPORTED: Final[Mapping[str, Allowed]] = {
    "name": ANY,
    "source": ANY,
    "players": ANY,  # one deck: 3 to 10 players, the pack stripped as the variant says
    "direction": (Direction.CLOCKWISE, Direction.ANTICLOCKWISE),  # the seat order: the compiled Rules.step
    "teams": ANY,  # partners in the moon's and the sun's "other players" (Rules.team_of)
    "deck.decks": (1,),
    "deck.fill": ANY,  # the kitty it leaves (kernel.kitty_due), the jokers it adds (deck.joker)
    "deck.strip": ANY,  # the compiled pack
    "deck.kitty": (KittyMode.FIRST_TRICK, KittyMode.ONE_PER_TRICK, KittyMode.FIRST_AND_LAST),
    "deck.kitty_seen_by_winner": ANY,  # the observation's kitty section
    "deck.jokers": ANY,  # what they are is deck.joker's
    "deck.joker": Only("\"zero_suits\" (0♣ and 0♦, each at most once; not valueless jokers)", _zero_suit_jokers),
    "deck.joker_play": ANY,  # the valueless joker's rules: unread with zero-suit jokers
    "deck.joker_lead": ANY,
    "deck.joker_points": ANY,  # the jokers' value (Rules.value)
    # a joker scoring only on a hearts lead needs each trick's suit led at the end: not kept
    "deck.joker_points_when": Only("\"always\" (or jokers worth nothing)",
                                   lambda v: not expect_variant(v).rules.joker_conditional),
    "passing.cards": ANY,
    "passing.schedule": Only("offsets, holds, scatter and star passes (not the shuffle pass or the dealer's choice)",
                             _plain_passes),
    "passing.forbidden": ANY,
    # a pass keeping a card of each suit it takes from, but the exempt cards: the pass masks (kernel.pass_room)
    **dict.fromkeys(("passing.keep_last_of_suit", "passing.last_of_suit_exempt"), ANY),
    # the leads and follows of legality.candidates, written over card masks (kernel.candidates and its steps);
    # an enum a hand reads lists its values, so a value added to the enum is refused until it is implemented
    "play.opening": (Opening.TWO_OF_CLUBS, Opening.ANY_CLUB, Opening.ELDEST_ANY),
    "play.breaking": (Breaking.HEARTS, Breaking.PENALTY_CARDS, Breaking.NONE),
    "play.lead_hearts_unbroken": (LeadHeartsUnbroken.ONLY_HEARTS, LeadHeartsUnbroken.ONLY_PENALTY_CARDS),
    "play.first_trick": (FirstTrick.ANY, FirstTrick.NO_POINTS, FirstTrick.NO_HEARTS),
    **dict.fromkeys(("play.queen_needs_broken", "play.queen_forced", "play.must_discard", "play.must_discard_if_all",
                     "play.opening_card"), ANY),
    "play.booster_nines": (False,),
    "play.opening_taker": ANY,  # the next hand's leader: a Round given to from_rounds carries it
    "play.identical": ANY,  # one deck without jokers: no two cards alike
    "play.cancel_rollover": ANY,  # only with identical cards that cancel
    # the undercut and both its readings: the last step of the forced plays (kernel.forced, kernel.undercut)
    **dict.fromkeys(("play.undercut", "play.undercut_ceiling", "play.undercut_binds_discards"), ANY),
    "scoring.hearts": (HeartsScoring.ONE, HeartsScoring.SPOT),
    "scoring.values": Only("whole-number card values (no complex scores)", _real_values),
    "scoring.no_tricks": ANY,
    # the hand's modifiers: kernel.card_worth and kernel.multiplied
    "scoring.multiply": Only("whole-number multipliers that keep a hand's points within 32 bits",
                             _whole_multipliers),
    "scoring.multiply_alone": ANY,  # only with scoring.multiply (the engine refuses it without), checked there
    "scoring.double_suit": ANY,
    "scoring.cancels": ANY,
    "scoring.all_hearts_flips": (HeartsFlip.NONE, HeartsFlip.HEARTS, HeartsFlip.PENALTY_CARDS),
    # the match's business (settled from the hand's points); an auction's bidding and named suit are not written
    "scoring.settlement": (Settlement.NONE, Settlement.SWEEPSTAKE, Settlement.HOWELL),
    "scoring.exposable": ANY,  # the exposures before the first lead (kernel.exposing, kernel.exposed)
    "moon.kind": Only(f"{_KINDS_TEXT}, and \"new_if_old_loses\" where a hand can tell whether the old moon ends "
                      "the match (no teams, end.hands = 0, no exact-total rules)", _moon_kind),
    "moon.requires": (MoonRequires.PENALTY_CARDS, MoonRequires.ALL_COUNTERS),
    "moon.points": Only("a whole number (no complex scores)", lambda v: not is_complex(v.moon.points)),
    "moon.new_after": ANY,
    "moon.new_after_shooter": ANY,
    "moon.sun": (Sun.NONE, Sun.ADD_52, Sun.PUNISH_PASSER, Sun.CLEAN_SLATE, Sun.SUBTRACT_52),
    "moon.sun_skips_first_trick": ANY,
    "moon.sun_and_moon": ANY,  # the moon rule where nobody shot the sun (kernel.hand_end)
    "end.winner": (Winner.LOWEST, Winner.HIGHEST),  # the rewards' sign
    "end.measure": (Measure.SCORE, Measure.MAGNITUDE),  # the rewards: the change of a score's magnitude
    # a match's rules, after the hand's points: a hand never reads them
    **dict.fromkeys(("moon.shooter_cannot_win", "moon.continue_after_moon", "moon.big_moon", "end.target",
                     "end.lives", "end.life_threshold", "end.reset_at_exact", "end.magic_multiple", "end.hands",
                     "end.exact_fifty", "end.round_bonuses", "end.win_target", "end.team_scores", "end.losing_team",
                     "end.next_dealer", "end.dealer_ties"), ANY),
}

def _allowed_text(entry: Allowed) -> str:
    if isinstance(entry, Only):
        return entry.why
    if isinstance(entry, tuple):
        return ", ".join(toml_value(plain(x)) for x in entry)
    return "any value"


def refusals(variant: Variant) -> list[tuple[str, str]]:
    """``(path, message)`` for every field of ``variant`` that :class:`heartslib.vector.Env` does not play, in
    declaration order (empty for a variant it plays)."""
    values = dict(field_paths(variant))
    out: list[tuple[str, str]] = []
    for path in allowlists.refusals(variant, SUPPORTED):  # a field not listed: its default only, as there
        if path in SUPPORTED:
            allowed = _allowed_text(SUPPORTED[path])
        else:
            allowed = f"{toml_value(plain(DEFAULTS[path]))} (a rule it does not list yet: only its default)"
        out.append((path, f"heartslib.vector does not implement {path} = {toml_value(plain(values[path]))} "
                          f"(it plays: {allowed})"))
    return out


def check_supported(variant: Variant) -> None:
    """Raise :class:`~heartslib.VariantError` naming the first field (and its value) that
    :class:`heartslib.vector.Env` does not play (every such field in ``problems``); None for a variant it
    plays exactly."""
    v = expect_variant(variant)
    problems = refusals(v)
    if problems:
        path, message = problems[0]
        raise VariantError(path, message, problems=tuple(problems))
