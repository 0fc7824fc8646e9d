"""Load on the game server: many concurrent tables of WebSocket bots against a ``heartslib serve`` subprocess.

Every seat of every table is a bot on its own WebSocket connection (the protocol of docs/server.md, through the
``websockets`` client): it follows its events, asks for its legal actions when the events say it is to act,
sends one at random and times the action's acknowledgement. ``--tables`` tables play at once; each plays
``--matches`` matches one after another (a new table each time). The server runs on 127.0.0.1 only and every
loop is bounded (a match is finite; each wait has a timeout), so the run stops by itself.

Measured: the latency from sending ``act`` to receiving its ``ack`` (p50/p95/p99/max), actions a second, the
server's resident memory (``VmRSS``) after each wave of finished matches, and, at the end, a check that every
table's stored actions are exactly those the clients had acknowledged (none lost, none duplicated) and replay
to a finished match.

    python benchmarks/server_load.py                      # 200 tables, one one-hand match each
    python benchmarks/server_load.py --tables 2 --matches 1 --hands 1 --json out.json
    python benchmarks/server_load.py --tables 200 --matches 50 --hands 1   # 10,000 matches, memory over time
    python benchmarks/server_load.py --requests           # the event loop's time for the costliest requests
    python benchmarks/server_load.py --restart 10000      # a restart on 10,000 finished matches: its first replies
    python benchmarks/server_load.py --servers 2 --database postgresql://...   # two processes, one database

``--requests`` measures, in process (the hub without the network), how long each request type holds the event
loop at most: the longest stretch between two turns of a task that yields at every turn while the request is
answered (nothing else runs meanwhile), and the request's own time, which may include work done in threads.

``--hands 0`` plays whole matches (to the variant's target); ``--hands N`` ends a match after N hands
(``end.hands``), which keeps a long memory run within this machine's reach. docs/server.md has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import heartslib as hl
from heartslib.server.store import open_store

#: The longest a bot waits for one message before the run is declared stuck.
WAIT = 60.0


class Stats:
    """What the bots measured."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.acked: dict[str, dict[int, dict[str, Any]]] = {}  # table -> action number -> action as acked
        self.duplicates = 0  # an action number acknowledged twice at one table
        self.refused: dict[str, int] = {}  # error codes met (a stale view may ask too early)
        self.matches = 0
        self.created: set[str] = set()  # the tables this run created (a shared database may hold others)


class Bot:
    """One seat's connection: follows ``to_act`` from its events and plays random legal actions."""

    def __init__(self, ws: ClientConnection, seat: int, rng: random.Random, stats: Stats, think: float) -> None:
        self.ws, self.seat, self.rng, self.stats, self.think = ws, seat, rng, stats, think
        self.free_pass = True  # whether any cards of the hand make a legal pass (no pass restriction met yet)
        self.view: dict[str, Any] = {}  # the fields of the seat's observation the bot reads
        self.to_act: list[int] = []
        self.events = 0
        self.over = False
        self._ids = 0

    def _see(self, data: dict[str, Any]) -> None:
        if data.get("type") == "event":
            event = data["event"]
            self.events += 1
            self.view.update(event["changes"])
            self.to_act = self.view.get("to_act", self.to_act)
            self.over = self.over or event["kind"] == "end"

    async def receive(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT))
        self._see(data)
        return data

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self._ids += 1
        await self.ws.send(json.dumps({**message, "id": self._ids}))
        while True:
            data = await self.receive()
            if data.get("id") == self._ids:
                return data

    async def play(self, table: str) -> None:
        """Play the seat until the match ends (a match has a bounded number of actions)."""
        while not self.over:
            if self.seat not in self.to_act:
                await self.receive()
                continue
            if self.think:
                await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            action = await self.choose()
            if action is None:
                await self.receive()  # the view was behind
                continue
            start = time.perf_counter()
            ack = await self.request({"type": "act", "action": action})
            self.stats.latencies.append(time.perf_counter() - start)
            if ack["type"] != "ack":
                self.stats.refused[ack["code"]] = self.stats.refused.get(ack["code"], 0) + 1
                self.free_pass = False  # a restricted pass: ask the server from now on
                continue
            self._record(table, ack)
            while self.events < ack["events"]:  # the action's own events follow its ack
                await self.receive()

    async def choose(self) -> dict[str, Any] | None:
        """A random legal action: a pass drawn from the hand (as a bot would choose it, rather than asking for
        a list of hundreds of passes), a play or a decision from the server's list."""
        if self.free_pass and self.view.get("phase") == "pass" and self.view.get("passed") is None:
            return {"type": "pass", "cards": self.rng.sample(self.view["hand"], self.view["pass_count"])}
        legal = await self.request({"type": "legal"})
        return self.rng.choice(legal["actions"]) if legal.get("actions") else None

    def _record(self, table: str, ack: dict[str, Any]) -> None:
        acked = self.stats.acked.setdefault(table, {})
        if ack["number"] in acked:
            self.stats.duplicates += 1
        acked[ack["number"]] = ack["action"]


