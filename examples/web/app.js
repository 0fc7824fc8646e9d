// The page: draws what game.py (heartslib in Pyodide) says and forwards clicks to it.
// No rule of Hearts lives here: which cards are legal, why a card is refused, what the
// computer players do, the scores and the end of the match all come from heartslib.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const SAVE_KEY = "heartslib-web/match";
const HISTORY_KEY = "heartslib-web/history";
const params = new URLSearchParams(location.search);
// ?delay=0 makes the computer players move at once (the end-to-end test uses it).
const DELAY = params.has("delay") ? Math.max(0, Number(params.get("delay")) || 0) : 650;
// ?seed=N&agents=M fix the deal and the computer players for a first game (tests, bug reports).
// (undefined, not null, reaches Python as None.)
const URL_SEED = params.has("seed") ? Number(params.get("seed")) : undefined;
const URL_AGENTS = params.has("agents") ? Number(params.get("agents")) : undefined;

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let py = null; // the game.py functions
let state = null; // the last state game.py returned
let presets = [];
let selected = new Set(); // cards chosen to pass
let shownRounds = 0; // finished hands whose result the player has seen
let generation = 0; // bumps on new game / replay so a running loop stops
let running = false;

// ----------------------------------------------------------------------------- boot

async function fetchOk(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response;
}

async function boot() {
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
  $("loading-text").textContent = "Installing heartslib…";
  const manifest = await (await fetchOk("manifest.json")).json();
  for (const name of manifest.wheels) {
    pyodide.unpackArchive(await (await fetchOk(`wheels/${name}`)).arrayBuffer(), "wheel");
  }
  pyodide.FS.mkdirTree("/home/pyodide/web");
  pyodide.FS.writeFile("/home/pyodide/web/game.py", await (await fetchOk("game.py")).text());
  pyodide.runPython("import sys, importlib; sys.path.insert(0, '/home/pyodide/web'); importlib.invalidate_caches()");
  const game = pyodide.pyimport("game");
  py = {};
  for (const name of ["presets", "new_game", "replay", "load", "save", "state", "why", "play", "pass_cards",
    "choose", "agent_step", "agent_name"]) {
    py[name] = game[name];
  }
  const heartslibVersion = pyodide.runPython("import heartslib; heartslib.__version__");
  $("versions").textContent =
    `heartslib ${heartslibVersion} · Pyodide ${manifest.pyodide} · computer players: ${py.agent_name()}`;

  presets = JSON.parse(py.presets());
  const select = $("variant");
  for (const p of presets) select.add(new Option(p.title, p.name));

  let resumed = false;
  const saved = localStorage.getItem(SAVE_KEY);
  if (saved) {
    try {
      const record = JSON.parse(saved);
      state = JSON.parse(py.load(record.match));
      shownRounds = Math.min(record.shown ?? state.rounds.length, state.rounds.length);
      resumed = true;
      notice(`Welcome back: your unfinished ${state.variant_title.toLowerCase()} match was restored ` +
        `(hand ${state.hand_number}, ${state.tricks_played} trick${state.tricks_played === 1 ? "" : "s"} played).`,
      "resumed");
    } catch (err) {
      localStorage.removeItem(SAVE_KEY);
      notice(`The saved match could not be loaded (${pythonMessage(err)}); a new match starts.`, "load-failed");
    }
  }
  if (!resumed) {
    const wanted = params.get("variant");
    const name = presets.some((p) => p.name === wanted) ? wanted : "standard";
    startGame(() => py.new_game(name, URL_SEED, URL_AGENTS));
  }
  select.value = state.preset;
  showVariant();

  select.addEventListener("change", showVariant);
  $("new-game").addEventListener("click", () => startGame(() => py.new_game($("variant").value)));
  $("replay").addEventListener("click", () => startGame(() => py.replay()));
  $("rules-button").addEventListener("click", toggleRules);

  for (const id of ["variant", "new-game", "replay", "rules-button"]) $(id).disabled = false;
  $("loading").hidden = true;
  $("game").hidden = false;
  document.body.dataset.ready = "1";
  render();
  advance();
}

