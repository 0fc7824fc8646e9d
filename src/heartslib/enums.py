"""The option enums of a variant and the game's phases and pass directions.

Every enum value is the lower-case string used in TOML and JSON, so
``MoonKind("old") is MoonKind.OLD`` and ``str(MoonKind.OLD) == "old"``.
"""

from __future__ import annotations

import enum
from typing import Any, TypeGuard

import attrs

from heartslib.errors import IllegalAction, VariantError, value_text

__all__ = [
    "BIG_MOON_HANDS",
    "DEALERS_CHOICE",
    "HOLD",
    "SCATTER",
    "SHUFFLE",
    "STAR",
    "BigMoon",
    "Breaking",
    "CancelRollover",
    "Decision",
    "Direction",
    "ExactFifty",
    "Fill",
    "FirstTrick",
    "HeartsFlip",
    "HeartsScoring",
    "Identical",
    "JokerKind",
    "JokerLead",
    "JokerPlay",
    "JokerPointsWhen",
    "KittyMode",
    "LeadHeartsUnbroken",
    "Measure",
    "MoonKind",
    "MoonRequires",
    "MoonScoring",
    "NextDealer",
    "Offset",
    "Opening",
    "PassDirection",
    "PassMode",
    "Phase",
    "Settlement",
    "Shot",
    "StockDraw",
    "Sun",
    "TeamLoss",
    "UndercutCeiling",
    "Winner",
    "pass_name",
    "pass_word",
    "resolve_schedule",
]


class Direction(enum.StrEnum):
    """Direction of play; "left" always means the next player in this direction."""

    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"


class Fill(enum.StrEnum):
    """How the deal is made even when the pack does not divide by the players."""

    STRIP = "strip"
    KITTY = "kitty"
    JOKERS = "jokers"


class KittyMode(enum.StrEnum):
    """Who takes the kitty (the cards left over after an even deal)."""

    FIRST_TRICK = "first_trick"
    ONE_PER_TRICK = "one_per_trick"
    FIRST_AND_LAST = "first_and_last"


class StockDraw(enum.StrEnum):
    """Whether the cards left after the deal form a stock that players draw into their hands, and when."""

    NONE = "none"
    """No stock: the whole pack is dealt (what is left over is a kitty, ``deck.fill``)."""
    AFTER_TRICK = "after_trick"
    """After each trick every player draws one card, the trick's winner first (two-handed Hearts)."""
    TO_FOLLOW = "to_follow"
    """A player who cannot follow suit draws until they can; players drop out as their hands empty, and the last
    one holding cards keeps them and the rest of the stock (Domino Hearts)."""


class JokerKind(enum.StrEnum):
    """What added jokers are: zeros of clubs and diamonds, or valueless cards."""

    ZERO_SUITS = "zero_suits"
    VALUELESS = "valueless"


class JokerPlay(enum.StrEnum):
    """When a valueless joker may be played to a trick led by someone else."""

    ANY_TIME = "any_time"
    WHEN_VOID = "when_void"


class JokerLead(enum.StrEnum):
    """Whether and how a valueless joker may lead a trick."""

    FORBIDDEN = "forbidden"
    CALL_SUIT = "call_suit"
    NEXT_CARD = "next_card"


class JokerPointsWhen(enum.StrEnum):
    """When a joker's penalty points count."""

    ALWAYS = "always"
    HEARTS_LED = "hearts_led"


class Opening(enum.StrEnum):
    """Who leads the first trick and with what."""

    TWO_OF_CLUBS = "two_of_clubs"
    ANY_CLUB = "any_club"
    ELDEST_ANY = "eldest_any"


class Breaking(enum.StrEnum):
    """What unlocks leading hearts."""

    HEARTS = "hearts"
    PENALTY_CARDS = "penalty_cards"
    NONE = "none"


class LeadHeartsUnbroken(enum.StrEnum):
    """Which hands may lead a heart before hearts are broken."""

    ONLY_HEARTS = "only_hearts"
    ONLY_PENALTY_CARDS = "only_penalty_cards"


class FirstTrick(enum.StrEnum):
    """What may not be played to the first trick."""

    ANY = "any"
    NO_POINTS = "no_points"
    NO_HEARTS = "no_hearts"


