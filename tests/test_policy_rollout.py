"""The policy rollout (``Round.policy_playout``, ``Round.rollout_points(policy=...)``): the engine's own loop
with a policy choosing, held to the public ``legal_actions``/``apply`` path making the same choices."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import search
from heartslib import strategies as hst
from heartslib.engine.state import RoundState


class _Drawn:
    """A policy drawing each play and decision uniformly from its own generator (one draw a choice of two or
    more, as the public-path loop below draws)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.plays = 0

    def play(self, s: RoundState, seat: int, cands: list[int]) -> int:
        self.plays += 1
        return cands[int(self.rng.random() * len(cands))]

    def played(self, s: RoundState, seat: int, card: int) -> None:
        pass

    def decide(self, s: RoundState, seat: int, options: tuple[str, ...]) -> int:
        return int(self.rng.random() * len(options))


def _public(r: hl.Round, seed: int) -> None:
    """The choices ``_Drawn(seed)`` makes, through the public ``legal_actions``/``apply`` path."""
    mine = random.Random(seed)
    while not r.is_over:
        actions = r.legal_actions(r.to_act[0])
        r.apply(actions[int(mine.random() * len(actions))] if len(actions) > 1 else actions[0])


@settings(max_examples=50)
@given(hst.rounds(), st.integers(0, 2**32 - 1))
def test_the_policy_rollout_plays_what_the_public_path_plays(r: hl.Round, seed: int) -> None:
    passes = random.Random(seed)
    # the policy chooses plays and decisions; passes (and a dealer's choice of pass, which comes before them) are
    # made here alike: the playout draws passes from its own generator, the public path from the policy's
    while r.phase is hl.Phase.PASS or (r.phase is hl.Phase.DECIDE and r.decision == hl.Decision.PASS):
        actions = r.legal_actions(r.to_act[0])
        r.apply(actions[passes.randrange(len(actions))])
    engine, public = r.copy(), r.copy()
    points = engine.policy_playout(_Drawn(seed), random.Random(seed))
    _public(public, seed)
    assert engine == public and engine.state_key() == public.state_key()
    assert engine.events == public.events and points == public.points


@settings(max_examples=40)
@given(hst.rounds(), st.integers(0, 2**32 - 1))
def test_rollout_points_with_a_policy_leaves_the_round_and_equals_a_copys_playout(r: hl.Round, seed: int) -> None:
    before = r.copy()
    points = r.rollout_points(random.Random(seed), policy=_Drawn(seed))
    assert r == before and r.state_key() == before.state_key()
    played = r.copy()
    assert played.policy_playout(_Drawn(seed), random.Random(seed)) == points


def test_the_search_rollout_plays_its_policy_in_the_engine_loop() -> None:
    # search.rollout hands the hand to Round.policy_playout: the same games as the public-path rollout it
    # replaced (the points of 40 deals were compared at the change), and every seat's plays go through the policy
    v = hl.preset("black_maria")
    t = search.RolloutTables(v)
    for seed in range(40):
        r = hl.Round.from_hands(v, hl.Round.deal(v, seed=seed).hands, passing=hl.HOLD)
        played = r.copy()
        search.rollout(played, [0.0] * 3, t.counts[:], t, random.Random(seed))
        assert played.is_over and played.points is not None and sum(played.points) == 43
        again = r.copy()
        assert again.policy_playout(search.RolloutPolicy(v, rng=random.Random(seed)), random.Random(seed)) == \
            played.points


class _Uniform:
    """A policy drawing from the playout's own generator exactly as ``random_playout`` draws: one
    ``rng.random()`` per play among two or more cards, one per decision."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def play(self, s: RoundState, seat: int, cands: list[int]) -> int:
        return cands[int(self.rng.random() * len(cands))]

    def played(self, s: RoundState, seat: int, card: int) -> None:
        pass

    def decide(self, s: RoundState, seat: int, options: tuple[str, ...]) -> int:
        return int(self.rng.random() * len(options))


def _listed(r: hl.Round, rng: random.Random) -> None:
    """The public path: ``legal_actions`` listed, one draw per choice of two or more."""
    while not r.is_over:
        actions = r.legal_actions(r.to_act[0])
        r.apply(actions[int(rng.random() * len(actions))] if len(actions) > 1 else actions[0])


# the variants whose tricks take the short paths (engine.fastpath.PLAIN_TRICKS)
FAST_VARIANTS = hst.variants().filter(lambda v: v.rules.short_tricks)


@settings(max_examples=50)
@given(st.one_of(hst.rounds(FAST_VARIANTS, max_steps=20), hst.rounds()), st.integers(0, 2**32 - 1))
def test_every_path_ends_in_the_same_state_for_the_same_draws(r: hl.Round, seed: int) -> None:
    # issue 32: the legal_actions listing, random_playout,
    # the policy rollout and rollout_points reach the same Round and state key from the same random numbers
    if r.phase is hl.Phase.DECIDE:
        return  # a decision with one option draws in random_playout but not in the listing
    fast, listed, policy = r.copy(), r.copy(), r.copy()
    points = fast.random_playout(random.Random(seed))
    _listed(listed, random.Random(seed))
    rng = random.Random(seed)
    policy.policy_playout(_Uniform(rng), rng)
    assert r.rollout_points(random.Random(seed)) == points
    for other in (listed, policy):
        assert fast == other and fast.state_key() == other.state_key() and fast.events == other.events
        assert other.points == points


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(["standard", "omnibus", "black_maria", "complex_hearts"]), data=st.data(),
       per_cost=st.sampled_from([0.0, -10.0]), per_rank=st.sampled_from([1, -1]), clip=st.booleans())
def test_the_rollout_cards_top_is_max_with_its_key(preset: str, data: st.DataObject, per_cost: float, per_rank: int,
                                                  clip: bool) -> None:
    # search._top replaced max()/min() with a key in the rollout policy (compiled, max called its key
    # generically): the first card with the highest key, as max returns it and as min returns the lowest
    t = search.RolloutTables(hl.preset(preset))
    pack = [i for i, n in enumerate(t.counts) if n]
    cards = data.draw(st.lists(st.sampled_from(pack), min_size=1, max_size=13, unique=True))
    cost, rank = t.cost, t.rank

    def key(c: int) -> float:
        return per_cost * (max(cost[c], 0.0) if clip else cost[c]) + per_rank * rank[c]

    assert search._top(cards, t, per_cost, per_rank, clip) == max(cards, key=key)
    if per_cost == 0.0:
        assert search._top(cards, t, 0.0, -1, False) == min(cards, key=rank.__getitem__)


def test_rollout_card_takes_any_sequence() -> None:
    # the public rollout_card copies its sequences into the lists the policy's helpers take
    t = search.RolloutTables(hl.preset("standard"))
    cands = [hl.Card(c).index for c in ("2H", "9H", "KH")]
    trick = [hl.Card("TH").index]
    unplayed = list(t.counts)
    as_lists = search.rollout_card(cands, trick, t.suit[trick[0]], False, True, False, unplayed, t)
    assert as_lists == search.rollout_card(tuple(cands), tuple(trick), t.suit[trick[0]], False, True, False,
                                           tuple(unplayed), t, tuple(search.suits_out(unplayed, t)))
    assert as_lists == hl.Card("9H").index  # the highest heart under the 10
