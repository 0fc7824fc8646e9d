"""Where the game server keeps its tables: SQLite (one file, the standard library's ``sqlite3``) or PostgreSQL
(``psycopg`` 3, for several server processes sharing tables).

A table is stored as its start (the variant, the seed) and its seats; every action applied to it is one row,
committed before the server acknowledges it. A restarted server rebuilds each table by replaying its
actions, so nothing acknowledged is ever lost. Tokens are stored as SHA-256 digests, never as written.

>>> store = open_store(":memory:")
>>> store.create_table(TableRecord("t1", {"name": "standard"}, 7, ("open", "random", "random", "random")))
>>> store.add_action("t1", 0, {"type": "pass", "seat": 0, "cards": ["2C", "3C", "4C"]})
>>> store.claim_seat("t1", 0, token_digest("secret")), store.claim_seat("t1", 0, token_digest("other"))
(True, False)
>>> [t.id for t in store.tables()], len(store.actions("t1"))
(['t1'], 1)
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Any
from urllib.parse import unquote

import attrs

from heartslib.actions import action_from_dict
from heartslib.errors import SaveError
from heartslib.match import Match
from heartslib.record import record_text, to_record
from heartslib.variant import Variant

_log = logging.getLogger("heartslib.server")

__all__ = ["RECORD_FORMATS", "PostgresStore", "RecordRefused", "SQLiteStore", "Store", "StoreConflict",
           "StoreUnavailable", "TableRecord", "export_record", "open_store", "safe_url", "stored_match", "token_digest"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS hl_tables (id TEXT PRIMARY KEY, variant TEXT NOT NULL, seed BIGINT NOT NULL, "
    "seats TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hl_tokens (table_id TEXT NOT NULL, seat INTEGER NOT NULL, digest TEXT NOT NULL, "
    "PRIMARY KEY (table_id, seat))",
    "CREATE TABLE IF NOT EXISTS hl_actions (table_id TEXT NOT NULL, number INTEGER NOT NULL, action TEXT NOT NULL, "
    "PRIMARY KEY (table_id, number))",
    # the tables whose match is over: a restart leaves them in the database until someone asks for one
    "CREATE TABLE IF NOT EXISTS hl_finished (table_id TEXT PRIMARY KEY)",
)


def token_digest(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@attrs.frozen
class TableRecord:
    """A table's start as stored: its id, the variant as data, the seed, and each seat's kind (``"open"`` for a
    player's seat, or a built-in agent's description, e.g. ``"random"`` or ``"search:20"``)."""

    id: str
    variant: Mapping[str, Any]
    seed: int
    seats: tuple[str, ...]


class StoreConflict(SaveError):
    """An action with that number is stored already (another server process applied it first)."""


class StoreUnavailable(SaveError):
    """The database failed (a full disk, a lost connection, a lock held too long): nothing was written, and the
    same request may succeed later. The driver's error is the ``__cause__``."""


