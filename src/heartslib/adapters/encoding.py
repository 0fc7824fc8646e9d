"""The encoding both adapters share: one observation vector, one action index space.

Everything here is pure Python (no NumPy), so it can be used and tested
without the adapter extras.

Actions
-------
A variant's action space is ``Discrete(Encoding.num_actions)``:

===========  ==============================================================
index        meaning
===========  ==============================================================
0-54         a card, by its index in :mod:`heartslib.cards` (``QS`` is 49):
             *play* it during the play phase, *pass* it during the pass
55 …         the decision options of this variant, in the fixed order of
             :attr:`Encoding.options`: for a dealer's-choice schedule
             ``"hold"`` then ``"<count> <direction>"`` for every count and
             direction (``"1 left"``, ``"1 across"``, …); for
             ``moon.kind = "choice"`` ``"old"``, ``"new"``; for jokers that
             lead by calling a suit ``"clubs"`` … ``"spades"``; for exposable
             cards (``scoring.exposable``) ``"none"`` then every set of them
             (``"AH"``, …, ``"AH QS"``, …), smaller sets first
===========  ==============================================================

The standard game has no decisions, so its space is exactly the 55 card
indices. The simultaneous pass becomes *hidden sequential single-card
choices* (as OpenSpiel's ``hearts`` does it): the seats still to pass
choose in turn, lowest seat first, one card at a time; nobody sees
another seat's choices; the real :class:`~heartslib.Pass` is applied for
a seat as soon as it has chosen all its cards, and the engine exchanges
when the last seat has passed. For scatter and star passes the order of
the choices is the order of the :class:`~heartslib.Pass` (the first card
goes to the first opponent on).

Observation vector
------------------
Seats are *relative*: slot ``r`` of a per-seat section is the seat ``r``
places after the observer in the direction of play (slot 0 is the
observer, slot 1 the player on its left). Card sections have 55 entries in
card-index order and hold counts (0, 1, or 2 with two decks). The sections,
in order (see :meth:`Encoding.layout`):

=======================  ======  ================================================
section                  size    content
=======================  ======  ================================================
``phase``                4       one-hot: decide, pass, play, over
``decision``             3       one-hot kind of pending decision: pass, moon, suit
                                 (4 with exposable cards: expose)
``acting``               1       1 when this seat must act now
``hand``                 55      the cards held (minus hidden pass choices so far)
``played``               n×55    cards seen played this round, per relative seat
``trick``                n×55    the current trick's cards, per relative seat
``leader``               n       one-hot relative leader of the current trick
``led_suit``             4       one-hot suit led (♣ ♦ ♥ ♠) in the current trick
``passed``               55      the cards this seat passed (or has chosen so far)
``received``             55      the cards this seat received in the exchange
``pass_direction``       n+4     one-hot: relative offset (slot 0 = hold), then
                                 scatter, star, shuffle, dealer's choice
``pass_count``           1       cards passed this hand / hand size
``dealer``               n       one-hot relative dealer
``hand_sizes``           n       cards held per relative seat / hand size
``tricks_won``           n       tricks won per relative seat / hand size
``hearts_broken``        1       1 once hearts are broken (always with no breaking)
``kitty``                55      kitty cards this seat was allowed to see
``scores``               n       match totals before this round / 100
``round_points``         n       this round's points per relative seat / 100: the
                                 card values of the tricks each took so far
                                 (kitty cards, multipliers and the moon
                                 excluded), the scored points once it is over
``scores_imag``          n       complex scores only (complex hearts): the
``round_points_imag``    n       imaginary parts of the two sections above
``exposed``              55      exposable cards only (``scoring.exposable``): the
                                 cards exposed this hand
=======================  ======  ================================================

Rewards (:meth:`Encoding.rewards`): when a round ends each seat gets
**minus** its points for the round, so higher is better; where the highest
score wins (``end.winner = "highest"``, Gong Zhu) the sign flips, and
where the magnitude counts (``end.measure = "magnitude"``, complex hearts)
a seat gets the decrease of its score's magnitude.

>>> import heartslib as hl
>>> enc = Encoding(hl.preset("standard"))
>>> enc.size, enc.num_actions, enc.layout()["hand"]
(706, 55, (8, 63))
>>> m = hl.Match(hl.preset("standard"), seed=7)
>>> vec = enc.encode(m.observation(0))
>>> sum(vec[8:63]), enc.action_text(49), enc.action_id(hl.Play(0, hl.Card("QS")))
(13.0, 'QS', 49)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any, Final

from heartslib.actions import Action, Choose, Pass, Play
from heartslib.cards import NUM_CARD_INDICES, Card, card_order
from heartslib.engine.args import check_seat
from heartslib.engine.dealing import dealers_choice_options
from heartslib.engine.legality import pass_extensions
from heartslib.engine.tables import SUIT_NAMES
from heartslib.enums import (
    DEALERS_CHOICE,
    HOLD,
    SCATTER,
    SHUFFLE,
    STAR,
    JokerLead,
    Measure,
    MoonKind,
    Offset,
    PassDirection,
    Phase,
    Settlement,
    Winner,
    pass_name,
)
from heartslib.errors import IllegalAction, VariantError, arg_text
from heartslib.match import Match
from heartslib.observation import Observation
from heartslib.points import Score, score_text
from heartslib.presets import preset
from heartslib.round import Round
from heartslib.scoring import exposure_doubles, moon_options
from heartslib.variant import Variant, expect_variant

__all__ = ["CARD_ACTIONS", "MOON_OPTIONS", "SUIT_OPTIONS", "Encoding", "Turns", "resolve_variant", "table_text"]

#: Action indices 0..54 are cards (played or passed, by phase).
CARD_ACTIONS: Final = NUM_CARD_INDICES
#: The options of the shooter's choice (``moon.kind = "choice"``).
MOON_OPTIONS: Final = tuple(str(option) for option in moon_options())
#: The suits a joker's leader may call (``deck.joker_lead = "call_suit"``).
SUIT_OPTIONS: Final = SUIT_NAMES
#: Observation values that are scores are divided by this.
SCORE_SCALE: Final = 100.0

_PHASES: Final = (Phase.DECIDE, Phase.PASS, Phase.PLAY, Phase.OVER)
_DECISIONS: Final = ("pass", "moon", "suit")
_SPECIAL: Final[tuple[PassDirection, ...]] = (SCATTER, STAR, SHUFFLE, DEALERS_CHOICE)
_CARDS: Final = tuple(Card.from_index(i) for i in range(NUM_CARD_INDICES))


def resolve_variant(variant: str | Path | Variant) -> Variant:
    """A :class:`~heartslib.Variant` from a preset name, a ``.toml`` path or TOML text, or a Variant.

    >>> resolve_variant("black_lady").name
    'standard'
    >>> resolve_variant('players = 3\\n[passing]\\nschedule = "left_right"\\n').players
    3
    """
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, Path):
        return Variant.from_toml(variant)
    if isinstance(variant, str):
        if "\n" in variant or variant.strip().endswith(".toml"):
            return Variant.from_toml(variant)
        return preset(variant)
    raise VariantError("", f"expected a preset name, a .toml path, TOML text or a Variant, not {variant!r}")


def decision_options(v: Variant) -> tuple[str, ...]:
    """Every :class:`~heartslib.Choose` option this variant can offer, in a fixed order."""
    rules = v.rules
    n = v.players
    options: list[str] = []
    if DEALERS_CHOICE in rules.schedule:
        options += dealers_choice_options(n, rules.pass_cards)
    if v.moon.kind == MoonKind.CHOICE:
        options += MOON_OPTIONS
    elif v.moon.kind == MoonKind.LOT:  # going for the lot: zero the shooter's total or double the others'
        options += [str(option) for option in moon_options(MoonKind.LOT)]
    if rules.valueless and rules.joker_lead == JokerLead.CALL_SUIT:
        options += SUIT_OPTIONS
    if rules.exposable:
        cards = sorted(rules.exposable, key=card_order.__getitem__)
        options.append("none")
        for size in range(1, len(cards) + 1):
            options += [" ".join(_CARDS[c].code for c in combo) for combo in combinations(cards, size)]
    return tuple(options)


class Encoding:
    """The observation vector and action indices of one variant (see the module docs).

    Sizes depend only on the variant, so one network fits every seat and
    every deal of it.
    """

    __slots__ = (
        "_bounds",
        "_offsets",
        "_option_ids",
        "_sections",
        "complex",
        "decisions",
        "decks",
        "hand_size",
        "n",
        "num_actions",
        "options",
        "size",
        "step",
        "values",
        "variant",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = expect_variant(variant)
        if variant.scoring.settlement == Settlement.AUCTION:
            # each hand's penalty suit is bid for and named: the card values below, the decision kinds and the
            # options are the variant's, and no section holds the bids or the named suit
            raise VariantError("scoring.settlement", f"the encoding does not describe {variant.name}: an auction "
                               "(scoring.settlement = \"auction\") bids for and names each hand's penalty suit, "
                               "which its observation vector and action indices do not hold")
        rules = variant.rules
        n = variant.players
        self.n = n
        self.step = rules.step
        self.decks = rules.decks
        self.hand_size = rules.hand_size
        self.values: tuple[Score, ...] = tuple(rules.value)
        self.complex: bool = rules.complex
        """Whether scores can be complex numbers (then ``*_imag`` sections are added)."""
        self.decisions: tuple[str, ...] = _DECISIONS + (("expose",) if rules.exposable else ())
        """The kinds of decision the ``decision`` section one-hot encodes, in order."""
        self.options: tuple[str, ...] = decision_options(variant)
        """The decision options, in action-index order from 55."""
        self._option_ids = {o: CARD_ACTIONS + i for i, o in enumerate(self.options)}
        self.num_actions: int = CARD_ACTIONS + len(self.options)
        """The size of the ``Discrete`` action space."""
        c = NUM_CARD_INDICES
        d = float(self.decks)
        inf = float("inf")
        self._sections: tuple[tuple[str, int, float, float], ...] = (
            ("phase", 4, 0.0, 1.0),
            ("decision", len(self.decisions), 0.0, 1.0),
            ("acting", 1, 0.0, 1.0),
            ("hand", c, 0.0, d),
            ("played", n * c, 0.0, d),
            ("trick", n * c, 0.0, d),
            ("leader", n, 0.0, 1.0),
            ("led_suit", 4, 0.0, 1.0),
            ("passed", c, 0.0, d),
            ("received", c, 0.0, d),
            ("pass_direction", n + len(_SPECIAL), 0.0, 1.0),
            ("pass_count", 1, 0.0, 1.0),
            ("dealer", n, 0.0, 1.0),
            ("hand_sizes", n, 0.0, 1.0),
            ("tricks_won", n, 0.0, 1.0),
            ("hearts_broken", 1, 0.0, 1.0),
            ("kitty", c, 0.0, d),
            ("scores", n, -inf, inf),
            ("round_points", n, -inf, inf),
        )
        if self.complex:
            self._sections += (("scores_imag", n, -inf, inf), ("round_points_imag", n, -inf, inf))
        if rules.exposable:
            self._sections += (("exposed", c, 0.0, 1.0),)
        offsets: dict[str, int] = {}
        pos = 0
        for name, size, _, _ in self._sections:
            offsets[name] = pos
            pos += size
        self._offsets = offsets
        self.size: int = pos
        """The length of the observation vector."""
        low: list[float] = []
        high: list[float] = []
        for _, size, lo, hi in self._sections:
            low += [lo] * size
            high += [hi] * size
        self._bounds = (tuple(low), tuple(high))

    # ------------------------------------------------------------------ layout

    def layout(self) -> dict[str, tuple[int, int]]:
        """Each section's ``(start, stop)`` in the observation vector."""
        return {name: (self._offsets[name], self._offsets[name] + size) for name, size, _, _ in self._sections}

    @property
    def low(self) -> tuple[float, ...]:
        """Lower bounds of the observation vector (``-inf`` for scores)."""
        return self._bounds[0]

    @property
    def high(self) -> tuple[float, ...]:
        """Upper bounds of the observation vector (``inf`` for scores)."""
        return self._bounds[1]

    # ------------------------------------------------------------------ actions

    def option_id(self, option: str) -> int:
        """The action index of a decision option."""
        try:
            return self._option_ids[option]
        except (KeyError, TypeError):  # TypeError: not even hashable
            raise ValueError(
                f"{option!r} is not a decision option of variant {self.variant.name!r} "
                f"(its options: {', '.join(self.options) or 'none'})"
            ) from None

    def action_id(self, action: Action) -> int:
        """The index of a one-card :class:`~heartslib.Play`/:class:`~heartslib.Pass` or a :class:`~heartslib.Choose`."""
        if isinstance(action, Play):
            return action.card.index
        if isinstance(action, Pass):
            if len(action.cards) != 1:
                raise ValueError(f"{action}: a pass is encoded one card at a time; split it into single cards")
            return action.cards[0].index
        if not isinstance(action, Choose):
            raise IllegalAction("not_an_action", f"{arg_text(action)} is not an action (Pass, Play or Choose)")
        return self.option_id(action.option)

    def card(self, action_id: int) -> Card:
        """The card of a card action index."""
        action_id = _action_index(action_id)
        if not 0 <= action_id < CARD_ACTIONS:
            raise ValueError(f"action {action_id} is not a card action (cards are 0..{CARD_ACTIONS - 1})")
        return _CARDS[action_id]

    def option(self, action_id: int) -> str:
        """The decision option of an action index from 55 on."""
        action_id = _action_index(action_id)
        if not CARD_ACTIONS <= action_id < self.num_actions:
            raise ValueError(f"action {action_id} is not a decision option of variant {self.variant.name!r}")
        return self.options[action_id - CARD_ACTIONS]

    def action_text(self, action_id: int) -> str:
        """``"QS"`` for a card, ``"choose old"`` for a decision."""
        action_id = _action_index(action_id)
        if 0 <= action_id < CARD_ACTIONS:
            return _CARDS[action_id].code
        return "choose " + self.option(action_id)

    # ------------------------------------------------------------------ observations

    def encode(self, obs: Observation, *, pending: Sequence[Card] = (), acting: bool | None = None) -> list[float]:
        """The observation vector of ``obs``.

        ``pending`` are the cards this seat has chosen so far in a hidden
        sequential pass (shown as passed, no longer in hand); ``acting``
        overrides ``obs.my_turn`` (while passing, only one seat chooses at a time).
        """
        ones, others = self._entries(obs, pending, acting)
        vec = [0.0] * self.size
        for i in ones:
            vec[i] += 1.0
        for i, x in others:
            vec[i] += x
        return vec

    def encode_array(self, obs: Observation, *, pending: Sequence[Card] = (), acting: bool | None = None) -> Any:
        """:meth:`encode` as a float32 numpy array (numpy needed), built from the vector's few non-zero entries
        rather than from a list of ``size`` floats (converting that list was a third of a PettingZoo step).

        ``Observation`` has no ``__array__``: it does not know its variant, whose encoding decides the
        vector's layout, and the observation module sits below the variant in the layers."""
        import numpy as np  # here: this module stays pure Python for everything else

        ones, others = self._entries(obs, pending, acting)
        out = np.bincount(np.array(ones, dtype=np.intp), minlength=self.size).astype(np.float32)
        if others:
            index, values = zip(*others, strict=True)
            out += np.bincount(np.array(index, dtype=np.intp), weights=values, minlength=self.size)
        return out

    def _entries(self, obs: Observation, pending: Sequence[Card], acting: bool | None
                 ) -> tuple[list[int], list[tuple[int, float]]]:
        """The vector of ``obs`` as the positions that each add 1 (a card twice with two decks) and the
        ``(position, value)`` pairs of everything else; every other position is 0."""
        _check_observation(obs)
        o = self._offsets
        n = self.n
        me = obs.seat
        step = self.step
        c = NUM_CARD_INDICES
        ones = [o["phase"] + _PHASES.index(obs.phase)]
        if obs.decision is not None:
            ones.append(o["decision"] + self.decisions.index(obs.decision))
        if obs.my_turn if acting is None else acting:
            ones.append(o["acting"])
        hand, passed = o["hand"], o["passed"]
        ones += [hand + card.index for card in obs.hand]
        others = [(hand + card.index, -1.0) for card in pending]
        ones += [passed + card.index for card in pending]
        ones += [passed + card.index for card in obs.passed or ()]
        ones += [o["received"] + card.index for card in obs.received or ()]
        played = o["played"]
        ones += [played + ((seat - me) * step % n) * c + card.index
                 for trick in obs.tricks for seat, card in trick.plays]
        current = o["trick"]
        for seat, card in obs.trick:
            r = (seat - me) * step % n
            ones += (played + r * c + card.index, current + r * c + card.index)
        if obs.trick and obs.leader is not None:
            ones.append(o["leader"] + (obs.leader - me) * step % n)
        if obs.led_suit is not None:
            ones.append(o["led_suit"] + int(obs.led_suit))
        ones.append(o["pass_direction"] + self._pass_slot(obs.passing))
        size = float(self.hand_size)
        others.append((o["pass_count"], obs.pass_count / size))
        ones.append(o["dealer"] + (obs.dealer - me) * step % n)
        for seat in range(n):
            r = (seat - me) * step % n
            others += ((o["hand_sizes"] + r, obs.hand_sizes[seat] / size),
                       (o["tricks_won"] + r, obs.tricks_won[seat] / size))
        others += self._score_entries("scores", me, obs.scores)
        if obs.hearts_broken:
            ones.append(o["hearts_broken"])
        ones += [o["kitty"] + card.index for card in obs.kitty or ()]
        others += self._score_entries("round_points", me, self.visible_points(obs))
        if obs.exposed:
            ones += sorted({o["exposed"] + card.index for card in obs.exposed})
        return ones, others

    def _pass_slot(self, d: PassDirection) -> int:
        """The slot of the ``pass_direction`` section for ``d``: the offset, 0 for a hold, then the others."""
        if isinstance(d, Offset):
            return d.k % self.n
        if d == HOLD:
            return 0
        return self.n + _SPECIAL.index(d)

    def _score_entries(self, section: str, me: int, values: Sequence[Score]) -> list[tuple[int, float]]:
        n = self.n
        step = self.step
        base = self._offsets[section]
        imag = self._offsets.get(section + "_imag")
        out: list[tuple[int, float]] = []
        for seat, value in enumerate(values):
            r = (seat - me) * step % n
            if isinstance(value, complex):
                out.append((base + r, value.real / SCORE_SCALE))
                if imag is not None:
                    out.append((imag + r, value.imag / SCORE_SCALE))
            else:
                out.append((base + r, value / SCORE_SCALE))
        return out

    def encode_deal(self, seat: int, *, dealer: int, dealt: Sequence[Card], scores: Sequence[Score],
                    passing: PassDirection, pass_count: int) -> list[float]:
        """The vector while the cards are still being dealt (OpenSpiel's chance nodes): only the
        cards dealt to ``seat`` so far, the dealer, the pass and the scores are known."""
        vec = [0.0] * self.size
        o = self._offsets
        n = self.n
        step = self.step
        for card in dealt:
            vec[o["hand"] + card.index] += 1.0
        vec[o["dealer"] + (dealer - seat) * step % n] = 1.0
        vec[o["pass_direction"] + self._pass_slot(passing)] = 1.0
        vec[o["pass_count"]] = pass_count / self.hand_size
        for i, x in self._score_entries("scores", seat, scores):
            vec[i] = x
        return vec

    def visible_points(self, obs: Observation) -> tuple[Score, ...]:
        """Points per seat as everyone can see them: the scored points once the round is over,
        else the card values of the tricks each seat took (cancelled tricks go to the next winner)."""
        _check_observation(obs)
        if obs.round_points is not None:
            return obs.round_points
        values = self.values
        doubled = exposure_doubles(self.variant.rules, {c.index for c in obs.exposed})
        points: list[Score] = [0] * self.n
        carry: Score = 0
        for trick in obs.tricks:
            pts: Score = carry
            for _, card in trick.plays:
                pts += values[card.index] * (2 if card.index in doubled else 1)
            if trick.winner is None:
                carry = pts
            else:
                points[trick.winner] += pts
                carry = 0
        return tuple(points)

    def rewards(self, before: Sequence[Score], points: Sequence[Score]) -> tuple[float, ...]:
        """Each seat's reward for a round that scored ``points`` on top of the totals ``before``
        (see the module docs: minus the points, higher is better).

        >>> import heartslib as hl
        >>> Encoding(hl.preset("standard")).rewards((0, 0, 0, 0), (26, 0, 0, 0))
        (-26.0, 0.0, 0.0, 0.0)
        >>> Encoding(hl.preset("gong_zhu")).rewards((0, 0, 0, 0), (-200, 100, 0, 0))
        (-200.0, 100.0, 0.0, 0.0)
        """
        end = self.variant.end
        sign = 1.0 if end.winner == Winner.HIGHEST else -1.0
        if end.measure == Measure.MAGNITUDE:
            return tuple(sign * (abs(b + p) - abs(b)) + 0.0 for b, p in zip(before, points, strict=True))
        # + 0.0 turns -0.0 into 0.0
        return tuple(sign * (p.real if isinstance(p, complex) else float(p)) + 0.0 for p in points)

    def observation_text(self, obs: Observation, *, pending: Sequence[Card] = (), acting: bool | None = None) -> str:
        """The same information as :meth:`encode`, as text (OpenSpiel's observation string)."""
        _check_observation(obs)
        if acting is None:
            acting = obs.my_turn
        held = list(obs.hand)
        for card in pending:
            held.remove(card)
        lines = [
            f"seat {obs.seat} of {obs.players} · dealer {obs.dealer} · pass {pass_name(obs.passing, obs.players)}"
            f" {obs.pass_count} · phase {obs.phase.value}"
            + (f" ({obs.decision})" if obs.decision else "")
            + (" · to act" if acting else ""),
            "hand: " + _cards_text(held),
        ]
        passed = list(obs.passed or ()) + list(pending)
        if passed:
            lines.append("passed: " + _cards_text(sorted(passed)))
        if obs.received is not None:
            lines.append("received: " + _cards_text(obs.received))
        seen: dict[int, list[Card]] = {s: [] for s in range(obs.players)}
        for trick in obs.tricks:
            for seat, card in trick.plays:
                seen[seat].append(card)
        for seat, card in obs.trick:
            seen[seat].append(card)
        if any(seen.values()):
            lines.append("played: " + " | ".join(f"{s}: {_cards_text(sorted(cs))}" for s, cs in seen.items()))
        if obs.trick:
            lines.append("trick: " + " ".join(f"{s}:{card.code}" for s, card in obs.trick))
        if obs.kitty:
            lines.append("kitty seen: " + _cards_text(obs.kitty))
        if obs.exposed:
            lines.append("exposed: " + _cards_text(obs.exposed))
        lines.append(
            "tricks won: " + " ".join(map(str, obs.tricks_won))
            + " · hand sizes: " + " ".join(map(str, obs.hand_sizes))
            + (" · hearts broken" if obs.hearts_broken else "")
        )
        lines.append(
            "scores: " + " ".join(map(score_text, obs.scores))
            + " · points: " + " ".join(map(score_text, self.visible_points(obs)))
        )
        return "\n".join(lines)


