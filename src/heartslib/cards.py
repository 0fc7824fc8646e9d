"""Cards, ranks, suits and the card-to-index map.

Cards are interned values: there is exactly one :class:`Card` object per
card, so two copies of Q♠ from two decks are the *same* value and a hand
is a sorted tuple of cards in which a card may repeat (a multiset).

The card-to-index map
---------------------
Adapters (PettingZoo, OpenSpiel, NumPy encodings) use a stable integer
index, :attr:`Card.index`, which never changes between releases:

=========  ==============================================
index      card
=========  ==============================================
0-12       2♣ 3♣ ... K♣ A♣   (``suit * 13 + rank - 2``)
13-25      2♦ ... A♦
26-38      2♥ ... A♥
39-51      2♠ ... A♠
52         0♣, the zero of clubs (a joker)
53         0♦, the zero of diamonds (a joker)
54         JK, a suitless valueless joker
=========  ==============================================

So the standard 52-card pack is exactly indices ``0..51`` and
``NUM_CARD_INDICES == 55`` covers every card any variant uses.

>>> import heartslib as hl
>>> hl.Card.parse("QS").index, hl.Card.parse("2C").index, hl.Card.parse("0C").index
(49, 0, 52)
>>> hl.Card.from_index(49)
Card('QS')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import Final, final

from heartslib.errors import CardError, value_text

__all__ = [
    "NUM_CARD_INDICES",
    "Card",
    "Rank",
    "Suit",
    "card_order",
    "parse_cards",
    "sort_cards",
]


class Suit(enum.IntEnum):
    """The four suits, in the order used by the card index (♣ ♦ ♥ ♠)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """The suit symbol, e.g. ``"♠"``."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The one-letter code, e.g. ``"S"``."""
        return "CDHS"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter, symbol or name (``"S"``, ``"♠"``, ``"spades"``).

        >>> Suit.parse("hearts")
        <Suit.HEARTS: 2>
        """
        key = text.strip().lower().replace("\ufe0f", "")
        suit = _SUIT_WORDS.get(key)
        if suit is None:
            raise CardError(
                f"{value_text(text)} is not a suit: use C D H S, ♣ ♦ ♥ ♠ or clubs/diamonds/hearts/spades",
                token=text,
            )
        return suit

    def __str__(self) -> str:
        return self.name.lower()


class Rank(enum.IntEnum):
    """Card ranks as integers: 0 for the zero/joker cards, then 2 to 14 (ace high)."""

    ZERO = 0
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The rank's character in a card code (``"T"`` for ten, ``"0"`` for zero)."""
        return _RANK_LETTERS[self]

    def __str__(self) -> str:
        return _RANK_WORDS[self]


JOKER_RANK: Final = Rank.ZERO
_RANKS: Final = frozenset(int(r) for r in Rank)

_SUIT_SYMBOLS: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_WORDS: Final[dict[str, Suit]] = {}
for _s, _names in (
    (Suit.CLUBS, ("c", "♣", "♧", "clubs", "club")),
    (Suit.DIAMONDS, ("d", "♦", "♢", "diamonds", "diamond")),
    (Suit.HEARTS, ("h", "♥", "♡", "hearts", "heart")),
    (Suit.SPADES, ("s", "♠", "♤", "spades", "spade")),
):
    for _n in _names:
        _SUIT_WORDS[_n] = _s

_RANK_LETTERS: Final = {
    Rank.ZERO: "0", Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5",
    Rank.SIX: "6", Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "T",
    Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
}  # fmt: skip
_RANK_WORDS: Final = {r: ("10" if r == Rank.TEN else letter) for r, letter in _RANK_LETTERS.items()}

NUM_CARD_INDICES: Final = 55
_INDEX_0C: Final = 52
_INDEX_0D: Final = 53
_INDEX_JK: Final = 54


