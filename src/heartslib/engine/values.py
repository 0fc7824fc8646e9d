"""What a variant's fields say about single cards and passes, as plain functions (no tables yet).

The compiler (:mod:`heartslib.engine.rules`) builds its tables from these, and
the checks (:mod:`heartslib.engine.checks`) judge fields with them before any
table exists.
"""

from __future__ import annotations

from heartslib.cards import NUM_CARD_INDICES, Card, Suit
from heartslib.engine.tables import C0, D0, JK
from heartslib.enums import HOLD, SCATTER, STAR, ExactFifty, HeartsScoring, PassDirection
from heartslib.points import Score
from heartslib.sections import EndRules, VariantFields

__all__ = ["card_values", "counts_against", "dealing_order", "exact_total", "pass_size"]


def card_values(v: VariantFields) -> list[Score]:
    """Per card index, its points: hearts by ``scoring.hearts``, then ``scoring.values``, then ``deck.joker_points``
    for the jokers ``scoring.values`` does not list."""
    value: list[Score] = [0] * NUM_CARD_INDICES
    for i in range(NUM_CARD_INDICES):
        card = Card.from_index(i)
        if card.suit == Suit.HEARTS:
            value[i] = 1 if v.scoring.hearts == HeartsScoring.ONE else int(card.rank)
    for card, points in v.scoring.values.items():
        value[card.index] = points
    listed = {card.index for card in v.scoring.values}
    for j in (C0, D0, JK):
        if j not in listed:  # a joker scoring.values lists keeps that value, 0 included
            value[j] = v.deck.joker_points
    return value


def counts_against(value: Score, sign: int) -> bool:
    """Whether a card value counts against its taker: positive (or, for complex values, a positive
    imaginary part) when the lowest total wins (``sign`` 1), negative when the highest does (-1)."""
    if isinstance(value, complex):
        return sign * value.real > 0 or value.imag > 0
    return sign * value > 0


def pass_size(direction: PassDirection, cards: int, players: int = 0) -> int:
    """Cards each player passes for a direction (``players`` needed for scatter)."""
    if direction is HOLD:
        return 0
    if direction is STAR:
        return 2
    if direction is SCATTER:
        return players - 1 if players else 0
    return cards


def dealing_order(players: int, step: int, hand_size: int, pack_size: int, dealer: int) -> tuple[int, ...]:
    """The seat each position of a shuffled pack goes to (-1 for the kitty): one card at a time from the
    dealer's left in the direction of play (``step``), the cards left over to the kitty."""
    return tuple((dealer + step * (1 + i % players)) % players if i < hand_size * players else -1
                 for i in range(pack_size))


def exact_total(end: EndRules, total: Score, before: Score | None) -> Score:
    """A player's match total after the exact-total rules: exactly the target returns to 0
    (``end.reset_at_exact``); a total a hand landed exactly on a multiple of 50 (``before``, the total before
    the hand, is another; None: unknown) is reduced by 50 (``end.exact_fifty``), and one it landed exactly on a
    listed round score gets its bonus (``end.round_bonuses``); the reset wins where it applies. The scorer
    (``scoring.apply_exact_reset``) and the check that a match ends both apply it."""
    if end.reset_at_exact and end.target and total == end.target:
        return 0
    if end.round_bonuses and isinstance(total, int) and before != total:
        return total + end.round_bonuses.points(total)
    if end.exact_fifty == ExactFifty.NONE or not isinstance(total, int) or total % 50 or before == total:
        return total
    return total - 50 if total >= (100 if end.exact_fifty == ExactFifty.ABOVE_50 else 50) else total
