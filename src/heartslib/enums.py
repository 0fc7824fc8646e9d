"""The option enums of a variant and the game's phases and pass directions.

Every enum value is the lower-case string used in TOML and JSON, so
``MoonKind("old") is MoonKind.OLD`` and ``str(MoonKind.OLD) == "old"``.
"""

from __future__ import annotations

import enum

import attrs

__all__ = [
    "DEALERS_CHOICE",
    "HOLD",
    "SCATTER",
    "SHUFFLE",
    "STAR",
    "Breaking",
    "CancelRollover",
    "Direction",
    "Fill",
    "FirstTrick",
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
    "Offset",
    "Opening",
    "PassDirection",
    "PassMode",
    "Phase",
    "Sun",
    "Winner",
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


class HeartsScoring(enum.StrEnum):
    """What each heart scores: one point, or its pip value (spot hearts)."""

    ONE = "one"
    SPOT = "spot"


class Settlement(enum.StrEnum):
    """Foster's counters: how each hand is also settled through a pool (RULES.md 6)."""

    NONE = "none"
    SWEEPSTAKE = "sweepstake"
    HOWELL = "howell"


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


class MoonRequires(enum.StrEnum):
    """Which cards a moon needs: the penalty cards, or every counter (bonus cards too)."""

    PENALTY_CARDS = "penalty_cards"
    ALL_COUNTERS = "all_counters"


class Sun(enum.StrEnum):
    """What taking every trick in one hand does."""

    NONE = "none"
    ADD_52 = "add_52"
    PUNISH_PASSER = "punish_passer"
    CLEAN_SLATE = "clean_slate"


class Winner(enum.StrEnum):
    """Whether the lowest or the highest score wins."""

    LOWEST = "lowest"
    HIGHEST = "highest"


class Measure(enum.StrEnum):
    """What the target and the ranking look at: the score, or its magnitude (complex hearts)."""

    SCORE = "score"
    MAGNITUDE = "magnitude"


class Phase(enum.StrEnum):
    """What kind of action the game waits for.

    ``DECIDE``: a :class:`~heartslib.Choose` (dealer's choice of pass, the
    moon choice, a joker lead's suit); ``PASS``: every seat still to pass;
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


@attrs.frozen
class Offset:
    """Pass to the player ``k`` seats on in the direction of play.

    ``Offset(1)`` is "left", ``Offset(-1)`` is "right"; with four players
    ``Offset(2)`` is "across". Offsets are compared as given; a round
    normalises them modulo the number of players.

    >>> Offset(1).name(4), Offset(-1).name(4), Offset(2).name(4), Offset(2).name(5)
    ('left', 'right', 'across', 'left-2')
    """

    k: int = attrs.field(validator=attrs.validators.instance_of(int))

    def name(self, players: int) -> str:
        """The schedule word for this offset with ``players`` at the table."""
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
