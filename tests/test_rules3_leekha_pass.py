"""Leekha's pass restriction as AyMog's Leekha app states it (RULES.md §11; ``passing.keep_last_of_suit`` with
``passing.last_of_suit_exempt``): "a player can choose any card to pass provided it is not the last card available
from the suit chosen", except Q♠ K♠ A♠ and 10♦ J♦ Q♦ K♦ A♦, which may be passed "regardless of how many ... cards
are left in hand"."""

from __future__ import annotations

import random
from itertools import combinations, permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib.adapters.encoding import Turns
from heartslib.engine.legality import (
    count_passes,
    nth_pass,
    pass_choices,
    pass_extensions,
    pass_problem,
    pass_room,
)
from helpers import fill_hands

EXEMPT = "QS KS AS TD JD QD KD AD"
AYMOG = hl.preset("likha").replace(passing={"schedule": "right", "keep_last_of_suit": True,
                                            "last_of_suit_exempt": EXEMPT})
KEEP = frozenset(c.index for c in hl.parse_cards(EXEMPT))
#: Seat 0's hand in the examples: one heart, three spades (two of them exempt), two exempt diamonds of four.
HAND = "5C 6C 8C TC QC 2D 9D JD QD 6H 3S QS AS"


def deal(hand: str = HAND) -> hl.Round:
    *hands, _kitty = fill_hands(AYMOG, {0: hand})
    return hl.Round.from_hands(AYMOG, hands, dealer=1)


def passes(r: hl.Round, text: str) -> hl.Pass:
    return hl.Pass(0, hl.parse_cards(text))


def test_aymog_the_last_card_of_a_suit_may_not_be_passed() -> None:
    r = deal()
    before = r.copy()
    with pytest.raises(hl.IllegalAction, match="passing 6H leaves seat 0 no hearts") as info:
        r.apply(passes(r, "6H 5C 6C"))
    assert info.value.code == "pass_last_of_suit"
    assert "except for TD JD QD KD AD QS KS AS, which may always be passed" in str(info.value)
    assert r == before  # a refused pass changes nothing
    assert r.is_legal(passes(r, "5C 6C 8C"))  # clubs keep TC and QC


def test_aymog_the_queen_king_and_ace_of_spades_may_always_be_passed() -> None:
    r = deal()
    assert r.is_legal(passes(r, "QS AS 5C"))  # 3S stays
    with pytest.raises(hl.IllegalAction, match="no spades") as info:
        r.apply(passes(r, "3S QS AS"))  # 3S is not exempt and would leave the hand with no spade
    assert info.value.code == "pass_last_of_suit"
    only_queen = deal("2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 2H 3H QS")
    assert only_queen.is_legal(passes(only_queen, "QS 2C 3C"))  # the hand's only spade, exempt


def test_aymog_ten_to_ace_of_diamonds_may_always_be_passed() -> None:
    r = deal("2C 3C 4C 5C 6C 7C 8C 2H 3H 4H 2S 9D TD")
    assert r.is_legal(passes(r, "TD 2C 3C"))  # 9D stays
    assert r.is_legal(passes(r, "9D 2C 3C"))  # TD stays
    assert not r.is_legal(passes(r, "9D TD 2C"))  # 9D goes with the last diamond
    exempt_only = deal("2C 3C 4C 5C 6C 7C 8C 2H 3H 4H 2S TD JD")
    assert exempt_only.is_legal(passes(exempt_only, "TD JD 2C"))  # every diamond exempt: the suit may go


def test_without_exempt_cards_every_suit_keeps_a_card() -> None:
    v = hl.Variant(passing={"keep_last_of_suit": True})
    *hands, _ = fill_hands(v, {0: "2C 3C 4C 5C 6C 7C 8C 2H 3H 4H 2S 9D QS"})
    r = hl.Round.from_hands(v, hands)
    assert not r.is_legal(hl.Pass(0, hl.parse_cards("2S QS 2C")))  # Q♠ is exempt only where the list says so
    assert not r.is_legal(hl.Pass(0, hl.parse_cards("9D 2C 3C")))
    assert r.is_legal(hl.Pass(0, hl.parse_cards("QS 2C 3C")))
    assert "A pass may not take the last card of a suit from the hand." in v.describe()


