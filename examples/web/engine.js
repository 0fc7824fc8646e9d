// The engine's web worker: Pyodide, heartslib and game.py run here, off the page's main thread, so the
// page stays responsive while Python starts and while a computer player thinks.
//
// Messages from the page:
//   {type: "boot", manifest}             -> {type: "progress", step} ... then {type: "ready", heartslib}
//                                           or {type: "boot-error", message}
//   {type: "call", id, name, args}       -> {type: "result", id, value} or {type: "result", id, error}
//   {type: "idle"}                       -> after the first start, the memory snapshot is taken now
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

// The page turns these into performance marks (heartslib:worker-*), to see where start-up time goes.
const stamp = (name) => postMessage({ type: "timing", name, at: performance.timeOrigin + performance.now() });

// A memory snapshot of Python with heartslib and game.py imported, kept in this build's offline cache
// ("heartslib-web-<build>", beside the files; it goes when the build's cache goes). Restoring it
// skips Python's start-up and the imports: the slow part of a reload. Pyodide calls these options
// private (_makeSnapshot, _loadSnapshot, makeMemorySnapshot); any failure falls back to a plain start.
const snapshotKey = (base, manifest) => new URL(`python-snapshot-${manifest.build}.gz`, base).href;

async function readSnapshot(base, manifest) {
  if (!self.caches) return null;
  try {
    const cache = await caches.open(`heartslib-web-${manifest.build}`);
    const hit = await cache.match(snapshotKey(base, manifest));
    if (!hit) return null;
    const inflated = hit.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(inflated).arrayBuffer());
  } catch (err) {
    console.warn("the Python snapshot could not be read; starting Python afresh", err);
    return null;
  }
}

async function writeSnapshot(base, manifest, bytes) {
  if (!self.caches) return;
  try {
    const cache = await caches.open(`heartslib-web-${manifest.build}`);
    const deflated = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
    await cache.put(snapshotKey(base, manifest), new Response(deflated));
    stamp("snapshot-saved");
  } catch (err) {
    console.warn("the Python snapshot could not be saved; the next start will not be faster", err);
  }
}

async function dropSnapshot(base, manifest) {
  try {
    await (await caches.open(`heartslib-web-${manifest.build}`)).delete(snapshotKey(base, manifest));
  } catch {
    // nothing to drop
  }
}

async function boot(manifest) {
  stamp("start");
  const base = new URL("./", self.location.href);
  const runtime = new URL(manifest.runtime, base).href;
  const options = { indexURL: runtime, stdLibURL: new URL(manifest.stdlib, base).href };
  const [{ loadPyodide }, snapshot, wheels, source] = await Promise.all([
    import(`${runtime}pyodide.mjs`),
    readSnapshot(base, manifest),
    Promise.all(manifest.wheels.map(async (w) => (await fetchOk(new URL(w, base))).arrayBuffer())),
    fetchOk(new URL("game.py", base)).then((r) => r.text()),
  ]);
  stamp("runtime-imported");
  postMessage({ type: "progress", step: "python" });
  const install = (pyodide) => {
    for (const wheel of wheels) pyodide.unpackArchive(wheel, "wheel");
    pyodide.FS.mkdirTree("/home/pyodide/web");
    pyodide.FS.writeFile("/home/pyodide/web/game.py", source);
  };
  let pyodide = null;
  if (snapshot) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      install(pyodide); // the files are not part of the snapshot (lazy imports and tracebacks read them)
      pyodide.runPython("import random; random.seed()"); // the snapshot's random state is the same every time
      stamp("snapshot-restored");
    } catch (err) {
      console.warn("the Python snapshot did not restore; starting Python afresh", err);
      pyodide = null;
      await dropSnapshot(base, manifest);
    }
  }
  if (!pyodide) {
    pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
    stamp("python-started");
    postMessage({ type: "progress", step: "engine" });
    install(pyodide);
    stamp("wheels-unpacked");
    pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/web')");
    // Taken when the page says it is idle (the player is looking at the first deal), not on the way
    // to the first deal: it costs about half a second.
    pendingSnapshot = () => writeSnapshot(base, manifest, pyodide.makeMemorySnapshot());
  }
  game = pyodide.pyimport("game");
  stamp("game-imported");
  return pyodide.runPython("import heartslib; heartslib.__version__");
}

let pendingSnapshot = null;

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
  if (data.type === "idle") {
    const take = pendingSnapshot;
    pendingSnapshot = null;
    if (take) {
      try {
        await take();
      } catch (err) {
        console.warn("no Python snapshot; the next start will not be faster", err);
      }
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
