"""Bad input gets the documented error (issue 20): numbers in range, parsers that fail cleanly, arguments
of the right type, passes that can be made, saves that are what they say."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst
from heartslib.points import MAX_SCORE, MAX_SEED
from heartslib.serialize import parse_score

STD = hl.preset("standard")
HANDS = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
         "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]


def _play_some(m: hl.Match, steps: int, seed: int = 0) -> hl.Match:
    rng = random.Random(seed)
    for _ in range(steps):
        m.apply(hst.random_action(m, rng))
    return m


# --------------------------------------------------------------------------- numbers have limits


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"scoring": {"values": {"QS": 10**400}}}, "scoring.values.QS"),
        ({"scoring": {"values": {"QS": 100_001}}}, "scoring.values.QS"),
        ({"scoring": {"values": {"QS": "13000000i"}}}, "scoring.values.QS"),
        ({"moon": {"points": 10**20}}, "moon.points"),
        ({"scoring": {"multiply": {"TC": 101}}}, "scoring.multiply.TC"),
        ({"scoring": {"multiply_alone": {"TC": 10**6}, "multiply": {"TC": 2}}}, "scoring.multiply_alone.TC"),
        # multipliers compound: a hand must stay far below the exact range of complex scores
        ({"scoring": {"multiply": {c: 100 for c in hl.parse_cards("TC JC QC KC AC 9C")}}}, "scoring.multiply"),
        ({"end": {"target": 10**7}}, "end.target"),
    ],
)
def test_every_number_in_a_variant_has_a_limit(changes: dict[str, Any], path: str) -> None:
    with pytest.raises(hl.VariantError, match="too large") as info:
        STD.replace(**changes)
    assert info.value.path == path


def test_huge_card_values_no_longer_crash_scoring_or_the_heuristic_agent() -> None:
    v = STD.replace(scoring={"values": {"QS": 100_000, "JD": "-100000+100000i"}}, end={"measure": "magnitude"})
    stats = hl.simulate(v, ["heuristic", "random", "random", "random"], games=1, seed=1)
    assert stats.games == 1


def test_scores_are_exact_or_refused() -> None:
    assert parse_score("999999999999999i") == 999999999999999j
    for text in ("12345678901234567891i", "1" * 5000, "-1000000000000001", "3+" + "9" * 30 + "i"):
        with pytest.raises(ValueError, match="too large"):
            parse_score(text)
    with pytest.raises(ValueError, match="is not a score"):
        parse_score("١٣")  # digits of another script are not read as a number


def test_a_save_with_huge_scores_or_seeds_is_a_save_error() -> None:
    base = hl.Match.from_deal(STD, HANDS, scores=(1, 2, 3, 4), seed=5).to_dict()
    for key, value in [("scores", ["12345678901234567891i", 0, 0, 0]), ("scores", [10**16, 0, 0, 0]),
                       ("seed", -1), ("seed", 2**64), ("hand_number", 10**10)]:
        data = dict(base, **{key: value})
        with pytest.raises(hl.SaveError) as info:
            hl.Match.from_json(json.dumps(data))
        assert info.value.path == key, (key, value, info.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: hl.Match(STD, seed="1"),
        lambda: hl.Match(STD, seed=-1),
        lambda: hl.Match(STD, seed=MAX_SEED + 1),
        lambda: hl.Round.deal(STD, seed=1.5),
        lambda: hl.Round.deal(STD, seed=1, hand_number=-1),
        lambda: hl.Match.from_deal(STD, HANDS, hand_number=-1),
        lambda: hl.Match.from_deal(STD, HANDS, scores=(MAX_SCORE + 1, 0, 0, 0)),
        lambda: hl.Match.from_deal(STD, HANDS, scores=(1.5, 0, 0, 0)),
        lambda: hl.Match.from_deal(STD, HANDS, scores=5),
        lambda: hl.Round.from_hands(STD, HANDS, passing="sideways"),
        lambda: hl.Round.from_hands(STD, HANDS, seed=1, rng=random.Random(1)),
    ],
)
def test_bad_arguments_raise_illegal_action_bad_argument(call: Any) -> None:
    # the compiled build checks argument types at the call, so a wrongly typed argument to a compiled function
    # is a TypeError there (docs/performance.md, "Two builds"); a value of the right type is checked the same way
    with pytest.raises((hl.IllegalAction, TypeError) if hl.COMPILED else hl.IllegalAction) as info:
        call()
    if isinstance(info.value, hl.IllegalAction):
        assert info.value.code == "bad_argument"


# --------------------------------------------------------------------------- parsers fail cleanly


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"a": ' * 5000 + "1" + "}" * 5000, "1" * 5000, '{"seed": ' + "7" * 4400 + "}",
     b"\xff\xfe\xfa", b'{"format": "\xff"}', "", "NaN"],
)
def test_any_text_is_a_save_or_a_save_error(text: str | bytes) -> None:
    with pytest.raises(hl.SaveError):
        hl.Match.from_json(text)


@pytest.mark.parametrize(
    "text",
    ["a = " + "[" * 5000 + "]" * 5000, "a = " + "{ b = " * 3000 + "1" + " }" * 3000, "players = " + "4" * 5000,
     "[deck]\ndecks = " + "1" * 4400],
)
def test_any_toml_is_a_variant_or_a_variant_error(text: str) -> None:
    with pytest.raises(hl.VariantError):
        hl.Variant.from_toml(text)


def test_a_file_that_is_not_utf8_or_cannot_be_read_is_a_variant_error(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('name = "Cœur"\n'.encode("cp1252"))
    with pytest.raises(hl.VariantError, match="not UTF-8"):
        hl.Variant.from_toml(bad)
    with pytest.raises(hl.VariantError, match="cannot read"):
        hl.Variant.from_toml("x" * 100_000 + ".toml")
    with pytest.raises(hl.VariantError, match="cannot read"):
        hl.Variant.from_toml(tmp_path)  # a directory


@pytest.mark.parametrize("data", [{1: 2, "a": 3}, {"deck": {1: 2, "decks": 1, (1, 2): 3}}, {None: 1, 2.5: 2}])
def test_keys_of_any_type_are_reported_not_sorted_into_a_type_error(data: dict[Any, Any]) -> None:
    with pytest.raises(hl.VariantError, match="unknown field"):
        hl.Variant.from_dict(data)


@given(st.text(max_size=12))
def test_any_name_round_trips_through_toml_or_is_refused(name: str) -> None:
    try:
        v = STD.replace(name=name)
    except hl.VariantError:
        return  # a lone surrogate is not text a file can hold
    assert hl.Variant.from_toml(v.to_toml()) == v


def test_control_characters_in_names_are_escaped_in_toml() -> None:
    v = STD.replace(name="a\x7fb\x00c\x1f\u0085", source="\t\n")
    text = v.to_toml()
    assert "\x7f" not in text and "\\u007F" in text
    assert hl.Variant.from_toml(text) == v
    with pytest.raises(hl.VariantError, match="lone surrogate"):
        STD.replace(name="\ud800")


# --------------------------------------------------------------------------- seats, cards and actions


def test_seats_are_ints_and_cards_are_checked() -> None:
    r = hl.Round.from_hands(STD, HANDS, passing=hl.HOLD)
    r.apply(hl.Play(0, "2C"))  # seat 1 to play: True == 1 and 1.0 == 1 must not pass for it
    # the compiled build types its arguments at the call (docs/performance.md): a float or text seat is a
    # TypeError there, and a bool reaches it as the int it is
    for seat in (True, 1.0, "1", -1, 4) if not hl.COMPILED else (-1, 4):
        with pytest.raises(hl.IllegalAction) as info:
            r.legal_actions(seat)  # type: ignore[arg-type]
        assert info.value.code == "no_such_seat"
        with pytest.raises(hl.IllegalAction):
            hl.Match(STD, seed=1).legal_actions(seat)  # type: ignore[arg-type]
    for rank, suit in [(2, 7), (2.0, 0), (True, 0), (2, True), (1, 0), ("2", 0)]:
        with pytest.raises(hl.CardError):
            hl.Card(rank, suit)  # type: ignore[arg-type]
    with pytest.raises(hl.CardError):
        hl.Card.from_index(True)
    for bad in (lambda: hl.Play(True, "2C"), lambda: hl.Pass(-1, "2C"), lambda: hl.Choose(0, 5)):
        with pytest.raises(hl.IllegalAction):
            bad()  # type: ignore[no-untyped-call]


def _forged(cls: type[Any], **fields: Any) -> Any:
    action = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


@pytest.mark.parametrize(
    "action",
    [
        _forged(hl.Play, seat=True, card=hl.Card("2D")),
        _forged(hl.Play, seat=1, card="2D"),
        _forged(hl.Play, seat=1.0, card=hl.Card("2D")),
        _forged(hl.Play, seat=1),
        _forged(hl.Pass, seat=0, cards=["2C", "3C", "4C"]),
        _forged(hl.Choose, seat=0, option=None),
        "1:play 2D",
    ],
)
def test_an_action_built_around_its_constructor_is_refused_and_changes_nothing(action: Any) -> None:
    for state in (hl.Match.from_deal(STD, HANDS, passing=hl.HOLD, seed=1),
                  hl.Match.from_deal(STD, HANDS, seed=1)):
        if state.phase == hl.Phase.PLAY:
            state.apply(hl.Play(0, "2C"))
        before, saved = state.copy(), state.to_json()
        assert not state.is_legal(action)
        with pytest.raises(hl.IllegalAction):
            state.apply(action)
        assert state == before and state.to_json() == saved and len(state.actions) == len(before.actions)


# --------------------------------------------------------------------------- passes that can be made


def test_an_explicit_pass_the_deal_cannot_make_is_refused() -> None:
    clubs = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"
    v = STD.replace(passing={"forbidden": clubs, "cards": 2})  # the schedule's passes fit any deal
    for passing in (hl.SCATTER, hl.STAR):
        for make in (hl.Round.from_hands, hl.Match.from_deal):
            with pytest.raises(hl.IllegalAction, match="impossible") as info:
                make(v, HANDS, passing=passing)
            assert info.value.code == "bad_argument"
    big = STD.replace(passing={"cards": 14, "schedule": ["hold"]})
    with pytest.raises(hl.IllegalAction, match="14 card"):
        hl.Round.from_hands(big, HANDS, passing=hl.Offset(1))
    with pytest.raises(hl.IllegalAction, match="dealer's choice"):
        hl.Round.from_hands(big, HANDS, passing=hl.DEALERS_CHOICE)
    assert hl.Round.from_hands(v, HANDS, passing=hl.Offset(1)).pass_count == 2


_DIRECTIONS = st.sampled_from([hl.HOLD, hl.SCATTER, hl.STAR, hl.SHUFFLE, hl.DEALERS_CHOICE, hl.Offset(1),
                               hl.Offset(-1), hl.Offset(2), hl.Offset(3)])


@settings(max_examples=12)
@given(hst.deals(hst.variants(players=st.sampled_from([4, 5]), decks=1)), _DIRECTIONS, st.integers(0, 2**32 - 1))
def test_every_seat_to_act_has_a_legal_action(deal: Any, passing: Any, seed: int) -> None:
    """In any state reachable from any deal and any explicit pass direction, each seat in to_act can act."""
    v, hands, kitty = deal
    try:
        r = hl.Round.from_hands(v, hands, kitty=kitty, passing=passing, seed=seed)
    except hl.IllegalAction as exc:
        assert exc.code == "bad_argument"
        return
    rng = random.Random(seed)
    while not r.is_over:
        for seat in r.to_act:
            if r.phase == hl.Phase.PASS:
                assert len(r.pass_rules(seat).choices()[:1]) == 1, (seat, r)
            else:
                assert r.legal_actions(seat), (seat, r)
        r.apply(hst.random_action(r, rng))


@settings(max_examples=8)
@given(hst.matches())
def test_every_seat_to_act_in_a_drawn_match_has_a_legal_action(m: hl.Match) -> None:
    for seat in m.to_act:
        rnd = m.round
        assert (rnd.pass_rules(seat).choices()[:1] if rnd.phase == hl.Phase.PASS else m.legal_actions(seat)), seat


# --------------------------------------------------------------------------- saves


def test_to_dict_returns_copies() -> None:
    m = _play_some(hl.Match.from_deal(STD, HANDS, scores=(1, 2, 3, 4), seed=2), 10)
    copy = m.copy()
    data = m.to_dict()
    text = json.dumps(data, sort_keys=True)
    data["deal"]["hands"][0].append("ZZ")
    data["deal"]["kitty"].append("ZZ")
    data["variant"]["scoring"]["values"]["QS"] = 99
    data["actions"][0]["seat"] = 7
    data["scores"].append(5)
    data["state"]["scores"] = []
    for again in (m.to_dict(), copy.to_dict()):
        assert json.dumps(again, sort_keys=True) == text


def _edited(m: hl.Match, edit: Any) -> str:
    data = m.to_dict()
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["variant"]["end"].update(target=150),
        lambda d: d["variant"]["scoring"]["values"].update(QS=12),
        lambda d: d.update(seed=d["seed"] + 1),
        lambda d: d.update(dealer=1),
        lambda d: d["variant"].update(name="mine"),
    ],
)
def test_edits_that_keep_the_replay_legal_are_refused_by_the_digest(edit: Any) -> None:
    m = hl.Match(STD, seed=4)  # no action yet: a new seed or dealer replays as well as the old
    with pytest.raises(hl.SaveError) as info:
        hl.Match.from_json(_edited(m, edit))
    assert info.value.path == "digest"


def test_the_digest_is_checked_after_the_replay() -> None:
    m = _play_some(hl.Match(STD, seed=4), 12)
    with pytest.raises(hl.SaveError) as info:
        hl.Match.from_json(_edited(m, lambda d: d["actions"][5].update(card="AS")))
    assert info.value.path == "actions[5]"
    with pytest.raises(hl.SaveError) as info:
        hl.Match.from_json(_edited(m, lambda d: d.update(digest=7)))
    assert info.value.path == "digest"
    with pytest.raises(hl.SaveError) as info:
        hl.Match.from_json(_edited(m, lambda d: d.pop("digest")))
    assert "missing digest" in str(info.value)
    assert hl.Match.from_json(m.to_json()) == m


# --------------------------------------------------------------------------- arguments of the wrong type

#: What a wrongly typed argument raises: the documented error in the pure build; the compiled build types the
#: arguments of its compiled functions at the call, a TypeError there (docs/performance.md, "Two builds").
def _refused(error: type[Exception]) -> Any:
    return (error, TypeError) if hl.COMPILED else error


def test_an_unknown_keyword_of_a_variant_or_a_section_is_a_variant_error_naming_it() -> None:
    """``Variant(zzz=1)`` was the TypeError of the ``__init__`` attrs writes; it is reported as
    ``Variant.from_dict`` reports an unknown key: at its path, with every field, and the closest name."""
    with pytest.raises(hl.VariantError) as info:
        hl.Variant(zzz=1)  # type: ignore[call-arg]
    assert info.value.path == "zzz"
    with pytest.raises(hl.VariantError) as from_dict:
        hl.Variant.from_dict({"zzz": 1})
    assert str(info.value) == str(from_dict.value)
    assert "a variant has deck, direction, end" in str(info.value)
    with pytest.raises(hl.VariantError, match="did you mean players") as info:
        hl.Variant(playrs=5)  # type: ignore[call-arg]
    assert info.value.path == "playrs"
    with pytest.raises(hl.VariantError, match="did you mean decks") as info:
        hl.DeckRules(dekcs=2)  # type: ignore[call-arg]
    assert info.value.path == "deck.dekcs"
    with pytest.raises(hl.VariantError) as info:
        hl.MoonRules(kind="new", knd="old", zzz=1)  # type: ignore[call-arg]
    assert [p for p, _ in info.value.problems] == ["moon.knd", "moon.zzz"]
    with pytest.raises(hl.VariantError) as info:
        STD.replace(zzz=1)
    assert info.value.path == "zzz"
    assert hl.Variant(players=5).players == 5 and hl.MoonRules(kind="new").kind == hl.MoonKind.NEW


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: hl.Round.deal(STD, rng="x"), id="deal"),
        pytest.param(lambda: hl.Round.deal(STD, rng=1), id="deal-int"),
        pytest.param(lambda: hl.Round.from_hands(STD, HANDS, rng=1.5), id="from_hands"),
        pytest.param(lambda: hl.Round.deal(STD, seed=1).copy(rng=[]), id="copy"),
    ],
)
def test_an_rng_that_is_not_a_random_random_is_a_bad_argument(call: Any) -> None:
    with pytest.raises(_refused(hl.IllegalAction)) as info:
        call()
    if isinstance(info.value, hl.IllegalAction):
        assert info.value.code == "bad_argument" and "random.Random" in str(info.value)


def test_the_helpers_that_draw_need_a_random_random() -> None:
    from heartslib.inference import Sampler, sample_round

    r = hl.Round.deal(STD, seed=1)
    for bad in (None, "x", 7):
        with pytest.raises(hl.IllegalAction, match=r"random\.Random"):
            hst.random_action(r, bad)
        with pytest.raises(hl.IllegalAction, match=r"random\.Random"):
            sample_round(r.observation(0), bad, variant=STD)
        with pytest.raises(hl.IllegalAction, match=r"random\.Random"):
            Sampler(r.observation(0), STD).draw(bad)
    with pytest.raises(hl.VariantError, match="expected a Variant"):
        sample_round(r.observation(0), random.Random(1), variant="standard")  # type: ignore[arg-type]


@pytest.mark.parametrize("method", ["random_playout", "rollout_points"])
@pytest.mark.parametrize("bad", [None, "x", 7])
def test_a_playout_with_an_rng_that_is_not_a_random_random_changes_nothing(method: str, bad: Any) -> None:
    # the fast loop empties the hands before its first draw: the generator is checked before anything changes
    r = hl.Round.from_hands(STD, hl.Round.deal(STD, seed=3).hands, passing=hl.HOLD)
    before = r.copy()
    with pytest.raises(_refused(hl.IllegalAction)):
        getattr(r, method)(bad)
    assert r == before and r.events == before.events


@pytest.mark.parametrize("text", [None, 1.5, b"0:play QS", ["0:play QS"], "play QS", ""])
def test_action_from_text_of_anything_but_the_text_of_an_action_is_not_an_action(text: Any) -> None:
    with pytest.raises(hl.IllegalAction) as info:
        hl.action_from_text(text)
    assert info.value.code == "not_an_action"
    assert hl.action_from_text(" 0:play QS ") == hl.Play(0, "QS")


def test_offsets_and_pass_names_check_their_arguments() -> None:
    for k in (None, "1", 1.5, True, []):
        with pytest.raises(hl.IllegalAction, match="whole number of seats") as info:
            hl.Offset(k)  # type: ignore[arg-type]
        assert info.value.code == "bad_argument"
    for players in (None, "4", 0, -1, 4.0):
        with pytest.raises(hl.IllegalAction, match="players"):
            hl.Offset(1).name(players)  # type: ignore[arg-type]
        with pytest.raises(hl.IllegalAction, match="players"):
            hl.pass_name(hl.SCATTER, players)  # type: ignore[arg-type]
    with pytest.raises(hl.IllegalAction, match="pass direction"):
        hl.pass_name("left", 4)  # type: ignore[arg-type]
    assert hl.pass_name(hl.Offset(-1), 4) == "right" and hl.Offset(2).name(5) == "left-2"


_TAKEN = ["QS 2H", "3H", "", "4H 5H"]
#: The compiled build reads a bool where it expects an int as the int it is (docs/performance.md, "Two builds").
_BOOL_IS_INT = pytest.mark.skipif(hl.COMPILED, reason="compiled: a bool reaches an int argument as the int it is")


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"variant": None}, hl.VariantError),
        ({"variant": "standard"}, hl.VariantError),
        ({"taken": None}, hl.IllegalAction),
        ({"taken": 1.5}, hl.IllegalAction),
        ({"taken": [None, "3H", "", ""]}, hl.CardError),
        ({"trick_winners": 1.5}, hl.IllegalAction),
        pytest.param({"trick_winners": [0, 1, 2, True]}, hl.IllegalAction, marks=_BOOL_IS_INT),
        ({"tricks_won": -1}, hl.IllegalAction),
        ({"tricks_won": [4, 3, 3, None]}, hl.IllegalAction),
        ({"dead": 1.5}, hl.IllegalAction),
        pytest.param({"dead": [0, 0, 0, True]}, hl.IllegalAction, marks=_BOOL_IS_INT),
        ({"passing": "left"}, hl.IllegalAction),
        ({"passing": None}, hl.IllegalAction),
        ({"scores": 1.5}, hl.IllegalAction),
        ({"scores": [0, 0, 0, "1"]}, hl.IllegalAction),
        pytest.param({"hand_number": True}, hl.IllegalAction, marks=_BOOL_IS_INT),
        ({"hand_number": "0"}, hl.IllegalAction),
    ],
)
def test_score_cards_checks_every_argument(changes: dict[str, Any], error: type[Exception]) -> None:
    from heartslib.scoring import score_cards

    kwargs: dict[str, Any] = {"variant": STD, "taken": _TAKEN, **changes}
    with pytest.raises(_refused(error)) as info:
        score_cards(kwargs.pop("variant"), kwargs.pop("taken"), **kwargs)
    if isinstance(info.value, hl.IllegalAction):
        assert info.value.code == "bad_argument"
    assert score_cards(STD, _TAKEN, tricks_won=[4, 3, 3, 3], scores=(1, 2, 3, 4)).points == (14, 1, 0, 2)


def test_turns_apply_id_refuses_an_index_that_is_not_a_whole_number() -> None:
    from heartslib.adapters.encoding import Encoding, Turns

    turns = Turns(Encoding(STD), hl.Round.deal(STD, seed=1))
    seat = turns.current()
    assert seat is not None
    legal = turns.legal_ids(seat)
    for bad in (1.5, float(legal[0]), None, str(legal[0]), True, [legal[0]]):
        with pytest.raises(hl.IllegalAction) as info:
            turns.apply_id(seat, bad)  # type: ignore[arg-type]
        assert info.value.code == "illegal_action_index"
        assert turns.pending == [] and turns.legal_ids(seat) == legal
    with pytest.raises(hl.IllegalAction) as info:
        turns.apply_id("0", legal[0])  # type: ignore[arg-type]
    assert info.value.code == "no_such_seat"
    assert turns.apply_id(seat, legal[0]) is None and len(turns.pending) == 1
    np = pytest.importorskip("numpy")
    assert turns.apply_id(seat, np.int64(turns.legal_ids(seat)[0])) is None  # an index from a NumPy space


def test_pettingzoo_step_takes_none_only_from_a_finished_agent() -> None:
    pytest.importorskip("pettingzoo", exc_type=ImportError)
    from heartslib.adapters.pettingzoo import raw_env

    env = raw_env("standard")
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)
    for bad in (None, 1.5, True, "3", -1):
        with pytest.raises(hl.IllegalAction) as info:
            env.step(bad)
        assert info.value.code == "illegal_action_index" and "None" in str(info.value)
        assert env.agent_selection == agent
        assert (env.observe(agent)["observation"] == before["observation"]).all()
    for name in ("player_9", None, []):
        with pytest.raises(hl.IllegalAction) as info:
            env.observe(name)  # type: ignore[arg-type]
        assert info.value.code == "no_such_seat"
        with pytest.raises(hl.IllegalAction):
            env.action_space(name)  # type: ignore[arg-type]
    with pytest.raises(hl.IllegalAction, match="seed"):
        env.reset(seed="3")  # type: ignore[arg-type]
    # the AEC contract: a terminated agent steps with None (and only with None)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(mask.nonzero()[0][0]))
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    while env.agents:
        env.step(None)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        pytest.param(lambda: hl.Round.deal(None), hl.VariantError, id="Round.deal"),
        pytest.param(lambda: hl.Round.from_hands("standard", HANDS), hl.VariantError, id="Round.from_hands"),
        pytest.param(lambda: hl.Round.deal(STD, seed=1).script_shuffle_pass(None), hl.CardError,
                     id="Round.script_shuffle_pass"),
        pytest.param(lambda: hl.Match(STD, seed=1).to_json(indent=1.5), hl.IllegalAction, id="Match.to_json"),
        pytest.param(lambda: hl.sort_cards(None), hl.CardError, id="sort_cards"),
        pytest.param(lambda: hl.sort_cards("QS 2C"), hl.CardError, id="sort_cards-text"),
        pytest.param(lambda: hl.CardValues(None), hl.VariantError, id="CardValues"),
        pytest.param(lambda: hl.CardSuits([1, 2]), hl.VariantError, id="CardSuits"),
        pytest.param(lambda: hl.StripTable.from_mapping(None), hl.VariantError, id="StripTable.from_mapping"),
        pytest.param(lambda: hl.parse_score("13", None), hl.IllegalAction, id="parse_score-limit"),
        pytest.param(lambda: hl.simulate(None, "random", games=1), hl.VariantError, id="simulate-variant"),
        pytest.param(lambda: hl.simulate(STD, None, games=1), hl.IllegalAction, id="simulate-agents"),
        pytest.param(lambda: hl.simulate(STD, "random", games=1, executor="x"), hl.IllegalAction,
                     id="simulate-executor"),
        pytest.param(lambda: hl.simulate(STD, "random", games=1, progress="x"), hl.IllegalAction,
                     id="simulate-progress"),
        pytest.param(lambda: hl.agents.RandomAgent(1.5), hl.IllegalAction, id="RandomAgent-seed"),
        pytest.param(lambda: hl.agents.play_match(None, []), hl.VariantError, id="play_match-variant"),
        pytest.param(lambda: hl.agents.play_match(STD, None), hl.IllegalAction, id="play_match-agents"),
        pytest.param(lambda: hl.agents.play_match(STD, [object()] * 4), hl.IllegalAction, id="play_match-not-agents"),
        pytest.param(lambda: hl.agents.LazyActions(None, 0), hl.IllegalAction, id="LazyActions"),
        pytest.param(lambda: hl.agents.actions_for(None, 0), hl.IllegalAction, id="actions_for"),
    ],
)
def test_public_functions_refuse_arguments_of_the_wrong_type(call: Any, error: type[Exception]) -> None:
    with pytest.raises(_refused(error)):
        call()


def test_the_encoding_refuses_arguments_of_the_wrong_type() -> None:
    from heartslib.adapters.encoding import Encoding, Turns, table_text

    enc = Encoding(STD)
    for call, code in [
        (lambda: enc.card("3"), "illegal_action_index"),
        (lambda: enc.action_text(None), "illegal_action_index"),
        (lambda: enc.option(1.5), "illegal_action_index"),
        (lambda: enc.action_id(None), "not_an_action"),
        (lambda: enc.option_id([]), ""),
        (lambda: enc.encode(None), "bad_argument"),
        (lambda: enc.observation_text("x"), "bad_argument"),
        (lambda: enc.visible_points(None), "bad_argument"),
        (lambda: Turns(enc, None), "bad_argument"),
        (lambda: Turns(None, hl.Round.deal(STD, seed=1)), "bad_argument"),
        (lambda: table_text(None), "bad_argument"),
    ]:
        with pytest.raises(hl.IllegalAction if code else ValueError) as info:
            call()  # type: ignore[no-untyped-call]
        assert getattr(info.value, "code", "") == code
    with pytest.raises(hl.VariantError, match="expected a Variant"):
        Encoding("standard")  # type: ignore[arg-type]
    assert enc.card(49) == hl.Card("QS") and enc.action_text(49) == "QS"


def test_openspiel_game_parameters_are_a_dict() -> None:
    pytest.importorskip("pyspiel", exc_type=ImportError)
    from heartslib.adapters.openspiel import HeartsGame

    for params in (1.5, "standard", [("preset", "standard")]):
        with pytest.raises(hl.IllegalAction, match="game parameters"):
            HeartsGame(params)  # type: ignore[arg-type]
    state = HeartsGame({"preset": "standard"}).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(hl.IllegalAction, match=r"random\.Random"):
        state.core.resample_history(0, None)  # type: ignore[arg-type]


@given(st.one_of(st.none(), st.integers(), st.text(max_size=8), st.lists(st.integers(), max_size=3),
                 st.dictionaries(st.sampled_from(["type", "seat", "card", "cards", "option", "x"]),
                                 st.one_of(st.sampled_from(["play", "pass", "choose", "QS", "bid"]), st.integers(),
                                           st.lists(st.sampled_from(["QS", "2C", "ZZ"]), max_size=3)),
                                 max_size=4)))
def test_any_data_is_an_action_or_an_illegal_action_or_a_card_error(data: Any) -> None:
    try:
        action = hl.action_from_dict(data)
    except hl.IllegalAction as exc:
        assert exc.code in ("not_an_action", "no_such_seat", "bad_argument"), exc.code
        assert str(exc)
    except hl.CardError as exc:
        assert str(exc)
    else:
        assert hl.action_from_dict(action.to_dict()) == action


def test_an_unknown_action_type_is_not_an_action() -> None:
    with pytest.raises(hl.IllegalAction, match="unknown action type 'bid'") as info:
        hl.action_from_dict({"type": "bid", "seat": 0})
    assert info.value.code == "not_an_action"


@pytest.mark.parametrize(("changes", "path", "message"), [
    ({"scoring": {"values": {"QS": 13, "Q♠": 10}}}, "scoring.values.QS", "QS is listed twice"),
    ({"scoring": {"values": {"qs": 13, "QS": 10}}}, "scoring.values.QS", "QS is listed twice"),
    ({"scoring": {"multiply": {"TC": 2, "10C": 3}}}, "scoring.multiply.TC", "TC is listed twice"),
    ({"scoring": {"exposable": {"AH": "hearts", "A♥": "card"}}}, "scoring.exposable.AH", "AH is listed twice"),
    ({"scoring": {"cancels": {"QC": "QS", "Q♣": "JD"}}}, "scoring.cancels.QC", "QC is listed twice"),
    ({"scoring": {"cancels": {"QS": "QS"}}}, "scoring.cancels.QS", "QS cannot cancel itself"),
    ({"players": 3, "deck": {"strip": ["2C", "2C"]}}, "deck.strip", "2C is listed 2 times"),
    ({"teams": [[0, 1, 2, 3]]}, "teams", "two or more teams"),
])
def test_a_card_written_twice_a_self_cancel_or_one_team_is_a_variant_error(
    changes: dict[str, Any], path: str, message: str,
) -> None:
    # "QS" and "Q♠" are one card: which entry held was chance; a card cancelling itself scored nothing while
    # the moon counted it; one team of every seat could never win
    with pytest.raises(hl.VariantError, match=message) as exc:
        hl.preset("standard").replace(**changes)
    assert exc.value.path == path


def test_two_decks_may_strip_both_copies_of_a_card() -> None:
    v = hl.preset("standard").replace(players=6, deck={"decks": 2, "strip": ["2C", "2C", "2D", "2D"]})
    assert len(v.pack) == 104 - 2


def test_a_wrong_type_is_named_not_read_as_text() -> None:
    # Variant.from_toml(None) parsed the text "None" ("Expected '='"); Match.from_json({...}) quoted json's own
    # message; a pass direction written as a rules file writes it ("left") was refused
    with pytest.raises(hl.VariantError, match=r"expected TOML text or the path of a \.toml file, not NoneType"):
        hl.Variant.from_toml(None)  # type: ignore[arg-type]
    with pytest.raises(_refused(hl.SaveError)) as exc:  # the compiled build types its argument at the call
        hl.Match.from_json({"format": "heartslib-match"})  # type: ignore[arg-type]
    if isinstance(exc.value, hl.SaveError):
        assert "not dict (Match.from_dict reads a save already parsed)" in str(exc.value)
    v = hl.preset("standard")
    hands = hl.Round.deal(v, seed=1).hands
    assert hl.Match.from_deal(v, hands, passing="left", seed=1).round.passing == hl.Offset(1)
    assert hl.Round.from_hands(v, hands, passing="across").passing == hl.Offset(2)
    with pytest.raises(hl.IllegalAction, match="'sideways' is not a pass direction"):
        hl.Round.from_hands(v, hands, passing="sideways")
    with pytest.raises(hl.IllegalAction, match="'across' is not a pass direction"):
        hl.Round.from_hands(hl.preset("black_maria"), hl.Round.deal(hl.preset("black_maria"), seed=1).hands,
                            passing="across")


def test_a_saves_missing_or_unknown_key_is_its_path_and_a_parse_error_its_cause() -> None:
    data = json.loads(hl.Match(STD, seed=1).to_json())
    for key in ("actions", "format", "digest"):
        with pytest.raises(hl.SaveError, match=f"missing {key}") as exc:
            hl.Match.from_dict({k: v for k, v in data.items() if k != key})
        assert exc.value.path == key
    with pytest.raises(hl.SaveError, match="unknown extra") as exc:
        hl.Match.from_dict({**data, "extra": 1})
    assert exc.value.path == "extra"
    with pytest.raises(hl.SaveError) as exc:
        hl.Match.from_json("{")
    assert isinstance(exc.value.__cause__, json.JSONDecodeError)
    with pytest.raises(hl.SaveError, match="not UTF-8 text") as exc:  # was "Expecting value", read as UTF-16
        hl.Match.from_json(b"\xff\xfe")
    assert isinstance(exc.value.__cause__, UnicodeDecodeError)


def test_auction_chips_beyond_any_tables_are_refused_even_from_a_save() -> None:
    # chips=(10**7,)*4 listed ten million bids and a saved position of a billion chips each never loaded
    a = hl.preset("auction_hearts")
    hands = hl.Round.deal(a, seed=3).hands
    with pytest.raises(hl.IllegalAction, match="from 1 to 11000"):
        hl.Match.from_deal(a, hands, chips=(10**7,) * 4, seed=7)
    with pytest.raises(hl.IllegalAction, match="from 1 to 11000"):
        hl.Round.from_hands(a, hands, chips=(10**6,) * 4)
    with pytest.raises(hl.IllegalAction, match="pool must be a whole number from 0 to 11000"):
        hl.Match.from_deal(a, hands, pool=10**6, seed=7)
    data = json.loads(hl.Match.from_deal(a, hands, chips=(60, 40, 50, 50), seed=7).to_json())
    data["deal"]["counters"] = [10**9] * 4
    with pytest.raises(hl.SaveError, match="chips must be 4 whole numbers from 1 to 11000") as exc:
        hl.Match.from_dict(data)
    assert exc.value.path == "deal"
