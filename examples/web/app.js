// The page: draws what game.py (heartslib in Pyodide, in a web worker) says and forwards clicks to it.
// No rule of Hearts lives here: which cards are legal, why a card is refused, what the computer
// players do, the scores and the end of the match all come from heartslib. This file words them
// (i18n.js), draws the table, keeps the match in localStorage and loads the game (with the offline
// cache of sw.js).

import { GUIDE, GUIDE_LEVELS_SECTION, LANGS, STRINGS, cardName, cardFromCode, refusalText, rulesDetail, short }
  from "./i18n.js";
import { session, store } from "./storage.js";

const KEYS = {
  save: "heartslib-web/match",
  history: "heartslib-web/history",
  lang: "heartslib-web/lang",
  settings: "heartslib-web/settings",
  damaged: "heartslib-web/damaged-save",
  damagedHistory: "heartslib-web/damaged-history",
};
// One tab owns the match (a Web Lock): a second tab says so and offers to move the match to it.
const LOCK = "heartslib-web/match-owner";
// What the game may throw away when the storage is full, in order: the History entries it could not read
// (set aside, never shown). A match's save may also drop its own older version (see saveNow).
const FREE_ASIDE = [() => store.remove(KEYS.damagedHistory)];
const CACHE_PREFIX = "heartslib-web-";
const params = new URLSearchParams(location.search);
// The computer players' pace, chosen under Settings (Speed): how long each pauses before its card
// (step) and how long a finished trick stays in view, and a finished hand before its scores (linger).
// The pauses, not the computer players' thinking, are most of what a player waits for.
const SPEEDS = {
  slow: { step: 1100, linger: 1650 },
  normal: { step: 650, linger: 975 },
  fast: { step: 250, linger: 450 },
  instant: { step: 0, linger: 0 },
};
const msParam = (name) => (params.has(name) ? Math.max(0, Number(params.get(name)) || 0) : null);
// ?delay=MS overrides the speed setting (0: the computer players move at once; the end-to-end test uses it).
const URL_DELAY = msParam("delay");
// ?pause=MS: how long a hand's last trick stays in view before its scores (default: the speed's linger).
const URL_PAUSE = msParam("pause");
// ?seed=N&agents=M fix the deal and the computer players for a first game (tests, bug reports).
const URL_SEED = params.has("seed") ? Number(params.get("seed")) : null;
const URL_AGENTS = params.has("agents") ? Number(params.get("agents")) : null;
// ?message=MS: the shortest time a refusal stays before it fades (the end-to-end test shortens it).
const MESSAGE_MS = msParam("message") ?? 4000;
// ?tabwait=MS: how long a new tab waits for the match to be free before saying another tab has it.
const TAB_WAIT = msParam("tabwait") ?? 1500;
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

let lang = "en";
let catalog = null; // game.py's catalog(): presets with their rules facts, levels
let versions = null;
let state = null; // the last state game.py returned
let record = null; // {id, shown, recorded}: the page's bookkeeping for the saved match
let selected = new Set(); // cards chosen to pass
let focusCode = null; // the hand's roving focus (the card that Tab reaches)
let generation = 0; // bumps on new game / replay so a running loop stops
let running = false;
let acting = false; // a human action is on its way to the engine
let restoreFocus = false; // after a score dialog, the focus goes back to the hand
let passFocus = false; // after a pass (its button is gone), the focus goes to the hand: the first playable card
// This tab's claim on the match: owner unless another tab holds it (see claimMatch).
const tab = { owner: true, release: null, waiting: null, channel: null, lost: null };

// ----------------------------------------------------------------------------- words

const S = () => STRINGS[lang];

function t(path) {
  return path.split(".").reduce((o, k) => (o == null ? o : o[k]), S());
}

function pickLanguage() {
  const stored = store.get(KEYS.lang);
  if (LANGS.includes(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

function setLanguage(next, remember) {
  lang = next;
  if (remember) store.set(KEYS.lang, next, FREE_ASIDE);
  document.documentElement.lang = next;
  document.body.dataset.lang = next;
  document.title = t("doc_title");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll("[data-title]")) node.title = t(node.dataset.title);
  for (const node of document.querySelectorAll("[data-aria]")) node.setAttribute("aria-label", t(node.dataset.aria));
  for (const b of document.querySelectorAll("#lang button")) b.setAttribute("aria-pressed", String(b.dataset.lang === next));
  if (state) {
    render();
    if ($("guide").open) renderGuide();
    if ($("new-dialog").open) fillNewDialog($("new-dialog").dataset.mode);
    if ($("settings").open) fillSettings();
    if ($("result").open && $("result").dataset.round) fillResult(Number($("result").dataset.round));
    const n = $("notice");
    if (!n.hidden && n.dataset.args) notice(n.dataset.kind, JSON.parse(n.dataset.args));
    const m = $("message");
    if (!m.hidden && m.dataset.refusal) showRefusal(JSON.parse(m.dataset.refusal));
  }
  if (versions) showVersions();
  if ($("other-tab").open) fillOtherTab();
  if (!$("offline").hidden) showOffline(true);
  showStorage();
  fillDamaged();
  const loading = $("loading-text");
  if (loading.dataset.step) loadingStep(loading.dataset.step, Number(loading.dataset.pct || 0));
}

const seatName = (seat) => S().seats[seat];
const presetName = (name) => S().preset[name] ?? name;
const levelName = (name) => S().level[name] ?? name;

function winnersText(winners) {
  return S().winners(winners.map((seat) => (seat === 0 ? S().seat_you_lower : seatName(seat))));
}

// ----------------------------------------------------------------------------- loading

function loadingStep(step, pct, arg) {
  performance.mark(`heartslib:${step}`);
  const text = $("loading-text");
  text.dataset.step = step;
  text.dataset.pct = String(pct);
  const words = S().loading[step];
  text.textContent = typeof words === "function" ? words(arg ?? Math.round(pct)) : words;
  const bar = $("progress-bar");
  bar.style.width = `${pct}%`;
  bar.setAttribute("aria-valuenow", String(Math.round(pct)));
}

let offlineAtStart = false;

// "Playing offline": shown while the game runs from this device's copy with no server to reach.
function showOffline(on) {
  const box = $("offline");
  box.hidden = !on;
  box.textContent = on ? S().notices.offline : "";
}

async function getManifest() {
  // manifest.json is never taken from a cache without asking (the service worker asks the network
  // first and falls back to its copy when offline).
  const response = await fetch("manifest.json", { cache: "no-cache" });
  if (!response.ok) throw new Error(`manifest.json: HTTP ${response.status}`);
  // The service worker answers from its cache when the network fails, and says so.
  offlineAtStart = response.headers.get("X-Heartslib-Offline") === "1" || navigator.onLine === false;
  return response.json();
}

async function serviceWorker() {
  if (!("serviceWorker" in navigator) || !window.caches) return false;
  try {
    await navigator.serviceWorker.register("sw.js");
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      // The first visit: the new worker claims this page when it activates.
      await Promise.race([
        new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true })),
        sleep(4000),
      ]);
    }
    return Boolean(navigator.serviceWorker.controller);
  } catch (err) {
    console.warn("service worker unavailable; the game will not work offline", err);
    return false;
  }
}

