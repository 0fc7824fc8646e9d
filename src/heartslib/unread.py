"""The fields a variant sets away from their defaults that none of its rules reads.

A rules file may set a field that another field switches off: a new-moon
threshold with no moon, a kitty mode with no kitty, a Q♠ lock in a game that
never locks hearts. Such a variant is valid and plays as if the field were at
its default; :meth:`heartslib.Variant.unread_fields` names each such field
and why, and ``heartslib validate`` prints them as notes for the fields the
file itself sets. They are notes, not refusals, because a rules file that
borrows a preset and changes one rule (``moon.kind = "none"``) should not
have to clear every field that rule made moot. Combinations that can only be
a mistake (a reading of a rule that is off, such as ``play.undercut_ceiling``
without ``play.undercut``) are refused by :mod:`heartslib.engine.checks`.

Each entry here says which fields its rule reads them under, as the owning
code does (scoring, legality, tricks, the match): ``tests/test_unread.py``
plays random variants with each named field put back to its default and
checks that nothing changes.

>>> import heartslib as hl
>>> for path, why in hl.preset("standard").replace(moon={"kind": "none", "new_after": 50}).unread_fields():
...     print(path, "-", why)
moon.new_after - only a new moon reads it (moon.kind "new", "choice" or "new_if_old_loses"); this variant has no moon
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from heartslib.cards import Card, Suit
from heartslib.engine.allowlists import DEFAULTS
from heartslib.engine.rules import Compiled
from heartslib.enums import (
    BIG_MOON_HANDS,
    HOLD,
    SCATTER,
    STAR,
    BigMoon,
    Breaking,
    Direction,
    Fill,
    Identical,
    JokerPointsWhen,
    MoonKind,
    NextDealer,
    Opening,
    Settlement,
    StockDraw,
    Sun,
)
from heartslib.sections import SECTIONS, StripTable

__all__ = ["lists_every_heart", "unread_fields"]

#: The moon kinds that read ``moon.new_after`` (and through it ``moon.new_after_shooter``).
_NEW_KINDS = (MoonKind.NEW, MoonKind.CHOICE, MoonKind.NEW_IF_OLD_LOSES)


def unread_fields(v: Compiled) -> list[tuple[str, str]]:
    """``(path, why)`` for each field of ``v`` set away from its default that no rule of ``v`` reads."""
    out: dict[str, str] = {}

    def note(section: Any, name: str, why: str) -> None:
        path = f"{_SECTION[type(section)]}.{name}"
        if getattr(section, name) != DEFAULTS[path] and path not in out:
            out[path] = why  # the first reason found is the one given

    _deck(v, note)
    _passing(v, note)
    _play(v, note)
    _scoring(v, note)
    _moon(v, note)
    _end(v, note)
    if v.players == 2 and v.direction != Direction.CLOCKWISE:
        out["direction"] = "with two players each seat's left is its right: both directions play the same"
    return list(out.items())


#: How a section's field is noted: ``note(section, field name, why)`` (only when the field is not at its default).
Note = Callable[[Any, str, str], None]

#: Each section's name by its class.
_SECTION = {cls: name for name, cls in SECTIONS.items()}


def lists_every_heart(v: Compiled) -> bool:
    """Whether ``scoring.values`` lists every heart of the pack (Gong Zhu), which then replaces the hearts rule."""
    return all(c in v.scoring.values for c in v.rules.pack_cards if c.suit == Suit.HEARTS)


def _deck(v: Compiled, note: Note) -> None:
    r, deck = v.rules, v.deck
    if r.kitty_size == 0 or deck.stock != StockDraw.NONE:
        why = ("only a kitty reads it (the cards left over from the deal); this deal leaves none"
               if deck.stock == StockDraw.NONE else "only a kitty reads it; in a game with a stock the cards left "
               "over are the stock")
        note(deck, "kitty", why)
        note(deck, "kitty_seen_by_winner", why)
    if not r.jokers:
        why = "only jokers in the pack read it; this pack has none"
        note(deck, "joker", why)
        note(deck, "joker_points", why)
        note(deck, "joker_points_when", why)
    elif deck.joker_points == 0:
        note(deck, "joker_points_when", "it says when deck.joker_points count; they are 0")
    elif deck.joker_points_when == JokerPointsWhen.ALWAYS and all(Card.from_index(j) in v.scoring.values
                                                                  for j in r.jokers):
        note(deck, "joker_points", "scoring.values lists every joker of this pack, and a listed card keeps its value")
    # a priority order is read only to even the deal out (a table by players always applies); one that this
    # player count does not need is still the rule for the counts that do (culbertson_1950 lists its source's
    # order at four players), so only a fill that never strips leaves it unread
    if not isinstance(deck.strip, StripTable) and deck.fill != Fill.STRIP:
        note(deck, "strip", f"only deck.fill = \"strip\" reads a strip order; this deck fills with "
             f"\"{deck.fill.value}\"")
    if not r.valueless:
        why = ("only the valueless joker (JK, deck.joker = \"valueless\") reads it; "
               + ("this pack has no joker" if not r.jokers else "this pack's jokers are low cards of a suit"))
        note(deck, "joker_play", why)
        note(deck, "joker_lead", why)


def _passing(v: Compiled, note: Note) -> None:
    p, schedule = v.passing, v.rules.schedule
    if all(d is HOLD for d in schedule):
        why = "the pass schedule never passes (every hand holds)"
        for name in ("cards", "forbidden", "keep_last_of_suit", "last_of_suit_exempt"):
            note(p, name, why)
    elif all(d is HOLD or d is SCATTER or d is STAR for d in schedule):
        note(p, "cards", "a scatter pass passes one card to each other seat and a star pass two, whatever this "
             "says, and the schedule has no other pass")


def _play(v: Compiled, note: Note) -> None:
    play = v.play
    if v.scoring.settlement == Settlement.AUCTION:
        why = "in an auction the bid's winner leads any card, whatever the opening rule"
        note(play, "opening", why)
        note(play, "opening_card", why)
    elif play.opening == Opening.ELDEST_ANY:
        note(play, "opening_card", "only an opening rule that searches for a card reads it (play.opening "
             "\"two_of_clubs\" or \"any_club\"); with \"eldest_any\" the eldest hand leads any card")
    if play.breaking == Breaking.NONE:
        why = "only a rule that locks hearts until they are broken reads it; play.breaking is \"none\""
        note(play, "queen_needs_broken", why)
        note(play, "lead_hearts_unbroken", why)
    if play.identical != Identical.CANCEL:
        note(play, "cancel_rollover", "only cancellation reads it (play.identical = \"cancel\")")
    if v.deck.decks == 1:
        note(play, "identical", "only two decks read it (identical cards in one trick); this game has one deck")
    if len(set(play.must_discard)) < 2:
        note(play, "must_discard_if_all", "it matters only with two or more cards in play.must_discard "
             "(holding all of one card is holding it)")


def _scoring(v: Compiled, note: Note) -> None:
    sc, r = v.scoring, v.rules
    if sc.exposable and not r.exposable:
        note(sc, "exposable", "none of its cards is in this pack, so there is nothing to expose")
    if lists_every_heart(v):
        note(sc, "hearts", "scoring.values lists every heart of this pack, and a listed card keeps its value")


def _moon(v: Compiled, note: Note) -> None:
    moon = v.moon
    sun_replaces = moon.sun != Sun.NONE and not moon.sun_and_moon
    hands = v.end.hands
    too_short = 0 < hands < BIG_MOON_HANDS  # a match that ends before a big moon can be made
    big_moon = moon.big_moon != BigMoon.NONE and not too_short
    no_shooter = moon.kind == MoonKind.NONE and moon.sun == Sun.NONE and not big_moon
    if no_shooter:
        why = "only a moon or a sun reads it; this variant has neither (moon.kind and moon.sun are \"none\")"
        for name in ("points", "requires", "shooter_cannot_win", "continue_after_moon"):
            note(moon, name, why)
    if (moon.kind in (MoonKind.NO_SCORE, MoonKind.LOT) and moon.sun == Sun.NONE
            and not (big_moon and moon.big_moon == BigMoon.TEN_MOONS)):
        note(moon, "points", f"moon.kind \"{moon.kind.value}\" gives no moon points (nobody scores, or the running "
             "totals move), and no sun or ten-moons big moon reads them")
    if not v.rules.has_bonus:
        note(moon, "requires", "no card of this pack counts for its taker, so every counter is a penalty card")
    if sun_replaces:
        note(moon, "kind", f"a sun rule (moon.sun = \"{moon.sun.value}\") replaces the moon rule unless "
             "moon.sun_and_moon is set: taking every penalty card without every trick scores normally")
    if moon.kind not in _NEW_KINDS or sun_replaces:
        why = ("only a new moon reads it (moon.kind \"new\", \"choice\" or \"new_if_old_loses\"); "
               + ("this variant has no moon" if moon.kind == MoonKind.NONE or sun_replaces
                  else f"moon.kind is \"{moon.kind.value}\""))
        note(moon, "new_after", why)
        note(moon, "new_after_shooter", why)
    elif moon.new_after == 0:
        note(moon, "new_after_shooter", "it says whose total moon.new_after is compared with; moon.new_after is 0")
    if moon.sun == Sun.NONE:
        note(moon, "sun_skips_first_trick", "only a sun reads it (moon.sun)")
    if moon.continue_after_moon and not no_shooter:
        note(moon, "shooter_cannot_win", "moon.continue_after_moon already plays on after every moon")
    if too_short:
        note(moon, "big_moon", f"a big moon needs {BIG_MOON_HANDS} hands in a row, and the match lasts {hands}")


def _end(v: Compiled, note: Note) -> None:
    end, moon = v.end, v.moon
    if end.lives == 0:
        note(end, "life_threshold", "only lives read it (end.lives)")
    if end.next_dealer != NextDealer.MOST_POINTS:
        note(end, "dealer_ties", "only end.next_dealer = \"most_points\" reads it")
    if end.target == 0:
        note(end, "reset_at_exact", "only a target reads it (end.target)")
        if end.win_target == 0:
            why = "only a target ends a match on a moon (end.target or end.win_target); this match ends otherwise"
            note(moon, "continue_after_moon", why)
            note(moon, "shooter_cannot_win", why)
