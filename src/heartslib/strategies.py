"""Hypothesis strategies and a stateful test for property-testing hearts variants.

Needs the ``testing`` extra (``pip install heartslib[testing]``, which
brings `Hypothesis <https://hypothesis.readthedocs.io>`_). Importing this
module without Hypothesis raises an :class:`ImportError` that says so.

Strategies
----------
:func:`variants`
    any valid :class:`~heartslib.Variant`; keyword arguments pin or restrict
    fields (``variants(players=st.integers(3, 6), decks=1)``). Examples
    shrink toward the standard game.
:func:`cards`, :func:`hands`, :func:`deals`
    cards of a pack, one hand, a whole deal (hands and kitty).
:func:`rounds`, :func:`matches`
    states reached by legal play from a random deal, at any phase.
:func:`playouts`
    finished rounds.
:func:`actions`, :func:`any_actions`
    a legal action for a state; any action at all (legal or not).

With the package installed, ``st.from_type(hl.Variant)`` draws from
:func:`variants` (registered through Hypothesis' entry point).

The stateful test :class:`HeartsStateMachine` plays any variant with
legal and illegal actions, copies, JSON save/load and observation checks
interleaved; subclass it to add your own invariants.

>>> import heartslib as hl
>>> from hypothesis import given, settings, strategies as st
>>> from heartslib import strategies as hst
>>> @settings(max_examples=10, database=None)
... @given(hst.playouts(hst.variants(players=st.integers(3, 6), decks=1)))
... def test_points_are_whole_numbers(r):
...     assert r.is_over and all(isinstance(p, int) for p in r.points)
>>> test_points_are_whole_numbers()
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

import attrs

from heartslib.actions import Action, Choose, Pass, Play
from heartslib.cards import NUM_CARD_INDICES, Card, sort_cards
from heartslib.engine.args import check_rng
from heartslib.engine.choices import PassChoices
from heartslib.enums import SCATTER, STAR, Phase
from heartslib.errors import IllegalAction, VariantError
from heartslib.match import Match
from heartslib.round import Round
from heartslib.variant import SECTIONS, Variant


def _hypothesis_setup_hook() -> None:
    """Register :func:`variants` and :func:`cards` for ``st.from_type`` (Hypothesis' entry point runs this).

    Defined before Hypothesis is imported below: importing this module
    first imports Hypothesis, which runs its entry points, which load this
    hook from the half-imported module. The strategies are therefore
    looked up only when ``from_type`` resolves them.
    """
    from hypothesis import strategies as hyp

    hyp.register_type_strategy(Variant, lambda _: variants())
    hyp.register_type_strategy(Card, lambda _: cards())


try:
    from hypothesis import reject
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
    from hypothesis.strategies import SearchStrategy
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "heartslib.strategies needs Hypothesis: pip install heartslib[testing] (from a checkout: "
        "pip install -e '.[testing]')"
    ) from exc

__all__ = [
    "HeartsStateMachine",
    "actions",
    "any_actions",
    "cards",
    "check_invariants",
    "deals",
    "hands",
    "matches",
    "playouts",
    "random_action",
    "rounds",
    "variants",
]

State = Round | Match

# --------------------------------------------------------------------------- field choices
#
# Every field draws from a list whose first item is the standard game's
# value: Hypothesis shrinks ``sampled_from`` toward its first item and
# ``one_of`` toward its first branch, so failing examples shrink toward
# the standard game and differ from it only where they must.

_FOSTER_TABLE = {"3": ["2S"], "5": ["2C", "2S"], "6": ["2C", "2D", "2H", "2S"]}
_SEED001_TABLE = {"3": ["3C"], "5": ["3D", "3S"]}
_DOUBLE_TABLE = {"9": ["2H", "2C", "2D", "2S"], "10": ["2H", "2C", "2D", "2S"]}
# Enough distinct low cards to even any pack (two decks, eleven players leave up to ten over).
_LONG_STRIP = ("2C", "2D", "3C", "2S", "2H", "3D", "3S", "3H", "4C", "4D", "4S", "4H")
_LOW_CARDS = tuple(f"{r}{s}" for r in "2345" for s in "CDSH")

_PASS_WORDS = (
    "left", "right", "across", "hold", "left-2", "right-2", "left-3", "right-3", "left-4", "right-4",
    "left-5", "right-5", "scatter", "star", "shuffle", "dealers_choice",
)
_NAMED_CYCLES = ("four_way", "left", "right", "left_right", "everyone", "rotating", "rotating_hold")

#: AyMog's Leekha: the cards a pass may always take (passing.last_of_suit_exempt).
_LEEKHA_EXEMPT = ("QS", "KS", "AS", "TD", "JD", "QD", "KD", "AD")
_GONG_ZHU_EXPOSABLE = {"AH": "hearts", "QS": "card", "JD": "card", "TC": "card"}
_SCORING_CARDS = ("QS", "JD", "TD", "QH", "7C", "JS", "KS", "AS", "TC", "QD", "QC", "AH", "0C", "0D", "JK")
_VALUE_TABLES: tuple[dict[str, int], ...] = (
    {"QS": 13},
    {"QS": 13, "JD": -10},
    {"QS": 13, "TD": -10},
    {"QS": 13, "QH": 13},
    {"QS": 13, "7C": 7},
    {"JS": 10},
    {"QS": 13, "KS": 10, "AS": 7},
    {},
)


def _choice(*items: Any) -> SearchStrategy[Any]:
    return st.sampled_from(items)


def _enum_choice(section: str | None, field: str) -> SearchStrategy[str]:
    """Every value of an enum field, the standard game's first (new engine options are drawn automatically)."""
    default = getattr(Variant() if section is None else getattr(Variant(), section), field)
    return st.sampled_from([default.value] + [m.value for m in type(default) if m != default])


def _strip_strategy() -> SearchStrategy[Any]:
    return st.one_of(
        _choice(("2C", "2D", "3C", "2S"), ("2C", "2D", "2S", "2H"), _FOSTER_TABLE, _SEED001_TABLE, _DOUBLE_TABLE),
        st.lists(st.sampled_from(_LOW_CARDS), unique=True, min_size=0, max_size=6).map(tuple),
    )


def _schedule_strategy() -> SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(_NAMED_CYCLES),
        st.lists(st.sampled_from(_PASS_WORDS), min_size=1, max_size=4).map(tuple),
    )


