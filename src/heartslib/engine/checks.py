"""Judging a variant's combinations of fields: the pack it makes, and every rule that several fields decide.

Each section validates its own fields as they are set
(:mod:`heartslib.sections`); what only the combination can decide is judged
here, before any table is built (:func:`heartslib.engine.rules.compile_rules`):
the pack (stripping, jokers, the kitty, an even deal), the passes a hand can
make, the scoring that needs a certain end, the end itself, the teams. Every
problem is collected with the path of the field to change, so a
:class:`~heartslib.VariantError` lists them all at once.

Each rule is a small named check in one table, :data:`CHECKS`, run in order
by :func:`check_variant`; a new option's check is one entry. Whether the
match can end at all (:func:`check_ends`) is judged last, on a variant
without other problems.

>>> import heartslib as hl
>>> pack, kitty, problems = check_variant(hl.preset("standard"))
>>> len(pack), kitty, problems
(52, 0, [])
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from heartslib.cards import Card, card_order
from heartslib.engine.tables import C0, D0, JK, QS, STANDARD_DECK
from heartslib.engine.values import card_values, counts_against, exact_total, pass_size
from heartslib.enums import (
    HOLD,
    SCATTER,
    STAR,
    BigMoon,
    ExactFifty,
    Fill,
    HeartsFlip,
    Identical,
    JokerKind,
    JokerPointsWhen,
    KittyMode,
    Measure,
    MoonKind,
    MoonRequires,
    NextDealer,
    PassDirection,
    Settlement,
    StockDraw,
    Sun,
    TeamLoss,
    UndercutCeiling,
    Winner,
    resolve_schedule,
)
from heartslib.errors import VariantError
from heartslib.points import Score, is_complex, score_text
from heartslib.sections import EndRules, StripTable, VariantFields

__all__ = ["CHECKS", "MAX_HAND_POINTS", "Check", "Facts", "Problem", "build_pack", "check_ends", "check_variant"]

Problem = tuple[str, str]
"""``(field path, message)``."""

#: The most one hand may score (the size of each part), judged before play from the card values, the
#: moon's points and the multipliers, so that no match of a bounded number of hands leaves
#: :data:`heartslib.points.MAX_SCORE`, where complex scores stop being exact.
MAX_HAND_POINTS: Final = 10**11


def _note(problems: list[Problem], path: str, message: str) -> None:
    if (path, message) not in problems:
        problems.append((path, message))


# --------------------------------------------------------------------------- the pack

def build_pack(v: VariantFields) -> tuple[list[int], int, list[Problem]]:
    """The pack in hand order (card indices; copies repeat), the kitty size, and what stops the deal.

    Stripping (a table by players always applies, a priority order as far as
    needed), jokers, then the kitty; the problems are a strip list that names
    cards not in the pack or cannot make the deal even, impossible jokers and
    a kitty too big for its rule.
    """
    problems: list[Problem] = []
    n, deck = v.players, v.deck
    pack: list[int] = list(STANDARD_DECK) * deck.decks
    table = isinstance(deck.strip, StripTable)
    _strips_listed_once(v, problems)
    if isinstance(deck.strip, StripTable):
        # a per-player table always applies; the fill then evens out what is left
        _strip(pack, deck.strip.for_players(n), f"deck.strip.{n}", problems)
    pack += _jokers(v, len(pack), problems)
    if deck.fill == Fill.STRIP and not isinstance(deck.strip, StripTable):
        excess = len(pack) % n
        if len(deck.strip) < excess:
            _note(problems, "deck.strip",
                  f"{len(pack)} cards for {n} players leave {excess} over, but the strip order "
                  f"lists only {len(deck.strip)} card(s); list more cards to strip, or use deck.fill = "
                  "\"kitty\" (the cards over form a kitty) or \"jokers\"")
        _strip(pack, deck.strip[:excess], "deck.strip", problems)
    kitty_size = _kitty_size(v, len(pack), table, problems)
    if deck.stock != StockDraw.NONE or deck.hand_size:
        kitty_size = _stock_size(v, len(pack), problems)
    pack.sort(key=card_order.__getitem__)
    return pack, kitty_size, problems


def _strips_listed_once(v: VariantFields, problems: list[Problem]) -> None:
    """A priority order lists each copy once: a card listed more often than the packs hold it could never all go
    (noticed only when the deal reaches it), and it reads as a typo."""
    n, deck = v.players, v.deck
    listed = Counter(deck.strip.for_players(n) if isinstance(deck.strip, StripTable) else deck.strip)
    for card, times in listed.items():
        if times > deck.decks and card.index in STANDARD_DECK:
            where = f"deck.strip.{n}" if isinstance(deck.strip, StripTable) else "deck.strip"
            _note(problems, where, f"{card.code} is listed {times} times, but {deck.decks} pack(s) hold "
                                   f"{deck.decks} cop{'y' if deck.decks == 1 else 'ies'}: list each copy once")


def _strip(pack: list[int], cards: Sequence[Card], where: str, problems: list[Problem]) -> None:
    """Take ``cards`` out of ``pack``, noting at ``where`` each one it does not hold."""
    for card in cards:
        if card.index in pack:
            pack.remove(card.index)
        else:
            _note(problems, where, f"cannot remove {card.code}: it is not in the pack")


def _jokers(v: VariantFields, pack_size: int, problems: list[Problem]) -> list[int]:
    """The jokers added to a pack of ``pack_size`` cards (as many as even the deal with ``deck.fill =
    "jokers"``); zero-suit jokers are 0♣ and 0♦, so no more than two."""
    deck = v.deck
    n_jokers = deck.jokers
    if deck.fill == Fill.JOKERS and n_jokers == 0:
        n_jokers = (-pack_size) % v.players
    if not n_jokers or deck.joker != JokerKind.ZERO_SUITS:
        return [JK] * n_jokers
    if n_jokers > 2:
        _note(problems, "deck.jokers",
              f"{n_jokers} jokers cannot all be zero-suit cards (only 0♣ and 0♦ exist); "
              "use deck.joker = \"valueless\" or fewer jokers")
    return [C0, D0][: min(n_jokers, 2)]


def _kitty_size(v: VariantFields, pack_size: int, table: bool, problems: list[Problem]) -> int:
    """The kitty a ``deck.fill = "kitty"`` leaves (noting one too big for its rule), or 0, noting a pack that
    does not deal evenly (when nothing else is wrong with it)."""
    n, deck = v.players, v.deck
    if deck.fill == Fill.KITTY:
        kitty_size = pack_size % n
        if deck.kitty == KittyMode.FIRST_AND_LAST and kitty_size > 2:
            _note(problems, "deck.kitty",
                  f"\"first_and_last\" hands out two kitty cards, but {n} players leave {kitty_size}")
        return kitty_size
    if pack_size % n and not problems:
        where = f"deck.strip.{n}" if table and deck.fill == Fill.STRIP else "deck.fill"
        _note(problems, where,
              f"{pack_size} cards do not deal evenly to {n} players; remove {pack_size % n} more "
              "card(s), or use deck.fill = \"kitty\" or \"jokers\"")
    return 0


def _stock_size(v: VariantFields, pack_size: int, problems: list[Problem]) -> int:
    """The stock's size (the cards the deal of ``deck.hand_size`` each leaves), noting in ``problems`` why a
    stock cannot be dealt: a kitty fill (the cards left over would be both), no hand size, or no stock left."""
    n, deck = v.players, v.deck
    most = (pack_size - 1) // n
    if deck.stock == StockDraw.NONE:
        _note(problems, "deck.hand_size", "only a stock (deck.stock) deals part of the pack: set deck.stock, or "
                                          "leave deck.hand_size at 0 (the whole pack dealt)")
    elif deck.fill == Fill.KITTY:
        _note(problems, "deck.fill", "with a stock the cards left after the deal are the stock: use deck.fill = "
                                     "\"strip\" or \"jokers\" to even the pack")
    elif not 1 <= deck.hand_size <= most:
        _note(problems, "deck.hand_size", f"a stock needs a hand size of 1-{most} cards: {n} players with "
                                          f"{deck.hand_size} each from {pack_size} cards leave no stock to draw")
    else:
        return pack_size - n * deck.hand_size
    return 0


# --------------------------------------------------------------------------- the named checks

class Facts:
    """What every named check reads, worked out once: the variant, its pack (:func:`build_pack`: card
    indices, copies repeated), the kitty size, the pack's own problems, and each card index's points."""

    v: VariantFields
    pack: list[int]
    kitty_size: int
    pack_problems: list[Problem]
    value: list[Score]

    def __reduce__(self) -> tuple[type[Facts], tuple[VariantFields]]:
        # copy, deepcopy and pickle: compiled, loading calls the class, which works everything out again
        return (Facts, (self.v,))

    def __init__(self, v: VariantFields) -> None:
        self.v = v
        self.pack, self.kitty_size, self.pack_problems = build_pack(v)
        self.value = card_values(v)


Check = Callable[[Facts], Iterator[Problem]]
"""A named check: the problems of one rule that several fields decide, in the order to report them."""


def check_variant(v: VariantFields) -> tuple[list[int], int, list[Problem]]:
    """The pack (:func:`build_pack`), the kitty size, and every problem of ``v``'s combinations of fields:
    each of :data:`CHECKS` in turn (each problem once), then, on a variant without any,
    :func:`check_ends`."""
    facts = Facts(v)
    problems: list[Problem] = []
    for _name, check in CHECKS:
        for path, message in check(facts):
            _note(problems, path, message)
    if not problems:  # judged on a pack and an end that are valid
        for path, message in check_ends(v, facts.pack):
            _note(problems, path, message)
    return facts.pack, facts.kitty_size, problems


# the table: players and decks

def _too_few_players(f: Facts) -> Iterator[Problem]:
    n = f.v.players
    if n < 3 and f.v.deck.stock == StockDraw.NONE:
        # RULES.md section 11, decision: the floor is 2 only for the variants that define a two-player game
        yield ("players", f"{n} players is too small for this variant: only a game with a stock (deck.stock, "
                          "two-handed Hearts) is played by 2; others need 3-11")


def _many_players_two_decks(f: Facts) -> Iterator[Problem]:
    n = f.v.players
    if n > 10 and f.v.deck.decks == 1:
        yield ("deck.decks", f"{n} players need two decks (deck.decks = 2); one deck allows 3-10")


def _cancel_two_decks(f: Facts) -> Iterator[Problem]:
    if f.v.play.identical == Identical.CANCEL and f.v.deck.decks != 2:
        yield ("play.identical", "cancellation needs two decks (deck.decks = 2)")


def _pack(f: Facts) -> Iterator[Problem]:
    """What stops the deal (:func:`build_pack`)."""
    yield from f.pack_problems


# the table: scoring

def _complex_magnitude(f: Facts) -> Iterator[Problem]:
    sc = f.v.scoring
    complex_scores = any(is_complex(x) for x in f.value) or is_complex(f.v.moon.points) or any(
        is_complex(x) for x in sc.multiply.values()
    ) or any(is_complex(x) for x in sc.multiply_alone.values())
    if complex_scores and f.v.end.measure != Measure.MAGNITUDE:
        yield ("end.measure", "complex card values (scoring) need end.measure = \"magnitude\"")


def _settlement_whole_lowest(f: Facts) -> Iterator[Problem]:
    v, value = f.v, f.value
    if v.scoring.settlement != Settlement.NONE and (
        v.end.winner != Winner.LOWEST or not all(isinstance(value[i], int) for i in set(f.pack))
    ):
        yield ("scoring.settlement", "counters settle whole-number penalty points in a game the lowest total "
                                     "wins; use settlement = \"none\" with complex values or end.winner = \"highest\"")


def _flip_highest_wins(f: Facts) -> Iterator[Problem]:
    if f.v.scoring.all_hearts_flips != HeartsFlip.NONE and f.v.end.winner == Winner.LOWEST:
        yield ("scoring.all_hearts_flips",
               "the all-hearts flip turns a sweep of the hearts into plus points where the highest total wins "
               "(Gong Zhu); where the lowest total wins, taking every heart is the moon's business, and the flip "
               "would score the shooter's hearts on top of it: use moon.kind, or end.winner = \"highest\"")


def _hearts_led_joker_values(f: Facts) -> Iterator[Problem]:
    deck = f.v.deck
    if not (deck.joker_points and deck.joker_points_when == JokerPointsWhen.HEARTS_LED):
        return
    for card in f.v.scoring.values:
        if card.index in (C0, D0, JK) and card.index in f.pack and f.value[card.index] != deck.joker_points:
            yield (f"scoring.values.{card.code}",
                   f"a joker that scores only on a hearts lead is worth deck.joker_points "
                   f"({deck.joker_points}) and nothing on another trick: do not give it a value here")


def _alone_multiplied(f: Facts) -> Iterator[Problem]:
    for card in f.v.scoring.multiply_alone:
        if card not in f.v.scoring.multiply:
            yield (f"scoring.multiply_alone.{card.code}", "only a card listed in scoring.multiply can score alone")


def _exposed_one_deck(f: Facts) -> Iterator[Problem]:
    if f.v.scoring.exposable and f.v.deck.decks != 1:
        yield ("scoring.exposable", "exposed cards are named by card: with two decks two players could expose "
                                    "the same one; use deck.decks = 1")


def _undercut_readings(f: Facts) -> Iterator[Problem]:
    play = f.v.play
    if play.undercut:
        return
    # a reading of a rule that is off would be silently ignored: say so
    unread = "only the undercut rule reads this: set play.undercut = true, or leave it at its default"
    if play.undercut_ceiling != UndercutCeiling.HIGHEST_LEEKHA:
        yield ("play.undercut_ceiling", f'{unread} ("highest_leekha")')
    if play.undercut_binds_discards:
        yield ("play.undercut_binds_discards", f"{unread} (false)")


def _undercut_discards(f: Facts) -> Iterator[Problem]:
    if f.v.play.undercut and not f.v.play.must_discard:
        yield ("play.undercut", "the undercut rule plays below the leekha cards on the trick: list them in "
                                "play.must_discard (Idlib: [\"TD\", \"QS\", \"KC\"])")


def _opening_card_suited(f: Facts) -> Iterator[Problem]:
    opening = f.v.play.opening_card
    if opening is not None and opening.suit is None:
        yield ("play.opening_card", "a suitless joker cannot be the opening card")


def _multiply_bound(f: Facts) -> Iterator[Problem]:
    """Multipliers compound (two decks hold two copies of each): a hand's score must stay far below MAX_SCORE."""
    v = f.v
    if not v.scoring.multiply:
        return
    n = v.players
    # magnitudes as floats one by one: a complex value's abs() is a float, an int's an int
    cards = sum(_magnitude(f.value[c]) for c in f.pack)
    alone = sum(_magnitude(x) for x in v.scoring.multiply_alone.values())
    worst = ((2 + 2 * n) * cards + 2 * n * _magnitude(v.moon.points) + n * abs(v.scoring.no_tricks)
             + 2 * alone)
    copies = Counter(f.pack)
    for card, factor in v.scoring.multiply.items():
        worst *= max(1.0, _magnitude(factor)) ** copies[card.index]
    if worst > MAX_HAND_POINTS:
        yield ("scoring.multiply", f"these multipliers are too large: they could make one hand worth "
               f"about {worst:.0e} points, and a hand may score at most {MAX_HAND_POINTS:.0e}")


