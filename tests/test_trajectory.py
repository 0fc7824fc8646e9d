"""OpenSpiel hearts trajectories (heartslib.adapters.trajectory): every preset OpenSpiel's hearts expresses
round-trips its matches, hand by hand; the histories replay in OpenSpiel's own C++ hearts (pyspiel) with the
same legal cards at every play and the same points; variants OpenSpiel cannot play and bad histories raise the
documented errors."""

from __future__ import annotations

import itertools
import random

import pytest

import heartslib as hl
from heartslib.adapters.trajectory import (
    OPENSPIEL_PARAMS,
    from_openspiel,
    openspiel_card,
    params_for,
    to_openspiel,
    variant_for,
)
from heartslib.presets import preset_names
from heartslib.record import to_record


def _played(v: hl.Variant, seed: int, hands: int | None = None) -> hl.Match:
    """A match of ``v`` played at random to its end (or for ``hands`` hands)."""
    m = hl.Match(v, seed)
    rng = random.Random(seed)
    while not m.is_over and (hands is None or m.hand_number < hands):
        m.apply(rng.choice(list(m.legal_actions(m.to_act[0]))))
    return m


def _expressible() -> list[str]:
    names = []
    for name in preset_names():
        try:
            params_for(hl.preset(name))
        except hl.VariantError:
            continue
        names.append(name)
    return names


def test_the_presets_openspiel_expresses_are_the_standard_game_and_danger_hearts() -> None:
    assert _expressible() == ["standard", "danger_hearts"]
    assert params_for(hl.preset("standard")) == {**OPENSPIEL_PARAMS, "qs_breaks_hearts": False}


@pytest.mark.parametrize("name", _expressible())
def test_every_hand_of_an_expressible_presets_match_round_trips(name: str) -> None:
    for seed in range(3):
        m = _played(hl.preset(name), seed)
        params, histories = to_openspiel(m)
        assert len(histories) == len(m.rounds) and {h[0] for h in histories} <= {0, 1, 2, 3}
        for result, history in zip(m.rounds, histories, strict=True):
            hand = from_openspiel(params, history)
            assert hand.is_over and hand.rounds[0].points == result.points
            assert [t.plays for t in hand.rounds[0].round.tricks] == [t.plays for t in result.round.tricks]
            assert to_openspiel(hand) == (params, [history])
        assert to_openspiel(to_record(m)) == (params, histories)  # a record converts as its match does


def test_a_match_covers_every_pass_direction() -> None:
    _, histories = to_openspiel(_played(hl.preset("standard"), 1))
    assert [h[0] for h in histories[:4]] == [1, 3, 2, 0]  # left, right, across, hold: OpenSpiel's 1, 3, 2, 0


def test_a_hand_in_progress_gives_its_history_so_far_and_a_prefix_replays() -> None:
    m = hl.Match(hl.preset("standard"), 5)
    rng = random.Random(5)
    for _ in range(4 + 10):  # the four passes and ten plays
        m.apply(rng.choice(list(m.legal_actions(m.to_act[0]))))
    params, (history,) = to_openspiel(m)
    assert len(history) == 1 + 52 + 12 + 10
    assert from_openspiel(params, history).round.trick == m.round.trick
    assert len(from_openspiel(params, history[:60]).actions) == 2  # seats 0 and 1 have passed; 2 stops midway


def test_the_card_numbers_are_openspiels_rank_major_order() -> None:
    assert [openspiel_card(hl.Card(c)) for c in ("2C", "2D", "2H", "2S", "3C", "AS")] == [0, 1, 2, 3, 4, 51]


SINGLE_FLIPS: list[dict[str, bool]] = [{}] + [{name: not value} for name, value in OPENSPIEL_PARAMS.items()
                                              if name != "pass_cards"]
SOME_PAIRS: list[dict[str, bool]] = [{"qs_breaks_hearts": False, "can_lead_hearts_instead_of_qs": True},
              {"must_break_hearts": False, "jd_bonus": True, "avoid_all_tricks_bonus": True},
              {"no_pts_on_first_trick": False, "can_lead_any_club": True, "qs_breaks_hearts": False}]


