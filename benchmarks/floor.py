"""The floor: a hand-tuned, single-rule, pure-Python random playout of standard Hearts.

It knows exactly one rule set, heartslib's ``standard`` preset during play:
the 2♣ leads the first trick, suit must be followed, no penalty card (a
heart or Q♠) may be played to the first trick unless the player holds
nothing else, hearts may not be led until a heart has been played (the
queen does not break hearts) unless the leader holds only hearts, hearts
score 1 and Q♠ 13, and a player who takes all 26 scores 0 while everyone
else scores 26 (old moon).

It is the yardstick for heartslib's general engine: how fast pure Python can
play a deal when every rule is hard-coded. Cards are heartslib card indices
(``suit * 13 + rank - 2``, suits ♣ ♦ ♥ ♠), so within a suit a higher index is
a higher card. A hand is four rank-ordered lists, one per suit; the
candidates at each step are built in heartslib's hand order, and a random
number is drawn only when there is a choice, so for the same deal and the
same ``random.Random`` the floor plays the same game as a loop over
heartslib's ``legal_cards`` with that convention (the smoke test checks this).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["SUIT", "legal_cards", "playout", "prepare"]

TWO_OF_CLUBS = 0
QUEEN_OF_SPADES = 49
HEARTS = 2
#: ``SUIT[card]``: 0 clubs, 1 diamonds, 2 hearts, 3 spades.
SUIT = tuple(c // 13 for c in range(52))
#: ``FOLLOWERS[leader]``: the seats after the leader, in turn.
FOLLOWERS = ((1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2))
#: ``POINTS[card]``: 1 for a heart, 13 for Q♠.
POINTS = tuple(1 if c // 13 == HEARTS else 13 if c == QUEEN_OF_SPADES else 0 for c in range(52))

Deal = list[list[list[int]]]
"""Four hands, each four rank-ordered lists of card indices (♣ ♦ ♥ ♠)."""


def prepare(hands: Sequence[Sequence[int]]) -> Deal:
    """Split four hands of card indices 0..51 (as heartslib deals them) into per-suit lists."""
    if len(hands) != 4 or sorted(c for h in hands for c in h) != list(range(52)):
        raise ValueError("the floor plays four hands that together hold the 52 cards")
    return [[sorted(c for c in h if SUIT[c] == s) for s in range(4)] for h in hands]


def legal_cards(hand: Sequence[int], trick: Sequence[int], broken: bool, first: bool) -> list[int]:
    """The cards a standard-Hearts player may play, stated plainly (the rule the fast loop inlines).

    ``hand`` is the player's cards, ``trick`` the cards already in the trick
    (led card first), ``broken`` whether a heart has been played, ``first``
    whether this is the first trick.

    >>> legal_cards([0, 5, 30], [], broken=False, first=True)
    [0]
    >>> legal_cards([30, 49], [3], broken=False, first=True)  # void in clubs, only penalty cards
    [30, 49]
    """
    hand = sorted(hand)
    if not trick:
        if first:
            return [TWO_OF_CLUBS]
        if broken:
            return hand
        return [c for c in hand if SUIT[c] != HEARTS] or hand
    led = SUIT[trick[0]]
    follow = [c for c in hand if SUIT[c] == led]
    if follow:
        return follow
    if first:
        return [c for c in hand if not POINTS[c]] or hand
    return hand


def playout(deal: Deal, rng: random.Random) -> tuple[int, int, int, int]:
    """Play ``deal`` (from :func:`prepare`; left untouched) to the end at random; return the points.

    Each step chooses uniformly among the legal cards; ``rng.random()`` is
    called only when there are at least two.
    """
    rnd = rng.random
    suit_of = SUIT
    points_of = POINTS
    followers = FOLLOWERS
    hands = [[c[:], d[:], h[:], s[:]] for c, d, h, s in deal]
    taken = [0, 0, 0, 0]
    leader = 0
    while TWO_OF_CLUBS not in hands[leader][0]:
        leader += 1
    broken = False
    first = True
    for _ in range(13):
        # the lead
        hand = hands[leader]
        if first:
            card = TWO_OF_CLUBS
            del hand[0][0]
        else:
            # unbroken: anything but a heart, unless the leader holds only hearts
            cands = hand[0] + hand[1] + hand[2] + hand[3] if broken else (hand[0] + hand[1] + hand[3] or hand[2])
            n = len(cands)
            card = cands[int(rnd() * n)] if n > 1 else cands[0]
            hand[suit_of[card]].remove(card)
        led = suit_of[card]
        if led == HEARTS:
            broken = True
        best = card
        winner = leader
        pts = points_of[card]
        for seat in followers[leader]:
            hand = hands[seat]
            same = hand[led]
            if same:
                n = len(same)
                if n > 1:
                    i = int(rnd() * n)
                    card = same[i]
                    del same[i]
                else:
                    card = same.pop()
                if card > best:
                    best = card
                    winner = seat
                pts += points_of[card]
            else:
                if first:
                    # void on the first trick: no penalty card unless nothing else is held
                    spades = hand[3]
                    cands = hand[0] + hand[1] + [c for c in spades if c != QUEEN_OF_SPADES]
                    if not cands:
                        cands = hand[2] + spades
                else:
                    cands = hand[0] + hand[1] + hand[2] + hand[3]
                n = len(cands)
                card = cands[int(rnd() * n)] if n > 1 else cands[0]
                hand[suit_of[card]].remove(card)
                p = points_of[card]
                if p:
                    pts += p
                    if p == 1:
                        broken = True
        taken[winner] += pts
        leader = winner
        first = False
    if 26 in taken:  # shot the moon
        return (0 if taken[0] else 26, 0 if taken[1] else 26, 0 if taken[2] else 26, 0 if taken[3] else 26)
    return (taken[0], taken[1], taken[2], taken[3])
