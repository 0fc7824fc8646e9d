"""Issue 35, items 1, 2, 4 and 8: errors that survive pickle and deep copies (and so process pools), a match
that ends at the documented limits instead of raising from a legal move, match equality that does not
depend on how the match was made, and a clear error for a pickle from the other build."""

from __future__ import annotations

import copy
import inspect
import pickle
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import errors
from heartslib import match as match_module
from heartslib.agents import BaseAgent
from heartslib.inference import ImpossibleHistory
from heartslib.points import MAX_HAND_NUMBER, MAX_SCORE

STD = hl.preset("standard")
#: Omnibus hearts (the jack of diamonds -10): a total can move down, past -MAX_SCORE.
OMNIBUS = STD.replace(scoring={"values": {"QS": 13, "JD": -10}})
#: Every hand passes by shuffling: the round draws the pile from the match's generator.
SHUFFLED = STD.replace(passing={"schedule": ["shuffle"]})

E = TypeVar("E", bound=BaseException)

ROUND_TRIPS: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    "deepcopy": copy.deepcopy,
}


def step(m: hl.Match, rng: random.Random) -> hl.Action:
    seat = m.to_act[rng.randrange(len(m.to_act))]
    actions = m.legal_actions(seat)
    return actions[rng.randrange(len(actions))]


def play(ms: Sequence[hl.Match], rng: random.Random, steps: int) -> None:
    """Apply the same random legal actions to every match in ``ms`` (``steps`` of them, or to the end)."""
    for _ in range(steps):
        if ms[0].is_over:
            return
        action = step(ms[0], rng)
        for m in ms:
            m.apply(action)


def play_past_hand_end(ms: Sequence[hl.Match], rng: random.Random) -> None:
    """The same random legal actions to every match in ``ms`` until the current hand is over (and the next
    dealt, or the match over)."""
    hand = ms[0].hand_number
    while not ms[0].is_over and ms[0].hand_number == hand:
        play(ms, rng, 1)


def same_error(got: BaseException, expected: BaseException) -> None:
    assert type(got) is type(expected)
    assert str(got) == str(expected)
    assert got.args == expected.args
    assert vars(got) == vars(expected)


def round_trip(how: str, exc: E) -> E:
    """``exc`` through pickle or a deep copy, checked to come back the same (type, message, attributes)."""
    got: E = ROUND_TRIPS[how](exc)
    same_error(got, exc)
    return got


# --------------------------------------------------------------------------- 1. errors through pickle


@pytest.mark.parametrize("how", ROUND_TRIPS)
def test_card_error_survives_pickle_and_deepcopy(how: str) -> None:
    with pytest.raises(hl.CardError) as info:
        hl.Card.parse("ZZ")
    got = round_trip(how, info.value)
    assert got.token == "ZZ"


@pytest.mark.parametrize("how", ROUND_TRIPS)
def test_variant_error_survives_pickle_and_deepcopy(how: str) -> None:
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_toml("players = true\n[moon]\nkind = 'new moon'\n")
    original = info.value
    assert len(original.problems) == 2  # several problems: the message is not rebuilt from one path
    got = round_trip(how, original)
    assert (got.path, got.reason, got.problems) == (original.path, original.reason, original.problems)


@pytest.mark.parametrize("how", ROUND_TRIPS)
def test_illegal_action_survives_pickle_and_deepcopy(how: str) -> None:
    m = hl.Match(STD, seed=1)
    with pytest.raises(hl.IllegalAction) as info:
        m.apply(hl.Play(0, "2C"))
    got = round_trip(how, info.value)
    assert got.code == "not_playing" and got.action == hl.Play(0, "2C")


@pytest.mark.parametrize("how", ROUND_TRIPS)
def test_unknown_variant_survives_pickle_and_deepcopy(how: str) -> None:
    with pytest.raises(hl.UnknownVariant) as info:
        hl.preset("standrd")
    got = round_trip(how, info.value)
    assert got.close == ("standard",) and got.name == "standrd"
    assert isinstance(got, KeyError)


@pytest.mark.parametrize("how", ROUND_TRIPS)
def test_save_error_survives_pickle_and_deepcopy(how: str) -> None:
    with pytest.raises(hl.SaveError) as info:
        hl.Match.from_json('{"format": "x"}')
    got = round_trip(how, info.value)
    assert got.path == info.value.path


