"""Domino Hearts (RULES.md section 11): the ``domino_hearts`` preset and ``deck.stock = "to_follow"``.

Source: Bicycle's rules (Domino Hearts): six cards each, the rest a face-down stock; the dealer's left leads;
a player who cannot follow suit must draw from the top of the stock until able to play; once the stock is
exhausted a player unable to follow may discard; players drop out as their cards are exhausted, and a player
who wins a trick with their last card passes the lead to the first active player on their left; the last
survivor keeps the cards left in hand; scored as Hearts except that Q♠ is usually not scored. The survivor
takes the rest of the stock too, and the game is to 31 (the Hoyle account).
"""

from __future__ import annotations

import random

import pytest

import heartslib as hl
from heartslib import strategies as hst
from heartslib.testing import check_no_leak

V = hl.preset("domino_hearts")


def _deal(v: hl.Variant, hands: list[str], top: str) -> hl.Round:
    """A scripted deal: ``hands`` by seat (dealer 0) and a stock whose first cards are ``top``, the rest of the
    pack after them in pack order."""
    used = [c for h in hands for c in hl.parse_cards(h)] + list(hl.parse_cards(top))
    rest = [c for c in v.pack if c not in used]
    return hl.Round.from_hands(v, hands, kitty=[*hl.parse_cards(top), *rest], dealer=0)


def _play(r: hl.Round, *plays: str) -> None:
    for text in plays:
        seat, code = text.split(":")
        r.apply(hl.Play(int(seat), hl.Card.parse(code)))


def test_bicycle_domino_hearts_deals_six_each_and_leaves_a_stock() -> None:
    r = hl.Round.deal(V, seed=4)
    assert [len(h) for h in r.hands] == [6, 6, 6, 6] and len(r.kitty) == 28
    assert r.to_act == (1,)  # the dealer's left leads
    assert r.observation(2).stock_size == 28


def test_bicycle_a_player_who_cannot_follow_draws_until_able_to_play() -> None:
    v = V.replace(players=4, deck={"hand_size": 2})
    r = _deal(v, ["QS 6D", "AS AC", "KS 4C", "2H 5C"], "7D 8S 9C")
    _play(r, "1:AS", "2:KS")
    # seat 3 holds no spade: it drew 7♦, then 8♠, and must play the spade
    assert set(r.hand(3)) == set(hl.parse_cards("2H 5C 7D 8S"))
    assert r.legal_actions() == [hl.Play(3, hl.Card.parse("8S"))]
    assert r.observation(0).stock_size == len(v.pack) - 8 - 2
    assert r.observation(0).hand_sizes == (2, 1, 1, 4)
    # everyone saw seat 3 draw two cards in the first trick; only seat 3 knows which
    assert r.observation(0).draws == r.observation(3).draws == ((0, 3, 2),)
    assert r.observation(3).drawn == hl.parse_cards("7D 8S") and r.observation(0).drawn == ()


def test_bicycle_a_winner_with_no_cards_left_passes_the_lead_to_the_left() -> None:
    v = V.replace(players=4, deck={"hand_size": 2})
    r = _deal(v, ["QS 6D", "AS AC", "KS 4C", "2H 5C"], "7D 8S 9C")
    _play(r, "1:AS", "2:KS", "3:8S", "0:QS")
    _play(r, "1:AC", "2:4C", "3:5C")
    assert set(r.hand(0)) == set(hl.parse_cards("6D 9C"))  # seat 0 drew 9♣ to follow clubs
    _play(r, "0:9C")
    # seat 1 won with its last card; seat 2 has dropped out too: seat 3 leads, and only seats 3 and 0 play on
    assert r.tricks[-1].winner == 1 and r.to_act == (3,)
    _play(r, "3:7D", "0:6D")
    assert [len(t.plays) for t in r.tricks] == [4, 4, 2]