function pythonMessage(err) {
  // A PythonError's message is the whole traceback; its last line names the problem.
  const lines = String(err && err.message ? err.message : err).trim().split("\n");
  return lines[lines.length - 1];
}

// ----------------------------------------------------------------------------- game flow

function startGame(make) {
  generation += 1;
  const dialog = $("result");
  if (dialog.open) dialog.close("restart");
  selected = new Set();
  state = JSON.parse(make());
  shownRounds = 0;
  clearMessage();
  persist();
  if (document.body.dataset.ready) {
    $("variant").value = state.preset;
    showVariant();
    notice(`New ${state.variant_title.toLowerCase()} match. Lowest total wins when someone reaches ` +
      `${state.target}.`, "new");
    render();
    advance();
  }
}

function persist() {
  if (state.is_over) {
    localStorage.removeItem(SAVE_KEY);
    return;
  }
  localStorage.setItem(SAVE_KEY, JSON.stringify({ match: py.save(), shown: shownRounds }));
}

// Runs the computer players until the human must act, pausing so their cards can be followed,
// and shows each finished hand's scores.
async function advance() {
  if (running) return;
  running = true;
  const mine = generation;
  document.body.dataset.running = "1";
  try {
    while (mine === generation) {
      if (state.rounds.length > shownRounds) {
        render();
        await sleep(DELAY); // the last trick in view before the scores
        if (mine !== generation) break;
        await showRoundResult(state.rounds[shownRounds]);
        if (mine !== generation) break;
        shownRounds += 1;
        persist();
        render();
        continue;
      }
      if (state.is_over || !state.agents_to_act) break;
      // The computer players choose their passes at once (face down); plays are paced.
      if (state.phase !== "pass") await sleep(DELAY);
      if (mine !== generation) break;
      const result = JSON.parse(py.agent_step());
      state = result.state;
      persist();
      render();
      if (result.action && result.action.type === "play" && state.trick.length === 0) {
        await sleep(DELAY * 1.5); // a completed trick stays in view a moment
      }
    }
  } finally {
    running = false;
    delete document.body.dataset.running;
    if (mine === generation) render();
    else advance();
  }
}

function hideNotice() {
  $("notice").hidden = true;
}

function onCard(code) {
  if (!state || state.is_over) return;
  if (state.phase === "pass" && state.turn === "you") {
    if (!state.passable.includes(code)) {
      showMessage(`${label(code)} may not be passed in this variant.`, "pass_forbidden_card");
      return;
    }
    if (selected.has(code)) selected.delete(code);
    else if (selected.size < state.pass_count) selected.add(code);
    else showMessage(`You pass ${state.pass_count} cards; click a chosen card to put it back first.`, "pass_full");
    if (selected.size <= state.pass_count) clearMessage();
    render();
    return;
  }
  // Ask heartslib first, so a refused card explains itself and changes nothing.
  const verdict = JSON.parse(py.why(code));
  if (!verdict.legal) {
    showMessage(`You can't play ${label(code)} now: ${verdict.message}.`, verdict.code);
    return;
  }
  const result = JSON.parse(py.play(code));
  state = result.state;
  if (!result.ok) {
    showMessage(`You can't play ${label(code)} now: ${result.message}.`, result.code);
    return;
  }
  clearMessage();
  persist();
  render();
  advance();
}

function onPass() {
  const result = JSON.parse(py.pass_cards([...selected].join(" ")));
  state = result.state;
  if (!result.ok) {
    showMessage(`That pass is not allowed: ${result.message}.`, result.code);
    render();
    return;
  }
  selected = new Set();
  clearMessage();
  persist();
  render();
  advance();
}

function onChoose(option) {
  const result = JSON.parse(py.choose(option));
  state = result.state;
  if (!result.ok) showMessage(result.message, result.code);
  else clearMessage();
  persist();
  render();
  advance();
}

