"""The adapters on top of heartslib.vector: the Gymnasium vector environment (one learner seat) and the
PettingZoo-style self-play batch wrapper, each held to the engine through mirrored Rounds; and the Env hooks
they stand on (any seat's observation, stepping some games only, replacing finished games)."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium.vector", reason="the adapters need gymnasium 1.x (the 'gymnasium' extra)")

from gymnasium.utils.passive_env_checker import check_obs  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

import heartslib as hl  # noqa: E402
from heartslib.adapters.encoding import Turns  # noqa: E402
from heartslib.agents import HeuristicAgent, RandomAgent  # noqa: E402
from heartslib.vector import Env  # noqa: E402
from heartslib.vector.gym import LearnerEnv  # noqa: E402
from heartslib.vector.selfplay import SelfPlayEnv  # noqa: E402

THREE = hl.preset("standard").replace(players=3, passing={"schedule": ["scatter", "left", "hold"]})


def random_ids(mask: Any, rng: Any) -> Any:
    """A random legal id per row of an (N, A) mask (0 for a row without one)."""
    m = np.asarray(mask).astype(bool)
    return np.argmax(np.where(m, rng.random(m.shape), -1.0), axis=1)


# ---------------------------------------------------------------------- the Env hooks


@pytest.mark.parametrize("variant", [hl.preset("standard"), THREE], ids=["standard", "three"])
def test_any_seats_observation_is_the_engines(variant: hl.Variant) -> None:
    """Env.observe(state, seat) is Turns.observe(seat) for every seat, acting or not, at every step."""
    env = Env(variant)
    seeds = [5, 6, 7]
    state = env.init(seeds)
    turns = [Turns(env.encoding, hl.Round.deal(variant, seed=s)) for s in seeds]
    rng = np.random.default_rng(1)
    while True:
        for seat in range(variant.players):
            obs = env.observe(state, seat)
            for g, t in enumerate(turns):
                assert np.array_equal(obs[g], np.array(t.observe(seat), dtype=np.float32)), (g, seat)
        if state.terminated.all():
            break
        actions = env.random_actions(state, rng)
        for g, t in enumerate(turns):
            if state.current_player[g] >= 0:
                t.apply_id(int(state.current_player[g]), int(actions[g]))
        state = env.step(state, actions)
    with pytest.raises(hl.IllegalAction, match=r"seat must be a seat 0\.\.3"):
        Env(hl.preset("standard")).observe(Env(hl.preset("standard")).init([1]), 4)


def test_step_with_active_moves_only_those_games() -> None:
    env = Env(hl.preset("standard"))
    state = env.init([1, 2, 3])
    actions = env.random_actions(state, np.random.default_rng(0))
    active = np.array([True, False, True])
    after = env.step(state, np.where(active, actions, 999), active=active)  # the idle game's id is not read
    assert np.array_equal(after.owner[1], state.owner[1]) and after.log_len[1] == 0
    assert after.log_len[0] == after.log_len[2] == 1
    with pytest.raises(hl.IllegalAction, match="active must be 3 booleans"):
        env.step(state, actions, active=[1, 0, 1])


def test_reset_where_deals_new_hands_in_those_games_only() -> None:
    env = Env(hl.preset("standard"))
    rng = np.random.default_rng(2)
    state = env.init([1, 2, 3])
    for _ in range(10):
        state = env.step(state, env.random_actions(state, rng))
    where = np.array([False, True, False])
    after = env.reset_where(state, where, [42])
    fresh = env.init([42])
    assert env.to_round(after, 1) == env.to_round(fresh, 0) == hl.Round.deal(hl.preset("standard"), seed=42)
    assert env.to_round(after, 0) == env.to_round(state, 0) and after.log_len[0] == 10
    assert np.array_equal(after.legal_action_mask[1], fresh.legal_action_mask[0])
    with pytest.raises(hl.IllegalAction, match="1 seeds are needed, not 2"):
        env.reset_where(state, where, [4, 5])
    assert state.log_len[1] == 10  # unchanged


# ---------------------------------------------------------------------- the Gymnasium vector environment


def check_learner_against_mirrors(envs: LearnerEnv, obs: dict[str, Any]) -> None:
    """Every live game's observation and mask are the learner's in the agents' mirrored Round."""
    assert envs._agents is not None
    for g, t in enumerate(envs._agents.games):
        if t.current() is None:
            assert not obs["action_mask"][g].any()
            continue
        assert t.current() == envs.seat
        assert np.array_equal(obs["observation"][g], np.array(t.observe(envs.seat), dtype=np.float32))
        assert list(np.flatnonzero(obs["action_mask"][g])) == t.legal_ids(envs.seat)


