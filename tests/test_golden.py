"""Golden playthroughs: one seeded round per preset, compared line by line with tests/golden/.

A difference means the game changed: a deal, a legal list, an observation
or a score. If the change is intended, regenerate the files with
``python scripts/regen_golden.py`` and review ``git diff tests/golden``.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

import heartslib as hl

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _load_script()


@pytest.mark.parametrize("name", hl.preset_names())
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    assert path.exists(), f"no golden file for preset {name}: run python scripts/regen_golden.py {name}"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = regen.transcript(name).splitlines()
    if actual != expected:
        diff = list(difflib.unified_diff(expected, actual, "golden", "now", n=1, lineterm=""))
        pytest.fail(
            f"preset {name} plays differently from {path.relative_to(ROOT)} "
            f"(if intended: python scripts/regen_golden.py {name}, then review the diff):\n" + "\n".join(diff[:40])
        )


def test_every_golden_file_belongs_to_a_preset() -> None:
    stale = sorted(p.stem for p in GOLDEN.glob("*.txt") if p.stem not in hl.preset_names())
    assert not stale, f"golden files for presets that no longer exist: {stale}"


def test_a_golden_file_has_state_observation_and_legal_lines() -> None:
    lines = (GOLDEN / "standard.txt").read_text(encoding="utf-8").splitlines()
    kinds = {line.split(" ", 1)[0] for line in lines}
    assert {"state", "obs", "legal", "step", "result"} <= kinds
    assert any(line.startswith("legal ") and "passes" in line for line in lines)
    assert any(line.startswith("step ") and ":play " in line for line in lines)