def test_the_listed_passes_are_exactly_the_legal_ones_in_listing_order() -> None:
    r = deal()
    listed = r.legal_actions(0)
    every = [hl.Pass(0, combo) for combo in combinations(r.hand(0), 3)]
    assert listed == [p for p in every if r.is_legal(p)]
    # 286 passes less the 66 with the only heart and 3S Q♠ A♠ (the hand's every spade)
    assert len(listed) == 219
    lazy = hl.agents.LazyActions(r, 0)
    assert len(lazy) == 219 and [lazy[i] for i in range(219)] == listed and lazy[-1] == listed[-1]
    assert all(p in lazy for p in listed) and passes(r, "6H 5C 6C") not in lazy
    assert r.pass_rules(0).choices() == listed


def test_the_random_playout_draws_a_legal_pass_uniformly() -> None:
    r = deal()
    listed = r.legal_actions(0)
    seen = {}
    for seed in range(600):
        played = r.copy()
        played.random_playout(random.Random(seed))
        mine = next(e for e in played.events if isinstance(e, hl.Pass) and e.seat == 0)
        assert mine in listed
        seen[mine] = seen.get(mine, 0) + 1
    # 600 draws among 219 passes: a draw that favoured part of the list (the old unranking over every
    # combination, say) would leave many more of them unseen than the ~140 a uniform draw leaves
    assert len(seen) > 110


hands = st.lists(st.integers(0, 53), min_size=0, max_size=9)
exempt = st.frozensets(st.sampled_from(sorted(KEEP)), max_size=4)
forbid = st.frozensets(st.integers(0, 53), max_size=3)


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(0, 4), st.booleans(), forbid, exempt, st.data())
def test_listing_counting_and_unranking_agree_with_the_rule(hand: list[int], size: int, ordered: bool,
                                                            forbidden: frozenset[int], keep: frozenset[int],
                                                            data: st.DataObject) -> None:
    hand.sort(key=hl.Card.from_index)
    everything = permutations(hand, size) if ordered else combinations(hand, size)
    legal = list(dict.fromkeys(c for c in everything if pass_problem(0, hand, c, size, forbidden, keep) is None))
    assert pass_choices(hand, size, forbidden, ordered, keep) == legal
    assert count_passes(hand, size, forbidden, ordered, keep) == len(legal)
    if legal:
        i = data.draw(st.integers(0, len(legal) - 1))
        assert nth_pass(hand, size, forbidden, ordered, i, keep) == legal[i]


@settings(max_examples=200, deadline=None)
@given(hands, forbid, exempt, st.data())
def test_card_by_card_picks_always_complete_a_legal_pass(hand: list[int], forbidden: frozenset[int],
                                                        keep: frozenset[int], data: st.DataObject) -> None:
    # pass_room: the largest legal pass; pass_extensions: the cards that keep a legal pass of the size reachable
    largest = max((k for k in range(len(hand) + 1)
                   if any(pass_problem(0, hand, c, k, forbidden, keep) is None for c in combinations(hand, k))),
                  default=0)
    assert pass_room(hand, (), forbidden, keep) == largest
    size = data.draw(st.integers(0, largest))
    chosen: list[int] = []
    for _ in range(size):
        fits = pass_extensions(hand, chosen, size, forbidden, keep)
        reachable = {c for combo in pass_choices(hand, size, forbidden, False, keep) for c in combo
                     if all(x in combo for x in chosen) and c not in chosen}
        assert set(fits) >= reachable - set(chosen) and fits
        chosen.append(data.draw(st.sampled_from(fits)))
    assert pass_problem(0, hand, chosen, size, forbidden, keep) is None
    assert pass_extensions(hand, chosen, size, forbidden, keep) == []


def test_the_adapters_offer_only_cards_that_complete_a_legal_pass() -> None:
    env_round = deal()
    turns = Turns(hl.adapters.encoding.Encoding(AYMOG), env_round)
    seat = turns.current()
    assert seat == 0
    ids = turns.legal_ids(0)
    assert hl.Card.parse("6H").index not in ids  # no pass may hold the only heart
    for text in ("3S", "QS"):
        turns.apply_id(0, hl.Card.parse(text).index)
    assert hl.Card.parse("AS").index not in turns.legal_ids(0)  # 3S Q♠ A♠ would leave no spade
    turns.apply_id(0, hl.Card.parse("5C").index)
    assert turns.round.observation(0).hand_sizes[0] == 13 and turns.current() == 1


