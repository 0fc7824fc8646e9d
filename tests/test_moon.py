"""The moon: the moon-seeking agent (MoonAgent) and the search player's moon defence."""

from __future__ import annotations

import pytest

import heartslib as hl
from heartslib.agents import AGENTS, BaseAgent, HeuristicAgent, LazyActions, MoonAgent, play_match
from heartslib.search import RolloutTables, moon_card, moon_losers, moon_pass, moon_pays
from heartslib.simulate import make_agent, simulate

STANDARD = hl.preset("standard")


def idx(text: str) -> list[int]:
    return [c.index for c in hl.parse_cards(text)]


def code(i: int) -> str:
    return hl.Card.from_index(i).code


def short(name: str) -> hl.Variant:
    """The preset with a short match (a quick test), where it has a target to shorten."""
    v = hl.preset(name)
    if v.end.target and v.end.winner.value == "lowest" and not v.end.lives:
        return v.replace(end={"target": min(v.end.target, 40)})
    return v


# --------------------------------------------------------------------------- the moon-seeker's pieces


def test_moon_pays_only_where_the_moon_pays_the_shooter() -> None:
    assert moon_pays(STANDARD) and moon_pays(hl.preset("omnibus")) and moon_pays(hl.preset("complex_hearts"))
    for name in ("black_maria", "cancellation", "likha", "gong_zhu", "culbertson_1950", "foster_1909"):
        assert not moon_pays(hl.preset(name)), name


def test_moon_losers_rates_a_moon_hand_strong_and_a_plain_hand_weak() -> None:
    t = RolloutTables(STANDARD)
    assert moon_losers(idx("AH KH QH JH 10H 9H AS KS QS AC KC AD KD"), t) == 0.0
    assert moon_losers(idx("2H 3H 4S 5S 6C 7C 8C 9D 10D JD 3C 4D 6S"), t) >= 8
    # a void in hearts: the hearts led go past
    assert moon_losers(idx("AS KS QS JS AC KC QC JC AD KD QD JD 10D"), t) >= 2.5


def test_moon_pass_gives_away_low_cards_and_keeps_the_points() -> None:
    t = RolloutTables(STANDARD)
    hand = idx("AH KH QH JH 9H 4H AS KS QS 2C 3C AD 2D")
    passed = {code(c) for c in moon_pass(hand, hand, 3, t)}
    assert passed == {"2C", "3C", "2D"}


def test_moon_card_leads_winners_and_takes_the_points() -> None:
    t = RolloutTables(STANDARD)
    unplayed = t.counts[:]
    hand = idx("AH KH 5H AS 4C")
    # leading: a sure winner
    assert code(moon_card(hand, hand, [], -1, False, unplayed, t)) in {"AH", "KH", "AS"}
    # following hearts with points on the table: the lowest sure winner (holding the ace, the king is sure)
    assert code(moon_card(hand, idx("AH KH 5H"), idx("10H"), 2, False, unplayed, t)) == "KH"
    # last to play: the lowest card that wins
    assert code(moon_card(hand, idx("AH KH 5H"), idx("2H 3H 4H"), 2, True, unplayed, t)) == "5H"
    # void: never a point away
    assert code(moon_card(idx("QS 5H 4C"), idx("QS 5H 4C"), idx("10D"), 1, False, unplayed, t)) == "4C"


# --------------------------------------------------------------------------- the agent


def test_the_moon_agent_is_registered_and_simulates() -> None:
    assert AGENTS["moon"] is MoonAgent and hl.agents.MoonAgent is MoonAgent
    assert isinstance(make_agent("moon", 3), MoonAgent)
    stats = simulate(short("standard"), ["moon", "heuristic", "heuristic", "heuristic"], games=2, seed=1)
    assert stats.games == 2


def _match_text(v: hl.Variant, make: type[BaseAgent], seed: int) -> str:
    agents = [make(10 + s) if s % 2 == 0 else HeuristicAgent(20 + s) for s in range(v.players)]
    return play_match(v, agents, seed=seed).to_json()


@pytest.mark.parametrize("name", hl.presets.preset_names())
def test_the_moon_agent_finishes_a_match_of_every_preset(name: str) -> None:
    v = short(name)
    text = _match_text(v, MoonAgent, 3)  # play_match raises on an illegal action
    assert hl.Match.from_json(text).is_over
    assert _match_text(v, MoonAgent, 3) == text  # same seed, same play


@pytest.mark.parametrize("name", ["black_maria", "cancellation", "gong_zhu", "culbertson_1950"])
def test_the_moon_agent_is_the_heuristic_where_the_moon_does_not_pay(name: str) -> None:
    v = short(name)
    assert _match_text(v, MoonAgent, 4) == _match_text(v, HeuristicAgent, 4)


def _hand(v: hl.Variant, agents: list[BaseAgent], seed: int) -> hl.Round:
    r = hl.Round.deal(v, seed=seed, hand_number=seed % 4)
    for s, a in enumerate(agents):
        a.setup(v, s)
    while not r.is_over:
        seat = r.to_act[0]
        legal = LazyActions(r, seat) if r.phase == hl.Phase.PASS else r.legal_actions(seat)
        r.apply(agents[seat].act(r.observation(seat), legal))
    return r


def test_the_moon_agent_shoots_the_moon_far_more_often_than_the_heuristic() -> None:
    # the same 300 seeded standard deals (every pass direction), seat 0 played by each agent, the other seats
    # by the same three heuristic players
    moons = {}
    for tested in (MoonAgent, HeuristicAgent):
        count = 0
        for seed in range(300):
            agents: list[BaseAgent] = [tested(7)]
            agents += [HeuristicAgent(100 + 3 * seed + s) for s in (1, 2, 3)]
            r = _hand(STANDARD, agents, 5000 + seed)
            assert r.outcome is not None
            count += r.outcome.shooter == 0
        moons[tested.name] = count
    # measured: 29 moons against 0 (about 10% of hands against under 1%)
    assert moons["moon"] >= moons["heuristic"] + 12, moons
