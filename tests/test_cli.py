"""The ``heartslib`` command line, end to end in subprocesses (and a few checks in process)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import heartslib as hl
from heartslib.agents import actions_for
from heartslib.cli import DEFAULT_GAMES, ProgressBar, main, opponents, summary
from heartslib.simulate import simulate

STANDARD = hl.preset("standard")
SRC = str(Path(hl.__file__).resolve().parents[1])


def run(*args: str, stdin: str = "", cwd: Path | None = None, encoding: str = "utf-8"
        ) -> subprocess.CompletedProcess[str]:
    """``python -m heartslib ARGS`` with the heartslib under test."""
    env = {**os.environ, "PYTHONIOENCODING": encoding,
           "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "heartslib", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", env=env, cwd=cwd, timeout=120, check=False)


def flat(text: str) -> str:
    """What the game said with its lines joined: the words of each sentence and command however the terminal's
    width broke them (a shell command's backslash-newlines taken out, as the shell does)."""
    return " ".join(text.replace("\\\n", "").split())


def assert_user_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr and result.stderr.startswith("heartslib: error: ")
    for needle in needles:
        assert needle in result.stderr


BAD_TOML = """\
players = 11
[play]
identical = "cancel"
[moon]
kind = "old"
"""


# --------------------------------------------------------------------------- help, variants, rules, validate


@pytest.mark.parametrize("command", ["", "simulate", "play", "variants", "rules", "validate"])
def test_help_everywhere(command: str) -> None:
    result = run(*([command] if command else []), "--help")
    assert result.returncode == 0 and result.stdout.startswith("usage: heartslib")
    assert "--help" in result.stdout


def test_no_command_shows_the_commands() -> None:
    result = run()
    assert result.returncode == 2 and "simulate" in result.stderr and "validate" in result.stderr


def test_variants_lists_every_preset_with_a_summary() -> None:
    result = run("variants")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    for name in hl.preset_names():
        assert any(line.startswith(name + " ") and summary(hl.preset(name)) in line for line in lines), name


def test_rules_mention_bonus_cards_only_where_the_variant_has_some() -> None:
    # issue 52: standard's moon line said "bonus cards keep their value on top of the moon result", with none
    standard = run("rules", "standard").stdout
    assert "A moon needs every penalty card. The moon" in standard and "bonus" not in standard
    assert "bonus" not in STANDARD.replace(moon={"requires": "all_counters"}).describe()
    lot = STANDARD.replace(moon={"kind": "lot"}).describe()
    assert "bonus" not in lot and "double every other player's running total." in lot
    assert "bonus cards included" in hl.preset("omnibus").describe()  # J♦ is a bonus card: said
    assert "bonus cards keep their value" in hl.preset("complex_hearts").describe()


def test_rules_count_cards_and_points_in_words() -> None:
    # issue 52: "each player chooses 3 card(s)", "A joker scores 1 point(s)"
    assert "each player chooses 3 cards and passes" in run("rules", "standard").stdout
    one = STANDARD.replace(passing={"cards": 1}).describe()
    assert "each player chooses 1 card and passes" in one and "(s)" not in one
    jokers = hl.Variant(players=5, deck={"fill": "jokers", "joker": "valueless", "joker_points": 1}).describe()
    assert "A joker scores 1 point." in jokers and "(s)" not in jokers
    assert "(s)" not in "".join(hl.preset(name).describe() for name in hl.preset_names())


def test_rules_of_a_preset_and_of_a_file(tmp_path: Path) -> None:
    result = run("rules", "pink_lady")
    assert result.returncode == 0 and result.stdout == hl.preset("pink_lady").describe() + "\n"
    path = tmp_path / "house.toml"
    path.write_text(STANDARD.replace(name="house", players=5, passing={"schedule": "left"}).to_toml(),
                    encoding="utf-8")
    result = run("rules", str(path))
    assert result.returncode == 0 and result.stdout.startswith("House") and "5 players" in result.stdout


def test_unknown_preset_is_a_one_line_error() -> None:
    assert_user_error(run("rules", "standrd"), "did you mean standard")
    assert_user_error(run("simulate", "--variant", "nope.toml"), "no such file")


def test_validate_accepts_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(hl.preset("omnibus").to_toml(), encoding="utf-8")
    result = run("validate", str(path))
    assert result.returncode == 0 and "valid" in result.stdout and result.stderr == ""


def test_validate_lists_every_problem_with_its_field_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BAD_TOML, encoding="utf-8")
    result = run("validate", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    with pytest.raises(hl.VariantError) as info:
        hl.Variant.from_toml(BAD_TOML)
    assert len(info.value.problems) >= 2
    for field, message in info.value.problems:
        assert f"{path}: {field}: {message}" in result.stderr
    assert f"({len(info.value.problems)} problems)" in result.stderr


def test_validate_reports_unknown_fields_bad_toml_and_missing_files(tmp_path: Path) -> None:
    typo = tmp_path / "typo.toml"
    typo.write_text("playerz = 4\n", encoding="utf-8")
    result = run("validate", str(typo))
    assert result.returncode == 2 and "playerz" in result.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text("players = \n", encoding="utf-8")
    result = run("validate", str(broken))
    assert result.returncode == 2 and "not valid TOML" in result.stderr and "Traceback" not in result.stderr
    assert_user_error(run("validate", str(tmp_path / "missing.toml")), "no such file")


# --------------------------------------------------------------------------- simulate


def test_simulate_json_matches_the_library_and_not_the_worker_count() -> None:
    args = ["simulate", "--games", "6", "--seed", "3", "--agents", "heuristic,random", "--json"]
    one = run(*args)
    two = run(*args, "--workers", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    expected = simulate(STANDARD, ["heuristic", "random", "random", "random"], games=6, seed=3).to_dict()
    for data in (a, b, expected):
        del data["seconds"], data["games_per_second"]
    assert a == b == expected
    assert one.stderr == ""  # no progress bar when stderr is not a terminal


def test_simulate_with_no_options_prints_a_table() -> None:
    result = run("simulate")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"standard: {DEFAULT_GAMES} games")
    assert "heuristic" in result.stdout and result.stdout.count("random") == 3


def test_simulate_rejects_bad_options(tmp_path: Path) -> None:
    assert_user_error(run("simulate", "--agents", "heuristic,genius"), "unknown agent 'genius'")
    assert_user_error(run("simulate", "--agents", "random,random,random,random,random"), "4 players")
    assert_user_error(run("simulate", "--games", "0"), "--games")
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_TOML, encoding="utf-8")
    assert_user_error(run("simulate", "--variant", str(bad)), "deck.decks")
    result = run("simulate", "--games", "many")
    assert result.returncode == 2 and "invalid int value" in result.stderr


