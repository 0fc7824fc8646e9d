"""heartslib.vector's jax backend, held to the numpy backend array for array and to the engine at the end.

Every game is stepped through both backends with the same action ids: after every step each array of the two
states, the legal masks and the observations must be equal, and at the end the jax game's ``to_round`` must
equal (==) the round the same ids make through ``Round.apply`` (points and events included). jax runs on its
CPU build here; compiling a step takes seconds, so the environments are kept per variant and every batch is
of the same size (one compiled step per variant).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax", reason="the jax backend's tests need the 'jax' extra (pip install -e '.[jax]')")

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import heartslib as hl  # noqa: E402
from heartslib.adapters.encoding import Turns  # noqa: E402
from heartslib.strategies import variants  # noqa: E402
from heartslib.vector import Env  # noqa: E402
from heartslib.vector.kernel import ARRAYS  # noqa: E402
from test_vector import KITTIES, LEEKHA, LEEKHA_COUNTS, PINS, rule_counter, supported  # noqa: E402
from test_vector_scoring import (  # noqa: E402
    FLIP_ALONE,
    LOT,
    TWO_CANCELLERS,
    TWO_PENALTY,
    deals,
    near_target,
    steered,
    strong,
    sun_and_moon,
)

#: A new moon where the old one would lose the match, from scores near the target.
NEW_IF_OLD_LOSES = hl.preset("standard").replace(scoring=TWO_PENALTY, moon={"kind": "new_if_old_loses"})

#: Every batch has this many games, so each variant's step is compiled once.
BATCH = 4
_ENVS: dict[hl.Variant, tuple[Env, Env]] = {}


def envs(v: hl.Variant) -> tuple[Env, Env]:
    """The numpy and the jax environment of ``v`` (made once: the jax one holds its compiled step)."""
    if v not in _ENVS:
        _ENVS[v] = (Env(v), Env(v, backend="jax"))
    return _ENVS[v]


def same(a: Any, b: Any) -> None:
    """Assert that two states of the two backends hold the same arrays and observations."""
    for name in ARRAYS:
        assert np.array_equal(np.asarray(getattr(a, name)), np.asarray(getattr(b, name))), name
    assert np.array_equal(np.asarray(a.observation), np.asarray(b.observation))


def lockstep(v: hl.Variant, state_np: Any, state_jx: Any, rng_seed: int,
             each: Callable[[Env, Any], None] | None = None) -> tuple[Any, Any]:
    """Step both backends' states with the same random legal actions until every game is over, comparing them
    after every step (and giving each numpy state before its step to ``each``); the final states."""
    env_np, env_jx = envs(v)
    rng = np.random.default_rng(rng_seed)
    same(state_np, state_jx)
    while not state_np.terminated.all():
        if each is not None:
            each(env_np, state_np)
        actions = env_np.random_actions(state_np, rng)
        state_np = env_np.step(state_np, actions)
        state_jx = env_jx.step(state_jx, actions)
        same(state_np, state_jx)
    return state_np, state_jx


def engine_rounds(env: Env, starts: list[hl.Round], state: Any) -> list[hl.Round]:
    """The rounds the ids logged in ``state`` make through ``Round.apply``, from ``starts``."""
    out = []
    for g, r in enumerate(starts):
        turns = Turns(env.encoding, r.copy())
        log = np.asarray(state.log[g])
        for k in range(int(state.log_len[g])):
            seat = turns.current()
            assert seat is not None
            turns.apply_id(seat, int(log[k]))
        out.append(turns.round)
    return out


def ends_as_the_engine(v: hl.Variant, starts: list[hl.Round], state_jx: Any) -> None:
    """Every game of the jax state is over and equals the engine's round, points and events."""
    env_jx = envs(v)[1]
    assert bool(np.asarray(state_jx.terminated).all())
    for g, want in enumerate(engine_rounds(env_jx, starts, state_jx)):
        got = env_jx.to_round(state_jx, g)
        assert got == want
        assert got.points == want.points and got.events == want.events
        assert tuple(int(x) for x in np.asarray(state_jx.points[g])) == tuple(want.points)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(v=variants(**PINS),
       games=st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 9), st.integers(0, 11)),
                      min_size=BATCH, max_size=BATCH),
       rng_seed=st.integers(0, 2**32 - 1))
