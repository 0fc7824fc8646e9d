"""The picture of the table that ``heartslib play`` draws, fitted to the terminal.

The seats sit around the current trick as at a real table: you at the bottom, the next player in the order of play
on your left, then round the top to the right (three players: left and right; six: two on each side and two across;
ten: three on each side and three across). Each seat shows its name, the points it has taken this hand and the cards
it holds, with the card it put on the trick just inside its place. Below the picture comes your hand, one suit a
line, the cards you may play marked with ``*`` (colour is only a second mark).

Everything here is text in, lines out, with no state and no terminal: the lines are cut to the ``width`` asked for
(:func:`wrap` breaks between words; ANSI colour codes take no room), so the same call makes the picture for a test's
80x24 and a player's 200-column window. The picture is laid out in the roomiest style that fits: with each seat's
match total and a blank line between the rows where the terminal is wide and tall, without them where it is not, and
as one line a seat where the terminal is too narrow for a table at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

__all__ = ["SeatView", "count", "hand_lines", "table_picture", "visible_width", "wrap"]

#: An ANSI Select Graphic Rendition code, which colours text and takes no room on the screen.
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: The narrowest line the game lays out (a terminal narrower still gets lines of this width).
MIN_WIDTH = 20


def visible_width(text: str) -> int:
    """The columns ``text`` takes on a terminal: its length without colour codes."""
    return len(_ANSI.sub("", text))


def count(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1: "1 card", "3 cards", "0 points"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def wrap(text: str, width: int, indent: str | None = None) -> list[str]:
    """``text`` as lines of at most ``width`` columns, broken between words (colour codes take no room).

    A line keeps its leading spaces; the lines it wraps onto start with ``indent`` (by default the same spaces).
    "seat" and its number stay together. A word longer than a whole line is cut, the one case a break falls
    inside a word.
    """
    width = max(width, MIN_WIDTH)
    lead = text[:len(text) - len(text.lstrip(" "))]
    rest = indent if indent is not None else lead
    if visible_width(text) <= width:
        return [text]
    lines: list[str] = []
    line, used = lead, len(lead)
    for word in _glued(text[len(lead):].split(" ")):
        size = visible_width(word)
        if used > len(lead if not lines else rest) and used + 1 + size > width:
            lines.append(line)
            line, used = rest, len(rest)
        if used > len(lead if not lines else rest):
            line, used = line + " ", used + 1
        while size > width - used and not _ANSI.search(word) and width > used:
            cut = width - used  # a word longer than a line (a long file name): cut, the rest on the next line
            lines.append(line + word[:cut])
            word, size = word[cut:], size - cut
            line, used = rest, len(rest)
        line, used = line + word, used + size
    lines.append(line)
    return [ln.rstrip(" ") for ln in lines]


def _glued(words: list[str]) -> list[str]:
    """The words, a seat's name kept on one line ("seat" and its number one word: "seat 4 0" never ends a line
    with "seat")."""
    out: list[str] = []
    for word in words:
        if out and out[-1].lower() == "seat" and word[:1].isdigit():
            out[-1] += " " + word
        else:
            out.append(word)
    return out


@attrs.frozen
class SeatView:
    """One seat as the picture shows it: its name ("you", "seat 2"), the points it has taken this hand and its
    match total (as text), how many cards it holds, and the card it has put on the current trick (as text, which
    may be coloured; None before it plays, and outside the play)."""

    name: str
    points: str
    cards: int
    total: str
    played: str | None = None


class _NoFit(Exception):
    """A style that does not fit the width: the next, narrower one is tried."""


@attrs.define
class _Canvas:
    """Text placed at (row, column), each piece checked to stay inside the width and off the others."""

    width: int
    rows: list[list[tuple[int, str]]] = attrs.Factory(list)

    def put(self, row: int, col: int, text: str) -> None:
        size = visible_width(text)
        if col < 0 or col + size > self.width:
            raise _NoFit
        while len(self.rows) <= row:
            self.rows.append([])
        for other, placed in self.rows[row]:
            if col < other + visible_width(placed) + 1 and other < col + size + 1:
                raise _NoFit
        self.rows[row].append((col, text))

    def lines(self) -> list[str]:
        out = []
        for pieces in self.rows:
            line, at = "", 0
            for col, text in sorted(pieces):
                line += " " * (col - at) + text
                at = col + visible_width(text)
            out.append(line)
        return out


#: The styles, roomiest first: (a seat's match total shown, a blank line between the rows of seats).
_STYLES = ((True, True), (True, False), (False, False))


def table_picture(seats: Sequence[SeatView], *, title: str, width: int, height: int, symbols: bool = True,
                  trick: bool = True, note: str = "") -> list[str]:
    """The picture of the table, as lines of at most ``width`` columns.

    ``seats`` starts with you and goes on in the order of play; ``title`` heads it (the hand, the trick, what is
    broken); ``trick`` says whether a trick is being played (the seats that have not played to it show a dot).
    ``height`` is the most lines the picture should take: the blank lines between rows of seats, then the match
    totals, are left out when it would take more. ``note`` is said in the middle of the table where no trick is
    being played (where your pass goes), when it fits there.
    """
    width = max(width, MIN_WIDTH)
    rule = "\u2500" if symbols else "-"
    head = wrap(title, width - 4)
    lines = [f"{rule * 2} {head[0]} ".ljust(width, rule) if len(head) == 1 else head[0], *head[1:]]
    empty = ("\u00b7" if symbols else ".") if trick else None
    drawn: list[list[str]] = []
    for total, spaced in _STYLES:  # the roomiest that fits the width and the height; else the shortest that fits
        try:
            drawn.append(_around(seats, width, total=total, spaced=spaced, empty=empty, symbols=symbols,
                                 note=note))
        except _NoFit:
            continue
        if len(lines) + len(drawn[-1]) <= height:
            return lines + drawn[-1]
    if not drawn:
        return lines + _listed(seats, width, symbols)
    return lines + min(drawn, key=len)  # the roomiest of the shortest: the totals stay where they take no line


def _labels(seat: SeatView, total: bool, dot: str) -> list[str]:
    """A seat's two lines: its name (and match total), its points this hand and the cards it holds."""
    name = f"{seat.name}{dot}total {seat.total}" if total else seat.name
    points = "1 pt" if seat.points == "1" else f"{seat.points} pts"
    return [name, f"{points}{dot}{count(seat.cards, 'card')}"]


