"""DefendingAgent (issue 50): the moon defence a strong player plays, each rule in a position of its own."""

from __future__ import annotations

import copy
import pickle

import pytest

import heartslib as hl
from heartslib.agents import AGENTS, DefendingAgent, HeuristicAgent, MoonAgent, play_match

STANDARD = hl.preset("standard")
#: Any lead, hearts never locked, points on the first trick: positions built by hand need no opening.
FREE = STANDARD.replace(play={"opening": "eldest_any", "breaking": "none", "first_trick": "any"})

#: Seat 0 takes the first two tricks with A♥ and K♥ (8 points, every point so far: a moon threat), then leads
#: 2♣, which seat 1 wins with A♣. Seat 1 holds Q♥, the highest heart still out; seat 2 has no diamonds.
HANDS_A = ("AH KH 2C 9C TC JC QC KC 2S 3S 4S 5S 6S", "2H 5H QH AC 3D 4D 5D 6D 7D 8D 9D TD 7S",
           "3H 6H 8H 9H 3C 5C 6C 7C 8C 8S 9S TS JS", "4H 7H TH JH 4C JD QD KD AD 2D QS KS AS")
#: The same two heart tricks; seat 2 has no spades, seat 3 holds A♠ and T♠ above seat 0's 9♠.
HANDS_B = ("AH KH 9S 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D", "2H 5H 2S 8C 9C TC JC 6D 7D 8D 9D TD JD",
           "3H 6H 8H 9H TH JH QH QC KC AC QD KD AD", "4H 7H AS TS 3S 4S 5S 6S 7S 8S JS QS KS")
TWO_HEART_TRICKS = "AH 2H 3H 4H KH 5H 6H 7H"


def position(hands: tuple[str, ...], plays: str) -> hl.Round:
    r = hl.Round.from_hands(FREE, list(hands), dealer=3, passing=hl.HOLD)  # seat 0, eldest, leads
    for card in hl.parse_cards(plays):
        r.apply(hl.Play(r.to_act[0], card))
    return r


def choice(agent: hl.agents.BaseAgent, r: hl.Round) -> str:
    seat = r.to_act[0]
    agent.setup(FREE, seat)
    action = agent.act(r.observation(seat), r.legal_actions(seat))
    assert isinstance(action, hl.Play) and r.is_legal(action)
    return action.card.code


def test_a_defender_leads_the_highest_heart_still_out_against_a_threat() -> None:
    r = position(HANDS_A, TWO_HEART_TRICKS + " 2C AC 3C 4C")
    assert r.to_act == (1,)
    assert choice(DefendingAgent(1), r) == "QH"  # it wins a point of its own: the moon is over
    assert choice(HeuristicAgent(1), r) != "QH"


def test_a_defender_wins_the_threats_trick_when_it_holds_points() -> None:
    # seat 0 leads 9♠, seat 2 (void) throws 8♥ onto it: seat 3, last, wins with its lowest winner
    r = position(HANDS_B, TWO_HEART_TRICKS + " 9S 2S 8H")
    assert r.to_act == (3,)
    assert choice(DefendingAgent(1), r) == "TS"
    assert choice(HeuristicAgent(1), r) == "8S"  # the heuristic's alarm waits for a third of the pack's points


def test_a_void_defender_never_feeds_a_trick_the_threat_has_still_to_play_to() -> None:
    r = position(HANDS_A, TWO_HEART_TRICKS + " 2C AC 3C 4C 3D")
    assert r.to_act == (2,)
    assert hl.Card(choice(DefendingAgent(1), r)).suit != hl.Suit.HEARTS
    assert hl.Card(choice(HeuristicAgent(1), r)).suit == hl.Suit.HEARTS


def test_a_void_defender_gives_a_point_to_another_seat_once_the_threat_has_played() -> None:
    # seat 0 leads 2♦, seat 1 plays 6♦ and seat 2 Q♦: seat 3, void in diamonds, hands seat 2 a point
    r = position(HANDS_B, TWO_HEART_TRICKS + " 2D 6D QD")
    assert r.to_act == (3,)
    assert choice(DefendingAgent(1), r) == "QS"  # its only card with points


def test_without_a_threat_a_defender_plays_as_the_moon_agent() -> None:
    for seed in range(6):
        r = hl.Round.deal(STANDARD, seed=seed)
        agents = [DefendingAgent(seed), MoonAgent(seed), HeuristicAgent(seed), HeuristicAgent(seed + 1)]
        for s, a in enumerate(agents):
            a.setup(STANDARD, s)
        moon = MoonAgent(seed)
        moon.setup(STANDARD, 0)
        while not r.is_over:
            seat = r.to_act[0]
            obs, legal = r.observation(seat), r.legal_actions(seat)
            action = agents[seat].act(obs, legal)
            if seat == 0 and not any(c.suit == hl.Suit.HEARTS or c.code == "QS" for t in r.taken for c in t):
                assert action == moon.act(obs, legal)
            r.apply(action)


def test_a_defender_is_a_named_agent_that_finishes_every_preset_and_copies() -> None:
    assert AGENTS["defending"] is DefendingAgent
    for name in ("standard", "omnibus", "black_maria", "cancellation", "gong_zhu", "likha"):
        v = hl.preset(name).replace(end={"hands": 3})
        agents = [DefendingAgent(s) for s in range(v.players)]
        assert play_match(v, agents, seed=3).is_over
    agent = DefendingAgent(4)
    agent.setup(STANDARD, 0)
    for twin in (copy.copy(agent), copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))):
        assert repr(twin) == repr(agent)
        r = position(HANDS_A, TWO_HEART_TRICKS + " 2C AC 3C 4C")
        assert choice(twin, r) == "QH"


@pytest.mark.parametrize("seed", range(3))
def test_the_simulate_name_plays(seed: int) -> None:
    result = hl.simulate(STANDARD.replace(end={"target": 30}), ["defending", "moon", "heuristic", "random"],
                         games=2, seed=seed)
    assert result.games == 2


def test_a_moon_attempt_must_beat_the_plain_play_clearly_to_be_chosen() -> None:
    """The search's guard on its own attempts (issue 50): the best of two noisy plans is biased upward, so an
    attempt is chosen only a standard error clear of the best plain candidate over the same worlds."""
    from heartslib.search import _attempt_or_plain

    plain = [1.0, 2.0, 0.0, 1.0, 1.0, 2.0]
    gamble = [27.0, -24.0, 27.0, -24.0, 27.0, -20.0]  # a higher mean (2.17 against 1.17), all noise
    sure = [x + 5.0 for x in plain]
    assert _attempt_or_plain([plain, gamble], [0, 1], 1, 1) == 0
    assert _attempt_or_plain([plain, sure], [0, 1], 1, 1) == 1
    assert _attempt_or_plain([plain, gamble], [0, 1], 0, 1) == 0  # a plain best stands
    assert _attempt_or_plain([plain, gamble], [1], 1, 1) == 1  # no plain candidate left to prefer
