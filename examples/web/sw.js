// The service worker: answers the game's requests from the offline cache, so a reload transfers almost
// nothing and the game starts with the server gone.
//
// The page fills the cache itself ("heartslib-web-<build id>", every file of manifest.json, downloaded
// once with a progress bar and checked against its hash) and removes older builds' caches. This worker
// only answers:
//   - manifest.json, and any request the page makes with cache "no-cache" or "reload" (its downloads):
//     the network first, the cache when the network fails;
//   - everything else of this site, the page itself included ("./" and "./?..." are index.html): the
//     cache first, the network when the file is not cached.

const PREFIX = "heartslib-web-";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

async function fromCache(url) {
  for (const name of (await caches.keys()).filter((n) => n.startsWith(PREFIX)).reverse()) {
    const hit = await (await caches.open(name)).match(url, { ignoreSearch: true });
    if (hit) return hit;
  }
  return undefined;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const scope = self.registration.scope;
  if (request.method !== "GET" || !request.url.startsWith(scope)) return;
  const path = new URL(request.url).pathname.slice(new URL(scope).pathname.length);
  const key = new URL(path === "" ? "index.html" : path, scope).href; // "/?seed=7" is the page too
  if (path === "manifest.json" || request.cache === "no-cache" || request.cache === "reload") {
    event.respondWith(fetch(request).catch(async (err) => {
      const hit = await fromCache(key);
      if (!hit) throw err;
      // The page shows "playing offline" when its manifest comes from here.
      const headers = new Headers(hit.headers);
      headers.set("X-Heartslib-Offline", "1");
      return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers });
    }));
    return;
  }
  event.respondWith(fromCache(key).then((hit) => hit ?? fetch(request)));
});
