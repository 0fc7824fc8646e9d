"""The server's browser page (/play) end to end: one headless Chromium plays seat 0 of a whole match through the
page's buttons, beside three WebSocket bot clients, against `heartslib serve` on 127.0.0.1.

Chromium is driven over its DevTools protocol with the server extra's own ``websockets`` client, so the test
needs nothing but Debian's ``chromium`` (``apt-get install -y chromium``; ``examples/web/ci.sh`` installs it, and
so does ``.ci/run`` before the tests when it runs as root). Without Chromium it skips, saying so; ``CHROMIUM``
names another binary."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra: pip install 'heartslib[server]'")
pytest.importorskip("websockets", reason="the server tests need the server extra: pip install 'heartslib[server]'")

from websockets.sync.client import ClientConnection, connect

from heartslib.client import Client, play_randomly
from heartslib.server.store import open_store
from test_server_e2e import Server, _replayed

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if not CHROMIUM or not os.access(CHROMIUM, os.X_OK):
    pytest.skip("no Chromium for the browser test: apt-get install -y chromium (examples/web/ci.sh does), or set "
                "CHROMIUM to a Chromium binary", allow_module_level=True)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--remote-debugging-port=0"]
#: A whole match of two hands (a pass to the left, then to the right): under half a minute here.
VARIANT = {"name": "standard", "end": {"hands": 2}}


class Browser:
    """Headless Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, profile: Path) -> None:
        assert CHROMIUM is not None
        self.proc = subprocess.Popen([CHROMIUM, *ARGS, f"--user-data-dir={profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            assert time.monotonic() < deadline and self.proc.poll() is None, "Chromium did not start"
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as reply:
            page = next(t for t in json.load(reply) if t["type"] == "page")
        self.ws: ClientConnection = connect(page["webSocketDebuggerUrl"], max_size=None).__enter__()
        self._ids = 0
        self.errors: list[str] = []
        self.call("Runtime.enable")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result (the events met on the way: errors kept)."""
        self._ids += 1
        self.ws.send(json.dumps({"id": self._ids, "method": method, "params": params}))
        while True:
            data = json.loads(self.ws.recv(timeout=30))
            if data.get("method") == "Runtime.exceptionThrown":
                self.errors.append(json.dumps(data["params"]["exceptionDetails"])[:500])
            elif data.get("method") == "Runtime.consoleAPICalled" and data["params"]["type"] == "error":
                self.errors.append(json.dumps(data["params"]["args"])[:500])
            if data.get("id") == self._ids:
                assert "error" not in data, data
                result: dict[str, Any] = data["result"]
                return result

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def close(self) -> None:
        self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    b = Browser(tmp_path / "profile")
    yield b
    b.close()


# One step of the player at the page: what the status line says decides the click.
STEP = """(() => {
  const line = document.getElementById("status");
  if (!line) return "loading";
  const status = line.textContent;
  if (status.startsWith("Your turn: choose")) {
    const pass = document.getElementById("pass");
    if (!pass.disabled) { pass.click(); return "passed"; }
    const free = document.querySelector("#hand button.legal:not(.chosen)");
    if (free) { free.click(); return "chose"; }
  } else if (status.startsWith("Your turn: play")) {
    const card = document.querySelector("#hand button.legal");
    if (card) { card.click(); return "played " + card.dataset.card; }
  } else if (status.startsWith("Your turn: decide")) {
    const option = document.querySelector("#options button");
    if (option) { option.click(); return "decided"; }
  }
  return status;
})()"""


def test_a_browser_plays_a_whole_match_on_the_served_page_beside_websocket_bots(tmp_path: Path,
                                                                                browser: Browser) -> None:
    database = str(tmp_path / "tables.sqlite3")
    server = Server(database)
    try:
        with Client(server.url) as host:
            table = host.create(VARIANT, seats=[None] * 4, seed=21)
        bots = [Client(server.url) for _ in range(3)]
        for seat, bot in enumerate(bots, start=1):
            bot.join(table, seat)
        threads = [threading.Thread(target=play_randomly, args=(bot, random.Random(seat)), daemon=True)
                   for seat, bot in enumerate(bots, start=1)]
        for thread in threads:
            thread.start()
        page = server.url.replace("ws://", "http://").removesuffix("/ws") + f"/play?table={table}&seat=0"
        browser.call("Page.navigate", url=page)
        clicks: list[str] = []
        polls = 0
        while (status := browser.evaluate(STEP)) != "Match over":
            polls += 1  # bounded by a count: a wall-clock deadline would fail on a machine that pauses
            assert polls < 4000, f"the match did not end: {status!r} after {clicks[-5:]}"
            if status.startswith(("chose", "passed", "played", "decided")):
                clicks.append(status)
            else:
                time.sleep(0.05)
        for thread in threads:
            thread.join(30)
        match = _replayed(database, table)
        assert match.is_over and match.hand_number == 1
        shown = browser.evaluate("[...document.querySelectorAll('#score-row td')].map((td) => td.textContent)")
        assert shown == [str(x) for x in match.scores]
        assert sum(c.startswith("played") for c in clicks) == 26 and clicks.count("passed") == 2
        assert browser.evaluate("state.view") == match.observation(0).to_dict()  # the page followed its stream
        assert browser.errors == []
        for bot in bots:
            bot.close()
    finally:
        err = server.stop()
    assert "Traceback" not in err, err


def test_the_page_is_served_at_play_and_the_index_points_to_it(tmp_path: Path) -> None:
    server = Server(str(tmp_path / "tables.sqlite3"))
    try:
        base = server.url.replace("ws://", "http://").removesuffix("/ws")
        with urllib.request.urlopen(base + "/play", timeout=10) as reply:
            assert reply.headers["content-type"].startswith("text/html")
            html = reply.read().decode("utf-8")
        with urllib.request.urlopen(base + "/", timeout=10) as reply:
            assert "/play" in reply.read().decode("utf-8")
        assert '"/ws"' in html and "<script>" in html
        assert not re.search(r"https?://|src=|href=", html)  # nothing fetched from anywhere: one self-contained page
    finally:
        server.stop()


def test_the_create_form_offers_a_seat_per_player_of_the_variant_named(tmp_path: Path, browser: Browser) -> None:
    # two-handed Hearts has two seats and Black Maria three: the form follows the preset named, offers the
    # moon agent and the search agent, and creates the table with those seats (the page then plays seat 0)
    database = str(tmp_path / "tables.sqlite3")
    server = Server(database)
    try:
        base = server.url.replace("ws://", "http://").removesuffix("/ws")
        browser.call("Page.navigate", url=base + "/play")
        for _ in range(1200):  # bounded by a count, not a wall-clock deadline (a loaded machine pauses)
            if browser.evaluate("document.querySelectorAll('#seat-kinds select').length") == 4:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the page never offered the four seats of the standard game")
        kinds = browser.evaluate("[...document.getElementById('kind-0').options].map((o) => o.value)")
        assert kinds == ["player", "random", "heuristic", "moon", "search"]

        def name(variant: str) -> int:
            count: int = browser.evaluate(f"""(() => {{
              const input = document.getElementById("variant");
              input.value = {json.dumps(variant)};
              input.dispatchEvent(new Event("input"));
              return document.querySelectorAll("#seat-kinds select").length;
            }})()""")
            return count

        assert name("black_maria") == 3 and name("double_deck_7") == 7 and name("no such game") == 4
        assert name("two_handed") == 2
        browser.evaluate('document.getElementById("kind-1").value = "moon"; document.getElementById("create").click()')
        table = None
        for _ in range(1200):
            table = browser.evaluate("state.table")
            if table:
                break
            time.sleep(0.05)
        assert table and browser.evaluate("state.seat") == 0
        record = open_store(database).table(table)
        assert record is not None and record.seats == ("open", "moon") and record.variant["name"] == "two_handed"
        assert browser.errors == []
    finally:
        err = server.stop()
    assert "Traceback" not in err, err
