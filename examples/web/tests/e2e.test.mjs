// End-to-end test: the built page (dist/) in headless Chromium, served by serve.py.
//
// Run by ../ci.sh after the build (`node --test tests/`). It fails, never skips, when anything is missing:
// no Chromium, no dist/, a page that does not start. It plays a whole match through clicks in English on a
// 1280×900 screen and another in Thai on a 375×740 phone, covers every bug of issue 19, measures the load
// (bytes from serve.py's --log, time from the page's own performance marks) and prints the figures, and
// writes screenshots to $E2E_OUT (default: examples/web/test-output/). Any console error fails it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { STRIP, checkTapTargets, savedMatch, tour } from "./screens.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(HERE, "..");
const OUT = path.resolve(process.env.E2E_OUT || path.join(WEB, "test-output"));
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const PYTHON = process.env.PYTHON || "python3";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
// The first load: 4.70 MB at issue 52, 4.39 MB since the wheels come without their sources and without the
// command line, 3.89 MB since the bytecode carries no column ranges (and the standard library's no line numbers)
// and the page leaves out TLS, the optional compressors and heartslib's records, streams and terminal table.
// The limit, issue 52's 4.0 MB, leaves about 100 kB for growth, so that a wheel added to the page is a decision,
// not a drift (the test prints what each file costs). A cold start's playable time is bounded generously: the
// machine may be busy (it was 5.4 s on a loaded 2-core machine).
const LIMITS = { firstLoadBytes: 4_000_000, firstPlayableMs: 12_000, warmReloadBytes: 100_000, warmPlayableMs: 2000 };

// serve.py --log on a free port; every request's bytes are added to `sent`.
function startServer(port = 0) {
  const server = spawn(PYTHON, [path.join(WEB, "serve.py"), String(port), "--log"], { stdio: ["ignore", "pipe", "pipe"] });
  const log = { sent: 0, requests: [] };
  return new Promise((resolve, reject) => {
    let out = "";
    let base = null;
    let partial = ""; // a chunk may end inside a line: keep the rest for the next chunk
    const timer = setTimeout(() => reject(new Error(`serve.py printed no address: ${out}`)), 15000);
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const lines = (partial + String(chunk)).split("\n");
      partial = lines.pop();
      for (const line of lines) {
        const m = line.match(/^GET (\S+) (\d+) (\S+) (\d+)$/);
        if (m) {
          log.sent += Number(m[4]);
          log.requests.push(line);
        }
      }
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m && !base) {
        base = m[0];
        clearTimeout(timer);
        resolve({ server, base, log, port: Number(m[1]) });
      }
    });
    server.stderr.on("data", (chunk) => { out += chunk; });
    server.on("exit", (code) => {
      clearTimeout(timer);
      if (!base) reject(new Error(`serve.py exited (${code}): ${out}`));
    });
  });
}

