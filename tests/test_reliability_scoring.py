"""Issue 35, rules bugs found by the independent check: dead jokers under the modifier scoring path, and the
cards ``scoring.next_dealer`` is given."""

from __future__ import annotations

import random

import pytest

import heartslib as hl
from heartslib import scoring
from heartslib.settlement import howell


def _jokers(**scoring_fields: object) -> hl.Variant:
    """Four valueless jokers worth -5 each, but only on a trick led with hearts; counters settled by Howell."""
    return hl.preset("standard").replace(
        deck={"jokers": 4, "joker": "valueless", "fill": "jokers", "joker_points": -5,
              "joker_points_when": "hearts_led"},
        scoring={"settlement": "howell", **scoring_fields},
    )


def _settled_points(v: hl.Variant, taken: list[str], dead: list[int]) -> tuple[int, ...]:
    """What the counter settlements are paid on: each seat's card points less their bonus part (as the
    engine's ``penalty_points``)."""
    facts = scoring.card_facts(v.rules, [[c.index for c in hl.parse_cards(t)] for t in taken], dead=dead)
    return tuple(int((p - b).real) for p, b in zip(facts.raw, facts.bonus, strict=True))


# seat 0 took Q♠, a heart, the 10♣ and a joker on a club trick (dead: it scores nothing)
_TAKEN = ["QS 2H TC JK 2C 3C 4C", "3H", "4H 5H 6H", "2D"]
_DEAD = [1, 0, 0, 0]


def test_a_dead_joker_costs_nothing_in_howell_with_a_multiplier() -> None:
    # the example: with multiply = {TC = 2} the dead joker was charged 5 points, so Howell gave
    # (-53, 19, 11, 23); RULES sections 2 and 6 say it costs nothing, as without the multiplier
    v = _jokers(multiply={"TC": 2})
    points = _settled_points(v, _TAKEN, _DEAD)
    assert points == (14, 1, 3, 0)
    assert howell(list(points), total=sum(points)).net == (-38, 14, 6, 18)
    assert points == _settled_points(_jokers(), _TAKEN, _DEAD)


@pytest.mark.parametrize("fields", [
    {"multiply": {"TC": 2}},
    {"double_suit": {"QC": "clubs"}},
    {"cancels": {"QC": "QD"}},
    {"exposable": {"AH": "hearts"}},
])
def test_an_unused_modifier_leaves_dead_jokers_dead(fields: dict[str, object]) -> None:
    v = _jokers(**fields)
    assert not v.rules.plain_scoring  # the modifier path
    for dead in ([1, 0, 0, 0], [0, 0, 0, 0]):
        assert _settled_points(v, _TAKEN, dead) == _settled_points(_jokers(), _TAKEN, dead)
    # and the hand's own points: the dead joker counts nothing either way
    facts = scoring.card_facts(v.rules, [[c.index for c in hl.parse_cards(t)] for t in _TAKEN], dead=_DEAD)
    plain = scoring.card_facts(_jokers().rules, [[c.index for c in hl.parse_cards(t)] for t in _TAKEN], dead=_DEAD)
    if "multiply" not in fields:
        assert facts.raw == plain.raw


@pytest.mark.parametrize("seed", range(6))
def test_a_match_settles_the_same_counters_with_an_unused_multiplier(seed: int) -> None:
    # the whole path: the engine's dead-joker count, the scorer and the match's Howell settlement; the
    # multiplier changes the hand's points, never what the counters are paid on
    plain, modified = hl.Match(_jokers(), seed=seed), hl.Match(_jokers(multiply={"TC": 2}), seed=seed)
    rnd = random.Random(seed)
    while plain.hand_number < 2 and not plain.is_over:
        action = rnd.choice(plain.legal_actions(plain.to_act[0]))
        plain.apply(action)
        modified.apply(action)
    assert modified.counters == plain.counters


# --------------------------------------------------------------------------- next_dealer's cards


def _most_points() -> hl.Variant:
    return hl.preset("likha").replace(end={"next_dealer": "most_points", "dealer_ties": ["QS"]})


def test_next_dealer_reads_taken_cards_given_as_text() -> None:
    v = _most_points()
    points = (10, 30, 5, 30)  # seats 1 and 3 tie; whoever took Q♠ deals next
    as_cards = ((), (), (), (hl.Card("QS"), hl.Card("2H")))
    assert scoring.next_dealer(v, 2, points, as_cards) == 3
    assert scoring.next_dealer(v, 2, points, ("", "", "", "QS 2H")) == 3
    assert scoring.next_dealer(v, 2, points, ((), (), (), ["QS", "2H"])) == 3
    # without the tie-break card the first tied seat after the dealer (anticlockwise: 1) deals
    assert scoring.next_dealer(v, 2, points, ("", "", "", "2H")) == 1


@pytest.mark.parametrize("bad", [
    ((), (), (), (51,)),  # a card index
    ((), (), (), (None,)),
    ((), (), (), hl.Card("QS")),  # one card, not the cards a seat took
    ((), (), (), 7),
    ("", "", "", "QS ZZ"),
])
def test_next_dealer_refuses_values_that_are_not_cards(bad: tuple[object, ...]) -> None:
    with pytest.raises(hl.CardError):
        scoring.next_dealer(_most_points(), 0, (10, 30, 5, 30), bad)  # type: ignore[arg-type]


def test_next_dealer_wants_one_entry_per_seat() -> None:
    with pytest.raises(hl.IllegalAction, match="taken must hold the cards each of the 4 seats took") as exc:
        scoring.next_dealer(_most_points(), 0, (10, 30, 5, 30), ("QS",))
    assert exc.value.code == "bad_argument"
