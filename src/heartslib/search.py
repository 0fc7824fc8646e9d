"""The search player's machinery: determinized Monte Carlo search over the hidden hands (PIMC).

:class:`heartslib.agents.SearchAgent` drives a :class:`Search`, which decides
a play in four steps:

1. **Candidates** (:meth:`Search.play_candidates`). The legal cards, with
   *equivalent* cards merged: two cards of a suit are equivalent when every
   card ranked between them (and every other copy of them) is in this hand or
   played in a finished trick, so they take and lose exactly the same tricks (9♣ and 10♣
   once the other clubs between them are gone). Cards with a rule or a score
   of their own stay apart.
2. **Worlds.** Up to :attr:`Budget.playouts` determinizations drawn with
   :class:`heartslib.inference.Sampler`: complete rounds consistent with the
   observation.
3. **Rollouts.** In every world, each candidate is played and the hand is
   finished by :func:`rollout_card`, a cheap rule-based policy for every
   seat that plays like :class:`~heartslib.agents.HeuristicAgent` (duck under
   the winning card, dump the most expensive card when void, lead low from
   short suits, don't feed a player who has every point so far). The same
   worlds serve every candidate, so their comparison is not blurred by luck
   of the draw; after 8, 16, 32, ... worlds a candidate clearly worse than the
   best over the same worlds is dropped.
4. **Value.** Each finished hand is scored in the variant's own terms by
   :func:`hand_value`: this seat's points against the others' (the team's
   with partnerships; sign-flipped when the highest total wins; the change
   of the totals' magnitude in complex hearts; a lost life in danger
   hearts), plus a bonus for winning the match when the hand would end it.
   The candidate with the best mean value is played.

Passes are compared the same way (:meth:`Search.choose_pass`), the seats
still to pass choosing as the caller says (the agent: as the heuristic
would). The same seed facing the same position makes the same decision
(with a ``time_limit``, the number of worlds depends on the machine's speed
and the decision may too). Nothing here reads more than the observation and
the public rules.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final

import attrs

from heartslib.actions import Action, Play
from heartslib.cards import NUM_CARD_INDICES, Card, Suit
from heartslib.engine.machine import choice, choose
from heartslib.engine.state import RoundState
from heartslib.enums import Decision, Identical, Measure, MoonKind, Phase, Winner
from heartslib.errors import IllegalAction, arg_text
from heartslib.inference import ChoiceModel, Sampler, _facts, check_model, weights_of
from heartslib.observation import Observation
from heartslib.points import Score
from heartslib.presets import preset
from heartslib.round import Round, engine_state
from heartslib.scoring import apply_exact_reset, match_over, slate_change, winners
from heartslib.solve import ENDGAME_TRICKS, Endgame, check_endgame, solvable, special_cards
from heartslib.variant import Variant

__all__ = [
    "DEFAULT_MAX_PLAYS",
    "DEFAULT_PLAYOUTS",
    "Budget",
    "EndgameModel",
    "RolloutPolicy",
    "RolloutTables",
    "Search",
    "hand_value",
    "moon_card",
    "moon_losers",
    "moon_pass",
    "moon_pays",
    "moon_threat",
    "rollout",
    "rollout_card",
    "stopper",
]

#: Worlds (determinizations) per decision by default: each candidate is played out once in each.
DEFAULT_PLAYOUTS: Final = 64
#: Rollout card plays per decision by default (worlds times candidates times cards left): no world is
#: started beyond it, so the long hands of big tables and two decks keep decisions short.
DEFAULT_MAX_PLAYS: Final = 12_000
_NO_SUIT: Final = 4
_JK: Final = Card("JK").index


# --------------------------------------------------------------------------- the rollout policy


def _blank_variant() -> Variant:
    """The variant a pickled :class:`RolloutTables` is first built from, before its own state is restored."""
    return preset("standard")


class RolloutTables:
    """The plain per-card facts :func:`rollout_card` reads, worked out once from the variant's public fields.

    ``cost[i]``: how much taking card index ``i`` hurts its taker (its points
    against the taker; negative for a bonus card; a complex value by its real
    part plus the size of its imaginary part; a score multiplier counts 3);
    ``suit[i]`` (4 for a suitless joker) and ``rank[i]``; ``suit_cards[s]``:
    the card indices of suit ``s`` in the pack; ``big_of[s]``: its *big*
    penalty cards (cost 5 or more: Q♠, K♠ in Black Maria, ...), ranked from
    ``big_rank[s]`` up; ``ties_win``: whether the later of two identical cards
    wins (two decks, ``last_wins``); ``clean_first``: whether the first trick
    keeps points off; ``moon_alarm``: the points from which a seat that has
    taken every point so far is treated as shooting the moon.
    """

    def __init__(self, variant: Variant, named: Suit | None = None) -> None:
        f = _facts(variant, named)
        self.suit: list[int] = f.suit
        self.rank: list[int] = f.rank
        cost = [_cost(x, f.sign) for x in f.value]
        for card in variant.scoring.multiply:
            cost[card.index] += 3.0  # a multiplier usually multiplies penalty points
        self.cost = cost
        self.sign = f.sign
        self.ties_win = variant.deck.decks == 2 and variant.play.identical == Identical.LAST_WINS
        self.players = variant.players
        in_pack = sorted(f.counts)
        self.counts = [f.counts.get(i, 0) for i in range(NUM_CARD_INDICES)]
        self.suit_cards = [[i for i in in_pack if f.suit[i] == s] for s in range(5)]
        self.suit_size = [sum(self.counts[i] for i in cards) for cards in self.suit_cards]
        self.big_of = [[i for i in cards if cost[i] >= 5] for cards in self.suit_cards]
        self.big_rank = [min((f.rank[i] for i in big), default=99) for big in self.big_of]
        total = sum(max(cost[i], 0.0) * f.counts[i] for i in in_pack)
        self.total = total
        self.moon_alarm = total / 3
        self.penalty_suits = frozenset(f.suit[i] for i in in_pack if cost[i] > 0)
        self.clean_first = bool(f.banned)
        self.moon_pays = moon_pays(variant)
        # the parts of _lead_card's and _discard_card's keys that depend on the card alone, worked out once
        # (a rollout asks for them at every lead and discard)
        self.lead_key = [float(f.rank[i]) + (10 + 3 * c if c > 0 else 30.0 if c < 0 else 0.0)
                         for i, c in enumerate(cost)]
        self.discard_key = [float(f.rank[i]) + (50 + 5 * c if c > 0 else 0.0) for i, c in enumerate(cost)]
        # _starve_card's: the lowest card without points first (a joker after them), then the cheapest point
        # card, a bonus card last
        self.keep_key = [float(f.rank[i]) + (50.0 if f.suit[i] == _NO_SUIT else 0.0) + (
            1000.0 + 10 * c if c > 0 else 5000.0 if c < 0 else 0.0) for i, c in enumerate(cost)]
        # per suit, the pack's cards from the highest down, one entry per copy (moon_losers' "top slots")
        self.slots = [sorted((i for i in cards for _ in range(self.counts[i])), key=lambda i: -f.rank[i])
                      for cards in self.suit_cards]

    # copy, deepcopy and pickle (a Search holds its tables): compiled, loading calls the class (mypyc's __new__
    # runs __init__), so a blank is built from the standard game and every attribute restored from the state
    def __reduce__(self) -> tuple[object, tuple[Variant], object]:
        return (RolloutTables, (_blank_variant(),), self.__getstate__())


#: The moon rules under which taking every penalty card pays the shooter (against the others) the moon's worth.
MOON_PAYS: Final = frozenset((MoonKind.OLD, MoonKind.NEW, MoonKind.CHOICE, MoonKind.NEW_IF_OLD_LOSES,
                              MoonKind.TAKE_ALL))


def moon_pays(variant: Variant) -> bool:
    """Whether shooting the moon is worth trying in ``variant``: its moon rule pays the shooter (old, new,
    chosen, new-if-old-loses or take-all moon) and the lowest total wins. No moon, Culbertson's no-score moon
    and Likha's penalty moon do not pay; neither does a game where the highest total wins."""
    return variant.moon.kind in MOON_PAYS and variant.end.winner == Winner.LOWEST