def _values_strategy() -> SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(_VALUE_TABLES),
        st.dictionaries(st.sampled_from(_SCORING_CARDS), st.integers(-20, 20), max_size=4),
    )


#: ``(section or None, field) -> default strategy``; section None is a top-level field.
_DEFAULTS: dict[tuple[str | None, str], Callable[[], SearchStrategy[Any]]] = {
    # two players (a game with a stock only) are drawn when pinned: variants(players=2)
    (None, "players"): lambda: _choice(4, 3, 5, 6, 7, 8, 9, 10, 11),
    (None, "direction"): lambda: _enum_choice(None, "direction"),
    # teams are drawn as a shape and laid out once the number of players is known
    (None, "teams"): lambda: _choice((), "pairs", "threes"),
    ("deck", "decks"): lambda: _choice(1, 2),
    ("deck", "fill"): lambda: _enum_choice("deck", "fill"),
    ("deck", "strip"): _strip_strategy,
    ("deck", "kitty"): lambda: _enum_choice("deck", "kitty"),
    ("deck", "kitty_seen_by_winner"): st.booleans,
    ("deck", "stock"): lambda: _choice("none", "after_trick", "to_follow"),
    ("deck", "hand_size"): lambda: _choice(0, 13, 6, 5, 1),
    ("deck", "jokers"): lambda: _choice(0, 1, 2, 3),
    ("deck", "joker"): lambda: _enum_choice("deck", "joker"),
    ("deck", "joker_play"): lambda: _enum_choice("deck", "joker_play"),
    ("deck", "joker_lead"): lambda: _enum_choice("deck", "joker_lead"),
    ("deck", "joker_points"): lambda: _choice(0, 1, 5, 13, -5),
    ("deck", "joker_points_when"): lambda: _enum_choice("deck", "joker_points_when"),
    ("passing", "cards"): lambda: _choice(3, 2, 1, 4, 5),
    ("passing", "schedule"): _schedule_strategy,
    ("passing", "forbidden"): lambda: st.lists(_choice("2C", "QS", "AH"), unique=True, max_size=3).map(tuple),
    ("passing", "keep_last_of_suit"): st.booleans,
    ("passing", "last_of_suit_exempt"): lambda: _choice((), _LEEKHA_EXEMPT, ("QS", "2C")),
    ("play", "opening"): lambda: _enum_choice("play", "opening"),
    ("play", "breaking"): lambda: _enum_choice("play", "breaking"),
    ("play", "lead_hearts_unbroken"): lambda: _enum_choice("play", "lead_hearts_unbroken"),
    ("play", "queen_needs_broken"): st.booleans,
    ("play", "first_trick"): lambda: _enum_choice("play", "first_trick"),
    ("play", "queen_forced"): st.booleans,
    ("play", "must_discard"): lambda: _choice((), ("JS",), ("QS", "TD"), ("QS",)),
    ("play", "must_discard_if_all"): st.booleans,
    ("play", "booster_nines"): st.booleans,
    ("play", "undercut"): st.booleans,
    ("play", "undercut_ceiling"): lambda: _enum_choice("play", "undercut_ceiling"),
    ("play", "undercut_binds_discards"): st.booleans,
    ("play", "opening_card"): lambda: _choice(None, "2S", "3C", "0C", "AH"),
    ("play", "opening_taker"): lambda: _choice(None, "QS", "2C"),
    ("play", "identical"): lambda: _enum_choice("play", "identical"),
    ("play", "cancel_rollover"): lambda: _enum_choice("play", "cancel_rollover"),
    ("scoring", "hearts"): lambda: _enum_choice("scoring", "hearts"),
    ("scoring", "values"): _values_strategy,
    ("scoring", "no_tricks"): lambda: _choice(0, -5, 5),
    ("scoring", "multiply"): lambda: _choice({}, {"TC": 2}, {"TC": -1}),
    ("scoring", "multiply_alone"): lambda: _choice({}, {"TC": 50}),
    ("scoring", "double_suit"): lambda: _choice({}, {"QH": "hearts"}, {"QD": "diamonds"}),
    ("scoring", "cancels"): lambda: _choice({}, {"QC": "QS"}),
    ("scoring", "all_hearts_flips"): lambda: _enum_choice("scoring", "all_hearts_flips"),
    ("scoring", "settlement"): lambda: _choice("none", "sweepstake", "howell", "auction"),
    ("scoring", "chips"): lambda: _choice(50, 1, 3, 100),
    ("scoring", "max_bid"): lambda: _choice(0, 1, 5),
    ("scoring", "exposable"): lambda: _choice({}, _GONG_ZHU_EXPOSABLE, {"QS": "card"}),
    ("moon", "kind"): lambda: _enum_choice("moon", "kind"),
    ("moon", "requires"): lambda: _enum_choice("moon", "requires"),
    ("moon", "points"): lambda: _choice(0, 26, 10),
    ("moon", "new_after"): lambda: _choice(0, 50),
    ("moon", "new_after_shooter"): st.booleans,
    ("moon", "sun"): lambda: _enum_choice("moon", "sun"),
    ("moon", "sun_skips_first_trick"): st.booleans,
    ("moon", "shooter_cannot_win"): st.booleans,
    ("moon", "continue_after_moon"): st.booleans,
    ("moon", "big_moon"): lambda: _enum_choice("moon", "big_moon"),
    ("end", "target"): lambda: _choice(100, 50, 200, 0, 1),
    ("end", "reset_at_exact"): st.booleans,
    ("moon", "sun_and_moon"): st.booleans,
    ("end", "magic_multiple"): lambda: _choice(0, 0, 25, 20),
    ("end", "hands"): lambda: _choice(0, 1, 2, 5),
    ("end", "winner"): lambda: _enum_choice("end", "winner"),
    ("end", "measure"): lambda: _enum_choice("end", "measure"),
    ("end", "lives"): lambda: _choice(0, 3),
    ("end", "life_threshold"): lambda: _choice(15, 10),
    ("end", "exact_fifty"): lambda: _enum_choice("end", "exact_fifty"),
    ("end", "round_bonuses"): lambda: _choice({}, {"50": -50, "100": -50, "150": -50}, {"100": -25, "60": 10}),
    ("end", "win_target"): lambda: _choice(0, 150, -40),
    ("end", "team_scores"): st.booleans,
    ("end", "losing_team"): lambda: _enum_choice("end", "losing_team"),
    ("end", "next_dealer"): lambda: _enum_choice("end", "next_dealer"),
    ("end", "dealer_ties"): lambda: _choice((), ("KC", "QS", "TD"), ("QS",)),
}