def test_progress_bar_waits_a_second_then_draws_and_wipes() -> None:
    now = [0.0]
    out = io.StringIO()
    bar = ProgressBar(out, clock=lambda: now[0], width=10)
    bar(1, 10)
    assert out.getvalue() == ""  # under a second: nothing
    now[0] = 2.0
    bar(5, 10)
    assert "[#####.....] 5/10 games" in out.getvalue()
    now[0] = 2.05
    bar(6, 10)
    assert "6/10" not in out.getvalue()  # redrawn at most every 0.1 s
    bar(10, 10)
    assert "10/10" in out.getvalue()
    bar.close()
    assert out.getvalue().endswith("\r")
    quiet = io.StringIO()
    disabled = ProgressBar(quiet, enabled=False, clock=lambda: now[0])
    now[0] = 100.0
    disabled(5, 10)
    disabled.close()
    assert quiet.getvalue() == ""


# --------------------------------------------------------------------------- play


def human_script(v: hl.Variant, seed: int, human: int, stop: Callable[[hl.Match], bool]
                 ) -> tuple[hl.Match, list[str]]:
    """Play in process what ``heartslib play`` will play, choosing for the human; return the match and the input.

    The human passes the first cards of the hand and plays its last legal card. Stops when ``stop(match)``
    holds at the human's turn.
    """
    m = hl.Match(v, seed)
    agents = opponents(m, human)
    for seat, agent in agents.items():
        agent.setup(v, seat)
    lines: list[str] = []
    while not m.is_over:
        others = [s for s in m.to_act if s != human]
        if others:
            seat = others[0]
            m.apply(agents[seat].act(m.observation(seat), actions_for(m, seat)))
            continue
        if stop(m):
            break
        obs = m.observation(human)
        action: hl.Action
        if m.phase == hl.Phase.PASS:
            action = hl.Pass(human, obs.hand[: obs.pass_count])
            lines.append(" ".join(c.code for c in action.cards))
        elif m.phase == hl.Phase.DECIDE:
            action = m.legal_actions(human)[0]
            assert isinstance(action, hl.Choose)
            lines.append(action.option)
        else:
            action = m.legal_actions(human)[-1]
            assert isinstance(action, hl.Play)
            lines.append(str(action.card))  # as players type it: "Q♠"
        m.apply(action)
    return m, lines


