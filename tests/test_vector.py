"""heartslib.vector: the batched numpy environment, held to the engine step by step.

Every game of a batch is mirrored by a :class:`heartslib.adapters.encoding.Turns` over a ``Round`` driven with
the same action ids: at every step the current player, the legal mask, the observation, the rewards, the points
and ``terminated`` must agree, and at the end ``to_round`` must equal the mirrored ``Round``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import heartslib as hl  # noqa: E402
from heartslib.adapters.encoding import Turns  # noqa: E402
from heartslib.strategies import variants  # noqa: E402
from heartslib.vector import Env, check_supported  # noqa: E402

#: Pins that keep the drawn variants near what the environment supports (one deck, so 3 to 10 players, zero-suit
#: jokers; a stock, a shuffle pass or a dealer's choice drawn is refused and skipped); everything else is drawn
#: (the score modifiers, the exposures, the jokers and the kitties too).
PINS: dict[str, Any] = {
    "players": st.integers(3, 10),
    "decks": 1,
    "deck": {"joker": "zero_suits"},
    "play": {"booster_nines": False},
}

def supported(v: hl.Variant) -> bool:
    """Whether the environment takes ``v``."""
    try:
        check_supported(v)
    except hl.VariantError:
        return False
    return True


def mirror(env: Env, state: Any, turns: list[Turns]) -> None:
    """Assert that every game of ``state`` agrees with its mirrored engine game."""
    obs = state.observation
    for g, t in enumerate(turns):
        cur = t.current()
        assert int(state.current_player[g]) == (-1 if cur is None else cur)
        assert bool(state.terminated[g]) == (cur is None)
        if cur is None:
            expect = env.encoding.encode(t.round.observation(0), acting=False)
            assert t.round.points is not None
            assert tuple(int(x) for x in state.points[g]) == tuple(t.round.points)
        else:
            assert list(np.flatnonzero(state.legal_action_mask[g])) == t.legal_ids(cur)
            expect = t.observe(cur)
        assert np.array_equal(obs[g], np.array(expect, dtype=np.float32))


def play_out(v: hl.Variant, seeds: list[int], rng_seed: int, dealers: list[int] | None = None,
             hands: list[int] | None = None) -> tuple[Env, Any, list[Turns]]:
    """Play a batch of ``v`` out with random legal actions, the engine mirrored at every step (each game dealt
    with its dealer and hand number, 0 and 0 unless given)."""
    env = Env(v)
    dealers = dealers or [0] * len(seeds)
    hands = hands or [0] * len(seeds)
    state = env.init(np.array(seeds, dtype=np.uint64), dealer=dealers, hand_number=hands)
    turns = [Turns(env.encoding, hl.Round.deal(v, seed=s, dealer=d, hand_number=h))
             for s, d, h in zip(seeds, dealers, hands, strict=True)]
    return env, drive(env, state, turns, rng_seed), turns


def drive(env: Env, state: Any, turns: list[Turns], rng_seed: int,
          policy: Callable[[Env, Any, Any], Any] | None = None) -> Any:
    """Step ``state`` with random legal actions (or ``policy(env, state, rng)``'s) until every game is over,
    each action applied to the mirrored engine game too, the two compared after every step (rewards included);
    the final state."""
    rng = np.random.default_rng(rng_seed)
    mirror(env, state, turns)
    while not state.terminated.all():
        actions = env.random_actions(state, rng) if policy is None else policy(env, state, rng)
        before = state.current_player.copy()
        state = env.step(state, actions)
        for g, t in enumerate(turns):
            if before[g] >= 0:
                rnd_before = t.round.scores
                t.apply_id(int(before[g]), int(actions[g]))
                if t.current() is None:
                    assert t.round.points is not None
                    want = env.encoding.rewards(rnd_before, t.round.points)
                    assert tuple(float(x) for x in state.rewards[g]) == want
                else:
                    assert not state.rewards[g].any()
        mirror(env, state, turns)
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(v=variants(**PINS), games=st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 9),
                                                     st.integers(0, 11)), min_size=1, max_size=4),
       rng_seed=st.integers(0, 2**32 - 1))
def test_every_game_ends_in_the_round_the_engine_makes(
    v: hl.Variant, games: list[tuple[int, int, int]], rng_seed: int
) -> None:
    """Random supported variants (each game with its own dealer and place in the pass schedule), random legal
    actions: each game equals the engine's at every step and ends in the same Round (==) with the same
    points."""
    assume(supported(v))
    seeds = [seed for seed, _, _ in games]
    dealers = [dealer % v.players for _, dealer, _ in games]
    hands = [hand for _, _, hand in games]
    env, state, turns = play_out(v, seeds, rng_seed, dealers, hands)
    for g, t in enumerate(turns):
        r = env.to_round(state, g)
        assert r == t.round
        assert r.points == t.round.points


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(v=variants(**PINS), seed=st.integers(0, 2**64 - 1), hand=st.integers(0, 7), dealer=st.integers(0, 9),
       scores=st.lists(st.integers(-150, 150), min_size=10, max_size=10), rng_seed=st.integers(0, 2**32 - 1))
def test_later_hands_from_rounds_play_as_the_engine(
    v: hl.Variant, seed: int, hand: int, dealer: int, scores: list[int], rng_seed: int
) -> None:
    """Rounds of any hand of a match (every pass of the schedule, any dealer, scores before the hand for the
    moon and sun rules that read them) taken by from_rounds play on exactly as the engine."""
    assume(supported(v))
    n = v.players
    r = hl.Round.deal(v, seed=seed, hand_number=hand, dealer=dealer % n, scores=scores[:n])
    env = Env(v)
    state = env.from_rounds([r, r.copy()])
    assert env.to_round(state, 0) == r
    turns = [Turns(env.encoding, r.copy()), Turns(env.encoding, r.copy())]
    state = drive(env, state, turns, rng_seed)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round


def test_the_drawn_variants_reach_the_rules_compared() -> None:
    """The property test's variants are not all the standard game: they reach the rules compared."""
    from heartslib.sections import field_paths

    seen: dict[str, set[str]] = {}

    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(v=variants(**PINS))
    def collect(v: hl.Variant) -> None:
        assume(supported(v))
        for path, value in field_paths(v):
            seen.setdefault(path, set()).add(repr(value))

    collect()
    for path in ("players", "direction", "deck.jokers", "deck.fill", "deck.kitty", "passing.schedule", "passing.cards",
                 "passing.forbidden", "passing.keep_last_of_suit", "play.opening", "play.breaking",
                 "play.first_trick", "play.queen_forced", "play.must_discard", "play.undercut",
                 "scoring.values", "scoring.multiply", "scoring.double_suit", "scoring.cancels",
                 "scoring.all_hearts_flips", "scoring.exposable", "moon.kind", "moon.sun", "moon.sun_and_moon",
                 "end.winner"):
        assert len(seen.get(path, ())) > 1, f"the drawn variants never vary {path}"


@pytest.mark.parametrize("name", ["standard", "black_lady", "omnibus", "spot_hearts", "black_maria"])
def test_presets_play_as_the_engine(name: str) -> None:
    """Named presets the environment supports play exactly as the engine."""
    try:
        v = hl.preset(name)
        check_supported(v)
    except (hl.VariantError, KeyError):
        pytest.skip(f"{name} is not a supported preset")
    env, state, turns = play_out(v, list(range(6)), 1)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round


#: The rules of the Leekha family the environment plays: AyMog's pass (a pass keeps a card of each suit it takes
#: from, but the exempt cards), Idlib's undercut, and the undercut's other two readings together.
_UNDERCUT_OFF = {"undercut": False, "undercut_ceiling": "highest_leekha", "undercut_binds_discards": False}
LEEKHA: dict[str, tuple[hl.Variant, dict[str, hl.Variant]]] = {
    # name: (the variant, {a rule: the variant without it})
    "leekha_aymog": (hl.preset("leekha_aymog"), {
        "keep_last_of_suit": hl.preset("leekha_aymog").replace(passing={"keep_last_of_suit": False,
                                                                        "last_of_suit_exempt": []})}),
    "likha_idlib": (hl.preset("likha_idlib"), {"undercut": hl.preset("likha_idlib").replace(play=_UNDERCUT_OFF)}),
    "undercut_readings": (hl.preset("likha_idlib").replace(
        play={"undercut_ceiling": "winning_card", "undercut_binds_discards": True}), {
        "undercut": hl.preset("likha_idlib").replace(play=_UNDERCUT_OFF),
        "winning_card": hl.preset("likha_idlib").replace(play={"undercut_binds_discards": True}),
        "binds_discards": hl.preset("likha_idlib").replace(play={"undercut_ceiling": "winning_card"})}),
}


def rule_counter(name: str) -> Callable[[Env, Any], None]:
    """A function counting, in ``LEEKHA[name]``'s counts, the games of each (numpy) state it is given in which a
    rule changed the legal mask: the mask the variant without it gives differs (the pass masks for the pass
    rule, the play masks for the undercut)."""
    from heartslib.vector import kernel

    without = LEEKHA[name][1]
    tables = {rule: kernel.Tables(w) for rule, w in without.items()}

    def count(env: Env, state: Any) -> None:
        for rule, off in tables.items():
            phase = kernel.PASS if rule == "keep_last_of_suit" else kernel.PLAY
            rows = np.flatnonzero(state.phase == phase)
            mask = kernel.pass_mask if phase == kernel.PASS else kernel.candidates
            LEEKHA_COUNTS[name][rule] += int((mask(env._t, state, rows) != mask(off, state, rows)).any(1).sum())

    LEEKHA_COUNTS[name] = dict.fromkeys(without, 0)
    return count


LEEKHA_COUNTS: dict[str, dict[str, int]] = {}


@pytest.mark.parametrize("name", sorted(LEEKHA))
def test_the_leekha_pass_and_the_undercut_play_as_the_engine_and_change_choices(name: str) -> None:
    """Leekha Aymog's pass and Idlib Likha's undercut (and its readings) play exactly as the engine, and each rule
    is reached: in some step of these games its legal mask differs from the one the variant without it gives."""
    v = LEEKHA[name][0]
    count = rule_counter(name)

    def counting(env: Env, state: Any, rng: Any) -> Any:
        count(env, state)
        return env.random_actions(state, rng)

    env = Env(v)
    seeds = list(range(8))
    state = env.init(seeds, dealer=[s % 4 for s in seeds])
    turns = [Turns(env.encoding, hl.Round.deal(v, seed=s, dealer=s % 4)) for s in seeds]
    state = drive(env, state, turns, 2, counting)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round
    assert all(LEEKHA_COUNTS[name].values()), LEEKHA_COUNTS[name]


def test_to_round_and_from_rounds_round_trip() -> None:
    """from_rounds(rounds) then to_round gives the rounds back, in every phase; and the games go on alike."""
    v = hl.preset("standard")
    env = Env(v)
    rounds = []
    for seed, moves in ((1, 0), (2, 5), (3, 20), (4, 63), (5, 40)):
        r = hl.Round.deal(v, seed=seed)
        t = Turns(env.encoding, r)
        rng = np.random.default_rng(seed)
        for _ in range(moves):
            cur = t.current()
            if cur is None:
                break
            t.apply_id(cur, int(rng.choice(t.legal_ids(cur))))
            if t.pending:
                continue
        while t.pending:  # a round holds whole passes only
            cur = t.current()
            assert cur is not None
            t.apply_id(cur, t.legal_ids(cur)[0])
        rounds.append(r)
    state = env.from_rounds(rounds)
    turns = [Turns(env.encoding, r.copy()) for r in rounds]
    for g, r in enumerate(rounds):
        assert env.to_round(state, g) == r
    state = drive(env, state, turns, 9)
    again = env.from_rounds([env.to_round(state, g) for g in range(len(rounds))])
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round == env.to_round(again, g)
        assert np.array_equal(again.points[g], state.points[g])


def test_an_illegal_action_names_the_game_seat_and_card_and_changes_nothing() -> None:
    env = Env(hl.preset("standard"))
    state = env.init([1, 2])
    held = np.flatnonzero(state.owner[1] == state.current_player[1])
    not_held = int(np.flatnonzero((state.owner[1] != state.current_player[1]) & (np.arange(55) < 52))[0])
    actions = np.array([int(np.flatnonzero(state.legal_action_mask[0])[0]), not_held])
    mask_before = state.legal_action_mask.copy()
    with pytest.raises(hl.IllegalAction, match=r"game 1: seat 0 may not pass " + hl.Card.from_index(not_held).code):
        env.step(state, actions)
    assert np.array_equal(state.legal_action_mask, mask_before) and held.size == 13
    with pytest.raises(hl.IllegalAction, match="game 0"):
        env.step(state, np.array([99, int(held[0])]))


def test_a_terminated_game_ignores_its_action() -> None:
    env = Env(hl.preset("standard"))
    state = env.init([3])
    rng = np.random.default_rng(0)
    while not state.terminated.all():
        state = env.step(state, env.random_actions(state, rng))
    after = env.step(state, np.array([12345]))
    assert np.array_equal(after.points, state.points) and after.terminated.all()
    assert not after.rewards.any()
    assert env.to_round(after, 0) == env.to_round(state, 0)


def test_an_unknown_backend_is_refused_naming_those_there_are() -> None:
    with pytest.raises(ValueError, match="'numpy' and 'jax'"):
        Env(hl.preset("standard"), backend="torch")


def test_the_jax_backend_without_jax_names_the_extra() -> None:
    import subprocess
    import sys

    code = ("import sys; sys.modules['jax'] = None\n"  # as if jax were not installed
            "import heartslib as hl\nfrom heartslib.vector import Env\n"
            "try:\n    Env(hl.preset('standard'), backend='jax')\n"
            "except ImportError as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert "needs the 'jax' extra: pip install 'heartslib[jax]'" in out


def test_memory_per_game() -> None:
    """The stepped arrays take at most 2 KB a game (the observation, built on demand, not counted)."""
    state = Env(hl.preset("standard")).init(range(64))
    assert state.nbytes() / 64 <= 2048


def test_importing_heartslib_does_not_import_the_vector_package() -> None:
    import subprocess
    import sys

    code = "import sys, heartslib; assert 'heartslib.vector' not in sys.modules and 'numpy' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("moon", [{"kind": "choice"}, {"kind": "new", "new_after": 50}, {"kind": "no_score"},
                                  {"kind": "penalty"}, {"kind": "old", "requires": "all_counters"}])
