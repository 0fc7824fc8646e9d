"""A small TOML writer for variant data (str, int, bool, lists and tables).

The standard library reads TOML (``tomllib``) but does not write it; the
variant schema is simple enough that this writer covers it exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["dumps"]


def _key(key: str) -> str:
    if key and all(ch.isalnum() or ch in "_-" for ch in key):
        return key
    return json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # JSON string escapes are valid TOML basic-string escapes for the characters we emit.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + " }" if value else "{}"
    raise TypeError(f"cannot write {value!r} as TOML")


def dumps(data: Mapping[str, Any]) -> str:
    """Top-level scalars first, then one ``[table]`` per nested mapping (one level deep)."""
    lines: list[str] = []
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in data.items():
        if isinstance(value, Mapping) and value:
            tables.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for name, table in tables:
        lines.append("")
        lines.append(f"[{_key(name)}]")
        for key, value in table.items():
            lines.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(lines) + "\n"