def test_play_a_whole_round_from_a_script(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    m, lines = human_script(STANDARD, 5, 1, lambda m: m.hand_number >= 1)
    assert len(lines) == 14  # a pass and thirteen cards
    script = "\n".join(["ZZ", "AS KS QS JS", "help", "hint", *lines]) + "\n"
    result = run("play", "--seed", "5", "--seat", "1", "--save", str(save), stdin=script)
    assert result.returncode == 0, result.stderr
    out = flat(result.stdout)
    assert "Not understood: 'ZZ' is not a card" in out
    assert "Not allowed: Pass exactly 3 cards this hand (not 4)." in out and "1:pass" not in out
    assert "The heuristic agent would pass" in out and "There is no undo" in out
    assert "Your hand (* = you may pass it):" in out and "♣ clubs" in out
    assert "Hand 1 is over. " in out and " Total " in out and "=== Hand 2" in out
    assert "Input ended. The game is saved in" in out
    saved = json.loads(save.read_text(encoding="utf-8"))  # saved after every action, the same game, your seat
    assert saved["match"] == m.to_dict() and saved["seat"] == 1


def test_illegal_card_gets_the_reason_and_a_new_prompt(tmp_path: Path) -> None:
    m, lines = human_script(STANDARD, 5, 0, lambda m: m.phase == hl.Phase.PLAY)
    obs = m.observation(0)
    legal = set(m.round.legal_cards(0))
    wrong = next(c for c in obs.hand if c not in legal)
    result = run("play", "--seed", "5", stdin="\n".join([*lines, wrong.code, "quit"]) + "\n")
    assert result.returncode == 0
    reason = m.why_illegal(hl.Play(0, wrong))
    assert reason is not None and str(reason).startswith(f"0:play {wrong.code}: ")
    why = str(reason).split(": ", 1)[1]  # told without the internal action text
    assert f"Not allowed: {why[0].upper()}{why[1:]}" in result.stdout
    assert result.stdout.count("Your card: ") == 2  # asked again after the refusal
    assert "Stopped. The game was not saved" in result.stdout
    marked = [c for c in obs.hand if f"{c}*" in result.stdout.split("Your card: ")[0].rsplit("Your hand", 1)[1]]
    assert set(marked) == legal  # the legal cards are the marked ones


def test_resume_continues_the_same_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    m1, first = human_script(STANDARD, 12, 0, lambda m: len(m.round.tricks) >= 3)
    result = run("play", "--seed", "12", "--save", str(save), stdin="\n".join(first) + "\n")
    assert result.returncode == 0 and json.loads(save.read_text(encoding="utf-8"))["match"] == m1.to_dict()
    m2, lines = human_script(STANDARD, 12, 0, lambda m: m.hand_number >= 1 and m.phase == hl.Phase.PLAY)
    rest = lines[len(first):]
    result = run("play", "--resume", str(save), stdin="\n".join(rest) + "\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Resuming standard (seed 12): hand 1")
    # the resumed game went on exactly as in one go
    assert json.loads(save.read_text(encoding="utf-8"))["match"] == m2.to_dict()


def test_same_seed_same_deal() -> None:
    a = run("play", "--seed", "33", stdin="")
    b = run("play", "--seed", "33", stdin="")
    c = run("play", "--seed", "34", stdin="")
    hand = a.stdout.split("Your hand")[1].split("Pass ")[0]
    assert a.returncode == 0 and "Seed 33" in a.stdout
    assert hand == b.stdout.split("Your hand")[1].split("Pass ")[0]
    assert hand != c.stdout.split("Your hand")[1].split("Pass ")[0]
    cards = hl.Match(STANDARD, 33).observation(0).hand
    assert all(str(card) in hand for card in cards)


def test_play_rejects_bad_options_and_saves(tmp_path: Path) -> None:
    assert_user_error(run("play", "--seat", "4"), "--seat must be 0-3")
    assert_user_error(run("play", "--resume", str(tmp_path / "none.json")), "cannot read the save")
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "heartslib-match"}', encoding="utf-8")
    assert_user_error(run("play", "--resume", str(corrupt)), "not a heartslib match save")
    edited = tmp_path / "edited.json"
    m = hl.Match(STANDARD, seed=1)
    data = json.loads(m.to_json())
    data["actions"] = [{"type": "play", "seat": 0, "card": "QS"}]
    edited.write_text(json.dumps(data), encoding="utf-8")
    assert_user_error(run("play", "--resume", str(edited)), "actions[0]")
    save = tmp_path / "game.json"
    save.write_text(m.to_json(), encoding="utf-8")
    assert_user_error(run("play", "--resume", str(save), "--seed", "3"), "do not combine")


