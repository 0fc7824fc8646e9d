"""The variant checks as a table of named checks (issue 49, structure): ``heartslib.engine.checks.CHECKS``.

``check_variant`` runs each named check in the table's order and lists every problem once; a variant's problems
come out in that order (the table, the pack, the scoring, the passes, the end, the teams, the stock, the auction).
"""

from __future__ import annotations

import re

import pytest

import heartslib as hl
from heartslib.engine.checks import CHECKS, Facts, check_variant

STD = hl.preset("standard")


def test_each_check_is_named_once_after_its_function() -> None:
    names = [name for name, _ in CHECKS]
    assert len(names) == len(set(names))
    for name, check in CHECKS:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name
        assert check.__name__ == f"_{name}", (name, check.__name__)


@pytest.mark.parametrize("name", sorted(hl.preset_names()))
def test_no_check_refuses_a_preset(name: str) -> None:
    v = hl.preset(name)
    facts = Facts(v)
    assert facts.pack == list(v.rules.pack)
    assert facts.kitty_size == v.rules.kitty_size
    for check_name, check in CHECKS:
        assert list(check(facts)) == [], check_name
    assert check_variant(v) == (list(v.rules.pack), v.rules.kitty_size, [])


@pytest.mark.parametrize(
    ("change", "paths"),
    [
        # the table (players, decks), the pack, the scoring, the end
        (dict(players=11, play={"identical": "cancel"}, scoring={"multiply_alone": {"QS": 2}},
              end={"target": -5, "measure": "magnitude"}),
         ["deck.decks", "play.identical", "deck.strip", "scoring.multiply_alone.QS", "end.target"]),
        # the play rules' readings, the passes, the end
        (dict(passing={"schedule": ["star"]}, end={"hands": 0, "target": 0},
              play={"undercut_binds_discards": True, "opening_card": "JK"}),
         ["play.undercut_binds_discards", "play.opening_card", "passing.schedule", "end.target"]),
    ],
)
def test_problems_come_in_the_order_of_the_table(change: dict[str, object], paths: list[str]) -> None:
    with pytest.raises(hl.VariantError) as info:
        STD.replace(**change)
    assert [path for path, _ in info.value.problems] == paths
    assert info.value.path == paths[0]
