"""Going for the lot (Wikipedia's Black Lady, main rules; RULES.md §11; ``moon.kind = "lot"``): "If one player takes
every penalty card in the pack, called 'going for the lot', he can choose to do one of two things; either zeroise
his running penalty total, or double everyone else's"."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import heartslib as hl
from heartslib.adapters.encoding import Encoding, Turns
from heartslib.scoring import score_cards
from helpers import round_from

LOT = hl.preset("standard").replace(moon={"kind": "lot"})
#: Seat 0 leads and holds every heart: it wins every trick (nobody else can follow), Q♠ included.
OPEN = LOT.replace(passing={"schedule": "hold"}, play={"opening": "eldest_any", "first_trick": "any",
                                                       "breaking": "none"})
HEARTS = " ".join(f"{r}H" for r in "23456789TJQKA")
BEFORE = (40, 10, 20, 30)


def shot(choice: str | None = None, v: hl.Variant = OPEN, scores: tuple[int, ...] = BEFORE) -> hl.Round:
    r = round_from(v, {0: HEARTS}, dealer=v.players - 1, scores=scores)
    while r.phase == hl.Phase.PLAY:
        r.apply(r.legal_actions()[-1])  # seat 0 leads its highest heart; the others play anything
    if choice is not None:
        r.apply(hl.Choose(0, choice))
    return r


def test_black_lady_going_for_the_lot_lets_the_shooter_zeroise_their_total() -> None:
    r = shot()
    assert r.phase == hl.Phase.DECIDE and r.decision == "moon" and r.to_act == (0,)
    assert r.options == ("zero", "double")
    r.apply(hl.Choose(0, "zero"))
    assert r.points == (-40, 0, 0, 0)
    assert [a + b for a, b in zip(BEFORE, r.points, strict=True)] == [0, 10, 20, 30]
    moon = next(e for e in r.events if isinstance(e, hl.MoonShot))
    assert moon.seat == 0 and moon.outcome == hl.MoonScoring.ZERO


def test_black_lady_going_for_the_lot_lets_the_shooter_double_everyone_elses_total() -> None:
    r = shot("double")
    assert r.points == (0, 10, 20, 30)
    assert [a + b for a, b in zip(BEFORE, r.points, strict=True)] == [40, 20, 40, 60]


def test_going_for_the_lot_is_scored_the_same_by_the_pure_scorer() -> None:
    taken = [HEARTS + " QS", "", "", ""]
    assert score_cards(LOT, taken, scores=BEFORE, moon_choice="zero").points == (-40, 0, 0, 0)
    assert score_cards(LOT, taken, scores=BEFORE, moon_choice="double").points == (0, 10, 20, 30)
    with pytest.raises(hl.IllegalAction, match=r"moon\.kind = \"lot\".*one of zero, double; got 'old'"):
        score_cards(LOT, taken, scores=BEFORE, moon_choice="old")
    # a bonus card keeps its value on top (RULES.md 7): J♦ -10 with the moon
    jd = LOT.replace(scoring={"values": {"QS": 13, "JD": -10}})
    assert score_cards(jd, [HEARTS + " QS JD", "", "", ""], scores=BEFORE, moon_choice="zero").points == (
        -50, 0, 0, 0)
    assert score_cards(jd, [HEARTS + " QS", "JD", "", ""], scores=BEFORE, moon_choice="double").points == (
        0, 0, 20, 30)


def test_with_teams_the_other_teams_totals_double() -> None:
    teams = OPEN.replace(teams=[[0, 2], [1, 3]])
    r = shot("double", teams)
    assert r.points == (0, 10, 0, 30)
    assert shot("zero", teams).points == (-40, 0, 0, 0)


def test_a_match_totals_follow_the_shooters_choice() -> None:
    # the match's totals before the hand come from the round's scores: a random match reaching a lot moon
    for seed in range(200):
        m = hl.Match(OPEN.replace(end={"target": 60}), seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            if m.phase == hl.Phase.DECIDE and m.round.decision == "moon":
                before = m.scores
                choice = rng.choice(("zero", "double"))
                shooter = m.to_act[0]
                m.apply(hl.Choose(shooter, choice))
                after = m.rounds[-1].totals
                if choice == "zero":
                    assert after[shooter] == 0
                else:
                    assert all(after[s] == 2 * before[s] for s in range(4) if s != shooter)
                return
            m.apply(m.legal_actions()[int(rng.random() * len(m.legal_actions()))])
    pytest.fail("no moon in 200 random matches")


def test_the_lot_is_described_and_round_trips() -> None:
    text = LOT.describe()
    assert "Shooting the moon (\"going for the lot\"): the shooter chooses to return their own running total to 0" \
        in text
    assert hl.Variant.from_toml(LOT.to_toml()) == LOT


def test_the_lot_is_refused_where_every_hand_is_a_moon() -> None:
    zero_hearts = {f"{r}H": 0 for r in "23456789TJQKA"}
    with pytest.raises(hl.VariantError, match="going for the lot lets the shooter return") as info:
        LOT.replace(scoring={"values": {**zero_hearts, "QS": 13}})
    assert info.value.path == "moon.kind"
    assert LOT.replace(scoring={"values": {**zero_hearts, "QS": 13}}, end={"hands": 5}).end.hands == 5


def test_the_adapters_and_agents_offer_and_take_the_lot_choices() -> None:
    enc = Encoding(LOT)
    assert enc.options[-2:] == ("zero", "double")
    r = shot(v=LOT.replace(passing={"schedule": "hold"}, play={"opening": "eldest_any", "first_trick": "any",
                                                              "breaking": "none"}))
    turns = Turns(enc, r.copy())
    assert [enc.option(i) for i in turns.legal_ids(0)] == ["zero", "double"]
    turns.apply_id(0, enc.option_id("double"))
    assert turns.round.points == (0, 10, 20, 30)
    for name in ("random", "heuristic", "moon"):
        agent = hl.agents.AGENTS[name](1)
        agent.setup(OPEN, 0)
        action = agent.act(r.observation(0), r.legal_actions(0))
        assert isinstance(action, hl.Choose) and action.option in ("zero", "double")


def test_openspiel_encodes_the_lot_choices(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the openspiel extra")
    from heartslib.adapters import openspiel as hos
    from heartslib.adapters.encoding import CARD_ACTIONS

    path = tmp_path / "lot.toml"
    path.write_text(OPEN.to_toml(), encoding="utf-8")
    game = hos.load_game(str(path), hand_number=0)
    assert game.num_distinct_actions() == CARD_ACTIONS + 2
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