def test_play_other_variants_opponents_and_plain_terminals() -> None:
    result = run("play", "--variant", "pink_lady", "--opponent", "random", "--seed", "2", "--seat", "3")
    assert result.returncode == 0 and "Pass 3 cards left, to seat 0." in result.stdout
    assert_user_error(run("play", "--opponent", "genius"), "unknown agent")
    # --opponents (the plural, as issue 17 spells it) is the same option
    searched = run("play", "--opponents", "search", "--playouts", "2", "--seed", "2")
    assert searched.returncode == 0 and "Pass 3 cards left" in searched.stdout, searched.stderr
    # a terminal that cannot show suit symbols gets card codes
    plain = run("play", "--seed", "2", encoding="ascii")
    assert plain.returncode == 0 and "clubs" in plain.stdout and "?" not in plain.stdout, plain.stderr
    hand = hl.Match(STANDARD, 2).observation(0).hand
    assert all(f"{c.code}*" in plain.stdout for c in hand)


# --------------------------------------------------------------------------- in process


def test_main_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    assert "standard" in capsys.readouterr().out
    assert main(["rules", "no_such_game"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("heartslib: error: no preset named 'no_such_game'")
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and hl.__version__ in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "usage", "hint"), [
    # the README says "plays 100 matches": --matches was refused with the top-level usage and no hint
    (["simulate", "--matches", "3"], "usage: heartslib simulate", "did you mean --games?"),
    (["simulate", "--seeds=3"], "usage: heartslib simulate", "did you mean --seed?"),
    (["play", "--opponets", "random"], "usage: heartslib play", "did you mean --opponents?"),  # one option, once
    (["variants", "extra"], "usage: heartslib variants", "'heartslib variants --help' lists the options"),
    (["--bogus"], "usage: heartslib [", "'heartslib --help' lists the options"),
])
def test_unrecognized_arguments_name_the_commands_options(
    argv: list[str], usage: str, hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.startswith(usage), err
    assert f"unrecognized arguments: {' '.join(argv[1:] if argv[0] != '--bogus' else argv)}" in err
    assert hint in err and err.count("did you mean") <= 1


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("heartslib")
    if not script.exists():
        pytest.skip("the heartslib console script is not installed next to this Python")
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0 and result.stdout.startswith("heartslib ")
