"""heartslib.vector held to the core's standard (issue 51, items 2-4 and the import hint; issue 53's fit):
bad arguments are ``IllegalAction('bad_argument')`` (or ``no_such_seat``) and change nothing; an opponent
agent that fails rolls the Gymnasium environment back; every environment and state round-trips ``copy``,
``deepcopy`` and ``pickle`` and plays on exactly as the original; a missing extra names itself."""

from __future__ import annotations

import copy
import math
import pickle
import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import heartslib as hl  # noqa: E402
from heartslib.vector import Env, State  # noqa: E402
from heartslib.vector.kernel import ARRAYS  # noqa: E402

STANDARD = hl.preset("standard")


def arrays_of(state: State) -> dict[str, Any]:
    """A copy of every array of ``state`` (to show a refused call changed nothing)."""
    return {name: np.array(getattr(state, name), copy=True) for name in ARRAYS}


def same_arrays(state: State, before: dict[str, Any]) -> bool:
    return all(np.array_equal(np.asarray(getattr(state, name)), before[name]) for name in ARRAYS)


def refused(call: Callable[[], object], code: str = "bad_argument") -> hl.IllegalAction:
    """``call()`` raises IllegalAction with ``code`` (never a bare built-in error); the error."""
    with pytest.raises(hl.IllegalAction) as info:
        call()
    assert info.value.code == code, info.value
    return info.value


# ---------------------------------------------------------------------- 51.2: Env refuses bad input


@pytest.mark.parametrize("other", ["black_maria", "spot_hearts"])
def test_a_state_of_another_variant_is_refused_by_every_method(other: str) -> None:
    """A Black Maria state stepped in a standard environment failed steps later with an IndexError; a
    spot_hearts one played to the end under its scoring and then could not become a Round."""
    env = Env(STANDARD)
    foreign = Env(hl.preset(other)).init([1, 2])
    before = arrays_of(foreign)
    rng = np.random.default_rng(0)
    actions = Env(hl.preset(other)).random_actions(foreign, rng)
    for call in (lambda: env.step(foreign, actions), lambda: env.observe(foreign), lambda: env.observe(foreign, 0),
                 lambda: env.to_round(foreign, 0), lambda: env.to_turns(foreign, 1),
                 lambda: env.random_actions(foreign, rng),
                 lambda: env.reset_where(foreign, np.array([True, False]), [3])):
        err = refused(call)
        assert "variant" in str(err)
    assert same_arrays(foreign, before)


def test_a_state_of_an_equal_environment_is_accepted() -> None:
    """The check is on the rules, not the object: another Env of the same variant steps the state."""
    state = Env(STANDARD).init([1, 2])
    other = Env(hl.preset("standard"))
    stepped = other.step(state, other.random_actions(state, np.random.default_rng(0)))
    assert int(stepped.log_len[0]) == 1


def test_reset_where_refuses_an_index_list_for_a_mask() -> None:
    """``where=[1]`` (an index list) was read as a mask and reset game 0."""
    env = Env(STANDARD)
    state = env.init([1, 2, 3])
    before = arrays_of(state)
    err = refused(lambda: env.reset_where(state, [1], [9]))
    assert "3 booleans" in str(err)
    refused(lambda: env.reset_where(state, np.array([0, 1, 0]), [9]))
    refused(lambda: env.reset_where(state, np.array([True, False]), [9]))  # not the batch size
    refused(lambda: env.reset_where(state, None, [9]))
    assert same_arrays(state, before)
    fresh = env.reset_where(state, [False, True, False], [9])  # a boolean list is a mask
    assert int(fresh.seed[1]) == 9 and int(fresh.seed[0]) == 1


@pytest.mark.parametrize("hand_number", [2**64 - 1, np.uint64(2**64 - 1), 10**9 + 1, -1, True, 1.0, "1", None,
                                         [0, 2**63]])
def test_init_refuses_hand_numbers_round_deal_refuses(hand_number: Any) -> None:
    """``init(hand_number=2**64 - 1)`` was stored as -1; every hand number Round.deal refuses is refused."""
    env = Env(STANDARD)
    refused(lambda: env.init([1, 2], hand_number=hand_number))
    # (the compiled build takes a bool for an int argument of Round.deal: docs/performance.md)
    if not isinstance(hand_number, list) and not (hl.COMPILED and hand_number is True):
        with pytest.raises((hl.IllegalAction, TypeError)):
            hl.Round.deal(STANDARD, seed=1, hand_number=hand_number)