@pytest.mark.parametrize("params", SINGLE_FLIPS + SOME_PAIRS, ids=str)
def test_histories_replay_in_openspiels_own_hearts_with_the_same_legal_cards_and_points(
        params: dict[str, bool]) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs open-spiel: pip install 'heartslib[openspiel]'")
    v = variant_for(params)
    game = pyspiel.load_game("hearts", {**OPENSPIEL_PARAMS, **params})
    for seed in range(4):
        m = _played(v, seed)
        params_out, (history,) = to_openspiel(m)
        start = 1 + 52 + (12 if history[0] else 0)
        ours = from_openspiel(params_out, history[:start])
        state = game.new_initial_state()
        for action in history[:start]:
            state.apply_action(action)
        for action in history[start:]:
            assert sorted(state.legal_actions()) == sorted(openspiel_card(c) for c in ours.round.legal_cards())
            state.apply_action(action)
            ours.apply(hl.Play(ours.to_act[0], hl.Card.from_index((action % 4) * 13 + action // 4)))
        assert state.is_terminal()
        assert [26 - r for r in state.returns()] == list(m.rounds[0].points)


@pytest.mark.parametrize(("name", "field"), [("omnibus", "scoring.values"), ("black_maria", "play.opening"),
                                             ("spot_hearts", "scoring.hearts"), ("omnibus_jd", "moon.kind"),
                                             ("double_deck_7", "players")])
def test_a_variant_openspiel_cannot_play_raises_a_variant_error_naming_the_field(name: str, field: str) -> None:
    with pytest.raises(hl.VariantError) as info:
        to_openspiel(hl.Match(hl.preset(name), 1))
    assert info.value.path == field


def test_more_fields_openspiel_does_not_have_are_named() -> None:
    data = hl.preset("standard").to_dict()
    data["moon"]["kind"] = "new"
    with pytest.raises(hl.VariantError, match=r"moon\.kind"):
        params_for(hl.Variant.from_dict(data))
    data = hl.preset("standard").to_dict()
    data["passing"]["cards"] = 4
    with pytest.raises(hl.VariantError, match=r"passing\.cards"):
        params_for(hl.Variant.from_dict(data))
    data = hl.preset("standard").to_dict()
    data["passing"]["schedule"] = ["left", "scatter"]
    with pytest.raises(hl.VariantError, match=r"passing\.schedule"):
        params_for(hl.Variant.from_dict(data))


@pytest.mark.parametrize(("params", "path"), [({"jd": True}, "jd"), ({"jd_bonus": 1}, "jd_bonus"),
                                              ({"pass_cards": False}, "pass_cards")])
def test_bad_parameters_raise_a_variant_error(params: dict[str, object], path: str) -> None:
    with pytest.raises(hl.VariantError) as info:
        variant_for(params)
    assert info.value.path == path


def _good_history() -> list[int]:
    return to_openspiel(_played(hl.preset("standard"), 2, hands=1))[1][0]


def _bad_histories() -> list[tuple[object, str]]:
    good = _good_history()
    deal = good[:53]
    swapped = [*good[:53 + 12], good[53 + 12 + 1], *good[53 + 12 + 1:]]  # the second card played first
    cases: list[tuple[object, str]] = [
        ("1 2 3", "history"), ([4, *deal[1:]], "history[0]"), ([*deal[:10], "x", *deal[11:]], "history[10]"),
        ([*deal[:20], 52, *deal[21:]], "history[20]"), (deal[:30], "history"), ([*deal[:52], deal[1]], "history[1:53]"),
        (swapped, "history[65]"), ([*good, 0], f"history[{len(good)}]"), ([True, *deal[1:]], "history[0]"),
    ]
    holder = good[53:56]  # player 0's pass taken by player 1 as well: cards player 1 does not hold
    cases.append((deal + holder + holder, "history[56]"))
    return cases


@pytest.mark.parametrize("case", range(10))
def test_a_bad_history_raises_a_save_error_naming_the_place(case: int) -> None:
    history, path = _bad_histories()[case]
    with pytest.raises(hl.SaveError) as info:
        from_openspiel({}, history)  # type: ignore[arg-type]
    assert info.value.path == path


def test_every_param_combination_builds_a_variant_that_maps_back() -> None:
    names = [n for n in OPENSPIEL_PARAMS if n != "pass_cards"]
    for values in itertools.product([False, True], repeat=len(names)):
        params = {"pass_cards": True, **dict(zip(names, values, strict=True))}
        back = params_for(variant_for(params))
        if params["must_break_hearts"]:
            assert back == params
        else:  # without the breaking rule the queen breaks nothing: qs_breaks_hearts reads as false
            assert back == {**params, "qs_breaks_hearts": False}
