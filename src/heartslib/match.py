"""A whole game: rounds dealt one after another until the variant's end.

>>> import heartslib as hl, random
>>> m = hl.Match(hl.preset("standard"), seed=7)
>>> pick = random.Random(0)
>>> while not m.is_over:
...     seat = m.to_act[0]
...     actions = m.legal_actions(seat)
...     m.apply(actions[pick.randrange(len(actions))])
>>> max(m.scores) >= 100, len(m.winners) >= 1
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs

from heartslib._mypyc import mypyc_attr
from heartslib.actions import Action, Event, action_from_dict
from heartslib.cards import Card, parse_cards
from heartslib.engine.args import action_problem, check_scores, check_seat, check_seed
from heartslib.engine.dealing import MAX_CHIPS, check_auction, deal_order
from heartslib.enums import BigMoon, NextDealer, PassDirection, Phase, Settlement
from heartslib.errors import CardError, IllegalAction, SaveError, VariantError, arg_text
from heartslib.observation import Observation
from heartslib.points import MAX_HAND_NUMBER, MAX_SCORE, Score
from heartslib.round import BUILD as ROUND_BUILD
from heartslib.round import Round, apply_in_match, hold, release_generator, script_shuffle, shuffle_due
from heartslib.scoring import (
    BIG_MOON_HANDS,
    Outcome,
    big_moon_points,
    hand_totals,
    match_over,
    next_dealer,
    team_totals,
    winners,
)
from heartslib.serialize import SaveData, SaveDeal, json_text, read_json, read_save, save_data, score_data
from heartslib.settlement import AuctionResult, HowellResult, SweepstakeResult, auction_pot, howell, sweepstake
from heartslib.variant import Variant, expect_variant

__all__ = ["Match", "RoundResult"]

#: Which build this module belongs to: a pickled match records it, and the other build refuses the pickle
#: with a clear error instead of an ``AttributeError`` from inside pickle (the compiled classes' pickled
#: state is a dict of attributes, the pure ones' a tuple of slots). Saves are the format between builds.
BUILD: Final = ROUND_BUILD  # one reading of which build this is (heartslib.round.BUILD)


@attrs.frozen
class RoundResult:
    """A finished round within a match."""

    hand_number: int
    """0 for the first hand of the match."""
    dealer: int
    """The hand's dealer."""
    passing: PassDirection
    """The hand's pass direction."""
    points: tuple[Score, ...]
    """The hand's points per seat, after the moon and sun rules."""
    totals: tuple[Score, ...]
    """Match totals after this round (after the exact-total rules, if on: ``end.reset_at_exact``,
    ``end.exact_fifty``)."""
    outcome: Outcome
    """The scored result, with the shooter and how a moon or sun scored."""
    tricks_won: tuple[int, ...]
    """Tricks won per seat."""
    round: Round = attrs.field(repr=False, hash=False)
    """The finished round itself (its tricks, the cards each seat took, its log); do not apply to it."""
    lives: tuple[int, ...] = ()
    """Lives left after this round (``end.lives``); empty when the variant has no lives."""
    settlement: SweepstakeResult | HowellResult | None = None
    """The hand's counter settlement (``scoring.settlement``): who paid and received what (an auction's pot:
    :class:`~heartslib.settlement.AuctionResult`); None without."""
    counters: tuple[int, ...] = ()
    """Net counters per seat after this round (``scoring.settlement``); empty without counters."""
    big_moon: int | None = None
    """The seat whose tenth consecutive hand of every penalty card this was (``moon.big_moon``): ``points``
    then rescore the ten hands (the outcome is the hand's own scoring); None otherwise."""

    @property
    def events(self) -> tuple[Event, ...]:
        """The hand's event log (built when first read: a match does not convert it at every round end)."""
        return self.round.events