def test_moons_every_hand_play_as_the_engine(moon: dict[str, Any]) -> None:
    """With Q♠ the only penalty card its taker shoots the moon every hand: each moon rule (the shooter's
    choice, ids 55 and 56, included) is reached and plays as the engine."""
    values = {f"{rank}H": 0 for rank in "23456789TJQKA"} | {"QS": 13}
    v = hl.preset("standard").replace(scoring={"values": values}, moon=moon, end={"hands": 5})
    env, state, turns = play_out(v, list(range(8)), 4)
    assert all(t.round.outcome is not None and t.round.outcome.shooter is not None for t in turns)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round


def test_from_rounds_keeps_its_rounds_with_the_states_not_the_environment() -> None:
    # a learner calling from_rounds every hand must not grow the environment: the start rounds live as long
    # as the states stepped from them
    import gc

    v = hl.preset("standard")
    env = Env(v)
    state = env.from_rounds([hl.Round.deal(v, seed=s) for s in range(3)])
    kept = state._origins[0]
    stepped = env.step(state, env.random_actions(state, np.random.default_rng(0)))
    assert env.to_round(stepped, 1).hand_number == 0
    assert stepped._origins is state._origins  # shared by the stepped states, not copied
    del state, stepped
    gc.collect()
    assert not [r for r in gc.get_referrers(kept) if isinstance(r, tuple)]  # the states' tuple is gone
    assert not [x for x in vars(env).values()
                if isinstance(x, list | tuple) and any(isinstance(y, hl.Round) for y in x)]


