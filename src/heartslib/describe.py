"""Plain-English rules text generated from a variant's fields and their metadata.

The sentences for enum values and switches come from the field metadata in
:mod:`heartslib.variant`, the same text the rules reference is built from.
"""

from __future__ import annotations

from typing import Any

import attrs

from heartslib.cards import Card, Suit
from heartslib.engine.rules import Compiled
from heartslib.enums import (
    BigMoon,
    ExactFifty,
    Fill,
    HeartsFlip,
    Identical,
    Measure,
    MoonKind,
    NextDealer,
    Opening,
    PassMode,
    Settlement,
    StockDraw,
    Sun,
    TeamLoss,
    UndercutCeiling,
    Winner,
    pass_name,
)
from heartslib.points import score_text
from heartslib.sections import META_KEY, StripTable

__all__ = ["SOURCES", "describe"]


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
    """The field's documentation led by the players' words: '“booster nines”: each nine ...' (no final stop)."""
    meta = _meta(section, name)
    doc = str(meta["doc"]).rstrip(".")
    return f"\u201c{meta['words'][0].upper() + meta['words'][1:]}\u201d: {doc}"


def _codes(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


def hl_hearts() -> list[Card]:
    """The thirteen hearts."""
    return [Card(rank, Suit.HEARTS) for rank in range(2, 15)]


#: The documents the source keys of the field metadata and of the presets' sources name (RULES.md: the rules
#: catalogue is built from them), each as a named reference: its title, what it is and where to find it. The
#: rules reference (docs/rules/index.md, written by scripts/gen_docs.py) lists them; the rules text a player
#: reads (:func:`describe`) names no source.
SOURCES: dict[str, str] = {
    "000": "\u201cBlack Lady\u201d, the English encyclopedia article on American hearts and its family "
    "(Wikipedia, https://en.wikipedia.org/wiki/Black_Lady, read in the copy of the Knowledge (XXG) wiki), which "
    "cites the older rule books: Foster (1909), Culbertson (1950), Morehead (2001) and others; a name in brackets "
    "after 000 says which of them gives the rule",
    "001": "\u201c\u7d19\u724c\u904a\u6232/\u9ed1\u6843/\u898f\u5247\u201d (\u201cCard games / Hearts / "
    "Rules\u201d), a Chinese wiki page on hearts, including the two-deck game for six to ten players (a machine "
    "translation, in which \u9ed1\u6843, \u201cspades\u201d, stands for hearts in the scoring and moon rules)",
    "002": "\u201c\u0e04\u0e33\u0e41\u0e19\u0e30\u0e19\u0e33\u0e09\u0e1a\u0e31\u0e1a\u0e2a\u0e21\u0e1a"
    "\u0e39\u0e23\u0e13\u0e4c\u201d (\u201cThe complete guide\u201d), the Thai rules guide of a browser Hearts "
    "game: the modern American rules (the standard preset); heartslib's browser game (examples/web) is that game, "
    "and its guide has every sentence of it",
}


def describe(v: Compiled) -> str:
    """The rules of ``v`` as a few paragraphs of plain English, for players: the game's name and its rules.

    The sources the rules come from (``v.source``) are not part of the text; the rules reference names them
    (see :data:`SOURCES`).
    """
    lines: list[str] = []
    for part in (_table, _deck, _passing, _play, _scoring, _moon, _end):
        lines += part(v)
    return "\n".join(lines)


def _table(v: Compiled) -> list[str]:
    """The title and the table: players, direction, partnerships."""
    n = v.players
    lines: list[str] = []
    title = v.name.replace("_", " ").strip() or "Custom"  # a Variant's name is never blank; other Compiled may be
    lines.append(title[0].upper() + title[1:] + ".")
    lines.append(f"{n} players; play goes {v.direction.value}, and \u201cleft\u201d means the next player that way.")
    if v.teams:
        teams = " and ".join("seats " + ", ".join(map(str, team)) for team in v.teams)
        if v.end.team_scores:
            lines.append(f"Partnerships: {teams}; team scores: a team's total is the sum of its members' totals, "
                         "and the end and the winners are judged on team totals.")
        elif v.end.losing_team == TeamLoss.WORST_TEAM_TOTAL:
            lines.append(f"Partnerships: {teams}; a player's own total ends the match, and the team with the "
                         "worse team total (its members' totals added) loses.")
        else:
            lines.append(f"Partnerships: {teams}; the team of the player who reaches the target loses (the higher "
                         "score's team when players of several teams reach it in the same hand, and if those "
                         "scores tie, the team with the worse team total).")
    return lines


def _deck(v: Compiled) -> list[str]:
    """The pack, stripping, the kitty and jokers."""
    r = v.rules
    n = v.players
    lines: list[str] = []
    deck = v.deck
    pack = f"{'one 52-card deck' if deck.decks == 1 else 'two 52-card decks shuffled together'}"
    text = f"Deck: {pack}; {len(r.pack) + 0} cards in play, {r.hand_size} dealt to each player"
    stock = deck.stock != StockDraw.NONE
    if r.kitty_size:
        text += f", {r.kitty_size} to the {'stock' if stock else 'kitty'}"
    lines.append(text + ".")
    if stock:
        lines.append("Stock: " + _says(deck, "stock") + " The cards are drawn face down: each player sees the "
                     "cards they draw and the stock's size.")
    if isinstance(deck.strip, StripTable) and deck.strip.for_players(n):
        lines.append(f"Stripping (table by players): with {n} players remove {_codes(deck.strip.for_players(n))}.")
    elif deck.fill == Fill.STRIP and deck.strip and not isinstance(deck.strip, StripTable) and (
        len(r.pack) < 52 * deck.decks + len(r.jokers)
    ):
        lines.append(f"Stripping: remove as many as needed, in order, of {_codes(deck.strip)}.")
    if r.kitty_size and not stock:
        lines.append(_says(deck, "kitty"))
        if deck.kitty_seen_by_winner:
            lines.append(_doc(deck, "kitty_seen_by_winner") + ".")
        lines.append("Kitty points reach their taker even when no points may be played to the first trick.")
    if r.jokers:
        jokers = _codes(Card.from_index(j) for j in sorted(r.jokers))  # r.jokers holds card indices
        lines.append(f"Jokers: {jokers} in the pack. " + _says(deck, "joker"))
        if r.valueless:
            lines.append(_says(deck, "joker_play") + " " + _says(deck, "joker_lead"))
        if deck.joker_points:
            points = deck.joker_points
            lines.append(f"A joker scores {points} point{'' if points in (1, -1) else 's'}. "
                         + _says(deck, "joker_points_when"))
    return lines


def _passing(v: Compiled) -> list[str]:
    """Passing."""
    r = v.rules
    n = v.players
    lines: list[str] = []
    passing = v.passing
    cycle = ", ".join(pass_name(d, n, words=True) for d in r.schedule)
    if all(d == PassMode.HOLD for d in r.schedule):
        lines.append("Passing: none.")
    else:
        # the scatter and star passes fix their own number of cards: explain only the ones the cycle uses, and
        # passing.cards only when another pass uses it
        fixed = {PassMode.SCATTER: "scatter: one to each opponent", PassMode.STAR: "star: two"}
        modes = [text for mode, text in fixed.items() if mode in r.schedule]
        count = (f"{passing.cards} card{'' if passing.cards == 1 else 's'}"
                 if any(d not in fixed and d != PassMode.HOLD for d in r.schedule)
                 else "cards")
        counts = f" ({'; '.join(modes)})" if modes else ""
        lines.append(f"Passing: each player chooses {count}{counts} and passes them face down; "
                     f"everyone chooses before the exchange. The cycle over hands: {cycle}.")
        for word in ("shuffle", "dealers_choice"):
            if any(d == PassMode(word) for d in r.schedule):
                lines.append(_meta(passing, "schedule")["values"][word].capitalize() + ".")
        if passing.forbidden:
            lines.append(f"These cards may not be passed: {_codes(passing.forbidden)}.")
        if passing.keep_last_of_suit:
            exempt = passing.last_of_suit_exempt
            lines.append("A pass may not take the last card of a suit from the hand"
                         + (f", except {_codes(exempt)}, which may always be passed." if exempt else "."))
    return lines


def _play(v: Compiled) -> list[str]:
    """Leading and following."""
    lines: list[str] = []
    play = v.play
    opening = _says(play, "opening")
    if play.opening_card is None and play.opening != Opening.ELDEST_ANY:
        # name the lowest club this pack holds, not every case the rule covers (3♣ when 2♣ is stripped, ...)
        r = v.rules
        lowest = r.opening_order[0] if r.opening_order else None
        if lowest is not None:
            card = Card.from_index(lowest)
            where = "the stock" if v.deck.stock != StockDraw.NONE else "the kitty"
            holder = f"The holder of {card}" + (f" (or, when it is in {where}, of the lowest club dealt)"
                                                 if r.kitty_size else "")
            opening = holder + (" must lead it." if play.opening == Opening.TWO_OF_CLUBS
                                else ", the lowest club in play, leads, with any club.")
    if play.opening_card is not None and play.opening != Opening.ELDEST_ANY:
        opening = (f"The holder of {play.opening_card} (or, if it is not dealt, the next card up in its suit) "
                   + ("must lead it." if play.opening == Opening.TWO_OF_CLUBS else "leads, with any card of its suit."))
    if v.scoring.settlement == Settlement.AUCTION:  # the auction's winner leads, whatever the opening rule
        opening = "The auction's winner leads any card."
    lines.append(opening + " Players must follow suit when able; the highest card of the suit led "
                 "wins the trick and its winner leads next.")
    if play.opening_taker is not None:
        lines.append(f"From the second hand on, whoever took {play.opening_taker} in the previous hand leads "
                     "the first trick with any card.")
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
        elif len(play.must_discard) > 1:
            lines.append(f"A player void in the suit led who holds any of {cards} must play one of them.")
        else:
            lines.append(f"A player void in the suit led who holds {cards} must play it.")
        if play.undercut:
            one = f"one of {cards}" if len(play.must_discard) > 1 else cards
            below = ("the highest card of the suit led there" if play.undercut_ceiling == UndercutCeiling.WINNING_CARD
                     else "the highest of them there")
            bound = ("the cards they may play (following suit, a forced discard or a free discard)"
                     if play.undercut_binds_discards
                     else "the cards they may play (following suit, or a forced discard)")
            free = "" if play.undercut_binds_discards else "; a free discard is not bound"
            lines.append(f"The undercut rule: once {one} lies on the trick, a player must play a card ranked below "
                         f"{below} whenever {bound} hold one{free}.")
    if v.deck.decks == 2:
        lines.append(_says(play, "identical"))
        if play.identical == Identical.CANCEL:
            lines.append(_says(play, "cancel_rollover")
                         + " If the last trick rolls over, its leader takes the cards.")
    return lines


def _scoring(v: Compiled) -> list[str]:
    """Card values, modifiers and settlements."""
    r = v.rules
    lines: list[str] = []
    scoring = v.scoring
    # a value for a card the pack leaves out (stripped, or a joker never added) scores nothing: not shown as if it did
    values = ", ".join(f"{c} {score_text(p)}" for c, p in scoring.values.items() if c.index in r.pack)
    hearts_listed = all(c in scoring.values for c in hl_hearts())
    queen = Card("QS")
    lost = "" if queen in scoring.values else f" {queen} scores nothing (it is not listed)."
    if scoring.settlement == Settlement.AUCTION:
        limit = f", and at most {scoring.max_bid}" if scoring.max_bid else ""
        lines = [f"Auction Hearts: {_meta(scoring, 'settlement')['values']['auction'].split(': ', 1)[1]}.",
                f"Each player starts with {scoring.chips} chips; a bid is at most the bidder's chips{limit}; the "
                "dealer, when every other player passed, must bid. The named suit is this hand's hearts: the "
                "breaking and first-trick rules above read it in their place; no other card scores (Q♠ scores nothing "
                "unless spades are named, then 1 as every spade). The pot left when the match ends is nobody's."]
        if scoring.no_tricks:
            lines.append(f"A player who takes no tricks scores {scoring.no_tricks} (in the totals, not in chips).")
        return lines
    said = [] if hearts_listed else [_says(scoring, "hearts")]
    said += [f"Card values: {values}." if values else "", lost.strip(),
             f"Penalty points in a deal: {score_text(r.penalty_total)}."]
    lines.append(" ".join(part for part in said if part))
    for card, factor in scoring.multiply.items():
        text = f"Taking {card} multiplies the taker's score for the hand by {score_text(factor)}"
        if card in scoring.multiply_alone:
            text += f"; taken with no other scoring card it scores {score_text(scoring.multiply_alone[card])}"
        lines.append(text + ".")
    for card, doubled in scoring.double_suit.items():
        lines.append(f"Taking {card} doubles the value of the {doubled} its taker took.")
    for card, target in scoring.cancels.items():
        lines.append(f"A player who takes both {card} and {target} scores nothing for {target}.")
    if scoring.all_hearts_flips != HeartsFlip.NONE:
        lines.append("A player who takes every heart: " + _meta(scoring, "all_hearts_flips")["values"][
            scoring.all_hearts_flips.value] + ".")
    if scoring.no_tricks:
        lines.append(f"A player who takes no tricks scores {scoring.no_tricks} (not in a hand where the moon is shot).")
    if scoring.exposable:
        doubles = ", ".join(f"{card} doubles {'itself' if target is None else 'every ' + str(target)[:-1]}"
                            for card, target in scoring.exposable.items())
        lines.append(f"Before the first lead each player in turn from the leader may expose (sell) any of "
                     f"{_codes(scoring.exposable)} it holds ({doubles}): an exposed card doubles its effect for "
                     "whoever takes it (a multiplier doubles its factor and its score alone), and may not be "
                     "played the first time its suit is led, the lead included, unless it is the player's only "
                     "card of that suit.")
    if scoring.settlement != Settlement.NONE:
        lines.append("Each hand is also settled with counters (Foster): "
                     + _meta(scoring, "settlement")["values"][scoring.settlement.value] + ".")
    return lines


def _moon(v: Compiled) -> list[str]:
    """The moon and the sun."""
    r = v.rules
    lines: list[str] = []
    moon = v.moon
    if moon.sun != Sun.NONE:
        lines.append("Shooting the sun (taking every trick"
                     + (", not counting the first" if moon.sun_skips_first_trick else "") + "): "
                     + _meta(moon, "sun")["values"][moon.sun.value] + f" (moon points {r.moon_points}). "
                     + ("Taking every penalty card without every trick shoots the moon, as follows."
                        if moon.sun_and_moon else "Taking every penalty card without every trick scores normally."))
    if moon.sun == Sun.NONE or moon.sun_and_moon:
        kind_text = _meta(moon, "kind")["values"][moon.kind.value]
        bonus = _has_bonus_cards(v)
        if not bonus:  # say only what the variant has: no bonus card to keep its value
            kind_text = kind_text.replace(" (bonus cards keep their value)", "")
        text = f"Shooting the moon ({score_text(r.moon_points)} points): {kind_text}."
        if moon.kind == MoonKind.NO_SCORE:  # nobody scores: the moon's points are never given
            text = f"Shooting the moon: {kind_text}."
        if moon.kind == MoonKind.LOT:  # the lot moves running totals, not the moon's points
            text = f"Shooting the moon (\"going for the lot\"): {kind_text.removeprefix('going for the lot: ')}."
        if moon.kind == MoonKind.NONE:
            text = "No moon: a player who takes every penalty card scores them as usual."
        else:
            requires = _says(moon, "requires")
            if not bonus:  # "...every penalty card; bonus cards keep ...", "...every counting card, bonus cards ..."
                requires = requires.split(";")[0].split(",")[0].rstrip(".") + "."
            text += " " + requires
            if moon.new_after and moon.kind in (MoonKind.NEW, MoonKind.CHOICE, MoonKind.NEW_IF_OLD_LOSES):
                who = "the shooter" if moon.new_after_shooter else "a player"
                text += f" New moon only once {who} has reached {moon.new_after}."
            text += " The moon is judged when the hand is complete."
        lines.append(text)
    if moon.big_moon != BigMoon.NONE:
        what = _meta(moon, "big_moon")["values"][moon.big_moon.value]
        what = what.replace("(260)", f"({score_text(10 * r.moon_points)})")
        lines.append("Shooting the big moon: a player who takes every penalty card in each of ten consecutive "
                     f"hands rescores them: {what}.")
    if moon.shooter_cannot_win:
        lines.append(_doc(moon, "shooter_cannot_win") + ".")
    if moon.continue_after_moon:
        lines.append(_doc(moon, "continue_after_moon") + ".")
    return lines


def _has_bonus_cards(v: Compiled) -> bool:
    """Whether some card counts for its taker: a bonus card in the pack, or a conditional joker worth a bonus."""
    r = v.rules
    return r.has_bonus or v.deck.joker_points * r.sign < 0


def _end(v: Compiled) -> list[str]:
    """The end of the match and who wins."""
    lines: list[str] = []
    end = v.end
    parts = []
    by_team = bool(v.teams) and end.team_scores
    whose = "a team's total" if by_team else "a player's score"
    if end.measure == Measure.MAGNITUDE:
        measured = "the magnitude of a team's total" if by_team else "the magnitude of a score"
    else:
        measured = whose
    if end.target > 0:
        parts.append(f"The match ends when {measured} reaches {end.target} or more at the end of a hand")
    elif end.target < 0:
        parts.append(f"The match ends when {measured} falls to {end.target} or less at the end of a hand")
    if end.win_target:
        reach = "reaches" if end.winner == Winner.HIGHEST else "falls to"
        more = "or more" if end.winner == Winner.HIGHEST else "or less"
        parts.append(f"it also ends when {measured} {reach} {end.win_target} {more}, "
                     + ("that team winning" if by_team else "that player winning"))
    if end.hands:
        parts.append(f"the match ends after {end.hands} hands")
    if v.scoring.settlement == Settlement.AUCTION:
        parts.append("the match ends after the hand that leaves a player with no chips (or fewer)")
    if end.lives:
        parts.append(f"each player has {end.lives} lives and loses one for a hand of {end.life_threshold} points "
                     "or more; the match also ends when at most one player has lives left")
    text = "; ".join(parts)
    ranking = "highest" if end.winner == Winner.HIGHEST else "lowest"
    if end.measure == Measure.MAGNITUDE:
        ranking += " magnitude"
    who = ("the team of the player with the worst score loses (the other players win)" if v.teams
           else f"the {ranking} total wins and ties share the win")
    if v.teams and end.losing_team == TeamLoss.WORST_TEAM_TOTAL:
        who = f"the team whose players' totals add up to the {ranking} team total wins (tied team totals play on)"
    if by_team:
        who = f"the players of the {ranking} team total win and ties share the win"
    if end.lives and not v.teams:
        who = f"the players with the most lives left win, the {ranking} total among them, ties sharing"
    if v.scoring.settlement == Settlement.AUCTION:
        who = "the players with the most chips win, ties sharing the win"
    lines.append(text[0].upper() + text[1:] + "; " + who + ".")
    if end.next_dealer != NextDealer.ROTATE:
        text = _meta(end, "next_dealer")["values"][end.next_dealer.value]
        ties = f"whoever took {' then '.join(str(c) for c in end.dealer_ties)}" if end.dealer_ties else ""
        lines.append("Next dealer: " + text.replace("whoever took the first card of end.dealer_ties", ties)
                     .replace("players, , then", "players,").replace("players; among", "players; among") + ".")
    if end.reset_at_exact:
        lines.append(_doc(end, "reset_at_exact") + ".")
    if end.magic_multiple:
        lines.append(f"Magic numbers: a total that a hand lands exactly on a multiple of {end.magic_multiple} resets "
                     "to the average of the highest and the lowest of the other players' totals (rounded down).")
    if end.exact_fifty != ExactFifty.NONE:
        which = "a multiple of 50" if end.exact_fifty == ExactFifty.ANY else "a multiple of 50 above 50"
        lines.append(f"A total that a hand lands exactly on {which} is reduced by 50: "
                     + _meta(end, "exact_fifty")["values"][end.exact_fifty.value].split(": ", 1)[1] + ".")
    if end.round_bonuses:
        each = "; ".join(f"{total}: {points:+d}" for total, points in end.round_bonuses.entries)
        lines.append(f"Bonuses for round scores: a hand that lands a player's total exactly on one of these totals "
                     f"adds its points ({each}).")
    return lines
