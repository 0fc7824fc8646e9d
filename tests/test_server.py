"""The game server's protocol, in process (heartslib.server.tables.Hub over an in-memory SQLite store): seats,
tokens, actions acknowledged once stored, agents in the empty seats, resuming, spectating; every malformed,
illegal, out-of-turn or replayed message answered with a documented error and no change; no message shows a
card its receiver may not know. The end-to-end tests over real WebSockets are in test_server_e2e.py."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib.server.store import SQLiteStore, open_store
from heartslib.server.tables import Connection, Hub, event_message
from heartslib.streams import PRIVATE_FIELDS, events_for, follow, visible_events
from heartslib.testing import check_no_leak

DOC = Path(__file__).resolve().parents[1] / "docs" / "server.md"


def _documented_codes() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("| code | meaning |"):]
    server = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.MULTILINE))
    engine = set(re.findall(r"`([a-z_]+)`", (DOC.parent / "errors.md").read_text(encoding="utf-8")))
    return server | engine


class Probe:
    """A client of the hub without a network: what it sends, and what came back."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.conn = Connection()
        self.events: list[dict[str, Any]] = []

    async def send(self, message: Any) -> list[dict[str, Any]]:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.hub.handle(self.conn, text)
        return self.drain()

    def drain(self) -> list[dict[str, Any]]:
        out = []
        while not self.conn.outbox.empty():
            text = self.conn.outbox.get_nowait()
            assert text is not None
            data = json.loads(text)
            if data["type"] == "event":
                self.events.append(data["event"])
            out.append(data)
        return out

    async def reply(self, message: Any) -> dict[str, Any]:
        replies = [m for m in await self.send(message) if m["type"] != "event"]
        assert len(replies) == 1, replies
        return replies[0]


async def _settle(hub: Hub) -> None:
    """Wait until no agent is thinking."""
    for _ in range(10_000):
        tasks = [t.bots for t in hub.tables.values() if t.bots is not None and not t.bots.done()]
        if not tasks:
            return
        await asyncio.wait(tasks, timeout=5)
    raise AssertionError("the agents never stopped")


def _run(body: Callable[[Hub], Awaitable[None]]) -> None:
    async def main() -> None:
        hub = Hub(SQLiteStore(":memory:"))
        await hub.load()
        try:
            await body(hub)
        finally:
            hub.stop()

    asyncio.run(main())


def _match_of(hub: Hub, table: str) -> hl.Match:
    return hub.tables[table].match


def test_a_seat_plays_a_whole_match_against_agents_and_its_stream_ends_in_its_observation() -> None:
    async def body(hub: Hub) -> None:
        p = Probe(hub)
        created = await p.reply({"type": "create", "variant": {"name": "short", "end": {"target": 30}},
                                 "seats": [None, "random", "heuristic", {"agent": "search", "playouts": 2}],
                                 "seed": 4, "id": "c1"})
        assert created["type"] == "created" and created["id"] == "c1"
        table = created["table"]
        assert (await p.reply({"type": "join", "table": table, "seat": 0}))["type"] == "joined"
        m = _match_of(hub, table)
        acks = 0
        while not m.is_over:
            await _settle(hub)
            p.drain()
            if 0 in m.to_act:
                legal = (await p.reply({"type": "legal"}))["actions"]
                ack = await p.reply({"type": "act", "action": legal[-1]})
                # the agents have not moved yet (they run when the hub next waits): the ack numbers the last action
                assert ack["type"] == "ack" and ack["number"] == len(m.actions) - 1
                acks += 1
        await _settle(hub)
        p.drain()
        assert acks > 10 and p.events[-1]["kind"] == "end"
        assert follow(p.events) == m.observation(0).to_dict()
        assert p.events == [e.to_dict() for e in events_for(m, 0)]
        assert len(hub.store.actions(table)) == len(m.actions)  # every action stored

    _run(body)


def test_an_action_is_stored_before_it_is_acknowledged() -> None:
    async def body(hub: Hub) -> None:
        p = Probe(hub)
        table = (await p.reply({"type": "create", "seats": [None, None, None, None], "seed": 1}))["table"]
        await p.reply({"type": "join", "table": table, "seat": 0})
        stored: list[int] = []
        add = hub.store.add_actions

        def spy(rows: Any) -> Any:
            results = add(rows)
            stored.extend(number for _, number, _ in rows)
            assert not any(m["type"] == "ack" for m in _peek(p.conn)), "acknowledged before it was stored"
            return results

        hub.store.add_actions = spy  # type: ignore[method-assign]
        legal = (await p.reply({"type": "legal"}))["actions"]
        assert (await p.reply({"type": "act", "action": legal[0]}))["type"] == "ack"
        assert stored == [0]

    _run(body)


