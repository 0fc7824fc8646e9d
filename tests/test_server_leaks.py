"""The server's messages through the leak harness (heartslib.testing, STYLE §31): every text a seat's connection,
and a spectator's, receives while a server table plays a hand must not change when two cards hidden from that
seat are swapped in the deal – passes, the cards received, a kitty, stock draws and exposed cards included.

The harness gives a hand as a :class:`~heartslib.Round` (dealt, then random actions); each is played again at a
table of the hub (in process, an in-memory store): a connection joins every seat and one spectates, and each
action is sent by its seat's connection as an ``act`` message. The hand's deal is read back from the round's
public record (its events and each seat's observation) and checked to replay to the same round.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")

import heartslib as hl
from heartslib.server.store import SQLiteStore, TableRecord
from heartslib.server.tables import Connection, Hub, Table
from heartslib.testing import check_no_leak

#: Passes of each kind, stock draws (two-handed: after each trick; domino: to follow), a kitty, two decks,
#: exposed cards, an auction's decisions.
VARIANTS = ["standard", "two_handed", "domino_hearts", "black_maria", "cancellation", "gong_zhu_exposed",
            "auction_hearts", "omnibus_jd"]


def _deal_of(r: hl.Round) -> tuple[list[list[hl.Card]], list[hl.Card]]:
    """The hands and the kitty (or stock, top card first) ``r`` was dealt, read from its events and the seats'
    observations: each hand is what it holds, plus what it played and passed, less what it received and drew
    from the stock; the kitty, what is left of it after the draws and the cards taken with a trick."""
    n = r.variant.players
    gained: list[Counter[hl.Card]] = [Counter(r.observation(seat).drawn) for seat in range(n)]
    gone: list[Counter[hl.Card]] = [Counter(r.hand(seat)) for seat in range(n)]  # held now, or played or passed
    passed: list[tuple[hl.Card, ...]] = [() for _ in range(n)]  # in the hand until the exchange
    taken: list[hl.Card] = []  # the kitty's cards taken with a trick (never into a hand)
    for e in r.events:
        if isinstance(e, hl.Play):
            gone[e.seat][e.card] += 1
        elif isinstance(e, hl.Pass):
            passed[e.seat] = e.cards
        elif isinstance(e, hl.PassesExchanged):
            for seat, cards in enumerate(e.received):
                gained[seat].update(cards)
                gone[seat].update(passed[seat])
        elif isinstance(e, hl.KittyTaken):
            taken += e.cards
    drawn = [list(r.observation(seat).drawn) for seat in range(n)]
    stock: list[hl.Card] = []
    for _, seat, count in r.observation(0).draws:  # the draws in order: the stock's top cards went first
        stock += drawn[seat][:count]
        drawn[seat] = drawn[seat][count:]
    hands = [list((gone[seat] - gained[seat]).elements()) for seat in range(n)]
    return hands, [*stock, *taken, *r.kitty]


def _actions(r: hl.Round) -> list[hl.Action]:
    return [e for e in r.events if isinstance(e, hl.Play | hl.Pass | hl.Choose)]


def _match_of(r: hl.Round) -> hl.Match:
    """A match dealt as ``r`` was, checked to replay to the same round."""
    hands, kitty = _deal_of(r)
    m = hl.Match.from_deal(r.variant, hands, scores=r.scores, dealer=r.dealer, hand_number=r.hand_number,
                           kitty=kitty, passing=r.passing, seed=1)
    replay = m.copy()
    for action in _actions(r):
        replay.apply(action)
    n = r.variant.players
    assert [replay.observation(s) for s in range(n)] == [r.observation(s) for s in range(n)], "deal misread"
    assert Counter(c for s in range(n) for c in replay.round.hand(s)) == Counter(c for s in range(n)
                                                                                  for c in r.hand(s))
    return m


async def _table_messages(r: hl.Round) -> list[list[str]]:
    """Every text each seat's connection, then a spectator's, receives while a hub's table plays ``r``'s
    actions from its deal (the tokens the seats are given left out: they are random)."""
    hub = Hub(SQLiteStore(":memory:"))
    await hub.load()
    try:
        m = _match_of(r)
        n = m.variant.players
        record = TableRecord("t", m.variant.to_dict(), 1, ("open",) * n)
        hub.store.create_table(record)
        hub.tables["t"] = Table(record, m)
        conns = [Connection() for _ in range(n + 1)]
        for seat, conn in enumerate(conns[:n]):
            await hub.handle(conn, json.dumps({"type": "join", "table": "t", "seat": seat}))
        await hub.handle(conns[n], json.dumps({"type": "spectate", "table": "t"}))
        for action in _actions(r):
            await hub.handle(conns[action.seat], json.dumps({"type": "act", "action": action.to_dict()}))
        out = []
        for conn in conns:
            texts = []
            while not conn.outbox.empty():
                data: dict[str, Any] = json.loads(conn.outbox.get_nowait() or "null")
                assert data.get("type") != "error", data
                data.pop("token", None)
                texts.append(json.dumps(data))
            out.append(texts)
        return out
    finally:
        hub.stop()


class _Messages:
    """The view the harness compares: the messages ``seat`` and the spectator received (one table played per
    round, kept while the harness compares the swaps of one example)."""

    def __init__(self) -> None:
        self._played: dict[int, tuple[hl.Round, list[list[str]]]] = {}

    def __call__(self, r: hl.Round, seat: int) -> list[str]:
        found = self._played.get(id(r))
        if found is None or found[0] is not r:
            if len(self._played) > 64:
                self._played.clear()
            found = self._played[id(r)] = (r, asyncio.run(_table_messages(r)))
        messages = found[1]
        return messages[seat] + messages[-1]


@pytest.mark.parametrize("name", VARIANTS)
def test_no_server_message_shows_a_seat_a_card_hidden_from_it(name: str) -> None:
    check_no_leak(_Messages(), hl.preset(name), max_examples=6)


def test_a_table_replays_the_deal_read_back_from_a_round() -> None:
    # the harness's rounds are dealt by the harness, not by the server: each is read back and replayed, here
    # with every kind of hand the tests above meet (a stock drawn from, a kitty taken, passes made)
    import random

    from heartslib import strategies as hst

    for name in VARIANTS:
        v = hl.preset(name)
        for seed in range(3):
            r = hl.Round.deal(v, seed=seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(v.players * v.deal_size)):
                if not r.to_act:
                    break
                r.apply(hst.random_action(r, rng))
            messages = asyncio.run(_table_messages(r))
            assert len(messages) == v.players + 1 and all(messages)


def test_the_harness_catches_a_server_that_shows_another_seats_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # a pass leak planted in the streams the server sends (the one that once passed 118 tests): caught
    from heartslib import streams

    event = streams._Redactor.event

    def leaky(self: Any, e: Any) -> tuple[Any, ...]:
        if isinstance(e, hl.Pass):
            return streams.EventKind.PASS, e.seat, e.cards, None, None, None
        return event(self, e)

    monkeypatch.setattr(streams._Redactor, "event", leaky)
    with pytest.raises(AssertionError, match="changed when"):
        check_no_leak(_Messages(), hl.preset("standard"), max_examples=20)
