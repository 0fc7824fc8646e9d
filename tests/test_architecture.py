"""The engine's structure, held by tests: layers without cycles, one state spec, allow-listed fast paths.

``docs/architecture.md`` describes the layers; these tests fail when the code stops matching it:

* no module imports one above it, and there is no import cycle anywhere in ``src/heartslib``
  (function-level and ``TYPE_CHECKING`` imports count too);
* :data:`heartslib.engine.state.FIELDS` is the one declaration of a hand's state: ``__slots__``,
  construction, ``copy()`` and the state key all agree with it;
* every variant field is listed in each fast path's allow-list (so whoever adds an option decides
  whether the fast paths implement it) and drawn by ``heartslib.strategies.variants()`` (so the
  differential tests between the fast and the general paths see it);
* no class over 500 lines, no function over 80.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import heartslib as hl
from heartslib.engine import fastpath
from heartslib.engine.state import CACHE, DERIVED, FIELDS, ITEMS, LIST, LISTS, RNG, VALUE, RoundState
from heartslib.sections import field_paths

#: The sources in this checkout (the compiled build's tests run against an installed copy of them).
ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "heartslib"

#: The layers, bottom to top: a module may import modules of its own layer or below (never above), and
#: imports within a layer must not form a cycle. ``docs/architecture.md`` shows the same list.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "points", "_mypyc"),
    ("cards",),
    ("enums",),
    ("serialize", "actions", "observation"),
    ("sections",),
    ("engine", "engine.tables", "engine.bits", "engine.values", "engine.allowlists", "engine.fastpath",
     "engine.checks", "engine.rules"),
    ("describe", "unread", "variant"),
    ("scoring", "settlement", "presets"),
    ("engine.state", "engine.args", "engine.records", "engine.legality", "engine.finishing", "engine.tricks",
     "engine.auction", "engine.dealing", "engine.machine", "engine.playout", "engine.choices"),
    ("round",),
    ("match", "inference", "solve", "search"),
    ("_agent_protocol", "agents", "simulate", "strategies", "testing", "record", "streams"),
    ("adapters", "adapters.encoding", "adapters.pettingzoo", "adapters.openspiel", "adapters.trajectory",
     "vector", "vector.env", "vector.kernel", "vector.jaxenv", "vector.functional", "vector.support", "vector.gym",
     "vector.selfplay", "server", "server.store", "server.tables", "server.app", "client"),
    ("cli", "_tableview", "__main__", ""),
)
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """The heartslib modules ``path`` imports (anywhere in it, absolute or relative), as names relative to the
    package."""
    return _imports_in(ast.parse(path.read_text(encoding="utf-8")), _module_name(path), path.name == "__init__.py")


def _imports_in(tree: ast.AST, module: str, package: bool) -> set[str]:
    """The heartslib modules a parsed module imports; ``module`` is its name relative to the package (a
    package's own name for an ``__init__``), which a relative import is resolved against."""
    known = set(LAYER_OF)
    out: set[str] = set()
    # the package a relative import starts from: the module's own for an __init__, else its parent's
    here = (["heartslib"] + [p for p in module.split(".") if p]) if package else ["heartslib", *module.split(".")][:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "heartslib" or alias.name.startswith("heartslib."):
                    out.add(alias.name.removeprefix("heartslib").lstrip("."))
        elif isinstance(node, ast.ImportFrom):
            absolute = node.module or ""
            if node.level:  # from . import x / from ..engine import y: resolved against the importing module
                start = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                absolute = ".".join([*start, *([node.module] if node.module else [])])
            if not (absolute == "heartslib" or absolute.startswith("heartslib.")):
                continue
            base = absolute.removeprefix("heartslib").lstrip(".")
            for alias in node.names:
                sub = f"{base}.{alias.name}".lstrip(".")
                out.add(sub if sub in known else base)
    return out


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in sorted(SRC.rglob("*.py"))}


def test_every_module_has_a_layer() -> None:
    missing = sorted(set(_graph()) - set(LAYER_OF))
    assert not missing, f"modules without a layer in LAYERS (and docs/architecture.md): {missing}"


def test_no_module_imports_one_above_it() -> None:
    upward = [f"{src or 'heartslib'} -> {dst}" for src, dsts in _graph().items() for dst in sorted(dsts)
              if LAYER_OF[dst] > LAYER_OF[src]]
    assert not upward, "imports of a higher layer: " + "; ".join(upward)


@pytest.mark.parametrize(("source", "module", "package", "expected"), [
    ("from .round import Round", "cards", False, {"round"}),
    ("from . import round", "cards", False, {"round"}),
    ("from .. import match", "engine.tricks", False, {"match"}),
    ("from ..round import Round", "engine.tricks", False, {"round"}),
    ("from .state import RoundState", "engine.tricks", False, {"engine.state"}),
    ("from .playout import random_playout", "engine", True, {"engine.playout"}),
    ("from heartslib.engine import tables", "cards", False, {"engine.tables"}),
    ("import heartslib.match", "cards", False, {"match"}),
])
def test_the_layering_check_reads_relative_imports(source: str, module: str, package: bool, expected: set[str]) -> None:
    # issue 32: a planted ``from .round import Round`` in cards.py passed the layering test, which read only
    # absolute imports
    assert _imports_in(ast.parse(source), module, package) == expected


def test_there_is_no_import_cycle() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(node):], node]))
        if node in done:
            return
        for nxt in sorted(graph.get(node, ())):
            if nxt != node:
                visit(nxt, [*path, node])
        done.add(node)

    for module in graph:
        visit(module, [])