# Field names are unique across sections, so a flat keyword names one field;
# ``moon_kind`` style names (section prefix) are accepted too.
_FLAT: dict[str, tuple[str | None, str]] = {field: (sec, field) for sec, field in _DEFAULTS}
_FLAT.update({f"{sec}_{field}": (sec, field) for sec, field in _DEFAULTS if sec is not None})
_FLAT["name"] = (None, "name")
_FLAT["source"] = (None, "source")

# Scatter and star passes are ordered, so listing them enumerates permutations;
# keep generated variants small enough for legal_actions to list them quickly.
_MAX_PASS_CHOICES = 10_000


def _as_strategy(value: Any) -> SearchStrategy[Any]:
    return value if isinstance(value, SearchStrategy) else st.just(value)


def _resolve_pins(pins: Mapping[str, Any]) -> dict[tuple[str | None, str], SearchStrategy[Any]]:
    out: dict[tuple[str | None, str], SearchStrategy[Any]] = {}
    for key, value in pins.items():
        if key in SECTIONS and isinstance(value, SECTIONS[key]):  # a section object pins the whole section
            for field in attrs.fields(SECTIONS[key]):
                out[(key, field.name)] = st.just(getattr(value, field.name))
            continue
        if key in SECTIONS and isinstance(value, Mapping):
            for field, sub in value.items():
                if (key, field) not in _DEFAULTS:
                    raise TypeError(f"variants(): {key} has no field {field!r}")
                out[(key, field)] = _as_strategy(sub)
            continue
        where = _FLAT.get(key)
        if where is None:
            raise TypeError(
                f"variants() got an unknown field {key!r}; use a field name such as players, decks, "
                "schedule or moon_kind, or a section dict such as moon={'kind': 'new'}"
            )
        out[where] = _as_strategy(value)
    return out


class _Draft:
    """The drawn fields of a variant being built, with the pinned ones protected from repair."""

    def __init__(self, values: dict[tuple[str | None, str], Any], pinned: set[tuple[str | None, str]]):
        self.values = values
        self.pinned = pinned

    def __getitem__(self, key: str) -> Any:
        return self.values[_FLAT[key]]

    def change(self, key: str, value: Any) -> bool:
        """Set an unpinned field; False (nothing changed) when the user pinned it."""
        where = _FLAT[key]
        if where in self.pinned:
            return False
        self.values[where] = value
        return True

    def data(self, sections: Iterable[str] = SECTIONS) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for (sec, field), value in self.values.items():
            if sec is None:
                out[field] = value
            elif sec in sections:
                out.setdefault(sec, {})[field] = value
        return out


def _fix(draft: _Draft, *changes: tuple[str, Any]) -> None:
    """Apply the first possible repair; reject the example when every field involved is pinned."""
    for key, value in changes:
        if draft.change(key, value):
            return
    reject()


def _repair_deck(draft: _Draft) -> Variant:
    """Make the table and pack valid, changing only unpinned fields; returns a probe variant."""
    schedule = draft["schedule"]
    if not isinstance(schedule, str) and "star" in schedule and draft["players"] != 5:
        draft.change("players", 5)  # star passing is a five-player game; else the word becomes "left"
    if draft["players"] == 11 and draft["decks"] == 1:
        _fix(draft, ("decks", 2), ("players", 10))
    if draft["identical"] == "cancel" and draft["decks"] == 1:
        _fix(draft, ("decks", 2), ("identical", "last_wins"))
    # two players only with a stock (RULES.md section 11's decision); a hand size only deals part of the pack
    # for a stock
    if draft["players"] == 2 and draft["stock"] == "none":
        _fix(draft, ("stock", "after_trick"), ("players", 3))
    if draft["stock"] == "none" and draft["hand_size"]:
        _fix(draft, ("hand_size", 0), ("stock", "after_trick"))
    if draft["stock"] != "none" and draft["fill"] == "kitty":
        _fix(draft, ("fill", "strip"), ("stock", "none"))
    for _ in range(8):
        data = {**draft.data(("deck",)), "teams": ()}  # teams are laid out later, once players are final
        try:
            return Variant(passing={"schedule": "hold"}, **data)
        except VariantError as exc:
            path = exc.path
        if path == "deck.jokers":
            _fix(draft, ("joker", "valueless"), ("jokers", 2))
        elif path == "deck.kitty":
            _fix(draft, ("kitty", "first_trick"), ("fill", "strip"))
        elif path.startswith("deck.strip."):  # a per-player table that cannot apply or leaves the deal uneven
            _fix(draft, ("fill", "kitty"), ("strip", _LONG_STRIP))
        elif path == "deck.strip":
            _fix(draft, ("strip", _LONG_STRIP), ("fill", "kitty"))
        elif path == "deck.stock":  # drawing to follow with valueless jokers, which have no suit
            _fix(draft, ("stock", "after_trick"), ("joker", "zero_suits"))
        elif path == "deck.hand_size":  # none given for a stock, or too many to leave one
            _fix(draft, ("hand_size", 1 if draft["hand_size"] == 5 else 5))
        elif path == "deck.fill":
            if draft["fill"] == "jokers" and draft["jokers"]:
                _fix(draft, ("jokers", 0), ("fill", "kitty"))
            else:
                _fix(draft, ("fill", "kitty"))
        else:
            reject()
    reject()
    raise AssertionError("unreachable")  # pragma: no cover - reject() raises