def test_random_variants_step_as_numpy_and_end_as_the_engine(
    v: hl.Variant, games: list[tuple[int, int, int]], rng_seed: int
) -> None:
    """Random supported variants, each game with its own seed, dealer and place in the pass schedule, random
    legal actions: the jax state equals the numpy state after every step, and every game ends in the round,
    points and events of ``Round.apply``."""
    assume(supported(v))
    seeds = [s for s, _, _ in games]
    dealers = [d % v.players for _, d, _ in games]
    hands = [h for _, _, h in games]
    env_np, env_jx = envs(v)
    start_np = env_np.init(np.array(seeds, dtype=np.uint64), dealer=dealers, hand_number=hands)
    start_jx = env_jx.init(np.array(seeds, dtype=np.uint64), dealer=dealers, hand_number=hands)
    _, state_jx = lockstep(v, start_np, start_jx, rng_seed)
    starts = [hl.Round.deal(v, seed=s, dealer=d, hand_number=h) for s, d, h in zip(seeds, dealers, hands, strict=True)]
    ends_as_the_engine(v, starts, state_jx)


#: Q♠ the only penalty card: its taker shoots the moon every hand, and chooses (ids 55 and 56) how it scores.
CHOICE = hl.preset("standard").replace(scoring={"values": {f"{rank}H": 0 for rank in "23456789TJQKA"} | {"QS": 13}},
                                       moon={"kind": "choice"}, end={"hands": 5})


#: test_vector's LEEKHA variants played here: Leekha Aymog's pass, and the undercut with both its other readings.
JAX_LEEKHA = ("leekha_aymog", "undercut_readings")


@pytest.mark.parametrize("name", ["standard", "moon_choice", *JAX_LEEKHA])
def test_presets_step_as_numpy_and_end_as_the_engine(name: str) -> None:
    """The standard game, a moon every hand with the shooter's choice (the decision phase, its ids and both
    answers), Leekha Aymog's pass that keeps a card of each suit and the undercut with its readings (each rule
    reached: it changes some legal mask of these games), from later hands with scores (the moon rules read
    them)."""
    v = {"standard": hl.preset("standard"), "moon_choice": CHOICE}.get(name) or LEEKHA[name][0]
    env_np, env_jx = envs(v)
    starts = [hl.Round.deal(v, seed=s, hand_number=s, dealer=s % 4, scores=[10 * s, -s, 0, 130]) for s in range(BATCH)]
    count = rule_counter(name) if name in JAX_LEEKHA else None
    _, state_jx = lockstep(v, env_np.from_rounds(starts), env_jx.from_rounds(starts), 7, count)
    ends_as_the_engine(v, starts, state_jx)
    if count is not None:
        assert all(LEEKHA_COUNTS[name].values()), LEEKHA_COUNTS[name]
    if v is CHOICE:
        logged = np.asarray(state_jx.log)
        assert ((logged == 55) | (logged == 56)).any(1).all()  # every game reached the choice


def test_to_round_and_from_rounds_round_trip_in_every_phase() -> None:
    v = hl.preset("standard")
    env_np, env_jx = envs(v)
    state = env_jx.init(np.arange(BATCH))
    rng = np.random.default_rng(3)
    for moves in range(60):
        if moves in (0, 12, 13, 30):  # the pass under way, play begun, mid-trick, mid-hand
            again = env_jx.from_rounds([env_jx.to_round(state, g) for g in range(BATCH)])
            for g in range(BATCH):
                assert env_jx.to_round(again, g) == env_jx.to_round(state, g)
        state = env_jx.step(state, env_np.random_actions(state, rng))


def test_an_illegal_action_names_the_game_seat_and_card_and_changes_nothing() -> None:
    v = hl.preset("standard")
    env_jx = envs(v)[1]
    state = env_jx.init(np.arange(BATCH))
    mask = np.asarray(state.legal_action_mask)
    first_legal = mask.argmax(1)
    not_held = int(np.flatnonzero(~mask[2] & (np.arange(55) < 52))[0])
    actions = first_legal.copy()
    actions[2] = not_held
    before = {name: np.asarray(getattr(state, name)).copy() for name in ARRAYS}
    with pytest.raises(hl.IllegalAction, match=r"game 2: seat 0 may not pass " + hl.Card.from_index(not_held).code):
        env_jx.step(state, actions)
    actions[2] = 99
    with pytest.raises(hl.IllegalAction, match=r"game 2: .* action id 99"):
        env_jx.step(state, actions)
    for name in ARRAYS:
        assert np.array_equal(np.asarray(getattr(state, name)), before[name]), name
    after = env_jx.step(state, first_legal)
    assert int(np.asarray(after.log_len).sum()) == BATCH