def test_architecture_page_names_every_module() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [name for name in LAYER_OF if name and name != "__main__" and f"`{name}`" not in page]
    assert not missing, f"docs/architecture.md does not name: {missing}"


# --------------------------------------------------------------------------- one state spec


def _mid_game_state() -> RoundState:
    r = hl.Round.deal(hl.preset("standard").replace(passing={"schedule": ["shuffle"]}), seed=5)
    state: RoundState = r._s
    return state


@pytest.mark.skipif(hl.COMPILED, reason="a compiled class keeps its fields natively, not in __slots__")
def test_the_state_spec_is_the_slots() -> None:
    assert set(FIELDS) == set(RoundState.__slots__) and len(FIELDS) == len(RoundState.__slots__)
    assert set(FIELDS.values()) <= {VALUE, LIST, LISTS, ITEMS, RNG, DERIVED, CACHE}


@pytest.mark.skipif(hl.COMPILED, reason="a compiled class keeps no __annotations__")
def test_every_field_is_annotated_once() -> None:
    assert list(RoundState.__annotations__) == list(FIELDS)


def test_construction_sets_every_field() -> None:
    state = _mid_game_state()
    for name in FIELDS:
        getattr(state, name)  # raises AttributeError for a slot left unset


def test_copy_treats_every_field_as_the_spec_says() -> None:
    state = _mid_game_state()
    new = state.copy()
    for name, kind in FIELDS.items():
        old, copied = getattr(state, name), getattr(new, name)
        if kind == CACHE:
            assert copied is None or (name == "memo" and copied == -1), name  # memo: a mask, -1 when not known
        elif kind in (VALUE, DERIVED):
            assert copied is old, name
        elif kind == RNG:
            # a shuffle pass is still to come: the copy draws from its own generator in the same state
            assert copied is not old and copied.getstate() == old.getstate(), name
        else:
            assert copied == old and copied is not old, name
            if kind == LISTS:
                assert all(a is not b for a, b in zip(copied, old, strict=True)), name


class _Marker:
    """A value no field ever holds."""


@pytest.mark.skipif(hl.COMPILED, reason="a compiled class refuses a value of the wrong type")
@pytest.mark.parametrize("name", [name for name, kind in FIELDS.items() if kind not in (DERIVED, CACHE)])
def test_the_state_key_sees_every_field(name: str) -> None:
    state = _mid_game_state()
    before = state.key()
    kind = FIELDS[name]
    value = getattr(state, name)
    if kind == LIST:
        value.append(-99)
    elif kind == LISTS:
        value[0].append(-99)
    elif kind == ITEMS:
        value.append(("marker",))
    elif kind == RNG:
        value.random()
    else:
        setattr(state, name, _Marker())
    try:
        after = state.key()
    except TypeError:
        return  # the key converts this field (a tuple of it, ...), so it reads it
    assert after != before, f"RoundState.key() ignores {name}"


# --------------------------------------------------------------------------- fast paths and strategies


