"""Per-seat event streams: everything a seat (or a spectator) may see of a match, in order, as events.

A program that shows a game to one player – a client of a game server, a
replay viewer, a bot that reacts to plays – wants what happens as it
happens, not a fresh observation to compare with the last one. A stream
gives it that: :func:`events_for` lists the events a seat may see,
:func:`spectator_events` those everyone may see. Each
:class:`StreamEvent` says what happened (a pass, a play, a trick taken, a
hand scored...), redacted for its viewer, and carries ``changes``: the
fields of the viewer's observation that it changed, as plain data
(:meth:`heartslib.Observation.to_dict`). The changes are worked out from
:meth:`~heartslib.Match.observation` itself, so a client that starts from
the first ``deal`` event and applies every event's changes
(:func:`follow`) holds exactly the observation the engine gives – and a
stream can show no more than the observation does.

>>> import heartslib as hl, random
>>> from heartslib import strategies as hst
>>> m = hl.Match(hl.preset("standard"), seed=7)
>>> rng = random.Random(1)
>>> for _ in range(30):
...     m.apply(hst.random_action(m, rng))
>>> events = events_for(m, 2)
>>> [e.kind.value for e in events[:7]]
['deal', 'pass', 'pass', 'pass', 'pass', 'exchange', 'play']
>>> events[1].cards is None or events[1].seat == 2   # another seat's pass shows no card
True
>>> follow(events) == m.observation(2).to_dict()
True

Redaction: another seat's pass shows only that it was made; the exchange
shows the viewer what it received; a kitty taken shows its cards only to
its taker where ``deck.kitty_seen_by_winner`` lets it look; a trick that
brings hidden cards with it (kitty cards) lists only the played cards and
no points. The spectator's view is the public part of an observation: the
fields in :data:`PRIVATE_FIELDS` are left out.

The server (:mod:`heartslib.server`) sends these events as JSON
(:meth:`StreamEvent.to_dict`); a live program follows a match with a
:class:`Follower`, which turns each new step of a match into events without
replaying it.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from typing import Any

import attrs

from heartslib.actions import Choose, Event, KittyTaken, MoonShot, Pass, PassesExchanged, Play, RoundScored, TrickWon
from heartslib.cards import Card
from heartslib.enums import Shot
from heartslib.errors import IllegalAction, arg_text
from heartslib.match import Match
from heartslib.points import Score
from heartslib.round import Round
from heartslib.serialize import observation_data, parse_score, public_value, read_direction, score_data

__all__ = [
    "PRIVATE_FIELDS",
    "EventKind",
    "Follower",
    "StreamEvent",
    "events_for",
    "follow",
    "replay_stream",
    "spectator_events",
    "visible_events",
]

#: The observation fields a spectator does not see (a seat's own cards and choices, and the cards it drew from a
#: stock, which may still be in its hand); the rest is public.
PRIVATE_FIELDS: tuple[str, ...] = ("seat", "hand", "passed", "received", "kitty", "options", "drawn")


class EventKind(enum.StrEnum):
    """What a :class:`StreamEvent` reports."""

    DEAL = "deal"
    """A hand was dealt: ``changes`` holds the viewer's whole view of the new hand."""
    PASS = "pass"
    """``seat`` chose its pass (``cards``: the viewer's own pass; None for another seat's)."""
    EXCHANGE = "exchange"
    """The passes changed hands (``cards``: what the viewer received; None for a spectator)."""
    PLAY = "play"
    """``seat`` played ``cards[0]``."""
    CHOOSE = "choose"
    """``seat`` made a decision: ``option``."""
    TRICK = "trick"
    """A trick was completed: ``seat`` took it (None: cancelled, its cards roll over); ``cards`` the cards
    taken that the viewer saw played; ``points`` the trick's worth to the taker as one value (None where it
    brought cards the viewer did not see)."""
    KITTY = "kitty"
    """``seat`` took cards from the kitty (``cards``: shown only to a taker allowed to look)."""
    MOON = "moon"
    """``seat`` shot the moon or the sun (``shot``), scored as ``option``."""
    SCORE = "score"
    """The hand was scored: ``points`` per seat."""
    END = "end"
    """The match is over: ``points`` are the totals, ``winners`` the winning seats (in an auction, ``chips``
    each seat's chips, which decide them)."""


