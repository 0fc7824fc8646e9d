"""The game server's tables and its protocol, without the web framework: :class:`Hub` reads each client
message (JSON text), answers it and sends every seat and spectator its events (docs/server.md describes the
messages). The ASGI app (:mod:`heartslib.server.app`) only carries text between a WebSocket and the hub.

Each table is a :class:`~heartslib.Match` in memory and its rows in the :class:`~heartslib.server.store.Store`.
An action is checked by the engine, committed to the store, applied, acknowledged, and then shown to every
subscriber through its :class:`~heartslib.streams.Follower`; a refused message changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import multiprocessing
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from math import comb
from typing import Any, TypeVar, overload

import attrs

from heartslib.actions import Action, Pass, action_from_dict
from heartslib.agents import HeuristicAgent, MoonAgent, RandomAgent, SearchAgent, actions_for, setup_agent
from heartslib.engine.legality import PassRules, pass_of
from heartslib.engine.tables import CARD, CODE
from heartslib.enums import Phase
from heartslib.errors import CardError, IllegalAction, SaveError, VariantError
from heartslib.match import Match
from heartslib.presets import preset
from heartslib.server.store import (
    RecordRefused,
    Store,
    StoreConflict,
    StoreUnavailable,
    TableRecord,
    export_record,
    in_progress,
    token_digest,
)
from heartslib.streams import Follower, StreamEvent, replay_stream
from heartslib.variant import Variant

__all__ = ["BATCHED_SEND", "MAX_MESSAGE", "Committer", "Connection", "Hub", "Limiter", "PassSpace", "ProtocolError",
           "Quotas", "agent_for", "check_agent_workers", "check_turn_timeout", "event_message", "pass_actions"]

#: The longest message the hub reads, in characters; a longer one is refused (``too_large``).
MAX_MESSAGE = 65536
#: The most playouts a search agent may be given per decision.
MAX_PLAYOUTS = 2000
#: How long a table's agents wait before trying again after a database failure, in seconds (doubled after each
#: failure in a row, up to :data:`RETRY_MAX`).
RETRY_FIRST = 0.05
RETRY_MAX = 5.0
#: The longest turn clock, in seconds (a week).
MAX_TURN_TIMEOUT = 7 * 24 * 3600.0
#: The largest seed a table may be created with (the stores keep it as a signed 64-bit integer).
MAX_TABLE_SEED = 2**63 - 1
#: At most this many legal passes are listed (they can run to millions: passing 6 of two decks' 26 cards is
#: 123,523); a ``legal`` reply describes the pass instead (``pass``: choose so many of these cards).
MAX_LISTED = 200

#: The ASGI scope extension by which a WebSocket server tells the app that its sends are only queued and what was
#: sent in one turn of the loop is written at once (``heartslib serve``'s protocol, in :mod:`heartslib.server.app`).
BATCHED_SEND = "heartslib.batched_send"
#: The most messages a connection's pump sends in one turn of the loop to such a server (the others yield after each).
BATCH = 64

_log = logging.getLogger("heartslib.server")

#: ``json.dumps(data, ensure_ascii=False)``, without making an encoder for each message.
_write_json = json.JSONEncoder(ensure_ascii=False).encode

Send = Callable[[str], Awaitable[None]]
"""How a connection sends one text message (a WebSocket's ``send_text``)."""


class ProtocolError(ValueError):
    """A message refused: ``code`` is stable (docs/server.md lists them), ``message`` says what was wrong."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[ProtocolError], tuple[str, str]]:
        # pickle and copy rebuild it from its own arguments (the default passes only the message to __init__)
        return (type(self), (self.code, self.message))


class Connection:
    """One client's connection: its outgoing messages, in order, and the seat or view it holds (None until it
    joins). Messages wait in :attr:`outbox` for :meth:`pump`, so that no table waits for a slow client and two
    tasks' messages never overtake each other."""

    def __init__(self, address: str | None = None) -> None:
        self.address = address  # the client's IP address (None: unknown), for the per-address quotas
        self.creates: deque[float] = deque()  # when this connection's recent tables were created (Limiter)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: int | None = None
        self.log: ViewerLog | None = None  # the stream of the seat or view the connection holds
        self.sent = 0  # how many of the log's events the connection has been sent (or was sent before)
        self.closed = False  # the client is gone: nothing more is queued or sent

    def send_data(self, data: Mapping[str, Any]) -> None:
        """Queue one message (none once the connection is closed)."""
        if self.closed:
            return
        text = _write_json(data)
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate a client sent (an id, an option quoted back): \\u-escaped
                text = json.dumps(data)
        self.outbox.put_nowait(text)

    def send_text(self, text: str) -> None:
        """Queue one message already written as JSON (none once the connection is closed)."""
        if not self.closed:
            self.outbox.put_nowait(text)

    async def pump(self, send: Send, *, batched: bool = False) -> None:
        """Send the queued messages with ``send`` until :meth:`close` or the client is gone. ``batched``: ``send``
        only queues each message, and what it queued in one turn of the loop is written at once (the
        :data:`BATCHED_SEND` extension of ``heartslib serve``'s WebSocket protocol), so up to :data:`BATCH`
        messages are sent in a row; otherwise one at a time."""
        limit = BATCH if batched else 1
        sent = 0  # messages sent since the loop last had a turn
        while True:
            text = await self.outbox.get()  # no turn of the loop while messages wait
            if text is None or self.closed:  # close() leaves None here
                return
            try:
                await send(text)
            except Exception:  # a client gone mid-send ends its pump, not the server
                self.close()
                return
            sent += 1
            if self.outbox.empty():
                sent = 0  # the get above waits: the loop has its turn
            elif sent >= limit:
                # a write to a vanished client "succeeds" until the transport's loss is handled on the loop's
                # next turn: yield to it between writes, or a long queue is written (and logged) to nobody
                await asyncio.sleep(0)
                sent = 0

    def close(self) -> None:
        """Stop :meth:`pump` at once, dropping what is still queued (the client is gone)."""
        self.closed = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(None)