async function sha256(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Every file of this build into the offline cache, with progress; files already there are kept.
async function fillCache(manifest) {
  const cache = await caches.open(CACHE_PREFIX + manifest.build);
  const base = new URL("./", location.href);
  const missing = [];
  for (const [name, info] of Object.entries(manifest.files)) {
    if (!(await cache.match(new URL(name, base).href))) missing.push([name, info]);
  }
  const total = missing.reduce((n, [, info]) => n + info.size, 0) || 1;
  let done = 0;
  const show = () => loadingStep("downloading", 5 + (80 * done) / total);
  if (missing.length) show();
  await Promise.all(missing.map(async ([name, info]) => {
    const url = new URL(name, base).href;
    const response = await fetch(url, { cache: "no-cache" });
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    const reader = response.body.getReader();
    const parts = [];
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      parts.push(value);
      done += value.length;
      show();
    }
    const blob = new Blob(parts);
    if ((await sha256(await blob.arrayBuffer())) !== info.sha256) throw new Error(`${name}: the download is damaged`);
    const headers = { "Content-Type": response.headers.get("Content-Type") ?? "application/octet-stream" };
    await cache.put(url, new Response(blob, { headers }));
  }));
  await cache.put(new URL("manifest.json", base).href,
    new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/json" } }));
  for (const name of await caches.keys()) {
    if (name.startsWith(CACHE_PREFIX) && name !== CACHE_PREFIX + manifest.build) await caches.delete(name);
  }
}

// The engine in its worker; call(name, ...args) resolves to game.py's JSON, parsed.
const engine = {
  worker: null,
  pending: new Map(),
  next: 0,
  start(manifest) {
    return new Promise((resolve, reject) => {
      this.worker = new Worker("engine.js", { type: "module" });
      this.worker.onerror = (e) => reject(new Error(e.message || "the engine worker failed"));
      this.worker.onmessage = ({ data }) => {
        if (data.type === "progress") loadingStep(data.step, data.step === "python" ? 88 : 96);
        else if (data.type === "timing") {
          performance.mark(`heartslib:worker-${data.name}`, { startTime: data.at - performance.timeOrigin });
          if (data.name === "snapshot-saved" || data.name === "snapshot-restored") document.body.dataset.snapshot = data.name;
        }
        else if (data.type === "ready") resolve(data.heartslib);
        else if (data.type === "boot-error") reject(new Error(data.message));
        else if (data.type === "result") {
          const p = this.pending.get(data.id);
          this.pending.delete(data.id);
          if (data.error !== undefined) p.reject(new Error(data.error));
          else p.resolve(JSON.parse(data.value));
        }
      };
      this.worker.postMessage({ type: "boot", manifest });
    });
  },
  call(name, ...args) {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: "call", id, name, args });
    });
  },
};

async function boot() {
  store.onChange = onStorageChange;
  setLanguage(pickLanguage(), false);
  for (const b of document.querySelectorAll("#lang button")) {
    b.addEventListener("click", () => setLanguage(b.dataset.lang, true));
  }
  loadingStep("checking", 2);
  const pageBuild = document.querySelector('meta[name="heartslib-build"]').content;
  // A reload of a build already in the offline cache starts the engine at once, while the network
  // is asked whether a newer build exists.
  let early = null;
  if (navigator.serviceWorker?.controller && window.caches) {
    const cache = await caches.open(CACHE_PREFIX + pageBuild);
    const cached = await cache.match(new URL("manifest.json", location.href).href);
    if (cached) {
      loadingStep("python", 86);
      early = engine.start(await cached.json());
      early.catch(() => {}); // awaited below; a failure is reported there
    }
  }
  let manifest;
  try {
    manifest = await getManifest();
  } catch (err) {
    if (navigator.onLine === false) throw Object.assign(new Error("offline before the first download"), { words: "offline_first" });
    throw err;
  }
  const controlled = await serviceWorker();
  document.body.dataset.sw = controlled ? "controlled" : "none";
  if (controlled) {
    await fillCache(manifest);
    // This page came from an older build's cache: start again on the new one (once; never without the
    // flag that says so).
    if (manifest.build !== pageBuild && !session.get("heartslib-web/reloaded") && session.set("heartslib-web/reloaded", "1")) {
      location.reload();
      return;
    }
  }
  session.remove("heartslib-web/reloaded");
  if (!early) loadingStep("python", 86);
  const heartslib = await (early ?? engine.start(manifest));
  performance.mark("heartslib:engine-ready");
  catalog = await engine.call("catalog");
  versions = { heartslib, pyodide: manifest.pyodide };
  document.body.dataset.build = manifest.build;

  $("new-game").addEventListener("click", () => openNewDialog("new"));
  $("replay").addEventListener("click", () => (inProgress() ? openNewDialog("replay") : startGame(() => engine.call("replay"))));
  $("guide-button").addEventListener("click", openGuide);
  $("guide-close").addEventListener("click", () => $("guide").close());
  $("guide").addEventListener("click", (e) => { if (e.target === $("guide")) $("guide").close(); });
  $("settings-button").addEventListener("click", openSettings);
  // A speed applies from the computer players' next pause, and is kept for the next visits.
  $("speed-choices").addEventListener("change", (e) => {
    saveSettings({ speed: e.target.value });
    document.body.dataset.speed = speedName();
  });
  document.body.dataset.speed = speedName();
  $("new-form").addEventListener("submit", onNewDialog);
  // Without a match there is nothing to go back to: the damaged-save dialog closes only by starting one.
  $("damaged").addEventListener("cancel", (e) => e.preventDefault());
  $("damaged-download").addEventListener("click", downloadDamaged);
  $("damaged-start").addEventListener("click", () => {
    $("damaged").close();
    startGame(newGameCall());
  });
  $("message").addEventListener("click", () => clearMessage(true));
  $("other-tab").addEventListener("cancel", (e) => e.preventDefault());
  $("other-tab-here").addEventListener("click", () => takeOver(true));
  addEventListener("storage", (e) => {
    if (e.key === KEYS.settings) remembered = null; // another tab changed them
    if (e.key === KEYS.history && state) renderHistory();
  });
  addEventListener("offline", () => showOffline(true));
  addEventListener("online", () => showOffline(false));
  showOffline(offlineAtStart);
  setupHand();

  const owner = await claimMatch();
  let resumed = null;
  if (owner) {
    resumed = await resume();
  } else {
    // Another tab plays the match: show it as saved (nothing is written), and say so.
    const saved = store.get(KEYS.save);
    const loaded = saved ? await loadRecord(saved) : null;
    if (loaded?.ok) ({ state, record } = loaded);
    resumed = false;
    otherTab("open");
  }
  for (const id of ["new-game", "replay", "guide-button", "settings-button"]) $(id).disabled = false;
  $("loading").hidden = true;
  $("game").hidden = false;
  if (resumed === null) startGame(newGameCall(params.get("variant"), URL_SEED, URL_AGENTS, params.get("level")));
  document.body.dataset.ready = "1";
  performance.mark("heartslib:ready");
  onStorageChange();
  showVersions();
  if (state) {
    render();
    advance();
  }
  engine.worker.postMessage({ type: "idle" }); // the first deal is on screen: time for the worker's chores
}

function showVersions() {
  $("versions").textContent = S().versions(versions.heartslib, versions.pyodide, state ? levelName(state.level) : "");
}

// The saved match, if any: true when resumed, false when it was damaged (the dialog offers a new game),
// null when there is none.
async function resume() {
  const saved = store.get(KEYS.save);
  if (!saved) return null;
  const loaded = await loadRecord(saved);
  if (!loaded.ok) {
    showDamaged(loaded.problem, loaded.detail, saved);
    return false;
  }
  state = loaded.state;
  record = loaded.record;
  notice("resumed", [state.preset, state.hand_number, state.tricks_played]);
  return true;
}

