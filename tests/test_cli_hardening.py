"""The command line never shows a traceback (issue 20): every subcommand over a corpus of bad inputs.

Each run goes through ``heartslib.cli.main`` in this process (fast: a traceback would be an exception
escaping it); a few go through the real console script too. Every one must end with exit status 0 or 2
and say nothing that looks like a traceback or an internal error.
"""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest

import heartslib as hl
from heartslib import cli
from heartslib.serialize import save_digest
from test_cli import flat

STD = hl.preset("standard")


def _corpus(tmp: Path) -> dict[str, str]:
    """Named bad (or odd) files for the commands that read one."""
    files: dict[str, bytes | str] = {
        "latin1.toml": 'name = "Cœur"\n'.encode("cp1252"),
        "deep.toml": "a = " + "[" * 3000 + "]" * 3000 + "\n",
        "digits.toml": "players = " + "4" * 5000 + "\n",
        "huge.toml": "[scoring]\nvalues = { QS = " + "9" * 400 + " }\n",
        "endless.toml": "[end]\ntarget = -100\n",
        "typo.toml": "[moon]\nkidn = \"new\"\n",
        "not_toml.toml": "players = [\n",
        "empty.toml": "",
        "binary.toml": bytes(range(256)),
        "control.toml": 'name = "a\x7fb"\n',
        "deep.json": "[" * 100_000 + "]" * 100_000,
        "digits.json": '{"seed": ' + "7" * 5000 + "}",
        "latin1.json": b'{"format": "heartslib-match", "x": "\xe9"}',
        "truncated.json": hl.Match(STD, seed=1).to_json()[:200],
        "not_a_save.json": '{"hello": 1}',
        "list.json": "[1, 2, 3]",
        "edited.json": json.dumps(dict(hl.Match(STD, seed=1).to_dict(), seed=2)),
        "play_bad_seat.json": json.dumps({"format": "heartslib-play", "version": 1, "seat": 9,
                                          "opponent": "heuristic", "match": hl.Match(STD, seed=1).to_dict()}),
        "play_bad_match.json": json.dumps({"format": "heartslib-play", "version": 1, "seat": 0,
                                           "opponent": "heuristic", "match": {"format": "x"}}),
    }
    out = {}
    for name, content in files.items():
        path = tmp / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        out[name] = str(path)
    # a dead end: a set deal whose scatter pass the forbidden cards make impossible (the digest is right)
    clubs = STD.replace(passing={"forbidden": "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC", "cards": 2})
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    dead = hl.Match.from_deal(clubs, hands, passing=hl.Offset(1), seed=1).to_dict()
    dead["deal"]["passing"] = "scatter"
    dead["digest"] = save_digest(dead)
    (tmp / "deadend.json").write_text(json.dumps(dead), encoding="utf-8")
    out["deadend.json"] = str(tmp / "deadend.json")
    over = hl.Match(STD.replace(end={"hands": 1}), seed=3)
    while not over.is_over:
        over.apply(over.legal_actions(over.to_act[0])[0])
    (tmp / "over.json").write_text(over.to_json(), encoding="utf-8")
    out["over.json"] = str(tmp / "over.json")
    (tmp / "folder.toml").mkdir()
    out["folder.toml"] = str(tmp / "folder.toml")
    (tmp / "loop.toml").symlink_to(tmp / "loop.toml")
    out["loop.toml"] = str(tmp / "loop.toml")
    os.mkfifo(tmp / "fifo.json")
    out["fifo"] = str(tmp / "fifo.json")
    out["long"] = "x" * 100_000
    out["long.toml"] = "x" * 100_000 + ".toml"
    out["nul"] = "a\x00b.toml"
    return out


