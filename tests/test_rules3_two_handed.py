"""Two-handed Hearts (RULES.md section 11): the ``two_handed`` preset, ``deck.stock = "after_trick"`` and
``deck.hand_size``.

Source: pagat.com's Hearts for two players, checked against David Parlett's *Penguin Book of Card Games*
("Hearts for two (Draw Hearts)"): deal thirteen each and stack the rest face down; the winner of a trick
draws the top card of the stock and leads to the next trick when the opponent has drawn too; when the stock
is exhausted the remaining 13 cards are played out; captured cards count in the usual way.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst
from heartslib.enums import StockDraw
from heartslib.testing import check_no_leak

V = hl.preset("two_handed")

# A deal chosen so that the first trick is forced: seat 1 (the non-dealer) leads, and each hand has one club.
HANDS = [
    "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
]
STOCK = ("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")


def _round() -> hl.Round:
    return hl.Round.from_hands(V, HANDS, kitty=STOCK, dealer=0)


def test_pagat_two_handed_deals_13_each_and_leaves_a_stock_of_26() -> None:
    r = hl.Round.deal(V, seed=5)
    assert [len(h) for h in r.hands] == [13, 13]
    assert len(r.kitty) == 26
    obs = r.observation(0)
    assert obs.stock_size == 26 and obs.kitty_size == 26 and obs.players == 2


def test_parlett_draw_hearts_the_winner_draws_the_top_card_then_the_loser() -> None:
    r = _round()
    assert r.to_act == (1,)  # the non-dealer leads any card (no card is named by the sources)
    r.apply(hl.Play(1, hl.Card.parse("AC")))
    r.apply(hl.Play(0, hl.Card.parse("2C")))
    # seat 1 won with A♣: it draws 3♣ (the top card), seat 0 draws 4♣, and seat 1 leads the next trick
    assert hl.Card.parse("3C") in r.hand(1) and hl.Card.parse("4C") in r.hand(0)
    assert [len(h) for h in r.hands] == [13, 13]
    assert r.kitty[:2] == hl.parse_cards("5C 6C") and len(r.kitty) == 24
    assert r.to_act == (1,)
    assert r.observation(0).stock_size == 24
    # who drew how many after which trick is public; each seat recalls only its own cards
    assert r.observation(0).draws == r.observation(1).draws == ((0, 1, 1), (0, 0, 1))
    assert r.observation(0).drawn == hl.parse_cards("4C") and r.observation(1).drawn == hl.parse_cards("3C")


def test_parlett_draw_hearts_the_last_13_cards_are_played_out_after_the_stock() -> None:
    r = hl.Round.deal(V, seed=11)
    rng = random.Random(11)
    sizes = []
    while r.to_act:
        sizes.append(r.observation(r.to_act[0]).stock_size)
        r.apply(rng.choice(r.legal_actions()))
    assert len(r.tricks) == 26
    assert sizes[0] == 26 and sizes[-1] == 0
    assert sizes.count(0) == 26  # the 13 tricks after the stock ran out: two plays each
    assert sum(r.points) in (26, 52)  # every card was captured: the pack's 26 points, or an old moon's 26


def test_the_usual_penalties_and_the_old_moon_between_two_players() -> None:
    taken = [hl.parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS"), hl.parse_cards("2C")]
    points = hl.scoring.score_cards(V, taken)
    assert points.points == (0, 26)


def test_the_drawn_card_is_hidden_from_the_opponent() -> None:
    # the same deal with the opponent's first draw (4♣) and a stock card it never reaches swapped: seat 1 sees
    # the same game
    swapped = STOCK.replace("4C", "XX").replace("KH", "4C").replace("XX", "KH")
    twin = hl.Round.from_hands(V, HANDS, kitty=swapped, dealer=0)
    r = _round()
    for game in (r, twin):
        game.apply(hl.Play(1, hl.Card.parse("AC")))
        game.apply(hl.Play(0, hl.Card.parse("2C")))
    assert r.hand(0) != twin.hand(0)
    assert r.observation(1) == twin.observation(1)


def test_an_observation_says_nothing_of_the_stock_or_the_other_hand() -> None:
    check_no_leak(lambda r, seat: r.observation(seat), V, max_examples=25)


def test_the_pettingzoo_adapter_refuses_a_game_with_a_stock_by_name() -> None:
    # the extra's own packages: heartslib's adapter wraps their absence in an ImportError that is not a
    # ModuleNotFoundError, which importorskip does not skip on
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from heartslib.adapters import pettingzoo

    with pytest.raises(hl.VariantError, match="two_handed") as info:
        pettingzoo.env(V)
    assert info.value.path == "deck.stock"


def test_the_openspiel_adapter_refuses_a_game_with_a_stock_by_name() -> None:
    pytest.importorskip("pyspiel")
    from heartslib.adapters import openspiel

    with pytest.raises(hl.VariantError, match="two_handed") as info:
        openspiel.load_game("two_handed")
    assert info.value.path == "deck.stock"


def test_the_batched_environment_refuses_a_game_with_a_stock_by_name() -> None:
    pytest.importorskip("numpy")
    from heartslib.vector import support

    with pytest.raises(hl.VariantError) as info:
        support.check_supported(V)
    assert info.value.path == "deck.stock"  # the stock's cards are not a kitty fill's: the stock is named first


def test_a_saved_two_handed_match_replays_its_draws() -> None:
    m = hl.Match(V, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        m.apply(rng.choice(m.legal_actions()))
    loaded = hl.Match.from_json(m.to_json())
    assert loaded.round.hands == m.round.hands and loaded.round.kitty == m.round.kitty
    for _ in range(30):
        action = rng.choice(m.legal_actions())
        m.apply(action)
        loaded.apply(action)
    assert loaded.round.hands == m.round.hands and loaded.scores == m.scores


def test_two_players_need_a_stock() -> None:
    # RULES.md section 11's decision: the floor is 2 only for a variant that defines a two-player game
    with pytest.raises(hl.VariantError, match="too small") as info:
        hl.preset("standard").replace(players=2)
    assert info.value.path == "players"
    assert V.players == 2


@pytest.mark.parametrize(
    ("deck", "path"),
    [
        ({"hand_size": 13}, "deck.hand_size"),  # a hand size without a stock
        ({"stock": "after_trick", "hand_size": 0}, "deck.hand_size"),  # a stock without a hand size
        ({"stock": "after_trick", "hand_size": 13}, "deck.hand_size"),  # four players: nothing left to draw
        ({"stock": "after_trick", "hand_size": 13, "fill": "kitty"}, "deck.fill"),
    ],
)
def test_an_impossible_stock_is_refused_by_name(deck: dict[str, object], path: str) -> None:
    with pytest.raises(hl.VariantError) as info:
        hl.preset("standard").replace(deck=deck)
    assert info.value.path == path


def test_a_stock_with_three_players_plays_out() -> None:
    v = hl.preset("standard").replace(players=3, deck={"strip": ["2D"], "stock": "after_trick", "hand_size": 5})
    r = hl.Round.deal(v, seed=1)
    assert [len(h) for h in r.hands] == [5, 5, 5] and len(r.kitty) == 36
    r.random_playout(random.Random(1))
    assert len(r.tricks) == 17 and not r.kitty and sum(len(t) for t in r.taken) == 51


def test_describe_tells_the_stock() -> None:
    text = V.describe()
    assert "13 dealt to each player, 26 to the stock" in text
    assert "the trick's winner first" in text and "face down" in text
    assert hl.Variant.from_toml(V.to_toml()) == V
    assert hl.preset("draw_hearts") is V


def test_booster_nines_are_refused_with_a_stock() -> None:
    # a nine's extra round of plays would empty the hands before the stock: no source defines the pair
    with pytest.raises(hl.VariantError) as info:
        V.replace(play={"booster_nines": True})
    assert info.value.path == "play.booster_nines"


@settings(max_examples=30, database=None, deadline=None)
@given(hst.playouts(st.one_of(hst.variants(players=2), hst.variants(stock="after_trick"))))
def test_any_game_with_a_stock_plays_out_and_captures_the_whole_pack(r: hl.Round) -> None:
    hst.check_invariants(r)
    v = r.variant
    assert v.deck.stock == StockDraw.AFTER_TRICK and (v.players > 2 or v.deck.hand_size)
    assert not r.kitty and not any(r.hands)
    assert sum(len(t) for t in r.taken) == len(v.pack)
    assert len(r.tricks) * v.players == len(v.pack)  # one card each a trick, the stock drawn in full


@settings(max_examples=20, database=None, deadline=None)
@given(hst.matches(hst.variants(stock="after_trick")), st.integers(0, 2**32 - 1))
def test_a_copy_and_a_save_of_a_game_with_a_stock_play_on_alike(m: hl.Match, seed: int) -> None:
    copy, loaded = m.copy(), hl.Match.from_json(m.to_json())
    for game in (m, copy, loaded):
        rng = random.Random(seed)
        for _ in range(60):
            if game.is_over:
                break
            game.apply(hst.random_action(game, rng))
    assert m.round.hands == copy.round.hands == loaded.round.hands and m.scores == copy.scores == loaded.scores


class StockGames(hst.HeartsStateMachine):
    """The stateful invariants (copies, saves, illegal actions changing nothing, observations) over games with a
    stock of either kind, two players included."""

    variant_strategy = hst.variants(stock=st.sampled_from(["after_trick", "to_follow"]), players=st.integers(2, 6))


StockGames.TestCase.settings = settings(max_examples=20, stateful_step_count=30, deadline=None, database=None)
TestStockGames = StockGames.TestCase