def _cost(value: Score, sign: int) -> float:
    if isinstance(value, complex):
        return sign * value.real + abs(value.imag)
    return float(sign * value)


def rollout_card(cands: Sequence[int], trick: Sequence[int], led: int, last: bool, feed: bool, first: bool,
                 unplayed: Sequence[int], t: RolloutTables, out: Sequence[int] | None = None) -> int:
    """The rollout policy: which of ``cands`` (the distinct legal card indices, in hand order) to play.

    A pure function of plain facts, so an engine's fast playout loop can call
    it: ``trick`` the card indices played to the trick so far; ``led`` the
    suit to follow (-1 when leading); ``last`` whether this is the trick's
    last play; ``feed`` whether points may go to the seat winning the trick
    (False when it has taken every point so far, and a third of them: a moon
    in the making);
    ``first`` whether this is the hand's first trick; ``unplayed[i]`` the
    copies of card ``i`` nobody has played yet; ``out[s]``, if given, the
    copies of suit ``s`` nobody has played yet (the sum of ``unplayed`` over
    the suit, which a caller that keeps it saves working out again each
    time). The player's hand is taken to
    be ``cands`` (exact when leading or void, which is where it matters).

    It plays like :class:`~heartslib.agents.HeuristicAgent`, from these facts only:

    * leading: low cards of short suits, low cards of the suit of an unplayed
      big penalty card (to flush it out), never a penalty or bonus card or a
      suit nobody else holds when there is a choice;
    * following: the trick's points when a moon is in the making; a bonus card
      that surely wins a trick worth less than nothing; else the highest card
      that still loses (a penalty card first);
      when every card wins, the highest if last or while the suit is safe,
      otherwise the lowest;
    * void: the most expensive card, then high cards that could catch a big
      penalty card, then high cards of short suits; never a bonus card. Onto a
      moon in the making (``feed`` False): the lowest card without points, as
      :class:`~heartslib.agents.DefendingAgent` discards, keeping the high
      cards that can stop the moon later.
    """
    if len(cands) == 1:
        return cands[0]
    # lists from here on (the policies pass lists, and call _rollout_card): compiled, a list's items are read
    # natively, a Sequence's through the generic protocol
    left = list(unplayed)
    return _rollout_card(list(cands), list(trick), led, last, feed, first, left,
                         suits_out(left, t) if out is None else list(out), t)


def _rollout_card(cands: list[int], trick: list[int], led: int, last: bool, feed: bool, first: bool,
                  unplayed: list[int], out: list[int], t: RolloutTables) -> int:
    """:func:`rollout_card` from lists, two or more ``cands`` (``out`` given)."""
    suit = t.suit
    length = [0, 0, 0, 0, 0]  # cards held per suit (the fifth: suitless jokers)
    for c in cands:
        s = suit[c]
        length[s] = length[s] + 1  # compiled, += on an item is the generic in-place add
    if led < 0:
        return _lead_card(cands, length, unplayed, out, t)
    if led < _NO_SUIT and length[led]:
        return _follow_card(cands, trick, led, last, feed, first, unplayed, out, t)
    return _discard_card(cands, length, feed, unplayed, t)


def suits_out(unplayed: Sequence[int], t: RolloutTables) -> list[int]:
    """Per suit (the fifth: suitless jokers), the copies nobody has played yet: ``unplayed`` summed by suit."""
    out = [0, 0, 0, 0, 0]
    suit = t.suit
    for i, n in enumerate(unplayed):
        if n:
            s = suit[i]
            out[s] = out[s] + n
    return out


def _lead_card(cands: list[int], length: list[int], unplayed: list[int], out: list[int], t: RolloutTables) -> int:
    """:func:`rollout_card` when leading."""
    suit, rank, cost, key = t.suit, t.rank, t.cost, t.lead_key
    # per suit held: a penalty to lead from it (nobody else can follow; the big penalty card is out)
    extra = [0, 0, 0, 0, 0]  # whole numbers: compiled, a list of ints holds them unboxed, floats each boxed
    out_rank = [99, 99, 99, 99, 99]
    mine = [False, False, False, False, False]
    for s in range(4):
        if not length[s]:
            continue
        extra[s] = length[s] + (40 if out[s] <= length[s] else 0)
        for b in t.big_of[s]:
            if b in cands:
                mine[s] = True
            elif unplayed[b]:
                out_rank[s] = t.big_rank[s]
    best_c, best_k = cands[0], 1e18
    for c in cands:
        s = suit[c]
        if s == _NO_SUIT:
            k = -5.0  # a valueless joker never wins
        else:
            k = key[c] + extra[s]  # rank, and a penalty or bonus card's own cost to lead
            if out_rank[s] < 99:
                k += -4 if rank[c] < out_rank[s] else 30
            if mine[s] and cost[c] <= 0:
                k += 3  # keep the guards of one's own big card
        if k < best_k:
            best_c, best_k = c, k
    return best_c


def _follow_card(cands: list[int], trick: list[int], led: int, last: bool, feed: bool, first: bool,
                 unplayed: list[int], out: list[int], t: RolloutTables) -> int:
    """:func:`rollout_card` when following suit."""
    suit, rank, cost = t.suit, t.rank, t.cost
    best_rank = -1
    pts = 0.0
    for x in trick:
        pts += cost[x]
        if suit[x] == led and rank[x] > best_rank:
            best_rank = rank[x]
    ties = t.ties_win
    winners = []
    losers = []
    bonus = False
    for c in cands:
        if suit[c] == led and (rank[c] > best_rank or (ties and rank[c] == best_rank)):
            winners.append(c)
            if cost[c] < 0:
                bonus = True
        else:
            losers.append(c)
    if winners and pts > 0 and not feed:
        # a moon in the making: take this trick's few points rather than let the moon go on
        return _top(winners, t, 0.0, -1 if last else 1, False)
    if winners and (bonus or pts < 0):
        card = _bonus_win(winners, cands, pts, last, unplayed, t)
        if card >= 0:
            return card
    if losers:
        return _highest_loser(losers, t)
    if last:
        return _top(winners, t, -10.0, 1, False)
    return _top(winners, t, -10.0, 1 if _safe_to_win(cands, led, pts, first, unplayed, out, t) else -1, True)


def _bonus_win(winners: list[int], cands: list[int], pts: float, last: bool, unplayed: list[int],
               t: RolloutTables) -> int:
    """:func:`_follow_card` with a bonus card among ``winners`` or a trick worth less than nothing: a bonus card
    that surely wins and keeps the trick below nothing, else (a trick below nothing) the highest sure
    winner; -1 for neither."""
    cost = t.cost
    sure = winners if last else [c for c in winners if not _higher_out(c, cands, unplayed, t)]
    for c in sure:
        if cost[c] < 0 and pts + cost[c] < 0:
            return c
    if pts < 0 and sure:
        return _top(sure, t, -10.0, 1, False)
    return -1


