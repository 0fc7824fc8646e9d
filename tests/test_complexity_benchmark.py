"""benchmarks/complexity.py counts what issue 32's targets are stated in (no figure is asserted)."""

from __future__ import annotations

import ast

import pytest

from helpers import load_benchmark

complexity = load_benchmark("complexity")


@pytest.mark.parametrize(("source", "expected"), [
    ("def f():\n    return 1\n", 1),
    ("def f(x):\n    if x and x > 1 or x < -1:\n        return 1\n    return 0\n", 4),
    ("def f(xs):\n    for x in xs:\n        while x:\n            x -= 1\n    return [y for y in xs if y]\n", 5),
    ("def f(x):\n    def g():\n        if x:\n            pass\n    return g\n", 1),  # g is counted on its own
])
def test_mccabe_counts(source: str, expected: int) -> None:
    func = complexity.functions(ast.parse(source))[0]
    assert complexity.complexity(func) == expected


def test_the_engine_table_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert complexity.main(["--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "| heartslib/engine/legality.py |" in out and "**total**" in out
    assert out.count("\n  ") == 3  # the three most complex functions
