"""Plain-English rules text generated from a variant's fields and their metadata.

The sentences for enum values and switches come from the field metadata in
:mod:`heartslib.variant`, the same text the rules reference is built from.
"""

from __future__ import annotations

from typing import Any

import attrs

from heartslib.enums import Fill, Identical, MoonKind, Offset, PassMode, Sun
from heartslib.rules import resolve_schedule
from heartslib.variant import META_KEY, StripTable, Variant

__all__ = ["describe"]


def _meta(section: Any, name: str) -> dict[str, Any]:
    field = attrs.fields_dict(type(section))[name]
    meta: dict[str, Any] = field.metadata[META_KEY]
    return meta


def _says(section: Any, name: str) -> str:
    """The metadata sentence for the field's current (enum) value."""
    value = getattr(section, name).value
    text: str = _meta(section, name)["values"][value]
    return text[0].upper() + text[1:] + "."


def _doc(section: Any, name: str) -> str:
    meta = _meta(section, name)
    return f"{meta['doc']} (\u201c{meta['words']}\u201d)"


def _codes(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


def _direction(d: Offset | PassMode, n: int) -> str:
    return d.name(n) if isinstance(d, Offset) else d.value.replace("_", "'s ").replace("dealer's s", "dealer's ")


def describe(v: Variant) -> str:
    """The rules of ``v`` as a few paragraphs of plain English."""
    r = v.rules
    n = v.players
    lines: list[str] = []
    title = v.name.replace("_", " ")
    lines.append(f"{title[0].upper() + title[1:]}" + (f" (source: {v.source})." if v.source else "."))
    lines.append(f"{n} players; play goes {v.direction.value}, and \u201cleft\u201d means the next player that way.")

    deck = v.deck
    pack = f"{'one 52-card deck' if deck.decks == 1 else 'two 52-card decks shuffled together'}"
    text = f"Deck: {pack}; {len(r.pack) + 0} cards in play, {r.hand_size} dealt to each player"
    if r.kitty_size:
        text += f", {r.kitty_size} to the kitty"
    lines.append(text + ".")
    if isinstance(deck.strip, StripTable) and deck.strip.for_players(n):
        lines.append(f"Stripping (table by players): with {n} players remove {_codes(deck.strip.for_players(n))}.")
    elif deck.fill == Fill.STRIP and deck.strip and not isinstance(deck.strip, StripTable) and (
        len(r.pack) < 52 * deck.decks + len(r.jokers)
    ):
        lines.append(f"Stripping: remove as many as needed, in order, of {_codes(deck.strip)}.")
    if r.kitty_size:
        lines.append(_says(deck, "kitty"))
        if deck.kitty_seen_by_winner:
            lines.append(_doc(deck, "kitty_seen_by_winner") + ".")
        lines.append("Kitty points reach their taker even when no points may be played to the first trick.")
    if r.jokers:
        lines.append(f"Jokers: {_codes(sorted(r.jokers))} in the pack. " + _says(deck, "joker"))
        if r.valueless:
            lines.append(_says(deck, "joker_play") + " " + _says(deck, "joker_lead"))
        if deck.joker_points:
            lines.append(f"A joker scores {deck.joker_points} point(s). " + _says(deck, "joker_points_when"))

    passing = v.passing
    cycle = ", ".join(_direction(d, n) for d in resolve_schedule(passing.schedule, n))
    if all(d == PassMode.HOLD for d in r.schedule):
        lines.append("Passing: none.")
    else:
        lines.append(
            f"Passing: each player chooses {passing.cards} card(s) (scatter: one to each opponent; "
            f"star: two) and passes them face down; everyone chooses before the exchange. "
            f"The cycle over hands: {cycle}."
            if any(d in (PassMode.SCATTER, PassMode.STAR) for d in r.schedule)
            else f"Passing: each player chooses {passing.cards} card(s) and passes them face down; everyone "
            f"chooses before the exchange. The cycle over hands: {cycle}."
        )
        for word in ("shuffle", "dealers_choice"):
            if any(d == PassMode(word) for d in r.schedule):
                lines.append(_meta(passing, "schedule")["values"][word].capitalize() + ".")
        if passing.forbidden:
            lines.append(f"These cards may not be passed: {_codes(passing.forbidden)}.")

    play = v.play
    lines.append(_says(play, "opening") + " Players must follow suit when able; the highest card of the suit led "
                 "wins the trick and its winner leads next.")
    lines.append(_says(play, "breaking"))
    if play.breaking.value != "none":
        lines.append(_says(play, "lead_hearts_unbroken"))
        if play.queen_needs_broken:
            lines.append(_doc(play, "queen_needs_broken") + ".")
    lines.append(_says(play, "first_trick"))
    for flag in ("queen_forced", "booster_nines"):
        if getattr(play, flag):
            lines.append(_doc(play, flag) + ".")
    if play.booster_nines:
        lines.append("The trick is won by the highest card of the suit led among all its cards.")
    if play.must_discard:
        cards = _codes(play.must_discard)
        if play.must_discard_if_all:
            lines.append(f"A player void in the suit led who holds all of {cards} must play one of them.")
        else:
            lines.append(f"A player void in the suit led who holds {cards} must play it.")
    if deck.decks == 2:
        lines.append(_says(play, "identical"))
        if play.identical == Identical.CANCEL:
            lines.append(_says(play, "cancel_rollover")
                         + " If the last trick rolls over, its leader takes the cards.")

    scoring = v.scoring
    values = ", ".join(f"{c} {p:+d}" if p < 0 else f"{c} {p}" for c, p in scoring.values.items())
    lines.append(_says(scoring, "hearts") + (f" Other card values: {values}." if values else "")
                 + f" Penalty points in a deal: {r.penalty_total}.")
    if scoring.no_tricks:
        lines.append(f"A player who takes no tricks scores {scoring.no_tricks} (not in a hand where the moon is shot).")

    moon = v.moon
    if moon.sun != Sun.NONE:
        lines.append("Shooting the sun (taking every trick"
                     + (", not counting the first" if moon.sun_skips_first_trick else "") + "): "
                     + _meta(moon, "sun")["values"][moon.sun.value] + f" (moon points {r.moon_points}). "
                     "Taking every penalty card without every trick scores normally.")
    else:
        text = f"Shooting the moon ({r.moon_points} points): " + _meta(moon, "kind")["values"][moon.kind.value] + "."
        if moon.kind not in (MoonKind.NONE,):
            text += " " + _says(moon, "requires")
            if moon.new_after and moon.kind in (MoonKind.NEW, MoonKind.CHOICE, MoonKind.NEW_IF_OLD_LOSES):
                text += f" New moon only once a player has reached {moon.new_after}."
        lines.append(text + " The moon is judged when the hand is complete.")
    if moon.shooter_cannot_win:
        lines.append(_doc(moon, "shooter_cannot_win") + ".")
    if moon.continue_after_moon:
        lines.append(_doc(moon, "continue_after_moon") + ".")

    end = v.end
    parts = []
    if end.target:
        parts.append(f"The match ends when a player reaches {end.target} at the end of a hand")
    if end.hands:
        parts.append(f"the match ends after {end.hands} hands")
    text = "; ".join(parts)
    lines.append(text[0].upper() + text[1:] + "; the lowest total wins and ties share the win.")
    if end.reset_at_exact:
        lines.append(_doc(end, "reset_at_exact") + ".")
    return "\n".join(lines)
