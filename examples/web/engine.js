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
const snapshotKey = (base, manifest) => new URL(`python-snapshot-${manifest.build}.bin`, base).href;

// The snapshot is Python's whole memory (about 31 MB), mostly untouched pages of zeros. It is stored
// without them: "HLSNAP1\0", the length (u32, little-endian), a bitmap of the 4 kB pages that are
// not all zeros, then those pages. Unpacking is a copy (no decompression), which is what keeps a
// reload fast.
const MAGIC = new TextEncoder().encode("HLSNAP1\0");
const PAGE = 4096;

function packSnapshot(bytes) {
  const pages = Math.ceil(bytes.length / PAGE);
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  const kept = [];
  const words = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2) : null;
  for (let p = 0; p < pages; p++) {
    const start = p * PAGE;
    const end = Math.min(start + PAGE, bytes.length);
    let used = false;
    if (words && end - start === PAGE) {
      for (let w = start >>> 2; w < end >>> 2; w++) if (words[w] !== 0) { used = true; break; }
    } else {
      for (let b = start; b < end; b++) if (bytes[b] !== 0) { used = true; break; }
    }
    if (used) {
      bitmap[p >>> 3] |= 1 << (p & 7);
      kept.push(bytes.subarray(start, end));
    }
  }
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, bytes.length, true);
  return new Blob([MAGIC, length, bitmap, ...kept]);
}

function unpackSnapshot(buffer) {
  const data = new Uint8Array(buffer);
  if (!MAGIC.every((b, i) => data[i] === b)) throw new Error("not a heartslib-web snapshot");
  const length = new DataView(buffer).getUint32(MAGIC.length, true);
  const pages = Math.ceil(length / PAGE);
  const bitmapAt = MAGIC.length + 4;
  const out = new Uint8Array(length);
  let at = bitmapAt + Math.ceil(pages / 8);
  for (let p = 0; p < pages; p++) {
    if (data[bitmapAt + (p >>> 3)] & (1 << (p & 7))) {
      const size = Math.min(PAGE, length - p * PAGE);
      out.set(data.subarray(at, at + size), p * PAGE);
      at += size;
    }
  }
  if (at !== data.length) throw new Error("the snapshot is truncated or damaged");
  return out;
}

async function readSnapshot(base, manifest) {
  if (!self.caches) return null;
  try {
    const cache = await caches.open(`heartslib-web-${manifest.build}`);
    const hit = await cache.match(snapshotKey(base, manifest));
    if (!hit) return null;
    return unpackSnapshot(await hit.arrayBuffer());
  } catch (err) {
    console.warn("the Python snapshot could not be read; starting Python afresh", err);
    return null;
  }
}

async function writeSnapshot(base, manifest, bytes) {
  if (!self.caches) return;
  try {
    const cache = await caches.open(`heartslib-web-${manifest.build}`);
    await cache.put(snapshotKey(base, manifest), new Response(packSnapshot(bytes)));
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