def test_random_actions_are_uniform_over_the_legal_ids_and_0_when_over() -> None:
    env = Env(hl.preset("standard"))
    state = env.init([1, 2])
    rng = np.random.default_rng(0)
    counts = np.zeros((2, env.num_actions))
    for _ in range(2600):
        a = env.random_actions(state, rng)
        counts[[0, 1], a] += 1
    for g in range(2):
        legal = state.legal_action_mask[g]
        assert counts[g][~legal].sum() == 0
        assert np.all(np.abs(counts[g][legal] - 200) < 60)  # 13 ids, 200 draws each expected
    while not state.terminated.all():
        state = env.step(state, env.random_actions(state, rng))
    assert not env.random_actions(state, rng).any()


def test_a_step_shares_the_arrays_it_does_not_write_read_only() -> None:
    """A step copies only the arrays its phase may write; the others are shared and made read-only, so a state
    once stepped from cannot be changed through a shared array."""
    env = Env(hl.preset("standard"))
    state = env.init([1])
    after = env.step(state, env.random_actions(state, np.random.default_rng(0)))
    assert after.dealer is state.dealer and not state.dealer.flags.writeable
    assert after.owner is not state.owner
    with pytest.raises(ValueError, match="read-only"):
        state.dealer[0] = 2


def test_init_deals_any_dealer_and_hand_as_the_engine() -> None:
    v = hl.preset("standard").replace(players=5, passing={"schedule": ["left", "right", "hold", "scatter"]})
    env = Env(v)
    state = env.init([1, 2, 3, 4, 5], dealer=[0, 1, 2, 3, 4], hand_number=[0, 1, 2, 3, 7])
    dealt = env.from_rounds([hl.Round.deal(v, seed=s, dealer=d, hand_number=h)
                             for s, d, h in ((1, 0, 0), (2, 1, 1), (3, 2, 2), (4, 3, 3), (5, 4, 7))])
    for name in ("owner", "dealer", "pass_code", "pass_size", "pass_dest", "phase", "turn", "leader", "opening",
                 "hand_number", "legal_action_mask"):
        assert np.array_equal(getattr(state, name), getattr(dealt, name)), name
    assert np.array_equal(state.observation, dealt.observation)
    assert env.to_round(state, 4) == hl.Round.deal(v, seed=5, dealer=4, hand_number=7)
    # as Round.deal says it
    with pytest.raises(hl.IllegalAction, match="dealer 5 does not exist; seats are the whole numbers 0-4"):
        env.init([1, 2], dealer=[0, 5])
    with pytest.raises(hl.IllegalAction, match="hand_number"):
        env.init([1], hand_number=-1)