def _dot(symbols: bool) -> str:
    """What separates the parts of a seat's line: a middle dot, or a dash where the terminal cannot show one."""
    return " \u00b7 " if symbols else " - "


def _sides(k: int) -> tuple[int, int]:
    """How many of ``k`` other seats sit on each side (left and right alike) and how many across the top."""
    side = (k + 1) // 3
    return side, k - 2 * side


def _around(seats: Sequence[SeatView], width: int, *, total: bool, spaced: bool, empty: str | None,
            symbols: bool, note: str) -> list[str]:
    """The seats around a box holding the trick (raises :class:`_NoFit` when they do not fit ``width``)."""
    me, others = seats[0], list(seats[1:])
    side, top = _sides(len(others))
    left = others[:side][::-1]  # from the top of the left side down to the seat on your left
    across = others[side:side + top]
    right = others[side + top:]
    canvas = _Canvas(width)
    dot = _dot(symbols)
    gap = 1 if spaced else 0
    centre = width // 2
    outer = max((visible_width(t) for s in left + right for t in _labels(s, total, dot)), default=0)
    # the box grows with the window, up to two fifths of it: a wide terminal spreads the trick out, not to its edges
    inner = min(width - 2 * (outer + 3) - 2, max(30, width * 2 // 5))
    if inner < 16:
        raise _NoFit
    box_left = centre - (inner + 2) // 2
    box_right = box_left + inner + 1
    row = 0
    for j, seat in enumerate(across):  # across the top: spread over the whole width, their cards over the box's
        middle = width * (j + 1) // (top + 1)
        for i, text in enumerate(_labels(seat, total, dot)):
            canvas.put(i, middle - visible_width(text) // 2, text)
    row = 2 + gap if across else 0
    corner = "\u250c\u2500\u2510\u2502\u2514\u2518" if symbols else "+-+|++"
    canvas.put(row, box_left, corner[0] + corner[1] * inner + corner[2])
    first = row + 1
    inside = first + gap
    for j, seat in enumerate(across):
        if (shown := _played(seat, empty)) is not None:
            canvas.put(inside, box_left + 1 + inner * (j + 1) // (top + 1) - visible_width(shown) // 2, shown)
    if across:
        inside += 1 + gap
    for i in range(max(len(left), len(right))):
        at = inside + i * (2 + gap)
        pairs = ([(left[i], True)] if i < len(left) else []) + ([(right[i], False)] if i < len(right) else [])
        for seat, on_left in pairs:
            for k, text in enumerate(_labels(seat, total, dot)):
                canvas.put(at + k, box_left - 2 - visible_width(text) if on_left else box_right + 2, text)
            if (shown := _played(seat, empty)) is not None:
                size = visible_width(shown)
                spread = max(4, inner // 4)  # the side seats' cards towards the middle, as on a table
                canvas.put(at, max(box_left + 3, centre - spread - size) if on_left
                           else min(box_right - 2 - size, centre + spread), shown)
    inside += max(len(left), len(right)) * (2 + gap)
    shown = _played(me, empty)
    if shown is None and note and visible_width(note) <= inner - 2:
        shown = note
    if shown is not None:
        canvas.put(inside, centre - visible_width(shown) // 2, shown)
        inside += 1 + gap
    for r in range(first, inside):
        canvas.put(r, box_left, corner[3])
        canvas.put(r, box_right, corner[3])
    canvas.put(inside, box_left, corner[4] + corner[1] * inner + corner[5])
    mine = dot.join(_labels(me, total, dot))
    canvas.put(inside + 1, centre - visible_width(mine) // 2, mine)
    return canvas.lines()


def _played(seat: SeatView, empty: str | None) -> str | None:
    """What a seat's place in the trick shows: its card, a dot before it plays, nothing outside the play."""
    return seat.played if seat.played is not None else empty


def _listed(seats: Sequence[SeatView], width: int, symbols: bool) -> list[str]:
    """The seats one line each, for a terminal too narrow for the table."""
    lines: list[str] = []
    dot = _dot(symbols)
    for seat in seats:
        played = f"{dot}played {seat.played}" if seat.played is not None else ""
        lines += wrap(dot.join(_labels(seat, False, dot)) + played, width, "  ")
    return lines


def hand_lines(groups: Sequence[tuple[str, Sequence[str]]], width: int, label_width: int = 11) -> list[str]:
    """A hand, one group (suit) a line: its label padded to ``label_width`` columns, then its cards; a line too long
    for ``width`` goes on under the cards, never under the label."""
    lines: list[str] = []
    indent = " " * (2 + label_width)
    for label, cards in groups:
        pad = " " * max(0, label_width - visible_width(label))
        lines += wrap(f"  {label}{pad}{' '.join(cards)}", width, indent)
    return lines
