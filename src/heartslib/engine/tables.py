"""The engine's constant tables: card indices, interned plays and phases as module constants.

Everything above this module in the engine works on card *indices* (see
:mod:`heartslib.cards`) and these constants. They are ``Final`` so that the
compiled build (mypyc) reads them as static values on the hot paths.
"""

from __future__ import annotations

from typing import Final

from heartslib.actions import Play
from heartslib.cards import NUM_CARD_INDICES, Card, Suit, card_order
from heartslib.enums import Decision, Phase

__all__ = [
    "C0",
    "CARD",
    "CLUB",
    "CODE",
    "D0",
    "HEART",
    "JK",
    "NATIVE",
    "NOT_HEARTS",
    "NO_SUIT",
    "ORDER",
    "PLAYS",
    "PLAY_CODE",
    "PLAY_IDS",
    "PLAY_TYPE",
    "QS",
    "SPADE",
    "STANDARD_DECK",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_OF",
]

#: Whether the engine runs compiled (the optional mypyc build: this module is then an extension, not a
#: ``.py`` file). A few hot lines pick the idiom each build runs fastest: compiled, a comprehension is a
#: native loop; in CPython 3.11, ``filter``/``map`` with a bound C method avoid the comprehension's frame,
#: while compiled code calls that method generically for every element (three times the cost). Both forms
#: give the same result, and CI runs the test suite on both builds.
NATIVE: Final = not __file__.endswith((".py", ".pyc"))

#: The "suit" of the suitless joker in the engine's tables.
NO_SUIT: Final = 4
QS: Final = Card("QS").index
C0: Final = Card("0C").index
D0: Final = Card("0D").index
JK: Final = Card("JK").index
HEART: Final = int(Suit.HEARTS)
SPADE: Final = int(Suit.SPADES)
CLUB: Final = int(Suit.CLUBS)
STANDARD_DECK: Final = tuple(range(52))
#: ``ORDER[index]``: a card's place in hand order (clubs, diamonds, hearts, spades, low to high).
ORDER: Final = card_order
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
#: ``SUIT_OF[suit number]``: the :class:`~heartslib.Suit` (a table: calling the enum costs more).
SUIT_OF: Final = tuple(Suit)
#: The suits a lead may come from: any, or anything but hearts while they are locked (typed as tuples of any
#: length: compiled, a fixed-length tuple is held unboxed and boxed into a new tuple at each use).
SUITS: Final[tuple[int, ...]] = (0, 1, 2, 3)
NOT_HEARTS: Final[tuple[int, ...]] = (0, 1, 3)
CODE: Final = tuple(Card.from_index(i).code for i in range(NUM_CARD_INDICES))
CARD: Final = tuple(Card.from_index(i) for i in range(NUM_CARD_INDICES))
#: Interned Play actions, ``PLAYS[seat][card index]``: legal_actions returns these without building new ones.
PLAYS: Final = tuple(tuple(Play(seat, card) for card in CARD) for seat in range(11))
#: Plays are logged as ``seat * PLAY_CODE + card index`` (an int), turned into Play values on demand.
PLAY_CODE: Final = 64
#: The Play class, for the type test in Round.apply (a static value when compiled).
PLAY_TYPE: Final = Play
#: ``id(play) -> seat * PLAY_CODE + card index`` for the interned plays, so Round.apply knows one of them
#: without reading its attributes (they live as long as this module, so their ids stay theirs).
PLAY_IDS: Final = {id(PLAYS[seat][card]): seat * PLAY_CODE + card for seat in range(11)
                   for card in range(NUM_CARD_INDICES)}
# The phases as constants: compared by identity on every step (and a compiled build reads them as
# static values rather than attributes of the enum class).
PLAY: Final = Phase.PLAY
PASS: Final = Phase.PASS
DECIDE: Final = Phase.DECIDE
OVER: Final = Phase.OVER
# The decisions likewise (a compiled build looks a member up on the enum class generically, each time).
PASS_DECISION: Final = Decision.PASS
SUIT_DECISION: Final = Decision.SUIT
EXPOSE_DECISION: Final = Decision.EXPOSE
BID_DECISION: Final = Decision.BID
NAME_DECISION: Final = Decision.NAME
