"""The OpenSpiel adapter, checked by OpenSpiel's own test harness, its bots, and its C++ ``hearts``.

Needs the ``openspiel`` extra; skipped (with the reason) without it.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "pyspiel", reason="the OpenSpiel adapter needs the 'openspiel' extra: pip install -e '.[openspiel]'"
)

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import heartslib as hl
from heartslib.actions import KittyTaken
from heartslib.adapters import openspiel as hos
from heartslib.adapters.encoding import CARD_ACTIONS

# --------------------------------------------------------------------------- helpers


def variant_file(tmp_path: Path, v: hl.Variant, name: str) -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(v.to_toml(), encoding="utf-8")
    return str(path)


def sample_chance(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def play_randomly(state: Any, rng: random.Random) -> Any:
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


def check_state(state: Any) -> None:
    """heartslib's invariants, called by random_sim_test on every state it reaches."""
    core: hos.HeartsCore = state.core
    n = core.n
    rules = core.setup.variant.rules
    if state.is_terminal():
        assert state.returns() == pytest.approx(core.returns)
        return
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(0 <= a < hl.NUM_CARD_INDICES for a, _ in outcomes)
        if core.turns is None:
            return
    turns = core.turns
    assert turns is not None
    rnd = turns.round
    # every card is somewhere: hands, tricks, the kitty, or taken from the kitty
    where: Counter[int] = Counter()
    for seat in range(n):
        where.update(c.index for c in rnd.hand(seat))
    for trick in rnd.tricks:
        where.update(c.index for c in trick.cards)
    where.update(c.index for _, c in rnd.trick)
    where.update(c.index for c in rnd.kitty)
    for event in rnd.events:
        if isinstance(event, KittyTaken):
            where.update(c.index for c in event.cards)
    assert where == Counter(rules.pack)
    if state.is_chance_node():
        return
    seat = state.current_player()
    legal = state.legal_actions()
    assert legal == sorted(set(legal)) and legal
    if rnd.phase == hl.Phase.PLAY:
        assert legal == sorted({c.index for c in rnd.legal_cards(seat)})
        assert all(rnd.is_legal(hl.Play(seat, hl.Card.from_index(a))) for a in legal)
    elif rnd.phase == hl.Phase.DECIDE:
        assert [core.setup.encoding.option(a) for a in legal] == sorted(rnd.options, key=core.setup.encoding.option_id)
    else:
        left = Counter(c.index for c in rnd.hand(seat)) - Counter(c.index for c in turns.pending)
        assert legal == sorted(c for c in left if c not in rules.forbidden)
    for other in range(n):
        if other != seat:
            assert state.legal_actions(other) == []
    # the tensors are the shared encoding
    obs = np.asarray(state.observation_tensor(seat), dtype=np.float32)
    assert obs == pytest.approx(np.asarray(core.observation_vector(seat), dtype=np.float32))
    start, stop = core.setup.encoding.layout()["hand"]
    hand = Counter(c.index for c in rnd.hand(seat)) - Counter(c.index for c in turns.pending)
    assert {i: int(k) for i, k in enumerate(obs[start:stop]) if k} == dict(+hand)


# --------------------------------------------------------------------------- OpenSpiel's own tests

SIM_PRESETS = ["standard", "omnibus", "cancellation", "double_deck_7", "complex_hearts", "gong_zhu", "black_jack"]


@pytest.mark.parametrize("preset", SIM_PRESETS)
def test_random_sim_test_over_presets(preset: str) -> None:
    game = pyspiel.load_game(hos.GAME_NAME, {"preset": preset})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False, state_checker_fn=check_state)