@pytest.mark.parametrize("agent", ["random", "heuristic", "moon", "search"])
def test_the_built_in_agents_pass_legally_under_the_rule(agent: str) -> None:
    # the agents choose passes card by card; play_match raises IllegalAction at an illegal one
    kind = hl.agents.AGENTS[agent]
    players = [kind(s, playouts=4) if kind is hl.agents.SearchAgent else kind(s) for s in range(4)]
    hands = 1 if agent == "search" else 3
    m = hl.agents.play_match(AYMOG.replace(end={"target": 0, "hands": hands}), players, seed=4)
    made = [e for r in m.rounds for e in r.round.events if isinstance(e, hl.Pass)]
    assert len(made) == 4 * hands


def test_the_rule_is_judged_with_the_variant() -> None:
    with pytest.raises(hl.VariantError, match="need the rule they are exempt from") as info:
        hl.Variant(passing={"last_of_suit_exempt": EXEMPT})
    assert info.value.path == "passing.last_of_suit_exempt"
    with pytest.raises(hl.VariantError, match=r"keeps a card of each") as info:
        hl.Variant(passing={"cards": 10, "keep_last_of_suit": True})  # 13 cards, four suits kept: 9 at most
    assert info.value.path == "passing.keep_last_of_suit"
    assert hl.Variant(passing={"cards": 9, "keep_last_of_suit": True}).passing.keep_last_of_suit
    assert "except Q♠ K♠ A♠ 10♦ J♦ Q♦ K♦ A♦, which may always be passed" in AYMOG.describe()
    assert hl.Variant.from_toml(AYMOG.to_toml()) == AYMOG


def test_openspiel_picks_and_resampled_picks_complete_legal_passes(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the openspiel extra")
    from heartslib.adapters import openspiel as hos

    path = tmp_path / "aymog.toml"
    path.write_text(AYMOG.to_toml(), encoding="utf-8")
    game = hos.load_game(str(path), hand_number=0)
    rng = random.Random(3)
    resampled = 0
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            turns = state.core.turns
            if turns.round.phase == hl.Phase.PASS and turns.pending:
                # another seat's view: the picking seat's picks so far are drawn anew (a random pick of a
                # singleton, one draw in about forty, would leave no legal pass to complete)
                for _ in range(3):
                    # the resampled history replays as it is drawn (resample_from_infostate would retry quietly)
                    other = game.new_initial_state()
                    for action in state.core.resample_history((state.current_player() + 1) % 4, rng):
                        other.apply_action(action)
                    resampled += 1
                    assert other.current_player() == state.current_player() and other.legal_actions()
                state = other
            legal = state.legal_actions()
            assert legal
            state.apply_action(rng.choice(legal))  # an illegal pass would raise when its last pick applies
        passes = [e for e in state.core.turns.round.events if isinstance(e, hl.Pass)]
        assert len(passes) == 4
    assert resampled > 100


def test_the_leekha_aymog_preset_plays_the_apps_rules() -> None:
    v = hl.preset("leekha_aymog")
    assert hl.preset("aymog_leekha") == v
    assert v.passing.keep_last_of_suit and frozenset(c.index for c in v.passing.last_of_suit_exempt) == KEEP
    assert v.rules.penalty_total == 36 and not v.teams and v.end.target == 101
    m = hl.agents.play_match(v, [hl.agents.HeuristicAgent(s) for s in range(4)], seed=2)
    assert m.is_over and max(m.scores) >= 101
    for result in m.rounds:
        passes = [e for e in result.round.events if isinstance(e, hl.Pass)]
        assert len(passes) == 4  # three cards to the right every hand
        assert sum(result.points) == 36  # no moon rule: every deal scores its 36 points


def test_pettingzoo_passes_card_by_card_under_the_rule() -> None:
    pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the pettingzoo extra")
    from pettingzoo.test import api_test

    from heartslib.adapters import pettingzoo as hpz

    api_test(hpz.env("leekha_aymog"), num_cycles=400)
    env = hpz.env("leekha_aymog", episode="match")
    env.reset(seed=3)
    rng = random.Random(3)
    picks = 0
    for agent in env.agent_iter(max_iter=3000):
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        legal = [i for i, ok in enumerate(mask) if ok]
        assert legal  # a pick never leaves a pass that cannot be completed
        picks += env.unwrapped.turns.round.phase == hl.Phase.PASS
        env.step(rng.choice(legal))
    assert picks >= 12