def _pass_choices(passable: int, size: int, ordered: bool) -> int:
    if size > passable:
        return 0
    return math.perm(passable, size) if ordered else math.comb(passable, size)


def _repair_passing(draft: _Draft, probe: Variant) -> None:
    n = draft["players"]
    hand = probe.deal_size
    pack = Counter(probe.pack)
    suits = len({card.suit for card in pack if card.suit is not None})

    def passable() -> int:
        # the cards a hand can always pass: a hand holding every suit keeps one of each under keep_last_of_suit
        forbidden = sum(pack[Card.parse(c)] for c in draft["forbidden"])
        return max(0, hand - min(forbidden, hand) - (suits if draft["keep_last_of_suit"] else 0))

    if draft["last_of_suit_exempt"] and not draft["keep_last_of_suit"]:
        _fix(draft, ("last_of_suit_exempt", ()), ("keep_last_of_suit", True))

    schedule = draft["schedule"]
    if isinstance(schedule, str):
        if schedule == "four_way" and n % 2:
            _fix(draft, ("schedule", "left_right"))
    else:
        words = []
        for word in schedule:
            if word == "across" and n % 2:
                word = "left"
            elif word.startswith(("left-", "right-")):
                side, _, k = word.partition("-")
                if int(k) >= n:
                    word = f"{side}-{1 + (int(k) - 1) % (n - 1)}"
            elif word == "star" and n != 5:
                word = "left"
            elif word == "scatter" and (n > 5 or _pass_choices(passable(), n - 1, True) > _MAX_PASS_CHOICES):
                word = "right"
            words.append(word)
        if tuple(words) != tuple(schedule):
            _fix(draft, ("schedule", tuple(words)))
    schedule = draft["schedule"]
    special = {"hold", "scatter", "star"}
    uses_cards = isinstance(schedule, str) or any(w not in special for w in schedule)
    needs = [n - 1] if "scatter" in schedule and not isinstance(schedule, str) else []
    if not isinstance(schedule, str) and "star" in schedule:
        needs.append(2)
    if max(needs, default=0) > passable() or (uses_cards and passable() < 1):
        _fix(draft, ("forbidden", ()), ("keep_last_of_suit", False))
    if max(needs, default=0) > passable() or (uses_cards and passable() < 1):
        _fix(draft, ("keep_last_of_suit", False))
    if uses_cards:
        while draft["cards"] > passable() or _pass_choices(passable(), draft["cards"], False) > _MAX_PASS_CHOICES:
            if draft["cards"] <= 1:
                reject()
            _fix(draft, ("cards", draft["cards"] - 1))


def _layout_teams(draft: _Draft) -> None:
    """Turn a drawn team shape into seats: "pairs" of opposite halves, "threes" of every third seat."""
    shape, n = draft["teams"], draft["players"]
    if not isinstance(shape, str):
        return
    size = {"pairs": 2, "threes": 3}[shape]
    if n % size:
        draft.values[(None, "teams")] = ()  # the shape was drawn by us, not pinned
        return
    draft.values[(None, "teams")] = tuple(tuple(range(t, n, size)) for t in range(size))


def _repair_end(draft: _Draft) -> None:
    if draft["exposable"] and draft["decks"] != 1:
        _fix(draft, ("exposable", {}))
    if draft["stock"] != "none" and draft["booster_nines"]:  # no source defines a nine's extra round with a stock
        _fix(draft, ("booster_nines", False), ("stock", "none"))
    # the undercut's readings need the rule, and the rule its leekha cards: a pinned reading keeps the rule on
    if not draft["undercut"] and draft["undercut_ceiling"] != "highest_leekha":
        _fix(draft, ("undercut_ceiling", "highest_leekha"), ("undercut", True))
    if not draft["undercut"] and draft["undercut_binds_discards"]:
        _fix(draft, ("undercut_binds_discards", False), ("undercut", True))
    if draft["undercut"] and not draft["must_discard"]:
        reading = draft["undercut_ceiling"] != "highest_leekha" or draft["undercut_binds_discards"]
        if reading:
            _fix(draft, ("must_discard", ("QS", "TD")))
        else:
            _fix(draft, ("undercut", False), ("must_discard", ("QS", "TD")))
    jokers = ("0C", "0D", "JK")
    values = draft["values"]
    if (draft["joker_points"] and draft["joker_points_when"] == "hearts_led"
            and any(values.get(j, draft["joker_points"]) != draft["joker_points"] for j in jokers)):
        # a joker scoring only on a hearts lead is worth deck.joker_points: it has no value of its own
        _fix(draft, ("values", {c: x for c, x in values.items() if c not in jokers}), ("joker_points_when", "always"))
    if any(card not in draft["multiply"] for card in draft["multiply_alone"]):
        _fix(draft, ("multiply_alone", {}), ("multiply", {**draft["multiply_alone"], **draft["multiply"]}))
    if draft["target"] == 0 and draft["kind"] == "new_if_old_loses":
        _fix(draft, ("target", 100), ("kind", "new"))
    if draft["target"] == 0 and draft["hands"] == 0:
        _fix(draft, ("hands", 5), ("target", 100))
    if draft["settlement"] != "none" and draft["winner"] == "highest":
        _fix(draft, ("settlement", "none"), ("winner", "lowest"))
    if draft["sun_and_moon"] and (draft["sun"] == "none" or draft["kind"] == "none"):
        _fix(draft, ("sun_and_moon", False), ("sun", "add_52"))
    # RULES.md section 11's decision: neither lives nor the big moon with partnerships
    if draft["teams"] and draft["lives"] and not draft["team_scores"]:
        _fix(draft, ("lives", 0), ("teams", ()))
    if draft["teams"] and draft["big_moon"] != "none":
        _fix(draft, ("big_moon", "none"), ("teams", ()))
    if draft["next_dealer"] == "queen_taker" and draft["decks"] != 1:  # the strips drawn never take Q♠
        _fix(draft, ("next_dealer", "rotate"))
    if draft["losing_team"] != "worst_player" and (not draft["teams"] or draft["team_scores"]):
        _fix(draft, ("losing_team", "worst_player"), ("team_scores", False))
    if draft["team_scores"] and not draft["teams"]:
        _fix(draft, ("team_scores", False))
    elif draft["team_scores"] and draft["lives"]:
        _fix(draft, ("team_scores", False), ("lives", 0))
    win = draft["win_target"]
    if win and draft["measure"] == "magnitude":
        _fix(draft, ("win_target", 0), ("measure", "score"))
    elif win and (win < 0) == (draft["winner"] == "highest"):
        _fix(draft, ("win_target", -win), ("win_target", 0))
    if draft["round_bonuses"] and draft["exact_fifty"] != "none":  # two rules for landing on a round score
        _fix(draft, ("round_bonuses", {}), ("exact_fifty", "none"))
    if draft["all_hearts_flips"] not in ("none", False) and draft["winner"] == "lowest":
        _fix(draft, ("all_hearts_flips", "none"), ("winner", "highest"))


