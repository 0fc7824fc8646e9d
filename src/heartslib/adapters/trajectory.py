"""Trajectories of OpenSpiel's own ``hearts`` game to and from heartslib matches.

OpenSpiel's C++ hearts (``pyspiel.load_game("hearts", params)``) plays one hand of the standard game with
eight rule parameters. Its history is a list of action numbers: the pass direction (a chance outcome: 0 no
pass, 1 left, 2 across, 3 right), the 52 cards of the deal (chance outcomes; the k-th card dealt goes to player
``k % 4``), the passes (player 0's three cards one by one, then player 1's, ...), then the 52 plays. Cards are
numbered rank-major, ``rank * 4 + suit`` (2♣ 0, 2♦ 1, 2♥ 2, 2♠ 3, 3♣ 4, ..., A♠ 51); OpenSpiel's player p is
heartslib's seat p, and both play clockwise (p, p + 1, ...).

:func:`to_openspiel` writes a match (or a game record) as the parameters and one history a hand;
:func:`from_openspiel` replays a history as a one-hand :class:`~heartslib.Match`, checking every action with the
engine. :func:`params_for` and :func:`variant_for` are the mapping between heartslib's variant fields and the
parameters; a variant OpenSpiel cannot play raises :class:`~heartslib.VariantError` naming the field.

>>> import heartslib as hl
>>> m = hl.Match(hl.preset("standard"), seed=3)
>>> while m.hand_number == 0:
...     m.apply(m.legal_actions(m.to_act[0])[0])
>>> params, histories = to_openspiel(m)
>>> params["qs_breaks_hearts"], histories[0][0], len(histories[0])
(False, 1, 117)
>>> hand = from_openspiel(params, histories[0])
>>> hand.rounds[0].points == m.rounds[0].points
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from heartslib.actions import Pass, Play
from heartslib.cards import Card
from heartslib.enums import HOLD, Offset, PassDirection, Settlement, resolve_schedule
from heartslib.errors import IllegalAction, SaveError, VariantError
from heartslib.match import Match
from heartslib.presets import preset
from heartslib.record import from_record, to_record
from heartslib.serialize import read_direction
from heartslib.variant import Variant

__all__ = ["OPENSPIEL_GAME", "OPENSPIEL_PARAMS", "from_openspiel", "openspiel_card", "params_for", "to_openspiel",
           "variant_for"]

#: The name of OpenSpiel's game.
OPENSPIEL_GAME: Final = "hearts"
#: OpenSpiel's parameters of ``hearts`` and their defaults (open-spiel 2.0.2).
OPENSPIEL_PARAMS: Final[Mapping[str, bool]] = {
    "pass_cards": True, "no_pts_on_first_trick": True, "can_lead_any_club": False, "jd_bonus": False,
    "avoid_all_tricks_bonus": False, "qs_breaks_hearts": True, "must_break_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}
#: Each parameter as the variant field it sets, and that field's value when the parameter is false and true.
_FIELDS: Final[Mapping[str, tuple[str, Any, Any]]] = {
    "no_pts_on_first_trick": ("play.first_trick", "any", "no_points"),
    "can_lead_any_club": ("play.opening", "two_of_clubs", "any_club"),
    "jd_bonus": ("scoring.values", {"QS": 13}, {"QS": 13, "JD": -10}),
    "avoid_all_tricks_bonus": ("scoring.no_tricks", 0, -5),
    "can_lead_hearts_instead_of_qs": ("play.lead_hearts_unbroken", "only_hearts", "only_penalty_cards"),
}
#: ``play.breaking`` as (must_break_hearts, qs_breaks_hearts).
_BREAKING: Final[Mapping[str, tuple[bool, bool]]] = {
    "none": (False, False), "hearts": (True, False), "penalty_cards": (True, True),
}
#: The pass directions a history can hold (its first chance outcome: no pass, left, across, right), as
#: heartslib writes them for four players.
_DIRECTIONS: Final[tuple[PassDirection, ...]] = (HOLD, Offset(1), Offset(2), Offset(-1))
_CARDS_PER_HAND: Final = 13
_PLAYERS: Final = 4
_NAME: Final = "openspiel_hearts"


def openspiel_card(card: Card) -> int:
    """OpenSpiel's number for a card: ``rank * 4 + suit`` (2♣ 0, 2♦ 1, ..., A♠ 51)."""
    return (card.index % 13) * 4 + card.index // 13


