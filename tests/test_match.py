"""Matches: progression, observations, the event log and validated saves."""

from __future__ import annotations

import json
import random

import attrs
import pytest

import heartslib as hl

STD = hl.preset("standard")


def advance(m: hl.Match, steps: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over:
            return
        seat = m.to_act[rng.randrange(len(m.to_act))]
        acts = m.legal_actions(seat)
        m.apply(acts[rng.randrange(len(acts))])


def test_match_plays_to_the_target_and_rotates_the_dealer() -> None:
    m = hl.Match(STD, seed=1)
    advance(m, 100_000)
    assert m.is_over and max(m.scores) >= 100
    assert [r.dealer for r in m.rounds] == [i % 4 for i in range(len(m.rounds))]
    assert m.winners == tuple(s for s, t in enumerate(m.scores) if t == min(m.scores))
    assert m.legal_actions() == [] and m.phase is hl.Phase.OVER and m.to_act == ()
    with pytest.raises(hl.IllegalAction) as info:
        m.apply(hl.Play(0, "2C"))
    assert info.value.code == "match_over"
    totals = [0, 0, 0, 0]
    for result in m.rounds:
        totals = [a + b for a, b in zip(totals, result.points, strict=True)]
        assert tuple(totals) == result.totals


def test_observation_shows_only_what_the_seat_may_know() -> None:
    m = hl.Match(STD, seed=4)
    obs = m.observation(2)
    assert obs.hand == m.round.hand(2) and obs.hand_sizes == (13, 13, 13, 13)
    assert not hasattr(obs, "hands")
    advance(m, 20)
    obs = m.observation(1)
    assert obs.seat == 1 and obs.phase is m.phase and obs.scores == m.scores
    with pytest.raises(hl.IllegalAction):
        m.observation(7)


@pytest.mark.parametrize("name", ["standard", "gong_zhu_exposed", "omnibus", "double_deck_6_dirty", "spot_hearts"])
def test_the_engine_builds_an_observation_as_its_constructor_would(name: str) -> None:
    # records.observation hands make_observation a dict: it must name exactly the fields, and give the value
    # (equal, hashed alike, frozen) that Observation(**fields) gives, in every phase
    variant = hl.preset(name)
    m = hl.Match(variant, seed=6)
    fields = [f.name for f in attrs.fields(hl.Observation)]
    rng = random.Random(1)
    while not m.is_over and len(m.rounds) < 2:
        for seat in range(variant.players):
            obs = m.observation(seat)
            assert list(vars(obs)) == [*fields, "_variant"] and obs.variant is variant
            made = hl.Observation(**{name: getattr(obs, name) for name in fields})
            assert made == obs and hash(made) == hash(obs) and repr(made) == repr(obs)
            assert made.variant is None
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            obs.seat = 0  # type: ignore[misc]
        seat = m.to_act[0]
        acts = m.legal_actions(seat)
        m.apply(acts[rng.randrange(len(acts))])


def test_observation_unchanged_when_other_hidden_cards_swap() -> None:
    hands = [list(h) for h in hl.Round.deal(STD, seed=8).hands]
    # swap a card between seats 1 and 3 (neither holds 2♣ in the swap) and compare seat 0's view
    a = next(c for c in hands[1] if c.code != "2C")
    b = next(c for c in hands[3] if c.code != "2C")
    swapped = [h[:] for h in hands]
    swapped[1][swapped[1].index(a)] = b
    swapped[3][swapped[3].index(b)] = a
    r1 = hl.Round.from_hands(STD, hands, passing=hl.Offset(1))
    r2 = hl.Round.from_hands(STD, swapped, passing=hl.Offset(1))
    assert r1.observation(0) == r2.observation(0)
    assert r1.observation(1) != r2.observation(1)


def test_event_log_is_append_only_and_complete() -> None:
    m = hl.Match(STD, seed=2)
    advance(m, 200)
    events = m.events
    kinds = {type(e).__name__ for e in events}
    assert {"Pass", "PassesExchanged", "Play", "TrickWon", "RoundScored"} <= kinds
    plays = [e for e in events if isinstance(e, hl.Play)]
    assert plays == [a for a in m.actions if isinstance(a, hl.Play)]
    advance(m, 10, seed=5)
    assert m.events[: len(events)] == events


def test_save_and_resume_mid_hand(tmp_path: object) -> None:
    m = hl.Match(STD, seed=99)
    advance(m, 77)
    text = m.to_json(indent=2)
    loaded = hl.Match.from_json(text)
    assert loaded == m and loaded.to_json(indent=2) == text
    assert loaded.legal_actions(loaded.to_act[0]) == m.legal_actions(m.to_act[0])


def test_from_deal_round_trips_through_json() -> None:
    hands = hl.Round.deal(STD, seed=3).hands
    m = hl.Match.from_deal(STD, hands, scores=(90, 95, 63, 50), dealer=2, hand_number=5, seed=7)
    assert m.scores == (90, 95, 63, 50) and m.round.dealer == 2 and m.hand_number == 5
    assert m.round.passing == hl.Offset(-1)  # hand 5 of the four-way cycle: right
    advance(m, 40)
    assert hl.Match.from_json(m.to_json()) == m


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d["variant"].update(players=12), "variant.players"),
        (lambda d: d["variant"]["moon"].update(kind="sideways"), "variant.moon.kind"),
        (lambda d: d["actions"][6].update(card="2C"), "actions[6]"),
        (lambda d: d["actions"][0].update(cards=["ZZ", "2C", "3C"]), "actions[0]"),
        (lambda d: d["actions"].insert(1, {"type": "play", "seat": 0, "card": "2C"}), "actions[1]"),
        (lambda d: d["actions"].append({"type": "jump", "seat": 0}), "actions["),
        (lambda d: d["state"].update(scores=[0, 0, 0, 1]), "state"),
        (lambda d: d["actions"].pop(), "state"),
        (lambda d: d.update(seed="seven"), "seed"),
        (lambda d: d.pop("actions"), ""),
        (lambda d: d.update(extra=1), ""),
        (lambda d: d.update(deal={"hands": [["2C"]], "kitty": [], "passing": "hold"}), "deal"),
    ],
)
def test_corrupted_or_hand_edited_saves_are_rejected(edit: object, path: str) -> None:
    m = hl.Match(STD, seed=12)
    advance(m, 30)
    data = json.loads(m.to_json())
    edit(data)  # type: ignore[operator]
    with pytest.raises(hl.SaveError) as info:
        hl.Match.from_json(json.dumps(data))
    assert info.value.path.startswith(path)
    assert isinstance(info.value, ValueError)