def _action_index(action_id: Any) -> int:
    """``action_id`` as an ``int`` (a NumPy integer too); :class:`~heartslib.IllegalAction`
    (``illegal_action_index``) for anything that is not a whole number."""
    if type(action_id) is int:
        return action_id
    if not isinstance(action_id, bool):
        try:
            return operator.index(action_id)
        except TypeError:
            pass
    raise IllegalAction("illegal_action_index", f"an action index is a whole number, not {arg_text(action_id)}")


def _check_observation(obs: object) -> None:
    if not isinstance(obs, Observation):
        raise IllegalAction("bad_argument", f"expected an Observation (round.observation(seat)), got {arg_text(obs)}")


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards) or "-"


def table_text(rnd: Round, *, chooser: int | None = None, pending: Sequence[Card] = (), title: str = "") -> str:
    """The whole table as text (every hand shown): the ``ansi`` render and OpenSpiel's ``str(state)``.

    ``chooser`` and ``pending`` describe a hidden sequential pass in progress.
    """
    if not isinstance(rnd, Round):
        raise IllegalAction("bad_argument", f"expected a Round, got {arg_text(rnd)}")
    n = rnd.n
    v = rnd.variant
    acting = rnd.to_act
    head = title or v.name
    lines = [
        f"{head} · hand {rnd.hand_number} · dealer {rnd.dealer} · pass {pass_name(rnd.passing, n)} "
        f"{rnd.pass_count} · phase {rnd.phase.value}"
        + (f" ({rnd.decision}: {', '.join(rnd.options)})" if rnd.decision else "")
    ]
    if rnd.phase == Phase.PASS and chooser is not None:
        lines[0] += f" · seat {chooser} choosing"
    elif acting:
        lines[0] += " · to act: " + " ".join(map(str, acting))
    received = rnd.received
    points = rnd.points
    for seat in range(n):
        row = f"{seat}: {_cards_text(rnd.hand(seat))}"
        if seat == chooser and pending:
            row += f"  (choosing {_cards_text(pending)})"
        if received is not None and received[seat]:
            row += f"  (received {_cards_text(received[seat])})"
        row += f"  · tricks {rnd.tricks_won[seat]}"
        if points is not None:
            row += f" · points {score_text(points[seat])}"
        lines.append(row)
    if rnd.kitty:
        lines.append("kitty: " + _cards_text(rnd.kitty))
    if rnd.exposed:
        lines.append("exposed: " + _cards_text(rnd.exposed))
    for trick in rnd.tricks:
        plays = " ".join(f"{s}:{card.code}" for s, card in trick.plays)
        lines.append(f"trick {trick.number + 1}: {plays} -> {'cancelled' if trick.winner is None else trick.winner}")
    if rnd.trick:
        lines.append("current trick: " + " ".join(f"{s}:{card.code}" for s, card in rnd.trick))
    lines.append("scores before this hand: " + " ".join(map(score_text, rnd.scores)))
    return "\n".join(lines)