# the table: passing

def _schedule(f: Facts) -> tuple[PassDirection, ...] | None:
    """The pass schedule for the players, or None where it cannot be resolved (:func:`_schedule_resolves`)."""
    try:
        return resolve_schedule(f.v.passing.schedule, f.v.players)
    except VariantError:
        return None


def _schedule_resolves(f: Facts) -> Iterator[Problem]:
    try:
        resolve_schedule(f.v.passing.schedule, f.v.players)
    except VariantError as exc:
        yield from exc.problems


def _exempt_needs_keep(f: Facts) -> Iterator[Problem]:
    passing = f.v.passing
    if _schedule(f) is not None and not passing.keep_last_of_suit and passing.last_of_suit_exempt:
        yield ("passing.last_of_suit_exempt", "cards that may always be passed need the rule they are exempt "
                                              "from: set passing.keep_last_of_suit = true, or leave this list empty")


def _passes_fit(f: Facts) -> Iterator[Problem]:
    """Each pass of the schedule fits a hand: star passing's five players, the cards it may pass (not the
    forbidden ones, nor with ``passing.keep_last_of_suit`` a card of each suit it holds)."""
    v, n = f.v, f.v.players
    counts = Counter(f.pack)
    hand_size = v.deck.hand_size or max(1, len(f.pack) // n)
    forbidden = {c.index for c in v.passing.forbidden}
    forbidden_in_pack = sum(counts[i] for i in forbidden)
    passable = hand_size - min(forbidden_in_pack, hand_size)
    # each suit a hand holds may have to keep a card: a pass must fit the hand that holds every suit
    kept = len({card.suit for card in map(Card.from_index, counts) if card.suit is not None}
               ) if v.passing.keep_last_of_suit else 0
    for d in _schedule(f) or ():
        need = pass_size(d, v.passing.cards, n)
        what = "a scatter pass" if d == SCATTER else f"passing {need} card(s)"
        if d == STAR and n != 5:
            yield ("passing.schedule", f"star passing needs five players, not {n}")
        if need > passable:
            extra = f" ({forbidden_in_pack} forbidden)" if forbidden_in_pack else ""
            yield ("passing.cards" if d != SCATTER else "passing.schedule",
                   f"{what} needs {need} passable cards but a hand holds {hand_size}{extra}")
        elif need > passable - kept:
            yield ("passing.keep_last_of_suit", f"{what} needs {need} cards that may be passed, but a hand of "
                   f"{hand_size} that holds each of the pack's {kept} suits keeps a card of each "
                   f"(passing.keep_last_of_suit), leaving {max(0, passable - kept)}")


# the table: the end

def _old_loses_target(f: Facts) -> Iterator[Problem]:
    if f.v.moon.kind == MoonKind.NEW_IF_OLD_LOSES and f.v.end.target == 0:
        yield ("moon.kind", "\"new_if_old_loses\" needs a target score (end.target > 0)")


def _end_named(f: Facts) -> Iterator[Problem]:
    end = f.v.end
    if end.target == 0 and end.hands == 0 and f.v.scoring.settlement != Settlement.AUCTION:  # chips end one
        yield ("end.target", "the match would never end: set end.target or end.hands")


def _magnitude_positive(f: Facts) -> Iterator[Problem]:
    if f.v.end.measure == Measure.MAGNITUDE and f.v.end.target < 0:
        yield ("end.target", "a magnitude target is positive")


def _team_scores_teams(f: Facts) -> Iterator[Problem]:
    v = f.v
    if v.end.team_scores and not v.teams:
        yield ("end.team_scores", "team scores need partnerships (teams = [[0, 2], [1, 3]], say)")
    elif v.end.team_scores and v.end.lives:
        yield ("end.team_scores", "lives are each player's own: use end.lives = 0 with team scores")


def _lives_alone(f: Facts) -> Iterator[Problem]:
    v = f.v
    if v.teams and v.end.lives and not v.end.team_scores:
        # RULES.md section 11, decision: no source defines lives with partnerships
        yield ("end.lives", "no source defines lives with partnerships (teams): use end.lives = 0 with "
                            "teams, or play without teams")


def _big_moon_alone(f: Facts) -> Iterator[Problem]:
    if f.v.teams and f.v.moon.big_moon != BigMoon.NONE:
        # RULES.md section 11, decision: no source defines the big moon with partnerships
        yield ("moon.big_moon", "no source defines the big moon with partnerships (teams): use "
                                "moon.big_moon = \"none\" with teams, or play without teams")


def _losing_team_read(f: Facts) -> Iterator[Problem]:
    v = f.v
    if v.end.losing_team != TeamLoss.WORST_PLAYER and (not v.teams or v.end.team_scores):
        yield ("end.losing_team", "which team loses is read only with partnerships judged on the players' "
                                  "own totals: set teams and end.team_scores = false, or leave "
                                  "end.losing_team at \"worst_player\"")


def _sun_and_moon_both(f: Facts) -> Iterator[Problem]:
    moon = f.v.moon
    if moon.sun_and_moon and (moon.sun == Sun.NONE or moon.kind == MoonKind.NONE):
        yield ("moon.sun_and_moon", "the moon and the sun together need both rules: a moon.kind other than "
                                    "\"none\" and a moon.sun other than \"none\"")


def _magic_numbers(f: Facts) -> Iterator[Problem]:
    """``end.magic_multiple`` needs whole-number totals, and a hand that can score other than a multiple of it
    (when every hand's points are multiples of it, every total that moves lands on one and is reset: the match
    could go on for ever)."""
    v, value, m = f.v, f.value, f.v.end.magic_multiple
    if not m:
        return
    if any(is_complex(value[c]) for c in f.pack):
        yield ("end.magic_multiple", "magic numbers need whole-number totals: not with complex card values")
        return
    steps = [int(value[c].real) for c in set(f.pack)] + [int(v.moon.points.real), v.scoring.no_tricks]
    if v.moon.sun != Sun.NONE:
        steps.append(52)
    if math.gcd(*steps) % m == 0:
        yield ("end.magic_multiple", f"every hand scores a multiple of {m}, so every total that moves would land "
                                     "on one and reset: the match might never end")


def _round_bonuses(f: Facts) -> Iterator[Problem]:
    """``end.round_bonuses`` needs whole-number totals, and is one rule with ``end.exact_fifty`` about landing on a
    round score, not two."""
    v = f.v
    if not v.end.round_bonuses:
        return
    if v.end.exact_fifty != ExactFifty.NONE:
        yield ("end.round_bonuses", "bonuses for round scores and end.exact_fifty both say what landing on a round "
                                    "score does: use one of them (end.exact_fifty = \"none\", or no bonuses)")
    elif any(is_complex(f.value[c]) for c in f.pack) or is_complex(v.moon.points):
        yield ("end.round_bonuses", "bonuses for round scores need whole-number totals: not with complex card "
                                    "values")


def _queen_taker_one_queen(f: Facts) -> Iterator[Problem]:
    if f.v.end.next_dealer == NextDealer.QUEEN_TAKER and f.pack.count(QS) != 1:
        yield ("end.next_dealer", "\"queen_taker\" needs exactly one Q♠ in the pack (one deck, Q♠ not stripped)")


def _win_target_side(f: Facts) -> Iterator[Problem]:
    end = f.v.end
    win = end.win_target
    if win and end.measure == Measure.MAGNITUDE:
        yield ("end.win_target", "a winning target needs end.measure = \"score\" (a magnitude only grows "
                                 "towards the losing target)")
    elif win and (win < 0) == (end.winner == Winner.HIGHEST):
        side = "above 0 where the highest total wins" if end.winner == Winner.HIGHEST else (
            "below 0 where the lowest total wins")
        yield ("end.win_target", f"{win} is on the losing side: a winning target lies {side}")


# the table: teams, the stock, the auction

def _teams_split(f: Facts) -> Iterator[Problem]:
    v, n = f.v, f.v.players
    if not v.teams:
        return
    seats = sorted(s for team in v.teams for s in team)
    if seats != list(range(n)) or any(not team for team in v.teams):
        yield ("teams", f"teams must split the seats 0-{n - 1}, each seat in exactly one team")
    elif len(v.teams) < 2:  # one team of every seat: nobody to play against, and nobody could win
        yield ("teams", f"teams must split the seats 0-{n - 1} into two or more teams; for each player on "
                        "their own, leave teams empty")


def _boosters_without_stock(f: Facts) -> Iterator[Problem]:
    """A stock is drawn one card a trick (or to follow), and a booster nine's extra round of plays would empty the
    hands before it (or ask players who dropped out to play)."""
    if f.v.deck.stock != StockDraw.NONE and f.v.play.booster_nines:
        yield ("play.booster_nines", "booster nines add rounds of play to a trick, which a game with a stock "
                                     "(deck.stock) does not define: use deck.stock = \"none\" with them")


def _to_follow_suited(f: Facts) -> Iterator[Problem]:
    """Drawing to follow (Domino Hearts) draws until a card of the suit led, which a trick led by a suitless joker
    has none of."""
    if f.v.deck.stock == StockDraw.TO_FOLLOW and JK in f.pack:
        yield ("deck.stock", "drawing to follow (\"to_follow\") needs a suit to follow: use no valueless "
                             "jokers (deck.joker = \"zero_suits\" or no jokers)")


#: What an auction (``scoring.settlement = "auction"``) needs a field to be, and why: Bicycle's Auction Hearts is
#: Hearts without the black lady for one pack, no moon, no pass, each for himself, the named suit's cards the only
#: penalty cards (1 each); the pot is judged on that suit's cards alone.
_AUCTION_NEEDS: Final = "an auction (scoring.settlement = \"auction\") names the hand's penalty suit, its cards 1 each"


def _auction_fields(f: Facts) -> Iterator[Problem]:
    """Chips and a highest bid set without an auction."""
    sc = f.v.scoring
    if sc.settlement != Settlement.AUCTION:
        for path, set_ in (("scoring.chips", sc.chips != 50), ("scoring.max_bid", sc.max_bid != 0)):
            if set_:
                yield (path, f"{path} is an auction's: set scoring.settlement = \"auction\", or leave it at its "
                             "default")


def _auction_refusals(f: Facts) -> Iterator[Problem]:
    """An auction's refusals: Bicycle's Auction Hearts defines none of these."""
    v, sc = f.v, f.v.scoring
    if sc.settlement != Settlement.AUCTION:
        return
    wrong = [
        ("deck.decks", v.deck.decks != 1, "one pack (the pot's rule counts one pack's cards of the suit)"),
        ("deck.jokers", v.deck.jokers != 0, "no jokers"),
        ("deck.stock", v.deck.stock != StockDraw.NONE, "no stock"),
        ("scoring.hearts", sc.hearts.value != "one", "scoring.hearts = \"one\" (the named suit's cards score 1)"),
        ("scoring.values", bool(sc.values), "no other scoring cards: values = {} (Hearts without the black lady)"),
        ("scoring.multiply", bool(sc.multiply or sc.multiply_alone), "no multipliers"),
        ("scoring.double_suit", bool(sc.double_suit or sc.cancels), "no suit doublers or cancelling cards"),
        ("scoring.exposable", bool(sc.exposable), "no exposed cards"),
        ("scoring.all_hearts_flips", sc.all_hearts_flips != HeartsFlip.NONE, "no all-hearts flip"),
        ("moon.kind", v.moon.kind != MoonKind.NONE, "moon.kind = \"none\" (no source gives an auction a moon)"),
        ("moon.sun", v.moon.sun != Sun.NONE, "moon.sun = \"none\""),
        ("moon.big_moon", v.moon.big_moon != BigMoon.NONE, "moon.big_moon = \"none\""),
        ("passing.schedule", any(d is not HOLD for d in resolve_schedule(v.passing.schedule, v.players)),
         "no pass (passing.schedule = [\"hold\"]): the bidding follows the deal"),
        ("play.opening_taker", v.play.opening_taker is not None, "no opening taker: the auction's winner leads"),
        ("teams", bool(v.teams), "no partnerships: each player bids and pays alone"),
    ]
    for path, bad, needs in wrong:
        if bad:
            yield (path, f"{_AUCTION_NEEDS}; it needs {needs}")


#: The named checks that :func:`check_variant` runs, in the order their problems are listed: the table (players
#: and decks), the pack, the scoring, the passes, the end, the teams, the stock, the auction. Each judges one
#: rule that several fields decide; a new option's check is one entry.
CHECKS: Final[tuple[tuple[str, Check], ...]] = (
    ("too_few_players", _too_few_players),
    ("many_players_two_decks", _many_players_two_decks),
    ("cancel_two_decks", _cancel_two_decks),
    ("pack", _pack),
    ("complex_magnitude", _complex_magnitude),
    ("settlement_whole_lowest", _settlement_whole_lowest),
    ("flip_highest_wins", _flip_highest_wins),
    ("hearts_led_joker_values", _hearts_led_joker_values),
    ("alone_multiplied", _alone_multiplied),
    ("exposed_one_deck", _exposed_one_deck),
    ("undercut_readings", _undercut_readings),
    ("undercut_discards", _undercut_discards),
    ("opening_card_suited", _opening_card_suited),
    ("multiply_bound", _multiply_bound),
    ("schedule_resolves", _schedule_resolves),
    ("exempt_needs_keep", _exempt_needs_keep),
    ("passes_fit", _passes_fit),
    ("old_loses_target", _old_loses_target),
    ("end_named", _end_named),
    ("magnitude_positive", _magnitude_positive),
    ("team_scores_teams", _team_scores_teams),
    ("lives_alone", _lives_alone),
    ("big_moon_alone", _big_moon_alone),
    ("losing_team_read", _losing_team_read),
    ("sun_and_moon_both", _sun_and_moon_both),
    ("magic_numbers", _magic_numbers),
    ("round_bonuses", _round_bonuses),
    ("queen_taker_one_queen", _queen_taker_one_queen),
    ("win_target_side", _win_target_side),
    ("teams_split", _teams_split),
    ("boosters_without_stock", _boosters_without_stock),
    ("to_follow_suited", _to_follow_suited),
    ("auction_fields", _auction_fields),
    ("auction_refusals", _auction_refusals),
)


# --------------------------------------------------------------------------- the match must end

#: How each moon rule can score a moon (``moon.new_after`` may turn a new moon into an old one).
_MOON_SCORINGS: Final[dict[MoonKind, tuple[str, ...]]] = {
    MoonKind.NO_SCORE: ("no_score",),
    MoonKind.OLD: ("old",),
    MoonKind.NEW: ("new", "old"),
    MoonKind.CHOICE: ("old", "new"),
    MoonKind.NEW_IF_OLD_LOSES: ("old", "new"),
    MoonKind.TAKE_ALL: ("take_all",),
    MoonKind.PENALTY: ("penalty",),
}

_MOON_WORDS: Final = {"no_score": "a moon that nobody scores", "old": "an old moon", "new": "a new moon",
               "take_all": "a take-all moon", "penalty": "a penalty moon"}

_HandSum = tuple[str, int, int, int]
"""``(what kind of hand, least and greatest real part, imaginary part)`` of the sum of a hand's points."""


def check_ends(v: VariantFields, pack: Sequence[int]) -> list[Problem]:
    """The problems of a variant whose match might never end (none when its end is guaranteed).

    A fixed number of hands (``end.hands``) always ends a match. Otherwise the
    target must be reached, and it is when every hand moves the *sum* of the
    players' scores toward it by at least one point, whoever takes which
    cards: the sum then grows without bound, so some score reaches the target.
    A hand in which nobody shoots the moon or the sun scores the card values
    of the whole pack (jokers that score only on a heart lead at their worst)
    plus the no-tricks points (at worst every player but one taking no
    tricks). With ``end.measure = "magnitude"`` the sum may move in any one
    direction of the complex plane, steadily. When every hand is a moon (the
    pack holds a single penalty card), every way the moon can score must move
    the sum too, and the game must be allowed to end on a moon hand (going for
    the lot, which can return the shooter's total to 0 every hand, is refused).

    Not counted: the hand-score modifiers (``scoring.multiply``,
    ``double_suit``, ``cancels``, ``all_hearts_flips``), and moons and suns
    that the players choose to shoot: a match in which someone shoots a new
    moon every hand goes on as long as they keep doing it. But a multiplier
    of 0 or below is refused (it can take a hand's points away from the
    target: :func:`_factors_problems`), and with the exact-total rules, which
    take points back, some player must be able to pass the target at all
    (:func:`_exact_totals_problem`).

    >>> import heartslib as hl
    >>> check_ends(hl.preset("standard"), hl.preset("standard").rules.pack)
    []
    """
    end = v.end
    if end.hands or end.target == 0:
        return []  # a fixed number of hands ends it (no target and no hands is _end_named's problem)
    value = card_values(v)
    out: list[Problem] = _factors_problems(v)
    stuck = _exact_totals_problem(v, value, pack)
    if stuck is not None:
        out.append(stuck)
    return out + _sum_problems(v, value, pack)


def _conditional_jokers(v: VariantFields) -> bool:
    """Whether the jokers score only on a trick led with a heart (``deck.joker_points_when``)."""
    return v.deck.joker_points != 0 and v.deck.joker_points_when == JokerPointsWhen.HEARTS_LED


def _plain_hand_sum(v: VariantFields, value: Sequence[Score], pack: Sequence[int]) -> _HandSum:
    """What a hand without a moon adds to the sum of the scores: the pack's card values, give or take the
    conditional jokers that do not score and the no-tricks points."""
    low = high = 0  # what may be added to the real part: conditional jokers that do not score, no-tricks points
    if _conditional_jokers(v):
        jokers = sum(1 for c in pack if c in (C0, D0, JK))
        low, high = jokers * min(0, -v.deck.joker_points), jokers * max(0, -v.deck.joker_points)
    no_tricks = (v.players - 1) * v.scoring.no_tricks
    low, high = low + min(0, no_tricks), high + max(0, no_tricks)
    re_part, im_part = _parts(sum((value[c] for c in pack), start=0))
    return ("a hand without a moon", re_part + low, re_part + high, im_part)


def _sum_problems(v: VariantFields, value: Sequence[Score], pack: Sequence[int]) -> list[Problem]:
    """The problem of a sum of the scores that some hand need not move toward the target, or of a moon that
    every hand must be which cannot end the match (:func:`check_ends`)."""
    end, moon = v.end, v.moon
    sign = 1 if end.winner == Winner.LOWEST else -1
    penalty = [c for c in pack if counts_against(value[c], sign)]
    bonus = [c for c in pack if counts_against(-value[c], sign)]
    one = len(penalty) == 1 and moon.sun == Sun.NONE
    if moon.kind == MoonKind.LOT and one:
        return [_lot_forever(penalty[0])]
    forced = (
        one and moon.kind in _MOON_SCORINGS and not (_conditional_jokers(v) and penalty[0] in (C0, D0, JK))
        and not (moon.requires == MoonRequires.ALL_COUNTERS and bonus)
    )
    out: list[Problem] = []
    sums = [_plain_hand_sum(v, value, pack)]
    if forced:
        sums, out = _forced_moon_sums(v, value, penalty[0], bonus)
    target = end.target
    # the directions the sum may move in: up (a positive target), down (a negative one), or for a
    # magnitude any of up, down and along the imaginary axis either way
    axes = (0, 1, 2, 3) if end.measure == Measure.MAGNITUDE else (0,) if target > 0 else (1,)
    if any(all(_moved(s, axis) >= 1 for s in sums) for axis in axes):
        return out
    what, lo, hi, im = next((s for s in sums if _moved(s, axes[0]) < 1), sums[0])
    toward = (f"steadily away from 0 toward the magnitude {target}" if end.measure == Measure.MAGNITUDE
              else f"toward the target {target}")
    out.append(("moon.kind" if forced else "end.target",
                f"the match might never end: {what} adds {_amount(lo, hi, im)} to the players' scores in total, "
                f"which does not move them {toward}; change the card values or the target, or end the match "
                "after a fixed number of hands (end.hands)"))
    return out


def _lot_forever(card_index: int) -> Problem:
    """Going for the lot where the pack's one penalty card makes every hand a moon: the shooter may return their
    total to 0 every hand."""
    return ("moon.kind", f"the match might never end: the pack holds one penalty card ({Card.from_index(card_index)}), "
            "so every hand is a moon, and going for the lot lets the shooter return their total to 0 every hand; use "
            "another moon rule or more penalty cards")


def _factors_problems(v: VariantFields) -> list[Problem]:
    """Multipliers (``scoring.multiply``) of 0 or below, in a match that only a target ends: a hand's points
    multiplied by one go nowhere or away from the target (a match under ``{"QS": -1}`` drifts away from it
    for ever)."""
    low = [f"{card.code} by {score_text(f)}" for card, f in v.scoring.multiply.items()
           if not is_complex(f) and f.real <= 0]
    if not low:
        return []
    return [("scoring.multiply", f"the match might never end: a multiplier of 0 or below ({', '.join(low)}) "
             "can take its taker's points away from the target; a multiplier must be above 0 (or a complex "
             "number), or end the match after a fixed number of hands (end.hands)")]


#: The most totals :func:`_exact_totals_problem` follows before it takes the match to be able to end.
_EXACT_LIMIT: Final = 20_000


def _exact_totals_problem(v: VariantFields, value: Sequence[Score], pack: Sequence[int]) -> Problem | None:
    """With the exact-total rules (``end.reset_at_exact``, ``end.exact_fifty``, ``end.round_bonuses``), which
    may take points back, the
    problem when no player can ever pass the target: starting from 0, by the points one player can take in a
    hand (any set of the pack's cards, or no tricks), every way toward it lands where a rule takes the points
    back (the target 13 when Q♠ alone scores 13: every hand resets whoever took it). Judged on whole-number
    card values without the hand-score modifiers (those are not counted), by the total alone (not where
    lives, a winning target or team totals may end the match)."""
    end = v.end
    if not _exact_totals_judged(v):
        return None
    steps = _hand_amounts(v, value, pack)
    if steps is None or _passes_target(end, steps):
        return None
    rule = ("end.reset_at_exact" if end.reset_at_exact else "end.exact_fifty" if end.exact_fifty != ExactFifty.NONE
            else "end.round_bonuses")
    return (rule, f"the match might never end: no player can pass the target {end.target}, since every total a "
            f"hand's points ({', '.join(map(str, steps[:6]))}{', ...' if len(steps) > 6 else ''}) can bring a "
            f"player to on the way lands where {rule} takes points back; change the card values, the target or "
            "this rule, or end the match after a fixed number of hands (end.hands)")


def _exact_totals_judged(v: VariantFields) -> bool:
    """Whether :func:`_exact_totals_problem` judges ``v``: an exact-total rule, and the total alone ending the
    match, with no hand-score modifier."""
    end, sc = v.end, v.scoring
    if not end.reset_at_exact and end.exact_fifty == ExactFifty.NONE and not end.round_bonuses:
        return False
    return not (end.measure == Measure.MAGNITUDE or end.lives or end.win_target or end.team_scores
                or sc.multiply or sc.double_suit or sc.cancels or sc.all_hearts_flips != HeartsFlip.NONE)


def _hand_amounts(v: VariantFields, value: Sequence[Score], pack: Sequence[int]) -> list[int] | None:
    """Every other amount than 0 one player's hand can score (a set of the pack's cards, or no tricks), in
    order; None for complex card values, or more than :data:`_EXACT_LIMIT` amounts."""
    no_tricks = v.scoring.no_tricks
    amounts: set[int] = {0, int(no_tricks)} if isinstance(no_tricks, int) else {0}
    for c in pack:
        x = value[c]
        if not isinstance(x, int):
            return None
        if x:
            amounts |= {a + x for a in amounts}
            if len(amounts) > _EXACT_LIMIT:
                return None
    return sorted(amounts - {0})


def _passes_target(end: EndRules, steps: Sequence[int]) -> bool:
    """Whether, from 0 and by ``steps`` a hand, a total can pass ``end.target`` (the exact-total rules taking
    points back on the way), or the search is too long to tell (then taken to pass)."""
    target = end.target
    reach = max((abs(a) for a in steps), default=0)
    low, high = min(0, target) - reach, max(0, target) + reach  # totals beyond these cannot help
    seen, todo = {0}, [0]
    while todo:
        x = todo.pop()
        for a in steps:
            y = exact_total(end, x + a, x)
            assert isinstance(y, int)  # whole numbers in, whole numbers out
            if (y >= target) if target > 0 else (y <= target):
                return True
            if y not in seen and low <= y <= high:
                if len(seen) >= _EXACT_LIMIT:
                    return True
                seen.add(y)
                todo.append(y)
    return False


def _magnitude(x: Score) -> float:
    return float(abs(x))


def _forced_moon_sums(
    v: VariantFields, value: Sequence[Score], card_index: int, bonus: Sequence[int]
) -> tuple[list[_HandSum], list[Problem]]:
    """When the pack's one penalty card makes every hand a moon: the sum each way the moon can score adds,
    and the problem of a variant that never ends a match on a moon hand."""
    moon, n = v.moon, v.players
    all_counters = moon.requires == MoonRequires.ALL_COUNTERS
    out: list[Problem] = []
    card = Card.from_index(card_index)
    why = f"the pack holds one penalty card ({card}), so every hand is a moon"
    if moon.continue_after_moon:
        out.append(("moon.continue_after_moon",
                    f"the match would never end: {why}, and moon.continue_after_moon never ends the game "
                    "on a moon hand"))
    p = moon.points or value[card_index]
    kept: Score = 0 if all_counters else sum((value[c] for c in bonus), start=0)
    others = n - max((len(team) for team in v.teams), default=1)
    moon_sums = {"no_score": kept, "old": others * p + kept, "new": -p + kept, "take_all": -p + kept,
                 "penalty": p + kept}
    scorings = _MOON_SCORINGS[moon.kind][: 1 if moon.kind == MoonKind.NEW and not moon.new_after else 2]
    sums: list[_HandSum] = []
    for how in scorings:
        re_part, im_part = _parts(moon_sums[how])
        sums.append((f"{why}, and {_MOON_WORDS[how]}", re_part, re_part, im_part))
    return sums, out


def _moved(s: _HandSum, axis: int) -> int:
    """How far a hand moves the sum of the scores at least, along ``axis`` (up, down, +i, -i)."""
    _, lo, hi, im = s
    return (lo, -hi, im, -im)[axis]


def _parts(x: Score) -> tuple[int, int]:
    if isinstance(x, complex):
        return int(x.real), int(x.imag)
    return x, 0


def _amount(lo: int, hi: int, im: int) -> str:
    if lo == hi:
        return score_text(complex(lo, im) if im else lo)
    return f"between {score_text(complex(lo, im) if im else lo)} and {score_text(complex(hi, im) if im else hi)}"