@pytest.mark.parametrize("how", ROUND_TRIPS)
def test_impossible_history_survives_pickle_and_deepcopy(how: str) -> None:
    original = ImpossibleHistory("a history no deal can explain")
    round_trip(how, original)


def test_a_note_survives_pickle() -> None:
    exc = hl.IllegalAction("must_follow_suit", "follow suit", action=hl.Play(1, "QS"))
    exc.add_note("the action came from an agent")
    assert pickle.loads(pickle.dumps(exc)).__notes__ == ["the action came from an agent"]


def test_every_exception_of_errors_is_restorable() -> None:
    # a class added to errors.py later keeps its attributes through pickle too
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass)
               if issubclass(c, BaseException) and c.__module__ == errors.__name__ and not c.__name__.startswith("_")]
    names = {c.__name__ for c in classes}
    assert {"CardError", "IllegalAction", "SaveError", "UnknownVariant", "VariantError"} <= names
    for cls in classes:
        assert issubclass(cls, errors._Restorable), cls


class IllegalAgent(BaseAgent):
    """An agent that always plays a card that is not in the pack (module level: a process pool pickles it)."""

    name = "illegal"

    def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action:
        return hl.Play(observation.seat, "JK")


def test_an_illegal_move_in_a_process_pool_surfaces_as_illegal_action() -> None:
    with pytest.raises(hl.IllegalAction) as local:
        hl.simulate(STD, [IllegalAgent, "random", "random", "random"], games=1, seed=3)
    with ProcessPoolExecutor(max_workers=2) as pool, pytest.raises(hl.IllegalAction) as info:
        hl.simulate(STD, [IllegalAgent, "random", "random", "random"], games=2, seed=3, executor=pool)
    assert info.value.code == local.value.code
    assert str(info.value) == str(local.value)
    assert any("IllegalAgent" in note for note in getattr(info.value, "__notes__", []))


# --------------------------------------------------------------------------- 2. the limits


def lowest(m: hl.Match) -> tuple[int, ...]:
    """The seats with the lowest total (whole-number totals)."""
    totals = [t for t in m.scores if isinstance(t, int)]
    assert len(totals) == len(m.scores)
    return tuple(s for s, t in enumerate(totals) if t == min(totals))


def finish_hand(m: hl.Match, seed: int) -> None:
    play_past_hand_end([m], random.Random(seed))


def check_saves_and_copies(m: hl.Match) -> None:
    loaded = hl.Match.from_json(m.to_json())
    assert loaded == m and loaded.to_json() == m.to_json()
    assert loaded.is_over == m.is_over and loaded.winners == m.winners
    assert m.copy() == m and pickle.loads(pickle.dumps(m)) == m


def test_the_last_hand_number_ends_the_match() -> None:
    m = hl.Match.from_deal(STD, hl.Round.deal(STD, seed=3).hands, hand_number=MAX_HAND_NUMBER, seed=7)
    check_saves_and_copies(m)
    finish_hand(m, 1)
    assert all(isinstance(t, int) and t < STD.end.target for t in m.scores)  # the limit ended it, not the target
    assert m.is_over and m.phase is hl.Phase.OVER and m.to_act == () and m.legal_actions() == []
    assert m.winners == lowest(m)
    assert len(m.rounds) == 1 and m.rounds[0].hand_number == MAX_HAND_NUMBER
    check_saves_and_copies(m)


def test_a_hand_before_the_last_number_deals_on() -> None:
    m = hl.Match.from_deal(STD, hl.Round.deal(STD, seed=3).hands, hand_number=MAX_HAND_NUMBER - 1, seed=7)
    finish_hand(m, 1)
    assert not m.is_over and m.hand_number == MAX_HAND_NUMBER
    check_saves_and_copies(m)


def test_a_total_past_the_score_limit_ends_the_match() -> None:
    ended = 0
    for seed in range(6):
        m = hl.Match.from_deal(OMNIBUS, hl.Round.deal(OMNIBUS, seed=seed).hands, scores=(-MAX_SCORE,) * 4,
                               seed=seed)
        finish_hand(m, seed)
        past = any(abs(t) > MAX_SCORE for t in m.scores)
        # a total past the limit cannot be dealt on: the match ends with the hand, the lowest total winning
        assert m.is_over == past
        if past:
            ended += 1
            assert m.phase is hl.Phase.OVER and m.to_act == ()
            assert m.winners == lowest(m)
        check_saves_and_copies(m)
    assert ended >= 3


