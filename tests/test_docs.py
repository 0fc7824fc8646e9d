"""The documentation cannot drift from the code.

* The generated pages (rules reference, presets, API index) equal what
  ``scripts/gen_docs.py`` writes now.
* Every code block in ``docs/**/*.md`` runs: ``pycon`` blocks as doctests
  (their output is checked), ``python`` blocks as scripts; the blocks of one
  page share a namespace, in page order, like a reader following along, in
  a scratch directory. Any other block with a file name
  (```` ```toml title="house.toml" ````) is written to that file first, so
  the examples can read it. A python block with a file name
  (```` ```python title="myagents.py" ````) is a file the reader saves: it
  must stand alone (every name it uses defined or imported in it), it is
  written to the scratch directory and imported from there (the later
  blocks import it as the reader would), and a ``test_*.py`` one is run
  with pytest. A block preceded by ``<!-- no-run -->`` is shown but not run.
* Every ``examples/*.py`` script runs to completion.
* Every ``IllegalAction`` code the engine raises is documented in
  ``docs/errors.md``, and every code documented there exists.
"""

from __future__ import annotations

import ast
import builtins
import doctest
import importlib.util
import io
import itertools
import pkgutil
import re
import subprocess
import symtable
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import pytest

import heartslib

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"
SKIPPED_DOC_DIRS = ("research",)  # working notes, not published

# Arguments that keep each example short (an example not listed runs without arguments).
EXAMPLE_ARGS: dict[str, list[str]] = {
    "quickstart.py": ["standard", "3"],
    "compare_agents.py": ["--games", "4"],
    "simulate_dask.py": ["8"],  # prints a note and exits 0 when Dask is not installed
    "simulate_ray.py": ["8"],
    "openspiel_ismcts.py": ["standard", "1", "5"],  # the adapters' examples exit 0 without their extras
    "pettingzoo_training.py": ["standard", "2"],
}
#: Examples another test runs (their main(), given command-line arguments), checking what they write.
RUN_ELSEWHERE = {"ppo_jax.py": "tests/test_ppo_example.py"}
EXAMPLE_TIMEOUT = 120  # seconds; a guard against a hang, not a speed assertion

# Modules left out of the API reference on purpose: engine internals and the command line.
NOT_IN_API = {"describe", "unread", "cli", "__main__"}  # the modules behind Variant.describe and .unread_fields


def _load_gen_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _doc_pages() -> list[Path]:
    return sorted(
        p for p in DOCS.rglob("*.md") if not any(part in SKIPPED_DOC_DIRS for part in p.relative_to(DOCS).parts)
    )


# --------------------------------------------------------------------------- generated pages


def test_generated_pages_are_up_to_date() -> None:
    stale = _load_gen_docs().stale()
    assert not stale, (
        f"generated docs are out of date: {', '.join(f'docs/{p}' for p in stale)}; "
        "run `python scripts/gen_docs.py` and commit the result"
    )


def test_rules_reference_explains_every_value() -> None:
    gen = _load_gen_docs()
    for rel, text in gen.generate().items():
        assert "(not documented)" not in text, f"docs/{rel}: an option value has no meaning in the field metadata"


def test_rules_reference_lists_every_field() -> None:
    import attrs

    from heartslib.variant import SECTIONS

    index = (DOCS / "rules" / "index.md").read_text(encoding="utf-8")
    for section, cls in SECTIONS.items():
        for field in attrs.fields(cls):
            assert f"`{section}.{field.name}`" in index, f"{section}.{field.name} is missing from the rules reference"


def test_every_public_module_has_an_api_page() -> None:
    documented = set(_load_gen_docs().api_modules())
    modules = {
        f"heartslib.{m.name}"
        for m in pkgutil.iter_modules(heartslib.__path__)
        if not m.name.startswith("_") and m.name not in NOT_IN_API
    }
    missing = sorted(modules - documented)
    assert not missing, (
        f"no API page for {', '.join(missing)}: add docs/api/NAME.md containing `::: heartslib.NAME`, "
        "list it under 'API reference' in mkdocs.yml and run `python scripts/gen_docs.py`"
    )


# --------------------------------------------------------------------------- code blocks in the docs

