// Helpers of the end-to-end test (e2e.test.mjs) for the screenshots of every key moment and the tap
// targets. Not a test file itself (node --test runs *.test.mjs only).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

// Where a person taps a card of the hand: its visible corner (the next card covers the rest).
export const STRIP = { position: { x: 8, y: 30 } };
const FINGER = 44; // CSS px: the smallest tap target on a phone (WCAG 2.5.5, Apple's and Google's guides)

// The text that the page saves for a match (localStorage heartslib-web/match), made by game.py itself on
// CPython: a deal of `hands` (four strings of card codes, seat 0 the human; none: seed 5's deal) at
// `scores`, in the fourth hand (no passing), the computer players at the normal level.
export function savedMatch(python, web, { scores, hands = null }) {
  const code = `
import sys; sys.path.insert(0, ${JSON.stringify(web)})
import heartslib as hl, game
v = hl.preset("standard")
hands = ${hands ? JSON.stringify(hands) : "None"}
if hands is None:
    deal = hl.Round.deal(v, seed=5)
    hands = [" ".join(c.code for c in deal.hand(s)) for s in range(4)]
match = hl.Match.from_deal(v, hands, scores=${JSON.stringify(scores)}, hand_number=3, seed=5)
game._session = game._Session(match, "standard", 7, "normal")
print(game.save())`;
  const proc = spawnSync(python, ["-c", code], { encoding: "utf8" });
  assert.equal(proc.status, 0, `could not make the saved match: ${proc.stderr}`);
  return proc.stdout.trim();
}

// A deal where West leads 2♣ and the human's only club is A♣: the human takes the first trick and
// leads the second, so "You take the trick" stays on screen until the human plays.
export function trickTakenDeal() {
  const ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
  const mine = ["AC", "AD", "KD", "QD", "JD", "AS", "KS", "JS", "TS", "2H", "3H", "4H", "5H"];
  const rest = "CDSH".split("").flatMap((s) => ranks.map((r) => r + s)).filter((c) => !mine.includes(c));
  const others = [[], [], []];
  rest.forEach((card, i) => others[i % 3].push(card)); // 2♣ comes first: West's
  return [mine.join(" "), ...others.map((h) => h.join(" "))];
}

