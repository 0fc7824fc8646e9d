// Build helper: run a Python file inside Pyodide under Node, with the page's wheels and game.py installed,
// the way the browser does it. build.py uses it to find the standard-library modules the game imports
// and then to check that the trimmed standard library is enough.
//
//   node tools/pyodide_run.mjs SCRIPT.py WHEEL... [--stdlib ZIP] [--game GAME.py] [--mount DIR] [--env NAME=VALUE]...
//
// --env sets an environment variable before Python starts (build.py compiles the bytecode with
// PYTHONNODEBUGRANGES=1: line numbers without the column ranges, a quarter of the bytecode's bytes).
// --mount makes the host folder DIR readable and writable in Python as /mnt (build.py compiles the
// standard library and the wheels to bytecode this way, with Pyodide's own Python version).
// The script's stdout is printed; a Python exception exits with status 1.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const stdLibURL = option("--stdlib");
const gamePath = option("--game") ?? path.join(HERE, "..", "game.py");
const mount = option("--mount");
const env = {};
for (let pair = option("--env"); pair !== undefined; pair = option("--env")) {
  const at = pair.indexOf("=");
  if (at < 1) {
    console.error(`--env takes NAME=VALUE, not ${JSON.stringify(pair)}`);
    process.exit(2);
  }
  env[pair.slice(0, at)] = pair.slice(at + 1);
}
const [script, ...wheels] = args;
if (!script) {
  console.error("usage: node tools/pyodide_run.mjs SCRIPT.py WHEEL... [--stdlib ZIP] [--game GAME.py] [--mount DIR] [--env NAME=VALUE]...");
  process.exit(2);
}

const pyodide = await loadPyodide({
  indexURL: path.join(HERE, "..", "node_modules", "pyodide") + path.sep,
  ...(stdLibURL ? { stdLibURL: path.resolve(stdLibURL) } : {}),
  env,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
for (const wheel of wheels) pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
if (mount) {
  pyodide.FS.mkdirTree("/mnt");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(mount) }, "/mnt");
}
pyodide.FS.mkdirTree("/home/pyodide/web");
pyodide.FS.writeFile("/home/pyodide/web/game.py", readFileSync(gamePath, "utf8"));
try {
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/web')");
  pyodide.runPython(readFileSync(script, "utf8"), { filename: script });
} catch (err) {
  console.error(String(err.message ?? err));
  process.exit(1);
}