_FENCE = re.compile(
    r"^(?P<marker><!-- no-run -->\n(?:\n)?)?(?P<indent>[ \t]*)```(?P<lang>[\w-]*)(?P<info>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=indent)```",
    re.MULTILINE | re.DOTALL,
)
_TITLE = re.compile(r'title="([^"]+)"')


class Block(NamedTuple):
    lang: str
    code: str
    line: int
    run: bool
    title: str | None


def code_blocks(text: str) -> list[Block]:
    """Each fenced block, dedented, with its language, line number, run marker and file name."""
    out = []
    for m in _FENCE.finditer(text):
        indent = m.group("indent")
        lines = m.group("body").splitlines()
        body = "\n".join(line[len(indent) :] if line.startswith(indent) else line for line in lines) + "\n"
        line_no = text.count("\n", 0, m.start("indent")) + 1
        title = _TITLE.search(m.group("info"))
        out.append(Block(m.group("lang"), body, line_no, m.group("marker") is None, title.group(1) if title else None))
    return out


def test_code_block_parser() -> None:
    text = (
        "x\n```pycon\n>>> 1 + 1\n2\n```\n<!-- no-run -->\n```python\nimport dask\n```\n"
        '    ```toml title="a.toml"\n    a = 1\n    ```\n'
    )
    blocks = code_blocks(text)
    assert [(b.lang, b.run, b.title) for b in blocks] == [
        ("pycon", True, None), ("python", False, None), ("toml", True, "a.toml")
    ]
    assert blocks[0].code == ">>> 1 + 1\n2\n" and blocks[0].line == 2
    assert blocks[2].code == "a = 1\n"


def undefined_names(code: str) -> set[str]:
    """The names ``code`` uses (at its top level or inside its functions and classes) that it neither defines
    nor imports and that are not builtins: what a file saved from a block would fail on (NameError)."""
    top = symtable.symtable(code, "<block>", "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    used: set[str] = set()

    def walk(table: symtable.SymbolTable) -> None:
        for s in table.get_symbols():
            if table is top:
                if s.is_referenced() and not (s.is_assigned() or s.is_imported()):
                    used.add(s.get_name())
            else:
                if s.is_referenced() and s.is_global():
                    used.add(s.get_name())
                if s.is_declared_global() and s.is_assigned():
                    defined.add(s.get_name())
        for child in table.get_children():
            walk(child)

    walk(top)
    return used - defined - set(dir(builtins))


def _run_file_block(code: str, title: str, where: str, tmp_path: Path) -> None:
    """A python block with a file name: a module (imported, as the page's later blocks and the command line
    would) or a pytest file (run with pytest), which must stand alone."""
    missing = undefined_names(code)
    if missing:
        pytest.fail(f"{where}: the file {title} uses {', '.join(sorted(missing))} without defining or importing "
                    "it (the block is saved on its own, not run after the page's other blocks)", pytrace=False)
    (tmp_path / title).write_text(code, encoding="utf-8")
    stem = Path(title).stem
    if stem.startswith("test_"):
        result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", title],
                                cwd=tmp_path, capture_output=True, text=True, timeout=EXAMPLE_TIMEOUT, check=False)
        if result.returncode != 0:
            pytest.fail(f"{where}: pytest {title} failed:\n{result.stdout[-3000:]}", pytrace=False)
    else:
        sys.modules.pop(stem, None)
        importlib.import_module(stem)