class Identical(enum.StrEnum):
    """Two decks: which of two identical cards wins, or whether they cancel."""

    FIRST_WINS = "first_wins"
    LAST_WINS = "last_wins"
    CANCEL = "cancel"


class CancelRollover(enum.StrEnum):
    """Cancellation hearts: when a trick is cancelled and rolls over."""

    ALL_LED_CANCELLED = "all_led_cancelled"
    TWO_PAIRS = "two_pairs"


class UndercutCeiling(enum.StrEnum):
    """The undercut rule: which card on the trick a player must play below."""

    HIGHEST_LEEKHA = "highest_leekha"
    WINNING_CARD = "winning_card"


class HeartsScoring(enum.StrEnum):
    """What each heart scores: one point, or its pip value (spot hearts)."""

    ONE = "one"
    SPOT = "spot"


class HeartsFlip(enum.StrEnum):
    """What turns positive for a player who takes every heart (``scoring.all_hearts_flips``, Gong Zhu)."""

    NONE = "none"
    """Nothing: the hearts score as usual."""
    HEARTS = "hearts"
    """The hearts turn positive; the pig (Q♠) keeps its own value (the Gongzhu-Society bots)."""
    PENALTY_CARDS = "penalty_cards"
    """Every penalty card the player took turns positive: the hearts and the pig too (pagat)."""


class Settlement(enum.StrEnum):
    """Foster's counters: how each hand is also settled through a pool (RULES.md 6)."""

    NONE = "none"
    SWEEPSTAKE = "sweepstake"
    HOWELL = "howell"
    AUCTION = "auction"
    """Auction Hearts (Bicycle): each deal the players bid chips for the right to name the penalty suit; the
    bid and one chip a card of that suit taken go into a pot that the players who took none of it win."""


class MoonKind(enum.StrEnum):
    """What taking every penalty card in one hand does."""

    NONE = "none"
    NO_SCORE = "no_score"
    OLD = "old"
    NEW = "new"
    CHOICE = "choice"
    NEW_IF_OLD_LOSES = "new_if_old_loses"
    TAKE_ALL = "take_all"
    PENALTY = "penalty"
    LOT = "lot"


class MoonRequires(enum.StrEnum):
    """Which cards a moon needs: the penalty cards, or every counter (bonus cards too)."""

    PENALTY_CARDS = "penalty_cards"
    ALL_COUNTERS = "all_counters"


#: Consecutive hands of every penalty card that make a big moon (``moon.big_moon``).
BIG_MOON_HANDS = 10


class BigMoon(enum.StrEnum):
    """Shooting the big moon: every penalty card in each of ten consecutive hands (``moon.big_moon``)."""

    NONE = "none"
    """No big moon."""
    TEN_MOONS = "ten_moons"
    """The ten hands score the shooter 0 and every other player ten times the moon points (260)."""
    HUNDRED = "hundred"
    """The ten hands score the shooter 0 and every other player 100 ("in a normal game")."""


class Sun(enum.StrEnum):
    """What taking every trick in one hand does."""

    NONE = "none"
    ADD_52 = "add_52"
    PUNISH_PASSER = "punish_passer"
    CLEAN_SLATE = "clean_slate"
    SUBTRACT_52 = "subtract_52"


class TeamLoss(enum.StrEnum):
    """With partnerships, which team loses once the match ends (``end.losing_team``)."""

    WORST_PLAYER = "worst_player"
    """The team of the worst total among the players who reached the target (Jawaker's Leekha, Idlib)."""
    WORST_TEAM_TOTAL = "worst_team_total"
    """The team with the worst team total (Jawaker's Leekha as played now: the lower team total wins)."""


class NextDealer(enum.StrEnum):
    """Who deals the next hand (``end.next_dealer``)."""

    ROTATE = "rotate"
    """The deal passes one seat on in the direction of play."""
    MOST_POINTS = "most_points"
    """The player who scored the most points in the hand deals the next one (Idlib Leekha)."""
    QUEEN_TAKER = "queen_taker"
    """The player who took Q♠ deals the next hand (Likha); the deal rotates when nobody took it."""