def _highest_loser(losers: list[int], t: RolloutTables) -> int:
    """The card to duck with: the most expensive penalty card that loses, else the highest loser (a bonus card
    last)."""
    cost, rank = t.cost, t.rank
    best_c, best_k = losers[0], -1e18
    for c in losers:
        v = cost[c]
        k = (100.0 + 5 * v if v > 0 else -100.0 if v < 0 else 0.0) + rank[c]
        if k > best_k:
            best_c, best_k = c, k
    return best_c


def _safe_to_win(cands: list[int], led: int, pts: float, first: bool, unplayed: list[int], out: list[int],
                 t: RolloutTables) -> bool:
    """Whether a trick of ``led`` that every card of ``cands`` would win may be won high: no points on it, a
    suit without points whose big penalty card is not out elsewhere, and (the first trick being clean, or)
    everyone still able to follow."""
    return (pts == 0 and led not in t.penalty_suits
            and not any(unplayed[b] and b not in cands for b in t.big_of[led])
            and ((first and t.clean_first) or t.suit_size[led] - out[led] < t.players))


def _top(cards: list[int], t: RolloutTables, per_cost: float, per_rank: int, clip: bool) -> int:
    """The first of ``cards`` with the highest ``per_cost * cost + per_rank * rank`` (the cost taken as 0 when
    negative with ``clip``): ``max`` with a key, as a loop (compiled, ``max`` calls its key generically)."""
    cost, rank = t.cost, t.rank
    best_c, best_k = cards[0], -1e18
    for c in cards:
        v = cost[c]
        k = per_cost * (v if v > 0.0 or not clip else 0.0) + per_rank * rank[c]
        if k > best_k:
            best_c, best_k = c, k
    return best_c


def _discard_card(cands: list[int], length: list[int], feed: bool, unplayed: list[int], t: RolloutTables) -> int:
    """:func:`rollout_card` when void in the suit led."""
    if not feed:
        return _starve_card(cands, t)
    suit, rank, cost = t.suit, t.rank, t.cost
    key = t.discard_key
    # void: per suit, the lowest big penalty card still out (a higher card of the suit could catch it)
    catch = [99, 99, 99, 99, 99]
    for s in range(4):
        if length[s]:
            for b in t.big_of[s]:
                if unplayed[b] and b not in cands and rank[b] < catch[s]:
                    catch[s] = rank[b]
    best_c, best_k = cands[0], -1e18
    for c in cands:
        v = cost[c]
        s = suit[c]
        if v < 0:
            k = -1000.0 + v
        elif s == _NO_SUIT:
            k = -20.0
        else:
            k = key[c]  # rank, and a penalty card's urge to go
            if rank[c] > catch[s]:
                k += 40  # it could catch a big penalty card: get rid of it
            short = 4 - length[s]
            if short > 0:  # not max(0, ...): a builtin call a card, generic compiled
                k += 2.0 * short
        if k > best_k:
            best_c, best_k = c, k
    return best_c


def _starve_card(cands: list[int], t: RolloutTables) -> int:
    """:func:`_discard_card` onto a trick that must not get points (a moon in the making): the lowest card
    without points, keeping the high cards that can stop the moon later; a bonus card last; with only point
    cards, the cheapest."""
    key = t.keep_key
    best_c, best_k = cands[0], 1e18
    for c in cands:
        k = key[c]
        if k < best_k:
            best_c, best_k = c, k
    return best_c


def _higher_out(c: int, cands: list[int], unplayed: list[int], t: RolloutTables) -> bool:
    """Whether someone else may still hold a higher card of ``c``'s suit."""
    r = t.rank[c]
    rank = t.rank
    return any(unplayed[x] and rank[x] > r and x not in cands for x in t.suit_cards[t.suit[c]])


# --------------------------------------------------------------------------- the moon


#: :func:`moon_losers` at most, for a hand after the pass, for a moon-seeker to go for the moon.
MOON_LOSERS: Final = 3.0
#: :func:`moon_losers` at most of the hand a moon-seeker keeps after its pass (the three cards it receives
#: are unknown when it passes) for it to pass for the moon.
MOON_PASS_LOSERS: Final = 4.0
#: The share of the pack's penalty points a seat must have taken, with every point so far, for
#: :func:`moon_threat` to call it a moon threat (Q♠ alone, or six hearts, in the standard game).
MOON_THREAT: Final = 0.2
#: :func:`moon_losers` at most of the hand the moon-seeker's pass leaves for :class:`Search` (with ``shoot``)
#: to compare that pass, played for the moon, with the others (looser than :data:`MOON_PASS_LOSERS`: the
#: search judges the attempt in its worlds rather than trusting the count).
SEEK_PASS_LOSERS: Final = 5.0


def moon_losers(hand: Sequence[int], t: RolloutTables) -> float:
    """How far ``hand`` (card indices) is from shooting the moon: its *losers*, lower is stronger.

    Per suit held, the top cards of the suit (one slot per copy, as many as the hand holds of the suit, at
    most three) that the hand does not hold: each is a trick the suit may lose, counted 1 in a penalty suit
    (one holding a card with points, where a lost trick usually means lost points) and 0.5 in a side suit
    (a lost side trick costs only if someone void throws points on it). A penalty suit also counts 0.5 for
    each card it is short of three (a void: 1.5 and 1 more), since a player with none of it cannot win the
    tricks where it is led. A void side suit counts nothing. Sure-winning length is strength: A K Q J of
    hearts count 0 losers, A x x of clubs 1.
    """
    suit = t.suit
    held: dict[int, int] = {}
    length = [0, 0, 0, 0, 0]
    for c in hand:
        held[c] = held.get(c, 0) + 1
        length[suit[c]] += 1
    losers = 0.0
    for s in range(4):
        n = length[s]
        penalty = s in t.penalty_suits
        if not n:
            losers += 2.5 if penalty and t.suit_size[s] else 0.0
            continue
        top = t.slots[s][:min(n, 3)]
        mine = dict(held)
        lost = 0
        for x in top:
            if mine.get(x, 0) > 0:
                mine[x] -= 1
            else:
                lost += 1
        losers += lost if penalty else 0.5 * lost
        if penalty and n < 3:
            losers += 0.5 * (3 - n)
    return losers


def moon_pass(hand: Sequence[int], allowed: Sequence[int], count: int, t: RolloutTables) -> list[int]:
    """The ``count`` cards (among ``allowed``, card indices of ``hand``) a moon-seeker passes: one at a time,
    the card whose going leaves the fewest :func:`moon_losers`, a card without points first, then the lowest.
    """
    remaining = list(hand)
    pool = list(allowed)
    chosen: list[int] = []
    for _ in range(count):
        best_c, best_k = pool[0], (1e18, True, 99)
        for c in pool:
            rest = list(remaining)
            rest.remove(c)
            k = (moon_losers(rest, t), t.cost[c] > 0, t.rank[c])
            if k < best_k:
                best_c, best_k = c, k
        pool.remove(best_c)
        remaining.remove(best_c)
        chosen.append(best_c)
    return chosen