def _run_page(path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> int:
    """Run the page's pycon and python blocks in order; return how many ran."""
    monkeypatch.chdir(tmp_path)  # examples may write files (saves, rules files)
    monkeypatch.syspath_prepend(str(tmp_path))  # and import the modules their blocks save
    rel = path.relative_to(ROOT)
    namespace: dict[str, Any] = {"__name__": f"docs.{path.stem}"}
    parser = doctest.DocTestParser()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    ran = 0
    modules: list[str] = []
    try:
        for block in code_blocks(path.read_text(encoding="utf-8")):
            ran += _run_block(block, rel, namespace, parser, flags, tmp_path, modules)
    finally:
        for name in modules:  # the next page may save another file of the same name
            sys.modules.pop(name, None)
    return ran


def _run_block(block: Block, rel: Path, namespace: dict[str, Any], parser: doctest.DocTestParser, flags: int,
               tmp_path: Path, modules: list[str]) -> int:
    """Run one block of a page (see :func:`_run_page`); 1 if it ran, 0 if it is not run."""
    lang, code, line_no, run, title = block
    if not run:
        return 0
    if lang not in ("pycon", "python", "py"):
        if title:
            (tmp_path / title).write_text(code, encoding="utf-8")
        return 0
    where = f"{rel}:{line_no}"
    try:
        if title:
            modules.append(Path(title).stem)
            _run_file_block(code, title, where, tmp_path)
        elif lang == "pycon":
            test = parser.get_doctest(code, namespace, where, str(rel), line_no)
            report = io.StringIO()
            runner = doctest.DocTestRunner(optionflags=flags)
            result = runner.run(test, out=report.write, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy of the namespace
            if result.failed:
                pytest.fail(f"doctest failed in {where}:\n{report.getvalue()}", pytrace=False)
        else:
            exec(compile(code, where, "exec"), namespace)
    except ImportError as exc:
        # a missing extra, raised directly or by heartslib's own "install the extra" ImportError around it
        missing = exc if isinstance(exc, ModuleNotFoundError) else exc.__cause__ or exc.__context__
        name = getattr(missing, "name", None) if isinstance(missing, ModuleNotFoundError) else None
        if name and not name.startswith("heartslib") and name not in modules:
            pytest.skip(f"{where} needs {name}, which is not installed")
        raise
    return 1


PAGES = _doc_pages()


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_doc_page_code_runs(path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _run_page(path, monkeypatch, tmp_path)


def test_doc_runner_catches_wrong_output(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    page = tmp_path / "wrong.md"
    page.write_text("```pycon\n>>> 1 + 1\n3\n```\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    with pytest.raises(pytest.fail.Exception, match="doctest failed"):
        _run_page(page, monkeypatch, tmp_path)


def test_hand_written_pages_have_tested_examples(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("getting-started.md", "concepts.md", "errors.md", "tutorials/embed-in-your-game.md",
                 "tutorials/house-rules-toml.md", "tutorials/write-an-agent.md"):
        assert _run_page(DOCS / name, monkeypatch, tmp_path) > 0, f"docs/{name} has no code that runs"


def test_the_home_page_names_the_games_the_readme_names() -> None:
    # docs/index.md left out Complex and Royal Hearts, Gong Zhu, Danger Hearts and Likha
    def games(text: str) -> str:
        found = re.search(r"hearts family of card games – (.*?) – and exposes", " ".join(text.split()))
        assert found, "the sentence naming the games of the family is gone"
        return found.group(1)

    readme = games((ROOT / "README.md").read_text(encoding="utf-8"))
    assert games((DOCS / "index.md").read_text(encoding="utf-8")) == readme
    for name in ("Complex", "Royal", "Gong Zhu", "Danger Hearts", "Likha", "Cancellation"):
        assert name in readme


def test_undefined_names_finds_what_a_saved_file_lacks() -> None:
    code = ("import pytest\nfrom heartslib.agents import BaseAgent\n\n\nclass Ducker(BaseAgent):\n"
            "    kind = hl.Suit\n\n    def act(self, observation, legal_actions):\n"
            "        return [a for a in legal_actions if a.card.suit == hl.Suit.HEARTS or play_match][0]\n\n\n"
            "def setup():\n    global seen\n    seen = len(Ducker.__name__)\n")
    assert undefined_names(code) == {"hl", "play_match"}
    assert undefined_names("import heartslib as hl\nprint(hl.preset('standard'))\n") == set()


def test_a_file_block_must_stand_alone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # the write-an-agent tutorial's Ducker used `hl` from an earlier block: saved as myagents.py, as the tutorial
    # said, it failed with NameError; blocks run one after another in a page did not notice
    page = tmp_path / "agent.md"
    page.write_text("```pycon\n>>> import heartslib as hl\n\n```\n\n```python title=\"loose.py\"\n"
                    "def players():\n    return hl.preset('standard').players\n```\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    with pytest.raises(pytest.fail.Exception, match=r"loose\.py uses hl without defining or importing it"):
        _run_page(page, monkeypatch, tmp_path)
    assert "loose" not in sys.modules
    page.write_text("```python title=\"test_loose.py\"\ndef test_fails():\n    assert False\n```\n", encoding="utf-8")
    with pytest.raises(pytest.fail.Exception, match=r"pytest test_loose\.py failed"):
        _run_page(page, monkeypatch, tmp_path)


def _tutorial_agent_module() -> str:
    """The code of the write-an-agent tutorial's block that defines ``Ducker`` (which it says to save as
    ``myagents.py``)."""
    blocks = code_blocks((DOCS / "tutorials" / "write-an-agent.md").read_text(encoding="utf-8"))
    [code] = [b.code for b in blocks if b.lang == "python" and "class Ducker" in b.code]
    return code


def test_the_tutorial_agent_module_runs_from_the_command_line(tmp_path: Path) -> None:
    # `heartslib simulate --agents myagents:Ducker,random` failed with NameError: hl was not imported
    (tmp_path / "myagents.py").write_text(_tutorial_agent_module(), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "heartslib", "simulate", "--agents", "myagents:Ducker,random",
                             "--games", "3", "--no-progress"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=EXAMPLE_TIMEOUT, check=False)
    assert result.returncode == 0, result.stderr
    assert "Ducker" in result.stdout and "random" in result.stdout
    result = subprocess.run([sys.executable, "-m", "heartslib", "play", "--opponent", "myagents:Ducker", "--seed",
                             "1"], input="2C 3C 4C\nquit\n", cwd=tmp_path, capture_output=True, text=True,
                            timeout=EXAMPLE_TIMEOUT, check=False)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr


# --------------------------------------------------------------------------- examples/


EXAMPLE_SCRIPTS = sorted(EXAMPLES.glob("*.py"))  # top level only: examples/web is a web app, not a script


@pytest.mark.parametrize("script", EXAMPLE_SCRIPTS, ids=[p.name for p in EXAMPLE_SCRIPTS])
def test_example_runs(script: Path) -> None:
    if script.name in RUN_ELSEWHERE:
        pytest.skip(f"{script.name} runs in {RUN_ELSEWHERE[script.name]}")
    result = subprocess.run(
        [sys.executable, str(script), *EXAMPLE_ARGS.get(script.name, [])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=EXAMPLE_TIMEOUT,
        check=False,
    )
    missing = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'", result.stderr)
    if result.returncode != 0 and missing and not missing.group(1).startswith("heartslib"):
        pytest.skip(f"{script.name} needs {missing.group(1)}, which is not installed")
    assert result.returncode == 0, f"{script.name} exited {result.returncode}:\n{result.stderr[-3000:]}"
    assert result.stdout.strip(), f"{script.name} printed nothing"


def test_quickstart_plays_to_the_end() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "quickstart.py"), "pink_lady", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=EXAMPLE_TIMEOUT, check=True,
    )
    assert "The match is over" in result.stdout
    assert "Pink lady" in result.stdout  # the describe() text of the preset asked for


def test_quickstart_names_each_winner_with_its_own_total() -> None:
    # it printed min(scores) for the winners: the loser's total in Gong Zhu (higher is better) and Danger
    # Hearts (lives decide), and a TypeError for Complex Hearts' complex scores
    import random

    from heartslib.points import score_text

    for name in ("gong_zhu", "danger_hearts", "complex_hearts", "likha"):
        result = subprocess.run(
            [sys.executable, str(EXAMPLES / "quickstart.py"), name, "1"],
            cwd=ROOT, capture_output=True, text=True, timeout=EXAMPLE_TIMEOUT, check=False,
        )
        assert result.returncode == 0, result.stderr
        match = heartslib.Match(heartslib.preset(name), seed=1)  # the same match, played as the script plays it
        players = random.Random(1)
        while not match.is_over:
            match.apply(players.choice(match.legal_actions(match.to_act[0])))
        said = ", ".join(f"seat {s} ({score_text(match.scores[s])} points)" for s in match.winners)
        assert result.stdout.rstrip().endswith(f": {said}."), (name, result.stdout[-300:])


def test_quickstart_refuses_a_bad_seed_without_a_traceback() -> None:
    for seed in ("x", "-1", str(2**64)):
        result = subprocess.run(
            [sys.executable, str(EXAMPLES / "quickstart.py"), "standard", seed],
            cwd=ROOT, capture_output=True, text=True, timeout=EXAMPLE_TIMEOUT, check=False,
        )
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert "SEED must be a whole number from 0 to 2**64 - 1" in result.stderr


# --------------------------------------------------------------------------- the command line's options


def test_every_command_line_option_is_documented() -> None:
    # docs/simulation.md's table had no --playouts or --time-limit, and docs/agents.md no --time-limit
    from heartslib.cli import build_parser

    pages = {"simulate": "simulation.md", "play": "agents.md"}
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices  # argparse keeps them here
    for command, page in pages.items():
        text = (DOCS / page).read_text(encoding="utf-8")
        options = [o for a in commands[command]._actions for o in a.option_strings[:1] if o != "-h"]
        missing = [o for o in options if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", text)]
        assert not missing, f"docs/{page} does not document heartslib {command} {', '.join(missing)}"


# --------------------------------------------------------------------------- error codes


_CODE = re.compile(r"[a-z]+(?:_[a-z]+)+")


def _is_code(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(_CODE.fullmatch(node.value))


def _is_message(node: ast.AST) -> bool:
    """English text: a string with a space, an f-string, or a concatenation of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and " " in node.value
    if isinstance(node, ast.BinOp):
        return _is_message(node.left) or _is_message(node.right)
    return isinstance(node, ast.JoinedStr)


def error_codes_in(source: str) -> set[str]:
    """The ``IllegalAction`` codes in engine source, found by shape rather than by name.

    A code is a snake_case string that is the first argument of ``IllegalAction(...)``,
    or is followed by an English message (``("code", f"message")``, ``_record(..., "code",
    "message")``), or is a value assigned to something whose name says ``code``.
    """
    codes: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name == "IllegalAction" and node.args and _is_code(node.args[0]):
                codes.add(node.args[0].value)  # type: ignore[attr-defined]
            items: list[ast.expr] = list(node.args)
        elif isinstance(node, ast.Tuple):
            items = list(node.elts)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any("code" in ast.unparse(t).lower() for t in targets) and node.value is not None:
                codes.update(n.value for n in ast.walk(node.value) if _is_code(n))  # type: ignore[attr-defined]
            continue
        else:
            continue
        for first, second in itertools.pairwise(items):
            if _is_code(first) and _is_message(second):
                codes.add(first.value)  # type: ignore[attr-defined]
    return codes


def engine_error_codes() -> set[str]:
    """Every ``IllegalAction`` code in the engine's source (round.py, match.py and the engine package)."""
    src = Path(heartslib.__file__).parent
    codes: set[str] = set()
    for path in [src / "round.py", src / "match.py", *sorted((src / "engine").glob("*.py"))]:
        codes |= error_codes_in(path.read_text(encoding="utf-8"))
    return codes


def test_error_code_scan() -> None:
    source = (
        'raise IllegalAction("a_code", "msg")\n'
        'why = ("b_code", f"seat {s}: no")\n'
        '_record(why, cands, keep, "c_code", "must follow suit")\n'
        'self.first_trick_code = {1: "d_code"}.get(x, "")\n'
        'self._decision = ("pass_word", dealer, options)\n'
        'getattr(obj, "hand_number")\n'
    )
    assert error_codes_in(source) == {"a_code", "b_code", "c_code", "d_code"}


def documented_error_codes() -> set[str]:
    text = (DOCS / "errors.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, re.MULTILINE))


def test_error_code_scan_finds_known_codes() -> None:
    # Guards the scan itself: these codes are named in the API contract.
    assert {"must_follow_suit", "hearts_not_broken", "no_points_on_first_trick", "match_over"} <= engine_error_codes()


def test_every_error_code_is_documented() -> None:
    missing = engine_error_codes() - documented_error_codes()
    assert not missing, f"IllegalAction codes not in docs/errors.md: {', '.join(sorted(missing))}"


def test_no_documented_error_code_is_stale() -> None:
    stale = documented_error_codes() - engine_error_codes()
    assert not stale, f"docs/errors.md documents codes the engine no longer raises: {', '.join(sorted(stale))}"
