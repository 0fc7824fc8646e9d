"""Simulation at scale: many seeded matches between agents, summarised.

:func:`simulate` plays ``games`` matches and returns a frozen
:class:`SimulationStats`. Every game ``g`` is seeded from ``(seed, g)``
alone – the deal and each seat's agent – so the result is the same whether
the games run in this process or on any :class:`concurrent.futures.Executor`
(a process pool, a Dask cluster's ``client.get_executor()``, Ray), with any
number of workers and any chunking.

>>> import heartslib as hl
>>> from heartslib.simulate import simulate
>>> stats = simulate(hl.preset("standard"), ["heuristic", "random", "random", "random"], games=4, seed=1)
>>> stats.games, len(stats.seats), stats.seats[0].agent
(4, 4, 'heuristic')

Agents are given as *specs*, not instances, so they can be rebuilt in a
worker process and reseeded per game: a built-in name (``"random"``,
``"heuristic"``), ``"package.module:Factory"``, or any callable taking a
seed and returning an agent (an agent class such as
:class:`~heartslib.agents.HeuristicAgent` is one). With a process pool the
callable must be picklable: a class or a module-level function, not a lambda.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import inspect
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any, TypeAlias, TypeGuard, cast

import attrs

from heartslib.agents import AGENTS, Agent, BaseAgent, play_match
from heartslib.enums import Settlement
from heartslib.errors import IllegalAction, arg_text
from heartslib.points import MAX_SEED
from heartslib.variant import Variant, expect_variant

__all__ = [
    "CHUNK_GAMES",
    "IN_FLIGHT_PER_WORKER",
    "IN_FLIGHT_UNSIZED",
    "AgentSpec",
    "SeatStats",
    "SimulationInterrupted",
    "SimulationStats",
    "agent_name",
    "agent_seed",
    "default_chunk_size",
    "game_seed",
    "make_agent",
    "resolve_agents",
    "simulate",
    "wilson",
]

AgentSpec: TypeAlias = "str | Callable[[int], Agent] | Agent"
"""A built-in agent name, ``"module:attr"``, a callable ``seed -> agent``, or an agent instance (copied for
each game; the built-in agents' copies are reseeded per game and seat)."""

ProgressCallback: TypeAlias = Callable[[int, int], None]


# --------------------------------------------------------------------------- seeds and specs


def _mix(*parts: object) -> int:
    # a hash that is the same on every machine and Python version (hash() of str is not)
    text = ":".join(str(p) for p in ("heartslib", *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def game_seed(seed: int, game: int) -> int:
    """The match seed of game number ``game`` in a simulation seeded ``seed``.

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    return _mix("game", seed, game)


def agent_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the agent playing ``seat`` in game ``game``."""
    return _mix("agent", seed, game, seat)


def _factory(spec: object) -> Callable[[int], Agent]:
    if isinstance(spec, str):
        key = spec.strip().lower()
        if key in AGENTS:
            return AGENTS[key]
        if ":" in spec:
            module_name, _, attr = spec.strip().partition(":")
            if not module_name.strip() or not attr.strip():
                raise IllegalAction("bad_argument", f"agent {spec!r}: write 'package.module:Factory', a module and "
                                    "the class or function in it that makes an agent from a seed")
            try:
                target: Any = importlib.import_module(module_name)
                for part in attr.split("."):
                    target = getattr(target, part)
            except (ImportError, AttributeError) as exc:
                raise IllegalAction("bad_argument", f"cannot load agent {spec!r}: {exc}") from None
            if not callable(target):
                raise IllegalAction("bad_argument", f"agent {spec!r} is not a class or function taking a seed")
            return cast("Callable[[int], Agent]", target)
        raise IllegalAction(
            "bad_argument",
            f"unknown agent {spec!r}: use {', '.join(sorted(AGENTS))}, or 'package.module:Factory' for your own",
        )
    if isinstance(spec, type) and not _takes_an_argument(spec):
        return _Unseeded(spec)  # a class made without arguments (the docs' FirstLegal): the seed is not its
    if isinstance(spec, type) or (callable(spec) and not hasattr(spec, "act")):
        return cast("Callable[[int], Agent]", spec)
    if hasattr(spec, "act"):
        return _InstanceFactory(cast(Agent, spec))
    raise IllegalAction("bad_argument", f"{arg_text(spec)} is not an agent name, an agent or a factory taking a seed")


def _takes_an_argument(factory: type) -> bool:
    """Whether ``factory(seed)`` can be called: False for a class whose constructor takes no argument."""
    try:
        inspect.signature(factory).bind(0)
    except TypeError:
        return False
    except ValueError:  # no signature to read (a builtin): call it with the seed, as before
        return True
    return True


class _Unseeded:
    """An agent class made without arguments, as a factory that takes the game's seed and leaves it unused."""

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __call__(self, seed: int) -> Agent:
        return cast(Agent, self.cls())


class _InstanceFactory:
    """An agent instance used as a spec: each game gets a copy, so every game starts it in the same state
    whatever the executor or the chunking; a :class:`~heartslib.agents.BaseAgent` copy (the built-in agents)
    is also reseeded from its own seed and the game's agent seed, so seats and games differ."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def __call__(self, seed: int) -> Agent:
        agent = copy.deepcopy(self.agent)
        if isinstance(agent, BaseAgent):
            agent.seed = _mix("instance", agent.seed, seed)
        return agent


def make_agent(spec: AgentSpec, seed: int) -> Agent:
    """Build the agent ``spec`` names, with ``seed``.

    >>> make_agent("heuristic", 5)
    HeuristicAgent(seed=5)
    """
    return _factory(spec)(seed)


def agent_name(spec: AgentSpec) -> str:
    """A short display name for an agent spec (``"heuristic"``, ``"MyBot"``)."""
    if isinstance(spec, str):
        return spec.strip()
    name = getattr(spec, "name", None)
    if isinstance(name, str) and isinstance(spec, type) and spec in AGENTS.values():
        return name
    named = getattr(spec, "__name__", None) or getattr(getattr(spec, "func", None), "__name__", None)
    if named:
        return str(named)
    if type(spec).__repr__ is object.__repr__:
        return type(spec).__name__  # an instance without a repr of its own: its class, not "<... at 0x7f...>"
    return str(spec)


def resolve_agents(agents: AgentSpec | Sequence[AgentSpec], players: int) -> tuple[AgentSpec, ...]:
    """One spec per seat: a single spec plays every seat; a sequence must have one per seat.

    Raises :class:`~heartslib.IllegalAction` (``bad_argument``) for an unknown name, a wrong number of
    specs (an empty sequence included) and a value that is no agent spec at all.
    """
    if isinstance(agents, str) or callable(agents) or hasattr(agents, "act"):
        specs = cast("tuple[AgentSpec, ...]", (agents,) * players)
    else:
        try:
            specs = tuple(agents)
        except TypeError:
            raise IllegalAction("bad_argument", f"agents must be a spec or a sequence of specs (one per seat), "
                                f"not {arg_text(agents)}") from None
        if len(specs) != players:
            raise IllegalAction("bad_argument", f"{players} players need {players} agents (one per seat), "
                                f"got {len(specs)}")
    for spec in specs:
        _factory(spec)  # fail now, not in a worker
    return specs


# --------------------------------------------------------------------------- running games


def _parts(score: Any) -> tuple[int, int]:
    """A score as whole-number (real, imaginary) parts; only complex hearts has imaginary ones."""
    if isinstance(score, complex):
        return int(score.real), int(score.imag)
    return int(score), 0


@attrs.frozen
class _Tally:
    """Exact integer sums over some games: adding tallies in any order or grouping gives the same sums."""

    games: int
    rounds: int
    points: tuple[tuple[int, int], ...]  # per seat: sum of round points, (real, imaginary)
    squares: tuple[int, ...]  # per seat: sum of |round points|^2
    wins: tuple[int, ...]
    moons: tuple[int, ...]
    suns: tuple[int, ...]
    totals: tuple[tuple[int, int], ...]  # per seat: sum of final match totals
    counters: tuple[int, ...]  # per seat: sum of final net counters (Match.counters; an auction's chips won)

    @classmethod
    def empty(cls, n: int) -> _Tally:
        zero = (0,) * n
        pairs = ((0, 0),) * n
        return cls(0, 0, pairs, zero, zero, zero, zero, pairs, zero)

    def __add__(self, other: _Tally) -> _Tally:
        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        def add2(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
            return tuple((x[0] + y[0], x[1] + y[1]) for x, y in zip(a, b, strict=True))

        return _Tally(self.games + other.games, self.rounds + other.rounds, add2(self.points, other.points),
                      add(self.squares, other.squares), add(self.wins, other.wins), add(self.moons, other.moons),
                      add(self.suns, other.suns), add2(self.totals, other.totals), add(self.counters, other.counters))


def _play_game(variant: Variant, specs: tuple[AgentSpec, ...], seed: int, game: int) -> _Tally:
    agents = [make_agent(spec, agent_seed(seed, game, seat)) for seat, spec in enumerate(specs)]
    match = play_match(variant, agents, game_seed(seed, game))
    n = variant.players
    re, im, squares, moons, suns = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    for result in match.rounds:
        for seat, p in enumerate(result.points):
            a, b = _parts(p)
            re[seat] += a
            im[seat] += b
            squares[seat] += a * a + b * b
        outcome = result.outcome
        if outcome.shooter is not None:
            (suns if outcome.kind == "sun" else moons)[outcome.shooter] += 1
    winners = set(match.winners)
    return _Tally(1, len(match.rounds), tuple(zip(re, im, strict=True)), tuple(squares),
                  tuple(int(s in winners) for s in range(n)), tuple(moons), tuple(suns),
                  tuple(_parts(t) for t in match.scores), match.counters or (0,) * n)


@attrs.frozen
class _Task:
    """What one executor task is asked to run: the simulation's seed, its variant (a digest of the variant's
    data), its agents (each spec's name and type) and the games ``start`` to ``stop - 1``. A task's result
    carries the task it ran, so that the parent can tell a task an executor altered, or another simulation's
    result for the same games, from its own."""

    seed: int
    variant: str
    agents: tuple[str, ...]
    start: int
    stop: int

    def differences(self, other: _Task) -> list[str]:
        """What ``other`` was asked that this task was not (empty when they are the same task)."""
        return [f"{name} {_asked_text(getattr(other, name))} (not {_asked_text(getattr(self, name))})"
                for name in ("seed", "variant", "agents") if getattr(self, name) != getattr(other, name)]


def _asked_text(value: object) -> str:
    return ", ".join(value) if isinstance(value, tuple) else str(value)


def _variant_digest(variant: Variant) -> str:
    """A short digest of a variant's data (its name and every field), the same in every process."""
    text = json.dumps(variant.to_dict(), sort_keys=True, default=repr)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _agent_marks(specs: Sequence[AgentSpec]) -> tuple[str, ...]:
    """Each spec's display name and type: what a task's result says it played with."""
    return tuple(f"{agent_name(spec)} ({type(spec).__qualname__})" for spec in specs)


def _task(variant: Variant, specs: Sequence[AgentSpec], seed: int, start: int, stop: int) -> _Task:
    return _Task(seed, _variant_digest(variant), _agent_marks(specs), start, stop)


@attrs.frozen
class _Chunk:
    """What one executor task returns: the task it ran (:class:`_Task`) and the tally of its games, so that
    the parent can check that each future holds the result of its own task, as it was asked."""

    task: _Task
    tally: _Tally


def _run_chunk(variant_data: dict[str, Any], specs: tuple[AgentSpec, ...], seed: int, start: int, stop: int
               ) -> _Chunk:
    """Games ``start`` to ``stop - 1`` (what one executor task runs).

    The variant travels as plain data and is rebuilt here: every executor's
    serializer (pickle, cloudpickle, Ray's) handles dicts of strings and
    numbers, and the task stays small.
    """
    variant = Variant.from_dict(variant_data)
    tally = _Tally.empty(variant.players)
    for game in range(start, stop):
        tally = tally + _play_game(variant, specs, seed, game)
    return _Chunk(_task(variant, specs, seed, start, stop), tally)


def _checked(result: object, asked: _Task, players: int) -> _Tally:
    """The tally of a finished task that was ``asked`` to run, or :class:`~heartslib.IllegalAction`
    (``bad_argument``: the executor is at fault) when the future holds anything else: not a task's result, the
    result of other games, or of a task run with another seed, variant or agents than it was given."""
    start, stop = asked.start, asked.stop
    if not isinstance(result, _Chunk) or not isinstance(result.tally, _Tally) or not isinstance(result.task, _Task):
        raise IllegalAction("bad_argument", f"the executor's future for games {start}-{stop - 1} holds "
                            f"{arg_text(result)}, not the task's result: an executor must run the function it "
                            "is given and return its value in the future")
    ran, tally = result.task, result.tally
    if (ran.start, ran.stop) != (start, stop) or tally.games != stop - start or len(tally.wins) != players:
        raise IllegalAction("bad_argument", f"the executor's future for games {start}-{stop - 1} holds the "
                            f"result of games {ran.start}-{ran.stop - 1} ({tally.games} played): an "
                            "executor must return a new future for every task it is given")
    changed = asked.differences(ran)
    if changed:
        raise IllegalAction("bad_argument", f"the executor's future for games {start}-{stop - 1} holds the "
                            f"result of a task run with {'; '.join(changed)}: an executor must run each task with "
                            "the arguments it is given (this result is another simulation's, or its task was "
                            "altered)")
    return tally


# --------------------------------------------------------------------------- statistics


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    >>> low, high = wilson(60, 100)
    >>> round(low, 3), round(high, 3)
    (0.502, 0.691)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # the exact bounds at 0 and at every success (floating point would miss them by an ulp)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def _text(x: float | complex, digits: int) -> str:
    if isinstance(x, complex):
        return f"{x.real:.{digits}f}{x.imag:+.{digits}f}i"
    return f"{x:.{digits}f}"


def _plain(x: Any) -> Any:
    """A complex mean as exact-looking text, each part the shortest that reads back as the same float
    (``"-33+4.4i"``, ``"-55.4+49.6i"``); anything else as it is.

    >>> _plain(complex(-33, 4.4)), _plain(complex(-55.4, -49.6)), _plain(complex(2, 0)), _plain(1.5)
    ('-33+4.4i', '-55.4-49.6i', '2+0i', 1.5)
    """
    if not isinstance(x, complex):
        return x

    def short(part: float) -> str:
        text = repr(part)
        return text[:-2] if text.endswith(".0") else text

    return f"{short(x.real)}{'-' if x.imag < 0 else '+'}{short(abs(x.imag))}i"


@attrs.frozen
class SeatStats:
    """One seat's results over a simulation.

    ``mean``/``std``: points per round (sample standard deviation; for
    complex hearts the mean is complex and the deviation is of the
    complex values);
    ``wins``: games in which the seat had the lowest total (a tie counts as
    a win for every tied seat, as the rules share the win); ``win_low`` and
    ``win_high``: the 95% Wilson interval of ``win_rate``; ``moons`` and
    ``suns``: rounds in which this seat shot the moon or the sun;
    ``mean_total``: its average final match total. Where hands are also
    settled through a pool (``scoring.settlement``): ``mean_counters``, its
    average net counters at the end of a match (Foster's settlement), and in
    an auction ``mean_chips``, its average final chips (the starting chips
    plus the net counters); None where the variant settles nothing.
    """

    seat: int
    agent: str
    mean: float | complex
    std: float
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    moons: int
    suns: int
    mean_total: float | complex
    mean_counters: float | None = None
    mean_chips: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain data (a complex mean as text such as ``"1.5+3.25i"``)."""
        return {k: _plain(v) for k, v in attrs.asdict(self).items()}


@attrs.frozen
class SimulationStats:
    """What :func:`simulate` measured. Values compare equal whatever executor ran them.

    ``rounds_per_match``: mean rounds per game; ``moon_rate``/``sun_rate``:
    share of rounds in which someone shot the moon/sun. ``seconds`` and
    ``games_per_second`` are timings and are left out of comparisons.
    """

    variant: str
    games: int
    seed: int
    rounds: int
    rounds_per_match: float
    moon_rate: float
    sun_rate: float
    seats: tuple[SeatStats, ...]
    seconds: float = attrs.field(eq=False)
    games_per_second: float = attrs.field(eq=False)
    better: str = "lower"
    """Which totals win: ``"lower"``, ``"higher"`` (Gong Zhu), ``"closer to zero"`` (complex hearts) or ``"chips"``
    (Auction Hearts: the most chips win; the points are the named suit's cards taken)."""
    wins_by: str = "seat"
    """How a match's winners are counted: ``"seat"`` (each seat on its total; a tie is a win for each tied
    seat), ``"chips"`` (an auction), ``"team"`` (partnerships: a seat wins with its team) or ``"lives"`` (only the
    players with the most lives left can win)."""

    def to_dict(self) -> dict[str, Any]:
        """The statistics as plain data (what ``heartslib simulate --json`` prints).

        >>> import json, heartslib as hl
        >>> data = simulate(hl.preset("standard"), "random", games=1).to_dict()
        >>> sorted(data["seats"][0])[:4], json.loads(json.dumps(data)) == data
        (['agent', 'mean', 'mean_chips', 'mean_counters'], True)
        """
        out = attrs.asdict(self, recurse=False)
        out["seats"] = [s.to_dict() for s in self.seats]
        return out

    def table(self) -> str:
        """A readable results table: a heading line, a row per seat, and what the figures mean.

        A column widens for a wide entry, so large scores (Gong Zhu's hundreds) stay aligned.

        >>> stats = SimulationStats(variant="standard", games=1, seed=0, rounds=1, rounds_per_match=1.0,
        ...     moon_rate=0.0, sun_rate=0.0, seconds=40.0, games_per_second=0.025, seats=(
        ...     SeatStats(seat=0, agent="search", mean=-1.5, std=123.45, wins=1, win_rate=1.0, win_low=0.2,
        ...               win_high=1.0, moons=0, suns=0, mean_total=-1.5),))
        >>> print(stats.table())
        standard: 1 game, 1 round (1.0 a match), seed 0, 40.0 s (40.0 s a game)
        <BLANKLINE>
        seat  agent   points/round     std   win rate  (95% interval)   moons  final total
           0  search         -1.50  123.45     100.0%  (20.0%-100.0%)       0         -1.5
        <BLANKLINE>
        moon shot in 0.00% of rounds, sun in 0.00%; lower points are better; ...
        """
        head = (f"{self.variant}: {_count(self.games, 'game')}, {_count(self.rounds, 'round')} "
                f"({self.rounds_per_match:.1f} a match), seed {self.seed}, {self.seconds:.1f} s ({self._speed()})")
        # (title, cells, alignment, least width): the least widths keep the usual layout; a wider cell widens its
        # column, so large scores (Gong Zhu's hundreds) stay aligned
        columns: list[tuple[str, list[str], str, int]] = [
            ("seat", [str(s.seat) for s in self.seats], ">", 4),
            ("agent", [s.agent for s in self.seats], "<", 5),
            ("points/round", [_text(s.mean, 2) for s in self.seats], ">", 12),
            ("std", [f"{s.std:.2f}" for s in self.seats], ">", 5),
            ("win rate", [f"{100 * s.win_rate:.1f}%" for s in self.seats], ">", 9),
            ("(95% interval)", [f"({100 * s.win_low:4.1f}%-{100 * s.win_high:5.1f}%)" for s in self.seats], ">", 14),
            ("moons", [str(s.moons) for s in self.seats], ">", 6),
            ("final total", [_text(s.mean_total, 1) for s in self.seats], ">", 11),
        ]
        # a settlement's column: an auction's chips (what decides it), else the counters a seat won or lost
        if any(s.mean_chips is not None for s in self.seats):
            columns.append(("final chips", [f"{s.mean_chips or 0.0:.1f}" for s in self.seats], ">", 11))
        elif any(s.mean_counters is not None for s in self.seats):
            columns.append(("counters", [f"{s.mean_counters or 0.0:+.1f}" for s in self.seats], ">", 8))
        widths = [max([least, len(title), *map(len, cells)]) for title, cells, _, least in columns]
        rows = [[title for title, *_ in columns], *zip(*(cells for _, cells, _, _ in columns), strict=True)]
        lines = [head, ""]
        for row in rows:
            lines.append("  ".join(f"{cell:{align}{width}}" for cell, width, (_, _, align, _)
                                   in zip(row, widths, columns, strict=True)).rstrip())
        lines += ["", f"moon shot in {100 * self.moon_rate:.2f}% of rounds, sun in {100 * self.sun_rate:.2f}%; "
                      f"{_GOAL.get(self.better, self.better)}; {_TIES.get(self.wins_by, _TIES['seat'])}"]
        return "\n".join(lines)

    def _speed(self) -> str:
        """The speed, readable however slow: games a second, or seconds a game below one game a second."""
        rate = self.games_per_second
        if rate >= 10:
            return f"{rate:,.0f} games/s"
        if rate >= 1:
            return f"{rate:.1f} games/s"
        if rate > 0:
            return f"{1 / rate:,.1f} s a game"
        return "too fast to time"

    __str__ = table


def _count(n: int, noun: str) -> str:
    """``"1 game"``, ``"1,000 games"``."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _mean(total: tuple[int, int], count: int) -> float | complex:
    if not count:
        return 0.0
    return complex(total[0] / count, total[1] / count) if total[1] else total[0] / count


def _stats(variant: Variant, specs: tuple[AgentSpec, ...], seed: int, tally: _Tally, seconds: float
           ) -> SimulationStats:
    seats = []
    rounds, games = tally.rounds, tally.games
    settles = variant.scoring.settlement != Settlement.NONE
    auction = variant.scoring.settlement == Settlement.AUCTION
    for seat, spec in enumerate(specs):
        (s_re, s_im), ss = tally.points[seat], tally.squares[seat]
        # from exact integer sums, so the figure cannot depend on the order games were added
        var = (ss - (s_re * s_re + s_im * s_im) / rounds) / (rounds - 1) if rounds > 1 else 0.0
        low, high = wilson(tally.wins[seat], games)
        seats.append(SeatStats(
            seat=seat, agent=agent_name(spec), mean=_mean(tally.points[seat], rounds),
            std=math.sqrt(max(var, 0.0)), wins=tally.wins[seat],
            win_rate=tally.wins[seat] / games if games else 0.0, win_low=low, win_high=high,
            moons=tally.moons[seat], suns=tally.suns[seat], mean_total=_mean(tally.totals[seat], games),
            mean_counters=tally.counters[seat] / games if settles and games else None,
            mean_chips=(variant.scoring.chips * games + tally.counters[seat]) / games if auction and games else None,
        ))
    return SimulationStats(
        variant=variant.name, games=games, seed=seed, rounds=rounds,
        rounds_per_match=rounds / games if games else 0.0,
        moon_rate=sum(tally.moons) / rounds if rounds else 0.0,
        sun_rate=sum(tally.suns) / rounds if rounds else 0.0,
        seats=tuple(seats), seconds=seconds, games_per_second=games / seconds if seconds > 0 else 0.0,
        better=_better(variant),
        wins_by=_wins_by(variant),
    )


#: How a win is counted, by :attr:`SimulationStats.wins_by` (the table's last line).
_TIES = {"seat": "a tie for the best total counts as a win for each tied seat",
         "chips": "a tie for the most chips counts as a win for each tied seat",
         "team": "a seat wins when its team does (every seat not on the losing team, as the rules judge it)",
         "lives": "only the players with the most lives left can win; a tie among them counts as a win for each"}

_GOAL = {"lower": "lower points are better", "higher": "higher points are better",
         "closer to zero": "points closer to zero are better",
         "chips": "the most chips win (points are the named suit's cards taken)"}


def _wins_by(variant: Variant) -> str:
    if variant.scoring.settlement == Settlement.AUCTION:
        return "chips"
    if variant.teams:
        return "team"
    return "lives" if variant.end.lives else "seat"


def _better(variant: Variant) -> str:
    end = variant.end
    if variant.scoring.settlement == Settlement.AUCTION:
        return "chips"
    if str(getattr(end, "measure", "score")) == "magnitude":
        return "closer to zero"
    return "higher" if str(getattr(end, "winner", "lowest")) == "highest" else "lower"


#: Games per task when an executor does not say how many workers it has (Dask's, Ray's): a task of a few
#: seconds, and enough tasks for any number of workers.
CHUNK_GAMES = 200
#: Tasks :func:`simulate` keeps submitted and unfinished at a time, per worker of an executor that reports its
#: worker count: enough that no worker waits for the next task, few enough that memory stays flat however
#: many games are asked for (tasks are submitted as earlier ones finish, not all at once).
IN_FLIGHT_PER_WORKER = 3
#: Tasks in flight at a time on an executor that does not report its worker count (a cluster's).
IN_FLIGHT_UNSIZED = 256


def _workers(executor: Executor) -> int | None:
    """The worker count an executor reports (``concurrent.futures`` pools do), or None."""
    workers = getattr(executor, "_max_workers", None)
    return workers if isinstance(workers, int) and not isinstance(workers, bool) and workers > 0 else None


def default_chunk_size(executor: Executor, games: int) -> int:
    """Games per task for ``executor``: about four tasks per worker when it reports its worker count
    (``concurrent.futures`` pools), at most :data:`CHUNK_GAMES`; otherwise :data:`CHUNK_GAMES`, so a
    cluster of any size gets work for all its workers.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as pool:
    ...     default_chunk_size(pool, 100), default_chunk_size(pool, 1_000_000)
    (13, 200)
    """
    workers = _workers(executor)
    if workers is not None:
        return max(1, min(CHUNK_GAMES, math.ceil(games / (4 * workers))))
    return CHUNK_GAMES


def _in_flight(executor: Executor) -> int:
    """How many tasks :func:`simulate` keeps submitted and unfinished on ``executor`` at a time."""
    workers = _workers(executor)
    return IN_FLIGHT_UNSIZED if workers is None else IN_FLIGHT_PER_WORKER * workers


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C (a :class:`KeyboardInterrupt`) during :func:`simulate`, with the statistics of the games that
    had finished: ``stats`` (its ``games`` says how many) and ``requested``, the games asked for.

    It is a :class:`KeyboardInterrupt`, so a program that does not look for it stops as before;
    ``heartslib simulate`` prints ``stats`` and exits with status 130.
    """

    def __init__(self, stats: SimulationStats, requested: int) -> None:
        super().__init__(f"interrupted after {stats.games} of {requested} games")
        self.stats = stats
        self.requested = requested

    def __reduce__(self) -> tuple[type[SimulationInterrupted], tuple[SimulationStats, int]]:
        # pickle and copy rebuild it from its own arguments (the default passes only the message to __init__)
        return (type(self), (self.stats, self.requested))


def _check_arguments(executor: object, progress: object, games: object, seed: object, chunk_size: object) -> None:
    """Raise :class:`~heartslib.IllegalAction` (``bad_argument``) for an argument of :func:`simulate` that is
    not allowed, naming it and what is allowed."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise IllegalAction("bad_argument", f"executor must be a concurrent.futures.Executor (or None), "
                            f"not {arg_text(executor)}")
    if progress is not None and not callable(progress):
        raise IllegalAction("bad_argument", f"progress must be a function progress(done, total) (or None), "
                            f"not {arg_text(progress)}")
    if not _whole(games) or games < 0:
        raise IllegalAction("bad_argument", f"games must be a whole number >= 0, not {arg_text(games)}")
    # the documented bounds of every seed (heartslib.points.MAX_SEED), as Match and the command line use
    if not _whole(seed) or not 0 <= seed <= MAX_SEED:
        raise IllegalAction("bad_argument", f"seed must be a whole number from 0 to 2**64 - 1, not {arg_text(seed)}")
    if chunk_size is not None and (not _whole(chunk_size) or chunk_size < 1):
        raise IllegalAction("bad_argument", f"chunk_size must be a whole number >= 1 (or None), "
                            f"not {arg_text(chunk_size)}")


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def simulate(
    variant: Variant,
    agents: AgentSpec | Sequence[AgentSpec],
    games: int = 1000,
    seed: int = 0,
    executor: Executor | None = None,
    *,
    chunk_size: int | None = None,
    progress: ProgressCallback | None = None,
) -> SimulationStats:
    """Play ``games`` seeded matches of ``variant`` between ``agents`` and summarise them.

    ``agents``: one spec per seat, or a single spec for every seat (see the
    module docs). ``executor``: None runs in this process; any
    :class:`concurrent.futures.Executor` runs chunks of ``chunk_size`` games
    as tasks (default: :func:`default_chunk_size`, about four per worker and
    at most :data:`CHUNK_GAMES` games), a few per worker at a time
    (:data:`IN_FLIGHT_PER_WORKER`), their results added up as they finish, so
    memory stays flat for any number of games. Game ``g`` is seeded
    from ``(seed, g)`` only, so the statistics are identical for every
    executor, worker count and chunk size. ``progress(done, total)`` is
    called as games finish.

    Bad arguments raise :class:`~heartslib.IllegalAction` (``bad_argument``), as does an executor whose
    futures do not hold their own task's result. Ctrl-C raises :class:`SimulationInterrupted` (a
    :class:`KeyboardInterrupt`) with the statistics of the games already finished.

    >>> import heartslib as hl
    >>> a = simulate(hl.preset("standard"), "random", games=3, seed=2)
    >>> a == simulate(hl.preset("standard"), "random", games=3, seed=2, chunk_size=1)
    True
    """
    expect_variant(variant)
    _check_arguments(executor, progress, games, seed, chunk_size)
    specs = resolve_agents(agents, variant.players)
    started = time.perf_counter()
    tally = _Tally.empty(variant.players)
    try:
        if executor is None:
            for game in range(games):
                tally = tally + _play_game(variant, specs, seed, game)
                if progress is not None:
                    progress(game + 1, games)
        else:
            size = chunk_size or default_chunk_size(executor, games)
            for part in _run_on(executor, variant, specs, seed, games, size):
                tally = tally + part
                if progress is not None:
                    progress(tally.games, games)
    except KeyboardInterrupt:
        # keep what is done: the caller (the command line) can still report the games that finished
        stats = _stats(variant, specs, seed, tally, time.perf_counter() - started)
        raise SimulationInterrupted(stats, games) from None
    result = _stats(variant, specs, seed, tally, time.perf_counter() - started)
    if result.games != games:  # pragma: no cover - every task's result is checked; a last guard all the same
        raise IllegalAction("bad_argument", f"the executor ran {result.games} of {games} games")
    return result


#: How often (seconds) :func:`simulate` looks for a task its executor cancelled while it waits for results.
_CANCEL_POLL_SECONDS = 0.5


def _refuse_cancelled(pending: dict[Future[Any], _Task]) -> None:
    """:class:`~heartslib.IllegalAction` (``bad_argument``) for a task the executor cancelled: its games would
    never be played, and a future cancelled before it ran is never done for ``wait``."""
    for future, task in pending.items():
        if future.cancelled():
            raise IllegalAction("bad_argument", f"the executor cancelled the task for games {task.start}-"
                                f"{task.stop - 1}: its games were not played (an executor shut down, or one "
                                "that cancels tasks?); run simulate on an executor that runs every task")


def _run_on(executor: Executor, variant: Variant, specs: tuple[AgentSpec, ...], seed: int, games: int,
            chunk_size: int) -> Iterator[_Tally]:
    """The tallies of the tasks of ``chunk_size`` games, as they finish, with at most :func:`_in_flight` tasks
    submitted and unfinished at a time; unfinished tasks are cancelled when the caller stops (an error, Ctrl-C).

    On Ctrl-C, tasks that had finished but were not yet collected are yielded first, so no finished game is
    lost; then the :class:`KeyboardInterrupt` goes on.
    """
    data = variant.to_dict()
    players = variant.players
    digest, marks = _variant_digest(variant), _agent_marks(specs)
    limit = _in_flight(executor)
    starts = iter(range(0, games, chunk_size))
    pending: dict[Future[Any], _Task] = {}
    try:
        while True:
            for start in starts:
                stop = min(games, start + chunk_size)
                future: object = executor.submit(_run_chunk, data, specs, seed, start, stop)
                if not isinstance(future, Future):
                    raise IllegalAction("bad_argument", f"the executor's submit returned {arg_text(future)}, not "
                                        "a concurrent.futures.Future")
                if future in pending:
                    raise IllegalAction("bad_argument", "the executor's submit returned the same future for two "
                                        "tasks: an executor must return a new future for every task")
                pending[future] = _Task(seed, digest, marks, start, stop)
                if len(pending) >= limit:
                    break
            if not pending:
                return
            try:
                # a future cancelled before it ran never counts as done for wait(): look again now and then
                finished, _ = wait(pending, timeout=_CANCEL_POLL_SECONDS, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:
                # the games of tasks that finished meanwhile count too
                for future in [f for f in pending if f.done() and not f.cancelled() and f.exception() is None]:
                    yield _checked(future.result(), pending.pop(future), players)
                raise
            _refuse_cancelled(pending)
            # any order: the tally's sums are exact integers, so the statistics do not depend on it
            for future in finished:
                yield _checked(future.result(), pending.pop(future), players)
    finally:
        for future in pending:
            future.cancel()