def check_turn_timeout(value: float | None) -> float | None:
    """``value`` as a turn clock (seconds above 0, at most :data:`MAX_TURN_TIMEOUT`, or None: no clock); a
    ``ValueError`` that says so otherwise."""
    if value is not None and not (type(value) in (int, float) and 0 < value <= MAX_TURN_TIMEOUT):
        raise ValueError(f"turn_timeout is a number of seconds above 0 and at most {MAX_TURN_TIMEOUT:g} (or None: "
                         f"no clock), not {value!r:.40}")
    return value


def _product(a: list[int], b: list[int], ordered: bool, size: int) -> list[int]:
    """Two parts' counts by pass size (``[t]``: the ways to take ``t`` cards) joined, up to ``size`` cards; for
    ordered passes each way of the two is interleaved (``comb(t, i)`` orders of ``i`` cards among ``t``)."""
    out = [0] * (size + 1)
    for i, x in enumerate(a[:size + 1]):
        if x:
            for j, y in enumerate(b[:size + 1 - i]):
                out[i + j] += x * y * (comb(i + j, i) if ordered else 1)
    return out


def _orders(counts: Sequence[int]) -> int:
    """How many different orders ``counts[c]`` copies of each card make (a multinomial coefficient)."""
    out, total = 1, 0
    for k in counts:
        total += k
        out *= comb(total, k)
    return out


class PassSpace(Sequence[Pass]):
    """A seat's legal passes when its hand holds copies of a card (two decks), counted and unranked with their
    multiplicities, never listed: ``len`` and ``space[i]`` cost a few hundred small multiplications where
    :class:`~heartslib.engine.choices.PassChoices` lists every pass (230,230 combinations for 6 of 26 cards).

    The passes come in the space's own order (suit by suit as the hand first shows each, each card taken as
    often as possible first), not in :meth:`heartslib.Round.legal_actions`' order. The suit-keeping rule
    (``passing.keep_last_of_suit``) forbids exactly one way of taking each suit: all of it, when every card
    of it may be passed and one is not exempt, so each suit's counts leave out that one way.
    """

    def __init__(self, rules: PassRules) -> None:
        self.rules = rules
        held: dict[object, list[int]] = {}  # each suit's cards in the hand's order (a card once per copy)
        for c in rules.hand:
            held.setdefault(CARD[c].suit, []).append(c)
        #: per suit: its passable cards, each once, with how many copies may go, and whether taking them all
        #: breaks the suit-keeping rule
        self.groups: list[tuple[list[tuple[int, int]], bool]] = []
        for suit, cards in held.items():
            free = [c for c in cards if c not in rules.forbidden]
            distinct = list(dict.fromkeys(free))
            if distinct:
                whole = (rules.keep is not None and suit is not None and len(free) == len(cards)
                         and any(c not in rules.keep for c in free))
                self.groups.append(([(c, free.count(c)) for c in distinct], whole))
        k, ordered = rules.size, rules.ordered
        # per group: the counts of its cards from each one on (the last entry: none), without the rule's exclusion
        self._tails: list[list[list[int]]] = []
        for group, _ in self.groups:
            tails = [[1] + [0] * k]
            for _, copies in reversed(group):
                tails.insert(0, _product([1] * (copies + 1), tails[0], ordered, k))
            self._tails.append(tails)
        self._after = [[1] + [0] * k]  # the counts of the groups from each one on
        for g in range(len(self.groups) - 1, -1, -1):
            self._after.insert(0, _product(self._excluded(g, 0), self._after[0], ordered, k))

    def _excluded(self, g: int, j: int, whole: bool = True) -> list[int]:
        """The counts of group ``g``'s cards from the ``j``-th on, less taking all of them if the suit-keeping
        rule forbids it (and ``whole``: every card of the group before the ``j``-th is taken in full)."""
        cards, banned = self.groups[g]
        counts = self._tails[g][j]
        total = sum(copies for _, copies in cards[j:])
        if banned and whole and total <= self.rules.size:
            counts = counts[:]
            counts[total] -= _orders([copies for _, copies in cards[j:]]) if self.rules.ordered else 1
        return counts

    def __len__(self) -> int:
        return self._after[0][self.rules.size]

    @overload
    def __getitem__(self, index: int) -> Pass: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Pass]: ...

    def __getitem__(self, index: int | slice) -> Pass | Sequence[Pass]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        taken, index = self._multiset(index)
        return pass_of(self.rules.seat, self._ordering(taken, index) if self.rules.ordered
                       else [c for c, k in taken for _ in range(k)])

    def _multiset(self, index: int) -> tuple[list[tuple[int, int]], int]:
        """The cards of pass ``index`` (each with how many copies), and the index left for its ordering: card by
        card, each choice's completions counted from the rest of its group and the groups after it."""
        size, ordered = self.rules.size, self.rules.ordered
        taken: list[tuple[int, int]] = []
        t = 0
        for g, (cards, _) in enumerate(self.groups):
            after = self._after[g + 1]
            still_whole = True  # every card of the group so far taken in full
            for j, (card, copies) in enumerate(cards):
                for x in range(copies, -1, -1):
                    need = size - t - x
                    ways = 0
                    if need >= 0:
                        rest = self._excluded(g, j + 1, still_whole and x == copies)
                        ways = sum(rest[i] * after[need - i] * (comb(need, i) if ordered else 1)
                                   for i in range(need + 1) if rest[i])
                    if ordered and ways:
                        ways *= comb(size, need) * _orders([k for _, k in taken] + [x])
                    if index < ways:
                        break
                    index -= ways
                if x:
                    taken.append((card, x))
                t += x
                still_whole = still_whole and x == copies
        return taken, index

    @staticmethod
    def _ordering(taken: list[tuple[int, int]], index: int) -> list[int]:
        """The ``index``-th order of the cards ``taken`` (each with its copies)."""
        left = dict(taken)
        out: list[int] = []
        for _ in range(sum(left.values())):
            for card in left:
                if left[card]:
                    left[card] -= 1
                    ways = _orders(list(left.values()))
                    if index < ways:
                        out.append(card)
                        break
                    index -= ways
                    left[card] += 1
        return out

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Pass) and self.rules.problem(action) is None