#: Where :func:`heartslib.engine.checks.check_ends` reports a match that might never end.
_END_PATHS = frozenset({
    "end.target", "moon.kind", "moon.continue_after_moon", "scoring.multiply", "end.reset_at_exact", "end.exact_fifty",
})

_STANDARD_DATA: dict[str, Any] | None = None


def _describe_diff(v: Variant) -> str:
    """A short name listing how ``v`` differs from the standard game, so examples read well."""
    global _STANDARD_DATA
    if _STANDARD_DATA is None:
        _STANDARD_DATA = Variant().to_dict()
    base, data = _STANDARD_DATA, v.to_dict()
    diffs = []
    for key, value in data.items():
        if key in ("name", "source"):
            continue
        if isinstance(value, dict):
            diffs += [f"{key}.{f}={x!r}" for f, x in value.items() if base[key].get(f) != x]
        elif base.get(key) != value:
            diffs.append(f"{key}={value!r}")
    return "standard" + ("" if not diffs else " with " + ", ".join(diffs))


def _unless_refused(draft: _Draft, data: dict[str, Any], path: str, change: tuple[str, Any]) -> dict[str, Any]:
    """``data``, or the draft with ``change`` made when the checks refuse the field at ``path`` (and the field
    changed is not pinned)."""
    try:
        Variant(**data)
    except VariantError as exc:
        if any(where == path for where, _ in exc.problems) and draft.change(*change):
            return draft.data()
    return data


#: What an auction needs of the other fields (engine.checks refuses anything else): one pack, no jokers, no stock,
#: no scoring card but the named suit, no moon, no pass, no opening taker, no partnerships.
_AUCTION_FIELDS: tuple[tuple[str, Any], ...] = (
    ("decks", 1), ("jokers", 0), ("fill", "strip"), ("stock", "none"), ("hearts", "one"), ("values", {}),
    ("multiply", {}), ("multiply_alone", {}), ("double_suit", {}), ("cancels", {}), ("exposable", {}),
    ("all_hearts_flips", "none"), ("kind", "none"), ("sun", "none"), ("big_moon", "none"), ("schedule", "hold"),
    ("opening_taker", None), ("teams", ()),
)


def _repair_auction(draft: _Draft) -> None:
    """Chips and a highest bid only with an auction; an auction's other fields as it needs them."""
    if draft["settlement"] != "auction":
        if draft["chips"] != 50:
            _fix(draft, ("chips", 50))
        if draft["max_bid"] != 0:
            _fix(draft, ("max_bid", 0))
        return
    if draft["players"] > 10:  # one pack seats ten at most
        _fix(draft, ("players", 8), ("settlement", "none"))
    for key, value in _AUCTION_FIELDS:
        if draft[key] != value:
            _fix(draft, (key, value), ("settlement", "none"))
        if draft["settlement"] != "auction":  # a pinned field refused the auction: undo what it needed
            _repair_auction(draft)
            return


@st.composite
def _variants(draw: st.DrawFn, pins: dict[tuple[str | None, str], SearchStrategy[Any]]) -> Variant:
    values = {key: draw(pins[key] if key in pins else make()) for key, make in _DEFAULTS.items()}
    named = {key: draw(pins[key]) for key in ((None, "name"), (None, "source")) if key in pins}
    draft = _Draft(values, set(pins))
    _repair_auction(draft)
    probe = _repair_deck(draft)
    _repair_passing(draft, probe)
    _layout_teams(draft)
    _repair_end(draft)
    data = draft.data()
    if draft["magic_multiple"]:
        # magic numbers with complex totals, or where every hand scores a multiple: the checks decide
        data = _unless_refused(draft, data, "end.magic_multiple", ("magic_multiple", 0))
    if draft["round_bonuses"]:
        # round-score bonuses with complex totals, or where they keep every player from the target: the checks
        data = _unless_refused(draft, data, "end.round_bonuses", ("round_bonuses", {}))
    if draft["kind"] == "lot":
        # going for the lot where every hand is a moon (a pack with one penalty card): the checks decide
        data = _unless_refused(draft, data, "moon.kind", ("kind", "old"))
    try:
        v = Variant(**data)
    except VariantError as exc:
        # a match that might never end (the card values do not move the scores toward the target): a fixed
        # number of hands ends it; any other problem means pinned fields contradict each other
        if not {path for path, _ in exc.problems} <= _END_PATHS or not draft.change("hands", 5):
            reject()
        try:
            v = Variant(**draft.data())
        except VariantError:
            reject()
    if named:
        try:
            return v.replace(**{key[1]: value for key, value in named.items()})
        except VariantError:  # a pinned name that no variant may have (blank, a lone surrogate)
            reject()
    return v.replace(name=_describe_diff(v))