def _commands(f: dict[str, str], tmp: Path) -> list[list[str]]:
    files = [f[k] for k in f if k not in ("fifo",)]
    commands: list[list[str]] = []
    for path in files:
        commands += [["rules", path], ["validate", path], ["simulate", "--games", "1", "--variant", path],
                     ["play", "--variant", path]]
    for path in [f[k] for k in f if k.endswith(".json") or k in ("long", "nul", "fifo")] + [f["folder.toml"]]:
        commands.append(["play", "--resume", path])
    for agents in ["", ",", "heuristic,,random", "os:getcwd", "math:pi", "nosuchmodule:X", ":", "a:b:c",
                   "builtins:print", "heartslib:preset", "random,random,random,random,random", "x" * 5000]:
        commands.append(["simulate", "--games", "1", "--agents", agents])
        commands.append(["play", "--opponent", agents or ","])
    for args in (["--games", "0"], ["--games", "-1"], ["--workers", "0"], ["--seed", "x"], ["--games", "1e3"],
                 ["--variant", "nosuch"], ["--variant", ""], ["--games", "1", "--seed", "-" + "9" * 5000]):
        commands.append(["simulate", *args])
    for args in (["--seat", "-1"], ["--seat", "99"], ["--seat", "1" * 5000], ["--seed", "-1"],
                 ["--seed", str(2**64)], ["--save", str(tmp)], ["--save", f["fifo"]], ["--save", "/dev/full"],
                 ["--save", str(tmp / "no" / "such" / "dir.json")], ["--save", f["long"]],
                 ["--resume", f["edited.json"], "--seed", "1"], ["--variant", "nosuch"]):
        commands.append(["play", *args])
    commands += [[], ["nosuch"], ["rules"], ["rules", "nosuch"], ["rules", ""], ["validate"],
                 ["validate", "nosuch.toml"], ["variants", "extra"], ["--version"], ["simulate", "--help"]]
    return commands


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch, stdin: str = "quit\n") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse: usage errors exit 2, --help and --version 0
        code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def test_no_subcommand_shows_a_traceback_for_any_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    files = _corpus(tmp_path)
    bad = []
    for argv in _commands(files, tmp_path):
        code, out, err = _run(argv, monkeypatch)
        shown = (argv[0] if argv else "", [a[:40] for a in argv[1:]], code, err[-300:])
        if code not in (0, 2) or "Traceback" in out + err or "bug in heartslib" in err:
            bad.append(shown)
        elif code == 2 and not err.strip():
            bad.append(shown)  # a refusal says why
    assert not bad, "\n".join(map(str, bad))


def test_the_console_script_shows_no_traceback(tmp_path: Path) -> None:
    files = _corpus(tmp_path)
    for argv in (["rules", files["latin1.toml"]], ["play", "--resume", files["deep.json"]],
                 ["simulate", "--agents", "os:getcwd", "--games", "1"], ["rules", files["long"]]):
        result = subprocess.run([sys.executable, "-m", "heartslib", *argv], capture_output=True, text=True,
                                timeout=120, cwd=tmp_path)
        assert result.returncode == 2 and "Traceback" not in result.stderr, (argv, result.stderr)
        assert result.stderr.startswith("heartslib: error: "), result.stderr


# --------------------------------------------------------------------------- play: saves and words


def test_play_saves_the_seat_and_resumes_the_same_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    code, out, _ = _run(["play", "--seat", "2", "--seed", "7", "--opponent", "random", "--save", str(save)],
                        monkeypatch, stdin="4C 5C 6C\nquit\n")
    assert code == 0
    assert f"continue it with: heartslib play --resume {save}" in flat(out)
    data = json.loads(save.read_text(encoding="utf-8"))
    assert (data["format"], data["seat"], data["opponent"]) == ("heartslib-play", 2, "random")
    code, out, _ = _run(["play", "--resume", str(save)], monkeypatch, stdin="quit\n")
    assert code == 0 and "you are seat 2" in out and "you are seat 2 " in out.replace("·", " ")
    code, _, err = _run(["play", "--resume", str(save), "--seat", "0"], monkeypatch)
    assert code == 2 and "saved with you at seat 2" in err
    # a plain match save (Match.to_json) still resumes, at the seat given
    plain = tmp_path / "plain.json"
    plain.write_text(hl.Match(STD, seed=7).to_json(), encoding="utf-8")
    code, out, _ = _run(["play", "--resume", str(plain), "--seat", "1"], monkeypatch)
    assert code == 0 and "you are seat 1" in out


def test_play_saves_through_a_link_and_never_over_a_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tmp_path / "real.json"
    real.write_text("", encoding="utf-8")  # an empty file (or an old save): --save replaces nothing else
    link = tmp_path / "link.json"
    link.symlink_to(real)
    code, _, _ = _run(["play", "--seed", "3", "--save", str(link)], monkeypatch)
    assert code == 0 and link.is_symlink() and json.loads(real.read_text())["format"] == "heartslib-play"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]  # no temporary file left
    code, _, err = _run(["play", "--seed", "3", "--save", "/dev/null"], monkeypatch)
    assert code == 2 and "not a regular file" in err