CUSTOM = {
    "shuffle_pass": hl.preset("standard").replace(passing={"schedule": "shuffle"}),
    "scatter_pass": hl.preset("standard").replace(passing={"schedule": "scatter"}),
    "star_pass": hl.preset("standard").replace(players=5, passing={"schedule": "star", "cards": 2}),
    "dealers_choice_and_moon_choice": hl.preset("standard").replace(
        passing={"schedule": "dealers_choice"}, moon={"kind": "choice"}
    ),
    "called_joker_leads": hl.preset("standard").replace(
        players=3, passing={"schedule": "left_right"},
        deck={"fill": "jokers", "joker": "valueless", "joker_lead": "call_suit"},
    ),
    "seen_kitty": hl.preset("standard").replace(
        players=5, passing={"schedule": "left_right", "forbidden": ["QS"]},
        deck={"fill": "kitty", "kitty": "one_per_trick", "kitty_seen_by_winner": True},
    ),
    "three_stripped": hl.preset("standard").replace(players=3, passing={"schedule": "left_right"}),
}


@pytest.mark.parametrize("name", CUSTOM)
def test_random_sim_test_over_toml_variants(name: str, tmp_path: Path) -> None:
    game = hos.load_game(variant_file(tmp_path, CUSTOM[name], name), hand_number=0)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False, state_checker_fn=check_state)


@pytest.mark.parametrize("preset", ["standard", "danger_hearts"])
def test_random_sim_test_match_episodes(preset: str) -> None:
    game = pyspiel.load_game(hos.GAME_NAME, {"preset": preset, "episode": "match", "max_hands": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False, state_checker_fn=check_state)


def test_a_whole_match_ends_by_the_variants_rules() -> None:
    game = pyspiel.load_game(hos.GAME_NAME, {"preset": "standard", "episode": "match"})
    state = play_randomly(game.new_initial_state(), random.Random(4))
    core = state.core
    match = core.turns.game
    assert isinstance(match, hl.Match) and match.is_over
    assert max(match.scores) >= 100
    assert state.returns() == [-float(s) for s in match.scores]  # no exact-target reset in the standard game
    assert state.history_str() and len(state.history()) > 52 * len(match.rounds)


# --------------------------------------------------------------------------- chance nodes and returns


def test_the_deal_is_one_chance_node_per_card() -> None:
    game = pyspiel.load_game(hos.GAME_NAME, {"preset": "standard", "dealer": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, 1 / 52) for i in range(52)]
    order = random.Random(1).sample(range(52), 52)
    for card in order:
        state.apply_action(card)
    assert not state.is_chance_node()
    rnd = state.core.turns.round
    for seat in range(4):  # dealer 3: cards go to seats 0, 1, 2, 3, 0, ...
        assert sorted(c.index for c in rnd.hand(seat)) == sorted(order[seat::4])
    assert "deal QS" in state.core.action_text(pyspiel.PlayerId.CHANCE, 49)


def test_the_shuffle_pass_is_chance_nodes_too(tmp_path: Path) -> None:
    game = hos.load_game(variant_file(tmp_path, CUSTOM["shuffle_pass"], "shuffle"))
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    for _ in range(12):
        assert state.current_player() >= 0
        state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node()
    pile = [a for a, _ in state.chance_outcomes()]
    chosen = [rng.choice(sorted(set(pile)))]
    state.apply_action(chosen[0])
    while state.is_chance_node():
        chosen.append(sample_chance(state, rng))
        state.apply_action(chosen[-1])
    rnd = state.core.turns.round
    assert rnd.phase == hl.Phase.PLAY
    received = rnd.received
    for i in range(4):  # dealt out again from the dealer's left, three each
        seat = (rnd.dealer + 1 + i) % 4
        assert sorted(c.index for c in received[seat]) == sorted(chosen[3 * i : 3 * i + 3])


@pytest.mark.parametrize("preset", ["standard", "gong_zhu", "complex_hearts"])
def test_returns_are_the_rounds_rewards(preset: str) -> None:
    game = pyspiel.load_game(hos.GAME_NAME, {"preset": preset})
    for seed in range(3):
        state = play_randomly(game.new_initial_state(), random.Random(seed))
        rnd = state.core.turns.round
        expected = state.core.setup.encoding.rewards(rnd.scores, rnd.points)
        assert state.returns() == list(expected)
        if preset == "standard":
            assert state.returns() == [-float(p) for p in rnd.points]


def test_serialization_round_trips_through_the_game_string(tmp_path: Path) -> None:
    game = hos.load_game(variant_file(tmp_path, CUSTOM["scatter_pass"], "scatter"))
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(80):
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and "variant_file=" in str(game2)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert state2.information_state_string(1) == state.information_state_string(1)


# --------------------------------------------------------------------------- information


def test_information_state_hides_other_hands() -> None:
    game = pyspiel.load_game(hos.GAME_NAME, {"preset": "standard", "hand_number": 3})  # no pass
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    rnd = state.core.turns.round
    text = state.information_state_string(0)
    assert " ".join(c.code for c in rnd.hand(0)) in text
    assert " ".join(c.code for c in rnd.hand(1)) not in text
    assert state.information_state_tensor(0) != state.information_state_tensor(1)
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()


@pytest.mark.parametrize("name", ["standard", "cancellation", "shuffle_pass", "scatter_pass", "called_joker_leads",
                                  "seen_kitty", "dealers_choice_and_moon_choice"])
def test_resampling_keeps_what_the_seat_knows(name: str, tmp_path: Path) -> None:
    if name in CUSTOM:
        game = hos.load_game(variant_file(tmp_path, CUSTOM[name], name))
    else:
        game = pyspiel.load_game(hos.GAME_NAME, {"preset": name})
    rng = random.Random(7)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)  # seeded: the same worlds every run
    changed = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            if rng.random() < 0.3:
                other = state.resample_from_infostate(seat, sampler)
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.legal_actions() == state.legal_actions()
                assert other.current_player() == seat and len(other.history()) == len(state.history())
                changed += other.core.turns.round.hands != state.core.turns.round.hands
            state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 0  # the hidden hands really are drawn anew