def test_init_takes_the_hand_numbers_and_dealers_round_deal_takes() -> None:
    env = Env(STANDARD)
    state = env.init([1, 2], hand_number=np.array([0, 10**9], dtype=np.uint64), dealer=np.int8(3))
    assert env.to_round(state, 1) == hl.Round.deal(STANDARD, seed=2, hand_number=10**9, dealer=3)
    for dealer in (4, -1, True, 1.5, [0, 1, 2]):
        with pytest.raises(hl.IllegalAction):
            env.init([1, 2], dealer=dealer)


@pytest.mark.parametrize("seeds", [None, math.nan, math.inf, 2.0, "7", b"7", 7, [[1, 2]], np.zeros((2, 2), dtype=int),
                                   [1.5], [2.0], ["7"], [True], [-1], [2**64], [None], [math.nan], {"a": 1}, object()],
                         ids=lambda x: "object()" if type(x) is object else repr(x))  # xdist: the same ids in workers
def test_init_refuses_seeds_that_are_not_whole_numbers(seeds: Any) -> None:
    """None, nan and inf gave bare TypeError/ValueError/OverflowError; 2.0, '7' and 2-D arrays were taken."""
    err = refused(lambda: Env(STANDARD).init(seeds))
    assert "seed" in str(err)


@pytest.mark.parametrize("seeds", [[0, 2**64 - 1], np.arange(3), np.array([5], dtype=np.uint64), range(2),
                                   (4, 5), list(np.arange(2)), []], ids=repr)
def test_init_takes_any_sequence_of_whole_seeds(seeds: Any) -> None:
    env = Env(STANDARD)
    state = env.init(seeds)
    wanted = [int(s) for s in seeds]
    assert state.seed.tolist() == wanted
    if wanted:
        assert env.to_round(state, len(wanted) - 1) == hl.Round.deal(STANDARD, seed=wanted[-1])


@pytest.mark.parametrize("game", [1.7, "1", True, np.True_, None, -1, 3, 2**70])
def test_to_round_refuses_a_game_that_is_not_a_game_index(game: Any) -> None:
    """``to_round(state, 1.7 | '1' | True)`` was game 1."""
    env = Env(STANDARD)
    state = env.init([1, 2, 3])
    refused(lambda: env.to_round(state, game))
    refused(lambda: env.to_turns(state, game))


def test_to_round_takes_a_numpy_integer() -> None:
    env = Env(STANDARD)
    state = env.init([1, 2, 3])
    assert env.to_round(state, np.int64(2)) == hl.Round.deal(STANDARD, seed=3)


def test_no_method_gives_a_bare_built_in_error() -> None:
    """``observe``, ``from_rounds(None)``, ``step(None, ...)`` raised AttributeError/TypeError/ValueError."""
    env = Env(STANDARD)
    state = env.init([1, 2, 3])
    before = arrays_of(state)
    rng = np.random.default_rng(0)
    for call in (lambda: env.observe(None), lambda: env.observe(state, [0, 1]), lambda: env.from_rounds(None),
                 lambda: env.from_rounds(5), lambda: env.from_rounds("ab"), lambda: env.from_rounds([None]),
                 lambda: env.step(None, [0]), lambda: env.step(state, None), lambda: env.step(state, [0, 0, 0],
                                                                                           active=[1, 0, 1]),
                 lambda: env.random_actions(state, None), lambda: env.random_actions(state, 7),
                 lambda: env.random_actions(None, rng), lambda: env.reset_where(None, [True], [1]),
                 lambda: env.to_round(None, 0), lambda: env.to_turns([], 0), lambda: Env(STANDARD, backend=None),
                 lambda: Env(STANDARD, backend="torch")):
        refused(call)
    for seat in (1.0, True, [0, 1, 4], "0"):
        refused(lambda seat=seat: env.observe(state, seat), "no_such_seat")
    assert same_arrays(state, before)


def test_an_unknown_backend_is_a_value_error_naming_those_there_are() -> None:
    with pytest.raises(ValueError, match="'numpy' and 'jax'"):
        Env(STANDARD, backend="torch")


# ---------------------------------------------------------------------- 51.3: LearnerEnv rolls back on any error