@pytest.mark.parametrize("seat", [0, 2])
def test_learner_env_against_agents_plays_as_the_engine(seat: int) -> None:
    """Against built-in agents, each step's observation and mask are the learner's in a Round played by the
    same actions, the rewards add up to the hand's, and a finished game starts a new hand on the next step."""
    agents = [HeuristicAgent(1), RandomAgent(2), HeuristicAgent(3)]
    envs = LearnerEnv("standard", num_envs=4, seat=seat, opponents=agents)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=11)
    check_obs(obs, envs.observation_space, "reset")
    check_learner_against_mirrors(envs, obs)
    rng = np.random.default_rng(3)
    total = np.zeros(4)
    ended = np.zeros(4, dtype=bool)
    finished = 0
    for _ in range(40):
        assert envs._agents is not None
        if ended.any():  # the hands that ended: their points, from the mirrors, before the autoreset
            for g in np.flatnonzero(ended):
                rnd = envs._agents.games[g].round
                assert rnd.points is not None
                want = envs.env.encoding.rewards(rnd.scores, rnd.points)[seat]
                assert total[g] == want
                total[g] = 0.0
                finished += 1
        actions = random_ids(obs["action_mask"], rng)
        actions[ended] = 54  # ignored: these games start a new hand
        before = obs
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert obs["observation"] is not before["observation"]
        check_obs(obs, envs.observation_space, "step")
        assert not truncated.any() and infos == {}
        assert not rewards[ended].any() and not terminated[ended].any()
        check_learner_against_mirrors(envs, obs)
        total += rewards
        ended = terminated
    assert finished >= 4


def test_learner_env_with_random_opponents_and_a_policy() -> None:
    """The random opponents and a policy both play legal hands to the end; the same seed gives the same games;
    a policy's illegal action is refused naming the game."""
    def lowest(obs: Any, mask: Any, seat: Any) -> Any:
        return np.argmax(mask, axis=1)

    runs = []
    for opponents in ("random", "random", lowest):
        envs = LearnerEnv(THREE, num_envs=8, seat=1, opponents=opponents)
        obs, _ = envs.reset(seed=4)
        rng = np.random.default_rng(5)
        rewards = []
        for _ in range(30):
            obs, r, _, _, _ = envs.step(random_ids(obs["action_mask"], rng))
            rewards.append(r)
        runs.append(np.stack(rewards))
        assert any(r.any() for r in rewards)
    assert np.array_equal(runs[0], runs[1])

    envs = LearnerEnv("standard", num_envs=2, seat=1, opponents=lambda o, m, p: np.full(len(p), 53), dealer=0,
                      hand_number=0)
    with pytest.raises(hl.IllegalAction, match="game 0: seat 0 may not pass"):
        envs.reset(seed=1)


def test_the_adapters_deal_every_seat_and_every_pass_unless_told() -> None:
    envs = LearnerEnv("standard", num_envs=64)
    envs.reset(seed=0)
    assert len(set(envs.state.dealer.tolist())) == 4 and len(set(envs.state.pass_code.tolist())) == 4
    envs = LearnerEnv("standard", num_envs=8, dealer=2, hand_number=1)
    envs.reset(seed=0)
    assert set(envs.state.dealer.tolist()) == {2} and set(envs.state.hand_number.tolist()) == {1}
    selfplay = SelfPlayEnv("standard", num_envs=64)
    selfplay.reset(seed=0)
    assert len(set(selfplay.state.hand_number.tolist())) == 4
    with pytest.raises(hl.IllegalAction, match="dealer 4 does not exist"):  # as Round.deal says it
        SelfPlayEnv("standard", dealer=4)
    with pytest.raises(hl.IllegalAction, match="hand_number"):
        LearnerEnv("standard", hand_number=-1)


def test_learner_env_refuses_bad_input_and_changes_nothing() -> None:
    envs = LearnerEnv("standard", num_envs=2, hand_number=0)
    obs, _ = envs.reset(seed=0)
    state = envs.state
    bad = np.array([int(np.flatnonzero(obs["action_mask"][0])[0]), 53])
    with pytest.raises(hl.IllegalAction, match="game 1: seat 0 may not pass"):
        envs.step(bad)
    assert envs.state is state
    with pytest.raises(hl.IllegalAction, match="2 integer action ids"):
        envs.step(np.array([0.5, 1.0]))
    with pytest.raises(hl.IllegalAction, match=r"seat 0\.\.3"):
        LearnerEnv("standard", seat=4)
    with pytest.raises(hl.IllegalAction, match="3 agents"):
        LearnerEnv("standard", opponents=[RandomAgent(1)])
    with pytest.raises(hl.IllegalAction, match="opponents is 'random'"):
        LearnerEnv("standard", opponents="heuristic")
    with pytest.raises(hl.IllegalAction, match="num_envs"):
        LearnerEnv("standard", num_envs=0)
    with pytest.raises(hl.VariantError, match=r"deck\.decks"):
        LearnerEnv(hl.preset("standard").replace(deck={"decks": 2}, players=8))
    with pytest.raises(RuntimeError, match="reset"):
        LearnerEnv("standard").step(np.zeros(64, dtype=np.int64))


class OnceWrong:
    """A heuristic player that, once armed, answers one play with a card it does not hold."""

    def __init__(self) -> None:
        self.inner = HeuristicAgent(5)
        self.armed = False

    def setup(self, variant: hl.Variant, seat: int) -> None:
        self.inner.setup(variant, seat)

    def act(self, observation: hl.Observation, legal_actions: Any) -> Any:
        if self.armed and observation.phase == hl.Phase.PLAY:
            self.armed = False
            held = {c.index for c in observation.hand}
            return hl.Play(observation.seat, hl.Card.from_index(next(i for i in range(52) if i not in held)))
        return self.inner.act(observation, legal_actions)


