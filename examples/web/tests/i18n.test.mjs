// Unit test of i18n.js (no browser): Thai and English have the same words, the guide is complete in
// both, and every IllegalAction code that docs/errors.md lists has a refusal in each language.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GUIDE, GUIDE_LEVELS_SECTION, LANGS, STRINGS, cardName, refusalText, rulesDetail } from "../i18n.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ERRORS = path.resolve(HERE, "..", "..", "..", "docs", "errors.md");

// Every key path with the kind of its value ("string", "function", "array:4", "object").
function shape(value, prefix = "") {
  if (typeof value === "function") return [[prefix, "function"]];
  if (Array.isArray(value)) return [[prefix, `array:${value.length}`]];
  if (value && typeof value === "object") {
    return Object.keys(value).sort().flatMap((k) => shape(value[k], prefix ? `${prefix}.${k}` : k));
  }
  return [[prefix, typeof value]];
}

test("Thai and English have exactly the same keys", () => {
  assert.deepEqual(LANGS.sort(), ["en", "th"]);
  assert.deepEqual(shape(STRINGS.th), shape(STRINGS.en));
});

test("the complete guide has the same sections in both languages", () => {
  assert.equal(GUIDE.th.length, GUIDE.en.length);
  for (let i = 0; i < GUIDE.en.length; i++) assert.equal(GUIDE.th[i][1].length, GUIDE.en[i][1].length, `section ${i}`);
  assert.ok(GUIDE.th.flat(2).join(" ").includes("แหม่มโพดำไม่ปลดข้อห้าม"));
  assert.ok(GUIDE_LEVELS_SECTION >= 0, "the page lists the levels in the guide's section on the computer players");
});

test("every IllegalAction code of docs/errors.md has a refusal in each language", () => {
  const doc = readFileSync(ERRORS, "utf8");
  const section = doc.slice(doc.indexOf("## IllegalAction codes"), doc.indexOf("## Save errors"));
  const codes = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 20, `found the codes table: ${codes}`);
  for (const lang of LANGS) {
    for (const code of codes) {
      assert.ok(STRINGS[lang].refusal[code], `${lang} has no refusal for ${code}`);
      const text = refusalText(lang, { code, card: { rank: "Q", suit: "S", code: "QS" }, cards: [], led: "C",
        waiting: [1], count: 3 }, STRINGS[lang].seats);
      assert.ok(text.length > 5 && !text.includes("undefined"), `${lang} ${code}: ${text}`);
    }
  }
  assert.equal(refusalText("en", { code: "must_lead_opening_card", cards: [{ rank: "2", suit: "C" }] }, []),
    "You must lead 2♣ to the first trick.");
  assert.match(refusalText("th", { code: "must_follow_suit", led: "H" }, []), /คุณยังมีโพแดง/);
});

test("card names and the rules in detail read in both languages", () => {
  assert.equal(cardName("en", { rank: "Q", suit: "S" }), "queen of spades");
  assert.equal(cardName("th", { rank: "Q", suit: "S" }), "แหม่มโพดำ");
  assert.equal(cardName("th", { rank: "2", suit: "C" }), "สองดอกจิก");
  const facts = { pass_count: 3, schedule: ["left", "right", "across", "hold"], hearts: "one", values: [["QS", 13]],
    penalty_total: 26, moon: { kind: "old", requires: "penalty_cards", points: 26 }, target: 100 };
  for (const lang of LANGS) {
    const lines = rulesDetail(lang, facts);
    assert.ok(lines.length >= 7 && lines.every((l) => !/source|joker|undefined/i.test(l)), lines.join("\n"));
  }
});

// Every Thai string the player can read, functions called with sample arguments.
function texts(value) {
  if (typeof value === "function") {
    try {
      return texts(value("X", 2, 3));
    } catch {
      return [];
    }
  }
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === "object") return Object.values(value).flatMap(texts);
  return typeof value === "string" ? [value] : [];
}

test("the Thai player's view has no programmers' words", () => {
  const thai = [...texts(STRINGS.th), ...texts(GUIDE.th)].join("\n");
  for (const word of ["heartslib", "Pyodide", "Python", "ฮิวริสติก", "ตัวแปร"]) {
    assert.ok(!thai.includes(word), `Thai text says "${word}"`);
  }
  assert.match(STRINGS.th.rules_for("มาตรฐาน"), /รูปแบบกติกา/);
  assert.equal(STRINGS.th.story.took("ตะวันตก", false, STRINGS.th.story.points(2)), "ตะวันตกเก็บกองนี้ (+2 ♥)");
  assert.equal(STRINGS.en.story.took("West", false, STRINGS.en.story.points(2)), "West takes the trick (+2 ♥)");
  assert.equal(STRINGS.en.story.took("You", true, STRINGS.en.story.points(0)), "You take the trick (no points)");
});