async def _join(url: str, table: str, seat: int, rng: random.Random, stats: Stats, think: float) -> Bot:
    ws = await connect(url, max_size=2**22, open_timeout=WAIT, ping_interval=None)
    bot = Bot(ws, seat, rng, stats, think)
    reply = await bot.request({"type": "join", "table": table, "seat": seat})
    if reply["type"] != "joined":
        raise RuntimeError(f"join refused: {reply}")
    return bot


async def _table_slot(url: str, variant: dict[str, Any], slot: int, args: argparse.Namespace, stats: Stats,
                      done: asyncio.Queue[int | Exception]) -> None:
    """One table after another at this slot: create, four bots join and play it, close."""
    try:
        for match_number in range(args.matches):
            await _one_match(url, variant, args.seed * 1_000_003 + slot * 10_007 + match_number, stats, args.think)
            await done.put(1)
    except Exception as exc:  # reported by _drive, which stops the run
        await done.put(exc)


async def _one_match(url: str, variant: dict[str, Any], seed: int, stats: Stats, think: float) -> None:
    """Create a table, seat four bots and play its match to the end."""
    rng = random.Random(seed)
    async with connect(url, open_timeout=WAIT, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "create", "variant": variant, "seed": seed}))
        created = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    if created["type"] != "created":
        raise RuntimeError(f"create refused: {created}")
    table = created["table"]
    stats.created.add(table)
    bots = [await _join(url, table, seat, random.Random(rng.random()), stats, think) for seat in range(4)]
    try:
        await asyncio.gather(*(bot.play(table) for bot in bots))
    finally:
        for bot in bots:
            await bot.ws.close()
    stats.matches += 1


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """A process's CPU time so far (user and system), or one of its threads' (``thread``: its id; the process's
    own id names its main thread, the event loop's), from Linux's /proc."""
    path = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loop_seconds(pids: list[int]) -> float:
    """The servers' main threads' CPU time so far (their event loops', without the store's and the agents'
    threads)."""
    return sum(cpu_seconds(pid, pid) for pid in pids)


