"""Agents: players that choose an action from what one seat may know.

An agent is any object with ``act(observation, legal_actions) -> action``
(the :class:`Agent` protocol). It sees an :class:`~heartslib.Observation`
and the legal actions, never other hands or the match's RNG. An agent may
also define ``setup(variant, seat)``: drivers (:func:`heartslib.simulate`,
the ``heartslib play`` command, :func:`play_match`) call it before a match
so the agent knows the public rules, which the observation does not repeat
(card values, cards that may not be passed).

Two agents are built in and work for every variant:

* :class:`RandomAgent` plays uniformly random legal cards and passes random cards;
* :class:`HeuristicAgent` plays sensible hearts (see its docstring); it
  scores far fewer points per round than random players (``docs/agents.md``).

Both are deterministic functions of their seed and the observation: the
same seed facing the same position makes the same choice, so a saved game
resumed with the same agents continues exactly as it would have.

>>> import heartslib as hl
>>> from heartslib.agents import HeuristicAgent, play_match
>>> m = play_match(hl.preset("standard"), [HeuristicAgent(seat) for seat in range(4)], seed=7)
>>> m.is_over
True

Passing while many seats act at once can have a very large list of legal
passes (scatter passes are ordered). Drivers therefore hand agents a
:class:`LazyActions` during passing: a sequence that enumerates the passes
only if the agent looks at it. The built-in agents never do: they pick
cards from their hand, leaving out the variant's forbidden cards.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from heartslib._agent_protocol import Agent  # re-exported; a module of its own, never compiled (see there)
from heartslib._mypyc import mypyc_attr
from heartslib.actions import Action, Choose, Pass, Play, make_pass
from heartslib.cards import NUM_CARD_INDICES, Card, Suit
from heartslib.engine.bits import cards_in
from heartslib.engine.choices import PassChoices
from heartslib.engine.legality import pass_extensions, pass_of, passable
from heartslib.engine.machine import legal_cards as _legal_cards
from heartslib.engine.machine import to_act as _to_act
from heartslib.engine.records import observation as _observation
from heartslib.engine.rules import Rules
from heartslib.engine.state import RoundState
from heartslib.engine.tables import NATIVE
from heartslib.engine.tables import PLAYS as _PLAYS
from heartslib.enums import SCATTER, STAR, Identical, Phase, Settlement
from heartslib.errors import IllegalAction, arg_text
from heartslib.inference import ImpossibleHistory, check_epsilon, reads
from heartslib.observation import Observation
from heartslib.search import (
    DEFAULT_MAX_PLAYS,
    DEFAULT_PLAYOUTS,
    MOON_LOSERS,
    MOON_PASS_LOSERS,
    SEEK_PASS_LOSERS,
    Budget,
    RolloutTables,
    Search,
    moon_card,
    moon_losers,
    moon_pass,
    moon_threat,
    stopper,
)
from heartslib.solve import ENDGAME_TRICKS, check_endgame

if TYPE_CHECKING:
    from heartslib.match import Match
    from heartslib.round import Round
    from heartslib.variant import Variant

__all__ = [
    "AGENTS",
    "BELIEFS",
    "LEVELS",
    "Agent",
    "BaseAgent",
    "DefendingAgent",
    "HeuristicAgent",
    "LazyActions",
    "MoonAgent",
    "RandomAgent",
    "SearchAgent",
    "SearchFactory",
    "actions_for",
    "play_match",
    "setup_agent",
]


# a plain Python class when compiled too: mypyc refuses __slots__ on a compiled class with an interpreted base
@mypyc_attr(native_class=False)
class LazyActions(PassChoices):
    """The legal passes of one seat, counted and indexed without being listed.

    Drivers pass this instead of a list while passing, where the list can be
    huge and most agents never need it: ``len``, indexing and ``in`` work
    without listing (:class:`heartslib.engine.choices.PassChoices`). It keeps
    only what the seat itself knows (its hand and the pass rules:
    :class:`~heartslib.round.PassRules`), never the round, so it stays correct
    after the match moves on and shows an agent nothing hidden.
    """

    __slots__ = ()

    def __init__(self, round_: Round, seat: int) -> None:
        try:
            pass_rules = round_.pass_rules
        except AttributeError:
            raise IllegalAction("bad_argument", f"LazyActions takes a Round, not {arg_text(round_)}") from None
        super().__init__(pass_rules(seat))


def actions_for(match: Match, seat: int) -> Sequence[Action]:
    """The legal actions to hand an agent for ``seat``: a list, or a :class:`LazyActions` while passing."""
    try:
        over, round_ = match.is_over, match.round
    except AttributeError:
        raise IllegalAction("bad_argument", f"actions_for takes a Match, not {arg_text(match)}") from None
    return match.legal_actions(seat) if over else _round_actions(round_, seat)


def _round_actions(round_: Round, seat: int) -> Sequence[Action]:
    # actions_for on a round that is not over (play_match asks the round itself, a few calls less per decision)
    return LazyActions(round_, seat) if round_.phase is _PASS else round_.legal_actions(seat)


def setup_agent(agent: object, variant: Variant, seat: int) -> None:
    """Call ``agent.setup(variant, seat)`` if the agent defines it."""
    setup = getattr(agent, "setup", None)
    if callable(setup):
        setup(variant, seat)


def play_match(variant: Variant, agents: Sequence[Agent], seed: int | None = None) -> Match:
    """Play one whole match between ``agents`` (one per seat) and return it, finished.

    Each agent is set up for its seat first (``setup(variant, seat)`` when
    it has one). An illegal action from an agent raises
    :class:`~heartslib.IllegalAction` with a note naming the agent.
    """
    from heartslib.match import Match
    from heartslib.round import engine_state
    from heartslib.variant import expect_variant

    expect_variant(variant)
    if isinstance(agents, str) or not isinstance(agents, Sequence) or len(agents) != variant.players:
        got = len(agents) if isinstance(agents, Sequence) and not isinstance(agents, str) else arg_text(agents)
        raise IllegalAction("bad_argument", f"{variant.name!r} needs {variant.players} agents (one per seat), "
                            f"got {got}")
    for agent in agents:
        if not callable(getattr(agent, "act", None)):
            raise IllegalAction("bad_argument", f"{arg_text(agent)} is not an agent: an agent has a method "
                                "act(observation, legal_actions)")
    match = Match(variant, seed)
    for seat, agent in enumerate(agents):
        setup_agent(agent, variant, seat)
    while not match.is_over:
        # the round's own calls (the match's are these same ones behind a check that it is not over), and
        # its state's: Round.to_act and Round.observation would work out who acts once more each and check
        # the seat, a tenth of a random agent's decision
        rnd = match.round
        s = engine_state(rnd)
        acting = _to_act(s)
        seat = acting[0]
        agent = agents[seat]
        if s.phase is _PLAY and type(agent) is RandomAgent:
            # a random agent's play from the state itself: the same choice as act() (the facts its key
            # reads, the legal cards in legal_actions' order), without the observation and the action list
            # it would not read (tests hold the two paths to the same matches)
            action = agent._play(s, seat)
        else:
            try:
                action = agent.act(_observation(s, seat, acting), _round_actions(rnd, seat))
            except Exception as exc:  # an agent's own failure: say whose, as for an illegal action below
                exc.add_note(f"raised by {agent!r} playing seat {seat}")
                raise
        try:
            match.apply(action)
        except ValueError as exc:
            exc.add_note(f"the action came from {agent!r} playing seat {seat}")
            raise
    return match


# --------------------------------------------------------------------------- shared machinery

_MASK = (1 << 64) - 1
_M32: Final = 0xFFFFFFFF
_PLAY, _PASS, _DECIDE = Phase.PLAY, Phase.PASS, Phase.DECIDE


class _Draws:
    """SplitMix64 from a decision key: a cheap, exactly reproducible source of ``random()`` floats.

    Seeding a :class:`random.Random` costs more than a whole heuristic
    decision, and only ``random()`` is needed. The 64-bit state is kept as
    two 32-bit halves, which the compiled build steps natively (:func:`_mix32`).
    """

    __slots__ = ("hi", "lo")

    def __init__(self, key: int) -> None:
        self.hi = (key >> 32) & _M32
        self.lo = key & _M32

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits of the next output."""
        if NATIVE:
            hi, lo = self.hi, self.lo = _step32(self.hi, self.lo)
            return _mix32(hi, lo)
        return (self.next64() >> 11) / 9007199254740992.0

    def next64(self) -> int:
        """The next 64-bit output (the one :meth:`random` scales to a float)."""
        z = ((self.hi << 32 | self.lo) + 0x9E3779B97F4A7C15) & _MASK
        self.hi, self.lo = z >> 32, z & _M32
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)