def test_not_json_at_all() -> None:
    for text in ("", "{", "[]", "null", '"x"'):
        with pytest.raises(hl.SaveError):
            hl.Match.from_json(text)


def test_match_rejects_bad_arguments() -> None:
    with pytest.raises(hl.VariantError):
        hl.Match("standard", seed=1)  # type: ignore[arg-type]
    # a seed of the wrong type: the compiled build rejects it at the call (TypeError), as it does for Round.deal
    with pytest.raises(TypeError if hl.COMPILED else ValueError, match="int" if hl.COMPILED else "seed"):
        hl.Match(STD, seed="x")  # type: ignore[arg-type]
    with pytest.raises(hl.IllegalAction):
        hl.Match(STD, seed=1, dealer=4)
    with pytest.raises(hl.CardError, match="hand 0 has 1 cards"):
        hl.Match.from_deal(STD, ["2C"] * 4)
    hands = [list(h) for h in hl.Round.deal(STD, seed=3).hands]
    hands[0][0] = hands[1][0]
    with pytest.raises(hl.CardError, match="too many copies"):
        hl.Round.from_hands(STD, hands)
    with pytest.raises(hl.IllegalAction, match="dealer 4 does not exist"):
        hl.Round.deal(STD, seed=1, dealer=4)
    with pytest.raises(hl.CardError, match="expected 4 hands"):
        hl.Round.from_hands(STD, 5)  # type: ignore[arg-type]


def test_round_rejects_a_dealer_of_the_wrong_type_by_name() -> None:
    # the pure build names the argument; the compiled build rejects the type at the call (TypeError)
    expected: type[Exception] = TypeError if hl.COMPILED else hl.IllegalAction
    with pytest.raises(expected, match="dealer 'x' does not exist" if not hl.COMPILED else "int"):
        hl.Round.deal(STD, seed=1, dealer="x")  # type: ignore[arg-type]


def test_seedless_match_records_its_seed() -> None:
    m = hl.Match(STD)
    assert isinstance(m.seed, int)
    advance(m, 60)
    assert hl.Match.from_json(m.to_json()) == m


def test_actions_text_and_dict_forms_round_trip() -> None:
    for action in (hl.Play(3, "QS"), hl.Pass(1, hl.parse_cards("AS KS QS")), hl.Choose(0, "new")):
        assert hl.action_from_text(action.text()) == action
        assert hl.action_from_dict(action.to_dict()) == action
        assert eval(repr(action), {**vars(hl), "Card": hl.Card, "parse_cards": hl.parse_cards}) == action
    with pytest.raises(ValueError):
        hl.action_from_text("play QS")


