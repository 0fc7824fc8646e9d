"""The search player: determinized Monte Carlo search over the hidden hands (PIMC).

:class:`SearchAgent` (also ``heartslib.agents.SearchAgent``) decides a play
in four steps:

1. **Candidates.** The legal cards, with *equivalent* cards merged: two cards
   of a suit are equivalent when every card ranked between them (and every
   other copy of them) is in this hand or already played, so they take and
   lose exactly the same tricks (9♣ and 10♣ once the other clubs between
   them are gone). Cards with a rule or a score of their own stay apart.
2. **Worlds.** ``playouts`` determinizations drawn with
   :class:`heartslib.inference.Sampler`: complete rounds consistent with the
   observation.
3. **Rollouts.** In every world, each candidate is played and the hand is
   finished by :func:`rollout_card`, a cheap rule-based policy for every
   seat (duck under the winning card, dump the most expensive card when void,
   lead low from short suits, don't feed a player who has every point so
   far). The same worlds serve every candidate, so their comparison is not
   blurred by luck of the draw.
4. **Value.** Each finished hand is scored in the variant's own terms by
   :func:`hand_value`: this seat's points against the others' (the team's
   with partnerships; sign-flipped when the highest total wins; the change
   of the totals' magnitude in complex hearts; a lost life in danger
   hearts), plus a bonus for winning the match when the hand would end it.
   The candidate with the best mean value is played.

Passes are searched too, among the heuristic's pass and its neighbours
(every choice of ``k`` of its ``k + 2`` likeliest cards): in each world the
seats still to pass choose as :class:`HeuristicAgent` would, and the whole
hand is played out. Scatter and star passes (whose order matters) and the
dealer's choice are delegated to the heuristic; the moon choice and a
joker's called suit are searched like plays.

The same seed facing the same position makes the same decision (with
``time_limit`` set, the number of worlds depends on the machine's speed and
the decision may too). The agent sees only the observation and the public
rules.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Final

from heartslib.actions import Action, Pass, Play
from heartslib.agents import BaseAgent, HeuristicAgent, LazyActions, _Think
from heartslib.cards import NUM_CARD_INDICES, Card
from heartslib.enums import SCATTER, STAR, Identical, Measure, Phase, Winner
from heartslib.inference import ImpossibleHistory, Sampler, _facts
from heartslib.observation import Observation
from heartslib.round import Round
from heartslib.score import Score
from heartslib.scoring import apply_exact_reset, match_over, winners
from heartslib.variant import Variant

__all__ = [
    "DEFAULT_MAX_PLAYS",
    "DEFAULT_PLAYOUTS",
    "RolloutTables",
    "SearchAgent",
    "SearchFactory",
    "hand_value",
    "rollout",
    "rollout_card",
]

#: Worlds (determinizations) per decision by default: each candidate is played out once in each.
DEFAULT_PLAYOUTS: Final = 64
#: Rollout card plays per decision by default (worlds times candidates times cards left): no world is
#: started beyond it, so the long hands of big tables and two decks keep decisions short.
DEFAULT_MAX_PLAYS: Final = 12_000
_NO_SUIT: Final = 4
_JK: Final = Card("JK").index


# --------------------------------------------------------------------------- the rollout policy


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

    def __init__(self, variant: Variant) -> None:
        f = _facts(variant)
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


def _cost(value: Score, sign: int) -> float:
    if isinstance(value, complex):
        return sign * value.real + abs(value.imag)
    return float(sign * value)


def rollout_card(cands: Sequence[int], trick: Sequence[int], led: int, last: bool, feed: bool, first: bool,
                 unplayed: Sequence[int], t: RolloutTables) -> int:
    """The rollout policy: which of ``cands`` (the distinct legal card indices, in hand order) to play.

    A pure function of plain facts, so an engine's fast playout loop can call
    it: ``trick`` the card indices played to the trick so far; ``led`` the
    suit to follow (-1 when leading); ``last`` whether this is the trick's
    last play; ``feed`` whether points may go to the seat winning the trick
    (False when it has taken every point so far, and a third of them: a moon
    in the making);
    ``first`` whether this is the hand's first trick; ``unplayed[i]`` the
    copies of card ``i`` nobody has played yet. The player's hand is taken to
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
      penalty card, then high cards of short suits; never a bonus card, and no
      points onto a moon in the making.
    """
    if len(cands) == 1:
        return cands[0]
    suit, rank, cost = t.suit, t.rank, t.cost
    length = [0, 0, 0, 0, 0]
    for c in cands:
        length[suit[c]] += 1
    if led < 0:
        # per suit held: a penalty to lead from it (nobody else can follow; the big penalty card is out)
        extra = [0.0, 0.0, 0.0, 0.0, 0.0]
        out_rank = [99, 99, 99, 99, 99]
        mine = [False] * 5
        for s in range(4):
            if not length[s]:
                continue
            outstanding = -length[s]
            for x in t.suit_cards[s]:
                outstanding += unplayed[x]
            extra[s] = length[s] + (40.0 if outstanding <= 0 else 0.0)
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
                r = rank[c]
                v = cost[c]
                k = r + extra[s]
                if v > 0:
                    k += 10 + 3 * v
                elif v < 0:
                    k += 30
                if out_rank[s] < 99:
                    k += -4 if r < out_rank[s] else 30
                if mine[s] and v <= 0:
                    k += 3  # keep the guards of one's own big card
            if k < best_k:
                best_c, best_k = c, k
        return best_c
    if led < _NO_SUIT and length[led]:
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
            return min(winners, key=rank.__getitem__) if last else max(winners, key=rank.__getitem__)
        if winners and (bonus or pts < 0):
            sure = winners if last else [c for c in winners if not _higher_out(c, cands, unplayed, t)]
            for c in sure:
                if cost[c] < 0 and pts + cost[c] < 0:
                    return c
            if pts < 0 and sure:
                return max(sure, key=lambda c: -10.0 * cost[c] + rank[c])
        if losers:
            best_c, best_k = losers[0], -1e18
            for c in losers:
                v = cost[c]
                k = (100.0 + 5 * v if v > 0 else -100.0 if v < 0 else 0.0) + rank[c]
                if k > best_k:
                    best_c, best_k = c, k
            return best_c
        if last:
            return max(winners, key=lambda c: -10.0 * cost[c] + rank[c])
        safe = (pts == 0 and led not in t.penalty_suits
                and not any(unplayed[b] and b not in cands for b in t.big_of[led])
                and ((first and t.clean_first) or _gone(led, unplayed, t) < t.players))
        if safe:
            return max(winners, key=lambda c: -10.0 * max(cost[c], 0.0) + rank[c])
        return max(winners, key=lambda c: -10.0 * max(cost[c], 0.0) - rank[c])
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
            k = float(rank[c])
            if v > 0:
                k += 50 + 5 * v if feed else -200.0
            if rank[c] > catch[s]:
                k += 40  # it could catch a big penalty card: get rid of it
            k += 2.0 * max(0, 4 - length[s])
        if k > best_k:
            best_c, best_k = c, k
    return best_c


def _higher_out(c: int, cands: Sequence[int], unplayed: Sequence[int], t: RolloutTables) -> bool:
    """Whether someone else may still hold a higher card of ``c``'s suit."""
    r = t.rank[c]
    rank = t.rank
    return any(unplayed[x] and rank[x] > r and x not in cands for x in t.suit_cards[t.suit[c]])


