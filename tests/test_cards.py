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


#: one-deck variants the fast loop admits, without jokers and with the zero jokers (0♣ 0♦ sort first in their suits)
ONE_DECK = {
    "no_jokers": hl.preset("standard"),
    "zero_jokers": hl.preset("standard").replace(players=6, deck={"fill": "jokers", "joker": "zero_suits"}),
}


@pytest.mark.parametrize("name", list(ONE_DECK))
@given(data=st.data())
def test_the_fast_loops_one_deck_hands_are_each_suits_cards_in_hand_order(name: str, data: st.DataObject) -> None:
    # playout._split holds a one-deck hand as four per-suit lists in hand order: card by card interpreted and
    # with jokers, in four slices of the sorted hand compiled without them (this test runs in both builds)
    from heartslib.engine import playout
    from heartslib.engine.dealing import sort_hand

    v = ONE_DECK[name]
    rules = v.rules
    assert rules.fast_playout and not rules.repeats
    s = hl.Round.deal(v, seed=0)._s
    pack = list(rules.pack)
    for seat in range(v.players):
        hand = data.draw(st.lists(st.sampled_from(pack), unique=True, max_size=len(pack)), label=f"hand {seat}")
        sort_hand(hand)
        s.hands[seat] = hand
    hands = [h[:] for h in s.hands]
    split, extra = playout._split(s, clear=True)
    assert split == [[[c for c in h if rules.suit[c] == st_] for st_ in range(4)] for h in hands]
    assert extra == [] and s.hands == [[] for _ in hands]


#: card indices of a suit (the fast loop admits only jokers of a suit)
SUITED = [c for c in range(hl.cards.NUM_CARD_INDICES) if hl.preset("cancellation").rules.suit[c] < 4]


@given(st.lists(st.sampled_from(SUITED), min_size=1, max_size=30), st.data())
def test_the_fast_loops_two_deck_hand_lists_distinct_cards_and_counts_the_copies(
    indices: list[int], data: st.DataObject
) -> None:
    # the fast playout holds a two-deck hand as per-suit lists of its distinct cards plus the extra copies by
    # card index (playout._split): the lists must be distinct()'s choices, and taking a card must
    # leave what list.remove leaves of the hand, for hands in hand order (copies neighbours)
    from heartslib.engine import playout
    from heartslib.engine.dealing import sort_hand
    from heartslib.engine.legality import distinct

    v = hl.preset("cancellation")
    r = hl.Round.deal(v, seed=0)
    hand = indices + data.draw(st.lists(st.sampled_from(indices), max_size=10), label="copies")
    sort_hand(hand)
    r._s.hands[0] = hand[:]
    split, extra = playout._split(r._s, clear=False)
    lists, more = split[0], extra[0]
    suit = v.rules.suit
    assert [c for st_ in range(4) for c in lists[st_]] == [c for c in distinct(hand)]
    for _ in range(data.draw(st.integers(1, len(hand)), label="takes")):
        held = [c for st_ in range(4) for c in lists[st_]]
        if not held:
            break
        card = data.draw(st.sampled_from(held), label="card")
        cards = lists[suit[card]]
        assert playout._take(cards, cards.index(card), more) == card
        hand.remove(card)
        left = sorted(c for st_ in range(4) for c in lists[st_] for _ in range(1 + more[c]))
        assert left == sorted(hand)