// ----------------------------------------------------------------------------- drawing

function label(code) {
  const card = [...(state ? state.hand : [])].find((c) => c.code === code);
  return card ? card.label : code;
}

function cardElement(card, extra = []) {
  const el = document.createElement("div");
  el.className = ["card", card.red ? "red" : "black", ...extra].join(" ");
  el.dataset.code = card.code;
  el.innerHTML = `<span class="rank">${card.rank}</span><span class="suit">${card.suit}</span>` +
    `<span class="pip">${card.suit}</span>`;
  el.setAttribute("aria-label", card.label);
  return el;
}

// While a finished hand's scores are showing, the table stays as that hand ended
// (heartslib has already dealt the next one).
function displayed() {
  const s = state;
  if (s.rounds.length <= shownRounds) return s;
  const r = s.rounds[shownRounds];
  const rounds = s.rounds.slice(0, shownRounds + 1);
  const over = s.is_over && shownRounds === s.rounds.length - 1;
  return { ...s, phase: "scored", turn: "none", to_act: [], hand_number: r.hand, hand: [], hand_sizes: [0, 0, 0, 0],
    legal: [], trick: [], last_trick: r.last_trick, taken: r.taken, tricks_won: r.tricks_won, scores: r.totals,
    rounds, decision: null, winners: over ? s.winners : [], received: null };
}

function render() {
  if (!state) return;
  const s = displayed();
  document.body.dataset.phase = s.phase;
  document.body.dataset.turn = s.turn;
  document.body.dataset.hand = String(s.hand_number);

  // Opponents and the human's seat line.
  for (let seat = 0; seat < 4; seat++) {
    const box = $(`seat-${seat}`);
    box.classList.toggle("active", !s.is_over && s.to_act.includes(seat) && s.phase === "play");
    box.innerHTML = "";
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = s.names[seat];
    box.append(name);
    if (seat !== 0) {
      const backs = document.createElement("div");
      backs.className = "backs";
      backs.setAttribute("aria-label", `${s.hand_sizes[seat]} cards`);
      for (let i = 0; i < s.hand_sizes[seat]; i++) backs.append(Object.assign(document.createElement("span"),
        { className: "back" }));
      box.append(backs);
    }
    const info = document.createElement("div");
    info.className = "info";
    info.textContent = `tricks ${s.tricks_won[seat]} · total ${s.scores[seat]}`;
    box.append(info);
    const taken = document.createElement("div");
    taken.className = "taken";
    for (const c of s.taken[seat]) {
      const chip = document.createElement("span");
      chip.className = `chip ${c.red ? "red" : "black"}`;
      chip.textContent = c.label;
      taken.append(chip);
    }
    box.append(taken);
  }

  // The trick in the middle: the current one, or the last completed one with its winner.
  const plays = s.trick.length ? s.trick : (s.last_trick ? s.last_trick.plays : []);
  const done = !s.trick.length && s.last_trick;
  $("trick").classList.toggle("done", Boolean(done));
  for (let seat = 0; seat < 4; seat++) {
    const slot = $("trick").querySelector(`.slot-${seat}`);
    slot.innerHTML = "";
    const play = plays.find((p) => p.seat === seat);
    if (play) {
      const win = done && s.last_trick.winner === seat;
      slot.append(cardElement(play.card, win ? ["winner"] : []));
    }
  }

  // The human's hand.
  const hand = $("hand");
  hand.innerHTML = "";
  hand.dataset.count = String(s.hand.length);
  const myPlay = s.phase === "play" && s.turn === "you";
  const passing = s.phase === "pass" && s.turn === "you";
  for (const c of s.hand) {
    const classes = [];
    if (myPlay) classes.push(s.legal.includes(c.code) ? "legal" : "illegal");
    if (passing) {
      classes.push(s.passable.includes(c.code) ? "passable" : "illegal");
      if (selected.has(c.code)) classes.push("selected");
    }
    if (s.received && s.received.includes(c.code) && s.tricks_played === 0) classes.push("received");
    const el = cardElement(c, classes);
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    // Not aria-disabled: clicking a refused card still does something (it explains why).
    if (classes.includes("illegal")) el.setAttribute("aria-label", `${c.label} (not playable now)`);
    if (classes.includes("legal")) el.setAttribute("aria-label", `${c.label} (playable)`);
    el.addEventListener("click", () => onCard(c.code));
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onCard(c.code); }
    });
    hand.append(el);
  }

  // Buttons under the hand.
  const actions = $("actions");
  actions.innerHTML = "";
  if (passing) {
    const to = s.pass_to === null ? s.pass_direction : `${s.names[s.pass_to]} (${s.pass_direction})`;
    const button = document.createElement("button");
    button.id = "pass-button";
    button.className = "primary";
    button.textContent = `Pass ${selected.size}/${s.pass_count} to ${to}`;
    button.disabled = selected.size !== s.pass_count;
    button.addEventListener("click", onPass);
    actions.append(button);
  }
  if (s.decision && s.turn === "you") {
    for (const option of s.options) {
      const button = document.createElement("button");
      button.textContent = option;
      button.addEventListener("click", () => onChoose(option));
      actions.append(button);
    }
  }

  $("status").innerHTML = statusText(s);
  renderScores(s);
  renderHistory();
}