def _pass_description(rules: PassRules) -> dict[str, Any]:
    """A pass as "choose ``choose`` of the cards ``from``" (docs/server.md), whatever the number of passes."""
    out: dict[str, Any] = {"choose": rules.size, "from": [CODE[c] for c in rules.hand if c not in rules.forbidden],
                           "ordered": rules.ordered, "keep_last_of_suit": rules.keep is not None}
    if rules.keep is not None:
        out["always_passable"] = [CODE[c] for c in sorted(rules.keep) if c in rules.hand]
    return out


def pass_actions(m: Match, seat: int) -> Sequence[Action]:
    """The legal actions to hand ``seat``'s agent (or to list in a ``legal`` reply): while passing from a hand
    with copies of a card, a :class:`PassSpace` (counted, never listed); else the engine's own
    (:func:`~heartslib.agents.actions_for`)."""
    if not m.is_over and m.round.phase is Phase.PASS and seat in m.to_act:
        rules = m.round.pass_rules(seat)
        if len(set(rules.hand)) < len(rules.hand):
            return PassSpace(rules)
    return actions_for(m, seat)


def agent_for(kind: str, seed: int) -> Any:
    """The built-in agent a seat's kind names: ``random``, ``heuristic``, ``moon`` or ``search:<playouts>``."""
    name, _, budget = kind.partition(":")
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(seed)
    if name == "moon":
        return MoonAgent(seed)
    if name == "search":
        return SearchAgent(seed, playouts=int(budget))
    raise ProtocolError("bad_seats", f"unknown agent {kind!r}: use random, heuristic, moon or search")


def _seat_kind(entry: Any, seat: int) -> str:
    """A ``create`` message's seat entry as a stored kind."""
    if entry is None or entry == "player":
        return "open"
    if entry in ("random", "heuristic", "moon"):
        return str(entry)
    if isinstance(entry, Mapping) and entry.get("agent") == "search" and set(entry) <= {"agent", "playouts"}:
        playouts = entry.get("playouts", 20)
        if type(playouts) is int and 1 <= playouts <= MAX_PLAYOUTS:
            return f"search:{playouts}"
        raise ProtocolError("bad_seats", f"seats[{seat}]: playouts is a whole number from 1 to {MAX_PLAYOUTS}, "
                            f"not {playouts!r:.40}")
    raise ProtocolError("bad_seats", f"seats[{seat}] is null or \"player\" (a player's seat), \"random\", "
                        f"\"heuristic\", \"moon\" or {{\"agent\": \"search\", \"playouts\": N}}, not {entry!r:.60}")


def _variant(data: Any) -> Variant:
    try:
        if isinstance(data, str):
            return preset(data)
        if isinstance(data, dict):
            return Variant.from_dict(data)
    except KeyError as exc:  # an unknown preset (UnknownVariant) names the close ones
        raise ProtocolError("bad_variant", str(exc.args[0]) if exc.args else str(exc)) from None
    except VariantError as exc:
        raise ProtocolError("bad_variant", str(exc)) from None
    raise ProtocolError("bad_variant", f"the variant is a preset's name or a table of fields, not {data!r:.60}")


