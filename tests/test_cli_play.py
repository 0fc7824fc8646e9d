"""``heartslib play`` as a player sees it: colour, each trick told as one block, the score table, the pause."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

import heartslib as hl
from heartslib.cli import PlaySession, build_parser, opponents, use_color
from heartslib.points import score_text
from test_cli import SRC, human_script, run

STANDARD = hl.preset("standard")
ESC = "\x1b["
HEADER = re.compile(r"^--- Trick (\d+) ---$")
PLAY = re.compile(r"^(You|Seat \d+) plays? (\S+)\.$")
TAKES = re.compile(r"^(You|Seat \d+) takes? the trick")


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def who(seat: int, human: int) -> str:
    return "You" if seat == human else f"Seat {seat}"


def session(m: hl.Match, human: int, script: str, *, color: bool = False, interactive: bool | None = None
            ) -> tuple[PlaySession, io.StringIO]:
    """A play session in process, reading ``script`` and writing to the returned stream, in an 80x24 terminal."""
    out = io.StringIO()
    play = PlaySession(m, human, opponents(m, human), inp=io.StringIO(script), out=out, save_path=None,
                       color=color, interactive=interactive, size=lambda: (80, 24))
    return play, out


def run_on_terminal(*args: str, stdin: str, env: dict[str, str]) -> str:
    """``python -m heartslib ARGS`` with its output on a pseudo-terminal and its input from a pipe."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    environ = {**os.environ, "PYTHONIOENCODING": "utf-8", "TERM": "xterm",
               "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    environ.pop("NO_COLOR", None)
    environ.update(env)
    proc = subprocess.Popen([sys.executable, "-m", "heartslib", *args], stdin=subprocess.PIPE, stdout=slave,
                            stderr=subprocess.PIPE, env=environ)
    os.close(slave)
    assert proc.stdin is not None
    proc.stdin.write(stdin.encode("utf-8"))
    proc.stdin.close()
    chunks: list[bytes] = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the terminal closed: the program has ended
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=120) == 0
    assert proc.stderr is not None and b"Traceback" not in proc.stderr.read()
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


# --------------------------------------------------------------------------- colour


def test_colour_is_decided_by_the_terminal_no_color_and_the_options() -> None:
    assert use_color(None, Terminal(), {}) is True
    assert use_color(None, Terminal(), {"NO_COLOR": "1"}) is False
    assert use_color(None, Terminal(), {"NO_COLOR": ""}) is True  # no-color.org: only a non-empty value counts
    assert use_color(None, Terminal(), {"TERM": "dumb"}) is False
    assert use_color(None, io.StringIO(), {}) is False  # not a terminal
    assert use_color(True, io.StringIO(), {"NO_COLOR": "1"}) is True  # --color decides
    assert use_color(False, Terminal(), {}) is False  # --no-color
    parser = build_parser()
    assert parser.parse_args(["play"]).color is None
    assert parser.parse_args(["play", "--color"]).color is True
    assert parser.parse_args(["play", "--no-color"]).color is False


def test_no_colour_when_the_output_is_not_a_terminal() -> None:
    result = run("play", "--seed", "5", stdin="")
    assert result.returncode == 0 and ESC not in result.stdout and "Your hand" in result.stdout
    forced = run("play", "--seed", "5", "--color", stdin="")
    assert forced.returncode == 0 and "\x1b[31m" in forced.stdout


def test_colour_on_a_terminal_and_not_with_no_color() -> None:
    out = run_on_terminal("play", "--seed", "5", stdin="", env={})
    assert "Your hand" in out
    assert "\x1b[1;31m" in out or "\x1b[31;1m" in out  # a red legal card
    assert re.search(r"\x1b\[31m[^\x1b]*♥", out)  # the hearts in red
    assert "Press Enter" not in out  # the input is a pipe: no pause
    for value in ("1", "true"):
        plain = run_on_terminal("play", "--seed", "5", stdin="", env={"NO_COLOR": value})
        assert "Your hand" in plain and ESC not in plain
    assert ESC in run_on_terminal("play", "--seed", "5", stdin="", env={"NO_COLOR": ""})
    assert ESC not in run_on_terminal("play", "--seed", "5", "--no-color", stdin="", env={})


def test_colour_marks_red_suits_and_legal_cards_only() -> None:
    m = hl.Match(STANDARD, 5)
    play, _ = session(m, 0, "", color=True)
    assert play.card(hl.Card("QH")) == "\x1b[31mQ♥\x1b[0m"
    assert play.card(hl.Card("QD")) == "\x1b[31mQ♦\x1b[0m"
    assert play.card(hl.Card("QS")) == "Q♠" and play.card(hl.Card("QC"), legal=True) == "\x1b[1mQ♣\x1b[0m"
    assert play.card(hl.Card("QS"), legal=False) == "\x1b[2mQ♠\x1b[0m"
    plain, _ = session(m, 0, "")
    assert plain.card(hl.Card("QH"), legal=True) == "Q♥"


# --------------------------------------------------------------------------- tricks and hands


def first_hands(hands: int, human: int = 1, seed: int = 5) -> tuple[hl.Match, list[str], str]:
    """Play ``hands`` hands with ``heartslib play`` from a script; the match, the script and the output."""
    m, lines = human_script(STANDARD, seed, human, lambda m: m.hand_number >= hands)
    result = run("play", "--seed", str(seed), "--seat", str(human), stdin="\n".join(lines) + "\n")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return m, lines, result.stdout