def test_copies_share_the_generator_until_they_draw() -> None:
    # a copy keeps the generator's saved state and makes its own only to draw: the original drawing on
    # (the next deal, a shuffle pass) must not move a copy's, and each copy deals what the original dealt
    for schedule in (["left"], ["shuffle"]):
        v = hl.preset("standard").replace(passing={"schedule": schedule})
        m = hl.Match(v, seed=11)
        early = m.copy()
        rng = random.Random(3)
        actions: list[hl.Action] = []
        mid, mid_at = None, 0
        while m.hand_number < 2:
            if mid is None and m.hand_number == 1 and m.phase == hl.Phase.PASS:
                mid, mid_at = m.copy(), len(actions)  # with a shuffle pass still to draw
            legal = m.legal_actions(m.to_act[0])
            action = legal[rng.randrange(len(legal))]
            actions.append(action)
            m.apply(action)
        assert mid is not None
        for copy, start in ((early, 0), (early.copy(), 0), (mid, mid_at)):
            for action in actions[start:]:
                copy.apply(action)
            assert copy == m and copy.round.hands == m.round.hands


def test_a_matchs_round_refuses_to_move_on_behind_the_match() -> None:
    # match.round.apply(...) bypassed the match: the match's record missed the action, its save could not be
    # loaded ("0:play 2C: cards are not being played now"), and a hand finished that way was refused only at the
    # next match.apply. Now the round refuses, names the match's own door, and changes nothing.
    import pickle
    import random

    m = hl.Match(hl.preset("standard"), seed=1)
    before = m.copy()
    action = m.legal_actions(0)[0]
    for attempt in (lambda: m.round.apply(action), lambda: m.round.random_playout(random.Random(1)),
                    lambda: m.round.script_shuffle_pass([(), (), (), ()]),
                    lambda: m.copy().round.apply(action), lambda: pickle.loads(pickle.dumps(m)).round.apply(action)):
        with pytest.raises(hl.IllegalAction, match=r"a match's \(match\.round\).*match\.apply") as info:
            attempt()
        assert info.value.code == "round_in_match"
        assert m == before and m.round == before.round
    # what the game allows is still answered there, and a copy of the round is the caller's own
    assert m.round.is_legal(action) and m.round.why_illegal(action) is None
    mine = m.round.copy()
    mine.apply(action)
    assert mine.rollout_points(random.Random(2)) == mine.copy().random_playout(random.Random(2))
    # the match's own doors work, the round goes on refusing, and the save loads
    m.apply(action)
    with pytest.raises(hl.IllegalAction) as info:
        m.round.apply(m.legal_actions(1)[0])
    assert info.value.code == "round_in_match"
    assert hl.Match.from_json(m.to_json()) == m
    # a round unpickled alone is its caller's
    alone = pickle.loads(pickle.dumps(m.round))
    alone.apply(m.legal_actions(1)[0])


def test_a_matchs_round_refuses_script_shuffle_pass_but_the_match_scripts_it() -> None:
    v = hl.preset("standard").replace(passing={"schedule": ["shuffle"]})
    m = hl.Match(v, seed=1)
    first = [m.round.hand(seat)[:3] for seat in range(4)]
    with pytest.raises(hl.IllegalAction) as info:
        m.round.script_shuffle_pass([first[3], first[0], first[1], first[2]])
    assert info.value.code == "round_in_match"
    m.script_shuffle_pass([first[3], first[0], first[1], first[2]])
    for seat in range(4):
        m.apply(hl.Pass(seat, first[seat]))
    assert m.round.received is not None and m.round.received[0] == first[3]


def test_a_record_given_to_from_json_is_named_as_a_record() -> None:
    import json

    from heartslib.record import to_record

    record = json.dumps(to_record(hl.Match(hl.preset("standard"), seed=7)))
    with pytest.raises(hl.SaveError, match=r"a game record, not a save: heartslib\.record\.from_record") as info:
        hl.Match.from_json(record)
    assert info.value.path == "format"


def test_a_save_edited_to_another_player_count_names_the_scores() -> None:
    # it said "a save without a set deal starts at hand 0 with zero scores", which this save does
    import json

    data = json.loads(hl.Match(hl.preset("standard"), seed=1).to_json())
    data["variant"]["players"] = 5
    with pytest.raises(hl.SaveError, match="4 scores for the variant's 5 players") as info:
        hl.Match.from_json(json.dumps(data))
    assert info.value.path == "scores"