// The page's saved record, every field checked: {ok: true, state, record} or {ok: false, problem, detail}.
// Only game.py's load() changes the engine, and only when the whole record is good.
async function loadRecord(saved) {
  const bad = (problem, detail) => ({ ok: false, problem, detail });
  let outer;
  try {
    outer = JSON.parse(saved);
  } catch (err) {
    return bad("not_json", String(err.message ?? err));
  }
  if (!outer || typeof outer !== "object" || Array.isArray(outer)) return bad("not_json", "the saved record is not an object");
  const known = new Set(["match", "id", "shown", "recorded"]);
  const extra = Object.keys(outer).filter((k) => !known.has(k));
  if (extra.length) return bad("not_a_save", `unknown fields: ${extra.join(", ")}`);
  if (typeof outer.match !== "string") return bad("not_a_save", "match is not text");
  if (outer.id !== undefined && (typeof outer.id !== "string" || !outer.id || outer.id.length > 100)) {
    return bad("not_a_save", `id ${JSON.stringify(outer.id)}`);
  }
  if (outer.shown !== undefined && !(Number.isInteger(outer.shown) && outer.shown >= 0)) {
    return bad("not_a_save", `shown ${JSON.stringify(outer.shown)}`);
  }
  if (outer.recorded !== undefined && typeof outer.recorded !== "boolean") {
    return bad("not_a_save", `recorded ${JSON.stringify(outer.recorded)}`);
  }
  let result;
  try {
    result = await engine.call("load", outer.match);
  } catch (err) {
    return bad("engine", String(err.message ?? err));
  }
  if (!result.ok) return bad(result.problem, result.detail);
  const rounds = result.state.rounds.length;
  if (outer.shown !== undefined && outer.shown > rounds) {
    return bad("not_a_save", `shown ${outer.shown} but ${rounds} hands were played`);
  }
  return { ok: true, state: result.state,
    record: { id: outer.id ?? newId(), shown: outer.shown ?? rounds, recorded: outer.recorded ?? false } };
}

// The damaged-save dialog: the problem in the player's words; heartslib's English reason in data-detail.
// The record is kept aside and offered as a file.
let damagedText = null;
function showDamaged(problem, detail, saved) {
  console.warn(`the saved match could not be restored (${problem}): ${detail}`);
  damagedText = saved;
  $("damaged").dataset.kept = String(keepAside(saved));
  const box = $("damaged-detail");
  box.dataset.problem = problem;
  box.dataset.detail = detail ?? "";
  fillDamaged();
  if (!$("damaged").open) $("damaged").showModal();
}

function fillDamaged() {
  const box = $("damaged-detail");
  if (box.dataset.problem) box.textContent = S().damaged.problems[box.dataset.problem] ?? S().damaged.problems.engine;
  $("damaged-body").textContent = $("damaged").dataset.kept === "false" ? S().damaged.body_not_kept : S().damaged.body;
}

// Nothing the player had is thrown away by the game: an unloadable save moves to its own key. With no room
// for a second copy it is moved (removed, then written there); with no room even for that it stays where it
// is, the dialog says so and offers it as a file (a new game's save replaces it). False when not moved.
function keepAside(saved) {
  if (!store.set(KEYS.damaged, saved)) {
    store.remove(KEYS.save);
    if (!store.set(KEYS.damaged, saved)) {
      store.set(KEYS.save, saved);
      return false;
    }
  }
  store.remove(KEYS.save);
  return true;
}