@final
class Card:
    """One playing card: an interned, immutable value.

    Build a card from text (``Card("QS")``, ``Card.parse("Q♠")``), from a
    rank and suit (``Card(Rank.QUEEN, Suit.SPADES)``) or from its index.
    Cards order by suit (♣ ♦ ♥ ♠) then rank, which is how hands are sorted;
    use :meth:`beats`-free comparisons of ``rank`` for trick-taking.

    >>> Card("qs") is Card.parse("Q♠") is Card(Rank.QUEEN, Suit.SPADES)
    True
    >>> str(Card("TH")), Card("10H").code, Card("0C").rank, Card("JK").suit is None
    ('10♥', 'TH', <Rank.ZERO: 0>, True)
    """

    __slots__ = ("code", "index", "rank", "suit")

    index: int
    rank: Rank
    suit: Suit | None
    code: str

    def __new__(cls, rank_or_text: Rank | int | str, suit: Suit | int | None = None) -> Card:
        if isinstance(rank_or_text, str):
            if suit is not None:
                raise CardError("give either card text or a rank and a suit, not both")
            return cls.parse(rank_or_text)
        if isinstance(rank_or_text, Card):  # pragma: no cover - defensive
            return rank_or_text
        if not isinstance(rank_or_text, int) or isinstance(rank_or_text, bool) or rank_or_text not in _RANKS:
            raise CardError(
                f"{value_text(rank_or_text)} is not a rank: ranks are the whole numbers 0 (zero/joker) and 2..14",
                token=repr(rank_or_text),
            )
        rank = Rank(rank_or_text)
        if suit is None:
            if rank != Rank.ZERO:
                raise CardError(f"rank {rank} needs a suit; only the joker JK is suitless")
            return _BY_INDEX[_INDEX_JK]
        if not isinstance(suit, int) or isinstance(suit, bool) or not 0 <= suit <= 3:
            raise CardError(f"{value_text(suit)} is not a suit: suits are Suit.CLUBS ... Suit.SPADES (0-3)",
                            token=repr(suit))
        s = Suit(suit)
        if rank == Rank.ZERO:
            if s == Suit.CLUBS:
                return _BY_INDEX[_INDEX_0C]
            if s == Suit.DIAMONDS:
                return _BY_INDEX[_INDEX_0D]
            raise CardError(f"there is no zero of {s}: only 0C and 0D exist", token=f"0{s.letter}")
        return _BY_INDEX[s * 13 + rank - 2]

    @classmethod
    def _make(cls, index: int, rank: Rank, suit: Suit | None) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        code = "JK" if suit is None else rank.letter + suit.letter
        object.__setattr__(card, "code", code)
        return card

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Parse card text: ``"QS"``, ``"Q♠"``, ``"qs"``, ``"10H"``, ``"TH"``,
        ``"0C"``/``"0D"`` (zero jokers) or ``"JK"`` (the suitless joker).

        >>> Card.parse(" 10♥ ")
        Card('TH')
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"{value_text(text)} is not card text (expected a string like 'QS')", token=repr(text))
        cleaned = text.strip().replace("\ufe0f", "")
        card = _PARSE_CACHE.get(cleaned)
        if card is None:
            card = _PARSE_CACHE.get(cleaned.lower())
        if card is None:
            raise CardError(
                f"{value_text(text)} is not a card: write rank then suit, e.g. 'QS', 'Q♠', '10H', 'TH'; "
                "'0C'/'0D' for the zero jokers, 'JK' for a joker",
                token=text,
            )
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this index in the documented card-to-index map."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < NUM_CARD_INDICES:
            raise CardError(
                f"{value_text(index)} is not a card index: indices are 0..{NUM_CARD_INDICES - 1}",
                token=str(index),
            )
        return _BY_INDEX[index]

    @property
    def is_joker(self) -> bool:
        """True for 0♣, 0♦ and JK."""
        return self.index >= _INDEX_0C

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # the class itself, not the bound classmethod: cloudpickle (Ray) cannot rebuild Card.parse elsewhere
        return (Card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return str(self.rank) + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return _ORDER[self.index] < _ORDER[other.index]

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return _ORDER[self.index] <= _ORDER[other.index]

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return _ORDER[self.index] > _ORDER[other.index]

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return _ORDER[self.index] >= _ORDER[other.index]


def _build() -> tuple[list[Card], list[int]]:
    cards: list[Card] = []
    order: list[int] = []
    for suit in Suit:
        for rank in range(2, 15):
            cards.append(Card._make(len(cards), Rank(rank), suit))
            order.append(suit * 15 + rank)
    cards.append(Card._make(_INDEX_0C, Rank.ZERO, Suit.CLUBS))
    order.append(Suit.CLUBS * 15)
    cards.append(Card._make(_INDEX_0D, Rank.ZERO, Suit.DIAMONDS))
    order.append(Suit.DIAMONDS * 15)
    cards.append(Card._make(_INDEX_JK, Rank.ZERO, None))
    order.append(99)
    return cards, order


_BY_INDEX, _ORDER = _build()
#: ``card_order[index]`` is a sort key putting cards in suit-then-rank order.
card_order: Final[tuple[int, ...]] = tuple(_ORDER)

_PARSE_CACHE: Final[dict[str, Card]] = {}
for _card in _BY_INDEX:
    if _card.suit is None:
        _PARSE_CACHE["jk"] = _card
        for _alias in ("joker", "🃏", "★"):
            _PARSE_CACHE[_alias] = _card
        continue
    _rank_texts = [_card.rank.letter.lower(), str(_card.rank).lower()]
    for _rt in set(_rank_texts):
        for _st, _suit in _SUIT_WORDS.items():
            if _suit == _card.suit and len(_st) == 1:
                _PARSE_CACHE[_rt + _st] = _card
    _PARSE_CACHE[str(_card)] = _card


CardLike = Card | str


def parse_cards(cards: str | Iterable[CardLike]) -> tuple[Card, ...]:
    """Parse several cards, keeping their order.

    Accepts one string with cards separated by spaces or commas, or an
    iterable of card strings and :class:`Card` values.

    >>> parse_cards("2C 3C QS")
    (Card('2C'), Card('3C'), Card('QS'))
    >>> parse_cards(["10H", "JK"])
    (Card('TH'), Card('JK'))
    """
    if isinstance(cards, str):
        tokens: Iterable[CardLike] = cards.replace(",", " ").split()
    elif isinstance(cards, Card):
        raise CardError(f"expected several cards, got the single card {cards.code!r}; wrap it in a list")
    else:
        try:
            tokens = list(cards)
        except TypeError:
            raise CardError(f"{value_text(cards)} is neither card text nor an iterable of cards") from None
    return tuple(map(Card.parse, tokens))  # map: no generator frame per call (hands are parsed often)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards sorted as a hand: by suit (♣ ♦ ♥ ♠, jokers last), then rank.

    >>> sort_cards(parse_cards("QS 2C AH 0C"))
    (Card('0C'), Card('2C'), Card('AH'), Card('QS'))
    """
    try:
        return tuple(sorted(cards, key=_order_key))
    except (TypeError, AttributeError):  # not iterable, or not of cards (the key reads a Card's index)
        raise CardError(f"sort_cards takes Cards (parse_cards reads text), got {cards!r:.60}") from None


def _order_key(card: Card) -> int:
    return _ORDER[card.index]


def cards_from_indices(indices: Iterable[int]) -> Iterator[Card]:
    """The cards for an iterable of indices (no validation; internal use)."""
    return map(_BY_INDEX.__getitem__, indices)  # map: no generator frame per card
