"""Points: the number type scores are kept in (whole numbers, or Gaussian integers for complex hearts).

Most games score whole numbers; Garfield's complex hearts scores complex
numbers (Q♠ = 13i). A :data:`Score` is an ``int`` or a ``complex`` whose
parts are whole numbers. Its exact text (``"13i"``, ``"-26+10i"``) is
:func:`score_text`; reading text and JSON data back is
:func:`heartslib.serialize.parse_score`.

>>> score_text(complex(-26, 10)), score_text(13j), normalise(complex(7, 0))
('-26+10i', '13i', 7)
"""

from __future__ import annotations

__all__ = ["MAX_HAND_NUMBER", "MAX_SCORE", "MAX_SEED", "Score", "is_complex", "normalise", "score_text"]

Score = int | complex

#: The largest size of a score's real or imaginary part. Complex scores are kept as floating-point pairs,
#: which hold whole numbers exactly only up to 2**53 (about 9 * 10**15): saved scores, set match totals
#: and the numbers read from text stay within this bound, so every score heartslib keeps is exact.
MAX_SCORE = 10**15
#: Seeds are whole numbers from 0 to this (64 bits; ``random.Random`` would read -7 as 7).
MAX_SEED = 2**64 - 1
#: The largest hand number a round, a set deal or a save may give.
MAX_HAND_NUMBER = 10**9

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


def normalise(value: Score) -> Score:
    """Complex values with no imaginary part become ints (so standard games keep int scores)."""
    if isinstance(value, complex) and value.imag == 0:
        return int(value.real)
    return value