def rss_kib(pid: int) -> int:
    """A process's resident memory in KiB (Linux's /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+)", status)
    return int(found.group(1)) if found else 0


async def _drive(urls: list[str], pids: list[int], args: argparse.Namespace, stats: Stats) -> list[tuple[int, int]]:
    """Run every slot (slot ``i`` plays on server ``i`` modulo their number: all of a table's players connect to
    the process that holds it); returns (matches finished, the servers' RSS in KiB) after each wave of
    ``--tables`` matches."""
    variant = hl.preset(args.variant).to_dict()
    if args.hands:
        variant["end"] = {**variant["end"], "hands": args.hands}
    done: asyncio.Queue[int | Exception] = asyncio.Queue()
    tasks = [asyncio.create_task(_table_slot(urls[slot % len(urls)], variant, slot, args, stats, done))
             for slot in range(args.tables)]
    memory = [(0, sum(map(rss_kib, pids)))]
    total = args.tables * args.matches
    finished = 0
    while finished < total:
        try:
            outcome = await asyncio.wait_for(done.get(), WAIT * 4)
        except TimeoutError:
            raise RuntimeError("no match finished for four minutes: the run is stuck") from None
        if isinstance(outcome, BaseException):
            raise RuntimeError(f"a table slot failed: {outcome!r}") from outcome
        finished += 1
        if finished % args.tables == 0:
            memory.append((finished, sum(map(rss_kib, pids))))
    await asyncio.gather(*tasks)
    return memory


def check_records(database: str, stats: Stats) -> dict[str, int]:
    """Compare each table the run created with the actions acknowledged to its clients, and replay them."""
    store = open_store(database)
    lost = extra = differ = unfinished = actions = 0
    ours = stats.created | set(stats.acked)
    try:
        for record in store.tables():
            if record.id not in ours:
                continue
            stored = store.actions(record.id)
            acked = stats.acked.get(record.id, {})
            actions += len(stored)
            lost += sum(1 for n in acked if n >= len(stored))
            extra += sum(1 for n in range(len(stored)) if n not in acked)
            differ += sum(1 for n, a in enumerate(stored) if n in acked and acked[n] != a)
            unfinished += not _replays_to_the_end(record, stored)
    finally:
        store.close()
    return {"tables": len(stats.acked), "stored_actions": actions, "lost": lost, "unacknowledged_stored": extra,
            "different": differ, "duplicated": stats.duplicates, "unfinished": unfinished}


def _replays_to_the_end(record: Any, stored: list[dict[str, Any]]) -> bool:
    """Whether a table's stored actions replay, every one legal, to a finished match."""
    m = hl.Match(hl.Variant.from_dict(dict(record.variant)), record.seed)
    try:
        for data in stored:
            m.apply(hl.action_from_dict(data))
    except ValueError:
        return False
    return m.is_over


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def start_server(database: str, log: Any, profile: str | None = None) -> tuple[subprocess.Popen[str], str]:
    """``heartslib serve`` on a free loopback port (under cProfile, writing its statistics to ``profile`` when it
    stops, if given); returns the process and its WebSocket URL."""
    python = [sys.executable] + (["-m", "cProfile", "-o", profile] if profile else [])
    proc = subprocess.Popen([*python, "-m", "heartslib", "serve", "--host", "127.0.0.1", "--port", "0",
                             "--database", database], stdout=subprocess.PIPE, stderr=log, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"ws://\S+/ws", line)
    if not found:
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return proc, found.group(0)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the servers, drive the tables, stop the servers; the figures as data."""
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database or os.path.join(tmp, "load.sqlite3")
        log_path = os.path.join(tmp, "server.log")
        stats = Stats()
        with open(log_path, "w") as log:
            procs: list[subprocess.Popen[str]] = []
            try:
                urls = []
                for n in range(args.servers):
                    profile = args.profile and (args.profile if args.servers == 1 else f"{args.profile}.{n}")
                    proc, url = start_server(database, log, profile)
                    procs.append(proc)
                    urls.append(url)
                pids = [proc.pid for proc in procs]
                start, cpu, loop = time.perf_counter(), sum(map(cpu_seconds, pids)), loop_seconds(pids)
                memory = asyncio.run(_drive(urls, pids, args, stats))
                elapsed, cpu = time.perf_counter() - start, sum(map(cpu_seconds, pids)) - cpu
                loop = loop_seconds(pids) - loop
            finally:
                for proc in procs:
                    # uvicorn ends by raising the signal it stopped on: an interrupt lets cProfile write first
                    proc.send_signal(signal.SIGINT) if args.profile else proc.terminate()
                for proc in procs:
                    proc.wait(30)
        server_log = Path(log_path).read_text()
        check = check_records(database, stats)
    lat = stats.latencies
    return {
        "settings": {"tables": args.tables, "matches": args.matches, "hands": args.hands, "think": args.think,
                     "variant": args.variant, "servers": args.servers,
                     "database": "postgresql" if database.startswith("postgresql://") else "sqlite",
                     "seed": args.seed, "cpus": os.cpu_count(), "load_before": args.load_before,
                     "load_after": round(os.getloadavg()[0], 2)},
        "matches": stats.matches, "seconds": round(elapsed, 2), "actions": len(lat),
        "actions_per_second": round(len(lat) / elapsed, 1),
        "server_cpu_seconds": round(cpu, 2), "server_cpu_ms_per_action": round(1000 * cpu / max(1, len(lat)), 3),
        "loop_cpu_ms_per_action": round(1000 * loop / max(1, len(lat)), 3),
        "latency_ms": {name: round(1000 * _percentile(lat, q), 2)
                       for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))},
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "refused": stats.refused, "records": check, "rss_kib": memory,
        "server_traceback": "Traceback" in server_log,
    }


class _Client:
    """A connection to the hub without a network (for ``--requests``)."""

    def __init__(self, hub: Any) -> None:
        from heartslib.server.tables import Connection

        self.hub, self.conn = hub, Connection()

    async def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """The reply to ``message`` (the events that come with it are dropped)."""
        await self.hub.handle(self.conn, json.dumps(message))
        reply: dict[str, Any] = {}
        while not self.conn.outbox.empty():
            text = self.conn.outbox.get_nowait() or "{}"
            if not text.startswith('{"type": "event"'):  # events are not read: their parsing is the client's cost
                reply = json.loads(text)
        return reply


async def _once(request: Any, watch: bool) -> tuple[float, float, float]:
    """One run of ``request()``: the CPU time the event loop's thread spent on it (not ``watch``ed: the watcher
    spins), the longest stretch it held the loop (``watch``ed; this also counts waits for the GIL held by
    threads), and its wall time."""
    stop = asyncio.Event()

    async def watcher() -> float:  # yields at every turn of the loop
        longest = 0.0
        while not stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0)
            longest = max(longest, time.perf_counter() - t)
        return longest

    tick = asyncio.create_task(watcher()) if watch else None
    await asyncio.sleep(0)
    start, busy = time.perf_counter(), time.thread_time()
    await request()
    cpu, wall = time.thread_time() - busy, time.perf_counter() - start
    stop.set()
    return (0.0 if watch else cpu), (await tick if tick is not None else 0.0), wall


def _worst(runs: list[tuple[float, float, float]]) -> dict[str, float]:
    return {name: round(1000 * max(run[k] for run in runs), 2)
            for k, name in enumerate(("loop_cpu_ms", "longest_hold_ms", "wall_ms"))}


async def _timed(request: Any, repeat: int) -> dict[str, float]:
    """The worst of ``repeat`` runs of ``request()`` measured each way (:func:`_once`)."""
    return _worst([await _once(request, watch) for _ in range(repeat) for watch in (False, True)])


async def _requests(database: str, repeat: int) -> dict[str, dict[str, float]]:
    """Each request type's loop time (see ``--requests``): the costliest case of each the issue named."""
    from heartslib.server.store import open_store
    from heartslib.server.tables import Hub

    hub = Hub(open_store(database))
    await hub.load()
    c = _Client(hub)
    out: dict[str, dict[str, float]] = {}
    try:
        out["create"] = await _timed(lambda: c.send({"type": "create", "seats": [None] * 4}), repeat)
        tables = [(await c.send({"type": "create", "seats": [None] * 4, "seed": 1}))["table"] for _ in range(2)]
        seats = iter(range(4))
        out["join"] = _worst([await _once(lambda: c.send({"type": "join", "table": tables[0], "seat": next(seats)}),
                                          watch) for watch in (False, True)])
        out["legal: a standard pass"] = await _timed(lambda: c.send({"type": "legal"}), repeat)
        out["act"] = await _acts(hub, tables[1])
        table = (await c.send({"type": "create", "seats": [None] * 4, "seed": 1}))["table"]
        out["act: the mean of a hand's 56, with two spectators"] = await _acts(hub, table, spectators=2, mean=True)
        two_decks = {"name": "standard", "deck": {"decks": 2, "strip": []}, "passing": {"cards": 6}}
        for name, variant in (("legal: 6 of two decks' 26 cards", two_decks),
                              ("legal: the same, keep_last_of_suit",
                               {**two_decks, "passing": {"cards": 6, "keep_last_of_suit": True}})):
            deck_table = (await c.send({"type": "create", "variant": variant, "seats": [None] * 4}))["table"]
            await c.send({"type": "join", "table": deck_table, "seat": 0})
            out[name] = await _timed(lambda: c.send({"type": "legal"}), repeat)
        long, token = await _long_match(hub, c)
        out["resume: a whole match, from 0"] = await _timed(
            lambda: _Client(hub).send({"type": "resume", "table": long, "token": token}), repeat)
        out["spectate: a whole match, from 0"] = await _timed(
            lambda: _Client(hub).send({"type": "spectate", "table": long}), repeat)
        for client in list(hub.tables[long].subscribers):
            hub.drop(client)
        out["spectate: a finished table read back"] = await _timed(lambda: _reread(hub, long), repeat)
    finally:
        hub.stop()
        hub.store.close()
    return out