@pytest.mark.parametrize("score", [MAX_SCORE, MAX_SCORE + 1, -MAX_SCORE, -MAX_SCORE - 1, complex(MAX_SCORE, 0),
                                   complex(0, -MAX_SCORE), complex(MAX_SCORE + 1, 0), complex(0, -MAX_SCORE - 1)])
def test_the_limit_is_the_one_a_deal_checks(score: complex) -> None:
    totals = (score, 0, 0, 0)
    try:
        hl.Round.deal(STD, seed=1, scores=totals)
    except hl.IllegalAction:
        dealt = False
    else:
        dealt = True
    first = hl.Round.deal(STD, seed=1)
    assert match_module._dealable(first, totals) is dealt
    # the hand after the one numbered MAX_HAND_NUMBER - 1 may be dealt, the one after MAX_HAND_NUMBER not
    assert match_module._dealable(hl.Round.deal(STD, seed=1, hand_number=MAX_HAND_NUMBER - 1), (0, 0, 0, 0))
    assert not match_module._dealable(hl.Round.deal(STD, seed=1, hand_number=MAX_HAND_NUMBER), (0, 0, 0, 0))


# --------------------------------------------------------------------------- 4. equality


def equal_saves_mean_equal_matches(v: hl.Variant, seed: int, before: int, after: int) -> None:
    original = hl.Match(v, seed=seed)
    rng = random.Random(seed)
    play([original], rng, before)
    made = [original.copy(), hl.Match.from_json(original.to_json()), pickle.loads(pickle.dumps(original)),
            copy.deepcopy(original)]
    play_past_hand_end(made, rng)
    play(made, rng, after)
    assert len({m.to_json() for m in made}) == 1
    for moves_on in range(3):
        if moves_on:  # the original moves on, drawing the next deal (a copy's first rounds were its rounds)
            play_past_hand_end([original], random.Random(seed + moves_on))
        for a in made:
            for b in made:
                assert a == b


@pytest.mark.parametrize("name", [*hl.preset_names(), "shuffled"])
def test_equal_saves_mean_equal_matches(name: str) -> None:
    v = SHUFFLED if name == "shuffled" else hl.preset(name)
    for seed, before in ((0, 0), (1, 7)):
        equal_saves_mean_equal_matches(v, seed, before, after=5)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from([*hl.preset_names(), "shuffled"]), seed=st.integers(0, 2**32),
       before=st.integers(0, 60), after=st.integers(0, 60))
def test_equal_saves_mean_equal_matches_property(name: str, seed: int, before: int, after: int) -> None:
    equal_saves_mean_equal_matches(SHUFFLED if name == "shuffled" else hl.preset(name), seed, before, after)


def test_a_deep_copy_during_a_shuffle_pass_deals_the_same_next_hand() -> None:
    m = hl.Match(SHUFFLED, seed=5)
    dup = copy.deepcopy(m)
    assert dup == m and dup is not m
    play_past_hand_end([m, dup], random.Random(2))
    assert dup == m and dup.round.hands == m.round.hands and dup.to_json() == m.to_json()


# --------------------------------------------------------------------------- 8. pickles and builds


class _OtherBuildPickle:
    """Pickles as a match pickled by the other build would (its build recorded first)."""

    def __init__(self, m: hl.Match) -> None:
        self.m = m

    def __reduce__(self) -> tuple[Any, ...]:
        other = "compiled" if match_module.BUILD == "pure" else "pure"
        return (match_module._unpickled, (hl.Match, other), match_module._pickled_state(self.m))


def test_a_pickle_of_the_other_build_is_refused_with_a_save_error() -> None:
    data = pickle.dumps(_OtherBuildPickle(hl.Match(STD, seed=1)))
    with pytest.raises(hl.SaveError) as info:
        pickle.loads(data)
    assert info.value.path == "pickle"
    assert "pickles do not cross builds" in str(info.value) and "to_json()" in str(info.value)


def test_a_pickle_of_this_build_loads_and_plays_on() -> None:
    m = hl.Match(SHUFFLED, seed=9)
    play([m], random.Random(0), 30)
    loaded = pickle.loads(pickle.dumps(m))
    assert loaded == m and type(loaded) is hl.Match
    play([m, loaded], random.Random(1), 80)
    assert loaded == m and loaded.to_json() == m.to_json()