def _int_field(message: Mapping[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = message.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise ProtocolError("bad_message", f"{key!r} is a whole number from {low} to {high}, not {value!r:.40}")
    return value


def _str_field(message: Mapping[str, Any], key: str) -> str:
    value = message.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise ProtocolError("bad_message", f"{key!r} is a non-empty text of at most 200 characters, not {value!r:.40}")
    return value


def event_message(table_id: str, event: StreamEvent) -> dict[str, Any]:
    """The message that carries one stream event to a client."""
    return {"type": "event", "table": table_id, "event": event.to_dict()}


def _since(message: Mapping[str, Any]) -> int:
    """The first event number a client asks for (0: the whole stream)."""
    return _int_field(message, "since", 0, 10**9, 0)


_T = TypeVar("_T")


def _limit(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and not (type(value) is int and 1 <= value <= 10**9):
        raise ValueError(f"{attribute.name} is a whole number from 1 to 1000000000 (or None: no limit), not "
                         f"{value!r:.40}")


@attrs.frozen
class Quotas:
    """What one client may create (docs/server.md; ``heartslib serve``'s options give these defaults): each
    limit None for none. ``open_tables``: the unfinished tables one connection, and one IP address, has
    created and may hold at once; ``creates_per_minute``: the tables each may create in any 60 seconds;
    ``agent_tables``: the unfinished agent-only tables (no player's seat) the process holds at once;
    ``agent_hands``: an agent-only table's variant must end within this many hands (``end.hands``).
    A loopback address (the machine itself, or a reverse proxy on it) is limited per connection only."""

    open_tables: int | None = attrs.field(default=10, validator=_limit)
    creates_per_minute: int | None = attrs.field(default=20, validator=_limit)
    agent_tables: int | None = attrs.field(default=20, validator=_limit)
    agent_hands: int | None = attrs.field(default=20, validator=_limit)


#: The window of :attr:`Quotas.creates_per_minute`, in seconds.
RATE_WINDOW = 60.0


def _limited_address(address: str) -> bool:
    """Whether the per-address quotas apply to ``address`` (not to a loopback one)."""
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:  # not an IP address (a test client's name): limited like any other
        return True


class Limiter:
    """Applies :class:`Quotas` to ``create`` requests: :meth:`check` before a table is made (refusing with
    ``quota_exceeded`` or ``rate_limited``, nothing changed), :meth:`note` once it is."""

    def __init__(self, quotas: Quotas | None) -> None:
        self.quotas = quotas
        self.clock: Callable[[], float] = time.monotonic
        self._recent: dict[str, deque[float]] = {}  # per limited address: when its recent tables were created

    def _window(self, times: deque[float]) -> deque[float]:
        while times and times[0] <= self.clock() - RATE_WINDOW:
            times.popleft()
        return times

    def check(self, conn: Connection, variant: Variant, agent_only: bool, tables: Iterable[Table]) -> None:
        """Refuse a table ``conn`` asks for if it would pass a limit (:class:`ProtocolError`)."""
        q = self.quotas
        if q is None:
            return
        live = [t for t in tables if not t.match.is_over]
        clients = [("this connection", sum(t.creator is conn for t in live), conn.creates)]
        address = conn.address
        if address is not None and _limited_address(address):
            clients.append((f"the address {address}", sum(t.address == address for t in live),
                            self._recent.get(address, deque())))
        for who, count, recent in clients:
            if q.open_tables is not None and count >= q.open_tables:
                raise ProtocolError("quota_exceeded", f"{who} holds {count} unfinished tables it created, the "
                                    f"limit ({q.open_tables}): finish one first")
            if q.creates_per_minute is not None and len(self._window(recent)) >= q.creates_per_minute:
                raise ProtocolError("rate_limited", f"{who} created {len(recent)} tables in the last minute, "
                                    f"the limit ({q.creates_per_minute}): try again in a minute")
        if agent_only:
            hands = variant.end.hands
            if q.agent_hands is not None and not 0 < hands <= q.agent_hands:
                raise ProtocolError("quota_exceeded", f"an agent-only table must end within {q.agent_hands} hands: "
                                    f"give its variant end.hands from 1 to {q.agent_hands}, or a player's seat")
            agents = sum(t.agent_only for t in live)
            if q.agent_tables is not None and agents >= q.agent_tables:
                raise ProtocolError("quota_exceeded", f"the server holds {agents} unfinished agent-only tables, "
                                    f"the limit ({q.agent_tables}): try again later, or give the table a player")

    def note(self, conn: Connection) -> None:
        """Count a table ``conn`` created (for :attr:`Quotas.creates_per_minute`)."""
        now = self.clock()
        conn.creates.append(now)
        if conn.address is not None and _limited_address(conn.address):
            self._recent.setdefault(conn.address, deque()).append(now)
        for address in [a for a, times in self._recent.items() if not self._window(times)]:
            del self._recent[address]  # forget quiet addresses: the map holds only the last minute's


#: The most worker processes the agents may think in.
MAX_AGENT_WORKERS = 64


def check_agent_workers(value: int) -> int:
    """``value`` as a number of agent worker processes (0 to :data:`MAX_AGENT_WORKERS`); a ``ValueError``
    that says so otherwise."""
    if not (type(value) is int and 0 <= value <= MAX_AGENT_WORKERS):
        raise ValueError(f"agent_workers is a whole number from 0 (threads) to {MAX_AGENT_WORKERS}, not {value!r:.40}")
    return value


def _thinkers(workers: int) -> ProcessPoolExecutor | None:
    # forkserver: a worker starts from a clean process, not a fork of the server's threads and open sockets
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver")) if workers else None


def _think(agent: Any, obs: Any, legal: Sequence[Action]) -> tuple[Action, Any]:
    """An agent's decision in a worker process: the action, and the agent as it is after deciding."""
    return agent.act(obs, legal), agent


class Committer:
    """Group commit: the actions of every table that acts while the store is busy go into its next
    transaction, one commit (one wait for the disk) for all of them.

    :meth:`add` returns once its action is committed, so an action is still committed before it is
    acknowledged; the commit runs in a thread, so the server answers other messages while the disk works.
    """

    def __init__(self, store: Store, executor: Executor | None = None) -> None:
        self.store = store
        self.executor = executor  # where the commits run (None: asyncio's default pool)
        self._queue: list[tuple[str, int, dict[str, Any], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def add(self, table_id: str, number: int, action: dict[str, Any]) -> None:
        """Commit one action; raises :class:`~heartslib.server.store.StoreConflict` if that number is taken."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((table_id, number, action, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write())
        await asyncio.shield(done)  # a cancelled caller must not cancel the others' commit

    async def _write(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            results: list[Exception | None]
            try:
                rows = [row[:3] for row in batch]
                results = list(await asyncio.get_running_loop().run_in_executor(self.executor, self.store.add_actions,
                                                                                rows))
            except Exception as exc:  # the database failed: every waiting action is refused, none applied
                results = [exc] * len(batch)
            for (*_, done), result in zip(batch, results, strict=True):
                if result is None:
                    done.set_result(None)
                else:
                    done.set_exception(result)


class ViewerLog:
    """One viewer's stream of a table so far (a seat's, or the spectators'), each event written as JSON once,
    and the :class:`~heartslib.streams.Follower` that adds the next ones: a connection that takes the seat or
    view is sent the events it asks for from here, without replaying the match."""

    def __init__(self, follower: Follower, events: list[StreamEvent]) -> None:
        self.follower = follower
        self.texts: list[str] = []
        self._add(events)

    def _add(self, events: list[StreamEvent]) -> None:
        self.texts += [_write_json(e.to_dict()) for e in events]

    def update(self) -> None:
        """Add the events of the actions applied since the last update."""
        self._add(self.follower.update())


def _build_log(m: Match, viewer: int | None) -> ViewerLog:
    """``viewer``'s log of ``m`` so far, from a replay of the match (run in a thread, the table's lock held, so
    that the match does not change meanwhile and the event loop goes on)."""
    events, follower = replay_stream(m, viewer)
    return ViewerLog(follower, events)


class Table:
    """One table: its match, seats, agents, subscribers and its viewers' logs."""

    def __init__(self, record: TableRecord, match: Match) -> None:
        self.record = record
        self.match = match
        self.lock = asyncio.Lock()
        self.agents = {seat: agent_for(kind, (record.seed + seat) % 2**32)
                       for seat, kind in enumerate(record.seats) if kind != "open"}
        for seat, agent in self.agents.items():
            setup_agent(agent, match.variant, seat)
        self.subscribers: list[Connection] = []
        self.bots: asyncio.Task[None] | None = None
        self.logs: dict[int | None, ViewerLog] = {}  # by viewer (None: the spectators), once one subscribes
        self.claimed: set[int] = set()  # the seats players hold (those the turn clock runs for)
        self.stand_ins: dict[int, Any] = {}  # seats whose player ran out of time: the agent playing for them
        self.clock: asyncio.TimerHandle | None = None
        self.creator: Connection | None = None  # the connection that created it, and its address (quotas)
        self.address: str | None = None
        self.agent_only = "open" not in record.seats
        self.finished = match.is_over  # over, and marked so in the store (or being marked)
        self.catching = False  # reading other processes' actions (a shared store)
        # an event message's text up to its event (event_message's form), written once for all its messages
        self.event_head = f'{{"type": "event", "table": {json.dumps(record.id)}, "event": '
        self.stale = False  # told of another action while reading: read again before stopping

    def agent_at(self, seat: int) -> Any:
        """The agent that plays ``seat`` now (the seat's own, or a stand-in for its player), or None."""
        return self.agents.get(seat) or self.stand_ins.get(seat)

    async def ready(self, viewer: int | None) -> ViewerLog:
        """``viewer``'s log, built the first time it is asked for (a replay, in a thread unless nothing has
        happened yet); call it with :attr:`lock` held."""
        log = self.logs.get(viewer)
        if log is None:
            m = self.match
            log = _build_log(m, viewer) if not m.actions else await asyncio.to_thread(_build_log, m, viewer)
            self.logs[viewer] = log
        return log


class Hub:
    """Every table of one server process, and the protocol (docs/server.md).

    ``store`` keeps the tables; :meth:`load` resumes those stored (call it once, before serving).
    ``turn_timeout`` (seconds, or None: no clock) is the turn clock: a player who has not acted that long after
    the table's last action is stood in for by a :class:`~heartslib.agents.HeuristicAgent` until they are back.
    ``quotas`` limits what each client may create (:class:`Quotas`; None: no limits). ``agent_workers``: how
    many worker processes the built-in agents think in (0: threads of this process, sharing its GIL).
    """

    def __init__(self, store: Store, *, turn_timeout: float | None = None, quotas: Quotas | None = None,
                 agent_workers: int = 0) -> None:
        self.turn_timeout = check_turn_timeout(turn_timeout)
        self.agent_workers = check_agent_workers(agent_workers)
        # where the built-in agents think: worker processes, off the GIL the event loop needs (None: threads)
        self.thinkers = _thinkers(agent_workers)
        self.limiter = Limiter(quotas)
        self._creating = asyncio.Lock()
        self.store = store
        # the store's own thread: one connection, used by one thread at a time, never the event loop's, and never
        # queued behind the agents' thinking in asyncio's default pool
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="heartslib-store")
        self.committer = Committer(store, self.db)
        self.tables: dict[str, Table] = {}
        self._listening: Callable[[], None] | None = None  # stops hearing of other processes' actions
        self._background: set[asyncio.Task[None]] = set()  # tasks held until done (the loop holds weak references)

    # ------------------------------------------------------------------ tables

    async def _db(self, call: Callable[..., _T], *args: Any) -> _T:
        """``call(*args)``, a store call, run on the store's thread (:attr:`db`)."""
        return await asyncio.get_running_loop().run_in_executor(self.db, call, *args)

    def _rebuild(self, record: TableRecord) -> Table:
        # store.stored_match's replay, spelt out here: tests/test_server_reliability.py watches this module's
        # action_from_dict to see that a replay runs off the event loop
        m = Match(Variant.from_dict(dict(record.variant)), record.seed)
        for data in self.store.actions(record.id):
            m.apply(action_from_dict(data))
        table = Table(record, m)
        table.claimed = self.store.claimed(record.id)
        return table

    async def load(self) -> None:
        """Resume every unfinished stored table (replaying its actions, in a thread) and let its agents play on;
        a finished one stays in the database until asked for (:meth:`_table`). The app runs this beside serving:
        a table asked for before it is loaded is read then."""
        if self.store.shared and self._listening is None:
            loop = asyncio.get_running_loop()

            def heard(note: tuple[str, int] | None) -> None:  # on the listener's thread
                with contextlib.suppress(RuntimeError):  # the loop closed while the listener stops: nobody to tell
                    loop.call_soon_threadsafe(self._heard, note)

            # off the loop: listen returns once its connection listens, so that the first heard(None) (a catch-up
            # of every watched table) is over before anyone watches here
            self._listening = await asyncio.to_thread(self.store.listen, heard)
        for record in await self._db(self.store.unfinished):
            if record.id in self.tables:  # asked for, and read, meanwhile
                continue
            try:
                built = await asyncio.to_thread(self._rebuild, record)
            except ValueError as exc:  # a stored table that no longer replays (edited by hand): the others go on
                _log.error("heartslib server: table %s cannot be resumed: %s: %s", record.id, type(exc).__name__,
                           str(exc)[:200])
                continue
            if built.match.is_over:  # stored before finished tables were marked: marked now, left out
                await self._db(self.store.mark_finished, record.id)
                continue
            self._resume_table(built)

    def _resume_table(self, built: Table) -> Table:
        """Keep a table read from the store (unless another request read it meanwhile: that one stays) and, if
        it is not over, let its agents and its turn clock run."""
        table = self.tables.setdefault(built.record.id, built)
        if table is built and not table.match.is_over:
            self._start_bots(table)
            self._arm_clock(table)
        return table

    async def _table(self, message: Mapping[str, Any]) -> Table:
        table_id = _str_field(message, "table")
        table = self.tables.get(table_id)
        if table is None:  # a finished table put away (see _put_away), or one another process created
            record = await self._db(self.store.table, table_id)
            if record is not None:
                built = await asyncio.to_thread(self._rebuild, record)  # replayed off the event loop
                table = self._resume_table(built)
        if table is None:
            raise ProtocolError("no_such_table", f"there is no table {table_id!r}")
        return table

    async def record(self, table_id: str, form: str = "json") -> str:
        """A finished table's record (:func:`~heartslib.server.store.export_record`), read on the store's thread
        and replayed in another, never on the event loop. Raises
        :class:`~heartslib.server.store.RecordRefused` (``no_such_table``, ``in_progress``, ``bad_record``) or
        :class:`~heartslib.server.store.StoreUnavailable`."""
        table = self.tables.get(table_id)
        if table is not None and not table.match.is_over and not self.store.shared:
            raise in_progress(table_id)  # known at once: no need to replay it (another process's may be ahead)
        record = await self._db(self.store.table, table_id)
        if record is None:
            raise RecordRefused(f"table {table_id}", f"there is no table {table_id!r:.120}", "no_such_table")
        try:
            actions = await self._db(self.store.actions, table_id)
        except StoreUnavailable:
            raise
        except ValueError as exc:  # a row that is not JSON (edited by hand)
            raise RecordRefused(f"table {table_id}", f"a stored action is not JSON: {exc}", "bad_record") from exc
        return await asyncio.to_thread(export_record, record, actions, form)

    async def _catch_up(self, table: Table) -> None:
        """Apply the actions other processes stored for ``table`` (a shared store) and show them (the table's
        lock held)."""
        m = table.match
        new = await self._db(self.store.actions, table.record.id, len(m.actions))
        for data in new:
            m.apply(action_from_dict(data))
            # shown one action at a time, as the process that applied it showed it (and a replay does): each
            # action's change of view is on its own last event, so every process's log of a viewer is the same
            # events, and a client that resumes on another process from any event number goes on correctly
            self._broadcast(table)

    def _heard(self, note: tuple[str, int] | None) -> None:
        """Another process stored action ``number`` of a table (``note``: the table's id and the number), or,
        with None, actions may have been missed (the listener connected again): catch up the tables watched."""
        if note is None:
            targets = [t for t in self.tables.values() if t.subscribers]
        else:
            table = self.tables.get(note[0])
            # an action this process stored itself (or already read) is known: no need to ask the database; a
            # table held here is read whoever watches it (a player may be joining it this moment: its agents
            # and its clock must not wait for an action they were told of)
            targets = [table] if table is not None and note[1] >= len(table.match.actions) else []
        for table in targets:
            # a note heard while a read is under way may be of an action that read missed (committed after it
            # asked): the read goes round again, or the table would wait for an action it was told of
            table.stale = True
            if not table.catching:
                table.catching = True
                self._spawn(self._refresh(table))

    async def _refresh(self, table: Table) -> None:
        try:
            while table.stale:
                table.stale = False
                async with table.lock:
                    await self._catch_up(table)
        except StoreUnavailable as exc:  # read again at the next action stored (or the next reconnection)
            _log.warning("heartslib server: reading table %s: %s", table.record.id, exc)
        finally:
            table.catching = False
            table.stale = False
        self._start_bots(table)

    def _spawn(self, work: Awaitable[None]) -> None:
        """Run ``work`` as a task, held until it is done."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------ messages

    async def handle(self, conn: Connection, text: str) -> None:
        """Answer one message from ``conn``; a refused one gets an ``error`` message and changes nothing."""
        ident: Any = None
        try:
            if len(text) > MAX_MESSAGE:
                raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE} characters, not {len(text)}")
            try:
                message = json.loads(text)
            except (ValueError, RecursionError):
                raise ProtocolError("bad_json", f"not JSON: {text[:60]!r}") from None
            if not isinstance(message, dict):
                raise ProtocolError("bad_message", "a message is a JSON object with a \"type\"")
            ident = message.get("id")
            if ident is not None and not (isinstance(ident, int | str) and len(str(ident)) <= 100):
                ident = None
                raise ProtocolError("bad_message", "\"id\" is a number or a text of at most 100 characters")
            kind = message.get("type")
            handler = self._handlers().get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise ProtocolError("unknown_type", f"unknown message type {kind!r:.40}: use "
                                    + ", ".join(sorted(self._handlers())))
            reply = await handler(conn, message)
        except ProtocolError as exc:
            reply = {"type": "error", "code": exc.code, "message": exc.message}
        except IllegalAction as exc:
            reply = {"type": "error", "code": exc.code, "message": str(exc)}
        except CardError as exc:
            reply = {"type": "error", "code": "bad_card", "message": str(exc)}
        except StoreUnavailable as exc:  # the database's failure, not a bug: the client may try again
            _log.warning("heartslib server: the database failed: %s", exc)
            reply = {"type": "error", "code": "unavailable", "message": "the database is unavailable, so nothing "
                     "was changed: try again shortly"}
        except Exception as exc:  # a bug must cost one message, never the server (or a traceback to the client)
            _log.error("heartslib server: %s while answering a %d-character message: %s", type(exc).__name__,
                       len(text), str(exc)[:200])
            reply = {"type": "error", "code": "internal", "message": "the server failed to answer this message"}
        if reply is not None:
            if ident is not None:
                reply["id"] = ident
            conn.send_data(reply)
        self._send_events(conn)

    def _handlers(self) -> dict[str, Callable[[Connection, dict[str, Any]], Awaitable[dict[str, Any] | None]]]:
        return {"create": self._create, "join": self._join, "resume": self._resume, "spectate": self._spectate,
                "act": self._act, "legal": self._legal, "ping": self._ping}

    async def _ping(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        return {"type": "pong"}

    async def _create(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        v = _variant(message.get("variant", "standard"))
        seed = _int_field(message, "seed", 0, MAX_TABLE_SEED, secrets.randbelow(MAX_TABLE_SEED))
        seats = message.get("seats", [None] * v.players)
        if not isinstance(seats, list) or len(seats) != v.players:
            raise ProtocolError("bad_seats", f"seats is a list of {v.players} entries (one a seat), not "
                                f"{seats!r:.60}")
        record = TableRecord(secrets.token_urlsafe(9), v.to_dict(), seed,
                             tuple(_seat_kind(entry, i) for i, entry in enumerate(seats)))
        match = Match(v, seed)
        async with self._creating:  # one create at a time: two may not both pass a limit one of them reaches
            self.limiter.check(conn, v, "open" not in record.seats, self.tables.values())
            await self._db(self.store.create_table, record)
            self.limiter.note(conn)
            table = self.tables[record.id] = Table(record, match)
            table.creator, table.address = conn, conn.address
        self._start_bots(table)
        return {"type": "created", "table": record.id, "seats": list(record.seats), "seed": seed}

    def _leave(self, conn: Connection) -> None:
        table = conn.table
        if table is not None and conn in table.subscribers:
            table.subscribers.remove(conn)
            self._put_away(table)
        conn.table, conn.seat, conn.log = None, None, None

    def _put_away(self, table: Table) -> None:
        """Drop a finished table nobody watches from memory (the store keeps it; :meth:`_table` reads it back
        if asked), so that a server's memory does not grow with the matches it has played."""
        if table.match.is_over and not table.subscribers and self.tables.get(table.record.id) is table:
            del self.tables[table.record.id]
            if table.clock is not None:
                table.clock.cancel()

    async def _mark_finished(self, table: Table) -> None:
        """Mark ``table`` finished in the store (in a thread); if the database fails, a restart marks it."""
        try:
            await self._db(self.store.mark_finished, table.record.id)
        except StoreUnavailable as exc:
            _log.warning("heartslib server: marking table %s finished: %s", table.record.id, exc)

    def _subscribe(self, conn: Connection, table: Table, seat: int | None, since: int) -> None:
        """Hold ``seat`` (None: a spectator's view) of ``table`` on ``conn``, whose events from ``since`` are then
        sent (:meth:`handle` sends them after the reply); the viewer's log must be ready (:meth:`Table.ready`)."""
        self._leave(conn)
        log = table.logs[seat]
        conn.table, conn.seat, conn.log, conn.sent = table, seat, log, min(since, len(log.texts))
        table.subscribers.append(conn)

    async def _join(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        table = await self._table(message)
        n = table.match.variant.players
        seat = _int_field(message, "seat", 0, n - 1)
        if table.record.seats[seat] != "open":
            raise ProtocolError("seat_taken", f"seat {seat} is played by the {table.record.seats[seat]} agent")
        token = secrets.token_urlsafe(24)
        async with table.lock:
            await table.ready(seat)  # before the seat is taken: a failure here must not cost the seat its token
            if not await self._db(self.store.claim_seat, table.record.id, seat, token_digest(token)):
                raise ProtocolError("seat_taken", f"seat {seat} has a player: reconnect with its token "
                                    "(\"resume\")")
            self._subscribe(conn, table, seat, 0)
            table.claimed.add(seat)
            self._arm_clock(table)
        return {"type": "joined", "table": table.record.id, "seat": seat, "token": token}

    async def _resume(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        table = await self._table(message)
        token = _str_field(message, "token")
        seat = await self._db(self.store.seat_of, table.record.id, token_digest(token))
        if seat is None:
            raise ProtocolError("bad_token", "that token holds no seat at this table")
        since = _since(message)
        async with table.lock:
            await table.ready(seat)
            self._subscribe(conn, table, seat, since)
        self._give_back(table, seat)
        return {"type": "joined", "table": table.record.id, "seat": seat}

    async def _spectate(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        table = await self._table(message)
        since = _since(message)
        async with table.lock:
            await table.ready(None)
            self._subscribe(conn, table, None, since)
        return {"type": "spectating", "table": table.record.id}

    def _seated(self, conn: Connection) -> tuple[Table, int]:
        if conn.table is None or conn.seat is None:
            raise ProtocolError("not_seated", "take a seat first (\"join\" or \"resume\")")
        return conn.table, conn.seat

    async def _legal(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        table, seat = self._seated(conn)
        m = table.match
        actions = pass_actions(m, seat) if seat in m.to_act else []
        listed = [actions[i].to_dict() for i in range(min(len(actions), MAX_LISTED))]
        reply: dict[str, Any] = {"type": "legal", "actions": listed, "total": len(actions)}
        if actions and m.round.phase is Phase.PASS:
            reply["pass"] = _pass_description(m.round.pass_rules(seat))
        return reply

    def _action(self, message: Mapping[str, Any], seat: int) -> Action:
        data = message.get("action")
        if not isinstance(data, dict):
            raise ProtocolError("bad_message", "\"action\" is an object such as {\"type\": \"play\", \"card\": \"QS\"}")
        if "seat" in data and data["seat"] != seat:
            raise ProtocolError("not_your_seat", f"this connection holds seat {seat}, not {data['seat']!r:.20}")
        return action_from_dict({**data, "seat": seat})

    async def _act(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        table, seat = self._seated(conn)
        self._give_back(table, seat)  # the player is back (a page asks "legal" by itself: only "act" says so)
        action = self._action(message, seat)
        async with table.lock:
            number = await self._apply(table, action, conn)
            log = conn.log
            assert log is not None
            events = len(log.texts)  # the actor's own events are sent just after the ack, which says so
        self._start_bots(table)
        return {"type": "ack", "action": action.to_dict(), "number": number, "events": events}

    async def _apply(self, table: Table, action: Action, actor: Connection | None = None) -> int:
        """Check, commit, apply and show one action (the table's lock held); returns its number. The actor's
        connection gets its events after the acknowledgement (:meth:`handle` sends them)."""
        m = table.match
        # a conflict means another process stored an action of this table first: caught up, the action is judged
        # again. While passing every other seat may act at that moment (bots on several processes, under load
        # several in a row), so a legal action is tried once per seat, and one more, before the client is told
        tries = m.variant.players + 1
        for attempt in range(tries):
            error = m.why_illegal(action)
            if error is not None:
                raise error
            number = len(m.actions)
            try:
                await self.committer.add(table.record.id, number, action.to_dict())
            except StoreConflict:
                if attempt == tries - 1 or not self.store.shared:
                    raise ProtocolError("conflict", "the table changed meanwhile: look at its events and try "
                                        "again") from None
                await self._catch_up(table)  # another process acted first: judge the action again
                continue
            m.apply(action)
            self._broadcast(table, actor)
            return number
        raise AssertionError("unreachable")  # pragma: no cover

    # ------------------------------------------------------------------ events and agents

    def _send_events(self, conn: Connection) -> None:
        """Send ``conn`` the events of its log it has not been sent."""
        log, table = conn.log, conn.table
        if log is None or table is None or conn.sent >= len(log.texts):
            return
        head = table.event_head
        for text in log.texts[conn.sent:]:
            conn.send_text(head + text + "}")
        conn.sent = len(log.texts)

    def _broadcast(self, table: Table, skip: Connection | None = None) -> None:
        """Bring every log of ``table`` up to date and send its subscribers (but ``skip``) their new events."""
        for log in table.logs.values():
            log.update()
        for conn in table.subscribers:
            if conn is not skip:
                self._send_events(conn)
        self._arm_clock(table)
        if table.match.is_over and not table.finished:
            table.finished = True
            self._spawn(self._mark_finished(table))

    # ------------------------------------------------------------------ the turn clock

    def _arm_clock(self, table: Table) -> None:
        """(Re)start ``table``'s turn clock for the players it now waits for; stop it when it waits for none."""
        if table.clock is not None:
            table.clock.cancel()
            table.clock = None
        m = table.match
        if self.turn_timeout is None or m.is_over:
            return
        if any(s in table.claimed and s not in table.stand_ins for s in m.to_act):
            table.clock = asyncio.get_running_loop().call_later(self.turn_timeout, self._time_up, table,
                                                                len(m.actions))

    def _time_up(self, table: Table, number: int) -> None:
        """The clock ran out with nothing applied since action ``number``: agents stand in for the players to act."""
        table.clock = None
        m = table.match
        if len(m.actions) != number or m.is_over or self.tables.get(table.record.id) is not table:
            return
        for seat in m.to_act:
            if seat in table.claimed and seat not in table.stand_ins:
                agent = table.stand_ins[seat] = HeuristicAgent((table.record.seed + seat) % 2**32)
                setup_agent(agent, m.variant, seat)
                self._announce(table, seat, True)
        self._start_bots(table)

    def _give_back(self, table: Table, seat: int) -> None:
        """``seat``'s player is back: the stand-in, if any, stops."""
        if table.stand_ins.pop(seat, None) is not None:
            self._announce(table, seat, False)
            self._arm_clock(table)

    def _announce(self, table: Table, seat: int, active: bool) -> None:
        for conn in table.subscribers:
            conn.send_data({"type": "stand_in", "table": table.record.id, "seat": seat, "agent": "heuristic",
                            "active": active})

    async def _decide(self, table: Table, seat: int, agent: Any, obs: Any,
                      legal: Sequence[Action]) -> tuple[Action, Any]:
        """``agent``'s action and the agent that now plays ``seat``: thought in a worker process
        (:attr:`thinkers`), whose copy of the agent, its random state moved on, then replaces the table's; or in
        a thread. A worker that died is replaced, and this decision is thought in a thread."""
        if self.thinkers is None:
            return await asyncio.to_thread(agent.act, obs, legal), agent
        try:
            action, thought = await asyncio.get_running_loop().run_in_executor(self.thinkers, _think, agent, obs,
                                                                               legal)
        except BrokenProcessPool:
            _log.warning("heartslib server: an agent worker process died: starting new ones")
            self.thinkers.shutdown(wait=False, cancel_futures=True)
            self.thinkers = _thinkers(self.agent_workers)
            return await asyncio.to_thread(agent.act, obs, legal), agent
        for agents in (table.agents, table.stand_ins):
            if agents.get(seat) is agent:
                agents[seat] = thought
        return action, thought

    def _start_bots(self, table: Table) -> None:
        if table.agents and (table.bots is None or table.bots.done()):
            table.bots = asyncio.create_task(self._bots(table))

    async def _bots(self, table: Table) -> None:
        """Let the table's agents act while one of them is to act. A database failure pauses them, and they try
        again (after :data:`RETRY_FIRST` seconds, twice as long each time up to :data:`RETRY_MAX`) rather than
        stopping until a restart."""
        m = table.match
        delay = RETRY_FIRST
        while not m.is_over:
            seat = next((s for s in m.to_act if table.agent_at(s) is not None), None)
            if seat is None:
                return
            agent = table.agent_at(seat)
            obs, legal = m.observation(seat), pass_actions(m, seat)
            action, agent = await self._decide(table, seat, agent, obs, legal)
            failed = False
            async with table.lock:
                # nobody acted meanwhile, and the seat is still the agent's (a player may be back)
                if seat in m.to_act and m.observation(seat) == obs and table.agent_at(seat) is agent:
                    try:
                        await self._apply(table, action)
                    except StoreUnavailable as exc:
                        _log.warning("heartslib server: table %s's agents wait for the database: %s",
                                     table.record.id, exc)
                        failed = True
                    except (ProtocolError, IllegalAction, SaveError):
                        continue  # the table moved on (another process): look again
            if failed:
                await asyncio.sleep(delay)
                delay = min(2 * delay, RETRY_MAX)
            else:
                delay = RETRY_FIRST
        self._put_away(table)

    def stop(self) -> None:
        """Stop listening, the agents' tasks and the turn clocks (the app's shutdown)."""
        if self._listening is not None:
            self._listening()
            self._listening = None
        for task in [t.bots for t in self.tables.values()]:
            if task is not None:
                task.cancel()
        for table in self.tables.values():
            if table.clock is not None:
                table.clock.cancel()
        for task in self._background:  # a table being marked finished: a restart marks it (its store is closing)
            task.cancel()
        self.db.shutdown(wait=False, cancel_futures=True)
        if self.thinkers is not None:
            # waits for the decisions under way (one a worker): a process that exits before its workers are
            # joined leaves their queues' semaphores behind, and Python warns of them on stderr
            self.thinkers.shutdown(wait=True, cancel_futures=True)

    def drop(self, conn: Connection) -> None:
        """Forget a closed connection (its seat stays its player's: a token resumes it)."""
        self._leave(conn)
