"""Doctest collection in ``src/``: a module whose optional dependency is not installed is not collected.

The README's test command installs only the ``test`` extra; ``heartslib.vector`` needs numpy (the ``vector``
extra), so its doctests run where numpy is installed (CI installs it with the adapters' extras) and are left
out elsewhere, as ``tests/test_vector.py`` skips itself.
"""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if importlib.util.find_spec("numpy") is None:
    collect_ignore_glob.append("src/heartslib/vector/*")
elif importlib.util.find_spec("jax") is None:  # numpy without the ``jax`` extra: the rest of vector still runs
    collect_ignore_glob += ["src/heartslib/vector/jaxenv.py", "src/heartslib/vector/functional.py"]
# the game server's web app and client need the ``server`` extra (Starlette, uvicorn, websockets)
if any(importlib.util.find_spec(name) is None for name in ("starlette", "uvicorn", "websockets")):
    collect_ignore_glob += ["src/heartslib/server/app.py", "src/heartslib/client.py"]
