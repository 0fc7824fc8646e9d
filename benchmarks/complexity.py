"""The size and branchiness of the engine, the measures issue 32's targets are stated in.

Prints, for ``src/heartslib/engine/`` (and, with ``--all``, every module of the package): the lines of each
module, their total, and the average cyclomatic complexity of its functions (McCabe's count: one, plus one for
each ``if``/``elif``, loop, ``except``, ``assert``, ``case``, conditional expression, comprehension loop and
condition, and each operand of ``and``/``or`` beyond the first), and the most complex functions. It reads the
source with :mod:`ast` alone, so it needs no dependency and counts the same on every machine.

    python benchmarks/complexity.py            # the engine package
    python benchmarks/complexity.py --all      # every module
    python benchmarks/complexity.py --top 15   # the 15 most complex functions too

The targets (issue 32): ``engine/`` at most 3,400 lines, an average complexity of at most 5.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "heartslib"

#: The nodes that add a path through a function.
_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.IfExp, ast.Assert, ast.match_case)


def complexity(func: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """McCabe's cyclomatic complexity of ``func``, not counting the functions defined inside it."""
    count = 1
    stack: list[ast.AST] = list(ast.iter_child_nodes(func))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # a nested function is counted on its own
        if isinstance(node, _BRANCHES):
            count += 1
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        stack.extend(ast.iter_child_nodes(node))
    return count


def functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function and method in ``tree``, nested ones included."""
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def measure(paths: list[Path]) -> tuple[list[tuple[str, int, int, float]], list[tuple[int, str]]]:
    """Per module (name, lines, functions, average complexity), and every function's (complexity, name)."""
    rows: list[tuple[str, int, int, float]] = []
    every: list[tuple[int, str]] = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        funcs = functions(ast.parse(text))
        scores = [complexity(f) for f in funcs]
        name = str(path.relative_to(SRC.parent))
        rows.append((name, len(text.splitlines()), len(funcs), sum(scores) / len(scores) if scores else 0.0))
        every.extend((c, f"{name}:{f.lineno} {f.name}") for c, f in zip(scores, funcs, strict=True))
    return rows, every


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every module of the package, not only engine/")
    parser.add_argument("--top", type=int, default=10, help="list this many of the most complex functions")
    args = parser.parse_args(argv)
    root = SRC if args.all else SRC / "engine"
    rows, every = measure(sorted(root.rglob("*.py")))
    print("| module | lines | functions | average complexity |\n|---|---:|---:|---:|")
    for name, lines, count, average in rows:
        print(f"| {name} | {lines} | {count} | {average:.1f} |")
    total = sum(r[1] for r in rows)
    mean = sum(c for c, _ in every) / len(every) if every else 0.0
    print(f"| **total** | **{total}** | {len(every)} | **{mean:.1f}** |")
    print(f"\nthe {args.top} most complex functions:")
    for score, name in sorted(every, reverse=True)[: args.top]:
        print(f"  {score:3d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