async def _acts(hub: Any, table: str, spectators: int = 0, mean: bool = False) -> dict[str, float]:
    """The costliest ``act`` (or with ``mean``, the mean) of the first hand of a table of four clients and
    ``spectators`` (no agent, so nothing else runs meanwhile), each act measured one way or the other
    (:func:`_once`)."""
    clients = [_Client(hub) for _ in range(4 + spectators)]
    for seat, client in enumerate(clients):
        await client.send({"type": "join", "table": table, "seat": seat} if seat < 4 else
                          {"type": "spectate", "table": table})
    m = hub.tables[table].match
    runs = []
    for n in range(4 + 52):
        client = clients[m.to_act[0]]
        action = (await client.send({"type": "legal"}))["actions"][0]
        runs.append(await _once(lambda c=client, a=action: c.send({"type": "act", "action": a}), n % 2 == 1))
        for watcher in clients[4:]:
            while not watcher.conn.outbox.empty():
                watcher.conn.outbox.get_nowait()
    if not mean:
        return _worst(runs)
    columns = ([run[0] for run in runs[0::2]], [run[1] for run in runs[1::2]], [run[2] for run in runs])
    return {name: round(1000 * statistics.fmean(values), 3)
            for name, values in zip(("loop_cpu_ms", "longest_hold_ms", "wall_ms"), columns, strict=True)}