# --------------------------------------------------------------------------- OpenSpiel's bots


def test_ismcts_and_mcts_bots_play_against_random_agents() -> None:
    for hand_number in (0, 3):  # a hand with a pass, a hand without
        game = pyspiel.load_game(hos.GAME_NAME, {"preset": "standard", "hand_number": hand_number})
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
        bots = {
            0: ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(1)),
            1: mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator,
                            random_state=np.random.RandomState(2)),
        }
        rng = random.Random(hand_number)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            action = bots[seat].step(state) if seat in bots else rng.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) in (-26.0, -78.0)  # standard: 26 points, or an old moon


# --------------------------------------------------------------------------- against OpenSpiel's C++ hearts

FLAGS = ("pass_cards", "no_pts_on_first_trick", "can_lead_any_club", "jd_bonus", "avoid_all_tricks_bonus",
         "must_break_hearts", "qs_breaks_hearts", "can_lead_hearts_instead_of_qs")


def openspiel_card(index: int) -> hl.Card:
    """OpenSpiel's hearts numbers cards rank * 4 + suit (ranks from 2, suits C D H S)."""
    return hl.Card(hl.Rank(index // 4 + 2), hl.Suit(index % 4))


def heartslib_rules(flags: dict[str, bool]) -> hl.Variant:
    """The heartslib variant with the rules of OpenSpiel's hearts under these flags."""
    if not flags["must_break_hearts"]:
        breaking = "none"
    elif flags["qs_breaks_hearts"]:
        breaking = "penalty_cards"  # hearts and Q♠ (J♦ is a bonus, not a penalty card)
    else:
        breaking = "hearts"
    return hl.preset("standard").replace(
        play={
            "opening": "any_club" if flags["can_lead_any_club"] else "two_of_clubs",
            "breaking": breaking,
            "first_trick": "no_points" if flags["no_pts_on_first_trick"] else "any",
            "lead_hearts_unbroken": "only_penalty_cards" if flags["can_lead_hearts_instead_of_qs"] else "only_hearts",
        },
        scoring={"values": {"QS": 13, "JD": -10} if flags["jd_bonus"] else {"QS": 13},
                 "no_tricks": -5 if flags["avoid_all_tricks_bonus"] else 0},
        moon={"kind": "old", "requires": "penalty_cards"},
    )


# OpenSpiel's first chance node picks the pass: 0 none, 1 left, 2 across, 3 right; heartslib's
# standard schedule is left, right, across, hold (hand numbers 0-3).
HAND_FOR_PASS = {0: 3, 1: 0, 2: 2, 3: 1}


def test_openspiel_card_numbering() -> None:
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(1)
    for index in range(52):
        assert hl.Card.parse(state.action_to_string(index)) == openspiel_card(index)


# Seat 0 holds the top cards of every suit it holds, so it wins every trick and shoots the moon.
MOON_HAND = [c.index for c in hl.parse_cards("AC AD KD QD JD TD AS KS QS AH KH QH JH")]


def moon_deal(rng: random.Random) -> list[int]:
    """An OpenSpiel deal order (card t to seat t % 4) giving seat 0 :data:`MOON_HAND`."""
    to_openspiel = {openspiel_card(i).index: i for i in range(52)}
    mine = [to_openspiel[c] for c in MOON_HAND]
    rest = rng.sample([i for i in range(52) if i not in mine], 39)
    hands = [mine, rest[:13], rest[13:26], rest[26:]]
    return [hands[t % 4][t // 4] for t in range(52)]


def test_agrees_with_openspiel_hearts_on_every_legal_move_and_the_points(tmp_path: Path) -> None:
    games = moons = 0
    for combo in itertools.product((False, True), repeat=len(FLAGS)):
        flags = dict(zip(FLAGS, combo, strict=True))
        theirs = pyspiel.load_game("hearts", flags)
        path = variant_file(tmp_path, heartslib_rules(flags), "x" + "".join("1" if f else "0" for f in combo))
        rng = random.Random(sum(b << i for i, b in enumerate(combo)))
        for game_number in range(3):
            a = theirs.new_initial_state()
            direction = rng.choice([d for d, _ in a.chance_outcomes()]) if game_number < 2 else 0
            a.apply_action(direction)
            b = hos.load_game(path, dealer=3, hand_number=HAND_FOR_PASS[direction]).new_initial_state()
            deal = rng.sample(range(52), 52) if game_number < 2 else moon_deal(rng)
            for card in deal:  # the same deal: both give cards to seats 0, 1, 2, 3, 0, ...
                a.apply_action(card)
                b.apply_action(openspiel_card(card).index)
            while not a.is_terminal():
                assert not b.is_terminal() and a.current_player() == b.current_player()
                mapped = sorted(openspiel_card(x).index for x in a.legal_actions())
                assert mapped == b.legal_actions(), (flags, a.history())
                pick = rng.randrange(len(mapped))
                a.apply_action(sorted(a.legal_actions(), key=lambda x: openspiel_card(x).index)[pick])
                b.apply_action(mapped[pick])
            assert b.is_terminal()
            their_points = [26 - r for r in a.returns()]
            assert [int(p) for p in b.core.turns.round.points] == their_points, flags
            games += 1
            moons += their_points[1:] == [26, 26, 26]
    assert games == 3 * 2 ** len(FLAGS)
    assert moons >= 2 ** len(FLAGS)  # every rigged deal was a moon in both engines


# --------------------------------------------------------------------------- parameters and errors


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="episode"):
        hos.Setup.from_params({"episode": "game"})
    with pytest.raises(ValueError, match="unknown"):
        hos.Setup.from_params({"players": 4})
    with pytest.raises(hl.UnknownVariant):
        hos.Setup.from_params({"preset": "standrd"})


def test_decision_options_are_actions_after_the_cards(tmp_path: Path) -> None:
    v = CUSTOM["dealers_choice_and_moon_choice"]
    game = hos.load_game(variant_file(tmp_path, v, "dc"), dealer=2)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    assert state.current_player() == 2
    legal = state.legal_actions()
    assert min(legal) == CARD_ACTIONS and state.action_to_string(legal[0]) == "choose hold"
    assert game.num_distinct_actions() == CARD_ACTIONS + 1 + 3 * 3 + 2


def test_without_the_extra_the_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hos, "_IMPORT_ERROR", ImportError("No module named 'pyspiel'"))
    with pytest.raises(ImportError, match=r"heartslib\[openspiel\]"):
        hos.load_game("standard")
