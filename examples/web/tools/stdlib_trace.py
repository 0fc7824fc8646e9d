"""Run inside Pyodide by build.py (through tools/pyodide_run.mjs): which standard-library files the game needs.

It imports every module that heartslib and game.py name in an import statement (also those
imported inside functions), then plays through everything the page can ask of game.py: each
variant and level, passing, playing, refusals, saving, loading good and bad records, replay.
It prints one JSON line, ``{"stdlib": [the zip's file names that were imported], "named": [the modules named
that imported], "checks": N}``.
Run against the trimmed standard library, the same script is the check that nothing is missing.
"""

import ast
import contextlib
import dis
import importlib
import json
import marshal
import pathlib
import sys
import traceback

import game

import heartslib

ZIP = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"


def imported_by_code(code):
    """The absolute module names that a code object (and every one nested in it) imports."""
    names = set()
    level = None
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_CONST", "LOAD_SMALL_INT") and isinstance(ins.argval, int):
            level = ins.argval
        elif ins.opname == "IMPORT_NAME" and ins.argval and not level:
            names.add(ins.argval)
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            names |= imported_by_code(const)
    return names


def named_modules():
    """Every absolute module name in an import statement of heartslib or game.py: read from the sources, or
    from the bytecode where the wheel has no sources (the page's sourceless wheels)."""
    package = pathlib.Path(heartslib.__file__).parent
    names = set()
    for path in [*package.rglob("*.py"), pathlib.Path(game.__file__)]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    for path in package.rglob("*.pyc"):
        if path.parent.name != "__pycache__":
            names |= imported_by_code(marshal.loads(path.read_bytes()[16:]))
    return sorted(n for n in names if n.split(".")[0] not in {"heartslib", "game"})


def call(fn, *args):
    return json.loads(fn(*args))


checks = 0
named = []
for name in named_modules():
    # ImportError: not in Pyodide (hypothesis, multiprocessing pieces), so the game cannot use it either.
    with contextlib.suppress(ImportError):
        importlib.import_module(name)
        named.append(name)

catalog = call(game.catalog)
assert [p["name"] for p in catalog["presets"]] == list(game.PRESETS)
for preset in game.PRESETS:
    for level in catalog["levels"]:
        s = call(game.new_game, preset, 5, 3, level)
        hands = 0
        # the search player is slow in WebAssembly (a hand of it takes 5-17 s here, the build runs this twice):
        # the standard game's hand exercises its code, the other presets' first steps their own tables (every
        # module it may import lazily is imported above, from the import statements)
        steps = 12 if level == "hard" and preset != "standard" else None
        while not s["is_over"] and hands < (99 if (preset, level) == ("standard", "normal") else 1):
            if steps is not None:
                if not steps:
                    break
                steps -= 1
            if s["turn"] == "you" and s["phase"] == "pass":
                bad = call(game.pass_cards, " ".join(s["passable"][:2]))
                assert not bad["ok"] and bad["refusal"]["code"] == "pass_wrong_size", bad
                assert not call(game.pass_cards, "ZZ")["ok"]
                s = call(game.pass_cards, " ".join(s["passable"][:3]))["state"]
            elif s["turn"] == "you" and s["phase"] == "play":
                refused = [c["code"] for c in s["hand"] if c["code"] not in s["legal"]]
                if refused:
                    verdict = call(game.why, refused[0])
                    assert not verdict["legal"] and verdict["refusal"]["code"], verdict
                    checks += 1
                before = len(s["rounds"])
                s = call(game.play, s["legal"][0])["state"]
                hands += len(s["rounds"]) - before
            elif s["turn"] == "you":
                s = call(game.choose, s["options"][0])["state"]
            else:
                s = call(game.agent_step)["state"]
        record = game.save()
        assert call(game.load, record)["ok"]
        assert call(game.state) == s
        for bad in ("{", "[]", json.dumps({"preset": "standard", "agent_seed": 1, "match": "{}"})):
            assert not call(game.load, bad)["ok"]
        call(game.replay)
        checks += 1
with contextlib.suppress(heartslib.UnknownVariant):
    heartslib.preset("standrd")
try:
    json.loads("{")
except ValueError as exc:  # Pyodide formats an error this way for the page: the bytecode must allow it
    assert "JSONDecodeError" in "".join(traceback.format_exception(exc))
heartslib.preset("standard").describe()

files = sorted({m.__file__[len(ZIP):] for m in list(sys.modules.values())
                if isinstance(getattr(m, "__file__", None), str) and m.__file__.startswith(ZIP)})
print(json.dumps({"stdlib": files, "named": named, "checks": checks}))