function downloadDamaged() {
  const url = URL.createObjectURL(new Blob([damagedText ?? ""], { type: "application/json" }));
  el("a", { href: url, download: "hearts-damaged-save.json" }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ----------------------------------------------------------------------------- one tab owns the match

// Asks for the lock that says "this tab plays the match"; resolves true when granted, false when not
// (ifAvailable, an aborted wait). A lock taken away by another tab (steal) calls lostMatch().
function requestLock(options) {
  return new Promise((resolve) => {
    let granted = false;
    navigator.locks.request(LOCK, options, (lock) => {
      if (!lock) {
        resolve(false);
        return undefined;
      }
      granted = true;
      tab.owner = true;
      resolve(true);
      return new Promise((release) => { tab.release = release; });
    }).catch(() => {
      if (granted) lostMatch();
      else resolve(false);
    });
  });
}

// At start: wait a moment for the match (a reload's previous page may still hold it), else another tab has it.
async function claimMatch() {
  // No Web Locks (older browsers), or nothing stored to overwrite (storage blocked): every tab plays.
  if (!navigator.locks || store.blocked) return true;
  tab.channel = "BroadcastChannel" in window ? new BroadcastChannel("heartslib-web") : null;
  addEventListener("pagehide", () => tab.release?.());
  if (await requestLock(TAB_WAIT ? { signal: AbortSignal.timeout(TAB_WAIT) } : { ifAvailable: true })) return true;
  tab.owner = false;
  return false;
}

// Another tab has the match: say so, and take it over when that tab closes or the player asks to.
function otherTab(kind) {
  tab.owner = false;
  const dialog = $("other-tab");
  dialog.dataset.kind = kind;
  fillOtherTab();
  if (!dialog.open) dialog.showModal();
  $("other-tab-here").focus();
  tab.waiting?.abort();
  tab.waiting = new AbortController();
  requestLock({ signal: tab.waiting.signal }).then((granted) => { if (granted) takeOver(false); });
}

function fillOtherTab() {
  const kind = $("other-tab").dataset.kind || "open";
  $("other-tab-title").textContent = S().other_tab[kind].title;
  $("other-tab-body").textContent = S().other_tab[kind].body;
  $("other-tab-here").textContent = S().other_tab.here;
}

// This tab lost the match to another: stop at once, finish the saves already queued, tell the new owner.
async function lostMatch() {
  generation += 1;
  tab.release = null;
  for (const id of ["result", "new-dialog", "guide", "damaged", "settings"]) if ($(id).open) $(id).close();
  otherTab("moved");
  await saving;
  tab.channel?.postMessage({ type: "released" });
}

// This tab takes the match (the player asked, or the other tab closed): the latest save is the match.
async function takeOver(steal) {
  if (steal) {
    tab.waiting?.abort();
    // The other tab writes its last moves, then says "released" (or it has gone: wait a moment only).
    const released = new Promise((resolve) => {
      if (!tab.channel) return resolve();
      const onMessage = (e) => { if (e.data?.type === "released") resolve(); };
      tab.channel.addEventListener("message", onMessage);
      setTimeout(resolve, 1500);
    });
    if (!(await requestLock({ steal: true }))) return;
    await released;
  }
  tab.owner = true;
  generation += 1;
  const saved = store.get(KEYS.save);
  const loaded = saved ? await loadRecord(saved) : null;
  if ($("other-tab").open) $("other-tab").close();
  if (loaded?.ok) {
    state = loaded.state;
    record = loaded.record;
    selected = new Set();
    clearMessage();
    notice("moved_here", [state.preset, state.hand_number, state.tricks_played]);
    showVersions();
    restoreFocus = true;
    render();
    advance();
  } else if (saved) {
    showDamaged(loaded.problem, loaded.detail, saved);
  } else {
    // The other tab finished its match (it is in History) or never started one: a new game here.
    startGame(newGameCall());
  }
}

// ----------------------------------------------------------------------------- telling the table's story

// What a screen reader hears as the game goes on: each card the others play, who takes each trick.
function announce(text) {
  const box = $("announcer");
  box.append(el("p", { textContent: text }));
  while (box.childElementCount > 6) box.firstElementChild.remove();
}

// The story of one play: "West leads 7♣", "North plays Q♠", then "West takes the trick (+14 ♥)".
function tellPlay(before, action, seat) {
  if (!action || action.type !== "play" || seat === null || seat === undefined || !state) return;
  const card = cardFromCode(action.card);
  const leads = !before.trick.length;
  if (seat !== 0) announce(S().story.play(seatName(seat), cardName(lang, card), leads));
  const last = state.trick.length ? null : (state.rounds.length > before.rounds.length
    ? state.rounds[state.rounds.length - 1].last_trick : state.last_trick);
  if (last) announce(`${trickLine(last, true)}${S().story.stop}`);
}

// "West takes the trick (+2 ♥)"; spoken: "… (2 points)".
function trickLine(last, spoken = false) {
  const points = spoken ? S().story.spoken(last.points) : S().story.points(last.points);
  return S().story.took(seatName(last.winner), last.winner === 0, points);
}

// ----------------------------------------------------------------------------- game flow

const newId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

// The player's choices, kept in this browser: the rules and level of the last new game, the speed. They
// live in memory too, so that a choice counts for this visit when the storage cannot keep it.
let remembered = null;
function settings() {
  if (remembered) return remembered;
  try {
    const s = JSON.parse(store.get(KEYS.settings) || "{}");
    remembered = s && typeof s === "object" && !Array.isArray(s) ? s : {};
  } catch {
    remembered = {};
  }
  return remembered;
}

function saveSettings(changes) {
  remembered = { ...settings(), ...changes };
  store.set(KEYS.settings, JSON.stringify(remembered), FREE_ASIDE);
}

const speedName = () => (Object.hasOwn(SPEEDS, settings().speed) ? settings().speed : "normal");

// The pauses now: the speed setting, unless the page's address fixes them (?delay, ?pause).
function pace() {
  const speed = SPEEDS[speedName()];
  const linger = URL_DELAY === null ? speed.linger : URL_DELAY * 1.5;
  return { step: URL_DELAY ?? speed.step, linger, pause: URL_PAUSE ?? linger };
}

function newGameCall(preset, seed = null, agents = null, level) {
  const s = settings();
  const names = catalog.presets.map((p) => p.name);
  const name = names.includes(preset) ? preset : (names.includes(s.preset) ? s.preset : "standard");
  const lvl = catalog.levels.includes(level) ? level
    : (catalog.levels.includes(s.level) ? s.level : catalog.default_level);
  return () => engine.call("new_game", name, seed, agents, lvl);
}

function inProgress() {
  return Boolean(state && !state.is_over && (state.rounds.length || state.tricks_played || state.passed));
}

async function startGame(make) {
  generation += 1;
  for (const id of ["result", "new-dialog"]) if ($(id).open) $(id).close();
  selected = new Set();
  focusCode = null;
  state = await make();
  record = { id: newId(), shown: 0, recorded: false };
  clearMessage();
  persist();
  if (document.body.dataset.ready) {
    notice("new_game", [state.preset, state.target]);
    showVersions();
    render();
    advance();
  }
}

// The match is saved after every move. A finished match goes into History at once, and its save is
// removed only once the player has seen every hand's scores (a reload before that shows them).
function persist() {
  if (!state || !tab.owner) return;
  if (state.is_over && !record.recorded) {
    recordResult();
    record.recorded = true;
  }
  if (state.is_over && record.shown >= state.rounds.length) {
    forgetSave();
    return;
  }
  saveNow();
}

// Saves go one after another, in the order of the moves (the engine answers in order too).
let saving = Promise.resolve();
function saveNow() {
  const snapshot = { ...record };
  saving = saving.then(async () => {
    const saved = await engine.call("save");
    // With the storage full, the match's older save goes as well: a reload must not take back the moves
    // made since (the storage note says the match now lives in this page only).
    store.set(KEYS.save, JSON.stringify({ match: JSON.stringify(saved), ...snapshot }),
      [...FREE_ASIDE, () => store.remove(KEYS.save)]);
  }).catch((err) => console.error("could not save the match", err));
}

function forgetSave() {
  saving = saving.then(() => store.remove(KEYS.save));
}

// Runs the computer players until the human must act, pausing so their cards can be followed,
// and shows each finished hand's scores.
async function advance() {
  if (running || !tab.owner || !state) return;
  running = true;
  const mine = generation;
  document.body.dataset.running = "1";
  try {
    while (mine === generation) {
      if (state.rounds.length > record.shown) {
        render();
        await sleep(pace().pause); // the last trick in view before the scores
        if (mine !== generation) break;
        await showRoundResult(record.shown);
        if (mine !== generation) break;
        record.shown += 1;
        persist();
        restoreFocus = true;
        render();
        continue;
      }
      if (state.is_over || !state.agents_to_act) break;
      // The computer players choose their passes at once (face down); plays are paced.
      if (state.phase !== "pass") await sleep(pace().step);
      if (mine !== generation) break;
      const before = state;
      const result = await engine.call("agent_step");
      if (mine !== generation) break;
      state = result.state;
      persist();
      render();
      tellPlay(before, result.action, result.acted);
      if (result.action && result.action.type === "play" && state.trick.length === 0) {
        await sleep(pace().linger); // a completed trick stays in view a moment
      }
    }
  } finally {
    running = false;
    delete document.body.dataset.running;
    if (mine === generation) render();
    else advance();
  }
}

async function onCard(code) {
  if (!state || !tab.owner || state.is_over || acting || record.shown < state.rounds.length) return;
  if (state.phase === "pass" && state.turn === "you") {
    if (!state.passable.includes(code)) {
      showRefusal({ code: "pass_forbidden_card", cards: [cardFromCode(code)] });
      return;
    }
    if (selected.has(code)) {
      selected.delete(code);
      clearMessage();
    } else if (selected.size < state.pass_count) {
      selected.add(code);
      clearMessage();
    } else {
      showRefusal({ code: "pass_full", count: state.pass_count });
    }
    render();
    return;
  }
  acting = true;
  try {
    // Ask heartslib first, so a refused card explains itself and changes nothing.
    const verdict = await engine.call("why", code);
    if (!verdict.legal) {
      showRefusal(verdict.refusal);
      return;
    }
    const before = state;
    const result = await engine.call("play", code);
    if (!tab.owner) return; // the match moved to another tab meanwhile
    state = result.state;
    if (!result.ok) {
      showRefusal(result.refusal);
      return;
    }
    clearMessage();
    persist();
    render();
    tellPlay(before, { type: "play", card: code }, 0);
  } finally {
    acting = false;
  }
  advance();
}

async function onPass() {
  if (acting || !tab.owner || selected.size !== state.pass_count) return;
  acting = true;
  try {
    const chosen = [...selected];
    if (!reducedMotion()) {
      for (const code of chosen) $("hand").querySelector(`[data-code="${code}"]`)?.classList.add("leaving");
      await sleep(220);
    }
    const result = await engine.call("pass_cards", chosen.join(" "));
    state = result.state;
    if (!result.ok) {
      showRefusal(result.refusal);
      render();
      return;
    }
    selected = new Set();
    clearMessage();
    passFocus = true;
    persist();
    render();
  } finally {
    acting = false;
  }
  advance();
}

async function onChoose(option) {
  if (!tab.owner) return;
  const result = await engine.call("choose", option);
  state = result.state;
  if (!result.ok) showRefusal(result.refusal);
  else clearMessage();
  persist();
  render();
  advance();
}

// ----------------------------------------------------------------------------- dialogs

function openNewDialog(mode) {
  fillNewDialog(mode);
  $("new-dialog").showModal();
  $(mode === "new" && !inProgress() ? "new-start" : "new-cancel").focus();
}

function fillNewDialog(mode) {
  const dialog = $("new-dialog");
  dialog.dataset.mode = mode;
  const words = S().new_dialog;
  $("new-title").textContent = mode === "new" ? words.title : words.replay_title;
  const warning = $("new-warning");
  warning.hidden = !inProgress();
  warning.textContent = mode === "new" ? words.warning : words.replay_warning;
  $("new-options").hidden = mode !== "new";
  $("level-options").hidden = mode !== "new";
  $("new-start").textContent = mode === "new" ? words.start : words.replay;
  $("new-cancel").textContent = words.cancel;
  const chosen = (group, fallback) => dialog.querySelector(`input[name=${group}]:checked`)?.value ?? fallback;
  const preset = chosen("preset", state?.preset ?? "standard");
  const level = chosen("level", state?.level ?? catalog.default_level);
  choices($("variant-choices"), "preset", catalog.presets.map((p) => p.name), preset, presetName, S().preset_blurb);
  choices($("level-choices"), "level", catalog.levels, level, levelName, S().level_blurb);
}

// One radio button a name, each with its title and a line that describes it.
function choices(box, group, names, current, title, blurb) {
  box.replaceChildren(...names.map((name) => {
    const input = el("input", { type: "radio", name: group, value: name, checked: name === current });
    return el("label", { className: "choice" }, input,
      el("span", {}, el("b", { textContent: title(name) }), el("span", { className: "muted small", textContent: blurb[name] ?? "" })));
  }));
}

function openSettings() {
  fillSettings();
  $("settings").showModal();
  $("speed-choices").querySelector("input:checked")?.focus();
}

function fillSettings() {
  choices($("speed-choices"), "speed", Object.keys(SPEEDS), speedName(), (name) => S().speed[name], S().speed_blurb);
}

function onNewDialog(event) {
  const dialog = $("new-dialog");
  const action = event.submitter?.value;
  if (action !== "start") return; // the dialog closes itself (method=dialog)
  if (dialog.dataset.mode === "replay") {
    startGame(() => engine.call("replay"));
    return;
  }
  const preset = dialog.querySelector("input[name=preset]:checked")?.value;
  const level = dialog.querySelector("input[name=level]:checked")?.value;
  saveSettings({ preset, level });
  startGame(newGameCall(preset, null, null, level));
}

function openGuide() {
  renderGuide();
  $("guide").showModal();
  $("guide-body").scrollTop = 0;
  $("guide-close").focus();
}

function renderGuide() {
  const body = $("guide-body");
  const sections = GUIDE[lang].map(([heading, paragraphs], i) => {
    const section = el("section", {}, el("h3", { textContent: heading }));
    for (const p of paragraphs) section.append(el("p", { innerHTML: p }));
    // The levels on offer (game.LEVELS), each with its blurb: a level added there is described here too.
    if (i === GUIDE_LEVELS_SECTION) {
      section.append(el("ul", { className: "levels" }, ...catalog.levels.map((name) => el("li", {},
        el("b", { textContent: levelName(name) }), `: ${S().level_blurb[name] ?? ""}`))));
    }
    return section;
  });
  const current = state?.preset ?? "standard";
  const detail = el("section", { id: "rules-detail" }, el("h3", { textContent: t("rules_detail") }));
  for (const p of catalog.presets.filter((x) => x.name === current).concat(
    catalog.presets.filter((x) => x.name !== current))) {
    const items = el("ul", {}, ...rulesDetail(lang, p.facts).map((line) => el("li", { textContent: line })));
    if (p.name === current) {
      detail.append(el("p", { className: "muted", textContent: S().rules_for(presetName(p.name)) }), items);
    } else {
      detail.append(el("details", {}, el("summary", { textContent: presetName(p.name) }), items));
    }
  }
  body.replaceChildren(...sections, detail);
}

function showRoundResult(index) {
  const dialog = $("result");
  hideNotice();
  fillResult(index);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(), { once: true });
    dialog.showModal();
    $("result-buttons").firstChild.focus();
  });
}

