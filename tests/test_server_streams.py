"""The server's messages, byte for byte: every text each seat's and spectator's connection receives while tables
of several variants are played (passes, two decks, a kitty, stock draws, decisions, exposed cards, an auction),
by clients that join at the start, resume part way and spectate late.

The digests below were written by the server before its views were cached (issue 54: the per-seat view pieces
that do not change within a hand are kept, not rebuilt and compared after every action), so a faster stream
that sends anything else, in another order or spelt otherwise, fails here; the test also follows each stream to
the engine's observation, so that a digest is not the only judge of what a stream holds.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")

import heartslib as hl
from heartslib import strategies as hst
from heartslib.server.store import SQLiteStore
from heartslib.server.tables import Connection, Hub
from heartslib.streams import PRIVATE_FIELDS, follow

#: (preset, seed, hands played): passes of each kind, two decks, a kitty, stock draws, decisions and exposed
#: cards, an auction's bids and chips, three to ten players.
GAMES: list[tuple[str, int, int]] = [
    ("standard", 1, 2),
    ("two_handed", 2, 1),
    ("domino_hearts", 3, 1),
    ("auction_hearts", 4, 2),
    ("cancellation", 5, 1),
    ("black_maria", 6, 1),
    ("gong_zhu_exposed", 7, 1),
    ("double_deck_8", 8, 1),
    ("leekha_jawaker", 9, 1),
    ("omnibus_jd", 10, 1),
]

#: The SHA-256 of every message each game's connections received, in order (see :func:`_messages`), written by
#: the server before its views were cached.
DIGESTS: dict[str, str] = {
    "standard": "14335120c10a9ff9b268b245f58d8f6873c25403f54ae04969f44375c70d45e0",  # 993 messages
    "two_handed": "0335dbf6c800bab40076e8f971be56020e28fab4818fb1f61c3dd2618ee1d135",  # 387 messages
    "domino_hearts": "df860ddf1125e73c8ed2d8b20acc385ce86ef4b0bc4ae6cbab235b0472abb4f7",  # 453 messages
    "auction_hearts": "992c73013e32527488315056b491d1688646018a853c72a8430c19c04edaf539",  # 505 messages
    "cancellation": "b6d5ea7714f84a6058267207fc14b99ebad4235f7375446d6b38ba1339bfa421",  # 1100 messages
    "black_maria": "a155aa353f8107b5060dc0f7ea706b19da8201e2a9fe5f476789177b9eada638",  # 440 messages
    "gong_zhu_exposed": "c16f1064ed0c76a99161d15bbd6426cc43f2b967acc104dbbb0d22e92565681d",  # 498 messages
    "double_deck_8": "8baaa25a9da78596687dcc87c26fd669ff146f9a43c6e1a7c63cf126ae03110c",  # 1416 messages
    "leekha_jawaker": "19f282eb5ac9cc5167611bb4595bb0a91e9372cfd208664aac014d27f729cd9c",  # 505 messages
    "omnibus_jd": "d9c08143300ac65fd524e1a09c2fcead03d837edb36e5b89fc092a0b8010386e",  # 505 messages
}


def _variant(name: str, hands: int) -> dict[str, Any]:
    data = hl.preset(name).to_dict()
    data["end"] = {**data["end"], "hands": hands}
    return data


def _texts(conn: Connection) -> list[str]:
    out = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        assert text is not None
        out.append(text)
    return out


async def _messages(name: str, seed: int, hands: int) -> tuple[list[list[str]], hl.Match]:
    """Play one table with a connection on every seat and a spectator from the start, then (in this order) seat
    1 on a new connection from its event 3 and a spectator from event 2, both part way; every text each
    connection received (the table's id and the seats' tokens written as ``T`` and ``K``), and the match."""
    hub = Hub(SQLiteStore(":memory:"))
    await hub.load()
    try:
        creator = Connection()
        await hub.handle(creator, json.dumps({"type": "create", "variant": _variant(name, hands), "seed": seed}))
        table = json.loads(_texts(creator)[0])["table"]
        m = hub.tables[table].match
        seats = [Connection() for _ in range(m.variant.players)]  # the connection that holds each seat now
        tokens = []
        for seat, conn in enumerate(seats):
            await hub.handle(conn, json.dumps({"type": "join", "table": table, "seat": seat}))
            tokens.append(json.loads(conn.outbox._queue[0])["token"])  # type: ignore[attr-defined]
        conns = [*seats, Connection()]  # every connection, in the order they came
        await hub.handle(conns[-1], json.dumps({"type": "spectate", "table": table}))
        received = [_texts(conn) for conn in conns]
        rng = random.Random(seed)
        steps = 0
        while not m.is_over:
            action = hst.random_action(m, rng)
            await hub.handle(seats[action.seat], json.dumps({"type": "act", "action": action.to_dict(),
                                                             "id": steps}))
            steps += 1
            for conn, texts in zip(conns, received, strict=True):
                texts += _texts(conn)
            if steps in (7, 11):
                conns.append(Connection())
                if steps == 7:
                    hub.drop(seats[1])
                    seats[1] = conns[-1]
                    message = {"type": "resume", "table": table, "token": tokens[1], "since": 3}
                else:
                    message = {"type": "spectate", "table": table, "since": 2}
                await hub.handle(conns[-1], json.dumps(message))
                received.append(_texts(conns[-1]))
        secrets = [table, *tokens]
        return [[_hide(text, secrets) for text in texts] for texts in received], m
    finally:
        hub.stop()


def _hide(text: str, secrets: list[str]) -> str:
    """``text`` with the table's id and the tokens (random) written as ``T`` and ``K``."""
    for i, secret in enumerate(secrets):
        text = text.replace(secret, "T" if i == 0 else "K")
    return text