class ExactFifty(enum.StrEnum):
    """Which totals that land exactly on a multiple of 50 are reduced by 50 (``end.exact_fifty``)."""

    NONE = "none"
    """No reduction."""
    ANY = "any"
    """Any multiple of 50: 50 becomes 0, 100 becomes 50 (Trickster's "Any 50x")."""
    ABOVE_50 = "above_50"
    """A multiple of 50 above 50: 100 becomes 50, 150 becomes 100; 50 stays (Trickster's "50x > 50")."""


class Winner(enum.StrEnum):
    """Whether the lowest or the highest score wins."""

    LOWEST = "lowest"
    HIGHEST = "highest"


class Measure(enum.StrEnum):
    """What the target and the ranking look at: the score, or its magnitude (complex hearts)."""

    SCORE = "score"
    MAGNITUDE = "magnitude"


class Shot(enum.StrEnum):
    """What a shooter took in one hand (:attr:`heartslib.Outcome.kind`)."""

    MOON = "moon"
    """Every penalty card that scored this hand."""
    SUN = "sun"
    """Every trick (``moon.sun``)."""


class MoonScoring(enum.StrEnum):
    """How a moon or a sun was scored (:attr:`heartslib.Outcome.scoring`, :attr:`heartslib.MoonShot.outcome`)."""

    OLD = "old"
    """The shooter scores nothing (bonus cards aside); every other player scores the moon's points."""
    NEW = "new"
    """The shooter scores minus the moon's points; the others score as usual."""
    NO_SCORE = "no_score"
    """Nobody scores the hand's penalty cards (Culbertson)."""
    TAKE_ALL = "take_all"
    """Omnibus take-all: the shooter scores minus the moon's points, bonus cards included."""
    PENALTY = "penalty"
    """The shooter is charged the moon's points (Likha's penalty)."""
    ADD_52 = "add_52"
    """The sun: every other player scores twice the moon's points."""
    PUNISH_PASSER = "punish_passer"
    """The sun: twice the moon's points to the player who passed to the shooter, the moon's to the others."""
    CLEAN_SLATE = "clean_slate"
    """The sun: the shooter's match score returns to 0."""
    SUBTRACT_52 = "subtract_52"
    """The sun for the shooter (GNOME Hearts): the shooter scores minus twice the moon's points, the others 0."""
    ZERO = "zero"
    """Going for the lot: the shooter's running total returns to 0; the others score as usual."""
    DOUBLE = "double"
    """Going for the lot: every other player's running total doubles; the shooter scores nothing (bonus cards
    aside)."""


class Decision(enum.StrEnum):
    """What a pending decision (:attr:`Phase.DECIDE`) is about."""

    PASS = "pass"
    """The dealer names the pass (dealer's choice): ``"hold"`` or ``"<cards> <direction>"``."""
    MOON = "moon"
    """The shooter chooses how the moon scores: old or new moon (``moon.kind = "choice"``), or, going for the lot
    (``moon.kind = "lot"``), zero their own total or double everyone else's."""
    SUIT = "suit"
    """A joker's leader calls the suit to follow (``deck.joker_lead = "call_suit"``)."""
    BID = "bid"
    """Auction Hearts (``scoring.settlement = "auction"``): a seat bids chips for the right to name the penalty suit,
    once each from eldest hand: ``"pass"`` or a number higher than the highest bid so far."""
    NAME = "name"
    """Auction Hearts: the auction's winner (or, after a deal nobody won, the last auction's winner) names the
    penalty suit: ``"clubs"``, ``"diamonds"``, ``"spades"`` or ``"hearts"``."""
    EXPOSE = "expose"
    """Before the first lead, a player exposes (sells) some of its exposable cards: ``"none"`` or their codes
    (``"AH QS"``), in turn from the leader (``scoring.exposable``, Gong Zhu)."""


class Phase(enum.StrEnum):
    """What kind of action the game waits for.

    ``DECIDE``: a :class:`~heartslib.Choose` (dealer's choice of pass, the
    moon choice, a joker lead's suit, exposing cards, an auction's bid and named suit); ``PASS``: every seat
    still to pass;
    ``PLAY``: one seat plays a card; ``OVER``: nothing more (a finished
    round, or a finished match).
    """

    DECIDE = "decide"
    PASS = "pass"
    PLAY = "play"
    OVER = "over"


