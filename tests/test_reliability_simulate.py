"""Issue 35, items 6 and 7 and the packaging points: simulate checks what its executor returns, keeps a bounded
number of tasks in flight, reports the finished games on Ctrl-C; one seed rule for the command line; the adapter
examples' exit status without their extras; the licence and the package metadata."""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import heartslib as hl
from heartslib import cli
from heartslib.simulate import (
    IN_FLIGHT_PER_WORKER,
    IN_FLIGHT_UNSIZED,
    SimulationInterrupted,
    simulate,
)

# the module (heartslib.simulate, as an attribute of the package, is the function)
simulate_module = importlib.import_module("heartslib.simulate")
ROOT = Path(__file__).resolve().parent.parent
STD = hl.preset("standard")
TABLE = ["heuristic", "random", "random", "random"]


# --------------------------------------------------------------------------- item 6: an executor is checked


class _Inline(Executor):
    """Runs each task at once, in this thread."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class _OneFutureForAll(_Inline):
    """Hands out the first task's future again for every later task (a cache keyed on the function)."""

    def __init__(self) -> None:
        self.first: Future[Any] | None = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.first is None:
            self.first = super().submit(fn, *args, **kwargs)
        return self.first


class _StaleResults(_Inline):
    """A new future for every task, but holding the first task's result."""

    def __init__(self) -> None:
        self.result: object = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.result is None:
            self.result = fn(*args, **kwargs)
        future: Future[Any] = Future()
        future.set_result(self.result)
        return future


class _Holding(_Inline):
    """Futures that hold ``value`` instead of the task's result."""

    def __init__(self, value: object) -> None:
        self.value = value

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(self.value)
        return future


class _NotAFuture(_Inline):
    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)


def test_an_executor_that_returns_one_future_for_several_tasks_is_refused() -> None:
    # the statistics covered 3 of 10 games, with no error
    with pytest.raises(hl.IllegalAction, match="same future for two tasks") as info:
        simulate(STD, "random", games=10, seed=1, executor=_OneFutureForAll(), chunk_size=3)
    assert info.value.code == "bad_argument"


def test_an_executor_whose_futures_hold_another_tasks_result_is_refused() -> None:
    with pytest.raises(hl.IllegalAction, match="holds the result of games 0-2") as info:
        simulate(STD, "random", games=10, seed=1, executor=_StaleResults(), chunk_size=3)
    assert info.value.code == "bad_argument"


@pytest.mark.parametrize("value", [None, 3, "tally", object()])
def test_a_future_holding_a_wrong_object_is_refused_not_an_attribute_error(value: object) -> None:
    # an internal AttributeError ('NoneType' object has no attribute 'games') before
    with pytest.raises(hl.IllegalAction, match="not the task's result") as info:
        simulate(STD, "random", games=4, seed=1, executor=_Holding(value), chunk_size=2)
    assert info.value.code == "bad_argument"


def test_a_submit_that_returns_no_future_is_refused() -> None:
    with pytest.raises(hl.IllegalAction, match=r"not a concurrent\.futures\.Future"):
        simulate(STD, "random", games=2, seed=1, executor=_NotAFuture())


def test_an_honest_executor_gives_the_statistics_of_this_process() -> None:
    assert simulate(STD, TABLE, games=7, seed=3, executor=_Inline(), chunk_size=2) == simulate(
        STD, TABLE, games=7, seed=3)


# --------------------------------------------------------------------------- item 7: bounded tasks in flight


class _Counting(Executor):
    """A thread pool that records the most tasks submitted and not yet finished at any time; ``sized=False``
    hides its worker count, as Dask's and Ray's executors do."""

    def __init__(self, workers: int, *, sized: bool = True) -> None:
        self.pool = ThreadPoolExecutor(workers)
        if sized:
            self._max_workers = workers
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most = 0
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self.lock:
            self.in_flight += 1
            self.submitted += 1
            self.most = max(self.most, self.in_flight)

        def task() -> Any:
            try:
                return fn(*args, **kwargs)
            finally:  # before the future is done, so simulate cannot see it finished while it is counted
                with self.lock:
                    self.in_flight -= 1

        return self.pool.submit(task)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.pool.shutdown(wait, cancel_futures=cancel_futures)


def _cheap_chunk(variant_data: dict[str, Any], specs: Any, seed: int, start: int, stop: int) -> Any:
    """A task that plays no game but returns a well-formed result, so that many tasks run quickly."""
    tally = simulate_module._Tally.empty(4)
    tally = simulate_module._Tally(stop - start, stop - start, tally.points, tally.squares, tally.wins,
                                   tally.moons, tally.suns, tally.totals, tally.counters)
    # the task it was asked, as _run_chunk reports it (these tests play the standard game)
    asked = simulate_module._Task(seed, _STD_DIGEST, simulate_module._agent_marks(specs), start, stop)
    return simulate_module._Chunk(asked, tally)