def _peek(conn: Connection) -> list[dict[str, Any]]:
    return [json.loads(t) for t in list(conn.outbox._queue) if t is not None]  # type: ignore[attr-defined]


def test_a_token_resumes_its_seat_from_any_event_and_never_acts_for_another() -> None:
    async def body(hub: Hub) -> None:
        a, b = Probe(hub), Probe(hub)
        table = (await a.reply({"type": "create", "seats": [None, None, "random", "random"], "seed": 2}))["table"]
        token = (await a.reply({"type": "join", "table": table, "seat": 0}))["token"]
        await b.reply({"type": "join", "table": table, "seat": 1})
        m = _match_of(hub, table)
        for probe, seat in ((a, 0), (b, 1)):
            legal = (await probe.reply({"type": "legal"}))["actions"]
            assert all(x["seat"] == seat for x in legal)
            await probe.reply({"type": "act", "action": legal[0]})
        await _settle(hub)
        a.drain()
        seen = len(a.events)
        # a new connection with seat 0's token gets seat 0, and the events from where it asks
        c = Probe(hub)
        joined = await c.send({"type": "resume", "table": table, "token": token, "since": 3})
        assert joined[0] == {"type": "joined", "table": table, "seat": 0}
        assert [e["number"] for e in c.events] == list(range(3, seen))
        assert c.events == a.events[3:]
        # it may not act for seat 1, whatever the action says
        before = len(m.actions)
        legal1 = [x.to_dict() for x in m.legal_actions(1)] if 1 in m.to_act else [{"type": "play", "card": "2C"}]
        error = await c.reply({"type": "act", "action": {**legal1[0], "seat": 1}})
        assert error["code"] == "not_your_seat" and len(m.actions) == before

    _run(body)


def test_a_spectator_sees_the_public_stream_only() -> None:
    async def body(hub: Hub) -> None:
        p, s = Probe(hub), Probe(hub)
        table = (await p.reply({"type": "create", "seats": ["random"] * 4, "seed": 3,
                                "variant": {"name": "short", "end": {"target": 20}}}))["table"]
        await _settle(hub)
        await s.reply({"type": "spectate", "table": table})
        m = _match_of(hub, table)
        assert m.is_over and s.events[-1]["kind"] == "end"
        public = {k: v for k, v in m.observation(0).to_dict().items()
                  if k not in PRIVATE_FIELDS}
        assert follow(s.events) == public
        assert all(e["cards"] is None for e in s.events if e["kind"] in ("pass", "exchange"))
        assert (await s.reply({"type": "legal"}))["code"] == "not_seated"

    _run(body)


def _state(hub: Hub) -> Any:
    return {tid: (len(t.match.actions), sorted(hub.store.claimed(tid)), len(hub.store.actions(tid)),
                  t.match.to_json()) for tid, t in hub.tables.items()}


#: Messages each refused with the given code; none may change anything.
BAD: list[tuple[str, Any]] = [
    ("bad_json", "{not json"),
    ("bad_json", ""),
    ("bad_json", "[" * 5000),
    ("too_large", json.dumps({"type": "ping", "pad": "x" * 70_000})),
    ("bad_message", "[1, 2]"),
    ("bad_message", "42"),
    ("bad_message", json.dumps({"type": "ping", "id": {"a": 1}})),
    ("unknown_type", json.dumps({"type": "bid"})),
    ("unknown_type", json.dumps({"kind": "act"})),
    ("unknown_type", json.dumps({"type": 7})),
    ("bad_variant", json.dumps({"type": "create", "variant": "no_such_game"})),
    ("bad_variant", json.dumps({"type": "create", "variant": {"players": 99}})),
    ("bad_variant", json.dumps({"type": "create", "variant": 3})),
    ("bad_seats", json.dumps({"type": "create", "seats": [None]})),
    ("bad_seats", json.dumps({"type": "create", "seats": ["genius", None, None, None]})),
    ("bad_seats", json.dumps({"type": "create", "seats": [{"agent": "search", "playouts": 10**9}, None, None, None]})),
    ("bad_message", json.dumps({"type": "create", "seed": -1})),
    ("bad_message", json.dumps({"type": "create", "seed": "7"})),
    ("bad_message", json.dumps({"type": "create", "seed": 2**70})),
    ("no_such_table", json.dumps({"type": "join", "table": "nope", "seat": 0})),
    ("bad_message", json.dumps({"type": "join", "table": 5, "seat": 0})),
    ("bad_message", json.dumps({"type": "join", "table": "T", "seat": 9})),
    ("bad_message", json.dumps({"type": "join", "table": "T", "seat": True})),
    ("seat_taken", json.dumps({"type": "join", "table": "T", "seat": 1})),
    ("seat_taken", json.dumps({"type": "join", "table": "T", "seat": 0})),
    ("bad_token", json.dumps({"type": "resume", "table": "T", "token": "forged"})),
    ("bad_message", json.dumps({"type": "resume", "table": "T", "token": ""})),
    ("bad_message", json.dumps({"type": "spectate", "table": "T", "since": -3})),
    ("not_seated", json.dumps({"type": "act", "action": {"type": "play", "card": "2C"}})),
    ("not_seated", json.dumps({"type": "legal"})),
]