def _card(number: int) -> Card:
    return Card.from_index((number % 4) * 13 + number // 4)


def variant_for(params: Mapping[str, Any] | None = None) -> Variant:
    """The heartslib variant OpenSpiel's ``hearts`` plays with ``params`` (missing ones take OpenSpiel's
    defaults), as a one-hand match named ``openspiel_hearts``. Raises :class:`~heartslib.VariantError` for an
    unknown parameter, a value that is not a bool, or ``pass_cards=false`` (open-spiel 2.0.2 still draws a
    direction and passes with it, so no heartslib variant plays it)."""
    p = _params(params)
    if not p["pass_cards"]:
        raise VariantError("pass_cards", "only pass_cards=true: OpenSpiel's hearts still draws a pass direction "
                           "and passes with pass_cards=false (a history with pass direction 0 has no pass)")
    data = preset("standard").to_dict()
    data.update(name=_NAME, source="OpenSpiel's hearts game (open-spiel 2.0.2)")
    data["end"] = {**data["end"], "hands": 1}
    for param, (path, off, on) in _FIELDS.items():
        section, field = path.split(".")
        data[section][field] = on if p[param] else off
    must_break, qs_breaks = p["must_break_hearts"], p["qs_breaks_hearts"]
    data["play"]["breaking"] = "none" if not must_break else "penalty_cards" if qs_breaks else "hearts"
    return Variant.from_dict(data)


def _params(params: Mapping[str, Any] | None) -> dict[str, bool]:
    out = dict(OPENSPIEL_PARAMS)
    for name, value in (params or {}).items():
        if name not in OPENSPIEL_PARAMS:
            raise VariantError(str(name), f"OpenSpiel's hearts has no parameter {name!r}; it has "
                               + ", ".join(OPENSPIEL_PARAMS))
        if not isinstance(value, bool):
            raise VariantError(name, f"a parameter of OpenSpiel's hearts is true or false, not {value!r:.40}")
        out[name] = value
    return out


def params_for(variant: Variant) -> dict[str, bool]:
    """OpenSpiel's parameters for ``variant`` (all eight). Raises :class:`~heartslib.VariantError` naming the
    first field OpenSpiel's hearts cannot play as ``variant`` has it (four players, one standard pack, three
    cards passed left, right, across or not at all, the moon and scoring of the standard game; the
    ``end`` section is not compared: a history is one hand)."""
    if variant.scoring.settlement == Settlement.AUCTION:  # named first: the bidding is what OpenSpiel lacks
        raise VariantError("scoring.settlement", "OpenSpiel's hearts has no auction (scoring.settlement = "
                           "\"auction\"): no bidding, and hearts are always the penalty suit")
    data = variant.to_dict()
    params = {"pass_cards": True}
    for param, (path, off, on) in _FIELDS.items():
        section, field = path.split(".")
        value = data[section][field]
        if value not in (off, on):
            raise VariantError(path, f"OpenSpiel's hearts plays {off!r} or {on!r} here, not {value!r}")
        params[param] = value == on
    breaking = data["play"]["breaking"]
    params["must_break_hearts"], params["qs_breaks_hearts"] = _BREAKING[breaking]
    schedule = variant.passing.schedule
    if not all(d == HOLD or isinstance(d, Offset) for d in resolve_schedule(schedule, variant.players)):
        raise VariantError("passing.schedule", f"OpenSpiel's hearts passes left, right, across or not at all, "
                           f"not {schedule!r}")
    expected = variant_for(params).to_dict()
    for section in ("players", "direction", "teams", "deck", "passing", "play", "scoring", "moon"):
        _same(section, data[section], expected[section], skip={"passing.schedule"})
    return params


def _same(path: str, value: Any, expected: Any, skip: set[str]) -> None:
    """Raise VariantError at the first path where ``value`` differs from what OpenSpiel's hearts plays."""
    if path in skip:
        return
    if isinstance(value, dict) and isinstance(expected, dict) and set(value) == set(expected) and \
            not path.startswith("scoring.values"):
        for key in value:
            _same(f"{path}.{key}", value[key], expected[key], skip)
    elif value != expected:
        raise VariantError(path, f"OpenSpiel's hearts plays {expected!r} here, not {value!r}")


def to_openspiel(game: Match | Mapping[str, Any]) -> tuple[dict[str, bool], list[list[int]]]:
    """OpenSpiel's parameters and one history a hand for a match (or a game record's JSON data, replayed
    first); a hand in progress gives the history so far. Raises :class:`~heartslib.VariantError` when OpenSpiel
    cannot play the variant, and :class:`~heartslib.SaveError` for a record that does not replay."""
    m = game if isinstance(game, Match) else from_record(game)
    params = params_for(m.variant)
    return params, [_history(hand, m.variant.players) for hand in to_record(m)["hands"]]


def _history(hand: Mapping[str, Any], players: int) -> list[int]:
    direction = read_direction(hand["passing"])
    if isinstance(direction, Offset):
        direction = Offset((direction.k + 1) % players - 1)  # three to the left is one to the right
    if direction not in _DIRECTIONS:
        raise VariantError("passing.schedule", f"OpenSpiel's hearts cannot pass {hand['passing']!r}")
    history = [_DIRECTIONS.index(direction)]
    deal = [[openspiel_card(Card(code)) for code in cards] for cards in hand["deal"]]
    history += [deal[seat][i] for i in range(_CARDS_PER_HAND) for seat in range(players)]
    passes: dict[int, list[int]] = {}
    plays: list[int] = []
    for text in hand["actions"]:
        seat, _, rest = text.partition(":")
        kind, *cards = rest.split()
        numbers = [openspiel_card(Card(code)) for code in cards]
        if kind == "pass":
            passes[int(seat)] = numbers
        else:  # a hand OpenSpiel plays has no decision to make: only passes and plays
            plays += numbers
    if len(passes) == players:  # OpenSpiel takes the passes seat by seat, once every seat has chosen
        history += [card for seat in range(players) for card in passes[seat]]
    return history + plays


def from_openspiel(params: Mapping[str, Any] | None, history: Sequence[int]) -> Match:
    """The one-hand :class:`~heartslib.Match` of :func:`variant_for` (``params``) that an OpenSpiel ``hearts``
    history describes, every action replayed through the engine (a history may stop anywhere). Raises
    :class:`~heartslib.VariantError` for bad parameters and :class:`~heartslib.SaveError` naming the place
    (``history[57]``) for a history that is not one: not whole numbers from 0 to 51 (3 for the direction), a
    deal that repeats a card, or an action the rules do not allow (the engine's reason in the message)."""
    v = variant_for(params)
    numbers = list(history) if isinstance(history, Sequence) and not isinstance(history, str) else None
    if numbers is None:
        raise SaveError("history", f"a history is a list of OpenSpiel action numbers, not {history!r:.60}")
    for i, number in enumerate(numbers):
        if type(number) is not int or not 0 <= number < (4 if i == 0 else 52):
            raise SaveError(f"history[{i}]", f"{'a pass direction is 0 to 3' if i == 0 else 'a card is 0 to 51'}, "
                            f"not {number!r:.40}")
    deal_end = 1 + _PLAYERS * _CARDS_PER_HAND
    if len(numbers) < deal_end:
        raise SaveError("history", f"a history starts with the pass direction and the 52 cards of the deal; "
                        f"this one has {len(numbers)} actions")
    if len(set(numbers[1:deal_end])) != deal_end - 1:
        raise SaveError("history[1:53]", "the deal holds a card twice")
    hands = [[_card(n) for n in numbers[1 + seat:deal_end:_PLAYERS]] for seat in range(_PLAYERS)]
    direction = _DIRECTIONS[numbers[0]]
    m = Match.from_deal(v, hands, passing=direction)
    _replay(m, numbers, deal_end, 0 if direction == HOLD else v.passing.cards)
    return m


def _replay(m: Match, numbers: list[int], start: int, pass_cards: int) -> None:
    """Apply the passes (``pass_cards`` a seat, seat by seat) and the plays of a history after its deal."""
    passing_end = start + _PLAYERS * pass_cards
    i = start
    try:
        while i < min(passing_end, len(numbers)):
            seat = (i - start) // pass_cards
            cards = numbers[i:i + pass_cards]
            if len(cards) < pass_cards:
                return  # the history stops in the middle of a seat's pass: nothing of it is applied
            m.apply(Pass(seat, tuple(_card(n) for n in cards)))
            i += pass_cards
        for j in range(max(i, passing_end), len(numbers)):
            i = j  # the place an error names
            if m.is_over:
                raise SaveError(f"history[{i}]", "the hand is over: a history has nothing after its last play")
            m.apply(Play(m.to_act[0], _card(numbers[i])))
    except IllegalAction as exc:
        raise SaveError(f"history[{i}]", f"not a legal action there: {exc}") from None