test("Hearts in headless Chromium, in English and Thai", { timeout: 900_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: run ci.sh (apt-get install chromium)`);
  assert.ok(existsSync(path.join(WEB, "dist", "index.html")), "dist/ is not built: run `python3 build.py`");
  mkdirSync(OUT, { recursive: true });
  for (const name of readdirSync(OUT)) if (/^\d{2,3}-.*\.png$/.test(name)) rmSync(path.join(OUT, name));

  let { server, base, log, port } = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  t.after(async () => {
    await browser.close();
    server.kill();
  });
  const problems = [];
  const watch = (page, label) => {
    page.on("pageerror", (err) => problems.push(`${label}: page error: ${err.message}`));
    const onConsole = (where) => (msg) => {
      if (msg.type() === "error") problems.push(`${label}${where}: console error: ${msg.text()}`);
    };
    page.on("console", onConsole(""));
    // The engine's web worker has a console of its own.
    page.on("worker", (worker) => worker.on("console", onConsole(" (worker)")));
    page.on("request", (req) => {
      // Everything (Pyodide, the wheels, the page) comes from our own server: no CDN at run time.
      if (!req.url().startsWith(base) && !req.url().startsWith("data:")) problems.push(`${label}: outside request ${req.url()}`);
    });
    return page;
  };
  const figures = {};

  let shot = 0;
  const screenshot = async (page, name) => {
    shot += 1;
    const file = path.join(OUT, `${String(shot).padStart(3, "0")}-${name}.png`);
    await page.screenshot({ path: file });
    t.diagnostic(`screenshot ${file}`);
  };
  const codes = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.dataset.code));
  const box = (page, selector) => page.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    return { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height),
      bottom: Math.round(r.bottom), right: Math.round(r.right) };
  });
  const waitReady = async (page) => {
    await page.waitForSelector("body[data-ready][data-phase], body[data-error], #damaged[open]", { timeout: 90_000 });
    const error = await page.evaluate(() => document.body.dataset.error);
    assert.equal(error, undefined, `the page failed to start: ${error}`);
  };
  // The human must act (and the computer players are done), or a hand's scores are showing.
  const waitForHuman = (page) => page.waitForFunction(() => document.getElementById("result").open ||
    (["you", "over"].includes(document.body.dataset.turn) && !document.body.dataset.running),
  null, { timeout: 60_000 });
  // Passes the first three cards that may be passed and waits until the human may play.
  const passThree = async (page) => {
    for (const code of (await codes(page, "#hand .card.passable")).slice(0, 3)) await page.click(`#hand .card[data-code="${code}"]`, STRIP);
    await page.click("#pass-button");
    await page.waitForFunction(() => document.body.dataset.phase !== "pass", null, { timeout: 30_000 });
    await waitForHuman(page);
  };
  // Starts a new game from the dialog and waits until it is dealt: the level's name shows (the state
  // before may already be a first pass) and the human passes first.
  const newGame = async (page, preset, level, levelName) => {
    await page.click("#new-game");
    await page.check(`#new-dialog input[value=${preset}]`);
    await page.check(`#new-dialog input[value=${level}]`);
    await page.click("#new-start");
    await page.waitForFunction((name) => document.getElementById("versions").textContent.includes(`computer players: ${name}`),
      levelName);
    await page.waitForSelector("body[data-hand='1'][data-phase=pass][data-turn=you]");
    assert.equal(await page.textContent("#table-level"), `Computer players: ${levelName}`, "the level is on the table");
  };
  // The human's plays, each timed from the click to the human's next turn (the computer players' turns in
  // between, with their pauses and animations): milliseconds.
  const timeTurns = async (page, count) => {
    const times = [];
    for (let i = 0; i < count; i++) {
      const [card] = await codes(page, "#hand .card.legal");
      const held = (await codes(page, "#hand .card")).length;
      const start = Date.now();
      await page.click(`#hand .card[data-code="${card}"]`, STRIP);
      // the play is drawn before the computer players' turns: wait for it, not only for "your turn",
      // which is still true the moment after the click
      await page.waitForFunction((n) => document.querySelectorAll("#hand .card").length < n, held);
      await waitForHuman(page);
      times.push(Date.now() - start);
    }
    return times;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const overlaps = (a, b) => a.x < b.right && b.x < a.right && a.y < b.bottom && b.y < a.bottom;
  // The refusal covers no card (of the trick or the hand) and no seat, then fades away by itself.
  const checkMessagePlace = async (page) => {
    const m = await box(page, "#message");
    const others = await page.$$eval("#trick .card, #hand .card, .seat", (els) => els.map((e) => {
      const r = e.getBoundingClientRect();
      return { id: e.dataset.code ?? e.id, x: r.x, y: r.y, right: r.right, bottom: r.bottom };
    }));
    const covered = others.filter((o) => overlaps(m, o)).map((o) => o.id);
    assert.deepEqual(covered, [], `the message covers ${covered}: ${JSON.stringify(m)}`);
  };
  const waitMessageGone = (page) => page.waitForSelector("#message[hidden]", { state: "attached", timeout: 20_000 });
  // Each scoreboard header is one line: a seat's name never wraps inside the word.
  const headersOneLine = (page) => page.$$eval("#score-head th", (ths) => ths.map((th) => {
    const range = document.createRange();
    range.selectNodeContents(th);
    return [th.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
  }).filter(([, lines]) => lines !== 1));
  // The trick's story on screen: the lead tag, and after a trick the line naming its winner.
  const checkTrickStory = async (page, takes) => {
    const inTrick = await page.$$eval("#trick .slot .card", (els) => els.length);
    if (inTrick && !(await page.evaluate(() => document.getElementById("trick").classList.contains("done")))) {
      assert.equal(await page.$$eval("#trick .lead-tag", (els) => els.length), 1, "the first card of the trick is tagged");
    }
    const line = await page.$eval("#status", (e) => e.querySelector(".trick-line")?.textContent ?? null);
    if (line) {
      const winner = await page.$eval("#trick .card.winner", (c) => c.closest(".slot").dataset.seat);
      const names = await page.evaluate(() => [...document.querySelectorAll(".seat .name span:first-child")]
        .map((e) => [e.closest(".seat").dataset.seat, e.textContent]));
      const name = names.find(([seat]) => seat === winner)[1];
      assert.ok(line.startsWith(name) && takes.test(line), `the trick line names its winner (${name}): ${line}`);
    }
    const told = await page.textContent("#announcer");
    assert.match(told, takes, `screen readers are told who takes each trick: ${told}`);
  };
  const mark = (page, name) => page.evaluate((n) => performance.getEntriesByName(n)[0]?.startTime ?? null, name);

  // Each step needs the previous ones: after a failure the rest fail at once instead of timing out.
  let broken = null;
  let current = null;
  // E2E_ONLY=regex runs only the steps it matches (while developing; the steps of issue 52 need no other).
  const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
  // A step marked alone sets up what it needs itself: it runs after a failed step too.
  const step = (name, fn, { alone = false } = {}) => t.test(name, { skip: only && !only.test(name) ? "E2E_ONLY" : false }, async () => {
    if (!alone) assert.equal(broken, null, `not run: "${broken}" failed`);
    try {
      await fn();
    } catch (err) {
      broken ??= name;
      if (current) await screenshot(current, `failed-${name.replace(/\W+/g, "-")}`).catch(() => {});
      throw err;
    }
  });

  // Plays the match on `page` through clicks to its end (first passable cards, first highlighted card),
  // checking each hand's points and taking screenshots at the first hand's middle and scores.
  const playMatch = async (page, prefix) => {
    let hands = 0;
    for (let moves = 0; moves < 2000; moves++) {
      await waitForHuman(page);
      if (await page.evaluate(() => document.getElementById("result").open)) {
        hands += 1;
        const points = await page.$$eval("#result-rows tr", (rows) => rows.map((r) => Number(r.cells[2].textContent)));
        assert.equal(points.length, 4);
        assert.ok([26, 78].includes(points.reduce((a, b) => a + b, 0)), `a hand hands out 26 points (78 after a moon): ${points}`);
        if (hands === 1) await screenshot(page, `${prefix}-scores-hand-1`);
        if (await page.$("#result-new")) return hands;
        if (hands === 1) {
          // bug: the focus stayed on the page after a score dialog (6 Tabs back to the hand)
          assert.equal(await page.evaluate(() => document.activeElement.id), "next-hand");
          await page.keyboard.press("Enter");
          await page.waitForFunction(() => document.activeElement?.closest?.("#hand .card"), null, { timeout: 10_000 });
          continue;
        }
        await page.click("#next-hand");
        continue;
      }
      const phase = await page.evaluate(() => document.body.dataset.phase);
      if (phase === "pass") {
        for (const code of (await codes(page, "#hand .card.passable")).slice(0, 3)) await page.click(`#hand .card[data-code="${code}"]`, STRIP);
        await page.click("#pass-button");
        await page.waitForFunction(() => document.body.dataset.phase !== "pass" || document.body.dataset.turn !== "you");
        continue;
      }
      const legal = await codes(page, "#hand .card.legal");
      assert.ok(legal.length >= 1, "some card is highlighted on the human's turn");
      const n = (await codes(page, "#hand .card")).length;
      if (hands === 0 && n === 7) {
        // Running points: each seat shows what it took this hand; standard hearts: 1 a heart, 13 for Q♠.
        const shown = await page.$$eval(".seat .info", (els) => els.map((e) => Number(e.dataset.handPoints)));
        const chips = await page.$$eval(".seat .taken", (els) => els.map((e) => [...e.querySelectorAll(".chip")]
          .reduce((sum, c) => sum + (c.textContent === "Q♠" ? 13 : 1), 0)));
        assert.deepEqual(shown, chips, "each seat's points this hand are the point cards it took");
        await checkTrickStory(page, prefix.startsWith("th") ? /เก็บกองนี้/ : /takes? the trick/);
        const told = await page.textContent("#announcer");
        assert.match(told, prefix.startsWith("th") ? /(ลง|นำด้วย)/ : /(leads|plays) \w+ of \w+/,
          `screen readers are told the others' cards: ${told}`);
        await screenshot(page, `${prefix}-mid-hand`);
      }
      await page.click(`#hand .card.legal[data-code="${legal[0]}"]`, STRIP);
      await page.waitForFunction((k) => document.getElementById("result").open ||
        document.querySelectorAll("#hand .card").length === k - 1, n, { timeout: 30_000 });
    }
    throw new Error("the match did not end");
  };

  // ------------------------------------------------------------------ English, 1280×900
  const en = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = watch(await en.newPage(), "en");
  current = page;
  let firstDeal;

  await step("first load: compressed, cached for offline, with a progress bar", async () => {
    log.sent = 0;
    const start = Date.now();
    // The loading screen, while Python starts for the first time (it lasts a second or more).
    const loading = page.waitForSelector('#loading-text[data-step="python"]', { timeout: 30_000 })
      .then(() => screenshot(page, "en-first-load-progress"))
      .catch(() => t.diagnostic("the loading screen went by too fast for a screenshot"));
    await page.goto(`${base}?seed=2024&agents=3&delay=0`);
    await loading;
    await waitReady(page);
    const wall = Date.now() - start;
    await page.waitForSelector("body[data-phase=pass][data-turn=you]");
    await page.waitForTimeout(300);
    figures.firstLoadBytes = log.sent;
    figures.firstLoadPlayableMs = Math.round(await mark(page, "heartslib:ready"));
    figures.firstLoadWallMs = wall;
    t.diagnostic(`first load: ${(log.sent / 1e6).toFixed(2)} MB transferred (${log.requests.length} requests), playable ` +
      `at ${figures.firstLoadPlayableMs} ms (${wall} ms by the test's clock); ` + await page.evaluate(() => {
      const marks = performance.getEntriesByType("mark");
      const downloads = marks.filter((m) => m.name.endsWith("downloading"));
      const others = marks.filter((m) => !m.name.endsWith("downloading"))
        .map((m) => `${m.name.replace("heartslib:", "")} ${Math.round(m.startTime)}`);
      return [`downloading ${Math.round(downloads[0]?.startTime ?? 0)}-${Math.round(downloads.at(-1)?.startTime ?? 0)}`,
        ...others].join(", ");
    }));
    // What each file costs on the wire (all its requests: the page's own and the offline cache's), largest first.
    const byFile = new Map();
    for (const line of log.requests) {
      const [, file, , , bytes] = line.split(" ");
      byFile.set(file, (byFile.get(file) ?? 0) + Number(bytes));
    }
    t.diagnostic(`first load by file: ${[...byFile].sort((a, b) => b[1] - a[1])
      .map(([file, bytes]) => `${file} ${(bytes / 1e3).toFixed(1)} kB`).join(", ")}`);
    assert.ok(log.sent <= LIMITS.firstLoadBytes, `first load transferred ${log.sent} bytes (limit ${LIMITS.firstLoadBytes})`);
    assert.ok(figures.firstLoadPlayableMs <= LIMITS.firstPlayableMs,
      `a first load was playable after ${figures.firstLoadPlayableMs} ms (limit ${LIMITS.firstPlayableMs})`);
    assert.ok(log.requests.some((r) => / 200 br /.test(r) && r.includes("pyodide.asm.wasm")), "the runtime is sent brotli-compressed");
    assert.ok((await page.evaluate(() => performance.getEntriesByName("heartslib:downloading").length)) > 3,
      "the progress bar moved while downloading");
    assert.equal(await page.evaluate(() => document.body.dataset.sw), "controlled", "a service worker controls the page");
    assert.equal(await page.getAttribute("html", "lang"), "en", "an English browser gets English");
    firstDeal = await codes(page, "#hand .card");
    assert.equal(firstDeal.length, 13);
    assert.match(await page.textContent("#status"), /Choose 3 cards to pass to West \(left\)/);
    assert.ok(await page.isDisabled("#pass-button"));
    assert.match(await page.textContent("#versions"), /computer players: Normal/);
    await screenshot(page, "en-loaded");
  });

  await step("warm reload: almost nothing transferred, playable within 2 s", async () => {
    // Warm: the first load has stored everything, the Python snapshot included (it is written after start).
    await page.waitForSelector("body[data-snapshot=snapshot-saved]", { timeout: 30_000 });
    // Two reloads, the faster one counts (the machine may be busy with something else for a moment).
    const runs = [];
    for (let run = 0; run < 2; run++) {
      log.sent = 0;
      log.requests = [];
      const start = Date.now();
      await page.reload();
      await waitReady(page);
      await page.waitForSelector("body[data-phase=pass][data-turn=you]");
      const wall = Date.now() - start;
      await page.waitForTimeout(300);
      const playable = Math.round(await mark(page, "heartslib:ready"));
      runs.push({ bytes: log.sent, playable, wall });
      t.diagnostic(`warm reload ${run + 1}: ${log.sent} bytes transferred (${log.requests.length} requests), ` +
        `playable at ${playable} ms (${wall} ms by the test's clock); ` + await page.evaluate(() =>
        performance.getEntriesByType("mark").filter((m) => !m.name.endsWith("downloading"))
          .map((m) => `${m.name.replace("heartslib:", "")} ${Math.round(m.startTime)}`).join(", ")));
      assert.ok(log.sent <= LIMITS.warmReloadBytes, `a warm reload transferred ${log.sent} bytes: ${log.requests.join("; ")}`);
    }
    const best = runs.reduce((a, b) => (b.playable < a.playable ? b : a));
    figures.warmReloadBytes = Math.max(...runs.map((r) => r.bytes));
    figures.warmReloadPlayableMs = best.playable;
    figures.warmReloadWallMs = best.wall;
    assert.ok(best.playable <= LIMITS.warmPlayableMs,
      `a warm reload was playable after ${best.playable} ms at best (limit ${LIMITS.warmPlayableMs})`);
    assert.equal(await page.evaluate(() => document.body.dataset.snapshot), "snapshot-restored");
    assert.deepEqual(await codes(page, "#hand .card"), firstDeal, "the reload resumed the same deal");
    assert.match(await page.textContent("#notice"), /unfinished Standard match was restored/);
  });

  await step("bug: the 'too many cards' message shows, and no message moves the table", async () => {
    const passable = await codes(page, "#hand .card.passable");
    for (const code of passable.slice(0, 3)) await page.click(`#hand .card[data-code="${code}"]`, STRIP);
    assert.equal((await codes(page, "#hand .card.selected")).length, 3);
    const before = { table: await box(page, "#table"), hand: await box(page, "#hand") };
    await page.click(`#hand .card[data-code="${passable[3]}"]`, STRIP);
    await page.waitForSelector("#message:not([hidden])");
    assert.equal(await page.getAttribute("#message", "data-code"), "pass_full");
    assert.match(await page.textContent("#message"), /You pass 3 cards: click a chosen card to put it back first\./);
    assert.equal((await codes(page, "#hand .card.selected")).length, 3, "a fourth card is not chosen");
    assert.deepEqual({ table: await box(page, "#table"), hand: await box(page, "#hand") }, before,
      "the message does not move the table or the hand");
    await screenshot(page, "en-pass-full-message");
    for (const code of passable.slice(0, 3)) await page.click(`#hand .card[data-code="${code}"]`, STRIP);
    assert.equal((await codes(page, "#hand .card.selected")).length, 0);
  });

  await step("bug: the keyboard keeps its place, the focus ring shows, chosen cards are announced", async () => {
    await page.click("h1");
    let tabs = 0;
    while (!(await page.evaluate(() => document.activeElement.closest?.("#hand .card")))) {
      await page.keyboard.press("Tab");
      tabs += 1;
      assert.ok(tabs <= 10, "the hand is reached within 10 Tab presses");
    }
    const first = await page.evaluate(() => document.activeElement.dataset.code);
    const ring = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    assert.ok(ring.style !== "none" && ring.width >= 3, `a visible focus ring on the focused card: ${JSON.stringify(ring)}`);
    const chosen = [];
    for (let i = 0; i < 3; i++) {
      if (i) await page.keyboard.press("ArrowRight");
      const code = await page.evaluate(() => document.activeElement.dataset.code);
      await page.keyboard.press("Enter");
      assert.equal(await page.evaluate(() => document.activeElement.dataset.code), code, "Enter keeps the focus on the card");
      assert.equal(await page.getAttribute(`#hand .card[data-code="${code}"]`, "aria-pressed"), "true");
      chosen.push(code);
    }
    assert.equal(chosen[0], first);
    assert.equal(await page.getAttribute(`#hand .card:not(.selected)`, "aria-pressed"), "false");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.id), "pass-button", "one Tab from the hand to the pass button");
    t.diagnostic(`a pass by keyboard: ${tabs + 1} Tab presses, 2 arrows, 4 Enter`);
    await screenshot(page, "en-keyboard-pass");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.body.dataset.phase !== "pass", null, { timeout: 30_000 });
    await waitForHuman(page);
    const hand = await codes(page, "#hand .card");
    for (const code of chosen) assert.ok(!hand.includes(code), `${code} was passed but is still in the hand`);
  });

  await step("bug: 'new' badges sit on their own card, a lifted card hides no neighbour", async () => {
    const received = await codes(page, "#hand .card.received");
    assert.equal(received.length, 3, "the three received cards are marked");
    assert.match(await page.textContent("#status"), /You received .* from East\./);
    const overlap = await page.$$eval("#hand .card", (cards) => cards.flatMap((card, i) => {
      const badge = card.querySelector(".badge");
      if (!card.classList.contains("received")) return [];
      const b = badge.getBoundingClientRect();
      const own = card.getBoundingClientRect();
      const next = cards[i + 1]?.getBoundingClientRect();
      return [{ code: card.dataset.code, inside: b.left >= own.left - 0.5 && (!next || b.right <= next.left + 0.5),
        visible: b.width > 0 && b.height > 0 }];
    }));
    for (const o of overlap) assert.ok(o.inside && o.visible, `the badge of ${o.code} is on its own card: ${JSON.stringify(o)}`);
    // Hover, then focus, each card but the last: the next card's corner index must stay on top.
    const hidden = [];
    const count = (await codes(page, "#hand .card")).length;
    for (let i = 0; i < count - 1; i++) {
      for (const how of ["hover", "focus"]) {
        const target = page.locator("#hand .card").nth(i);
        if (how === "hover") await target.hover();
        else await target.focus();
        await page.waitForTimeout(120); // the lift's transition
        const ok = await page.$$eval("#hand .card", (cards, j) => {
          const index = cards[j + 1].querySelector(".index.top").getBoundingClientRect();
          const hit = document.elementFromPoint(index.left + index.width / 2, index.top + index.height / 2);
          return Boolean(hit && cards[j + 1].contains(hit));
        }, i);
        if (!ok) hidden.push(`${how} ${i}`);
      }
    }
    assert.deepEqual(hidden, [], "no neighbour's rank is hidden");
    await screenshot(page, "en-received-badges");
  });

  await step("refusals are worded for the player", async () => {
    await waitForHuman(page);
    const illegal = await codes(page, "#hand .card.illegal");
    assert.ok(illegal.length, "the first trick always refuses some card");
    const before = { table: await box(page, "#table"), hand: await codes(page, "#hand .card") };
    await page.click(`#hand .card[data-code="${illegal[0]}"]`, STRIP);
    await page.waitForSelector("#message:not([hidden])");
    const text = await page.textContent("#message");
    const code = await page.getAttribute("#message", "data-code");
    t.diagnostic(`refused ${illegal[0]} (${code}): ${text}`);
    const expected = {
      must_lead_opening_card: /You must lead 2♣ to the first trick\./,
      no_points_on_first_trick: /you still hold a card that is not a heart or Q♠/,
      must_follow_suit: /You must follow suit: you still have (clubs|diamonds|spades|hearts)\./,
      hearts_not_broken: /You can't lead a heart yet/,
    }[code];
    assert.ok(expected, `an expected refusal on the first trick, got ${code}`);
    assert.match(text, expected);
    assert.doesNotMatch(text, /while the player|must be led with|\d:play/, "not heartslib's developer wording");
    assert.deepEqual(await codes(page, "#hand .card"), before.hand, "a refused card changes nothing");
    assert.deepEqual(await box(page, "#table"), before.table, "the message does not move the table");
    // bug: the message sat on top of the trick until clicked
    await checkMessagePlace(page);
    await screenshot(page, "en-refusal");
    await waitMessageGone(page);
    assert.equal(await page.evaluate(() => document.getElementById("status").classList.contains("covered")), false,
      "the status line is back once the message has faded");
  });

  await step("bug: the guide opens over the table, which stays put and in view", async () => {
    const before = { table: await box(page, "#table"), hand: await box(page, "#hand") };
    await page.click("#guide-button");
    await page.waitForSelector("#guide[open]");
    const guide = await box(page, "#guide");
    assert.ok(guide.y >= 0 && guide.y < 200 && guide.bottom <= 900, `the guide is in view: ${JSON.stringify(guide)}`);
    assert.deepEqual({ table: await box(page, "#table"), hand: await box(page, "#hand") }, before,
      "opening the guide moves neither the table nor the hand");
    assert.ok(before.hand.bottom <= 900, "the hand is above the fold");
    const headings = await page.$$eval("#guide-body h3", (hs) => hs.map((h) => h.textContent));
    assert.ok(headings.length >= 9, `the complete guide's sections: ${headings}`);
    const body = await page.textContent("#guide-body");
    for (const phrase of ["Q♠ does not unlock them", "share the win", "not a claim of expert or best play",
      "Clearing the browser's data deletes them", "Replay starts again from the same deal", "no betting",
      "Rules in detail", "2♣", "Normal: Steady players", "Their speed is under Settings (⚙ on phones): Slow, Normal, Fast or Instant",
      "the game says so and plays on without saving"]) {
      assert.ok(body.includes(phrase), `the guide says "${phrase}"`);
    }
    assert.doesNotMatch(body, /source:|joker|stripp/i, "the rules in detail are worded for players");
    await screenshot(page, "en-guide");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.getElementById("guide").open);
  });

  await step("bug: New game asks before it ends the match in progress", async () => {
    const hand = await codes(page, "#hand .card");
    await page.click("#new-game");
    await page.waitForSelector("#new-dialog[open]");
    assert.ok(await page.isVisible("#new-warning"), "the dialog warns that the match in progress ends");
    assert.match(await page.textContent("#new-warning"), /A match is in progress/);
    await screenshot(page, "en-new-game-dialog");
    await page.click("#new-cancel");
    await page.waitForFunction(() => !document.getElementById("new-dialog").open);
    assert.deepEqual(await codes(page, "#hand .card"), hand, "keeping on playing keeps the match");
  });

  await step("a whole match in English through clicks", async () => {
    const hands = await playMatch(page, "en");
    t.diagnostic(`the English match took ${hands} hands`);
    assert.match(await page.textContent("#result-winners"), /(You win the match!|wins the match\.|share the win\.)/);
    await screenshot(page, "en-match-over");
    await page.click("#result-close");
    assert.match(await page.textContent("#status"), /Match over\./);
    assert.equal(await page.$$eval("#history li", (li) => li.length), 1, "the finished match is in History");
    await page.waitForFunction(() => localStorage.getItem("heartslib-web/match") === null, null, { timeout: 5000 });
  });

  await step("bug: a match finished just before the page closes is not lost", async () => {
    // one hand before the end of a match: every total 95-98, so the hand ends it
    const saved = savedMatch(PYTHON, WEB, { scores: [95, 96, 97, 98] });
    await page.evaluate((text) => localStorage.setItem("heartslib-web/match",
      JSON.stringify({ match: text, shown: 0, id: "near-end" })), saved);
    await page.goto(`${base}?delay=0&pause=4000`);
    await waitReady(page);
    let plays = 0;
    for (; plays < 14; plays++) {
      await page.waitForFunction(() => (document.body.dataset.turn === "you" && !document.body.dataset.running) ||
        document.body.dataset.phase === "scored", null, { timeout: 30_000 });
      if (await page.evaluate(() => document.body.dataset.phase === "scored")) break;
      const legal = await codes(page, "#hand .card.legal");
      const n = (await codes(page, "#hand .card")).length;
      await page.click(`#hand .card.legal[data-code="${legal[0]}"]`, STRIP);
      await page.waitForFunction((k) => document.querySelectorAll("#hand .card").length === k - 1 ||
        document.body.dataset.phase === "scored", n, { timeout: 30_000 });
    }
    assert.ok(plays >= 1 && plays <= 13, `the last hand was played (${plays} cards)`);
    // The match is over and its last trick is in view: close the page before the score dialog.
    assert.equal(await page.evaluate(() => document.getElementById("result").open), false);
    await page.close();
    const again = watch(await en.newPage(), "en-reopened");
    current = again;
    await again.goto(`${base}?delay=0`);
    await waitReady(again);
    await again.waitForSelector("#result[open]");
    assert.ok(await again.$("#result-new"), "the final scores are shown after reopening");
    assert.equal(await again.$$eval("#history li", (li) => li.length), 2, "the match reached History before the page closed");
    await screenshot(again, "en-finished-after-reopen");
    await again.click("#result-close");
    assert.equal(await again.$$eval("#history li", (li) => li.length), 2, "recorded once");
  });

  const page2 = en.pages()[0];
  current = page2;

  await step("bug: a damaged save is explained, kept aside, and a new game offered", async () => {
    // Closing the finished match's scores removes its save, after the engine's pending saves: wait for that,
    // or the removal can land after the damaged record written here and take it away (a new game then opens).
    await page2.waitForFunction(() => localStorage.getItem("heartslib-web/match") === null, null, { timeout: 5000 });
    await page2.evaluate(() => localStorage.setItem("heartslib-web/match", '{"match": "{\\"format\\": 1}", "shown": 0}'));
    await page2.reload();
    await waitReady(page2);
    await page2.waitForSelector("#damaged[open]");
    const text = await page2.evaluate(() => document.getElementById("damaged").innerText);
    assert.match(text, /Your saved match could not be restored/);
    assert.doesNotMatch(await page2.textContent("#damaged p"), /Traceback|Error|File "/, "no raw Python error");
    assert.ok(await page2.evaluate(() => localStorage.getItem("heartslib-web/damaged-save")), "the damaged record is kept");
    await screenshot(page2, "en-damaged-save");
    await page2.click("#damaged-start");
    await page2.waitForSelector("body[data-phase=pass][data-turn=you]");
  });

  await step("bug: every damaged field of a save leads to the dialog and a working new game", async () => {
    await passThree(page2); // a match with moves, saved
    await page2.waitForFunction(() => JSON.parse(localStorage.getItem("heartslib-web/match") || "{}").match);
    const good = JSON.parse(await page2.evaluate(() => localStorage.getItem("heartslib-web/match")));
    const inner = JSON.parse(good.match);
    const cases = [
      ["a level that is not text", { ...good, match: JSON.stringify({ ...inner, level: ["normal"] }) }, "en"],
      ["shown: -1", { ...good, shown: -1 }, "th"],
      ["shown past the hands played", { ...good, shown: 3 }, "en"],
      ["recorded not a boolean", { ...good, recorded: "yes" }, "en"],
      ["an unknown field", { ...good, extra: 1 }, "th"],
    ];
    for (const [what, record, lang] of cases) {
      await page2.evaluate(([text, l]) => {
        localStorage.setItem("heartslib-web/match", text);
        localStorage.setItem("heartslib-web/lang", l);
      }, [JSON.stringify(record), lang]);
      await page2.reload();
      await waitReady(page2);
      await page2.waitForSelector("#damaged[open]", { timeout: 30_000 }).catch(() => {
        throw new Error(`${what}: no damaged-save dialog`);
      });
      const detail = await page2.textContent("#damaged-detail");
      if (lang === "th") {
        // bug: English error details inside the Thai page
        assert.doesNotMatch(await page2.evaluate(() => document.getElementById("damaged").innerText), /[A-Za-z]{3,}/,
          `${what}: no English inside the Thai dialog`);
        await screenshot(page2, "th-damaged-save");
      } else {
        assert.match(detail, /saved record|saved moves/, `${what}: ${detail}`);
      }
      assert.ok(await page2.getAttribute("#damaged-detail", "data-detail"), `${what}: the English reason is kept for bug reports`);
      if (lang === "th") assert.doesNotMatch(detail, /[A-Za-z]{3,}/, `${what}: the Thai detail is Thai`);
      await page2.click("#damaged-start");
      await page2.waitForSelector("body[data-phase=pass][data-turn=you]:not([data-running])");
      // the new game's save is written before the next case writes its damaged record
      await page2.waitForFunction(() => localStorage.getItem("heartslib-web/match"));
      assert.equal(await page2.isDisabled("#new-game"), false, `${what}: the page works`);
    }
    await page2.evaluate(() => localStorage.setItem("heartslib-web/lang", "en"));
    await page2.reload();
    await waitReady(page2);
  });

  await step("bug: a malformed History entry is skipped and reported, and play goes on", async () => {
    await page2.evaluate(() => {
      const history = JSON.parse(localStorage.getItem("heartslib-web/history"));
      history.push({ variant: "standard", scores: [1, 2, 3, 4], winners: "West" }, 42, null, { scores: "x" });
      localStorage.setItem("heartslib-web/history", JSON.stringify(history));
    });
    const kept = await page2.$$eval("#history li", (li) => li.length);
    await page2.reload();
    await waitReady(page2);
    await page2.waitForSelector("body[data-phase=pass][data-turn=you]");
    assert.equal(await page2.$$eval("#history li", (li) => li.length), kept, "the good entries are listed");
    assert.match(await page2.textContent("#history-skipped"), /4 unreadable entries were set aside/);
    assert.equal(await page2.evaluate(() => JSON.parse(localStorage.getItem("heartslib-web/damaged-history")).length), 4,
      "the bad entries are kept aside");
    await passThree(page2); // the computer players move: nothing is frozen
    assert.ok((await codes(page2, "#hand .card.legal")).length >= 1);
    await screenshot(page2, "en-history-skipped");
  });

  await step("bug: two tabs on one match: one plays, the other says so and can take over", async () => {
    const hand = await codes(page2, "#hand .card");
    const second = watch(await en.newPage(), "en-second-tab");
    current = second;
    await second.goto(`${base}?delay=0&tabwait=300`);
    await waitReady(second);
    await second.waitForSelector("#other-tab[open]");
    assert.match(await second.textContent("#other-tab-title"), /open in another tab/);
    assert.deepEqual(await codes(second, "#hand .card"), hand, "the second tab shows the match as saved");
    await screenshot(second, "en-second-tab");
    // The first tab plays on undisturbed.
    assert.equal(await page2.evaluate(() => document.getElementById("other-tab").open), false);
    // Move the match to the second tab: the first one stops and says where it went.
    await second.click("#other-tab-here");
    await second.waitForFunction(() => !document.getElementById("other-tab").open);
    await page2.waitForSelector("#other-tab[open]");
    assert.match(await page2.textContent("#other-tab-title"), /moved to another tab/);
    assert.deepEqual(await codes(second, "#hand .card"), hand, "the match goes on from the last move");
    await waitForHuman(second);
    const [card] = await codes(second, "#hand .card.legal");
    const held = (await codes(second, "#hand .card")).length;
    await second.click(`#hand .card[data-code="${card}"]`, STRIP);
    // the play is drawn before the computer players' turns: wait for it, not only for "your turn",
    // which is still true the moment after the click
    await second.waitForFunction((n) => document.querySelectorAll("#hand .card").length < n, held);
    await waitForHuman(second);
    const after = await codes(second, "#hand .card");
    assert.ok(!after.includes(card));
    await second.waitForTimeout(500); // its last save written
    // The first tab cannot play (nor take back) meanwhile: its table is under the dialog.
    await screenshot(page2, "en-match-moved");
    // Closing the second tab gives the match back to the first, with the second tab's moves.
    await second.close();
    current = page2;
    await page2.waitForFunction(() => !document.getElementById("other-tab").open, null, { timeout: 15_000 });
    await waitForHuman(page2);
    assert.deepEqual(await codes(page2, "#hand .card"), after, "the first tab goes on from the second tab's last move");
    // and it plays again: a new game at its first pass, as the next steps expect
    await newGame(page2, "standard", "normal", "Normal");
  });

  await step("new game with other rules and level; replay deals the same cards", async () => {
    const dealt = await codes(page2, "#hand .card");
    await passThree(page2);
    await page2.click("#replay");
    await page2.waitForSelector("#new-dialog[open]");
    assert.match(await page2.textContent("#new-warning"), /restarts from its first deal/);
    await page2.click("#new-start");
    await page2.waitForSelector("body[data-hand='1'][data-phase=pass][data-turn=you]");
    assert.deepEqual(await codes(page2, "#hand .card"), dealt, "replay restarts with the same deal");
    await newGame(page2, "pink_lady", "easy", "Easy");
    assert.match(await page2.textContent("#target"), /Pink lady/);
    assert.notDeepEqual(await codes(page2, "#hand .card"), dealt, "a new game deals new cards");
    assert.match(await page2.textContent("#versions"), /computer players: Easy/);
    await screenshot(page2, "en-pink-lady-easy");
  });

  await step("the language switch is visible and remembered", async () => {
    await page2.click("#lang button[data-lang=th]");
    assert.equal(await page2.getAttribute("html", "lang"), "th");
    assert.match(await page2.textContent("#status"), /เลือกไพ่ 3 ใบ/);
    assert.deepEqual(await headersOneLine(page2), [], "each Thai score header is one line");
    await page2.reload();
    await waitReady(page2);
    assert.equal(await page2.getAttribute("html", "lang"), "th", "the choice survives a reload");
    assert.equal(await page2.getAttribute("#lang button[data-lang=th]", "aria-pressed"), "true");
    await page2.click("#lang button[data-lang=en]");
    assert.equal(await page2.getAttribute("html", "lang"), "en");
  });

  await step("the hard level: the search player plays in the browser, its turns timed", async () => {
    await newGame(page2, "standard", "hard", "Hard");
    await passThree(page2);
    const times = await timeTurns(page2, 3);
    figures.hardTrickMs = times;
    t.diagnostic(`hard level: from one play of the human to the next ${times.join(", ")} ms (the computer players' ` +
      "three turns, with animations)");
    await screenshot(page2, "en-hard-level");
    // back to a match at its first pass, as the steps after this one expect
    await newGame(page2, "pink_lady", "easy", "Easy");
  });

  await step("the speed setting: both languages, kept, and what a player waits at Normal and at Fast", async () => {
    // Without ?delay in the address, the setting sets the computer players' pauses.
    await page2.goto(base);
    await waitReady(page2);
    await page2.waitForSelector("body[data-phase=pass][data-turn=you]");
    assert.equal(await page2.evaluate(() => document.body.dataset.speed), "normal", "Normal until another is chosen");
    const lang = (l) => page2.evaluate((x) => document.querySelector(`#lang button[data-lang="${x}"]`).click(), l);
    const speeds = () => page2.$$eval("#speed-choices .choice b", (bs) => bs.map((b) => b.textContent));
    await page2.click("#settings-button");
    await page2.waitForSelector("#settings[open]");
    assert.deepEqual(await speeds(), ["Slow", "Normal", "Fast", "Instant"]);
    assert.ok(await page2.isChecked("#speed-choices input[value=normal]"));
    await lang("th");
    assert.equal(await page2.textContent("#settings-title"), "ตั้งค่า");
    assert.deepEqual(await speeds(), ["ช้า", "ปกติ", "เร็ว", "ทันที"]);
    await lang("en");
    await page2.click("#settings-close");
    await passThree(page2);
    const normal = await timeTurns(page2, 4);
    await page2.click("#settings-button");
    await page2.check("#speed-choices input[value=fast]");
    await page2.click("#settings-close");
    assert.equal(await page2.evaluate(() => document.body.dataset.speed), "fast");
    const fast = await timeTurns(page2, 4);
    figures.turnMs = { normal, fast };
    t.diagnostic(`from a play to the next turn (easy level; the three computer players' turns with their pauses): ` +
      `Normal ${normal.join(", ")} ms (median ${median(normal)}), Fast ${fast.join(", ")} ms (median ${median(fast)})`);
    for (const ms of [...normal, ...fast]) assert.ok(ms < 30_000, `a turn came back after ${ms} ms`); // generous: a busy machine
    // The choice is kept with the settings (the rules and level of the last new game stay too).
    const kept = await page2.evaluate(() => JSON.parse(localStorage.getItem("heartslib-web/settings")));
    assert.deepEqual(kept, { preset: "pink_lady", level: "easy", speed: "fast" });
    await page2.reload();
    await waitReady(page2);
    assert.equal(await page2.evaluate(() => document.body.dataset.speed), "fast", "the speed survives a reload");
    await page2.click("#settings-button");
    assert.ok(await page2.isChecked("#speed-choices input[value=fast]"));
    await page2.check("#speed-choices input[value=normal]");
    await page2.click("#settings-close");
    // the next steps play with no pauses
    await page2.goto(`${base}?delay=0`);
    await waitReady(page2);
  });

  await step("screenshots of every key moment at 1280×900, in English and Thai", async () => {
    await tour(page2, { base, size: "1280x900", shoot: screenshot, python: PYTHON, web: WEB, phone: false });
  });

  // ------------------------------------------------------------------ Thai, a 375×740 phone, reduced motion
  await step("a whole match in Thai on a phone, with reduced motion", async () => {
    const th = await browser.newContext({ viewport: { width: 375, height: 740 }, locale: "th-TH",
      reducedMotion: "reduce", isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const phone = watch(await th.newPage(), "th");
    current = phone;
    await phone.goto(`${base}?seed=77&agents=5&delay=0&message=1500`);
    await waitReady(phone);
    await phone.waitForSelector("body[data-phase=pass][data-turn=you]");
    assert.equal(await phone.getAttribute("html", "lang"), "th", "a Thai browser gets Thai");
    assert.match(await phone.textContent("#status"), /รอบที่ 1: เลือกไพ่ 3 ใบเพื่อส่งให้ตะวันตก \(ซ้าย\)/);
    assert.equal(await phone.evaluate(() => getComputedStyle(document.querySelector("#hand .card")).animationName),
      "none", "no animation with prefers-reduced-motion");
    // One screen: the hand, the trick and the pass button fit 375×740 without sideways scrolling.
    for (const selector of ["#hand", "#trick", "#pass-button", "#status"]) {
      const b = await box(phone, selector);
      assert.ok(b.y >= 0 && b.bottom <= 740 && b.x >= 0 && b.right <= 375, `${selector} fits the phone screen: ${JSON.stringify(b)}`);
    }
    const cards = await phone.$$eval("#hand .card", (els) => els.map((e) => e.getBoundingClientRect().right));
    assert.ok(Math.max(...cards) <= 375, "the whole hand fits the width");
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 375), "no sideways scrolling");
    await checkTapTargets(phone, "375×740, the first pass");
    await screenshot(phone, "th-phone-pass");

    await phone.click("#guide-button");
    await phone.waitForSelector("#guide[open]");
    const guide = await box(phone, "#guide");
    assert.ok(guide.y >= 0 && guide.y < 100 && guide.h <= 740, `the guide opens in view on a phone: ${JSON.stringify(guide)}`);
    assert.equal(await phone.textContent("#guide-title"), "คำแนะนำฉบับสมบูรณ์");
    const body = await phone.textContent("#guide-body");
    for (const phrase of ["แหม่มโพดำไม่ปลดข้อห้าม", "ถ้าต่ำสุดเท่ากันจะชนะร่วมกัน", "ไม่ใช่คำรับรองการเล่นระดับผู้เชี่ยวชาญ",
      "การล้างข้อมูลเบราว์เซอร์ลบบันทึกเหล่านี้", "เล่นซ้ำเริ่มด้วยการแจกเดิม", "ไม่มีคู่แข่งสดหรือการเดิมพัน", "กติกาโดยละเอียด",
      "ความเร็วเลือกได้ที่ตั้งค่า (⚙ บนโทรศัพท์): ช้า ปกติ เร็ว หรือทันที"]) {
      assert.ok(body.includes(phrase), `the Thai guide says "${phrase}"`);
    }
    await screenshot(phone, "th-phone-guide");
    await phone.click("#guide-close");

    await passThree(phone);
    await checkTapTargets(phone, "375×740, playing");
    const illegal = await codes(phone, "#hand .card.illegal");
    await phone.click(`#hand .card[data-code="${illegal[0]}"]`, STRIP);
    await phone.waitForSelector("#message:not([hidden])");
    const refusal = await phone.textContent("#message");
    t.diagnostic(`Thai refusal: ${refusal}`);
    assert.match(refusal, /[\u0E00-\u0E7F]/, "the refusal is in Thai");
    assert.doesNotMatch(refusal, /[a-z]{4,}/, "no English words in the Thai refusal");
    await checkMessagePlace(phone);
    await screenshot(phone, "th-phone-refusal");
    // Thai words for players: no programmers' jargon, headers that do not break inside a name.
    const view = await phone.evaluate(() => document.body.innerText);
    for (const word of ["heartslib", "Pyodide", "Python", "ฮิวริสติก", "ตัวแปร"]) {
      assert.ok(!view.includes(word), `the Thai page shows "${word}"`);
    }
    assert.deepEqual(await headersOneLine(phone), [], "each score header is one line on the phone");

    const hands = await playMatch(phone, "th-phone");
    t.diagnostic(`the Thai match took ${hands} hands`);
    assert.match(await phone.textContent("#result-winners"), /ชนะ/);
    await screenshot(phone, "th-phone-match-over");
    await tour(phone, { base, size: "375x740", shoot: screenshot, python: PYTHON, web: WEB, phone: true });
    await th.close();
  });

  await step("bug: a landscape phone (740×375) keeps the hand, the trick and the button on screen", async () => {
    for (const [lng, locale] of [["en", "en-US"], ["th", "th-TH"]]) {
      const ctx = await browser.newContext({ viewport: { width: 740, height: 375 }, locale, isMobile: true,
        hasTouch: true, deviceScaleFactor: 2 });
      const wide = watch(await ctx.newPage(), `${lng}-landscape`);
      current = wide;
      await wide.goto(`${base}?seed=31&agents=2&delay=0&message=800`);
      await waitReady(wide);
      await wide.waitForSelector("body[data-phase=pass][data-turn=you]");
      for (const selector of ["#hand", "#trick", "#pass-button", "#status"]) {
        const b = await box(wide, selector);
        assert.ok(b.y >= 0 && b.bottom <= 375 && b.x >= 0 && b.right <= 740, `${lng}: ${selector} fits 740×375: ${JSON.stringify(b)}`);
      }
      assert.ok(await wide.evaluate(() => document.documentElement.scrollWidth <= 740), "no sideways scrolling");
      await checkTapTargets(wide, `${lng} 740×375, the first pass`);
      await screenshot(wide, `${lng}-landscape-pass`);
      await passThree(wide);
      await checkTapTargets(wide, `${lng} 740×375, playing`);
      const illegal = await codes(wide, "#hand .card.illegal");
      if (illegal.length) {
        await wide.tap(`#hand .card[data-code="${illegal[0]}"]`, STRIP);
        await wide.waitForSelector("#message:not([hidden])");
        await checkMessagePlace(wide);
        await screenshot(wide, `${lng}-landscape-refusal`);
        await waitMessageGone(wide);
      }
      const b = await box(wide, "#hand");
      assert.ok(b.bottom <= 375, `${lng}: the hand stays on screen while playing: ${JSON.stringify(b)}`);
      await screenshot(wide, `${lng}-landscape-play`);
      if (lng === "en") await tour(wide, { base, size: "740x375", shoot: screenshot, python: PYTHON, web: WEB, phone: true });
      await ctx.close();
    }
  });

  // ------------------------------------------------------------------ issue 52: storage, clicks, focus, layout
  // A page in a context of its own (its own storage and offline cache: a cold start), at 1280×900 unless told.
  const freshPage = async (label, options = {}, query = "?delay=0") => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US", ...options });
    if (options.init) await ctx.addInitScript(options.init);
    const p = watch(await ctx.newPage(), label);
    current = p;
    await p.goto(`${base}${query}`);
    await waitReady(p);
    return { ctx, p };
  };
  // Where a person clicks or taps each card of the hand (its visible corner), and what is really there.
  const corners = (p) => p.$$eval("#hand .card", (cards, at) => cards.map((c) => {
    const r = c.getBoundingClientRect();
    const x = r.left + at.x;
    const y = r.top + at.y;
    const hit = document.elementFromPoint(x, y);
    const slot = hit?.closest(".slot");
    return { code: c.dataset.code, x, y, legal: c.classList.contains("legal"), free: Boolean(hit && c.contains(hit)),
      on: slot ? `the trick's slot ${slot.dataset.seat}` : hit?.id || hit?.className || null };
  }), STRIP.position);
  // Another page of the same origin (a user site shares one origin) fills localStorage until no character fits.
  const fillStorage = (p) => p.evaluate(() => {
    let n = 0;
    for (let size = 1 << 23; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          localStorage.setItem(`another-app/${n}`, "x".repeat(size));
          n += 1;
        } catch {
          break;
        }
      }
    }
    return n;
  });
  const emptyStorage = (p) => p.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith("another-app/")) localStorage.removeItem(key);
  });
  const playFirst = async (p) => {
    const [card] = await codes(p, "#hand .card.legal");
    const held = (await codes(p, "#hand .card")).length;
    await p.click(`#hand .card[data-code="${card}"]`, STRIP);
    await p.waitForFunction((n) => document.querySelectorAll("#hand .card").length < n, held);
    await waitForHuman(p);
  };
  const stored = (p, key) => p.evaluate((k) => localStorage.getItem(k), key);
  // A page of the storage steps at a new match's first pass: its storage emptied from another document of the
  // origin first, so that no save of the game is in flight.
  const restart = async (p, query = "?seed=11&agents=3&delay=0") => {
    current = p;
    await p.goto(`${base}manifest.json`);
    await p.evaluate(() => localStorage.clear());
    await p.goto(`${base}${query}`);
    await waitReady(p);
    await p.waitForSelector("body[data-phase=pass][data-turn=you]:not([data-running])");
  };

  await step("bug: a trick just taken swallows no click or tap on the hand (1280×900, 375×740 touch, 740×375)", async () => {
    const phone = { isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
    const sizes = [["1280x900", {}], ["375x740", { viewport: { width: 375, height: 740 }, ...phone }],
      ["740x375", { viewport: { width: 740, height: 375 }, ...phone }]];
    const swallowed = [];
    for (const [size, options] of sizes) {
      // the issue's repro: pass the last three cards, play the first highlighted card each turn
      const { ctx, p } = await freshPage(`trick-${size}`, options, "?seed=11&agents=3&delay=0");
      await p.waitForSelector("body[data-phase=pass][data-turn=you]");
      for (const code of (await codes(p, "#hand .card.passable")).slice(-3)) await p.click(`#hand .card[data-code="${code}"]`, STRIP);
      // low: a received card's "new" covers nothing of the status line (it did on a landscape phone); here the
      // first trick has a card before the human plays, so the badges are drawn on three cards for a moment
      const status = await box(p, ".status-row");
      const hand = await box(p, "#hand");
      const badges = await p.$$eval("#hand .card", (cards) => cards.slice(0, 3).map((card) => {
        card.classList.add("received");
        const r = card.querySelector(".badge").getBoundingClientRect();
        card.classList.remove("received");
        return { x: r.x, y: r.y, right: r.right, bottom: r.bottom };
      }));
      // (the badges' tops move with the cards' entrance, 0.5 to 3.5 px above the hand's top in CI runs: the
      // check is the one the bug was about, a badge over the status line)
      assert.ok(badges.every((b) => !overlaps(b, status)),
        `${size}: no "new" badge leaves the hand for the status line: ${JSON.stringify({ badges, hand, status })}`);
      await p.click("#pass-button");
      await p.waitForFunction(() => document.body.dataset.phase !== "pass", null, { timeout: 30_000 });
      let taken = 0;
      for (let turn = 0; turn < 13; turn++) {
        await waitForHuman(p);
        if (await p.evaluate(() => document.getElementById("result").open)) break;
        const held = (await codes(p, "#hand .card")).length;
        // low: one "+N ♥" at a time a seat; each card on the table is named with its player for screen readers
        assert.ok(await p.$$eval(".seat", (seats) => seats.every((seat) => seat.querySelectorAll(".gain").length <= 1)),
          `${size}: the points' pop-ups do not stack`);
        const labels = await p.$$eval("#trick .card", (cards) => cards.map((c) => c.getAttribute("aria-label")));
        assert.ok(labels.every((l) => /^(You|West|North|East)( \(led\))?: \w+ of \w+$/.test(l)), `${size}: ${labels}`);
        if (!(await p.$("#trick.done.collect-0"))) {
          await p.click(`#hand .card[data-code="${(await codes(p, "#hand .card.legal"))[0]}"]`, STRIP);
          await p.waitForFunction((n) => document.querySelectorAll("#hand .card").length < n, held);
          continue;
        }
        // The trick has swept to the human's seat and ended invisible, over the hand.
        await p.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
        taken += 1;
        const points = await corners(p);
        const target = points.find((c) => c.legal);
        if (options.hasTouch) await p.touchscreen.tap(target.x, target.y);
        else await p.mouse.click(target.x, target.y);
        const played = await p.waitForFunction((n) => document.querySelectorAll("#hand .card").length < n, held,
          { timeout: 5000 }).then(() => true, () => false);
        const covered = points.filter((c) => !c.free).map((c) => `${c.code} under ${c.on}`);
        if (covered.length) swallowed.push(`${size}, trick ${13 - held + 1}: ${covered.join(", ")}`);
        if (!played) {
          swallowed.push(`${size}, trick ${13 - held + 1}: a ${options.hasTouch ? "tap" : "click"} on ${target.code} did nothing`);
          await screenshot(p, `${size}-click-swallowed`);
          break;
        }
      }
      t.diagnostic(`${size}: the human took ${taken} tricks and led after each`);
      assert.ok(taken >= 1, `${size}: the hand had a trick taken by the human`);
      await ctx.close();
    }
    assert.deepEqual(swallowed, [], "after taking a trick every card's corner takes the click or tap");
  }, { alone: true });

  const { ctx: kept, p: sp } = await freshPage("storage", {}, "?seed=11&agents=3&delay=0");
  // restart() visits manifest.json, a document the browser asks a favicon for
  await kept.route("**/favicon.ico", (route) => route.fulfill({ status: 204 }));

  await step("bug: after Pass the keyboard focus is on the hand, on the first playable card", async () => {
    await restart(sp);
    // Three cards chosen, the focus moved on to a card kept, one Tab to the button, Enter.
    const passable = await codes(sp, "#hand .card.passable");
    for (const code of passable.slice(0, 3)) await sp.click(`#hand .card[data-code="${code}"]`, STRIP);
    await sp.focus(`#hand .card[data-code="${passable[3]}"]`);
    await sp.keyboard.press("Tab");
    assert.equal(await sp.evaluate(() => document.activeElement.id), "pass-button");
    await sp.keyboard.press("Enter");
    await sp.waitForFunction(() => document.body.dataset.phase !== "pass", null, { timeout: 30_000 });
    await waitForHuman(sp);
    const focused = await sp.evaluate(() => document.activeElement?.closest?.("#hand .card")?.dataset.code
      ?? `not the hand: ${document.activeElement?.tagName}`);
    assert.equal(focused, (await codes(sp, "#hand .card.legal"))[0], "the first playable card has the focus");
    const held = (await codes(sp, "#hand .card")).length;
    await sp.keyboard.press("Enter");
    await sp.waitForFunction((n) => document.querySelectorAll("#hand .card").length < n, held);
  }, { alone: true });

  await step("bug: the hand stays put all hand long, however many point cards the others take", async () => {
    await restart(sp);
    await passThree(sp);
    const places = new Set();
    const where = async () => JSON.stringify(await box(sp, "#hand"));
    for (let turn = 0; turn < 13; turn++) {
      await waitForHuman(sp);
      if (await sp.evaluate(() => document.getElementById("result").open)) break;
      places.add(await where());
      if ((await codes(sp, "#hand .card")).length === 1) {
        // the most a seat can take: every heart, Q♠, J♦ (omnibus) and 10♣ (some tables), in each opponent's seat
        const before = await where();
        await sp.evaluate(() => {
          const all = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"].map((r) => `${r}♥`)
            .concat(["Q♠", "J♦", "10♣"]);
          for (const seat of [1, 2, 3]) {
            document.querySelector(`#seat-${seat} .taken`).replaceChildren(...all.map((text) => Object.assign(
              document.createElement("span"), { className: "chip red suit-H", textContent: text })));
          }
        });
        assert.equal(await where(), before, "sixteen point cards in every opponent's seat move nothing");
      }
      await playFirst(sp);
    }
    // the bug was a jump of a row of cards (~18 px); a pixel or two of rounding as the taken cards' line boxes
    // fill is not a jump (CI's Chromium rounded one way, a developer's the other)
    const tops = [...places].map((p) => JSON.parse(p).y);
    const lefts = new Set([...places].map((p) => JSON.parse(p).x));
    assert.ok(Math.max(...tops) - Math.min(...tops) <= 4 && lefts.size === 1,
      `the hand stayed in one place: ${[...places].join(" ")}`);
  }, { alone: true });

  await step("bug: a damaged save too big to copy aside: the game starts, keeps it and offers it", async () => {
    await restart(sp);
    // the issue's repro: two copies of it do not fit the origin's storage (written while no game runs)
    await sp.goto(`${base}manifest.json`);
    await sp.evaluate(() => localStorage.setItem("heartslib-web/match", "x".repeat(3e6)));
    await sp.goto(`${base}?delay=0`);
    await waitReady(sp);
    await sp.waitForSelector("#damaged[open]");
    assert.equal(await sp.getAttribute("#damaged", "data-kept"), "true", "moved aside");
    assert.deepEqual([(await stored(sp, "heartslib-web/damaged-save"))?.length, await stored(sp, "heartslib-web/match")],
      [3e6, null], "the damaged record moved to its own key");
    assert.doesNotMatch(await sp.textContent("#damaged-body"), /heartslib-web|key /, "no developer words");
    const [download] = await Promise.all([sp.waitForEvent("download"), sp.click("#damaged-download")]);
    assert.equal(readFileSync(await download.path(), "utf8").length, 3e6, "the download is the damaged record");
    await sp.click("#damaged-start");
    await sp.waitForSelector("body[data-phase=pass][data-turn=you]:not([data-running])");
    await sp.waitForFunction(() => localStorage.getItem("heartslib-web/match"));
    assert.equal(await sp.isDisabled("#new-game"), false, "the page works");
    assert.ok(await sp.isHidden("#storage-note"), "nothing to say about the storage: the new game is saved");
  }, { alone: true });

  await step("bug: storage full: the game frees its own leftovers, then says so and plays on in memory", async () => {
    await restart(sp);
    await passThree(sp);
    // Room the game can make: History entries it could not read, set aside earlier.
    await sp.evaluate(() => localStorage.setItem("heartslib-web/damaged-history", JSON.stringify(["x".repeat(20_000)])));
    await fillStorage(sp);
    await playFirst(sp);
    await sp.waitForFunction(() => localStorage.getItem("heartslib-web/damaged-history") === null, null, { timeout: 10_000 });
    const held = (await codes(sp, "#hand .card")).length;
    await sp.waitForFunction((n) => JSON.parse(localStorage.getItem("heartslib-web/match") || "{}").match, held);
    assert.ok(await sp.isHidden("#storage-note"), "saved in the room made: nothing to say");
    // No room left: the move is not saved, the older save goes (a reload must not take the move back), and the
    // page says so, on the table (a phone's side panel is out of view) and in the side panel.
    await fillStorage(sp);
    await playFirst(sp);
    await sp.waitForSelector("#storage-note:not([hidden])", { timeout: 10_000 });
    assert.match(await sp.textContent("#storage-note"), /storage is full.*not being saved.*reloading or closing the page ends this match/);
    assert.match(await sp.textContent("#message"), /storage is full/);
    await sp.waitForFunction(() => localStorage.getItem("heartslib-web/match") === null, null, { timeout: 5000 });
    await screenshot(sp, "en-storage-full");
    // The language switch, the speed and New game work.
    await sp.click("#lang button[data-lang=th]");
    assert.equal(await sp.getAttribute("html", "lang"), "th");
    assert.match(await sp.textContent("#storage-note"), /พื้นที่เก็บข้อมูลของเบราว์เซอร์นี้เต็ม/);
    await sp.click("#lang button[data-lang=en]");
    assert.equal(await sp.getAttribute("html", "lang"), "en");
    await sp.click("#settings-button");
    await sp.check("#speed-choices input[value=fast]");
    await sp.click("#settings-close");
    assert.equal(await sp.evaluate(() => document.body.dataset.speed), "fast", "the speed applies");
    await newGame(sp, "standard", "normal", "Normal");
    // The new game fitted in the room the older save left; the pass does not: a reload then starts anew, it
    // does not go back to the new game's deal before the pass.
    await fillStorage(sp);
    await passThree(sp);
    await sp.waitForSelector("#storage-note:not([hidden])", { timeout: 10_000 });
    await sp.waitForFunction(() => localStorage.getItem("heartslib-web/match") === null, null, { timeout: 5000 });
    await sp.reload();
    await waitReady(sp);
    await sp.waitForSelector("body[data-phase=pass][data-turn=you]");
    assert.doesNotMatch(await sp.textContent("#notice"), /restored/, "no older move comes back");
    await emptyStorage(sp);
  }, { alone: true });

  await step("bug: a damaged save with no room to copy it: kept in place, explained, offered as a file", async () => {
    await restart(sp);
    await passThree(sp);
    await sp.waitForFunction(() => JSON.parse(localStorage.getItem("heartslib-web/match") || "{}").match);
    const cut = (await stored(sp, "heartslib-web/match")).slice(0, -10);
    await sp.close();
    // A page where the copy aside cannot be written (the storage full, for that one key).
    const q = watch(await kept.newPage(), "storage-no-copy");
    current = q;
    await q.addInitScript(() => {
      const set = Storage.prototype.setItem;
      Storage.prototype.setItem = function setItem(key, value) {
        if (key === "heartslib-web/damaged-save") throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        return set.call(this, key, value);
      };
    });
    await q.goto(`${base}?delay=0`);
    await q.evaluate((text) => localStorage.setItem("heartslib-web/match", text), cut);
    await q.reload();
    await waitReady(q);
    await q.waitForSelector("#damaged[open]");
    assert.equal(await q.getAttribute("#damaged", "data-kept"), "false");
    assert.match(await q.textContent("#damaged-body"), /storage is full, so no copy of it could be kept aside: download it/);
    assert.equal(await stored(q, "heartslib-web/match"), cut, "the damaged record stays where it was");
    const [download] = await Promise.all([q.waitForEvent("download"), q.click("#damaged-download")]);
    assert.equal(readFileSync(await download.path(), "utf8"), cut);
    // the language switch under the dialog (it is modal), as a player would before opening the page
    const language = (l) => q.evaluate((x) => document.querySelector(`#lang button[data-lang="${x}"]`).click(), l);
    await language("th");
    assert.match(await q.textContent("#damaged-body"), /พื้นที่เก็บข้อมูลของเบราว์เซอร์นี้เต็ม/);
    assert.doesNotMatch(await q.evaluate(() => document.getElementById("damaged").innerText), /[A-Za-z]{3,}/, "all Thai");
    await screenshot(q, "th-damaged-not-kept");
    await language("en");
    await q.click("#damaged-start");
    await q.waitForSelector("body[data-phase=pass][data-turn=you]:not([data-running])");
    await q.waitForFunction((old) => localStorage.getItem("heartslib-web/match") !== old, cut);
    await kept.close();
  }, { alone: true });

  await step("low: a tampered History of 5,000 entries costs a turn nothing; the footer has no developer words", async () => {
    const { ctx, p } = await freshPage("history-5000");
    await p.evaluate(() => {
      const entry = (i) => ({ id: `m${i}`, when: "2026-01-01T00:00:00Z", preset: "standard", level: "normal",
        scores: [10, 20, 30, 101], winners: [0] });
      localStorage.setItem("heartslib-web/history", JSON.stringify(Array.from({ length: 5000 }, (_, i) => entry(i))));
    });
    await p.reload();
    await waitReady(p);
    await passThree(p);
    assert.equal(await p.$$eval("#history li", (li) => li.length), 30, "the latest 30 are read and listed");
    const [ms] = await timeTurns(p, 1);
    t.diagnostic(`a turn with a 5,000-entry History: ${ms} ms`);
    assert.ok(ms < 3000, `a turn took ${ms} ms`);
    assert.doesNotMatch(await p.textContent("[data-t=footer]"), /heartslib|Pyodide/, "the footer speaks to players");
    await ctx.close();
  }, { alone: true });

  await step("bug: storage blocked: the game plays with nothing saved, and says so", async () => {
    const blocked = () => {
      for (const name of ["localStorage", "sessionStorage"]) {
        Object.defineProperty(window, name, { configurable: true,
          get() { throw new DOMException("Access is denied for this document.", "SecurityError"); } });
      }
    };
    const { ctx, p } = await freshPage("storage-blocked", { locale: "th-TH", init: blocked });
    await p.waitForSelector("body[data-phase=pass][data-turn=you]");
    assert.match(await p.textContent("#storage-note"), /เบราว์เซอร์นี้ไม่ให้หน้านี้เก็บข้อมูล/);
    assert.match(await p.textContent("#message"), /ไม่มีอะไรถูกบันทึก/);
    await p.click("#lang button[data-lang=en]");
    assert.match(await p.textContent("#storage-note"), /does not let the page store anything, so nothing is saved/);
    await screenshot(p, "en-storage-blocked");
    await passThree(p);
    await playFirst(p);
    await p.click("#settings-button");
    await p.check("#speed-choices input[value=fast]");
    await p.click("#settings-close");
    assert.equal(await p.evaluate(() => document.body.dataset.speed), "fast");
    await newGame(p, "pink_lady", "easy", "Easy");
    await p.reload();
    await waitReady(p);
    await p.waitForSelector("body[data-phase=pass][data-turn=you]");
    await ctx.close();
  }, { alone: true });

  current = page2;
  await step("a damaged Python snapshot falls back to a normal start", async () => {
    await page2.evaluate(async () => {
      const cache = await caches.open(`heartslib-web-${document.body.dataset.build}`);
      const key = (await cache.keys()).map((r) => r.url).find((u) => u.includes("python-snapshot-"));
      await cache.put(key ?? new URL(`python-snapshot-${document.body.dataset.build}.bin`, location.href).href,
        new Response("not a snapshot"));
    });
    const warnings = [];
    const onWarning = (msg) => { if (msg.type() === "warning") warnings.push(msg.text()); };
    const onWorker = (worker) => worker.on("console", onWarning);
    page2.on("console", onWarning);
    page2.on("worker", onWorker);
    await page2.reload();
    await waitReady(page2);
    await page2.waitForSelector("body[data-phase=pass][data-turn=you]");
    page2.off("console", onWarning);
    page2.off("worker", onWorker);
    assert.notEqual(await page2.evaluate(() => document.body.dataset.snapshot), "snapshot-restored");
    assert.ok(warnings.some((w) => w.includes("snapshot")), `the fallback is reported as a warning: ${warnings}`);
    // A new snapshot is taken and used by the next reload.
    await page2.waitForSelector("body[data-snapshot=snapshot-saved]", { timeout: 30_000 });
    await page2.reload();
    await waitReady(page2);
    await page2.waitForSelector("body[data-snapshot=snapshot-restored]");
  });

  // ------------------------------------------------------------------ offline
  current = page2;
  await step("a reload with the server gone still plays", async () => {
    server.kill();
    await new Promise((resolve) => server.once("exit", resolve));
    await page2.reload();
    await waitReady(page2);
    await page2.waitForSelector("body[data-phase=pass][data-turn=you]");
    // bug: the "playing offline" message was never shown
    await page2.waitForSelector("#offline:not([hidden])");
    assert.match(await page2.textContent("#offline"), /Playing offline/);
    await passThree(page2);
    assert.ok((await codes(page2, "#hand .card.legal")).length >= 1, "playable offline");
    await screenshot(page2, "en-offline");
    ({ server, base, log, port } = await startServer(port)); // for t.after
  });

  t.diagnostic(`load figures: ${JSON.stringify(figures)}`);
  t.diagnostic(`${shot} screenshots in ${OUT} (each listed above as it was taken)`);
  assert.deepEqual(problems, [], "no page errors, console errors or outside requests");
});