def test_play_talks_to_people(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(["play", "--seed", "7"], monkeypatch, stdin="help\nZZ\nQS QS QS\n3C 3C 7C\n2C\nquit\n")
    assert code == 0
    assert "Not allowed: You do not hold QS." in out  # card codes: this output stream cannot show suit symbols
    assert "Not allowed: 3C is listed twice, but you hold it once." in out
    assert "Not allowed: Pass exactly 3 cards this hand (not 1)." in out
    assert "not being saved" in out and "stays saved" not in out
    assert "'ZZ' is not a card" in out and "joker" not in out.lower()
    assert "0:pass" not in out and "0:play" not in out
    code, out, _ = _run(["play", "--seed", "7", "--save", str(tmp_path / "s.json")], monkeypatch,
                        stdin="help\nquit\n")
    assert "quit (the game stays saved)" in flat(out)
    jokers = "players = 5\n[deck]\nfill = \"jokers\"\njoker = \"valueless\"\n"
    (tmp_path / "jokers.toml").write_text(jokers, encoding="utf-8")
    code, out, _ = _run(["play", "--variant", str(tmp_path / "jokers.toml"), "--seed", "1"], monkeypatch,
                        stdin="help\nZZ\nquit\n")
    assert "the jokers are JK" in out


def test_ctrl_c_gives_the_resume_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupting(io.StringIO):
        def readline(self, *args: object) -> str:
            raise KeyboardInterrupt

    save = tmp_path / "game.json"
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", Interrupting())
    monkeypatch.setattr(sys, "stdout", out)
    assert cli.main(["play", "--seed", "2", "--save", str(save)]) == 130
    assert f"continue it with: heartslib play --resume {save}" in flat(out.getvalue())


def test_an_agent_module_in_the_current_folder_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "myagents_issue20.py").write_text(
        "from heartslib.agents import RandomAgent\n\nclass Lowest(RandomAgent):\n    name = 'lowest'\n",
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    code, out, err = _run(["simulate", "--games", "1", "--agents", "myagents_issue20:Lowest", "--no-progress"],
                          monkeypatch)
    assert code == 0, err
    assert "Lowest" in out or "lowest" in out


def test_validate_says_what_a_values_table_replaces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "jd.toml").write_text("[scoring]\nvalues = { JD = -10 }\n", encoding="utf-8")
    code, out, _ = _run(["validate", str(tmp_path / "jd.toml")], monkeypatch)
    assert code == 0 and "note: scoring.values replaces the default table (Q♠ 13)" in out
    assert "Q♠ scores nothing (as some games mean it to); list QS = 13 to keep it" in out
    code, _, err = _run(["validate", str(tmp_path)], monkeypatch)
    assert code == 2 and "is a directory" in err and "no such file" not in err


def test_smaller_words(monkeypatch: pytest.MonkeyPatch) -> None:
    dealers = STD.replace(passing={"schedule": ["dealers_choice"]})
    assert "dealer's choice" in cli.summary(dealers) and "dealers's" not in cli.summary(dealers) + dealers.describe()
    with pytest.raises(hl.VariantError, match=r'deck\.fill = "kitty"'):
        hl.Variant(players=11, deck={"decks": 2})  # 104 cards leave 5 over; the strip order lists 4
    code, _, err = _run(["simulate", "--games", "1", "--agents", "heuristic,,random"], monkeypatch)
    assert code == 2 and "empty entry (position 2)" in err
    code, _, err = _run(["simulate", "--games", "1", "--agents", "os:getcwd"], monkeypatch)
    assert code == 2 and "cannot build the agent 'os:getcwd': TypeError" in err


# --------------------------------------------------------------------------- found by a new user's session (QA)


def test_workers_are_capped_and_never_more_than_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    # `--workers 100000 --games 1` forked thousands of processes: a process pool starts all its workers at once
    started: list[int] = []

    class Recording(ThreadPoolExecutor):
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)
            super().__init__(max_workers)

    monkeypatch.setattr(cli, "ProcessPoolExecutor", Recording)
    code, _, err = _run(["simulate", "--games", "1", "--workers", "100000"], monkeypatch)
    assert code == 2 and f"--workers must be 1-{cli.max_workers()}" in err and started == []
    code, out, err = _run(["simulate", "--games", "2", "--workers", "3", "--no-progress", "--json"], monkeypatch)
    assert code == 0, err
    assert started == [2] and json.loads(out)["games"] == 2  # two games need two workers, not three
    assert 8 <= cli.max_workers() <= max(8, 4 * (os.cpu_count() or 1))


