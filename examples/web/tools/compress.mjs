// Build helper: write FILE.br beside each FILE, with Node's built-in brotli at the highest quality.
// Results are kept in a cache folder by content hash, so a rebuild does not compress again.
//
//   node tools/compress.mjs CACHE_DIR FILE...
import { brotliCompressSync, constants } from "node:zlib";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

const [cache, ...files] = process.argv.slice(2);
if (!cache || !files.length) {
  console.error("usage: node tools/compress.mjs CACHE_DIR FILE...");
  process.exit(2);
}
mkdirSync(cache, { recursive: true });
for (const file of files) {
  const data = readFileSync(file);
  const key = path.join(cache, `${createHash("sha256").update(data).digest("hex")}.br`);
  if (!existsSync(key)) {
    const out = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [constants.BROTLI_PARAM_MODE]: /\.(js|mjs|css|html|json|py)$/.test(file)
          ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
      },
    });
    writeFileSync(`${key}.tmp`, out);
    renameSync(`${key}.tmp`, key);
  }
  copyFileSync(key, `${file}.br`);
}
