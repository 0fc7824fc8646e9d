"""``heartslib serve`` writes the messages a connection is sent in one turn of the event loop together, and the
hub's pump sends several in a row only to such a protocol (issue 54's load work): the messages, their order and a
gone client's handling are those of the unbatched path."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")

from heartslib.server import app, tables


class TurnSocket:
    """A send that only records each message with the loop turn it was sent in (as a batching protocol queues it),
    the client going away after ``lose_after`` messages: a send after that raises, as uvicorn's does."""

    def __init__(self, lose_after: int | None = None) -> None:
        self.turn = 0
        self.sent: list[tuple[int, str]] = []
        self.lose_after = lose_after

    async def ticker(self) -> None:
        while True:
            await asyncio.sleep(0)
            self.turn += 1

    async def send(self, text: str) -> None:
        if self.lose_after is not None and len(self.sent) >= self.lose_after:
            raise ConnectionResetError("the client is gone")
        self.sent.append((self.turn, text))


def _queued(count: int) -> tables.Connection:
    """A connection with ``count`` event messages waiting to be sent."""
    conn = tables.Connection()
    for i in range(count):
        conn.send_data({"type": "event", "n": i})
    return conn


async def _pump(conn: tables.Connection, sock: TurnSocket, batched: bool) -> None:
    tick = asyncio.create_task(sock.ticker())
    await asyncio.sleep(0)
    try:
        await asyncio.wait_for(conn.pump(sock.send, batched=batched), 5)
    finally:
        tick.cancel()


def test_a_batched_pump_sends_up_to_a_batch_a_turn_in_order_and_stops_at_a_gone_client() -> None:
    async def main() -> None:
        count = 3 * tables.BATCH + 5
        conn = _queued(count)
        sock = TurnSocket(lose_after=count)
        task = asyncio.create_task(_pump(conn, sock, batched=True))
        while len(sock.sent) < count:
            await asyncio.sleep(0)
        assert [text for _, text in sock.sent] == [f'{{"type": "event", "n": {i}}}' for i in range(count)]
        turns = [turn for turn, _ in sock.sent]
        assert max(turns.count(t) for t in set(turns)) == tables.BATCH  # a batch a turn, no more
        assert len(set(turns)) == 4
        assert not task.done() and not conn.closed  # nothing more queued: the pump waits
        conn.send_data({"type": "pong"})  # the client is gone now: this send fails and ends the pump
        await task
        assert conn.closed

    asyncio.run(main())


def test_an_unbatched_pump_sends_one_message_a_turn() -> None:
    async def main() -> None:
        conn = _queued(10)
        conn.close()  # what was queued is dropped: the pump stops at once
        sock = TurnSocket()
        await _pump(conn, sock, batched=False)
        assert sock.sent == []
        conn = _queued(10)
        task = asyncio.create_task(_pump(conn, sock, batched=False))
        while len(sock.sent) < 10:
            await asyncio.sleep(0)
        conn.close()
        await task
        turns = [turn for turn, _ in sock.sent]
        assert len(set(turns)) == 10  # one a turn: a vanished client's loss is seen between two writes

    asyncio.run(main())


def test_heartslib_serve_uses_the_batching_protocol_with_this_uvicorn() -> None:
    # a uvicorn without the protocol it builds on would silently fall back to writing each message at once
    sansio = pytest.importorskip("uvicorn.protocols.websockets.websockets_sansio_impl")
    assert isinstance(app._WEBSOCKET, type) and issubclass(app._WEBSOCKET, sansio.WebSocketsSansIOProtocol)
    assert tables.BATCHED_SEND == "heartslib.batched_send"