async def _long_match(hub: Any, c: _Client) -> tuple[str, str]:
    """A whole standard match (to 100) with seat 0 played by ``c`` and three random agents; returns the table and
    seat 0's token."""
    table = (await c.send({"type": "create", "seats": [None, "random", "random", "random"], "seed": 2}))["table"]
    token = (await c.send({"type": "join", "table": table, "seat": 0}))["token"]
    m = hub.tables[table].match
    while not m.is_over:
        if 0 not in m.to_act:
            await asyncio.sleep(0.001)
            continue
        await c.send({"type": "act", "action": (await c.send({"type": "legal"}))["actions"][0]})
    return table, token


async def _reread(hub: Any, table: str) -> None:
    """Spectate ``table`` from a fresh connection and leave, so that the finished table leaves memory again."""
    client = _Client(hub)
    await client.send({"type": "spectate", "table": table})
    hub.drop(client.conn)


def build_finished(database: str, count: int, seed: int) -> None:
    """A database of ``count`` finished one-hand standard matches (one match's actions, stored for each of
    ``count`` tables and marked finished), written through the server's own store. It is built in a RAM-backed
    folder where there is one (``/dev/shm``: a commit there waits for no disk) and then copied to ``database``."""
    import shutil

    from heartslib import strategies as hst
    from heartslib.server.store import TableRecord

    variant = hl.preset("standard").to_dict()
    variant["end"] = {**variant["end"], "hands": 1}
    m = hl.Match(hl.Variant.from_dict(variant), seed)
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(hst.random_action(m, rng))
    actions = [a.to_dict() for a in m.actions]
    ram = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=ram) as tmp:
        path = os.path.join(tmp, "finished.sqlite3")
        store = open_store(path)
        try:
            for n in range(count):
                table = f"finished-{n:06d}"
                store.create_table(TableRecord(table, variant, seed, ("random",) * 4))
                store.add_actions([(table, i, a) for i, a in enumerate(actions)])
                store.mark_finished(table)
        finally:
            store.close()
        shutil.copy(path, database)


async def _first_replies(url: str, table: str) -> dict[str, float]:
    """Seconds to connect and be answered a ``ping``, then a ``spectate`` of a finished table (read back from the
    database on demand; from past its end, so that no event is left unread when the client closes)."""
    start = time.perf_counter()
    out: dict[str, float] = {}
    async with connect(url, max_size=2**22, open_timeout=WAIT, ping_interval=None) as ws:
        requests = (("ping", {"type": "ping"}), ("spectate", {"type": "spectate", "table": table, "since": 10**9}))
        for name, message in requests:
            await ws.send(json.dumps({**message, "id": name}))
            while json.loads(await asyncio.wait_for(ws.recv(), WAIT)).get("id") != name:
                pass
            out[f"{name}_answered_s"] = round(time.perf_counter() - start, 3)
    return out