def variants(**pins: Any) -> SearchStrategy[Variant]:
    """Any valid :class:`~heartslib.Variant`, shrinking toward the standard game.

    Keyword arguments pin or restrict fields: give a plain value or a
    strategy, by field name (``players``, ``decks``, ``schedule``,
    ``kind``), by section-prefixed name (``moon_kind``, ``end_target``),
    as a section dict (``moon={"kind": "new"}``) or as a whole section
    (``scoring=hl.ScoringRules()`` pins every scoring field to the standard game's). Unpinned fields are
    drawn over every option and then repaired so the variant validates
    (a repair never changes a pinned field; contradictory pins are
    rejected). Generated variants are named after how they differ from
    the standard game, e.g. ``"standard with players=5, moon.kind='new'"``.

    Scatter passes with more than five players are avoided (the ordered
    passes are too many to list), and pass sizes are kept so that
    :meth:`~heartslib.Round.legal_actions` lists at most about ten thousand passes.

    >>> from hypothesis import given, settings, strategies as st
    >>> @settings(max_examples=20, database=None)
    ... @given(variants(players=st.integers(3, 6), decks=1, moon_kind="new"))
    ... def test(v):
    ...     assert 3 <= v.players <= 6 and v.deck.decks == 1 and v.moon.kind.value == "new"
    >>> test()
    """
    return _variants(_resolve_pins(pins))


def _variant_arg(variant: Variant | SearchStrategy[Variant] | None) -> SearchStrategy[Variant]:
    if variant is None:
        return variants()
    if isinstance(variant, Variant):
        return st.just(variant)
    return variant


# --------------------------------------------------------------------------- cards and deals


def cards(variant: Variant | None = None) -> SearchStrategy[Card]:
    """A card: any of the 55 (52 standard cards, jokers ``0C``, ``0D``, ``JK``), or one in ``variant``'s pack.

    Shrinks toward 2♣.
    """
    if variant is None:
        return st.sampled_from([Card.from_index(i) for i in range(NUM_CARD_INDICES)])
    return st.sampled_from(sorted(set(variant.pack), key=lambda c: c.index))