def _first_draw(key: int) -> float:
    """What ``_Draws(key).random()`` returns, without the object (a random agent's one draw).

    :meth:`_Draws.next64` written out once more: a call per step would cost every draw a fifth more, and
    a test holds the two equal.
    """
    z = (key + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) >> 11) / 9007199254740992.0


# one fixed 64-bit value per card index (SplitMix64 outputs): a hand's part of a key is their sum (Zobrist)
_CARD_KEY = tuple(_Draws(i).next64() for i in range(NUM_CARD_INDICES))

# The same arithmetic on 32-bit halves, for the compiled build: its ints are native below 2**62, and a product
# only while both factors are below 2**30, so a 64-bit product or sum falls back to generic arithmetic on Python
# ints (four fifths of a random agent's round). Products here are of 16-bit parts; every value stays below
# 2**34. tests/test_agents.py holds each function to the one it mirrors.
_GOLDEN_HI: Final = 0x9E3779B9  # 0x9E3779B97F4A7C15, SplitMix64's increment and the key's multiplier
_GOLDEN_LO: Final = 0x7F4A7C15
_MIX1_HI: Final = 0xBF58476D  # 0xBF58476D1CE4E5B9
_MIX1_LO: Final = 0x1CE4E5B9
_MIX2_HI: Final = 0x94D049BB  # 0x94D049BB133111EB
_MIX2_LO: Final = 0x133111EB
_CARD_KEY_HI: Final = tuple(k >> 32 for k in _CARD_KEY)
_CARD_KEY_LO: Final = tuple(k & 0xFFFFFFFF for k in _CARD_KEY)


def _mul32(x: int, y: int) -> int:
    """``(x * y) % 2**32`` for ``x`` and ``y`` below ``2**32``."""
    x0, y0 = x & 0xFFFF, y & 0xFFFF
    return (x0 * y0 + ((((x >> 16) * y0 + x0 * (y >> 16)) & 0xFFFF) << 16)) & _M32


def _mul64(hi: int, lo: int, by_hi: int, by_lo: int) -> tuple[int, int]:
    """``(hi:lo) * (by_hi:by_lo) % 2**64`` on 32-bit halves, as halves."""
    l0, l1, b0, b1 = lo & 0xFFFF, lo >> 16, by_lo & 0xFFFF, by_lo >> 16
    middle = l1 * b0 + l0 * b1
    low = l0 * b0 + ((middle & 0xFFFF) << 16)
    upper = l1 * b1 + (middle >> 16) + (low >> 32)  # lo * by_lo // 2**32
    return (upper + _mul32(hi, by_lo) + _mul32(lo, by_hi)) & _M32, low & _M32


def _step32(hi: int, lo: int) -> tuple[int, int]:
    """SplitMix64's next state after ``hi * 2**32 + lo``, as halves (the state plus its increment)."""
    lo += _GOLDEN_LO
    return (hi + _GOLDEN_HI + (lo >> 32)) & _M32, lo & _M32


def _first_draw32(hi: int, lo: int) -> float:
    """:func:`_first_draw` of the key ``hi * 2**32 + lo`` (halves below ``2**32``)."""
    hi, lo = _step32(hi, lo)
    return _mix32(hi, lo)


def _mix32(hi: int, lo: int) -> float:
    """SplitMix64's output for the state ``hi * 2**32 + lo``, as :meth:`_Draws.random` scales it."""
    hi, lo = _mul64(hi ^ (hi >> 30), lo ^ (((lo >> 30) | (hi << 2)) & _M32), _MIX1_HI, _MIX1_LO)
    hi, lo = _mul64(hi ^ (hi >> 27), lo ^ (((lo >> 27) | (hi << 5)) & _M32), _MIX2_HI, _MIX2_LO)
    lo ^= ((lo >> 31) | (hi << 1)) & _M32
    hi ^= hi >> 31
    return ((hi << 21) | (lo >> 11)) / 9007199254740992.0


def _key32(seed: int, code: int, hand_number: int, tricks: int, trick: int, exposed: int, seat: int,
           hand: list[int]) -> tuple[int, int]:
    """:func:`_key` as halves, from the card indices of the ``hand`` (not their keys' sum)."""
    hand_hi = hand_lo = 0
    for card in hand:
        hand_hi += _CARD_KEY_HI[card]
        hand_lo += _CARD_KEY_LO[card]
    hand_hi = (hand_hi + (hand_lo >> 32)) & _M32
    # the position's halves: the hand number, then the rest (each count below 256: 32 bits in all)
    low = (((tricks * 256 + trick) * 256 + exposed) * 32 + seat) * 8 + code
    pos_hi, pos_lo = _mul64(hand_number & _M32, low, _GOLDEN_HI, _GOLDEN_LO)
    return ((seed >> 32) & _M32) ^ pos_hi ^ hand_hi, (seed & _M32) ^ pos_lo ^ (hand_lo & _M32)


# each card index's Card.suit as a number, -1 for the suitless joker (the heuristic counts suits over indices)
_CARD_SUIT = tuple(-1 if c.suit is None else int(c.suit) for c in map(Card.from_index, range(NUM_CARD_INDICES)))


def _decision_key(seed: int, obs: Observation) -> int:
    """A number unique to this decision within a match, mixed with the agent's seed.

    Seeding a fresh RNG from it per decision (instead of drawing from one
    long-lived RNG) is what makes an agent's choice a function of its seed
    and the position, so resumed games continue identically. :class:`_Draws`
    mixes the key's bits, so a plain combination is enough here.
    """
    phase = obs.phase  # compared by identity: an enum's hash runs in Python
    code = 3 if phase is _PLAY else 2 if phase is _PASS else 1 if phase is _DECIDE else 4
    # the hand makes the key differ between deals, so one agent's draws differ from match to match (a plain
    # loop: cheaper than sum() over map(), which these 64-bit values take off its fast path anyway, and than
    # sums of their 32-bit halves)
    hand = 0
    for card in obs.hand:
        hand += _CARD_KEY[card.index]
    return _key(seed, code, obs.hand_number, len(obs.tricks), len(obs.trick), len(obs.exposed), obs.seat, hand)


def _decision_key32(seed: int, obs: Observation) -> tuple[int, int]:
    """:func:`_decision_key` as 32-bit halves (:func:`_key32`)."""
    phase = obs.phase
    code = 3 if phase is _PLAY else 2 if phase is _PASS else 1 if phase is _DECIDE else 4
    return _key32(seed, code, obs.hand_number, len(obs.tricks), len(obs.trick), len(obs.exposed), obs.seat,
                  [card.index for card in obs.hand])


def _key(seed: int, code: int, hand_number: int, tricks: int, trick: int, exposed: int, seat: int, hand: int) -> int:
    """:func:`_decision_key` from the facts it reads (``code``: the phase's number; ``hand``: the sum of
    ``_CARD_KEY`` over the hand's card indices)."""
    # completed tricks, plays in the current one and exposed cards (each below 256) place the decision
    # in the round (a seat may expose one card after another)
    position = ((((hand_number * 256 + tricks) * 256 + trick) * 256 + exposed) * 32 + seat) * 8 + code
    return (seed ^ position * 0x9E3779B97F4A7C15 ^ hand) & _MASK