#: Sent by the seated client of table T (seat 0 holds 2C and has passed): out of turn, another seat's, malformed.
BAD_ACTS: list[tuple[str, Any]] = [
    ("bad_message", {"type": "act"}),
    ("bad_message", {"type": "act", "action": "0:play 2C"}),
    ("not_your_seat", {"type": "act", "action": {"type": "play", "seat": 2, "card": "2C"}}),
    ("not_an_action", {"type": "act", "action": {"type": "bid", "card": "2C"}}),
    ("not_an_action", {"type": "act", "action": {"type": "play"}}),
    ("bad_card", {"type": "act", "action": {"type": "play", "card": "ZZ"}}),
    ("bad_card", {"type": "act", "action": {"type": "play", "card": 12}}),
    ("already_passed", {"type": "act", "action": {"type": "pass", "cards": ["2C", "3C", "4C"]}}),
]


def test_every_bad_message_gets_a_documented_error_and_changes_nothing() -> None:
    codes = _documented_codes()

    async def body(hub: Hub) -> None:
        owner = Probe(hub)
        table = (await owner.reply({"type": "create", "seats": [None, "random", None, None], "seed": 8}))["table"]
        token = (await owner.reply({"type": "join", "table": table, "seat": 0}))["token"]
        m = _match_of(hub, table)
        hand = [c.code for c in m.round.hand(0)]
        passed = {"type": "act", "action": {"type": "pass", "cards": hand[:3]}, "id": 1}
        assert (await owner.reply(passed))["type"] == "ack"
        await _settle(hub)
        before = _state(hub)
        stranger = Probe(hub)
        for code, text in BAD:
            reply = await stranger.reply(text.replace('"T"', json.dumps(table)))
            assert reply["type"] == "error" and reply["code"] == code, (text[:80], reply)
            assert code in codes
        for code, message in [*BAD_ACTS, ("already_passed", passed)]:  # the last: a replayed message
            reply = await owner.reply(message)
            assert reply["type"] == "error" and reply["code"] == code, (message, reply)
            assert code in codes
        assert _state(hub) == before
        # the owner's token still holds seat 0 only
        again = await stranger.reply({"type": "resume", "table": table, "token": token})
        assert again["seat"] == 0

    _run(body)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
_messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["create", "join", "resume", "spectate", "act", "legal", "ping", "x"])},
    optional={"table": _json | st.just("T"), "seat": _json, "token": _json, "since": _json, "seed": _json,
              "seats": _json, "variant": _json | st.just("standard"), "action": _json, "id": _json},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_messages | _json.map(json.dumps).map(lambda t: ("raw", t)), min_size=1, max_size=6))
def test_random_messages_never_crash_the_hub_and_are_answered_once(messages: list[Any]) -> None:
    codes = _documented_codes() | {"created", "joined", "spectating", "legal", "pong", "ack"}

    async def body(hub: Hub) -> None:
        owner = Probe(hub)
        table = (await owner.reply({"type": "create", "seats": [None, None, None, None], "seed": 8}))["table"]
        await owner.reply({"type": "join", "table": table, "seat": 0})
        for message in messages:
            if isinstance(message, tuple):
                text = message[1]
            else:
                text = json.dumps({k: (table if v == "T" else v) for k, v in message.items()})
            for probe in (owner, Probe(hub)):
                reply = await probe.reply(text)
                assert reply.get("code", reply["type"]) in codes, reply
                assert reply.get("code") != "internal"

    _run(body)


def test_the_server_messages_show_no_hidden_card_on_any_preset() -> None:
    def messages(r: hl.Round, seat: int) -> object:
        kitty_seen = r.variant.deck.kitty_seen_by_winner
        return [json.dumps(event_message("t", e)) for e in visible_events(r.events, seat, kitty_seen=kitty_seen)]

    for name in hl.preset_names():
        check_no_leak(messages, hl.preset(name), max_examples=5)