function fillResult(index) {
  const s = state;
  const summary = s.rounds[index];
  const dialog = $("result");
  dialog.dataset.round = String(index);
  const over = s.is_over && index === s.rounds.length - 1;
  $("result-title").textContent = S().result_title(summary.hand, over);
  const moon = summary.shooter !== null && summary.shooter !== undefined
    ? S().moon(summary.shooter === 0 ? S().seats[0] : seatName(summary.shooter), S().shot_kind[summary.shot] ?? summary.shot)
    : "";
  $("result-moon").textContent = moon;
  $("result-moon").hidden = !moon;
  $("result-head").replaceChildren(...S().result_cols.map((c) => el("th", { scope: "col", textContent: c })));
  $("result-rows").replaceChildren(...summary.points.map((points, seat) => el("tr", {},
    el("th", { scope: "row", textContent: seatName(seat) }),
    el("td", {}, el("div", { className: "taken" },
      ...(summary.taken[seat].length ? summary.taken[seat].map(chip) : ["—"]))),
    el("td", { textContent: String(points) }),
    el("td", { textContent: String(summary.totals[seat]) }))));
  $("result-winners").textContent = over ? winnersText(s.winners) : "";
  const buttons = $("result-buttons");
  const add = (text, id, action, primary) => {
    const b = el("button", { type: "button", id, textContent: text, className: primary ? "primary" : "" });
    b.addEventListener("click", () => { dialog.close(); action(); });
    return b;
  };
  if (over) {
    buttons.replaceChildren(
      add(S().buttons.new_game, "result-new", () => startGame(newGameCall()), true),
      add(S().replay_deal, "result-replay", () => startGame(() => engine.call("replay"))),
      add(S().close, "result-close", () => {}));
  } else {
    buttons.replaceChildren(add(S().next_hand, "next-hand", () => {}, true));
  }
}

// ----------------------------------------------------------------------------- history

// History keeps the latest matches; only that many entries are ever read, so that a tampered History of
// thousands of entries costs a turn nothing.
const HISTORY_MAX = 30;

function recordResult() {
  const history = readHistory().filter((h) => h.id !== record.id);
  history.unshift({ id: record.id, when: new Date().toISOString(), preset: state.preset, level: state.level,
    scores: state.scores, winners: state.winners });
  store.set(KEYS.history, JSON.stringify(history.slice(0, HISTORY_MAX)), FREE_ASIDE);
}

// One finished match as History stores it; anything else (an older format, a damaged entry) is not one.
function goodEntry(h) {
  const seat = (x) => Number.isInteger(x) && x >= 0 && x < 4;
  return Boolean(h && typeof h === "object" && !Array.isArray(h)
    && typeof h.id === "string" && typeof h.when === "string" && !Number.isNaN(Date.parse(h.when))
    && typeof h.preset === "string" && (h.level === undefined || typeof h.level === "string")
    && Array.isArray(h.scores) && h.scores.length === 4 && h.scores.every(Number.isFinite)
    && Array.isArray(h.winners) && h.winners.length >= 1 && h.winners.every(seat));
}

