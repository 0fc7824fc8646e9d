"""The ``heartslib`` command line (also ``python -m heartslib``).

Commands::

    heartslib simulate [--variant NAME|FILE.toml] [--games N] [--agents heuristic,random,moon,...]
                       [--playouts N] [--time-limit SECONDS] [--seed S] [--workers N] [--json] [--no-progress]
    heartslib play     [--variant NAME|FILE.toml] [--seat N] [--seed S] [--save FILE] [--resume FILE]
                       [--opponent AGENT] [--playouts N] [--time-limit SECONDS] [--color|--no-color]
    heartslib variants
    heartslib rules    NAME|FILE.toml
    heartslib validate FILE.toml

Every command has ``--help``. Mistakes (an unknown preset, an invalid rules
file, a damaged save) are reported on stderr in one line per problem, with
exit status 2; nothing a user types produces a traceback (anything else, a
bug, an exception from a user's agent or an error from the operating system
such as a full disk, is one line too, with exit status 1;
``HEARTSLIB_TRACEBACK=1`` shows the traceback). Ctrl-C exits with status 130;
``simulate`` first stops its workers and prints the statistics of the games
that finished. ``play`` colours its cards only on a terminal, and not when
``NO_COLOR`` is set (https://no-color.org); ``--color``/``--no-color`` decide
instead. It waits for Enter between hands only when both its input and its
output are a terminal, so scripted input never waits. A closed standard input reads
as an empty one, and closed output is dropped. ``validate`` exits 0 for a
valid file and 2 with every problem's field path otherwise. An agent named
``module:Factory`` is imported with the current folder first on the import
path, as ``python -m`` does.

Only the standard library is used (argparse), so the command works
wherever heartslib is installed.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import os
import random
import shutil
import signal
import stat
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent import futures
from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING, Final, NoReturn, TextIO

import attrs

from heartslib._tableview import SeatView, count, hand_lines, table_picture, wrap
from heartslib.actions import (
    Action,
    Choose,
    Event,
    KittyTaken,
    MoonShot,
    Pass,
    PassesExchanged,
    Play,
    RoundScored,
    TrickWon,
)
from heartslib.agents import Agent, HeuristicAgent, SearchFactory, actions_for, setup_agent
from heartslib.cards import Card, Suit, parse_cards
from heartslib.engine.legality import passable
from heartslib.enums import HOLD, SCATTER, SHUFFLE, STAR, MoonKind, Offset, Phase, Settlement, StockDraw, Sun, pass_name
from heartslib.errors import CardError, IllegalAction, SaveError, UnknownVariant, VariantError, arg_text, value_text
from heartslib.match import Match
from heartslib.observation import Observation
from heartslib.points import MAX_SEED, Score, score_text
from heartslib.presets import ALIASES, preset, preset_names
from heartslib.round import Round
from heartslib.sections import ScoringRules
from heartslib.serialize import SAVE_FORMAT, read_toml, toml_value
from heartslib.settlement import AuctionResult, HowellResult, SweepstakeResult
from heartslib.simulate import AgentSpec, SimulationInterrupted, agent_seed, make_agent, resolve_agents, simulate
from heartslib.unread import lists_every_heart
from heartslib.variant import Variant

if TYPE_CHECKING:  # the server's store is imported when a records command runs
    from heartslib.server.store import Store, TableRecord
    from heartslib.server.tables import Quotas

__all__ = ["DEFAULT_GAMES", "PLAY_SAVE_FORMAT", "PLAY_SAVE_VERSION", "PlaySave", "PlaySession", "ProgressBar",
           "UserError", "build_parser", "load_variant", "main", "opponents", "read_play", "read_play_save", "summary",
           "unread_notes", "use_color", "value_notes"]

#: Games ``heartslib simulate`` plays when ``--games`` is not given (a few seconds).
DEFAULT_GAMES = 100
USAGE_ERROR = 2
#: The exit status for an error that is nobody's input: a bug, or an exception from a user's agent.
INTERNAL_ERROR = 1


class UserError(Exception):
    """A mistake in what the user asked for: reported in one line, exit status 2."""


# --------------------------------------------------------------------------- helpers


def load_variant(text: str) -> Variant:
    """A preset by name, or a variant from a rules file.

    Text that looks like a path (it ends in ``.toml`` or names a folder, as ``./house`` or ``/tmp/x`` do) is
    always a file; other text is a preset name, or a file of that name when no preset has it (so a file
    called ``standard`` in the current folder does not hide the preset: write ``./standard`` for it).
    A file that cannot be read, or whose rules are invalid, raises :class:`UserError` naming the file (each
    problem on a line of its own, as ``heartslib validate`` writes them).
    """
    path = Path(text)
    if not _looks_like_path(text):
        try:
            return preset(text)
        except UnknownVariant:
            if _file_kind(path) != "file":
                raise
    kind = _file_kind(path)
    if kind != "file":
        raise UserError(f"cannot read the rules file {_quote(text)}: {kind}")
    try:
        return Variant.from_toml(path)
    except VariantError as exc:  # every problem, each with the file it is in (as validate writes them)
        raise UserError("\n".join(f"{_shown(text)}: {field or '(file)'}: {message}"
                                   for field, message in exc.problems)) from None


def _looks_like_path(text: str) -> bool:
    """Whether ``text`` names a file rather than a preset: a ``.toml`` name, or one with a folder in it."""
    separators = [os.sep] + ([os.altsep] if os.altsep else [])
    return text.lower().endswith(".toml") or any(sep in text for sep in separators)


def _file_name(option: str, text: str) -> Path:
    """``text`` as a path, refusing an empty one (``Path("")`` would be the current folder)."""
    if not text.strip():
        raise UserError(f"{option} needs a file name, not {text!r}")
    return Path(text)


#: Text a message quotes whole: any real file name (a path in a deep folder included); beyond it, the start.
_QUOTED_WHOLE = 255


def _shown(text: str) -> str:
    """``text``, or its start and its length when it is longer than any real file name (100,000 characters)."""
    return text if len(text) <= _QUOTED_WHOLE else text[:120] + f"... ({len(text)} characters)"


def _quote(text: str) -> str:
    """``repr(text)``, cut short (a message quotes a file name, not 100,000 characters of one)."""
    return repr(text) if len(text) <= _QUOTED_WHOLE else repr(text[:120]) + f"... ({len(text)} characters)"


def _file_kind(path: Path) -> str:
    """``"file"`` for a regular file (or a link to one), otherwise why it cannot be read as one."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:  # a name too long, a loop of links, no permission, ...
        return str(exc.strerror or exc).lower()
    except ValueError:  # a NUL character in the name
        return "not a valid file name"
    if stat.S_ISREG(mode):
        return "file"
    return "it is a directory, not a file" if stat.S_ISDIR(mode) else "it is not a regular file"


def summary(v: Variant, *, symbols: bool = True) -> str:
    """A one-line summary of a variant's main rules (``symbols=False``: card codes instead of suit symbols).

    >>> summary(preset("standard"))
    '4 players, 52 cards; pass 3 left/right/across/hold; hearts 1, Q♠ 13; old moon; to 100'
    >>> summary(preset("omnibus_jd"), symbols=False)
    '4 players, 52 cards; pass 3 left/right/across/hold; hearts 1, JD -10, QS 13; take-all moon; to 100'
    """
    r = v.rules
    parts = [f"{v.players} players, {len(r.pack)} cards" + (" (two decks)" if v.deck.decks == 2 else "")]
    if r.kitty_size:
        parts[0] += f" + {r.kitty_size} {'stock' if r.stock != StockDraw.NONE else 'kitty'}"
    if all(d == HOLD for d in r.schedule):
        parts.append("no passing")
    else:
        words = "/".join(pass_name(d, v.players, words=True) for d in r.schedule)
        parts.append(f"pass {v.passing.cards} {words}")
    values = [f"{c if symbols else c.code} {score_text(p)}" for c, p in v.scoring.values.items() if c.index in r.pack]
    auction = v.scoring.settlement == Settlement.AUCTION
    hearts = "the suit bid for 1 (auction)" if auction else "hearts " + ("1" if v.scoring.hearts.value == "one"
                                                                         else "by pips")
    # a table listing every heart of the pack (Gong Zhu) replaces the hearts rule: "hearts 1" would mislead
    parts.append(", ".join([*([] if lists_every_heart(v) and not auction else [hearts]), *values]))
    moon = {MoonKind.NONE: "no moon", MoonKind.NO_SCORE: "moon: nobody scores", MoonKind.TAKE_ALL: "take-all moon",
            MoonKind.NEW_IF_OLD_LOSES: "new moon if old loses", MoonKind.CHOICE: "moon: old or new"}
    suns = {Sun.ADD_52: "sun: the others score twice the moon", Sun.PUNISH_PASSER: "sun: the passer is punished",
            Sun.CLEAN_SLATE: "sun: the shooter's total returns to 0",
            Sun.SUBTRACT_52: "sun: the shooter subtracts twice the moon"}
    if v.moon.sun != Sun.NONE:  # a sun rule replaces the moon: all the penalty cards alone score normally
        parts.append(suns.get(v.moon.sun, f"sun: {v.moon.sun.value}"))
    else:
        parts.append(moon.get(v.moon.kind, f"{v.moon.kind.value} moon"))
    ends = []
    if v.end.target:
        ends.append(f"to {v.end.target}")
    if v.end.hands:
        ends.append(f"{v.end.hands} hands")
    if auction:
        ends.append(f"{v.scoring.chips} chips each, until one runs out")
    parts.append(" or ".join(ends))
    return "; ".join(parts)