def restart(args: argparse.Namespace) -> dict[str, Any]:
    """``--restart N``: start ``heartslib serve`` on a database of N finished matches; the seconds until it
    prints its address, answers a ping, and serves one of those tables."""
    with tempfile.TemporaryDirectory() as tmp:
        database = os.path.join(tmp, "finished.sqlite3")
        built = time.perf_counter()
        build_finished(database, args.restart, args.seed)
        built = time.perf_counter() - built
        with open(os.path.join(tmp, "server.log"), "w") as log:
            start = time.perf_counter()
            proc, url = start_server(database, log)
            listening = time.perf_counter() - start
            try:
                replies = asyncio.run(_first_replies(url, f"finished-{args.restart - 1:06d}"))
                rss = rss_kib(proc.pid)
            finally:
                proc.terminate()
                proc.wait(30)
        traceback = "Traceback" in Path(log.name).read_text()
    return {"finished_matches": args.restart, "build_s": round(built, 1), "address_printed_s": round(listening, 3),
            **{k: round(v + listening, 3) for k, v in replies.items()}, "rss_kib": rss,
            "server_traceback": traceback, "load_before": args.load_before}


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run, print the figures (and write them as JSON with ``--json``)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    p.add_argument("--matches", type=int, default=1, help="matches each table slot plays in turn (default 1)")
    p.add_argument("--hands", type=int, default=1, help="end a match after this many hands; 0: play to the "
                   "variant's target (default 1)")
    p.add_argument("--variant", default="standard", help="a four-seat preset (default standard)")
    p.add_argument("--think", type=float, default=0.0, help="a bot waits a random time, on average this many "
                   "seconds, before each action (default 0: act at once, the server saturated)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--database", help="the SQLite file or postgresql:// URL the servers use (default: a temporary "
                   "SQLite file)")
    p.add_argument("--servers", type=int, default=1, help="server processes sharing the database (a "
                   "postgresql:// one when more than 1); table slot i plays on process i modulo N (default 1)")
    p.add_argument("--json", help="also write the figures to this file")
    p.add_argument("--profile", help="run the server under cProfile, writing its statistics to this file when it "
                   "stops (PATH.N for server N of several): where the event loop's time goes")
    p.add_argument("--requests", action="store_true", help="measure the event loop's time for the costliest "
                   "request of each type instead (in process)")
    p.add_argument("--repeat", type=int, default=5, help="with --requests: runs of each request (default 5)")
    p.add_argument("--restart", type=int, metavar="N", help="instead: start the server on a database of N "
                   "finished matches and time its first replies")
    args = p.parse_args(argv)
    args.load_before = round(os.getloadavg()[0], 2)
    if args.restart is not None:
        if args.restart < 1:
            p.error("--restart is at least 1")
        figures = restart(args)
        print(json.dumps(figures, indent=1))
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=1))
        return 1 if figures["server_traceback"] else 0
    if args.requests:
        with tempfile.TemporaryDirectory() as tmp:
            costs = asyncio.run(_requests(args.database or os.path.join(tmp, "requests.sqlite3"), args.repeat))
        print(json.dumps(costs, indent=1))
        if args.json:
            Path(args.json).write_text(json.dumps(costs, indent=1))
        return 0
    if args.tables < 1 or args.matches < 1 or args.hands < 0 or not 0 <= args.think <= 60:
        p.error("--tables and --matches are at least 1, --hands at least 0, --think from 0 to 60")
    if args.servers < 1 or (args.servers > 1 and not (args.database or "").startswith("postgresql://")):
        p.error("--servers is at least 1; more than one share a PostgreSQL database: --database postgresql://...")
    if hl.preset(args.variant).players != 4:
        p.error(f"--variant: the bots seat four players; {args.variant} has {hl.preset(args.variant).players}")
    figures = run(args)
    print(json.dumps(figures, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    ok = not any(figures["records"][k] for k in ("lost", "unacknowledged_stored", "different", "duplicated",
                                                 "unfinished"))
    return 0 if ok and not figures["server_traceback"] else 1


if __name__ == "__main__":
    sys.exit(main())