// The stored History, read defensively: the finished matches in it. Entries that are not finished
// matches are moved aside (key heartslib-web/damaged-history) when first met and counted for this visit's
// note under History; they never stop a redraw or the game.
let historySkipped = 0;
function readHistory() {
  const text = store.get(KEYS.history);
  if (!text) return [];
  let stored;
  try {
    stored = JSON.parse(text);
  } catch {
    stored = undefined;
  }
  const list = Array.isArray(stored) ? stored.slice(0, HISTORY_MAX) : [];
  const entries = list.filter(goodEntry);
  const bad = Array.isArray(stored) ? list.filter((h) => !goodEntry(h)) : [text];
  if (bad.length && tab.owner) {
    let aside;
    try {
      aside = JSON.parse(store.get(KEYS.damagedHistory) || "[]");
    } catch {
      aside = [];
    }
    if (!Array.isArray(aside)) aside = [aside];
    // Moved, never dropped: History is rewritten only once the bad entries are kept aside.
    if (store.set(KEYS.damagedHistory, JSON.stringify([...aside, ...bad].slice(-50)))
      && store.set(KEYS.history, JSON.stringify(entries))) {
      historySkipped += bad.length;
      console.warn(`History: ${bad.length} unreadable entries moved to ${KEYS.damagedHistory}`);
    }
  }
  return entries;
}

let historyDrawn = null; // what the list shows now: redrawn only when the stored History or the language changes
function renderHistory() {
  const drawn = `${lang}\n${historySkipped}\n${store.get(KEYS.history)}`;
  if (drawn === historyDrawn) return;
  let history = [];
  try {
    history = readHistory();
  } catch (err) {
    console.warn("History could not be read", err);
  }
  $("no-history").hidden = history.length > 0;
  $("history-skipped").hidden = !historySkipped;
  $("history-skipped").textContent = historySkipped ? S().history_skipped(historySkipped) : "";
  $("history").replaceChildren(...history.map((h) => {
    const date = new Date(h.when).toLocaleDateString(lang === "th" ? "th-TH" : "en-GB");
    const scores = h.scores.map((total, seat) => `${seatName(seat)} ${total}`).join(", ");
    const winners = h.winners.map(seatName).join(lang === "th" ? " และ " : " & ");
    return el("li", { textContent: S().history_line(date, presetName(h.preset), levelName(h.level ?? "normal"),
      scores, winners) });
  }));
  historyDrawn = `${lang}\n${historySkipped}\n${store.get(KEYS.history)}`;
}

// ----------------------------------------------------------------------------- messages

function showRefusal(refusal) {
  const m = $("message");
  const why = refusal.code === "pass_full" ? S().refusal.pass_full(refusal.count)
    : refusal.code === "storage" ? S().storage[refusal.kind]
      : refusalText(lang, refusal, S().seats);
  m.textContent = refusal.card && refusal.code !== "card_not_held" ? S().refused_play(refusal.card, why) : why;
  m.dataset.code = refusal.code;
  m.dataset.refusal = JSON.stringify(refusal);
  m.dataset.detail = refusal.detail ?? ""; // heartslib's own English sentence, for bug reports
  m.hidden = false;
  m.classList.remove("fading");
  $("status").classList.add("covered");
  // The message takes the status line's place for a while (long enough to read), then fades away.
  const token = ++messageToken;
  const readFor = params.has("message") ? MESSAGE_MS : Math.max(MESSAGE_MS, m.textContent.length * 55);
  setTimeout(() => {
    if (token !== messageToken) return;
    m.classList.add("fading");
    setTimeout(() => { if (token === messageToken) clearMessage(true); }, reducedMotion() ? 0 : 600);
  }, readFor);
}

let messageToken = 0;
// A move clears a refusal at once; a storage warning (nothing the player did) stays its time, unless forced.
function clearMessage(force = false) {
  const m = $("message");
  if (!force && m.dataset.code === "storage") return;
  messageToken += 1;
  m.hidden = true;
  m.classList.remove("fading");
  $("status").classList.remove("covered");
  m.textContent = "";
  delete m.dataset.detail;
  delete m.dataset.code;
  delete m.dataset.refusal;
}

function notice(kind, args) {
  const n = $("notice");
  const [preset, ...rest] = args;
  n.textContent = S().notices[kind](presetName(preset), ...rest);
  n.dataset.kind = kind;
  n.dataset.args = JSON.stringify(args);
  n.hidden = false;
}

function hideNotice() {
  $("notice").hidden = true;
}

// The storage note: while the browser blocks storage or it is full, the side panel says what that means;
// the moment it happens during play, the status line says it too (the side panel is below a phone's table).
let storageTold = null;
function storageKind() {
  if (store.blocked) return "blocked";
  return store.full ? "full" : null;
}

function showStorage() {
  const kind = storageKind();
  const box = $("storage-note");
  box.hidden = !kind;
  box.dataset.kind = kind ?? "";
  box.textContent = kind ? S().storage[kind] : "";
}

function onStorageChange() {
  showStorage();
  const kind = storageKind();
  if (kind && kind !== storageTold && document.body.dataset.ready) {
    storageTold = kind;
    showRefusal({ code: "storage", kind });
  }
}

// ----------------------------------------------------------------------------- drawing

function chip(card) {
  return el("span", { className: `chip ${card.red ? "red" : "black"} suit-${card.suit}`, textContent: short(card) });
}

// Where the pips of a number card sit: [x, y] in per cent of the face; lower half drawn upside down.
// Two columns at the face's edges, rows spread over its whole height, so that no two pips touch.
const L = 18;
const C = 50;
const R = 82;
const T = 9;
const B = 91;
const PIPS = {
  2: [[C, T], [C, B]],
  3: [[C, T], [C, 50], [C, B]],
  4: [[L, T], [R, T], [L, B], [R, B]],
  5: [[L, T], [R, T], [C, 50], [L, B], [R, B]],
  6: [[L, T], [R, T], [L, 50], [R, 50], [L, B], [R, B]],
  7: [[L, T], [R, T], [C, 30], [L, 50], [R, 50], [L, B], [R, B]],
  8: [[L, T], [R, T], [C, 30], [L, 50], [R, 50], [C, 70], [L, B], [R, B]],
  9: [[L, T], [R, T], [L, 36], [R, 36], [C, 50], [L, 64], [R, 64], [L, B], [R, B]],
  10: [[L, T], [R, T], [C, 23], [L, 36], [R, 36], [L, 64], [R, 64], [C, 77], [L, B], [R, B]],
};

// A card face: the corner indices (top left, and bottom right upside down) and the middle: the pips,
// one large pip for an ace, a framed court for J, Q, K.
function cardElement(card, extra = []) {
  const symbol = SUIT_SYMBOL[card.suit] ?? "";
  const node = el("div", { className: ["card", card.red ? "red" : "black", `suit-${card.suit}`, ...extra].join(" ") });
  node.dataset.code = card.code;
  const corner = (cls) => el("span", { className: `index ${cls}` },
    el("span", { className: card.rank === "10" ? "rank ten" : "rank", textContent: card.rank }),
    el("span", { className: "suit", textContent: symbol }));
  const face = el("span", { className: "face" });
  face.setAttribute("aria-hidden", "true");
  if (PIPS[card.rank]) {
    for (const [x, y] of PIPS[card.rank]) {
      face.append(el("span", { className: `pip${y > 50 ? " down" : ""}`, textContent: symbol,
        style: `left:${x}%;top:${y}%` }));
    }
    face.append(el("span", { className: "pip big", textContent: symbol })); // small cards show this one instead
  } else if (card.rank === "A") {
    face.append(el("span", { className: "pip ace", textContent: symbol, style: "left:50%;top:50%" }));
  } else {
    face.append(el("span", { className: "court" }, el("span", { className: "court-rank", textContent: card.rank }),
      el("span", { className: "court-suit", textContent: symbol })));
  }
  node.append(corner("top"), face, corner("bottom"));
  node.setAttribute("aria-label", cardName(lang, card));
  node.setAttribute("role", "img");
  return node;
}

