"""A small TOML writer for variant data (str, int, bool, lists and tables).

The standard library reads TOML (``tomllib``) but does not write it; the
variant schema is simple enough that this writer covers it exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["dumps", "value_text"]


def key_text(key: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise."""
    if key and all(ch.isalnum() or ch in "_-" for ch in key):
        return key
    return json.dumps(key, ensure_ascii=False)


def value_text(value: Any) -> str:
    """A plain value (str, int, bool, list or mapping, as ``Variant.to_dict`` gives them) as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # JSON string escapes are valid TOML basic-string escapes for the characters we emit.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{key_text(str(k))} = {value_text(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def dumps(data: Mapping[str, Any]) -> str:
    """Top-level scalars first, then one ``[table]`` per nested mapping (one level deep)."""
    lines: list[str] = []
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in data.items():
        if isinstance(value, Mapping) and value:
            tables.append((key, value))
        else:
            lines.append(f"{key_text(key)} = {value_text(value)}")
    for name, table in tables:
        lines.append("")
        lines.append(f"[{key_text(name)}]")
        for key, value in table.items():
            lines.append(f"{key_text(key)} = {value_text(value)}")
    return "\n".join(lines) + "\n"
