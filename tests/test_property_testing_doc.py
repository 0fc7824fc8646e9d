"""docs/property-testing.md: its worked examples (the ``pycon`` blocks) run as one doctest, in page order."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "property-testing.md"
BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_property_testing_page_examples_run() -> None:
    text = PAGE.read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert len(blocks) >= 4, "the page lost its worked examples"
    source = "\n".join(blocks)
    test = doctest.DocTestParser().get_doctest(source, {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 10 and result.failed == 0, f"{result.failed} example(s) failed (see output above)"