def test_a_terminated_or_inactive_game_ignores_its_action() -> None:
    v = hl.preset("standard")
    env_np, env_jx = envs(v)
    state = env_jx.init(np.arange(BATCH))
    rng = np.random.default_rng(0)
    held = env_jx.step(state, env_np.random_actions(state, rng), active=np.array([True, False, True, False]))
    assert np.asarray(held.log_len).tolist() == [1, 0, 1, 0]
    assert np.array_equal(np.asarray(held.legal_action_mask[1]), np.asarray(state.legal_action_mask[1]))
    while not bool(np.asarray(state.terminated).all()):
        state = env_jx.step(state, env_np.random_actions(state, rng))
    after = env_jx.step(state, np.full(BATCH, 12345))
    assert np.array_equal(np.asarray(after.points), np.asarray(state.points))
    assert not np.asarray(after.rewards).any() and not np.asarray(after.legal_action_mask).any()


def test_reset_where_and_observe_a_seat_agree_with_numpy() -> None:
    v = hl.preset("standard")
    env_np, env_jx = envs(v)
    a, b = env_np.init(np.arange(BATCH)), env_jx.init(np.arange(BATCH))
    where = np.array([False, True, False, True])
    a = env_np.reset_where(a, where, [40, 41], dealer=[1, 2], hand_number=[1, 3])
    b = env_jx.reset_where(b, where, [40, 41], dealer=[1, 2], hand_number=[1, 3])
    same(a, b)
    for seat in (0, 2, np.array([3, 2, 1, 0])):
        assert np.array_equal(env_np.observe(a, seat), np.asarray(env_jx.observe(b, seat)))
    with pytest.raises(hl.IllegalAction, match=r"seat must be a seat 0\.\.3"):
        env_jx.observe(b, 4)


def test_the_step_is_one_pure_jitted_function_of_the_arrays() -> None:
    """The compiled step can be called again on the same arrays and gives the same state: it reads nothing but
    its arguments (a user may compose it under their own ``jax.jit``)."""
    v = hl.preset("standard")
    env_jx = envs(v)[1]
    state = env_jx.init(np.arange(BATCH))
    backend = env_jx._jax
    arrays = backend.arrays(state)
    actions = np.asarray(state.legal_action_mask).argmax(1).astype(np.int32)
    live = np.ones(BATCH, dtype=bool)
    once, bad = jax.jit(backend.step_fn)(arrays, actions, live)
    twice, _ = backend.step_fn(arrays, actions, live)
    assert int(bad) == -1
    for name in once:
        assert np.array_equal(np.asarray(once[name]), np.asarray(twice[name])), name
    assert np.array_equal(np.asarray(env_jx.step(state, actions).owner), np.asarray(once["owner"]))


@pytest.mark.parametrize(("v", "bold"), [(FLIP_ALONE, 0), (TWO_CANCELLERS, None), (LOT, 0),
                                         (sun_and_moon("clean_slate"), 1), (hl.preset("gong_zhu_exposed"), None),
                                         (NEW_IF_OLD_LOSES, 0), (KITTIES[0], None)],
                         ids=["flip_multiply_alone", "doublers_cancellers", "lot", "sun_and_moon", "exposures",
                              "new_if_old_loses", "kitty"])
def test_the_score_modifiers_and_moon_kinds_step_as_numpy_and_end_as_the_engine(v: hl.Variant,
                                                                                bold: int | None) -> None:
    """The modifiers, going for the lot, the moon beside the sun (test_vector_scoring's variants and steering,
    each rule reached), Gong Zhu's exposures and a kitty: the jax state equals the numpy state after every step
    and ends as the engine."""
    env_np, env_jx = envs(v)
    starts = near_target(v, BATCH) if v is NEW_IF_OLD_LOSES else deals(v, BATCH, scores=True)
    if bold == 1:  # two hands in which seat 1 takes every trick
        starts[2:] = [strong(v, s, 1, [5 * s, 0, -s, 30]) for s in range(2)]
    state_np, state_jx = env_np.from_rounds(starts), env_jx.from_rounds(starts)
    rng = np.random.default_rng(5)
    same(state_np, state_jx)
    while not state_np.terminated.all():
        actions = env_np.random_actions(state_np, rng) if bold is None else steered(env_np, state_np, rng, bold)
        state_np, state_jx = env_np.step(state_np, actions), env_jx.step(state_jx, actions)
        same(state_np, state_jx)
    ends_as_the_engine(v, starts, state_jx)