@pytest.mark.parametrize("allow", ["PLAIN_TRICKS", "SUMMED_SCORING"])
def test_each_allow_list_names_only_fields_that_exist(allow: str) -> None:
    listed = set(getattr(fastpath, allow))
    fields = {path for path, _ in field_paths(hl.Variant())}
    assert not listed - fields, f"fastpath.{allow} lists fields that do not exist: {sorted(listed - fields)}"


def test_every_section_field_has_a_default_the_fast_paths_compare_with() -> None:
    sections = {path for path, _ in field_paths(hl.Variant()) if "." in path}
    assert set(fastpath.DEFAULTS) == sections
    assert fastpath.DEFAULTS["deck.decks"] == 1 and fastpath.DEFAULTS["play.booster_nines"] is False


def test_a_field_missing_from_an_allow_list_keeps_the_general_path_unless_at_its_default() -> None:
    # a new option needs no allow-list entry: at its default (the behaviour from before it existed) every path
    # plays it; any other value keeps the variant on the general path until a path lists the field
    shorter = {path: entry for path, entry in fastpath.PLAIN_TRICKS.items() if path != "play.booster_nines"}
    standard = hl.preset("standard")
    assert fastpath.admits(standard, shorter) and fastpath.admits(standard, fastpath.PLAIN_TRICKS)
    boosted = standard.replace(play={"booster_nines": True})
    assert fastpath.refusals(boosted, shorter) == ["play.booster_nines"]
    assert not fastpath.admits(boosted, shorter)


def test_the_fast_paths_take_the_presets_they_should() -> None:
    # what the deny-list admitted before the allow-lists (keeps the presets' speed)
    plain = {name for name in hl.preset_names() if hl.preset(name).rules.short_tricks}
    packed = {name for name in hl.preset_names() if hl.preset(name).rules.packed is not None}
    assert plain >= {"standard", "omnibus", "spot_hearts", "pink_lady", "double_deck_8", "foster_1909", "black_jack"}
    assert "cancellation" not in plain
    summed = {name for name in hl.preset_names() if hl.preset(name).rules.tally is not None}
    # one scorer for the plain variants and those with modifiers (its one-sum table where every value is whole)
    assert summed >= {"standard", "omnibus", "spot_hearts", "pink_lady", "black_maria",
                      "complex_hearts", "royal_hearts", "gong_zhu", "gong_zhu_exposed"}
    assert packed >= summed - {"complex_hearts"} and "complex_hearts" not in packed


def test_random_variants_draw_every_field() -> None:
    from heartslib import strategies

    drawn = {f"{section}.{name}" if section else name for section, name in strategies._DEFAULTS}
    fields = {path for path, _ in field_paths(hl.Variant())} - {"name", "source"}
    assert not fields - drawn, f"fields heartslib.strategies.variants() never draws: {sorted(fields - drawn)}"


# --------------------------------------------------------------------------- sizes


def _spans() -> list[tuple[int, str, str]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "class" if isinstance(node, ast.ClassDef) else "function"
                out.append((node.end_lineno - node.lineno + 1, kind, f"{path.relative_to(SRC)}:{node.lineno} "
                            f"{node.name}"))  # type: ignore[operator]
    return out


def test_no_class_over_500_lines_and_no_function_over_80() -> None:
    long = [f"{where} ({n} lines)" for n, kind, where in _spans() if n > (500 if kind == "class" else 80)]
    assert not long, "too long: " + "; ".join(long)


def test_the_state_spec_is_what_a_round_copies_and_compares() -> None:
    r = hl.Round.deal(hl.preset("standard"), seed=2)
    c = r.copy()
    assert c == r
    c.random_playout(random.Random(1))
    assert c != r and r.phase is hl.Phase.PASS


def _private_state_reads(tree: ast.AST) -> list[int]:
    """The lines of ``tree`` that read an object's ``_s`` attribute (a :class:`~heartslib.Round`'s engine state)."""
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "_s"]


def test_only_round_reads_a_rounds_private_state() -> None:
    # the upper layers go through round.py's named functions (engine_state, shuffle_due, release_generator), so
    # what they rely on is said in one place
    readers = {
        _module_name(p): lines
        for p in sorted(SRC.rglob("*.py"))
        if p.name != "round.py" and (lines := _private_state_reads(ast.parse(p.read_text(encoding="utf-8"))))
    }
    assert readers == {}


def test_the_private_state_check_sees_a_read() -> None:
    assert _private_state_reads(ast.parse("def f(rnd):\n    return rnd._s.phase\n")) == [2]