_STD_DIGEST = simulate_module._variant_digest(STD)


def test_simulate_keeps_a_few_tasks_per_worker_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    # every chunk was submitted up front: `--games 10**30 --workers 2` grew 40 MB a second
    monkeypatch.setattr(simulate_module, "_run_chunk", _cheap_chunk)
    with _Counting(2) as pool:
        stats = simulate(STD, "random", games=5000, seed=1, executor=pool, chunk_size=1)
    assert stats.games == 5000 and pool.submitted == 5000
    assert 2 <= pool.most <= IN_FLIGHT_PER_WORKER * 2


def test_an_executor_without_a_worker_count_gets_a_bounded_number_of_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "_run_chunk", _cheap_chunk)
    with _Counting(4, sized=False) as pool:
        stats = simulate(STD, "random", games=IN_FLIGHT_UNSIZED * 3, seed=1, executor=pool, chunk_size=1)
    assert stats.games == IN_FLIGHT_UNSIZED * 3 and pool.submitted == IN_FLIGHT_UNSIZED * 3
    assert pool.most <= IN_FLIGHT_UNSIZED


def test_the_statistics_are_the_same_on_any_executor_with_streaming() -> None:
    base = simulate(STD, TABLE, games=9, seed=4)
    with _Counting(2) as pool:
        assert simulate(STD, TABLE, games=9, seed=4, executor=pool, chunk_size=1) == base
    with _Counting(3, sized=False) as pool:
        assert simulate(STD, TABLE, games=9, seed=4, executor=pool, chunk_size=2) == base


# --------------------------------------------------------------------------- item 7: Ctrl-C keeps what is done


def _interrupt_after(games: int) -> Callable[[int, int], None]:
    def progress(done: int, total: int) -> None:
        if done >= games:
            raise KeyboardInterrupt

    return progress


def test_ctrl_c_in_this_process_reports_the_finished_games() -> None:
    with pytest.raises(SimulationInterrupted) as info:
        simulate(STD, TABLE, games=100, seed=2, progress=_interrupt_after(3))
    assert isinstance(info.value, KeyboardInterrupt)
    assert info.value.requested == 100
    assert info.value.stats == simulate(STD, TABLE, games=3, seed=2)


def test_ctrl_c_with_an_executor_reports_the_finished_games_and_cancels_the_rest() -> None:
    with _Counting(2) as pool, pytest.raises(SimulationInterrupted) as info:
        simulate(STD, "random", games=10**30, seed=2, executor=pool, chunk_size=1, progress=_interrupt_after(4))
    assert 4 <= info.value.stats.games <= 4 + IN_FLIGHT_PER_WORKER * 2
    assert pool.submitted <= info.value.stats.games + IN_FLIGHT_PER_WORKER * 2


def _ctrl_c_after(games: int, monkeypatch: pytest.MonkeyPatch, *options: str) -> tuple[int, str, str]:
    """``heartslib simulate --games 50`` interrupted once ``games`` of them finished: its status, stdout, stderr."""
    partial = simulate(STD, TABLE, games=games, seed=0)

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise SimulationInterrupted(partial, 50)

    monkeypatch.setattr(cli, "simulate", interrupted)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    code = cli.main(["simulate", "--games", "50", "--no-progress", *options])
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_prints_the_finished_games_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _ctrl_c_after(2, monkeypatch, "--json")
    assert code == 130
    assert json.loads(out)["games"] == 2
    assert "interrupted: the statistics cover the 2 of 50 games that finished" in err