class FirstLegal:
    """A deterministic player: the first legal action (the same play however often it is asked)."""

    def setup(self, variant: hl.Variant, seat: int) -> None:
        pass

    def act(self, observation: hl.Observation, legal_actions: Any) -> Any:
        return legal_actions[0]


class Breaks(FirstLegal):
    """:class:`FirstLegal` that, once armed, raises RuntimeError at its next play (an agent's own bug)."""

    armed = False

    def act(self, observation: hl.Observation, legal_actions: Any) -> Any:
        if self.armed and observation.phase == hl.Phase.PLAY:
            self.armed = False
            raise RuntimeError("the agent's own bug")
        return super().act(observation, legal_actions)


def first_ids(obs: dict[str, Any]) -> Any:
    """The first legal id of each game (0 where none is)."""
    return np.argmax(obs["action_mask"], axis=1)


def test_an_opponent_agents_runtime_error_rolls_the_learner_env_back() -> None:
    """An agent raising anything but IllegalAction left the learner's action recorded in the mirrors, so the
    environment fell out of step for good; now the call changes nothing and the environment plays on exactly as
    one that never failed."""
    pytest.importorskip("gymnasium.vector")
    from heartslib.vector.gym import LearnerEnv

    breaks = Breaks()
    failing = LearnerEnv("standard", num_envs=3, opponents=[breaks, FirstLegal(), FirstLegal()], hand_number=0)
    clean = LearnerEnv("standard", num_envs=3, opponents=[FirstLegal(), FirstLegal(), FirstLegal()], hand_number=0)
    obs, _ = failing.reset(seed=4)
    want, _ = clean.reset(seed=4)
    for step in range(40):  # past the pass, then past the end of the hands (every hand is dealt anew)
        if step == 5:
            breaks.armed = True
            state, bits = failing.state, failing.np_random.bit_generator.state
            with pytest.raises(RuntimeError, match="own bug"):
                failing.step(first_ids(obs))
            assert failing.state is state and failing.np_random.bit_generator.state == bits
        obs, reward, term, _, _ = failing.step(first_ids(obs))
        want, want_reward, want_term, _, _ = clean.step(first_ids(want))
        assert np.array_equal(obs["observation"], want["observation"]), step
        assert np.array_equal(reward, want_reward) and np.array_equal(term, want_term)
    assert all(failing.env.to_round(failing.state, g) == clean.env.to_round(clean.state, g) for g in range(3))


# ---------------------------------------------------------------------- 51.4: copy, deepcopy and pickle

COPIES: dict[str, Callable[[Any], Any]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda obj: pickle.loads(pickle.dumps(obj)),
}


@pytest.mark.parametrize("how", list(COPIES))
def test_an_env_and_its_state_round_trip_and_play_on_as_the_original(how: str) -> None:
    """``kernel.Tables.xp`` held the numpy module, so neither an Env nor a State could be pickled or deep-copied
    (a batch could not be checkpointed, sent to a worker or snapshotted)."""
    env = Env(hl.preset("standard").replace(moon={"kind": "choice"}))
    rng = np.random.default_rng(3)
    state = env.init(np.arange(4), hand_number=[0, 1, 2, 3])
    for _ in range(20):
        state = env.step(state, env.random_actions(state, rng))
    twin_env, twin = COPIES[how](env), COPIES[how](state)
    assert same_arrays(twin, arrays_of(state))
    assert twin_env.num_actions == env.num_actions and twin_env.variant == env.variant
    for _ in range(80):  # to the end of every hand
        actions = env.random_actions(state, rng)
        state, twin = env.step(state, actions), twin_env.step(twin, actions)
        assert same_arrays(twin, arrays_of(state))
        assert np.array_equal(twin.observation, state.observation)
    assert state.terminated.all()
    assert all(twin_env.to_round(twin, g) == env.to_round(state, g) for g in range(4))


def test_a_state_from_rounds_round_trips_with_its_rounds() -> None:
    env = Env(STANDARD)
    state = env.from_rounds([hl.Round.deal(STANDARD, seed=s, hand_number=s) for s in range(3)])
    twin = pickle.loads(pickle.dumps(state))
    assert all(env.to_round(twin, g) == env.to_round(state, g) for g in range(3))