function statusText(s) {
  const hand = `Hand ${s.hand_number}`;
  if (s.is_over) return `Match over. ${winnersText(s)} Press New game or Replay to play again.`;
  if (s.phase === "scored") return `Hand ${s.hand_number} is over.`;
  if (s.phase === "pass") {
    if (s.turn === "you") {
      const to = s.pass_to === null ? s.pass_direction : `<b>${s.names[s.pass_to]}</b> (${s.pass_direction})`;
      return `${hand}: choose <b>${s.pass_count}</b> cards to pass to ${to}. Everyone chooses before the exchange.`;
    }
    return `${hand}: waiting for the others to choose their cards…`;
  }
  let text = `${hand}`;
  if (s.pass_count === 0 && s.tricks_played === 0) text += " (no passing this hand)";
  if (s.received && s.tricks_played === 0 && s.receive_from !== null) {
    text += `: you received ${s.received.map(label).join(" ")} from ${s.names[s.receive_from]}`;
  }
  text += ". ";
  if (s.phase === "decide") {
    return s.turn === "you" ? `${text}Your decision (${s.decision}):` : `${text}${s.names[s.to_act[0]]} decides…`;
  }
  if (s.turn === "you") {
    return `${text}<b>Your turn</b>${s.trick.length ? "" : " to lead"}: play a highlighted card.` +
      (s.hearts_broken ? " Hearts are broken." : "");
  }
  return `${text}${s.names[s.to_act[0]]} is playing…`;
}

function renderScores(s) {
  $("target").textContent = `· ${s.variant_title}, to ${s.target}`;
  const rows = $("score-rows");
  rows.innerHTML = "";
  s.rounds.forEach((r) => {
    const tr = document.createElement("tr");
    tr.innerHTML = `<th scope="row">${r.hand} <span class="muted small">${r.pass}</span></th>` +
      r.points.map((p, seat) => `<td${r.shooter === seat ? ' class="moon" title="shot the moon"' : ""}>${p}` +
        `${r.shooter === seat ? " ☾" : ""}</td>`).join("");
    rows.append(tr);
  });
  $("score-total").innerHTML = `<th scope="row">Total</th>` +
    s.scores.map((t, seat) => `<td${s.winners.includes(seat) ? ' class="win"' : ""}>${t}</td>`).join("");
}

function winnersText(s) {
  const names = s.winners.map((seat) => (seat === 0 ? "you" : s.names[seat]));
  if (names.length === 1) return names[0] === "you" ? "You win the match!" : `${names[0]} wins the match.`;
  const list = names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  return `${list[0].toUpperCase()}${list.slice(1)} share the win.`;
}

