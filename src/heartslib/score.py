"""Score values: whole numbers, or Gaussian integers for complex hearts.

Most games score whole numbers; Garfield's complex hearts scores complex
numbers (Q♠ = 13i). A :data:`Score` is an ``int`` or a ``complex`` whose
parts are whole numbers; text and JSON forms are exact (``"13i"``,
``"-26+10i"``), so saves round-trip complex scores exactly.

>>> parse_score("13i"), parse_score("-26+10i"), parse_score(-10), score_text(complex(-26, 10))
(13j, (-26+10j), -10, '-26+10i')
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["Score", "is_complex", "normalise", "parse_score", "score_data", "score_text"]

Score = int | complex

def parse_score(value: Any) -> Score:
    """An int, or a complex number from text such as ``"13i"``, ``"2i"``, ``"-i"``, ``"3-4i"``.

    Raises ``ValueError`` for anything else (floats included: scores are exact).
    """
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a score (a whole number or text like '13i')")
    if isinstance(value, int):
        return value
    if isinstance(value, complex):
        if value.real != int(value.real) or value.imag != int(value.imag):
            raise ValueError(f"{value!r} has fractional parts; scores are whole numbers")
        return value if value.imag else int(value.real)
    if isinstance(value, str):
        text = value.replace(" ", "").replace("j", "i")
        match = re.fullmatch(r"([+-]?\d+)", text)
        if match:
            return int(text)
        match = re.fullmatch(r"([+-]?\d*)i", text)
        if match:
            im = _unit(match.group(1))
            return complex(0, im) if im else 0
        match = re.fullmatch(r"([+-]?\d+)([+-]\d*)i", text)
        if match:
            re_part, im = int(match.group(1)), _unit(match.group(2))
            return complex(re_part, im) if im else re_part
    raise ValueError(f"{value!r} is not a score: write a whole number or a complex one like '13i' or '3-4i'")


def _unit(text: str) -> int:
    if text in ("", "+"):
        return 1
    if text == "-":
        return -1
    return int(text)


def is_complex(value: Score) -> bool:
    """Whether ``value`` has an imaginary part."""
    return isinstance(value, complex) and value.imag != 0


def score_text(value: Score) -> str:
    """Exact text for a score: ``"7"``, ``"13i"``, ``"-26+10i"``."""
    if not isinstance(value, complex):
        return str(value)
    re_part, im = int(value.real), int(value.imag)
    if im == 0:
        return str(re_part)
    im_text = {1: "i", -1: "-i"}.get(im, f"{im}i")
    if re_part == 0:
        return im_text
    return f"{re_part}{'+' if im > 0 else ''}{im_text}"


def score_data(value: Score) -> int | str:
    """A score as JSON/TOML data: an int, or exact text for a complex score."""
    if isinstance(value, complex):
        return score_text(value) if value.imag else int(value.real)
    return value


def normalise(value: Score) -> Score:
    """Complex values with no imaginary part become ints (so standard games keep int scores)."""
    if isinstance(value, complex) and value.imag == 0:
        return int(value.real)
    return value

