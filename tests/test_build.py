"""Which build of heartslib the suite runs against (pure Python, or compiled by mypyc)."""

from __future__ import annotations

import os
from pathlib import Path

import heartslib as hl


def test_the_build_is_the_expected_one() -> None:
    # CI runs the suite twice: on the default (pure) install and, with HEARTSLIB_EXPECT_COMPILED=1, on the
    # compiled build. A compiled module left in src/ by `HATCH_BUILD_HOOK_ENABLE_MYPYC=true pip install -e .`
    # would hide every later edit of the sources; this fails then too.
    expected = os.environ.get("HEARTSLIB_EXPECT_COMPILED") == "1"
    stale = sorted(str(p) for p in Path(hl.__file__).parent.glob("*.so"))
    assert hl.COMPILED is expected, (
        f"heartslib.COMPILED is {hl.COMPILED}, expected {expected}"
        + (f"; delete the compiled modules {stale} to run the sources" if stale and not expected else "")
    )