def test_a_stored_table_resumes_in_a_new_hub(tmp_path: Path) -> None:
    async def body(path: str) -> None:
        hub = Hub(open_store(path))
        await hub.load()
        p = Probe(hub)
        table = (await p.reply({"type": "create", "seats": [None, "heuristic", "heuristic", "heuristic"],
                                "seed": 6}))["table"]
        token = (await p.reply({"type": "join", "table": table, "seat": 0}))["token"]
        m = _match_of(hub, table)
        for _ in range(6):
            await _settle(hub)
            if 0 in m.to_act:
                await p.reply({"type": "act", "action": (await p.reply({"type": "legal"}))["actions"][0]})
        await _settle(hub)
        p.drain()
        saved, events = m.to_json(), list(p.events)
        hub.stop()
        hub.store.close()
        again = Hub(open_store(path))
        await again.load()
        await _settle(again)
        assert again.tables[table].match.to_json() == saved
        q = Probe(again)
        await q.send({"type": "resume", "table": table, "token": token, "since": len(events)})
        assert q.events == []  # nothing new, nothing repeated
        again.stop()

    asyncio.run(body(str(tmp_path / "tables.sqlite3")))


def test_actions_of_tables_acting_together_share_one_commit_and_each_is_acknowledged() -> None:
    async def body(hub: Hub) -> None:
        probes, batches = [], []
        add = hub.store.add_actions

        def spy(rows: Any) -> Any:
            batches.append(len(rows))
            return add(rows)

        hub.store.add_actions = spy  # type: ignore[method-assign]
        for seed in range(3):
            p = Probe(hub)
            table = (await p.reply({"type": "create", "seats": [None, None, None, None], "seed": seed}))["table"]
            await p.reply({"type": "join", "table": table, "seat": 0})
            probes.append((p, (await p.reply({"type": "legal"}))["actions"][0]))
        replies = await asyncio.gather(*(p.reply({"type": "act", "action": a}) for p, a in probes))
        assert [r["type"] for r in replies] == ["ack"] * 3
        assert batches == [3]  # one transaction, one wait for the disk, for the three tables
        assert all(len(hub.store.actions(t)) == 1 for t in hub.tables)

    _run(body)


def test_a_conflicting_row_refuses_only_its_own_action() -> None:
    store = SQLiteStore(":memory:")
    store.add_action("t", 0, {"n": 0})
    results = store.add_actions([("t", 0, {"n": "again"}), ("t", 1, {"n": 1})])
    assert results[0] is not None and results[0].__class__.__name__ == "StoreConflict" and results[1] is None
    assert store.actions("t") == [{"n": 0}, {"n": 1}]


def test_a_finished_table_leaves_memory_when_nobody_watches_and_comes_back_when_asked() -> None:
    async def body(hub: Hub) -> None:
        p = Probe(hub)
        created = await p.reply({"type": "create", "variant": {"name": "standard", "end": {"hands": 1}},
                                 "seats": ["random"] * 4, "seed": 2})
        table = created["table"]
        await p.reply({"type": "spectate", "table": table})
        await _settle(hub)
        assert hub.tables[table].match.is_over  # watched: kept
        await p.reply({"type": "ping"})
        hub.drop(p.conn)
        assert table not in hub.tables  # finished and unwatched: only the store has it
        watcher = Probe(hub)
        assert (await watcher.reply({"type": "spectate", "table": table}))["type"] == "spectating"
        assert watcher.events[-1]["kind"] == "end"

    _run(body)


def test_a_moon_agent_takes_a_seat_and_plays_a_two_handed_table() -> None:
    async def body(hub: Hub) -> None:
        p = Probe(hub)
        created = await p.reply({"type": "create", "variant": "two_handed", "seats": ["moon", "heuristic"],
                                 "seed": 3})
        assert created["type"] == "created" and created["seats"] == ["moon", "heuristic"]
        table = created["table"]
        agents = hub.tables[table].agents
        assert type(agents[0]) is hl.agents.MoonAgent and type(agents[1]) is hl.agents.HeuristicAgent
        await _settle(hub)  # the two agents play the whole match (the table then leaves memory)
        record = hub.store.table(table)
        assert record is not None and record.seats == ("moon", "heuristic")
        assert len(hub.store.actions(table)) > 26
        refused = await p.reply({"type": "create", "variant": "two_handed", "seats": ["moon", "genius"]})
        assert refused["code"] == "bad_seats" and '"moon"' in refused["message"]

    _run(body)


def test_the_play_page_knows_every_presets_player_count() -> None:
    # the /play page's create form offers one seat per player of the variant named: the server writes the
    # presets' player counts into its script
    from heartslib.server.app import _page

    page = _page()
    start = page.index("const PRESETS = ") + len("const PRESETS = ")
    players = json.loads(page[start:page.index(";", start)])
    assert players == {name: hl.preset(name).players for name in hl.preset_names()}
    assert players["two_handed"] == 2 and players["black_maria"] == 3 and max(players.values()) > 4
    assert "/*PRESETS*/" not in page