def _agent_specs(text: str, players: int, option: str = "--agents") -> tuple[AgentSpec, ...]:
    names = [t.strip() for t in text.split(",")]
    if not any(names):
        raise UserError(f"{option} needs at least one agent name, e.g. heuristic,random")
    if not all(names):
        where = ", ".join(str(i + 1) for i, name in enumerate(names) if not name)
        raise UserError(f"{option} {text!r} has an empty entry (position {where}): name an agent for each "
                        "seat, or leave the last seats out and the last name fills them")
    if len(names) > players:
        raise UserError(f"{option} lists {len(names)} agents but the variant has {players} players")
    names += [names[-1]] * (players - len(names))  # the last name fills the remaining seats
    if any(":" in name for name in names):
        _import_from_here()
    try:
        specs = resolve_agents(names, players)
    except (ValueError, TypeError) as exc:
        raise UserError(str(exc)) from None
    for name in dict.fromkeys(names):  # build each once now, so a bad factory is reported before any game
        try:
            agent = make_agent(name, 0)
        except Exception as exc:  # a user's factory may raise anything
            raise UserError(f"cannot build the agent {name!r}: {type(exc).__name__}: {exc}") from None
        if not callable(getattr(agent, "act", None)):
            raise UserError(f"the agent {name!r} gave {agent!r}, which has no act(observation, legal_actions) "
                            "method: name a class or a function that takes a seed and returns an agent")
    return specs