class Store:
    """The operations the server needs, in portable SQL; :class:`SQLiteStore` and :class:`PostgresStore`
    supply the connection. Every write is one committed transaction."""

    #: Whether other processes may write to the same database (the server then listens for their actions).
    shared = False
    _mark = "?"

    def __init__(self, connection: Any) -> None:
        self._conn = connection
        self._lock = threading.Lock()  # one connection: the hub's store thread and its replays take turns
        with self._transaction() as cur:
            for statement in _SCHEMA:
                cur.execute(statement)

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction, committed at the end; a failure rolls it back, and a database's own failure (not a
        refused duplicate) becomes :class:`StoreUnavailable`."""
        with self._lock:
            try:
                self._reopen()
                cur = self._conn.cursor()
                try:
                    yield cur
                    self._conn.commit()
                finally:
                    cur.close()
            except BaseException as exc:
                with suppress(Exception):  # a connection that failed may fail to roll back too
                    self._conn.rollback()
                if isinstance(exc, self._driver_errors()) and not isinstance(exc, self._integrity_errors()):
                    raise StoreUnavailable("database", f"{type(exc).__name__}: {self._safe(str(exc))}") from exc
                raise

    def _safe(self, text: str) -> str:
        """A driver's message as it may be logged (one line; a URL's secrets left out)."""
        return " ".join(text.split())

    def _reopen(self) -> None:
        """Connect again if the connection was lost (a database server restarted): the store then carries on."""

    def _tell(self, cur: Any, stored: Sequence[tuple[str, int]]) -> None:
        """Tell the other processes (:meth:`listen`) of the actions ``(table_id, number)`` being stored (at the
        commit): nobody to tell in a store of one process."""

    def listen(self, heard: Callable[[tuple[str, int] | None], None]) -> Callable[[], None] | None:
        """Call ``heard((table_id, number))`` (from another thread) whenever another process stores an action,
        and ``heard(None)`` when some may have been missed; returns what stops it. None: a store of one process
        has nothing to hear."""
        return None

    def _driver_errors(self) -> tuple[type[Exception], ...]:
        return (sqlite3.Error,)

    def _sql(self, text: str) -> str:
        return text.replace("?", self._mark)

    def create_table(self, table: TableRecord) -> None:
        """Store a new table."""
        with self._transaction() as cur:
            cur.execute(self._sql("INSERT INTO hl_tables (id, variant, seed, seats) VALUES (?, ?, ?, ?)"),
                        (table.id, json.dumps(dict(table.variant)), table.seed, json.dumps(list(table.seats))))

    def claim_seat(self, table_id: str, seat: int, digest: str) -> bool:
        """Give an open seat to the holder of a token (its digest); False when the seat was taken already."""
        try:
            with self._transaction() as cur:
                cur.execute(self._sql("INSERT INTO hl_tokens (table_id, seat, digest) VALUES (?, ?, ?)"),
                            (table_id, seat, digest))
        except self._integrity_errors():
            return False
        return True

    def seat_of(self, table_id: str, digest: str) -> int | None:
        """The seat a token (its digest) holds at a table, or None."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT seat FROM hl_tokens WHERE table_id = ? AND digest = ?"), (table_id, digest))
            row = cur.fetchone()
        return None if row is None else int(row[0])

    def claimed(self, table_id: str) -> set[int]:
        """The seats of a table that players hold."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT seat FROM hl_tokens WHERE table_id = ?"), (table_id,))
            return {int(row[0]) for row in cur.fetchall()}

    def add_action(self, table_id: str, number: int, action: Mapping[str, Any]) -> None:
        """Store action ``number`` of a table (committed when this returns); :class:`StoreConflict` if that
        number is stored already."""
        try:
            with self._transaction() as cur:
                cur.execute(self._sql("INSERT INTO hl_actions (table_id, number, action) VALUES (?, ?, ?)"),
                            (table_id, number, json.dumps(dict(action))))
                self._tell(cur, [(table_id, number)])
        except self._integrity_errors() as exc:
            raise StoreConflict(f"hl_actions[{table_id}:{number}]", "another process stored this action "
                                "first") from exc

    def add_actions(self, rows: Sequence[tuple[str, int, Mapping[str, Any]]]) -> list[StoreConflict | None]:
        """Store several tables' actions (``(table_id, number, action)`` each) in one transaction: one commit,
        one wait for the disk, however many tables acted meanwhile. Returns, per row, None (committed) or the
        :class:`StoreConflict` that refused it; when one row conflicts, the rows are stored one by one so that
        the others still are."""
        try:
            with self._transaction() as cur:
                insert = self._sql("INSERT INTO hl_actions (table_id, number, action) VALUES (?, ?, ?)")
                # one statement a row, not executemany: psycopg's pipeline for executemany warns at exit after a
                # conflict; the rows still share one commit
                for table_id, number, action in rows:
                    cur.execute(insert, (table_id, number, json.dumps(dict(action))))
                self._tell(cur, [row[:2] for row in rows])
        except self._integrity_errors():
            return [self._add_one(*row) for row in rows]
        return [None] * len(rows)

    def _add_one(self, table_id: str, number: int, action: Mapping[str, Any]) -> StoreConflict | None:
        try:
            self.add_action(table_id, number, action)
        except StoreConflict as exc:
            return exc
        return None

    def actions(self, table_id: str, since: int = 0) -> list[dict[str, Any]]:
        """A table's actions from number ``since``, in order."""
        with self._transaction() as cur:
            cur.execute(self._sql("SELECT action FROM hl_actions WHERE table_id = ? AND number >= ? ORDER BY number"),
                        (table_id, since))
            return [json.loads(row[0]) for row in cur.fetchall()]

    def table(self, table_id: str) -> TableRecord | None:
        """One table's start, or None."""
        found = self._tables("SELECT id, variant, seed, seats FROM hl_tables WHERE id = ?", (table_id,))
        return found[0] if found else None

    def tables(self) -> list[TableRecord]:
        """Every table."""
        return self._tables("SELECT id, variant, seed, seats FROM hl_tables ORDER BY id", ())

    def unfinished(self) -> list[TableRecord]:
        """The tables not marked finished (:meth:`mark_finished`), to resume after a restart."""
        return self._tables("SELECT id, variant, seed, seats FROM hl_tables WHERE id NOT IN "
                            "(SELECT table_id FROM hl_finished) ORDER BY id", ())

    def mark_finished(self, table_id: str) -> None:
        """Note that a table's match is over (again: nothing changes)."""
        # one statement: a SELECT then an INSERT let two processes that both saw the match end (a shared
        # database) both insert, and the second's unique violation escaped as a traceback
        with self._transaction() as cur:
            cur.execute(self._sql("INSERT INTO hl_finished (table_id) VALUES (?) ON CONFLICT (table_id) DO NOTHING"),
                        (table_id,))

    def _tables(self, query: str, args: Sequence[Any]) -> list[TableRecord]:
        with self._transaction() as cur:
            cur.execute(self._sql(query), tuple(args))
            rows = cur.fetchall()
        return [TableRecord(row[0], json.loads(row[1]), int(row[2]), tuple(json.loads(row[3]))) for row in rows]

    def _integrity_errors(self) -> tuple[type[Exception], ...]:
        return (sqlite3.IntegrityError,)

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()