# allow_interpreted_subclasses on each agent class: users (and tests) subclass them, as in the pure build
@mypyc_attr(allow_interpreted_subclasses=True)
class BaseAgent:
    """A convenient base for agents: a seed, and the variant and seat from ``setup``.

    Subclasses implement :meth:`act`; ``self.variant`` is None until a driver
    calls :meth:`setup`. The built-in agents that are not set up learn the
    rules from the observation when a round made it
    (:attr:`heartslib.Observation.variant`), so an agent asked directly,
    ``agent.act(round.observation(seat), round.legal_actions(seat))``, plays
    as it would in a match; an observation rebuilt from data carries no rules,
    and they then fall back to what the legal actions tell them.
    """

    #: The name drivers and the command line use for this agent.
    name: ClassVar[str] = "agent"  # ClassVar: compiled, a plain class attribute (else a per-instance default)

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif not isinstance(seed, int) or isinstance(seed, bool):
            raise IllegalAction("bad_argument", f"an agent's seed is a whole number (or None), not {arg_text(seed)}")
        self.seed = seed
        self.variant: Variant | None = None
        self.seat: int | None = None
        self._learned = False  # set up by _learn, from an observation, rather than by a driver

    def setup(self, variant: Variant, seat: int) -> None:
        """Learn the rules and the seat before a match (drivers call this)."""
        self.variant = variant
        self.seat = seat
        self._learned = False

    def _learn(self, observation: Observation) -> None:
        """Set up from the rules a round's observation carries when no driver did (and again when they were
        learned that way and the observation's rules or seat are others: the agent was handed to another game
        or plays for another seat)."""
        found = observation.variant  # a Variant or None
        if found is not None and (
            self.variant is None or (self._learned and (found is not self.variant or observation.seat != self.seat))
        ):
            self.setup(found, observation.seat)
            self._learned = True

    def rng(self, observation: Observation) -> random.Random:
        """A :class:`random.Random` for this decision, fixed by the seed and the position."""
        return random.Random(_decision_key(self.seed, observation))

    def _draws(self, observation: Observation) -> _Draws:
        if NATIVE:  # the key on 32-bit halves: native arithmetic compiled
            draws = _Draws(0)
            draws.hi, draws.lo = _decision_key32(self.seed, observation)
            return draws
        return _Draws(_decision_key(self.seed, observation))

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"

    # copy and pickle (simulate deep-copies an agent given as an instance, process pools pickle it): compiled,
    # mypyc's default __getstate__ saves only the compiled attributes (named in __mypyc_attrs__) and would drop
    # an interpreted subclass's own, which live in its __dict__; pure, everything is in __dict__, as before
    def __getstate__(self) -> dict[str, Any]:
        compiled = getattr(type(self), "__mypyc_attrs__", ())
        state = {name: getattr(self, name) for name in compiled if name != "__dict__" and hasattr(self, name)}
        state.update(getattr(self, "__dict__", {}))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        # the compiled attributes through their setters, the rest into __dict__ as default unpickling puts
        # them (a subclass's properties or __setattr__ are not run, in either build)
        compiled = getattr(type(self), "__mypyc_attrs__", ())
        for name, value in state.items():
            if name in compiled:
                setattr(self, name, value)
            else:
                self.__dict__[name] = value