def _gone(s: int, unplayed: Sequence[int], t: RolloutTables) -> int:
    """How many cards of suit ``s`` have been played."""
    return t.suit_size[s] - sum(unplayed[x] for x in t.suit_cards[s])


def rollout(r: Round, taken: list[float], unplayed: list[int], t: RolloutTables, rng: random.Random,
            first: Action | None = None) -> None:
    """Play ``r`` to its end in place with :func:`rollout_card` for every seat, after ``first`` if given.

    ``taken``: the points each seat has taken this hand so far, for the moon
    alarm; ``unplayed``: per card index, the copies not played yet. Both are
    updated as the hand goes on. Decisions: the moon choice goes to the
    option best for the shooter, a joker's called suit is drawn at random.
    Raises :class:`~heartslib.IllegalAction` if ``first`` is not legal in ``r``.
    """
    suit, cost = t.suit, t.cost
    n = t.players
    alarm = t.moon_alarm
    play_phase, decide_phase = Phase.PLAY, Phase.DECIDE
    # the trick so far, kept here: reading Round.trick builds it anew, so it is read only where a trick
    # may end (after a multiple of n plays: booster nines extend a trick by whole rounds)
    seats = [s for s, _ in r.trick]
    cards = [c.index for _, c in r.trick]
    first_trick = not any(r.tricks_won)
    while True:
        phase = r.phase
        if phase is play_phase:
            if first is not None:
                act, first = first, None
            else:
                acts = r.legal_actions()
                if len(acts) == 1:
                    act = acts[0]
                else:
                    led = -1
                    for c in cards:
                        if suit[c] != _NO_SUIT:
                            led = suit[c]
                            break
                    cands = [a.card.index for a in acts]  # type: ignore[union-attr]
                    feed = True
                    if cards and led >= 0 and (suit[cands[0]] != led or any(cost[c] > 0 for c in cards)):
                        # void, or points on the table: is the trick going to a seat that has taken every
                        # point so far (a moon alarm)?
                        winner = _winner(seats, cards, led, t)
                        w = taken[winner]
                        feed = winner == acts[0].seat or not (w >= alarm and w >= sum(taken) - 1e-9)
                    elif cards and led < 0:
                        led = suit[cands[0]]  # only jokers so far: the legal list says what may follow
                    card = rollout_card(cands, cards, led if cards else -1, len(cards) == n - 1, feed, first_trick,
                                        unplayed, t)
                    act = acts[cands.index(card)]
            r.apply(act)
            played = act.card.index  # type: ignore[union-attr]
            unplayed[played] -= 1
            seats.append(act.seat)
            cards.append(played)
            if len(cards) % n == 0 and not r.trick:
                # the trick is over: its points go to its winner, who leads next (a cancelled trick's
                # cards wait for the next one; the moon alarm can ignore that)
                won = 0.0
                for c in cards:
                    won += cost[c]
                leader = r.leader
                if leader is not None and won > 0:
                    taken[leader] += won
                seats = []
                cards = []
                first_trick = False
        elif first is not None:
            r.apply(first)
            first = None
        elif phase is decide_phase:
            options = r.legal_actions()
            if r.decision == "moon":
                seat = r.to_act[0]
                best_u, best_a = -1e18, options[0]
                for a in options:
                    trial = r.copy()
                    trial.apply(a)
                    pts = trial.points
                    assert pts is not None
                    u = -_cost(pts[seat], t.sign)
                    if u > best_u:
                        best_u, best_a = u, a
                r.apply(best_a)
            else:
                r.apply(options[int(rng.random() * len(options))])
        elif phase is Phase.OVER:
            return
        else:
            raise ValueError("rollouts start after the pass")