class SQLiteStore(Store):
    """A store in one SQLite file (``":memory:"`` for a store that lasts as long as the process)."""

    def __init__(self, path: str) -> None:
        try:
            conn = sqlite3.connect(path, check_same_thread=False)
            # WAL: readers do not block the writer; FULL: a commit is on disk before an action is acknowledged
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            raise SaveError("database", f"cannot open the SQLite database {path!r}: {exc}") from None
        super().__init__(conn)


class PostgresStore(Store):
    """A store in a PostgreSQL database (``postgresql://user:password@host/dbname``), shared by any number of
    server processes: each hears of the actions the others store (LISTEN/NOTIFY, :meth:`listen`)."""

    shared = True
    _mark = "%s"

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise SaveError("database", "PostgreSQL needs psycopg 3: pip install 'heartslib[server]'") from None
        self._psycopg = psycopg
        self._url = url
        try:
            conn = psycopg.connect(url)
        except psycopg.Error as exc:
            raise SaveError("database", f"cannot connect to {safe_url(url)}: {safe_text(str(exc), url)}") from None
        super().__init__(conn)

    def _integrity_errors(self) -> tuple[type[Exception], ...]:
        return (self._psycopg.errors.UniqueViolation,)

    def _driver_errors(self) -> tuple[type[Exception], ...]:
        return (self._psycopg.Error,)

    def _reopen(self) -> None:
        if self._conn.closed or self._conn.broken:
            self._conn = self._psycopg.connect(self._url)

    def _tell(self, cur: Any, stored: Sequence[tuple[str, int]]) -> None:
        last: dict[str, int] = {}
        for table_id, number in stored:
            last[table_id] = max(number, last.get(table_id, -1))
        for table_id, number in last.items():  # delivered at the commit, to every listening session
            cur.execute("SELECT pg_notify('hl_actions', %s)", (f"{number} {table_id}",))

    def listen(self, heard: Callable[[tuple[str, int] | None], None]) -> Callable[[], None] | None:
        """PostgreSQL's LISTEN/NOTIFY, on a connection of its own in a thread of its own: told at each commit,
        never polling. Connects again after a failure (a second later), then calls ``heard(None)``. Returns once
        the first connection listens (or its attempt failed, or 10 seconds passed): what is stored after that is
        heard, and the first ``heard(None)`` comes before, not in the middle of what the caller does next."""
        stop = threading.Event()
        tried = threading.Event()

        def run() -> None:
            while not stop.is_set():
                try:
                    with self._psycopg.connect(self._url, autocommit=True) as conn:
                        conn.execute("LISTEN hl_actions")
                        heard(None)  # anything stored before this connection listened must be read
                        tried.set()
                        while not stop.is_set():
                            for note in conn.notifies(timeout=0.5):
                                number, _, table_id = note.payload.partition(" ")
                                heard((table_id, int(number)))
                except self._psycopg.Error as exc:
                    _log.warning("heartslib server: listening to the database: %s", self._safe(str(exc)))
                    tried.set()
                    stop.wait(1.0)

        threading.Thread(target=run, name="heartslib-listen", daemon=True).start()
        tried.wait(10.0)
        return stop.set

    def _safe(self, text: str) -> str:
        return safe_text(text, self._url)