def test_closed_streams_read_as_empty_input_and_drop_output(monkeypatch: pytest.MonkeyPatch) -> None:
    # `heartslib play 0<&-` and `heartslib simulate 2>&-` ended in "AttributeError ... this is a bug", status 1
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", None)
    monkeypatch.setattr(sys, "stdout", out)
    assert cli.main(["play", "--seed", "1"]) == 0
    assert "Input ended." in out.getvalue()
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    assert cli.main(["simulate", "--games", "1"]) == 0
    assert cli.main(["rules", "no_such_game"]) == 2


def test_output_the_system_cannot_write_is_not_called_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    # `heartslib variants > /dev/full` said "this is a bug in heartslib"
    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", Full())
    monkeypatch.setattr(sys, "stderr", err)
    assert cli.main(["variants"]) == 1
    assert "heartslib: error: No space left on device" in err.getvalue()
    assert "bug" not in err.getvalue() and "Traceback" not in err.getvalue()
    if Path("/dev/full").exists():  # the real thing: one line, nothing more when Python exits
        with open("/dev/full", "w") as full:
            result = subprocess.run([sys.executable, "-m", "heartslib", "rules", "standard"], stdout=full,
                                    stderr=subprocess.PIPE, text=True, timeout=120, check=False)
        assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
        assert "No space left on device" in result.stderr