class Turns:
    """A :class:`~heartslib.Round` or :class:`~heartslib.Match` played one seat at a time by action index.

    The simultaneous pass becomes hidden single-card choices (see the module
    docs); everything else maps one action index to one engine action.

    >>> import heartslib as hl
    >>> v = hl.preset("standard")
    >>> t = Turns(Encoding(v), hl.Round.deal(v, seed=1))
    >>> seat = t.current()
    >>> seat, len(t.legal_ids(seat))
    (0, 13)
    >>> t.apply_id(seat, t.legal_ids(seat)[0]) is None   # one card chosen, the pass not complete yet
    True
    >>> t.current(), len(t.legal_ids(0))
    (0, 12)
    """

    __slots__ = ("encoding", "game", "pending")

    def __init__(self, encoding: Encoding, game: Round | Match) -> None:
        if not isinstance(encoding, Encoding):
            raise IllegalAction("bad_argument", f"expected an Encoding, got {arg_text(encoding)}")
        if not isinstance(game, Round | Match):
            raise IllegalAction("bad_argument", f"expected a Round or a Match, got {arg_text(game)}")
        self.encoding = encoding
        self.game = game
        self.pending: list[Card] = []
        """The cards the seat now choosing has chosen so far in the hidden pass."""

    @property
    def round(self) -> Round:
        """The round being played (the last one once a match is over)."""
        game = self.game
        return game.round if isinstance(game, Match) else game

    def copy(self) -> Turns:
        """An independent copy (the engine state copied with its cheap ``copy``)."""
        new = Turns(self.encoding, self.game.copy())
        new.pending = self.pending[:]
        return new

    def current(self) -> int | None:
        """The seat to act now, or None when the game is over."""
        game = self.game
        if game.phase == Phase.OVER:
            return None
        return game.to_act[0]

    def legal_ids(self, seat: int) -> list[int]:
        """The legal action indices of ``seat``, ascending (empty when it is not that seat's turn)."""
        if seat != self.current():
            return []
        rnd = self.round
        phase = rnd.phase
        if phase == Phase.PLAY:
            # a set: with several valueless jokers (JK) in one deck, the engine lists JK once per copy
            return sorted({card.index for card in rnd.legal_cards(seat)})
        if phase == Phase.DECIDE:
            return sorted(self.encoding.option_id(o) for o in rnd.options)
        rules = rnd.rules
        # the cards that may join the pass chosen so far and still leave a legal pass to complete
        return sorted(set(pass_extensions([c.index for c in rnd.hand(seat)], [c.index for c in self.pending],
                                          rnd.pass_count, rules.forbidden, rules.pass_keep)))

    def completes_pass(self, seat: int) -> bool:
        """Whether ``seat``'s next choice completes its pass (and, if it is the last seat, the exchange)."""
        rnd = self.round
        return rnd.phase == Phase.PASS and seat == self.current() and len(self.pending) + 1 == rnd.pass_count

    def apply_id(self, seat: int, action_id: int, *, defer: bool = False) -> Action | None:
        """Apply ``seat``'s action index; return the engine action applied (None for a pass choice
        that does not yet complete the pass).

        With ``defer`` the engine action is returned but not applied (a pass choice
        is still recorded): OpenSpiel inserts chance nodes (a shuffle pass, the
        next deal) before the engine draws from its RNG, then applies it.
        Raises :class:`~heartslib.IllegalAction` for an index that is not legal now
        (``illegal_action_index``, also for one that is not a whole number) or a seat that does not act now.
        """
        action_id = _action_index(action_id)
        legal = self.legal_ids(seat)
        if action_id not in legal:
            current = self.current()
            if seat != current:
                check_seat(seat, self.encoding.n)
                raise IllegalAction("not_your_turn", f"seat {seat} does not act now (seat {current} does)")
            shown = self.encoding.action_text(action_id) if 0 <= action_id < self.encoding.num_actions else "?"
            raise IllegalAction(
                "illegal_action_index",
                f"seat {seat}: action {action_id} ({shown}) is not legal now; legal: "
                + " ".join(f"{i}={self.encoding.action_text(i)}" for i in legal),
            )
        rnd = self.round
        phase = rnd.phase
        action: Action
        if phase == Phase.PASS:
            self.pending.append(_CARDS[action_id])
            if len(self.pending) < rnd.pass_count:
                return None
            action = Pass(seat, tuple(self.pending))
            self.pending = []
        elif phase == Phase.PLAY:
            action = Play(seat, _CARDS[action_id])
        else:
            action = Choose(seat, self.encoding.option(action_id))
        if not defer:
            self.game.apply(action)
        return action

    def observe(self, seat: int) -> list[float]:
        """``seat``'s observation vector now."""
        obs, pending, acting = self._view(seat)
        return self.encoding.encode(obs, pending=pending, acting=acting)

    def observe_array(self, seat: int) -> Any:
        """``seat``'s observation vector now, as a float32 numpy array (:meth:`Encoding.encode_array`)."""
        obs, pending, acting = self._view(seat)
        return self.encoding.encode_array(obs, pending=pending, acting=acting)

    def observation_text(self, seat: int) -> str:
        """``seat``'s observation as text."""
        obs, pending, acting = self._view(seat)
        return self.encoding.observation_text(obs, pending=pending, acting=acting)

    def _view(self, seat: int) -> tuple[Observation, Sequence[Card], bool]:
        """``seat``'s observation, the cards it has chosen so far of a hidden pass, and whether it acts now."""
        current = self.current()
        pending = self.pending if seat == current and self.round.phase == Phase.PASS else ()
        return self.round.observation(seat), pending, seat == current

    def table_text(self, title: str = "") -> str:
        """The whole table as text."""
        current = self.current()
        return table_text(self.round, chooser=current, pending=self.pending, title=title)