def _secrets(url: str) -> list[str]:
    """What of ``url`` must never be shown: the user and password before the host, and any ``password=``
    value, each as written and percent-decoded, longest first."""
    found: list[str] = []
    rest = url.partition("://")[2]
    if "@" in rest:
        userinfo = rest.rsplit("@", 1)[0]
        found += [userinfo, userinfo.partition(":")[2]]
    found += re.findall(r"password=([^&\s]*)", url)
    found += [unquote(s) for s in found]
    return sorted({s for s in found if s}, key=len, reverse=True)


def safe_text(text: str, url: str) -> str:
    """``text`` (a message that may quote ``url``, a driver's error) with every secret of ``url`` replaced by
    ``…``, on one line."""
    return " ".join(_redacted(text, url).split())


def _redacted(text: str, url: str) -> str:
    for secret in _secrets(url):
        text = text.replace(secret, "…")
    return text


def safe_url(url: str) -> str:
    """The URL without its user, password or ``password=`` value, for messages (a file path as it is)."""
    return _redacted(url, url)


def open_store(database: str) -> Store:
    """The store a ``--database`` value names: a ``postgresql://`` (or ``postgres://``) URL, else a SQLite file
    path. Raises :class:`~heartslib.SaveError` when it cannot be opened."""
    if not isinstance(database, str) or not database:
        raise SaveError("database", f"a database is a file path or a postgresql:// URL, not {database!r:.60}")
    if database.startswith(("postgresql://", "postgres://")):
        return PostgresStore(database)
    return SQLiteStore(database)


#: The forms a table's record is exported in (:func:`export_record`), each with its media type.
RECORD_FORMATS = {"json": "application/json", "text": "text/plain; charset=utf-8"}


class RecordRefused(SaveError):
    """A table whose record cannot be exported; ``code`` says why: ``no_such_table``, ``in_progress`` (a record
    holds every seat's deal, so an unfinished table's would show hidden cards) or ``bad_record`` (the stored
    table does not replay)."""

    def __init__(self, path: str, message: str, code: str) -> None:
        super().__init__(path, message)
        self.code = code


def in_progress(table_id: str) -> RecordRefused:
    """The refusal of an unfinished table's record."""
    return RecordRefused(f"table {table_id}", "the match is in progress: its record, which holds every seat's "
                         "cards, is served once the match is over", "in_progress")


def stored_match(record: TableRecord, actions: Sequence[Mapping[str, Any]]) -> Match:
    """The match of a stored table: its start with its ``actions`` (:meth:`Store.actions`) applied."""
    m = Match(Variant.from_dict(dict(record.variant)), record.seed)
    for data in actions:
        m.apply(action_from_dict(data))
    return m


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _header_name(text: str, limit: int) -> str:
    """``text`` as a record's header allows it: one line without control characters or ``|``, at most ``limit``
    characters, no spaces at either end (``?`` if nothing is left)."""
    cleaned = " ".join(_CONTROL.sub(" ", text).replace("|", " ").split())[:limit].strip()
    return cleaned or "?"


def _record_headers(record: TableRecord) -> dict[str, Any]:
    """A stored table's headers: its id, and each seat's player (an agent's kind; ``?`` for a player's seat,
    since the server knows no names). No date: the store keeps no creation time."""
    return {"table": _header_name(record.id, 200),
            "players": [_header_name(kind, 100) if kind != "open" else "?" for kind in record.seats]}


def export_record(record: TableRecord, actions: Sequence[Mapping[str, Any]], form: str = "json") -> str:
    """The record (:mod:`heartslib.record`) of a stored table whose match is over, as JSON (``form`` "json",
    :func:`~heartslib.record.to_record`) or text ("text", :func:`~heartslib.record.record_text`), with the
    headers ``table`` and ``players``. Replays the match: call it off the event loop. Raises
    :class:`RecordRefused` (``in_progress`` or ``bad_record``), ``ValueError`` for another ``form``."""
    if form not in RECORD_FORMATS:
        raise ValueError(f"a record's format is {' or '.join(RECORD_FORMATS)}, not {form!r:.40}")
    try:
        m = stored_match(record, actions)
        if not m.is_over:
            raise in_progress(record.id)
        headers = _record_headers(record)
        return json.dumps(to_record(m, headers=headers), ensure_ascii=False) if form == "json" \
            else record_text(m, headers=headers)
    except RecordRefused:
        raise
    except (ValueError, KeyError, TypeError) as exc:  # a table edited by hand in the database
        raise RecordRefused(f"table {record.id}", f"the stored table does not replay: {type(exc).__name__}: "
                            f"{' '.join(str(exc).split())[:200]}", "bad_record") from exc
