/*
 * The station's service worker, served at /service-worker.js by server/service-worker.ts, which
 * puts the running build's version and files in front of this text (self.SPIN_BUILD).
 *
 * Hand-written rather than Workbox: it does five small things (precache one build, keep the last
 * pages, an offline page, ranged answers from the listener's downloads, never the live stream),
 * Remix's files are already content-hashed so no precache manifest needs building, and Workbox
 * would add a build step to Remix's classic compiler for less than this file.
 *
 * Updates: every build has its own caches (spin-shell-<version>, spin-pages-<version>). A new
 * worker installs beside the old one and waits; the page offers "Reload", which tells it to take
 * over (SKIP_WAITING), and every page it then controls reloads onto the new build
 * (components/AppUpdate.tsx). Until then the old worker keeps serving the old build's files, so
 * nobody is left on a page whose scripts are gone. The listener's downloads (spin-downloads) are
 * never versioned: an update keeps them.
 */

const BUILD = self.SPIN_BUILD;
const SHELL = `spin-shell-${BUILD.version}`;
const PAGES = `spin-pages-${BUILD.version}`;
const DOWNLOADS = "spin-downloads";
const OFFLINE_PAGE = "/offline";
// Pages kept for reading offline, the most recently visited ones.
const MAX_PAGES = 40;

// Never from a cache: live audio, the rewind window, realtime, and what the server says now.
const ALWAYS_NETWORK = [/^\/stream\//, /^\/live[./]/, /^\/socket\.io\//, /^\/now-playing/, /^\/__manifest/, /^\/rewind\.json/, /^\/healthz/];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll([...BUILD.precache, OFFLINE_PAGE])));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => /^spin-(shell|pages)-/.test(name) && name !== SHELL && name !== PAGES).map((name) => caches.delete(name)));
      // The first worker takes the open pages at once (a download needs it); an update gets here
      // only when every old page is closed or the listener chose "Reload" (see above).
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (ALWAYS_NETWORK.some((pattern) => pattern.test(url.pathname))) return;
  if (url.pathname.startsWith("/media/") || url.pathname.startsWith("/podcast/chapters/") || url.pathname.startsWith("/podcast/transcript/")) {
    event.respondWith(fromDownloads(request));
  } else if (url.pathname.startsWith("/build/") || url.pathname.startsWith("/locales/")) {
    // Content-hashed (or versioned) addresses: a kept copy is the file itself.
    event.respondWith(cacheFirst(request, SHELL));
  } else if (request.mode === "navigate" || url.pathname.endsWith(".data")) {
    event.respondWith(networkFirst(request));
  } else if (BUILD.precache.includes(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});

async function cacheFirst(request, cacheName) {
  const cache = await caches.open(cacheName);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** Pages and their data: the network's answer (kept), else the kept copy, else the offline page. */
async function networkFirst(request) {
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && !response.headers.get("Cache-Control")?.includes("no-store")) {
      await cache.put(request, response.clone());
      await trim(cache);
    }
    return response;
  } catch (error) {
    const kept = (await cache.match(request)) ?? (await caches.match(request, { cacheName: SHELL }));
    if (kept) return kept;
    if (request.mode === "navigate") {
      const offline = await caches.match(OFFLINE_PAGE, { cacheName: SHELL });
      if (offline) return offline;
    }
    throw error;
  }
}

async function trim(cache) {
  const keys = await cache.keys();
  // Keys come back in insertion order: the oldest go first.
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map((key) => cache.delete(key)));
}

/** An episode's audio, cover, chapters or transcript the listener downloaded; anything else from the network. */
async function fromDownloads(request) {
  const cache = await caches.open(DOWNLOADS);
  const kept = await cache.match(request.url, { ignoreVary: true });
  if (!kept) return fetch(request);
  return ranged(request.headers.get("Range"), kept);
}

/** The part of a kept file a Range header asks for (RFC 9110 single ranges, as media elements send). */
async function ranged(range, kept) {
  if (!range) return kept;
  const blob = await kept.blob();
  const size = blob.size;
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  let start = match && match[1] !== "" ? Number(match[1]) : null;
  let end = match && match[2] !== "" ? Number(match[2]) : null;
  if (start === null && end !== null) {
    start = Math.max(0, size - end);
    end = size - 1;
  } else if (start !== null) end = end === null ? size - 1 : Math.min(end, size - 1);
  if (!match || start === null || start >= size || end < start) {
    return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  }
  return new Response(blob.slice(start, end + 1), {
    status: 206,
    headers: {
      "Content-Type": kept.headers.get("Content-Type") || "application/octet-stream",
      "Content-Range": `bytes ${start}-${end}/${size}`,
      "Content-Length": String(end - start + 1),
      "Accept-Ranges": "bytes",
    },
  });
}

// Reminders of followed shows and their new episodes (app/models/show-reminders.server.ts sends
// them): { title, body, url, tag }. The tag makes a repeated message replace, not stack.
self.addEventListener("push", (event) => {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    message = null;
  }
  if (!message || typeof message.title !== "string") return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: typeof message.body === "string" ? message.body : "",
      tag: typeof message.tag === "string" ? message.tag : undefined,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      data: { url: typeof message.url === "string" && message.url.startsWith("/") ? message.url : "/listen" },
    }),
  );
});

// Opens the page the notification names (the live player for a show starting), in an open window when there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? "/listen", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        return open.navigate(target);
      }
      return self.clients.openWindow(target);
    })(),
  );
});