def _cards_data(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [c.code for c in cards]


@attrs.frozen
class StreamEvent:
    """One event of a stream, as its viewer may see it."""

    number: int
    """Its place in the stream (0 for the first): a client that reconnects asks for the events from a number."""
    kind: EventKind
    """What happened."""
    seat: int | None = None
    """The seat that acted, took the trick or kitty, or shot (None for table-wide events)."""
    cards: tuple[Card, ...] | None = None
    """The event's cards the viewer may see (see :class:`EventKind`); None when it shows none."""
    option: str | None = None
    """A decision's option; how a moon or sun was scored."""
    shot: Shot | None = None
    """``moon`` or ``sun`` (``MOON`` events)."""
    points: tuple[Score, ...] | None = None
    """A hand's points (``SCORE``), the match totals (``END``), or a trick's worth as one value (``TRICK``)."""
    winners: tuple[int, ...] = ()
    """The winners (``END``)."""
    chips: tuple[int, ...] = ()
    """Each seat's chips at the end of an auction (``END`` of ``scoring.settlement = "auction"``: the winners
    are judged on them, and the observation shows only the chips before each hand); empty otherwise."""
    changes: Mapping[str, Any] = attrs.field(factory=dict)
    """The viewer's observation fields this event changed, as plain data (the keys of
    :meth:`heartslib.Observation.to_dict`); every field for ``DEAL``. Do not change it."""

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON data: cards as ``"QS"``, enums as their values, scores as
        :func:`heartslib.serialize.score_data` writes them."""
        return {
            "number": self.number,
            "kind": self.kind.value,
            "seat": self.seat,
            "cards": _cards_data(self.cards),
            "option": self.option,
            "shot": None if self.shot is None else self.shot.value,
            "points": None if self.points is None else [score_data(x) for x in self.points],
            "winners": list(self.winners),
            "chips": list(self.chips),
            "changes": dict(self.changes),
        }


def _check_viewer(viewer: int | None, players: int) -> None:
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < players):
        raise IllegalAction("no_such_seat", f"a viewer is a seat from 0 to {players - 1} (None: a spectator), "
                            f"not {viewer!r:.40}")


class _Redactor:
    """Turns one round's engine events into stream events for one viewer (None: a spectator), remembering
    the played cards of cancelled tricks (public, and taken later with the trick that wins them)."""

    def __init__(self, viewer: int | None, kitty_seen: bool) -> None:
        self.viewer = viewer
        self.kitty_seen = kitty_seen
        self.carried: list[Card] = []

    def event(self, e: Event) -> tuple[Any, ...]:
        """``(kind, seat, cards, option, shot, points)`` of one engine event as the viewer may see it."""
        viewer = self.viewer
        if isinstance(e, Play):
            return EventKind.PLAY, e.seat, (e.card,), None, None, None
        if isinstance(e, Pass):
            return EventKind.PASS, e.seat, e.cards if e.seat == viewer else None, None, None, None
        if isinstance(e, Choose):
            return EventKind.CHOOSE, e.seat, None, e.option, None, None
        if isinstance(e, PassesExchanged):
            return EventKind.EXCHANGE, viewer, None if viewer is None else e.received[viewer], None, None, None
        if isinstance(e, TrickWon):
            return self._trick(e)
        if isinstance(e, KittyTaken):
            shown = e.cards if self.kitty_seen and e.seat == viewer else None
            return EventKind.KITTY, e.seat, shown, None, None, None
        if isinstance(e, MoonShot):
            return EventKind.MOON, e.seat, None, e.outcome.value, e.kind, None
        assert isinstance(e, RoundScored)
        return EventKind.SCORE, None, None, None, None, e.points

    def _trick(self, e: TrickWon) -> tuple[Any, ...]:
        played = [card for _, card in e.plays]
        if e.winner is None:  # cancelled: its cards (and any kitty cards, unseen) go with the next trick won
            self.carried += played
            return EventKind.TRICK, None, (), None, None, None
        seen = tuple(played + self.carried)
        self.carried = []
        if Counter(seen) == Counter(e.taken):
            return EventKind.TRICK, e.winner, e.taken, None, None, (e.points,)
        return EventKind.TRICK, e.winner, seen, None, None, None


def visible_events(events: Iterable[Event], viewer: int | None, *, kitty_seen: bool = False) -> list[StreamEvent]:
    """One hand's engine events (:attr:`heartslib.Round.events`) as ``viewer`` may see them, numbered from 0 and
    without ``changes`` (``kitty_seen``: the variant's ``deck.kitty_seen_by_winner``). The redaction
    :func:`events_for` applies; the leak tests run it directly."""
    redactor = _Redactor(viewer, kitty_seen)
    out = []
    for i, e in enumerate(events):
        kind, seat, cards, option, shot, points = redactor.event(e)
        out.append(StreamEvent(i, kind, seat, cards, option, shot, points))
    return out


def view_data(rnd: Round, viewer: int | None, records: RecordCache | None = None) -> dict[str, Any]:
    """The viewer's observation of ``rnd`` as plain data (a spectator's without :data:`PRIVATE_FIELDS`);
    ``records`` (kept by the caller from one call to the next) reuses the data of the records it has met."""
    obs = rnd.observation(0 if viewer is None else viewer)
    data = observation_data(obs) if records is None else records.observation_data(obs)
    if viewer is None:
        for name in PRIVATE_FIELDS:
            del data[name]
    return data


class RecordCache:
    """Plain data of the records an observation holds in tuples (its finished tricks), kept by identity.

    A hand's finished tricks are each built once and shared by every later observation, yet writing them out
    again after every card was most of a game server's work per action (13 tricks of 4 plays, for every
    subscriber); a trick met before costs a look-up here. Records are kept (so their ids stay theirs) until
    :meth:`clear`.
    """

    def __init__(self) -> None:
        self._data: dict[int, tuple[Any, dict[str, Any]]] = {}

    def clear(self) -> None:
        """Forget every record (a new hand: its tricks are new)."""
        self._data.clear()

    def _record(self, record: Any) -> dict[str, Any]:
        found = self._data.get(id(record))
        if found is None or found[0] is not record:
            found = self._data[id(record)] = (record, observation_data(record))
        return found[1]

    def observation_data(self, obs: Any) -> dict[str, Any]:
        """:func:`~heartslib.serialize.observation_data` of ``obs``, its tuples of records read through the
        cache."""
        held = {f.name: value for f in attrs.fields(type(obs))
                if isinstance(value := getattr(obs, f.name), tuple) and value and attrs.has(type(value[0]))}
        data = observation_data(attrs.evolve(obs, **dict.fromkeys(held, ())) if held else obs)
        for name, records in held.items():
            data[name] = [self._record(r) for r in records]
        return data

    def value_data(self, value: Any) -> Any:
        """One observation field as :func:`~heartslib.serialize.public_value` writes it, a tuple of records read
        through the cache."""
        if isinstance(value, tuple) and value and attrs.has(type(value[0])):
            return [self._record(r) for r in value]
        return public_value(value)


_MISSING = object()


class ViewCache:
    """One viewer's view of a hand as plain data, kept field by field beside the engine value each field was
    written from, so that following a hand writes and compares only the fields that changed.

    A stream needs, after every action, the fields of its viewer's observation that the action changed. Writing
    the whole observation as data and comparing it with the last was half of a game server's work per action,
    though most fields (the seat, the dealer, the pass, the totals before the hand, the tricks already taken)
    do not change within a hand: the engine gives back the same value, or an equal one, and such a field costs
    one comparison here. A field whose value changed is written (finished tricks through a
    :class:`RecordCache`) and compared as data with what it was, so :meth:`changes` gives exactly the fields
    in which the two views' data (:func:`view_data`) differ, in the same order.
    """

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer
        self._values: tuple[Any, ...] | None = None  # per field: the engine value its data was last written from
        self._data: dict[str, Any] = {}  # per field: the data the viewer holds
        self._records = RecordCache()
        self._names: tuple[str, ...] = ()  # the fields the viewer sees, in the observation's order
        self._read: Callable[[Any], tuple[Any, ...]] | None = None  # an observation's values of those fields

    def clear(self) -> None:
        """Forget the hand (a new one was dealt: :meth:`changes` then gives every field)."""
        self._values = None
        self._data.clear()
        self._records.clear()

    def changes(self, rnd: Round) -> dict[str, Any]:
        """The fields of the viewer's view of ``rnd`` that changed since the last call, as data (every field the
        first time after :meth:`clear`)."""
        obs = rnd.observation(0 if self.viewer is None else self.viewer)
        if self._read is None:
            names = self._names = tuple(f.name for f in attrs.fields(type(obs))
                                        if self.viewer is not None or f.name not in PRIVATE_FIELDS)
            # every field read in one call (this loop runs for every viewer after every action)
            self._read = attrgetter(*names) if len(names) > 1 else lambda o: (getattr(o, names[0]),)
        values, old_values, data = self._read(obs), self._values, self._data
        out: dict[str, Any] = {}
        for i, value in enumerate(values):
            if old_values is not None:
                old = old_values[i]
                # equal engine values write equal data (cards are interned, records compare field by field)
                if old is value or old == value:
                    continue
            name = self._names[i]
            new = self._records.value_data(value)
            if data.get(name, _MISSING) != new:
                data[name] = out[name] = new
        self._values = values
        return out


class Follower:
    """Follows a live match for one viewer: :meth:`update` gives the events since the last call.

    Call :meth:`update` after each :meth:`~heartslib.Match.apply` (or after several); the first call gives
    the current hand's ``deal`` event. A follower holds the viewer's last view and the hand it reads, not the
    events, so it costs the same late in a match as early.
    """

    def __init__(self, match: Match, viewer: int | None) -> None:
        _check_match(match)
        _check_viewer(viewer, match.variant.players)
        self.match = match
        self.viewer = viewer
        self.count = 0
        """Events given so far (the next event's number)."""
        self._round: Round | None = None
        self._read = 0
        self._redactor = _Redactor(viewer, match.variant.deck.kitty_seen_by_winner)
        self._ended = False
        self._view = ViewCache(viewer)

    def _emit(self, out: list[StreamEvent], kind: EventKind, seat: int | None = None,
              cards: tuple[Card, ...] | None = None, option: str | None = None, shot: Shot | None = None,
              points: tuple[Score, ...] | None = None, winners: tuple[int, ...] = (),
              chips: tuple[int, ...] = (), changes: dict[str, Any] | None = None) -> None:
        out.append(StreamEvent(self.count, kind, seat, cards, option, shot, points, winners, chips,
                               {} if changes is None else changes))
        self.count += 1

    def update(self) -> list[StreamEvent]:
        """The events since the last call (the first call: from the current hand's deal)."""
        m = self.match
        out: list[StreamEvent] = []
        while True:
            rnd = self._round
            if rnd is None:
                rnd = self._round = m.round
                self._read = 0
                self._redactor.carried = []
                self._view.clear()
                self._emit(out, EventKind.DEAL, changes=self._view.changes(rnd))
            events = rnd.events
            seen = [self._redactor.event(e) for e in events[self._read:]]
            self._read = len(events)
            # the change of view since the last update goes on the last event given from this hand
            changes = self._view.changes(rnd)
            for i, (kind, seat, cards, option, shot, points) in enumerate(seen, 1 - len(seen)):
                self._emit(out, kind, seat, cards, option, shot, points, changes=changes if i == 0 else None)
            if rnd is m.round:
                break
            self._round = None  # the hand is over and the next one dealt
        if m.is_over and not self._ended:
            self._ended = True
            self._emit(out, EventKind.END, points=m.scores, winners=m.winners, chips=m.chips)
        return out


def _check_match(match: object) -> None:
    if not isinstance(match, Match):
        hint = " (a stream follows a whole match: hl.Match, or Match.from_deal for set hands)" if isinstance(
            match, Round) else ""
        raise IllegalAction("bad_argument", f"expected a Match, not {arg_text(match)}{hint}")


def _start(m: Match) -> Match:
    """A new match at ``m``'s start (its seed, or its set deal), to replay its actions on."""
    save = m.to_dict()  # refuses a match dealt from scripted chance outcomes, which cannot be replayed
    deal = save["deal"]
    if deal is None:
        return Match(m.variant, m.seed, dealer=save["dealer"])
    return Match.from_deal(m.variant, deal["hands"], scores=[parse_score(x) for x in save["scores"]],
                           dealer=save["dealer"], hand_number=save["hand_number"], seed=m.seed,
                           kitty=deal["kitty"], passing=read_direction(deal["passing"]))


def replay_stream(match: Match, viewer: int | None) -> tuple[list[StreamEvent], Follower]:
    """The viewer's whole stream of ``match`` so far, and a :class:`Follower` that goes on from it on the live
    match (what a server hands a client that joins or reconnects). The match is replayed from its start."""
    _check_match(match)
    _check_viewer(viewer, match.variant.players)
    replay = _start(match)
    follower = Follower(replay, viewer)
    out = follower.update()
    for action in match.actions:
        replay.apply(action)
        out += follower.update()
    # the replay's current hand has the live hand's log: the follower reads on from the live match
    follower.match = match
    follower._round = match.round
    return out, follower


def events_for(match: Match, seat: int) -> list[StreamEvent]:
    """Every event ``seat`` may see of ``match`` from its start, in order (see the module docs).

    The match is replayed from its start, so a match dealt from scripted chance outcomes is refused
    (:class:`~heartslib.SaveError`, as its save is); a seat out of range raises
    :class:`~heartslib.IllegalAction` (``no_such_seat``).
    """
    if seat is None:
        raise IllegalAction("no_such_seat", "events_for takes a seat; spectator_events gives a spectator's view")
    return replay_stream(match, seat)[0]


def spectator_events(match: Match) -> list[StreamEvent]:
    """Every event anyone may see of ``match`` from its start, in order: no hand, pass or kitty card, and
    ``changes`` without :data:`PRIVATE_FIELDS`."""
    return replay_stream(match, None)[0]


def follow(events: Iterable[StreamEvent | Mapping[str, Any]], view: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The view a client holds after ``events`` (values or their :meth:`~StreamEvent.to_dict` data): a ``deal``
    starts a new view, every other event's changes update it. Start from ``view`` to continue one."""
    if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise IllegalAction("bad_argument", f"follow takes a sequence of events, not {arg_text(events)}")
    state: dict[str, Any] = dict(view or {})
    for i, e in enumerate(events):
        if isinstance(e, StreamEvent):
            kind, changes = e.kind.value, e.changes
        elif isinstance(e, Mapping) and isinstance(e.get("kind"), str) and isinstance(e.get("changes"), Mapping):
            kind, changes = e["kind"], e["changes"]
        else:  # data from a network: name the entry rather than fail on a missing key
            raise IllegalAction("bad_argument", f"event {i} is not a stream event (a StreamEvent, or its to_dict() "
                                f"data with a text 'kind' and a 'changes' object): {arg_text(e)}")
        if kind == EventKind.DEAL.value:
            state = {}
        state.update(changes)
    return state
