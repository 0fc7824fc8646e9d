"""Property tests over every preset and random legal play (the foundation's invariants)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies

PRESETS = st.sampled_from(hl.preset_names())
SEEDS = st.integers(0, 2**32)


def random_action(state: hl.Match | hl.Round, rng: random.Random) -> hl.Action:
    seat = state.to_act[rng.randrange(len(state.to_act))]
    actions = state.legal_actions(seat)
    return actions[rng.randrange(len(actions))]


def play_random(state: hl.Match | hl.Round, rng: random.Random, steps: int) -> None:
    """Apply up to ``steps`` random legal actions (fewer if the game ends)."""
    for _ in range(steps):
        if state.is_over:
            return
        state.apply(random_action(state, rng))


def pack_total(v: hl.Variant) -> int:
    return sum(v.rules.value[c.index] for c in v.pack)


@settings(max_examples=25, deadline=None)
@given(PRESETS, SEEDS)
def test_round_invariants_under_random_play(name: str, seed: int) -> None:
    v = hl.preset(name)
    r = hl.Round.deal(v, seed=seed)
    rng = random.Random(seed)
    pack = Counter(v.pack)
    steps = 0
    while not r.is_over:
        # cards are conserved at every step
        in_play = Counter(c for h in r.hands for c in h) + Counter(c for t in r.taken for c in t)
        in_play += Counter(c for _, c in r.trick) + Counter(r.kitty) + Counter(r.carry)
        assert in_play == pack
        # non-acting seats have no legal actions; listed actions are legal
        for seat in range(v.players):
            if seat not in r.to_act:
                assert r.legal_actions(seat) == []
        action = random_action(r, rng)
        assert r.is_legal(action)
        if r.phase is hl.Phase.PLAY and steps % 7 == 0:
            # every card not listed is refused with a reason, leaving the state unchanged
            seat = r.to_act[0]
            listed = set(r.legal_cards(seat))
            before = r.copy()
            for card in set(r.hand(seat)) - listed:
                bad = hl.Play(seat, card)
                assert not r.is_legal(bad)
                err = r.why_illegal(bad)
                assert err is not None and err.code
                try:
                    r.apply(bad)
                except hl.IllegalAction as exc:
                    assert exc.code == err.code
                else:
                    raise AssertionError("illegal play applied")
                assert r == before
        r.apply(action)
        steps += 1
    assert Counter(c for t in r.taken for c in t) == pack
    points = r.points
    assert points is not None and r.outcome is not None
    if r.outcome.shooter is None and not v.scoring.no_tricks and v.rules.plain_scoring:
        # (hand-score modifiers such as royal hearts' Q♥ doubler change the total on purpose)
        assert sum(points) == pack_total(v)


@settings(max_examples=15, deadline=None)
@given(PRESETS, SEEDS)
def test_copy_is_independent_and_copy_then_apply_equals_apply(name: str, seed: int) -> None:
    v = hl.preset(name)
    m = hl.Match(v, seed=seed)
    rng = random.Random(seed)
    play_random(m, rng, rng.randrange(1, 80))
    if m.is_over:
        return
    snapshot = m.copy()
    assert snapshot == m
    action = random_action(m, random.Random(seed + 1))
    twin = m.copy()
    m.apply(action)
    assert snapshot != m
    twin.apply(action)
    assert twin == m
    assert snapshot.copy() == snapshot


@settings(max_examples=12, deadline=None)
@given(PRESETS, SEEDS)
def test_json_save_resumes_identically(name: str, seed: int) -> None:
    v = hl.preset(name)
    m = hl.Match(v, seed=seed)
    rng = random.Random(seed)
    play_random(m, rng, rng.randrange(0, 150))
    loaded = hl.Match.from_json(m.to_json())
    assert loaded == m
    # both continue identically, RNG included (the next deals come from the saved RNG)
    rng_a, rng_b = random.Random(7), random.Random(7)
    for _ in range(120):
        if m.is_over:
            break
        m.apply(random_action(m, rng_a))
        loaded.apply(random_action(loaded, rng_b))
    assert loaded == m


@settings(max_examples=10, deadline=None)
@given(PRESETS, SEEDS)
def test_same_seed_same_game(name: str, seed: int) -> None:
    v = hl.preset(name)
    games = []
    for _ in range(2):
        m = hl.Match(v, seed=seed)
        play_random(m, random.Random(seed), 100)
        games.append(m)
    assert games[0] == games[1]
    assert games[0].to_json() == games[1].to_json()


@settings(max_examples=15, deadline=None)
@given(PRESETS, SEEDS)
def test_short_trick_resolution_agrees_with_the_general_one(name: str, seed: int) -> None:
    # play_card and resolve take a short path for the plain-tricks rules; with the flag off the general one
    v = hl.preset(name)
    ends = []
    for fast in (True, False):
        saved = v.rules.short_tricks
        v.rules.short_tricks = fast and saved
        try:
            m = hl.Match(v, seed=seed)
            play_random(m, random.Random(seed), 200)
            ends.append(m)
        finally:
            v.rules.short_tricks = saved
    assert ends[0] == ends[1]


def test_golden_deal_is_pinned() -> None:
    # the shuffle is built on random.random() only, which Python keeps stable across versions
    r = hl.Round.deal(hl.preset("standard"), seed=2026)
    assert [" ".join(c.code for c in h) for h in r.hands] == GOLDEN_2026


GOLDEN_2026 = [
    "5C 6C 7C 8C AC 3D 8D TD TH QH KH 4S 8S",
    "9C KC 2D KD 2H 5H 7H 8H AH 5S 9S TS QS",
    "JC 4D 5D 6D 7D 9D 3H 6H 9H 2S 6S KS AS",
    "2C 3C 4C TC QC JD QD AD 4H JH 3S 7S JS",
]


def test_a_trusted_deal_is_the_same_round_as_a_checked_one() -> None:
    # Round.from_hands(..., check=False) skips comparing the deal with the pack, nothing else
    v = hl.preset("standard")
    for seed in range(5):
        hands = hl.Round.deal(v, seed=seed).hands
        checked = hl.Round.from_hands(v, hands, seed=seed)
        trusted = hl.Round.from_hands(v, hands, seed=seed, check=False)
        assert trusted == checked
    with pytest.raises(hl.CardError):
        hl.Round.from_hands(v, [hands[0]] * 4)
    assert hl.Round.from_hands(v, [hands[0]] * 4, check=False).phase is hl.Phase.PASS  # not checked: as documented


def test_an_unseeded_round_seeds_its_generator_only_when_a_shuffle_pass_draws() -> None:
    v = hl.preset("standard").replace(passing={"schedule": ["shuffle"]})
    r = hl.Round.from_hands(v, hl.Round.deal(v, seed=1).hands)
    assert r._s.rng is None
    twin = r.copy()  # a pending shuffle: both copies must deal the same pile
    for seat in range(4):
        for x in (r, twin):
            x.apply(hl.Pass(seat, x.hand(seat)[:3]))
    assert r._s.rng is not None and r.received == twin.received


@settings(max_examples=30, deadline=None)
@given(st.one_of(PRESETS.map(hl.preset), strategies.variants()), SEEDS)
def test_kept_observation_fields_agree_with_a_fresh_build(variant: hl.Variant, seed: int) -> None:
    # in the play phase an observation copies its seat's fields kept from the first one of the hand
    # (engine.records): at every step of a match each seat's must equal one built from nothing, both by the
    # full builder and by a copy of the round (whose kept fields start empty)
    from heartslib.engine import records

    m = hl.Match(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(2 * len(variant.pack) + 40):
        if m.is_over:
            break
        r = m.round
        for seat in range(variant.players):
            kept = r.observation(seat)
            fields = records._fields(r._s, seat, r.to_act)
            variant_kept = fields.pop("_variant")
            fresh = hl.Observation(**fields)
            assert kept == fresh and [k for k in vars(kept) if k != "_variant"] == list(vars(fresh))
            assert kept.variant is variant_kept is variant
            assert r.copy().observation(seat) == fresh
        m.apply(random_action(m, rng))


@settings(max_examples=30, deadline=None)
@given(st.one_of(PRESETS.map(hl.preset), strategies.variants()), SEEDS, SEEDS)
def test_a_random_agents_play_from_the_state_is_the_play_its_act_chooses(
    variant: hl.Variant, seed: int, agent_seed: int,
) -> None:
    # play_match takes a RandomAgent's plays from the round's state (RandomAgent._play) instead of calling
    # act() with an observation: at every play of a match the two must choose the very same action
    from heartslib.agents import RandomAgent, actions_for

    m = hl.Match(variant, seed=seed)
    rng = random.Random(seed)
    plays = 0
    for _ in range(2 * len(variant.pack) + 40):
        if m.is_over:
            break
        seat = m.to_act[0]
        if m.round.phase is hl.Phase.PLAY:
            agent = RandomAgent(agent_seed + seat)
            agent.setup(variant, seat)
            chosen = agent._play(m.round._s, seat)
            assert chosen is agent.act(m.observation(seat), actions_for(m, seat))
            plays += 1
            m.apply(chosen)
        else:
            m.apply(random_action(m, rng))
    assert plays or m.is_over or m.round.phase is not hl.Phase.PLAY


def test_play_match_gives_a_random_agent_and_one_driven_through_act_the_same_match() -> None:
    # the whole driver: RandomAgent's plays from the state, a subclass's (which could change act) through
    # act() with observations; the saves must be equal, byte for byte
    from heartslib.agents import RandomAgent, play_match

    class ThroughAct(RandomAgent):
        pass

    for name in ("standard", "cancellation", "gong_zhu_exposed", "likha"):
        v = hl.preset(name)
        fast = play_match(v, [RandomAgent(7 + s) for s in range(v.players)], seed=3)
        slow = play_match(v, [ThroughAct(7 + s) for s in range(v.players)], seed=3)
        assert fast.to_json() == slow.to_json()