def _sure(c: int, held: dict[int, int], unplayed: Sequence[int], t: RolloutTables) -> bool:
    """Whether no card that nobody has played, outside ``held``, can beat ``c`` in its suit."""
    r = t.rank[c]
    rank = t.rank
    for x in t.suit_cards[t.suit[c]]:
        if unplayed[x] - held.get(x, 0) > 0 and (rank[x] > r or (t.ties_win and rank[x] == r)):
            return False
    return True


def moon_card(hand: Sequence[int], cands: Sequence[int], trick: Sequence[int], led: int, last: bool,
              unplayed: Sequence[int], t: RolloutTables) -> int:
    """The moon-seeking policy: which of ``cands`` (the distinct legal card indices) a shooter plays.

    ``hand`` the shooter's card indices; ``trick``, ``led``, ``last`` and ``unplayed`` as for
    :func:`rollout_card`. A card is a *sure winner* when no card still out of sight ranks above it in its
    suit.

    * leading: a sure winner, from the longest suit (drawing the others' cards of it); without one, the
      highest card of the longest side suit (a lost side trick costs nothing while everyone follows);
    * following: the lowest sure winner, else the highest card that wins the trick so far (the lowest
      winner when last); a trick it cannot win gets its cheapest card;
    * void: a card without points that cannot win a trick later, the lowest first; never a penalty card
      while another card is left (it would go to another seat and end the moon).
    """
    if len(cands) == 1:
        return cands[0]
    suit, rank, cost = t.suit, t.rank, t.cost
    held: dict[int, int] = {}
    length = [0, 0, 0, 0, 0]
    for c in hand:
        held[c] = held.get(c, 0) + 1
        length[suit[c]] += 1
    if led < 0:
        best_c, best_k = cands[0], -1e18
        for c in cands:
            s = suit[c]
            if s == _NO_SUIT:
                k = -1000.0
            elif _sure(c, held, unplayed, t):
                k = 100.0 + 2 * length[s] + rank[c] / 20
            else:
                k = 2.0 * length[s] + rank[c] / 20 - (10.0 if s in t.penalty_suits else 0.0) - (
                    30.0 if cost[c] > 0 else 0.0)
            if k > best_k:
                best_c, best_k = c, k
        return best_c
    if led < _NO_SUIT and length[led]:
        best_rank = -1
        for x in trick:
            if suit[x] == led and rank[x] > best_rank:
                best_rank = rank[x]
        ties = t.ties_win
        winners = [c for c in cands if suit[c] == led and (rank[c] > best_rank or (ties and rank[c] == best_rank))]
        if winners:
            if last:
                return min(winners, key=rank.__getitem__)
            sure = [c for c in winners if _sure(c, held, unplayed, t)]
            if sure:
                return min(sure, key=rank.__getitem__)
            return max(winners, key=rank.__getitem__)
        return min(cands, key=lambda c: (max(cost[c], 0.0), rank[c]))
    best_c, best_k2 = cands[0], (True, True, True, 99)
    for c in cands:
        k2 = (cost[c] > 0, cost[c] < 0, suit[c] != _NO_SUIT and _sure(c, held, unplayed, t), rank[c])
        if k2 < best_k2:
            best_c, best_k2 = c, k2
    return best_c


def moon_threat(taken: Sequence[float], seat: int, unplayed: Sequence[int], t: RolloutTables) -> int | None:
    """The seat other than ``seat`` that threatens to shoot the moon, from public facts, or None.

    A threat: the variant's moon pays (:func:`moon_pays`), the seat has taken every point so far (``taken``:
    each seat's points this hand, as :class:`RolloutPolicy` counts them), at least :data:`MOON_THREAT` of
    the pack's, and the points not yet taken are all still in play (``unplayed``: per card index, the
    copies nobody has taken yet, the current trick's included), so it can still take them all.
    """
    if not t.moon_pays:
        return None
    total = sum(taken)
    if total <= 0:
        return None
    for s, w in enumerate(taken):
        if s != seat and w >= total - 1e-9 and w >= MOON_THREAT * t.total:
            left = sum(max(t.cost[i], 0.0) * n for i, n in enumerate(unplayed) if n)
            return s if w + left >= t.total - 1e-9 else None
    return None