def _pick(rng: _Draws, items: Sequence[Any]) -> Any:
    # random() is the one draw Python keeps identical across versions
    count = len(items)  # a local: compiled, random() * len(...) multiplies boxed objects
    return items[int(rng.random() * count)]


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent(BaseAgent):
    """Plays a uniformly random legal card, passes random cards, makes random decisions.

    >>> import heartslib as hl
    >>> m = hl.Match(hl.preset("standard"), seed=1)
    >>> agent = hl.agents.RandomAgent(seed=3)
    >>> agent.setup(m.variant, 0)
    >>> a = agent.act(m.observation(0), hl.agents.actions_for(m, 0))
    >>> type(a).__name__, len(a.cards)
    ('Pass', 3)
    """

    name = "random"

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """A random legal action (passes: random cards from the hand, none of them forbidden)."""
        if observation.phase is _PASS and self.variant is not None:
            rng = self._draws(observation)
            if self.variant.rules.pass_keep is not None:  # a pass judged as a whole: one draw among the passes
                count = len(legal_actions)
                return legal_actions[int(rng.random() * count)]
            cards = passable(self.variant.rules, observation.hand)
            chosen: list[Card] = []
            for _ in range(observation.pass_count):
                count = len(cards)
                chosen.append(cards.pop(int(rng.random() * count)))
            return make_pass(observation.seat, tuple(chosen))
        # _pick(self._draws(observation), legal_actions) without the object: most of a random match is here
        count = len(legal_actions)
        if count == 1:  # the draw could only say 0 (each decision draws afresh, so skipping it shifts nothing)
            return legal_actions[0]
        return legal_actions[int(_first_draw(_decision_key(self.seed, observation)) * count)]

    def _play(self, s: RoundState, seat: int) -> Action:
        """What :meth:`act` returns for ``seat``'s play in ``s`` (the seat to play): :func:`play_match`'s path
        for this class exactly, which a subclass's act() may change."""
        cards = cards_in(_legal_cards(s))
        count = len(cards)
        if count == 1:
            return _PLAYS[seat][cards[0]]
        if NATIVE:  # the same key and draw on 32-bit halves: native arithmetic compiled
            hi, lo = _key32(self.seed, 3, s.hand_number, len(s.tricks), len(s.tcards), len(s.exposed), seat,
                            s.held(seat))
            return _PLAYS[seat][cards[int(_first_draw32(hi, lo) * count)]]
        hand = 0
        for card in s.held(seat):
            hand += _CARD_KEY[card]
        key = _key(self.seed, 3, s.hand_number, len(s.tricks), len(s.tcards), len(s.exposed), seat, hand)
        return _PLAYS[seat][cards[int(_first_draw(key) * count)]]


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicAgent(BaseAgent):
    """Plays sensible hearts in any variant, from the variant's card values.

    * **Passing**: passes the dangerous cards – penalty cards worth five or
      more (Q♠, K♠ in Black Maria, J♠ in Black Jack, Q♥ with the pink lady)
      and the cards above them in their suit unless guarded by four lower
      ones, high hearts, and short side suits to make a void; keeps bonus
      cards (negative values such as J♦ −10) and cards it may not pass.
    * **Following**: ducks under the card winning the trick, giving away
      the highest (or the most valuable) card that still loses; when it must
      win, it wins cheaply – with its highest card when last to play, with
      its lowest when others still play or points may come. Against a moon
      in the making (a player with every point so far, at least a third of
      them) it takes the trick's points itself when it can.
    * **Void**: discards the big penalty cards first, then the high cards
      that could catch them, then high hearts and the high cards of short
      suits – but never a bonus card, and no points onto a player who has
      taken every point so far (a moon in the making).
    * **Leading**: low cards of short suits; low spades to flush out an
      unseen queen; never a penalty card or a guaranteed winner when it can
      avoid it.
    * **Bonus cards** (value < 0): tries to win tricks whose total is
      negative and plays its bonus card when it surely wins the trick.
    * **Decisions**: chooses the moon scoring that leaves it best placed,
      passes the most cards to the left as dealer, calls hearts when it may,
      and exposes no cards in Gong Zhu (``SearchAgent`` weighs exposing). In
      an auction it names the suit its hand is safest in and bids, when that
      suit is nearly safe for it, by how much safer it is than the average
      one (:func:`auction_choice`), then
      plays the named suit as the penalty suit.

    Ties are broken with the seed, so different seeds play slightly differently.
    """

    name = "heuristic"

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The heuristic's choice among ``legal_actions``."""
        self._learn(observation)
        phase = observation.phase
        if phase == Phase.PASS:
            if self.variant is None:
                return legal_actions[0]
            return _Think(self.variant, observation, self._draws(observation)).choose_pass()
        if phase == Phase.DECIDE:
            return self._decide(observation, legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        variant = self.variant
        if variant is None:
            from heartslib.presets import preset

            variant = preset("standard")  # assume standard card values when not set up
        legal = [a.card.index for a in legal_actions if isinstance(a, Play)]
        card = _Think(variant, observation, self._draws(observation)).choose_play(legal)
        return Play(observation.seat, Card.from_index(card))

    def _decide(self, obs: Observation, legal_actions: Sequence[Action]) -> Action:
        options = [a for a in legal_actions if isinstance(a, Choose)]
        if not options:
            return legal_actions[0]
        names = [a.option for a in options]
        if obs.decision == "moon" and {"old", "new"} <= set(names) and self.variant is not None:
            return options[names.index(_moon_choice(self.variant, obs))]
        if obs.decision == "pass":
            def weight(option: str) -> tuple[int, bool]:
                count, _, direction = option.partition(" ")
                return (int(count) if count.isdigit() else 0, direction == "left")

            return max(options, key=lambda a: weight(a.option))
        if obs.decision == "suit":
            for preferred in ("hearts", "spades"):
                if preferred in names:
                    return options[names.index(preferred)]
        if obs.decision in ("bid", "name"):
            return options[names.index(auction_choice(obs, names))]
        return options[0]


def suit_danger(hand: Sequence[Card], suit: Suit) -> float:
    """How likely a hand is to take cards of ``suit`` were it the penalty suit: each card of it counts its rank
    above 7 (a high card wins tricks of it), a short holding less so (it leaves sooner), and a void in it nothing
    (the hand discards it). Lower is safer."""
    ranks = [int(c.rank) for c in hand if c.suit == suit]
    return sum(max(0, r - 7) for r in ranks) + 0.5 * len(ranks) - (2.0 if not ranks else 0.0)


def auction_choice(obs: Observation, options: Sequence[str]) -> str:
    """The heuristic's auction: name the suit its hand is safest in (:func:`suit_danger`); bid for the right
    when that suit is nearly safe for it (a void, or a few low cards: a danger of at most 1), one chip for each
    point it is safer than the average suit, at most a tenth of its chips, and never above what it may;
    otherwise pass (the dealer, who may not pass after every other seat did, bids the least)."""
    dangers = {suit: suit_danger(obs.hand, suit) for suit in Suit}
    if obs.decision == "name":
        return min(options, key=lambda name: (dangers[Suit[name.upper()]], name))
    amounts = [int(o) for o in options if o != "pass"]
    if not amounts:
        return "pass"
    safest = min(dangers.values())
    edge = sum(dangers.values()) / len(dangers) - safest if safest <= 1 else 0.0
    chips = obs.chips[obs.seat] if obs.chips else max(amounts)
    worth = min(int(edge), chips // 10)
    if worth >= amounts[0]:
        return str(min(worth, amounts[-1]))
    return "pass" if "pass" in options else str(amounts[0])


def _moon_choice(variant: Variant, obs: Observation) -> str:
    """Old moon (others +N) or new moon (shooter −N): whichever leaves this seat better ranked."""
    points: Any = variant.rules.moon_points
    me = obs.seat
    target = variant.end.target
    sign = getattr(variant.rules, "sign", 1)

    def badness(total: Any) -> float:
        # how far a total is from winning: lower is better (magnitude for complex scores)
        return abs(total) if isinstance(total, complex) else float(sign * total)

    def standing(totals: list[Any]) -> tuple[int, int]:
        bad = [badness(t) for t in totals]
        over = bool(target) and max(abs(b) for b in bad) >= target
        better = sum(1 for s, b in enumerate(bad) if s != me and b < bad[me])
        # when the match would end, being the lowest is all that matters
        return (better if over else 0, better)

    scores: list[Any] = list(obs.scores)
    old = [t if s == me else t + points for s, t in enumerate(scores)]
    new = [t - points if s == me else t for s, t in enumerate(scores)]
    return "new" if standing(new) < standing(old) else "old"


# --------------------------------------------------------------------------- the heuristic


def _cost(value: Any, sign: int) -> float:
    """How much taking a card of this value hurts: its points against the taker.

    ``sign`` is -1 when the highest total wins; a complex value (complex
    hearts, where the magnitude decides) hurts by its real part and the size
    of its imaginary part.
    """
    if isinstance(value, complex):
        return sign * value.real + abs(value.imag)
    return float(sign * value)


class _Tables:
    """What a variant means to the heuristic, worked out once per variant."""

    def __init__(self, variant: Variant, rules: Rules) -> None:
        self.variant = variant
        self.rules = rules
        sign = getattr(rules, "sign", 1)
        self.cost = [_cost(x, sign) for x in rules.value]
        for i in getattr(rules, "multiply", {}):
            # a card that multiplies its taker's score usually multiplies penalty points
            self.cost[i] += 3.0
        self.suit: list[int] = rules.suit
        self.rank: list[int] = rules.rank
        self.counts: Counter[int] = rules.counts
        self.deck = frozenset(rules.counts)
        self.one_each = all(n == 1 for n in rules.counts.values())
        # "big" penalty cards: the ones worth avoiding at all cost (Q♠ 13, J♠ 10, K♠ 10, ...)
        big = [i for i in rules.counts if self.cost[i] >= 5]
        self.big_rank: dict[int, int] = {}
        for i in big:
            s = self.suit[i]
            self.big_rank[s] = min(self.big_rank.get(s, 99), self.rank[i])
        self.big = frozenset(big)
        self.penalty_suits = frozenset(self.suit[i] for i in rules.counts if self.cost[i] > 0)
        self.penalty_total = sum(max(self.cost[i], 0.0) * n for i, n in rules.counts.items())


_TABLES: dict[int, _Tables] = {}


def _tables(variant: Variant, named: Suit | None = None) -> _Tables:
    """The tables of ``variant``, or of its hands whose auction named the suit ``named``
    (:attr:`Observation.penalty_suit`: that suit's cards are the penalty cards)."""
    rules = variant.rules if named is None else variant.rules.for_suit(int(named))
    # keyed by the compiled rules' identity: variants are immutable and compiled once (each named suit once)
    key = id(rules)
    tables = _TABLES.get(key)
    if tables is None or tables.rules is not rules:
        if len(_TABLES) > 64:
            _TABLES.clear()
        tables = _TABLES[key] = _Tables(variant, rules)
    return tables


#: The share of the pack's penalty points a seat must have taken, with every point so far, for the heuristic
#: to treat it as shooting the moon (and stop feeding it points, and take a trick's points from it).
MOON_ALARM = 1 / 3

_SPREAD = 0.6180339887498949  # the golden ratio's fraction: card indices times it are spread evenly over [0, 1)


class _Think:
    """One decision's worth of reasoning over card indices (internal)."""

    def __init__(self, variant: Variant, obs: Observation, rng: _Draws) -> None:
        t = _tables(variant, obs.penalty_suit)
        self.t = t
        self.variant = variant
        self.obs = obs
        self.value = t.cost
        self.suit = t.suit
        self.rank = t.rank
        self.hand = hand = [c.index for c in obs.hand]
        # the cards played (Observation.cards_played) as indices in one pass, without its tuple of cards
        self.played = played = [c.index for trick in obs.tricks for _, c in trick.plays]
        played += [c.index for _, c in obs.trick]
        # read, never changed, below: the played list itself unless the seat saw kitty cards
        seen = played + [c.index for c in obs.kitty] if obs.kitty else played
        #: how many of each card index nobody has been seen holding or playing (positive counts only)
        self.unseen: dict[int, int]
        if t.one_each:
            self.unseen = dict.fromkeys(t.deck.difference(hand, seen), 1)
        else:
            unseen = dict(t.counts)
            for i in itertools.chain(hand, seen):
                unseen[i] -= 1
            self.unseen = {i: n for i, n in unseen.items() if n > 0}
        self.big_rank = t.big_rank
        self.big = t.big
        self.lengths = [0] * 5  # cards held per suit (4: jokers)
        for c in hand:
            self.lengths[t.suit[c]] += 1
        # ties are broken by a small per-card offset: a fixed spread of the card indices turned by one draw
        self.turn = rng.random()

    # ------------------------------------------------------------------ helpers

    def length(self, suit: int, cards: Sequence[int] | None = None) -> int:
        """Cards of ``suit`` in ``cards`` (default: the hand)."""
        if cards is None:
            return self.lengths[suit]
        return sum(1 for c in cards if self.suit[c] == suit)

    def big_unseen_below(self, suit: int, rank: int) -> bool:
        """Whether an unseen big penalty card of ``suit`` ranks below ``rank`` (we would catch it)."""
        return any(self.suit[b] == suit and self.rank[b] < rank and b in self.unseen for b in self.big)

    def catcher(self, card: int) -> bool:
        """A card that ranks above an unseen big penalty card of its suit."""
        return self.big_unseen_below(self.suit[card], self.rank[card])

    def penalty_suit(self, suit: int) -> bool:
        return suit in self.t.penalty_suits

    def best(self, cards: Sequence[int], score: Callable[[int], float]) -> int:
        turn = self.turn
        return max(cards, key=lambda c: score(c) + (c * _SPREAD + turn) % 1.0 * 0.01)

    # ------------------------------------------------------------------ passing

    def choose_pass(self) -> Pass:
        obs = self.obs
        remaining = list(self.hand)
        cands = [c.index for c in passable(self.variant.rules, (Card.from_index(c) for c in self.hand))]
        chosen: list[int] = []
        rules = self.variant.rules
        for slot in range(obs.pass_count):
            if rules.pass_keep is not None:  # only cards that leave a legal pass to complete
                fits = pass_extensions(self.hand, chosen, obs.pass_count, rules.forbidden, rules.pass_keep)
                cands = [c for c in cands if c in fits]
            left = obs.pass_count - slot
            card = self.best(cands, functools.partial(self.pass_score, remaining=remaining, left=left))
            cands.remove(card)
            remaining.remove(card)
            chosen.append(card)
        return pass_of(obs.seat, chosen)

    def pass_score(self, c: int, remaining: list[int], left: int) -> float:
        v, s, r = self.value[c], self.suit[c], self.rank[c]
        if v < 0:
            return -1000.0 + r
        if s == 4:  # a valueless joker never wins a trick: the safest card to keep
            return -50.0
        score = float(r)
        big_rank = self.big_rank.get(s)
        if big_rank is not None and r >= big_rank:
            guards = sum(1 for x in remaining if self.suit[x] == s and self.rank[x] < big_rank)
            score += 30 + v if guards < 4 else -4
        if 0 < v < 5:
            score += v + max(0, r - 9)
        if not self.penalty_suit(s):
            n = self.length(s, remaining)
            if n <= left:
                score += 14 - 3 * n
        return score

    # ------------------------------------------------------------------ playing

    def choose_play(self, legal: list[int]) -> int:
        obs = self.obs
        if not obs.trick:
            return self.choose_lead(legal)
        led = -1 if obs.led_suit is None else int(obs.led_suit)
        if led < 0:
            return self.choose_lead(legal)
        if any(self.suit[c] == led for c in legal):
            return self.choose_follow(legal, led)
        return self.choose_discard(legal)

    def trick_state(self, led: int) -> tuple[int, int, float]:
        """(rank to beat, seat winning now, points in the trick)."""
        cards = [c.index for _, c in self.obs.trick]
        seats = [s for s, _ in self.obs.trick]
        rules = self.variant.rules
        counts = Counter(cards) if rules.cancel else Counter()
        best_rank, winner = -1, seats[0]
        last_wins = rules.identical == Identical.LAST_WINS
        for seat, c in zip(seats, cards, strict=True):
            if self.suit[c] != led or counts[c] >= 2:
                continue
            if self.rank[c] > best_rank or (self.rank[c] == best_rank and last_wins):
                best_rank, winner = self.rank[c], seat
        return best_rank, winner, sum((self.value[c] for c in cards), 0.0)

    def beats(self, c: int, led: int, best_rank: int) -> bool:
        if self.suit[c] != led:
            return False
        if self.variant.rules.cancel and any(x.index == c for _, x in self.obs.trick):
            return False
        return self.rank[c] > best_rank or (
            self.rank[c] == best_rank and self.variant.rules.identical == Identical.LAST_WINS
        )

    def still_to_play(self) -> int:
        return self.obs.players - 1 - len(self.obs.trick)

    def higher_unseen(self, c: int) -> bool:
        s, r = self.suit[c], self.rank[c]
        return any(self.suit[x] == s and self.rank[x] > r for x in self.unseen)

    def choose_follow(self, legal: list[int], led: int) -> int:
        best_rank, winner, pts = self.trick_state(led)
        value, rank = self.value, self.rank
        last = self.still_to_play() <= 0
        winners = [c for c in legal if self.beats(c, led, best_rank)]
        losers = [c for c in legal if c not in winners]
        if winners and pts > 0 and self.shooting(winner):
            # a moon in the making: take this trick's points (a few) rather than let it go on (the moon's worth)
            return self.best(winners, lambda c: -rank[c] if last else rank[c])
        # bonus cards: take a trick worth less than nothing, and play a bonus card that surely wins
        if winners:
            sure = [c for c in winners if last or not self.higher_unseen(c)]
            for c in sure:
                if value[c] < 0 and pts + value[c] < 0:
                    return c
            if pts < 0 and sure:
                return self.best(sure, lambda c: -10.0 * value[c] + rank[c])
        if losers:
            return self.best(losers, lambda c: (100.0 + 5 * value[c] if value[c] > 0 else
                                                -100.0 if value[c] < 0 else 0.0) + rank[c])
        if last:
            return self.best(winners, lambda c: -10.0 * value[c] + rank[c])
        safe = pts == 0 and not self.big_unseen_below(led, 99) and (
            (self.first_trick_clean() and not self.penalty_suit(led)) or self.early_in_suit(led)
        )
        if safe:
            return self.best(winners, lambda c: -10.0 * max(value[c], 0) + rank[c])
        return self.best(winners, lambda c: -10.0 * max(value[c], 0) - rank[c])

    def first_trick_clean(self) -> bool:
        """The first trick, under a rule that keeps points off it."""
        return not self.obs.tricks and self.variant.play.first_trick.value != "any"

    def early_in_suit(self, suit: int) -> bool:
        """Few cards of the suit have gone, so the others probably still follow it."""
        card_suit = _CARD_SUIT
        gone = sum(1 for c in self.played if card_suit[c] == suit)
        return gone < self.obs.players and not self.penalty_suit(suit)

    def taken_points(self) -> list[float]:
        pts = [0.0] * self.obs.players
        for t in self.obs.tricks:
            if t.winner is not None:
                pts[t.winner] += sum(max(self.value[c.index], 0) for _, c in t.plays)
        return pts

    def shooting(self, seat: int) -> bool:
        """Whether another seat has taken every point so far, and enough of them (:data:`MOON_ALARM`): a moon
        in the making."""
        if seat == self.obs.seat:
            return False
        taken = self.taken_points()
        return taken[seat] > 0 and sum(taken) == taken[seat] and taken[seat] >= MOON_ALARM * self.t.penalty_total

    def choose_discard(self, legal: list[int]) -> int:
        value, rank, suit = self.value, self.rank, self.suit
        _, winner, _ = self.trick_state(-1 if self.obs.led_suit is None else int(self.obs.led_suit))
        shooter = self.shooting(winner)

        def score(c: int) -> float:
            v = value[c]
            if v < 0:
                return -1000.0
            if suit[c] == 4:
                return -20.0
            p = float(rank[c])
            if v > 0:
                p += -200.0 if shooter else 50 + 5 * v
            if self.catcher(c):
                p += 40
            n = self.length(suit[c])
            p += max(0, 4 - n) * 2
            return p

        return self.best(legal, score)

    def choose_lead(self, legal: list[int]) -> int:
        value, rank, suit = self.value, self.rank, self.suit
        outstanding_in = [0] * 5  # unseen cards per suit
        for x, n in self.unseen.items():
            outstanding_in[suit[x]] += n

        def cost(c: int) -> float:
            v, s, r = value[c], suit[c], rank[c]
            if s == 4:
                return -5.0  # a valueless joker never wins
            k = float(r)
            if v > 0:
                k += 10 + 3 * v
            elif v < 0:
                k += 30
            if outstanding_in[s] == 0:
                k += 40  # nobody else can follow: we would take whatever they discard
            big_rank = self.big_rank.get(s)
            if big_rank is not None and any(suit[b] == s and b in self.unseen for b in self.big):
                k += -4 if r < big_rank else 30
            if big_rank is not None and any(suit[b] == s and b in self.hand for b in self.big) and v <= 0:
                k += 3  # keep the guards of our own big card
            k += self.length(s)
            return k

        return self.best(legal, lambda c: -cost(c))


# --------------------------------------------------------------------------- the moon-seeker


def _moon_pass(variant: Variant, obs: Observation, legal_actions: Sequence[Action],
               t: RolloutTables) -> tuple[Pass, float] | None:
    """The moon-seeker's pass (:func:`heartslib.search.moon_pass`) and the :func:`heartslib.search.moon_losers`
    of the hand it leaves; None where it is not a legal pass (too few cards may be passed, or the rules keep
    some back)."""
    hand = [c.index for c in obs.hand]
    allowed = [c.index for c in passable(variant.rules, obs.hand)]
    if len(allowed) < obs.pass_count:
        return None
    chosen = moon_pass(hand, allowed, obs.pass_count, t)
    rest = list(hand)
    for c in chosen:
        rest.remove(c)
    action = pass_of(obs.seat, chosen)
    if variant.rules.pass_keep is not None and action not in legal_actions:
        return None
    return action, moon_losers(rest, t)


@mypyc_attr(allow_interpreted_subclasses=True)
class MoonAgent(HeuristicAgent):
    """Shoots the moon when its hand allows, and plays like :class:`HeuristicAgent` otherwise.

    The hand is judged by :func:`heartslib.search.moon_losers` (the top cards of each suit it lacks, a
    penalty suit's counting double, and shortness in a penalty suit):

    * **Passing**: it works out the pass that leaves the strongest hand for the moon
      (:func:`heartslib.search.moon_pass`: low cards and short side suits, keeping its points); when that
      hand has at most :data:`heartslib.search.MOON_PASS_LOSERS` losers it makes that pass, otherwise the
      heuristic's.
    * **Playing**: it is *shooting* while no other seat has taken a point this hand and either the hand it
      held when play began (its cards now and the ones it has played) has at most
      :data:`heartslib.search.MOON_LOSERS` losers, or it has taken every point so far and at least a third
      of the pack's. Shooting, it plays :func:`heartslib.search.moon_card`: leads its sure winners (from its
      longest suit), wins every trick it can (the lowest sure winner, else its highest card), and never
      throws a point away when void. Once another seat takes a point, the attempt is over and it plays the
      heuristic for the rest of the hand.
    * **Decisions**: the heuristic's (the moon scoring best for it, and so on).

    In a variant whose moon does not pay (no moon, Culbertson's no-score moon, Likha's penalty moon, or a
    game where the highest total wins: :func:`heartslib.search.moon_pays`) it is the heuristic exactly. It
    is deterministic, like the others: a function of its seed and the observation.

    >>> import heartslib as hl
    >>> agents = [MoonAgent(1)] + [HeuristicAgent(s) for s in (2, 3, 4)]
    >>> play_match(hl.preset("standard").replace(end={"target": 30}), agents, seed=5).is_over
    True
    """

    name = "moon"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._moon: RolloutTables | None = None

    def setup(self, variant: Variant, seat: int) -> None:
        """Learn the rules and the seat before a match (drivers call this)."""
        super().setup(variant, seat)
        tables = RolloutTables(variant)
        self._moon = tables if tables.moon_pays else None

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The moon-seeker's choice among ``legal_actions`` (see the class docs)."""
        self._learn(observation)
        t = self._moon
        variant = self.variant
        obs = observation
        if t is None or variant is None:
            return super().act(obs, legal_actions)
        if obs.phase == Phase.PASS:
            found = _moon_pass(variant, obs, legal_actions, t)
            if found is not None and found[1] <= MOON_PASS_LOSERS:
                return found[0]
            return super().act(obs, legal_actions)
        if obs.phase != Phase.PLAY or len(legal_actions) == 1 or not self.shooting(obs, t):
            return super().act(obs, legal_actions)
        legal = [a.card.index for a in legal_actions if isinstance(a, Play)]
        unplayed = _unplayed(obs, t)
        led = -1 if not obs.trick or obs.led_suit is None else int(obs.led_suit)
        trick = [c.index for _, c in obs.trick]
        last = len(obs.trick) >= obs.players - 1
        card = moon_card([c.index for c in obs.hand], legal, trick, led, last, unplayed, t)
        return Play(obs.seat, Card.from_index(card))

    def shooting(self, obs: Observation, t: RolloutTables) -> bool:
        """Whether this seat is going for the moon now (see the class docs)."""
        me = obs.seat
        taken = _points_taken(obs, t)
        if any(w > 0 for s, w in enumerate(taken) if s != me):
            return False
        held = [c.index for c in obs.hand]
        for trick in obs.tricks:
            held += [c.index for seat, c in trick.plays if seat == me]
        return moon_losers(held, t) <= MOON_LOSERS or taken[me] >= t.moon_alarm


def _points_taken(obs: Observation, t: RolloutTables) -> list[float]:
    """The penalty points each seat has taken this hand (its tricks' positive card costs), from public facts."""
    taken = [0.0] * obs.players
    for trick in obs.tricks:
        if trick.winner is not None:
            taken[trick.winner] += sum(max(t.cost[c.index], 0.0) for c in trick.cards)
    return taken


def _unplayed(obs: Observation, t: RolloutTables) -> list[int]:
    """Per card index, the copies nobody has played yet (the current trick's cards count as played)."""
    unplayed = t.counts[:]
    for gone in obs.cards_played:
        unplayed[gone.index] -= 1
    return unplayed


@mypyc_attr(allow_interpreted_subclasses=True)
class DefendingAgent(MoonAgent):
    """Defends against the moon as a strong player does, shoots it as :class:`MoonAgent` does, and plays like
    :class:`HeuristicAgent` otherwise.

    A seat *threatens* the moon when it has taken every point so far, at least
    :data:`heartslib.search.MOON_THREAT` of the pack's, and every point not yet taken is still in play
    (:func:`heartslib.search.moon_threat`, the rule the search player's rollouts use). While another seat
    threatens (and this one is not shooting), one point taken by anyone but the threat ends the moon, so
    this seat takes one cheaply or hands one to another seat:

    * **Leading**: the highest card of a penalty suit when it is the highest still out (it wins its own
      points); otherwise the heuristic's lead.
    * **Following suit**: when the trick holds points and the threat is winning it, it wins the trick if it
      can (its lowest winner when last to play, else its highest); when another seat is winning and the
      threat has played, it drops a penalty card that loses (a point for that seat); otherwise the heuristic.
    * **Void**: a penalty card onto a trick another seat is winning once the threat has played; never a point
      onto the threat's trick or one the threat may still take (then the lowest card without points,
      keeping its high cards to stop the moon later).

    In a variant whose moon does not pay (:func:`heartslib.search.moon_pays`) it is the heuristic exactly.
    Deterministic, like the others: a function of its seed and the observation.

    >>> import heartslib as hl
    >>> agents = [DefendingAgent(1), MoonAgent(2), DefendingAgent(3), DefendingAgent(4)]
    >>> play_match(hl.preset("standard").replace(end={"target": 30}), agents, seed=5).is_over
    True
    """

    name = "defending"

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The defender's choice among ``legal_actions`` (see the class docs)."""
        self._learn(observation)
        t = self._moon
        obs = observation
        if (t is None or obs.phase != Phase.PLAY or len(legal_actions) == 1 or self.variant is None
                or self.shooting(obs, t)):
            return super().act(obs, legal_actions)
        unplayed = _unplayed(obs, t)
        in_play = unplayed[:]
        for _, c in obs.trick:  # moon_threat counts the trick's cards as still in play
            in_play[c.index] += 1
        threat = moon_threat(_points_taken(obs, t), obs.seat, in_play, t)
        if threat is None:
            return super().act(obs, legal_actions)
        legal = [a.card.index for a in legal_actions if isinstance(a, Play)]
        card = _defence(obs, legal, threat, unplayed, t)
        if card is None:
            return super().act(obs, legal_actions)
        return Play(obs.seat, Card.from_index(card))


def _defence(obs: Observation, legal: list[int], threat: int, unplayed: list[int], t: RolloutTables) -> int | None:
    """:class:`DefendingAgent`'s card against ``threat`` among ``legal`` (card indices), or None for the
    heuristic's (see the class docs)."""
    if not obs.trick:
        stop = stopper(legal, unplayed, t)  # the rollouts' defender's lead
        return stop if stop >= 0 else None
    led = int(obs.led_suit) if obs.led_suit is not None else -1
    best, winner, points = _trick_so_far(obs, led, t)
    played = any(seat == threat for seat, _ in obs.trick)
    if any(t.suit[c] == led for c in legal):
        return _defend_following(legal, best, winner, points, threat, played, len(obs.trick) == obs.players - 1, t)
    if winner != threat and played:
        dumps = [c for c in legal if t.cost[c] > 0]
        if dumps:
            return min(dumps, key=lambda c: (t.cost[c], t.rank[c]))  # the cheapest point ends the moon
    clean = [c for c in legal if t.cost[c] <= 0]
    return min(clean, key=lambda c: (t.cost[c] < 0, t.rank[c])) if clean else None


def _trick_so_far(obs: Observation, led: int, t: RolloutTables) -> tuple[int, int, float]:
    """The current trick's highest rank of the suit led, the seat playing it, and the trick's points."""
    best, winner = -1, -1
    points = 0.0
    for seat, card in obs.trick:
        c = card.index
        points += max(t.cost[c], 0.0)
        if t.suit[c] == led and t.rank[c] > best:
            best, winner = t.rank[c], seat
    return best, winner, points


def _defend_following(legal: list[int], best: int, winner: int, points: float, threat: int, played: bool,
                      last: bool, t: RolloutTables) -> int | None:
    """:func:`_defence` following suit: win the threat's trick with points, or drop a losing point card onto
    another seat's trick once the threat has played."""
    rank, cost = t.rank, t.cost
    winners = [c for c in legal if rank[c] > best]
    if winner == threat and points > 0 and winners:
        return min(winners, key=rank.__getitem__) if last else max(winners, key=rank.__getitem__)
    if winner != threat and played:
        dumps = [c for c in legal if cost[c] > 0 and rank[c] < best]
        return max(dumps, key=lambda c: (cost[c], rank[c])) if dumps else None
    return None


# --------------------------------------------------------------------------- the search player


#: The ways :class:`SearchAgent` weighs its sampled worlds (its ``beliefs``).
BELIEFS: Final = ("uniform", "heuristic")
#: :class:`SearchAgent`'s levels: each its worlds per decision and its rollout card budget (``playouts`` and
#: ``max_plays`` when they are not given). ``"strong"`` thinks four times as long as ``"default"``.
LEVELS: Final[dict[str, tuple[int, int]]] = {
    "default": (DEFAULT_PLAYOUTS, DEFAULT_MAX_PLAYS),
    "strong": (4 * DEFAULT_PLAYOUTS, 4 * DEFAULT_MAX_PLAYS),
}


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchAgent(BaseAgent):
    """A determinized Monte Carlo (PIMC) player for every variant: the machinery is :mod:`heartslib.search`,
    ``docs/search-player.md`` explains it.

    ``level``: ``"default"`` or ``"strong"`` (:data:`LEVELS`: four times the
    worlds and the card budget), the budget unless ``playouts`` or
    ``max_plays`` say otherwise; ``playouts``: worlds sampled per decision
    (each candidate still in the running is played out once in each);
    ``max_plays``: no world is started once the rollouts have played this
    many cards (worlds times candidates times cards left in the hand), so long
    hands stay quick; ``time_limit``:
    seconds after which no further world is started (None: no limit, and
    decisions are reproducible exactly); ``search_passes``: False passes as
    :class:`HeuristicAgent` does (always so for scatter and star passes and
    the dealer's choice, where the heuristic decides); ``beliefs``:
    ``"uniform"`` samples every world consistent with the history alike,
    ``"heuristic"`` weighs each world by how likely the other seats' passes
    and plays in it are had they played as :class:`HeuristicAgent` does
    (choice-aware worlds, :meth:`heartslib.inference.Sampler.weighted`, slack
    ``epsilon``); ``endgame``: from this many tricks left (cards in the hand;
    0: never) a play is valued in each world by searching every line of this
    seat's own plays to the end against the rollout policy's plays for the
    others (:class:`heartslib.solve.Endgame`), instead of by one rollout;
    ``shoot``: whether it considers shooting the moon itself (while no other
    seat has taken a point, each candidate is also played out with this
    seat's later cards going for the moon, and a pass for the moon is
    compared with the others; False: never).
    A variant :func:`heartslib.inference.reads` refuses it plays as
    :class:`HeuristicAgent` does; in Auction Hearts it bids and names the suit
    as :class:`HeuristicAgent` does and searches the play with the named
    suit's penalty cards.

    >>> import heartslib as hl
    >>> agents = [SearchAgent(1, playouts=4)] + [HeuristicAgent(s) for s in (2, 3, 4)]
    >>> play_match(hl.preset("standard").replace(end={"target": 20}), agents, seed=5).is_over
    True
    """

    name = "search"

    def __init__(self, seed: int | None = None, *, playouts: int | None = None, time_limit: float | None = None,
                 max_plays: int | None = None, search_passes: bool = True, beliefs: str = "uniform",
                 epsilon: float = 0.1, endgame: int = ENDGAME_TRICKS, shoot: bool = True,
                 level: str = "default") -> None:
        super().__init__(seed)
        budget = LEVELS.get(level) if isinstance(level, str) else None
        if budget is None:
            raise IllegalAction("bad_argument", f"level must be one of {', '.join(map(repr, LEVELS))}, not "
                                f"{arg_text(level)}")
        #: the level the budget comes from (see the class docs)
        self.level = level
        playouts = budget[0] if playouts is None else playouts
        max_plays = budget[1] if max_plays is None else max_plays
        if not isinstance(shoot, bool):
            raise IllegalAction("bad_argument", f"shoot must be True or False, not {arg_text(shoot)}")
        #: whether it considers shooting the moon itself (see the class docs)
        self.shoot = shoot
        self.budget = Budget(playouts, max_plays, None if time_limit is None else time_limit)
        #: tricks left from which plays are valued by solving each world exactly (0: never; see the class docs)
        self.endgame = check_endgame(endgame)
        self.search_passes = search_passes
        if beliefs not in BELIEFS:
            raise IllegalAction("bad_argument", f"beliefs must be one of {', '.join(map(repr, BELIEFS))}, not "
                                f"{arg_text(beliefs)}")
        check_epsilon(epsilon)
        #: how the worlds are weighed (see the class docs)
        self.beliefs = beliefs
        self.epsilon = float(epsilon)
        self._heuristic = HeuristicAgent(self.seed)
        self._search: Search | None = None
        self._named: dict[int, Search] = {}  # an auction's searches, by the suit named

    @property
    def playouts(self) -> int:
        """Worlds per decision at most."""
        return self.budget.playouts

    @property
    def time_limit(self) -> float | None:
        """Seconds after which no new world is started (None: no limit)."""
        return self.budget.time_limit

    @property
    def max_plays(self) -> int:
        """Rollout card plays per decision after which no new world is started."""
        return self.budget.max_plays

    def setup(self, variant: Variant, seat: int) -> None:
        """Learn the rules and the seat before a match (drivers call this)."""
        super().setup(variant, seat)
        self._heuristic.setup(variant, seat)
        model = self._heuristic.act if self.beliefs == "heuristic" else None
        # a variant whose histories heartslib.inference cannot read is played by the heuristic, as the class docs
        # say
        self._search = Search(variant, self.budget, model=model, epsilon=self.epsilon,
                              endgame=self.endgame, shoot=self.shoot) if reads(variant) else None
        self._named = {}

    def __repr__(self) -> str:
        level, (playouts, max_plays) = ("", LEVELS["default"]) if self.level == "default" else (
            f", level={self.level!r}", LEVELS[self.level])
        extra = "" if self.time_limit is None else f", time_limit={self.time_limit}"
        if self.max_plays != max_plays:
            extra += f", max_plays={self.max_plays}"
        if self.beliefs != "uniform":
            extra += f", beliefs={self.beliefs!r}, epsilon={self.epsilon}"
        if self.endgame != ENDGAME_TRICKS:
            extra += f", endgame={self.endgame}"
        if not self.shoot:
            extra += ", shoot=False"
        if level:
            return f"SearchAgent(seed={self.seed}{level}" + (
                "" if self.playouts == playouts else f", playouts={self.playouts}") + f"{extra})"
        return f"SearchAgent(seed={self.seed}, playouts={self.playouts}{extra})"

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The search's choice among ``legal_actions`` (see the class docs)."""
        obs = observation
        self._learn(obs)
        search = self._search
        if search is None or (obs.phase == Phase.DECIDE and obs.decision == "pass"):
            return self._heuristic.act(obs, legal_actions)
        if self.variant is not None and self.variant.scoring.settlement == Settlement.AUCTION:
            # an auction's bid and naming are the heuristic's (a world cannot be dealt before the suit is named);
            # the play is searched with the named suit's penalty cards
            if obs.penalty_suit is None:
                return self._heuristic.act(obs, legal_actions)
            search = self._search_for(obs.penalty_suit)
        try:
            if obs.phase == Phase.PASS:
                if not self.search_passes or obs.passing in (SCATTER, STAR):
                    return self._heuristic.act(obs, legal_actions)
                passes = self._pass_candidates(obs, legal_actions)
                if len(passes) == 1:
                    return passes[0]
                return search.choose_pass(obs, passes, self.rng(obs), self._their_pass,
                                          self._seeking_passes(obs, legal_actions, passes, search))
            candidates = search.play_candidates(obs, legal_actions)
            if len(candidates) == 1:
                return candidates[0]
            return search.choose(obs, candidates, self.rng(obs))
        except (ImpossibleHistory, NotImplementedError, RuntimeError):
            # a position the sampler cannot rebuild (an engine hook still missing): play sensibly anyway
            return self._heuristic.act(obs, legal_actions)

    def _search_for(self, named: Suit) -> Search:
        """The search of an auction's hands whose named suit is ``named`` (one per suit, made when first needed)."""
        found = self._named.get(int(named))
        if found is None:
            base = self._search
            assert base is not None and self.variant is not None
            found = self._named[int(named)] = Search(self.variant, self.budget, model=base.model,
                                                     epsilon=self.epsilon, endgame=self.endgame, named=named,
                                                     shoot=self.shoot)
        return found

    def _pass_candidates(self, obs: Observation, legal_actions: Sequence[Action]) -> list[Action]:
        """The heuristic's pass and its neighbours: every choice of ``k`` among its ``k + 2`` likeliest cards."""
        v = self.variant
        assert v is not None
        heuristic = self._heuristic.act(obs, legal_actions)
        assert isinstance(heuristic, Pass)
        k = obs.pass_count
        think = _Think(v, obs, self._draws(obs))
        hand = [c.index for c in obs.hand]
        scored = sorted({c.index for c in passable(v.rules, obs.hand)},
                        key=lambda c: -think.pass_score(c, remaining=hand, left=k))
        pool = sorted(set(scored[: k + 2]) | {c.index for c in heuristic.cards}, key=scored.index)
        out: list[Action] = [heuristic]
        seen = {frozenset(c.index for c in heuristic.cards)}
        for combo in itertools.combinations(pool, k):
            key = frozenset(combo)
            if key not in seen and len(key) == k:
                seen.add(key)
                action = pass_of(obs.seat, combo)
                if v.rules.pass_keep is None or action in legal_actions:
                    out.append(action)
        return out[:_MAX_PASS_CANDIDATES]

    def _seeking_passes(self, obs: Observation, legal_actions: Sequence[Action], passes: list[Action],
                        search: Search) -> list[Action]:
        """The passes the search also plays for the moon (``seeking`` of :meth:`Search.choose_pass`): where the
        moon-seeker's pass leaves at most :data:`heartslib.search.SEEK_PASS_LOSERS` losers, that pass and the
        heuristic's (``passes[0]``); otherwise none."""
        v = self.variant
        t = search.tables
        if not search.shoot or v is None or not t.moon_pays:
            return []
        found = _moon_pass(v, obs, legal_actions, t)
        if found is None or found[1] > SEEK_PASS_LOSERS:
            return []
        heuristic = passes[0]
        assert isinstance(heuristic, Pass)
        same = {c.index for c in found[0].cards} == {c.index for c in heuristic.cards}
        return [heuristic] if same else [heuristic, found[0]]

    def _their_pass(self, world: Round, seat: int) -> Action:
        """Another seat's pass in a sampled world: the heuristic's."""
        assert self.variant is not None
        other = HeuristicAgent(self.seed + 1 + seat)
        other.setup(self.variant, seat)
        return other.act(world.observation(seat), LazyActions(world, seat))


#: Passes compared at most by the search player (the heuristic's and its neighbours).
_MAX_PASS_CANDIDATES = 10


class SearchFactory:
    """``seed -> SearchAgent`` with a fixed budget: an agent spec for :func:`heartslib.simulate` that a
    process pool can pickle (the command line's ``--playouts`` and ``--time-limit`` build one).

    >>> SearchFactory(playouts=8)(3)
    SearchAgent(seed=3, playouts=8)
    >>> SearchFactory(playouts=8).__name__
    'search(playouts=8)'
    """

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, time_limit: float | None = None) -> None:
        Budget(playouts, DEFAULT_MAX_PLAYS, time_limit)  # check the budget now, not in a worker
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


#: The built-in agents by name (what ``heartslib simulate --agents`` accepts).
AGENTS: dict[str, type[BaseAgent]] = {"random": RandomAgent, "heuristic": HeuristicAgent, "moon": MoonAgent,
                                      "defending": DefendingAgent, "search": SearchAgent}
