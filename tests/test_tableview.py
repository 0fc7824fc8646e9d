"""The picture of the table in ``heartslib play`` (issue 52): snapshots at 80x24 and 120x40, the seats around the
trick for two to ten players, and no line of the game wider than the terminal."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import heartslib as hl
from heartslib._tableview import SeatView, count, hand_lines, table_picture, visible_width, wrap
from heartslib.cli import PlaySession, opponents

STANDARD = hl.preset("standard")
DATA = Path(__file__).parent / "data"


def position() -> hl.Match:
    """Standard, seed 5, every seat playing its last legal action, at seat 0's turn in trick 6 (seat 2 led 2♠,
    seat 3 put 4♥ on it; seat 2 has taken 17 points): a position that does not move when an agent changes."""
    m = hl.Match(STANDARD, 5)
    while not (m.phase == hl.Phase.PLAY and len(m.observation(0).tricks) == 5 and m.to_act == (0,)):
        m.apply(m.legal_actions(m.to_act[0])[-1])
    return m


def drawn(m: hl.Match, size: tuple[int, int], *, symbols: bool = True) -> str:
    """What ``heartslib play`` shows seat 0 at its turn in a terminal of ``size`` (columns, lines)."""
    out = io.StringIO()
    play = PlaySession(m, 0, opponents(m, 0), inp=io.StringIO(""), out=out, save_path=None, symbols=symbols,
                       size=lambda: size)
    play.hand_shown = m.hand_number  # the hand's heading was shown when it was dealt
    play.show(m.observation(0), {a.card for a in m.legal_actions(0) if isinstance(a, hl.Play)})
    return out.getvalue()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_table_matches_its_snapshot(size: tuple[int, int]) -> None:
    shown = drawn(position(), size)
    expected = (DATA / f"table_{size[0]}x{size[1]}.txt").read_text(encoding="utf-8")
    assert shown == expected, "\n" + shown
    lines = shown.splitlines()
    assert max(map(len, lines)) < size[0] and len(lines) + 1 <= size[1]  # the picture, the hand and the prompt fit
    assert "4♥" in shown and "2♠" in shown and "17 pts" in shown and "10♣*" in shown


def test_the_picture_in_the_docs_is_the_snapshot() -> None:
    page = (Path(__file__).parents[1] / "docs" / "agents.md").read_text(encoding="utf-8")
    shown = page.split("At 80\u00d724 it looks like this:\n\n```text\n")[1].split("```")[0]
    assert shown == (DATA / "table_80x24.txt").read_text(encoding="utf-8").split("--- Trick 6 ---\n\n")[1]


def test_a_terminal_without_suit_symbols_gets_card_codes_and_plain_lines() -> None:
    shown = drawn(position(), (80, 24), symbols=False)
    assert "4H" in shown and "2S" in shown and "+---" in shown and "seat 2 - total 0" in shown
    assert all(ch.isascii() for ch in shown)


@pytest.mark.parametrize("players", range(2, 11))
def test_every_seat_sits_around_the_trick(players: int) -> None:
    seats = [SeatView("you", "0", 13, "0")] + [SeatView(f"seat {s}", str(s), 12, "5", f"{s}\u2663")
                                               for s in range(1, players)]
    for width, height in ((79, 20), (119, 40), (59, 20), (39, 20)):
        lines = table_picture(seats, title="Hand 1 \u00b7 trick 2", width=width, height=height)
        text = "\n".join(lines)
        assert max(map(visible_width, lines)) <= width, text
        for s in range(1, players):
            assert text.count(f"seat {s} ") + text.endswith(f"seat {s}") == 1, text
            assert f"{s}\u2663" in text, text  # each seat's card on the trick
        if width >= 59 and players <= 7:  # room for a table: you at the bottom, the seat on your left on the left
            assert lines[-1].strip().startswith("you") and "\u2514" in lines[-2], text
            left = next(line for line in lines if "seat 1 " in line)
            assert left.index("seat 1") < width // 3 or players == 2, text


def test_the_seats_go_round_in_the_order_of_play() -> None:
    # four players: the next to play on your left, the one after across, the last on your right
    seats = [SeatView("you", "0", 13, "0")] + [SeatView(f"seat {s}", "0", 13, "0") for s in (1, 2, 3)]
    lines = table_picture(seats, title="Hand 1", width=79, height=24, trick=False)
    across = next(i for i, line in enumerate(lines) if "seat 2" in line)
    sides = next(line for line in lines if "seat 1" in line)
    assert across < lines.index(sides) and sides.index("seat 1") < sides.index("seat 3")


def test_wrap_breaks_between_words_and_colour_takes_no_room() -> None:
    text = "Seat 1 takes the trick (+14 points: Q\u2660 5\u2665)."
    assert wrap(text, 80) == [text]
    assert wrap(text, 24) == ["Seat 1 takes the trick", "(+14 points: Q\u2660 5\u2665)."]
    red = "\x1b[31m5\u2665\x1b[0m"
    assert visible_width(red) == 2 and wrap(f"{'x' * 20} {red}", 23) == [f"{'x' * 20} {red}"]
    assert wrap("  indented words " * 3, 20) == ["  indented words", "  indented words", "  indented words"]
    assert wrap("a" * 50, 20) == ["a" * 20, "a" * 20, "a" * 10]  # a word longer than a line: cut
    # a seat's name is never split over two lines ("seat" at the end of one, its number on the next)
    assert wrap("Scores: you 0, seat 1 0, seat 2 0, seat 3 0", 24) == ["Scores: you 0, seat 1 0,", "seat 2 0, seat 3 0"]
    assert wrap("Scores: you 0, seat 1 0, seat 2 0", 29) == ["Scores: you 0, seat 1 0,", "seat 2 0"]
    assert hand_lines([("\u2663 clubs", ["2\u2663*"] * 20)], 40)[1].startswith(" " * 13 + "2\u2663*")


def test_counts_are_singular_or_plural() -> None:
    # issue 52: "3 card(s)"
    assert count(1, "card") == "1 card" and count(3, "card") == "3 cards" and count(0, "point") == "0 points"


def test_a_card_is_typed_as_qs_or_with_its_symbol() -> None:
    m = position()
    play = PlaySession(m, 0, opponents(m, 0), inp=io.StringIO(""), out=io.StringIO(), save_path=None)
    obs = m.observation(0)
    for text in ("QC", "qc", "Q\u2663", "q\u2663"):
        assert play.parse(obs, text) == hl.Play(0, hl.Card("QC")), text


class Player(io.StringIO):
    """The human's input, answered from the game: the last legal action, after asking for help and typing a card
    it does not hold; the input ends when the first hand does."""

    def __init__(self) -> None:
        super().__init__()
        self.session: PlaySession | None = None
        self.asked = 0

    def readline(self, size: int | None = -1) -> str:
        assert self.session is not None
        m, seat = self.session.match, self.session.human
        self.asked += 1
        if self.asked == 1:
            return "help\n"
        if self.asked == 2:
            return "ZZ\n"
        if m.hand_number > 0 or m.is_over:
            return ""
        action = m.legal_actions(seat)[-1]
        if isinstance(action, hl.Pass):
            return " ".join(c.code for c in action.cards) + "\n"
        return (action.option if isinstance(action, hl.Choose) else action.card.code) + "\n"


@pytest.mark.parametrize("variant", ["standard", "black_maria", "double_deck_6_dirty", "double_deck_10",
                                     "two_handed", "auction_hearts", "domino_hearts", "gong_zhu_exposed"])
def test_no_line_of_a_game_is_wider_than_the_terminal(variant: str) -> None:
    # issue 52: lines over 80 columns wrapped mid-word in the terminal (the rules summary, the help, the refusals)
    v = hl.preset(variant)
    for size in ((80, 24), (120, 40), (50, 20)):
        m = hl.Match(v, 3)
        out = io.StringIO()
        player = Player()
        play = PlaySession(m, 0, opponents(m, 0, "random"), inp=player, out=out, save_path=Path("game.json"),
                           size=lambda size=size: size, color=True)
        player.session = play
        play.save = lambda: None  # type: ignore[method-assign]  # nothing written: only the words are checked
        play.say("Type 'help' for help. Saving to game.json after every action.")
        assert play.run() == 0
        text = out.getvalue()
        assert "Your hand" in text and "Type a card as rank then suit" in text
        wide = [line for line in text.splitlines() if visible_width(line) >= size[0]]
        assert not wide, (variant, size, wide)


def test_the_score_table_of_ten_players_keeps_a_row_a_line_at_80_columns() -> None:
    # its ten "seat N" columns took 88 columns: each row wrapped onto a second line
    m = hl.Match(hl.preset("double_deck_10"), 3)
    out = io.StringIO()
    player = Player()
    play = PlaySession(m, 0, opponents(m, 0, "random"), inp=player, out=out, save_path=None, size=lambda: (80, 24))
    player.session = play
    assert play.run() == 0
    lines = out.getvalue().splitlines()
    heads, hand, total = lines[lines.index("Hand 1 is over.") + 1:][:3]
    assert heads.split() == ["you", *map(str, range(1, 10))]
    assert len(hand.split()) == 12 and len(total.split()) == 11 and total.split()[0] == "Total"
    assert max(map(len, (heads, hand, total))) < 80
