import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import type { RequestHandler } from "express";

// The worker's text (public/service-worker.js); what is served is it with the build's list in front.
const SOURCE_PATH = path.resolve("public/service-worker.js");
// Route modules a listener needs offline: the shell, the downloads list and what plays from it.
const OFFLINE_ROUTES = ["root", "routes/downloads", "routes/listen", "routes/play.$podId"];
// Same-origin addresses of the installed app (manifest and icons) kept with each build.
const APP_FILES = ["/downloads", "/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png", "/favicon.svg"];

/** The files one build's worker keeps before it takes over: entry, shared chunks and the offline routes' modules and styles. */
export function precacheList(build: Pick<ServerBuild, "assets">): string[] {
  const { assets } = build;
  const files = new Set<string>([assets.url, assets.entry.module, ...assets.entry.imports]);
  for (const id of OFFLINE_ROUTES) {
    const route = assets.routes[id];
    if (!route) continue;
    files.add(route.module);
    for (const file of [...(route.imports ?? []), ...(route.css ?? [])]) files.add(file);
  }
  return [...files, ...APP_FILES];
}

const BUILD_DIR = path.resolve("public/build");
// Chunks loaded later by import() (the player's episode and Media Session halves, the bar's
// controls, the header's dialogs and admin strip), the CSS bundle, the icons and the Latin faces of
// the font: not in the route manifest, needed offline.
const LATER_FILES = [
  /^_shared\/(player-episodes|player-media-session|EpisodeBar|header-dialogs)-\w+\.js$/,
  /^[^/]+\.css$/,
  /^_assets\/(icons-\w+\.svg|inter-latin(-ext)?-wght-normal-\w+\.woff2)$/,
];

/** The build's files named by LATER_FILES, as URLs. */
function laterFiles(publicPath: string): string[] {
  const names = readdirSync(BUILD_DIR, { recursive: true, encoding: "utf8" }).map((name) => name.split(path.sep).join("/"));
  return names.filter((name) => LATER_FILES.some((pattern) => pattern.test(name))).map((name) => `${publicPath}${name}`);
}

/**
 * GET /service-worker.js: the worker with this build's version and files. A new deployment
 * changes these bytes, which is how browsers learn there is an update; `no-cache` makes them ask.
 */
export function serveServiceWorker(getBuild: () => ServerBuild): RequestHandler {
  const source = readFileSync(SOURCE_PATH, "utf8");
  let served: { version: string; body: string } | null = null;
  return (_req, res) => {
    const build = getBuild();
    if (served?.version !== build.assets.version) {
      const precache = [...new Set([...precacheList(build), ...laterFiles(build.publicPath)])];
      const header = `self.SPIN_BUILD = ${JSON.stringify({ version: build.assets.version, precache })};\n`;
      served = { version: build.assets.version, body: header + source };
    }
    res.set({ "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" }).send(served.body);
  };
}