def test_a_jax_env_round_trips_and_steps_as_the_original() -> None:
    pytest.importorskip("jax")
    env = Env(STANDARD, backend="jax")
    state = env.init(np.arange(3))
    twin_env, twin = pickle.loads(pickle.dumps(env)), pickle.loads(pickle.dumps(state))
    assert twin_env.backend == "jax"
    rng = np.random.default_rng(0)
    for _ in range(3):
        actions = env.random_actions(state, rng)
        state, twin = env.step(state, actions), twin_env.step(twin, actions)
        assert same_arrays(twin, arrays_of(state))


def play_learner(envs: Any, obs: dict[str, Any], steps: int) -> list[Any]:
    out = []
    for _ in range(steps):
        obs, reward, term, _, _ = envs.step(first_ids(obs))
        out += [obs["observation"], obs["action_mask"], reward, term]
    return out


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("opponents", ["random", "agents"])
def test_a_learner_env_round_trips_and_steps_exactly_as_the_original(how: str, opponents: str) -> None:
    pytest.importorskip("gymnasium.vector")
    from heartslib.vector.gym import LearnerEnv

    others: Any = "random" if opponents == "random" else [FirstLegal(), FirstLegal(), FirstLegal()]
    envs = LearnerEnv("standard", num_envs=3, opponents=others)
    obs, _ = envs.reset(seed=7)
    obs, *_ = envs.step(first_ids(obs))
    twin = COPIES[how](envs)
    got, want = play_learner(twin, obs, 30), play_learner(envs, obs, 30)
    assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))


@pytest.mark.parametrize("how", list(COPIES))
def test_a_selfplay_env_round_trips_and_steps_exactly_as_the_original(how: str) -> None:
    pytest.importorskip("gymnasium.vector")
    from heartslib.vector.selfplay import SelfPlayEnv

    env = SelfPlayEnv("standard", num_envs=3)
    obs, _ = env.reset(seed=7)
    twin = COPIES[how](env)

    def play(e: Any, obs: dict[str, Any]) -> list[Any]:
        out = []
        for _ in range(70):
            actions = {a: np.argmax(obs[a]["action_mask"], axis=1) for a in e.possible_agents}
            obs, rewards, terms, _, _ = e.step({a: actions[a] for a in e.agents})
            out += [obs[a]["observation"] for a in obs] + [rewards[a] for a in rewards] + [terms[a] for a in terms]
        return out

    got, want = play(twin, obs), play(env, obs)
    assert len(got) == len(want) and all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))


# ---------------------------------------------------------------------- 51: the install hint


def without(module: str, code: str) -> str:
    """Run ``code`` in a fresh interpreter in which ``module`` cannot be imported; its output."""
    hide = f"import sys\nsys.modules[{module!r}] = None\n"
    done = subprocess.run([sys.executable, "-c", hide + code], capture_output=True, text=True, timeout=120,
                          check=False)
    return done.stdout + done.stderr


@pytest.mark.parametrize("module", ["heartslib.vector", "heartslib.vector.gym", "heartslib.vector.selfplay"])
def test_importing_the_vector_package_without_numpy_names_the_extra(module: str) -> None:
    """A bare ``ModuleNotFoundError: No module named 'numpy'`` before."""
    out = without("numpy", f"try:\n    import {module}\nexcept ModuleNotFoundError as exc:\n"
                           "    print(type(exc).__name__, exc.name, '|', exc)\n")
    assert out.startswith("ModuleNotFoundError numpy |"), out
    assert "pip install 'heartslib[vector]'" in out and "'gymnasium' extra" in out, out
    assert "Traceback" not in out


def test_the_adapters_without_gymnasium_name_the_extra() -> None:
    """As the PettingZoo and OpenSpiel adapters: the module imports (docs, doctest collection), using it names
    the extra."""
    out = without("gymnasium", "from heartslib.vector.gym import LearnerEnv\n"
                               "from heartslib.vector.selfplay import SelfPlayEnv\n"
                               "for make in (LearnerEnv, SelfPlayEnv):\n"
                               "    try:\n        make('standard')\n"
                               "    except ImportError as exc:\n        print(exc)\n")
    assert out.count("pip install 'heartslib[gymnasium]'") == 2, out


# ---------------------------------------------------------------------- 53: fit with the ecosystem