@pytest.mark.parametrize("changes", [
    {"deck": {"jokers": 2, "joker_points": 5}},  # 0♣ opens (the lowest club), 0♦ below the 2♦; both score 5
    {"players": 6, "deck": {"fill": "jokers", "joker_points": -5}, "moon": {"kind": "new"}},
    {"players": 3, "deck": {"jokers": 1, "strip": ["2C", "2D"]}, "play": {"opening": "any_club"}},
], ids=["two_jokers_scoring", "fill_jokers_bonus", "one_joker_three_players"])
def test_zero_suit_jokers_play_as_the_engine(changes: dict[str, Any]) -> None:
    """0♣ and 0♦ (``deck.joker = "zero_suits"``): ordinary cards of their suits below the 2, with their points."""
    v = hl.preset("standard").replace(**changes)
    assert v.rules.jokers
    env, state, turns = play_out(v, list(range(12)), 3)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round
    played = {c.index for t in turns for trick in t.round.tricks for _, c in trick.plays}
    assert v.rules.jokers <= played


KITTIES = [
    # 5 players: two kitty cards, one to each of the first two tricks' winners, seen by them
    hl.preset("standard").replace(players=5, deck={"fill": "kitty", "kitty": "one_per_trick",
                                                   "kitty_seen_by_winner": True}),
    # 3 players: one card, to the first trick's winner
    hl.preset("standard").replace(players=3, deck={"fill": "kitty"}),
    # 10 players: two cards, one with the first trick and one with the last; a new moon counting them
    hl.preset("standard").replace(players=10, deck={"fill": "kitty", "kitty": "first_and_last"},
                                  moon={"kind": "new"}),
]


