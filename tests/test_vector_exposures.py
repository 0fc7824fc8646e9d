"""heartslib.vector's exposed cards (``scoring.exposable``, Gong Zhu's "selling"), held to the engine: the
exposing decision of every seat from the leader on before the first lead (its options as the encoding numbers
them), the rule that an exposed card is not played the first time its suit is led, the doubled points (the
trick's points shown during the hand, the hand's score, an exposed multiplier), and the observation's
``decision`` and ``exposed`` sections.

Every game is mirrored by the engine's ``Round`` at every step (``test_vector.drive``); a policy that exposes
every card it may makes the exposures (and the rule on them) come up in every game.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import heartslib as hl  # noqa: E402
from heartslib.adapters.encoding import Turns  # noqa: E402
from heartslib.vector import Env  # noqa: E402
from heartslib.vector.kernel import DECIDE  # noqa: E402
from test_vector import drive  # noqa: E402
from test_vector_scoring import FEW_HEARTS, deals  # noqa: E402

GONG_ZHU = hl.preset("gong_zhu_exposed")
#: Q♠ exposable in the standard game (lowest total wins), a moon rule, passes: the exposures after the exchange.
QS_EXPOSED = hl.preset("standard").replace(scoring={"exposable": {"QS": "card"}})
#: Gong Zhu's exposures with every heart but K♥ and A♥ stripped: the all-hearts flip of doubled hearts.
FEW = GONG_ZHU.replace(deck=FEW_HEARTS)


def bold(env: Env, state: Any, rng: Any, share: float) -> Any:
    """Random legal actions, but a seat exposing exposes every card it may (the largest legal option id) in a
    ``share`` of the decisions."""
    actions = env.random_actions(state, rng)
    mask = np.asarray(state.legal_action_mask)
    exposing = (np.asarray(state.phase) == DECIDE) & (np.asarray(state.trick_no) == 0)
    most = mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
    return np.where(exposing & (rng.random(len(actions)) < share), most, actions)


@pytest.mark.parametrize("v", [GONG_ZHU, QS_EXPOSED, FEW], ids=["gong_zhu_exposed", "qs_exposed", "few_hearts"])
def test_exposures_play_as_the_engine(v: hl.Variant) -> None:
    env = Env(v)
    rounds = deals(v, 24, scores=True)
    turns = [Turns(env.encoding, r.copy()) for r in rounds]
    state = drive(env, env.from_rounds(rounds), turns, 4, functools.partial(bold, share=0.7))
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round
    assert sum(bool(t.round.exposed) for t in turns) >= len(turns) // 2


def test_an_exposed_card_is_barred_the_first_time_its_suit_is_led() -> None:
    """The rule is reached: in some game the engine refuses an exposed card held with others of its suit, with
    the exposed-card code, and the environment's mask leaves it out (``drive`` compares the masks)."""
    v = GONG_ZHU
    env = Env(v)
    rounds = deals(v, 12)
    turns = [Turns(env.encoding, r.copy()) for r in rounds]
    barred = 0

    def watch(env: Env, state: Any, rng: Any) -> Any:
        nonlocal barred
        for t in turns:
            r = t.round
            seat = t.current()
            if seat is None or r.phase is not hl.Phase.PLAY:
                continue
            for card in r.exposed:
                if card in r.hand(seat) and not r.is_legal(hl.Play(seat, card)):
                    why = r.why_illegal(hl.Play(seat, card))
                    barred += why is not None and why.code == "exposed_card_first_lead"
        return bold(env, state, rng, 1.0)

    drive(env, env.from_rounds(rounds), turns, 6, watch)
    assert barred


def test_a_game_taken_mid_exposure_round_trips_and_plays_on() -> None:
    """from_rounds takes a round whose seats are exposing (some have decided), and to_round gives it back."""
    v = GONG_ZHU
    env = Env(v)
    rounds = []
    for seed, decided in ((1, 0), (2, 1), (3, 3)):
        t = Turns(env.encoding, hl.Round.deal(v, seed=seed))
        for _ in range(decided):
            seat = t.current()
            assert seat is not None
            t.apply_id(seat, max(t.legal_ids(seat)))
        assert t.round.phase is hl.Phase.DECIDE
        rounds.append(t.round)
    state = env.from_rounds(rounds)
    for g, r in enumerate(rounds):
        assert env.to_round(state, g) == r
    turns = [Turns(env.encoding, r.copy()) for r in rounds]
    state = drive(env, state, turns, 2)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round
