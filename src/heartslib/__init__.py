"""heartslib: the rules of the whole hearts family of card games as a state machine.

>>> import heartslib as hl
>>> m = hl.Match(hl.preset("standard"), seed=7)
>>> m.phase, m.to_act
(<Phase.PASS: 'pass'>, (0, 1, 2, 3))
"""

from heartslib import agents
from heartslib.actions import (
    Action,
    Choose,
    Event,
    KittyTaken,
    MoonShot,
    Pass,
    PassesExchanged,
    Play,
    RoundScored,
    TrickWon,
    action_from_dict,
    action_from_text,
)
from heartslib.cards import NUM_CARD_INDICES, Card, Rank, Suit, parse_cards, sort_cards
from heartslib.enums import (
    DEALERS_CHOICE,
    HOLD,
    SCATTER,
    SHUFFLE,
    STAR,
    BigMoon,
    Breaking,
    CancelRollover,
    Decision,
    Direction,
    ExactFifty,
    Fill,
    FirstTrick,
    HeartsFlip,
    HeartsScoring,
    Identical,
    JokerKind,
    JokerLead,
    JokerPlay,
    JokerPointsWhen,
    KittyMode,
    LeadHeartsUnbroken,
    Measure,
    MoonKind,
    MoonRequires,
    MoonScoring,
    NextDealer,
    Offset,
    Opening,
    PassDirection,
    PassMode,
    Phase,
    Settlement,
    Shot,
    Sun,
    Winner,
    pass_name,
)
from heartslib.errors import CardError, IllegalAction, SaveError, UnknownVariant, VariantError
from heartslib.match import Match, RoundResult
from heartslib.observation import Observation, Trick
from heartslib.points import Score, score_text
from heartslib.presets import preset, preset_names
from heartslib.round import Round
from heartslib.scoring import Outcome
from heartslib.serialize import parse_score
from heartslib.simulate import simulate
from heartslib.variant import (
    CardCards,
    CardSuits,
    CardValues,
    DeckRules,
    EndRules,
    MoonRules,
    PassingRules,
    PlayRules,
    ScoringRules,
    StripTable,
    Variant,
)

__version__ = "0.1.0"

import heartslib.round as _round_module

COMPILED: bool = not (_round_module.__file__ or "").endswith((".py", ".pyc"))
"""Whether the engine's hot modules (``round``, ``rules``) run compiled by mypyc.

False for the default install (pure Python); True for a build made with
``HATCH_BUILD_HOOK_ENABLE_MYPYC=true pip install .`` (see the performance
page). Both builds play the same games; the compiled one is 2-4x faster.
"""

__all__ = [
    "COMPILED",
    "DEALERS_CHOICE",
    "HOLD",
    "NUM_CARD_INDICES",
    "SCATTER",
    "SHUFFLE",
    "STAR",
    "Action",
    "BigMoon",
    "Breaking",
    "CancelRollover",
    "Card",
    "CardCards",
    "CardError",
    "CardSuits",
    "CardValues",
    "Choose",
    "Decision",
    "DeckRules",
    "Direction",
    "EndRules",
    "Event",
    "ExactFifty",
    "Fill",
    "FirstTrick",
    "HeartsFlip",
    "HeartsScoring",
    "Identical",
    "IllegalAction",
    "JokerKind",
    "JokerLead",
    "JokerPlay",
    "JokerPointsWhen",
    "KittyMode",
    "KittyTaken",
    "LeadHeartsUnbroken",
    "Match",
    "Measure",
    "MoonKind",
    "MoonRequires",
    "MoonRules",
    "MoonScoring",
    "MoonShot",
    "NextDealer",
    "Observation",
    "Offset",
    "Opening",
    "Outcome",
    "Pass",
    "PassDirection",
    "PassMode",
    "PassesExchanged",
    "PassingRules",
    "Phase",
    "Play",
    "PlayRules",
    "Rank",
    "Round",
    "RoundResult",
    "RoundScored",
    "SaveError",
    "Score",
    "ScoringRules",
    "Settlement",
    "Shot",
    "StripTable",
    "Suit",
    "Sun",
    "Trick",
    "TrickWon",
    "UnknownVariant",
    "Variant",
    "VariantError",
    "Winner",
    "__version__",
    "action_from_dict",
    "action_from_text",
    "agents",
    "parse_cards",
    "parse_score",
    "pass_name",
    "preset",
    "preset_names",
    "score_text",
    "simulate",
    "sort_cards",
]