class RolloutPolicy:
    """:func:`rollout_card` for every seat, as a rollout policy of the engine (:meth:`Round.policy_playout`).

    It keeps the running facts the policy reads: ``taken``, the points each
    seat has taken this hand (for the moon alarm), and ``unplayed``, per card
    index, the copies nobody has played yet. Both start as given (by default:
    nothing taken, the whole pack out) and are updated as the hand goes on, so
    one policy serves one playout. ``shooter``: a seat that plays :func:`moon_card` instead (a moon threat,
    :func:`moon_threat`) for as long as it has taken every point, and whom the other seats stop feeding from
    :data:`MOON_THREAT` of the pack's points on (not only from the usual third). ``seeker``: a seat that
    plays :func:`moon_card` for as long as it has taken every point too (the searching seat trying for the
    moon itself), the other seats defending against it as against a shooter. ``defended``: a seat the others
    defend against in the same way though it plays :func:`rollout_card` (the searching seat's plain play;
    ``shooter`` or ``seeker``, when given, is the one defended against). Against any of them, once it has
    taken every point so far and :data:`MOON_THREAT` of the pack's, a seat leading leads its
    :func:`stopper` (a point card that surely wins) if it holds one, and a seat void in the suit led throws
    no point onto a trick the threat has still to play to (as :class:`~heartslib.agents.DefendingAgent`
    does). Decisions: the moon
    choice goes to the option best for the shooter, nobody exposes cards, any other decision (a joker's
    called suit, the dealer's choice) is drawn at random.

    >>> import heartslib as hl, random
    >>> v = hl.preset("black_maria")
    >>> r = hl.Round.from_hands(v, hl.Round.deal(v, seed=3).hands, passing=hl.HOLD)
    >>> points = r.policy_playout(RolloutPolicy(v), random.Random(1))
    >>> r.is_over, sum(points)
    (True, 43)
    """

    def __init__(self, variant: Variant | RolloutTables, taken: list[float] | None = None,
                 unplayed: list[int] | None = None, rng: random.Random | None = None,
                 shooter: int | None = None, seeker: int | None = None, defended: int | None = None) -> None:
        t = variant if isinstance(variant, RolloutTables) else RolloutTables(variant)
        self.tables = t
        self.shooter = shooter
        self.seeker = seeker
        #: a seat the others defend against as against a shooter though it plays the rollout policy (the searching
        #: seat's plain candidates: a defence does not ask whether a threat means it)
        self.defended = defended
        self.taken = [0.0] * t.players if taken is None else taken
        self.unplayed = t.counts[:] if unplayed is None else unplayed
        self.out = suits_out(self.unplayed, t)  # unplayed by suit, kept as cards are played
        self.rng = random.Random(0) if rng is None else rng
        self.seats: list[int] = []  # the trick so far, as the policy has seen it played
        self.cards: list[int] = []
        self.first_trick = True
        # what play() reads of the trick so far, kept card by card rather than worked out at each play: the
        # suit led (its first suited card's; -1: none yet), the seat winning it (the highest card of the suit
        # led; cancellations ignored) and its rank, whether a card with points is on it, and its points
        self.led = -1
        self.winner = -1
        self.best = -1
        self.hot = False
        self.won = 0.0

    # copy, deepcopy and pickle: compiled, loading calls the class (mypyc's __new__ runs __init__): its tables,
    # then every attribute from the state
    def __reduce__(self) -> tuple[object, tuple[RolloutTables], object]:
        return (RolloutPolicy, (self.tables,), self.__getstate__())

    def start(self, trick: Sequence[tuple[int, int]], first_trick: bool) -> None:
        """Begin from a trick in progress (``(seat, card index)`` pairs) and whether it is the hand's first."""
        self._clear()
        for seat, card in trick:
            self._add(seat, card)
        self.first_trick = first_trick

    def _clear(self) -> None:
        self.seats = []
        self.cards = []
        self.led = self.winner = self.best = -1
        self.hot = False
        self.won = 0.0

    def _add(self, seat: int, card: int) -> None:
        t = self.tables
        if not self.cards:
            self.winner = seat
        self.seats.append(seat)
        self.cards.append(card)
        cost = t.cost[card]
        self.won += cost
        if cost > 0:
            self.hot = True
        suit = t.suit[card]
        if self.led < 0 and suit != _NO_SUIT:
            self.led = suit
        if suit == self.led:
            rank = t.rank[card]
            if rank > self.best or (t.ties_win and rank == self.best):
                self.best, self.winner = rank, seat

    def play(self, s: RoundState, seat: int, cands: list[int]) -> int:
        """The card :func:`rollout_card` chooses among ``cands`` for ``seat``."""
        t = self.tables
        suit = t.suit
        cards = self.cards
        led = self.led
        if cards and led < 0:
            led = suit[cands[0]]  # only jokers so far: the legal cards say what may follow
            return _rollout_card(cands, cards, led, len(cards) == t.players - 1, True, self.first_trick,
                                 self.unplayed, self.out, t)
        shooter, seeker = self.shooter, self.seeker
        # each compared only once known to be an int: compiled, == against an int | None is a generic compare
        if ((shooter is not None and seat == shooter) or (seeker is not None and seat == seeker)) and \
                _has_every_point(self.taken, seat):
            return moon_card(s.held(seat), cands, cards, led if cards else -1, len(cards) == t.players - 1,
                             self.unplayed, t)
        # the other seats defend against this seat's own attempt (seeker) as against a threat: a rollout whose
        # opponents let an attempt run on looks good until the attempt meets a real defence
        threat = shooter if shooter is not None else seeker if seeker is not None else self.defended
        if not cards and threat is not None and seat != threat and _threatens(self.taken, threat, t):
            stop = stopper(cands, self.unplayed, t)
            if stop >= 0:
                return stop
        feed = True
        if cards and led >= 0 and (suit[cands[0]] != led or self.hot):
            # void, or points on the table: is the trick going to a seat that has taken every point so far
            # (a moon alarm)?
            feed = _may_feed(seat, self.winner, threat, self.taken, t)
            if feed and threat is not None and suit[cands[0]] != led and seat != threat and \
                    threat not in self.seats and _threatens(self.taken, threat, t):
                feed = False  # void: no point onto a trick the threat may still take
        return _rollout_card(cands, cards, led if cards else -1, len(cards) == t.players - 1, feed,
                             self.first_trick, self.unplayed, self.out, t)

    def played(self, s: RoundState, seat: int, card: int) -> None:
        """Keep the running facts once ``seat`` has played ``card``."""
        self.record(seat, card, not s.tcards, s.leader)

    def record(self, seat: int, card: int, trick_over: bool, leader: int | None) -> None:
        """:meth:`played` from public facts: whether the trick is over after the card, and who leads next."""
        # compiled, -= on a list's item is the generic in-place subtract: written out, it is native
        unplayed, out, s = self.unplayed, self.out, self.tables.suit[card]
        unplayed[card] = unplayed[card] - 1
        out[s] = out[s] - 1
        self._add(seat, card)
        if len(self.cards) % self.tables.players == 0 and trick_over:
            # the trick is over: its points go to its winner, who leads next (a cancelled trick's cards wait
            # for the next one; the moon alarm can ignore that)
            if leader is not None and leader >= 0 and self.won > 0:
                taken = self.taken
                taken[leader] = taken[leader] + self.won
            self._clear()
            self.first_trick = False

    def decide(self, s: RoundState, seat: int, options: tuple[str, ...]) -> int:
        """The moon scoring best for the shooter; no exposed cards (as :class:`~heartslib.agents.HeuristicAgent`
        decides); any other decision at random."""
        decision = s.decision[0] if s.decision is not None else None
        if decision is Decision.EXPOSE:
            return 0  # "none"
        if decision is not Decision.MOON:
            return int(self.rng.random() * len(options))
        best_u, best_k = -1e18, 0
        for k, option in enumerate(options):
            trial = s.copy()
            choose(trial, choice(trial.rules, seat, option))
            assert trial.outcome is not None
            u = -_cost(trial.outcome.points[seat], self.tables.sign)
            if u > best_u:
                best_u, best_k = u, k
        return best_k


def _has_every_point(taken: list[float], seat: int) -> bool:
    """Whether ``seat`` has taken every point taken so far this hand (``taken``: each seat's points)."""
    total = 0.0
    for x in taken:  # compiled, a native loop where sum() adds generically
        total += x
    return taken[seat] >= total - 1e-9


def _threatens(taken: list[float], seat: int, t: RolloutTables) -> bool:
    """Whether ``seat`` has taken every point so far and at least :data:`MOON_THREAT` of the pack's."""
    return taken[seat] >= MOON_THREAT * t.total and _has_every_point(taken, seat)


def stopper(cands: list[int], unplayed: list[int], t: RolloutTables) -> int:
    """A defender's lead against a moon: the highest card with points among ``cands`` (the legal leads) that no
    card still out of sight outranks in its suit, so that it wins a point of its own; -1 if there is none."""
    best, best_rank = -1, -1
    rank, cost = t.rank, t.cost
    for c in cands:
        if cost[c] > 0 and rank[c] > best_rank and not _higher_out(c, cands, unplayed, t):
            best, best_rank = c, rank[c]
    return best


def _may_feed(seat: int, winner: int, shooter: int | None, taken: list[float], t: RolloutTables) -> bool:
    """The rollouts' moon alarm: whether ``seat`` may let points go to ``winner``, the seat winning the trick.
    Not when ``winner`` is another seat that has taken every point so far, and at least the alarm's share of
    the pack's (:data:`MOON_THREAT` of it for ``shooter``, a moon threat; else ``t.moon_alarm``)."""
    alarm = t.moon_alarm if winner != shooter else min(t.moon_alarm, MOON_THREAT * t.total)
    return winner == seat or not (taken[winner] >= alarm and _has_every_point(taken, winner))


def rollout(r: Round, taken: list[float], unplayed: list[int], t: RolloutTables, rng: random.Random,
            first: Action | None = None, shooter: int | None = None, seeker: int | None = None,
            defended: int | None = None) -> None:
    """Play ``r`` to its end in place with :func:`rollout_card` for every seat, after ``first`` if given.

    ``taken``: the points each seat has taken this hand so far, for the moon
    alarm; ``unplayed``: per card index, the copies not played yet. Both are
    updated as the hand goes on. Decisions as :class:`RolloutPolicy` makes
    them; ``shooter``: a seat that plays for the moon, ``seeker``: this seat trying for it, ``defended``: a seat
    defended against as a threat though it plays the rollout policy (:class:`RolloutPolicy`).
    The hand runs in the engine's own loop (:meth:`Round.policy_playout`).
    Raises :class:`~heartslib.IllegalAction` if ``first`` is not legal in ``r``, and ``ValueError`` if the
    round is (still) in its passing phase.
    """
    policy = RolloutPolicy(t, taken, unplayed, rng, shooter, seeker, defended)
    policy.start([(seat, c.index) for seat, c in r.trick], not any(r.tricks_won))
    if first is not None:
        r.apply(first)
        if isinstance(first, Play):
            policy.record(first.seat, first.card.index, not r.trick, r.leader)
    if r.phase is Phase.PASS:
        raise ValueError("rollouts start after the pass")
    r.policy_playout(policy, rng)


