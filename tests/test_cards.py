"""Cards: parsing forms, text forms, the index map, multisets."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import heartslib as hl


@pytest.mark.parametrize("text", ["QS", "Q♠", "qs", "q♠", " QS ", "Q♤", "Q♠\ufe0f"])
def test_parse_queen_of_spades_forms(text: str) -> None:
    assert hl.Card.parse(text) is hl.Card("QS")


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10♥", "t♡"])
def test_parse_ten_forms(text: str) -> None:
    card = hl.Card.parse(text)
    assert card.rank == hl.Rank.TEN and card.suit == hl.Suit.HEARTS
    assert card.code == "TH" and str(card) == "10♥"


def test_zero_jokers_and_suitless_joker() -> None:
    zc, zd, jk = hl.parse_cards("0C 0D JK")
    assert (zc.rank, zc.suit) == (hl.Rank.ZERO, hl.Suit.CLUBS)
    assert (zd.rank, zd.suit) == (hl.Rank.ZERO, hl.Suit.DIAMONDS)
    assert jk.suit is None and jk.is_joker and zc.is_joker and not hl.Card("2C").is_joker
    assert [c.code for c in (zc, zd, jk)] == ["0C", "0D", "JK"]
    assert str(zc) == "0♣"


@pytest.mark.parametrize("bad", ["", "1H", "ZZ", "QX", "11S", "0H", "QSX", "Q"])
def test_bad_card_text_names_token(bad: str) -> None:
    with pytest.raises(hl.CardError) as info:
        hl.Card.parse(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_code_round_trips_and_index_map_is_stable() -> None:
    seen = set()
    for index in range(hl.NUM_CARD_INDICES):
        card = hl.Card.from_index(index)
        assert card.index == index
        assert hl.Card.parse(card.code) is card
        assert hl.Card.parse(str(card)) is card
        seen.add(card.code)
    assert len(seen) == 55
    # the documented map: suit * 13 + rank - 2 for the standard pack, then 0C 0D JK
    assert hl.Card("2C").index == 0 and hl.Card("AC").index == 12
    assert hl.Card("2D").index == 13 and hl.Card("2H").index == 26
    assert hl.Card("QS").index == 3 * 13 + 12 - 2 == 49 and hl.Card("AS").index == 51
    assert [hl.Card(c).index for c in ("0C", "0D", "JK")] == [52, 53, 54]


def test_cards_are_values_and_hands_are_sorted_multisets() -> None:
    two_decks = hl.parse_cards("QS 2C QS AH 0C")
    assert two_decks[0] == two_decks[2] and two_decks[0] is two_decks[2]
    assert [c.code for c in hl.sort_cards(two_decks)] == ["0C", "2C", "AH", "QS", "QS"]
    assert hl.Card("2C") < hl.Card("3C") < hl.Card("2D") < hl.Card("AS")
    assert pickle.loads(pickle.dumps(hl.Card("QS"))) is hl.Card("QS")
    assert hl.Card("QS").__reduce__() == (hl.Card, ("QS",))  # cloudpickle (Ray) needs the class itself


def test_card_from_rank_and_suit() -> None:
    assert hl.Card(hl.Rank.QUEEN, hl.Suit.SPADES) is hl.Card("QS")
    assert hl.Card(0, hl.Suit.CLUBS) is hl.Card("0C")
    assert hl.Card(0) is hl.Card("JK")
    with pytest.raises(hl.CardError):
        hl.Card(0, hl.Suit.HEARTS)
    with pytest.raises(hl.CardError):
        hl.Card(15, hl.Suit.HEARTS)
    with pytest.raises(hl.CardError):
        hl.Card(12)


def test_parse_cards_forms_and_errors() -> None:
    assert hl.parse_cards("2C, 3C QS") == hl.parse_cards(["2C", "3C", hl.Card("QS")])
    with pytest.raises(hl.CardError, match="'XX'"):
        hl.parse_cards("2C XX")
    with pytest.raises(hl.CardError):
        hl.parse_cards(5)  # type: ignore[arg-type]


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        hl.Card("QS").rank = hl.Rank.ACE  # type: ignore[misc]


@given(st.lists(st.integers(0, hl.cards.NUM_CARD_INDICES - 1), max_size=30))
def test_the_engine_sorts_a_hand_of_indices_in_hand_order(indices: list[int]) -> None:
    # sort_hand sorts the ints plainly and keys only hands holding a zero joker: the same order either way
    from heartslib.engine.dealing import sort_hand
    from heartslib.engine.tables import ORDER

    hand = indices[:]
    sort_hand(hand)
    assert hand == sorted(indices, key=ORDER.__getitem__)
    assert [hl.Card.from_index(i) for i in hand] == sorted(map(hl.Card.from_index, indices))


@given(st.lists(st.integers(0, hl.cards.NUM_CARD_INDICES - 1), min_size=1, max_size=40), st.data())
def test_a_hand_as_a_mask_and_its_spares_is_the_sorted_list_it_replaced(
    indices: list[int], data: st.DataObject
) -> None:
    # issue 49: RoundState.hands holds each card once as a mask, further copies in RoundState.spares; held() lists
    # the hand in hand order with its copies, as the sorted list did, through any gives and takes (the zero-suit
    # jokers, out of bit order, among them)
    from heartslib.engine.bits import cards_in, count, mask_of, nth
    from heartslib.engine.dealing import sort_hand
    from heartslib.engine.state import give, take

    s = hl.Round.deal(hl.preset("cancellation"), seed=0)._s
    s.hands[0], s.spares[0] = 0, []
    give(s, 0, indices)
    listed = sorted(indices, key=hl.cards.card_order.__getitem__)
    assert s.held(0) == listed and s.hand_size(0) == len(listed)
    assert cards_in(s.hands[0]) == sorted(set(indices), key=hl.cards.card_order.__getitem__)
    assert count(s.hands[0]) == len(set(indices)) and s.hands[0] == mask_of(indices)
    assert [nth(s.hands[0], i) for i in range(count(s.hands[0]))] == cards_in(s.hands[0])
    for _ in range(data.draw(st.integers(0, len(listed)), label="takes")):
        card = data.draw(st.sampled_from(listed), label="card")
        take(s, 0, card)
        listed.remove(card)
        assert s.held(0) == listed
    more = data.draw(st.lists(st.integers(0, hl.cards.NUM_CARD_INDICES - 1), max_size=5), label="given")
    give(s, 0, more)
    listed += more
    sort_hand(listed)
    assert s.held(0) == listed