// While a finished hand's scores are showing, the table stays as that hand ended
// (heartslib has already dealt the next one).
function displayed() {
  const s = state;
  if (s.rounds.length <= record.shown) return s;
  const r = s.rounds[record.shown];
  const over = s.is_over && record.shown === s.rounds.length - 1;
  return { ...s, phase: "scored", turn: "none", to_act: [], hand_number: r.hand, hand: [], hand_sizes: [0, 0, 0, 0],
    legal: [], trick: [], last_trick: r.last_trick, taken: r.taken, tricks_won: r.tricks_won, scores: r.totals,
    hand_points: r.points,
    rounds: s.rounds.slice(0, record.shown + 1), decision: null, winners: over ? s.winners : [], received: null,
    is_over: over };
}

function render() {
  if (!state) return;
  const s = displayed();
  const body = document.body.dataset;
  body.phase = s.phase;
  body.turn = s.turn;
  body.hand = String(s.hand_number);
  renderSeats(s);
  renderTrick(s);
  renderHand(s);
  renderActions(s);
  $("status").innerHTML = statusText(s);
  $("table-level").textContent = S().table_level(levelName(s.level));
  renderScores(s);
  renderHistory();
}

function renderSeats(s) {
  for (let seat = 0; seat < 4; seat++) {
    const box = $(`seat-${seat}`);
    const active = !s.is_over && s.to_act.includes(seat) && s.phase === "play";
    box.classList.toggle("active", active);
    const handPoints = s.hand_points[seat];
    const parts = [el("div", { className: "name" }, el("span", { textContent: seatName(seat) }),
      active ? el("span", { className: "turn", textContent: seat === 0 ? S().your_turn : "…" }) : "")];
    if (seat !== 0) {
      const backs = el("div", { className: "backs" });
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < s.hand_sizes[seat]; i++) backs.append(el("span", { className: "back" }));
      parts.push(backs);
    }
    const info = el("div", { className: "info" },
      el("span", { className: "pts", title: S().seat_info.hand },
        el("span", { className: "heart", textContent: "♥" }), ` ${handPoints} `,
        el("span", { className: "muted-light", textContent: S().seat_info.hand })),
      el("span", { textContent: ` · ${S().seat_info.total} ${s.scores[seat]}` }),
      el("span", { className: "muted-light", textContent: ` · ${S().seat_info.tricks} ${s.tricks_won[seat]}` }));
    info.dataset.handPoints = String(handPoints);
    parts.push(info);
    // Points just taken fly up from the seat for a moment ("+2 ♥"); a new one replaces one still flying, so
    // that quick tricks never stack their numbers into one unreadable blot.
    const shownBefore = box.dataset.points === undefined ? handPoints : Number(box.dataset.points);
    const gained = box.dataset.hand === String(s.hand_number) && handPoints !== shownBefore && !reducedMotion();
    if (!gained) parts.push(...box.querySelectorAll(".gain")); // one still flying
    if (gained) {
      const gain = el("span", { className: "gain", textContent: S().story.points(handPoints - shownBefore) });
      gain.setAttribute("aria-hidden", "true");
      gain.addEventListener("animationend", () => gain.remove(), { once: true });
      parts.push(gain);
    }
    box.dataset.points = String(handPoints);
    box.dataset.hand = String(s.hand_number);
    const taken = el("div", { className: "taken" }, ...s.taken[seat].map(chip));
    parts.push(taken);
    box.replaceChildren(...parts);
    box.setAttribute("aria-label", S().seat_aria(seatName(seat), s.hand_sizes[seat], s.tricks_won[seat], handPoints,
      s.scores[seat]));
  }
}

function renderTrick(s) {
  const trick = $("trick");
  const plays = s.trick.length ? s.trick : (s.last_trick ? s.last_trick.plays : []);
  const done = !s.trick.length && s.last_trick;
  trick.classList.toggle("done", Boolean(done));
  for (let seat = 0; seat < 4; seat++) trick.classList.toggle(`collect-${seat}`, Boolean(done) && s.last_trick.winner === seat);
  for (let seat = 0; seat < 4; seat++) {
    const slot = trick.querySelector(`.slot-${seat}`);
    const play = plays.find((p) => p.seat === seat);
    const current = slot.firstElementChild;
    if (!play) {
      slot.replaceChildren();
      continue;
    }
    const win = done && s.last_trick.winner === seat;
    if (!current || current.dataset.code !== play.card.code) slot.replaceChildren(cardElement(play.card, ["enter"]));
    const card = slot.firstElementChild;
    card.classList.toggle("winner", Boolean(win));
    // Who led this trick: a tag on the first card played.
    const led = plays[0].seat === seat;
    let tag = card.querySelector(".lead-tag");
    if (led && !tag) card.append(tag = el("span", { className: "lead-tag" }));
    if (!led && tag) tag.remove();
    if (tag) tag.textContent = S().story.led;
    // A screen reader reads the card (role img) with the player who played it.
    card.setAttribute("aria-label", `${seatName(seat)}${led ? ` (${S().story.led})` : ""}: ${cardName(lang, play.card)}`);
  }
}

