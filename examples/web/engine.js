// The engine's web worker: Pyodide, heartslib and game.py run here, off the page's main thread, so the
// page stays responsive while Python starts and while a computer player thinks.
//
// Messages from the page:
//   {type: "boot", manifest}             -> {type: "progress", step} ... then {type: "ready", heartslib}
//                                           or {type: "boot-error", message}
//   {type: "call", id, name, args}       -> {type: "result", id, value} or {type: "result", id, error}
// `name` is one of game.py's functions; each returns JSON text, passed on as it is.

const CALLS = new Set(["catalog", "new_game", "replay", "load", "save", "state", "why", "play", "pass_cards",
  "choose", "agent_step"]);
let game = null;

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

// A Python exception's message is its whole traceback; the last line names the problem.
function lastLine(err) {
  const lines = String(err && err.message ? err.message : err).trim().split("\n");
  return lines[lines.length - 1];
}

async function boot(manifest) {
  const base = new URL("./", self.location.href);
  const runtime = new URL(manifest.runtime, base).href;
  const { loadPyodide } = await import(`${runtime}pyodide.mjs`);
  postMessage({ type: "progress", step: "python" });
  const [pyodide, wheels, source] = await Promise.all([
    loadPyodide({ indexURL: runtime, stdLibURL: new URL(manifest.stdlib, base).href }),
    Promise.all(manifest.wheels.map(async (w) => (await fetchOk(new URL(w, base))).arrayBuffer())),
    fetchOk(new URL("game.py", base)).then((r) => r.text()),
  ]);
  postMessage({ type: "progress", step: "engine" });
  for (const wheel of wheels) pyodide.unpackArchive(wheel, "wheel");
  pyodide.FS.mkdirTree("/home/pyodide/web");
  pyodide.FS.writeFile("/home/pyodide/web/game.py", source);
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/web')");
  game = pyodide.pyimport("game");
  return pyodide.runPython("import heartslib; heartslib.__version__");
}

self.onmessage = async ({ data }) => {
  if (data.type === "boot") {
    try {
      const heartslib = await boot(data.manifest);
      postMessage({ type: "ready", heartslib });
    } catch (err) {
      postMessage({ type: "boot-error", message: lastLine(err) });
    }
    return;
  }
  if (data.type === "call") {
    try {
      if (!game) throw new Error("the engine has not started");
      if (!CALLS.has(data.name)) throw new Error(`game.py has no call ${data.name}`);
      // undefined reaches Python as None (null would be JsNull).
      const args = data.args.map((a) => (a === null ? undefined : a));
      postMessage({ type: "result", id: data.id, value: game[data.name](...args) });
    } catch (err) {
      postMessage({ type: "result", id: data.id, error: lastLine(err) });
    }
  }
};