def test_ctrl_c_before_any_game_finished_prints_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # a table of zeros ("0 games ... too fast to time") read as results
    code, out, err = _ctrl_c_after(0, monkeypatch)
    assert code == 130
    assert out == ""
    assert "interrupted before any of the 50 games finished: no statistics" in err


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_ctrl_c_with_workers_stops_at_once_and_reports(tmp_path: Path) -> None:
    # it took 7-25 s and threw the finished games away; the workers ignore Ctrl-C and the parent ends them
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    process = subprocess.Popen(
        [sys.executable, "-m", "heartslib", "simulate", "--games", str(10**30), "--workers", "2", "--json",
         "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=tmp_path, env=env)
    time.sleep(3)
    started = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this test is for
        os.killpg(process.pid, signal.SIGKILL)
        raise
    took = time.monotonic() - started
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted: the statistics cover the" in err
    assert json.loads(out)["games"] >= 0
    assert took < 10, f"took {took:.1f} s to stop"  # about 0.1 s; generous for a loaded machine


# --------------------------------------------------------------------------- one seed rule


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("seed", ["-1", str(2**64), "-" + "9" * 4000])
@pytest.mark.parametrize("command", ["simulate", "play"])
def test_play_and_simulate_refuse_the_same_seeds(command: str, seed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # `play --seed -1` was refused while `simulate --seed -1` ran
    code, _, err = _run([command, "--seed", seed, "--games" if command == "simulate" else "--seat", "1"],
                        monkeypatch)
    assert code == 2 and "--seed must be a whole number from 0 to 2**64 - 1" in err
    assert len(err) < 400


def test_the_largest_seed_runs_in_both_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _run(["simulate", "--seed", str(2**64 - 1), "--games", "1", "--json"], monkeypatch)
    assert code == 0, err
    assert json.loads(out)["seed"] == 2**64 - 1
    code, out, _ = _run(["play", "--seed", str(2**64 - 1)], monkeypatch)
    assert code == 0 and str(2**64 - 1) in out


# --------------------------------------------------------------------------- the adapter examples


@pytest.mark.parametrize(
    ("script", "blocked", "extra"),
    [("openspiel_ismcts.py", "pyspiel", "openspiel"), ("pettingzoo_training.py", "pettingzoo", "pettingzoo"),
     ("simulate_dask.py", "distributed", "dask")],
)
def test_an_example_without_its_extra_exits_non_zero_with_the_install_hint(script: str, blocked: str,
                                                                            extra: str) -> None:
    # they exited 0, so a script could not tell a skip from a success
    code = (f"import runpy, sys; sys.modules[{blocked!r}] = None; sys.argv = [{script!r}]; "
            f"runpy.run_path({str(ROOT / 'examples' / script)!r}, run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"pip install 'heartslib[{extra}]'" in result.stderr  # from a package index
    assert f"pip install -e '.[{extra}]'" in result.stderr  # from a checkout


def test_the_ray_example_without_ray_exits_non_zero() -> None:
    code = ("import runpy, sys; sys.modules['ray'] = None; sys.argv = ['simulate_ray.py']; "
            f"runpy.run_path({str(ROOT / 'examples' / 'simulate_ray.py')!r}, run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2 and "pip install ray" in result.stderr and "Traceback" not in result.stderr



# --------------------------------------------------------------------------- licence and metadata


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_licence_file_is_the_mit_licence_pyproject_names() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 heartslib developers" in text
    assert "THE SOFTWARE IS PROVIDED \"AS IS\"" in text
    project = _pyproject()["project"]
    assert project["license"] == "MIT"
    # PEP 639: the files named here go into the wheel's .dist-info/licenses and the sdist
    assert "LICENSE" in project["license-files"]
    requires = _pyproject()["build-system"]["requires"]
    assert any(re.fullmatch(r"hatchling>=1\.(2[7-9]|[3-9]\d)(\..*)?", r) for r in requires), requires
    # a License :: classifier beside a licence expression is refused by PEP 639 tools
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]


def test_the_classifiers_name_the_python_versions_and_the_status() -> None:
    project = _pyproject()["project"]
    classifiers = project["classifiers"]
    least = re.fullmatch(r">=3\.(\d+)", project["requires-python"])
    assert least is not None
    versions = sorted(int(c.rsplit(".", 1)[1]) for c in classifiers
                      if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert versions and versions[0] == int(least.group(1))
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    # no invented addresses: the project has no public home yet
    for url in project.get("urls", {}).values():
        assert "example" not in url and "TODO" not in url


def test_the_readme_keeps_its_first_two_commands() -> None:
    # CI runs them verbatim (.ci/run)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# heartslib\n\n```sh\npip install -e . && heartslib simulate\n"
                             "pip install -e \".[test]\" && python -m pytest -n auto\n```\n")
    assert "pip install heartslib" in readme


def test_the_wheel_and_the_sdist_carry_the_licence(tmp_path: Path) -> None:
    # building needs hatchling, which the test extra does not install: run where it is importable
    build = pytest.importorskip("hatchling.build")
    import tarfile
    import zipfile

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        wheel = build.build_wheel(str(tmp_path))
        sdist = build.build_sdist(str(tmp_path))
    finally:
        os.chdir(cwd)
    names = zipfile.ZipFile(tmp_path / wheel).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    with tarfile.open(tmp_path / sdist) as archive:
        assert any(n.endswith("/LICENSE") for n in archive.getnames())