def test_paths_are_files_and_a_preset_wins_over_a_file_of_its_name(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # a file called "standard" in the current folder hid the preset; "/some/folder" was "no preset named ..."
    (tmp_path / "standard").write_text("players = 5\n", encoding="utf-8")
    (tmp_path / "house").write_text("players = 3\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(["rules", "standard"], monkeypatch)
    assert code == 0 and out == STD.describe() + "\n"
    code, out, _ = _run(["rules", "./standard"], monkeypatch)
    assert code == 0 and "5 players" in out
    code, out, _ = _run(["rules", "house"], monkeypatch)  # a file no preset is named after still works
    assert code == 0 and "3 players" in out
    code, _, err = _run(["rules", str(tmp_path)], monkeypatch)
    assert code == 2 and "is a directory" in err and "no preset" not in err
    code, _, err = _run(["simulate", "--variant", "./nothing"], monkeypatch)
    assert code == 2 and "'./nothing': no such file" in err
    code, _, err = _run(["rules", "nothing"], monkeypatch)
    assert code == 2 and "no preset named 'nothing'" in err


def test_empty_file_names_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # --save "" was "cannot save the game to '.': it is a directory"
    for argv, option in ((["play", "--save", ""], "--save"), (["play", "--resume", ""], "--resume"),
                         (["validate", ""], "validate")):
        code, _, err = _run(argv, monkeypatch)
        assert code == 2 and f"{option} needs a file name, not ''" in err, (argv, err)


def test_opponent_is_one_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    # --opponent "" meant heuristic, and --opponents random,search seated random everywhere
    for text in ("", " ", "random,search"):
        code, _, err = _run(["play", "--seed", "1", "--opponent", text], monkeypatch)
        assert code == 2 and "--opponent takes one agent" in err, (text, err)


def test_search_budget_options_are_checked_whatever_the_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    # a bad --playouts was ignored unless a search agent played, and told in Python's words ("time_limit ... None")
    for argv, message in ((["--playouts", "0"], "--playouts must be a whole number of at least 1, not 0"),
                          (["--time-limit", "nan"], "--time-limit must be a number of seconds above 0, not nan"),
                          (["--time-limit", "-1"], "--time-limit must be a number of seconds above 0, not -1.0")):
        code, _, err = _run(["simulate", "--games", "1", *argv], monkeypatch)
        assert code == 2 and message in err, (argv, err)
        code, _, err = _run(["play", "--seed", "1", "--opponent", "search", *argv], monkeypatch)
        assert code == 2 and message in err, (argv, err)


def test_resuming_a_plain_match_save_keeps_it_a_match_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # resuming a Match.to_json save rewrote it as a play save, which Match.from_json cannot read
    plain = tmp_path / "mine.json"
    plain.write_text(hl.Match(STD, seed=4).to_json(), encoding="utf-8")
    code, out, _ = _run(["play", "--resume", str(plain), "--seat", "2", "--opponent", "random"], monkeypatch)
    assert code == 0
    assert hl.Match.from_json(plain.read_text(encoding="utf-8")).seed == 4
    assert f"continue it with: heartslib play --resume {plain} --seat 2 --opponent random" in flat(out)
    code, out, _ = _run(["play", "--resume", str(plain), "--seat", "2", "--opponent", "random"], monkeypatch)
    assert code == 0 and "you are seat 2" in out  # and resumes again, at any seat


def test_save_never_replaces_a_file_that_is_not_a_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `heartslib play --save kitchen.toml` (meaning --variant) overwrote the rules before the first card
    rules = tmp_path / "kitchen.toml"
    rules.write_text("[end]\ntarget = 50\n", encoding="utf-8")
    code, _, err = _run(["play", "--seed", "1", "--save", str(rules)], monkeypatch)
    assert code == 2 and "exists and is not a heartslib save" in err
    assert rules.read_text(encoding="utf-8") == "[end]\ntarget = 50\n"
    # a game in progress is never replaced by a new one (it would be lost): the refusal says how to go on with it
    going = tmp_path / "going.json"
    going.write_text(hl.Match(STD, seed=9).to_json(), encoding="utf-8")
    kept = going.read_text(encoding="utf-8")
    code, _, err = _run(["play", "--seed", "1", "--save", str(going)], monkeypatch)
    assert code == 2 and "holds a game in progress (hand 1)" in err and f"--resume {going}" in err, err
    assert going.read_text(encoding="utf-8") == kept
    old = tmp_path / "old.json"  # a finished game's save, or an empty file, may be replaced
    over = hl.Match(STD.replace(end={"hands": 1}), seed=9)
    while not over.is_over:
        over.apply(over.legal_actions(over.to_act[0])[0])
    old.write_text(over.to_json(), encoding="utf-8")
    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    for path in (old, empty):
        code, _, err = _run(["play", "--seed", "1", "--save", str(path)], monkeypatch)
        assert code == 0, err
        assert json.loads(path.read_text(encoding="utf-8"))["format"] == "heartslib-play"


def test_the_match_over_line_counts_one_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "The match is over after 1 hands"
    over = hl.Match(STD.replace(end={"hands": 1}), seed=3)
    while not over.is_over:
        over.apply(over.legal_actions(over.to_act[0])[0])
    (tmp_path / "over.json").write_text(over.to_json(), encoding="utf-8")
    code, out, _ = _run(["play", "--resume", str(tmp_path / "over.json")], monkeypatch)
    assert code == 0 and "The match is over after 1 hand. " in out


def test_a_long_bad_card_is_quoted_short(monkeypatch: pytest.MonkeyPatch) -> None:
    # a 100,000-character bad card was quoted whole in the reply
    code, out, _ = _run(["play", "--seed", "1"], monkeypatch, stdin="x" * 100_000 + "\n")
    text = flat(out)
    said = text[text.index("Not understood"):text.index("Cards to pass", text.index("Not understood"))]
    assert code == 0 and len(said) < 300 and "(100000 characters)" in said


def test_a_sun_rule_is_shown_instead_of_the_moon_it_replaces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # with moon.sun set, moon.kind does nothing, but the summary said "new moon if old loses" and validate nothing
    path = tmp_path / "sun.toml"
    path.write_text('[moon]\nkind = "new_if_old_loses"\nsun = "add_52"\n', encoding="utf-8")
    code, out, _ = _run(["validate", str(path)], monkeypatch)
    assert code == 0 and "sun: the others score twice the moon" in out and "new moon if old loses" not in out
    assert 'note: moon.kind = "new_if_old_loses" has no effect: a sun rule (moon.sun = "add_52") replaces' in out
    assert cli.unread_notes(STD, {"moon": {"kind": "new"}}) == []  # no sun, no note
    # the moon and the sun together (moon.sun_and_moon): the kind is read, and the note said it was not
    both = STD.replace(moon={"kind": "new", "sun": "add_52", "sun_and_moon": True})
    assert cli.unread_notes(both, {"moon": {"kind": "new", "sun": "add_52", "sun_and_moon": True}}) == []


def test_validate_notes_each_field_the_file_sets_that_no_rule_reads(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "house.toml"
    path.write_text('[play]\nopening = "eldest_any"\nopening_card = "2S"\n[end]\nlife_threshold = 5\n',
                    encoding="utf-8")
    code, out, _ = _run(["validate", str(path)], monkeypatch)
    assert code == 0 and f"{path}: valid" in out
    assert 'note: play.opening_card = "2S" has no effect: only an opening rule that searches for a card' in out
    assert "note: end.life_threshold = 5 has no effect: only lives read it (end.lives)" in out


def test_typed_bytes_that_are_not_text_are_not_a_crash(tmp_path: Path) -> None:
    # with PYTHONIOENCODING=utf-8 (a strict reader) a typed byte 0xff ended the game with a UnicodeDecodeError
    for encoding in ("utf-8", "utf-8:surrogateescape"):
        env = {**os.environ, "PYTHONIOENCODING": encoding}
        result = subprocess.run([sys.executable, "-m", "heartslib", "play", "--seed", "1"], input=b"\xff\xfe\nquit\n",
                                capture_output=True, env=env, timeout=120, cwd=tmp_path, check=False)
        out, err = result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace")
        assert result.returncode == 0 and err == "", (encoding, err)
        assert "Not understood: '\ufffd\ufffd' is not a card" in out and "udcff" not in out


# --------------------------------------------------------------------------- QA pass


def _agents_of(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, dict[int, object]]:
    """Run ``heartslib play`` up to the game itself: the exit status, stderr and the agents it seated."""
    seated: dict[int, object] = {}

    def run(session: cli.PlaySession) -> int:
        seated.update(session.agents)
        session.save()
        return 0

    monkeypatch.setattr(cli.PlaySession, "run", run)
    code, _, err = _run(argv, monkeypatch)
    return code, err, seated


def _budgets(agents: dict[int, object]) -> set[tuple[int, float | None]]:
    return {(agent.budget.playouts, agent.budget.time_limit) for agent in agents.values()}  # type: ignore[attr-defined]


def test_a_play_save_keeps_the_search_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `play --opponent search --playouts 3` saved only "search": --resume played on with the default budget
    save = tmp_path / "game.json"
    code, err, agents = _agents_of(["play", "--seed", "4", "--opponent", "search", "--playouts", "3",
                                    "--time-limit", "2.5", "--save", str(save)], monkeypatch)
    assert code == 0, err
    assert _budgets(agents) == {(3, 2.5)}
    data = json.loads(save.read_text(encoding="utf-8"))
    assert (data["version"], data["opponent"], data["playouts"], data["time_limit"]) == (2, "search", 3, 2.5)
    code, err, agents = _agents_of(["play", "--resume", str(save)], monkeypatch)
    assert code == 0 and _budgets(agents) == {(3, 2.5)}, err
    code, err, agents = _agents_of(["play", "--resume", str(save), "--playouts", "3"], monkeypatch)
    assert code == 0 and _budgets(agents) == {(3, 2.5)}, err  # the same budget may be repeated
    for argv, message in ((["--playouts", "8"], "this game was saved with --playouts 3, "),
                          (["--time-limit", "1"], "this game was saved with --time-limit 2.5, ")):
        code, err, _ = _agents_of(["play", "--resume", str(save), *argv], monkeypatch)
        assert code == 2 and message in err and f"leave out {argv[0]} to resume it" in err, err
    # no budget given: the default one is saved, so a later default cannot change the game
    from heartslib.search import DEFAULT_PLAYOUTS

    save = tmp_path / "default.json"
    code, err, agents = _agents_of(["play", "--seed", "4", "--opponent", "search", "--save", str(save)],
                                   monkeypatch)
    data = json.loads(save.read_text(encoding="utf-8"))
    assert code == 0 and (data["playouts"], data["time_limit"]) == (DEFAULT_PLAYOUTS, None), err
    code, err, _ = _agents_of(["play", "--resume", str(save), "--time-limit", "1"], monkeypatch)
    assert code == 2 and "this game was saved without --time-limit" in err, err


def test_a_version_1_play_save_still_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # saves written before the budget was kept: the command line gives the budget, as it had to then
    save = tmp_path / "old.json"
    save.write_text(json.dumps({"format": "heartslib-play", "version": 1, "seat": 1, "opponent": "search",
                                "match": hl.Match(STD, seed=5).to_dict()}), encoding="utf-8")
    code, err, agents = _agents_of(["play", "--resume", str(save), "--playouts", "5"], monkeypatch)
    assert code == 0 and _budgets(agents) == {(5, None)}, err
    data = json.loads(save.read_text(encoding="utf-8"))  # written again as version 2, with the budget
    assert (data["version"], data["seat"], data["playouts"]) == (2, 1, 5)
    heuristic = tmp_path / "heuristic.json"
    heuristic.write_text(json.dumps({"format": "heartslib-play", "version": 1, "seat": 0, "opponent": "heuristic",
                                     "match": hl.Match(STD, seed=5).to_dict()}), encoding="utf-8")
    code, err, agents = _agents_of(["play", "--resume", str(heuristic)], monkeypatch)
    assert code == 0 and {type(a).__name__ for a in agents.values()} == {"HeuristicAgent"}, err
    assert json.loads(heuristic.read_text(encoding="utf-8"))["playouts"] is None


def test_a_play_save_with_a_bad_budget_is_a_save_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = {"format": "heartslib-play", "version": 2, "seat": 0, "opponent": "search", "playouts": 3,
            "time_limit": None, "match": hl.Match(STD, seed=5).to_dict()}
    for change, message in (({"playouts": 0}, "playouts: expected null or a whole number of at least 1, got 0"),
                            ({"playouts": True}, "got true"),
                            ({"time_limit": -1}, "time_limit: expected null or a number of seconds above 0"),
                            ({"version": 3}, "reads versions 1, 2 of its play saves, not 3"),
                            ({"version": 1}, "a heartslib play save of version 1 has exactly the keys")):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({**base, **change}), encoding="utf-8")
        code, _, err = _run(["play", "--resume", str(path)], monkeypatch)
        assert code == 2 and message in err, (change, err)


def test_a_plain_match_save_resume_command_names_the_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = tmp_path / "mine.json"
    plain.write_text(hl.Match(STD, seed=4).to_json(), encoding="utf-8")
    code, out, err = _run(["play", "--resume", str(plain), "--opponent", "search", "--playouts", "2",
                           "--time-limit", "0.5"], monkeypatch)
    assert code == 0, err
    assert f"heartslib play --resume {plain} --seat 0 --opponent search --playouts 2 --time-limit 0.5" in flat(out)


def test_validate_and_rules_refuse_a_blank_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `validate` accepted name = "", and `rules` then exited 1 with "this is a bug" (IndexError in describe)
    path = tmp_path / "blank.toml"
    path.write_text('name = ""\n', encoding="utf-8")
    for argv in (["validate", str(path)], ["rules", str(path)]):
        code, out, err = _run(argv, monkeypatch)
        assert code == 2 and "name: '' is empty" in out + err and "bug" not in err, (argv, out, err)


def test_validate_reads_a_file_that_starts_with_a_byte_order_mark(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b'\xef\xbb\xbfname = "x"\n')
    code, out, err = _run(["validate", str(path)], monkeypatch)
    assert code == 0 and f"{path}: valid: x " in out, (out, err)
    code, out, err = _run(["rules", str(path)], monkeypatch)
    assert code == 0 and out.startswith("X."), (out, err)


def test_an_agents_failure_names_the_agent_and_its_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the one-line report dropped the note saying which agent chose an illegal action, or raised
    (tmp_path / "myagents_failing.py").write_text(
        "class Illegal:\n    def __init__(self, seed=None): pass\n    def act(self, obs, legal): return None\n\n"
        "class Boom:\n    def __init__(self, seed=None): pass\n"
        "    def act(self, obs, legal): raise RuntimeError('kaboom')\n",
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    for factory, said in (("Illegal", "None is not an action"), ("Boom", "RuntimeError: kaboom")):
        code, _, err = _run(["simulate", "--games", "1", "--agents", f"random,myagents_failing:{factory}",
                             "--no-progress"], monkeypatch)
        assert code != 0 and said in err, err
        assert f"myagents_failing.{factory} object" in err and "playing seat 1" in err, err
        assert "Traceback" not in err


@pytest.mark.parametrize(("variant", "seat"), [("domino_hearts", 2), ("auction_hearts", 3), ("standard", 3)])
def test_the_hand_heading_comes_before_the_opponents_moves(variant: str, seat: int,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # the opponents' plays and bids before the player's first turn were told before "=== Hand 1 ..."
    code, out, err = _run(["play", "--variant", variant, "--seed", "3", "--seat", str(seat)], monkeypatch)
    assert code == 0, err
    lines = out.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.startswith("=== Hand 1"))
    assert not any(line.startswith(("Seat ", "--- Trick")) for line in lines[:heading]), lines[:heading]


def test_an_auction_is_told_in_its_own_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # bids and the naming were told as "Seat 1 chooses '5'" and "chooses 'clubs'", the auction's winner never
    code, out, err = _run(["play", "--variant", "auction_hearts", "--seed", "3", "--seat", "3"], monkeypatch,
                          stdin="pass\nquit\n")
    assert code == 0, err
    out = flat(out)
    assert "Seat 1 bids 5 chips." in out and "Seat 2 passes." in out and "You pass." in out
    assert ("Seat 1 names clubs (won the auction with 5 chips, paid into the pot when the deal is settled): clubs "
            "are the penalty suit this hand.") in out
    # during the hand the chips are those before it, and the line says the bid is still owed
    assert "Chips: seat 0 50, seat 1 50, seat 2 50, you 50 (seat 1's bid of 5 is paid into the pot when the deal " \
        "is settled)." in out
    assert "chooses" not in out


def test_a_search_budget_without_a_search_agent_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # --playouts and --time-limit were ignored in silence when no seat played search
    code, _, err = _run(["simulate", "--games", "1", "--playouts", "5", "--no-progress"], monkeypatch)
    assert code == 2 and "--playouts sets the search agent's budget, and no seat plays search here" in err, err
    code, _, err = _run(["play", "--seed", "1", "--playouts", "5", "--time-limit", "1"], monkeypatch)
    assert code == 2 and "--playouts and --time-limit set the search agent's budget" in err, err
    assert "name search in --opponent" in err
    code, _, err = _run(["simulate", "--games", "1", "--agents", "search,random", "--playouts", "2",
                         "--no-progress"], monkeypatch)
    assert code == 0, err


def test_the_summary_leaves_out_the_hearts_rule_a_full_table_replaces() -> None:
    # Gong Zhu lists every heart's value: "hearts 1, ..., 2♥ 0" contradicted itself
    assert "hearts 1" not in cli.summary(hl.preset("gong_zhu")) and "2♥ 0" in cli.summary(hl.preset("gong_zhu"))
    assert "hearts 1, Q♠ 13" in cli.summary(hl.preset("standard"))


def test_a_file_in_a_deep_folder_is_named_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # names over 80 characters were cut to 60 and a count, so a file in a deep folder (or pytest's own temporary
    # folders, under pytest-xdist) was not named; only a name longer than any real path is cut now
    folder = tmp_path / ("rules-for-the-kitchen-table-" * 3) / ("house-" * 10)
    folder.mkdir(parents=True)
    path = folder / "kitchen.toml"
    path.write_text("[end]\ntarget = 50\n", encoding="utf-8")
    assert 150 < len(str(path)) <= 255
    code, out, _ = _run(["validate", str(path)], monkeypatch)
    assert code == 0 and out.startswith(f"{path}: valid")
    code, _, err = _run(["validate", str(folder / "missing.toml")], monkeypatch)
    assert code != 0 and repr(str(folder / "missing.toml")) in err


def test_rules_and_simulate_name_the_rules_file_an_error_is_in(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # validate named the file; rules and simulate printed the problem alone
    path = tmp_path / "house.toml"
    path.write_text('[moon]\nknd = "new"\n', encoding="utf-8")
    for argv in (["rules", str(path)], ["simulate", "--variant", str(path), "--games", "1", "--no-progress"]):
        code, _, err = _run(argv, monkeypatch)
        assert code == 2 and f"{path}: moon.knd: unknown field; did you mean kind?" in err, err


def test_validate_of_a_preset_name_says_it_is_a_preset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(["validate", "black_maria"], monkeypatch)
    assert code == 2 and "cannot read 'black_maria': no such file (black_maria is a preset, valid as shipped: " \
        "`heartslib rules black_maria` prints its rules)" in err, err


def test_serve_refuses_a_port_out_of_range_as_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 51 item 8: --port -1 or 65536 reached the socket ("OverflowError: bind(): port must be 0-65535") and was
    # reported as "this is a bug in heartslib"
    for port in ("-1", "65536", "9" * 30):
        code, _, err = _run(["serve", "--port", port], monkeypatch)
        assert code == 2 and "bug" not in err, (port, err)
        assert err.startswith("heartslib: error: --port must be a whole number from 0 to 65535"), err
        assert f"not {port}\n" in err, err


def test_an_auction_you_won_says_your_bid() -> None:
    # the line under the table said "(you's bid of 5 is paid into the pot ...)"
    m = hl.Match(hl.preset("auction_hearts"), seed=3)
    play = cli.PlaySession(m, 2, cli.opponents(m, 2), inp=io.StringIO(""), out=io.StringIO(), save_path=None)
    obs = attrs.evolve(m.observation(2), bidder=2, bids=((1, 0), (2, 5)))
    assert play.bid_owed(obs) == " (your bid of 5 is paid into the pot when the deal is settled)"
    assert play.bid_owed(attrs.evolve(obs, bidder=1, bids=((1, 4),))).startswith(" (seat 1's bid of 4 is paid")


def test_an_error_on_a_terminal_fits_its_width(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 52: the one-line errors ran past the terminal's width
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setattr(sys, "stderr", err)
    assert cli.main(["play", "--seed", "1", "--opponent", "random,search"]) == 2
    assert max(len(line) for line in err.getvalue().splitlines()) < 40
    assert flat(err.getvalue()).startswith("heartslib: error: --opponent takes one agent, which plays every other seat")