@pytest.mark.parametrize("v", KITTIES, ids=["one_per_trick_seen", "first_trick", "first_and_last"])
def test_kitties_play_as_the_engine(v: hl.Variant) -> None:
    """A kitty (``deck.fill = "kitty"``): its cards go to the winners ``deck.kitty`` says, count in the hand's
    points (not in the points shown during it), show in the observation of the seat that took them with
    ``kitty_seen_by_winner``; a 2♣ in the kitty opens with the next club up. Games taken mid-hand through
    from_rounds play on alike."""
    env, state, turns = play_out(v, list(range(24)), 5)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round
    if v is KITTIES[0]:  # game 15 deals 2♣ to the kitty: 3♣ opens
        assert hl.Card("2C") in hl.Round.deal(v, seed=15).kitty
    # mid-hand: every game after its pass and half its tricks, through from_rounds
    state = env.init(list(range(100, 108)))
    rng = np.random.default_rng(2)
    for _ in range(v.players * (v.rules.pass_cards + v.rules.hand_size // 2)):
        state = env.step(state, env.random_actions(state, rng))
    rounds = [env.to_round(state, g) for g in range(8)]
    again = env.from_rounds(rounds)
    for name in ("taker", "owner", "points", "legal_action_mask"):  # the kitty: those taken in any order
        assert np.array_equal(getattr(again, name), getattr(state, name)), name
    turns = [Turns(env.encoding, r.copy()) for r in rounds]
    drive(env, again, turns, 3)