# --------------------------------------------------------------------------- value of a finished hand


def hand_value(variant: Variant, seat: int, points: Sequence[Score], scores: Sequence[Score],
               hand_number: int) -> float:
    """How good a finished hand's ``points`` are for ``seat``, in the variant's own terms (higher is better).

    This seat's points against the mean of the other seats' (its team's
    total against the other teams' with partnerships), signed so that
    gaining points is bad when the lowest total wins; with complex scores the
    change of each total's magnitude. A hand that ends the match adds twice
    the pack's penalty points for a win (shared in a tie) and takes it off
    for a loss; in danger hearts, a lost life costs as much. (The pack's
    points, not ``moon.points``: a scale for the match's stake that a field
    the rules leave unread, such as ``moon.points`` beside a moon that scores
    nobody, cannot change.)
    """
    n = len(points)
    sign = 1.0 if variant.end.winner == Winner.LOWEST else -1.0
    magnitude = variant.end.measure == Measure.MAGNITUDE
    if magnitude:
        worth = [abs(scores[s] + points[s]) - abs(scores[s]) for s in range(n)]
    else:
        worth = [sign * _real(points[s]) for s in range(n)]
    if variant.teams:
        team = next(tm for tm in variant.teams if seat in tm)
        mine = sum(worth[s] for s in team)
        others = [sum(worth[s] for s in tm) for tm in variant.teams if tm is not team]
    else:
        mine = worth[seat]
        others = [worth[s] for s in range(n) if s != seat]
    value = (sum(others) / len(others) if others else 0.0) - mine
    stake = 2.0 * abs(_real(variant.rules.penalty_total) or 26.0)
    if variant.end.lives:
        threshold = variant.end.life_threshold
        lost = [_real(points[s]) >= threshold for s in range(n)]
        value -= stake * (lost[seat] - sum(lost[s] for s in range(n) if s != seat) / max(1, n - 1))
    totals = apply_exact_reset(variant, [a + b for a, b in zip(scores, points, strict=True)])
    if match_over(variant, totals, hand_number + 1):
        won = winners(variant, totals)
        value += stake * ((1.0 / len(won)) if seat in won else -1.0 / max(1, n - len(won)))
    return value


def _real(x: Score) -> float:
    return float(x.real) if isinstance(x, complex) else float(x)


# --------------------------------------------------------------------------- the search


#: How many standard errors worse than the best a candidate must be, over the same worlds, to be dropped.
PRUNE_Z: Final = 2.5
#: How many standard errors better than the best plain candidate, over the same worlds, a moon attempt must be
#: for the search to choose it (:func:`_attempt_or_plain`).
ATTEMPT_Z: Final = 2.0
#: After how many worlds clearly worse candidates are dropped.
_CHECKPOINTS: Final = frozenset((8, 16, 32, 64, 128, 256))