def _digest(received: list[list[str]]) -> str:
    h = hashlib.sha256()
    for texts in received:
        h.update(b"\x00".join(t.encode() for t in texts) + b"\x01")
    return h.hexdigest()


@pytest.mark.parametrize(("name", "seed", "hands"), GAMES, ids=[g[0] for g in GAMES])
def test_every_message_of_a_played_table_is_byte_for_byte_what_it_was(name: str, seed: int, hands: int) -> None:
    received, m = asyncio.run(_messages(name, seed, hands))
    n = m.variant.players
    streams = [[json.loads(t)["event"] for t in texts if t.startswith('{"type": "event"')] for texts in received]
    # each connection's events are numbered on from where it asked, none missing or repeated
    for events, first in zip(streams, [0] * (n + 1) + [3, 2], strict=True):
        assert [e["number"] for e in events] == list(range(first, first + len(events)))
    # and each viewer's stream ends in its view of the last hand as the engine has it
    whole = [(seat, streams[seat]) for seat in range(n) if seat != 1]  # seat 1's first connection left at step 7
    for viewer, events in [*whole, (None, streams[n]), (1, streams[1][:3] + streams[n + 1]),
                           (None, streams[n][:2] + streams[n + 2])]:
        last = m.round.observation(0 if viewer is None else viewer).to_dict()
        assert follow(events) == {k: v for k, v in last.items() if viewer is not None or k not in PRIVATE_FIELDS}
    assert _digest(received) == DIGESTS.get(name), f"{name}: the messages changed"


def _reference_changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, Any]]:
    """What a stream sent before its views were cached: the fields whose data differ, in the view's order."""
    return [(k, v) for k, v in new.items() if k not in old or old[k] != v]


@pytest.mark.parametrize("name", hl.preset_names())
def test_a_cached_view_changes_exactly_where_the_whole_views_differ(name: str) -> None:
    # differential: streams.ViewCache against writing both whole views and comparing them, at every step of
    # two matches of every preset, for every seat and a spectator
    from heartslib.streams import ViewCache, view_data

    for seed in (1, 2):
        m = hl.Match(hl.preset(name), seed)
        rng = random.Random(seed)
        viewers: list[int | None] = [*range(m.variant.players), None]
        caches = {v: ViewCache(v) for v in viewers}
        views: dict[int | None, dict[str, Any]] = {v: {} for v in viewers}
        rnd = None
        for _ in range(150):
            for hand in ([rnd] if rnd is not None else []) + ([m.round] if m.round is not rnd else []):
                if hand is not rnd:  # a new hand (after the last view of the one before): every field again
                    rnd = hand
                    for v in viewers:
                        caches[v].clear()
                        views[v] = {}
                for v in viewers:
                    new = view_data(hand, v)
                    assert list(caches[v].changes(hand).items()) == _reference_changes(views[v], new), (name, v)
                    views[v] = new
            if m.is_over:
                break
            m.apply(hst.random_action(m, rng))