class PassMode(enum.StrEnum):
    """The pass directions that are not a plain offset (see :class:`Offset`)."""

    HOLD = "hold"
    SCATTER = "scatter"
    STAR = "star"
    SHUFFLE = "shuffle"
    DEALERS_CHOICE = "dealers_choice"

    def __repr__(self) -> str:
        return f"hl.{self.name}"


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _offset_k(_inst: object, _attr: object, value: Any) -> None:
    if not _whole(value):
        raise IllegalAction("bad_argument", f"an Offset is a whole number of seats (1 is left, -1 right), "
                            f"not {value!r:.60}")


def _check_players(players: object) -> None:
    if not _whole(players) or players < 1:
        raise IllegalAction("bad_argument", f"players must be a whole number >= 1, not {players!r:.60}")


@attrs.frozen
class Offset:
    """Pass to the player ``k`` seats on in the direction of play.

    ``Offset(1)`` is "left", ``Offset(-1)`` is "right"; with four players
    ``Offset(2)`` is "across". Offsets are compared as given; a round
    normalises them modulo the number of players.

    >>> Offset(1).name(4), Offset(-1).name(4), Offset(2).name(4), Offset(2).name(5)
    ('left', 'right', 'across', 'left-2')
    """

    k: int = attrs.field(validator=_offset_k)

    def name(self, players: int) -> str:
        """The schedule word for this offset with ``players`` at the table."""
        _check_players(players)
        k = self.k % players
        if k == 0:
            return "hold"
        if players % 2 == 0 and k == players // 2:
            return "across"
        if k <= players // 2:
            return "left" if k == 1 else f"left-{k}"
        back = players - k
        return "right" if back == 1 else f"right-{back}"


HOLD = PassMode.HOLD
SCATTER = PassMode.SCATTER
STAR = PassMode.STAR
SHUFFLE = PassMode.SHUFFLE
DEALERS_CHOICE = PassMode.DEALERS_CHOICE

PassDirection = Offset | PassMode

#: What players call the pass modes whose schedule word is not plain English.
_MODE_WORDS = {PassMode.DEALERS_CHOICE: "dealer's choice"}


def pass_name(direction: PassDirection, players: int, *, words: bool = False) -> str:
    """The name of a pass direction with ``players`` at the table: its schedule word (``"left"``,
    ``"across"``, ``"left-2"``, ``"hold"``, ``"scatter"``, ``"dealers_choice"``), or with ``words``
    the players' words (``"dealer's choice"``).

    >>> pass_name(Offset(-1), 4), pass_name(Offset(2), 4), pass_name(DEALERS_CHOICE, 4, words=True)
    ('right', 'across', "dealer's choice")
    """
    if isinstance(direction, Offset):
        return direction.name(players)
    if not isinstance(direction, PassMode):
        raise IllegalAction("bad_argument", f"a pass direction is an Offset or a PassMode (hl.HOLD, hl.SCATTER, "
                            f"...), not {direction!r:.60}")
    _check_players(players)
    return _MODE_WORDS.get(direction, direction.value) if words else direction.value


def resolve_schedule(schedule: str | tuple[str, ...], players: int) -> tuple[PassDirection, ...]:
    """The pass directions, one per hand, for a schedule and a number of players.

    Raises :class:`~heartslib.VariantError` (at ``passing.schedule``) for a word
    the table cannot have (``"across"`` at an odd table, ``"left-5"`` with five
    players).

    >>> [pass_name(d, 5) for d in resolve_schedule("everyone", 5)]
    ['left', 'right', 'left-2', 'right-2', 'hold']
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
    listed = not isinstance(schedule, str) and len(words) > 1
    out = []
    for i, word in enumerate(words):
        try:
            out.append(pass_word(word, n))
        except VariantError as exc:
            if not listed:
                raise
            # a list the user wrote: the refusal names the entry's place in it
            raise VariantError(f"passing.schedule[{i}]", exc.reason) from None
    return tuple(out)


def pass_word(word: str, n: int) -> PassDirection:
    """One word of a pass schedule (``"left"``, ``"across"``, ``"left-2"``, ``"hold"``...) for ``n`` players;
    :class:`~heartslib.VariantError` (or ``ValueError`` for a bad number) when the table cannot have it."""
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
        raise VariantError("passing.schedule", f"{value_text(word)} needs 1 <= k < {n} (the number of players)")
    return Offset(k if side == "left" else -k)