def test_the_selfplay_env_passes_pettingzoos_parallel_api_test() -> None:
    """It had no ``unwrapped``; PettingZoo's test reads each termination as one bool, so it runs one game a
    batch, to the end of the hand (every agent leaves ``agents``) twice."""
    pytest.importorskip("gymnasium.vector")
    parallel_test = pytest.importorskip("pettingzoo.test")
    from heartslib.vector.selfplay import SelfPlayEnv

    env = SelfPlayEnv("standard", num_envs=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # its warnings (an agent given a value after it was done, ...) too
        parallel_test.parallel_api_test(env, num_cycles=1000)
    assert env.unwrapped is env and env.agents == []


def test_selfplay_agents_leave_when_every_game_is_over_and_come_back_with_new_hands() -> None:
    pytest.importorskip("gymnasium.vector")
    from heartslib.vector.selfplay import SelfPlayEnv

    env = SelfPlayEnv("standard", num_envs=2, hand_number=0)  # every hand passes: all end on the same step
    obs, _ = env.reset(seed=1)
    for _ in range(64):
        assert env.agents == env.possible_agents
        obs, rewards, terms, _, _ = env.step({a: np.argmax(obs[a]["action_mask"], axis=1) for a in env.agents})
    assert all(terms[a].all() for a in terms) and set(rewards) == set(env.possible_agents)
    assert env.agents == []
    state = env.state
    with pytest.raises(hl.IllegalAction, match="player_9"):
        env.step({"player_9": np.zeros(2, dtype=np.int64)})
    assert env.state is state and env.agents == []
    obs, rewards, terms, _, _ = env.step({})  # the step that deals new hands reads no action
    assert env.agents == env.possible_agents and set(obs) == set(env.possible_agents)
    assert not any(terms[a].any() for a in terms) and not any(rewards[a].any() for a in rewards)


def test_the_batched_action_space_samples_with_an_observations_mask() -> None:
    """``action_space(agent).sample(mask=obs[agent]["action_mask"])``: gymnasium's MultiDiscrete wanted a tuple."""
    pytest.importorskip("gymnasium.vector")
    from heartslib.vector.gym import LearnerEnv
    from heartslib.vector.selfplay import SelfPlayEnv

    env = SelfPlayEnv("standard", num_envs=3)
    obs, _ = env.reset(seed=2)
    for agent in env.agents:
        mask = obs[agent]["action_mask"]
        picked = env.action_space(agent).sample(mask=mask)
        acting = mask.any(1)
        assert picked.shape == (3,) and all(mask[g, picked[g]] for g in np.flatnonzero(acting))
        assert (picked[~acting] == 0).all()
    envs = LearnerEnv("standard", num_envs=3)
    obs, _ = envs.reset(seed=2)
    picked = envs.action_space.sample(mask=obs["action_mask"])
    assert all(obs["action_mask"][g, picked[g]] for g in range(3))


def test_env_takes_preset_names_as_the_adapters_do() -> None:
    """``Env("standard")`` was refused where the adapters take a preset name."""
    assert Env("standard").variant == STANDARD
    assert Env("black_lady").variant == hl.preset("black_lady")
    with pytest.raises(hl.UnknownVariant) as ours:
        Env("standrd")
    pytest.importorskip("pettingzoo")
    from heartslib.adapters.pettingzoo import raw_env

    with pytest.raises(hl.UnknownVariant) as theirs:
        raw_env("standrd")
    assert str(ours.value) == str(theirs.value) and ours.value.close == ("standard",)
    with pytest.raises(hl.VariantError):
        Env(5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- 53: end.round_bonuses, a match's rule

BONUSES = hl.preset("standard").replace(end={"round_bonuses": {"50": -50, "100": -50, "150": -25}})


def test_round_bonuses_are_played_and_each_hand_is_the_engines() -> None:
    """``end.round_bonuses`` (a total landing on a listed score gets a bonus) is a match's rule that a hand never
    reads, as ``end.exact_fifty`` is, yet the allow-list refused it though docs/vector.md says every match-level
    rule is played. Hands with totals one hand short of the listed scores play as the engine's (every legal
    mask, observation and reward, and the round at the end), and as the same rules without the bonuses."""
    from heartslib.adapters.encoding import Turns

    env, plain = Env(BONUSES), Env(STANDARD)
    scores = [(45, 95, 140, 0), (49, 99, 149, 10), (30, 74, 125, 26)]
    rounds = [hl.Round.deal(BONUSES, seed=s, hand_number=s, dealer=s % 4, scores=sc) for s, sc in enumerate(scores)]
    state = env.from_rounds(rounds)
    twin = plain.from_rounds([hl.Round.deal(STANDARD, seed=s, hand_number=s, dealer=s % 4, scores=sc)
                              for s, sc in enumerate(scores)])
    turns = [Turns(env.encoding, r.copy()) for r in rounds]
    rng = np.random.default_rng(5)
    while not state.terminated.all():
        actions = env.random_actions(state, rng)
        for g, t in enumerate(turns):
            seat = t.current()
            if seat is not None:
                t.apply_id(seat, int(actions[g]))
        ended = ~state.terminated
        state, twin = env.step(state, actions), plain.step(twin, actions)
        ended &= state.terminated
        assert same_arrays(twin, arrays_of(state))
        for g, t in enumerate(turns):
            seat = t.current()
            assert int(state.current_player[g]) == (-1 if seat is None else seat)
            if seat is not None:
                assert list(np.flatnonzero(state.legal_action_mask[g])) == t.legal_ids(seat)
                assert np.array_equal(state.observation[g], np.array(t.observe(seat), dtype=np.float32))
            if ended[g]:
                assert tuple(state.rewards[g]) == env.encoding.rewards(t.round.scores, t.round.points)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round and tuple(int(x) for x in state.points[g]) == t.round.points


def test_a_pickled_state_leaves_its_observation_out() -> None:
    """The observation, built on first access, is (N, D) float32 (2,824 bytes a game against the state's 588):
    a checkpoint carries the arrays, and the copy builds it again, equal."""
    env = Env(STANDARD)
    state = env.init(np.arange(64))
    blob = len(pickle.dumps(state))
    observed = state.observation.copy()
    assert len(pickle.dumps(state)) < blob + 1000
    assert np.array_equal(pickle.loads(pickle.dumps(state)).observation, observed)


def test_random_actions_read_a_state_of_either_backend_and_step_only_their_own() -> None:
    pytest.importorskip("jax")
    env_np, env_jx = Env(STANDARD), Env(STANDARD, backend="jax")
    state_jx = env_jx.init(np.arange(3))
    actions = env_np.random_actions(state_jx, np.random.default_rng(0))  # it only reads the legal masks
    assert all(np.asarray(state_jx.legal_action_mask)[g, actions[g]] for g in range(3))
    err = refused(lambda: env_np.step(state_jx, actions))
    assert "backend (numpy)" in str(err) and "jax backend" in str(err)
    refused(lambda: env_jx.observe(env_np.init([1])))


@pytest.mark.parametrize("make", ["LearnerEnv", "SelfPlayEnv"])
def test_the_adapters_refuse_a_hand_number_round_deal_refuses_when_built(make: str) -> None:
    """``hand_number=10**9 + 1`` was taken by the constructor, and its first reset failed (2**64 - 1: a bare
    OverflowError); the engine's own checks now refuse it at once."""
    pytest.importorskip("gymnasium.vector")
    from heartslib.vector import gym, selfplay

    cls = gym.LearnerEnv if make == "LearnerEnv" else selfplay.SelfPlayEnv
    for hand_number in (10**9 + 1, 2**64 - 1, -1, True):
        refused(lambda hand_number=hand_number: cls("standard", num_envs=2, hand_number=hand_number))
    for dealer in (4, -1, True, 1.0):
        refused(lambda dealer=dealer: cls("standard", num_envs=2, dealer=dealer), "no_such_seat")
    assert cls("standard", num_envs=2, hand_number=10**9, dealer=3).reset(seed=0)


@pytest.mark.parametrize("make", ["LearnerEnv", "SelfPlayEnv"])
def test_the_adapters_reset_refuses_a_seed_round_deal_refuses_and_changes_nothing(make: str) -> None:
    """``reset(seed=-1 | 'x' | 1.5)`` raised gymnasium's or numpy's own errors (TypeError, ValueError), and
    ``True`` was seed 1."""
    pytest.importorskip("gymnasium.vector")
    from heartslib.vector import gym, selfplay

    env = (gym.LearnerEnv if make == "LearnerEnv" else selfplay.SelfPlayEnv)("standard", num_envs=2)
    env.reset(seed=3)
    state = env.state
    for seed in (-1, "x", 1.5, True, 2**64, [1]):
        refused(lambda seed=seed: env.reset(seed=seed))
        assert env.state is state
    env.reset(seed=2**64 - 1)