// Each hand card shows at least a finger's width and height, and so does every button and choice on
// screen (dialogs included). Layout boxes (offsetLeft…), so that a lifted card is measured where it sits.
export async function checkTapTargets(page, what) {
  const small = await page.evaluate((finger) => {
    const out = [];
    const cards = [...document.querySelectorAll("#hand .card")];
    cards.forEach((card, i) => {
      const next = cards[i + 1];
      const sameRow = next && next.offsetTop === card.offsetTop;
      const w = sameRow ? next.offsetLeft - card.offsetLeft : card.offsetWidth;
      if (w < finger || card.offsetHeight < finger) out.push(`card ${card.dataset.code} ${w}×${card.offsetHeight}`);
    });
    const open = document.querySelector("dialog[open]");
    const scope = open ?? document;
    for (const node of scope.querySelectorAll("button, .choice")) {
      const r = node.getBoundingClientRect();
      if (!r.width || !node.checkVisibility()) continue;
      if (r.width < finger - 0.5 || r.height < finger - 0.5) {
        out.push(`${node.id || node.textContent.trim()} ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return out;
  }, FINGER);
  assert.deepEqual(small, [], `${what}: tap targets smaller than ${FINGER}×${FINGER} CSS px`);
}

// The moments a player meets, each screenshot in English and Thai at the page's size: the first pass,
// the dialogs (settings, new game, guide), a play, a trick taken, a hand's scores, the match's end.
// `page` is the only tab of its browser context; `shoot(page, name)` saves one screenshot.
export async function tour(page, { base, size, shoot, python, web, phone }) {
  await page.emulateMedia({ reducedMotion: "reduce" }); // no screenshot half-way through an animation
  const startLang = await page.getAttribute("html", "lang");
  let opened = 0;
  const both = async (moment) => {
    for (const lang of ["en", "th"]) {
      // The switch is in the header, which a modal dialog makes inert: press it from the script.
      await page.evaluate((l) => document.querySelector(`#lang button[data-lang="${l}"]`).click(), lang);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      await shoot(page, `${lang}-${size}-${moment}`);
    }
  };
  const levelShown = async () => {
    for (const [lang, words] of [["en", "Computer players: Normal"], ["th", "คอมพิวเตอร์ระดับปกติ"]]) {
      await page.evaluate((l) => document.querySelector(`#lang button[data-lang="${l}"]`).click(), lang);
      assert.equal(await page.textContent("#table-level"), words, `${size}: the level is shown on the table`);
    }
  };
  // A saved match (or none) in place as the page starts: written by a script that runs before the page's
  // own, once (after the page before it has gone, so that no save of the match in progress lands after it).
  const open = async (saved, query) => {
    opened += 1;
    await page.addInitScript(([token, text]) => {
      if (sessionStorage.getItem(`tour-opened-${token}`)) return;
      sessionStorage.setItem(`tour-opened-${token}`, "1");
      if (text) localStorage.setItem("heartslib-web/match", JSON.stringify({ match: text, shown: 0, id: `tour-${token}` }));
      else localStorage.removeItem("heartslib-web/match");
    }, [`${size}-${opened}`, saved]);
    await page.goto(`${base}${query}`);
    await page.waitForSelector("body[data-ready][data-phase]", { timeout: 90_000 });
  };
  const humanTurn = () => page.waitForFunction(() => document.getElementById("result").open ||
    (document.body.dataset.turn === "you" && !document.body.dataset.running), null, { timeout: 60_000 });
  const playOne = async () => {
    const [card] = await page.$$eval("#hand .card.legal", (els) => els.map((e) => e.dataset.code));
    const held = await page.$$eval("#hand .card", (els) => els.length);
    await page.click(`#hand .card[data-code="${card}"]`, STRIP);
    // the card leaves the hand first: "your turn" is still true just after the click
    await page.waitForFunction((n) => document.getElementById("result").open ||
      document.querySelectorAll("#hand .card").length < n, held);
    await humanTurn();
  };
  const playToScores = async () => {
    for (let i = 0; i < 14 && !(await page.evaluate(() => document.getElementById("result").open)); i++) await playOne();
    await page.waitForSelector("#result[open]");
  };
  const dialog = async (button, id, moment, close) => {
    await page.click(button);
    await page.waitForSelector(`#${id}[open]`);
    if (phone) await checkTapTargets(page, `${size} ${moment}`);
    await both(moment);
    await page.click(close);
    await page.waitForFunction((d) => !document.getElementById(d).open, id);
  };

  // The first pass of a new match, three cards chosen.
  await open(null, "?seed=2024&agents=3&delay=0&variant=standard&level=normal");
  await page.waitForSelector("body[data-phase=pass][data-turn=you]");
  const passable = await page.$$eval("#hand .card.passable", (els) => els.map((e) => e.dataset.code));
  for (const code of passable.slice(0, 3)) await page.click(`#hand .card[data-code="${code}"]`, STRIP);
  await page.waitForFunction(() => !document.getElementById("pass-button").disabled);
  await levelShown();
  if (phone) await checkTapTargets(page, `${size} first pass`);
  await both("first-pass");
  await dialog("#settings-button", "settings", "settings", "#settings-close");
  await dialog("#new-game", "new-dialog", "new-game-dialog", "#new-cancel");
  await dialog("#guide-button", "guide", "guide", "#guide-close");

  // A play: West has led 2♣ and the others followed; then the human's A♣ takes the trick.
  await open(savedMatch(python, web, { scores: [0, 0, 0, 0], hands: trickTakenDeal() }), "?delay=0");
  await humanTurn();
  assert.equal(await page.$$eval("#trick .slot .card", (els) => els.length), 3, "three cards on the table");
  if (phone) await checkTapTargets(page, `${size} play`);
  await both("play");
  await playOne();
  assert.ok(await page.$("#status .trick-line"), "the trick's line is on the status line");
  await levelShown();
  await both("trick-taken");
  await playToScores();
  assert.equal(await page.$("#result-new"), null, "a hand's scores, the match goes on");
  if (phone) await checkTapTargets(page, `${size} hand scores`);
  await both("hand-scores");

  // The end of a match (every total 95-98: the hand ends it).
  await open(savedMatch(python, web, { scores: [95, 96, 97, 98] }), "?delay=0");
  await humanTurn();
  await playToScores();
  assert.ok(await page.$("#result-new"), "the match is over");
  if (phone) await checkTapTargets(page, `${size} match end`);
  await both("match-end");
  await page.click("#result-close");
  await page.evaluate((l) => document.querySelector(`#lang button[data-lang="${l}"]`).click(), startLang);
  await page.emulateMedia({ reducedMotion: null });
}
