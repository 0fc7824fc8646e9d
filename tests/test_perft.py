"""Perft-style counts: every legal action sequence from small fixed positions, against tests/data/perft.json.

Like python-chess's perft: a count that changes means a legality rule
changed (a card became playable or not), and a points distribution that
changes means scoring changed. If intended, regenerate with
``python scripts/regen_perft.py`` and review the diff.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import heartslib as hl

ROOT = Path(__file__).resolve().parent.parent
DATA = json.loads((ROOT / "tests" / "data" / "perft.json").read_text(encoding="utf-8"))


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_perft", ROOT / "scripts" / "regen_perft.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _load_script()


@pytest.mark.parametrize("spec", DATA["positions"], ids=lambda spec: spec["name"])
def test_perft(spec: dict[str, Any]) -> None:
    r = regen.position(spec)  # replaying the stored actions also checks they are still legal
    assert r.phase == hl.Phase.PLAY and not r.trick
    counts = regen.perft(r, spec["depth"])
    assert counts["sequences"] == spec["sequences"], f"{spec['name']}: the number of legal sequences changed"
    assert counts["points"] == spec["points"], f"{spec['name']}: the distribution of results changed"
    for key in ("with_cancelled_trick", "with_extended_trick", "with_moon_or_sun"):
        assert counts[key] == spec[key], f"{spec['name']}: {key} changed"


def test_perft_positions_cover_each_rule_family() -> None:
    by_name = {spec["name"]: spec for spec in DATA["positions"]}
    assert by_name["cancellation_two_each"]["with_cancelled_trick"] > 0
    assert by_name["booster_nines_three_each"]["with_extended_trick"] > 0
    assert by_name["standard_three_each"]["with_moon_or_sun"] > 0
    assert by_name["kitty_first_trick"]["depth"] == 5  # one trick of five players
    for spec in DATA["positions"]:
        assert sum(spec["points"].values()) == spec["sequences"]


def test_perft_counts_a_hand_checked_position() -> None:
    # Three players, one card each after 16 tricks would need a real deal; instead a standard deal's
    # last trick: every seat holds one card, so there is exactly one sequence.
    v = hl.preset("standard").replace(passing={"schedule": "hold"})
    r = hl.Round.deal(v, seed=5)
    while any(len(h) > 1 for h in r.hands) or r.trick:
        r.apply(r.legal_actions()[0])
    counts = regen.perft(r)
    assert counts["sequences"] == 1 and sum(counts["points"].values()) == 1
    r.apply(r.legal_actions()[0])
    for _ in range(3):
        r.apply(r.legal_actions()[0])
    assert r.is_over and counts["points"] == {",".join(map(str, r.points)): 1}
