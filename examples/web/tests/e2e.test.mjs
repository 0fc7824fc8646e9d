// End-to-end test: the built page (dist/) in headless Chromium plays a whole hand of Hearts.
//
// Run by ../ci.sh after the build (`node --test tests/`). It fails, never skips, when anything is missing:
// no Chromium, no dist/, a page that does not start. Screenshots of each step go to $E2E_OUT
// (default: examples/web/test-output/).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(HERE, "..");
const OUT = path.resolve(process.env.E2E_OUT || path.join(WEB, "test-output"));
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const PYTHON = process.env.PYTHON || "python3";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

function startServer() {
  // The README's own serve command, on a free port.
  const server = spawn(PYTHON, [path.join(WEB, "serve.py"), "0"], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`serve.py printed no address: ${out}`)), 15000);
    const onData = (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve({ server, base: m[0] });
      }
    };
    server.stdout.on("data", onData);
    server.stderr.on("data", (chunk) => { out += chunk; });
    server.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.py exited (${code}): ${out}`));
    });
  });
}

test("a whole hand of Hearts in headless Chromium", { timeout: 170_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: run ci.sh (apt-get install chromium)`);
  assert.ok(existsSync(path.join(WEB, "dist", "index.html")), "dist/ is not built: run `python3 build.py`");
  mkdirSync(OUT, { recursive: true });
  for (const name of readdirSync(OUT)) if (/^\d\d-.*\.png$/.test(name)) rmSync(path.join(OUT, name));

  const { server, base } = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  t.after(async () => {
    await browser.close();
    server.kill();
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console error: ${msg.text()}`); });
  page.on("request", (req) => {
    // Everything (Pyodide, the wheels, the page) must come from our own server: no CDN at run time.
    if (!req.url().startsWith(base) && !req.url().startsWith("data:")) problems.push(`outside request: ${req.url()}`);
  });

  let shot = 0;
  const screenshot = async (name) => {
    shot += 1;
    const file = path.join(OUT, `${String(shot).padStart(2, "0")}-${name}.png`);
    await page.screenshot({ path: file });
    t.diagnostic(`screenshot ${file}`);
  };
  const handCodes = () => page.$$eval("#hand .card", (els) => els.map((e) => e.dataset.code));
  const codesOf = (selector) => page.$$eval(selector, (els) => els.map((e) => e.dataset.code));
  const waitReady = async () => {
    await page.waitForSelector("body[data-ready], body[data-error]", { timeout: 90_000 });
    const error = await page.evaluate(() => document.body.dataset.error);
    assert.equal(error, undefined, `the page failed to start: ${error}`);
  };
  // The human must act (and the computer players are done), or a hand's scores are showing.
  const waitForHuman = () => page.waitForFunction(() => document.getElementById("result").open ||
    (document.body.dataset.turn === "you" && document.body.dataset.phase === "play" && !document.body.dataset.running),
  null, { timeout: 60_000 });

  // Each step needs the previous one: after a failure the rest fail at once instead of timing out.
  let broken = null;
  const step = (name, fn) => t.test(name, async () => {
    assert.equal(broken, null, `not run: "${broken}" failed`);
    try {
      await fn();
    } catch (err) {
      broken = name;
      await screenshot(`failed-${name.replace(/\W+/g, "-")}`).catch(() => {});
      throw err;
    }
  });

  let firstDeal;
  await step("the page loads heartslib in Pyodide and deals", async () => {
    await page.goto(`${base}?seed=2024&agents=3&delay=0`);
    await waitReady();
    await page.waitForSelector("body[data-phase=pass][data-turn=you]");
    firstDeal = await handCodes();
    assert.equal(firstDeal.length, 13);
    assert.match(await page.textContent("#status"), /choose 3 cards to pass to West \(left\)/);
    assert.ok(await page.isDisabled("#pass-button"));
    assert.match(await page.textContent("#versions"), /computer players: HeuristicAgent/);
    await screenshot("loaded");
  });

  let passed;
  await step("passes three cards", async () => {
    passed = (await codesOf("#hand .card.passable")).slice(0, 3);
    for (const code of passed) await page.click(`#hand .card[data-code="${code}"]`);
    assert.deepEqual((await codesOf("#hand .card.selected")).sort(), [...passed].sort());
    assert.ok(await page.isEnabled("#pass-button"));
    assert.match(await page.textContent("#pass-button"), /Pass 3\/3 to West/);
    await screenshot("pass-chosen");
    await page.click("#pass-button");
    await waitForHuman();
    const hand = await handCodes();
    assert.equal(hand.length, 13);
    for (const code of passed) assert.ok(!hand.includes(code), `${code} was passed but is still in the hand`);
    assert.equal((await codesOf("#hand .card.received")).length, 3, "the three received cards are marked");
    assert.match(await page.textContent("#status"), /you received .* from East/);
    await screenshot("after-exchange");
  });

  let explained = false;
  let resumed = false;
  await step("plays only highlighted cards, explains a refused one, survives a reload", async () => {
    for (let turn = 0; turn < 13; turn++) {
      await waitForHuman();
      if (await page.evaluate(() => document.getElementById("result").open)) break;
      const hand = await handCodes();
      const legal = await codesOf("#hand .card.legal");
      const illegal = await codesOf("#hand .card.illegal");
      assert.ok(legal.length >= 1, "some card is highlighted on the human's turn");
      assert.equal(legal.length + illegal.length, hand.length, "every card is marked legal or not");

      if (!explained && illegal.length) {
        await page.click(`#hand .card[data-code="${illegal[0]}"]`);
        await page.waitForSelector("#message:not([hidden])");
        const text = await page.textContent("#message");
        assert.match(text, /^You can't play \S+ now: .{10,}\.$/);
        assert.ok(await page.getAttribute("#message", "data-code"), "the refusal carries heartslib's code");
        assert.deepEqual(await handCodes(), hand, "a refused card changes nothing");
        await screenshot("illegal-explained");
        t.diagnostic(`refused ${illegal[0]}: ${text}`);
        explained = true;
      }

      if (!resumed && hand.length <= 9) {
        const before = { hand, scores: await page.textContent("#scoreboard"),
          table: await codesOf("#trick .card") };
        await page.reload();
        await waitReady();
        await waitForHuman();
        assert.match(await page.textContent("#notice"), /unfinished .* match was restored/);
        assert.deepEqual(await handCodes(), before.hand, "the same hand after the reload");
        assert.deepEqual(await codesOf("#trick .card"), before.table, "the same cards on the table");
        assert.equal(await page.textContent("#scoreboard"), before.scores);
        await screenshot("resumed-after-reload");
        resumed = true;
      }

      const card = legal[0];
      await page.click(`#hand .card.legal[data-code="${card}"]`);
      await page.waitForFunction((n) => document.getElementById("result").open ||
        document.querySelectorAll("#hand .card").length === n - 1, hand.length, { timeout: 30_000 });
      assert.equal(await page.isHidden("#message"), true, "a legal play clears the explanation");
      if (turn === 6) await screenshot("mid-hand");
    }
    assert.ok(explained, "the hand offered a refused card to click");
    assert.ok(resumed, "the game was reloaded mid-hand");
  });

  await step("reaches the scoreboard", async () => {
    await page.waitForSelector("#result[open]", { timeout: 60_000 });
    assert.equal(await page.textContent("#result-title"), "Hand 1 scores");
    const points = await page.$$eval("#result-rows tr", (rows) => rows.map((r) => Number(r.cells[2].textContent)));
    assert.equal(points.length, 4);
    const sum = points.reduce((a, b) => a + b, 0);
    assert.ok(sum === 26 || sum === 78, `standard hearts hands out 26 points (78 after a moon), got ${points}`);
    const totals = await page.$$eval("#score-total td", (cells) => cells.map((c) => Number(c.textContent)));
    assert.deepEqual(totals, points, "after one hand the totals are that hand's points");
    await screenshot("scoreboard");
    await page.click("#next-hand");
    await page.waitForSelector("body[data-hand='2'][data-phase=pass][data-turn=you]");
    assert.match(await page.textContent("#status"), /Hand 2: choose 3 cards to pass to East \(right\)/);
    await screenshot("hand-2-pass-right");
  });

  await step("replay deals the same cards, new game changes them", async () => {
    await page.click("#replay");
    await page.waitForSelector("body[data-hand='1'][data-phase=pass][data-turn=you]");
    assert.deepEqual(await handCodes(), firstDeal, "replay restarts with the same deal");
    assert.equal(await page.textContent("#score-rows"), "");
    await page.click("#new-game");
    await page.waitForSelector("#notice[data-kind=new]");
    await page.waitForSelector("body[data-hand='1'][data-phase=pass][data-turn=you]");
    assert.notDeepEqual(await handCodes(), firstDeal, "a new game deals new cards");
    await page.selectOption("#variant", "pink_lady");
    await page.click("#new-game");
    await page.waitForFunction(() => document.getElementById("target").textContent.includes("Pink lady"));
    await screenshot("new-game-pink-lady");
  });

  assert.deepEqual(problems, [], "no page errors, console errors or outside requests");
});
