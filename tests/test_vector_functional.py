"""heartslib.vector.functional, the pure jax core: held to the numpy backend and the engine game by game.

Each game the functional core deals on the device is given to the numpy backend (``Env.from_rounds`` of the
round ``Game.to_round`` reads from the deal) and to the engine (a ``Turns`` over that round); the three are
stepped with the same random legal ids, drawn on the device, and after every step the functional state's
arrays, legal masks and observations must equal the numpy backend's, and its masks and observations the
engine's legal ids and observation vectors; at the end ``to_round`` equals (==) the engine's round. Then
``jit``, ``vmap`` and a ``lax.scan`` rollout, autoreset, illegal actions and the random policy.
"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax", reason="the functional core's tests need the 'jax' extra (pip install -e '.[jax]')")
jnp = pytest.importorskip("jax.numpy")

import heartslib as hl  # noqa: E402
from heartslib.adapters.encoding import Turns  # noqa: E402
from heartslib.vector import Env, functional  # noqa: E402
from heartslib.vector.jaxenv import DEVICE  # noqa: E402

#: Every batch has this many games (one compiled step per variant).
BATCH = 4
#: Q♠ the only penalty card: its taker shoots the moon every hand, and chooses (ids 55 and 56) how it scores.
CHOICE = hl.preset("standard").replace(scoring={"values": {f"{rank}H": 0 for rank in "23456789TJQKA"} | {"QS": 13}},
                                       moon={"kind": "choice"}, end={"hands": 5})
# each variant compiles the core's functions anew (seconds each): one of each kind of deal and phase the core
# adds to the kernel (the device's deal and pass schedule, the moon decision, a kitty); the rules themselves are
# held to the engine by test_vector.py and, jitted, by test_vector_jax.py (exposures, Leekha Aymog's pass, the
# undercut, the score modifiers), which run the same kernel
VARIANTS = {"standard": hl.preset("standard"), "moon_choice": CHOICE, "black_maria": hl.preset("black_maria"),
            "kitty": hl.preset("standard").replace(players=5, deck={"fill": "kitty", "kitty": "one_per_trick",
                                                                    "kitty_seen_by_winner": True})}
_GAMES: dict[str, tuple[Any, Any, Any, Any]] = {}


def game_of(name: str) -> tuple[Any, Any, Any, Any]:
    """The functional core of ``VARIANTS[name]``, its jitted step and random policy, and the numpy ``Env``
    (made once per variant: the core's functions compile once)."""
    if name not in _GAMES:
        g = functional.make(VARIANTS[name])
        _GAMES[name] = (g, jax.jit(g.step), jax.jit(g.random_action), Env(VARIANTS[name]))
    return _GAMES[name]


def same_as_numpy(state: Any, state_np: Any, g: Any) -> None:
    """The functional state holds the numpy backend's arrays and observation."""
    for name in DEVICE:
        assert np.array_equal(np.asarray(getattr(state, name)), getattr(state_np, name)), name
    assert np.array_equal(np.asarray(g.observe(state)), state_np.observation)


def same_as_engine(state: Any, g: Any, turns: list[Turns]) -> None:
    """Each game's legal mask and observation are the engine's (``Turns``) legal ids and observation vector."""
    mask = np.asarray(state.legal_action_mask)
    obs = np.asarray(g.observe(state))
    for i, tn in enumerate(turns):
        seat = tn.current()
        if seat is None:
            assert not mask[i].any() and bool(state.terminated[i])
            continue
        assert np.flatnonzero(mask[i]).tolist() == sorted(tn.legal_ids(seat)), i
        assert np.array_equal(obs[i], tn.observe_array(seat)), i


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_games_equal_the_numpy_backend_and_the_engine_game_by_game(name: str) -> None:
    g, step, pick, env = game_of(name)
    n = g.num_players
    keys = jax.random.split(jax.random.PRNGKey(7), BATCH)
    # a dealer and a place in the pass schedule per game (every pass, the hold hand included), with scores
    state = g.init(keys, dealer=np.arange(BATCH) % n, hand_number=np.arange(BATCH),
                   scores=np.array([[10 * i - s for s in range(n)] for i in range(BATCH)]))
    starts = [g.to_round(state, i) for i in range(BATCH)]
    state_np = env.from_rounds(starts)
    turns = [Turns(env.encoding, r.copy()) for r in starts]
    key = jax.random.PRNGKey(0)
    while True:
        same_as_numpy(state, state_np, g)
        same_as_engine(state, g, turns)
        if bool(state.terminated.all()):
            break
        key, sub = jax.random.split(key)
        actions = np.asarray(pick(state, sub))
        for i, tn in enumerate(turns):
            seat = tn.current()
            if seat is not None:
                tn.apply_id(seat, int(actions[i]))
        state = step(state, actions)
        assert not bool(state.illegal.any())
        state_np = env.step(state_np, actions)
    for i, tn in enumerate(turns):
        assert g.to_round(state, i) == tn.round == env.to_round(state_np, i)
        assert tuple(int(x) for x in np.asarray(state.points[i])) == tn.round.points
    if name == "moon_choice":
        logged = np.asarray(state.log)
        assert ((logged == 55) | (logged == 56)).any(1).all()  # every game reached the choice


def test_init_deals_the_pack_on_the_device_from_the_keys() -> None:
    g = game_of("standard")[0]
    keys = jax.random.split(jax.random.PRNGKey(3), 64)
    state = jax.jit(g.init)(keys)
    owner = np.asarray(state.owner)
    assert ((owner[:, :52] >= 0).all() and (owner[:, 52:] == -1).all())
    for seat in range(4):
        assert ((owner == seat).sum(1) == 13).all()
    assert len({row.tobytes() for row in owner}) == 64  # 64 different deals
    assert np.array_equal(np.asarray(g.init(keys).owner), owner)  # the same keys deal the same hands
    assert np.array_equal(np.asarray(state.dealt), owner)


def test_jit_vmap_and_a_scan_rollout_agree_with_stepping_one_call_at_a_time() -> None:
    """The functions are pure: ``vmap`` over two batches gives each batch's own result, and a ``lax.scan`` of
    draw-and-step with autoreset gives what stepping from Python gives."""
    g, step, _, _ = game_of("standard")
    keys = jax.random.split(jax.random.PRNGKey(1), 2 * BATCH).reshape(2, BATCH, -1)
    both = jax.vmap(g.init)(keys)
    acts = jax.vmap(g.random_action)(both, jax.random.split(jax.random.PRNGKey(2), 2))
    stepped = jax.jit(jax.vmap(g.step))(both, acts)
    for b in range(2):
        alone = step(g.init(keys[b]), acts[b])
        for name, value in alone._asdict().items():
            assert np.array_equal(np.asarray(getattr(stepped, name)[b]), np.asarray(value)), name

    def one(state: Any, key: Any) -> tuple[Any, Any]:
        k_act, k_deal = jax.random.split(key)
        state = g.step(state, g.random_action(state, k_act), k_deal)
        return state, state.rewards

    start = g.init(keys[0])
    steps = jax.random.split(jax.random.PRNGKey(5), 150)  # past the end of the first hands: autoresets happen
    final, rewards = jax.jit(lambda s, k: jax.lax.scan(one, s, k))(start, steps)
    state = start
    one_step = jax.jit(one)
    for k in steps:
        state = one_step(state, k)[0]
    for name, value in final._asdict().items():
        assert np.array_equal(np.asarray(value), np.asarray(getattr(state, name))), name
    # each hand pays its rewards on one step, and the next hand is dealt on the step after
    paid = (np.asarray(rewards) != 0).any(2).sum(0)
    assert (np.asarray(final.hand_number) >= 2).all() and np.array_equal(paid, np.asarray(final.hand_number))


def test_autoreset_deals_the_next_hand_of_each_finished_game_only() -> None:
    g, step, pick, _ = game_of("standard")
    state = g.init(jax.random.split(jax.random.PRNGKey(4), BATCH), dealer=3, scores=np.array([5, 0, 0, 0]))
    key = jax.random.PRNGKey(0)
    while not bool(state.terminated.all()):
        key, sub = jax.random.split(key)
        state = step(state, pick(state, sub))
    half = state._replace(terminated=state.terminated.at[1].set(False))  # game 1 stays as it is (over, unmoved)
    after = step(half, np.zeros(BATCH, np.int32), jax.random.PRNGKey(9))
    fresh = [0, 2, 3]
    assert np.asarray(after.terminated).tolist() == [False, False, False, False]
    assert np.asarray(after.log_len)[fresh].tolist() == [0, 0, 0]
    assert np.asarray(after.dealer)[fresh].tolist() == [0, 0, 0]  # one seat on from dealer 3
    assert np.asarray(after.hand_number)[fresh].tolist() == [1, 1, 1]  # the next pass of the schedule
    assert (np.asarray(after.scores) == [5, 0, 0, 0]).all()
    assert not np.asarray(after.rewards).any()
    assert np.array_equal(np.asarray(after.owner[1]), np.asarray(state.owner[1]))
    assert (np.asarray(after.hand_count)[fresh] == 13).all()
    start = g.to_round(after, 0)
    assert start.phase is hl.Phase.PASS and start.dealer == 0


def test_an_illegal_action_leaves_its_game_as_it_was_and_is_flagged() -> None:
    g, step, pick, _ = game_of("standard")
    state = g.init(jax.random.split(jax.random.PRNGKey(6), BATCH))
    actions = np.asarray(pick(state, jax.random.PRNGKey(1))).copy()
    mask = np.asarray(state.legal_action_mask)
    actions[1] = int(np.flatnonzero(~mask[1])[0])  # a card seat 0 does not hold
    actions[2] = 99  # no such id
    after = step(state, actions)
    assert np.asarray(after.illegal).tolist() == [False, True, True, False]
    assert np.asarray(after.log_len).tolist() == [1, 0, 0, 1]
    for name in DEVICE:
        for i in (1, 2):
            assert np.array_equal(np.asarray(getattr(after, name)[i]), np.asarray(getattr(state, name)[i])), name
    assert not bool(step(after, pick(after, jax.random.PRNGKey(2))).illegal.any())


def test_the_random_action_is_legal_and_uniform_over_the_legal_ids() -> None:
    g, _, pick, _ = game_of("standard")
    state = g.init(jax.random.split(jax.random.PRNGKey(8), 4096))
    mask = np.asarray(state.legal_action_mask)
    counts = np.zeros(55)
    draws = 20
    for k in range(draws):
        a = np.asarray(pick(state, jax.random.PRNGKey(k)))
        assert mask[np.arange(4096), a].all()
        np.add.at(counts, a, 1)
    # every game of the deal holds 13 of the 52 cards: each card is drawn where held, 1/13 of the time
    expected = mask.sum(0) * draws / 13
    assert (np.abs(counts - expected) < 6 * np.sqrt(expected) + 1).all()
    none = state._replace(legal_action_mask=jnp.zeros_like(state.legal_action_mask))
    assert not np.asarray(pick(none, jax.random.PRNGKey(0))).any()


def test_observe_a_seat_and_the_mask_function_match_the_environment() -> None:
    g, _, _, env = game_of("standard")
    state = g.init(jax.random.split(jax.random.PRNGKey(2), BATCH))
    state_np = env.from_rounds([g.to_round(state, i) for i in range(BATCH)])
    for seat in (0, 3, np.array([3, 2, 1, 0])):
        assert np.array_equal(np.asarray(jax.jit(g.observe)(state, seat)), env.observe(state_np, seat))
    assert np.array_equal(np.asarray(g.legal_action_mask(state)), state_np.legal_action_mask)
    assert state.current_player is state.turn


def test_bad_variants_and_game_indices_are_refused() -> None:
    with pytest.raises(hl.VariantError, match=r"play\.booster_nines"):
        functional.make(hl.preset("standard").replace(play={"booster_nines": True}))
    g = game_of("standard")[0]
    state = g.init(jax.random.split(jax.random.PRNGKey(0), BATCH))
    for bad in (BATCH, -1, True, 1.5, "1"):
        with pytest.raises(hl.IllegalAction, match=r"a game is a whole number 0\.\.3"):
            g.to_round(state, bad)


def test_bad_arguments_are_refused_naming_them_before_any_work() -> None:
    """A dealer 7 of 4 seats was dealt by a clamped table row, a seat 4 observed as a clamped one, a scalar
    action broadcast to every game, an action list of the wrong length failed inside jax with an error naming
    none of them."""
    g, step, _, _ = game_of("standard")
    keys = jax.random.split(jax.random.PRNGKey(0), BATCH)
    state = g.init(keys)
    for kwargs, pattern in (({"dealer": 7}, r"dealer must lie within 0\.\.3"),
                            ({"dealer": [0, 1]}, r"dealer must be whole numbers of shape \(4,\)"),
                            ({"dealer": True}, r"dealer must be whole numbers"),
                            ({"hand_number": -1}, r"hand_number must lie within"),
                            ({"scores": np.zeros((BATCH, 3), int)}, r"scores must be whole numbers of shape \(4, 4\)"),
                            ({"scores": [0, 0, 0, 2**40]}, r"scores must lie within")):
        with pytest.raises(hl.IllegalAction, match=pattern):
            g.init(keys, **kwargs)
    with pytest.raises(hl.IllegalAction, match=r"keys are one PRNG key per game"):
        g.init(jax.random.split(jax.random.PRNGKey(0), 0))
    with pytest.raises(hl.IllegalAction, match=r"seat must lie within 0\.\.3"):
        g.observe(state, 4)
    for bad in (3, [0, 1, 2], np.zeros(BATCH, float)):
        with pytest.raises(hl.IllegalAction, match=r"action must be whole numbers of shape \(4,\), not"):
            step(state, bad)
