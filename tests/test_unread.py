"""``Variant.unread_fields``: the fields a variant sets that none of its rules reads (heartslib.unread).

Each claim is checked against the rules themselves: a random variant with every field it names put back to its
default plays the same games (the same actions offered and taken, the same points, totals and end) and scores
the same moon and sun hands."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies
from heartslib.scoring import match_over, score_cards


def _defaults(v: hl.Variant) -> hl.Variant:
    """``v`` with every field it names as unread put back to its default."""
    changes: dict[str, Any] = {}
    for path, _ in v.unread_fields():
        if "." not in path:  # a field of the variant itself
            changes[path] = getattr(hl.Variant(), path)
            continue
        section, name = path.split(".")
        changes.setdefault(section, {})[name] = getattr(type(getattr(v, section))(), name)
    return v.replace(**changes)


def _game(v: hl.Variant, seed: int, hands: int = 2) -> list[Any]:
    """What a seeded random player sees and does over the first ``hands`` hands of a match."""
    m = hl.Match(v, seed=seed)
    rng = random.Random(seed)
    log: list[Any] = []
    while not m.is_over and m.hand_number < hands:
        seat = m.to_act[0]
        actions = m.legal_actions(seat)
        log.append(len(actions))
        action = actions[int(rng.random() * len(actions))]
        log.append(str(action))
        m.apply(action)
        if m.round.is_over or m.is_over:
            log.append((m.hand_number, tuple(m.scores)))
    log.append((m.is_over, tuple(m.scores)))
    return log


def _outcome(v: hl.Variant, taken: list[list[int]], scores: tuple[int, ...], winners: list[int] | None) -> Any:
    try:
        out = score_cards(v, taken, scores=scores, trick_winners=winners, moon_choice=None)
    except ValueError as exc:
        return type(exc).__name__
    ends = [match_over(v, totals, hands, out) for hands in (1, 9) for totals in
            (scores, tuple(x + p for x, p in zip(scores, out.points, strict=True)))]
    return out, ends


def _hands(v: hl.Variant) -> list[tuple[list[list[int]], list[int] | None]]:
    """Seat 0 takes every card (a sun, and a moon), then every penalty card with seat 1 taking the rest."""
    n = v.players
    pack = [c.index for c in v.pack]
    tricks = max(1, len(pack) // n)
    value = v.rules.value
    penalty = [c for c in pack if value[c] != 0]
    rest = [c for c in pack if value[c] == 0]
    return [([pack] + [[] for _ in range(n - 1)], [0] * tricks),
            ([penalty, rest] + [[] for _ in range(n - 2)], None)]


@pytest.mark.parametrize("name", hl.preset_names())
def test_no_preset_sets_a_field_its_rules_do_not_read(name: str) -> None:
    assert hl.preset(name).unread_fields() == ()


def test_the_fields_switched_off_by_another_are_named_with_the_reason() -> None:
    standard = hl.preset("standard")
    named = dict(standard.replace(moon={"kind": "none", "new_after": 50, "points": 10},
                                  deck={"kitty": "one_per_trick"}, end={"life_threshold": 5}).unread_fields())
    assert set(named) == {"moon.new_after", "moon.points", "deck.kitty", "end.life_threshold"}
    assert "this variant has no moon" in named["moon.new_after"] and "lives" in named["end.life_threshold"]
    # Morehead's Q♠ lock on the Morehead preset, which never locks hearts
    assert dict(hl.preset("morehead_2001").replace(play={"queen_needs_broken": True}).unread_fields()) == {
        "play.queen_needs_broken": 'only a rule that locks hearts until they are broken reads it; play.breaking '
                                   'is "none"'}
    # the same fields where a rule reads them are not named
    assert standard.replace(moon={"kind": "new", "new_after": 50}).unread_fields() == ()
    assert hl.preset("danger_hearts").replace(end={"life_threshold": 5}).unread_fields() == ()
    assert hl.preset("likha").replace(play={"must_discard_if_all": True}).unread_fields() == ()
    # a moon that gives no points (nobody scores, or the running totals move) reads no moon.points
    assert [p for p, _ in standard.replace(moon={"kind": "no_score", "points": 50}).unread_fields()] == [
        "moon.points"]
    assert standard.replace(moon={"kind": "no_score", "points": 50, "big_moon": "ten_moons"}).unread_fields() == ()


def test_a_strip_order_is_unread_where_the_deck_never_strips() -> None:
    # deck.strip (a priority order) is read only by deck.fill = "strip"; a kitty or jokers even the deal instead
    standard = hl.preset("standard")
    for fill, joker in (("kitty", "zero_suits"), ("jokers", "valueless")):
        v = standard.replace(players=5, deck={"fill": fill, "joker": joker, "strip": ["2C"]})
        assert dict(v.unread_fields()) == {
            "deck.strip": f'only deck.fill = "strip" reads a strip order; this deck fills with "{fill}"'}
    # a strip order this player count does not need is still the rule for the counts that do: not named
    assert standard.replace(deck={"strip": ["2C", "2D"]}).unread_fields() == ()
    assert hl.preset("culbertson_1950").unread_fields() == ()
    # and with strip, five players read it
    assert standard.replace(players=5, deck={"strip": ["3C", "2D"]}).unread_fields() == ()


def test_a_sun_beside_a_moon_reads_the_moon_kind() -> None:
    # the note of `heartslib validate` said moon.kind had no effect even with moon.sun_and_moon set
    sun = hl.preset("standard").replace(moon={"kind": "new", "sun": "add_52"})
    assert [p for p, _ in sun.unread_fields()] == ["moon.kind"]
    assert sun.replace(moon={"sun_and_moon": True}).unread_fields() == ()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(strategies.variants(), st.integers(0, 2**16))
def test_a_variant_plays_and_scores_the_same_with_its_unread_fields_at_their_defaults(v: hl.Variant,
                                                                                      seed: int) -> None:
    named = v.unread_fields()
    if not named:
        return
    try:
        plain = _defaults(v)
    except hl.VariantError as exc:  # pragma: no cover - a default that the other fields refuse
        pytest.fail(f"{[p for p, _ in named]} put back to their defaults are refused: {exc}")
    assert plain.unread_fields() == ()
    assert _game(plain, seed) == _game(v, seed)
    scores = tuple(range(0, 30 * v.players, 30))
    for taken, winners in _hands(v):
        assert _outcome(plain, taken, scores, winners) == _outcome(v, taken, scores, winners)


def test_the_property_test_meets_every_kind_of_note() -> None:
    # the property test above reaches the code it checks: random variants name each section's unread fields
    seen: set[str] = set()

    @settings(max_examples=60, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(strategies.variants())
    def collect(v: hl.Variant) -> None:
        seen.update(p.split(".")[0] for p, _ in v.unread_fields())

    collect()
    assert seen >= {"deck", "passing", "play", "moon", "end"}


def test_exposable_cards_the_pack_leaves_out_ask_nobody() -> None:
    # every seat was asked, every hand, whether to expose a card no seat could hold ("none" its only option)
    exposed = hl.preset("gong_zhu_exposed")
    stripped = exposed.replace(players=5, deck={"fill": "strip", "strip": ["2C", "QS"]},
                               scoring={"exposable": {"QS": None}})
    assert hl.Card("QS") not in stripped.pack
    assert hl.Round.deal(stripped, seed=1).phase == hl.Phase.PLAY
    assert [p for p, _ in stripped.unread_fields()] == ["scoring.exposable"]
    assert hl.Round.deal(exposed, seed=1).decision == hl.Decision.EXPOSE  # where the card is dealt, seats are asked