def _import_from_here() -> None:
    """Put the current folder first on the import path, as ``python -m`` does, so that
    ``--agents myagents:Lowest`` finds ``myagents.py`` there."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)


class ProgressBar:
    """A progress bar on a terminal stream, drawn only once a run has lasted ``delay`` seconds.

    Call it with ``(done, total)``; :meth:`close` wipes it.
    """

    def __init__(self, stream: TextIO, *, enabled: bool = True, delay: float = 1.0, width: int = 30,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.enabled = enabled
        self.delay = delay
        self.width = width
        self.clock = clock
        self.start = clock()
        self.last_draw = -1.0
        self.drawn = 0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        now = self.clock()
        elapsed = now - self.start
        if elapsed < self.delay or (now - self.last_draw < 0.1 and done < total):
            return
        self.last_draw = now
        filled = self.width * done // total
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        text = (f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games  "
                f"{rate:.0f}/s  {eta:.0f}s left ")
        self.stream.write(text)
        self.stream.flush()
        self.drawn = len(text)

    def close(self) -> None:
        """Erase the bar (if it was drawn)."""
        if self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()
            self.drawn = 0


def _terminal_size() -> tuple[int, int]:
    """The terminal's columns and lines (``COLUMNS``/``LINES`` first; 80x24 when the output is not a terminal)."""
    size = shutil.get_terminal_size()
    return size.columns, size.lines


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def use_color(choice: bool | None, stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``heartslib play`` colours its cards: ``--color`` (True) or ``--no-color`` (False) decide; without
    either (None), only when ``stream`` is a terminal, ``NO_COLOR`` is not set to a non-empty value
    (https://no-color.org) and ``TERM`` is not ``dumb``.

    >>> use_color(None, io.StringIO(), {})
    False
    >>> use_color(True, io.StringIO(), {"NO_COLOR": "1"})
    True
    """
    if choice is not None:
        return choice
    env = os.environ if environ is None else environ
    return _isatty(stream) and not env.get("NO_COLOR") and env.get("TERM") != "dumb"


def _unicode_ok(stream: TextIO) -> bool:
    try:
        "♣♦♥♠·—".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# --------------------------------------------------------------------------- commands


def _check_budget(args: argparse.Namespace) -> None:
    """Refuse a ``--playouts`` or ``--time-limit`` that no search could use, whichever agents play."""
    if args.playouts is not None and args.playouts < 1:
        raise UserError(f"--playouts must be a whole number of at least 1, not {args.playouts}")
    if args.time_limit is not None and not args.time_limit > 0:  # also refuses nan
        raise UserError(f"--time-limit must be a number of seconds above 0, not {args.time_limit}")


def max_workers() -> int:
    """The most worker processes ``simulate --workers`` starts: four per CPU (more cannot be faster), at
    least 8, and at most 61 on Windows (the limit of its process pools)."""
    limit = max(8, 4 * (os.cpu_count() or 1))
    return min(limit, 61) if sys.platform == "win32" else limit


def _is_search(spec: AgentSpec) -> bool:
    """Whether ``spec`` names the built-in search agent (which ``--playouts`` and ``--time-limit`` configure)."""
    return isinstance(spec, str) and spec.strip().lower() == "search"


def _search_budget(spec: AgentSpec, playouts: int | None, time_limit: float | None) -> AgentSpec:
    """The ``search`` agent with the budget of ``--playouts`` and ``--time-limit`` (None: the agent's default;
    other specs unchanged)."""
    if not _is_search(spec):
        return spec
    from heartslib.search import DEFAULT_PLAYOUTS

    try:
        return SearchFactory(DEFAULT_PLAYOUTS if playouts is None else playouts, time_limit)
    except ValueError as exc:
        raise UserError(f"--playouts/--time-limit: {exc}") from None


def _budget_has_a_searcher(args: argparse.Namespace, specs: Sequence[AgentSpec], option: str) -> None:
    """Refuse ``--playouts``/``--time-limit`` where no seat plays ``search``: they would be ignored in silence."""
    given = [name for name, value in (("--playouts", args.playouts), ("--time-limit", args.time_limit))
             if value is not None]
    if given and not any(_is_search(s) for s in specs):
        raise UserError(f"{' and '.join(given)} set{'s' if len(given) == 1 else ''} the search agent's budget, and "
                        "no seat plays search here: "
                        f"name search in {option}, or leave {' and '.join(given)} out")


def _check_seed(seed: int | None) -> None:
    """Refuse a ``--seed`` outside the documented bounds of a seed (one rule for ``play`` and ``simulate``)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be a whole number from 0 to 2**64 - 1, not {arg_text(seed)}")


def _ignore_interrupts() -> None:
    """A worker process's initializer: Ctrl-C is the parent's to handle (it stops the workers and reports the
    games that finished); a worker that took it too would die with a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessPoolExecutor(futures.ProcessPoolExecutor):
    """The process pool of ``simulate --workers``: its workers leave Ctrl-C to the parent, which ends them at once
    with :meth:`stop_now` (a plain pool's shutdown would wait for each worker's task to finish)."""

    def __init__(self, max_workers: int) -> None:
        super().__init__(max_workers, initializer=_ignore_interrupts)

    def stop_now(self) -> None:
        """End the workers without waiting for their tasks, and shut the pool down."""
        # the standard pool has no public way before Python 3.14 (terminate_workers) to end busy workers
        processes = getattr(self, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        self.shutdown(wait=True, cancel_futures=True)


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UserError("--games must be at least 1")
    _check_seed(args.seed)
    if not 1 <= args.workers <= max_workers():
        raise UserError(f"--workers must be 1-{max_workers()} on this machine, which has {os.cpu_count() or 1} "
                        f"CPU(s) (more workers cannot be faster), not {args.workers}")
    _check_budget(args)
    variant = load_variant(args.variant)
    named = _agent_specs(args.agents, variant.players)
    _budget_has_a_searcher(args, named, "--agents")
    specs = tuple(_search_budget(s, args.playouts, args.time_limit) for s in named)
    bar = ProgressBar(sys.stderr, enabled=not args.no_progress and _isatty(sys.stderr))
    workers = min(args.workers, args.games)  # a process pool starts all its workers at once: no idle ones
    executor: Executor | None = ProcessPoolExecutor(workers) if workers > 1 else None
    interrupted: SimulationInterrupted | None = None
    try:
        stats = simulate(variant, specs, args.games, args.seed, executor, progress=bar)
    except SimulationInterrupted as exc:
        # Ctrl-C: the games that finished are still worth their statistics
        interrupted, stats = exc, exc.stats
    finally:
        bar.close()
        if executor is not None:
            stop_now = getattr(executor, "stop_now", None)
            if interrupted is not None and callable(stop_now):
                stop_now()
            else:
                executor.shutdown(cancel_futures=True)
    if interrupted is not None and not stats.games and not args.json:
        # a table of zeros would read as results: say instead that nothing finished
        print(f"interrupted before any of the {args.games:,} games finished: no statistics", file=sys.stderr)
        return 130
    if interrupted is not None:
        print(f"interrupted: the statistics cover the {stats.games:,} of {args.games:,} games that finished",
              file=sys.stderr)
    if args.json:
        print(json.dumps(stats.to_dict(), indent=2))
    else:
        print(stats.table())
    return 130 if interrupted is not None else 0


def _cmd_variants(args: argparse.Namespace) -> int:
    names = preset_names()
    width = max(len(n) for n in names)
    for name in names:
        print(f"{name:<{width}}  {summary(preset(name))}")
    aliases = ", ".join(f"{a} = {t}" for a, t in sorted(ALIASES.items()))
    print(f"\nAliases: {aliases}.\nShow a preset's rules with: heartslib rules NAME")
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    text = load_variant(args.variant).describe()
    if _isatty(sys.stdout):  # on a terminal, broken between words to its width; piped, one line a paragraph
        width = _terminal_size()[0] - 1
        text = "\n".join(line for paragraph in text.split("\n") for line in wrap(paragraph, width))
    print(text)
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    path = _file_name("validate", args.file)
    kind = _file_kind(path)
    if kind != "file":
        hint = (f" ({args.file} is a preset, valid as shipped: `heartslib rules {args.file}` prints its rules)"
                if args.file in preset_names() else "")
        raise UserError(f"cannot read {_quote(args.file)}: {kind}{hint}")
    name = _shown(args.file)
    try:
        v = Variant.from_toml(path)
    except VariantError as exc:
        for field, message in exc.problems:
            print(f"{name}: {field or '(file)'}: {message}", file=sys.stderr)
        count = len(exc.problems)
        print(f"{name}: invalid ({count} problem{'s' if count != 1 else ''})", file=sys.stderr)
        return USAGE_ERROR
    print(f"{name}: valid: {v.name} ({summary(v)})")
    data = read_toml(path)
    for note in value_notes(v, data) + unread_notes(v, data):
        print(f"{name}: note: {note}")
    return 0


def value_notes(v: Variant, data: object) -> list[str]:
    """What a rules file's ``scoring.values`` table means: it replaces the default table as a whole, so a
    default scoring card it leaves out (Q♠) scores nothing. Empty when the file lists no table.

    >>> jd = preset("standard").replace(scoring={"values": {"JD": -10}})
    >>> print(value_notes(jd, {"scoring": {"values": {"JD": -10}}})[0])
    scoring.values replaces the default table (Q♠ 13) as a whole: the card values are now J♦ -10, and Q♠ scores
    nothing (as some games mean it to); list QS = 13 to keep it
    """
    scoring = data.get("scoring") if isinstance(data, dict) else None
    if not isinstance(scoring, dict) or "values" not in scoring or v.scoring.settlement == Settlement.AUCTION:
        return []  # an auction's penalty cards are the named suit's, whatever the table (which it keeps empty)
    default = ScoringRules().values
    lost = [card for card in default if card not in v.scoring.values]
    if not lost:
        return []
    table = ", ".join(f"{c} {score_text(p)}" for c, p in v.scoring.values.items()) or "empty"
    base = ", ".join(f"{c} {score_text(p)}" for c, p in default.items())
    keep = ", ".join(f"{c.code} = {score_text(default[c])}" for c in lost)
    return [f"scoring.values replaces the default table ({base}) as a whole: the card values are now {table}, and "
            f"{' and '.join(str(c) for c in lost)} scores nothing (as some games mean it to); list {keep} to keep "
            "it"]


def unread_notes(v: Variant, data: object) -> list[str]:
    """The fields a rules file sets that none of its rules reads (:meth:`Variant.unread_fields`), one note each;
    a field the file does not set (a preset's, or a default) is not noted.

    >>> sun = preset("standard").replace(moon={"kind": "new", "sun": "add_52"})
    >>> print(unread_notes(sun, {"moon": {"kind": "new", "sun": "add_52"}})[0])
    moon.kind = "new" has no effect: a sun rule (moon.sun = "add_52") replaces the moon rule unless
    moon.sun_and_moon is set: taking every penalty card without every trick scores normally
    """
    notes = []
    plain = v.to_dict()
    for path, why in v.unread_fields():
        section, name = path.split(".")
        written = data.get(section) if isinstance(data, dict) else None
        if isinstance(written, dict) and name in written:
            notes.append(f"{path} = {toml_value(plain[section][name])} has no effect: {why}")
    return notes


# --------------------------------------------------------------------------- play


class _Quit(Exception):
    pass


#: The ANSI styles of ``heartslib play`` (Select Graphic Rendition codes).
_RED, _BOLD, _DIM = "31", "1", "2"


class PlaySession:
    """A human at ``seat`` against agents, in a text terminal (internal to the ``play`` command)."""

    def __init__(self, match: Match, human: int, agents: dict[int, Agent], *, inp: TextIO, out: TextIO,
                 save_path: Path | None, symbols: bool = True, opponent: str = "heuristic",
                 plain_save: bool = False, playouts: int | None = None, time_limit: float | None = None,
                 color: bool = False, interactive: bool | None = None,
                 size: Callable[[], tuple[int, int]] | None = None) -> None:
        self.match = match
        self.human = human
        self.agents = agents
        self.inp = inp
        self.out = out
        self.save_path = save_path
        self.symbols = symbols
        self.opponent = opponent
        #: the search opponents' budget (``--playouts``, ``--time-limit``), kept in the save; None for the
        #: agent's default, and for opponents that are not the search agent
        self.playouts = playouts
        self.time_limit = time_limit
        #: the save is a plain match save (``Match.to_json``, resumed with --resume): keep writing that format,
        #: which the program that made it reads back, rather than the play save (which it cannot read)
        self.plain_save = plain_save
        # typed input is not echoed when it comes from a file or a pipe; show it so transcripts read well
        self.echo = not _isatty(inp)
        #: red hearts and diamonds, the legal cards in bold (see :func:`use_color`)
        self.color = color
        #: wait for Enter between hands: only when a person is at a terminal (input and output), never for
        #: scripted or piped input
        self.interactive = _isatty(inp) and _isatty(out) if interactive is None else interactive
        #: the terminal's columns and lines, read again for every line (a window can be resized mid-game)
        self.size = size or _terminal_size
        self.seen = len(match.events)
        self.rounds_told = len(match.rounds)
        self.hand_shown = -1
        # the trick being told: its hand, how many tricks of that hand are done, whose header was printed, and
        # the cards of cancelled tricks that go to the next trick's winner
        self.hand_told = match.hand_number
        self.tricks_done = 0 if match.is_over else len(match.observation(human).tricks)
        self.header_shown: tuple[int, int] | None = None
        self.rolled: list[Card] = []
        self.pause_due = False
        # the stock's draws told so far: the hand, how many draws (seat, count) and how many of your cards
        mine = match.observation(human)
        self.draws_told = (mine.hand_number, len(mine.draws), len(mine.drawn))
        for seat, agent in agents.items():
            setup_agent(agent, match.variant, seat)

    # ------------------------------------------------------------------ text

    def width(self) -> int:
        """The columns a line may take: one less than the terminal's, so that no terminal wraps a full line."""
        return self.size()[0] - 1

    def say(self, text: str = "") -> None:
        """Write ``text`` to the player, each line broken between words to fit the terminal's width."""
        width = self.width()
        self.out.write("".join(line + "\n" for part in text.split("\n") for line in wrap(part, width)))

    def paint(self, text: str, *styles: str) -> str:
        """``text`` in the given ANSI styles when colour is on (otherwise unchanged)."""
        if not self.color or not styles:
            return text
        return f"\x1b[{';'.join(styles)}m{text}\x1b[0m"

    def card(self, c: Card, legal: bool | None = None) -> str:
        """A card as text: its symbol form, or its code where the terminal cannot show suit symbols; with colour,
        red for hearts and diamonds, and bold for a legal card (``legal=True``) or dim for another (False)."""
        text = str(c) if self.symbols else c.code
        styles = [_RED] if c.suit in (Suit.HEARTS, Suit.DIAMONDS) else []
        if legal is not None:
            styles.append(_BOLD if legal else _DIM)
        return self.paint(text, *styles)

    def cards(self, cs: Sequence[Card]) -> str:
        """Several cards as text ("-" for none)."""
        return " ".join(self.card(c) for c in cs) or "-"

    def who(self, seat: int) -> str:
        """"you" for the human seat, "seat N" for the others."""
        return "you" if seat == self.human else f"seat {seat}"

    def Who(self, seat: int) -> str:
        """who(), capitalised to start a sentence."""
        return "You" if seat == self.human else f"Seat {seat}"

    def verb(self, seat: int, verb: str) -> str:
        """The verb agreeing with who() ("you play", "seat 2 plays")."""
        return verb if seat == self.human else verb + ("es" if verb.endswith(("s", "sh")) else "s")

    def scores_line(self, totals: Sequence[Score]) -> str:
        """The match totals as one line."""
        return ", ".join(f"{self.who(s)} {score_text(t)}" for s, t in enumerate(totals))

    # ------------------------------------------------------------------ saving

    def save(self) -> None:
        """Save the game (your seat, the opponents and the match) to the --save file, if one was given.

        The file is written beside the target under a new name and renamed over it, so an interrupted save
        never leaves half a file; a link is followed (the file it names is replaced, the link kept), and
        anything that is not a regular file is refused.
        """
        if self.save_path is None:
            return
        target = save_target(self.save_path)
        text = self.match.to_json() if self.plain_save else play_save_text(
            self.match, self.human, self.opponent, playouts=self.playouts, time_limit=self.time_limit)
        tmp = ""
        try:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            mode = target.stat().st_mode if target.exists() else 0o666 & ~_umask()
            os.chmod(tmp, stat.S_IMODE(mode))
            os.replace(tmp, target)
        except OSError as exc:
            if tmp:
                Path(tmp).unlink(missing_ok=True)
            raise UserError(f"cannot save the game to {_quote(str(self.save_path))}: "
                            f"{exc.strerror or exc}") from None

    # ------------------------------------------------------------------ narration

    def narrate(self) -> None:
        """Tell the player every event since the last call."""
        events = self.match.events
        for event in events[self.seen:]:
            self.tell(event)
        self.seen = len(events)
        self.tell_draws()

    def tell_draws(self) -> None:
        """Say who drew from the stock since the last call: how many cards (public), and which (yours only)."""
        if self.match.variant.deck.stock == StockDraw.NONE:
            return
        obs = self.match.observation(self.human)
        hand, told, mine = self.draws_told
        if obs.hand_number != hand:
            told = mine = 0
        for _, seat, drawn in obs.draws[told:]:
            if seat == self.human:
                self.say(f"You draw {self.cards(obs.drawn[mine:mine + drawn])} from the stock.")
                mine += drawn
            else:
                self.say(f"Seat {seat} draws {count(drawn, 'card')} from the stock.")
        self.draws_told = (obs.hand_number, len(obs.draws), mine)

    def tell(self, e: Event) -> None:
        """Describe one event in a sentence."""
        v = self.match.variant
        if isinstance(e, Pass):
            if e.seat == self.human:
                self.say(f"You pass {self.cards(e.cards)}.")
            else:
                self.say(f"Seat {e.seat} has chosen the cards to pass.")
        elif isinstance(e, PassesExchanged):
            self.say(f"You receive {self.cards(e.received[self.human])}.")
        elif isinstance(e, Play):
            self.trick_header()
            self.say(f"{self.Who(e.seat)} {self.verb(e.seat, 'play')} {self.card(e.card)}.")
        elif isinstance(e, Choose):
            self.say(_choice_text(self.match, e, self.Who(e.seat), lambda word: self.verb(e.seat, word)))
        elif isinstance(e, TrickWon):
            self.tricks_done += 1
            if e.winner is None:
                self.rolled += [c for _, c in e.plays]
                self.say(f"Trick {e.number + 1} is cancelled: its cards go to the next trick's winner.")
            else:
                self.say(self.trick_summary(e.winner, [c for _, c in e.plays] + self.rolled))
                self.rolled = []
        elif isinstance(e, KittyTaken):
            shown = e.seat == self.human and v.deck.kitty_seen_by_winner
            self.say(f"{self.Who(e.seat)} {self.verb(e.seat, 'take')} the kitty"
                     + (f": {self.cards(e.cards)}." if shown else f" ({count(len(e.cards), 'card')})."))
        elif isinstance(e, MoonShot):
            self.say(f"{self.Who(e.seat)} shot the {e.kind}! ({e.outcome.replace('_', ' ')})")
        elif isinstance(e, RoundScored):
            result = self.match.rounds[self.rounds_told]
            self.rounds_told += 1
            for line in self.kept_lines(result.round):
                self.say(line)
            self.say()
            self.say(f"Hand {result.hand_number + 1} is over.")
            for line in self.score_table() + _pot_lines(self, result.settlement, result.counters):
                self.say(line)
            self.say()
            self.hand_told, self.tricks_done, self.rolled = result.hand_number + 1, 0, []
            self.pause_due = True

    def trick_header(self) -> None:
        """Print the header of the trick being played, once, before its first play (or the table shown to you)."""
        key = (self.hand_told, self.tricks_done)
        if self.header_shown == key:
            return
        self.header_shown = key
        self.say()
        self.say(self.paint(f"--- Trick {self.tricks_done + 1} ---", _BOLD))

    def trick_summary(self, winner: int, cards: Sequence[Card]) -> str:
        """Who took the trick and what its cards score ("Seat 2 takes the trick (+14 points: Q♠ 5♥).").

        ``cards`` are the cards everyone saw go to the winner (the trick's, and those of cancelled tricks before
        it); kitty cards are not counted, since they are not every player's to see.
        """
        value = self.match.round.rules.value  # the hand's: an auction's named suit scores
        scoring = [c for c in cards if value[c.index]]
        pts = sum((value[c.index] for c in scoring), start=0)
        text = f"{self.Who(winner)} {self.verb(winner, 'take')} the trick"
        if not scoring:
            return text + " (no points)."
        shown = score_text(pts)
        sign = "" if shown.startswith("-") else "+"
        return text + f" ({sign}{shown} point{'' if pts == 1 else 's'}: {self.cards(scoring)})."

    def kept_lines(self, rnd: Round) -> list[str]:
        """Domino Hearts: what the last player holding cards keeps (their hand and the stock), which no trick
        told, so that the hand's points add up."""
        if self.match.variant.deck.stock != StockDraw.TO_FOLLOW:  # a kitty's or a cancelled trick's cards are told
            return []
        return [f"{self.Who(seat)} {self.verb(seat, 'keep')} the cards left in hand and in the stock "
                f"(+{score_text(pts)} point{'' if pts == 1 else 's'})." for seat, pts in _kept(rnd)]

    def score_table(self) -> list[str]:
        """The points of every hand so far and the totals, one row each, one column per seat."""
        told = self.match.rounds[:self.rounds_told]
        rows = [(f"Hand {r.hand_number + 1}", [score_text(p) for p in r.points]) for r in told]
        rows.append(("Total", [score_text(t) for t in (told[-1].totals if told else self.match.scores)]))
        first = max(len(label) for label, _ in rows)
        for heads in ([self.who(s) for s in range(self.match.variant.players)],  # "seat 3", or "3" when too wide
                      ["you" if s == self.human else str(s) for s in range(self.match.variant.players)]):
            widths = [max([len(h)] + [len(cells[i]) for _, cells in rows]) for i, h in enumerate(heads)]
            if first + 2 + sum(2 + w for w in widths) <= self.width():
                break
        lines = [" " * (first + 2) + "".join("  " + h.rjust(w) for h, w in zip(heads, widths, strict=True))]
        for label, cells in rows:
            lines.append(f"  {label:<{first}}" + "".join("  " + c.rjust(w) for c, w in zip(cells, widths, strict=True)))
        lines[-1] = self.paint(lines[-1], _BOLD)
        return lines

    def pause(self) -> None:
        """Between hands, wait for Enter (``q`` quits): only when a person is at a terminal."""
        self.pause_due = False
        if not self.interactive or self.match.is_over:
            return
        if self.ask(f"Press Enter to deal hand {self.match.hand_number + 1} (q to quit): ").lower() in (
                "q", "quit", "exit"):
            raise _Quit

    # ------------------------------------------------------------------ showing the table

    def hand_header(self, obs: Observation) -> None:
        """The hand's heading, once a hand, before anything of it is told (the opponents' first moves too)."""
        if obs.hand_number == self.hand_shown:
            return
        m = self.match
        say = self.say
        self.hand_shown = obs.hand_number
        say()
        dot = " · " if self.symbols else " - "
        say(f"=== Hand {obs.hand_number + 1}{dot}you are seat {self.human}{dot}dealer: {self.who(obs.dealer)} ===")
        say(f"Scores: {self.scores_line(obs.scores)}")
        if obs.chips:
            pot = f"; {m.pool} chip{'' if m.pool == 1 else 's'} in the pot from the last deal" if m.pool else ""
            say(f"Chips: {self.scores_line(obs.chips)}{pot}")
        team = next((t for t in m.variant.teams if self.human in t), ())
        if len(team) > 1:
            say("Your partner: " + " and ".join(self.who(s) for s in team if s != self.human) + ".")

    def bid_owed(self, obs: Observation) -> str:
        """An auction's winning bid during the hand, which the chips shown do not subtract yet."""
        bid = max((amount for seat, amount in obs.bids if seat == obs.bidder), default=0)
        if not bid or obs.bidder is None:
            return ""
        whose = "your" if obs.bidder == self.human else f"{self.who(obs.bidder)}'s"
        return f" ({whose} bid of {bid} is paid into the pot when the deal is settled)"

    def show(self, obs: Observation, marked: set[Card]) -> None:
        """Draw the table for the human seat: the seats around the trick (:mod:`heartslib._tableview`), then the
        hand grouped by suit with the cards you may play or pass marked ``*`` (and in bold, with colour)."""
        self.hand_header(obs)
        if obs.phase == Phase.PLAY:
            self.trick_header()
        self.say()
        lines = self.size()[1]
        groups: dict[Suit | None, list[Card]] = {}
        for c in obs.hand:
            groups.setdefault(c.suit, []).append(c)
        hand: list[tuple[str, list[str]]] = []
        for suit, cs in groups.items():
            label = "jokers" if suit is None else (f"{suit.symbol} {suit}" if self.symbols else str(suit))
            if suit in (Suit.HEARTS, Suit.DIAMONDS):
                label = self.paint(f"{label:<11}", _RED)  # padded before the colour codes, which take no room
            hand.append((label, [self.card(c, (c in marked) if marked else None) + ("*" if c in marked else "")
                                 for c in cs]))
        mine = hand_lines(hand, self.width())
        # the picture leaves room for the hand, the prompt and the last trick's lines above it
        room = lines - len(mine) - 3 - (obs.players + 2)
        for line in table_picture(_seat_views(self, obs), title=_table_title(self, obs), width=self.width(),
                                  height=room, symbols=self.symbols, trick=obs.phase == Phase.PLAY,
                                  note=self.pass_note(obs)):
            self.say(line)
        if obs.chips and obs.phase == Phase.PLAY:
            self.say(f"Chips: {self.scores_line(obs.chips)}{self.bid_owed(obs)}.")
        verb = "pass" if obs.phase == Phase.PASS else "play"
        self.say("Your hand" + (f" (* = you may {verb} it):" if marked else ":"))
        for line in mine:
            self.out.write(line + "\n")  # already fitted to the width, under the cards rather than the label
        if self.match.round.phase == Phase.PASS and obs.phase == Phase.PASS:
            self.say(self.pass_hint(obs))

    def pass_note(self, obs: Observation) -> str:
        """In the middle of the table while you choose a pass: to whom it goes ("3 cards to seat 1")."""
        d = obs.passing
        if obs.phase != Phase.PASS or not isinstance(d, Offset):
            return ""
        to = (obs.seat + self.match.variant.rules.step * d.k) % obs.players
        return f"you pass {count(obs.pass_count, 'card')} to {self.who(to)}"

    def pass_hint(self, obs: Observation) -> str:
        """Where this hand's passed cards go, in words."""
        n, k, d = obs.players, obs.pass_count, obs.passing
        step = self.match.variant.rules.step
        if d == SCATTER:
            order = ", ".join(self.who((obs.seat + step * i) % n) for i in range(1, n))
            return f"Pass {k} cards, one to each opponent in this order: {order}."
        if d == STAR:
            order = ", ".join(self.who((obs.seat + step * i) % n) for i in (2, 3))
            return f"Pass 2 cards: the first to {order.replace(', ', ', the second to ')}."
        if d == SHUFFLE:
            return f"Pass {k} cards to the pile the dealer shuffles and deals out again."
        assert isinstance(d, Offset)
        to = (obs.seat + step * d.k) % n
        return f"Pass {count(k, 'card')} {d.name(n)}, to {self.who(to)}."

    # ------------------------------------------------------------------ input

    def ask(self, prompt: str) -> str:
        """Prompt and read one line; end of input ends the session."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    def human_action(self) -> Action:
        """Ask the human for an action until a legal one is given, explaining any refusal."""
        m = self.match
        seat = self.human
        obs = m.observation(seat)
        if obs.phase == Phase.PASS:
            marked = set(passable(m.variant.rules, obs.hand))
        else:
            marked = {a.card for a in m.legal_actions(seat) if isinstance(a, Play)}
        self.show(obs, marked)
        if obs.phase == Phase.PASS:
            prompt = f"Cards to pass (e.g. {' '.join(c.code for c in obs.hand[-obs.pass_count:])}): "
        elif obs.phase == Phase.DECIDE:
            what = {"moon": "You shot the moon! Score it", "pass": "Choose this hand's pass",
                    "suit": "Call the suit to follow", "bid": "Bid chips to name the suit to avoid",
                    "name": "Name the suit to avoid",
                    "expose": "Expose (sell) cards before the first lead"}.get(obs.decision or "", "Choose")
            self.say(f"{what}: " + _menu(obs.options))
            prompt = "Your choice: "
        else:
            prompt = "Your card: "
        while True:
            text = self.ask(prompt)
            word = text.lower()
            if not word:  # Enter on its own: the table again (after the help, or to see it whole)
                self.show(obs, marked)
                continue
            if word in ("q", "quit", "exit"):
                raise _Quit
            if word in ("h", "help", "?"):
                self.say(_help_text(self))
                continue
            if word == "hint":
                hint = HeuristicAgent(seed=0)
                hint.setup(m.variant, seat)
                self.say(f"The heuristic agent would {_action_words(hint.act(obs, actions_for(m, seat)))}.")
                continue
            try:
                action = self.parse(obs, text)
            except CardError as exc:
                self.say(f"Not understood: {self.card_help(exc.token or text)}")
                continue
            except ValueError as exc:
                self.say(f"Not understood: {exc}")
                continue
            why = m.why_illegal(action)
            if why is not None:
                self.say(f"Not allowed: {self.refusal(action, why)}")
                continue
            return action

    def card_help(self, token: str) -> str:
        """Why ``token`` is not a card, in the card syntax of this game (jokers only where there are some)."""
        jokers = self.match.variant.rules.jokers
        text = f"{_quote(token)} is not a card: write rank then suit, e.g. QS, 10H or TH"
        text += ", or Q♠" if self.symbols else ""
        names = sorted(Card.from_index(j).code for j in jokers)
        if names:
            text += "; the jokers are " + " and ".join(names)
        return text

    def refusal(self, action: Action, why: IllegalAction) -> str:
        """An illegal action's reason in the player's words: without the action's internal text ("0:pass QS")."""
        if why.code == "pass_wrong_size" and isinstance(action, Pass):  # the player hears how many they gave too
            size = self.match.observation(self.human).pass_count
            return f"Pass exactly {count(size, 'card')} this hand (not {len(action.cards)})."
        text = str(why)
        prefix = f"{action}: "
        if text.startswith(prefix):
            text = text[len(prefix):]
        text = text.replace(f"seat {self.human} does not hold", "you do not hold")
        text = text.replace(f"seat {self.human} holds", "you hold")
        for c in sorted(set(action.cards if isinstance(action, Pass) else
                            (action.card,) if isinstance(action, Play) else ()), key=lambda c: -len(c.code)):
            text = text.replace(c.code, self.card(c))
        return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")

    def parse(self, obs: Observation, text: str) -> Action:
        """Turn the player's text into an action for the current phase."""
        if obs.phase == Phase.PASS:
            return Pass(self.human, parse_cards(text.replace(",", " ")))
        if obs.phase == Phase.DECIDE:
            options = list(obs.options)
            for option in options:
                if option.lower() == text.lower():
                    return Choose(self.human, option)
            # where the options are numbers (an auction's bids) a number typed is a bid, never a menu position
            if text.isdigit() and 1 <= int(text) <= len(options) and not _numbered(options):
                return Choose(self.human, options[int(text) - 1])
            allowed = _menu(options) if _numbered(options) else ", ".join(options)
            raise ValueError(f"{text!r} is not one of the options: {allowed}")
        return Play(self.human, Card.parse(text))

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play the match to its end (or until input ends); return the exit status."""
        m = self.match
        self.save()
        try:
            while not m.is_over:
                if m.round.hand_number != self.hand_shown:
                    self.hand_header(m.observation(self.human))
                acting = m.to_act
                others = [s for s in acting if s != self.human]
                seat = others[0] if others else self.human
                if seat == self.human:
                    action = self.human_action()
                else:
                    action = self.agents[seat].act(m.observation(seat), actions_for(m, seat))
                m.apply(action)
                self.save()
                self.narrate()
                if self.pause_due:
                    self.pause()
        except (EOFError, _Quit) as stop:
            self.say()
            self.say_where_saved("Input ended." if isinstance(stop, EOFError) else "Stopped.")
            return 0
        except KeyboardInterrupt:
            self.say()
            self.say_where_saved("Interrupted.")
            return 130
        self.say()
        hands = len(m.rounds)
        self.say(f"The match is over after {hands} hand{'' if hands == 1 else 's'}. "
                 f"Final totals: {self.scores_line(m.scores)}.")
        if m.chips:  # an auction is won on chips, not on the points
            self.say(f"Final chips: {self.scores_line(m.chips)}.")
        winners = " and ".join(self.who(s) for s in m.winners)
        self.say(f"Winner: {winners}." if len(m.winners) == 1 else f"Shared win: {winners}.")
        return 0

    def say_where_saved(self, first: str) -> None:
        """Say ``first``, where the game is saved and the command that resumes it (the save holds your seat and
        the opponents): the command on lines of its own, continued with a backslash where it is too long for one,
        so that it can be copied into a shell as it stands."""
        if self.save_path is None:
            self.say(f"{first} The game was not saved (use --save FILE to keep it).")
            return
        words = ["heartslib", "play", "--resume", _shell_word(str(self.save_path))]
        if self.plain_save:  # a match save names no seat and no opponents: the command does
            words += ["--seat", str(self.human)]
            if self.opponent != "heuristic":
                words += ["--opponent", _shell_word(self.opponent)]
            if self.playouts is not None:
                words += ["--playouts", str(self.playouts)]
            if self.time_limit is not None:
                words += ["--time-limit", repr(self.time_limit)]  # repr: the shortest text of the same number
        self.say(f"{first} The game is saved in {self.save_path}; continue it with:")
        self.out.write("".join(line + "\n" for line in _shell_lines(words, self.width())))


def _help_text(session: PlaySession) -> str:
    """The commands and the card syntax, for this game (its jokers, whether it is being saved)."""
    jokers = sorted(Card.from_index(j).code for j in session.match.variant.rules.jokers)
    cards = "Type a card as rank then suit, in either case: QS, qs, 10H, TH" + (", Q\u2660" if session.symbols else "")
    if jokers:
        cards += "; the jokers are " + " and ".join(jokers)
    saved = ("quit (the game stays saved)" if session.save_path is not None
             else "quit (this game is not being saved: start it with --save FILE to keep it)")
    return (f"{cards}; cards marked * are legal.\n"
            "To pass, type the cards on one line: AS KS QH. Decisions: the option or its number.\n"
            f"Commands: hint (what the heuristic agent would do), help, {saved}; Enter alone draws the "
            "table again.\n"
            "There is no undo: once other hands' cards are revealed, a card played stays played.")


def _seat_views(session: PlaySession, obs: Observation) -> list[SeatView]:
    """Every seat as the picture shows it, you first and then in the order of play: the points each has
    taken this hand (a cancelled trick's go to the next trick's winner), its cards and its card on the trick."""
    value = session.match.round.rules.value  # the hand's: an auction's named suit scores
    taken: list[Score] = [0] * obs.players
    carried: Score = 0
    for t in obs.tricks:
        points = sum((value[c.index] for _, c in t.plays), start=carried)
        if t.winner is None:
            carried = points
        else:
            taken[t.winner] += points
            carried = 0
    on_trick = dict(obs.trick)
    step = session.match.variant.rules.step
    order = [(session.human + step * i) % obs.players for i in range(obs.players)]
    return [SeatView(session.who(s), score_text(taken[s]), obs.hand_sizes[s], score_text(obs.scores[s]),
                     session.card(on_trick[s]) if s in on_trick else None) for s in order]


def _table_title(session: PlaySession, obs: Observation) -> str:
    """The picture's heading: the hand, and in the play the trick, who leads it and whether hearts (an
    auction's named suit) are broken, and the stock."""
    dot = " \u00b7 " if session.symbols else " - "
    parts = [f"Hand {obs.hand_number + 1}"]
    if obs.phase == Phase.PASS:
        parts.append("passing")
    elif obs.phase == Phase.PLAY:
        parts.append(f"trick {len(obs.tricks) + 1}")
        if obs.leader is not None and obs.trick:
            led = obs.trick[0][1].suit  # None for a joker led
            suit = "" if led is None else " " + (led.symbol if session.symbols else str(led))
            parts.append(f"{session.who(obs.leader)} led{suit}")
        else:
            parts.append("you lead")
        named = obs.penalty_suit  # an auction's named suit is this hand's hearts
        broken = "broken" if obs.hearts_broken else "not broken"
        parts.append(f"{'hearts' if named is None else str(named)} {broken}")
    if obs.stock_size:
        parts.append(f"stock: {count(obs.stock_size, 'card')}")
    return dot.join(parts)


def _pot_lines(session: PlaySession, settled: object, counters: Sequence[int]) -> list[str]:
    """A hand settled through a pool: an auction's pot (who won it, or that it stays) and each seat's chips after
    it; a sweepstake's or Howell's counters moved and each seat's net counters (and a sweepstake's pool left)."""
    who, verb, line = session.who, session.verb, session.scores_line
    # an auction's result is a sweepstake's read as chips: told as a pot first
    if isinstance(settled, SweepstakeResult | HowellResult) and not isinstance(settled, AuctionResult):
        moved = ", ".join(f"{who(s)} {n:+d}" for s, n in enumerate(settled.net))
        left = settled.carry if isinstance(settled, SweepstakeResult) else 0
        pool = f"; {left} counter{'' if left == 1 else 's'} stay in the pool" if left else ""
        return [f"Counters this hand: {moved}{pool}.", "Counters: " + line(counters) + "."]
    if not isinstance(settled, AuctionResult):
        return []
    pot = f"the pot of {settled.pot} chip{'' if settled.pot == 1 else 's'}"
    if len(settled.winners) == 1:
        won = f"{session.Who(settled.winners[0])} {verb(settled.winners[0], 'win')} {pot}."
    elif settled.winners:
        won = (f"{session.Who(settled.winners[0])} and {who(settled.winners[1])} share {pot}"
               + (f"; {settled.carry} chip stays for the next pot." if settled.carry else "."))
    else:
        won = f"Nobody wins {pot}: it stays for the next deal"
        won += "." if session.match.is_over else f", whose suit {who(settled.bidder)} names without bidding."
    chips = [session.match.variant.scoring.chips + c for c in counters]
    return [won, f"Chips: {line(chips)}."]


def _choice_text(match: Match, e: Choose, who: str, verb: Callable[[str], str]) -> str:
    """A decision in a sentence (``who``: "You" or "Seat 2"; ``verb`` agrees a verb with them): an auction's bids,
    passes and naming in its own words (who won the auction, for how many chips), any other as the option chosen."""
    option = e.option
    if match.variant.scoring.settlement == Settlement.AUCTION:
        if option == "pass":
            return f"{who} {verb('pass')}."
        if option.isdigit():
            return f"{who} {verb('bid')} {option} chip{'' if option == '1' else 's'}."
        auction = match.round.auction
        if auction is not None and auction.penalty_suit is not None and option == str(auction.penalty_suit):
            how = (f"won the auction with {auction.bid} chip{'' if auction.bid == 1 else 's'}, paid into the pot "
                   "when the deal is settled" if auction.bid else "names it without bidding: the pot stayed")
            return f"{who} {verb('name')} {option} ({how}): {option} are the penalty suit this hand."
    return f"{who} {verb('choose')} {option!r}."


def _kept(rnd: Round) -> list[tuple[int, Score]]:
    """Domino Hearts' last player holding cards, who keeps their hand and the rest of the stock (the cards taken
    in no trick), with those cards' points; none when every card was played."""
    kept = Counter(c for taken in rnd.taken for c in taken) - Counter(c for t in rnd.tricks for _, c in t.plays)
    if not kept:
        return []
    draws = rnd.observation(0).draws
    holding = [rnd.variant.deck.hand_size + sum(k for _, s, k in draws if s == seat)
               - sum(s == seat for t in rnd.tricks for s, _ in t.plays) for seat in range(rnd.variant.players)]
    # the seat that still held cards; were every hand empty, the one that took them (two decks: the holder first)
    seat = max(range(len(holding)), key=lambda s: (holding[s] > 0, not kept - Counter(rnd.taken[s])))
    return [(seat, sum((rnd.rules.value[c.index] for c in kept.elements()), start=0))]


def _numbered(options: Sequence[str]) -> bool:
    """Whether some options are numbers (an auction's bids): then a number typed is an option, not its place."""
    return any(o.isdigit() for o in options)


def _menu(options: Sequence[str]) -> str:
    """The options of a decision as the player reads them: numbered ("1) old, 2) new"), or where the options
    are numbers (bids) the words and the range ("pass, or 1 to 50")."""
    if not _numbered(options):
        return ", ".join(f"{i}) {o}" for i, o in enumerate(options, 1))
    numbers = [int(o) for o in options if o.isdigit()]
    amounts = f"{min(numbers)} to {max(numbers)}" if len(numbers) > 1 else str(numbers[0])
    return ", or ".join([", ".join(o for o in options if not o.isdigit()), amounts]).removeprefix(", or ")


def _action_words(a: Action) -> str:
    if isinstance(a, Play):
        return f"play {a.card.code}"
    if isinstance(a, Pass):
        return "pass " + " ".join(c.code for c in a.cards)
    return f"choose {a.option!r}"


def _shell_word(text: str) -> str:
    """``text`` as one word for a POSIX shell (quoted only when it needs to be)."""
    if text and all(ch.isalnum() or ch in "-_./+:@%" for ch in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def _shell_lines(words: Sequence[str], width: int) -> list[str]:
    """A shell command indented by two spaces, its lines broken between words with a backslash (which the shell
    reads as a space) to fit ``width``; a word longer than a line is cut with a backslash too (the shell joins
    the parts), unless it is quoted."""
    lines = ["  " + words[0]]
    for word in words[1:]:
        if len(lines[-1]) + 1 + len(word) + 2 > width:  # room left for " \\" on the line broken
            lines[-1] += " \\"
            lines.append("    ")
        else:
            lines[-1] += " "
        room = max(width - len(lines[-1]) - 1, 10)
        while len(word) > room and not word.startswith("'"):
            lines[-1] += word[:room] + "\\"  # backslash-newline inside a word: the shell reads the word whole
            lines.append("")
            word, room = word[room:], max(width - 1, 10)
        lines[-1] += word
    return lines


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def save_target(path: Path) -> Path:
    """The file a ``--save`` path writes: the path itself, or the file a link names (so the link stays a link).

    Raises :class:`UserError` for anything that is not a regular file (a directory, a device such as
    ``/dev/full``, a pipe) or a missing folder.
    """
    target = Path(os.path.realpath(path))
    kind = _file_kind(target)
    if kind not in ("file", "no such file"):
        raise UserError(f"cannot save the game to {_quote(str(path))}: {kind}; name a regular file")
    if _file_kind(target.parent) != "it is a directory, not a file":
        raise UserError(f"cannot save the game to {_quote(str(path))}: its folder does not exist")
    return target


def _read_existing(path: Path) -> object:
    """What a file ``--save`` would replace holds, read once: its JSON data, ``{}`` for an empty file, or
    :data:`_UNREADABLE` for anything else (too large for a save, not JSON, not readable)."""
    try:
        if path.stat().st_size > 2**26:  # 64 MB: far more than any save
            return _UNREADABLE
        data = path.read_bytes()
        return json.loads(data) if data.strip() else {}
    except (OSError, ValueError, RecursionError):
        return _UNREADABLE


_UNREADABLE: Final = object()


def _is_save(raw: object) -> bool:
    """Whether a file's data (:func:`_read_existing`) is empty or a heartslib save (a play save or a match save),
    which ``--save`` may replace; any other file is somebody's work."""
    return raw == {} or (isinstance(raw, dict) and raw.get("format") in (PLAY_SAVE_FORMAT, SAVE_FORMAT))


def _check_save_path(path: Path, save: str | None, *, new_game: bool) -> None:
    """Refuse now, not after the first card, a save path that is a directory or a device, or (``--save`` given as
    ``save``) an existing file that is not a heartslib save, or a game in progress that a new game would replace."""
    target = save_target(path)
    if save is None or not target.exists():
        return
    raw = _read_existing(target)
    if not _is_save(raw):
        raise UserError(f"--save {_quote(save)}: the file exists and is not a heartslib save, and saving "
                        "would replace it; name a new file (to continue a saved game, use --resume)")
    if new_game and (hand := _unfinished_hand(raw)) is not None:
        raise UserError(f"--save {_quote(save)} holds a game in progress (hand {hand}), which a new game "
                        f"would replace: continue it with --resume {_shell_word(save)}, or name a new file")


def _unfinished_hand(raw: object) -> int | None:
    """The hand (from 1) of the game in progress a save's data holds, or None: an empty file or a finished game."""
    match = raw.get("match") if isinstance(raw, dict) and raw.get("format") == PLAY_SAVE_FORMAT else raw
    state = match.get("state") if isinstance(match, dict) else None
    if not isinstance(state, dict) or state.get("phase") == Phase.OVER.value:
        return None
    hand = state.get("hand_number")
    return hand + 1 if isinstance(hand, int) and not isinstance(hand, bool) else 1


#: The ``format`` of the saves ``heartslib play`` writes: your seat, the opponents and the match save.
PLAY_SAVE_FORMAT = "heartslib-play"
#: The version of the play saves written now (2: the search opponents' budget too); version 1 is still read.
PLAY_SAVE_VERSION = 2
_PLAY_SAVE_KEYS = {1: frozenset({"format", "version", "seat", "opponent", "match"}),
                   2: frozenset({"format", "version", "seat", "opponent", "playouts", "time_limit", "match"})}


def play_save_text(match: Match, seat: int, opponent: str, *, playouts: int | None = None,
                   time_limit: float | None = None) -> str:
    """A ``heartslib play`` save: ``{"format": "heartslib-play", "version": 2, "seat", "opponent", "playouts",
    "time_limit", "match"}``, the match as :meth:`Match.to_dict` writes it; ``playouts`` and ``time_limit`` are
    the search opponents' budget (``null``: none given, or an opponent that is not the search agent)."""
    return json.dumps({"format": PLAY_SAVE_FORMAT, "version": PLAY_SAVE_VERSION, "seat": seat,
                       "opponent": opponent, "playouts": playouts, "time_limit": time_limit,
                       "match": match.to_dict()}, ensure_ascii=False)


@attrs.frozen
class PlaySave:
    """What a save that ``heartslib play --resume`` reads holds (see :func:`read_play`).

    ``seat`` and ``opponent`` are None for a plain match save (:meth:`Match.to_json`), which names neither;
    ``budget_saved`` says whether the save records the search opponents' budget (a play save of version 2),
    ``playouts`` and ``time_limit`` being that budget (None: the agent's default).
    """

    match: Match
    seat: int | None = None
    opponent: str | None = None
    budget_saved: bool = False
    playouts: int | None = None
    time_limit: float | None = None


def read_play_save(data: bytes | str) -> tuple[Match, int | None, str | None]:
    """The match, your seat and the opponents of a ``heartslib play`` save, or of a plain match save
    (:meth:`Match.to_json`, which names no seat: ``None, None``). Raises :class:`~heartslib.SaveError`.

    :func:`read_play` gives the search opponents' budget too.
    """
    save = read_play(data)
    return save.match, save.seat, save.opponent


def read_play(data: bytes | str) -> PlaySave:
    """A ``heartslib play`` save (version 1 or 2), or a plain match save, read and checked: the match, your seat,
    the opponents and their search budget. Raises :class:`~heartslib.SaveError` naming what is wrong."""
    try:
        raw = json.loads(data)
    except RecursionError:
        raise SaveError("", "not a JSON save: arrays or objects nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise SaveError("", f"not a JSON save: it is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except ValueError as exc:
        raise SaveError("", f"not a JSON save: {exc}"[:300]) from None
    if not (isinstance(raw, dict) and raw.get("format") == PLAY_SAVE_FORMAT):
        return PlaySave(Match.from_dict(raw))
    version = raw.get("version")
    if type(version) is not int or version not in _PLAY_SAVE_KEYS:
        raise SaveError("version", f"this heartslib reads versions {', '.join(map(str, _PLAY_SAVE_KEYS))} of its "
                        f"play saves, not {value_text(version)}")
    if set(raw) != _PLAY_SAVE_KEYS[version]:
        raise SaveError("", f"a heartslib play save of version {version} has exactly the keys "
                        f"{', '.join(sorted(_PLAY_SAVE_KEYS[version]))}")
    seat, opponent = raw["seat"], raw["opponent"]
    if not isinstance(opponent, str) or not opponent:
        raise SaveError("opponent", "expected an agent name such as \"heuristic\"")
    playouts, time_limit = raw.get("playouts"), raw.get("time_limit")
    if playouts is not None and (type(playouts) is not int or playouts < 1):
        raise SaveError("playouts", f"expected null or a whole number of at least 1, got {value_text(playouts)}")
    if time_limit is not None and (type(time_limit) not in (int, float) or not time_limit > 0):
        raise SaveError("time_limit", f"expected null or a number of seconds above 0, got {value_text(time_limit)}")
    try:
        match = Match.from_dict(raw["match"])
    except SaveError as exc:
        raise SaveError("match" + (f".{exc.path}" if exc.path else ""),
                        str(exc).removeprefix(f"{exc.path}: ")) from exc
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < match.variant.players:
        raise SaveError("seat", f"expected a seat 0-{match.variant.players - 1}, got {value_text(seat)}")
    return PlaySave(match, seat, opponent, budget_saved=version >= 2, playouts=playouts,
                    time_limit=None if time_limit is None else float(time_limit))


def opponents(match: Match, human: int, spec: AgentSpec = "heuristic") -> dict[int, Agent]:
    """The agents ``heartslib play`` seats around the human: one per other seat, seeded from the match seed.

    Seeding from the match seed (and the built-in agents choosing from the
    position alone) is what makes a resumed game continue exactly as before.
    """
    return {s: make_agent(spec, agent_seed(match.seed, 0, s)) for s in range(match.variant.players) if s != human}


def _cmd_play(args: argparse.Namespace) -> int:
    seat: int | None = args.seat
    opponent: str | None = args.opponent
    _check_budget(args)
    playouts: int | None = args.playouts
    time_limit: float | None = args.time_limit
    if opponent is not None and ("," in opponent or not opponent.strip()):
        raise UserError(f"--opponent takes one agent, which plays every other seat (heuristic, random, moon, "
                        f"search or module:Factory), not {_quote(opponent)}")
    if args.resume is not None:
        if args.variant is not None or args.seed is not None:
            raise UserError("--resume continues the saved game with its own rules and seed; "
                            "do not combine it with --variant or --seed")
        path = _file_name("--resume", args.resume)
        kind = _file_kind(path)
        if kind != "file":
            raise UserError(f"cannot read the save {_quote(args.resume)}: {kind}")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read the save {_quote(args.resume)}: {exc.strerror or exc}") from None
        saved = read_play(data)
        match, saved_seat, saved_opponent = saved.match, saved.seat, saved.opponent
        if saved_seat is not None:
            if seat is not None and seat != saved_seat:
                raise UserError(f"this game was saved with you at seat {saved_seat}; leave out --seat to resume it")
            seat = saved_seat
        if saved_opponent is not None:
            if opponent is not None and opponent != saved_opponent:
                raise UserError(f"this game was saved with --opponent {saved_opponent}; leave out --opponent to "
                                "resume it")
            opponent = saved_opponent
        if saved.budget_saved and opponent is not None and _is_search(opponent):
            # the game goes on against the same search budget: it was saved; a different one is refused
            for option, given, kept in (("--playouts", playouts, saved.playouts),
                                        ("--time-limit", time_limit, saved.time_limit)):
                if given is not None and given != kept:
                    was = f"without {option}" if kept is None else f"with {option} {kept!r}"
                    raise UserError(f"this game was saved {was}, which its search opponents keep; leave out "
                                    f"{option} to resume it")
            playouts, time_limit = saved.playouts, saved.time_limit
        save_path: Path | None = _file_name("--save", args.save) if args.save is not None else path
        plain_save = saved_seat is None and args.save is None
    else:
        variant = load_variant(args.variant or "standard")
        _check_seed(args.seed)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        match = Match(variant, seed)
        save_path = _file_name("--save", args.save) if args.save is not None else None
        plain_save = False
    seat = 0 if seat is None else seat
    opponent = "heuristic" if opponent is None else opponent
    v = match.variant
    if not 0 <= seat < v.players:
        raise UserError(f"--seat must be 0-{v.players - 1} for {v.name!r}, not {seat}")
    if save_path is not None:
        _check_save_path(save_path, args.save, new_game=args.resume is None)
    named = _agent_specs(opponent, v.players, "--opponent")[0]
    _budget_has_a_searcher(args, [named], "--opponent")
    spec = _search_budget(named, playouts, time_limit)
    if isinstance(spec, SearchFactory):  # the budget in play, kept in the save
        playouts, time_limit = spec.playouts, spec.time_limit
    else:  # another opponent has no search budget
        playouts = time_limit = None
    agents = opponents(match, seat, spec)
    session = PlaySession(match, seat, agents, inp=sys.stdin, out=sys.stdout, save_path=save_path,
                          symbols=_unicode_ok(sys.stdout), opponent=opponent, plain_save=plain_save,
                          playouts=playouts, time_limit=time_limit, color=use_color(args.color, sys.stdout))
    if args.resume is not None:
        session.say(f"Resuming {v.name} (seed {match.seed}): hand {match.hand_number + 1}, "
                    f"{len(match.actions)} actions so far; you are seat {seat}.")
    else:
        session.say(f"{v.name}: {summary(v, symbols=session.symbols)}. "
                    f"Seed {match.seed} (the same --seed replays the same deal).")
        session.say("Type 'help' for help." + (f" Saving to {save_path} after every action." if save_path else ""))
    return session.run()


# --------------------------------------------------------------------------- parser


def _budget_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--playouts", type=int, default=None, metavar="N",
                   help="the search agent's worlds per decision (default: its own, about 0.1 s a decision)")
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help="the search agent starts no new world after this long (decisions then depend on speed)")


def _play_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The options of ``heartslib play``."""
    p = sub.add_parser("play", help="play a match in the terminal against agents",
                       description="Play a match against agents in the terminal. The game is saved after "
                       "every action when --save (or --resume) names a file.")
    p.add_argument("--variant", default=None, metavar="NAME|FILE.toml", help="rules (default: standard)")
    p.add_argument("--seat", type=int, default=None, metavar="N",
                   help="your seat (default: 0, or the saved game's seat with --resume)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="deal seed: the same seed deals the same cards (default: random)")
    p.add_argument("--save", default=None, metavar="FILE", help="save the game to FILE after every action (never "
                   "over a file that is not a save, nor over a game still in progress)")
    p.add_argument("--resume", default=None, metavar="FILE", help="continue a saved game (and keep saving to it)")
    p.add_argument("--opponent", "--opponents", dest="opponent", default=None, metavar="AGENT",
                   help="the agent playing the other seats: heuristic, random, moon, search or module:Factory (a "
                   "module in the current folder is found too) (default: heuristic, or the saved game's with --resume)")
    _budget_options(p)
    colors = p.add_mutually_exclusive_group()
    colors.add_argument("--color", dest="color", action="store_const", const=True, default=None,
                        help="colour the cards (red hearts and diamonds, the cards you may play in bold) even when "
                        "the output is not a terminal or NO_COLOR is set (default: colour on a terminal only, and "
                        "not when NO_COLOR is set)")
    colors.add_argument("--no-color", dest="color", action="store_const", const=False,
                        help="no colour, even on a terminal")
    p.set_defaults(func=_cmd_play)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    from heartslib import __version__

    parser = argparse.ArgumentParser(
        prog="heartslib",
        description="The hearts family of card games: simulate agents, play in the terminal, inspect rules.",
        epilog="Run 'heartslib COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"heartslib {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("simulate", help="play many matches between agents and print statistics",
                       description="Play many seeded matches between agents and print per-seat statistics: "
                       "points per round (mean, std), win rate with a 95% interval, moons and suns.")
    p.add_argument("--variant", default="standard", metavar="NAME|FILE.toml",
                   help="a preset name (see 'heartslib variants') or a rules file (default: standard)")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                   help=f"matches to play (default: {DEFAULT_GAMES})")
    p.add_argument("--agents", default="heuristic,random", metavar="A,B,...",
                   help="agents by seat, comma-separated: heuristic, random, moon, search, or module:Factory (a "
                   "module in the current folder is found too, as with python -m); the last one fills the "
                   "remaining seats (default: heuristic,random)")
    _budget_options(p)
    p.add_argument("--seed", type=int, default=0, metavar="S", help="master seed (default: 0)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="worker processes (default: 1, in this process; at most four per CPU, or 8); results do "
                   "not depend on it")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(func=_cmd_simulate)

    _play_parser(sub)

    p = sub.add_parser("variants", help="list the preset variants", description="List the preset variants "
                       "with a one-line summary of each.")
    p.set_defaults(func=_cmd_variants)

    p = sub.add_parser("rules", help="print a variant's rules in plain English",
                       description="Print the rules of a preset or a rules file in plain English.")
    p.add_argument("variant", metavar="NAME|FILE.toml", help="a preset name or a rules file")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("validate", help="check a rules file",
                       description="Check a TOML rules file: exit 0 when it is a valid variant, or exit 2 "
                       "listing every problem with its field path.")
    p.add_argument("file", metavar="FILE.toml", help="the rules file to check")
    p.set_defaults(func=_cmd_validate)

    p = sub.add_parser("serve", help="run the game server (WebSocket; docs/server.md)",
                       description="Run the reference game server: tables for any variant over a WebSocket "
                       "protocol, kept in a database and resumed when the server restarts. Needs the server extra.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port (default: 8765; 0 takes a free one)")
    p.add_argument("--database", default="heartslib.sqlite3", metavar="FILE|URL",
                   help="a SQLite file (default: heartslib.sqlite3) or a postgresql:// URL")
    p.add_argument("--turn-timeout", type=float, default=None, metavar="SECONDS",
                   help="a turn clock: an agent stands in for a player who has not acted this long (default: none)")
    p.add_argument("--agent-workers", type=int, default=0, metavar="N",
                   help="worker processes the built-in agents think in, off the server's own (default: 0, threads)")
    for option, field, default, what in _QUOTA_OPTIONS:
        p.add_argument(option, dest=field, type=int, default=None, metavar="N",
                       help=f"{what} (default: {default}; 0: no limit)")
    p.set_defaults(func=_cmd_serve)
    _records_parser(sub)
    return parser


def _records_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("records", help="game records kept by the game server (docs/records.md)",
                       description="Game records from the game server's database.")
    actions = p.add_subparsers(dest="records_command", metavar="ACTION", required=True)
    e = actions.add_parser("export", help="write each finished table's record to a file",
                           description="Write the record of each finished table of a game server's database to "
                           "DIR/<id>.json (or .txt): the unfinished tables are left out, and a table that cannot "
                           "be read is named on standard error and skipped (exit status 1).")
    e.add_argument("--database", required=True, metavar="FILE|URL",
                   help="the server's SQLite file or postgresql:// URL")
    e.add_argument("--table", metavar="ID", help="export this table only (default: every finished table)")
    e.add_argument("--format", choices=("json", "text"), default="json",
                   help="the record's form: JSON (default) or text")
    e.add_argument("--out", default=".", metavar="DIR", help="the folder to write to (default: the current one)")
    e.set_defaults(func=_cmd_records_export)


#: A table id that may name a file (what the server creates): anything else is not written to disk.
_SAFE_ID = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _cmd_records_export(args: argparse.Namespace) -> int:
    from heartslib.server.store import open_store

    out = Path(args.out)
    if not out.is_dir():
        raise UserError(f"--out: {_quote(str(out))} is not a folder")
    store = open_store(args.database)  # a SaveError (exit 2) whose message never shows a password
    done: Counter[str] = Counter()
    try:
        records = store.tables() if args.table is None else [t for t in [store.table(args.table)] if t is not None]
        if args.table is not None and not records:
            raise UserError(f"--table: the database has no table {arg_text(args.table)}")
        for record in records:
            done[_export_table(store, record, args.format, out, args.table is not None)] += 1
    finally:
        store.close()
    print(f"{done['written']} written to {out}; {done['in_progress']} unfinished left out, {done['skipped']} "
          "unreadable skipped")
    return 1 if done["skipped"] else 0


def _export_table(store: Store, record: TableRecord, form: str, out: Path, asked: bool) -> str:
    """Write one stored table's record to ``out``; returns ``written``, ``in_progress`` (left out; a
    :class:`UserError` if the table was ``asked`` for) or ``skipped`` (unreadable: said on stderr, one line)."""
    from heartslib.server.store import RecordRefused, StoreUnavailable, export_record

    try:
        if not (set(record.id) <= _SAFE_ID and 0 < len(record.id) <= 100):
            raise RecordRefused(f"table {record.id!r:.60}", "its id cannot name a file", "bad_record")
        text = export_record(record, store.actions(record.id), form)
    except RecordRefused as exc:
        if exc.code == "in_progress" and asked:
            raise UserError(str(exc)) from None
        if exc.code == "in_progress":
            return "in_progress"
        print(f"heartslib: skipped {exc}", file=sys.stderr)
        return "skipped"
    except StoreUnavailable:
        raise
    except ValueError as exc:  # a stored action that is not JSON (a database edited by hand)
        print(f"heartslib: skipped table {record.id}: a stored action is not JSON: {exc}", file=sys.stderr)
        return "skipped"
    path = out / f"{record.id}.{'json' if form == 'json' else 'txt'}"
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return "written"


#: ``heartslib serve``'s limits on each client: the option, the Quotas field it sets, its default (the server's
#: Quotas(), which a test keeps equal) and what it limits.
_QUOTA_OPTIONS = (
    ("--max-open-tables", "open_tables", 10, "unfinished tables one connection, and one IP address, may have created"),
    ("--max-creates-per-minute", "creates_per_minute", 20, "tables one connection, and one IP address, may create "
     "a minute"),
    ("--max-agent-tables", "agent_tables", 20, "unfinished tables with no player's seat at once"),
    ("--max-agent-hands", "agent_hands", 20, "hands a table with no player's seat may play (its variant's end.hands)"),
)


def _quotas(args: argparse.Namespace) -> Quotas:
    """The server's limits from ``serve``'s options (those not given keep their defaults; 0: no limit)."""
    from heartslib.server.tables import Quotas

    given = {field: getattr(args, field) for _, field, _, _ in _QUOTA_OPTIONS if getattr(args, field) is not None}
    for option, field, _, _ in _QUOTA_OPTIONS:
        if field in given and not 0 <= given[field] <= 10**9:
            raise UserError(f"{option} is a whole number from 0 (no limit) to 1000000000, not {given[field]}")
    return attrs.evolve(Quotas(), **{field: value or None for field, value in given.items()})


#: The largest TCP port number.
_MAX_PORT = 65535


def _cmd_serve(args: argparse.Namespace) -> int:
    # checked here, before the server extra is needed: out of range, the socket's own OverflowError read as a bug
    if not 0 <= args.port <= _MAX_PORT:
        raise UserError(f"--port must be a whole number from 0 to {_MAX_PORT} (0 takes a free one), "
                        f"not {arg_text(args.port)}")
    try:
        from heartslib.server.app import serve
        from heartslib.server.tables import check_agent_workers, check_turn_timeout
    except ImportError as exc:
        raise UserError(f"heartslib serve needs the server extra ({exc.name} is missing): "
                        "pip install 'heartslib[server]'") from None
    try:
        check_turn_timeout(args.turn_timeout)
    except ValueError as exc:
        raise UserError(f"--turn-timeout: {exc}") from None
    quotas = _quotas(args)
    try:
        check_agent_workers(args.agent_workers)
    except ValueError as exc:
        raise UserError(f"--agent-workers: {exc}") from None
    try:
        serve(host=args.host, port=args.port, database=args.database, turn_timeout=args.turn_timeout, quotas=quotas,
              agent_workers=args.agent_workers)
    except OSError as exc:
        raise UserError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    return 0


class _Discard(io.TextIOBase):
    """Where the output goes when the program was started with that stream closed (``>&-``)."""

    def write(self, text: str) -> int:
        return len(text)


def _with_notes(message: str, exc: BaseException) -> str:
    """``message`` and the notes added to ``exc`` on its way up (which agent of a match chose an illegal action,
    for one), which the one-line report would otherwise drop."""
    notes = [str(note)[:300] for note in getattr(exc, "__notes__", ()) or ()]
    return "; ".join([message, *notes])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script exits with it)."""
    # a stream closed when the program started is None: read a closed input as empty, drop closed output
    if sys.stdin is None:
        sys.stdin = io.StringIO()
    if sys.stdout is None:
        sys.stdout = _Discard()
    if sys.stderr is None:
        sys.stderr = _Discard()
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        # a terminal that cannot show a suit symbol gets a "?" rather than a UnicodeEncodeError, and typed
        # bytes that are not text (PYTHONIOENCODING=utf-8 reads strictly) a "�" rather than a UnicodeDecodeError
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            reconfigure(errors="replace")
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _unrecognized(parser, getattr(args, "command", None), unknown)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return USAGE_ERROR
    try:
        code = int(args.func(args))
        sys.stdout.flush()  # so that output that cannot be written is reported here, not at exit
        return code
    except UserError as exc:
        return _fail(str(exc))
    except VariantError as exc:
        for path, message in exc.problems:
            _fail(f"{path}: {message}" if path else message)
        return USAGE_ERROR
    except (UnknownVariant, SaveError, CardError, IllegalAction) as exc:
        return _fail(_with_notes(str(exc), exc))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `heartslib variants | head`): not an error worth a traceback
        sys.stderr.close()
        return 0
    except OSError as exc:  # the system failed us (a full disk, an output device error, no more processes)
        if os.environ.get("HEARTSLIB_TRACEBACK"):
            raise
        _fail(f"{exc.strerror or exc}" + (f": {_quote(str(exc.filename))}" if exc.filename else "")
              + " (an error reported by the operating system)")
        try:
            sys.stdout.flush()  # what was printed before the error, if it can be written
        except OSError:
            _drop_unwritten_output()
        return INTERNAL_ERROR
    except Exception as exc:  # the last resort: never a traceback (a bug, or a user's own agent)
        if os.environ.get("HEARTSLIB_TRACEBACK"):
            raise
        _fail(_with_notes(f"{type(exc).__name__}: {str(exc)[:500]}", exc))
        print("heartslib: this is a bug in heartslib or in the agent it ran; set HEARTSLIB_TRACEBACK=1 to see "
              "where it happened", file=sys.stderr)
        return INTERNAL_ERROR


def _unrecognized(parser: argparse.ArgumentParser, command: str | None, unknown: list[str]) -> NoReturn:
    """Refuse arguments the command does not take (exit status 2, as argparse does), with the command's own
    usage line and, for a misspelt option, the command's options closest to it (``--matches``: ``--games``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            parser = action.choices[command]
    close: list[str] = []
    for word in unknown:
        if not word.startswith("--"):
            continue
        # each option once, by its spelling closest to the word (--opponent and --opponents are one option)
        scored = [max((difflib.SequenceMatcher(None, word.split("=", 1)[0], o).ratio(), o) for o in longs)
                  for a in parser._actions if (longs := [o for o in a.option_strings if o.startswith("--")])]
        close += [o for ratio, o in sorted(scored, reverse=True)[:2] if ratio >= 0.6 and o not in close]
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    parser.error(f"unrecognized arguments: {' '.join(unknown)}{hint} ('{parser.prog} --help' lists the options)")


def _drop_unwritten_output() -> None:
    """Point standard output at the null device, so that the output that could not be written is not
    tried again (and reported again) when Python exits."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):  # not a real file (a test's StringIO)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def _fail(message: str) -> int:
    text = f"heartslib: error: {message}"
    if _isatty(sys.stderr):  # on a terminal, broken between words to its width
        text = "\n".join(wrap(text, _terminal_size()[0] - 1, "  "))
    print(text, file=sys.stderr)
    return USAGE_ERROR