# the compiled class must make a bare instance (__new__ without __init__), as object.__new__ does, for
# copy() and pickle; allow_interpreted_subclasses gives that, and subclasses as in the pure build
# (serializable=True alone would skip __init__ on Match(...) as well, in mypy 2.4)
@mypyc_attr(allow_interpreted_subclasses=True)
class Match:
    """A game to the variant's end (target, fixed hands, ...), dealing each round from one seeded RNG.

    The same variant, seed and actions give the same game on every machine.
    """

    __slots__ = (
        "_actions",
        "_counters",
        "_deal",
        "_dealer0",
        "_hand0",
        "_lives",
        "_next_order",
        "_over",
        "_pool",
        "_results",
        "_rng",
        "_rng_saved",
        "_round",
        "_run",
        "_scores",
        "_scores0",
        "_scripted",
        "seed",
        "variant",
    )

    _scores: tuple[Score, ...]
    variant: Variant
    """The rules of the match (saved with it)."""
    seed: int
    """The seed of the match's RNG (chosen at random and recorded when not given)."""

    def __init__(self, variant: Variant, seed: int | None = None, *, dealer: int = 0) -> None:
        expect_variant(variant)
        seed = check_seed(seed)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        check_seat(dealer, variant.players, "dealer")
        self.variant = variant
        self.seed = seed
        self._rng: random.Random | None = random.Random(seed)
        self._rng_saved: tuple[Any, ...] | None = None
        self._dealer0 = dealer
        self._hand0 = 0
        self._scores0: tuple[Score, ...] = (0,) * variant.players
        self._lives: tuple[int, ...] = (variant.end.lives,) * variant.players if variant.end.lives else ()
        settles = variant.scoring.settlement != Settlement.NONE
        self._counters: tuple[int, ...] = (0,) * variant.players if settles else ()
        self._pool = 0
        self._deal: SaveDeal | None = None
        self._scores = self._scores0
        self._results: list[RoundResult] = []
        self._run: tuple[int, int] = (-1, 0)  # (seat, hands) of the current run of every penalty card
        self._actions: list[Action] = []
        self._over = False
        self._scripted = False
        self._next_order: tuple[Card, ...] | None = None
        self._round = hold(release_generator(
            Round.deal(variant, rng=self._rng, dealer=dealer, hand_number=0, scores=self._scores)))

    @classmethod
    def from_deal(
        cls,
        variant: Variant,
        hands: Sequence[str | Iterable[Card | str]],
        *,
        scores: Sequence[Score] | None = None,
        dealer: int = 0,
        hand_number: int = 0,
        seed: int | None = None,
        kitty: str | Iterable[Card | str] = (),
        passing: PassDirection | str | None = None,
        chips: Sequence[int] | None = None,
        counters: Sequence[int] | None = None,
        pool: int = 0,
        bidder: int | None = None,
    ) -> Match:
        """A match from a set position: this deal, these totals; later deals come from ``seed``.

        A settlement's position (``scoring.settlement``, saved with the match): an auction's ``chips`` per seat,
        the pot carried (``pool``) and the seat naming unbid (``bidder``); else the net ``counters`` and a
        sweepstake's ``pool`` (:attr:`counters`, :attr:`chips`, :attr:`pool`).

        >>> import heartslib as hl
        >>> v = hl.preset("standard")
        >>> m = hl.Match.from_deal(v, hl.Round.deal(v, seed=3).hands, scores=(90, 95, 63, 50), seed=7)
        >>> m.scores
        (90, 95, 63, 50)
        >>> a = hl.preset("auction_hearts")
        >>> m = hl.Match.from_deal(a, hl.Round.deal(a, seed=3).hands, chips=(61, 44, 50, 38), pool=7, seed=7)
        >>> m.chips, m.counters, m.pool
        ((61, 44, 50, 38), (11, -6, 0, -12), 7)
        """
        self = cls(variant, seed, dealer=dealer)
        sc = check_scores(scores, variant.players)
        start = _settlement_start(variant, chips, counters, pool, bidder)
        self._rng = random.Random(self.seed)
        rnd = Round.from_hands(variant, hands, dealer=dealer, passing=passing, kitty=kitty,
                               hand_number=hand_number, scores=sc, rng=self._rng, chips=chips, bidder=bidder)
        self._round = hold(release_generator(rnd))
        self._scores0 = sc
        self._scores = sc
        self._hand0 = hand_number
        if start is not None:
            self._counters, self._pool = start
        self._deal = SaveDeal(hands=tuple(tuple(c.code for c in h) for h in rnd.hands),
                              kitty=tuple(c.code for c in rnd.kitty), passing=rnd.passing,
                              counters=start[0] if start is not None and any(start[0]) else (),
                              pool=self._pool, bidder=bidder)
        return self

    # ------------------------------------------------------------------ state

    @property
    def round(self) -> Round:
        """The current round (after the match ends, the last one), to read: only the match moves it on, so its
        ``apply``, playouts and ``script_shuffle_pass`` raise ``IllegalAction("round_in_match")``; apply actions
        with :meth:`apply`, or play on ``match.round.copy()``, a round of your own."""
        return self._round

    @property
    def phase(self) -> Phase:
        """``OVER`` once the match has ended; otherwise the current round's phase."""
        return Phase.OVER if self._over else self._round.phase

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now."""
        return () if self._over else self._round.to_act

    @property
    def scores(self) -> tuple[Score, ...]:
        """Match totals per seat (finished rounds only)."""
        return self._scores

    @property
    def team_totals(self) -> tuple[Score, ...]:
        """Per team (in ``variant.teams`` order), the sum of its members' totals; empty without teams. With
        ``end.team_scores`` the end and the winners are judged on these.

        >>> import heartslib as hl
        >>> hl.Match(hl.preset("likha"), seed=1).team_totals
        (0, 0)
        """
        return team_totals(self.variant, self._scores) if self.variant.teams else ()

    @property
    def lives(self) -> tuple[int, ...]:
        """Lives left per seat (``end.lives``, danger hearts); empty when the variant has no lives."""
        return self._lives

    @property
    def counters(self) -> tuple[int, ...]:
        """Net counters per seat from Foster's settlement (``scoring.settlement``), starting at 0; empty
        when the variant settles no counters. The counters in the pool are :attr:`pool`.

        >>> import heartslib as hl
        >>> m = hl.Match(hl.preset("standard").replace(scoring={"settlement": "howell"}), seed=1)
        >>> m.counters, m.pool
        ((0, 0, 0, 0), 0)
        """
        return self._counters

    @property
    def pool(self) -> int:
        """Counters left in the sweepstake pool for the next hand (the "jack"), or an auction's chips left in the
        pot; 0 otherwise."""
        return self._pool

    @property
    def chips(self) -> tuple[int, ...]:
        """Each seat's chips in an auction (``scoring.settlement = "auction"``): ``scoring.chips`` plus its net
        :attr:`counters`; empty otherwise. The match ends after the hand that leaves a seat with none (or fewer),
        and the most chips win."""
        sc = self.variant.scoring
        return tuple(sc.chips + c for c in self._counters) if sc.settlement == Settlement.AUCTION else ()

    @property
    def rounds(self) -> tuple[RoundResult, ...]:
        """Finished rounds' results, in order."""
        return tuple(self._results)

    @property
    def is_over(self) -> bool:
        """Whether the match has ended: by the variant's end, or at a limit (the next hand could not be dealt)."""
        return self._over

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the lowest total once the match is over (ties share the win), in an auction the most
        :attr:`chips`; empty before."""
        return winners(self.variant, self._scores, self._lives or None, self.chips) if self._over else ()

    @property
    def hand_number(self) -> int:
        """Number of the current hand (0 for the first)."""
        return self._round.hand_number

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied, in order (what a save records)."""
        return tuple(self._actions)

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole log: every finished round's events, then the current round's."""
        out: list[Event] = []
        for result in self._results:
            out.extend(result.events)
        if not self._over:
            out.extend(self._round.events)
        return tuple(out)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now."""
        return self._round.observation(seat)

    # ------------------------------------------------------------------ acting

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Legal actions for ``seat`` (default: the only seat to act); empty once over."""
        if self._over:
            if seat is not None:
                check_seat(seat, self.variant.players)
            return []
        return self._round.legal_actions(seat)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now."""
        return not self._over and self._round.is_legal(action)

    def why_illegal(self, action: Action) -> IllegalAction | None:
        """The error :meth:`apply` would raise for ``action``, or None if it is legal."""
        if self._over:
            return self._over_error(action)
        return self._round.why_illegal(action)

    def _over_error(self, action: Action) -> IllegalAction:
        malformed = action_problem(action, self.variant.players)
        if malformed is not None:
            return IllegalAction(malformed[0], malformed[1], action=action)
        return IllegalAction("match_over", f"{action}: the match is over", action=action)

    def apply(self, action: Action) -> None:
        """Apply a legal action; a finished round is scored and the next one dealt automatically."""
        if self._over:
            raise self._over_error(action)
        rnd = self._round
        shuffling = shuffle_due(rnd)
        if shuffling:
            self._drawing()  # the last pass shuffles the pile with the match's generator
        apply_in_match(rnd, action)
        if shuffling:
            release_generator(rnd)  # once the pile is drawn, the round lets go of the generator
        self._actions.append(action)
        if rnd.is_over:
            self._end_round()

    def _end_round(self) -> None:
        rnd = self._round
        outcome = rnd.outcome
        assert outcome is not None
        v = self.variant
        points, big = self._big_moon(rnd, outcome.points)
        totals = hand_totals(v, self._scores, points, outcome)
        self._scores = totals
        settled, self._pool, self._counters = _settled(v, rnd, self._pool, self._counters)
        if self._lives:
            threshold = v.end.life_threshold
            self._lives = tuple(
                max(0, left - 1) if _worth(p) >= threshold else left
                for left, p in zip(self._lives, points, strict=True)
            )
        self._results.append(
            RoundResult(
                hand_number=rnd.hand_number,
                dealer=rnd.dealer,
                passing=rnd.passing,
                points=points,
                totals=totals,
                outcome=outcome,
                tricks_won=rnd.tricks_won,
                round=rnd,
                lives=self._lives,
                settlement=settled,
                counters=self._counters,
                big_moon=big,
            )
        )
        # at a limit (the next hand's number, a total) the next hand cannot be dealt: the match ends here, judged
        # as at any end, rather than a legal play raising from the deal and leaving the match half-changed
        chips = self.chips
        if (match_over(v, totals, rnd.hand_number + 1, outcome, self._lives or None) or not _dealable(rnd, totals)
                or min(chips, default=1) <= 0):
            self._over = True
            return
        # the cards taken, as values, only where a rule reads them (rotating the deal does not): a tenth of a
        # random match's round went to building them
        taken = rnd.taken if v.end.next_dealer != NextDealer.ROTATE or v.play.opening_taker is not None else ()
        dealer = next_dealer(v, rnd.dealer, outcome.points, taken)
        leader = None
        taker_card = v.play.opening_taker
        if taker_card is not None:
            leader = next((s for s, cards in enumerate(taken) if taker_card in cards), None)
        order, self._next_order = self._next_order, None
        # an auction's next hand: the chips bound the bids; after a pot nobody won, its bidder names unbid
        namer = settled.bidder if isinstance(settled, AuctionResult) and not settled.won else None
        self._round = hold(release_generator(Round.deal(v, rng=self._drawing(), dealer=dealer,
                                                        hand_number=rnd.hand_number + 1, scores=totals,
                                                        leader=leader, order=order, chips=chips or None,
                                                        bidder=namer)))

    def _big_moon(self, rnd: Round, points: tuple[Score, ...]) -> tuple[tuple[Score, ...], int | None]:
        """The hand's points in the match, and the big moon's shooter if this hand completed one
        (``moon.big_moon``: every penalty card in each of ten consecutive hands)."""
        if self.variant.moon.big_moon == BigMoon.NONE:
            return points, None
        taker = rnd.took_all_penalty_cards
        seat, hands = self._run
        hands = 0 if taker is None else (hands + 1 if taker == seat else 1)
        self._run = (-1 if taker is None else taker, hands)
        if taker is None or hands < BIG_MOON_HANDS:
            return points, None
        self._run = (-1, 0)
        earlier = self._results[-(BIG_MOON_HANDS - 1):]
        run = [p + sum((r.points[s] for r in earlier), start=0) for s, p in enumerate(points)]
        return big_moon_points(self.variant, taker, run, points), taker

    # ------------------------------------------------------------------ chance

    def script_next_deal(self, order: str | Iterable[Card | str]) -> None:
        """Deal the next hand from ``order`` (the shuffled pack, position by position, as
        :meth:`Round.deal` takes it) instead of from the match's generator.

        The chance hook for programs that choose chance outcomes themselves
        (the OpenSpiel adapter). A match whose chance was scripted cannot be
        saved: a save replays the seed.
        """
        cards = parse_cards(order)
        deal_order(self.variant, [c.index for c in cards], 0)  # checked now, not in the middle of apply()
        self._next_order = cards
        self._scripted = True

    def script_shuffle_pass(self, received: Sequence[str | Iterable[Card | str]]) -> None:
        """Fix what each seat receives in the current hand's shuffle pass (see
        :meth:`Round.script_shuffle_pass`); a match whose chance was scripted cannot be saved."""
        script_shuffle(self._round, received, by_match=True)
        self._scripted = True

    def copy(self) -> Match:
        """An independent copy, RNG included."""
        new = Match.__new__(Match)  # a bare instance, as before (object.__new__ refuses a compiled class)
        new.variant = self.variant
        new.seed = self.seed
        # the copy shares the generator's saved state and makes its own generator only when it is to draw
        # (seeding one costs more than the rest of the copy)
        saved = self._rng_saved
        if saved is None:
            saved = self._rng_saved = self._generator().getstate()
        new._rng = None
        new._rng_saved = saved
        new._dealer0 = self._dealer0
        new._hand0 = self._hand0
        new._scores0 = self._scores0
        new._deal = self._deal
        new._scores = self._scores
        new._lives = self._lives
        new._counters = self._counters
        new._pool = self._pool
        new._results = self._results[:]
        new._run = self._run
        new._actions = self._actions[:]
        new._over = self._over
        new._scripted = self._scripted
        new._next_order = self._next_order
        rnd = self._round
        pending = shuffle_due(rnd)
        new._round = hold(rnd.copy(rng=new._drawing()) if pending else rnd.copy())
        return new

    def _generator(self) -> random.Random:
        """The match's generator, made from the saved state if this match is a copy that has not drawn yet."""
        rng = self._rng
        if rng is None:
            assert self._rng_saved is not None
            rng = self._rng = random.Random.__new__(random.Random)
            rng.setstate(self._rng_saved)
        return rng

    def _drawing(self) -> random.Random:
        """The generator, about to draw: the saved state that copies share no longer describes it."""
        rng = self._generator()
        self._rng_saved = None
        return rng

    def _rng_state(self) -> tuple[Any, ...]:
        return self._rng_saved if self._rng_saved is not None else self._generator().getstate()

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        # not a generic deep copy: that gives a pending shuffle pass's round a generator apart from the match's
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        # the build first: _unpickled refuses a pickle of the other build before its rounds are read
        return (_unpickled, (type(self), BUILD), _pickled_state(self))

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        _restore_state(self, state)

    def __copy__(self) -> Match:
        # a def, not ``__copy__ = copy``: mypyc compiles a class-body assignment as an instance attribute's
        # default and looks ``copy`` up among the module's globals, where it is missing (a KeyError left pending)
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (
            self.variant == other.variant
            and self._scores == other._scores
            and self._lives == other._lives
            and self._counters == other._counters
            and self._pool == other._pool
            and self._results == other._results
            and self._run == other._run
            and self._over == other._over
            and self._round == other._round
            and self._next_order == other._next_order
            and self._rng_state() == other._rng_state()
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<Match {self.variant.name!r} hand {self.hand_number} scores {self._scores} "
                f"phase {self.phase.value}>")

    # ------------------------------------------------------------------ saving

    def to_dict(self) -> dict[str, Any]:
        """The save as plain data: the rules, the start (seed, optional set deal) and every action.

        Raises :class:`~heartslib.SaveError` for a match whose chance outcomes were scripted
        (:meth:`script_next_deal`, :meth:`script_shuffle_pass`): replaying its seed would deal other cards.
        """
        if self._scripted:
            raise SaveError("", "this match was dealt from scripted chance outcomes, which a save (the seed and "
                            "the actions) cannot replay")
        return save_data(variant=self.variant.to_dict(), seed=self.seed, dealer=self._dealer0,
                         hand_number=self._hand0, scores=self._scores0, deal=self._deal,
                         actions=[a.to_dict() for a in self._actions], state=self._state())

    def _state(self) -> dict[str, Any]:
        # the action count catches a save cut short inside a hand
        return {"hand_number": self.hand_number, "scores": [score_data(x) for x in self._scores],
                "phase": self.phase.value, "actions": len(self._actions)}

    def to_json(self, *, indent: int | None = None) -> str:
        """The save as JSON text; :meth:`from_json` resumes it exactly, RNG included."""
        if indent is not None and (not isinstance(indent, int) or isinstance(indent, bool) or indent < 0):
            raise IllegalAction("bad_argument", f"indent must be a whole number >= 0 (or None), not {arg_text(indent)}")
        return json_text(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """Load a save, validating everything: the variant, the start and every action (replayed).

        Raises :class:`~heartslib.SaveError` naming where the save is wrong.
        """
        return cls.from_dict(read_json(text))

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        """Load a save from plain data (see :meth:`from_json`)."""
        save = read_save(data)
        fields = save.variant
        if isinstance(fields.get("name"), str) and not fields["name"].strip():
            # a blank name was refused only later: such a save loads under the default name ("custom")
            fields = {key: value for key, value in fields.items() if key != "name"}
        try:
            variant = Variant.from_dict(fields)
        except VariantError as exc:
            raise SaveError("variant" + (f".{exc.path}" if exc.path else ""), exc.reason) from exc
        match = _start_saved(cls, variant, save)
        for i, item in enumerate(save.actions):
            try:
                match.apply(action_from_dict(item))
            except (CardError, IllegalAction, ValueError) as exc:
                raise SaveError(f"actions[{i}]", str(exc)) from exc
        expected = match._state()
        if save.state != expected:
            raise SaveError("state", f"the recorded state {save.state!r} does not match the replayed game {expected!r}")
        if not save.digest_ok:
            raise SaveError("digest", "the save's contents do not match its digest: it was changed after it was "
                            "written (edited by hand, damaged, or pieced together from two saves)")
        return match


def _start_saved(cls: type[Match], variant: Variant, save: SaveData) -> Match:
    """The match a save starts from (its set deal, or a deal from its seed)."""
    try:
        if save.deal is None:
            if len(save.scores) != variant.players:
                raise SaveError("scores", f"{len(save.scores)} scores for the variant's {variant.players} players")
            return cls(variant, save.seed, dealer=save.dealer)
        return from_saved_deal(cls, variant, save.deal, scores=save.scores, dealer=save.dealer,
                               hand_number=save.hand_number, seed=save.seed)
    except (CardError, IllegalAction, ValueError) as exc:
        if isinstance(exc, SaveError):
            raise
        raise SaveError("deal", str(exc)) from exc


Settled = SweepstakeResult | HowellResult | None


def from_saved_deal(cls: type[Match], v: Variant, deal: SaveDeal, *, scores: Sequence[Score], dealer: int,
                    hand_number: int, seed: int) -> Match:
    """:meth:`Match.from_deal` of a set deal as a save or a record keeps it (:class:`SaveDeal`), its settlement's
    start included; the one reading of a kept deal for both."""
    return cls.from_deal(v, [list(h) for h in deal.hands], scores=scores, dealer=dealer, hand_number=hand_number,
                         seed=seed, kitty=list(deal.kitty), passing=deal.passing, **_settlement_arguments(v, deal))


def _settlement_arguments(v: Variant, deal: SaveDeal) -> dict[str, Any]:
    """The settlement's start a set deal records, as :meth:`Match.from_deal`'s arguments (an auction's counters
    as chips); none where none was recorded, so that the match checks what a variant has no use for."""
    out: dict[str, Any] = {}
    if deal.counters:
        if v.scoring.settlement == Settlement.AUCTION and len(deal.counters) == v.players:
            out["chips"] = [v.scoring.chips + c for c in deal.counters]
        else:
            out["counters"] = list(deal.counters)
    if deal.pool:
        out["pool"] = deal.pool
    if deal.bidder is not None:
        out["bidder"] = deal.bidder
    return out


def _settlement_start(v: Variant, chips: Sequence[int] | None, counters: Sequence[int] | None, pool: object,
                      bidder: int | None) -> tuple[tuple[int, ...], int] | None:
    """The net counters and the pool a set position starts a settlement with (:meth:`Match.from_deal`), or None
    where nothing was given; ``IllegalAction`` (``bad_argument``) naming an argument the variant has no use for
    or a value out of range. An auction's chips and bidder are checked again by the deal itself."""
    how, n = v.scoring.settlement, v.players
    if how == Settlement.NONE and (counters is not None or pool != 0):
        raise IllegalAction("bad_argument", "counters and pool are a settlement's (scoring.settlement); this "
                            "variant settles none")
    if how == Settlement.AUCTION and counters is not None:
        raise IllegalAction("bad_argument", "an auction's position is its chips (chips=), not counters")
    if how not in (Settlement.AUCTION, Settlement.SWEEPSTAKE) and pool != 0:
        raise IllegalAction("bad_argument", f"pool: {how.value!r} settles each hand in full and keeps no pool")
    if how == Settlement.NONE:
        return None  # an auction's arguments outside an auction: the deal refuses them, naming them
    most = MAX_CHIPS if how == Settlement.AUCTION else MAX_SCORE  # an auction's pot is chips a seat may win
    if type(pool) is not int or not 0 <= pool <= most:
        raise IllegalAction("bad_argument", f"pool must be a whole number from 0 to {most}, not {arg_text(pool)}")
    if how == Settlement.AUCTION:
        held = check_auction(v, chips, bidder)
        return tuple(c - v.scoring.chips for c in held), pool
    items: tuple[object, ...] = ((0,) * n if counters is None else
                                 () if isinstance(counters, str) or not isinstance(counters, Sequence)
                                 else tuple(counters))
    whole = [c for c in items if type(c) is int and abs(c) <= MAX_SCORE]
    if len(items) != n or len(whole) != n:
        raise IllegalAction("bad_argument", f"counters must be {n} whole numbers from -{MAX_SCORE} to "
                            f"{MAX_SCORE} (each seat's net counters), not {arg_text(counters)}")
    return tuple(whole), pool


def _settled(v: Variant, rnd: Round, pool: int, counters: tuple[int, ...]) -> tuple[Settled, int, tuple[int, ...]]:
    """The finished hand settled with counters (``scoring.settlement``; None without), and the pool and each
    seat's net counters after it."""
    how = v.scoring.settlement
    if how == Settlement.NONE:
        return None, pool, counters
    points = rnd.penalty_points
    assert points is not None
    result: Settled
    if how == Settlement.AUCTION:
        auction = rnd.auction
        assert auction is not None and auction.bidder is not None
        # each named-suit card scores 1: the points are the cards taken, and every card of the suit is taken
        result = auction_pot(points, suit_cards=sum(points), bid=auction.bid, bidder=auction.bidder, pool=pool)
        pool = result.carry
    elif how == Settlement.SWEEPSTAKE:
        result = sweepstake(points, pool=pool)
        pool = result.carry
    elif sum(points):
        result = howell(points, total=sum(points))
    else:
        result = None  # no penalty points taken (every one dead): nothing to pay or claim
    if result is not None:
        counters = tuple(c + d for c, d in zip(counters, result.net, strict=True))
    return result, pool, counters


def _dealable(last: Round, totals: tuple[Score, ...]) -> bool:
    """Whether the hand after ``last`` may be dealt at these totals: the limits ``Round.deal`` checks (its
    number at most :data:`~heartslib.points.MAX_HAND_NUMBER`, each part of a total at most
    :data:`~heartslib.points.MAX_SCORE`)."""
    return last.hand_number < MAX_HAND_NUMBER and all(_in_range(x) for x in totals)


def _in_range(total: Score) -> bool:
    if isinstance(total, complex):
        return abs(total.real) <= MAX_SCORE and abs(total.imag) <= MAX_SCORE
    return abs(total) <= MAX_SCORE


def _pickled_state(m: Match) -> tuple[Any, ...]:
    """What a pickle of ``m`` holds (after the build, in :meth:`Match.__reduce__`)."""
    return (m.variant, m.seed, m._rng, m._rng_saved, m._dealer0, m._hand0, m._scores0, m._deal, m._scores,
            m._lives, m._counters, m._pool, m._results, m._run, m._actions, m._over, m._scripted, m._next_order,
            m._round)


def _restore_state(m: Match, state: tuple[Any, ...]) -> None:
    """Restore what :func:`_pickled_state` took into the bare match ``m``."""
    (m.variant, m.seed, m._rng, m._rng_saved, m._dealer0, m._hand0, m._scores0, m._deal, m._scores, m._lives,
     m._counters, m._pool, m._results, m._run, m._actions, m._over, m._scripted, m._next_order, m._round) = state
    hold(m._round)  # a round unpickled alone is its caller's; the match's is the match's again


def _unpickled(cls: type[Match], build: str) -> Match:
    """A bare match to restore a pickle into (its state follows, in :meth:`Match.__setstate__`); a pickle from
    the other build is refused here, before its rounds are read."""
    if build != BUILD:
        raise SaveError("pickle", f"this match was pickled by the {build} build of heartslib and this is the "
                        f"{BUILD} build: pickles do not cross builds; save it with to_json() and load the save "
                        "with Match.from_json() instead")
    return cls.__new__(cls)


def _worth(points: Score) -> float:
    return abs(points) if isinstance(points, complex) else points