// The hand is drawn incrementally, card by card (keyed by card code), so keyboard focus and the
// animations survive every update.
function renderHand(s) {
  const hand = $("hand");
  hand.dataset.count = String(s.hand.length);
  hand.style.setProperty("--n", String(Math.max(s.hand.length, 1)));
  // On a phone held upright the hand takes two rows (style.css), so that each card's strip is a finger wide.
  hand.style.setProperty("--cols", String(s.hand.length <= 7 ? Math.max(s.hand.length, 1) : Math.ceil(s.hand.length / 2)));
  const myPlay = s.phase === "play" && s.turn === "you";
  const passing = s.phase === "pass" && s.turn === "you";
  const had = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.code : null;
  const wanted = new Set(s.hand.map((c) => c.code));
  const existing = new Map([...hand.children].map((node) => [node.dataset.code, node]));
  let fallback = null;
  for (const [code, node] of existing) {
    if (!wanted.has(code)) {
      if (code === had || code === focusCode) {
        // The card just played: focus moves to its neighbour.
        const next = node.nextElementSibling ?? node.previousElementSibling;
        fallback = next ? next.dataset.code : null;
      }
      node.remove();
      existing.delete(code);
    }
  }
  const fresh = s.hand.length && existing.size === 0;
  s.hand.forEach((c, i) => {
    let node = existing.get(c.code);
    if (!node) {
      node = cardElement(c, ["enter"]);
      node.style.setProperty("--i", String(fresh ? i : 0));
      node.addEventListener("animationend", () => node.classList.remove("enter"), { once: true });
      node.append(el("span", { className: "badge", textContent: S().new_badge }));
    }
    if (hand.children[i] !== node) hand.insertBefore(node, hand.children[i] ?? null);
    const legal = myPlay && s.legal.includes(c.code);
    const passable = passing && s.passable.includes(c.code);
    const received = Boolean(s.received && s.received.includes(c.code) && s.tricks_played === 0 && !s.trick.length);
    node.classList.toggle("legal", legal);
    node.classList.toggle("illegal", (myPlay && !legal) || (passing && !passable));
    node.classList.toggle("passable", passable);
    node.classList.toggle("selected", passing && selected.has(c.code));
    node.classList.toggle("received", received);
    node.querySelector(".badge").textContent = S().new_badge;
    node.setAttribute("role", "button");
    if (passing) node.setAttribute("aria-pressed", String(selected.has(c.code)));
    else node.removeAttribute("aria-pressed");
    const words = S().card_state;
    const notes = [];
    if (myPlay) notes.push(legal ? words.playable : words.not_playable);
    if (passing && selected.has(c.code)) notes.push(words.chosen);
    if (received) notes.push(words.received);
    node.setAttribute("aria-label", [cardName(lang, c), ...notes].join(", "));
  });
  // One card of the hand is in the Tab order (a roving tabindex); the arrow keys move between cards.
  const codes = s.hand.map((c) => c.code);
  if (fallback) focusCode = fallback;
  const firstLegal = myPlay ? codes.find((code) => s.legal.includes(code)) : undefined; // as the hand shows them
  if (!codes.includes(focusCode)) focusCode = firstLegal || codes[0] || null;
  // After a pass the focus waits in the hand (unless the player took it elsewhere) for the first playable card.
  const active = document.activeElement;
  const afterPass = passFocus && (!active || active === document.body || hand.contains(active));
  if (afterPass && firstLegal) focusCode = firstLegal;
  for (const node of hand.children) node.tabIndex = node.dataset.code === focusCode ? 0 : -1;
  // After a score dialog (or a match moved to this tab) the focus returns to the hand, not to the page.
  const back = (restoreFocus || afterPass) && !document.querySelector("dialog[open]");
  if ((had || fallback || back) && focusCode) {
    const target = hand.querySelector(`[data-code="${focusCode}"]`);
    if (target && document.activeElement !== target) target.focus({ preventScroll: true });
    if (back) restoreFocus = false;
  }
  if (myPlay || !s.hand.length) passFocus = false;
}

function setupHand() {
  const hand = $("hand");
  hand.addEventListener("click", (e) => {
    const card = e.target.closest(".card");
    if (card) {
      focusCode = card.dataset.code;
      onCard(card.dataset.code);
    }
  });
  hand.addEventListener("focusin", (e) => {
    const card = e.target.closest(".card");
    if (card) focusCode = card.dataset.code;
  });
  hand.addEventListener("keydown", (e) => {
    const card = e.target.closest(".card");
    if (!card) return;
    const cards = [...hand.children];
    const i = cards.indexOf(card);
    let next = null;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onCard(card.dataset.code);
      return;
    }
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = cards[Math.min(i + 1, cards.length - 1)];
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = cards[Math.max(i - 1, 0)];
    else if (e.key === "Home") next = cards[0];
    else if (e.key === "End") next = cards[cards.length - 1];
    if (next) {
      e.preventDefault();
      passFocus = false; // the player chose where the focus is
      for (const c of cards) c.tabIndex = c === next ? 0 : -1;
      focusCode = next.dataset.code;
      next.focus();
    }
  });
}

function renderActions(s) {
  const actions = $("actions");
  const passing = s.phase === "pass" && s.turn === "you";
  let button = $("pass-button");
  if (passing) {
    const to = s.pass_to === null ? S().direction[s.pass_direction] : seatName(s.pass_to);
    if (!button) {
      button = el("button", { id: "pass-button", type: "button", className: "primary" });
      button.addEventListener("click", onPass);
      actions.prepend(button);
    }
    button.textContent = S().pass_button(selected.size, s.pass_count, to);
    button.disabled = selected.size !== s.pass_count;
  } else if (button) {
    button.remove();
  }
  for (const b of actions.querySelectorAll(".choice-button")) b.remove();
  if (s.decision && s.turn === "you") {
    for (const option of s.options) {
      const b = el("button", { type: "button", className: "choice-button", textContent: option });
      b.addEventListener("click", () => onChoose(option));
      actions.append(b);
    }
  }
}

function statusText(s) {
  const st = S().status;
  const hand = st.hand(s.hand_number);
  if (s.is_over) return st.over(winnersText(s.winners));
  if (s.phase === "scored") {
    const last = s.last_trick ? `<span class="trick-line" aria-hidden="true">${trickLine(s.last_trick)}${S().story.stop}</span> ` : "";
    return `${last}${st.scored(s.hand_number)}`;
  }
  const dir = S().direction[s.pass_direction] ?? s.pass_direction;
  if (s.phase === "pass") {
    if (s.turn === "you") {
      const to = s.pass_to === null ? dir : seatName(s.pass_to);
      return `${hand}: ${st.pass(s.pass_count, to, dir)} ${st.pass_everyone}`;
    }
    return `${hand}: ${st.passing_wait}`;
  }
  let text = `${hand}: `;
  // A trick just taken: who took it and its points, until the next card is led.
  if (!s.trick.length && s.last_trick && s.last_trick.winner !== null) {
    text += `<span class="trick-line" aria-hidden="true">${trickLine(s.last_trick)}${S().story.stop}</span> `;
  }
  if (s.pass_count === 0 && s.tricks_played === 0) text += `${st.no_pass} `;
  if (s.received && s.tricks_played === 0 && s.receive_from !== null) {
    text += `${st.received(s.received.map((c) => short(cardFromCode(c))).join(" "), seatName(s.receive_from))} `;
  }
  if (s.phase === "decide") {
    return s.turn === "you" ? `${text}${st.decide}` : `${text}${st.deciding(seatName(s.to_act[0]))}`;
  }
  if (s.turn === "you") {
    return `${text}${s.trick.length ? st.follow : st.lead}${s.hearts_broken ? ` ${st.hearts_broken}` : ""}`;
  }
  return `${text}${st.playing(seatName(s.to_act[0]))}`;
}

function renderScores(s) {
  $("target").textContent = `· ${S().to_target(presetName(s.preset), s.target, levelName(s.level))}`;
  $("score-head").replaceChildren(el("th", { scope: "col", textContent: S().hand_col }),
    ...S().seats.map((name) => el("th", { scope: "col", textContent: name })));
  $("score-rows").replaceChildren(...s.rounds.map((r) => el("tr", {},
    el("th", { scope: "row" }, `${r.hand} `, el("span", { className: "muted small", textContent: S().direction[r.pass] ?? r.pass })),
    ...r.points.map((p, seat) => {
      const td = el("td", { textContent: `${p}${r.shooter === seat ? " ☾" : ""}` });
      if (r.shooter === seat) td.className = "moon";
      return td;
    }))));
  $("score-total").replaceChildren(el("th", { scope: "row", textContent: S().total }),
    ...s.scores.map((total, seat) => el("td", { textContent: String(total), className: s.winners.includes(seat) ? "win" : "" })));
}

boot().catch((err) => {
  console.error(err);
  const why = String(err && err.message ? err.message : err);
  document.body.dataset.error = why; // the English reason, for bug reports; the player reads their own language
  if (err?.words) loadingStep(err.words, 100);
  else loadingStep("failed", 100, why);
  $("loading").classList.add("failed");
});