function showRoundResult(summary) {
  const s = state;
  const dialog = $("result");
  hideNotice();
  const over = s.is_over && summary === s.rounds[s.rounds.length - 1];
  $("result-title").textContent = `Hand ${summary.hand} scores` + (over ? " — match over" : "");
  $("result-moon").textContent = summary.moon;
  $("result-moon").hidden = !summary.moon;
  const rows = $("result-rows");
  rows.innerHTML = "";
  for (let seat = 0; seat < 4; seat++) {
    const tr = document.createElement("tr");
    const chips = summary.taken[seat].map((c) => `<span class="chip ${c.red ? "red" : "black"}">${c.label}</span>`);
    tr.innerHTML = `<th scope="row">${s.names[seat]}</th><td class="taken">${chips.join("") || "—"}</td>` +
      `<td>${summary.points[seat]}</td><td>${summary.totals[seat]}</td>`;
    rows.append(tr);
  }
  $("result-winners").textContent = over ? winnersText(s) : "";
  const buttons = $("result-buttons");
  buttons.innerHTML = "";
  return new Promise((resolve) => {
    const add = (text, id, action) => {
      const b = document.createElement("button");
      b.textContent = text;
      b.id = id;
      b.addEventListener("click", () => { dialog.close(); resolve(); action(); });
      buttons.append(b);
      return b;
    };
    if (over) {
      recordResult(s);
      add("New game", "result-new", () => startGame(() => py.new_game($("variant").value)));
      add("Replay this deal", "result-replay", () => startGame(() => py.replay()));
      add("Close", "result-close", () => {});
    } else {
      add("Next hand", "next-hand", () => {}).classList.add("primary");
    }
    dialog.addEventListener("close", () => resolve(), { once: true });
    dialog.showModal();
    buttons.firstChild.focus();
  });
}

function recordResult(s) {
  const history = readHistory();
  history.unshift({ when: new Date().toISOString(), variant: s.variant_title, scores: s.scores, winners: s.winners });
  localStorage.setItem(HISTORY_KEY, JSON.stringify(history.slice(0, 20)));
  renderHistory();
}

function readHistory() {
  try {
    const h = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
    return Array.isArray(h) ? h : [];
  } catch {
    return [];
  }
}

function renderHistory() {
  const list = $("history");
  list.innerHTML = "";
  const history = readHistory();
  $("no-history").hidden = history.length > 0;
  for (const h of history) {
    const li = document.createElement("li");
    const names = ["You", "West", "North", "East"];
    li.textContent = `${new Date(h.when).toLocaleDateString()} · ${h.variant}: ` +
      h.scores.map((t, seat) => `${names[seat]} ${t}`).join(", ") +
      ` — won by ${h.winners.map((seat) => names[seat]).join(" & ")}`;
    list.append(li);
  }
}

function showMessage(text, code) {
  const m = $("message");
  m.textContent = text;
  m.dataset.code = code || "";
  m.hidden = false;
}

function clearMessage() {
  const m = $("message");
  m.hidden = true;
  m.textContent = "";
  delete m.dataset.code;
}

function notice(text, kind) {
  const n = $("notice");
  n.textContent = text;
  n.dataset.kind = kind;
  n.hidden = false;
}

function showVariant() {
  const p = presets.find((x) => x.name === $("variant").value);
  if (!p) return;
  const playing = state && state.preset !== p.name;
  $("variant-blurb").textContent = p.blurb + (playing ? " Press New game to play it." : "");
  $("rules-text").textContent = p.rules;
}

function toggleRules() {
  const rules = $("rules");
  rules.hidden = !rules.hidden;
  $("rules-button").setAttribute("aria-expanded", String(!rules.hidden));
}

boot().catch((err) => {
  console.error(err);
  document.body.dataset.error = pythonMessage(err);
  $("loading-text").textContent = `The game could not start: ${pythonMessage(err)}`;
  $("loading").classList.add("failed");
});
