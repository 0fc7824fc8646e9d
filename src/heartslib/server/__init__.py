"""heartslib's reference game server: tables for any variant over a WebSocket protocol (docs/server.md).

Players and remote bots take a seat with a secret token, act with typed JSON actions and receive only their
seat's events (:mod:`heartslib.streams`); spectators receive the public events; built-in agents fill the other
seats. Tables live in SQLite (one file, the default) or PostgreSQL, every action committed before it is
acknowledged, so a restarted server resumes every table.

Run it with ``heartslib serve`` (``--database``, ``--host``, ``--port``), or build the ASGI app with
:func:`heartslib.server.app.create_app`. The protocol logic is :class:`heartslib.server.tables.Hub`; the storage
is :mod:`heartslib.server.store`. Needs the ``server`` extra: ``pip install "heartslib[server]"``.
"""

from __future__ import annotations

__all__: list[str] = []
