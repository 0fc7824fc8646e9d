"""heartslib.search: the rollout policy, the value of a hand and SearchAgent (small budgets: seconds, not minutes)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import inference
from heartslib import strategies as hst
from heartslib.agents import AGENTS, HeuristicAgent, SearchAgent, SearchFactory, play_match
from heartslib.cli import main
from heartslib.search import RolloutTables, Search, hand_value, rollout, rollout_card
from heartslib.simulate import simulate

STANDARD = hl.preset("standard")
T = RolloutTables(STANDARD)


def idx(text: str) -> list[int]:
    return [c.index for c in hl.parse_cards(text)]


def card(i: int) -> str:
    return hl.Card.from_index(i).code


def unplayed_except(text: str = "") -> list[int]:
    out = T.counts[:]
    for i in idx(text):
        out[i] -= 1
    return out


# --------------------------------------------------------------------------- the rollout policy


def test_policy_ducks_with_the_queen_under_the_king() -> None:
    c = rollout_card(idx("5S QS AS"), idx("KS"), 3, False, True, False, unplayed_except("KS"), T)
    assert card(c) == "QS"


def test_policy_dumps_the_queen_when_void_but_not_onto_a_moon_in_the_making() -> None:
    hand = idx("QS 9H 2D")
    assert card(rollout_card(hand, idx("4C"), 0, False, True, False, unplayed_except("4C"), T)) == "QS"
    assert card(rollout_card(hand, idx("4C"), 0, False, False, False, unplayed_except("4C"), T)) == "2D"


def test_policy_leads_low_and_keeps_the_bonus_card() -> None:
    omnibus = RolloutTables(hl.preset("omnibus"))
    lead = rollout_card(idx("5D TD 8H 4C"), [], -1, False, True, False, omnibus.counts[:], omnibus)
    assert card(lead) == "4C"
    # void: never throw away the bonus card
    void = rollout_card(idx("TD 2D"), idx("5C"), 0, False, True, False, omnibus.counts[:], omnibus)
    assert card(void) == "2D"
    # last to play on a clean trick with the 10♦ winning: take it
    won = rollout_card(idx("TD 2D"), idx("5D 7D 9D"), 1, True, True, False, omnibus.counts[:], omnibus)
    assert card(won) == "TD"


def test_policy_wins_cheaply_when_last() -> None:
    c = rollout_card(idx("KC AC"), idx("2C 5C 9C"), 0, True, True, False, unplayed_except("2C 5C 9C"), T)
    assert card(c) == "AC"


def test_rollout_finishes_the_hand() -> None:
    r = hl.Round.deal(STANDARD, seed=3, hand_number=3)  # a hold hand: play starts at once
    rollout(r, [0.0] * 4, T.counts[:], T, random.Random(1))
    assert r.is_over and sum(r.points or ()) in (26, 78)


# --------------------------------------------------------------------------- the value of a hand


def test_hand_value_is_relative_and_signed() -> None:
    assert hand_value(STANDARD, 0, (0, 13, 13, 0), (0, 0, 0, 0), 0) == pytest.approx(26 / 3)
    assert hand_value(STANDARD, 1, (0, 13, 13, 0), (0, 0, 0, 0), 0) == pytest.approx(13 / 3 - 13)
    gong = hl.preset("gong_zhu")
    assert hand_value(gong, 0, (100, 0, 0, -100), (0, 0, 0, 0), 0) > 0
    # an old moon against this seat ends the match: it loses
    near = hand_value(STANDARD, 0, (26, 0, 26, 26), (90, 10, 10, 10), 5)
    far = hand_value(STANDARD, 0, (26, 0, 26, 26), (0, 10, 10, 10), 5)
    assert near < far
    # the match's stake is the pack's penalty points: moon.points, which a moon that scores nobody leaves unread,
    # does not change it (it did: twice moon.points)
    quiet = STANDARD.replace(moon={"kind": "no_score"})
    loud = quiet.replace(moon={"points": 100})
    assert "moon.points" in [path for path, _ in loud.unread_fields()]
    for seat in range(4):
        assert hand_value(loud, seat, (0, 0, 26, 0), (90, 95, 80, 70), 5) == hand_value(
            quiet, seat, (0, 0, 26, 0), (90, 95, 80, 70), 5)
    assert hand_value(quiet, 2, (0, 0, 26, 0), (90, 95, 80, 70), 5) == pytest.approx(-26 - 2 * 26 / 3)  # it loses


def test_hand_value_of_teams_counts_the_partner() -> None:
    likha = hl.preset("likha")
    assert hand_value(likha, 0, (0, 5, 10, 0), (0, 0, 0, 0), 0) < 0  # the partner (seat 2) took 10


# --------------------------------------------------------------------------- the agent


def test_search_agent_is_registered_and_simulates() -> None:
    assert AGENTS["search"] is SearchAgent and hl.agents.SearchAgent is SearchAgent
    assert repr(SearchAgent(3, playouts=5)) == "SearchAgent(seed=3, playouts=5)"
    v = STANDARD.replace(end={"target": 15})
    stats = simulate(v, [SearchAgent(1, playouts=2), "heuristic", "heuristic", "heuristic"], games=1, seed=4)
    assert stats.games == 1 and stats.seats[0].agent.startswith("SearchAgent")


def test_search_agent_checks_its_budget() -> None:
    with pytest.raises(ValueError):
        SearchAgent(1, playouts=0)
    with pytest.raises(ValueError):
        SearchAgent(1, time_limit=-1)


def _positions(v: hl.Variant, seed: int, every: int = 5) -> list[tuple[hl.Round, int]]:
    """Rounds (copies) at the play decisions of a heuristic game, with the seat to act."""
    r = hl.Round.deal(v, seed=seed, hand_number=seed % 4)
    agents = [HeuristicAgent(s) for s in range(v.players)]
    for s, a in enumerate(agents):
        a.setup(v, s)
    out = []
    k = 0
    while not r.is_over:
        seat = r.to_act[0]
        legal = hl.agents.LazyActions(r, seat) if r.phase == hl.Phase.PASS else r.legal_actions(seat)
        if r.phase == hl.Phase.PLAY and len(legal) > 1:
            k += 1
            if k % every == 0:
                out.append((r.copy(), seat))
        r.apply(agents[seat].act(r.observation(seat), legal))
    return out


def test_same_seed_same_decision_and_never_illegal() -> None:
    for seed in range(3):
        for r, seat in _positions(STANDARD, seed, every=7):
            a, b = SearchAgent(9, playouts=3), SearchAgent(9, playouts=3)
            a.setup(STANDARD, seat)
            b.setup(STANDARD, seat)
            legal = r.legal_actions(seat)
            first = a.act(r.observation(seat), legal)
            assert first in legal
            assert b.act(r.observation(seat), legal) == first
            assert a.act(r.observation(seat), legal) == first


@pytest.mark.parametrize("late", [False, True])
def test_it_never_reads_hidden_state(late: bool) -> None:
    """Another deal of the other seats' hidden cards with the same observation: the same decision (``late``:
    the decisions of the last three tricks, where the endgame solver values the worlds)."""
    for seed in range(3):
        positions = _positions(STANDARD, seed, every=9 if not late else 1)
        for r, seat in positions if not late else [(r, seat) for r, seat in positions if len(r.hand(seat)) <= 3]:
            obs = r.observation(seat)
            other = inference.sample_round(obs, random.Random(seed), variant=STANDARD)
            assert other.observation(seat) == obs
            agent = SearchAgent(4, playouts=3)
            agent.setup(STANDARD, seat)
            mine = agent.act(obs, r.legal_actions(seat))
            assert agent.act(other.observation(seat), other.legal_actions(seat)) == mine


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hst.variants(players=st.integers(3, 6), decks=1), st.integers(0, 2**32 - 1))
def test_a_round_of_any_variant_with_search_agents(v: hl.Variant, seed: int) -> None:
    """Every seat a tiny search: every action it returns is legal (apply would raise), in any variant."""
    play_round(hl.Round.deal(v, seed=seed, hand_number=seed % 5),
               [SearchAgent(seed + s, playouts=1) for s in range(v.players)])


def play_round(r: hl.Round, agents: list[hl.agents.BaseAgent]) -> None:
    """``agents`` play ``r`` out; every action they return must be among the legal ones."""
    for s, a in enumerate(agents):
        a.setup(r.variant, s)
    while not r.is_over:
        seat = r.to_act[0]
        # a pass is legal in any card order: the lazy sequence's ``in`` asks the rules
        legal = hl.agents.LazyActions(r, seat) if r.phase == hl.Phase.PASS else r.legal_actions(seat)
        action = agents[seat].act(r.observation(seat), legal)
        assert action in legal
        r.apply(action)


@pytest.mark.parametrize("name", ["cancellation", "double_deck_6_dirty", "gong_zhu", "likha", "gong_zhu_exposed",
                                  "likha_idlib"])
def test_a_round_of_a_preset(name: str) -> None:
    v = hl.preset(name)
    play_round(hl.Round.deal(v, seed=1, hand_number=1),
               [SearchAgent(1, playouts=1)] + [HeuristicAgent(s) for s in range(1, v.players)])


def test_a_match_with_a_time_limit() -> None:
    v = hl.preset("black_maria").replace(end={"target": 30})
    agents = [SearchAgent(1, playouts=50, time_limit=0.01), HeuristicAgent(2), HeuristicAgent(3)]
    m = play_match(v, agents, seed=2)
    assert m.is_over


def _moon_decision(v: hl.Variant, scores: dict[int, int] | None = None) -> hl.Round:
    """A round waiting for the shooter's moon choice (found by random play), with match totals
    ``scores[k]`` for the seat ``k`` seats after the shooter."""
    for seed in range(3000):
        r = hl.Round.deal(v, seed=seed, hand_number=3)
        rng = random.Random(seed)
        while r.phase == hl.Phase.PLAY:
            r.apply(hst.random_action(r, rng))
        if r.phase != hl.Phase.DECIDE:
            continue
        if scores is None:
            return r
        shooter = r.to_act[0]
        totals = tuple(scores[(seat - shooter) % 4] for seat in range(4))
        r = hl.Round.deal(v, seed=seed, hand_number=3, scores=totals)
        rng = random.Random(seed)
        while r.phase == hl.Phase.PLAY:
            r.apply(hst.random_action(r, rng))
        return r
    raise AssertionError("no moon found")


def test_the_moon_choice_is_searched() -> None:
    v = STANDARD.replace(moon={"kind": "choice"})
    # the old moon would end the match with the shooter (98) behind the seat at 60: the new moon it is
    r = _moon_decision(v, {0: 98, 1: 60, 2: 70, 3: 80})
    seat = r.to_act[0]
    agent = SearchAgent(1, playouts=2)
    agent.setup(v, seat)
    assert agent.act(r.observation(seat), r.legal_actions(seat)) == hl.Choose(seat, "new")
    # and when the old moon ends it with the shooter winning, the old moon
    r = _moon_decision(v, {0: 50, 1: 80, 2: 85, 3: 90})
    seat = r.to_act[0]
    agent.setup(v, seat)
    assert agent.act(r.observation(seat), r.legal_actions(seat)) == hl.Choose(seat, "old")


def test_the_command_line_offers_the_search_agent_with_a_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                                 ) -> None:
    rules = tmp_path / "short.toml"
    rules.write_text(hl.preset("black_maria").replace(name="short", end={"target": 15}).to_toml())
    assert main(["simulate", "--variant", str(rules), "--agents", "search,heuristic", "--playouts", "2",
                 "--games", "1", "--no-progress"]) == 0
    assert "search(playouts=2)" in capsys.readouterr().out
    assert main(["simulate", "--agents", "search", "--playouts", "0", "--games", "1"]) == 2
    assert "playouts" in capsys.readouterr().err
    factory = SearchFactory(playouts=3, time_limit=0.5)
    assert factory(7).playouts == 3 and factory(7).time_limit == 0.5 and factory.__name__.startswith("search(")


def test_passes_are_searched_among_the_heuristics_neighbours() -> None:
    m = hl.Match(STANDARD, seed=3)
    agent = SearchAgent(2, playouts=8)
    agent.setup(STANDARD, 0)
    legal = hl.agents.actions_for(m, 0)
    candidates = agent._pass_candidates(m.observation(0), legal)
    assert 2 <= len(candidates) <= 10 and all(c in legal for c in candidates)
    heuristic = HeuristicAgent(2)
    heuristic.setup(STANDARD, 0)
    assert candidates[0] == heuristic.act(m.observation(0), legal)
    chosen = agent.act(m.observation(0), legal)
    assert chosen in candidates and agent.act(m.observation(0), legal) == chosen
    plain = SearchAgent(2, playouts=8, search_passes=False)
    plain.setup(STANDARD, 0)
    assert plain.act(m.observation(0), legal) == candidates[0]


def test_the_search_values_a_clean_slate_by_the_total_it_returns_to_zero() -> None:
    """A clean slate scores the shooter's hand 0 (RULES.md 11) and returns its total to 0: the search weighs it
    as that change of total (scoring.slate_change), not as a hand of no points."""
    v = hl.preset("standard").replace(
        passing={"schedule": ["hold"]}, play={"opening": "eldest_any", "breaking": "none", "first_trick": "any"},
        moon={"sun": "clean_slate"})
    hands = [" ".join(rank + suit for rank in "23456789TJQKA") for suit in "SHDC"]
    r = hl.Round.from_hands(v, hands, dealer=3, scores=(60, 20, 30, 40))
    while not r.is_over:
        seat = r.to_act[0]
        legal = r.legal_actions(seat)
        r.apply(max(legal, key=lambda a: a.card.rank) if seat == 0 else legal[0])  # type: ignore[attr-defined]
    assert r.points == (0, 0, 0, 0) and r.outcome is not None and r.outcome.shooter == 0
    obs = r.observation(0)
    search = Search(v)
    # 60 points off seat 0's total against none off the others': worth 60 to it, -20 to each of them
    assert search._value(obs, r) == pytest.approx(60.0)
    assert search._value(r.observation(1), r) == pytest.approx(-20.0)
