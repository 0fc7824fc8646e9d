"""The stateful test: heartslib.strategies.HeartsStateMachine over random variants and every preset.

Also checks the machine itself: that it catches a broken engine and a
broken user invariant (so a green run means something), and the
subclassing example from the docs.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, run_state_machine_as_test

import heartslib as hl
from heartslib import strategies as hst

# Any variant at all.
TestHeartsStateMachine = hst.HeartsStateMachine.TestCase


class PresetMachine(hst.HeartsStateMachine):
    """Every preset, the games people actually play."""

    variant_strategy = st.sampled_from([hl.preset(name) for name in hl.preset_names()])


TestPresetMachine = PresetMachine.TestCase


class NewMoonRules(hst.HeartsStateMachine):
    """The subclassing example of the docs: a house rule and its own invariant."""

    variant_strategy = hst.variants(
        scoring=hl.ScoringRules(), moon=hl.MoonRules(kind="new"), joker_points=0, winner="lowest"
    )

    @invariant()
    def a_round_scores_the_pack_or_a_new_moon(self) -> None:
        if self.started:
            total = self.match.variant.penalty_total
            for r in self.match.rounds:
                assert sum(r.points) == (-total if r.outcome.shooter is not None else total)


TestNewMoonRules = NewMoonRules.TestCase


# no shrinking: these runs only need to find the planted fault
_QUICK = settings(max_examples=30, stateful_step_count=15, database=None, derandomize=True, deadline=None,
                  phases=(Phase.generate,), report_multiple_bugs=False)


def test_the_machine_catches_an_engine_that_accepts_illegal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    # patched on Match, which the machine calls: a compiled Match calls Round's methods natively, past a
    # patch on the Round class
    real = hl.Match.why_illegal

    def lenient(self: hl.Match, action: hl.Action) -> hl.IllegalAction | None:
        # claims every play is legal, like a buggy engine would
        return None if isinstance(action, hl.Play) else real(self, action)

    monkeypatch.setattr(hl.Match, "why_illegal", lenient)
    with pytest.raises(AssertionError):
        run_state_machine_as_test(hst.HeartsStateMachine, settings=_QUICK)


def test_the_machine_catches_a_copy_that_shares_state(monkeypatch: pytest.MonkeyPatch) -> None:
    def shallow(self: hl.Match) -> hl.Match:
        return self  # not a copy at all

    monkeypatch.setattr(hl.Match, "copy", shallow)
    with pytest.raises(AssertionError):
        run_state_machine_as_test(hst.HeartsStateMachine, settings=_QUICK)


def test_a_subclass_invariant_is_checked() -> None:
    class NeverPlays(hst.HeartsStateMachine):
        variant_strategy = st.just(hl.preset("standard"))

        @invariant()
        def nobody_plays_a_card(self) -> None:
            if self.started:
                assert self.match.phase != hl.Phase.PLAY, "a card is being played"

    with pytest.raises(AssertionError, match="a card is being played"):
        run_state_machine_as_test(NeverPlays, settings=_QUICK)
