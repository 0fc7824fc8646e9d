"""Exact endgames: the last tricks of a hand with every card known, searched to the end.

The search player (:mod:`heartslib.search`) values a candidate in a sampled
world by playing the hand out with a cheap rule-based policy for every seat,
its own included. Near the end of a hand the lines are few enough to search
instead: :class:`Endgame` plays every line of a world (a
:class:`~heartslib.engine.state.RoundState` whose hands are all known) to the
end and returns, for every seat, the value of the hand when

* with a ``model`` of the other seats (what the search player uses): the
  searching seat plays the card best for itself at each of its turns, and
  every other seat the card the model gives (its best reply to the model);
* without one: each seat in turn plays the card best for itself (*max^n*:
  the seat to play maximises its own value; among cards it values alike it
  chooses the one worst for the searching seat, a cautious assumption).

Two things keep it quick: equivalent cards (two cards of a suit with no
card ranked between them still in another hand or on the table, scoring
alike) are tried once, and a position at the start of a trick is solved once
(a transposition table keyed by the hands, the leader and the cards each seat
has taken in the endgame). Leaves are scored by the engine's own scorer
(:func:`heartslib.engine.finishing.summed_points`, or the long way with the
moon), the moon choice going to the option best for the shooter.

Who may play what is never decided here: each position's legal cards are
the engine's own (:func:`heartslib.engine.legality.candidates`, read from a
scratch copy of the world whose hands, trick and tricks follow the line
searched), and a trick's winner is :func:`heartslib.engine.tricks.trick_winner`,
so a play rule added to the engine is the solver's at once. It covers the
plain trick mechanics (:func:`solvable`): one card a seat, one deck, no
kitty or stock, no jokers, past the first trick. Elsewhere the
search keeps its rollouts. ``tests/test_solve.py`` holds both modes to a
brute-force search over the engine's own legal moves, and the solver's legal
cards to the engine's at every step of random lines in random variants.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from heartslib.cards import NUM_CARD_INDICES, Card
from heartslib.engine.bits import BIT, cards_in
from heartslib.engine.finishing import facts_of, summed_points
from heartslib.engine.legality import candidates
from heartslib.engine.rules import Rules
from heartslib.engine.state import RawTrick, RoundState
from heartslib.engine.tables import NO_SUIT
from heartslib.engine.tricks import trick_winner
from heartslib.enums import MoonRequires, Phase
from heartslib.errors import IllegalAction, arg_text
from heartslib.points import Score
from heartslib.scoring import moon_options, moon_result, score, slate_change
from heartslib.variant import Variant

__all__ = ["ENDGAME_TRICKS", "Endgame", "Model", "Value", "check_endgame", "solvable", "special_cards"]

#: Tricks left (cards in the deciding seat's hand) from which the search player solves its worlds exactly.
ENDGAME_TRICKS: Final = 4
_EPS: Final = 1e-9

#: A value per seat (the max^n backed-up value of a position).
Values = tuple[float, ...]
#: A finished hand's worth to a seat: ``value(points, seat)``, higher is better.
Value = Callable[[Sequence[Score], int], float]
#: How another seat plays, for :class:`Endgame`'s ``model``: ``model(seat, cands, trick, unplayed, taken,
#: hand)`` gives one of ``cands`` (the seat's legal cards, in hand order); ``trick``: the ``(seat, card)``
#: plays of the trick so far; ``unplayed[i]``: whether card index ``i`` is unplayed (in a hand); ``taken``:
#: per seat, the cards it has taken this hand; ``hand``: the seat's cards.
Model = Callable[[int, list[int], list[tuple[int, int]], list[int], list[list[int]], list[int]], int]


def special_cards(v: Variant, exposed: Sequence[int] = ()) -> frozenset[int]:
    """The card indices with a rule or a score of their own (multipliers, suit doublers, cancelling cards,
    forced discards, club play's Q♠, booster nines, the opening card, the ``exposed`` cards), never merged
    with their neighbours as equivalent cards."""
    cards: set[int] = set(exposed)
    sc = v.scoring
    for table in (sc.multiply, sc.multiply_alone, sc.double_suit):
        cards.update(c.index for c in table)
    for c, target in sc.cancels.items():
        cards.update((c.index, target.index))
    cards.update(c.index for c in v.play.must_discard)
    if v.play.queen_forced:
        cards.add(Card("QS").index)
    if v.play.booster_nines:
        cards.update(i for i in range(NUM_CARD_INDICES) if Card.from_index(i).rank == 9)
    for named in (v.play.opening_card, v.play.opening_taker):
        if named is not None:
            cards.add(named.index)
    return frozenset(cards)


def check_endgame(endgame: object) -> int:
    """``endgame`` (tricks left from which a search solves its worlds exactly) if it is a whole number >= 0;
    else :class:`~heartslib.IllegalAction` ``bad_argument``."""
    if not isinstance(endgame, int) or isinstance(endgame, bool) or endgame < 0:
        raise IllegalAction("bad_argument", f"endgame must be a whole number of tricks >= 0, not {arg_text(endgame)}")
    return endgame


def solvable(s: RoundState) -> bool:
    """Whether :class:`Endgame` covers the round ``s`` from here: in play past the first trick (no trick
    under way from the first), with the plain trick mechanics (see the module docs)."""
    rules = s.rules
    # every seat holds the same cards to play, counting the card it has put on the trick (no stock, nobody
    # dropped out)
    sizes = {s.hand_size(seat) + (seat in s.tseats) for seat in range(s.n)}
    # who may play what is the engine's legality, whatever the play rules; what is refused here is what the
    # solver's own bookkeeping does not do: tricks other than one card a seat with the highest of the suit led
    # winning (short_tricks), two decks, jokers, the kitty and carried cards
    return (s.phase is Phase.PLAY and s.trick_no > 0 and rules.short_tricks and not rules.repeats
            and not rules.jokers and not s.kitty and not s.carry and len(sizes) == 1)


class Endgame:
    """The exact max^n solver for one world (see the module docs).

    ``s``: the world, in play and :func:`solvable`; ``seat``: the searching seat (ties go against it);
    ``value``: how a finished hand's points are worth to each seat (``value(points, seat)``, higher is
    better); ``model``: None for max^n, or how the other seats play (:data:`Model`), when only ``seat``
    searches (its best reply to that model). The world itself is never changed. One solver serves any
    number of positions reached from ``s`` by plays (:meth:`solve_after`): they share its transposition
    table.
    """

    def __init__(self, s: RoundState, seat: int, value: Value, model: Model | None = None) -> None:
        if not solvable(s):
            raise ValueError("the endgame solver covers plain trick-taking in play past the first trick")
        self.root = s
        self.rules = s.rules
        self.seat = seat
        self.value = value
        self.model = model
        self.n = s.n
        rules = s.rules
        # per suit, the pack's card indices from the lowest rank up: the cards between two equivalent ones
        by_suit: list[list[int]] = [[] for _ in range(5)]
        for c in sorted(rules.counts, key=lambda i: rules.rank[i]):
            by_suit[rules.suit[c]].append(c)
        self.by_suit = by_suit
        self.special = special_cards(s.variant, s.exposed)
        self.table: dict[tuple[object, ...], Values] = {}
        self.leaves: dict[tuple[Score, ...], Values] = {}
        #: positions searched so far (the solver's cost)
        self.nodes = 0

    def solve_after(self, card: int | None = None) -> Values:
        """Each seat's value of the root position, after the seat to act there plays ``card`` if given (one of
        its legal cards)."""
        run = _Run(self, self.root.copy())
        if card is not None:
            run.play(card)
        return run.node()

    def legal_after(self, cards: Sequence[int] = ()) -> list[int]:
        """The legal cards of the seat to act after ``cards`` are played from the root, one after another
        (each legal), as the solver's search sees them: the engine's legality. A check for tests."""
        run = _Run(self, self.root.copy())
        for card in cards:
            run.play(card)
        return run.legal()


class _Run:
    """One search from a position: a scratch copy of the world whose hands, trick, broken suit, tricks and
    turn are changed and restored as the lines are tried (the engine's legality reads it as it reads any
    round), and the cards each seat has taken in the endgame."""

    def __init__(self, eg: Endgame, st: RoundState) -> None:
        self.eg = eg
        self.st = st
        self.taken: list[list[int]] = [[] for _ in range(eg.n)]
        #: where the endgame's own tricks start in ``st.tricks``
        self.base = len(st.tricks)

    def play(self, card: int) -> None:
        """The seat to act plays ``card``; a finished trick goes to its winner (no undo: the root's move)."""
        st = self.st
        rules = self.eg.rules
        seat = st.turn
        st.hands[seat] &= ~BIT[card]
        if not st.tcards:
            st.tsuit = rules.suit[card]
        st.tseats.append(seat)
        st.tcards.append(card)
        st.broken = st.broken or rules.breaks[card]
        if len(st.tcards) == self.eg.n:
            self._finish_trick()
        else:
            st.turn = (seat + rules.step) % self.eg.n

    def _finish_trick(self) -> None:
        """The trick goes to the winner the engine's trick rule names (one card a seat, one deck: never a
        cancellation)."""
        st = self.st
        cards = st.tcards
        pos, _ = trick_winner(self.eg.rules, cards, st.tsuit)
        winner = st.tseats[pos]
        st.tricks.append((st.trick_no, st.leader, tuple(st.tseats), tuple(cards), winner, st.tsuit))
        self.taken[winner].extend(cards)
        st.trick_no += 1
        st.tseats = []
        st.tcards = []
        st.tsuit = NO_SUIT
        st.leader = st.turn = winner

    def node(self) -> Values:
        """The max^n values of the current position."""
        eg = self.eg
        st = self.st
        eg.nodes += 1
        if not st.tcards:
            if not st.hands[st.turn]:
                return self._leaf()
            key = (st.turn, st.broken, tuple(st.hands), tuple(tuple(sorted(t)) for t in self.taken),
                   self._led() if st.exposed else ())
            known = eg.table.get(key)
            if known is None:
                known = eg.table[key] = self._best()
            return known
        return self._best()

    def _led(self) -> tuple[int, ...]:
        """The suits led so far (the exposed-card rule reads them), for the transposition table's key."""
        return tuple(sorted({t[5] for t in self.st.tricks}))

    def _best(self) -> Values:
        """The values when the seat to act plays its best card (ties: the worst for the searching seat)."""
        st = self.st
        seat = st.turn
        root = self.eg.seat
        model = self.eg.model
        if model is not None and seat != root:
            legal = self.legal()
            if len(legal) == 1:
                return self._try(legal[0])
            unplayed = [0] * NUM_CARD_INDICES
            for h in st.hands:
                for c in cards_in(h):
                    unplayed[c] = 1
            taken = [a + b for a, b in zip(self.eg.root.taken, self.taken, strict=True)]
            trick = list(zip(st.tseats, st.tcards, strict=True))
            return self._try(model(seat, legal, trick, unplayed, taken, cards_in(st.hands[seat])))
        best: Values | None = None
        for card in self._choices():
            values = self._try(card)
            if best is None or values[seat] > best[seat] + _EPS or (
                    values[seat] > best[seat] - _EPS and values[root] < best[root] - _EPS):
                best = values
        assert best is not None
        return best

    def _try(self, card: int) -> Values:
        """The values after the seat to act plays ``card``, the position restored afterwards."""
        st = self.st
        seat = st.turn
        saved = (st.tseats[:], st.tcards[:], st.tsuit, st.broken, st.leader, st.turn, st.trick_no)
        taken_len = [len(t) for t in self.taken]
        tricks_len = len(st.tricks)
        self.play(card)
        values = self.node()
        st.tseats, st.tcards, st.tsuit, st.broken, st.leader, st.turn, st.trick_no = saved
        for t, k in zip(self.taken, taken_len, strict=True):
            del t[k:]
        del st.tricks[tricks_len:]
        st.hands[seat] |= BIT[card]
        return values

    def legal(self) -> list[int]:
        """The seat to act's legal cards: the engine's own legality (:func:`~heartslib.engine.legality.candidates`),
        read from the scratch world."""
        st = self.st
        return candidates(st, st.turn, None)

    def _choices(self) -> list[int]:
        """The legal cards of the seat to act, one of each set of equivalent cards."""
        return self._distinct(self.legal())

    def _distinct(self, cards: list[int]) -> list[int]:
        """``cards`` less those equivalent to a lower one kept (same suit and scoring, nothing between them
        in another hand or on the table). Under the undercut none are: its ceiling compares ranks across
        suits, so two neighbouring cards of a suit may differ in what they may undercut later."""
        if len(cards) < 2 or self.eg.rules.undercut:
            return cards
        rules = self.eg.rules
        special = self.eg.special
        st = self.st
        held = set(cards_in(st.hands[st.turn]))
        live = {c for h in st.hands for c in cards_in(h)} | set(st.tcards)
        out: list[int] = []
        for s_cards in self._by_suit(cards):
            keep = s_cards[0]
            out.append(keep)
            order = self.eg.by_suit[rules.suit[keep]]
            for c in s_cards[1:]:
                between = order[order.index(keep) + 1:order.index(c)]
                if (any(x in live and x not in held for x in between) or c in special or keep in special
                        or rules.value[c] != rules.value[keep]
                        or rules.penalty[c] != rules.penalty[keep] or rules.breaks[c] != rules.breaks[keep]):
                    keep = c
                    out.append(c)
        return out

    def _by_suit(self, cards: list[int]) -> list[list[int]]:
        """``cards`` grouped by suit, each group from the lowest rank up."""
        rules = self.eg.rules
        groups: dict[int, list[int]] = {}
        for c in cards:
            groups.setdefault(rules.suit[c], []).append(c)
        return [sorted(g, key=rules.rank.__getitem__) for g in groups.values()]

    def _leaf(self) -> Values:
        """Each seat's value of the finished hand."""
        eg = self.eg
        s = eg.root
        taken = [a + b for a, b in zip(s.taken, self.taken, strict=True)]
        points = summed_points(eg.rules, taken, s.exposed)
        if points is None:
            points = _long_points(s, taken, self.st.tricks[self.base:], eg.value)
        known = eg.leaves.get(points)
        if known is None:
            known = eg.leaves[points] = tuple(eg.value(points, seat) for seat in range(eg.n))
        return known


def _long_points(s: RoundState, taken: list[list[int]], tricks: list[RawTrick], value: Value) -> tuple[Score, ...]:
    """The points of a hand the fast scorers do not take (a possible moon): the engine's scorer, the shooter's
    choice of moon going to the option best for it."""
    won = s.won[:]
    for t in tricks:
        won[t[4]] += 1
    hand = facts_of(s, taken, won, s.tricks + tricks)
    v: Variant = s.variant
    rules: Rules = s.rules
    result = score(v, rules, hand, scores_before=s.scores, passing=s.passing, hands_played=s.hand_number + 1)
    if not isinstance(result, int):
        return slate_change(s.scores, result.points, result)  # a clean slate: the shooter's total back to 0
    keep = v.moon.requires == MoonRequires.PENALTY_CARDS
    options = [moon_result(hand, rules, result, how, keep, s.scores).points for how in moon_options(v.moon.kind)]
    return max(options, key=lambda p: value(p, result))