def test_each_trick_is_one_block_after_its_header_with_a_summary() -> None:
    human = 1
    m, _lines, out = first_hands(1, human)
    expected: list[str] = []
    value = STANDARD.rules.value
    for e in m.events:
        if isinstance(e, hl.RoundScored):
            break
        if isinstance(e, hl.TrickWon):
            assert e.winner is not None
            expected.append(f"header {e.number + 1}")
            expected += [f"{who(s, human)} {c}" for s, c in e.plays]
            scoring = [c for _, c in e.plays if value[c.index]]
            points = sum(value[c.index] for c in scoring)
            text = f"{who(e.winner, human)} take{'' if e.winner == human else 's'} the trick"
            text += (f" (+{points} point{'' if points == 1 else 's'}: {' '.join(map(str, scoring))})." if scoring
                     else " (no points).")
            expected.append(text)
    told: list[str] = []
    for line in out.splitlines():
        if header := HEADER.match(line):
            told.append(f"header {header[1]}")
        elif play := PLAY.match(line):
            told.append(f"{play[1]} {play[2]}")
        elif TAKES.match(line):
            told.append(line)
    assert len(expected) == 13 * 6
    assert told == expected  # every play after its own trick's header, the summary closing the block
    assert "Hand 1 is over." in out


def test_a_score_table_of_the_hands_so_far_ends_each_hand() -> None:
    human = 1
    m, _lines, out = first_hands(2, human)
    lines = out.splitlines()
    at = lines.index("Hand 2 is over.")
    heads, one, two, total = (line.split() for line in lines[at + 1:at + 5])
    assert heads == ["seat", "0", "you", "seat", "2", "seat", "3"]
    assert one == ["Hand", "1", *(score_text(p) for p in m.rounds[0].points)]
    assert two == ["Hand", "2", *(score_text(p) for p in m.rounds[1].points)]
    assert total == ["Total", *(score_text(t) for t in m.rounds[1].totals)]
    assert lines[lines.index("Hand 1 is over.") + 3].split()[0] == "Total"
    assert "Press Enter" not in out  # scripted input: no pause between hands


def test_a_pause_between_hands_only_for_a_person_at_a_terminal() -> None:
    _, lines = human_script(STANDARD, 5, 1, lambda m: m.hand_number >= 1)
    play, out = session(hl.Match(STANDARD, 5), 1, "\n".join([*lines, "", "q"]) + "\n", interactive=True)
    assert play.run() == 0
    text = out.getvalue()
    prompt = "Press Enter to deal hand 2 (q to quit): "
    assert text.count(prompt) == 1 and text.index(prompt) > text.index("  Total ")
    assert "=== Hand 2" in text.split(prompt)[1] and text.rstrip().endswith("(use --save FILE to keep it).")
    assert "\nStopped." in text
    # q at the pause quits there; the end of the input there ends the game as anywhere else
    play, out = session(hl.Match(STANDARD, 5), 1, "\n".join([*lines, "q"]) + "\n", interactive=True)
    assert play.run() == 0 and "=== Hand 2" not in out.getvalue() and "\nStopped." in out.getvalue()
    play, out = session(hl.Match(STANDARD, 5), 1, "\n".join(lines) + "\n", interactive=True)
    assert play.run() == 0 and "\nInput ended." in out.getvalue()
    # not interactive (a file, a pipe, a test): the same input goes straight on to hand 2's pass
    play, out = session(hl.Match(STANDARD, 5), 1, "\n".join(lines) + "\n")
    assert play.run() == 0 and "Press Enter" not in out.getvalue() and "=== Hand 2" in out.getvalue()


def test_a_resumed_game_opens_its_trick_with_a_header() -> None:
    def mid_trick_four(m: hl.Match) -> bool:
        obs = m.observation(0)
        return m.phase == hl.Phase.PLAY and len(obs.tricks) == 3 and len(obs.trick) > 0

    m, _lines = human_script(STANDARD, 12, 0, mid_trick_four)
    play, out = session(m, 0, "")
    assert play.run() == 0
    text = out.getvalue()
    assert text.index("--- Trick 4 ---") < text.index("trick 4 \u00b7 ")  # the header, then the picture


# --------------------------------------------------------------------------- the picture and the width


def test_rules_on_a_terminal_fit_its_width() -> None:
    # issue 52: the rules text ran past the terminal's width and the terminal broke its words
    out = run_on_terminal("rules", "standard", stdin="", env={"COLUMNS": "60"})
    assert max(len(line) for line in out.splitlines()) < 60
    assert out.split() == STANDARD.describe().split()  # the same words, only the lines broken
    piped = run("rules", "standard")
    assert piped.stdout == STANDARD.describe() + "\n"  # piped: one line a paragraph, as before


def test_enter_alone_draws_the_table_again() -> None:
    play, out = session(hl.Match(STANDARD, 5), 0, "\n\nquit\n")
    assert play.run() == 0
    text = out.getvalue()
    assert text.count("Your hand (* = you may pass it):") == 3 and text.count("\u2500\u2500 Hand 1 \u00b7 passing") == 3
    assert text.count("you pass 3 cards to seat 1") == 3  # where the pass goes, in the middle of the table