def _winner(seats: Sequence[int], cards: Sequence[int], led: int, t: RolloutTables) -> int:
    """The seat winning the trick so far (the highest card of the suit led; cancellations ignored)."""
    best_rank = -1
    winner = seats[0]
    suit, rank, ties = t.suit, t.rank, t.ties_win
    for s, c in zip(seats, cards, strict=True):
        if suit[c] == led and (rank[c] > best_rank or (ties and rank[c] == best_rank)):
            best_rank, winner = rank[c], s
    return winner


# --------------------------------------------------------------------------- value of a finished hand


def hand_value(variant: Variant, seat: int, points: Sequence[Score], scores: Sequence[Score],
               hand_number: int) -> float:
    """How good a finished hand's ``points`` are for ``seat``, in the variant's own terms (higher is better).

    This seat's points against the mean of the other seats' (its team's
    total against the other teams' with partnerships), signed so that
    gaining points is bad when the lowest total wins; with complex scores the
    change of each total's magnitude. A hand that ends the match adds twice
    the moon's worth for a win (shared in a tie) and takes it off for a loss;
    in danger hearts, a lost life costs as much.
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
    stake = 2.0 * abs(_real(variant.moon_points) or 26.0)
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


# --------------------------------------------------------------------------- the agent


#: How many standard errors worse than the best a candidate must be, over the same worlds, to be dropped.
PRUNE_Z: Final = 2.5
#: Passes compared at most (the heuristic's and its neighbours).
_MAX_PASS_CANDIDATES: Final = 10
#: After how many worlds clearly worse candidates are dropped.
_CHECKPOINTS: Final = frozenset((8, 16, 32, 64, 128, 256))


def _mean(xs: Sequence[float | None]) -> float:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else -1e18


def _prune(values: list[list[float | None]], alive: list[int], worlds: int) -> list[int]:
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



class SearchAgent(BaseAgent):
    """A determinized Monte Carlo (PIMC) player for every variant; see :mod:`heartslib.search`.

    ``playouts``: worlds sampled per decision (each candidate card still in
    the running is played out once in each); ``max_plays``: no world is
    started once the rollouts have played this many cards (worlds times
    candidates times cards left in the hand), so that long hands stay quick;
    ``time_limit``: seconds after which no further world is started (None: no
    limit; then decisions are reproducible exactly); ``search_passes``: False
    passes as :class:`HeuristicAgent` does (always so for scatter and star
    passes and the dealer's choice).

    >>> import heartslib as hl
    >>> from heartslib.agents import HeuristicAgent, play_match
    >>> agents = [SearchAgent(1, playouts=4)] + [HeuristicAgent(s) for s in (2, 3, 4)]
    >>> play_match(hl.preset("standard").replace(end={"target": 20}), agents, seed=5).is_over
    True
    """

    name = "search"

    def __init__(self, seed: int | None = None, *, playouts: int = DEFAULT_PLAYOUTS,
                 time_limit: float | None = None, max_plays: int = DEFAULT_MAX_PLAYS,
                 search_passes: bool = True) -> None:
        super().__init__(seed)
        for name, value in (("playouts", playouts), ("max_plays", max_plays)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, not {value!r}")
        self.max_plays = max_plays
        self.search_passes = search_passes
        if time_limit is not None and not (isinstance(time_limit, int | float) and time_limit > 0):
            raise ValueError(f"time_limit must be a positive number of seconds (or None), not {time_limit!r}")
        self.playouts = playouts
        self.time_limit = None if time_limit is None else float(time_limit)
        self._heuristic = HeuristicAgent(self.seed)
        self._tables: RolloutTables | None = None

    def setup(self, variant: Variant, seat: int) -> None:
        """Learn the rules and the seat before a match (drivers call this)."""
        super().setup(variant, seat)
        self._heuristic.setup(variant, seat)
        self._tables = RolloutTables(variant)

    def __repr__(self) -> str:
        extra = "" if self.time_limit is None else f", time_limit={self.time_limit}"
        if self.max_plays != DEFAULT_MAX_PLAYS:
            extra += f", max_plays={self.max_plays}"
        return f"SearchAgent(seed={self.seed}, playouts={self.playouts}{extra})"

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The search's choice among ``legal_actions`` (see the class docs)."""
        obs = observation
        if self.variant is None or (obs.phase == Phase.DECIDE and obs.decision == "pass"):
            return self._heuristic.act(obs, legal_actions)
        if obs.phase == Phase.PASS:
            if not self.search_passes or obs.passing in (SCATTER, STAR):
                return self._heuristic.act(obs, legal_actions)
            try:
                return self._search_pass(obs, legal_actions)
            except (ImpossibleHistory, NotImplementedError, RuntimeError):
                return self._heuristic.act(obs, legal_actions)
        actions = list(legal_actions)
        if len(actions) == 1:
            return actions[0]
        candidates = self._candidates(obs, actions)
        if len(candidates) == 1:
            return candidates[0]
        try:
            return self._search(obs, candidates)
        except (ImpossibleHistory, NotImplementedError, RuntimeError):
            # a position the sampler cannot rebuild (an engine hook still missing): play sensibly anyway
            return self._heuristic.act(obs, legal_actions)

    # ------------------------------------------------------------------ candidates

    def _candidates(self, obs: Observation, actions: list[Action]) -> list[Action]:
        """The actions worth comparing: equivalent cards merged (see the module docs)."""
        plays = [a for a in actions if isinstance(a, Play)]
        if len(plays) != len(actions) or self.variant is None:
            return actions
        v = self.variant
        if v.play.identical == Identical.CANCEL and v.deck.decks == 2:
            return actions  # which copy is where decides cancellations
        f = _facts(v)
        special = self._special(v)
        unseen = Counter(f.counts)
        unseen.subtract(c.index for c in obs.hand)
        unseen.subtract(c.index for c in obs.cards_played)
        by_suit: dict[int, list[Play]] = {}
        out: list[Action] = []
        for a in plays:
            i = a.card.index
            if i in special or f.suit[i] == _NO_SUIT:
                out.append(a)
            else:
                by_suit.setdefault(f.suit[i], []).append(a)
        value = f.value
        for s, group in by_suit.items():
            group.sort(key=lambda a: f.rank[a.card.index])
            suit_cards = sorted((i for i in f.counts if f.suit[i] == s), key=f.rank.__getitem__)
            keep = group[0]
            out.append(keep)
            for a in group[1:]:
                lo, hi = f.rank[keep.card.index], f.rank[a.card.index]
                gap = any(unseen[i] > 0 for i in suit_cards if lo <= f.rank[i] <= hi)
                if gap or value[a.card.index] != value[keep.card.index]:
                    keep = a
                    out.append(a)
        order = {id(a): k for k, a in enumerate(actions)}
        out.sort(key=lambda a: order[id(a)])
        return out

    @staticmethod
    def _special(v: Variant) -> frozenset[int]:
        """Cards with a rule or a score of their own, never merged with their neighbours."""
        cards: set[int] = set()
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

    # ------------------------------------------------------------------ the search

    def _search(self, obs: Observation, candidates: list[Action]) -> Action:
        v = self.variant
        t = self._tables
        assert v is not None and t is not None
        rng = self.rng(obs)
        sampler = Sampler(obs, v)
        started = time.perf_counter()
        k_all = len(candidates)
        # values[k][w]: candidate k's value in world w (None where the world could not play it)
        values: list[list[float | None]] = [[] for _ in range(k_all)]
        alive = list(range(k_all))
        base_taken = self._taken(obs, t)
        base_unplayed = t.counts[:]
        for c in obs.cards_played:
            base_unplayed[c.index] -= 1
        length = sum(obs.hand_sizes)  # card plays in one rollout
        spent = 0
        for w in range(self.playouts):
            if w and (spent >= self.max_plays or (
                    self.time_limit is not None and time.perf_counter() - started > self.time_limit)):
                break
            world = sampler.sample(rng)
            spent += length * len(alive)
            for k in alive:
                r = world.copy()
                try:
                    rollout(r, base_taken[:], base_unplayed[:], t, rng, candidates[k])
                except ValueError:
                    values[k].append(None)  # this world's reading of the first lead differs; the others decide
                    continue
                pts = r.points
                assert pts is not None
                values[k].append(hand_value(v, obs.seat, pts, obs.scores, obs.hand_number))
            if w + 1 in _CHECKPOINTS and len(alive) > 1:
                alive = _prune(values, alive, w + 1)
        best = max(alive, key=lambda k: _mean(values[k]))
        return candidates[best]

    # ------------------------------------------------------------------ passes

    def _pass_candidates(self, obs: Observation, legal_actions: Sequence[Action]) -> list[Pass]:
        """The heuristic's pass and its neighbours: every choice of ``k`` among its ``k + 2`` likeliest cards."""
        v = self.variant
        assert v is not None
        heuristic = self._heuristic.act(obs, legal_actions)
        assert isinstance(heuristic, Pass)
        k = obs.pass_count
        think = _Think(v, obs, self._draws(obs))
        forbidden = {c.index for c in v.passing.forbidden}
        hand = [c.index for c in obs.hand]
        scored = sorted({c for c in hand if c not in forbidden},
                        key=lambda c: -think.pass_score(c, remaining=hand, left=k))
        pool = sorted(set(scored[: k + 2]) | {c.index for c in heuristic.cards}, key=scored.index)
        out = [heuristic]
        seen = {frozenset(c.index for c in heuristic.cards)}
        for combo in combinations(pool, k):
            key = frozenset(combo)
            if key not in seen and len(set(combo)) == k:
                seen.add(key)
                out.append(Pass(obs.seat, tuple(Card.from_index(c) for c in combo)))
        return out[:_MAX_PASS_CANDIDATES]

    def _search_pass(self, obs: Observation, legal_actions: Sequence[Action]) -> Action:
        """Passes compared like plays: in each world the other seats still to pass choose as the heuristic
        does, then the whole hand is played out."""
        v = self.variant
        t = self._tables
        assert v is not None and t is not None
        candidates = self._pass_candidates(obs, legal_actions)
        if len(candidates) == 1:
            return candidates[0]
        rng = self.rng(obs)
        sampler = Sampler(obs, v)
        others = [HeuristicAgent(self.seed + 1 + s) for s in range(obs.players)]
        for s, agent in enumerate(others):
            agent.setup(v, s)
        length = v.deal_size * v.players
        values: list[list[float | None]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        started = time.perf_counter()
        spent = 0
        for w in range(self.playouts):
            if w and (spent >= self.max_plays or (
                    self.time_limit is not None and time.perf_counter() - started > self.time_limit)):
                break
            world = sampler.sample(rng)
            theirs = [others[s].act(world.observation(s), LazyActions(world, s))
                      for s in world.to_act if s != obs.seat]
            spent += length * len(alive)
            for k in alive:
                r = world.copy()
                r.apply(candidates[k])
                for p in theirs:
                    r.apply(p)
                if r.phase is not Phase.PLAY:
                    values[k].append(None)
                    continue
                rollout(r, [0.0] * obs.players, t.counts[:], t, rng)
                pts = r.points
                assert pts is not None
                values[k].append(hand_value(v, obs.seat, pts, obs.scores, obs.hand_number))
            if w + 1 in _CHECKPOINTS and len(alive) > 1:
                alive = _prune(values, alive, w + 1)
        return candidates[max(alive, key=lambda k: _mean(values[k]))]

    @staticmethod
    def _taken(obs: Observation, t: RolloutTables) -> list[float]:
        taken = [0.0] * obs.players
        for trick in obs.tricks:
            if trick.winner is not None:
                taken[trick.winner] += sum(max(t.cost[c.index], 0.0) for c in trick.cards)
        return taken



class SearchFactory:
    """``seed -> SearchAgent`` with a fixed budget: an agent spec for :func:`heartslib.simulate` that a
    process pool can pickle (the command line's ``--playouts`` and ``--time-limit`` build one).

    >>> SearchFactory(playouts=8)(3)
    SearchAgent(seed=3, playouts=8)
    >>> SearchFactory(playouts=8).__name__
    'search(playouts=8)'
    """

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, time_limit: float | None = None) -> None:
        SearchAgent(0, playouts=playouts, time_limit=time_limit)  # check the budget now, not in a worker
        self.playouts = playouts
        self.time_limit = time_limit
        limit = "" if time_limit is None else f", time_limit={time_limit:g}"
        #: the name tables and the command line show
        self.__name__ = f"search(playouts={playouts}{limit})"

    def __call__(self, seed: int) -> SearchAgent:
        """A fresh agent with this budget and ``seed``."""
        return SearchAgent(seed, playouts=self.playouts, time_limit=self.time_limit)

    def __repr__(self) -> str:
        return f"SearchFactory(playouts={self.playouts}, time_limit={self.time_limit!r})"