@st.composite
def deals(
    draw: st.DrawFn, variant: Variant | SearchStrategy[Variant] | None = None
) -> tuple[Variant, tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """``(variant, hands, kitty)``: a whole deal of the variant's pack, ready for :meth:`Round.from_hands`.

    >>> from hypothesis import given, settings
    >>> import heartslib as hl
    >>> @settings(max_examples=5, database=None)
    ... @given(deals(hl.preset("standard")))
    ... def test(deal):
    ...     v, hs, kitty = deal
    ...     assert hl.Round.from_hands(v, hs, kitty=kitty).hands == hs
    >>> test()
    """
    v = draw(_variant_arg(variant))
    order = draw(st.permutations(v.pack))
    size, n = v.deal_size, v.players
    dealt = tuple(sort_cards(order[i * size : (i + 1) * size]) for i in range(n))
    return v, dealt, sort_cards(order[n * size :])


@st.composite
def hands(draw: st.DrawFn, variant: Variant | SearchStrategy[Variant] | None = None) -> tuple[Card, ...]:
    """One player's hand: a sorted tuple of ``deal_size`` cards from the variant's pack (copies may repeat)."""
    _, dealt, _ = draw(deals(variant))
    return dealt[0]


# --------------------------------------------------------------------------- playing


def random_action(state: State, rng: random.Random, seat: int | None = None) -> Action:
    """A uniformly random legal action for ``seat`` (default: a random seat to act), using only ``rng.random()``.

    Passes are drawn directly from the hand (never by listing every
    combination), so this stays fast with big hands and scatter passes;
    under ``passing.keep_last_of_suit``, which judges a pass as a whole,
    one of the legal passes is drawn.
    Only ``rng.random()`` is used, whose sequence Python keeps the same
    across versions, so a seeded sequence of actions is reproducible.
    """
    check_rng(rng, optional=False)
    acting = state.to_act
    if not acting:
        raise IllegalAction("nothing_to_do", f"{state!r}: no seat is to act")
    if seat is None:
        seat = acting[int(rng.random() * len(acting))]
    rnd = state.round if isinstance(state, Match) else state
    if rnd.phase == Phase.PASS and rnd.variant.passing.keep_last_of_suit:
        # a pass judged as a whole: one draw among the legal passes, counted and unranked, not listed
        passes = PassChoices(rnd.pass_rules(seat))
        return passes[int(rng.random() * len(passes))]
    if rnd.phase == Phase.PASS:
        forbidden = rnd.variant.passing.forbidden
        pool = [c for c in rnd.hand(seat) if c not in forbidden]
        picked = []
        for _ in range(rnd.pass_count):
            picked.append(pool.pop(int(rng.random() * len(pool))))
        if rnd.passing not in (SCATTER, STAR):
            picked = list(sort_cards(picked))
        return Pass(seat, tuple(picked))
    legal = state.legal_actions(seat)
    return legal[int(rng.random() * len(legal))]


def _play_steps(state: State, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if not state.to_act:
            return
        state.apply(random_action(state, rng))


def _play_round_out(r: Round, rng: random.Random) -> None:
    while r.phase == Phase.PASS or r.phase == Phase.DECIDE:
        r.apply(random_action(r, rng))
    if not r.is_over:
        r.random_playout(rng)


def _steps(most: int) -> SearchStrategy[int]:
    """How many actions to play, spread over ``0..most``; shrinks toward 0.

    Hypothesis favours small integers, so ``integers(0, most)`` would mostly
    give the first few actions; a scrambled draw spreads them out.
    """
    if most <= 0:
        return st.just(0)
    scrambled = st.integers(0, 2**32 - 1).map(lambda x: (x * 2654435761) % 2**32 % (most + 1))
    return st.one_of(scrambled, scrambled, scrambled, st.just(most))


@st.composite
def rounds(
    draw: st.DrawFn,
    variant: Variant | SearchStrategy[Variant] | None = None,
    *,
    max_steps: int | None = None,
) -> Round:
    """A :class:`~heartslib.Round` reached by random legal play from a random deal, at any phase.

    The dealer, the hand number (so every pass of the schedule occurs),
    the scores going in and the number of actions played are drawn; the
    actions themselves come from a drawn seed. Shrinks toward a fresh
    standard deal. ``max_steps`` caps the actions played (default: the
    whole round, so finished rounds occur too).
    """
    v = draw(_variant_arg(variant))
    n = v.players
    seed = draw(st.integers(0, 2**32 - 1))
    dealer = draw(st.integers(0, n - 1))
    hand_number = draw(st.integers(0, 7))
    scores = draw(st.one_of(st.just((0,) * n), st.lists(st.integers(-60, 120), min_size=n, max_size=n).map(tuple)))
    steps = draw(_steps(n * v.deal_size + n + 3 if max_steps is None else max_steps))
    r = Round.deal(v, seed=seed, dealer=dealer, hand_number=hand_number, scores=scores)
    _play_steps(r, random.Random(seed ^ 0x5EED), steps)
    return r


@st.composite
def playouts(draw: st.DrawFn, variant: Variant | SearchStrategy[Variant] | None = None) -> Round:
    """A finished (scored) :class:`~heartslib.Round`: a random deal played out by random legal actions."""
    r = draw(rounds(variant, max_steps=0))
    _play_round_out(r, random.Random(draw(st.integers(0, 2**32 - 1))))
    return r


@st.composite
def matches(
    draw: st.DrawFn,
    variant: Variant | SearchStrategy[Variant] | None = None,
    *,
    max_steps: int | None = None,
) -> Match:
    """A :class:`~heartslib.Match` reached by random legal play from its first deal, at any phase.

    ``max_steps`` caps the actions played (default: about three rounds'
    worth, so later hands, other dealers and passes, and the end occur).
    """
    v = draw(_variant_arg(variant))
    seed = draw(st.integers(0, 2**32 - 1))
    dealer = draw(st.integers(0, v.players - 1))
    per_round = v.players * v.deal_size + v.players + 3
    steps = draw(_steps(3 * per_round if max_steps is None else max_steps))
    m = Match(v, seed, dealer=dealer)
    _play_steps(m, random.Random(seed ^ 0x5EED), steps)
    return m


def actions(state: State, seat: int | None = None) -> SearchStrategy[Action]:
    """A legal action for ``state`` (for ``seat``, default: any seat to act).

    Passes are drawn card by card from the hand (not from the full list
    of combinations; under ``passing.keep_last_of_suit`` one of the legal
    passes); plays and decisions from :meth:`legal_actions`.
    Raises :class:`~heartslib.IllegalAction` when nobody is to act.
    """
    acting = state.to_act if seat is None else (seat,)
    if not state.to_act or any(s not in state.to_act for s in acting):
        raise IllegalAction("nothing_to_do", f"{state!r}: seat(s) {acting} are not to act")
    rnd = state.round if isinstance(state, Match) else state
    if rnd.phase != Phase.PASS:
        return st.one_of([st.sampled_from(state.legal_actions(s)) for s in acting])
    forbidden = rnd.variant.passing.forbidden
    ordered = rnd.passing in (SCATTER, STAR)
    size = rnd.pass_count

    def pass_for(s: int) -> SearchStrategy[Action]:
        if rnd.variant.passing.keep_last_of_suit:  # a pass judged as a whole: one of the legal passes
            passes = PassChoices(rnd.pass_rules(s))
            return st.integers(0, len(passes) - 1).map(passes.__getitem__)
        pool = [c for c in rnd.hand(s) if c not in forbidden]
        picks = st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=size, max_size=size)
        return picks.map(lambda ix: Pass(s, tuple(pool[i] for i in (ix if ordered else sorted(ix)))))

    return st.one_of([pass_for(s) for s in acting])


_OPTION_WORDS = ("old", "new", "hold", "1 left", "3 right", "2 across", "hearts", "spades", "clubs", "diamonds", "")


@st.composite
def any_actions(draw: st.DrawFn, state: State) -> Action:
    """Any action, legal or (usually) not: a seat near the table, any card, any pass, any option.

    Half of the draws are built from the state (the acting seat's own
    cards, the pending decision's options), so near-legal actions occur.
    """
    n = state.variant.players
    rnd = state.round if isinstance(state, Match) else state
    seat = draw(st.one_of(st.sampled_from(state.to_act or (0,)), st.integers(0, n + 1)))
    own = list(rnd.hand(seat)) if seat < n else []
    card = cards() if not own or draw(st.booleans()) else st.sampled_from(own)
    kind = draw(st.sampled_from(("play", "pass", "choose")))
    if kind == "play":
        return Play(seat, draw(card))
    if kind == "pass":
        size = draw(st.one_of(st.just(max(rnd.pass_count, 1)), st.integers(0, 5)))
        return Pass(seat, tuple(draw(st.lists(card, min_size=size, max_size=size))))
    options = rnd.options + _OPTION_WORDS
    return Choose(seat, draw(st.one_of(st.sampled_from(options), st.text(max_size=8))))


# --------------------------------------------------------------------------- invariants


def _cancelled_cards(r: Round) -> Counter[Card]:
    """Cards of the cancelled tricks since the last trick won: they must be waiting in the carry."""
    out: Counter[Card] = Counter()
    if not any(r.hands):
        return out
    for trick in reversed(r.tricks):
        if trick.winner is not None:
            break
        out.update(trick.cards)
    return out


def check_invariants(state: State) -> None:
    """Assert the invariants every state of every variant keeps (cheap; call it after each step).

    - cards are conserved: hands + cards taken + the current trick + the kitty + the cards of
      cancelled tricks waiting to roll over (:attr:`Round.carry`) are exactly the pack;
    - seats that are not to act have no legal actions, and seats to act have some;
    - each seat's observation agrees with the state (its hand, hand sizes, phase, who acts).

    Raises :class:`AssertionError` naming the broken invariant.
    """
    rnd = state.round if isinstance(state, Match) else state
    v = rnd.variant
    n = v.players
    seen: Counter[Card] = Counter()
    for hand in rnd.hands:
        seen.update(hand)
    for taken in rnd.taken:
        seen.update(taken)
    seen.update(card for _, card in rnd.trick)
    seen.update(rnd.kitty)
    carry = Counter(rnd.carry)
    seen.update(carry)
    pack = Counter(v.pack)
    assert seen == pack, (
        f"cards not conserved: extra {sorted((seen - pack).elements())}, missing {sorted((pack - seen).elements())}"
    )
    waiting = _cancelled_cards(rnd)
    assert not (waiting - carry), f"cancelled tricks' cards {sorted((waiting - carry).elements())} are not carried"
    acting = state.to_act
    for seat in range(n):
        if seat not in acting:
            legal = state.legal_actions(seat)
            assert legal == [], f"seat {seat} is not to act but has legal actions {legal[:3]}"
        elif rnd.phase != Phase.PASS:  # listing passes can be slow; the conformance suite checks them
            assert state.legal_actions(seat), f"seat {seat} is to act but has no legal action"
        obs = state.observation(seat)
        assert obs.seat == seat and obs.players == n
        assert obs.hand == rnd.hand(seat), f"seat {seat}'s observation shows another hand"
        assert obs.hand_sizes == tuple(len(h) for h in rnd.hands)
        assert obs.to_act == rnd.to_act and obs.phase == rnd.phase
        assert obs.my_turn == (seat in rnd.to_act)
        assert obs.trick == rnd.trick and obs.tricks == rnd.tricks
    if isinstance(state, Match):
        assert state.is_over or state.scores == rnd.scores, "the round does not start from the match totals"
        assert state.is_over == (state.phase == Phase.OVER)


# --------------------------------------------------------------------------- stateful test


class HeartsStateMachine(RuleBasedStateMachine):
    """A stateful test that plays a :class:`~heartslib.Match` of any variant and checks it at every step.

    Each run draws a variant (from :attr:`variant_strategy`) and a seed,
    then interleaves legal actions, illegal actions (which must raise
    :class:`~heartslib.IllegalAction` and change nothing), copies (which
    must behave exactly like the original), JSON save and load (which
    must resume identically) and observation checks;
    :func:`check_invariants` runs after every step.

    Subclass it to test your own rules: set :attr:`variant_strategy` and
    add ``@invariant()`` (or ``@rule()``) methods that read
    :attr:`match`; expose ``YourMachine.TestCase`` to pytest or unittest::

        from hypothesis.stateful import invariant
        import heartslib as hl
        from heartslib import strategies as hst

        class NewMoonRules(hst.HeartsStateMachine):
            # the standard scoring and the new moon; everything else varies
            variant_strategy = hst.variants(
                scoring=hl.ScoringRules(), moon=hl.MoonRules(kind="new"), joker_points=0, winner="lowest"
            )

            @invariant()
            def a_round_scores_the_pack_or_a_new_moon(self):
                if self.started:
                    total = self.match.variant.penalty_total
                    for r in self.match.rounds:
                        assert sum(r.points) == (-total if r.outcome.shooter is not None else total)

        TestNewMoonRules = NewMoonRules.TestCase
    """

    #: Variants to play; override in a subclass (e.g. ``hst.variants(decks=2)`` or ``st.just(my_variant)``).
    variant_strategy: ClassVar[SearchStrategy[Variant]] = variants()

    def __init__(self) -> None:
        super().__init__()
        self._match: Match | None = None

    @property
    def match(self) -> Match:
        """The match being played."""
        assert self._match is not None, "the machine has not been initialised"
        return self._match

    @property
    def started(self) -> bool:
        """Whether :meth:`start` has run (invariants may read :attr:`match`)."""
        return self._match is not None

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        """Draw a variant and a seed and deal the first hand."""
        v = data.draw(type(self).variant_strategy, label="variant")
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        self._match = Match(v, seed)

    def _acting(self) -> bool:
        return self._match is not None and not self._match.is_over

    @precondition(lambda self: self._acting())
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        """Apply a legal action."""
        self.match.apply(data.draw(actions(self.match), label="action"))

    @precondition(lambda self: self._acting())
    @rule(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 80))
    def play_on(self, seed: int, steps: int) -> None:
        """Apply several random legal actions (reaching later tricks and rounds quickly)."""
        _play_steps(self.match, random.Random(seed), steps)

    @precondition(lambda self: self._match is not None)
    @rule(data=st.data())
    def any_action(self, data: st.DataObject) -> None:
        """Apply any action: a legal one applies, an illegal one raises and changes nothing."""
        m = self.match
        action = data.draw(any_actions(m), label="any action")
        before = m.copy()
        why = m.why_illegal(action)
        assert (why is None) == m.is_legal(action), f"is_legal and why_illegal disagree on {action}"
        if why is None:
            m.apply(action)
            return
        try:
            m.apply(action)
        except IllegalAction as exc:
            assert exc.code == why.code, f"apply says {exc.code}, why_illegal says {why.code}"
        else:
            raise AssertionError(f"{action} was applied although why_illegal said {why.code}")
        assert m == before, f"the illegal action {action} changed the state"

    @precondition(lambda self: self._acting())
    @rule(data=st.data())
    def copy_then_apply(self, data: st.DataObject) -> None:
        """A copy behaves exactly like the original, and applying to it leaves the original alone."""
        m = self.match
        twin = m.copy()
        assert twin is not m and twin.round is not m.round, "copy() returned the same object"
        assert twin == m
        action = data.draw(actions(m), label="action on both")
        untouched = m.copy()
        twin.apply(action)
        assert m == untouched, "applying to a copy changed the original"
        m.apply(action)
        assert twin == m, f"copy-then-apply differs from apply for {action}"

    @precondition(lambda self: self._match is not None)
    @rule()
    def save_and_load(self) -> None:
        """A JSON save loads back equal, and play continues from the loaded game."""
        text = self.match.to_json()
        loaded = Match.from_json(text)
        assert loaded == self.match, "the loaded game differs from the saved one"
        assert loaded.to_json() == text, "saving the loaded game gives different JSON"
        self._match = loaded

    @precondition(lambda self: self._match is not None)
    @rule(data=st.data())
    def observe(self, data: st.DataObject) -> None:
        """An observation is a frozen value: it does not change when the game moves on."""
        m = self.match
        seat = data.draw(st.integers(0, m.variant.players - 1), label="seat")
        obs = m.observation(seat)
        assert obs == m.observation(seat)
        if not m.is_over:
            later = m.copy()
            later.apply(random_action(later, random.Random(seat)))
            assert obs == m.observation(seat), "observing a copy's future changed an observation"

    @invariant()
    def invariants_hold(self) -> None:
        """:func:`check_invariants` after every step."""
        if self._match is not None:
            check_invariants(self._match)
