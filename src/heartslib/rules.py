"""Compiling a variant: everything its fields imply, worked out once.

:func:`compile_variant` validates the cross-field constraints (raising
:class:`~heartslib.VariantError` with every problem found) and builds a
:class:`Rules` object of plain tables indexed by card index, so the engine's
hot path never re-reads options. A variant compiles once, when built.

This module is one of the two the optional compiled build turns into a C
extension with mypyc (see ``docs/performance.md``): keep it strictly typed,
construct classes by calling them (not ``object.__new__``), and annotate
module constants read on hot paths ``Final``. CI runs the tests on both builds.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Final

from heartslib.cards import NUM_CARD_INDICES, Card, Suit, card_order
from heartslib.enums import (
    DEALERS_CHOICE,
    HOLD,
    SCATTER,
    SHUFFLE,
    STAR,
    Breaking,
    Direction,
    Fill,
    FirstTrick,
    HeartsScoring,
    Identical,
    JokerKind,
    JokerPlay,
    JokerPointsWhen,
    KittyMode,
    LeadHeartsUnbroken,
    Measure,
    MoonKind,
    Offset,
    Opening,
    PassDirection,
    Settlement,
    Sun,
    Winner,
)
from heartslib.errors import VariantError
from heartslib.score import Score, is_complex, normalise

if TYPE_CHECKING:
    from heartslib.variant import Variant

__all__ = ["NO_SUIT", "Rules", "compile_variant", "resolve_schedule"]

#: The "suit" of the suitless joker in the engine's tables.
NO_SUIT: Final = 4
QS: Final = Card("QS").index
C0: Final = Card("0C").index
D0: Final = Card("0D").index
JK: Final = Card("JK").index
HEART: Final = int(Suit.HEARTS)
SPADE: Final = int(Suit.SPADES)
CLUB: Final = int(Suit.CLUBS)
STANDARD_DECK: Final = tuple(range(52))


def resolve_schedule(schedule: str | tuple[str, ...], players: int) -> tuple[PassDirection, ...]:
    """The pass directions, one per hand, for a schedule and a number of players.

    >>> [d.value if isinstance(d, str) else d.k for d in resolve_schedule("everyone", 5)]
    [1, -1, 2, -2, 'hold']
    """
    n = players
    if isinstance(schedule, str):
        if schedule == "four_way":
            # an odd table has nobody across: the cycle is then left, right, hold
            words: tuple[str, ...] = ("left", "right", "across", "hold") if n % 2 == 0 else ("left", "right", "hold")
        elif schedule == "everyone":
            w = []
            for k in range(1, (n - 1) // 2 + 1):
                w += ["left" if k == 1 else f"left-{k}", "right" if k == 1 else f"right-{k}"]
            if n % 2 == 0:
                w.append("across")
            w.append("hold")
            words = tuple(w)
        elif schedule in ("rotating", "rotating_hold"):
            words = tuple(f"left-{k}" for k in range(1, n))
            if schedule == "rotating_hold":
                words += ("hold",)
        elif schedule == "left_right":
            words = ("left", "right")
        else:
            words = (schedule,)
    else:
        words = schedule
    return tuple(_pass_word(word, n) for word in words)


def _pass_word(word: str, n: int) -> PassDirection:
    if word == "left":
        return Offset(1)
    if word == "right":
        return Offset(-1)
    if word == "across":
        if n % 2:
            raise VariantError("passing.schedule", f"'across' needs an even number of players, not {n}")
        return Offset(n // 2)
    special = {"hold": HOLD, "scatter": SCATTER, "star": STAR, "shuffle": SHUFFLE, "dealers_choice": DEALERS_CHOICE}
    if word in special:
        return special[word]
    side, _, k_text = word.partition("-")
    k = int(k_text)
    if not 1 <= k < n:
        raise VariantError("passing.schedule", f"{word!r} needs 1 <= k < {n} (the number of players)")
    return Offset(k if side == "left" else -k)


class Rules:
    """A variant compiled into tables (internal; attributes may change between releases)."""

    def __init__(self, v: Variant) -> None:
        #: the variant compiled (pickling a Rules pickles this and takes the variant's own rules back)
        self.variant = v
        problems: list[tuple[str, str]] = []

        def problem(path: str, message: str) -> None:
            if (path, message) not in problems:
                problems.append((path, message))

        n = v.players
        deck = v.deck
        self.players = n
        self.step = 1 if v.direction == Direction.CLOCKWISE else -1
        #: ``order[leader]``: the seats in playing order for a trick led by ``leader``
        self.order = tuple(tuple((lead + self.step * i) % n for i in range(n)) for lead in range(n))
        if n > 10 and deck.decks == 1:
            problem("deck.decks", f"{n} players need two decks (deck.decks = 2); one deck allows 3-10")
        if v.play.identical == Identical.CANCEL and deck.decks != 2:
            problem("play.identical", "cancellation needs two decks (deck.decks = 2)")

        # ---------------------------------------------------------------- the pack
        from heartslib.variant import StripTable

        pack: list[int] = list(STANDARD_DECK) * deck.decks
        table = isinstance(deck.strip, StripTable)
        if table:
            # a per-player table always applies; the fill then evens out what is left
            path = f"deck.strip.{n}"
            for card in deck.strip.for_players(n):  # type: ignore[union-attr]
                if card.index in pack:
                    pack.remove(card.index)
                else:
                    problem(path, f"cannot remove {card.code}: it is not in the pack")
        n_jokers = deck.jokers
        if deck.fill == Fill.JOKERS and n_jokers == 0:
            n_jokers = (-len(pack)) % n
        if n_jokers:
            if deck.joker == JokerKind.ZERO_SUITS:
                if n_jokers > 2:
                    problem(
                        "deck.jokers",
                        f"{n_jokers} jokers cannot all be zero-suit cards (only 0♣ and 0♦ exist); "
                        "use deck.joker = \"valueless\" or fewer jokers",
                    )
                pack += [C0, D0][: min(n_jokers, 2)]
            else:
                pack += [JK] * n_jokers
        kitty_size = 0
        if deck.fill == Fill.STRIP and not table:
            excess = len(pack) % n
            order = deck.strip
            assert not isinstance(order, StripTable)
            if len(order) < excess:
                problem(
                    "deck.strip",
                    f"{len(pack)} cards for {n} players leave {excess} over, but the strip order "
                    f"lists only {len(order)} card(s)",
                )
            for card in order[:excess]:
                if card.index in pack:
                    pack.remove(card.index)
                else:
                    problem("deck.strip", f"cannot remove {card.code}: it is not in the pack")
        if deck.fill == Fill.KITTY:
            kitty_size = len(pack) % n
            if deck.kitty == KittyMode.FIRST_AND_LAST and kitty_size > 2:
                problem(
                    "deck.kitty",
                    f"\"first_and_last\" hands out two kitty cards, but {n} players leave {kitty_size}",
                )
        elif len(pack) % n and not problems:
            where = f"deck.strip.{n}" if table and deck.fill == Fill.STRIP else "deck.fill"
            problem(
                where,
                f"{len(pack)} cards do not deal evenly to {n} players; remove {len(pack) % n} more "
                "card(s), or use deck.fill = \"kitty\" or \"jokers\"",
            )
        pack.sort(key=card_order.__getitem__)
        self.pack: tuple[int, ...] = tuple(pack)
        self.pack_cards = tuple(Card.from_index(i) for i in pack)
        self.kitty_size = kitty_size
        self.hand_size = max(1, (len(pack) - kitty_size) // n)
        self.decks = deck.decks
        self.counts = Counter(pack)
        #: whether a hand may hold two copies of a card (two decks, or several suitless jokers)
        self.repeats = any(k > 1 for k in self.counts.values())

        # ---------------------------------------------------------------- card tables
        suit = [NO_SUIT] * NUM_CARD_INDICES
        rank = [0] * NUM_CARD_INDICES
        for i in range(NUM_CARD_INDICES):
            c = Card.from_index(i)
            suit[i] = NO_SUIT if c.suit is None else int(c.suit)
            rank[i] = int(c.rank)
        self.suit = suit
        self.rank = rank
        value: list[Score] = [0] * NUM_CARD_INDICES
        for i in range(26, 39):
            value[i] = 1 if v.scoring.hearts == HeartsScoring.ONE else rank[i]
        for card, points in v.scoring.values.items():
            value[card.index] = points
        for j in (C0, D0, JK):
            value[j] = value[j] or deck.joker_points
        self.value = value
        #: +1 when the lowest total wins, -1 when the highest does: a "penalty card" is one whose value
        #: counts against its taker, whichever way that is
        self.sign = 1 if v.end.winner == Winner.LOWEST else -1
        self.complex = any(is_complex(x) for x in value) or is_complex(v.moon.points) or any(
            is_complex(x) for x in v.scoring.multiply.values()
        ) or any(is_complex(x) for x in v.scoring.multiply_alone.values())
        if self.complex and v.end.measure != Measure.MAGNITUDE:
            problem("end.measure", "complex card values (scoring) need end.measure = \"magnitude\"")
        if v.scoring.settlement != Settlement.NONE and (
            self.sign != 1 or not all(isinstance(value[i], int) for i in set(pack))
        ):
            problem(
                "scoring.settlement",
                "counters settle whole-number penalty points in a game the lowest total wins; "
                "use settlement = \"none\" with complex values or end.winner = \"highest\"",
            )
        #: cards that count as scoring cards (listed values, zeros included; hearts; jokers with points)
        self.counters = frozenset(
            [i for i in range(26, 39)] + [c.index for c in v.scoring.values] + (
                [C0, D0, JK] if deck.joker_points else []
            )
        )
        sc = v.scoring
        self.multiply = {c.index: f for c, f in sc.multiply.items()}
        self.multiply_alone = {c.index: f for c, f in sc.multiply_alone.items()}
        for card in sc.multiply_alone:
            if card not in sc.multiply:
                problem(f"scoring.multiply_alone.{card.code}", "only a card listed in scoring.multiply can score alone")
        self.double_suit = {c.index: int(s) for c, s in sc.double_suit.items()}
        self.cancels = {c.index: t.index for c, t in sc.cancels.items()}
        self.all_hearts_flips = sc.all_hearts_flips
        self.hearts_in_pack = sum(1 for i in pack if suit[i] == HEART)
        self.plain_scoring = not (self.multiply or self.double_suit or self.cancels or self.all_hearts_flips)
        self.joker_conditional = (
            deck.joker_points != 0 and deck.joker_points_when == JokerPointsWhen.HEARTS_LED
        )
        self.jokers = frozenset(j for j in (C0, D0, JK) if j in self.counts)
        #: valueless jokers: never win; follow/lead rules of their own
        self.valueless = JK in self.counts
        sign = self.sign
        self.penalty = [_against(value[i], sign) for i in range(NUM_CARD_INDICES)]
        self.bonus = [_against(-value[i], sign) for i in range(NUM_CARD_INDICES)]
        conditional_jokers = self.jokers if self.joker_conditional else frozenset()
        self.penalty_total: Score = normalise(
            sum((value[i] for i in pack if self.penalty[i] and i not in conditional_jokers), start=0)
        )
        self.moon_points: Score = v.moon.points or self.penalty_total
        self.has_bonus = any(self.bonus[i] for i in pack)
        #: ``value * 128 + is_penalty`` per card when every value is a whole number and the hand's score is
        #: plain card points (no modifiers, no sun, no no-tricks bonus, no conditional jokers): Round._score
        #: then scores a hand without a moon in one sum per seat. A seat's sum is ``points * 128 +
        #: penalty cards``, and ``& 127`` / ``>> 7`` take it apart for negative points too (a pack has
        #: fewer than 128 cards, so the count never reaches the points)
        simple_points = (
            all(isinstance(x, int) for x in (value[i] for i in pack))
            and self.plain_scoring
            and v.moon.sun == Sun.NONE
            and not v.scoring.no_tricks
            and not self.joker_conditional
        )
        self.packed: list[int] | None = (
            [int(x.real) * 128 + p for x, p in zip(value, self.penalty, strict=True)] if simple_points else None
        )
        self.moon_on = v.moon.kind != MoonKind.NONE

        # ---------------------------------------------------------------- play flags
        play = v.play
        self.opening = play.opening
        self.open_suit = CLUB if play.opening_card is None else self.suit[play.opening_card.index]
        self.open_rank = 0 if play.opening_card is None else self.rank[play.opening_card.index]
        self.opening_taker = -1 if play.opening_taker is None else play.opening_taker.index
        if play.opening_card is not None and play.opening_card.suit is None:
            problem("play.opening_card", "a suitless joker cannot be the opening card")
        self.breaking = play.breaking
        #: whether leading hearts waits until hearts are broken (read on every lead, so a plain bool)
        self.locks_hearts = play.breaking != Breaking.NONE
        if play.breaking == Breaking.HEARTS:
            self.breaks = [suit[i] == HEART for i in range(NUM_CARD_INDICES)]
        elif play.breaking == Breaking.PENALTY_CARDS:
            self.breaks = [suit[i] == HEART or self.penalty[i] for i in range(NUM_CARD_INDICES)]
        else:
            self.breaks = [False] * NUM_CARD_INDICES
        self.lead_hearts_unbroken = play.lead_hearts_unbroken
        self.queen_needs_broken = play.queen_needs_broken and play.breaking != Breaking.NONE
        if play.first_trick == FirstTrick.NO_POINTS:
            self.first_trick_banned: list[bool] | None = list(self.penalty)
        elif play.first_trick == FirstTrick.NO_HEARTS:
            self.first_trick_banned = [suit[i] == HEART for i in range(NUM_CARD_INDICES)]
        else:
            self.first_trick_banned = None
        self.first_trick_code = {
            FirstTrick.NO_POINTS: "no_points_on_first_trick",
            FirstTrick.NO_HEARTS: "no_hearts_on_first_trick",
        }.get(play.first_trick, "")
        self.queen_forced = play.queen_forced and QS in self.counts
        self.must_discard = frozenset(c.index for c in play.must_discard)
        self.must_discard_if_all = play.must_discard_if_all
        self.booster_nines = play.booster_nines
        self.identical = play.identical if deck.decks == 2 else Identical.FIRST_WINS
        self.cancel = self.identical == Identical.CANCEL
        self.cancel_rollover = play.cancel_rollover
        self.joker_play_any_time = self.valueless and deck.joker_play == JokerPlay.ANY_TIME
        self.joker_lead = deck.joker_lead
        self.kitty_mode = deck.kitty
        self.kitty_seen = deck.kitty_seen_by_winner
        #: ``challenge[card]``: what a card of the suit led must exceed, against the best rank so far, to win
        #: the trick: its rank, or with two decks and last_wins its rank + 0.5, so an identical later card wins
        self.challenge: list[float] = (
            [r + 0.5 for r in rank] if self.identical == Identical.LAST_WINS else list(rank)
        )
        #: whether Round.random_playout may use its fast loop (and Round._resolve its short path)
        self.fast_playout = (
            not self.cancel
            and not self.valueless
            and not play.booster_nines
            and not self.queen_forced
            and not self.must_discard
            and not self.joker_conditional
            and not self.queen_needs_broken
            and (play.breaking == Breaking.NONE or play.lead_hearts_unbroken == LeadHeartsUnbroken.ONLY_HEARTS)
        )

        # ---------------------------------------------------------------- passing
        self.schedule: tuple[PassDirection, ...] = ()
        try:
            self.schedule = resolve_schedule(v.passing.schedule, n)
        except VariantError as exc:
            problems.extend(exc.problems)
        pc = v.passing.cards
        forbidden = [c.index for c in v.passing.forbidden]
        self.forbidden = frozenset(forbidden)
        forbidden_in_pack = sum(self.counts[i] for i in self.forbidden)
        passable = self.hand_size - min(forbidden_in_pack, self.hand_size)
        for d in self.schedule:
            need = self.pass_size(d, pc, n)
            if d == STAR and n != 5:
                problem("passing.schedule", f"star passing needs five players, not {n}")
            if need > passable:
                what = "a scatter pass" if d == SCATTER else f"passing {need} card(s)"
                extra = f" ({forbidden_in_pack} forbidden)" if forbidden_in_pack else ""
                problem(
                    "passing.cards" if d != SCATTER else "passing.schedule",
                    f"{what} needs {need} passable cards but a hand holds {self.hand_size}{extra}",
                )
        self.pass_cards = pc

        # ---------------------------------------------------------------- moon and end
        moon = v.moon
        self.moon = moon
        if moon.kind == MoonKind.NEW_IF_OLD_LOSES and v.end.target == 0:
            problem("moon.kind", "\"new_if_old_loses\" needs a target score (end.target > 0)")
        if v.end.target == 0 and v.end.hands == 0:
            problem("end.target", "the match would never end: set end.target or end.hands")
        if v.end.measure == Measure.MAGNITUDE and v.end.target < 0:
            problem("end.target", "a magnitude target is positive")
        self.teams: tuple[tuple[int, ...], ...] = v.teams
        self.team_of = list(range(n))
        if v.teams:
            seats = sorted(s for team in v.teams for s in team)
            if seats != list(range(n)) or any(not team for team in v.teams):
                problem("teams", f"teams must split the seats 0-{n - 1}, each seat in exactly one team")
            else:
                for t, team in enumerate(v.teams):
                    for s in team:
                        self.team_of[s] = t
        if problems:
            first_path, first_message = problems[0]
            raise VariantError(first_path, first_message, problems=tuple(problems))

    def __reduce__(self) -> tuple[Any, tuple[Variant]]:
        # a variant's rules are rebuilt from the variant (in the compiled build Rules is an extension
        # type that pickle cannot rebuild field by field)
        return (_rules_of, (self.variant,))

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self  # tables computed once and never changed

    @staticmethod
    def pass_size(direction: PassDirection, cards: int, players: int = 0) -> int:
        """Cards each player passes for a direction (``players`` needed for scatter)."""
        if direction == HOLD:
            return 0
        if direction == STAR:
            return 2
        if direction == SCATTER:
            return players - 1 if players else 0
        return cards

    def opening_card(self, held: set[int] | frozenset[int]) -> int | None:
        """The card that opens, among ``held`` card indices: the variant's opening card, or when it is
        not held (stripped, in the kitty) the next one up in its suit; by default the lowest club."""
        suit, floor = self.open_suit, self.open_rank
        best = None
        for idx in held:
            if self.suit[idx] == suit and self.rank[idx] >= floor and (
                best is None or self.rank[idx] < self.rank[best]
            ):
                best = idx
        return best

    def needs_opening_card(self) -> bool:
        """Whether the first lead is fixed by the lowest club in play."""
        return self.opening != Opening.ELDEST_ANY


def _against(value: Score, sign: int) -> bool:
    """Whether a card value counts against its taker: positive (or, for complex values, a positive
    imaginary part) when the lowest total wins, negative when the highest does."""
    if isinstance(value, complex):
        return sign * value.real > 0 or value.imag > 0
    return sign * value > 0


def _rules_of(v: Variant) -> Rules:
    """The compiled rules of ``v`` (how a pickled :class:`Rules` is loaded)."""
    rules: Rules = v.rules
    return rules


def compile_variant(v: Variant) -> Rules:
    """Validate ``v`` and compile it (called once by :class:`~heartslib.Variant`)."""
    return Rules(v)
