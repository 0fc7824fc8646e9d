"""Passing (RULES.md section 3): simultaneous hidden selection, schedules, special passes."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib.engine.legality import count_passes, nth_pass, pass_choices

STD = hl.preset("standard")
HANDS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def pass_top3(r: hl.Round) -> None:
    for seat in range(r.n):
        r.apply(hl.Pass(seat, r.hand(seat)[-r.pass_count:]))


@pytest.mark.parametrize(("direction", "to"), [(hl.Offset(1), 1), (hl.Offset(-1), 3), (hl.Offset(2), 2)])
def test_002_pass_three_left_right_across(direction: hl.Offset, to: int) -> None:
    r = hl.Round.from_hands(STD, HANDS, passing=direction)
    assert r.phase is hl.Phase.PASS and r.to_act == (0, 1, 2, 3)
    pass_top3(r)
    assert {c.code for c in r.hand(to)} >= {"QC", "KC", "AC"}
    assert r.received is not None and [c.code for c in r.received[to]] == ["QC", "KC", "AC"]
    assert r.phase is hl.Phase.PLAY


def test_002_selection_is_simultaneous_and_hidden() -> None:
    r = hl.Round.from_hands(STD, HANDS, passing=hl.Offset(1))
    r.apply(hl.Pass(0, hl.parse_cards("QC KC AC")))
    # nothing is exchanged until everyone has chosen; seat 1 cannot see what it will receive
    assert r.to_act == (1, 2, 3)
    assert len(r.hand(1)) == 13 and hl.Card("AC") in r.hand(0)
    obs1 = r.observation(1)
    assert obs1.received is None and obs1.passed is None
    assert r.observation(0).passed == hl.parse_cards("QC KC AC")
    with pytest.raises(hl.IllegalAction) as info:
        r.apply(hl.Pass(0, hl.parse_cards("2C 3C 4C")))
    assert info.value.code == "already_passed"
    with pytest.raises(hl.IllegalAction):
        r.legal_actions()  # several seats act: name the seat


def test_002_four_way_cycle_over_hands() -> None:
    m = hl.Match(STD, seed=3)
    directions = []
    import random

    rng = random.Random(0)
    while len(m.rounds) < 5:
        if m.round.hand_number == len(directions):
            directions.append(m.round.passing)
        seat = m.to_act[0]
        acts = m.legal_actions(seat)
        m.apply(acts[rng.randrange(len(acts))])
    assert directions == [hl.Offset(1), hl.Offset(-1), hl.Offset(2), hl.HOLD, hl.Offset(1)]
    assert [r.dealer for r in m.rounds] == [0, 1, 2, 3, 0]


def test_pass_errors() -> None:
    r = hl.Round.from_hands(STD, HANDS, passing=hl.Offset(1))
    cases = {
        hl.Pass(0, hl.parse_cards("2C 3C")): "pass_wrong_size",
        hl.Pass(0, hl.parse_cards("2C 3C 2D")): "card_not_held",
        hl.Pass(0, hl.parse_cards("2C 2C 3C")): "pass_duplicate_card",
        hl.Play(0, "2C"): "not_playing",
    }
    for action, code in cases.items():
        err = r.why_illegal(action)
        assert err is not None and err.code == code, (action, err)
    v = STD.replace(passing={"forbidden": ["2C", "QS", "AH"]})
    r = hl.Round.from_hands(v, HANDS, passing=hl.Offset(1))
    assert r.why_illegal(hl.Pass(0, hl.parse_cards("2C 3C 4C"))).code == "pass_forbidden_card"  # type: ignore
    assert all(hl.Card("2C") not in a.cards for a in r.legal_actions(0))  # type: ignore[union-attr]
    assert len(r.legal_actions(0)) == 220  # 3 of the 12 passable clubs


def test_legal_pass_count_is_combinations() -> None:
    r = hl.Round.from_hands(STD, HANDS, passing=hl.Offset(1))
    assert len(r.legal_actions(2)) == 286


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (3, ["left", "right", "hold"]),
        (4, ["left", "right", "across", "hold"]),
        (5, ["left", "right", "left-2", "right-2", "hold"]),
        (6, ["left", "right", "left-2", "right-2", "across", "hold"]),
    ],
)
def test_001_everyone_passes_to_everyone(players: int, expected: list[str]) -> None:
    from heartslib.enums import resolve_schedule

    got = [hl.pass_name(d, players) for d in resolve_schedule("everyone", players)]
    assert got == expected


def test_four_way_cycle_at_an_odd_table_drops_across() -> None:
    v = hl.preset("standard").replace(players=5, moon={"kind": "new"})
    assert v.rules.schedule == (hl.Offset(1), hl.Offset(-1), hl.HOLD) and v.deal_size == 10


def test_000_rotating_pass() -> None:
    from heartslib.enums import resolve_schedule

    assert resolve_schedule("rotating", 5) == tuple(hl.Offset(k) for k in range(1, 5))
    assert resolve_schedule("rotating_hold", 4)[-1] is hl.HOLD


def test_000_scatter_pass_one_card_to_each_opponent() -> None:
    v = STD.replace(passing={"schedule": ["left", "right", "across", "scatter"]})
    r = hl.Round.from_hands(v, HANDS, hand_number=3)
    assert r.passing is hl.SCATTER and r.pass_count == 3
    for seat in range(4):
        r.apply(hl.Pass(seat, r.hand(seat)[-3:]))  # J, Q, K? no: the top three: Q K A
    # seat 0 passed QC to seat 1 (1st left), KC to seat 2, AC to seat 3
    assert hl.Card("QC") in r.hand(1) and hl.Card("KC") in r.hand(2) and hl.Card("AC") in r.hand(3)
    assert r.received is not None and len(r.received[0]) == 3


def test_000_star_pass_five_players() -> None:
    v = hl.Variant(players=5, passing={"schedule": "star"})
    assert v.deal_size == 10
    r = hl.Round.deal(v, seed=1)
    assert r.passing is hl.STAR and r.pass_count == 2
    sent = {}
    for seat in range(5):
        cards = r.hand(seat)[:2]
        sent[seat] = cards
        r.apply(hl.Pass(seat, cards))
    for seat in range(5):
        assert sent[seat][0] in r.hand((seat + 2) % 5)
        assert sent[seat][1] in r.hand((seat + 3) % 5)


def test_000_shuffle_pass_pools_and_redeals() -> None:
    v = STD.replace(passing={"schedule": "shuffle"})
    r1 = hl.Round.deal(v, seed=11)
    r2 = hl.Round.deal(v, seed=11)
    pooled = []
    for r in (r1, r2):
        for seat in range(4):
            cards = r.hand(seat)[:3]
            if r is r1:
                pooled += cards
            r.apply(hl.Pass(seat, cards))
    assert r1.received == r2.received  # the shuffle uses the round's seeded RNG
    assert r1.received is not None
    assert sorted(c for got in r1.received for c in got) == sorted(pooled)
    assert all(len(got) == 3 for got in r1.received)


def test_000_dealers_choice_is_a_decision() -> None:
    v = STD.replace(passing={"schedule": "dealers_choice", "cards": 4})
    r = hl.Round.deal(v, seed=2, dealer=1)
    assert r.phase is hl.Phase.DECIDE and r.to_act == (1,) and r.decision == "pass"
    options = [a.option for a in r.legal_actions()]  # type: ignore[union-attr]
    assert "hold" in options and "4 across" in options and "1 left" in options and len(options) == 13
    r.apply(hl.Choose(1, "2 right"))
    assert r.phase is hl.Phase.PASS and r.passing == hl.Offset(-1) and r.pass_count == 2
    r2 = hl.Round.deal(v, seed=2, dealer=1)
    r2.apply(hl.Choose(1, "hold"))
    assert r2.phase is hl.Phase.PLAY
    assert r2.why_illegal(hl.Choose(0, "hold")) is not None


def test_000_two_cards_when_more_than_four_play() -> None:
    v = hl.Variant(players=6, passing={"cards": 2, "schedule": "everyone"})
    r = hl.Round.deal(v, seed=5)
    assert r.pass_count == 2
    assert len(r.legal_actions(0)) == 28  # 2 of 8


@pytest.mark.parametrize("name", ["standard", "omnibus", "double_deck_6_dirty", "black_maria"])
def test_the_engine_builds_a_pass_as_its_constructor_would(name: str) -> None:
    # legal_actions, the lazy pass list, the random playout and the agents build passes with make_pass,
    # skipping the converters: each must be the value Pass(seat, cards) gives (equal, hashed alike, frozen)
    variant = hl.preset(name)
    r = hl.Round.deal(variant, seed=3)
    assert r.phase is hl.Phase.PASS
    agent = hl.agents.RandomAgent(5)
    agent.setup(variant, 0)
    lazy = hl.agents.LazyActions(r, 0)
    made = [*r.legal_actions(0)[:40], lazy[7], lazy[-1], next(iter(lazy)), r.pass_rules(0).choices()[3],
            agent.act(r.observation(0), lazy), hl.agents.HeuristicAgent(2).act(r.observation(0), lazy)]
    played = r.copy()
    played.random_playout(random.Random(1))
    drawn = [e for e in played.events if isinstance(e, hl.Pass)]
    assert len(drawn) == variant.players
    made += drawn
    for action in made:
        assert type(action) is hl.Pass and type(action.cards) is tuple
        built = hl.Pass(action.seat, list(action.cards))
        assert built == action and hash(built) == hash(action) and repr(built) == repr(action)
        assert r.is_legal(action) and (action.seat != 0 or action in lazy)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            action.seat = 1  # type: ignore[misc]


@settings(max_examples=300)
@given(st.lists(st.integers(0, 53), max_size=12), st.integers(0, 4), st.booleans(),
       st.frozensets(st.integers(0, 53), max_size=4), st.data())
def test_a_pass_is_unranked_as_the_listed_passes_order_it(hand: list[int], size: int, ordered: bool,
                                                          forbidden: frozenset[int], data: st.DataObject) -> None:
    # the random playout and LazyActions draw the i-th pass without listing them (legality.nth_pass, with each
    # count worked out from the one before): the same pass pass_choices lists i-th, for hands in any order and
    # with copies (a card held twice lists each pass once)
    listed = pass_choices(hand, size, forbidden, ordered)
    assert count_passes(hand, size, forbidden, ordered) == len(listed)
    if listed:
        i = data.draw(st.integers(0, len(listed) - 1))
        assert nth_pass(hand, size, forbidden, ordered, i) == listed[i]
    with pytest.raises(IndexError):
        nth_pass(hand, size, forbidden, ordered, len(listed))