def test_an_opponents_illegal_action_changes_nothing() -> None:
    """An agent's illegal play is refused naming the game; the games, the generator and the mirrors are as
    before the call, and the environment plays on."""
    wrong = OnceWrong()
    envs = LearnerEnv("standard", num_envs=3, opponents=[wrong, RandomAgent(2), RandomAgent(3)], hand_number=0)
    obs, _ = envs.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(4):  # past the pass
        obs, *_ = envs.step(random_ids(obs["action_mask"], rng))
    wrong.armed = True
    state, bits = envs.state, envs.np_random.bit_generator.state
    with pytest.raises(hl.IllegalAction, match="seat 1 may not play"):
        envs.step(random_ids(obs["action_mask"], rng))
    assert envs.state is state and envs.np_random.bit_generator.state == bits
    check_learner_against_mirrors(envs, obs)
    for _ in range(20):
        obs, *_ = envs.step(random_ids(obs["action_mask"], rng))
        check_learner_against_mirrors(envs, obs)

    envs = LearnerEnv("standard", num_envs=2, seat=1, opponents=lambda o, m, p: np.zeros((2, 2), dtype=int))
    with pytest.raises(hl.IllegalAction, match="policy must return 2 integer action ids"):
        envs.reset(seed=0)


def test_learner_env_works_with_gymnasiums_vector_wrappers() -> None:
    """Gymnasium's episode statistics wrapper reads the declared autoreset mode and sums each hand."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(LearnerEnv("standard", num_envs=4, hand_number=0))
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = []
    for _ in range(20):
        obs, _, term, _, infos = envs.step(random_ids(obs["action_mask"], rng))
        if "episode" in infos:
            seen.append(infos["episode"]["l"][term])
    assert seen and all((lengths == 16).all() for lengths in seen)  # 3 pass picks and 13 plays a hand


# ---------------------------------------------------------------------- the self-play wrapper


def test_selfplay_gives_every_seat_its_own_view_and_reward() -> None:
    env = SelfPlayEnv(THREE, num_envs=3)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, infos = env.reset(seed=9)
    assert set(obs) == set(infos) == {"player_0", "player_1", "player_2"}
    turns = [Turns(env.env.encoding, env.env.to_round(env.state, g)) for g in range(3)]
    rng = np.random.default_rng(0)
    ended = np.zeros(3, dtype=bool)
    hands = 0
    for _ in range(60):
        for agent in env.possible_agents:
            check_obs(obs[agent], env.observation_space(agent), "step")
        for g, t in enumerate(turns):
            if ended[g]:
                continue
            for seat, agent in enumerate(env.possible_agents):
                assert np.array_equal(obs[agent]["observation"][g], np.array(t.observe(seat), dtype=np.float32))
                assert list(np.flatnonzero(obs[agent]["action_mask"][g])) == t.legal_ids(seat)
        # every seat's, the step after every game ended too (when env.agents is empty and they are ignored)
        actions = {agent: random_ids(obs[agent]["action_mask"], rng) for agent in env.possible_agents}
        cur = env.state.current_player.copy()
        obs, rewards, terms, truncs, _ = env.step(actions)
        for g, t in enumerate(turns):
            if ended[g]:  # a new hand: mirror it afresh
                assert not any(rewards[a][g] for a in env.possible_agents)
                turns[g] = Turns(env.env.encoding, env.env.to_round(env.state, g))
                continue
            before = t.round.scores
            t.apply_id(int(cur[g]), int(actions[env.possible_agents[cur[g]]][g]))
            if terms["player_0"][g]:
                hands += 1
                assert t.round.points is not None
                want = env.env.encoding.rewards(before, t.round.points)
                assert tuple(float(rewards[a][g]) for a in env.possible_agents) == want
            else:
                assert not any(rewards[a][g] for a in env.possible_agents)
        ended = terms["player_0"].copy()
        assert all(np.array_equal(terms[a], ended) for a in env.possible_agents)
        assert not any(truncs[a].any() for a in env.possible_agents)
    assert hands >= 3


def test_selfplay_refuses_bad_input_and_changes_nothing() -> None:
    env = SelfPlayEnv("standard", num_envs=2, hand_number=0)
    env.reset(seed=1)
    state = env.state
    with pytest.raises(hl.IllegalAction, match="for every agent"):
        env.step({"player_0": np.zeros(2, dtype=np.int64)})
    with pytest.raises(hl.IllegalAction, match="2 integer action ids"):
        env.step({a: np.zeros(1 + (a == "player_2"), dtype=np.int64) for a in env.agents})
    actions = {a: np.full(2, 53) for a in env.agents}
    with pytest.raises(hl.IllegalAction, match="game 0: seat 0 may not pass"):
        env.step(actions)
    assert env.state is state
    with pytest.raises(hl.IllegalAction, match="no agent 'player_9'"):
        env.observation_space("player_9")
    assert env.action_space("player_1").shape == (2,)