def test_bicycle_the_last_survivor_keeps_the_cards_in_hand_and_the_stock() -> None:
    v = V.replace(players=4, deck={"hand_size": 2})
    r = _deal(v, ["QS 6D", "AS AC", "KS 4C", "2H 5C"], "7D 8S 9C")
    _play(r, "1:AS", "2:KS", "3:8S", "0:QS", "1:AC", "2:4C", "3:5C", "0:9C", "3:7D", "0:6D")
    # seat 3 won the last trick and alone holds cards (2♥): it keeps them and the 41 cards of the stock
    assert r.phase == hl.Phase.OVER and not r.kitty and not any(r.hands)
    assert len(r.taken[3]) == 2 + 1 + 41
    assert r.points == (0, 0, 0, 13)  # every heart, and Q♠ scores nothing


def test_bicycle_with_the_stock_exhausted_a_player_unable_to_follow_may_discard() -> None:
    v = V.replace(players=2, deck={"hand_size": 25})
    clubs = " ".join(f"{r}C" for r in "23456789TJQKA")
    r = _deal(v, [
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        clubs + " AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
    ], "KS AS")
    _play(r, "1:2C")
    # seat 0 drew both stock cards without finding a club: it may now play any card the first trick allows
    assert not r.kitty and len(r.hand(0)) == 27
    legal = {a.card for a in r.legal_actions()}
    assert hl.Card.parse("KS") in legal and hl.Card.parse("2D") in legal
    assert hl.Card.parse("2H") not in legal  # no points on the first trick


def test_a_domino_hand_always_captures_the_whole_pack() -> None:
    for seed in range(40):
        r = hl.Round.deal(V, seed=seed)
        r.random_playout(random.Random(seed))
        assert sum(len(t) for t in r.taken) == 52 and not r.kitty and not any(r.hands)
        assert sum(r.points) == 13


def test_an_observation_says_nothing_of_the_stock_or_the_drawn_cards() -> None:
    check_no_leak(lambda r, seat: r.observation(seat), V, max_examples=25)


def test_a_saved_domino_match_replays_its_draws() -> None:
    # saved after every action of a whole match: each load resumes the same hands and stock
    m = hl.Match(V, seed=8)
    rng = random.Random(8)
    while not m.is_over:
        loaded = hl.Match.from_json(m.to_json())
        assert (loaded.round.hands, loaded.round.kitty, loaded.scores) == (m.round.hands, m.round.kitty, m.scores)
        m.apply(rng.choice(m.legal_actions()))
    assert m.winners


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"play": {"booster_nines": True}}, "play.booster_nines"),
        ({"players": 3, "deck": {"fill": "jokers", "jokers": 2, "joker": "valueless"}}, "deck.stock"),
    ],
)
def test_drawing_to_follow_refuses_what_has_no_suit_to_follow(changes: dict[str, object], path: str) -> None:
    with pytest.raises(hl.VariantError) as info:
        V.replace(**changes)
    assert path in [p for p, _ in info.value.problems]


def test_two_players_may_play_domino_hearts() -> None:
    r = hl.Round.deal(V.replace(players=2), seed=3)
    r.random_playout(random.Random(3))
    assert sum(r.points) == 13


def test_the_strategies_draw_domino_variants() -> None:
    from hypothesis import given, settings

    seen: list[hl.Variant] = []

    @settings(max_examples=15, database=None, deadline=None)
    @given(hst.playouts(hst.variants(stock="to_follow")))
    def run(r: hl.Round) -> None:
        hst.check_invariants(r)
        seen.append(r.variant)

    run()
    assert seen and all(v.deck.stock.value == "to_follow" and v.deck.hand_size for v in seen)


def test_describe_tells_the_domino_stock() -> None:
    text = V.describe()
    assert "6 dealt to each player, 28 to the stock" in text and "draws from the stock until they can" in text
    assert hl.Variant.from_toml(V.to_toml()) == V and hl.preset("domino") is V