@attrs.frozen
class Budget:
    """How much a decision may cost: ``playouts`` worlds at most, no new world once the rollouts have played
    ``max_plays`` cards (worlds times candidates times cards left) or once ``time_limit`` seconds (wall
    clock; None: no limit) have passed."""

    playouts: int = DEFAULT_PLAYOUTS
    max_plays: int = DEFAULT_MAX_PLAYS
    time_limit: float | None = None

    def __attrs_post_init__(self) -> None:
        # a bad budget is a bad argument of SearchAgent, SearchFactory or Budget: the documented bad_argument
        for name in ("playouts", "max_plays"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise IllegalAction("bad_argument", f"{name} must be a whole number >= 1, not {arg_text(value)}")
        limit = self.time_limit
        # `limit > 0` is false for nan, so nan is refused too
        if limit is not None and not (isinstance(limit, int | float) and not isinstance(limit, bool) and limit > 0):
            raise IllegalAction("bad_argument", f"time_limit must be a number of seconds above 0 (or None), "
                                f"not {arg_text(limit)}")


#: One candidate's value in one world (None when the world cannot play it), given the world.
Evaluate = Callable[[Round, int], "float | None"]


class Search:
    """The search for one variant (what :class:`heartslib.agents.SearchAgent` runs): candidates, worlds,
    rollouts, values and pruning (see the module docs).

    >>> import heartslib as hl, random
    >>> v = hl.preset("standard")
    >>> r = hl.Round.deal(v, seed=3, hand_number=3)  # a hold hand: play starts at once
    >>> for _ in range(6):
    ...     r.apply(r.legal_actions()[0])
    >>> obs = r.observation(r.to_act[0])
    >>> search = Search(v, Budget(playouts=8))
    >>> search.choose(obs, search.play_candidates(obs, r.legal_actions()), random.Random(1)) in r.legal_actions()
    True
    """

    def __init__(self, variant: Variant, budget: Budget | None = None, *, moon_defence: bool = True,
                 model: ChoiceModel | None = None, epsilon: float = 0.1, endgame: int = ENDGAME_TRICKS,
                 named: Suit | None = None, shoot: bool = True) -> None:
        if model is not None:
            check_model(model, epsilon)
        #: tricks left (cards in the hand) from which a play is valued in each world by this seat's best reply to
        #: the rollout policy, searched exactly (:class:`heartslib.solve.Endgame`), instead of by a rollout;
        #: 0: never
        self.endgame = check_endgame(endgame)
        self.variant = variant
        self.budget = budget or Budget()
        #: choice-aware worlds: each world's values count with its likelihood under ``model`` (slack
        #: ``epsilon``; :meth:`heartslib.inference.Sampler.weighted`); None: uniform worlds
        self.model = model
        self.epsilon = float(epsilon)
        #: whether a moon threat (:func:`moon_threat`) plays for the moon in the rollouts (False: every seat
        #: plays :func:`rollout_card`, as before the moon defence)
        self.moon_defence = moon_defence
        #: whether this seat considers shooting the moon itself: while no other seat has taken a point, each
        #: candidate is also valued with this seat's later cards played by :func:`moon_card` (as ``seeker`` of
        #: :class:`RolloutPolicy`), and counts with the better of its two values;
        #: :class:`~heartslib.agents.SearchAgent` offers a pass for the moon (:meth:`choose_pass`'s
        #: ``seeking``) only with it. False: its later cards always the rollout policy's, as before
        self.shoot = shoot
        #: the suit an auction named for the hands this search plays (its cards the penalty cards; None: the
        #: variant's own)
        self.named = named
        self.tables = RolloutTables(variant, named)
        self._special = special_cards(variant)
        #: positions the endgame solver has searched, over this search's life (a solved position counts
        #: against :attr:`Budget.max_plays` as one rollout card does)
        self.solver_nodes = 0
        #: every candidate valued in each of ``budget.playouts`` worlds, with no pruning and no stop at
        #: ``max_plays`` or the time limit (False: the search as it plays); for measuring the search itself
        #: (``benchmarks/search_budget.py``'s judge), not for play
        self.exhaustive = False
        #: with :attr:`exhaustive`, the last decision's values: per candidate, its value in each world (None
        #: where the world could not play it); where the moon was open to this seat (:attr:`shoot`), twice as
        #: many rows, the second half the same candidates played for the moon
        self.last_values: list[list[float | None]] = []

    # ------------------------------------------------------------------ candidates

    # copy, deepcopy and pickle (a SearchAgent that has played holds its Search): compiled, loading calls the
    # class (mypyc's __new__ runs __init__): its variant, then every attribute from the state
    def __reduce__(self) -> tuple[object, tuple[Variant], object]:
        return (Search, (self.variant,), self.__getstate__())

    def play_candidates(self, obs: Observation, actions: Sequence[Action]) -> list[Action]:
        """The actions worth comparing: equivalent cards merged (see the module docs), in their given order."""
        actions = list(actions)
        plays = [a for a in actions if isinstance(a, Play)]
        v = self.variant
        if len(plays) != len(actions) or (v.play.identical == Identical.CANCEL and v.deck.decks == 2):
            return actions  # decisions; or cancellation, where which copy is where decides
        f = _facts(v, self.named)
        unseen = Counter(f.counts)
        unseen.subtract(c.index for c in obs.hand)
        # only the finished tricks' cards: a card on the table between two of ours tells them apart (9♥ wins
        # over the 8♥ led, 6♥ does not)
        unseen.subtract(c.index for trick in obs.tricks for c in trick.cards)
        by_suit: dict[int, list[Play]] = {}
        out: list[Action] = []
        for a in plays:
            i = a.card.index
            if i in self._special or f.suit[i] == _NO_SUIT:
                out.append(a)
            else:
                by_suit.setdefault(f.suit[i], []).append(a)
        for s, group in by_suit.items():
            group.sort(key=lambda a: f.rank[a.card.index])
            suit_cards = [i for i in f.counts if f.suit[i] == s]
            keep = group[0]
            out.append(keep)
            for a in group[1:]:
                lo, hi = f.rank[keep.card.index], f.rank[a.card.index]
                gap = any(unseen[i] > 0 for i in suit_cards if lo <= f.rank[i] <= hi)
                if gap or f.value[a.card.index] != f.value[keep.card.index]:
                    keep = a
                    out.append(a)
        order = {id(a): k for k, a in enumerate(actions)}
        out.sort(key=lambda a: order[id(a)])
        return out

    # ------------------------------------------------------------------ choosing

    def choose(self, obs: Observation, candidates: Sequence[Action], rng: random.Random) -> Action:
        """The best of ``candidates`` (plays or ``Choose`` decisions of ``obs.seat``) over sampled worlds."""
        t = self.tables
        taken = [0.0] * obs.players
        for trick in obs.tricks:
            if trick.winner is not None:
                taken[trick.winner] += sum(max(t.cost[c.index], 0.0) for c in trick.cards)
        unplayed = t.counts[:]
        for c in obs.cards_played:
            unplayed[c.index] -= 1
        shooter = None
        if self.moon_defence:
            untaken = unplayed[:]  # the current trick's cards are still to be taken
            for _, card in obs.trick:
                untaken[card.index] += 1
            shooter = moon_threat(taken, obs.seat, untaken, t)

        n = len(candidates)
        # the other seats defend against this seat's plain play too once it threatens: a defence does not ask
        # whether a threat means it (without this, plain play looked worse beside an attempt than it is)
        guard = obs.seat if self.moon_defence and shooter is None else None

        def evaluate(world: Round, k: int) -> float | None:
            # k < n: candidate k, this seat's later cards the rollout policy's; k >= n: candidate k - n, this
            # seat playing for the moon
            r = world.copy()
            try:
                rollout(r, taken[:], unplayed[:], t, rng, candidates[k % n], shooter, obs.seat if k >= n else None,
                        guard)
            except ValueError:
                return None  # this world's reading of the first lead differs; the other worlds decide
            return self._value(obs, r)

        def rolled(world: Round) -> Evaluate:
            return evaluate

        prepare: Callable[[Round], Evaluate] = rolled
        count = n
        if len(obs.hand) <= self.endgame and all(isinstance(a, Play) for a in candidates):
            prepare = self._solver(obs, candidates, evaluate, shooter)  # its best reply finds a moon by itself
        elif self.shoot and t.moon_pays and _has_every_point(taken, obs.seat):
            # the moon is still open to this seat; the rollout policy would never try for it, so the search
            # could not see it
            count = 2 * n
        # a rollout plays every card in hand and, in a game with a stock (deck.stock), every card still to draw
        return candidates[self._compare(obs, count, rng, sum(obs.hand_sizes) + obs.stock_size, prepare, n) % n]

    def _solver(self, obs: Observation, candidates: Sequence[Action], fallback: Evaluate,
                shooter: int | None) -> Callable[[Round], Evaluate]:
        """``prepare`` for :meth:`_compare` in the endgame: each world the solver covers is solved exactly (once
        per distinct world: its values are kept by the hidden hands), the others rolled out by ``fallback``;
        the other seats play as in the rollouts (:class:`EndgameModel`, ``shooter`` a moon threat)."""
        v = self.variant
        model = EndgameModel(self.tables, shooter, obs.seat)
        cards = [a.card.index for a in candidates if isinstance(a, Play)]
        solved: dict[tuple[int, ...], list[float]] = {}

        def value(points: Sequence[Score], seat: int) -> float:
            return hand_value(v, seat, points, obs.scores, obs.hand_number)

        def prepare(world: Round) -> Evaluate:
            s = engine_state(world)
            if not solvable(s):
                return fallback
            key = tuple(s.hands)  # one deck: solvable() refuses copies
            values = solved.get(key)
            if values is None:
                solver = Endgame(s, obs.seat, value, model)
                values = solved[key] = [solver.solve_after(c)[obs.seat] for c in cards]
                self.solver_nodes += solver.nodes
            found = values
            return lambda _, k: found[k]

        return prepare

    def choose_pass(self, obs: Observation, candidates: Sequence[Action], rng: random.Random,
                    others: Callable[[Round, int], Action], seeking: Sequence[Action] = ()) -> Action:
        """The best of the pass ``candidates`` and of the passes ``seeking``: in each world ``others(world,
        seat)`` chooses the pass of each seat still to pass, then the whole hand is played out, this seat
        playing for the moon (``seeker`` of :class:`RolloutPolicy`) after a pass of ``seeking``."""
        t = self.tables
        v = self.variant
        every = [*candidates, *seeking]
        n = len(candidates)

        def prepare(world: Round) -> Evaluate:
            theirs = [others(world, s) for s in world.to_act if s != obs.seat]

            def evaluate(_: Round, k: int) -> float | None:
                r = world.copy()
                r.apply(every[k])
                for p in theirs:
                    r.apply(p)
                if r.phase is not Phase.PLAY:
                    return None
                rollout(r, [0.0] * obs.players, t.counts[:], t, rng, seeker=obs.seat if k >= n else None)
                return self._value(obs, r)

            return evaluate

        return every[self._compare(obs, len(every), rng, v.deal_size * v.players, prepare, n)]

    def _value(self, obs: Observation, r: Round) -> float:
        pts = r.points
        assert pts is not None
        # a clean slate scores the shooter's hand 0 and returns its total to 0: valued as that change
        change = slate_change(obs.scores, pts, r.outcome)
        return hand_value(self.variant, obs.seat, change, obs.scores, obs.hand_number)

    def _compare(self, obs: Observation, count: int, rng: random.Random, length: int,
                 prepare: Callable[[Round], Evaluate], plain: int | None = None) -> int:
        """The index of the best of ``count`` candidates over sampled worlds: ``prepare(world)`` gives the
        function valuing candidate ``k`` in it; ``length`` is the cards one rollout plays. Candidates from
        ``plain`` on are moon attempts, chosen only when clearly better than the best plain one
        (:func:`_attempt_or_plain`)."""
        budget = self.budget
        sampler = Sampler(obs, self.variant)
        started = time.perf_counter()
        # values[k][w]: candidate k's value in world w (None where the world could not play it)
        values: list[list[float | None]] = [[] for _ in range(count)]
        logs: list[float] = []  # with a model: each world's log-likelihood
        alive = list(range(count))
        spent = 0
        model = self.model
        exhaustive = self.exhaustive
        for w in range(budget.playouts):
            if w and not exhaustive and (spent >= budget.max_plays or (
                    budget.time_limit is not None and time.perf_counter() - started > budget.time_limit)):
                break
            if model is None:
                world = sampler.sample(rng)
            else:
                drawn, log = sampler.draw_scored(rng, model, epsilon=self.epsilon)
                world = drawn.round
                logs.append(log)
            nodes = self.solver_nodes
            evaluate = prepare(world)
            # a world solved exactly costs the positions searched; a world rolled out, its cards
            spent += self.solver_nodes - nodes if self.solver_nodes > nodes else length * len(alive)
            for k in alive:
                values[k].append(evaluate(world, k))
            if w + 1 in _CHECKPOINTS and len(alive) > 1 and not exhaustive:
                alive = _prune(values, alive)  # world by world, unweighted: a cheap screen of clear losers
        if exhaustive:
            self.last_values = values
        if model is None:
            best = max(alive, key=lambda k: _mean(values[k]))
        else:
            weights = weights_of(logs)
            best = max(alive, key=lambda k: _weighted_mean(values[k], weights))
        return best if plain is None else _attempt_or_plain(values, alive, best, plain)



class EndgameModel:
    """The rollouts' play as :mod:`heartslib.solve`'s model of the other seats (:data:`heartslib.solve.Model`):
    :func:`rollout_card`, with the rollouts' moon alarm, and :func:`moon_card` for ``shooter`` (a moon threat,
    :func:`moon_threat`) while it has taken every point, as :class:`RolloutPolicy` plays them; the others
    defend against ``shooter`` or, without one, ``seeker`` (the searching seat) as the rollouts do."""

    def __init__(self, tables: RolloutTables, shooter: int | None = None, seeker: int | None = None) -> None:
        self.tables = tables
        self.shooter = shooter
        #: the searching seat, whom the others defend against as against a shooter (as in the rollouts)
        self.seeker = seeker

    # copy, deepcopy and pickle: compiled, loading calls the class (mypyc's __new__ runs __init__) with these
    def __reduce__(self) -> tuple[object, tuple[RolloutTables, int | None, int | None]]:
        return (EndgameModel, (self.tables, self.shooter, self.seeker))

    def __call__(self, seat: int, cands: list[int], trick: list[tuple[int, int]], unplayed: list[int],
                 taken: list[list[int]], hand: list[int]) -> int:
        """The card ``seat`` (holding ``hand``) plays among ``cands`` (see :data:`heartslib.solve.Model`)."""
        t = self.tables
        cards = [c for _, c in trick]
        led = t.suit[cards[0]] if cards else -1
        last = len(cards) == t.players - 1
        points = [sum((max(t.cost[c], 0.0) for c in got), 0.0) for got in taken]
        if seat == self.shooter and _has_every_point(points, seat):
            return moon_card(hand, cands, cards, led, last, unplayed, t)
        threat = self.shooter if self.shooter is not None else self.seeker
        if not cards and threat is not None and seat != threat and _threatens(points, threat, t):
            stop = stopper(cands, unplayed, t)
            if stop >= 0:
                return stop
        feed = True
        if cards and (t.suit[cands[0]] != led or any(t.cost[c] > 0 for c in cards)):
            winner, best = trick[0][0], -1
            for s, c in trick:
                if t.suit[c] == led and t.rank[c] > best:  # one deck (heartslib.solve.solvable)
                    winner, best = s, t.rank[c]
            feed = _may_feed(seat, winner, threat, points, t)
            if feed and threat is not None and t.suit[cands[0]] != led and seat != threat and \
                    all(x != threat for x, _ in trick) and _threatens(points, threat, t):
                feed = False  # void: no point onto a trick the threat may still take
        if len(cands) == 1:
            return cands[0]
        return _rollout_card(cands, cards, led, last, feed, False, unplayed, suits_out(unplayed, t), t)


def _weighted_mean(xs: Sequence[float | None], weights: Sequence[float]) -> float:
    """The mean of the values present, each counting with its world's weight."""
    total = weight = 0.0
    for x, w in zip(xs, weights, strict=False):  # a candidate pruned early has fewer values than worlds
        if x is not None:
            total += x * w
            weight += w
    return total / weight if weight > 0 else -1e18


def _mean(xs: Sequence[float | None]) -> float:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else -1e18


def _attempt_or_plain(values: list[list[float | None]], alive: list[int], best: int, plain: int) -> int:
    """``best``, or the best plain candidate (index below ``plain``) still alive when ``best`` is a moon attempt
    (index ``plain`` or more) that does not beat it by :data:`ATTEMPT_Z` standard errors of their mean
    difference over the same worlds. The best of many noisy means is biased upward, and the attempts' are the
    noisiest (a moon swings a hand by the pack's points twice over): an attempt that only matches the plain
    play is a gamble the real table, which defends, tends to lose."""
    if best < plain:
        return best
    rivals = [k for k in alive if k < plain]
    if not rivals:
        return best
    rival = max(rivals, key=lambda k: _mean(values[k]))
    diffs = [a - b for a, b in zip(values[best], values[rival], strict=True) if a is not None and b is not None]
    if len(diffs) < 3:
        return rival
    m = sum(diffs) / len(diffs)
    var = sum((d - m) ** 2 for d in diffs) / (len(diffs) - 1)
    return best if m > ATTEMPT_Z * (var / len(diffs)) ** 0.5 else rival


def _prune(values: list[list[float | None]], alive: list[int]) -> list[int]:
    """The candidates not clearly worse than the best so far, compared world by world.

    The worlds are shared, so each candidate is compared with the best by the
    mean of their differences in the same worlds, against the standard error
    of that mean: much of the luck of the deal cancels out.
    """
    best = max(alive, key=lambda k: _mean(values[k]))
    keep = []
    for k in alive:
        if k == best:
            keep.append(k)
            continue
        diffs = [b - x for b, x in zip(values[best], values[k], strict=True) if b is not None and x is not None]
        if len(diffs) < 3:
            keep.append(k)
            continue
        m = sum(diffs) / len(diffs)
        var = sum((d - m) ** 2 for d in diffs) / (len(diffs) - 1)
        if m <= PRUNE_Z * (var / len(diffs)) ** 0.5:
            keep.append(k)
    return keep
