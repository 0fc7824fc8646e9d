"""A Round pickles within a build and is refused, with SaveError, by the other build (issue 35, item 8)."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import heartslib as hl
import heartslib.round as round_module


def _played() -> hl.Round:
    r = hl.Round.deal(hl.preset("black_maria"), seed=4)
    rng = random.Random(4)
    for _ in range(12):
        actions = r.legal_actions(r.to_act[0])
        r.apply(actions[rng.randrange(len(actions))])
    return r


def test_a_round_pickles_and_deep_copies_within_a_build() -> None:
    r = _played()
    for twin in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert twin == r and twin.state_key() == r.state_key()
        twin.random_playout(random.Random(1))
        assert twin.is_over and not r.is_over


@pytest.mark.skipif(hl.COMPILED, reason="the compiled module's BUILD constant cannot be patched")
def test_a_round_pickled_by_the_other_build_is_refused_with_save_error(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _played()
    monkeypatch.setattr(round_module, "BUILD", "compiled")
    data = pickle.dumps(r)
    monkeypatch.undo()
    with pytest.raises(hl.SaveError, match=r"pickled by the compiled build .* this is the pure build") as info:
        pickle.loads(data)
    assert info.value.path == "pickle"
    assert round_module.BUILD == "pure" and hl.match.BUILD == round_module.BUILD
